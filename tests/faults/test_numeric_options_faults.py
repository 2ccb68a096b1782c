"""Every numeric option of every subcommand, swept over values at the edges of what a
number can be: none may end in an internal error (exit status 3), a traceback or a numpy
warning, and a value that is accepted must not print NaN or infinity where the valid call
prints a number (``docs/errors.md`` §1–2, §6).

The options are found by walking the real parsers (:func:`irscale.cli.main.build_parser`):
an option whose ``type`` is ``int`` or ``float``, or a comma-separated list of integers or
numbers (:class:`irscale.cli.options.ListAction`), is swept as soon as it is added. Each
subcommand runs from a small valid command line (:data:`BASES`; :data:`USING` where an
option needs another one to be used at all), with the one option set to each of
:data:`VALUES`; a usual value of the option (:data:`USUAL`) must be accepted, so that the
sweep reaches the code that uses the option instead of a refusal of the combination.
"""

from __future__ import annotations

import argparse
import re
import shutil
from collections.abc import Iterator

import pytest

from irscale.cli.main import build_parser
from irscale.cli.options import ListAction

from ..cli_parsers import parsers
from .conftest import Result, assert_ok, error_line, text
from .test_collections_faults import SAMPLED
from .test_labels_faults import AUTO, CROWD, GP, GP_FILES, PROBS, Q2
from .test_labels_pairwise_faults import FILES as PAIRWISE_FILES
from .test_meta_gtheory_faults import FILES as GTHEORY_FILES
from .test_meta_judge_noise_faults import FILES as NOISE_FILES
from .test_online_calibrate_faults import FILES as CALIBRATE_FILES
from .test_online_clicks_faults import FILES as CLICK_FILES
from .test_online_counterfactual_faults import FILES as OPE_FILES
from .test_online_faults import LOGS, MODEL, TABLE
from .test_online_satisfaction_faults import FILES as SATISFACTION_FILES
from .test_online_score_faults import FILES as SCORE_FILES
from .test_online_score_faults import LOG as SCORE_LOG
from .test_text_faults import AFILES
from .test_text_faults import FILES as SESSION_FILES

#: The values every numeric option is given: zero, a negative number, the smallest and
#: largest magnitudes of a double, NaN, infinity, the largest 64-bit integer and an
#: integer beyond 64 bits.
VALUES = ("0", "-1", "1e-300", "1e300", "nan", "inf", str(2**63 - 1), str(10**30))

RUNS = ("qrels.txt", "a.run", "b.run", "c.run")

#: Files besides the collection of :func:`conftest.populate`.
FILES: dict[str, str | bytes] = {
    **SESSION_FILES, **{k: v for k, v in AFILES.items() if k != "len.txt"},
    "crowd.txt": text(CROWD), **GP_FILES, "h.txt": Q2["h.txt"], **PAIRWISE_FILES, **SAMPLED,
    **PROBS,
    "pbm-model.json": MODEL["pbm.json"], **TABLE, "ab.log": LOGS["log.txt"],
    "su.txt": LOGS["su.txt"], "sut.txt": "s1 u1 0\ns2 u1 4000\ns3 u2 10\n",
    "train.log": CLICK_FILES["train.log"], "test.log": CLICK_FILES["test.log"],
    "pbm.json": CLICK_FILES["pbm.json"], "score.log": SCORE_LOG, **CALIBRATE_FILES,
    "prob.log": SCORE_FILES["prob.txt"],
    "cf.log": OPE_FILES["log.txt"], "uniform.txt": OPE_FILES["uniform.txt"],
    "ilog.txt": OPE_FILES["ilog.txt"], **GTHEORY_FILES,
    "sat.log": SATISFACTION_FILES["log.txt"], "sat-labels.txt": SATISFACTION_FILES["labels.txt"],
    **NOISE_FILES,
    "prefs.txt": text(["1 sysA sysB left", "2 sysC sysA right", "3 sysB sysD left"]),
}

