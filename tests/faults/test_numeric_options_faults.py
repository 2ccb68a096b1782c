"""Every numeric option of every subcommand, swept over values at the edges of what a
number can be: none may end in an internal error (exit status 3), a traceback or a numpy
warning, and a value that is accepted must not print NaN or infinity where the valid call
prints a number (``docs/errors.md`` §1–2, §6).

The options are found by walking the real parsers (:func:`irscale.cli.main.build_parser`):
an option whose ``type`` is ``int`` or ``float``, or a comma-separated list of integers or
numbers (:class:`irscale.cli.options.ListAction`), is swept as soon as it is added. Each
subcommand runs from its declared example (:mod:`tests.faults.examples`; :data:`USING`
where an option needs another one to be used at all), with the one option set to each of
:data:`VALUES`; a usual value of the option (:data:`USUAL`) must be accepted, so that the
sweep reaches the code that uses the option instead of a refusal of the combination.
"""

from __future__ import annotations

import argparse
import re
import shutil
from collections.abc import Iterator

import pytest

from irscale.cli.options import ListAction

from ..cli_parsers import irscale_parser, parsers
from .conftest import Result, assert_ok, error_line
from .examples import EXAMPLES, example, varied, what_to_declare
from .examples import sweep_ws as sweep_ws
from .test_labels_faults import AUTO, GP

#: The values every numeric option is given: zero, a negative number, the smallest and
#: largest magnitudes of a double, NaN, infinity, the largest 64-bit integer and an
#: integer beyond 64 bits.
VALUES = ("0", "-1", "1e-300", "1e300", "nan", "inf", str(2**63 - 1), str(10**30))

#: The report with the section on judge noise (its own qrels: binary, for --flip-rate).
NOISE_REPORT = ["report", "binary.txt", "a.run", "b.run", "c.run", "--no-robustness",
                "--format", "markdown", "-m", "map", "--replicates", "3"]

#: The report with the section planning the human labels (h.txt: the pilot).
PLAN_REPORT = ["report", "qrels.txt", "a.run", "b.run", "c.run", "--no-robustness",
               "--format", "markdown", "-m", "P@5", "--plan-pilot", "h.txt", "--plan-width",
               "0.3"]

#: ``pool build`` of two runs under a strategy with a budget (the example pools three by
#: depth).
USING_BUDGET = ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns", "--budget", "3",
                "--seed", "1"]
#: Fusion under another method than the example's (--weights is wsum's).
FUSED = {"--weights": None}
#: The training inputs of the supervised fusion methods.
TRAINED = ("--train-qrels", "qrels.txt", "--train-runs", "a.run", "b.run")

