"""``irscale online satisfaction``: a learned satisfaction measure — a classifier of
sessions over their online features trained on labelled sessions, with its
cross-validated accuracy and AUC, applied to click logs
(:func:`irscale.online.fit_satisfaction`); usage: ``docs/cli.md``, ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED
from ..io.formats import TABLE_FORMATS
from ..online.params import SAT_FOLDS, SAT_L2
from .common_params import INPUTS
from .options import add_format, add_output, add_param
from .outputs import declare_inputs, write_text


def add_parser(subparsers) -> None:
    """Register ``online satisfaction``."""
    parser = subparsers.add_parser(
        "satisfaction", help="learned satisfaction: a classifier of sessions over their "
        "clicks and dwell, trained on labelled sessions, cross-validated, applied to logs",
        description="Train an L2-penalised logistic regression of the satisfaction labels "
        "of sessions (--labels) on their online features (clicks, reciprocal rank of the "
        "first click, abandonment; with timestamps, a click dwelt on 30 s or more), report "
        "its coefficients and its stratified cross-validated accuracy and AUC, and with "
        "--apply the mean predicted satisfaction of the sessions of other logs. See "
        "docs/online.md.")
    add_param(parser, INPUTS, nargs=1, metavar="LOG",
              doc="click log holding the labelled sessions (text or Parquet)")
    parser.add_argument("--labels", required=True, metavar="FILE",
                        help="'session label' lines: 1 satisfied, 0 not")
    parser.add_argument("--features", metavar="F1,F2,...",
                        help="features: clicks, clicks@3, abandoned, reciprocal_rank, "
                        "success, dwell, time_to_first_click (default: clicks, "
                        "reciprocal_rank, abandoned, and success with timestamps)")
    parser.add_argument("--apply", nargs="+", metavar="LOG",
                        help="click logs to measure: their mean predicted satisfaction")
    add_param(parser, SAT_L2)
    add_param(parser, SAT_FOLDS)
    add_param(parser, RNG_SEED, doc="seed of the assignment to folds")
    add_format(parser, TABLE_FORMATS)
    add_output(parser)
    declare_inputs(parser, "inputs", "--labels", "--apply")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The model's table, or with ``--apply`` one row per log measured."""
    from ..io.clicklog import read_click_log
    from ..io.user_tables import check_satisfaction_labels

    # the inputs first: a missing or malformed file is reported before pandas and scipy
    # are imported
    log = read_click_log(args.inputs[0])
    checked = check_satisfaction_labels(args.labels)
    applied = [(path, read_click_log(path)) for path in args.apply or ()]
    labels = checked.build()
    import pandas as pd

    from ..online.satisfaction import fit_satisfaction
    from ..stats.protocol import format_table

    features = None if args.features is None else [
        f.strip() for f in args.features.split(",")]
    model = fit_satisfaction(log, labels, features=features, l2=args.l2, folds=args.folds,
                             rng=args.seed)
    if not args.apply:
        return write_text(args, model.format(args.fmt) + "\n")
    rows = []
    for path, other in applied:
        mean, se = model.measure(other)
        rows.append({"log": path, "satisfaction": mean, "se": se,
                     "cv_accuracy": model.cv_accuracy, "cv_auc": model.cv_auc})
    return write_text(args, format_table(pd.DataFrame(rows), args.fmt) + "\n")
