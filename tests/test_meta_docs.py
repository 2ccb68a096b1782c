"""The Python examples of docs/meta.md run as written (paths relative to the repository
root; files they write go to a temporary directory) and its key numbers hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import CLEF, SHARED_DATA, require

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "meta.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory beside a link to ../shared, so that ../shared/data resolves and plots
    written by the examples land in a temporary place."""
    require(SHARED_DATA)
    require(CLEF)
    (tmp_path / "shared").symlink_to(SHARED_DATA.parent, target_is_directory=True)
    work = tmp_path / "repo"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, workdir, capsys):
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out  # every example prints something


def test_documented_numbers(workdir, capsys):
    exec(compile(BLOCKS[0], str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert float(out.split()[0]) == pytest.approx(0.8266, abs=5e-5)
    exec(compile(BLOCKS[1], str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "5913/8256 pairs significant" in out and "0.1082" in out
    assert (workdir / "asl.png").exists()
