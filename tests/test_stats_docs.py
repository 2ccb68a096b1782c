"""The Python examples of docs/stats.md run as written (from the repository root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "stats.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, urbano, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the examples name ../shared/data relative to the repository
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out  # every example prints something


def test_the_documented_seed004_numbers_hold(urbano, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(BLOCKS[1], str(DOC), "exec"), namespace)
    out = capsys.readouterr().out
    assert "3423 8256 0.0515" in out
