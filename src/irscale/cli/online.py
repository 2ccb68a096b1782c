"""``irscale online`` (docs/online.md): the runner of its actions, what they share, and the
actions declared here; the others are declared in modules ``online_<name>``."""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Callable
from typing import Any

from ..core.extras import PARQUET_INPUT
from ..core.params import LOG_SERP, RNG_SEED, SIGNIFICANCE, InputFiles, Param
from ..errors import InputError, ParameterError
from ..io.formats import TABLE_FORMATS
from ..online import params
from .common_params import QRELS, QRELS_OPTION, RUNS
from .inputs import check_click_model
from .main import SUBCOMMANDS
from .options import (
    Argument,
    add_command,
    add_format,
    add_output,
    add_param,
    declare,
    described,
)
from .rules import given
from .runargs import add_names, named_runs, read_inputs

DOCS = "docs/online.md"
#: ``LOG``: the click log an action reads.
CLICK_LOG = Param("inputs", InputFiles(), None, "click log (text or Parquet)", ("inputs",), "LOG",
                  requires=(PARQUET_INPUT,))
#: The options of the fit of a click model (EM's apply to the models fitted by EM:
#: :data:`irscale.online.params.FIT`).
FITTING = (LOG_SERP, params.FIT_ITERATIONS, params.FIT_TOL, params.FIT_SMOOTHING)
#: ``online satisfaction --apply LOG...``: the click logs measured.
APPLY = Param("apply", InputFiles(), None, "click logs to measure: their mean predicted "
              "satisfaction", ("--apply",), "LOG", requires=(PARQUET_INPUT,))


def add_actions(subparsers: Any, name: str, help: str) -> Any:
    """The command ``name`` (``online``, ``online ab``) whose actions are registered on the
    sub-parsers returned; without an action, it names them."""
    parser = subparsers.add_parser(name, help=help, description=described(help, DOCS))
    actions = parser.add_subparsers(dest=f"{name}_command", metavar="ACTION")
    parser.set_defaults(func=functools.partial(_no_action, parser.prog, actions.choices))
    return actions


def _no_action(prog: str, names: dict, args: argparse.Namespace) -> int:
    raise ParameterError(f"{prog.removeprefix('irscale ')}: choose an action: "
                         f"{', '.join(names)} (see '{prog} --help')")


def add_action(actions: Any, name: str, run: Callable[[argparse.Namespace], Any],
               *arguments: Argument, help: str, **declared: Any) -> argparse.ArgumentParser | None:
    """The action ``name`` (:func:`irscale.cli.options.add_command`), described by its help
    and docs/online.md. ``run`` returns the text to write to ``-o``, or a result written in
    ``--format`` (its ``format(fmt)``: :func:`irscale.cli.outputs.write_outputs`)."""
    return add_command(actions, name, run, *arguments,
                       help=help, description=described(help, DOCS), **declared)


#: An action declared (:func:`irscale.cli.options.declare`) for :func:`add_action`.
action = functools.partial(declare, add_action)