#: A small valid command line of every subcommand that takes a numeric option.
BASES: dict[str, list[str]] = {
    "eval": ["eval", "qrels.txt", "a.run", "-m", "map", "-m", "P@5"],
    "session": ["session", "qrels.txt", "s.run"],
    "text nuggets": ["text", "nuggets", "nug.txt", "--texts", "auto.tsv", "--auto-match"],
    "demo": ["demo", "--out", "demo", "--topics", "3"],
    "compare": ["compare", "--scores", "ap.csv", "--test", "randomization", "--samples",
                "20", "--seed", "1"],
    "scale image": ["scale", "image", "-m", "AP", "-N", "3", "--no-progress"],
    "scale transform": ["scale", "transform", "qrels.txt", "a.run", "-m", "AP", "-N", "3",
                        "--no-progress"],
    "scale table": ["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP", "-N", "3",
                    "--no-progress"],
    "meta correlate": ["meta", "correlate", "--scores", "ap.csv", "--scores", "p10.csv"],
    "meta drank": ["meta", "drank", "--scores", "p10.csv", "--scores", "gold.csv"],
    "meta discriminative-power": ["meta", "dp", "--scores", "ap.csv", "-B", "20", "--seed",
                                  "1"],
    "meta split": ["meta", "split", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions",
                   "3", "--seed", "1"],
    "meta swap": ["meta", "swap", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions",
                  "3", "--seed", "1"],
    "meta concordance": ["meta", "concordance", "--scores", "ap.csv", "--scores", "p10.csv",
                         "--scores", "gold.csv", "--gold", "gold"],
    "meta loo": ["meta", "loo", *RUNS, "-m", "map", "--depth", "3"],
    "meta pool-bias": ["meta", "pool-bias", "qrels.txt", "a.run", "b.run", "--new", "c.run",
                       "-m", "map", "--depth", "3"],
    "meta gstudy": ["meta", "gstudy", "--scores", "ap.csv"],
    "meta qpp": ["meta", "qpp", "--predictions", "pred.csv", "--observed", "obs.csv"],
    "meta informativeness": ["meta", "informativeness", *RUNS, "-m", "AP"],
    "meta predict": ["meta", "predict", "--scores", "ap.csv", "--preferences", "prefs.txt"],
    "meta reproduce": ["meta", "reproduce", *RUNS, "-m", "map", "--original",
                       "teamA_r1,teamB_r1", "--reproduced", "teamC_r2,teamB_r1"],
    "meta scales": ["meta", "scales", *RUNS, "-m", "P", "-m", "AP", "--cutoffs", "3"],
    "meta judge-noise": ["meta", "judge-noise", "binary.txt", "a.run", "b.run", "c.run", "-m",
                         "map", "--flip-rate", "0.1", "--replicates", "3", "--seed", "1"],
    "meta simulate": ["meta", "simulate", "--model", "normal", "--topics", "8",
                      "--repetitions", "5", "--seed", "1"],
    "pool build": ["pool", "build", "a.run", "b.run", "c.run", "--strategy", "depth",
                   "--depth", "2"],
    "pool simulate": ["pool", "simulate", *RUNS, "--strategy", "depth,mm-ns", "--budget",
                      "2,4", "--seed", "1"],
    "pool shards": ["pool", "shards", *RUNS, "--shards", "2", "--seed", "1", "--empty",
                    "zero"],
    "pool sample": ["pool", "sample", "a.run", "b.run", "c.run", "--size", "3", "--seed",
                    "1"],
    "pool estimate": ["pool", "estimate", "sampled.txt", "a.run", "b.run", "c.run"],
    "eval-seeds": ["eval-seeds", "qrels.txt", "--system", "A=a.run,b.run", "-m", "map"],
    "pool bounds": ["pool", "bounds", "qrels.txt", "a.run", "b.run", "-m", "P.3"],
    "labels aggregate": ["labels", "aggregate", "crowd.txt", "--method", "mace", "--seed",
                         "1", "--n-iter", "5"],
    "labels agree": ["labels", "agree", "crowd.txt"],
    "labels allocate": ["labels", "allocate", "crowd.txt", "--seed", "1"],
    "labels agree-qrels": ["labels", "agree-qrels", "qrels.txt", "qrels.txt", "a.run",
                           "b.run", "c.run"],
    "labels auto": AUTO,
    "labels pairwise": ["labels", "pairwise", "pairs.txt"],
    "labels aware": ["labels", "aware", "crowd.txt", "a.run", "b.run", "c.run", "-m", "map"],
    "online interleave": ["online", "interleave", "a.run", "b.run", "--clicks", "perfect",
                          "--qrels", "qrels.txt", "--impressions", "5", "--seed", "1",
                          "--bootstrap", "50"],
    "online score": ["online", "score", "score.log", "--seed", "1", "--bootstrap", "50"],
    "online fairpairs": ["online", "fairpairs", "a.run", "--clicks", "perfect", "--qrels",
                         "qrels.txt", "--impressions", "5", "--seed", "1"],
    "online ab measures": ["online", "ab", "measures", "ab.log", "--users", "su.txt",
                           "--salt", "s"],
    "online ab analyze": ["online", "ab", "analyze", "t.csv", "--metric", "clicks"],
    "online ab size": ["online", "ab", "size", "--min-diff", "0.1", "--sd", "1"],
    "online ab summary": ["online", "ab", "summary", "t.csv"],
    "online fit": ["online", "fit", "train.log", "--model", "dbn", "--iterations", "5"],
    "online calibrate": ["online", "calibrate", "calib.log", "-m", "MP"],
    "online loglik": ["online", "loglik", "train.log", "--model", "dbn", "--test",
                      "test.log", "--iterations", "5"],
    "online simulate-clicks": ["online", "simulate-clicks", "qrels.txt", "a.run",
                               "--sessions", "3", "--seed", "1"],
    "online measures": ["online", "measures", "qrels.txt", "a.run", "b.run", "--params",
                        "pbm.json"],
    "online qrels": ["online", "qrels", "train.log"],
    "online prefs": ["online", "prefs", "train.log"],
    "online sensitivity": ["online", "sensitivity", "qrels.txt", "a.run", "b.run",
                           "--impressions", "10,20", "--repetitions", "3", "--seed", "1"],
    "report": ["report", "qrels.txt", "a.run", "b.run", "c.run", "--no-robustness",
               "--format", "markdown"],
    "eval-many": ["eval-many", "qrels.txt", "a.run", "b.run", "-m", "map", "--no-progress"],
    "fuse": ["fuse", "a.run", "b.run", "--method", "wsum", "--weights", "0.5,0.5"],
    "online counterfactual": ["online", "counterfactual", "cf.log", "--run", "a.run",
                              "--logging", "uniform.txt", "--bootstrap", "20", "--seed", "1"],
    "online satisfaction": ["online", "satisfaction", "sat.log", "--labels", "sat-labels.txt",
                            "--seed", "1"],
    "online historical": ["online", "historical", "ilog.txt", "--source", "a.run", "b.run",
                          "--target", "b.run", "c.run"],
}

