"""``irscale meta concordance``: the concordance test of candidate measures against
gold-standard ones (Sakai 2014, Fig. 17). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import SIGNIFICANCE
from ..errors import ParameterError
from ..meta.params import GOLD
from .inputs import load_matrix
from .meta_common import add_analysis, measure_names, render
from .outputs import write_text


def add_parser(subparsers) -> None:
    """``meta concordance``: the concordance test."""
    add_analysis(subparsers, "concordance", run_concordance,
                 (GOLD, {"many": True, "required": True}), SIGNIFICANCE, standardise=True,
                 help="concordance test (Sakai 2014, Fig. 17)")


def run_concordance(args: argparse.Namespace) -> int:
    """``meta concordance``: candidates against the gold measures (Sakai 2014)."""
    from .. import meta

    matrix = load_matrix(args)
    names = [m for m in measure_names(matrix, args) if m not in args.gold]
    missing = [g for g in args.gold if g not in matrix.measures]
    if missing:
        raise ParameterError(f"gold measure(s) {missing} not among {list(matrix.measures)}")
    if len(names) < 2:
        raise ParameterError("give at least two candidate measures besides the gold standard")
    frame = meta.concordance_table(matrix, names, args.gold, alpha=args.alpha)
    return write_text(args, render(frame, args, f"concordance with {'+'.join(args.gold)}"))
