"""``irscale eval -R qrels_jg``: faulty multi-judge qrels, measures not paired with the
format, and options the measures do not read. Table-driven: every row is one call checked
against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text

JUDGED = ["1 u1 d1 1", "1 u1 d2 0", "1 u2 d2 1", "2 u1 d1 0", "2 u1 d5 1"]
FILES = {"jg.txt": text(JUDGED)}


def jg(*extra: str, judgments: str = "jg.txt") -> list[str]:
    return ["eval", "-R", "qrels_jg", *extra, judgments, "a.run"]


def with_line(number: int, new: str) -> bytes:
    lines = list(JUDGED)
    lines[number - 1] = new
    return text(lines)


CASES = [
    ok("qrels-jg-set", jg("-q", "-m", "qrels_jg"),
       output_contains("map_avgjg", "P_avgjg_5", "Rprec_mult_avgjg_0.20", "num_q"),
       files=FILES),
    ok("qrels-jg-cutoffs", jg("-c", "-M", "3", "-l", "1", "-J", "-m", "P_avgjg.1,2",
                              "-m", "Rprec_mult_avgjg.0.5,1.5"),
       output_contains("P_avgjg_2", "Rprec_mult_avgjg_1.50"), files=FILES),
    err("qrels-jg-three-fields", jg("-m", "map_avgjg"), "jg.txt", "line 2",
        "expected 4 fields", "1 u1 d2", files={"jg.txt": with_line(2, "1 u1 d2")}),
    err("qrels-jg-five-fields", jg("-m", "map_avgjg"), "jg.txt", "line 3", "got 5",
        files={"jg.txt": with_line(3, "1 u2 d2 1 x")}),
    err("qrels-jg-rel-not-an-integer", jg("-m", "map_avgjg"), "jg.txt", "line 1",
        "not an integer", "1 u1 d1 high", files={"jg.txt": with_line(1, "1 u1 d1 high")}),
    err("qrels-jg-rel-fraction", jg("-m", "map_avgjg"), "line 4", "not an integer",
        files={"jg.txt": with_line(4, "2 u1 d1 0.5")}),
    err("qrels-jg-duplicate-in-group", jg("-m", "map_avgjg"), "jg.txt", "line 6",
        "judged twice", "first on line 1",
        files={"jg.txt": text([*JUDGED, "1 u1 d1 0"])}),
    err("qrels-jg-empty", jg("-m", "map_avgjg"), "jg.txt", "empty", files={"jg.txt": b""}),
    err("qrels-jg-missing", jg("-m", "map_avgjg", judgments="nothere.txt"), "nothere.txt"),
    err("qrels-jg-official", jg(), "-m qrels_jg", files=FILES),
    err("qrels-jg-qrels-measure", jg("-m", "map"), "map", "needs qrels", files=FILES),
    err("qrels-jg-prefs-measure", jg("-m", "prefs_simp"), "prefs_simp",
        "preference judgments", files=FILES),
    err("qrels-jg-unknown-measure", jg("-m", "map_avgj"), "map_avgj", "qrels_jg",
        files=FILES),
    err("qrels-jg-bad-cutoff", jg("-m", "P_avgjg.0"), "P_avgjg", "cut-offs", files=FILES),
    err("qrels-jg-map-params", jg("-m", "map_avgjg.3"), "map_avgjg", "no parameters",
        files=FILES),
    # judgment-group qrels read as qrels: the duplicate's error points to -R qrels_jg
    err("qrels-jg-file-without-format", ["eval", "jg.txt", "a.run"], "jg.txt", "line 3",
        "judgment-group qrels", "-R qrels_jg", files=FILES),
    err("qrels-jg-file-without-format-measure", ["eval", "-m", "map", "jg.txt", "a.run"],
        "jg.txt", "line 3", "-R qrels_jg", files=FILES),
    err("qrels-jg-measure-without-format", ["eval", "-m", "map_avgjg", "qrels.txt", "a.run"],
        "map_avgjg", "-R qrels_jg"),
    err("qrels-jg-set-without-format", ["eval", "-m", "qrels_jg", "qrels.txt", "a.run"],
        "qrels_jg", "-R qrels_jg"),
    err("qrels-jg-measure-with-prefs", ["eval", "-R", "prefs", "-m", "P_avgjg.5",
                                        "qrels.txt", "a.run"], "P_avgjg.5", "-R qrels_jg"),
    err("qrels-jg-no-topic-in-common", ["eval", "-R", "qrels_jg", "-m", "map_avgjg",
                                        "jg.txt", "x.run"], "no topic in common", "jg.txt",
        files={**FILES, "x.run": text(["x1 Q0 d1 1 1 r"])}),
    err("qrels-jg-num-docs", jg("-N", "10", "-m", "map_avgjg"), "-N", "multi-judge",
        files=FILES),
    err("qrels-jg-labels", jg("-m", "map_avgjg", "--labels", "x=jg.txt"), "--labels",
        files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_qrels_jg(case, ws, run_cli):
    run_case(case, ws, run_cli)
