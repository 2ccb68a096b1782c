"""``irscale online sensitivity``: how many impressions interleaving and an A/B test need to
agree with an offline measure (:func:`irscale.online.harness.sensitivity`); usage:
``docs/cli.md``, ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, SIGNIFICANCE
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..online.params import (
    AB_MEASURE,
    EXPERIMENT_IMPRESSIONS,
    EXPERIMENT_REPETITIONS,
    INTERLEAVING,
    SENSITIVITY_IMPRESSIONS,
    SHOWN_LENGTH,
    TARGET,
    TEST_SIGNIFICANCE,
    USERS,
)
from .common_params import QRELS, RUNS
from .inputs import check_click_model
from .options import ListAction, add_format, add_output, add_param, join
from .outputs import declare_inputs
from .runargs import distinct_runs, read_inputs


def add_parser(subparsers) -> None:
    """Register ``irscale online sensitivity``."""
    parser = subparsers.add_parser(
        "sensitivity", help="impressions interleaving and A/B tests need to agree with an "
        "offline measure (simulated users)",
        description="Simulate experiments of users drawn from a click model and report, "
        "for every pair of runs and number of impressions, the share of interleaving and "
        "A/B experiments that agree with the offline measure's preference, and the "
        "impressions needed to reach --target. See docs/online.md.")
    add_param(parser, QRELS, metavar="QRELS", doc="qrels file (TREC format)")
    add_param(parser, RUNS, nargs="+", metavar="RUN", doc="run files (two or more)")
    parser.add_argument("--model", default="navigational",
                        metavar="|".join(USERS) + "|PARAMS.json",
                        help="users: an instantiation from the qrels' grades (Hofmann et "
                        "al. 2011) or a click model's JSON (online fit --format json); "
                        "default navigational")
    parser.add_argument("--impressions", action=ListAction, domain=EXPERIMENT_IMPRESSIONS,
                        api="impressions", item="an impression count", unique=True,
                        default=list(SENSITIVITY_IMPRESSIONS), metavar="N,N,...",
                        help=f"impressions per experiment, increasing (default "
                        f"{join(SENSITIVITY_IMPRESSIONS)})")
    add_param(parser, EXPERIMENT_REPETITIONS)
    add_param(parser, RNG_SEED)
    parser.add_argument("--measure", default="nDCG@10", metavar="NAME",
                        help="offline measure (one name, default nDCG@10)")
    parser.add_argument("--method", action=ListAction, kind="str", domain=INTERLEAVING,
                        unique=True, default=["team-draft"], metavar="M[,M...]",
                        help="interleaving methods, comma-separated: "
                        + ", ".join(INTERLEAVING.names) + " (default team-draft)")
    parser.add_argument("--credit",
                        help="credit rule of probabilistic (marginal|assignment) or "
                        "optimized (inverse|linear)")
    add_param(parser, AB_MEASURE)
    add_param(parser, SHOWN_LENGTH)
    add_param(parser, TARGET)
    add_param(parser, SIGNIFICANCE, doc="the agreement's interval is at level 1 - alpha")
    add_param(parser, TEST_SIGNIFICANCE)
    add_format(parser, TABLE_FORMATS, doc="output format (csv and json: the curves only)")
    add_output(parser, what="table")
    declare_inputs(parser, "qrels", "runs")
    declare_inputs(parser, "--model", keywords=USERS)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``online sensitivity``: the impressions interleaving and an A/B test need to agree
    with an offline measure."""
    from .outputs import write_text

    if len(args.runs) < 2:
        raise ParameterError("online sensitivity compares runs: give two or more")
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, distinct_runs(args.runs))
    model = args.model if args.model in USERS else check_click_model(args.model).build()
    from ..online.harness import sensitivity

    result = sensitivity(qrels, runs, model, impressions=args.impressions,
                         repetitions=args.repetitions, methods=args.method,
                         measure=args.measure, ab_measure=args.ab_measure,
                         length=args.length, credit=args.credit, target=args.target,
                         alpha=args.alpha, significance=args.significance,
                         seed=args.seed)
    return write_text(args, result.format(args.fmt) + "\n")