def one_of(*params: Param, required: bool = False) -> Callable[[argparse.ArgumentParser],
                                                                 None]:
    """A builder of the options of ``params``, which exclude each other."""
    def build(parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group(required=required)
        for param in params:
            add_param(group, param)
    return build


def add_table(parser: argparse.ArgumentParser) -> None:
    """``--format`` (a table's) and ``-o``."""
    add_format(parser, TABLE_FORMATS)
    add_output(parser)


def read_log(args: argparse.Namespace):
    """The click log ``LOG`` of ``--serp-size`` (read before pandas is imported)."""
    from ..io.clicklog import read_click_log

    return read_click_log(args.inputs, serp_size=args.serp_size)


def run_calibrate(args: argparse.Namespace) -> str:
    """``online calibrate``: ``parameter<TAB>value`` lines, then ``measure<TAB>NAME``."""
    from ..io.sources import as_qrels

    # the files first: a malformed one is reported before pandas and the models are imported
    log = read_log(args)
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    from ..online.user_models import calibrate

    fit = calibrate(log, args.measure, qrels=qrels, click_model=args.click_model,
                    smoothing=args.smoothing, serp_size=args.serp_size)
    lines = [f"{name}\t{value!r}" for name, value in fit.parameters]
    return "\n".join([*lines, f"measure\t{fit.measure}"]) + "\n"


def run_qrels(args: argparse.Namespace) -> str:
    """``online qrels``: qrels from the click model fitted on the log."""
    log = read_log(args)
    from ..online.click_labels import click_qrels

    fitting = {name: getattr(args, name) for name in ("smoothing", "iterations", "tol")
               if given(args, name)}  # (the others: fit_click_model's defaults)
    inferred = click_qrels(log, args.model, score=args.score, thresholds=args.thresholds,
                           min_sessions=args.min_sessions, **fitting)
    if inferred.table.empty:
        raise InputError(f"no (query, document) pair is shown in --min-sessions "
                         f"{args.min_sessions} sessions: no qrels to write", source=args.inputs)
    return inferred.to_trec()


def run_prefs(args: argparse.Namespace) -> str:
    """``online prefs``: the preferences of the log by the rule."""
    log = read_log(args)
    from ..online.click_labels import click_preferences

    found = click_preferences(log, args.rule, min_sessions=args.min_sessions)
    if found.table.empty:
        raise InputError(f"rule {args.rule} finds no preference kept (--min-sessions "
                         f"{args.min_sessions}): no judgment to write (trec_eval's -R prefs "
                         "reads none from an empty file)", source=args.inputs)
    return found.to_prefs()


def run_sensitivity(args: argparse.Namespace) -> Any:
    """``online sensitivity``: the impressions interleaving and an A/B test need to agree
    with an offline measure."""
    if len(args.runs) < 2:
        raise ParameterError("online sensitivity compares runs: give two or more")
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, named_runs(args.runs, args.names))
    model = args.model if args.model in params.USERS else \
        check_click_model(args.model).build()
    from ..online.harness import sensitivity

    return sensitivity(
        qrels, runs, model, impressions=args.impressions, repetitions=args.repetitions,
        methods=args.method, measure=args.measure, ab_measure=args.ab_measure,
        length=args.length, credit=args.credit, target=args.target, alpha=args.alpha,
        significance=args.significance, seed=args.seed)


def run_satisfaction(args: argparse.Namespace) -> Any:
    """``online satisfaction``: the model's table, or with ``--apply`` one row per log."""
    from ..io.clicklog import read_click_log
    from ..io.user_tables import check_satisfaction_labels

    # the inputs first: a missing or malformed file is reported before pandas and scipy
    # are imported
    log = read_click_log(args.inputs)
    checked = check_satisfaction_labels(args.labels)
    applied = [(path, read_click_log(path)) for path in args.apply or ()]
    labels = checked.build()
    from ..online.satisfaction import fit_satisfaction

    model = fit_satisfaction(log, labels, features=args.features, l2=args.l2,
                             folds=args.folds, rng=args.seed)
    if not args.apply:
        return model
    import pandas as pd

    from ..stats.protocol import format_table

    rows = []
    for path, other in applied:
        mean, se = model.measure(other)
        rows.append({"log": path, "satisfaction": mean, "se": se,
                     "cv_accuracy": model.cv_accuracy, "cv_auc": model.cv_auc})
    return format_table(pd.DataFrame(rows), args.fmt) + "\n"


