"""``irscale meta correlate | discriminative-power | split | swap | concordance | loo |
scales``: faulty score CSVs, contributor files and runs, and bad parameters."""

from __future__ import annotations

import json
import re

import pytest

from .catalog import csv_faults, has_warning, no_warning
from .conftest import (
    SYSTEMS,
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

DIV_FILES = {"div.qrels": text(DIV_QRELS)}
DIV_RUNS = ["div.qrels", "a.run", "b.run", "c.run"]

CORR = ["meta", "correlate", "--scores", "ap.csv", "--scores", "p10.csv"]
DP = ["meta", "dp", "--scores", "ap.csv", "-B", "50", "--seed", "1"]
SPLIT = ["meta", "split", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
         "--seed", "1", "--models", "MD1"]
SWAP = ["meta", "swap", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
        "--seed", "1"]
CONC = ["meta", "concordance", "--scores", "ap.csv", "--scores", "p10.csv", "--scores",
        "gold.csv", "--gold", "gold"]
RUNS = ["qrels.txt", "a.run", "b.run", "c.run"]
LOO = ["meta", "loo", *RUNS, "-m", "map", "--depth", "3"]
BIAS = ["meta", "pool-bias", "qrels.txt", "a.run", "b.run", "--new", "c.run", "-m", "map",
        "--depth", "3"]
SCALES = ["meta", "scales", *RUNS, "-m", "P", "-m", "AP", "--cutoffs", "3"]
PREFS = ["1 sysA sysB left", "2 sysC sysA right", "3 sysB sysD tie", "4 sysD sysA left",
         "5 sysA sysC right", "6 sysB sysC left"]
PRED = ["meta", "predict", "--scores", "ap.csv", "--preferences", "prefs.txt"]
PRED_FILES = {"prefs.txt": text(PREFS)}
PRED_RUNS = ["meta", "predict", *RUNS, "-m", "map", "--preferences", "p.txt"]
PRED_RUN_FILES = {"p.txt": text(["1 a b left", "2 c a right"])}  # the runs' names: their files
INFO = ["meta", "informativeness", *RUNS]
DIV_INFO = ["meta", "informativeness", *DIV_RUNS]
REPRO = ["meta", "reproduce", "--scores", "ap.csv", "--original", "sysA,sysB",
         "--reproduced", "sysC,sysD"]
REPRO_RUNS = ["meta", "reproduce", *RUNS, "-m", "map", "--original", "teamA_r1,teamB_r1",
              "--reproduced", "teamC_r2,teamB_r1", "--depth", "3"]


def dp_argv(name: str) -> list[str]:
    return ["meta", "dp", "--scores", name, "-B", "20", "--seed", "1"]


def corr_argv(name: str) -> list[str]:
    return ["meta", "correlate", "--scores", name, "--scores", "p10.csv"]


def loo_contrib(name: str) -> list[str]:
    return [*LOO, "--contributors", name]


LOO_REF = loo_contrib("contrib.txt")
CONTRIB = [f"{rid} {rid.split('_')[0]}" for rid in ("teamA_r1", "teamB_r1", "teamC_r2")]


def shard_csv(*, skip: int | None = None, extra: str = "", value: str | None = None,
              topics: int = 12) -> str:
    """Shard scores of ap.csv's topics (1..12) and systems in two shards (as ``pool shards
    --shard-scores`` writes them): row ``skip`` left out, ``extra`` appended, the first
    value replaced by ``value``."""
    rows = [f"{t},{s},shard{k},{0.1 + 0.05 * i + 0.01 * ((t * 7 + i * 3 + k * 5) % 11):.4f}"
            for t in range(1, topics + 1) for i, s in enumerate(SYSTEMS) for k in (1, 2)]
    if value is not None:
        rows[0] = rows[0].rsplit(",", 1)[0] + "," + value
    if skip is not None:
        del rows[skip]
    return "topic,run,shard,value\n" + "\n".join(rows) + "\n" + extra


SHARD_SPLIT = [*SPLIT[:-1], "MD3", "--shard-scores", "shards.csv"]


def json_ok(result, ws, run):
    json.loads(result.out)


#: Four systems that score every one of 12 topics alike (the topics differ): no pair
#: differs.
SAME = "sysA,sysB,sysC,sysD\n" + "".join(f"{v},{v},{v},{v}\n"
                                          for v in (0.1, 0.3, 0.25, 0.6, 0.4, 0.05) * 2)


#: ap.csv with every system scoring topic 2 alike.
TIE_TOPIC_2 = "".join(
    "0.5,0.5,0.5,0.5\n" if number == 2 else line + "\n"
    for number, line in enumerate(score_text("ap").splitlines()))


def undefined(*needles: str):
    """A coefficient that is undefined: said on standard output or in a warning (every
    needle somewhere), never printed as ``nan``."""

    def check(result, ws, run):
        said = result.out + "\n".join(warnings_of(result))
        missing = [n for n in needles if n not in said]
        assert not missing, f"{missing} not said" + result.describe()
        assert not re.search(r"\bnan\b", result.out, re.IGNORECASE), \
            "nan printed" + result.describe()

    return check


def no_pair_significant(result, ws, run):
    """Identical systems: neither method finds a significant pair (Fig. 15's strict count
    made every pair significant, every sampled range being 0)."""
    rows = json.loads(result.out)
    assert [row["significant"] for row in rows] == [0, 0], result.describe()


def drank_argv(name: str) -> list[str]:
    return ["meta", "drank", "--scores", name, "--scores", "p10.csv", "--ridge", "0.01"]


DRANK = ["meta", "drank", "--scores", "p10.csv", "--scores", "gold.csv"]


def drank_json(result, ws, run):
    """One row: Kendall's τ beside d_rank both ways and their mean, all finite."""
    (row,) = json.loads(result.out)
    assert row["measures"] == "p10 vs gold" and row["kendall"] == 1.0, row
    assert row["d_rank_sym"] == (row["d_rank(A|B)"] + row["d_rank(B|A)"]) / 2, row
    assert row["topics"] == 12 and row["systems"] == 4, row


CASES = [
    # one wording for a command without its action (every command with actions)
    err("meta-no-analysis-lists-the-analyses", ["meta"], "meta: choose an analysis: "
        "correlate, drank, discriminative-power, dp, split, swap, concordance, loo, "
        "pool-bias, reproduce, predict, informativeness, scales, simulate, judge-noise, "
        "gstudy or qpp (see 'irscale meta --help')"),
    # ================================================================ score CSVs
    *csv_faults("drank-csv", drank_argv, drank_argv("ap.csv"), constant="either",
                single=False),
    *csv_faults("dp-csv", dp_argv, dp_argv("ap.csv"), constant="either"),
    *csv_faults("reproduce-csv", lambda name: with_option(REPRO, "--scores", name), REPRO,
                constant="either"),
    *csv_faults("correlate-csv", corr_argv, corr_argv("ap.csv"), constant="either",
                single=False),
    # ================================================================ correlate
    ok("correlate-valid", CORR, output_contains("ap vs p10")),
    ok("correlate-by-topic", [*CORR, "--by", "topic", "--method", "tau_ap"]),
    ok("correlate-matrix-rbo", [*CORR, "--scores", "gold.csv", "--by", "matrix", "--method",
                                "rbo", "--p", "0.5", "--format", "json"], json_ok),
    ok("correlate-dotted-measure", ["meta", "correlate", *RUNS, "-m", "P.5", "-m", "map"],
       output_contains("P_5", "map")),
    err("correlate-same-measure-twice", ["meta", "correlate", *RUNS, "-m", "map", "-m", "map"],
        "two measures"),
    err("correlate-method-unknown", [*CORR, "--method", "nosuch"], "nosuch"),
    err("correlate-rbo-p-0", [*CORR, "--method", "rbo", "--p", "0"], opt("--p")),
    err("correlate-rbo-p-1.5", [*CORR, "--method", "rbo", "--p", "1.5"], opt("--p")),
    err("correlate-rbo-p-nan", [*CORR, "--method", "rbo", "--p", "nan"], opt("--p")),
    err("correlate-p-with-kendall", [*CORR, "--p", "0.5"], opt("--p")),
    ok("correlate-rbo-ties-w", [*CORR, "--method", "rbo", "--ties", "w"],
       output_contains("rbo")),
    err("correlate-rbo-ties-unknown", [*CORR, "--method", "rbo", "--ties", "z"], opt("--ties"),
        "unknown RBO tie treatment 'z'"),
    err("correlate-ties-with-kendall", [*CORR, "--ties", "a"], opt("--ties"),
        "applies to --method rbo"),
    err("correlate-bootstrap-0", [*CORR, "--bootstrap", "0"], opt("--bootstrap")),
    err("correlate-bootstrap-negative", [*CORR, "--bootstrap", "-1"], opt("--bootstrap")),
    err("correlate-bootstrap-text", [*CORR, "--bootstrap", "x"], opt("--bootstrap")),
    err("correlate-seed-negative", [*CORR, "--bootstrap", "20", "--seed", "-1"],
        opt("--seed")),
    err("correlate-seed-without-bootstrap", [*CORR, "--seed", "1"], opt("--seed")),
    # ================================================================ drank
    ok("drank-valid", DRANK, output_contains("d_rank (Carterette 2009)", "p10 vs gold")),
    ok("drank-json", [*DRANK, "--format", "json"], drank_json),
    ok("drank-ridge", [*DRANK, "--ridge", "0.5"], output_contains("0.5000")),
    err("drank-singular", ["meta", "drank", "--scores", "ap.csv", "--scores", "gold.csv"],
        "singular", opt("--ridge")),
    err("drank-one-measure", ["meta", "drank", "--scores", "ap.csv"], "two measures"),
    err("drank-ridge-negative", [*DRANK, "--ridge", "-1"], opt("--ridge")),
    err("drank-ridge-nan", [*DRANK, "--ridge", "nan"], opt("--ridge")),
    err("drank-ridge-text", [*DRANK, "--ridge", "x"], opt("--ridge")),
    err("drank-nothing", ["meta", "drank"], any_of("--scores", "QRELS")),
    ok("drank-runs", ["meta", "drank", *RUNS, "-m", "map", "-m", "P@5", "--ridge", "0.01"]),
    err("correlate-one-measure", ["meta", "correlate", "--scores", "ap.csv"],
        any_of("two", "measure")),
    err("correlate-by-unknown", [*CORR, "--by", "system"], "system"),
    err("correlate-digits-negative", [*CORR, "--digits", "-1"], opt("--digits")),
    err("correlate-systems-one", [*CORR, "--systems", "sysA"], any_of("2", "system")),
    err("correlate-systems-unknown", [*CORR, "--systems", "sysA,nosuch"], "nosuch"),
    err("correlate-nothing", ["meta", "correlate"], any_of("--scores", "QRELS")),
    err("correlate-runs-no-measure", ["meta", "correlate", *RUNS], "-m"),
    ok("correlate-runs", ["meta", "correlate", *RUNS, "-m", "map", "-m", "P@5"]),
    err("correlate-runs-missing-run", ["meta", "correlate", "qrels.txt", "a.run", "nope.run",
                                       "-m", "map", "-m", "P@5"], "nope.run"),
    # ================================================================ discriminative power
    ok("dp-valid", DP, output_contains("bootstrap")),
    ok("dp-both-pairs", [*DP, "--method", "both", "--pairs"]),
    ok("dp-seeds-2", [*DP, "--seeds", "2"]),
    ok("dp-json", [*DP, "--format", "json"], json_ok),
    ok("dp-runs", ["meta", "dp", *RUNS, "-m", "map", "-B", "20", "--seed", "1"]),
    err("dp-B-0", with_option(DP, "-B", "0"), opt("-B", "--samples", "samples")),
    err("dp-B-negative", with_option(DP, "-B", "-1"), opt("-B", "--samples", "samples")),
    err("dp-B-text", with_option(DP, "-B", "lots"), opt("-B", "--samples", "samples")),
    err("dp-B-huge", with_option(DP, "-B", "99999999999999999999"),
        opt("-B", "--samples", "samples")),
    err("dp-seeds-0", [*DP, "--seeds", "0"], opt("--seeds")),
    err("dp-seeds-negative", [*DP, "--seeds", "-1"], opt("--seeds")),
    err("dp-seed-negative", with_option(DP, "--seed", "-1"), opt("--seed")),
    err("dp-seed-text", with_option(DP, "--seed", "abc"), opt("--seed")),
    err("dp-alpha-0", [*DP, "--alpha", "0"], opt("--alpha")),
    err("dp-alpha-1.5", [*DP, "--alpha", "1.5"], opt("--alpha")),
    err("dp-method-unknown", [*DP, "--method", "nosuch"], "nosuch"),
    err("dp-convention-unknown", [*DP, "--convention", "half"], "half"),
    err("dp-plot-bad-extension", [*DP, "--plot", "asl.txt"], "asl.txt"),
    err("dp-digits-negative", [*DP, "--digits", "-1"], opt("--digits")),
    err("dp-runs-no-measure", ["meta", "dp", *RUNS, "-B", "20"], "-m"),
    err("dp-runs-one-run", ["meta", "dp", "qrels.txt", "a.run", "-m", "map"],
        any_of("run", "two")),
    # ================================================================ split
    ok("split-valid", SPLIT, output_contains("MD1")),
    ok("split-metric-jaccard", [*SPLIT, "--metric", "jaccard"]),
    either("split-size-more-than-half", [*SPLIT[:4], "--sizes", "7", *SPLIT[6:]],
           opt("--sizes"), check=has_warning),
    err("split-sizes-0", with_option(SPLIT, "--sizes", "0"), opt("--sizes")),
    # sizes the topics cannot hold: refused by the function, naming the option
    err("split-size-beyond-topics", with_option(SPLIT, "--sizes", "2,1000"),
        "--sizes (sizes)", "1000", "cannot be run"),
    err("swap-size-beyond-topics", with_option(SWAP, "--sizes", "1000"),
        "--sizes (sizes)", "1000", "cannot be run"),
    err("split-sizes-negative", with_option(SPLIT, "--sizes", "-1"), opt("--sizes")),
    err("split-sizes-text", with_option(SPLIT, "--sizes", "a,b"), opt("--sizes")),
    err("split-sizes-empty", with_option(SPLIT, "--sizes", ""), opt("--sizes")),
    err("split-sizes-above-topics", with_option(SPLIT, "--sizes", "100"), opt("--sizes")),
    err("split-repetitions-0", with_option(SPLIT, "--repetitions", "0"), opt("--repetitions")),
    err("split-repetitions-negative", with_option(SPLIT, "--repetitions", "-3"),
        opt("--repetitions")),
    err("split-models-unknown", with_option(SPLIT, "--models", "nosuch"), "nosuch"),
    err("split-models-empty", with_option(SPLIT, "--models", ","), opt("--models")),
    err("split-cross-no-colon", [*SPLIT, "--cross", "MD1"], opt("--cross")),
    err("split-cross-unknown-model", [*SPLIT, "--cross", "MD1:nosuch"], "nosuch"),
    err("split-metric-unknown", [*SPLIT, "--metric", "nosuch"], "nosuch"),
    err("split-alpha-0", [*SPLIT, "--alpha", "0"], opt("--alpha")),
    err("split-seed-negative", with_option(SPLIT, "--seed", "-1"), opt("--seed")),
    err("split-plot-bad-extension", [*SPLIT, "--plot", "tau.txt"], "tau.txt"),
    err("split-two-measures", ["meta", "split", "--scores", "ap.csv", "--scores", "p10.csv",
                               "--sizes", "2", "--repetitions", "2"], "-m"),
    # ================================================================ swap
    ok("swap-valid", SWAP, output_contains("rate")),
    ok("swap-by-bin", [*SWAP, "--by-bin"]),
    ok("swap-by-bin-width", [*SWAP, "--by-bin", "--bin-width", "0.05"]),
    # options the chosen analysis would ignore are refused, not accepted without effect
    ok("swap-samples-randomization", [*SWAP, "--test", "randomization", "-B", "50"]),
    err("swap-samples-without-test", [*SWAP, "-B", "50"], opt("-B", "--samples"), "--test"),
    err("swap-samples-non-resampling-test", [*SWAP, "--test", "t", "--samples", "50"],
        opt("-B", "--samples")),
    err("swap-samples-0", [*SWAP, "--test", "bootstrap", "-B", "0"], opt("-B", "--samples")),
    err("swap-bin-width-without-by-bin", [*SWAP, "--bin-width", "0.05"], "--by-bin"),
    err("split-alpha-with-metric-tau", [*SPLIT, "--metric", "tau", "--alpha", "0.01"],
        opt("--alpha"), "tau"),
    ok("split-alpha-with-metric-AA", [*SPLIT, "--metric", "AA", "--alpha", "0.01"]),
    ok("split-metric-tau", [*SPLIT, "--metric", "tau"]),
    err("swap-sizes-0", with_option(SWAP, "--sizes", "0"), opt("--sizes")),
    err("swap-sizes-negative", with_option(SWAP, "--sizes", "-2"), opt("--sizes")),
    err("swap-sizes-above-topics", with_option(SWAP, "--sizes", "100"), opt("--sizes")),
    err("swap-bin-width-0", [*SWAP, "--bin-width", "0"], opt("--bin-width")),
    err("swap-bin-width-negative", [*SWAP, "--bin-width", "-0.01"], opt("--bin-width")),
    err("swap-bin-width-nan", [*SWAP, "--bin-width", "nan"], opt("--bin-width")),
    err("swap-bin-width-inf", [*SWAP, "--bin-width", "inf"], opt("--bin-width")),
    err("swap-repetitions-0", with_option(SWAP, "--repetitions", "0"), opt("--repetitions")),
    err("swap-test-unknown", [*SWAP, "--test", "nosuch"], "nosuch"),
    err("swap-alpha-0", [*SWAP, "--alpha", "0"], opt("--alpha")),
    err("swap-alpha-2", [*SWAP, "--alpha", "2"], opt("--alpha")),
    err("swap-seed-negative", with_option(SWAP, "--seed", "-1"), opt("--seed")),
    err("swap-alpha-without-test", [*SWAP, "--alpha", "0.01"], opt("--alpha")),
    # ================================================================ concordance
    ok("concordance-valid", CONC, output_contains("gold")),
    err("concordance-gold-missing", CONC[:-2], opt("--gold")),
    # a gold standard named twice was read as a second one ('gold+gold')
    err("concordance-gold-twice", with_option(CONC, "--gold", "gold,gold"), opt("--gold"),
        "twice"),
    err("concordance-gold-unknown", [*CONC[:-1], "nosuch"], "nosuch"),
    err("concordance-gold-empty", [*CONC[:-1], ","], opt("--gold")),
    err("concordance-one-candidate", ["meta", "concordance", "--scores", "ap.csv",
                                      "--scores", "gold.csv", "--gold", "gold"],
        any_of("two", "candidate")),
    err("concordance-alpha-0", [*CONC, "--alpha", "0"], opt("--alpha")),
    err("concordance-alpha-2", [*CONC, "--alpha", "2"], opt("--alpha")),
    err("concordance-scores-missing", with_option(CONC, "--scores", "nope.csv"), "nope.csv"),
    # ================================================================ reproduce
    ok("reproduce-valid", REPRO, output_contains("ER", "delta_RI", "RMSE_baseline")),
    ok("reproduce-json", [*REPRO, "--format", "json"], json_ok),
    ok("reproduce-runs", REPRO_RUNS, output_contains("tau_baseline", "RBO_advanced")),
    ok("reproduce-runs-perfect-advanced", REPRO_RUNS, undefined("undefined")),
    # --ci: each run's mean with its interval over the topics
    ok("reproduce-ci-t", [*REPRO, "--ci", "t"],
       output_contains("original_baseline_low", "95% t intervals over topics")),
    ok("reproduce-ci-bootstrap-json", [*REPRO, "--ci", "bootstrap", "--ci-samples", "100",
                                       "--ci-seed", "1", "--format", "json"],
       output_contains('"reproduced_advanced_high"')),
    err("reproduce-alpha-without-ci", [*REPRO, "--alpha", "0.1"],
        "--alpha sets the level of --ci"),
    err("reproduce-ci-samples-with-t", [*REPRO, "--ci", "t", "--ci-samples", "5"],
        "--ci-samples applies to --ci bootstrap"),
    err("reproduce-original-missing", REPRO[:4] + REPRO[6:], opt("--original")),
    err("reproduce-reproduced-missing", REPRO[:-2], opt("--reproduced")),
    err("reproduce-original-one", with_option(REPRO, "--original", "sysA"),
        "--original", "two"),
    err("reproduce-reproduced-three", with_option(REPRO, "--reproduced", "sysA,sysB,sysC"),
        "--reproduced", "two"),
    err("reproduce-system-unknown", with_option(REPRO, "--original", "sysA,nosuch"),
        "nosuch"),
    err("reproduce-measure-unknown", [*REPRO, "-m", "nosuch"], "nosuch"),
    # with runs, the systems are runs named as irscale eval --baseline names them (a run's
    # name or its file), and a name of no run is refused before the evaluation
    err("reproduce-runs-system-unknown", with_option(REPRO_RUNS, "--original",
                                                     "nosuch,teamB_r1"),
        "--original 'nosuch' names no run", "a.run"),
    ok("reproduce-runs-by-file", with_option(REPRO_RUNS, "--original", "a,b.run"),
       output_contains("tau_baseline")),
    err("reproduce-depth-with-scores", [*REPRO, "--depth", "3"], opt("--depth")),
    err("reproduce-p-with-scores", [*REPRO, "--p", "0.5"], opt("--p")),
    # beyond repro_eval: nRMSE, KTU, the TOST of equivalence, bootstrap intervals of ER
    # and delta RI (every option was unknown before)
    ok("reproduce-nrmse", REPRO, output_contains("nRMSE_baseline", "nRMSE_advanced")),
    ok("reproduce-runs-ktu", REPRO_RUNS, output_contains("KTU_baseline", "0.95")),
    ok("reproduce-margin", [*REPRO, "--margin", "0.05"], output_contains("tost_p_baseline")),
    ok("reproduce-effect-samples", [*REPRO, "--effect-samples", "50", "--seed", "1"],
       output_contains("ER_low", "delta_RI_high", "B = 50")),
    err("reproduce-margin-0", [*REPRO, "--margin", "0"], opt("--margin")),
    err("reproduce-margin-negative", [*REPRO, "--margin", "-0.1"], opt("--margin")),
    err("reproduce-effect-samples-1", [*REPRO, "--effect-samples", "1"],
        opt("--effect-samples")),
    err("reproduce-seed-without-effect-samples", [*REPRO, "--seed", "1"], opt("--seed"),
        "--effect-samples"),
    err("reproduce-depth-0", with_option(REPRO_RUNS, "--depth", "0"), opt("--depth")),
    err("reproduce-depth-text", with_option(REPRO_RUNS, "--depth", "deep"), opt("--depth")),
    err("reproduce-p-1", [*REPRO_RUNS, "--p", "1"], opt("--p")),
    err("reproduce-p-nan", [*REPRO_RUNS, "--p", "nan"], opt("--p")),
    err("reproduce-scores-missing", with_option(REPRO, "--scores", "nope.csv"), "nope.csv"),
    err("reproduce-run-missing", ["meta", "reproduce", "qrels.txt", "a.run", "nope.run",
                                  "-m", "map", "--original", "a,b", "--reproduced", "a,b"],
        "nope.run"),
    # ================================================================ predict
    ok("predict-valid", PRED, output_contains("power", "ap"), files=PRED_FILES),
    ok("predict-bins-json", [*PRED, "--bins", "0,0.1,1", "--format", "json"], json_ok,
       files=PRED_FILES),
    ok("predict-runs", PRED_RUNS, output_contains("map"), files=PRED_RUN_FILES),
    ok("predict-ties-half", [*PRED, "--ties", "half", "--threshold", "0.05"],
       files=PRED_FILES),
    err("predict-preferences-required", PRED[:-2], opt("--preferences")),
    err("predict-preferences-missing-file", with_option(PRED, "--preferences", "nope.txt"),
        "nope.txt"),
    err("predict-preferences-bad-line", PRED, "prefs.txt", "line 2", "2 sysC sysA",
        files={"prefs.txt": text([PREFS[0], "2 sysC sysA", *PREFS[2:]])}),
    err("predict-preferences-bad-value", PRED, "prefs.txt", "line 3", "maybe",
        files={"prefs.txt": text([*PREFS[:2], "3 sysB sysD maybe"])}),
    err("predict-preferences-self", PRED, "prefs.txt", "line 1", "itself",
        files={"prefs.txt": text(["1 sysA sysA left"])}),
    err("predict-preferences-empty", PRED, "prefs.txt", files={"prefs.txt": b"# none\n"}),
    err("predict-preferences-nul", PRED, "prefs.txt",
        files={"prefs.txt": b"1 sysA sysB left\n2 sys\x00C sysA right\n"}),
    err("predict-preferences-not-utf8", PRED, "prefs.txt",
        files={"prefs.txt": b"1 sysA sysB left\n2 sys\xffC sysA right\n"}),
    err("predict-unknown-system", PRED, "nosuch",
        files={"prefs.txt": text(["1 sysA nosuch left"])}),
    # the preferences' systems name the runs as every run argument does (io.naming)
    ok("predict-runs-by-run-id", PRED_RUNS, same_output_as(*PRED_RUNS[:-1], "plain.txt"),
       files={"p.txt": text(["1 teamA_r1 teamB_r1 left", "2 teamC_r2 teamA_r1 right"]),
              "plain.txt": PRED_RUN_FILES["p.txt"]}),
    ok("predict-runs-by-file", PRED_RUNS, same_output_as(*PRED_RUNS[:-1], "plain.txt"),
       files={"p.txt": text(["1 a.run ./b.run left", "2 c a.run right"]),
              "plain.txt": PRED_RUN_FILES["p.txt"]}),
    err("predict-run-unknown", PRED_RUNS, "p.txt", "line 2", "names no run", "'a' (a.run)",
        files={"p.txt": text(["1 a b left", "2 nosuch a right"])}),
    err("predict-run-named-twice", PRED_RUNS, "p.txt", "line 1", "one system",
        files={"p.txt": text(["1 a teamA_r1 left"])}),
    err("predict-unknown-system-lists-systems", PRED, "prefs.txt", "line 1", "nosuch",
        "'sysA', 'sysB'", files={"prefs.txt": text(["1 sysA nosuch left"])}),
    err("predict-unknown-topic", PRED, "99", files={"prefs.txt": text(["99 sysA sysB left"])}),
    err("predict-threshold-negative", [*PRED, "--threshold", "-1"], opt("--threshold"),
        files=PRED_FILES),
    err("predict-threshold-nan", [*PRED, "--threshold", "nan"], opt("--threshold"),
        files=PRED_FILES),
    err("predict-ties-unknown", [*PRED, "--ties", "coin"], "coin", files=PRED_FILES),
    err("predict-bins-decreasing", [*PRED, "--bins", "0.5,0.1"], opt("--bins"),
        files=PRED_FILES),
    err("predict-bins-one", [*PRED, "--bins", "0.5"], opt("--bins"), files=PRED_FILES),
    err("predict-bins-negative", [*PRED, "--bins=-1,0.5"], opt("--bins"), files=PRED_FILES),
    err("predict-measure-unknown", [*PRED, "-m", "nosuch"], "nosuch", files=PRED_FILES),
    # ================================================================ informativeness
    ok("informativeness-valid", INFO, output_contains("AP", "R-prec", "P@10")),
    ok("informativeness-one-run", ["meta", "informativeness", "qrels.txt", "a.run", "-m",
                                   "AP", "--per-list", "--format", "json"], json_ok),
    ok("informativeness-depth", [*INFO, "--depth", "3", "-m", "P@2"]),
    ok("informativeness-relevance-level", [*INFO, "-l", "2", "-m", "AP"],
       output_contains("AP")),
    err("informativeness-relevance-level-0", [*INFO, "-l", "0"], "relevance level", "got 0"),
    err("informativeness-relevance-level-diversity",
        [*DIV_INFO, "-m", "alpha-nDCG@5", "-l", "2"],
        "-l/--relevance-level applies to graded qrels, not to diversity qrels",
        files=DIV_FILES),
    # lists without a relevant document (no curve) are counted in a warning, not left out
    # in silence (teamA_r1 retrieves none of topic 4's)
    ok("informativeness-list-without-relevant", INFO,
       warns_of("1 of 18 ranked lists", "no relevant document", "'a 4'")),
    ok("informativeness-ci-t", [*INFO, "--ci", "t", "--alpha", "0.1"],
       output_contains("ci_low", "90% t intervals over lists")),
    ok("informativeness-ci-bootstrap-csv", [*INFO, "--ci", "bootstrap", "--ci-samples", "50",
                                            "--format", "csv"],
       output_contains("measure,mean_rms_error,lists,ci_low,ci_high")),
    err("informativeness-ci-per-list", [*INFO, "--ci", "t", "--per-list"],
        "--ci", "not with --per-list"),
    err("informativeness-ci-unknown", [*INFO, "--ci", "z"], "--ci", "'t', 'bootstrap'"),
    err("informativeness-measure-unknown", [*INFO, "-m", "nosuch"], "nosuch"),
    err("informativeness-depth-0", [*INFO, "--depth", "0"], opt("--depth")),
    err("informativeness-depth-text", [*INFO, "--depth", "deep"], opt("--depth")),
    err("informativeness-no-run", ["meta", "informativeness", "qrels.txt"],
        any_of("run", "RUN")),
    err("informativeness-run-missing", ["meta", "informativeness", "qrels.txt", "nope.run"],
        "nope.run"),
    err("informativeness-scores", ["meta", "informativeness", "--scores", "ap.csv"],
        "--scores"),
    err("informativeness-bad-run-line", ["meta", "informativeness", "qrels.txt", "r.run"],
        "r.run", "line 2", "abc", files={"r.run": text(["1 Q0 d1 1 3.0 x",
                                                         "1 Q0 d2 2 abc x"])}),
    err("informativeness-diversity-qrels", ["meta", "informativeness", *DIV_RUNS,
                                            "--qrels-format", "ndeval"],
        any_of("diversity", "ndeval")),
    # diversity qrels and measures (Ashkan & Clarke 2011)
    ok("informativeness-diversity", [*DIV_INFO, "-m", "alpha-nDCG@5", "-m", "P-IA@5"],
       output_contains("alpha-nDCG@5", "P-IA@5", "mean_rms_error"), files=DIV_FILES),
    ok("informativeness-diversity-default-measures", [*DIV_INFO, "--qrels-format",
                                                      "diversity"],
       output_contains("alpha-DCG@20", "ERR-IA@20", "NRBP", "P-IA@20"), files=DIV_FILES),
    ok("informativeness-diversity-ci", [*DIV_INFO, "-m", "nERR-IA@5", "--ci", "t"],
       output_contains("nERR-IA@5", "ci_low"), files=DIV_FILES),
    err("informativeness-diversity-strec", [*DIV_INFO, "-m", "strec@5"], "strec@5",
        "alpha-nDCG", files=DIV_FILES),
    err("informativeness-diversity-map-ia", [*DIV_INFO, "-m", "MAP-IA"], "MAP-IA",
        "cascade", files=DIV_FILES),
    err("informativeness-diversity-no-cutoff", [*DIV_INFO, "-m", "alpha-nDCG"],
        "alpha-nDCG", files=DIV_FILES),
    err("informativeness-diversity-mixed", [*DIV_INFO, "-m", "alpha-nDCG@5", "-m", "AP"],
        "cannot be mixed", files=DIV_FILES),
    err("informativeness-diversity-qrels-format-trec",
        [*DIV_INFO, "-m", "alpha-nDCG@5", "--qrels-format", "trec"], opt("--qrels-format"),
        files=DIV_FILES),
    err("informativeness-trec-measures-qrels-format-diversity",
        [*DIV_INFO, "-m", "AP", "--qrels-format", "diversity"], opt("--qrels-format"), "'AP'",
        files=DIV_FILES),
    err("informativeness-diversity-bad-qrels-line", [*DIV_INFO, "-m", "alpha-nDCG@5"],
        "div.qrels", "line 2", "1 2 d1", files={"div.qrels": text([DIV_QRELS[0], "1 2 d1"])}),
    err("informativeness-diversity-foreign-topics", [*DIV_INFO, "-m", "alpha-nDCG@5"],
        any_of("topic", "no run"), files={"div.qrels": text(
            [f"9{line}" for line in DIV_QRELS])}),
    # ================================================================ leave one out
    ok("loo-valid", LOO, output_contains("map")),
    ok("loo-per-run", [*LOO, "--per-run"]),
    ok("loo-relevance-level", [*LOO, "-l", "2"], output_contains("map")),
    err("loo-relevance-level-0", [*LOO, "-l", "0"], "relevance level", "got 0"),
    err("loo-pattern-with-contributors", [*LOO_REF, "--contributor-pattern", "^x"],
        "--contributor-pattern applies without --contributors"),
    ok("loo-contributors-bom", loo_contrib("c.txt"), same_output_as(*LOO_REF),
       files={"c.txt": b"\xef\xbb\xbf" + text(CONTRIB)}),
    ok("loo-contributors-crlf", loo_contrib("c.txt"), same_output_as(*LOO_REF),
       files={"c.txt": text(CONTRIB).replace(b"\n", b"\r\n")}),
    ok("loo-contributors-comment", loo_contrib("c.txt"), same_output_as(*LOO_REF),
       files={"c.txt": text(["# run contributor", *CONTRIB])}),
    ok("loo-contributors-tabs", loo_contrib("c.txt"), same_output_as(*LOO_REF),
       files={"c.txt": text([c.replace(" ", "\t \t") for c in CONTRIB])}),
    err("loo-contributors-missing", loo_contrib("nope.txt"), "nope.txt"),
    err("loo-contributors-directory", loo_contrib("adir"), "adir"),
    either("loo-contributors-empty", loo_contrib("c.txt"), "c.txt", check=has_warning,
           files={"c.txt": b""}),
    err("loo-contributors-three-fields", loo_contrib("c.txt"), "c.txt", "line 2", "extra",
        files={"c.txt": text([CONTRIB[0], CONTRIB[1] + " extra", CONTRIB[2]])}),
    err("loo-contributors-one-field", loo_contrib("c.txt"), "c.txt", "line 2",
        files={"c.txt": text([CONTRIB[0], "teamB_r1", CONTRIB[2]])}),
    err("loo-contributors-non-utf8", loo_contrib("c.txt"), "c.txt", "line 2",
        files={"c.txt": text(CONTRIB[:1]) + b"teamB_r1 team\xe9B\n" + text(CONTRIB[2:])}),
    err("loo-contributors-nul", loo_contrib("c.txt"), "c.txt", "line 2",
        files={"c.txt": text(CONTRIB[:1]) + b"teamB_r1 te\x00amB\n" + text(CONTRIB[2:])}),
    err("loo-contributors-truncated-gzip", loo_contrib("c.txt"), "c.txt",
        files={"c.txt": __import__("gzip").compress(text(CONTRIB))[:20]}),
    either("loo-contributors-unknown-run", loo_contrib("c.txt"), "nosuch_run",
           check=has_warning, files={"c.txt": text([*CONTRIB, "nosuch_run teamZ"])}),
    either("loo-contributors-run-not-listed", loo_contrib("c.txt"), "['c']",
           check=has_warning, files={"c.txt": text(CONTRIB[:2])}),
    err("loo-contributors-run-twice", loo_contrib("c.txt"), "c.txt", "teamA_r1",
        files={"c.txt": text([*CONTRIB, "teamA_r1 teamB"])}),
    # a run of other topics, kept by --allow-empty, has no mean to rank
    err("loo-run-of-other-topics", [*LOO, "--allow-empty"], "'c'", "no topic",
        files={"c.run": text([f"9{line}" for line in run_lines("c")])}),
    # ---- pool-bias (Webber & Park 2009): the new runs' scores adjusted
    ok("pool-bias-valid", BIAS, output_contains("c    map", "adjusted")),
    ok("pool-bias-per-topic", [*BIAS, "--per-topic", "--format", "csv"],
       output_contains("measure,topic,adjustment,runs")),
    ok("pool-bias-contributors", [*BIAS, "--contributors", "c.txt"],
       output_contains("c    map"), files={"c.txt": text(CONTRIB[:2])}),
    err("pool-bias-without-new", BIAS[:5] + BIAS[7:], "--new"),
    ok("pool-bias-relevance-level", [*BIAS, "-l", "2"], output_contains("adjusted")),
    err("pool-bias-relevance-level-text", [*BIAS, "-l", "high"], "-l/--relevance-level", "high"),
    err("pool-bias-new-missing", with_option(BIAS, "--new", "nope.run"), "nope.run"),
    err("pool-bias-new-contributed", with_option(BIAS, "--new", "a.run"), "['a']",
        "both as contributing and as new"),
    err("pool-bias-contributor-not-listed", [*BIAS, "--contributors", "c.txt"], "['b']",
        files={"c.txt": text(CONTRIB[:1])}),
    err("pool-bias-topic-without-contributor", BIAS, "'c'", "topic '6'",
        "leave-one-out", files={f"{w}.run": text([line for line in run_lines(w)
                                                    if not line.startswith("6 ")])
                                for w in ("a", "b")}),
    err("pool-bias-depth-0", with_option(BIAS, "--depth", "0"), opt("--depth")),
    err("pool-bias-measure-unknown", with_option(BIAS, "-m", "nosuch"), "nosuch"),
    err("loo-depth-0", with_option(LOO, "--depth", "0"), opt("--depth")),
    err("loo-depth-negative", with_option(LOO, "--depth", "-1"), opt("--depth")),
    err("loo-depth-text", with_option(LOO, "--depth", "deep"), opt("--depth")),
    err("loo-depth-huge", with_option(LOO, "--depth", "99999999999999999999"), opt("--depth")),
    err("loo-pattern-invalid-regex", [*LOO, "--contributor-pattern", "("], "("),
    either("loo-pattern-matches-nothing", [*LOO, "--contributor-pattern", "^zzz"], "^zzz",
           check=has_warning),
    err("loo-no-measure", ["meta", "loo", *RUNS], "-m"),
    err("loo-measure-unknown", ["meta", "loo", *RUNS, "-m", "nosuch"], "nosuch"),
    err("loo-one-run", ["meta", "loo", "qrels.txt", "a.run", "-m", "map"],
        any_of("run", "two")),
    err("loo-missing-run", ["meta", "loo", "qrels.txt", "a.run", "nope.run", "-m", "map"],
        "nope.run"),
    err("loo-bad-run-line", ["meta", "loo", "qrels.txt", "a.run", "bad.run", "-m", "map"],
        "bad.run", "line 2",
        files={"bad.run": text([*run_lines("b")[:1], "1 Q0 d5 2 x teamB_r1",
                                *run_lines("b")[2:]])}),
    ok("loo-runs-sharing-run-id", ["meta", "loo", "qrels.txt", "first.run", "second.run",
                                   "c.run", "-m", "map", "--depth", "3", "--names", "runid"],
       has_warning,
       files={"first.run": text(run_lines("a")), "second.run": text(run_lines("a"))}),
    # contributors keyed by the runs' files too; a key of two runs is refused
    ok("loo-contributors-by-file", loo_contrib("c.txt"), same_output_as(*LOO_REF),
       files={"c.txt": text(["a.run teamA", "b teamB", "c teamC"])}),
    err("loo-contributors-ambiguous", ["meta", "loo", "qrels.txt", "first.run", "second.run",
                                       "c.run", "-m", "map", "--depth", "3", "--contributors",
                                       "c.txt"], "'teamA_r1' is ambiguous",
        files={"first.run": text(run_lines("a")), "second.run": text(run_lines("a")),
               "c.txt": text(["teamA_r1 teamA", "c teamC"])}),
    err("loo-format-unknown", [*LOO, "--format", "xml"], "xml"),
    # ================================================================ scales
    ok("scales-valid", SCALES, output_contains("Table 2")),
    # a plot that exists (no --force) is refused before any plot is drawn: the first was
    # written, then the second refused, leaving a half-made folder
    err("scales-plot-dir-second-plot-exists", [*SCALES, "--plot-dir", "figs"], "T_03_AP.png",
        files={"figs/T_03_AP.png": b"an earlier plot"}),
    err("scales-cutoffs-0", with_option(SCALES, "--cutoffs", "0"), opt("--cutoffs")),
    err("scales-cutoffs-negative", with_option(SCALES, "--cutoffs", "-3"), opt("--cutoffs")),
    err("scales-cutoffs-text", with_option(SCALES, "--cutoffs", "x"), opt("--cutoffs")),
    err("scales-cutoffs-empty", with_option(SCALES, "--cutoffs", ""), opt("--cutoffs")),
    err("scales-N-0", [*SCALES, "-N", "0"], opt("-N")),
    err("scales-N-not-a-cutoff", [*SCALES, "-N", "7"], opt("-N")),
    err("scales-table-unknown", [*SCALES, "--table", "3"], "3"),
    err("scales-alpha-0", [*SCALES, "--alpha", "0"], opt("--alpha")),
    err("scales-measure-unknown", ["meta", "scales", *RUNS, "-m", "nosuch", "--cutoffs", "3"],
        "nosuch"),
    err("scales-one-run", ["meta", "scales", "qrels.txt", "a.run", "-m", "P", "--cutoffs",
                           "3"], any_of("run", "two")),
    err("scales-missing-qrels", ["meta", "scales", "nope.qrels", "a.run", "b.run", "-m", "P",
                                 "--cutoffs", "3"], "nope.qrels"),
    # ================================================================ one vocabulary
    # -B/--samples, comma lists, --table-cutoff, --ties/--phi-ties
    ok("correlate-B", [*CORR, "-B", "20", "--seed", "1"], output_contains("ci_low")),
    ok("correlate-samples", [*CORR, "--samples", "20", "--seed", "1"], no_warning),
    err("correlate-bootstrap-unknown", [*CORR, "--bootstrap", "20", "--seed", "1"],
        "--bootstrap"),
    err("correlate-B-1", [*CORR, "-B", "1"], "-B/--samples (samples)"),
    err("correlate-B-text", [*CORR, "-B", "x"], opt("-B")),
    err("correlate-B-by-topic", [*CORR, "-B", "20", "--by", "topic"],
        "-B/--samples applies to --by overall"),
    ok("dp-samples-long-form", [*with_option(DP, "-B", "50")[:-2], "--samples", "50"],
       same_output_as(*DP)),
    ok("scales-table-cutoff", [*SCALES, "--table", "4", "--table-cutoff", "3"], no_warning),
    err("scales-N-unknown", [*SCALES, "--table", "4", "-N", "3"], "-N"),
    err("scales-table-cutoff-not-a-cutoff", [*SCALES, "--table-cutoff", "7"],
        "--table-cutoff 7 is not one of the --cutoffs"),
    err("scales-table-cutoff-text", [*SCALES, "--table-cutoff", "x"], opt("--table-cutoff")),
    ok("scales-ties-file-order", [*SCALES, "--ties", "file-order", "--table", "2"],
       no_warning),
    ok("scales-phi-ties-mid", [*SCALES, "--phi-ties", "mid", "--table", "2"], no_warning),
    err("scales-phi-ties-unknown", [*SCALES, "--phi-ties", "random"], "random"),
    err("scales-ties-phi-value", [*SCALES, "--ties", "unq"], "--ties", "unq",
        "trec_eval"),
    err("scales-cutoffs-empty-item", with_option(SCALES, "--cutoffs", "3,,4"),
        "--cutoffs (cutoffs) has an empty value", "'3,,4'"),
    err("scales-cutoffs-blank", with_option(SCALES, "--cutoffs", " "),
        "--cutoffs (cutoffs) is empty"),
    err("scales-cutoffs-not-a-number", with_option(SCALES, "--cutoffs", "3,x"),
        "--cutoffs (cutoffs): 'x' is not an integer"),
    ok("split-B-bootstrap-model", [*with_option(SPLIT, "--models", "MD1,bootstrap"), "-B",
                                   "30"], output_contains("bootstrap")),
    ok("split-B-default-is-1000", [*with_option(SPLIT, "--models", "bootstrap"), "-B",
                                   "1000"],
       same_output_as(*with_option(SPLIT, "--models", "bootstrap"))),
    ok("split-samples-cross", [*SPLIT, "--cross", "MD1:randomization", "--samples", "30"]),
    err("split-B-without-resampling-model", [*SPLIT, "-B", "30"],
        "-B/--samples applies to the resampling procedures", "MD1"),
    err("split-B-0", [*with_option(SPLIT, "--models", "bootstrap"), "-B", "0"],
        "-B/--samples (samples)"),
    err("split-B-text", [*with_option(SPLIT, "--models", "bootstrap"), "-B", "x"], opt("-B")),
    err("split-sizes-empty-item", with_option(SPLIT, "--sizes", "2,,3"),
        "--sizes (sizes) has an empty value"),
    err("split-sizes-trailing-comma", with_option(SPLIT, "--sizes", "2,"),
        "--sizes (sizes) has an empty value"),
    err("split-sizes-not-a-number", with_option(SPLIT, "--sizes", "2,x"),
        "--sizes (sizes): 'x' is not an integer"),
    err("split-sizes-blank", with_option(SPLIT, "--sizes", " "), "--sizes (sizes) is empty"),
    err("swap-sizes-empty-item", with_option(SWAP, "--sizes", "2,,3"),
        "--sizes (sizes) has an empty value"),
    err("split-models-empty-item", with_option(SPLIT, "--models", "MD1,,MD2"),
        "--models has an empty name"),
    err("split-models-trailing-comma", with_option(SPLIT, "--models", "MD1,"),
        "--models has an empty name"),
    # --------------------------------------------------------- split: shard models
    ok("split-md3-shard-scores", SHARD_SPLIT, output_contains("MD3"),
       files={"shards.csv": shard_csv()}),
    ok("split-md3-cross-md2", [*SPLIT[:-1], "MD2", "--cross", "MD2:MD3f", "--shard-scores",
                               "shards.csv"], output_contains("MD3f"),
       files={"shards.csv": shard_csv()}),
    ok("split-replicates-model", [*SPLIT[:-1], "MD3,replicates", "--shard-scores",
                                  "shards.csv"], output_contains("replicates"),
       files={"shards.csv": shard_csv()}),
    err("split-replicates-without-shard-scores", with_option(SPLIT, "--models", "replicates"),
        "replicates is a shard model", "--shard-scores"),
    err("split-md3-without-shard-scores", with_option(SPLIT, "--models", "MD3"),
        "MD3 is a shard model", "--shard-scores"),
    err("split-shard-scores-without-shard-model", [*SPLIT, "--shard-scores", "shards.csv"],
        "--shard-scores applies to the shard models", files={"shards.csv": shard_csv()}),
    err("split-empty-without-shard-model", [*SPLIT, "--empty", "zero"],
        "--empty applies to the shard models"),
    err("split-shard-scores-missing-file", [*SHARD_SPLIT[:-1], "nosuch.csv"], "nosuch.csv"),
    err("split-shard-scores-bad-header", SHARD_SPLIT, "shards.csv", "line 1",
        "topic,run,shard,value", files={"shards.csv": shard_csv().replace("run,", "system,",
                                                                         1)}),
    err("split-shard-scores-missing-row", SHARD_SPLIT, "shards.csv", "no score of run",
        files={"shards.csv": shard_csv(skip=5)}),
    err("split-shard-scores-duplicate-row", SHARD_SPLIT, "shards.csv", "line 98",
        "appears twice", files={"shards.csv": shard_csv(extra="1,sysA,shard1,0.5\n")}),
    err("split-shard-scores-short-row", SHARD_SPLIT, "shards.csv", "line 98",
        "4 comma-separated fields", files={"shards.csv": shard_csv(extra="1,sysA,0.5\n")}),
    err("split-shard-scores-non-numeric", SHARD_SPLIT, "shards.csv", "line 2", "non-numeric",
        files={"shards.csv": shard_csv(value="high")}),
    err("split-shard-scores-infinite", SHARD_SPLIT, "shards.csv", "line 2", "infinite",
        files={"shards.csv": shard_csv(value="inf")}),
    err("split-shard-scores-other-topics", SHARD_SPLIT, "different topics or systems",
        files={"shards.csv": shard_csv(topics=10)}),
    err("split-shard-scores-undefined-needs-policy", SHARD_SPLIT, "undefined shard score",
        "--empty", files={"shards.csv": shard_csv(value="")}),
    ok("split-shard-scores-undefined-zero", [*SHARD_SPLIT, "--empty", "zero"],
       output_contains("MD3"), files={"shards.csv": shard_csv(value="")}),
    err("split-empty-unknown", [*SHARD_SPLIT, "--empty", "nosuch"], "nosuch",
        files={"shards.csv": shard_csv()}),
    err("split-cross-empty", [*SPLIT, "--cross", ""], "--cross is empty"),
    err("split-cross-empty-item", [*SPLIT, "--cross", "MD1:MD2,"], "--cross has an empty name"),
    err("concordance-gold-empty-item", [*CONC[:-1], "gold,,ap"], "--gold has an empty name"),
    err("correlate-systems-empty-item", [*CORR, "--systems", "sysA,,sysB"],
        "--systems has an empty name"),
    err("correlate-systems-twice", [*CORR, "--systems", "sysA,sysB,sysA"],
        "--systems names ['sysA'] twice"),
    err("correlate-systems-blank", [*CORR, "--systems", " "], "--systems is empty"),
    err("loo-names-empty-item", [*LOO, "--names", "a,,b,c"], "--names has an empty name"),
    err("loo-names-empty", [*LOO, "--names", ""], "--names is empty"),
    # ================================================================ the command
    err("meta-no-analysis", ["meta"], any_of("ANALYSIS", "analysis", "correlate")),
    err("meta-unknown-analysis", ["meta", "frob"], "frob"),
    err("meta-unknown-option", [*DP, "--bogus"], "--bogus"),
    # ---- diversity qrels and measures
    ok("diversity-correlate", ["meta", "correlate", *DIV_RUNS, "-m", "alpha-nDCG@5", "-m",
                               "ERR-IA@5"], output_contains("alpha-nDCG@5 vs ERR-IA@5"),
       files=DIV_FILES),
    ok("diversity-dp", ["meta", "dp", *DIV_RUNS, "-m", "alpha-nDCG@5", "-B", "50", "--seed",
                        "1"], output_contains("alpha-nDCG@5"), files=DIV_FILES),
    ok("diversity-swap", ["meta", "swap", *DIV_RUNS, "-m", "alpha-nDCG@5", "--sizes", "2,3",
                          "--repetitions", "3", "--seed", "1"], files=DIV_FILES),
    ok("diversity-loo", ["meta", "loo", *DIV_RUNS, "-m", "alpha-nDCG@5", "--depth", "3"],
       output_contains("alpha-nDCG@5", "unique_judged"), files=DIV_FILES),
    err("diversity-loo-qrels-format-trec", ["meta", "loo", *DIV_RUNS, "-m", "alpha-nDCG@5",
                                            "--qrels-format", "trec"],
        opt("--qrels-format"), files=DIV_FILES),
    err("diversity-scales-refused", ["meta", "scales", *DIV_RUNS, "-m", "alpha-nDCG@5",
                                     "--cutoffs", "3"], "diversity measure", "--intents",
        files=DIV_FILES),
    err("diversity-scales-qrels-format-default-measures",
        ["meta", "scales", *DIV_RUNS, "--qrels-format", "diversity", "--cutoffs", "3"],
        opt("--qrels-format"), "'P'", files=DIV_FILES),
    err("diversity-correlate-mixed", ["meta", "correlate", *DIV_RUNS, "-m", "alpha-nDCG@5",
                                      "-m", "map"], "cannot be mixed", files=DIV_FILES),
    err("diversity-correlate-qrels-format-with-scores", [*CORR, "--qrels-format", "trec"],
        opt("--qrels-format"), "--scores"),
    # ---- new-user probes: degenerate score matrices
    ok("correlate-measure-tying-every-system", ["meta", "correlate", "--scores", "same.csv",
                                                "--scores", "ap.csv"],
       undefined("'same' and 'ap' is undefined (NaN)", "ties them all"),
       files={"same.csv": SAME}),
    ok("correlate-by-topic-tying-every-system", ["meta", "correlate", "--scores", "same.csv",
                                                 "--scores", "ap.csv", "--by", "topic"],
       undefined("undefined (NaN) on 12 of 12 topics", "mean undefined: defined on no topic"),
       files={"same.csv": SAME}),
    ok("correlate-by-topic-some-topics-tie", ["meta", "correlate", "--scores", "tie2.csv",
                                              "--scores", "ap.csv", "--by", "topic"],
       undefined("undefined (NaN) on 1 of 12 topics", "over the 11 of 12 topics where it "
                 "is defined"), files={"tie2.csv": TIE_TOPIC_2}),
    ok("correlate-matrix-tying-every-system", ["meta", "correlate", "--scores", "same.csv",
                                               "--scores", "ap.csv", "--by", "matrix"],
       undefined("same vs same, same vs ap"), files={"same.csv": SAME}),
    ok("loo-identical-runs-tau-undefined", ["meta", "loo", "qrels.txt", "a.run", "a2.run",
                                            "-m", "map", "--names", "a,b"],
       undefined("τ=undefined"), files={"a2.run": text(run_lines("a"))}),
    ok("swap-identical-systems-no-pair", ["meta", "swap", "--scores", "same.csv", "--sizes",
                                          "2", "--repetitions", "3", "--seed", "1"],
       undefined("swap rate 2 topics: undefined"), files={"same.csv": SAME}),
    ok("scales-table-2-identical-runs", ["meta", "scales", "qrels.txt", "a.run", "a2.run",
                                         "-m", "P", "-m", "AP", "--cutoffs", "3", "--names",
                                         "a,b", "--table", "2"],
       all_checks(output_contains("Table 2"), undefined("Kendall τ is undefined")),
       files={"a2.run": text(run_lines("a"))}),
    err("scales-tests-identical-runs-named",
        ["meta", "scales", "qrels.txt", "a.run", "a2.run", "-m", "P", "-m", "AP",
         "--cutoffs", "3", "--names", "a,b"], "T_03, P, ", "ANOVA",
        files={"a2.run": text(run_lines("a"))}),
    ok("dp-rtukey-identical-systems-none-significant",
       ["meta", "dp", "--scores", "same.csv", "-B", "50", "--seed", "1", "--method", "both",
        "--format", "json"], no_pair_significant, files={"same.csv": SAME}),
]


@pytest.mark.parametrize("case", CASES)
def test_meta(case, ws, run_cli):
    run_case(case, ws, run_cli)
