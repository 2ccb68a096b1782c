"""``irscale eval`` under conditional relevance (``conditional=1``, the groups given with
``--labels conditional=FILE``): faulty group files (file, line and text named), a missing
group file, bad values of the parameter, names that refuse it. Table-driven: every row is
one call checked against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text

QRELS = b"1 0 p1 1\n1 0 p2 2\n1 0 a 1\n1 0 n 0\n"
#: Patent p1 at rank 1, p2 at rank 10 (Sakai 2014, §2.3), a at rank 5.
RUN = text([f"1 Q0 {d} {i} {11 - i} r" for i, d in enumerate(
    ["p1", "x1", "x2", "x3", "a", "x5", "x6", "x7", "x8", "p2"], 1)])
GROUPS = b"1 0 p1 7\n1 0 p2 7\n"
FILES = {"c.qrels": QRELS, "c.run": RUN, "groups.txt": GROUPS}
GROUPED = ["--labels", "conditional=groups.txt"]


def cond(measures: str, *extra: str) -> list[str]:
    return ["eval", "-m", measures, "c.qrels", "c.run", *extra]


def bad_groups(id: str, content: bytes, *needles: str):
    return err(id, cond("AP(conditional=1)", "--labels", "conditional=bad.txt"), "bad.txt",
               *needles, files={**FILES, "bad.txt": content})


def warns_unused(result, ws, run) -> None:
    assert "label set(s) conditional given but used by no measure" in result.err, \
        result.describe()


CASES = [
    # AP = (1/5 + 2/10) / 2: a at rank 5, the group {p1, p2} completed at rank 10
    ok("conditional-ok", cond("AP(conditional=1)", *GROUPED),
       output_contains("AP(conditional=1)", "\tall\t0.2000"), files=FILES),
    ok("conditional-with-cutoff-and-rel", cond("P(conditional=1,rel=2)@10", *GROUPED),
       output_contains("\tall\t0.1000"), files=FILES),
    err("conditional-groups-not-given", cond("AP(conditional=1)"), "AP(conditional=1)",
        "--labels conditional=FILE", files=FILES),
    ok("conditional-groups-not-read-warns", cond("AP", *GROUPED), warns_unused, files=FILES),
    err("conditional-groups-missing-file", cond("AP(conditional=1)", "--labels",
                                                "conditional=nothere.txt"), "nothere.txt",
        files=FILES),
    bad_groups("conditional-groups-bad-number", b"1 0 p1 7\n1 0 p2 seven\n", "line 2",
               "not a number"),
    bad_groups("conditional-groups-short-line", b"1 0 p1 7\n1 0 p2\n", "line 2", "1 0 p2"),
    bad_groups("conditional-groups-document-twice", b"1 0 p1 7\n1 0 p1 8\n", "1 0 p1"),
    bad_groups("conditional-groups-unjudged-member", b"1 0 p1 7\n1 0 x1 7\n", "line 2",
               "1 0 x1 7", "must be judged"),
    bad_groups("conditional-groups-every-topic", b"1 0 p1 7\n* 0 p2 7\n", "line 2",
               "* 0 p2 7", "one topic"),
    err("conditional-bad-value", cond("AP(conditional=2)", *GROUPED), "AP(conditional=2)",
        "conditional must be 1 or 0", files=FILES),
    err("conditional-refused-by-numret", cond("NumRet(conditional=1)", *GROUPED),
        "conditional cannot apply", files=FILES),
    err("conditional-refused-by-trec-name", cond("map(conditional=1)", *GROUPED),
        "map(conditional=1)", files=FILES),
    err("conditional-output-not-left", cond("AP(conditional=1)", "--labels",
                                            "conditional=bad.txt", "-o", "out.txt"),
        "bad.txt", files={**FILES, "bad.txt": b"1 0 p1 7\n1 0 x1 7\n"}),
]


@pytest.mark.parametrize("case", CASES)
def test_conditional(case, ws, run_cli):
    run_case(case, ws, run_cli)