#: Options used only together with others: (command, option) -> the command line to add
#: them to (else the command's declared example). Most vary the example
#: (:func:`~tests.faults.examples.varied`: another choice of the option that makes the
#: option apply); the lines given whole read other inputs than the example (other files,
#: another number of runs, QRELS RUN... instead of --scores), which no variation of its
#: options gives.
USING: dict[tuple[str, str], list[str]] = {
    ("fuse", "--k"): varied("fuse", {"--method": "rrf", **FUSED}),
    ("fuse", "--phi"): varied("fuse", {"--method": "rbc", **FUSED}, "--phi", "0.8"),
    ("fuse", "--gamma"): varied("fuse", {"--method": "combgmnz", **FUSED}, "--gamma", "0.5"),
    ("fuse", "--sigma"): varied("fuse", {"--method": "logn-isr", **FUSED}),
    ("fuse", "--segments"): varied("fuse", {"--method": "probfuse", **FUSED}, "--segments",
                                   "3", *TRAINED),
    ("fuse", "--window"): varied("fuse", {"--method": "slidefuse", **FUSED}, "--window", "2",
                                 *TRAINED),
    ("eval", "--batch-size"): varied("eval", {}, "--per-topic-out", "parts"),
    ("eval-many", "--alpha"): varied("eval-many", {"--ci": "t", "--format": "csv"}),
    ("text nuggets", "--alpha"): ["text", "nuggets", "--assignments", "rag.jsonl",
                                  "--human-sample", "rag-human.jsonl"],
    ("text citations", "--alpha"): ["text", "citations", "cite.jsonl", "--human-sample",
                                    "cite-human.jsonl"],
    ("eval-seeds", "--alpha"): varied("eval-seeds", {"--ci": "t"}),
    ("scale transform", "--alpha"): varied("scale transform", {"--ci": "t",
                                                               "--format": "csv"}),
    ("meta reproduce", "--alpha"): varied("meta reproduce", {"--ci": "t"}),
    ("meta informativeness", "--alpha"): varied("meta informativeness", {"--ci": "t"}),
    **{(command, option): varied(command, {"--ci": "bootstrap", **extra})
       for command, extra in (("scale transform", {"--format": "csv"}),
                              ("meta reproduce", {}), ("meta informativeness", {}))
       for option in ("--ci-samples", "--ci-seed")},
    # two runs: the latex table's tests compare them with the baseline
    ("eval", "--alpha"): ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--format",
                          "latex", "--baseline", "teamA_r1"],
    ("session", "--click-gain"): varied("session", {"-m": "U", "--labels": "doclen=len.txt",
                                                    "--clicks": "c.log"}),
    ("compare", "--risk-alpha"): varied("compare", {"--test": None, "--samples": None,
                                                    "--seed": None, "--baseline": "sysA"}),
    # the level of the evaluation of QRELS RUN... (--scores has no qrels)
    ("compare", "--relevance-level"): ["compare", "qrels.txt", "a.run", "b.run", "-m", "map",
                                       "--test", "t"],
    ("scale image", "--intents"): varied("scale image", {"-m": "alpha-nDCG@3", "-N": "2"}),
    ("meta discriminative-power", "--seeds"): varied("meta discriminative-power",
                                                     {"--method": "both"}),
    ("pool build", "--budget"): ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns",
                                 "--seed", "1"],
    # (pool build: two runs, USING_BUDGET)
    ("pool build", "--seed"): ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns",
                               "--budget", "3"],
    ("pool build", "--discount"): USING_BUDGET,
    ("pool build", "--p"): ["pool", "build", "a.run", "b.run", "--strategy", "rbp",
                            "--budget", "3"],
    ("pool build", "--k"): ["pool", "build", "a.run", "b.run", "--strategy", "rrf",
                            "--budget", "3"],
    ("pool simulate", "--p"): varied("pool simulate", {"--strategy": "rbp", "--budget": "2",
                                                       "--seed": None}),
    ("pool simulate", "--k"): varied("pool simulate", {"--strategy": "rrf", "--budget": "2",
                                                       "--seed": None}),
    ("pool build", "--relevance-level"): [*USING_BUDGET, "--qrels", "qrels.txt"],
    # automatic qrels with their grades' probabilities (ap.txt, not the example's qrels)
    **{("labels auto", option): ["labels", "auto", "ap.txt", *AUTO[3:],
                                 "--label-probabilities"] for option in ("--draws", "--seed")},
    ("meta correlate", "--p"): varied("meta correlate", {"--method": "rbo"}),
    ("meta correlate", "--seed"): varied("meta correlate", {"-B": "20"}),
    ("meta split", "--samples"): varied("meta split", {"--models": "bootstrap"}),
    ("meta swap", "--alpha"): varied("meta swap", {"--test": "t"}),
    ("meta gstudy", "--facet-levels"): varied("meta gstudy", {"--scores": None,
                                                              "--facet-scores": "facet.csv"}),
    ("meta qpp", "--alpha"): varied("meta qpp", {}, "--tukey"),
    ("meta qpp", "--samples"): varied("meta qpp", {}, "--correlations"),
    ("meta qpp", "--seed"): varied("meta qpp", {}, "--correlations", "-B", "20"),
    ("meta reproduce", "--seed"): varied("meta reproduce", {"--effect-samples": "20"}),
    ("meta swap", "--samples"): varied("meta swap", {"--test": "bootstrap"}),
    ("meta swap", "--bin-width"): varied("meta swap", {}, "--by-bin"),
    ("labels aware", "--random"): varied("labels aware", {"--weights": "msd"}),
    ("labels pairwise", "--regularization"): varied("labels pairwise", {"--method": "noisybt"}),
    ("labels aware", "--seed"): varied("labels aware", {"--weights": "msd"}),
    ("labels aware", "--digits"): varied("labels aware", {"--format": "text"}),
    ("online interleave", "--click-prob"): varied("online interleave", {"--clicks": "random",
                                                                        "--qrels": None}),
    ("online fairpairs", "--click-prob"): varied("online fairpairs", {"--clicks": "random",
                                                                      "--qrels": None}),
    ("online interleave", "--tau"): varied("online interleave", {"--method": "probabilistic"}),
    ("online ab measures", "--session-gap"): varied("online ab measures",
                                                    {"--users": "sut.txt"}),
    ("labels allocate", "--seed"): varied("labels allocate", {"--seed": None}),
    # binary crowd labels and their features (gp's inputs)
    ("labels aggregate", "--length-scale"): GP,
    # a method with a stopping rule (the example's mace runs its iterations)
    ("labels aggregate", "--tol"): varied("labels aggregate", {"--method": "ds",
                                                               "--seed": None}),
    ("online qrels", "--iterations"): varied("online qrels", {"--model": "dbn"}),
    ("online qrels", "--tol"): varied("online qrels", {"--model": "dbn"}),
    # a log of probabilistic interleaving and the runs it interleaved
    ("online score", "--tau"): ["online", "score", "prob.log", "--method", "probabilistic",
                                "--runs", "a.run", "b.run", "--seed", "1", "--bootstrap",
                                "50"],
    ("online simulate-clicks", "--gamma"): varied("online simulate-clicks",
                                                  {"--user": "informational"}),
    ("online counterfactual", "--switch-tau"): varied("online counterfactual",
                                                      {"--estimator": "switch-dr"}),
    ("online counterfactual", "--shrinkage"): varied("online counterfactual",
                                                     {"--estimator": "dr-os"}),
    ("report", "--samples"): varied("report", {}, "--dp"),
    ("report", "--seed"): varied("report", {}, "--dp"),
    ("report", "--scale-depth"): varied("report", {"--no-robustness": None, "--format": None}),
    ("report", "--flip-rate"): [*NOISE_REPORT, "--flip-rate", "0.1"],
    ("report", "--replicates"): [*NOISE_REPORT, "--flip-rate", "0.1"],
    ("report", "--plan-width"): PLAN_REPORT,
    ("report", "--plan-uniform-share"): PLAN_REPORT,
    ("meta simulate", "--samples"): varied("meta simulate", {"--test": "randomization"}),
    # another model, of a QRELS input
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
    "--gamma": "0.5", "--tol": "1e-3", "--switch-tau": "2", "--shrinkage": "1",
    "--smoothing": "1", "--plan-width": "0.3", "--plan-uniform-share": "0.5",
    "--l2": "1", "--folds": "3",
    "--threshold": "0.5",
    "--click-gain": "0.5", "--topic-sd": "0.1", "--error-sd": "0.1", "--qualities": "0.5,1",
    "--relevance-level": "1", "--level-for-rel": "1", "--facet-levels": "2",
    "--bins": "0,0.1,1", "--length-scale": "1", "--segments": "2", "--window": "2",
}

