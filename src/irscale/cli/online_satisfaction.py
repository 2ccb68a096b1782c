"""``irscale online satisfaction``: :func:`irscale.online.fit_satisfaction`
(``docs/online.md``)."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, Param, Text
from ..online import params
from .online import CLICK_LOG, add_action, add_table, write_result
from .outputs import write_text

#: ``--apply LOG...``: the click logs measured.
APPLY = Param("apply", Text(), None, "click logs to measure: their mean predicted "
              "satisfaction", ("--apply",), "LOG")


def add_parser(subparsers) -> None:
    """Register ``online satisfaction``."""
    add_action(subparsers, "satisfaction", run,
               (CLICK_LOG, {"doc": "click log holding the labelled sessions (text or "
                            "Parquet)"}),
               (params.SAT_LABELS, {"required": True}),
               (params.SAT_FEATURES, {"many": True}), (APPLY, {"nargs": "+"}), params.SAT_L2,
               params.SAT_FOLDS,
               (RNG_SEED, {"doc": "seed of the assignment to folds"}), add_table,
               inputs=("inputs", "--labels", "--apply"),
               help="learned satisfaction: a classifier of sessions over their clicks and "
               "dwell, trained on labelled sessions, cross-validated, applied to logs")


def run(args: argparse.Namespace) -> int:
    """The model's table, or with ``--apply`` one row per log measured."""
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
        return write_result(args, model)
    import pandas as pd

    from ..stats.protocol import format_table

    rows = []
    for path, other in applied:
        mean, se = model.measure(other)
        rows.append({"log": path, "satisfaction": mean, "se": se,
                     "cv_accuracy": model.cv_accuracy, "cv_auc": model.cv_auc})
    return write_text(args, format_table(pd.DataFrame(rows), args.fmt) + "\n")
