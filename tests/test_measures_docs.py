"""docs/measures.md: the examples run as written (from the repository root): the Python
blocks, which print what the comment lines under their ``print`` show, and the
``irscale eval`` command lines through the CLI entry point; the seed 004 Fig. 11 numbers of
the text hold. The expected numbers are read from the page (:mod:`tests.docs_numbers`)."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

import pytest

from .docs_numbers import assert_close, blocks, number_after, paragraph
from .docs_numbers import read as read_doc
from .test_cli_eval import cli
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
def test_documented_python_example_runs(code, monkeypatch, capsys, request):
    if "shared/data" in code:
        request.getfixturevalue("clef")  # skips when ../shared/data is absent
    monkeypatch.chdir(ROOT)  # the examples name ../shared/data relative to the repository
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
    """"DCG_b02 of seed 000 and of seed 004's Fig. 11 (DCG = 5.2976, iDCG = 10.1996,
    nDCG = 0.5194, reproduced in the tests)"."""
    text = paragraph(TEXT, "Fig. 11 (DCG = ")
    name = re.search(r"`(DCG\([^`]*\))` is the DCG_b02", text)[1]
    dcg = measure(name, FIG11)[0]
    ndcg = measure("n" + name, FIG11)[0]
    assert_close(number_after(text, "(DCG = "), dcg, "DCG")
    assert_close(number_after(text, "iDCG = "), dcg / ndcg, "iDCG")
    assert_close(number_after(text, "nDCG = "), ndcg, "nDCG")


@pytest.mark.parametrize("command", SHELL, ids=[f"bash{i + 1}" for i in range(len(SHELL))])
def test_documented_command_runs(command, clef, monkeypatch):
    monkeypatch.chdir(ROOT)
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:2] == ["irscale", "eval"]
    args = [match for word in words[1:] for match in (sorted(glob.glob(word)) or [word])]
    status, out, err = cli(args)
    assert status == 0, err
    assert "\tall\t" in out