#: The report with the section on judge noise (binary qrels, for --flip-rate).
NOISE_REPORT = ["report", "binary.txt", "a.run", "b.run", "c.run", "--no-robustness",
                "--format", "markdown", "-m", "map", "--replicates", "3"]

#: Command lines without the options the sweep varies.
RUNS_OF = {"pool simulate": ["pool", "simulate", *RUNS]}

USING_BUDGET = ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns", "--budget", "3",
                "--seed", "1"]

#: Options used only together with others: (command, option) -> the base to add them to.
USING: dict[tuple[str, str], list[str]] = {
    ("fuse", "--k"): ["fuse", "a.run", "b.run", "--method", "rrf"],
    ("fuse", "--phi"): ["fuse", "a.run", "b.run", "--method", "rbc", "--phi", "0.8"],
    ("fuse", "--gamma"): ["fuse", "a.run", "b.run", "--method", "combgmnz", "--gamma", "0.5"],
    ("fuse", "--sigma"): ["fuse", "a.run", "b.run", "--method", "logn-isr"],
    ("fuse", "--segments"): ["fuse", "a.run", "b.run", "--method", "probfuse",
                             "--segments", "3", "--train-qrels", "qrels.txt", "--train-runs",
                             "a.run", "b.run"],
    ("fuse", "--window"): ["fuse", "a.run", "b.run", "--method", "slidefuse", "--window",
                           "2", "--train-qrels", "qrels.txt", "--train-runs", "a.run",
                           "b.run"],
    ("eval", "--batch-size"): [*BASES["eval"], "--per-topic-out", "parts"],
    ("eval-many", "--alpha"): [*BASES["eval-many"], "--ci", "t", "--format", "csv"],
    ("eval-seeds", "--alpha"): [*BASES["eval-seeds"], "--ci", "t"],
    ("scale transform", "--alpha"): [*BASES["scale transform"], "--ci", "t", "--format",
                                     "csv"],
    ("meta reproduce", "--alpha"): [*BASES["meta reproduce"], "--ci", "t"],
    ("meta informativeness", "--alpha"): [*BASES["meta informativeness"], "--ci", "t"],
    **{(command, option): [*BASES[command], "--ci", "bootstrap", *extra]
       for command, extra in (("scale transform", ["--format", "csv"]),
                              ("meta reproduce", []), ("meta informativeness", []))
       for option in ("--ci-samples", "--ci-seed")},
    ("eval", "--alpha"): ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--format",
                          "latex", "--baseline", "teamA_r1"],
    ("session", "--click-gain"): [*BASES["session"], "-m", "U", "--labels",
                                  "doclen=len.txt", "--clicks", "c.log"],
    ("compare", "--risk-alpha"): ["compare", "--scores", "ap.csv", "--baseline", "sysA"],
    # the level of the evaluation of QRELS RUN... (--scores has no qrels)
    ("compare", "--relevance-level"): ["compare", "qrels.txt", "a.run", "b.run", "-m", "map",
                                       "--test", "t"],
    ("scale image", "--intents"): ["scale", "image", "-m", "alpha-nDCG@3", "-N", "2",
                                   "--no-progress"],
    ("meta discriminative-power", "--seeds"): [*BASES["meta discriminative-power"],
                                               "--method", "both"],
    ("pool build", "--budget"): ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns",
                                 "--seed", "1"],
    ("pool build", "--seed"): ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns",
                               "--budget", "3"],
    ("pool build", "--discount"): USING_BUDGET,
    ("pool build", "--p"): ["pool", "build", "a.run", "b.run", "--strategy", "rbp",
                            "--budget", "3"],
    ("pool build", "--k"): ["pool", "build", "a.run", "b.run", "--strategy", "rrf",
                            "--budget", "3"],
    ("pool simulate", "--p"): [*RUNS_OF["pool simulate"], "--strategy", "rbp", "--budget",
                               "2"],
    ("pool simulate", "--k"): [*RUNS_OF["pool simulate"], "--strategy", "rrf", "--budget",
                               "2"],
    ("pool build", "--relevance-level"): [*USING_BUDGET, "--qrels", "qrels.txt"],
    **{("labels auto", option): ["labels", "auto", "ap.txt", *AUTO[3:],
                                 "--label-probabilities"] for option in ("--draws", "--seed")},
    ("meta correlate", "--p"): [*BASES["meta correlate"], "--method", "rbo"],
    ("meta correlate", "--seed"): [*BASES["meta correlate"], "-B", "20"],
    ("meta split", "--samples"): [*BASES["meta split"], "--models", "bootstrap"],
    ("meta swap", "--alpha"): [*BASES["meta swap"], "--test", "t"],
    ("meta gstudy", "--facet-levels"): ["meta", "gstudy", "--facet-scores", "facet.csv"],
    ("meta qpp", "--alpha"): [*BASES["meta qpp"], "--tukey"],
    ("meta swap", "--samples"): [*BASES["meta swap"], "--test", "bootstrap"],
    ("meta swap", "--bin-width"): [*BASES["meta swap"], "--by-bin"],
    ("labels aware", "--random"): [*BASES["labels aware"], "--weights", "msd"],
    ("labels pairwise", "--regularization"): [*BASES["labels pairwise"], "--method",
                                              "noisybt"],
    ("labels aware", "--seed"): [*BASES["labels aware"], "--weights", "msd"],
    ("labels aware", "--digits"): [*BASES["labels aware"], "--format", "text"],
    ("online interleave", "--click-prob"): [
        "online", "interleave", "a.run", "b.run", "--clicks", "random", "--impressions",
        "5", "--seed", "1", "--bootstrap", "50"],
    ("online fairpairs", "--click-prob"): ["online", "fairpairs", "a.run", "--clicks",
                                           "random", "--impressions", "5", "--seed", "1"],
    ("online interleave", "--tau"): [*BASES["online interleave"], "--method",
                                     "probabilistic"],
    ("online ab measures", "--session-gap"): ["online", "ab", "measures", "ab.log",
                                              "--users", "sut.txt", "--salt", "s"],
    ("labels allocate", "--seed"): ["labels", "allocate", "crowd.txt"],
    ("labels aggregate", "--length-scale"): GP,
    ("online qrels", "--iterations"): ["online", "qrels", "train.log", "--model", "dbn"],
    ("online qrels", "--tol"): ["online", "qrels", "train.log", "--model", "dbn"],
    ("online score", "--tau"): ["online", "score", "prob.log", "--method", "probabilistic",
                                "--runs", "a.run", "b.run", "--seed", "1", "--bootstrap",
                                "50"],
    ("online simulate-clicks", "--gamma"): [*BASES["online simulate-clicks"], "--user",
                                            "informational"],
    ("online counterfactual", "--switch-tau"): [*BASES["online counterfactual"],
                                                "--estimator", "switch-dr"],
    ("report", "--samples"): [*BASES["report"], "--dp"],
    ("report", "--seed"): [*BASES["report"], "--dp"],
    ("report", "--scale-depth"): BASES["report"][:-3],
    ("report", "--flip-rate"): [*NOISE_REPORT, "--flip-rate", "0.1"],
    ("report", "--replicates"): [*NOISE_REPORT, "--flip-rate", "0.1"],
    ("meta simulate", "--samples"): [*BASES["meta simulate"], "--test", "randomization"],
    ("meta simulate", "--qualities"): ["meta", "simulate", "--model", "runs", "qrels.txt",
                                       "-m", "map", "--repetitions", "3", "--seed", "1"],
}

