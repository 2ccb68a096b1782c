"""The examples of docs/measures.md run as written (from the repository root): the Python
blocks, and the ``irscale eval`` command lines through the CLI entry point."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

import pytest

from .test_cli_eval import cli

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "measures.md"
TEXT = DOC.read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
SHELL = re.findall(r"```bash\n(.*?)```", TEXT, flags=re.S)


@pytest.mark.parametrize("code", PYTHON, ids=[f"python{i + 1}" for i in range(len(PYTHON))])
def test_documented_python_example_runs(code, clef, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the examples name ../shared/data relative to the repository
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out  # every example prints something


@pytest.mark.parametrize("command", SHELL, ids=[f"bash{i + 1}" for i in range(len(SHELL))])
def test_documented_command_runs(command, clef, monkeypatch):
    monkeypatch.chdir(ROOT)
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:2] == ["irscale", "eval"]
    args = [match for word in words[1:] for match in (sorted(glob.glob(word)) or [word])]
    status, out, err = cli(args)
    assert status == 0, err
    assert "\tall\t" in out
