"""``irscale eval`` with fairness and exposure measures (EE-L, AWRF ...): stochastic runs,
the group label set and the names. Table-driven: every row is one call checked against the
contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text

QRELS = b"1 0 a 1\n1 0 b 1\n1 0 c 0\n2 0 a 0\n2 0 d 2\n"
RUN = text([f"{t} {s} {d} {i} {3 - i} sto" for t, rankings in
            (("1", (("a", "b", "c"), ("b", "a", "c"))), ("2", (("d", "a"),)))
            for s, ranking in enumerate(rankings) for i, d in enumerate(ranking, 1)])
GROUPS = b"* 0 a 1\n* 0 b 2\n* 0 c 2\n* 0 d 1\n"
FILES = {"fair.qrels": QRELS, "sto.run": RUN, "groups.txt": GROUPS}


def fair(measures: str, *extra: str) -> list[str]:
    return ["eval", "-q", "-m", measures, "fair.qrels", "sto.run", *extra]


GROUPED = ["--labels", "groups=groups.txt"]

CASES = [
    ok("fairness-ok", fair("EE-L EE-R(level=group) AWRF(discount=log2,base=2)@2 nDCG-AWRF@2",
                           *GROUPED),
       output_contains("EE-L", "\tall\t0.9953"), files=FILES),
    ok("fairness-several-groups", fair("AWRF EE-L(level=group,membership=full)", "--labels",
                                       "groups=multi.txt"),
       output_contains("AWRF", "EE-L(level=group,membership=full)"),
       files={**FILES, "multi.txt": b"* 0 a 1\n* 0 a 2\n* 0 b 2\n"}),
    err("fairness-groups-missing-file", fair("AWRF@2", "--labels", "groups=nothere.txt"),
        "nothere.txt", files=FILES),
    err("fairness-groups-bad-line", fair("AWRF@2", "--labels", "groups=bad.txt"), "bad.txt",
        "line 2", "not a number", files={**FILES, "bad.txt": b"* 0 a 1\n* 0 b two\n"}),
    err("fairness-groups-short-line", fair("AWRF@2", "--labels", "groups=bad.txt"),
        "bad.txt", "line 2", files={**FILES, "bad.txt": b"* 0 a 1\n* 0 b\n"}),
    err("fairness-groups-duplicate", fair("AWRF@2", "--labels", "groups=bad.txt"),
        "bad.txt", "line 3", "'* 0 a 1'", "twice",
        files={**FILES, "bad.txt": b"* 0 a 1\n* 0 a 2\n* 0 a 1\n"}),
    err("fairness-groups-not-given", fair("AWRF@2"), "AWRF@2", "--labels groups=FILE",
        files=FILES),
    err("fairness-groups-not-read", fair("EE-L", *GROUPED), "'groups'", "no measure",
        files=FILES),
    err("fairness-run-repeated-document", ["eval", "-m", "EE-L", "fair.qrels", "dup.run"],
        "dup.run", "line 2", "twice", files={**FILES, "dup.run": b"1 0 a 1 2 r\n1 0 a 2 1 r\n"}),
    err("fairness-run-bad-score", ["eval", "-m", "EE-L", "fair.qrels", "bad.run"], "bad.run",
        "line 1", "score", files={**FILES, "bad.run": b"1 0 a 1 x r\n"}),
    err("fairness-run-no-common-topic", ["eval", "-m", "EE-L", "fair.qrels", "other.run"],
        "'other'", "no topic in common", "--allow-empty",
        files={**FILES, "other.run": b"9 0 a 1 1 r\n"}),
    ok("fairness-run-no-common-topic-allowed", ["eval", "-m", "EE-L", "--allow-empty",
                                                "fair.qrels", "other.run"],
       files={**FILES, "other.run": b"9 0 a 1 1 r\n"}),
    ok("fairness-names", ["eval", "-m", "EE-L", "--names", "x,y", "fair.qrels", "sto.run",
                          "runs/"], output_contains("\tall\t0.0000\tx", "\tall\t0.0000\ty"),
       files={**FILES, "runs/other.run": RUN}),
    err("fairness-names-count", ["eval", "-m", "EE-L", "--names", "x", "fair.qrels", "sto.run",
                                 "runs/other.run"], "1 name given for 2 runs",
        files={**FILES, "runs/other.run": RUN}),
    err("fairness-groups-list-line", fair("AWRF@2", "--labels", "groups=bad.txt"), "bad.txt",
        "line 3", "'* 0 b 1,2'", files={**FILES, "bad.txt": b"* 0 a 1\n* 0 a 2\n* 0 b 1,2\n"}),
    err("fairness-bad-gamma", fair("EE-L(gamma=1.5)"), "gamma", files=FILES),
    err("fairness-bad-level", fair("EE-L(level=author)"), "level", files=FILES),
    err("fairness-bad-membership", fair("AWRF(membership=half)@2", *GROUPED), "membership",
        "half", files=FILES),
    err("fairness-membership-without-group-level", fair("EE-L(membership=full)", *GROUPED),
        "membership", "level=group", files=FILES),
    err("fairness-bad-base", fair("AWRF(base=10)@2", *GROUPED), "base", "10", files=FILES),
    err("fairness-bad-discount", fair("AWRF(discount=log)@2", *GROUPED), "discount", "log",
        files=FILES),
    err("fairness-p-without-geometric", fair("AWRF(p=0.8)@2", *GROUPED), "discount=geometric",
        files=FILES),
    err("fairness-mixed-measures", fair("EE-L P@5"), "P@5", "mixed", files=FILES),
    err("fairness-complete-refused", fair("EE-L", "-c"), "-c", "fairness", files=FILES),
    err("fairness-format-latex", fair("EE-L", "--format", "latex"), "latex", files=FILES),
    err("fairness-output-not-left", fair("AWRF@2", "--labels", "groups=bad.txt", "-o",
                                          "out.txt"), "bad.txt",
        files={**FILES, "bad.txt": b"* 0 a 1\n* 0 b two\n"}),
]


@pytest.mark.parametrize("case", CASES)
def test_fairness(case, ws, run_cli):
    run_case(case, ws, run_cli)
