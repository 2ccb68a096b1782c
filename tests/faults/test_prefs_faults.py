"""``irscale eval -R prefs`` / ``-R qrels_prefs``: faulty preference judgments and options.
Table-driven: every row is one call checked against the contract of ``docs/errors.md``
(see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text

PREFS = ["1 u1 s1 d1 2", "1 u1 s1 d2 1", "1 u1 s1 d3 0", "2 u1 s1 d1 1", "2 u1 s1 d5 0"]
FILES = {"p.txt": text(PREFS)}


def prefs(*extra: str, judgments: str = "p.txt", form: str = "prefs") -> list[str]:
    return ["eval", "-R", form, *extra, judgments, "a.run"]


def with_line(number: int, new: str) -> bytes:
    lines = list(PREFS)
    lines[number - 1] = new
    return text(lines)


CASES = [
    ok("prefs-all", prefs("-q", "-m", "all_prefs"),
       output_contains("prefs_simp", "prefs_avgjg_Rnonrel_ret", "num_q"), files=FILES),
    ok("qrels-prefs", prefs("-m", "prefs", judgments="qrels.txt", form="qrels_prefs"),
       output_contains("prefs_pair"), files=FILES),
    err("prefs-four-fields", prefs("-m", "prefs_simp"), "p.txt", "line 2", "expected 5 fields",
        files={"p.txt": with_line(2, "1 u1 d2 1")}),
    err("prefs-six-fields", prefs("-m", "prefs_simp"), "line 3", "got 6",
        files={"p.txt": with_line(3, "1 u1 s1 d3 0 x")}),
    err("prefs-level-not-a-number", prefs("-m", "prefs_simp"), "line 1", "not a number",
        files={"p.txt": with_line(1, "1 u1 s1 d1 high")}),
    err("prefs-level-nan", prefs("-m", "prefs_simp"), "line 1", "finite",
        files={"p.txt": with_line(1, "1 u1 s1 d1 nan")}),
    err("prefs-empty", prefs("-m", "prefs_simp"), "p.txt", "empty", files={"p.txt": b""}),
    err("qrels-prefs-five-fields", prefs("-m", "prefs_simp", form="qrels_prefs"),
        "expected 4 fields", "line 1", files=FILES),
    err("prefs-two-levels-one-subgroup", prefs("-m", "prefs_simp"), "line", "two levels",
        files={"p.txt": text([*PREFS, "1 u1 s1 d1 0.5"])}),
    err("prefs-zero-and-relevant", prefs("-m", "prefs_simp"), "both 0",
        files={"p.txt": text([*PREFS, "1 u2 a d1 0", "1 u2 b d1 3", "1 u2 b d4 1"])}),
    err("prefs-contradiction", prefs("-m", "prefs_simp"), "contradictory",
        files={"p.txt": text([*PREFS, "1 u2 a d1 2", "1 u2 a d2 1", "1 u2 b d2 2",
                              "1 u2 b d1 1"])}),
    err("prefs-unknown-format", prefs("-m", "prefs_simp", form="bogus"), "-R", "bogus",
        files=FILES),
    err("prefs-measure-without-prefs", ["eval", "-m", "prefs_simp", "qrels.txt", "a.run"],
        "prefs_simp", "-R prefs"),
    err("prefs-set-without-prefs", ["eval", "-m", "all_prefs", "qrels.txt", "a.run"],
        "all_prefs", "-R prefs"),
    err("prefs-qrels-measure", prefs("-m", "map"), "map", "needs qrels", files=FILES),
    err("prefs-official", prefs(), "all_prefs", files=FILES),
    err("prefs-judged-only", prefs("-J", "-m", "prefs_simp"), "-J", "preference judgments",
        files=FILES),
    err("prefs-level", prefs("-l", "2", "-m", "prefs_simp"), "-l", "preference judgments",
        files=FILES),
    err("prefs-labels", prefs("-m", "prefs_simp", "--labels", "x=p.txt"), "--labels",
        files=FILES),
    err("prefs-unknown-measure", prefs("-m", "prefs_simpl"), "prefs_simpl", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_prefs(case, ws, run_cli):
    run_case(case, ws, run_cli)
