"""``irscale online qrels|prefs``: faulty click logs and options. Table-driven: every row
is one call checked against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, text
from .test_online_clicks_faults import FILES, LOG, with_line

# the log with a timestamp on every line (the time order of clicks)
TIMED = [f"{line} {n}" for n, line in enumerate(LOG, 1)]
TFILES = {**FILES, "timed.log": text(TIMED)}


def qrels(*extra: str, log: str = "train.log") -> list[str]:
    return ["online", "qrels", log, *extra]


def prefs(*extra: str, log: str = "train.log") -> list[str]:
    return ["online", "prefs", log, *extra]


CASES = [
    # ---- valid calls
    ok("qrels", qrels(), output_contains("1 0 d1 "), files=FILES),
    ok("qrels-graded", qrels("--model", "dbn", "--iterations", "5", "--score",
                             "attractiveness", "--thresholds", "0.2,0.4,0.6"),
       output_contains("1 0 d"), files=FILES),
    ok("qrels-to-file", qrels("-o", "click.qrels"), allowed_new=["click.qrels"], files=FILES),
    # s1 clicks d1 and d3, skipping d2: d3 > d2
    ok("prefs", prefs(), output_contains("1 p1 1 d3 1\n1 p1 1 d2 0"), files=FILES),
    ok("prefs-timed", prefs("--rule", "earlier-click", log="timed.log"),
       output_contains("1 p1 1 d3 1\n1 p1 1 d1 0"), files=TFILES),
    # ---- malformed logs: file, line, text
    err("qrels-log-click-two", qrels(log="bad.log"), "bad.log", "line 2", "0 or 1",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 2 d2 2")}),
    err("prefs-log-rank-gap", prefs(log="bad.log"), "bad.log", "line 2", "not 1..n",
        files={**FILES, "bad.log": text([LOG[0], LOG[2], *LOG[3:]])}),
    err("prefs-log-missing", prefs(log="nope.log"), "nope.log", files=FILES),
    # a document shown twice in a session counted as two sessions showing it (--min-sessions)
    # and was both skipped and clicked: refused, as in interleaving logs
    err("qrels-log-document-twice", qrels(log="bad.log"), "bad.log", "line 2", "'d1'",
        "shown twice", files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 2 d1 0")}),
    err("prefs-log-document-twice", prefs(log="bad.log"), "bad.log", "line 3", "'d2'",
        "shown twice", files={**FILES, "bad.log": with_line(LOG, 3, "s1 1 3 d2 1")}),
    err("qrels-log-empty", qrels(log="empty.log"), "empty.log", "empty",
        files={**FILES, "empty.log": b""}),
    # the time order of clicks without timestamps was guessed from the ranks
    err("prefs-timed-rule-untimed-log", prefs("--rule", "last-skip-above"), "train.log",
        "no timestamps", files=FILES),
    err("prefs-timed-rule-click-without-time", prefs("--rule", "earlier-click",
                                                     log="bad.log"),
        "bad.log", "no timestamp", files={**FILES, "bad.log": text(
            [TIMED[0].rsplit(" ", 1)[0] + " nan", *TIMED[1:]])}),
    # nothing to write: an empty file, which -R prefs refuses, was written
    err("prefs-none-found", prefs("--min-sessions", "5"), "train.log", "no preference",
        files=FILES),
    err("prefs-none-in-a-log-without-clicks", prefs(log="none.log"), "none.log",
        "no preference", files={**FILES, "none.log": b"s1 1 1 d1 0\ns1 1 2 d2 0\n"}),
    err("qrels-none-shown-enough", qrels("--min-sessions", "99"), "train.log",
        "no qrels", files=FILES),
    # ---- options
    err("qrels-thresholds-decreasing", qrels("--thresholds", "0.6,0.3"), "thresholds",
        "increasing", files=FILES),
    err("qrels-thresholds-above-1", qrels("--thresholds", "1.5"), "thresholds", files=FILES),
    err("qrels-score-needs-satisfaction", qrels("--model", "pbm", "--score", "relevance"),
        "dbn or sdbn", files=FILES),
    err("qrels-unknown-score", qrels("--score", "x"), "score", files=FILES),
    err("qrels-ctr-model", qrels("--model", "gctr"), "no parameter per", files=FILES),
    err("qrels-min-sessions-0", qrels("--min-sessions", "0"), "min_sessions", files=FILES),
    err("qrels-iterations-closed-form", qrels("--iterations", "5"), "fitted by EM",
        "--model sdbn", files=FILES),
    err("prefs-unknown-rule", prefs("--rule", "x"), "preference rule", files=FILES),
    err("prefs-min-sessions-0", prefs("--min-sessions", "0"), "min_sessions", files=FILES),
    err("prefs-output-is-input", prefs("-o", "train.log", "--force"), "train.log",
        files=FILES),
    err("qrels-output-exists", qrels("-o", "test.log"), "test.log", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_online_labels(case, ws, run_cli):
    run_case(case, ws, run_cli)
