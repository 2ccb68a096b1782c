"""docs/evaluation.md: the output it shows for several runs (``irscale eval -q -m map qrels
KDEIR_EN_Run1.txt ecnu_EN_Run1.txt`` on the CLEF data) is what ``irscale eval`` prints;
the command and the lines are read from the page."""

from __future__ import annotations

import re
import shlex

from .docs_numbers import blocks, paragraph
from .docs_numbers import read as read_doc
from .test_cli_eval import cli

TEXT = read_doc("evaluation.md")


def test_documented_output_of_several_runs(clef):
    text = paragraph(TEXT, "With **several runs**")
    command = shlex.split(re.search(r"`(irscale eval [^`]*)` on the CLEF data", text)[1])
    args = [str(clef / "task2.qrels") if word == "qrels" else
            str(clef / "runs" / word) if word.endswith(".txt") else word
            for word in command[1:]]
    status, out, err = cli(args)
    assert status == 0, err
    shown = next(code for code in blocks(TEXT, "text") if "\tall\t" in code).splitlines()
    assert len(shown) >= 4
    printed = out.splitlines()
    for line in shown:  # an excerpt: every line shown is printed, in the order shown
        assert line in printed, line
    assert [printed.index(line) for line in shown] == sorted(printed.index(line)
                                                              for line in shown)