#: A value each option takes in a valid call (an option without one: the base command line
#: alone must succeed).
USUAL: dict[str, str] = {
    "--alpha": "0.05", "--risk-alpha": "1", "--seed": "1", "--seeds": "2", "--samples": "20",
    "--workers": "1", "--digits": "3", "--length": "3", "--levels": "2", "--recall-base": "1",
    "--intents": "2", "--values-limit": "10", "--shards": "2", "--cutoffs": "3",
    "--sizes": "2,3", "--repetitions": "3", "--bin-width": "0.1", "--depth": "2",
    "--table-cutoff": "3", "--topics": "5", "--systems": "2", "--effects": "0,0.1",
    "--budget": "2", "--size": "3", "--impressions": "5", "--bootstrap": "50",
    "--iterations": "5", "--sessions": "3", "--serp-size": "3", "--n-iter": "5",
    "--random": "3", "--scale-depth": "3", "--target": "0.9", "--significance": "0.05",
    "--min-diff": "0.1", "--sd": "1", "--power": "0.8", "--batch-size": "1",
    "--num-docs-in-coll": "100", "--max-retrieved": "3", "--compat": "9", "-k": "3",
    "--p": "0.5", "--k": "10", "--discount": "0.5", "--tau": "2", "--click-prob": "0.5",
    "--gamma": "0.5", "--tol": "1e-3", "--switch-tau": "2", "--smoothing": "1",
    "--l2": "1", "--folds": "3",
    "--threshold": "0.5",
    "--click-gain": "0.5", "--topic-sd": "0.1", "--error-sd": "0.1", "--qualities": "0.5,1",
    "--relevance-level": "1", "--level-for-rel": "1", "--facet-levels": "2",
    "--bins": "0,0.1,1", "--length-scale": "1",
}

