"""No value dropped in silence, and messages a user can act on (one rule for every text
input, preference judgments, fusion weights searched on other topics). Table-driven: every
row is one call checked against the contract of ``docs/errors.md`` (see ``conftest.py``);
then the same classes through the Python API."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.errors import AlignmentError, InputError, InputFormatError
from irscale.io.prefs import read_prefs
from irscale.online import engagement_summary
from irscale.online.abtest import ab_test, sample_ratio_mismatch

from .conftest import (
    all_checks,
    err,
    error_line,
    ok,
    output_contains,
    qrels_lines,
    replace_line,
    run_case,
    run_lines,
    text,
    warns_of,
)

# ---------------------------------------------------------------- per-user tables
USERS = ("user,variant,clicks\nu1,control,1\nu2,control,2\nu3,treatment,nan\n"
         "u4,treatment,3\nu5,control,4\nu6,treatment,5\n")
NAN_TABLE = {"t.csv": USERS}
EMPTY_TABLE = {"t.csv": USERS.replace("nan", "")}
NO_VARIANT = {"t.csv": USERS.replace("u3,treatment,nan", "u3,,6")}
SUMMARY = ["online", "ab", "summary", "t.csv"]
ANALYZE = ["online", "ab", "analyze", "t.csv", "--metric", "clicks"]
SRM = ["online", "ab", "srm", "t.csv"]


def summary_row(variant: str, users: int, values: list[float]):
    """A check: the CSV summary's row of ``variant`` counts ``users`` and has the mean of
    ``values`` (computed here)."""

    def check(result, ws, run) -> None:
        rows = [line.split(",") for line in result.out.splitlines()]
        row = next(r for r in rows if r[0] == variant)
        assert int(row[2]) == users and math.isclose(float(row[3]), float(np.mean(values))), \
            f"row {row}, expected {users} users of mean {np.mean(values)}" + result.describe()

    return check


# ---------------------------------------------------------------- text inputs
#: A file that starts (and ends) as every Parquet file does, with binary data between.
PARQUET = b"PAR1\x15\x04\x15\x10\x15\x14L\x15\x02\x15\x00\x12\x00\x00\x08\x84\xff" + \
    bytes(range(128, 256)) + b"\x00\x00PAR1"
PREFS_RUN = b"q Q0 A 1 3 r\nq Q0 B 2 2 r\nq Q0 C 3 1 r\n"
PREFS = ["eval", "-R", "prefs", "-m", "prefs_simp", "p.txt", "pr.run"]
FAIR_QRELS = b"1 0 a 1\n1 0 b 1\n1 0 c 0\n"
FAIR_RUN = b"1 0 a 1 2 sto\n1 0 b 2 1 sto\n1 1 b 1 2 sto\n1 1 a 2 1 sto\n"
FAIR = ["eval", "-m", "AWRF@2", "fq.txt", "fr.run", "--labels", "groups=g.txt"]
FAIR_FILES = {"fq.txt": FAIR_QRELS, "fr.run": FAIR_RUN}
OTHER_QRELS = text([f"9{line}" for line in qrels_lines()])

CASES = [
    # ======================================= item 1: a user without a value is no user
    # 'ab summary' printed the mean over the users with a value, in silence
    err("summary-nan-cell", SUMMARY, "t.csv", "line 4", "'u3,treatment,nan'", "clicks",
        "--missing drop", files=NAN_TABLE),
    err("summary-empty-cell", [*SUMMARY, "--metrics", "clicks"], "t.csv", "line 4",
        "'u3,treatment,'", files=EMPTY_TABLE),
    ok("summary-nan-cell-left-out-when-asked", [*SUMMARY, "--missing", "drop", "--format",
                                                "csv"],
       all_checks(warns_of("1 user(s) without a value left out", "'clicks'"),
                  summary_row("treatment", 2, [3, 5]), summary_row("control", 3, [1, 2, 4])),
       files=NAN_TABLE),
    err("analyze-empty-cell", ANALYZE, "t.csv", "line 4", "'u3,treatment,'",
        files=EMPTY_TABLE),
    # a user without a variant was left out of every analysis (grouping skips NaN)
    err("summary-no-variant", SUMMARY, "t.csv", "line 4", "'u3,,6'", "variant",
        files=NO_VARIANT),
    err("analyze-no-variant", ANALYZE, "t.csv", "line 4", "'u3,,6'", "variant",
        files=NO_VARIANT),
    err("srm-no-variant", SRM, "t.csv", "line 4", "'u3,,6'", "variant", files=NO_VARIANT),
    # judged topics some run does not rank were left out of the comparison in silence
    ok("sensitivity-topic-not-ranked-by-every-run",
       ["online", "sensitivity", "qrels.txt", "a.run", "b.run", "--impressions", "10,20",
        "--repetitions", "5", "--seed", "1"],
       warns_of("1 judged topic(s) not ranked by every run left out", "6"),
       files={"b.run": text([line for line in run_lines("b") if not line.startswith("6 ")])}),
    # ======================================= item 7: one rule for every text input
    # a Parquet file given as qrels was read as text ('line 2: not valid UTF-8')
    err("qrels-parquet", ["eval", "-m", "P@5", "q.parquet", "a.run"], "q.parquet",
        "Parquet", "qrels", "text", files={"q.parquet": PARQUET}),
    err("labels-parquet", ["eval", "-m", "uRBP(p=0.8)", "qrels.txt", "a.run", "--labels",
                           "under=l.parquet"], "l.parquet", "Parquet", "labels",
        files={"l.parquet": PARQUET}),
    err("scores-parquet", ["compare", "--scores", "s.parquet"], "s.parquet", "Parquet",
        files={"s.parquet": PARQUET}),
    # a NUL byte in a field the reader does not keep was accepted (in a --labels groups=
    # file, and alike in a run's Q0 and a qrels' iter field)
    err("groups-nul-in-unread-field", FAIR, "g.txt", "line 2", "NUL",
        files={**FAIR_FILES, "g.txt": b"* 0 a 1\n* 0\x00 b 2\n* 0 c 2\n"}),
    err("run-nul-in-q0", ["eval", "-m", "P@5", "qrels.txt", "a.run"], "a.run", "line 3",
        "NUL", files={"a.run": replace_line(run_lines("a"), 3, "1 Q\x00 d9 3 0.70 teamA_r1")}),
    err("qrels-nul-in-iter", ["eval", "-m", "P@5", "qrels.txt", "a.run"], "qrels.txt",
        "line 2", "NUL", files={"qrels.txt": replace_line(qrels_lines(), 2, "1 \x00 d2 0")}),
    # ======================================= item 7: preference judgments
    # a document at two levels of one JSG, another document between them, in a JG of
    # several JSGs: contradictory (trec_eval aborts), irscale printed values
    err("prefs-two-levels-in-one-jsg-of-several", PREFS, "p.txt", "contradictory",
        "lines: 1, 2, 3", files={"p.txt": b"q u s0 A 3\nq u s0 B 2\nq u s0 A 1\nq u s1 C 1\n",
                                 "pr.run": PREFS_RUN}),
    # a level beyond a C float's range printed numpy's 'overflow encountered in cast'
    ok("prefs-level-beyond-float", PREFS,
       all_checks(output_contains("prefs_simp", "\tall\t1.0000"),
                  warns_of("p.txt, line 1", "range of a C float")),
       files={"p.txt": b"q u s0 A 1e308\nq u s0 B 2\nq u s1 C 1\n", "pr.run": PREFS_RUN}),
    # ======================================= item 7: fusion weights on other topics
    # the message named the grid's internal runs ('11 runs ('w0', 'w1', ...)')
    err("fuse-optimize-qrels-of-other-topics",
        ["fuse", "--method", "wsum", "--optimize", "--qrels", "other.txt", "--step", "0.5",
         "a.run", "b.run"], "the runs and the qrels", "other.txt", "no topic in common",
        files={"other.txt": OTHER_QRELS}),
]


@pytest.mark.parametrize("case", CASES)
def test_silent_drop_and_messages(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ---------------------------------------------------------------- the Python API
def test_api_summary_and_tests_refuse_users_without_a_value():
    table = pd.DataFrame({"variant": ["control", "control", "treatment", "treatment"],
                          "clicks": [1.0, 2.0, np.nan, 4.0]})
    with pytest.raises(InputError, match="user 2 has no value"):
        engagement_summary(table)
    with pytest.warns(UserWarning, match="1 user"):
        summary = engagement_summary(table, missing="drop")
    row = summary.to_frame().set_index("variant").loc["treatment"]
    assert row["users"] == 1 and row["mean"] == 4.0
    unassigned = table.assign(variant=["control", None, "treatment", "treatment"],
                              clicks=[1.0, 2.0, 3.0, 4.0])
    with pytest.raises(InputError, match="user 1 has no variant"):
        engagement_summary(unassigned)
    with pytest.raises(InputError, match="user 1 has no variant"):
        ab_test(unassigned, "clicks")
    with pytest.raises(InputError, match="user 1 has no variant"):
        sample_ratio_mismatch(unassigned["variant"])


def test_api_prefs_contradiction_and_huge_levels():
    with pytest.raises(InputFormatError, match="lines: 1, 2, 3"):
        irscale.evaluate(b"q u s0 A 3\nq u s0 B 2\nq u s0 A 1\nq u s1 C 1\n", PREFS_RUN,
                         "prefs_simp", relevance_format="prefs")
    # read without a numpy warning (the suite makes them errors): +inf, as C converts,
    # with irscale's own warning; a level below a C float's smallest is 0
    with pytest.warns(UserWarning, match="line 1: level outside the range of a C float"):
        huge = read_prefs(b"q u s0 A 1e308\nq u s0 B 2\n")
    assert huge.level.tolist() == [math.inf, 2.0]
    with pytest.warns(UserWarning, match="line 2: level outside"):
        tiny = read_prefs(b"q u s0 A 1\nq u s0 B 1e-50\n")
    assert tiny.level.tolist() == [1.0, 0.0]


def test_api_optimize_fusion_names_the_runs_and_qrels():
    runs = {"a": {"q1": {"d1": 1.0, "d2": 2.0}}, "b": {"q1": {"d1": 2.0, "d2": 1.0}}}
    with pytest.raises(AlignmentError) as info:
        irscale.optimize_fusion({"x1": {"d1": 1}}, runs, "AP", step=0.1)
    message = str(info.value)
    assert "the runs and the qrels" in message and "'w0'" not in message, message


def test_api_table_read_from_a_file_names_the_line_and_stays_a_frame(tmp_path):
    from irscale.online.abtest import read_user_table

    path = tmp_path / "t.csv"
    path.write_text(USERS)
    table = read_user_table(str(path))
    with pytest.raises(InputError, match=r"t.csv, line 4: .*'u3,treatment,nan'"):
        engagement_summary(table)
    # the lines kept for messages neither reach a Parquet file nor stop it being written
    pytest.importorskip("pyarrow")
    table.to_parquet(tmp_path / "t.parquet")
    assert pd.read_parquet(tmp_path / "t.parquet").equals(table)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_api_rank_values_refuses_a_value_that_ranks_nowhere(value):
    """A NaN or an infinity among the values (it ranked tied with its neighbour, silently)
    names its position."""
    with pytest.raises(InputError, match=r"values\[1\] = "):
        irscale.scales.rank_values([0.1, value, 0.3])


def test_command_line_message_names_no_api_argument(ws, run_cli):
    """A command's error names what the user typed, never the argument the command line
    gave the API (``compare`` calls ``anova(data=...)``: it read ``irscale: data: scores
    too large``)."""
    ws.write("s.csv", "sysA,sysB,sysC\n0.1,1e308,0.2\n0.2,0.3,0.1\n0.3,0.2,0.5\n")
    result = run_cli(["compare", "--scores", "s.csv"])
    line = error_line(result)
    assert result.status == 2 and "scores too large" in line, result.describe()
    assert not line.startswith("irscale: data:"), result.describe()
