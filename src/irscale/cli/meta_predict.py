"""``irscale meta predict``: the predictive power of measures against side-by-side user
preferences (Sanderson et al. 2010). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import Param, Text
from ..meta.params import PREDICT_BINS, PREDICT_THRESHOLD, PREDICT_TIES
from .inputs import load_matrix
from .meta_common import add_analysis, measure_names, render
from .outputs import write_text

#: ``--preferences FILE``: the side-by-side judgments.
PREFERENCES = Param("preferences", Text(), None, "judgments, one 'topic left right "
                    "preference' a line (preference: left, right or tie)", ("--preferences",),
                    "FILE")


def add_parser(subparsers) -> None:
    """``meta predict``: predictive power against side-by-side preferences."""
    add_analysis(
        subparsers, "predict", run_predict, (PREFERENCES, {"required": True}),
        PREDICT_THRESHOLD, (PREDICT_TIES, {"choices": PREDICT_TIES.domain.names}),
        (PREDICT_BINS, {"many": True, "unique": False, "item": "a bin edge"}),
        systems=False, inputs=["--preferences"],
        help="predictive power of measures against side-by-side user preferences "
        "(Sanderson et al. 2010)",
        description="The share of side-by-side preferences each measure predicts, with the "
        "binomial test against chance; see docs/meta.md.")


def run_predict(args: argparse.Namespace) -> int:
    """``meta predict``: predictive power of every measure (Sanderson et al. 2010)."""
    from ..io.side_by_side import check_side_by_side

    checked = check_side_by_side(args.preferences)  # every file before pandas is imported
    matrix = load_matrix(args)
    preferences = checked.build()

    import pandas as pd

    from .. import meta

    results = [meta.predictive_power(preferences, matrix, measure=name,
                                     threshold=args.threshold, ties=args.ties,
                                     bins=args.bins)
               for name in measure_names(matrix, args)]
    overall = pd.concat([r.to_frame() for r in results], ignore_index=True)
    bins = pd.concat([r.by_bin.assign(measure=r.measure) for r in results],
                     ignore_index=True) if args.bins else None
    if bins is not None and args.fmt in ("csv", "json"):  # one table: overall rows, then bins
        return write_text(args, render(pd.concat([overall, bins], ignore_index=True)
                                       .convert_dtypes(), args))
    text = render(overall, args, f"predictive power ({len(preferences)} judgments; measure "
                  f"ties: {args.ties})")
    if bins is not None:
        text += "\n" + render(bins, args, "by |ΔM| bin")
    return write_text(args, text)