#: The actions of ``irscale online`` in the order of ``--help``: declared here, or (None) by
#: ``add_parser`` of the module ``online_<name>``, with the actions declared beside it.
ACTIONS = {
    "interleave": None, "ab": None, "clicks": None,
    "calibrate": action(
        run_calibrate, CLICK_LOG, (params.CALIBRATED, {"required": True}),
        (QRELS_OPTION, {"metavar": "QRELS",
                        "doc": "-m ERR: the degrees of the logged documents (TREC format)"}),
        params.ERR_CLICK_MODEL,
        (params.FIT_SMOOTHING, {"doc": "-m ERR: pseudo-trials at 0.5 per parameter of the "
                                "click model; -m MP: pseudo-moves out of every rank, spread "
                                "evenly (0: maximum likelihood)"}),
        LOG_SERP, functools.partial(add_output, what="parameters"), binding=params.CALIBRATE,
        example="calib.log -m MP",
        help="fit RBP's persistence, ERR's stopping probabilities or Markov precision's "
        "chain on a click log, and print the measure name for irscale eval -m"),
    "qrels": action(
        run_qrels, CLICK_LOG, (params.CLICK_MODEL, {"default": "sdbn"}), *FITTING,
        params.CLICK_QRELS_SCORE, params.CLICK_THRESHOLDS,
        params.MIN_SESSIONS, functools.partial(add_output, what="qrels"),
        example="train.log",
        binding=params.CLICK_QRELS, help="TREC qrels graded by thresholds on the attractiveness, "
        "satisfaction or relevance of a click model fitted on a click log"),
    "prefs": action(
        run_prefs, (CLICK_LOG, {"doc": "click log (text or Parquet; last-skip-above and "
                                "earlier-click need its timestamps)"}),
        params.PREFERENCE_RULE, params.MIN_SESSIONS, LOG_SERP,
        functools.partial(add_output, what="preferences"),
        example="train.log", binding=params.CLICK_PREFERENCES,
        help="preferences of a click log by a rule of Joachims et al. (2005, 2007), as "
        "trec_eval -R prefs judgments"),
    "sensitivity": action(
        run_sensitivity, (QRELS, {"metavar": "QRELS", "doc": "qrels file (TREC format)"}),
        (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (two or more)"}),
        add_names, params.SENSITIVITY_MODEL,
        params.EXPERIMENT_SIZES, params.EXPERIMENT_REPETITIONS, RNG_SEED,
        params.OFFLINE_MEASURE, params.SENSITIVITY_METHODS, params.CREDIT, params.AB_MEASURE,
        params.SHOWN_LENGTH, params.TARGET,
        (SIGNIFICANCE, {"doc": "the agreement's interval is at level 1 - alpha"}),
        params.TEST_SIGNIFICANCE,
        lambda p: add_format(p, TABLE_FORMATS, doc="output format (csv and json: the curves "
                             "only)"),
        functools.partial(add_output, what="table"),
        example="qrels.txt a.run b.run --impressions 10,20 --repetitions 3 --seed 1",
        binding=params.SENSITIVITY,
        help="impressions interleaving and A/B tests need to agree "
        "with an offline measure (simulated users)"),
    "counterfactual": None,
    "satisfaction": action(
        run_satisfaction, (CLICK_LOG, {"doc": "click log holding the labelled sessions (text "
                                       "or Parquet)"}),
        (params.SAT_LABELS, {"required": True}), (params.SAT_FEATURES, {"many": True}),
        (APPLY, {"nargs": "+"}), params.SAT_L2, params.SAT_FOLDS,
        (RNG_SEED, {"doc": "seed of the assignment to folds"}), add_table,
        example="sat.log --labels sat-labels.txt --seed 1", binding=params.SATISFACTION,
        help="learned satisfaction: a classifier of sessions over their clicks and dwell, "
        "trained on labelled sessions, cross-validated, applied to logs"),
}


def add_parser(subparsers) -> None:
    """Register ``irscale online`` and its actions."""
    actions = add_actions(subparsers, "online", SUBCOMMANDS["online"])
    for name, declared in ACTIONS.items():
        if declared is None:
            importlib.import_module(f".online_{name}", __package__).add_parser(actions)
        else:
            declared(actions, name)
