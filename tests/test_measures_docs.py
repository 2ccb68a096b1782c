"""docs/measures.md: the examples run as written (from the repository root): the Python
blocks, which print what the comment lines under their ``print`` show, and the
``irscale eval`` command lines through the CLI entry point; the Ferro & Maistro (2024), Fig. 11
numbers of the text hold. The expected numbers are read from the page
(:mod:`tests.docs_numbers`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .docs_examples import run_shell_example
from .docs_numbers import assert_close, blocks, number_after, paragraph
from .docs_numbers import read as read_doc
from .test_measures_seeds import FIG11, measure

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "measures.md"
TEXT = read_doc("measures.md")
PYTHON = blocks(TEXT)
SHELL = blocks(TEXT, "bash")


def documented_output(code: str) -> str:
    """The comment lines that follow a ``print`` in ``code``, without their ``#``: what the
    page says the example prints."""
    seen_print, lines = False, []
    for line in code.splitlines():
        if "print(" in line:
            seen_print = True
        elif seen_print and line.startswith("#"):
            lines.append(line[1:].strip())
    return "\n".join(lines)


@pytest.mark.parametrize("code", PYTHON, ids=[f"python{i + 1}" for i in range(len(PYTHON))])
def test_documented_python_example_runs(code, monkeypatch, capsys, tmp_path):
    """Every example runs where a user runs it: it makes its own data (no ../shared)."""
    assert "shared/data" not in code
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert out  # every example prints something
    stated = documented_output(code)
    if stated:  # the output shown is the output (line breaks of long lists aside)
        assert " ".join(out.split()) == " ".join(stated.split())


def test_the_examples_state_their_outputs():
    stated = [code for code in PYTHON if documented_output(code)]
    assert len(stated) >= 3


def test_documented_fig11_numbers():
    """"DCG_b02 of Ferrante et al. (2021) and of Ferro & Maistro's (2024) Fig. 11 (DCG = 5.2976,
    iDCG = 10.1996, nDCG = 0.5194, reproduced in the tests)"."""
    text = paragraph(TEXT, "Fig. 11 (DCG = ")
    name = re.search(r"`(DCG\([^`]*\))` is the DCG_b02", text)[1]
    dcg = measure(name, FIG11)[0]
    ndcg = measure("n" + name, FIG11)[0]
    assert_close(number_after(text, "(DCG = "), dcg, "DCG")
    assert_close(number_after(text, "iDCG = "), dcg / ndcg, "iDCG")
    assert_close(number_after(text, "nDCG = "), ndcg, "nDCG")


def test_documented_commands_run(tmp_path):
    """The shell blocks, run in order in a new folder (the first one writes the demo's
    files the others read): every command succeeds, and each evaluation prints means."""
    assert not any("shared/data" in block for block in SHELL)
    outputs = {}
    for block in SHELL:
        outputs.update(run_shell_example(block, tmp_path, prompt=""))
    evaluations = [out for command, out in outputs.items() if command.startswith("irscale eval")]
    assert len(evaluations) == len(SHELL) and all("\tall\t" in out for out in evaluations)