#: Words that are NaN or infinity where a number is printed.
NOT_A_NUMBER = re.compile(r"(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)


def numeric(action: argparse.Action) -> bool:
    """Whether ``action`` is an option whose value is a number or a list of numbers."""
    if not action.option_strings:
        return False
    if isinstance(action, ListAction):
        return action.kind in ("int", "float")
    # a domain of numbers read as text (meta simulate --topics N or N,N,...) says so
    return action.type in (int, float) or getattr(getattr(action, "domain", None), "numeric",
                                                  False)


def numeric_options(parser: argparse.ArgumentParser
                    ) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """``(command, option, spellings)`` of every numeric option of ``parser``: the command
    without ``irscale`` (``"online ab size"``), the option's longest spelling and all of
    them."""
    for prog, command in parsers(parser):
        for action in command._actions:
            if numeric(action):
                yield (prog.removeprefix("irscale").strip(),
                       max(action.option_strings, key=len), tuple(action.option_strings))


OPTIONS = sorted(set(numeric_options(irscale_parser())))
SPELLINGS = {(command, option): spelt for command, option, spelt in OPTIONS}


def base(command: str, option: str) -> list[str]:
    """The valid command line ``option`` is added to: :data:`USING`, else the command's
    declared example; a command that declares none is skipped
    (``tests/faults/test_command_examples.py`` fails, naming it)."""
    if (command, option) not in USING and command not in EXAMPLES:
        pytest.skip(what_to_declare(command))
    return list(USING.get((command, option)) or example(command))


def command_line(command: str, option: str, value: str) -> list[str]:
    """The command line of ``option`` (:func:`base`) with the option (however spelt
    there) set to ``value``."""
    argv = base(command, option)
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


def test_the_sweep_covers_the_numeric_options():
    """The options found by walking the parsers (a subcommand without an example is named
    by ``tests/faults/test_command_examples.py``)."""
    assert len(OPTIONS) > 100, len(OPTIONS)


@pytest.mark.parametrize(("command", "option"), [
    pytest.param(command, option, id=f"{command} {option}") for command, option, _ in OPTIONS])
def test_numeric_option(command, option, sweep_ws, run_cli):
    """``option`` of ``command`` set to each of :data:`VALUES`, from a valid call that its
    usual value passes; every failing value is listed."""
    usual = USUAL.get(option)
    reference = run_cli(command_line(command, option, usual) if usual else
                        base(command, option))
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

