"""``irscale online interleave`` and ``irscale online ab assign | analyze | srm | size``:
faulty runs, qrels, click models, user lists and per-user tables, and every option's bad
values and combinations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from .catalog import trec_file_faults
from .conftest import (
    any_of,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    same_output_as,
    warnings_of,
    with_option,
)

INTER = ["online", "interleave", "a.run", "b.run", "--clicks", "perfect", "--qrels",
         "qrels.txt", "--impressions", "20", "--seed", "1", "--bootstrap", "200"]
RANDOM = ["online", "interleave", "a.run", "b.run", "--clicks", "random", "--impressions",
          "20", "--seed", "1", "--bootstrap", "200"]


def _warns(result, *needles: str) -> None:
    lines = warnings_of(result)
    assert any(all(n in line for n in needles) for line in lines), \
        f"no warning with {needles}" + result.describe()


def _model_json(topics: str = "123456") -> str:
    from irscale.online.clickmodels import ClickModel

    pairs = pd.MultiIndex.from_tuples([(t, f"d{i}") for t in topics for i in range(1, 9)],
                                      names=["query", "docno"])
    return ClickModel("pbm", pd.Series(0.5, index=pairs),
                      examination=np.linspace(1.0, 0.3, 10)).to_json()


MODEL = {"pbm.json": _model_json()}


def _warns_of_topics(result, ws, run_cli) -> None:
    assert any("not among the click model's queries" in line
               for line in warnings_of(result)), "no warning" + result.describe()


def _table(rows: int = 40, *, sep: str = ",") -> str:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({
        "user": [f"u{i}" for i in range(rows)],
        "variant": ["control", "treatment"] * (rows // 2),
        "clicks": rng.poisson(2, rows), "impressions": rng.poisson(4, rows) + 1,
        "pre": rng.normal(size=rows).round(3),
    })
    return frame.to_csv(index=False, sep=sep)


TABLE = {"t.csv": _table()}
ANALYZE = ["online", "ab", "analyze", "t.csv", "--metric", "clicks"]
OEC = ["online", "ab", "analyze", "t.csv", "--oec"]
LOGS = {"log.txt": "s1 q1 1 d1 1 5\ns1 q1 2 d2 0 nan\ns2 q1 1 d2 0 nan\n"
                   "s3 q2 1 d1 1 3\n",
        "su.txt": "s1 u1\ns2 u1\ns3 u2\n", "v.tsv": "u1\tcontrol\nu2\ttreatment\n"}
MEASURES = ["online", "ab", "measures", "log.txt", "--users", "su.txt", "--salt", "s"]
TIMED = with_option(MEASURES, "--users", "sut.txt")

SRM = ["online", "ab", "srm", "t.csv"]
SUMMARY = ["online", "ab", "summary", "t.csv"]
ASSIGN = ["online", "ab", "assign", "users.txt", "--salt", "s1"]
USERS = {"users.txt": "u1\nu2\nu3\n"}
SIZE = ["online", "ab", "size", "--min-diff", "0.1", "--sd", "1"]


def inter_run_argv(name: str) -> list[str]:
    return ["online", "interleave", name, "b.run", *INTER[4:]]


def inter_qrels_argv(name: str) -> list[str]:
    return with_option(INTER, "--qrels", name)


CASES = [
    # ================================================================ interleave
    ok("interleave-perfect", INTER, output_contains("team-draft", "wins", "delta")),
    ok("interleave-random", RANDOM, output_contains("wins")),
    ok("interleave-random-prob", [*RANDOM, "--click-prob", "0.2"]),
    ok("interleave-model", with_option(RANDOM, "--clicks", "pbm.json"), files=MODEL),
    # a click model of other topics clicked from its prior alone, silently
    ok("interleave-model-some-topics", with_option(RANDOM, "--clicks", "few.json"),
       _warns_of_topics, files={"few.json": _model_json("12")}),
    err("interleave-model-no-topic", with_option(RANDOM, "--clicks", "other.json"),
        "no parameter for any topic", files={"other.json": _model_json("xyz")}),
    # c.run is named c, by its file
    ok("interleave-multileave", [*INTER[:4], "c.run", *INTER[4:]], output_contains("b  c  ")),
    ok("interleave-balanced", [*INTER, "--method", "balanced"], output_contains("balanced")),
    ok("interleave-names", [*INTER, "--names", "bm25,ql"], output_contains("bm25  ql")),
    err("interleave-names-count", [*INTER, "--names", "bm25"], "1 name given for 2 runs"),
    err("interleave-names-twice", [*INTER, "--names", "x,x"], "'x' is given twice"),
    ok("interleave-probabilistic", [*INTER, "--method", "probabilistic", "--tau", "2",
                                    "--credit", "assignment"]),
    ok("interleave-optimized", [*INTER, "--method", "optimized", "--credit", "linear",
                                "--length", "4"]),
    ok("interleave-csv", [*INTER, "--format", "csv"], output_contains("a,b,n,wins")),
    ok("interleave-json", [*INTER, "--format", "json"], output_contains('"wins"')),
    ok("interleave-level", [*INTER, "-l", "2", "--alpha", "0.1"]),
    ok("interleave-output", [*INTER, "-o", "out.txt"], allowed_new=("out.txt",)),
    err("interleave-output-is-input", [*INTER, "-o", "qrels.txt"], "qrels.txt"),
    err("interleave-output-is-model", [*with_option(RANDOM, "--clicks", "pbm.json"), "-o",
                                       "pbm.json", "--force"], "pbm.json", files=MODEL),
    err("interleave-one-run", ["online", "interleave", "a.run", "--clicks", "random"],
        any_of("two rankers", "two")),
    err("interleave-no-clicks", INTER[:4], opt("--clicks")),
    err("interleave-perfect-no-qrels", with_option(RANDOM, "--clicks", "perfect"),
        opt("--qrels")),
    err("interleave-qrels-not-perfect", [*RANDOM, "--qrels", "qrels.txt"], opt("--qrels")),
    err("interleave-level-not-perfect", [*RANDOM, "-l", "1"], opt("-l")),
    err("interleave-long-level-not-perfect", [*RANDOM, "--relevance-level", "1"],
        "-l/--relevance-level"),
    err("interleave-level-for-rel-spelling", [*INTER, "--level-for-rel", "2"],
        "--level-for-rel"),
    err("interleave-level-0", [*INTER, "-l", "0"], any_of("relevance_level", "-l")),
    err("interleave-click-prob-not-random", [*INTER, "--click-prob", "0.5"],
        opt("--click-prob")),
    err("interleave-click-prob-2", [*RANDOM, "--click-prob", "2"], opt("--click-prob")),
    err("interleave-click-prob-nan", [*RANDOM, "--click-prob", "nan"], opt("--click-prob")),
    err("interleave-model-missing", with_option(RANDOM, "--clicks", "nope.json"),
        "nope.json"),
    err("interleave-model-bad-json", with_option(RANDOM, "--clicks", "bad.json"),
        "bad.json", files={"bad.json": "{not json"}),
    err("interleave-model-is-a-folder", with_option(RANDOM, "--clicks", "adir"), "adir"),
    err("interleave-method-unknown", [*INTER, "--method", "tdi"], "tdi"),
    err("interleave-multileave-balanced", [*INTER[:4], "c.run", *INTER[4:], "--method",
                                           "balanced"], "team-draft"),
    err("interleave-credit-team-draft", [*INTER, "--credit", "inverse"], opt("--credit")),
    err("interleave-credit-unknown", [*INTER, "--method", "optimized", "--credit", "log"],
        "log"),
    err("interleave-tau-not-probabilistic", [*INTER, "--tau", "2"], opt("--tau")),
    err("interleave-tau-0", [*INTER, "--method", "probabilistic", "--tau", "0"],
        opt("--tau")),
    err("interleave-tau-nan", [*INTER, "--method", "probabilistic", "--tau", "nan"],
        opt("--tau")),
    err("interleave-impressions-0", with_option(INTER, "--impressions", "0"),
        opt("--impressions")),
    err("interleave-impressions-text", with_option(INTER, "--impressions", "x"),
        opt("--impressions")),
    err("interleave-length-0", [*INTER, "--length", "0"], opt("--length")),
    err("interleave-length-optimized-17", [*INTER, "--method", "optimized", "--length",
                                           "17"], opt("--length")),
    err("interleave-seed-negative", with_option(INTER, "--seed", "-1"), opt("--seed")),
    err("interleave-alpha-1", [*INTER, "--alpha", "1"], opt("--alpha")),
    err("interleave-bootstrap-0", with_option(INTER, "--bootstrap", "0"),
        opt("--bootstrap")),
    # sizes that make arrays numpy cannot allocate, or work without end, are refused
    err("interleave-bootstrap-huge", with_option(INTER, "--bootstrap", str(2**63 - 1)),
        opt("--bootstrap"), "1,000,000,000"),
    err("interleave-impressions-huge", with_option(INTER, "--impressions", str(2**63 - 1)),
        opt("--impressions"), "memory limit"),
    # the change asked for read from the declared costs of --impressions and --length
    err("interleave-impressions-memory", with_option(INTER, "--impressions", str(2**40)),
        opt("--impressions"), "1,099,511,627,776 impressions on each of",
        "fewer --impressions or fewer --length"),
    err("interleave-impressions-beyond-64-bits", with_option(INTER, "--impressions",
                                                             str(10**30)),
        opt("--impressions")),
    # a list is never longer than its topic's documents: a longer --length changes nothing
    # a topic only one run ranks: the other run's lists there are empty and it loses every
    # click (a run cut short or topic ids written differently): said, not silent
    ok("interleave-topic-of-one-run", [*RANDOM[:3], "c.run", *RANDOM[4:]],
       lambda result, ws, run: _warns(result, "run 'c' ranks no document", "interleaved"),
       files={"c.run": "99 Q0 x 1 1.0 c\n"}),
    ok("interleave-length-huge", [*INTER, "--length", str(2**63 - 1)],
       same_output_as(*INTER, "--length", "10001")),
    err("interleave-format-unknown", [*INTER, "--format", "xml"], "xml"),
    # the faulty run file keeps a.run's file name (a run is named by its file), in a folder
    *trec_file_faults("interleave-run", "run", inter_run_argv, inter_run_argv("a.run"),
                      name="bad/a.run"),
    *trec_file_faults("interleave-qrels", "qrels", inter_qrels_argv,
                      inter_qrels_argv("qrels.txt"), name="bad.qrels"),
    # ================================================================ ab assign
    ok("assign", ASSIGN, output_contains("u1\t"), files=USERS),
    ok("assign-splits", [*ASSIGN, "--splits", "a=0.2,b=0.3,c=0.5"], files=USERS),
    ok("assign-output", [*ASSIGN, "-o", "v.tsv"], files=USERS, allowed_new=("v.tsv",)),
    err("assign-no-salt", ASSIGN[:4], opt("--salt"), files=USERS),
    err("assign-missing-file", with_option([*ASSIGN[:3], "nope.txt"], "--salt", "s"),
        "nope.txt"),
    err("assign-blank-line", ASSIGN, "users.txt", "line 2", files={"users.txt": "u1\n\nu2\n"}),
    err("assign-duplicate-user", ASSIGN, "users.txt", "line 3",
        files={"users.txt": "u1\nu2\nu1\n"}),
    err("assign-empty-file", ASSIGN, "users.txt", files={"users.txt": ""}),
    err("assign-splits-sum", [*ASSIGN, "--splits", "a=0.5,b=0.6"], "sum to 1", files=USERS),
    err("assign-splits-one", [*ASSIGN, "--splits", "a=1"], "two", files=USERS),
    err("assign-splits-syntax", [*ASSIGN, "--splits", "a0.5,b=0.5"], opt("--splits"),
        files=USERS),
    err("assign-splits-not-a-number", [*ASSIGN, "--splits", "a=x,b=0.5"], opt("--splits"),
        files=USERS),
    err("assign-splits-twice", [*ASSIGN, "--splits", "a=0.5,a=0.5"], opt("--splits"),
        files=USERS),
    err("assign-splits-negative", [*ASSIGN, "--splits", "a=1.5,b=-0.5"], "positive",
        files=USERS),
    err("assign-output-exists", [*ASSIGN, "-o", "users.txt", "--force"], "users.txt",
        files=USERS),
    # an id with a tab or a blank would write a 'user<TAB>variant' line that 'measures
    # --variants' cannot split back
    err("assign-user-with-tab", ASSIGN, "users.txt", "line 2", "blank or a tab",
        files={"users.txt": "u1\nu2\tx\n"}),
    err("assign-user-with-blank", ASSIGN, "users.txt", "line 1", "blank or a tab",
        files={"users.txt": "u 1\nu2\n"}),
    # the second share of a variant replaced the first silently (a=0.5,b=0.1,b=0.5 ran
    # as a=0.5,b=0.5)
    err("assign-splits-twice-last", [*ASSIGN, "--splits", "a=0.5,b=0.1,b=0.5"],
        opt("--splits"), "'b' given twice", files=USERS),
    err("assign-splits-name-blank", [*ASSIGN, "--splits", "a b=0.5,c=0.5"],
        opt("--splits"), "'a b'", files=USERS),
    # ================================================================ ab measures
    ok("measures-salt", MEASURES, output_contains("user,variant,impressions,clicks"),
       files=LOGS),
    ok("measures-variants", with_option(MEASURES[:-2], "--variants", "v.tsv"),
       output_contains("u1,control"), files=LOGS),
    # given is given, also with the default shares: refused without --salt, never ignored
    err("measures-variants-default-splits",
        [*with_option(MEASURES[:-2], "--variants", "v.tsv"), "--splits",
         "control=0.5,treatment=0.5"], opt("--splits"), files=LOGS),
    ok("measures-salt-splits", [*MEASURES, "--splits", "a=0.5,b=0.5", "-k", "1"],
       output_contains("clicks@1"), files=LOGS),
    ok("measures-output", [*MEASURES, "-o", "m.csv"], files=LOGS, allowed_new=("m.csv",)),
    err("measures-no-users", [m for m in MEASURES if m not in ("--users", "su.txt")],
        opt("--users"), files=LOGS),
    err("measures-no-variants", MEASURES[:-2], any_of("--variants", "--salt"), files=LOGS),
    err("measures-variants-and-salt", [*MEASURES, "--variants", "v.tsv"],
        any_of("--variants", "--salt"), files=LOGS),
    err("measures-splits-without-salt", [*with_option(MEASURES[:-2], "--variants",
                                                      "v.tsv"), "--splits", "a=0.5,b=0.5"],
        opt("--splits"), files=LOGS),
    err("measures-k-0", [*MEASURES, "-k", "0"], any_of("k must", "-k"), files=LOGS),
    err("measures-session-without-user", MEASURES, "su.txt", "s3",
        files={**LOGS, "su.txt": "s1 u1\ns2 u1\n"}),
    err("measures-users-bad-line", MEASURES, "su.txt", "line 2",
        files={**LOGS, "su.txt": "s1 u1\ns2\n"}),
    err("measures-users-session-twice", MEASURES, "su.txt", "line 2",
        files={**LOGS, "su.txt": "s1 u1\ns1 u2\n"}),
    err("measures-user-without-variant", with_option(MEASURES[:-2], "--variants", "v.tsv"),
        "v.tsv", "u2", files={**LOGS, "v.tsv": "u1\tcontrol\n"}),
    err("measures-log-bad-click", MEASURES, "log.txt", "line 1",
        files={**LOGS, "log.txt": "s1 q1 1 d1 2\n"}),
    err("measures-log-missing", [*MEASURES[:3], "nope.txt", *MEASURES[4:]], "nope.txt",
        files=LOGS),
    err("measures-output-is-users", [*MEASURES, "-o", "su.txt", "--force"], "su.txt",
        files=LOGS),
    # ---- the pages' times (loyalty measures) and the sessions that showed the answer
    ok("measures-times", TIMED,
       output_contains("search_sessions,queries_per_session,absence_time"),
       files={**LOGS, "sut.txt": "s1 u1 0\ns2 u1 4000\ns3 u2 10\n"}),
    ok("measures-answered", [*MEASURES, "--answered", "ans.txt"],
       output_contains("good_abandonment"), files={**LOGS, "ans.txt": "s2\n"}),
    err("measures-times-bad-time", TIMED, "sut.txt", "line 2",
        "finite", files={**LOGS, "sut.txt": "s1 u1 0\ns2 u1 later\ns3 u2 10\n"}),
    err("measures-times-missing-on-a-line", TIMED, "sut.txt",
        "line 2", "3 fields", files={**LOGS, "sut.txt": "s1 u1 0\ns2 u1\ns3 u2 10\n"}),
    err("measures-session-gap-without-times", [*MEASURES, "--session-gap", "60"],
        "--session-gap", "no time", files=LOGS),
    err("measures-session-gap-0", [*TIMED, "--session-gap", "0"],
        "session_gap", files={**LOGS, "sut.txt": "s1 u1 0\ns2 u1 4000\ns3 u2 10\n"}),
    # a UTF-8 byte order mark (as Windows editors write) is not part of the first id
    ok("measures-answered-bom", [*MEASURES, "--answered", "ans.txt"],
       same_output_as(*MEASURES, "--answered", "plain.txt"),
       files={**LOGS, "ans.txt": b"\xef\xbb\xbfs2\r\n", "plain.txt": "s2\n"}),
    ok("measures-users-bom", [*MEASURES[:4], "--users", "bom.txt", *MEASURES[6:]],
       same_output_as(*MEASURES), files={**LOGS, "bom.txt": b"\xef\xbb\xbf"
                                         + LOGS["su.txt"].encode()}),
    ok("assign-users-bom", ["online", "ab", "assign", "bom.txt", "--salt", "s1"],
       same_output_as(*ASSIGN), files={**USERS, "bom.txt": b"\xef\xbb\xbfu1\nu2\nu3\n"}),
    err("measures-answered-unknown-session", [*MEASURES, "--answered", "ans.txt"],
        "ans.txt", "line 2", "s9", files={**LOGS, "ans.txt": "s2\ns9\n"}),
    err("measures-answered-twice", [*MEASURES, "--answered", "ans.txt"], "ans.txt",
        "line 2", "twice", files={**LOGS, "ans.txt": "s2\ns2\n"}),
    err("measures-answered-missing", [*MEASURES, "--answered", "nope.txt"], "nope.txt",
        files=LOGS),
    # ---- a metric missing for some users (absence time of users who never came back)
    err("analyze-metric-missing", ANALYZE, "clicks", "u1",
        files={"t.csv": "user,variant,clicks\nu1,control,\nu2,control,2\nu3,control,1\n"
               "u4,treatment,3\nu5,treatment,1\nu6,treatment,2\n"}),
    ok("analyze-missing-drop", [*ANALYZE, "--missing", "drop"], output_contains("Welch"),
       files={"t.csv": "user,variant,clicks\nu1,control,\nu2,control,2\nu3,control,1\n"
              "u4,treatment,3\nu5,treatment,1\nu6,treatment,2\n"}),
    err("analyze-missing-unknown", [*ANALYZE, "--missing", "keep"], "missing", files=TABLE),
    err("analyze-missing-with-oec", [*OEC, "clicks=1", "--missing", "drop"], "--missing",
        files=TABLE),
    # ================================================================ ab summary
    ok("summary", ["online", "ab", "summary", "t.csv"], output_contains("ci_low", "clicks"),
       files=TABLE),
    ok("summary-metrics", ["online", "ab", "summary", "t.csv", "--metrics", "clicks",
                           "--alpha", "0.1", "--format", "csv"],
       output_contains("variant,measure,users"), files=TABLE),
    err("summary-unknown-metric", ["online", "ab", "summary", "t.csv", "--metrics", "nope"],
        "t.csv", "nope", files=TABLE),
    err("summary-bad-alpha", ["online", "ab", "summary", "t.csv", "--alpha", "2"], "alpha",
        files=TABLE),
    err("summary-missing", ["online", "ab", "summary", "nope.csv"], "nope.csv", files=TABLE),
    err("summary-output-is-input", ["online", "ab", "summary", "t.csv", "-o", "t.csv",
                                    "--force"], "t.csv", files=TABLE),
    # the cells are checked on the text, before pandas parses it (tests/test_startup.py)
    err("summary-word-among-numbers", SUMMARY, "t.csv", "line 4", "'clicks'", "'x y'",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control,2\n"
               "u3,control,x y\nu4,treatment,3\n"}),
    err("summary-short-row", SUMMARY, "t.csv", "line 3", "expected 3 fields",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control\n"}),
    err("srm-user-twice", SRM, "t.csv", "line 3", "user listed twice",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu1,treatment,2\n"}),
    err("srm-header-only", SRM, "t.csv", "no row under the header",
        files={"t.csv": "user,variant,clicks\n"}),
    # the quick check of a plain table (numbers of number bytes only) leaves to the full
    # one a cell of number bytes that is no number, a blank around a number, a blank line
    err("summary-number-bytes-no-number", SUMMARY, "t.csv", "line 3", "'1.2.3'",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control,1.2.3\n"
               "u3,treatment,2\n"}),
    err("summary-number-and-blank", SUMMARY, "t.csv", "line 2", "'1 '",
        files={"t.csv": "user,variant,clicks\nu1,control,1 \nu2,control,2\n"
               "u3,treatment,2\n"}),
    err("summary-word-after-blank-line", SUMMARY, "t.csv", "line 4", "'x'",
        files={"t.csv": "user,variant,clicks\nu1,control,1\n\nu2,control,x\n"
               "u3,treatment,2\n"}),
    err("summary-user-twice-tsv", SUMMARY, "t.csv", "line 3", "user listed twice",
        files={"t.csv": "user\tvariant\tclicks\nu1\tcontrol\t1\nu1\ttreatment\t2\n"}),
    # users of distinct bytes that pandas reads as one (two missing ids; a blank before an
    # id, which pandas strips): the quick check leaves them to the checks of the parsed table
    err("summary-two-missing-users", SUMMARY, "t.csv", "line 3", "user listed twice",
        files={"t.csv": "user,variant,clicks\nNA,control,1\nnan,treatment,2\n"}),
    err("summary-user-twice-after-blank", SUMMARY, "t.csv", "line 3", "user listed twice",
        files={"t.csv": "user,variant,clicks\nu1,control,1\n u1,treatment,2\n"}),
    # pandas' missing-value cells are no words among the numbers
    ok("summary-missing-cells", [*SUMMARY, "--missing", "drop"],
       output_contains("clicks"),
       files={"t.csv": "user,variant,clicks\nu1,control,NA\nu2,control,2\nu3,control,1\n"
              "u4,treatment,null\nu5,treatment,1\nu6,treatment,N/A\nu7,treatment,3\n"}),
    # a row of fewer or more fields than the header, a word among a column's numbers, a
    # table without a numeric column: refused naming the file and line (they were read as
    # missing values, shifted into the wrong columns, or the column left out in silence)
    err("summary-short-row", SUMMARY, "t.csv", "line 3", "u2,control",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control\nu3,treatment,2\n"}),
    err("summary-long-first-row", SUMMARY, "t.csv", "line 2", "u1,control,1,9",
        files={"t.csv": "user,variant,clicks\nu1,control,1,9\nu2,control,3\n"}),
    err("summary-word-among-numbers", SUMMARY, "t.csv", "line 3", "clicks", "abc",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control,abc\n"
                        "u3,treatment,2\nu4,treatment,5\n"}),
    err("summary-infinite-value", SUMMARY, "clicks", "u2", "inf",
        files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control,inf\n"
                        "u3,treatment,2\nu4,treatment,5\n"}),
    err("summary-no-numeric-column", SUMMARY, "t.csv", "numeric",
        files={"t.csv": "user,variant,name\nu1,control,x\nu2,treatment,y\n"}),
    err("summary-metric-of-words", [*SUMMARY, "--metrics", "variant"], "variant", "numbers",
        files=TABLE),
    # a metric named twice was summarised twice
    err("summary-metric-twice", [*SUMMARY, "--metrics", "clicks,clicks"], opt("--metrics"),
        "twice", files=TABLE),
    err("analyze-drop-word-among-numbers", [*ANALYZE, "--missing", "drop"], "t.csv", "line 3",
        "abc", files={"t.csv": "user,variant,clicks\nu1,control,1\nu2,control,abc\n"
                               "u3,treatment,2\nu4,treatment,5\nu5,control,2\n"}),
    # ================================================================ ab analyze
    ok("analyze-welch", ANALYZE, output_contains("Welch"), files=TABLE),
    # ---- an OEC: weighted columns and ratios, by the delta method
    ok("analyze-oec", [*OEC, "clicks/impressions=0.5,pre=-1"], output_contains("OEC"),
       files=TABLE),
    ok("analyze-oec-json", [*OEC, "clicks=1", "--format", "json"],
       output_contains("OEC = 1*clicks"), files=TABLE),
    err("analyze-neither-metric-nor-oec", ["online", "ab", "analyze", "t.csv"], "--metric",
        "--oec", files=TABLE),
    err("analyze-oec-and-metric", [*ANALYZE, "--oec", "clicks=1"], "--oec", "--metric",
        files=TABLE),
    err("analyze-oec-with-analysis", [*OEC, "clicks=1", "--analysis", "cuped"],
        opt("--analysis"), "--oec", files=TABLE),
    err("analyze-oec-with-denominator", [*OEC, "clicks=1", "--denominator", "impressions"],
        opt("--denominator"), files=TABLE),
    err("analyze-oec-unknown-column", [*OEC, "nosuch=1"], "nosuch", files=TABLE),
    err("analyze-oec-unknown-denominator", [*OEC, "clicks/nosuch=1"], "nosuch", files=TABLE),
    err("analyze-oec-no-weight", [*OEC, "clicks"], "--oec", "measure=weight", files=TABLE),
    err("analyze-oec-weight-text", [*OEC, "clicks=high"], "clicks", "high", files=TABLE),
    err("analyze-oec-weight-zero", [*OEC, "clicks=0"], "clicks", "other than 0", files=TABLE),
    err("analyze-oec-weight-inf", [*OEC, "clicks=inf"], "clicks", "finite", files=TABLE),
    err("analyze-oec-twice", [*OEC, "clicks=1,clicks=2"], "clicks", "twice", files=TABLE),
    err("analyze-oec-half-ratio", [*OEC, "clicks/=1"], "numerator/denominator", files=TABLE),
    err("analyze-oec-empty", [*OEC, ""], "--oec", files=TABLE),
    ok("analyze-delta", [*ANALYZE, "--analysis", "delta", "--denominator", "impressions"],
       output_contains("delta-method"), files=TABLE),
    ok("analyze-cuped", [*ANALYZE, "--analysis", "cuped", "--covariate", "pre"],
       output_contains("CUPED"), files=TABLE),
    ok("analyze-tsv", ANALYZE, output_contains("Welch"), files={"t.csv": _table(sep="\t")}),
    ok("analyze-csv-format", [*ANALYZE, "--format", "csv", "--alpha", "0.1"],
       output_contains("test,a,b"), files=TABLE),
    ok("analyze-swapped-variants", [*ANALYZE, "--control", "treatment", "--treatment",
                                    "control"], files=TABLE),
    err("analyze-metric-missing", with_option(ANALYZE, "--metric", "nope"), "nope",
        files=TABLE),
    err("analyze-no-metric", ANALYZE[:4], opt("--metric"), files=TABLE),
    err("analyze-delta-no-denominator", [*ANALYZE, "--analysis", "delta"],
        "denominator", files=TABLE),
    err("analyze-denominator-welch", [*ANALYZE, "--denominator", "impressions"],
        "denominator", files=TABLE),
    err("analyze-cuped-no-covariate", [*ANALYZE, "--analysis", "cuped"], "covariate",
        files=TABLE),
    err("analyze-covariate-welch", [*ANALYZE, "--covariate", "pre"], "covariate",
        files=TABLE),
    err("analyze-analysis-unknown", [*ANALYZE, "--analysis", "bayes"], "bayes", files=TABLE),
    err("analyze-variant-column-missing", [*ANALYZE, "--variant-column", "arm"], "arm",
        files=TABLE),
    err("analyze-control-missing", [*ANALYZE, "--control", "old"], "old", files=TABLE),
    err("analyze-alpha-0", [*ANALYZE, "--alpha", "0"], opt("--alpha"), files=TABLE),
    err("analyze-non-numeric", ANALYZE, "u1", files={"t.csv": "user,variant,clicks\n"
                                                     "u0,control,1\nu1,treatment,x\n"
                                                     "u2,control,2\nu3,treatment,3\n"}),
    err("analyze-ragged-row", ANALYZE, "t.csv", any_of("line 3", "3"),
        files={"t.csv": "user,variant,clicks\nu0,control,1\nu1,treatment,2,9\n"}),
    err("analyze-duplicate-user", ANALYZE, "t.csv", "line 3",
        files={"t.csv": "user,variant,clicks\nu0,control,1\nu0,treatment,2\n"}),
    err("analyze-duplicate-column", ANALYZE, "t.csv", "distinct",
        files={"t.csv": "user,clicks,clicks\nu0,1,2\n"}),
    err("analyze-empty", ANALYZE, "t.csv", files={"t.csv": ""}),
    err("analyze-header-only", ANALYZE, "t.csv", files={"t.csv": "user,variant,clicks\n"}),
    err("analyze-missing-file", with_option([*ANALYZE[:3], "nope.csv"], "--metric", "c"),
        "nope.csv"),
    # a Welch test of a variant against itself is refused, as a run given twice is
    err("analyze-control-is-treatment", [*ANALYZE, "--control", "treatment", "--treatment",
                                         "treatment"], "control", "treatment",
        "two different variants", files=TABLE),
    err("analyze-treatment-is-control", [*ANALYZE, "--treatment", "control"],
        "two different variants", files=TABLE),
    # a cell that is no finite number is quoted as written in the file (not np.float64(nan)),
    # its line named
    err("analyze-nan-cell", ANALYZE, "u1", "t.csv", "line 3", "'u1,treatment,nan'",
        files={"t.csv": "user,variant,clicks\nu0,control,1\nu1,treatment,nan\n"
                        "u2,control,2\nu3,treatment,3\n"}),
    err("analyze-inf-cell", ANALYZE, "u3", "(inf)",
        files={"t.csv": "user,variant,clicks\nu0,control,1\nu1,treatment,2\n"
                        "u2,control,2\nu3,treatment,inf\n"}),
    err("analyze-alpha-below-double-resolution", [*ANALYZE, "--alpha", "1e-300"],
        opt("--alpha"), "1e-300", files=TABLE),
    err("analyze-one-user-delta", [*ANALYZE, "--analysis", "delta", "--denominator", "n"],
        any_of("1 user", "delta"), files={"t.csv": "variant,clicks,n\ncontrol,1,2\n"
                                                    "treatment,2,3\ntreatment,1,1\n"}),
    err("analyze-delta-constant-ratios", [*ANALYZE, "--analysis", "delta", "--denominator",
                                          "n"], "no variance",
        files={"t.csv": "variant,clicks,n\ncontrol,1,10\ncontrol,3,30\ncontrol,7,70\n"
                        "treatment,1.1,10\ntreatment,3.3,30\ntreatment,7.7,70\n"}),
    # Welch and CUPED spoke of topics and systems and suggested tests 'ab analyze' has not;
    # CUPED tested the covariate's chance imbalance on a metric constant per variant
    # (p = 1e-59)
    *(err(f"analyze-one-user-{name}", [*ANALYZE, *extra], "variant 'control' has 1 user",
          files={"t.csv": "variant,clicks,pre\ncontrol,1,2\ntreatment,2,3\n"
                          "treatment,1,1\n"})
      for name, extra in (("welch", []), ("cuped", ["--analysis", "cuped", "--covariate",
                                                     "pre"]))),
    *(err(f"analyze-constant-variants-{name}", [*ANALYZE, *extra], "no variance",
          "5 in 'treatment'", files={"t.csv": "variant,clicks,pre\ncontrol,3,0.1\n"
                                              "control,3,0.3\ncontrol,3,0.2\n"
                                              "treatment,5,0.9\ntreatment,5,0.7\n"
                                              "treatment,5,0.8\n"})
      for name, extra in (("welch", []), ("cuped", ["--analysis", "cuped", "--covariate",
                                                     "pre"]))),
    err("analyze-cuped-covariate-is-metric", [*ANALYZE, "--analysis", "cuped",
                                              "--covariate", "pre"], "predicts clicks",
        files={"t.csv": "variant,clicks,pre\ncontrol,1,1\ncontrol,2,2\ntreatment,4,4\n"
                        "treatment,6,6\n"}),
    # ================================================================ ab srm
    ok("srm", SRM, output_contains("chi2", "observed"), files=TABLE),
    ok("srm-splits", [*SRM, "--splits", "control=0.4,treatment=0.6", "--format", "csv"],
       files=TABLE),
    err("srm-unplanned-variant", [*SRM, "--splits", "control=0.5,other=0.5"], "treatment",
        files=TABLE),
    err("srm-variant-column-missing", [*SRM, "--variant-column", "arm"], "arm",
        files=TABLE),
    err("srm-splits-sum", [*SRM, "--splits", "control=0.5,treatment=0.2"], "sum to 1",
        files=TABLE),
    # ================================================================ ab size
    ok("size", SIZE, output_contains("users per variant\t1571")),
    ok("size-alpha-power", [*SIZE, "--alpha", "0.01", "--power", "0.9"]),
    ok("size-output", [*SIZE, "-o", "n.txt"], allowed_new=("n.txt",)),
    err("size-min-diff-0", with_option(SIZE, "--min-diff", "0"), opt("--min-diff")),
    err("size-sd-negative", with_option(SIZE, "--sd", "-1"), opt("--sd")),
    err("size-sd-missing", SIZE[:5], opt("--sd")),
    err("size-power-1", [*SIZE, "--power", "1"], opt("--power")),
    err("size-alpha-nan", [*SIZE, "--alpha", "nan"], opt("--alpha")),
    # sizes beyond the limit are refused before any search (their normal approximation
    # (z σ / minD)² overflowed, or its huge n reached scipy as a Python int)
    err("size-min-diff-1e-300", with_option(SIZE, "--min-diff", "1e-300"), "one million"),
    err("size-min-diff-1e-10", with_option(SIZE, "--min-diff", "1e-10"), "one million"),
    err("size-sd-1e300", with_option(SIZE, "--sd", "1e300"), "one million"),
    err("size-sd-2-63", with_option(SIZE, "--sd", str(2**63 - 1)), "one million"),
    # an effect of 1e300 standard deviations: the smallest groups (2 users) have power 1
    # (scipy's noncentral t gives NaN that far out, which was read as power 0)
    ok("size-min-diff-1e300", with_option(SIZE, "--min-diff", "1e300"),
       output_contains("users per variant\t2\npower\t1.0000")),
    ok("size-sd-1e-300", with_option(SIZE, "--sd", "1e-300"),
       output_contains("users per variant\t2\npower\t1.0000")),
    err("size-alpha-below-double-resolution", [*SIZE, "--alpha", "1e-300"], opt("--alpha"),
        "1e-300"),
    err("size-power-below-double-resolution", [*SIZE, "--power", "1e-300"], "power",
        "1e-300"),
    # ================================================================ the commands
    err("online-no-action", ["online"], any_of("interleave", "ACTION")),
    err("online-unknown-action", ["online", "frob"], "frob"),
    err("ab-no-action", ["online", "ab"], any_of("assign", "ACTION")),
    # one wording for a command without its action: its actions in the order of --help
    err("ab-no-action-lists-the-actions", ["online", "ab"], "online ab: choose an action: "
        "assign, measures, summary, analyze, srm, size (see 'irscale online ab --help')"),
    err("ab-unknown-action", ["online", "ab", "frob"], "frob"),
    err("interleave-unknown-option", [*INTER, "--bogus"], "--bogus"),
]


@pytest.mark.parametrize("case", CASES)
def test_online(case, ws, run_cli):
    run_case(case, ws, run_cli)
