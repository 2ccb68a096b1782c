"""``irscale meta informativeness``: the informativeness of measures by the maximum entropy
method (Aslam, Yilmaz & Pavlu 2005). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import Param, Switch
from ..errors import ParameterError
from ..meta.params import INFORMATIVENESS_DEPTH, INFORMATIVENESS_MEASURES
from .inputs import diversity_inputs, qrels_and_runs
from .intervals import add_interval_options, interval_arguments
from .meta_common import add_analysis, render
from .options import wants_progress
from .outputs import write_text
from .rules import Default, Rule
from .runargs import read_inputs

#: ``--per-list``: every run and topic, not the means.
PER_LIST = Param("per_list", Switch(), False, "print every run and topic (default: the mean "
                 "per measure)", ("--per-list",))


def add_parser(subparsers) -> None:
    """``meta informativeness``: the maximum entropy method of Aslam, Yilmaz & Pavlu."""
    add_analysis(
        subparsers, "informativeness", run_informativeness, INFORMATIVENESS_DEPTH, PER_LIST,
        lambda p: add_interval_options(p, "each measure's mean RMS error", alpha=True,
                                       how="over the lists (runs × topics): t (Student) or "
                                       "bootstrap (percentile, lists resampled)"),
        min_runs=1, scores=False, systems=False, measure_help="AP, R-prec or P@k "
        "(repeatable; default: " + ", ".join(INFORMATIVENESS_MEASURES) + ")",
        help="informativeness of measures by the maximum entropy method (Aslam, Yilmaz & "
        "Pavlu 2005)",
        description="The RMS error of the precision-recall curve inferred by maximum entropy "
        "from each measure, per run and topic, and its mean per measure; see docs/meta.md.",
        rules=[Default("measures", lambda args: list(INFORMATIVENESS_MEASURES)),
               Rule(("ci",), lambda args: not args.per_list, "--ci gives the means their "
                    "intervals: not with --per-list (every list's error, no mean)")])


def run_informativeness(args: argparse.Namespace) -> int:
    """``meta informativeness``: Aslam, Yilmaz & Pavlu (2005) on QRELS RUN..."""
    from .. import meta

    if diversity_inputs(args):
        raise ParameterError("informativeness infers precision-recall curves of ranked "
                             "lists judged for relevance: not of diversity qrels")
    qrels, runs = read_inputs(*qrels_and_runs(args))  # before pandas is imported
    lists, bases = meta.judged_lists(qrels, runs, depth=args.depth)
    result = meta.informativeness(lists, measures=args.measures, recall_base=bases,
                                  progress=wants_progress(args))
    if args.per_list:
        return write_text(args, render(result.to_frame(), args, repr(result)))
    return write_text(args, result.format(args.fmt, digits=args.digits, interval=args.ci,
                                          alpha=args.alpha, **interval_arguments(args)))
