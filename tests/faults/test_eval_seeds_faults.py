"""``irscale eval-seeds``: systems of several runs; malformed --system specs, missing and
malformed runs, options that do not combine."""

from __future__ import annotations

import pytest

from .conftest import err, ok, opt, output_contains, run_case, text

SEEDS = ["eval-seeds", "qrels.txt", "--system", "A=a.run,b.run", "--system", "C=c.run",
         "-m", "map"]


CASES = [
    ok("seeds", SEEDS, output_contains("Systems over their runs", "A", "C")),
    ok("seeds-runs-csv", [*SEEDS, "--runs", "--format", "csv"],
       output_contains("system,run,measure,mean", "A,a,map", "A,b,map", "C,c,map")),
    ok("seeds-shard-scores", [*SEEDS, "--shard-scores", "s.csv"],
       output_contains("Systems over their runs"), allowed_new=("s.csv",)),
    ok("seeds-glob", ["eval-seeds", "qrels.txt", "--system", "all=*.run", "-m", "P.3"],
       output_contains("all")),
    # ---- trec_eval's options, as eval takes them (-c is always on: not an option)
    ok("seeds-trec-eval-options", [*SEEDS, "-l", "2", "-J", "-M", "3", "-N", "100",
                                   "--compat", "10", "--ties", "file-order"],
       output_contains("Systems over their runs", "A", "C")),
    err("seeds-max-retrieved-0", [*SEEDS, "-M", "0"], opt("-M", "--max-retrieved")),
    err("seeds-compat-8", [*SEEDS, "--compat", "8"], opt("--compat")),
    err("seeds-ties-unknown", [*SEEDS, "--ties", "random"], opt("--ties")),
    err("seeds-complete", [*SEEDS, "-c"], "-c"),
    # ---- each system's mean with its interval over topics and runs (--ci)
    ok("seeds-ci-t", [*SEEDS, "--ci", "t", "--alpha", "0.1"],
       output_contains("ci_low", "ci_high", "90% t interval over topics and runs")),
    ok("seeds-ci-bootstrap-json", [*SEEDS, "--ci", "bootstrap", "--ci-samples", "100",
                                   "--ci-seed", "2", "--format", "json"],
       output_contains('"ci_low"', '"ci_high"')),
    err("seeds-ci-with-runs", [*SEEDS, "--ci", "t", "--runs"], "--ci applies without --runs"),
    err("seeds-pairs-with-runs", [*SEEDS, "--ci", "t", "--pairs", "--runs"],
        "--ci, --pairs apply without --runs"),
    ok("seeds-ci-pairs", [*SEEDS, "--ci", "t", "--pairs", "--format", "markdown"],
       output_contains("| A | C |", "no multiple-comparison correction")),
    err("seeds-pairs-without-ci", [*SEEDS, "--pairs"], "--pairs applies to the intervals (--ci)"),
    err("seeds-ci-unknown", [*SEEDS, "--ci", "z"], "--ci", "'t', 'bootstrap'"),
    err("seeds-alpha-without-ci", [*SEEDS, "--alpha", "0.1"],
        "--alpha applies to the intervals (--ci)"),
    err("seeds-ci-samples-with-t", [*SEEDS, "--ci", "t", "--ci-samples", "5"],
        "--ci-samples applies to the bootstrap intervals (--ci bootstrap)"),
    err("seeds-ci-seed-without-ci", [*SEEDS, "--ci-seed", "5"],
        "--ci-seed applies to the bootstrap intervals (--ci bootstrap)"),
    err("seeds-ci-samples-0", [*SEEDS, "--ci", "bootstrap", "--ci-samples", "0"],
        "--ci-samples", "got 0"),
    err("seeds-alpha-1", [*SEEDS, "--ci", "t", "--alpha", "1"], "--alpha", "(0, 1), got 1"),
    err("seeds-no-system", ["eval-seeds", "qrels.txt", "-m", "map"], opt("--system")),
    err("seeds-no-measure", SEEDS[:-2], opt("-m", "--measure")),
    err("seeds-system-without-equals", ["eval-seeds", "qrels.txt", "--system", "a.run",
                                        "-m", "map"], "--system must be NAME=RUNS", "'a.run'"),
    err("seeds-system-empty-runs", ["eval-seeds", "qrels.txt", "--system", "A=", "-m", "map"],
        "--system must be NAME=RUNS"),
    err("seeds-system-twice", [*SEEDS, "--system", "A=c.run"], "--system names ['A'] twice"),
    err("seeds-run-missing", ["eval-seeds", "qrels.txt", "--system", "A=a.run,nope.run",
                              "-m", "map"], "nope.run"),
    err("seeds-run-malformed", ["eval-seeds", "qrels.txt", "--system", "A=bad.run", "-m",
                                "map"], "bad.run", "line 2",
        files={"bad.run": text(["1 Q0 d1 1 0.5 r", "1 Q0 d2"])}),
    err("seeds-qrels-missing", ["eval-seeds", "nope.txt", "--system", "A=a.run", "-m", "map"],
        "nope.txt"),
    err("seeds-shard-scores-two-measures", [*SEEDS, "-m", "P.3", "--shard-scores", "s.csv"],
        "--shard-scores writes the values of one measure"),
    err("seeds-summary-measure", [*SEEDS[:-2], "-m", "gm_map"], "gm_map"),
    err("seeds-digits-csv", [*SEEDS, "--format", "csv", "--digits", "2"], opt("--digits")),
    err("seeds-output-exists", [*SEEDS, "-o", "qrels.txt"], "qrels.txt"),
]


@pytest.mark.parametrize("case", CASES)
def test_eval_seeds(case, ws, run_cli):
    run_case(case, ws, run_cli)
