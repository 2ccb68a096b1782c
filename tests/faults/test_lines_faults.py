"""Messages that name the file, the line and its text (issue class: "messages a user can act
on"): a value found bad after the reader is done (a G-study's missing score, a click time
a time measure refuses, a session a map lacks, a labelled session the log lacks) is still
named by the line it came from, and a map that lacks a key (a session map, a users file,
a contributors file) is named; a bin width that the scores make impossible names the
value. Table-driven: every row is one call checked against the contract of
``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import any_of, err, opt, run_case, text
from .test_compare_faults import BOOT_ANOVA, SHARDS_HOLED
from .test_meta_faults import SHARD_SPLIT, shard_csv
from .test_meta_gtheory_faults import FACET, facet_csv
from .test_online_counterfactual_faults import BASE as COUNTERFACTUAL
from .test_online_counterfactual_faults import LOG as CF_LOG
from .test_online_counterfactual_faults import UNIFORM, files
from .test_online_faults import LOGS, MEASURES
from .test_online_labels_faults import TFILES, TIMED, prefs
from .test_online_satisfaction_faults import BASE as SATISFACTION
from .test_online_satisfaction_faults import FILES as SAT_FILES
from .test_online_satisfaction_faults import LOG as SAT_LOG
from .test_probe_faults import SPLIT_SHARDS, UNDEFINED
from .test_text_faults import FILES as SESSION_FILES
from .test_text_faults import SESSION, session


def _time(log: str, number: int, time: str) -> str:
    """``log`` with the timestamp (last field) of line ``number`` replaced by ``time``."""
    lines = log.splitlines()
    lines[number - 1] = lines[number - 1].rsplit(" ", 1)[0] + " " + time
    return "\n".join(lines) + "\n"


#: Line 7 of the satisfaction log: the click on rank 1 of session s2.
SAT_LINE = SAT_LOG.splitlines()[6]
#: The first line of session 6 in the session run (line 31).
SESSION_6 = SESSION[30]
#: ap.csv with the first score of topic 1 replaced by 1e20.
HUGE = "sysA,sysB,sysC,sysD\n1e20,0.25,0.38,0.45\n" + "\n".join(
    f"{0.1 + 0.01 * t:.2f},{0.2 + 0.02 * t:.2f},{0.3 + 0.01 * t:.2f},{0.4 + 0.01 * t:.2f}"
    for t in range(2, 13)) + "\n"



def _line(content: str, row: str) -> str:
    """``line N``: where ``row`` is in the file ``content``."""
    return f"line {content.splitlines().index(row) + 1}"


#: The undefined shard score of each file, and a split's shard scores with one.
HOLE, HOLE_SPLIT = "2,r1,k0,", shard_csv(value="")
HOLE_SPLIT_ROW = next(row for row in HOLE_SPLIT.splitlines() if row.endswith(","))
HOLE_PROBE = "0,r0,k1,nan"
_MEANS = UNDEFINED["shm.csv"].splitlines()
#: The probe's files, the score matrix's topics in reverse order.
REORDERED = {**UNDEFINED, "shm.csv": text([_MEANS[0], *reversed(_MEANS[1:])])}

CASES = [
    # ---- meta gstudy --facet-scores: a missing score is named by its line, not its cell
    err("gstudy-facet-nan", [*FACET[:3], "bad.csv"], "bad.csv", "line 2", "1,sysA,v1,nan",
        files={"bad.csv": facet_csv(value="nan")}),
    err("gstudy-facet-empty", [*FACET[:3], "bad.csv"], "bad.csv", "line 2", "1,sysA,v1,",
        files={"bad.csv": facet_csv(value="")}),
    # ---- an undefined shard score an empty-shard policy refuses, by its line (it named
    # the cell only): compare --test bootstrap-anova, meta split
    err("bootstrap-anova-undefined-score-line", BOOT_ANOVA, "undefined shard score",
        "--empty", f"sh.csv, {_line(SHARDS_HOLED, HOLE)}", repr(HOLE),
        files={"sh.csv": SHARDS_HOLED}),
    err("bootstrap-anova-missing-partial-line", [*BOOT_ANOVA, "--empty", "missing"],
        "missing replicates only whole", f"sh.csv, {_line(SHARDS_HOLED, HOLE)}",
        repr(HOLE), files={"sh.csv": SHARDS_HOLED}),
    err("split-undefined-shard-score-line", SHARD_SPLIT, "undefined shard score", "--empty",
        f"shards.csv, {_line(HOLE_SPLIT, HOLE_SPLIT_ROW)}", repr(HOLE_SPLIT_ROW),
        files={"shards.csv": HOLE_SPLIT}),
    # the split's topics in the order of the score matrix, not of the shard scores
    err("split-undefined-shard-score-line-reordered", [*SPLIT_SHARDS, "error"],
        "topic '0'", "system 'r0'", "shard 'k1'",
        f"sh.csv, {_line(UNDEFINED['sh.csv'], HOLE_PROBE)}", repr(HOLE_PROBE),
        files=REORDERED),
    # ---- session --topics: the map lacks a session; the map and the run's line named
    err("session-map-lacks-session", session("--topics", "map.txt"),
        any_of("map.txt, session '6'", "map.txt: session '6'"), "not in the session map",
        "s.run, line 31", SESSION_6,
        files={**SESSION_FILES, "map.txt": text([f"{t} {t}" for t in range(1, 6)])}),
    # ---- --contributors (a run → contributor map) lacking a run: the map file named
    err("loo-contributors-lack-run", ["meta", "loo", "qrels.txt", "a.run", "b.run", "c.run",
                                      "-m", "map", "--contributors", "c2.txt"],
        "c2.txt", "['c']", files={"c2.txt": "teamA_r1 teamA\nteamB_r1 teamB\n"}),
    err("pool-bias-contributors-lack-run", ["meta", "pool-bias", "qrels.txt", "a.run",
                                            "b.run", "--new", "c.run", "-m", "map",
                                            "--contributors", "c3.txt"],
        "c3.txt", "'b'", files={"c3.txt": "teamA_r1 teamA\n"}),
    err("pool-simulate-contributors-lack-run", ["pool", "simulate", "qrels.txt", "a.run",
                                                "b.run", "c.run", "--contributors", "c3.txt"],
        "c3.txt", "'b'", files={"c3.txt": "teamA_r1 teamA\n"}),
    # ---- meta swap: a score that makes the bins impossible is named before any split
    err("swap-bins-impossible", ["meta", "swap", "--scores", "big.csv", "--sizes", "2,4"],
        opt("--bin-width"), "system 'sysA'", "1e+20", "topic '1'", "big.csv, line 2",
        files={"big.csv": HUGE}),
    # ---- online ab measures --users: the session → user map lacks a session; the map and
    # the click log's line of that session named (the neighbour of session --topics)
    err("measures-users-lack-session", MEASURES, "su.txt", "session 's2'",
        "log.txt, line 3", "s2 q1 1 d2 0 nan",
        files={**LOGS, "su.txt": "s1 u1\ns3 u2\n"}),
    # ---- online satisfaction: click times a time measure refuses, by line
    err("satisfaction-time-negative", SATISFACTION, "log.txt", "line 7", SAT_LINE[:-2],
        "-5", files={**SAT_FILES, "log.txt": _time(SAT_LOG, 7, "-5")}),
    err("satisfaction-time-inf", SATISFACTION, "log.txt", "line 7", "inf",
        files={**SAT_FILES, "log.txt": _time(SAT_LOG, 7, "inf")}),
    err("satisfaction-time-nan", SATISFACTION, "log.txt", "line 7", "without a timestamp",
        files={**SAT_FILES, "log.txt": _time(SAT_LOG, 7, "nan")}),
    # a labelled session the log lacks: the label file's line
    err("satisfaction-label-not-in-log", SATISFACTION, "labels.txt", "line 25", "s99 1",
        "not in the log", files={**SAT_FILES, "labels.txt": SAT_FILES["labels.txt"]
                                 + "s99 1\n"}),
    # ---- online counterfactual: the logging policy gives probability 0 to every rank 1:
    # the log's first line (run a's top document at rank 1, as a's policy ranks it) is named
    err("counterfactual-zero-where-shown-line", COUNTERFACTUAL, "log.txt", "line 1",
        CF_LOG.splitlines()[0], "probability 0",
        files=files(uniform_txt=UNIFORM.replace(f" 1 {1 / 3:.17g}", " 1 0"))),
    # ---- online prefs: a click without a time, by line (the neighbour of satisfaction)
    err("prefs-click-without-time-line", prefs("--rule", "earlier-click", log="bad.log"),
        "bad.log", "line 1", TIMED[0].rsplit(" ", 1)[0] + " nan",
        files={**TFILES, "bad.log": text([TIMED[0].rsplit(" ", 1)[0] + " nan", *TIMED[1:]])}),
]


@pytest.mark.parametrize("case", CASES)
def test_lines(case, ws, run_cli):
    run_case(case, ws, run_cli)
