"""``irscale meta drank``: Carterette's (2009) d_rank of two measures, both ways, beside
Kendall's τ. Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..errors import ParameterError
from ..meta.params import RIDGE
from .inputs import load_matrix
from .meta_common import add_analysis, measure_names, render
from .outputs import write_text


def add_parser(subparsers) -> None:
    """``meta drank``: Carterette's d_rank between two measures, beside Kendall's τ."""
    add_analysis(subparsers, "drank", run_drank, RIDGE, standardise=True,
                 help="d_rank of two measures (Carterette 2009), beside Kendall's tau")


def run_drank(args: argparse.Namespace) -> int:
    """``meta drank``: d_rank(A | B), d_rank(B | A), their mean and Kendall's τ."""
    matrix = load_matrix(args)  # (the inputs read before the analysis is imported)

    import pandas as pd

    from .. import meta

    names = measure_names(matrix, args)
    if len(names) != 2:
        raise ParameterError(f"name two measures for d_rank (have {names})")
    a, b = names
    forward = meta.d_rank(matrix, measure_a=a, measure_b=b, ridge=args.ridge)
    backward = meta.d_rank(matrix, measure_a=b, measure_b=a, ridge=args.ridge)
    frame = pd.DataFrame([{
        "measures": f"{a} vs {b}", "kendall": float(meta.overall_correlation(
            matrix, measure_a=a, measure_b=b)),
        "d_rank(A|B)": forward.d, "d_rank(B|A)": backward.d,
        "d_rank_sym": (forward.d + backward.d) / 2, "systems": len(forward.ranking),
        "topics": forward.n_topics, "ridge": args.ridge}])
    return write_text(args, render(frame, args, "d_rank (Carterette 2009): A's per-topic "
                                   "scores against B's ranking, and the reverse"))
