"""The Python examples of docs/scales.md run as written (from the repository root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "scales.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, monkeypatch, capsys, request):
    if "shared/data" in code:
        request.getfixturevalue("clef")  # skips when ../shared/data is absent
    monkeypatch.chdir(ROOT)  # the examples name ../shared/data relative to the repository
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    out = capsys.readouterr().out
    assert out
    if "Example 12" in code:
        assert "16 12" in out and "[ 9  9 12]" in out and "[12 11 10  9  2  1]" in out
