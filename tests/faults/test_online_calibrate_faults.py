"""``irscale online calibrate``: faulty click logs, qrels and options. Table-driven: every
row is one call checked against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text

# six sessions of topic 1 (degrees: d1 2, d2 0, d3 1), last clicks at ranks 1, 2, 1, 3, 2, 1
LOG = [f"s{s} 1 {r} {d} {c}" for s, docs, clicks in
       ((1, ("d1", "d2", "d3"), (1, 0, 0)), (2, ("d1", "d2", "d3"), (0, 1, 0)),
        (3, ("d3", "d1", "d2"), (1, 0, 0)), (4, ("d2", "d3", "d1"), (0, 0, 1)),
        (5, ("d1", "d3", "d2"), (1, 1, 0)), (6, ("d2", "d1", "d3"), (1, 0, 0)))
       for r, (d, c) in enumerate(zip(docs, clicks, strict=True), 1)]
FILES = {"calib.log": text(LOG)}


def calibrate(measure: str, *extra: str, log: str = "calib.log") -> list[str]:
    return ["online", "calibrate", log, "-m", measure, *extra]


CASES = [
    # ---- valid calls
    ok("rbp", calibrate("RBP"), output_contains("p\t", "measure\tRBP(p="), files=FILES),
    ok("err", calibrate("ERR", "--qrels", "qrels.txt"),
       output_contains("R0\t", "R2\t", "measure\tERR(stop="), files=FILES),
    ok("err-dbn", calibrate("ERR", "--qrels", "qrels.txt", "--click-model", "dbn",
                            "--smoothing", "0.5"),
       output_contains("measure\tERR(stop="), files=FILES),
    ok("mp", calibrate("MP", "--smoothing", "2"),
       output_contains("pi3\t", "measure\tMP(model=given,pi="), files=FILES),
    ok("rbp-to-file", calibrate("RBP", "-o", "p.tsv"), allowed_new=["p.tsv"], files=FILES),
    # ---- faulty logs: file, line, text
    err("log-missing", calibrate("RBP", log="nope.log"), "nope.log", files=FILES),
    err("log-bad-click", calibrate("RBP", log="bad.log"), "bad.log", "line 2", "0 or 1",
        files={"bad.log": text([LOG[0], "s1 1 2 d2 7", *LOG[2:]])}),
    err("log-rank-gap", calibrate("MP", log="bad.log"), "bad.log", "not 1..n",
        files={"bad.log": text([LOG[0], *LOG[2:]])}),
    # ---- logs the model cannot be fitted on
    err("rbp-all-first", calibrate("RBP", log="first.log"), "rank 1",
        files={"first.log": text(["s1 1 1 d1 1", "s1 1 2 d2 0"])}),
    err("rbp-no-click", calibrate("RBP", log="none.log"), "no session",
        files={"none.log": text(["s1 1 1 d1 0", "s1 1 2 d2 0"])}),
    err("rbp-deep", calibrate("RBP", log="deep.log"), "≥ 1",
        files={"deep.log": text(["s1 1 1 d1 0", "s1 1 2 d2 1"])}),
    err("mp-no-move-smoothing-0", calibrate("MP", "--smoothing", "0"), "rank",
        files=FILES),
    err("err-missing-degree", calibrate("ERR", "--qrels", "q.txt"), "degree 1",
        files={**FILES, "q.txt": text(["1 0 d1 2", "1 0 d2 0", "1 0 d3 0"])}),
    # qrels of another collection (or query ids written otherwise): every logged document
    # would count as not judged (degree 0), and the fit would be of nothing
    err("err-qrels-judge-no-logged-document", calibrate("ERR", "--qrels", "q.txt"), "q.txt",
        "judge none", files={**FILES, "q.txt": text(["9 0 d1 2", "9 0 d2 0", "9 0 d3 1"])}),
    # ---- options
    err("err-no-qrels", calibrate("ERR"), "--qrels", files=FILES),
    ok("user-model-name", calibrate("markov"), output_contains("measure\tMP("), files=FILES),
    err("unknown-measure", calibrate("ndcg"), "-m/--measure", "unknown measure", "'ndcg'",
        "RBP, ERR, MP", files=FILES),
    err("unknown-click-model", calibrate("ERR", "--qrels", "qrels.txt", "--click-model",
                                         "pbm"), "--click-model", "'pbm'", "sdbn, dbn",
        files=FILES),
    err("rbp-qrels", calibrate("RBP", "--qrels", "qrels.txt"), "--qrels", files=FILES),
    err("mp-click-model", calibrate("MP", "--click-model", "dbn"), "--click-model",
        files=FILES),
    err("rbp-smoothing", calibrate("RBP", "--smoothing", "1"), "--smoothing", files=FILES),
    err("bad-smoothing", calibrate("MP", "--smoothing", "-1"), "smoothing", files=FILES),
    err("bad-measure", calibrate("AP"), "--measure", files=FILES),
    err("bad-qrels", calibrate("ERR", "--qrels", "bad.txt"), "bad.txt", "line 1",
        files={**FILES, "bad.txt": text(["1 0 d1"])}),
    err("bad-serp-size", calibrate("RBP", "--serp-size", "2"), "calib.log", "SERP size 2",
        files=FILES),
    err("output-exists", calibrate("RBP", "-o", "calib.log"), "calib.log", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_online_calibrate(case, ws, run_cli):
    run_case(case, ws, run_cli)
