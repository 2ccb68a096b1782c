"""``irscale compare``: faulty score CSVs, qrels and runs, and options (tests, models,
corrections, alpha, samples, seeds, workers, options a test ignores)."""

from __future__ import annotations

import json
import re

import pytest

from .catalog import csv_faults, has_warning, no_warning
from .conftest import (
    all_checks,
    any_of,
    either,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    run_lines,
    same_output_as,
    score_text,
    text,
    warnings_of,
    warns_of,
    with_option,
)
from .test_diversity_faults import QRELS as DIV_QRELS

#: Diversity qrels of topics 1..6 (test_diversity_faults.py) and a copy in which topic 1
#: has no relevant document (nNRBP is 0/0 there).
DIV_FILES = {"div.qrels": text(DIV_QRELS)}
NONREL_QRELS = text([line.rsplit(" ", 1)[0] + " 0" if line.startswith("1 ") else line
                     for line in DIV_QRELS])
DIV_COMPARE = ["compare", "div.qrels", "a.run", "b.run", "c.run", "-m", "alpha-nDCG@5"]


def csv_argv(name: str) -> list[str]:
    return ["compare", "--scores", name, "--test", "t", "--correction", "holm"]


REF = csv_argv("ap.csv")
TUKEY = ["compare", "--scores", "ap.csv"]
T = ["compare", "--scores", "ap.csv", "--test", "t"]
RANDOM = ["compare", "--scores", "ap.csv", "--test", "randomization", "--samples", "99",
          "--seed", "1"]
BOOT = ["compare", "--scores", "ap.csv", "--test", "bootstrap", "--samples", "99",
        "--seed", "1"]
