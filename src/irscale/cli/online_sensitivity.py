"""``irscale online sensitivity``: :func:`irscale.online.sensitivity` (``docs/online.md``)."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, SIGNIFICANCE
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..online import params
from .common_params import QRELS, RUNS
from .inputs import check_click_model
from .online import add_action, write_result
from .options import add_format, add_output
from .outputs import declare_inputs
from .runargs import distinct_runs, read_inputs


def add_parser(subparsers) -> None:
    """Register ``irscale online sensitivity``."""
    parser = add_action(
        subparsers, "sensitivity", run,
        (QRELS, {"metavar": "QRELS", "doc": "qrels file (TREC format)"}),
        (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (two or more)"}),
        params.SENSITIVITY_MODEL,
        (params.EXPERIMENT_SIZES, {"many": True, "item": "an impression count"}),
        params.EXPERIMENT_REPETITIONS, RNG_SEED, params.OFFLINE_MEASURE,
        (params.SENSITIVITY_METHODS, {"many": True}), params.CREDIT, params.AB_MEASURE,
        params.SHOWN_LENGTH, params.TARGET,
        (SIGNIFICANCE, {"doc": "the agreement's interval is at level 1 - alpha"}),
        params.TEST_SIGNIFICANCE, inputs=("qrels", "runs"),
        help="impressions interleaving and A/B tests need to agree with an offline measure "
        "(simulated users)")
    add_format(parser, TABLE_FORMATS, doc="output format (csv and json: the curves only)")
    add_output(parser, what="table")
    declare_inputs(parser, "--model", keywords=params.USERS)


def run(args: argparse.Namespace) -> int:
    """``online sensitivity``: the impressions interleaving and an A/B test need to agree
    with an offline measure."""
    if len(args.runs) < 2:
        raise ParameterError("online sensitivity compares runs: give two or more")
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, distinct_runs(args.runs))
    model = args.model if args.model in params.USERS else \
        check_click_model(args.model).build()
    from ..online.harness import sensitivity

    return write_result(args, sensitivity(
        qrels, runs, model, impressions=args.impressions, repetitions=args.repetitions,
        methods=args.method, measure=args.measure, ab_measure=args.ab_measure,
        length=args.length, credit=args.credit, target=args.target, alpha=args.alpha,
        significance=args.significance, seed=args.seed))
