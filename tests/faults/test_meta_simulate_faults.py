"""``irscale meta simulate``: bad models and model parameters, options of the other model,
unknown tests and corrections, bad counts, checkpoint folders that hold something else,
faulty inputs of the bootstrap model."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

from .catalog import no_warning
from .conftest import (
    any_of,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    run_lines,
    same_output_as,
    text,
    with_option,
)

NORMAL = ["meta", "simulate", "--model", "normal", "--topics", "8", "--repetitions", "10",
          "--seed", "1"]
BOOT = ["meta", "simulate", "--model", "bootstrap", "--scores", "ap.csv", "--repetitions",
        "10", "--seed", "1"]
RUNS = ["qrels.txt", "a.run", "b.run", "c.run"]
BOOT_RUNS = ["meta", "simulate", "--model", "bootstrap", *RUNS, "-m", "map",
             "--repetitions", "10", "--seed", "1"]
CK = ["--checkpoint", "ck"]
RUNSIM = ["meta", "simulate", "--model", "runs", "qrels.txt", "-m", "map", "--qualities",
          "0.5,0.5,1", "--repetitions", "5", "--seed", "1"]
COP = ["meta", "simulate", "--model", "copula", "--scores", "ap.csv", "--repetitions", "10",
       "--seed", "1"]


def json_rows(result, ws, run):
    rows = json.loads(result.out)
    assert rows and {"test", "correction", "type_I", "type_I_low", "power"} <= set(rows[0])


def resumes_to_the_same_output(result, ws, run):
    """Run again on the checkpoint the case wrote: the same output, nothing rewritten."""
    assert (ws.root / "ck" / "study.json").is_file()
    before = ws.snapshot()
    again = run(list(result.argv))
    assert again.status == 0 and again.out == result.out, again.describe()
    assert ws.snapshot() == before


def _npy(values: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, values, allow_pickle=False)
    return buffer.getvalue()


CASES = [
    # ================================================================ valid
    ok("simulate-normal", NORMAL, output_contains("type_I", "normal model")),
    ok("simulate-normal-json", [*NORMAL, "--format", "json"], json_rows),
    ok("simulate-normal-lists", [*NORMAL, "--effects", "0,0,0.1", "--test", "t,wilcoxon",
                                 "--correction", "none,holm"],
       output_contains("wilcoxon", "holm")),
    ok("simulate-systems-from-effects", [*NORMAL, "--effects", "0,0,0.1"],
       same_output_as(*NORMAL, "--effects", "0,0,0.1", "--systems", "3")),
    ok("simulate-negative-effect", [*NORMAL, "--effects=-0.1,0"], output_contains("power")),
    # a list of numbers whose first is negative is the option's value, as '-0.1' alone is
    # (argparse took '-0.1,0' for an option, and said the option expected one argument)
    ok("simulate-negative-effect-apart", [*NORMAL, "--effects", "-0.1,0"],
       same_output_as(*NORMAL, "--effects=-0.1,0")),
    ok("simulate-runs-negative-quality-apart", with_option(RUNSIM, "--qualities", "-1,1"),
       same_output_as(*with_option(RUNSIM, "--qualities", "-1,1")[:-2], "--qualities=-1,1")),
    ok("simulate-test-default-is-t", [*NORMAL, "--test", "t"], same_output_as(*NORMAL)),
    ok("simulate-correction-default-is-none", [*NORMAL, "--correction", "none"],
       same_output_as(*NORMAL)),
    ok("simulate-alpha-default", [*NORMAL, "--alpha", "0.05"], same_output_as(*NORMAL)),
    ok("simulate-test-alias", with_option(NORMAL, "--test", "paired-t"),
       same_output_as(*NORMAL)),
    ok("simulate-resampling-B", [*NORMAL, "--test", "randomization", "-B", "20"],
       output_contains("randomization")),
    ok("simulate-no-progress", [*NORMAL, "--no-progress"], same_output_as(*NORMAL)),
    ok("simulate-output-file", [*NORMAL, "-o", "rates.txt"], allowed_new=["rates.txt"]),
    ok("simulate-checkpoint-new-folder", [*NORMAL, *CK], resumes_to_the_same_output,
       allowed_new=["ck/"]),
    ok("simulate-checkpoint-existing-empty-folder", [*NORMAL, "--checkpoint", "empty"],
       same_output_as(*NORMAL), files={"empty": "<dir>"}, allowed_new=["empty/"]),
    ok("simulate-bootstrap-scores", BOOT, output_contains("bootstrap model")),
    ok("simulate-bootstrap-null", [*BOOT, "--null"], no_warning),
    ok("simulate-bootstrap-runs", BOOT_RUNS, output_contains("type_II")),
    ok("simulate-bootstrap-one-of-two-measures", [*BOOT, "--scores", "p10.csv", "-m", "ap"],
       same_output_as(*BOOT)),
    # ================================================================ the model
    err("simulate-model-missing", NORMAL[:2] + NORMAL[4:], opt("--model")),
    err("simulate-model-unknown", with_option(NORMAL, "--model", "uniform"), "uniform"),
    err("simulate-topics-1", with_option(NORMAL, "--topics", "1"), opt("--topics")),
    err("simulate-topics-0", with_option(NORMAL, "--topics", "0"), opt("--topics")),
    err("simulate-topics-text", with_option(NORMAL, "--topics", "many"), opt("--topics")),
    err("simulate-systems-1", [*NORMAL, "--systems", "1"], opt("--systems")),
    err("simulate-systems-negative", [*NORMAL, "--systems", "-2"], opt("--systems")),
    # a matrix numpy could not allocate is refused up front
    err("simulate-topics-huge", with_option(NORMAL, "--topics", str(2**63 - 1)),
        opt("--topics")),
    err("simulate-systems-beyond-64-bits", [*NORMAL, "--systems", str(10**30)],
        opt("--systems")),
    err("simulate-matrix-too-large", [*NORMAL, "--systems", "50000000"], "--max-memory",
        "systems"),
    err("simulate-effects-count-not-systems", [*NORMAL, "--systems", "3", "--effects", "0,1"],
        opt("--effects"), "3"),
    err("simulate-effects-nan", [*NORMAL, "--effects", "0,nan"], opt("--effects")),
    err("simulate-effects-inf", [*NORMAL, "--effects", "0,inf"], opt("--effects")),
    err("simulate-effects-text", [*NORMAL, "--effects", "0,x"], opt("--effects"),
        "'x' is not a number"),
    err("simulate-effects-empty", [*NORMAL, "--effects", ""], "--effects is empty"),
    err("simulate-effects-empty-item", [*NORMAL, "--effects", "0,,1"],
        "--effects has an empty value"),
    err("simulate-effects-one", [*NORMAL, "--effects", "0"], opt("--effects", "systems")),
    err("simulate-topic-sd-negative", [*NORMAL, "--topic-sd", "-0.1"], opt("--topic-sd")),
    err("simulate-topic-sd-nan", [*NORMAL, "--topic-sd", "nan"], opt("--topic-sd")),
    err("simulate-error-sd-0", [*NORMAL, "--error-sd", "0"], opt("--error-sd")),
    err("simulate-error-sd-inf", [*NORMAL, "--error-sd", "inf"], opt("--error-sd")),
    err("simulate-error-sd-text", [*NORMAL, "--error-sd", "small"], opt("--error-sd")),
    # options of the other model are refused, not ignored
    err("simulate-null-with-normal", [*NORMAL, "--null"], "--null", "--model bootstrap"),
    err("simulate-scores-with-normal", [*NORMAL, "--scores", "ap.csv"], "--scores",
        "--model bootstrap"),
    err("simulate-runs-with-normal", [*NORMAL, *RUNS], "QRELS RUN", "--model bootstrap"),
    err("simulate-measure-with-normal", [*NORMAL, "-m", "map"], "-m", "--model bootstrap"),
    err("simulate-names-with-normal", [*NORMAL, "--names", "file"], "--names",
        "--model normal"),
    err("simulate-qrels-format-with-normal", [*NORMAL, "--qrels-format", "trec"],
        opt("--qrels-format"), "--model normal"),
    err("simulate-intent-probs-with-normal", [*NORMAL, "--intent-probs", "p.txt"],
        "--intent-probs", "--model normal"),
    # --topics N,N,... draws topic subsets of the bootstrap model's matrix (refused before)
    ok("simulate-topics-with-bootstrap", [*BOOT, "--topics", "3"],
       output_contains("agreement", "topic subsets")),
    ok("simulate-topic-subsets", [*BOOT, "--topics", "2,3", "--test", "t,wilcoxon"],
       output_contains("agreement_low", "full_significant")),
    err("simulate-topic-subsets-null", [*BOOT, "--topics", "2,3", "--null"], opt("--null"),
        "--topics"),
    err("simulate-topic-subsets-beyond-matrix", [*BOOT, "--topics", "3,1000"],
        opt("--topics"), "1000", "without replacement"),
    err("simulate-topic-subsets-twice", [*BOOT, "--topics", "3,3"], opt("--topics"),
        "twice"),
    err("simulate-topic-subsets-text", [*BOOT, "--topics", "3,x"], opt("--topics"), "'x'"),
    err("simulate-topic-subsets-checkpoint", [*BOOT, "--topics", "3", *CK], opt("--checkpoint"),
        "topic subsets"),
    # several sizes are the bootstrap model's: the normal and copula models take one
    err("simulate-several-topics-with-normal", with_option(NORMAL, "--topics", "8,10"),
        opt("--topics"), "an integer", "[8, 10]"),
    err("simulate-several-topics-with-copula", [*COP, "--topics", "5,6"], opt("--topics"),
        "an integer", "[5, 6]"),
    err("simulate-systems-with-bootstrap", [*BOOT, "--systems", "2"], "--systems",
        "--model normal"),
    err("simulate-effects-with-bootstrap", [*BOOT, "--effects", "0,1,2,3"], "--effects",
        "--model normal"),
    err("simulate-topic-sd-with-bootstrap", [*BOOT, "--topic-sd", "0.1"], "--topic-sd",
        "--model normal", "not to --model bootstrap"),
    err("simulate-error-sd-with-bootstrap", [*BOOT, "--error-sd", "0.2"], "--error-sd",
        "--model normal", "not to --model bootstrap"),
    err("simulate-sds-with-runs", [*RUNSIM, "--topic-sd", "0.1"], "--topic-sd",
        "--model normal", "not to --model runs"),
    err("simulate-margins-with-runs", [*RUNSIM, "--margins", "beta"], "--margins",
        "--model copula", "not to --model runs"),
    err("simulate-qualities-with-normal", [*NORMAL, "--qualities", "1,2"], "--qualities",
        "--model runs", "not to --model normal"),
    # ================================================================ the bootstrap's inputs
    err("simulate-bootstrap-nothing", ["meta", "simulate", "--model", "bootstrap"],
        any_of("--scores", "QRELS")),
    err("simulate-bootstrap-scores-missing", with_option(BOOT, "--scores", "nope.csv"),
        "nope.csv"),
    err("simulate-bootstrap-two-measures", [*BOOT, "--scores", "p10.csv"], "-m"),
    err("simulate-bootstrap-measure-unknown", [*BOOT, "-m", "nosuch"], "nosuch"),
    err("simulate-bootstrap-runs-no-measure", BOOT_RUNS[:-6] + BOOT_RUNS[-4:], "-m"),
    err("simulate-bootstrap-one-run", ["meta", "simulate", "--model", "bootstrap",
                                       "qrels.txt", "a.run", "-m", "map"],
        any_of("run", "two")),
    err("simulate-bootstrap-constant", with_option(BOOT, "--scores", "flat.csv"),
        any_of("constant", "equal"), files={"flat.csv": "x,y\n0.5,0.5\n0.5,0.5\n0.5,0.5\n"}),
    # ================================================================ the copula model
    ok("simulate-copula-scores", COP, output_contains("copula model", "type_II")),
    ok("simulate-copula-null", [*COP, "--null"], output_contains("type_I")),
    ok("simulate-copula-equal", [*COP, "--equal", "sysA,sysB"], output_contains("type_I")),
    ok("simulate-copula-options", [*COP, "--margins", "truncnorm,bks", "--copula", "t",
                                   "--topics", "12"], output_contains("copula model")),
    ok("simulate-copula-margins-default", [*COP, "--margins", "truncnorm,beta,bks"],
       same_output_as(*COP)),
    ok("simulate-copula-default-is-gaussian", [*COP, "--copula", "gaussian"],
       same_output_as(*COP)),
    ok("simulate-copula-runs", ["meta", "simulate", "--model", "copula", *RUNS, "-m", "map",
                                "--repetitions", "10", "--seed", "1"],
       output_contains("copula model")),
    err("simulate-copula-margins-unknown", [*COP, "--margins", "truncnorm,gamma"],
        opt("--margins"), "gamma"),
    err("simulate-copula-margins-empty", [*COP, "--margins", ""], opt("--margins"), "empty"),
    err("simulate-copula-unknown", [*COP, "--copula", "clayton"], opt("--copula"),
        "clayton"),
    # --equal names its systems as every argument that names a run (core.run_names): a
    # name of none, or of two runs, is refused with the one message, listing them
    err("simulate-copula-equal-unknown-system", [*COP, "--equal", "sysA,sysZ"],
        opt("--equal"), "'sysZ' names no run", "runs: 'sysA', 'sysB'"),
    ok("simulate-copula-equal-by-file-and-run-id", ["meta", "simulate", "--model", "copula",
                                                   *RUNS, "-m", "map", "--equal",
                                                   "a.run,teamB_r1", "--repetitions", "10",
                                                   "--seed", "1"],
       same_output_as("meta", "simulate", "--model", "copula", *RUNS, "-m", "map",
                      "--equal", "a,b", "--repetitions", "10", "--seed", "1")),
    err("simulate-copula-equal-ambiguous", ["meta", "simulate", "--model", "copula",
                                            "qrels.txt", "a.run", "a2.run", "c.run", "-m",
                                            "map", "--equal", "teamA_r1,c", "--repetitions",
                                            "10", "--seed", "1"],
        opt("--equal"), "'teamA_r1' is ambiguous", "'a' (a.run)", "'a2' (a2.run)",
        files={"a2.run": text(run_lines("a"))}),
    err("simulate-copula-equal-one-system", [*COP, "--equal", "sysA"], opt("--equal"),
        "two systems"),
    err("simulate-copula-equal-three-systems", [*COP, "--equal", "sysA,sysB,sysC"],
        opt("--equal"), "two systems"),
    err("simulate-copula-equal-same-twice", [*COP, "--equal", "sysA,sysA"],
        "--equal"),
    err("simulate-copula-equal-with-null", [*COP, "--equal", "sysA,sysB", "--null"],
        "--equal applies without --null", "every pair null"),
    err("simulate-copula-topics-1", [*COP, "--topics", "1"], opt("--topics")),
    err("simulate-copula-score-above-1", with_option(COP, "--scores", "big.csv"),
        "sysB", "outside", files={"big.csv": "sysA,sysB\n0.2,1.5\n0.4,0.3\n0.1,0.2\n"}),
    err("simulate-copula-constant-system", with_option(COP, "--scores", "flat.csv"),
        "sysB", "every topic has the score 0.5",
        files={"flat.csv": "sysA,sysB\n0.2,0.5\n0.4,0.5\n0.1,0.5\n"}),
    err("simulate-copula-beta-with-zeros",
        [*with_option(COP, "--scores", "zero.csv"), "--margins", "beta"],
        "add truncnorm or bks",
        files={"zero.csv": "sysA,sysB\n0.0,0.5\n0.4,0.2\n0.1,0.3\n"}),
    ok("simulate-copula-vine", [*COP, "--copula", "vine"], output_contains("copula model")),
    ok("simulate-copula-vine-p10", [*with_option(COP, "--scores", "p10.csv"), "--copula",
                                    "vine"], output_contains("copula model")),
    ok("simulate-copula-discrete-p10", [*with_option(COP, "--scores", "p10.csv"),
                                        "--margins", "bbinom,dks"],
       same_output_as(*with_option(COP, "--scores", "p10.csv"))),
    ok("simulate-copula-p10-null", [*with_option(COP, "--scores", "p10.csv"), "--null"],
       output_contains("type_I")),
    ok("simulate-copula-p10-vine-equal", [*with_option(COP, "--scores", "p10.csv"),
                                          "--copula", "vine", "--equal", "sysA,sysB"],
       output_contains("type_I")),
    err("simulate-copula-vines-typo", [*COP, "--copula", "vines"], opt("--copula"), "vines"),
    err("simulate-copula-vine-empty", [*COP, "--copula", ""], opt("--copula")),
    err("simulate-copula-discrete-margins-on-ap", [*COP, "--margins", "bbinom,dks"],
        "continuous", "add truncnorm, beta or bks"),
    err("simulate-copula-bbinom-off-grid",
        [*with_option(COP, "--scores", "rr.csv"), "--margins", "bbinom"], "sysA", "add dks",
        files={"rr.csv": "sysA,sysB\n" + "1,0.5\n0.5,1\n0.3333333333333333,0.25\n"
               "0.14285714285714285,0.3333333333333333\n" * 2}),
    err("simulate-margins-with-normal", [*NORMAL, "--margins", "beta"], "--margins",
        "--model copula"),
    err("simulate-copula-with-bootstrap", [*BOOT, "--copula", "t"], "--copula",
        "--model copula"),
    err("simulate-equal-with-normal", [*NORMAL, "--equal", "a,b"], "--equal",
        "--model copula"),
    err("simulate-effects-with-copula", [*COP, "--effects", "0,1,2,3"], "--effects",
        "--model normal"),
    # ================================================================ the runs model
    ok("simulate-runs-model", RUNSIM, output_contains("runs model", "type_I")),
    ok("simulate-runs-model-ndcg", with_option(RUNSIM, "-m", "ndcg_cut.10"),
       output_contains("runs model")),
    err("simulate-runs-model-no-qualities", RUNSIM[:7] + RUNSIM[9:], "--qualities"),
    err("simulate-runs-model-one-quality", with_option(RUNSIM, "--qualities", "1"),
        opt("--qualities"), "at least 2"),
    err("simulate-runs-model-quality-nan", with_option(RUNSIM, "--qualities", "1,nan"),
        opt("--qualities")),
    err("simulate-runs-model-quality-text", with_option(RUNSIM, "--qualities", "1,good"),
        opt("--qualities")),
    err("simulate-runs-model-no-measure", RUNSIM[:5] + RUNSIM[7:], "-m"),
    err("simulate-runs-model-two-measures", [*RUNSIM, "-m", "P_10"], "one measure"),
    err("simulate-runs-model-measure-unknown", with_option(RUNSIM, "-m", "nosuch"),
        "nosuch"),
    err("simulate-runs-model-with-runs", [*RUNSIM[:5], "a.run", *RUNSIM[5:]],
        "QRELS only", "2 inputs"),
    err("simulate-runs-model-no-qrels", RUNSIM[:4] + RUNSIM[5:], "QRELS"),
    err("simulate-runs-model-qrels-missing", [*RUNSIM[:4], "nope.txt", *RUNSIM[5:]],
        "nope.txt"),
    err("simulate-runs-model-qrels-bad-line", [*RUNSIM[:4], "bad.txt", *RUNSIM[5:]],
        "bad.txt", "2", files={"bad.txt": "q1 0 d1 1\nq1 0 d2\n"}),
    err("simulate-runs-model-with-null", [*RUNSIM, "--null"], "--null", "--model runs"),
    err("simulate-runs-model-with-scores", [*RUNSIM[:4], *RUNSIM[5:], "--scores", "ap.csv"],
        "--scores", "--model runs"),
    err("simulate-runs-model-with-topics", [*RUNSIM, "--topics", "5"], "--topics",
        "--model runs"),
    err("simulate-runs-model-with-names", [*RUNSIM, "--names", "file"], "--names",
        "--model runs"),
    err("simulate-qualities-with-copula", [*COP, "--qualities", "1,2"], "--qualities",
        "--model copula"),
    # ================================================================ the study
    err("simulate-repetitions-0", with_option(NORMAL, "--repetitions", "0"),
        opt("--repetitions")),
    err("simulate-repetitions-negative", with_option(NORMAL, "--repetitions", "-5"),
        opt("--repetitions")),
    err("simulate-repetitions-text", with_option(NORMAL, "--repetitions", "lots"),
        opt("--repetitions")),
    err("simulate-repetitions-huge", with_option(NORMAL, "--repetitions", "1000000000"),
        opt("--repetitions")),
    err("simulate-test-unknown", [*NORMAL, "--test", "t,nosuch"], opt("--test"), "nosuch"),
    err("simulate-test-multi-system", [*NORMAL, "--test", "tukey-hsd"], opt("--test"),
        "tukey-hsd"),
    err("simulate-test-empty", [*NORMAL, "--test", ""], "--test is empty"),
    err("simulate-test-twice", [*NORMAL, "--test", "t,t"], "--test names ['t'] twice"),
    err("simulate-test-alias-twice", [*NORMAL, "--test", "t,ttest"], "twice"),
    err("simulate-correction-unknown", [*NORMAL, "--correction", "none,magic"],
        opt("--correction"), "magic"),
    err("simulate-correction-empty-item", [*NORMAL, "--correction", "none,"],
        "--correction has an empty name"),
    err("simulate-alpha-0", [*NORMAL, "--alpha", "0"], opt("--alpha")),
    err("simulate-alpha-1.5", [*NORMAL, "--alpha", "1.5"], opt("--alpha")),
    err("simulate-alpha-nan", [*NORMAL, "--alpha", "nan"], opt("--alpha")),
    err("simulate-seed-negative", with_option(NORMAL, "--seed", "-1"), opt("--seed")),
    err("simulate-seed-text", with_option(NORMAL, "--seed", "abc"), opt("--seed")),
    err("simulate-B-without-resampling-test", [*NORMAL, "-B", "20"],
        "-B/--samples applies to the resampling tests", "t"),
    err("simulate-B-0", [*NORMAL, "--test", "bootstrap", "-B", "0"],
        opt("-B", "--samples", "samples")),
    err("simulate-B-text", [*NORMAL, "--test", "bootstrap", "-B", "x"], opt("-B")),
    err("simulate-scheduler-bad-form", [*NORMAL, "--scheduler", "local:0"],
        opt("--scheduler")),
    err("simulate-digits-with-csv", [*NORMAL, "--format", "csv", "--digits", "3"],
        opt("--digits")),
    err("simulate-format-unknown", [*NORMAL, "--format", "xml"], "xml"),
    # ================================================================ checkpoints
    err("simulate-checkpoint-without-seed", [*NORMAL[:-2], *CK], "--checkpoint", "--seed"),
    err("simulate-checkpoint-is-a-file", [*NORMAL, "--checkpoint", "ap.csv"], "ap.csv",
        "not a folder"),
    err("simulate-checkpoint-empty", [*NORMAL, "--checkpoint", ""], "--checkpoint is empty"),
    err("simulate-checkpoint-parent-missing", [*NORMAL, "--checkpoint", "no/such/ck"],
        "no/such/ck"),
    err("simulate-checkpoint-another-study", [*NORMAL, *CK], "ck", "holds another study",
        files={"ck/study.json": json.dumps({"model": {"model": "bootstrap"}})}),
    err("simulate-checkpoint-study-not-json", [*NORMAL, *CK], "ck/study.json",
        "not a study description", files={"ck/study.json": "not json\n"}),
    err("simulate-checkpoint-study-a-list", [*NORMAL, *CK], "ck/study.json",
        "not a study description", files={"ck/study.json": "[1, 2]\n"}),
    # beyond the JSON parser's bounds (nested 100,000 deep: a RecursionError; an integer
    # of 100,000 digits: Python's advice about sys.set_int_max_str_digits)
    err("simulate-checkpoint-study-nested-too-deep", [*NORMAL, *CK], "ck/study.json",
        "line 2", "not a study description", "nested deeper than 100",
        files={"ck/study.json": '{"model": 1,\n "x": ' + "[" * 100_000 + "]" * 100_000 + "}"}),
    err("simulate-checkpoint-study-huge-integer", [*NORMAL, *CK], "ck/study.json", "line 1",
        "beyond 64 bits", files={"ck/study.json": '{"alpha": ' + "5" * 100_000 + "}"}),
    err("simulate-output-in-checkpoint", [*NORMAL, *CK, "-o", "ck/rates.txt"],
        "ck/rates.txt", "--checkpoint", files={"ck": "<dir>"}),
    err("simulate-output-is-input", [*BOOT, "-o", "ap.csv", "--force"], "ap.csv"),
]


def test_vine_without_pyvinecopulib_is_one_error_line(ws, run_cli, monkeypatch):
    """pyvinecopulib missing (its import blocked): one line naming the extra, nothing
    written; ``--copula auto`` needs no optional package."""
    monkeypatch.setitem(sys.modules, "pyvinecopulib", None)
    run_case(err("simulate-copula-vine-missing", [*COP, "--copula", "vine", *CK],
                 opt("--copula"), "pip install 'irscale[vines]'").values[0], ws, run_cli)
    run_case(ok("simulate-copula-auto-without-vines", [*COP, "--copula", "auto"],
                output_contains("copula model")).values[0], ws, run_cli)


def _damaged_task_cases():
    """A checkpoint whose study is this one but whose task file is damaged: written by a
    first run (so that study.json is the real one), then the task file replaced."""
    return [
        ("garbage", b"garbage\n", "not a .npy file"),
        ("truncated", _npy(np.zeros((10, 1, 6), dtype=np.int64))[:100], "not a .npy file"),
        ("float-counts", _npy(np.zeros((10, 1, 6))), "float64"),
        ("wrong-shape", _npy(np.zeros((3, 1, 6), dtype=np.int64)), "(3, 1, 6)"),
    ]


@pytest.mark.parametrize("case", CASES)
def test_meta_simulate(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.parametrize(("name", "data", "needle"), _damaged_task_cases(),
                         ids=[c[0] for c in _damaged_task_cases()])
def test_damaged_task_file_is_refused(name, data, needle, ws, run_cli):
    from .conftest import assert_error

    argv = [*NORMAL, *CK]
    first = run_cli(argv)
    assert first.status == 0, first.describe()
    ws.write("ck/task-00000000.npy", data)
    before = ws.snapshot()
    result = run_cli(argv)
    assert_error(result, "ck/task-00000000.npy", needle)
    assert ws.snapshot() == before
