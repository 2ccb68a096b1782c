"""``irscale meta informativeness``: the informativeness of measures by the maximum entropy
method (Aslam, Yilmaz & Pavlu 2005). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..errors import ParameterError
from ..meta.params import INFORMATIVENESS_DEPTH, INFORMATIVENESS_MEASURES
from .inputs import diversity_inputs, qrels_and_runs
from .meta_common import add_common, check, render
from .options import add_param, wants_progress
from .outputs import write_text
from .rules import Default, add_rules
from .runargs import read_inputs


def add_parser(subparsers) -> None:
    """``meta informativeness``: the maximum entropy method of Aslam, Yilmaz & Pavlu."""
    p = subparsers.add_parser(
        "informativeness", help="informativeness of measures by the maximum entropy method (Aslam, "
        "Yilmaz & Pavlu 2005)",
        description="For every run and topic, the RMS error of the precision-recall curve inferred "
        "by maximum entropy from the value of each measure (AP, R-prec, P@k); the mean per measure "
        "(lower: more informative) (irscale.meta.informativeness; docs/meta.md).")
    add_common(p, scores=False, systems=False, measure_help="AP, R-prec or P@k (repeatable; "
               "default: " + ", ".join(INFORMATIVENESS_MEASURES) + ")")
    add_param(p, INFORMATIVENESS_DEPTH)
    p.add_argument("--per-list", action="store_true",
                   help="print every run and topic (default: the mean per measure)")
    add_rules(p, Default("measures", lambda args: list(INFORMATIVENESS_MEASURES)))
    p.set_defaults(func=run_informativeness)


def run_informativeness(args: argparse.Namespace) -> int:
    """``meta informativeness``: Aslam, Yilmaz & Pavlu (2005) on QRELS RUN..."""
    check(args, min_runs=1)

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
    return write_text(args, result.format(args.fmt, digits=args.digits))