RUNS = ["compare", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map"]
RISK = [*TUKEY, "--baseline", "sysA", "--risk-alpha", "1"]
MIXED = [*TUKEY, "--test", "mixed"]


def scientific_cells(result, ws, run):
    """Values of 10¹⁵ or more are written in scientific notation (1e300 was written out in
    301 digits), with no fixed-point run of digits beyond what a double holds."""
    assert "1.00e+300" in result.out, result.describe()
    assert not re.search(r"\d{17}", result.out), result.describe()


def json_risk(result, ws, run):
    rows = json.loads(result.out)["risk"]
    assert [r["run"] for r in rows] == ["sysB", "sysC", "sysD"], result.describe()
    assert all(r["baseline"] == "sysA" and r["risk_alpha"] == 1.0 for r in rows)


BASELINE = [*T, "--baseline", "sysA"]


def json_wins_ties_losses(result, ws, run):
    """Every pair is a system against sysA; its wins, ties and losses count every topic
    once, as a topic-by-topic comparison of ap.csv's columns does."""
    rows = [line.split(",") for line in ws.read("ap.csv").decode().split()]
    columns = {name: [float(row[k]) for row in rows[1:]] for k, name in enumerate(rows[0])}
    pairs = json.loads(result.out)["pairs"]
    assert [p["a"] for p in pairs] == ["sysB", "sysC", "sysD"], result.describe()
    for pair in pairs:
        base, other = columns[pair["b"]], columns[pair["a"]]
        expected = (sum(o > b for o, b in zip(other, base, strict=True)),
                    sum(o == b for o, b in zip(other, base, strict=True)),
                    sum(o < b for o, b in zip(other, base, strict=True)))
        assert (pair["wins"], pair["ties"], pair["losses"]) == expected, pair


def json_pairs(result, ws, run):
    document = json.loads(result.out)
    assert document["pairs"], result.describe()
    for pair in document["pairs"]:
        assert "p" in pair and "p_adjusted" in pair, f"pair without p and p_adjusted: {pair}"


def no_raw_warnings(result, ws, run):
    for word in ("RuntimeWarning", "UserWarning", "divide by zero", ".py:"):
        assert word not in result.err, f"raw warning on stderr: {result.err!r}"


def plot_written(name: str):
    """The Q-Q plot of the residuals was written as ``name``."""

    def check(result, ws, run):
        assert "Shapiro-Wilk" in ws.read(name).decode(), result.describe()

    return check


def finite_output(result, ws, run):
    no_raw_warnings(result, ws, run)
    lowered = result.out.lower()
    assert "nan" not in lowered and "inf" not in lowered.replace("info", ""), \
        "non-finite numbers printed" + result.describe()


def hommel_of_statsmodels(result, ws, run):
    """``p_adjusted`` is statsmodels' Hommel adjustment of the printed raw ``p``."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rows = [line.split(",") for line in result.out.splitlines()]
    header, body = rows[0], rows[1:]
    raw = [float(row[header.index("p")]) for row in body]
    adjusted = [float(row[header.index("p_adjusted")]) for row in body]
    assert len(raw) == 6, result.describe()  # the 6 pairs of sysA..sysD
    expected = multitest.multipletests(raw, method="hommel")[1]
    assert adjusted == pytest.approx(expected, abs=1e-12), result.describe()


def _twin_columns() -> str:
    """sysA and sysB identical: their p-values are 1."""
    lines = score_text("ap").splitlines()
    out = [lines[0]]
    for row in lines[1:]:
        cells = row.split(",")
        cells[1] = cells[0]
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def _scaled(factor: str) -> str:
    lines = score_text("ap").splitlines()
    return "\n".join([lines[0]] + [",".join(f"{c}{factor}" for c in row.split(","))
                                   for row in lines[1:]]) + "\n"


SHORT = score_text("ap", rows=8)  # 8 of the 12 topics


def _rewritten(change) -> str:
    """ap.csv with each row's cells (floats) replaced by ``change(row number, cells)``,
    written at full precision (repr), so that rounding noise reaches the differences."""
    lines = score_text("ap").splitlines()
    rows = [change(k, [float(c) for c in row.split(",")]) for k, row in enumerate(lines[1:])]
    return "\n".join([lines[0]] + [",".join(map(repr, row)) for row in rows]) + "\n"


#: Two topics whose differences are -0.2 up to rounding (0.1 - 0.3, 0.2 - 0.4).
NO_SPREAD_TWO = "a,b\n0.1,0.3\n0.2,0.4\n"
#: sysB = sysA + 0.2 (differences equal up to the rounding of the additions), sysC and sysD
#: ordinary; in the "rounded twin" sysB = sysA + 0.1 - 0.1 (identical up to rounding).
NO_SPREAD_SHIFT = _rewritten(lambda k, c: [c[0], c[0] + 0.2, *c[2:]])
ROUNDED_TWIN = _rewritten(lambda k, c: [c[0], c[0] + 0.1 - 0.1, *c[2:]])
#: sysA and sysB each constant up to rounding (0.1 + 0.2 is not 0.3, 0.2 + 0.4 not 0.6),
#: sysC and sysD ordinary.
#: ap.csv as 0/1 scores (1: AP above a cut-off of each system's), every system with
#: successes and failures.
BINARY = _rewritten(lambda k, c: [float(v > cut) for v, cut in
                                  zip(c, (0.27, 0.33, 0.45, 0.55), strict=True)])
#: the same with sysA a success on every topic (complete separation).
SEPARATED = _rewritten(lambda k, c: [1.0, *(float(v > 0.25) for v in c[1:])])




def _shard_score(t: int, s: int, k: int) -> float:
    """Topic, run and shard effects plus a deterministic scatter."""
    return 0.2 + 0.05 * t + 0.03 * s + 0.02 * k + 0.01 * ((7 * t + 3 * s + 5 * k) % 11)


#: Scores of 6 topics × 3 runs × 2 shards (topic,run,shard,value); HOLED: one value empty.
SHARDS = "topic,run,shard,value\n" + "".join(
    f"{t},r{s},k{k},{_shard_score(t, s, k):.4f}\n"
    for t in range(6) for s in range(3) for k in range(2))
SHARDS_HOLED = SHARDS.replace("\n2,r1,k0,0.3900\n", "\n2,r1,k0,\n")
#: Runs of different numbers of replicates (seeds): r0 three, r1 and r2 two (k2 empty).
SHARDS_UNEVEN = "topic,run,shard,value\n" + "".join(
    f"{t},r{s},k{k},{'' if s and k == 2 else f'{_shard_score(t, s, k):.4f}'}\n"
    for t in range(6) for s in range(3) for k in range(3))
SHARD_MIXED = ["compare", "--shard-scores", "sh.csv", "--test", "mixed"]
BOOT_ANOVA = ["compare", "--shard-scores", "sh.csv", "--test", "bootstrap-anova", "--samples",
              "99", "--seed", "1"]


DOCS = ["compare", "--test", "document-sampling", "--samples", "99", "--seed", "1",
        "qrels.txt", "a.run", "b.run", "-m", "AP"]


def json_documents(result, ws, run):
    """One row of the documents-only model: no topic variance, a finite interval."""
    (row,) = json.loads(result.out)
    assert row["model"] == "documents" and row["tau2"] == 0.0, row
    assert row["ci_low"] <= row["diff"] <= row["ci_high"] and 0 < row["p"] <= 1, row


def json_bootstrap_anova(result, ws, run):
    """The JSON document holds the table, the system effects and every pair."""
    document = json.loads(result.out)
    rows = document["bootstrap_anova"]
    assert [r["factor"] for r in rows[:3]] == ["topic", "system", "topic:system"], rows
    assert {r.get("system") for r in rows[-3:]} == {"r0", "r1", "r2"}, rows
    assert len(document["pairs"]) == 3 and "p_adjusted" in document["pairs"][0]


def json_mixed(result, ws, run):
    """The JSON document holds the mixed model's rows and its Wald tests of every pair."""
    document = json.loads(result.out)
    sections = {row["section"] for row in document["mixed"]}
    assert sections == {"fixed", "test", "variance", "fit"}, result.describe()
    assert len(document["pairs"]) == 6 and "p_adjusted" in document["pairs"][0]


NO_SPREAD_FLAT = _rewritten(lambda k, c: [0.3 if k % 2 else 0.1 + 0.2,
                                          0.6 if k % 3 else 0.2 + 0.4, *c[2:]])


def no_spread_pair(a: str, b: str):
    """The pair a-b, whose differences (or samples) have no variance up to rounding, has
    p = 1 and is not significant; one warning says why and states the tolerance."""

    def check(result, ws, run):
        pairs = {(p["a"], p["b"]): p for p in json.loads(result.out)["pairs"]}
        pair = pairs[(a, b)]
        assert pair["p"] == 1.0 and pair["significant"] is False, pair
        lines = warnings_of(result)
        assert len(lines) == 1 and "no variance" in lines[0] and "1e-10" in lines[0] \
            and f"{a} − {b}" in lines[0], result.describe()

    return check


def pair_p(a: str, b: str, expected: float):
    """The pair a-b's p-value is ``expected`` (a hand-worked value), without a warning."""

    def check(result, ws, run):
        pairs = {(p["a"], p["b"]): p for p in json.loads(result.out)["pairs"]}
        assert pairs[(a, b)]["p"] == pytest.approx(expected, rel=1e-12), pairs[(a, b)]
        assert not warnings_of(result), result.describe()

    return check


def no_huge_numbers(result, ws, run):
    """No statistic of rounding noise (|t| = 1e16, d_z = 7e15) is printed."""
    finite_output(result, ws, run)
    assert not re.search(r"\d{8,}", result.out), "huge number printed" + result.describe()


def _long(kind: str = "ap", *, summary: bool = True) -> str:
    """The score CSV ``kind`` as irscale's long results (``run,topic,measure,value``; the
    topics 1..12 of the rows, run by run, then the summary rows of topic 'all')."""
    lines = score_text(kind).splitlines()
    systems = lines[0].split(",")
    rows = [row.split(",") for row in lines[1:]]
    out = ["run,topic,measure,value"]
    for s, system in enumerate(systems):
        out += [f"{system},{t + 1},{kind},{row[s]}" for t, row in enumerate(rows)]
        if summary:
            out.append(f"{system},all,{kind},0.5")
    return "\n".join(out) + "\n"


LONG = _long()

CASES = [
    *csv_faults("csv", csv_argv, REF),
    # ---- --standardise: a flag (never takes the qrels for its value), --no-cdf with it
    ok("standardise-runs", ["compare", "--standardise", "qrels.txt", "a.run", "b.run",
                            "c.run", "-m", "map", "--test", "t"], output_contains("paired")),
    ok("standardise-scores-no-cdf", [*T, "--standardise", "--no-cdf"],
       output_contains("paired")),
    err("no-cdf-without-standardise", [*T, "--no-cdf"], "--no-cdf", "--standardise"),
    err("standardise-takes-no-value", [*T, "--standardise", "z"], "--scores", "not both"),
    either("csv-scores-1e300", csv_argv("big.csv"), check=finite_output,
           files={"big.csv": _scaled("e300")}),
    either("csv-scores-1e300-tukey", ["compare", "--scores", "big.csv"], check=finite_output,
           files={"big.csv": _scaled("e300")}),
    ok("csv-negative-scores", csv_argv("neg.csv"), files={"neg.csv": _scaled("e0").replace(
        ",0.", ",-0.").replace("\n0.", "\n-0.")}),
    ok("sidak-p-equal-1-no-raw-warning",
       ["compare", "--scores", "twin.csv", "--test", "sign", "--correction", "sidak"],
       no_raw_warnings, files={"twin.csv": _twin_columns()}),
    ok("holm-sidak-p-equal-1-no-raw-warning",
       ["compare", "--scores", "twin.csv", "--test", "t", "--correction", "holm-sidak"],
       no_raw_warnings, files={"twin.csv": _twin_columns()}),
    ok("correction-hommel", [*T, "--correction", "hommel", "--format", "csv"],
       hommel_of_statsmodels),
    err("correction-unknown-lists-hommel", [*T, "--correction", "hochberg"], "--correction",
        "'hochberg'", "hommel"),
    # ---- irscale's long results (eval/session/text --format csv)
    ok("scores-long-results", ["compare", "--scores", "long.csv", "--test", "t"],
       same_output_as(*T), files={"long.csv": LONG}),
    ok("scores-long-results-without-summary", ["compare", "--scores", "long.csv", "--test",
                                               "t"],
       same_output_as(*T), files={"long.csv": _long(summary=False)}),
    err("scores-long-row-twice", ["compare", "--scores", "long.csv", "--test", "t"],
        "long.csv", "line 3", "appears twice",
        files={"long.csv": LONG.replace("sysA,2,", "sysA,1,", 1)}),
    err("scores-long-value-missing", ["compare", "--scores", "long.csv", "--test", "t"],
        "long.csv", "'sysB'", "topic '3'",
        files={"long.csv": "\n".join(line for line in LONG.splitlines()
                                      if not line.startswith("sysB,3,")) + "\n"}),
    err("scores-long-topic-column", ["compare", "--scores", "long.csv", "--test", "t",
                                     "--topic-column", "topic"],
        "long.csv", "--topic-column", files={"long.csv": LONG}),
    err("scores-long-summary-only", ["compare", "--scores", "long.csv", "--test", "t"],
        "long.csv", "no per-topic row",
        files={"long.csv": "run,topic,measure,value\nsysA,all,ap,0.5\n"}),
    err("scores-long-bad-value", ["compare", "--scores", "long.csv", "--test", "t"],
        "long.csv", "line 4", "non-numeric",
        files={"long.csv": LONG.replace("sysA,3,ap,", "sysA,3,ap,x", 1)}),
    err("scores-long-three-fields", ["compare", "--scores", "long.csv", "--test", "t"],
        "long.csv", "line 2", "4 comma-separated fields",
        files={"long.csv": LONG.replace("sysA,1,ap,", "sysA,1,", 1)}),
    err("scores-long-measure-twice", ["compare", "--scores", "long.csv", "--scores", "ap.csv",
                                      "--test", "t"], "same measure name",
        files={"long.csv": LONG}),
    # ---- several score files
    err("scores-same-file-twice", ["compare", "--scores", "ap.csv", "--scores", "ap.csv",
                                   "--test", "t"], "ap"),
    err("scores-topics-differ", ["compare", "--scores", "ap.csv", "--scores", "short.csv",
                                 "--test", "t"], "short.csv", files={"short.csv": SHORT}),
    err("scores-systems-differ", ["compare", "--scores", "ap.csv", "--scores", "three.csv",
                                  "--test", "t"], "three.csv",
        files={"three.csv": score_text("p10", systems=("sysA", "sysB", "sysC"))}),
    ok("scores-two-measures-pairwise", ["compare", "--scores", "ap.csv", "--scores",
                                        "p10.csv", "--test", "t"]),
    err("scores-two-measures-tukey", ["compare", "--scores", "ap.csv", "--scores",
                                      "p10.csv"], "-m"),
    # ---- inputs given wrong
    err("nothing-to-compare", ["compare"], any_of("--scores", "QRELS")),
    err("scores-and-runs", ["compare", "--scores", "ap.csv", "qrels.txt", "a.run", "b.run"],
        "--scores"),
    err("runs-one-run", ["compare", "qrels.txt", "a.run", "-m", "map"], any_of("run", "two")),
    err("runs-no-measure", ["compare", "qrels.txt", "a.run", "b.run"], "-m"),
    err("runs-unknown-measure", ["compare", "qrels.txt", "a.run", "b.run", "-m", "nosuch"],
        "nosuch"),
    err("runs-missing-run", ["compare", "qrels.txt", "a.run", "nope.run", "-m", "map"],
        "nope.run"),
    err("runs-missing-qrels", ["compare", "nope.qrels", "a.run", "b.run", "-m", "map"],
        "nope.qrels"),
    err("runs-bad-run-line", ["compare", "qrels.txt", "a.run", "bad.run", "-m", "map"],
        "bad.run", "line 2",
        files={"bad.run": text([*run_lines("b")[:1], "1 Q0 d5 2 x y", *run_lines("b")[2:]])}),
    err("runs-directory", ["compare", "qrels.txt", "a.run", "adir", "-m", "map"], "adir"),
    err("runs-cover-different-topics", ["compare", "qrels.txt", "a.run", "part.run", "-m",
                                        "map"], any_of("topic", "part.run"),
        files={"part.run": text(run_lines("b")[:10])}),
    ok("runs-valid", RUNS, output_contains("system")),
    # runs are named by their files; by their run ids on request
    ok("runs-valid-by-runid", [*RUNS, "--test", "t", "--names", "runid"],
       output_contains("teamA_r1", "teamB_r1")),
    # ---- the intervals of the means and of the differences (--ci t|bootstrap)
    ok("ci-t-text", [*T, "--ci", "t"], output_contains("CI a", "CI b", "CI diff",
                                                       "95% t intervals")),
    ok("ci-tukey-csv", [*TUKEY, "--ci", "t", "--format", "csv"],
       output_contains("mean_a_low", "mean_b_high", "diff_low", "diff_high")),
    ok("ci-bootstrap-json", [*RUNS, "--test", "t", "--ci", "bootstrap", "--ci-samples", "200",
                             "--ci-seed", "1", "--format", "json"],
       output_contains('"diff_low"', '"mean_a_high"')),
    ok("ci-markdown-latex", [*RANDOM, "--ci", "t", "--format", "latex"],
       output_contains("CI diff", "t intervals")),
    err("ci-unknown", [*T, "--ci", "normal"], "--ci", "'t', 'bootstrap'"),
    err("ci-samples-with-t", [*T, "--ci", "t", "--ci-samples", "10"],
        "--ci-samples applies to --ci bootstrap"),
    err("ci-seed-without-ci", [*T, "--ci-seed", "1"], "--ci-seed applies to --ci bootstrap"),
    err("ci-samples-0", [*T, "--ci", "bootstrap", "--ci-samples", "0"], "--ci-samples",
        "got 0"),
    err("ci-seed-negative", [*T, "--ci", "bootstrap", "--ci-seed", "-1"], "--ci-seed",
        "got -1"),
    err("ci-risk", [*RISK, "--ci", "t"], "--ci", "not --risk-alpha"),
    err("ci-mixed", [*MIXED, "--ci", "t"], "--ci", "not --test mixed"),
    err("ci-rank-model", [*TUKEY, "--model", "friedman", "--ci", "t"], "--ci",
        "not --model friedman"),
    err("ci-transform", [*TUKEY, "--transform", "rank", "--ci", "t"], "--ci",
        "not --transform rank"),
    # every -m is tested, however it is spelt (P.10 is the column P_10; none dropped)
    ok("runs-dotted-measure-kept", ["compare", "qrels.txt", "a.run", "b.run", "c.run",
                                    "--test", "t", "-m", "P.5", "-m", "map"],
       output_contains("P_5", "map", "of 6 pairs")),
    ok("runs-measure-list-kept", ["compare", "qrels.txt", "a.run", "b.run", "c.run",
                                  "--test", "t", "-m", "P.5,10", "-m", "map"],
       output_contains("P_5", "P_10", "map", "of 9 pairs")),
    err("runs-tukey-two-measures", ["compare", "qrels.txt", "a.run", "b.run", "c.run",
                                    "-m", "P.5,10"], "got 2", "P_5, P_10"),
    ok("runs-sharing-run-id", ["compare", "qrels.txt", "first.run", "second.run", "c.run",
                               "-m", "map"], no_warning,
       files={"first.run": text(run_lines("a")), "second.run": text(run_lines("a"))}),
    ok("runs-sharing-run-id-by-runid", ["compare", "qrels.txt", "first.run", "second.run",
                                        "c.run", "-m", "map", "--names", "runid"], has_warning,
       files={"first.run": text(run_lines("a")), "second.run": text(run_lines("a"))}),
    err("runs-baseline-shared-run-id", ["compare", "qrels.txt", "first.run", "second.run",
                                        "c.run", "-m", "map", "--test", "t", "--baseline",
                                        "teamA_r1"],
        "--baseline 'teamA_r1' is ambiguous", "'first' (first.run)", "'second' (second.run)",
        files={"first.run": text(run_lines("a")), "second.run": text(run_lines("a"))}),
    ok("runs-names-file", [*RUNS, "--names", "file"], output_contains("a", "b", "c")),
    err("runs-measure-bad-param", ["compare", "qrels.txt", "a.run", "b.run", "-m",
                                   "RBP(p=2)"], "p"),
    # ---- systems
    err("systems-one", [*TUKEY, "--systems", "sysA"], any_of("2", "two", "system")),
    err("systems-unknown", [*TUKEY, "--systems", "sysA,nosuch"], "nosuch"),
    err("systems-empty", [*TUKEY, "--systems", ","], opt("--systems")),
    ok("systems-two", [*T, "--systems", "sysA,sysB"], output_contains("sysA", "sysB")),
    # ---- tests, models, corrections, formats
    err("test-unknown", [*TUKEY, "--test", "nosuch"], "nosuch"),
    err("test-empty", [*TUKEY, "--test", ""], opt("--test")),
    err("model-unknown", [*TUKEY, "--model", "nosuch"], "nosuch"),
    err("model-with-t-test", [*T, "--model", "MD1"], opt("--model")),
    err("default-model-with-t-test", [*T, "--model", "topic+system"], opt("--model")),
    err("correction-unknown", [*T, "--correction", "nosuch"], "nosuch"),
    err("format-unknown", [*TUKEY, "--format", "xml"], "xml"),
    ok("model-friedman", [*TUKEY, "--model", "friedman"]),
    ok("model-kruskal-wallis", [*TUKEY, "--model", "kruskal-wallis"]),
    ok("model-MD1", [*TUKEY, "--model", "MD1"]),
    ok("test-wilcoxon-less", [*T[:-1], "wilcoxon", "--alternative", "less"]),
    ok("test-sign-bonferroni", [*T[:-1], "sign", "--correction", "bonferroni"]),
    ok("test-randomization", RANDOM),
    ok("test-bootstrap", BOOT),
    ok("test-randomized-tukey", [*TUKEY, "--test", "randomized-tukey-hsd", "--samples",
                                 "99", "--seed", "1"]),
    ok("format-json-has-p-and-p-adjusted", [*T, "--format", "json"], json_pairs),
    ok("format-latex", [*T, "--format", "latex"], output_contains("\\")),
    # ---- the ANOVA's assumptions and transforms
    err("transform-arcsine-outside-0-1",
        ["compare", "--scores", "over.csv", "--transform", "arcsine"],
        "arcsine", "[0, 1]", "'over'", "topic '3'", "system 'sysB'", "1.5",
        files={"over.csv": "sysA,sysB,sysC\n0.2,0.3,0.1\n0.4,0.5,0.3\n0.1,1.5,0.2\n"}),
    err("transform-unknown", [*TUKEY, "--transform", "log"], opt("--transform"), "'log'",
        "none, arcsine, rank"),
    err("transform-with-t-test", [*T, "--transform", "rank"], opt("--transform"), "--test t"),
    err("transform-with-friedman", [*TUKEY, "--model", "friedman", "--transform", "rank"],
        opt("--transform"), "without --model friedman", "ranks the scores itself"),
    err("plot-with-t-test", [*T, "--plot", "qq.png"], opt("--plot")),
    err("plot-not-a-plot-file", [*TUKEY, "--plot", "qq.txt"], opt("--plot"), ".png"),
    ok("too-few-residuals-for-shapiro-wilk", ["compare", "--scores", "tiny.csv"],
       all_checks(no_raw_warnings, output_contains("Shapiro-Wilk", "too few residuals",
                                                   "df_error of at least 2", "Tukey HSD")),
       files={"tiny.csv": "sysA,sysB\n0.1,0.4\n0.3,0.2\n"}),
    ok("assumptions-beside-anova", TUKEY,
       output_contains("Assumptions of the ANOVA topic + system", "Levene", "Brown-Forsythe")),
    ok("transform-rank", [*TUKEY, "--transform", "rank"],
       output_contains("rank-transformed scores", "Shapiro-Wilk")),
    ok("plot-qq", [*TUKEY, "--plot", "qq.svg"], plot_written("qq.svg"),
       allowed_new=["qq.svg"]),
    # ---- alpha
    err("alpha-0", [*TUKEY, "--alpha", "0"], opt("--alpha")),
    err("alpha-1", [*TUKEY, "--alpha", "1"], opt("--alpha")),
    err("alpha-1.5", [*TUKEY, "--alpha", "1.5"], opt("--alpha")),
    err("alpha-negative", [*T, "--alpha", "-0.05"], opt("--alpha")),
    err("alpha-nan", [*T, "--alpha", "nan"], opt("--alpha")),
    err("alpha-text", [*T, "--alpha", "abc"], opt("--alpha")),
    # 1 − α/2 rounds to 1: the interval was [-inf, inf], printed as a "100% CI"
    err("alpha-1e-300", [*RANDOM, "--alpha", "1e-300"], opt("--alpha"), "1e-300"),
    # ---- options a test ignores
    err("alternative-less-with-tukey", [*TUKEY, "--alternative", "less"], opt("--alternative")),
    err("alternative-greater-with-tukey", [*TUKEY, "--test", "tukey-hsd", "--alternative",
                                           "greater"], opt("--alternative")),
    err("alternative-with-randomized-tukey", [*TUKEY, "--test", "randomized-tukey-hsd",
                                              "--samples", "99", "--alternative", "less"],
        "--alternative"),
    err("samples-with-t", [*T, "--samples", "100"], opt("--samples")),
    err("seed-with-t", [*T, "--seed", "1"], opt("--seed")),
    err("samples-with-tukey", [*TUKEY, "--samples", "100"], opt("--samples")),
    err("correction-with-tukey", [*TUKEY, "--correction", "bonferroni"], opt("--correction")),
    # ---- mixed models: --test mixed with --random, --family, --method
    ok("mixed-reml", MIXED, output_contains("REML", "residual", "ICC", "Wald z tests",
                                            "correction holm")),
    ok("mixed-ml-bonferroni", [*MIXED, "--method", "ml", "--correction", "bonferroni"],
       output_contains("ML (closed form", "correction bonferroni")),
    ok("mixed-json", [*MIXED, "--format", "json"], json_mixed),
    ok("mixed-alias-lmm", [*TUKEY, "--test", "lmm"], same_output_as(*MIXED)),
    ok("mixed-binomial", ["compare", "--scores", "bin.csv", "--test", "mixed", "--family",
                          "binomial"], all_checks(output_contains("log-odds"), finite_output),
       files={"bin.csv": BINARY}),
    err("mixed-binomial-separated", ["compare", "--scores", "bin.csv", "--test", "mixed",
                                     "--family", "binomial"], "'sysA'", "every topic",
        files={"bin.csv": SEPARATED}),
    err("mixed-binomial-not-binary", [*MIXED, "--family", "binomial"], "0/1 scores"),
    # the rules of the function --test chooses, from its binding, in their generic words
    err("mixed-method-with-binomial", [*MIXED, "--family", "binomial", "--method", "ml"],
        "--method applies to the linear mixed model (the binomial GLMM is fit by maximum "
        "likelihood only), not to --family binomial"),
    err("tukey-model-unknown", [*TUKEY, "--model", "MD9"], opt("--model"),
        "unknown model 'MD9'", "a formula"),
    err("bootstrap-anova-model-of-tukey", [*BOOT_ANOVA, "--model", "MD2"], opt("--model"),
        "unknown bootstrap ANOVA model 'MD2'", files={"sh.csv": SHARDS}),
    err("mixed-binomial-with-method", [*MIXED, "--family", "binomial", "--method", "reml"],
        opt("--method"), "binomial"),
    err("mixed-random-shard", [*MIXED, "--random", "topic,shard"], opt("--random"),
        "--shard-scores"),
    ok("mixed-shard-scores", [*SHARD_MIXED, "--random", "topic,shard,topic:system"],
       all_checks(output_contains("topic:system", "shard", "residual", "6 topics, 2 shards"),
                  finite_output), files={"sh.csv": SHARDS}),
    ok("mixed-shard-scores-missing-value", [*SHARD_MIXED, "--random", "topic,shard"],
       all_checks(output_contains("N = 35", "REML mixed model"), finite_output,
                  warns_of("1 missing score(s)", "left out of the mixed model", "topic")),
       files={"sh.csv": SHARDS_HOLED}),
    err("shard-scores-with-tukey", ["compare", "--shard-scores", "sh.csv"],
        opt("--shard-scores"), "--test mixed", files={"sh.csv": SHARDS}),
    err("shard-scores-with-scores", [*MIXED, "--shard-scores", "sh.csv"], "--shard-scores",
        "--scores", files={"sh.csv": SHARDS}),
    err("shard-scores-with-runs", [*RUNS, "--test", "mixed", "--shard-scores", "sh.csv"],
        "--shard-scores", "QRELS RUN", files={"sh.csv": SHARDS}),
    err("shard-scores-with-measure", [*SHARD_MIXED, "-m", "ap"], "--shard-scores", "-m",
        files={"sh.csv": SHARDS}),
    err("shard-scores-missing-file", SHARD_MIXED, "sh.csv"),
    err("shard-scores-bad-header", SHARD_MIXED, "sh.csv", "line 1", "topic,run,shard,value",
        files={"sh.csv": SHARDS.replace("topic,run", "topic,system", 1)}),
    err("shard-scores-topic-system-without-replicates",
        [*SHARD_MIXED, "--random", "topic,topic:system"], "needs replicates",
        files={"sh.csv": "".join(line + "\n" for line in SHARDS.splitlines()
                                 if ",k1," not in line)}),
    ok("bootstrap-anova", BOOT_ANOVA,
       all_checks(output_contains("bootstrap ANOVA (residuals, rescaled, B = 99)",
                                  "topic:system", "correction bh"), finite_output),
       files={"sh.csv": SHARDS}),
    ok("bootstrap-anova-json", [*BOOT_ANOVA, "--format", "json"], json_bootstrap_anova,
       files={"sh.csv": SHARDS}),
    ok("bootstrap-anova-topics-main", [*BOOT_ANOVA, "--resample", "topics", "--model",
                                       "replicates-main", "--correction", "holm"],
       all_checks(output_contains("bootstrap ANOVA (topics, B = 99) of topic + system",
                                  "correction holm"), finite_output),
       files={"sh.csv": SHARDS}),
    ok("bootstrap-anova-empty-zero", [*BOOT_ANOVA, "--empty", "zero"],
       output_contains("1 undefined score(s) set to 0"), files={"sh.csv": SHARDS_HOLED}),
    err("bootstrap-anova-undefined-score", BOOT_ANOVA, "undefined shard score", "--empty",
        files={"sh.csv": SHARDS_HOLED}),
    err("bootstrap-anova-empty-missing", [*BOOT_ANOVA, "--empty", "missing"],
        "missing replicates only whole", "topic '2', system 'r1', shard 'k0'",
        "zero, drop-topic or drop-shard", files={"sh.csv": SHARDS_HOLED}),
    # systems of different numbers of replicates (seeds): the unbalanced model
    ok("bootstrap-anova-unequal-replicates", [*BOOT_ANOVA, "--empty", "missing"],
       all_checks(output_contains("bootstrap ANOVA (residuals, rescaled, B = 99)",
                                  "left missing (unbalanced design)"), finite_output),
       files={"sh.csv": SHARDS_UNEVEN}),
    ok("bootstrap-anova-unequal-replicates-topics", [*BOOT_ANOVA, "--empty", "missing",
                                                     "--resample", "topics"],
       finite_output, files={"sh.csv": SHARDS_UNEVEN}),
    err("bootstrap-anova-unequal-replicates-no-policy", BOOT_ANOVA,
        "different numbers of replicates", "'r0' 3, 'r1' 2", "--empty missing",
        files={"sh.csv": SHARDS_UNEVEN}),
    err("bootstrap-anova-unequal-replicates-resampled", [*BOOT_ANOVA, "--empty", "missing",
                                                         "--resample", "replicates"],
        "--resample replicates", "resample residuals or topics",
        files={"sh.csv": SHARDS_UNEVEN}),
    err("bootstrap-anova-one-replicate", BOOT_ANOVA, "two replicates",
        files={"sh.csv": "".join(line + "\n" for line in SHARDS.splitlines()
                                 if ",k1," not in line)}),
    err("bootstrap-anova-bad-value", BOOT_ANOVA, "sh.csv", "line 16", "abc",
        files={"sh.csv": SHARDS.replace("\n2,r1,k0,0.3900\n", "\n2,r1,k0,abc\n")}),
    err("bootstrap-anova-missing-file", BOOT_ANOVA, "sh.csv"),
    err("bootstrap-anova-without-shard-scores", [*TUKEY, "--test", "bootstrap-anova"],
        "--shard-scores"),
    err("bootstrap-anova-with-scores", [*BOOT_ANOVA, "--scores", "ap.csv"], "--shard-scores",
        "--scores", files={"sh.csv": SHARDS}),
    err("bootstrap-anova-model", [*BOOT_ANOVA, "--model", "MD2"], opt("--model"), "replicates",
        files={"sh.csv": SHARDS}),
    err("bootstrap-anova-resample-unknown", [*BOOT_ANOVA, "--resample", "shards"],
        opt("--resample"), "shards", files={"sh.csv": SHARDS}),
    err("bootstrap-anova-with-alternative", [*BOOT_ANOVA, "--alternative", "less"],
        opt("--alternative"), files={"sh.csv": SHARDS}),
    err("bootstrap-anova-with-workers", [*BOOT_ANOVA, "--workers", "2"], opt("--workers"),
        files={"sh.csv": SHARDS}),
    err("resample-with-tukey", [*TUKEY, "--resample", "topics"], opt("--resample")),
    err("empty-with-t", [*T, "--empty", "zero"], opt("--empty")),
    ok("document-sampling", DOCS, all_checks(output_contains("document sampling (mixed)",
                                                              "tau2"), finite_output)),
    ok("document-sampling-documents-p5", [*DOCS[:-1], "P@5", "--model", "documents",
                                          "--format", "json"], json_documents),
    err("document-sampling-three-runs", [*DOCS[:10], "c.run", *DOCS[10:]], "two runs"),
    err("document-sampling-measure", [*DOCS[:-1], "ndcg"], "AP and P@k", "ndcg"),
    # a cut-off is read by the one measure-name grammar: beyond 64 bits it is refused with
    # its domain (not an OverflowError of the conversion to a C long)
    err("document-sampling-cutoff-beyond-int64", [*DOCS[:-1], "P@99999999999999999999"],
        "P@99999999999999999999", "9223372036854775807"),
    err("document-sampling-cutoff-0", [*DOCS[:-1], "P@0"], "P@0", "from 1"),
    ok("document-sampling-trec-eval-name", [*DOCS[:-1], "P_5", "--model", "documents",
                                            "--format", "json"], json_documents),
    err("document-sampling-scores", ["compare", "--test", "document-sampling", "--scores",
                                     "ap.csv"], opt("--scores")),
    err("document-sampling-correction", [*DOCS, "--correction", "bh"], opt("--correction")),
    err("document-sampling-alternative", [*DOCS, "--alternative", "less"],
        opt("--alternative")),
    err("document-sampling-model", [*DOCS, "--model", "MD2"], opt("--model"), "mixed"),
    err("document-sampling-workers", [*DOCS, "--workers", "2"], opt("--workers")),
    err("document-sampling-missing-run", [*DOCS[:9], "nosuch.run", *DOCS[10:]], "nosuch.run"),
    err("document-sampling-bad-qrels-line", DOCS, "qrels.txt", "line 2",
        files={"qrels.txt": b"1 0 d1 1\n1 0 d2\n"}),
    # a bootstrap of one sample has no variance: its intervals and standard errors are
    # refused up front, naming the option (not numpy's warnings, nor an unnamed NaN)
    err("bootstrap-anova-one-sample", with_option(BOOT_ANOVA, "--samples", "1"),
        opt("--samples", "-B"), "2", files={"sh.csv": SHARDS}),
    err("document-sampling-one-sample", with_option(DOCS, "--samples", "1"),
        opt("--samples", "-B"), "2"),
    # one topic in common: the test's own words, not the API's vectors
    err("document-sampling-one-topic", DOCS, "two topics", "1",
        files={"a.run": b"1 Q0 d1 1 0.9 teamA_r1\n", "b.run": b"1 Q0 d2 1 0.9 teamB_r1\n"}),
    # a topic whose scores no sample changes: named, with the model that takes it
    err("document-sampling-zero-variance", DOCS, "topic '1'", "--model documents",
        files={"b.run": text([line.replace("teamA_r1", "teamB_r1")
                              for line in run_lines("a")])}),
    err("mixed-random-unknown", [*MIXED, "--random", "nope"], opt("--random"), "nope"),
    err("mixed-random-empty", [*MIXED, "--random", ""], opt("--random")),
    err("mixed-family-unknown", [*MIXED, "--family", "poisson"], opt("--family"), "poisson"),
    err("mixed-method-unknown", [*MIXED, "--method", "mom"], opt("--method"), "mom"),
    err("mixed-with-model", [*MIXED, "--model", "MD1"], opt("--model")),
    err("mixed-with-alternative", [*MIXED, "--alternative", "less"], opt("--alternative")),
    err("mixed-with-baseline", [*MIXED, "--baseline", "sysA"], opt("--baseline")),
    err("mixed-with-samples", [*MIXED, "--samples", "99"], opt("--samples")),
    err("random-with-tukey", [*TUKEY, "--random", "topic"], opt("--random"), "--test mixed"),
    err("family-with-t", [*T, "--family", "binomial"], opt("--family"), "--test mixed"),
    err("method-with-t", [*T, "--method", "ml"], opt("--method"), "--test mixed"),
    err("risk-alpha-with-random", [*RISK, "--random", "topic"], opt("--random")),
    # ---- resampling parameters
    err("samples-0-randomization", with_option(RANDOM, "--samples", "0"), opt("--samples")),
    err("samples-negative-bootstrap", with_option(BOOT, "--samples", "-5"), opt("--samples")),
    err("samples-0-randomized-tukey", [*TUKEY, "--test", "randomized-tukey-hsd",
                                       "--samples", "0"], opt("--samples")),
    err("samples-text", with_option(RANDOM, "--samples", "many"), opt("--samples")),
    err("samples-huge", with_option(BOOT, "--samples", "99999999999999999999"), opt("--samples")),
    err("seed-negative", with_option(RANDOM, "--seed", "-1"), opt("--seed")),
    err("seed-text", with_option(RANDOM, "--seed", "abc"), opt("--seed")),
    err("seed-float", with_option(RANDOM, "--seed", "1.5"), opt("--seed")),
    err("workers-0", [*RANDOM, "--workers", "0"], opt("--workers")),
    err("workers-negative", [*RANDOM, "--workers", "-2"], opt("--workers")),
    err("workers-beyond-the-domain", [*RANDOM, "--workers", str(10**20)], opt("--workers"),
        "from 1 to 1024"),
    err("digits-negative", [*TUKEY, "--digits", "-1"], opt("--digits")),
    err("digits-text", [*TUKEY, "--digits", "x"], opt("--digits")),
    # ---- one vocabulary: -B/--samples, comma lists, one input loader
    ok("B-randomization", [*with_option(RANDOM, "--samples", "99")[:-2], "-B", "99"],
       all_checks(no_warning, same_output_as(*RANDOM))),
    ok("B-bootstrap", [*with_option(BOOT, "--samples", "99")[:-2], "-B", "99"],
       same_output_as(*BOOT)),
    err("B-0", [*with_option(RANDOM, "--samples", "0")[:-2], "-B", "0"],
        "-B/--samples (samples)"),
    err("B-text", [*with_option(RANDOM, "--samples", "0")[:-2], "-B", "many"], opt("-B")),
    err("B-with-t", [*T, "-B", "100"], "-B/--samples applies to --test randomized-tukey-hsd",
        "randomization, bootstrap, bootstrap-shift and unpaired-bootstrap, not to --test t"),
    err("B-and-samples", [*RANDOM, "-B", "99"], "option -B given twice",
        "first as --samples"),
    err("systems-empty-item", [*T, "--systems", "sysA,,sysB"], "--systems has an empty name",
        "'sysA,,sysB'"),
    err("systems-trailing-comma", [*T, "--systems", "sysA,sysB,"],
        "--systems has an empty name"),
    err("systems-twice", [*T, "--systems", "sysA,sysB,sysA"], "--systems names ['sysA'] twice"),
    err("systems-blank", [*T, "--systems", " "], "--systems is empty"),
    # --systems and --baseline name runs as irscale eval --baseline does (a run's name or
    # its file), and a name of no run is refused once the runs are read, before evaluating
    err("runs-systems-unknown", [*RUNS, "--systems", "a,nosuch"],
        "--systems 'nosuch' names no run", "a.run"),
    ok("runs-systems-by-file", [*RUNS, "--test", "t", "--systems", "a.run,b", "--format",
                                "csv"], output_contains("\nmap,a,b,")),
    ok("runs-systems-by-run-id", [*RUNS, "--test", "t", "--systems", "teamA_r1,./b.run",
                                  "--format", "csv"], output_contains("\nmap,a,b,")),
    err("runs-baseline-unknown", [*RUNS, "--test", "t", "--baseline", "nosuch"],
        "--baseline 'nosuch' names no run", "'a' (a.run)"),
    ok("runs-baseline-by-file", [*RUNS, "--test", "t", "--baseline", "a", "--format", "csv"],
       output_contains("\nmap,b,a,", "\nmap,c,a,")),
    ok("risk-alpha-baseline-by-file", [*RUNS, "--baseline", "a", "--risk-alpha", "0"],
       output_contains("Risk against a (")),
    ok("risk-alpha-baseline-by-run-id", [*RUNS, "--baseline", "teamA_r1", "--risk-alpha",
                                         "0"], output_contains("Risk against a (")),
    err("runs-names-empty-item", [*RUNS, "--names", "a,,c"], "--names has an empty name"),
    err("runs-names-empty", [*RUNS, "--names", ""], "--names is empty"),
    ok("runs-names-list", [*RUNS, "--names", "x, y ,z"], output_contains("x", "y", "z")),
    err("names-with-scores", [*TUKEY, "--names", "file"], "--names applies to runs"),
    err("runs-two-inputs", ["compare", "qrels.txt", "a.run", "-m", "map"],
        "give a qrels file and at least two run files (or --scores FILE)"),
    err("unknown-option", [*TUKEY, "--bogus"], opt("--bogus")),
    err("topic-column-with-runs", [*RUNS, "--topic-column", "topic"], opt("--topic-column")),
    # ---- risk-sensitive comparison: --baseline SYSTEM --risk-alpha A
    ok("risk-alpha-table", [*RISK], output_contains("urisk", "trisk", "sysB", "sysD")),
    ok("risk-alpha-json", [*RISK, "--format", "json"], json_risk),
    # the level of an interval and α are written with the digits they need: the 99.5%
    # interval of α = 0.005 was labelled "100% CI", α = 0.9999999 written "α = 1"
    # a table separated by something else than commas is said to be, not read as one
    # system named 's1;s2' whose scores '0.1;0.2' are "non-numeric"
    err("scores-semicolons", ["compare", "--scores", "semi.csv", "--test", "t"], "semi.csv",
        "line 1", "semicolons", "comma-separated",
        files={"semi.csv": "sysA;sysB\n0.1;0.2\n0.3;0.5\n0.2;0.25\n"}),
    err("scores-tabs", ["compare", "--scores", "tab.csv", "--test", "t"], "tab.csv", "line 1",
        "tabs", files={"tab.csv": "sysA\tsysB\n0.1\t0.2\n0.3\t0.5\n0.2\t0.25\n"}),
    ok("alpha-0.005-interval-label", [*TUKEY, "--alpha", "0.005"],
       output_contains("99.5% CI", "α = 0.005")),
    ok("alpha-0.025-pairwise-label", [*T, "--alpha", "0.025"],
       output_contains("97.5% CI", "α = 0.025")),
    ok("alpha-near-1-label", [*T, "--alpha", "0.9999999"], output_contains("α = 0.9999999")),
    ok("risk-alpha-huge-scientific", with_option(RISK, "--risk-alpha", "1e300"),
       scientific_cells),
    ok("risk-alpha-runs", [*RUNS, "--names", "file", "--baseline", "a", "--risk-alpha", "0"],
       output_contains("urisk", "b", "c")),
    ok("risk-alpha-csv", [*RISK, "--format", "csv"], output_contains("measure,run,baseline")),
    err("risk-alpha-negative", with_option(RISK, "--risk-alpha", "-1"), opt("--risk-alpha")),
    err("risk-alpha-nan", with_option(RISK, "--risk-alpha", "nan"), opt("--risk-alpha")),
    err("risk-alpha-inf", with_option(RISK, "--risk-alpha", "inf"), opt("--risk-alpha")),
    err("risk-alpha-text", with_option(RISK, "--risk-alpha", "abc"), opt("--risk-alpha")),
    err("risk-alpha-without-baseline", [*TUKEY, "--risk-alpha", "1"], opt("--baseline")),
    err("risk-alpha-unknown-baseline", with_option(RISK, "--baseline", "nosuch"), "nosuch"),
    err("risk-alpha-with-test", [*RISK, "--test", "t"], opt("--test")),
    err("risk-alpha-with-alpha", [*RISK, "--alpha", "0.01"], opt("--alpha")),
    # given is given, whatever the value: --alpha 0.05 (its default) would be ignored too
    err("risk-alpha-with-default-alpha", [*RISK, "--alpha", "0.05"], opt("--alpha")),
    err("risk-alpha-with-seed", [*RISK, "--seed", "1"], opt("--seed")),
    err("risk-alpha-digits-json", [*RISK, "--format", "json", "--digits", "3"],
        opt("--digits")),
    # ---- diversity qrels and measures
    ok("diversity-compare-t", ["compare", "div.qrels", "a.run", "b.run", "c.run", "-m",
                               "alpha-nDCG@5", "-m", "ERR-IA@5", "--test", "t"],
       all_checks(output_contains("alpha-nDCG@5", "ERR-IA@5"), finite_output),
       files=DIV_FILES),
    ok("diversity-compare-tukey-qrels-format", ["compare", "div.qrels", "a.run", "b.run",
                                                "c.run", "-m", "MAP-IA", "--qrels-format",
                                                "diversity"], output_contains("Tukey"),
       files=DIV_FILES),
    err("diversity-compare-mixed-measures", [*DIV_COMPARE, "-m", "map"], "cannot be mixed",
        "'map'", files=DIV_FILES),
    # eval's and the score matrices' refusal, one wording
    err("diversity-compare-mixed-one-wording", [*DIV_COMPARE, "-m", "map"],
        "evaluate them in a call of their own", files=DIV_FILES),
    err("resample-names-the-test", ["compare", "--scores", "ap.csv", "--test", "t",
                                    "--resample", "topics"],
        "--resample applies to --test bootstrap-anova, not to --test t"),
    err("diversity-compare-qrels-format-trec", [*DIV_COMPARE, "--qrels-format", "trec"],
        opt("--qrels-format"), "diversity", files=DIV_FILES),
    err("diversity-compare-qrels-format-diversity-map",
        [*RUNS[:-2], "-m", "map", "--qrels-format", "diversity"], opt("--qrels-format"),
        "'map'"),
    err("diversity-compare-qrels-format-unknown", [*DIV_COMPARE, "--qrels-format", "ndeval"],
        opt("--qrels-format"), "ndeval", files=DIV_FILES),
    err("diversity-compare-qrels-format-with-scores",
        [*T, "--qrels-format", "diversity"], opt("--qrels-format"), "--scores"),
    err("diversity-compare-nnrbp-undefined", ["compare", "nonrel.qrels", "a.run", "b.run",
                                              "c.run", "-m", "nNRBP", "--test", "t"],
        "nNRBP is undefined", "1", files={"nonrel.qrels": NONREL_QRELS}),
    err("diversity-compare-run-of-other-topics", [*DIV_COMPARE[:4], "far.run",
                                                  *DIV_COMPARE[5:]],
        "no topic in common", "--allow-empty",
        files={**DIV_FILES, "far.run": b"99 Q0 d1 1 1 far\n"}),
    err("diversity-compare-unknown-measure", [*DIV_COMPARE[:-1], "alpha-nDCG(gamma=1)@5"],
        "gamma", files=DIV_FILES),
    # ---- every system against --baseline with a two-system test: wins/ties/losses as
    # Evaluation.compare gives them
    ok("baseline-t-json", [*BASELINE, "--format", "json"], json_wins_ties_losses),
    ok("baseline-t-text", BASELINE, output_contains("wins", "ties", "losses", "sysD")),
    ok("baseline-t-csv", [*BASELINE, "--format", "csv"],
       output_contains("wins,ties,losses")),
    ok("baseline-runs", [*RUNS, "--test", "sign", "--baseline", "teamA_r1", "--format", "csv"],
       output_contains("wins", "\nmap,b,a,", "\nmap,c,a,")),
    err("baseline-unknown", with_option(BASELINE, "--baseline", "nosuch"), "nosuch",
        "sysA"),
    err("baseline-empty", with_option(BASELINE, "--baseline", ""), opt("--baseline")),
    err("baseline-only-system", [*BASELINE, "--systems", "sysA"], "2 systems"),
    err("baseline-not-among-systems", [*BASELINE, "--systems", "sysB,sysC"], "sysA"),
    err("baseline-with-tukey", [*TUKEY, "--baseline", "sysA"], opt("--baseline"), "tukey"),
    ok("baselines-two", with_option(BASELINE, "--baseline", "sysA,sysB"),
       output_contains("5 pairs", "sysB", "sysD")),
    err("baselines-repeated", with_option(BASELINE, "--baseline", "sysA,sysA"),
        opt("--baseline"), "sysA"),
    err("baselines-one-unknown", with_option(BASELINE, "--baseline", "sysA,nosuch"), "nosuch"),
    err("baselines-empty-item", with_option(BASELINE, "--baseline", "sysA,"),
        opt("--baseline")),
    err("baselines-with-risk-alpha", with_option(RISK, "--baseline", "sysA,sysB"),
        "--risk-alpha", "one baseline"),
    # ---- pairs without variance: differences the same on every topic up to rounding
    ok("no-spread-t-two-topics", ["compare", "--scores", "two.csv", "--test", "t"],
       all_checks(no_huge_numbers, has_warning), files={"two.csv": NO_SPREAD_TWO}),
    ok("no-spread-t-two-topics-json", ["compare", "--scores", "two.csv", "--test", "t",
                                       "--format", "json"],
       no_spread_pair("a", "b"), files={"two.csv": NO_SPREAD_TWO}),
    ok("no-spread-t-family", [*csv_argv("shift.csv"), "--format", "json"],
       no_spread_pair("sysA", "sysB"), files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-bootstrap", ["compare", "--scores", "shift.csv", "--test", "bootstrap",
                               "--samples", "99", "--seed", "1", "--format", "json"],
       no_spread_pair("sysA", "sysB"), files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-bootstrap-shift", ["compare", "--scores", "shift.csv", "--test",
                                     "bootstrap-shift", "--samples", "99", "--seed", "1",
                                     "--format", "json"],
       no_spread_pair("sysA", "sysB"), files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-welch-constant-samples", ["compare", "--scores", "flat.csv", "--test",
                                            "welch", "--format", "json"],
       no_spread_pair("sysA", "sysB"), files={"flat.csv": NO_SPREAD_FLAT}),
    ok("no-spread-student-constant-samples", ["compare", "--scores", "flat.csv", "--test",
                                              "student", "--format", "json"],
       no_spread_pair("sysA", "sysB"), files={"flat.csv": NO_SPREAD_FLAT}),
    ok("no-spread-t-text", [*csv_argv("shift.csv")], all_checks(no_huge_numbers, has_warning),
       files={"shift.csv": NO_SPREAD_SHIFT}),
    # tests on signs, ranks and sign flips need no variance: 12 topics all won, p = 2/2^12
    ok("no-spread-sign", ["compare", "--scores", "shift.csv", "--test", "sign", "--format",
                          "json"], pair_p("sysA", "sysB", 2 / 2**12),
       files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-wilcoxon", ["compare", "--scores", "shift.csv", "--test", "wilcoxon",
                              "--format", "json"], pair_p("sysA", "sysB", 2 / 2**12),
       files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-randomization", ["compare", "--scores", "shift.csv", "--test",
                                   "randomization", "--format", "json"],
       pair_p("sysA", "sysB", 2 / 2**12), files={"shift.csv": NO_SPREAD_SHIFT}),
    ok("no-spread-sign-two-topics", ["compare", "--scores", "two.csv", "--test", "sign",
                                     "--format", "json"], pair_p("a", "b", 0.5),
       files={"two.csv": NO_SPREAD_TWO}),
    ok("identical-up-to-rounding", [*csv_argv("twin.csv"), "--systems", "sysA,sysB,sysC",
                                    "--format", "json"],
       pair_p("sysA", "sysB", 1.0), files={"twin.csv": ROUNDED_TWIN}),
    err("no-spread-tukey-two-systems", ["compare", "--scores", "two.csv"],
        "fits the scores exactly, up to rounding", "1e-10", files={"two.csv": NO_SPREAD_TWO}),
    # Scheffé's method follows an ANOVA model: a rank model's mean ranks and a fake model
    # have no F distribution (--test scheffe did not exist: every row failed as unknown)
    ok("test-scheffe", [*TUKEY, "--test", "scheffe"], output_contains("Scheffé after")),
    ok("test-scheffe-one-way-ci", [*TUKEY, "--test", "scheffe", "--model", "system", "--ci",
                                   "t"], output_contains("Scheffé after one-way")),
    err("scheffe-rank-model", [*TUKEY, "--test", "scheffe", "--model", "friedman"],
        opt("--model"), "Scheffé's method follows an ANOVA model", "'friedman'"),
    err("scheffe-fake-model", [*TUKEY, "--test", "scheffe", "--model", "MD1f"],
        opt("--model"), "'MD1f'"),
    err("scheffe-formula-unknown-factor", [*TUKEY, "--test", "scheffe", "--model",
                                           "topic+shard"], opt("--model"), "'topic+shard'"),
    err("correction-with-scheffe", [*TUKEY, "--test", "scheffe", "--correction", "holm"],
        opt("--correction"), "not to --test scheffe"),
    err("samples-with-scheffe", [*TUKEY, "--test", "scheffe", "--samples", "10"],
        opt("--samples"), "scheffe"),
    err("scheffe-ci-transformed", [*TUKEY, "--test", "scheffe", "--transform", "rank",
                                   "--ci", "t"], opt("--ci"), "--transform rank"),
]


@pytest.mark.parametrize("case", CASES)
def test_compare(case, ws, run_cli):
    run_case(case, ws, run_cli)


def test_randomization_same_for_any_workers(ws, run_cli):
    """A seed gives the same result whatever the number of workers."""
    one = run_cli([*RANDOM, "--workers", "1"])
    two = run_cli([*RANDOM, "--workers", "2"])
    assert one.status == two.status == 0, one.describe() + two.describe()
    assert one.out == two.out
    assert not warnings_of(one)