#: Words that are NaN or infinity where a number is printed.
NOT_A_NUMBER = re.compile(r"(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)


def numeric(action: argparse.Action) -> bool:
    """Whether ``action`` is an option whose value is a number or a list of numbers."""
    if not action.option_strings:
        return False
    if isinstance(action, ListAction):
        return action.kind in ("int", "float")
    return action.type in (int, float)


def numeric_options() -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """``(command, option, spellings)`` of every numeric option: the command without
    ``irscale`` (``"online ab size"``), the option's longest spelling and all of them."""
    for prog, parser in parsers(build_parser()):
        for action in parser._actions:
            if numeric(action):
                yield (prog.removeprefix("irscale").strip(),
                       max(action.option_strings, key=len), tuple(action.option_strings))


OPTIONS = sorted(set(numeric_options()))
SPELLINGS = {(command, option): spelt for command, option, spelt in OPTIONS}


def command_line(command: str, option: str, value: str) -> list[str]:
    """The base of ``option`` with the option (however spelt there) set to ``value``."""
    argv = list(USING.get((command, option), BASES[command]))
    for spelling in SPELLINGS[command, option]:
        if spelling in argv:
            at = argv.index(spelling)
            del argv[at:at + 2]
    return [*argv, option, value]


def assert_no_bug(result: Result, garbage: set[str]) -> None:
    """A success (no NaN or infinity printed but those of the valid call, ``garbage``) or
    a refusal of one ``irscale:`` line with status 2; never status 3, a traceback or a
    warning that is not irscale's (conftest)."""
    assert result.status in (0, 2), f"exit status {result.status}" + result.describe()
    if result.status == 2:
        error_line(result)
        return
    assert_ok(result)
    found = set(NOT_A_NUMBER.findall(result.out)) - garbage
    assert not found, f"prints {sorted(found)}" + result.describe()


def test_every_command_has_a_base():
    """A subcommand that gains a numeric option gets a base command line here."""
    missing = sorted({command for command, _, _ in OPTIONS} - BASES.keys())
    assert not missing, f"no base command line for {missing}"
    assert len(OPTIONS) > 100, len(OPTIONS)


@pytest.fixture
def sweep_ws(ws):
    for name, data in FILES.items():
        ws.write(name, data)
    return ws


@pytest.mark.parametrize(("command", "option"), [
    pytest.param(command, option, id=f"{command} {option}") for command, option, _ in OPTIONS])
def test_numeric_option(command, option, sweep_ws, run_cli):
    """``option`` of ``command`` set to each of :data:`VALUES`, from a valid call that its
    usual value passes; every failing value is listed."""
    usual = USUAL.get(option)
    reference = run_cli(command_line(command, option, usual)) if usual else \
        run_cli(USING.get((command, option), BASES[command]))
    assert reference.status == 0, "the usual value is refused" + reference.describe()
    garbage = set(NOT_A_NUMBER.findall(reference.out))
    failures = []
    for value in VALUES:
        try:
            assert_no_bug(run_cli(command_line(command, option, value)), garbage)
        except AssertionError as failure:
            failures.append(f"{option} {value}: {failure}")
        for output in ("demo", "parts"):  # what a successful demo or eval wrote
            shutil.rmtree(sweep_ws.root / output, ignore_errors=True)
    assert not failures, "\n".join(failures)

