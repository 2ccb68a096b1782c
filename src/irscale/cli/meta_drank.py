"""``irscale meta drank``: Carterette's (2009) d_rank of two measures, both ways, beside
Kendall's τ. Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import Param, Reals
from ..errors import ParameterError
from .inputs import add_standardise, load_matrix
from .meta_common import add_common, check, measure_names, render
from .options import add_param
from .outputs import write_text

#: ``meta drank --ridge``: the regularisation of the covariance of d_rank.
RIDGE = Param("ridge", Reals(0.0), 0.0, "added to the diagonal of the covariance of the score "
              "differences (0: none; without it d_rank needs more topics than systems - 1)",
              ("--ridge",), "L")


def add_parser(subparsers) -> None:
    """``meta drank``: Carterette's d_rank between two measures, beside Kendall's τ."""
    p = subparsers.add_parser(
        "drank", help="d_rank of two measures (Carterette 2009), beside Kendall's tau")
    add_common(p)
    add_standardise(p)
    add_param(p, RIDGE)
    p.set_defaults(func=run_drank)


def run_drank(args: argparse.Namespace) -> int:
    """``meta drank``: d_rank(A | B), d_rank(B | A), their mean and Kendall's τ."""
    check(args)
    matrix = load_matrix(args)  # (the inputs read before the analysis is imported)

    import pandas as pd

    from .. import meta

    names = measure_names(matrix, args)
    if len(names) != 2:
        raise ParameterError(f"name two measures for d_rank (have {names})")
    a, b = names
    both = {"measure_a": a, "measure_b": b, "ridge": args.ridge}
    forward = meta.d_rank(matrix, **both)
    backward = meta.d_rank(matrix, measure_a=b, measure_b=a, ridge=args.ridge)
    frame = pd.DataFrame([{
        "measures": f"{a} vs {b}", "kendall": float(meta.overall_correlation(
            matrix, measure_a=a, measure_b=b)),
        "d_rank(A|B)": forward.d, "d_rank(B|A)": backward.d,
        "d_rank_sym": (forward.d + backward.d) / 2, "systems": len(forward.ranking),
        "topics": forward.n_topics, "ridge": args.ridge}])
    return write_text(args, render(frame, args, "d_rank (Carterette 2009): A's per-topic "
                                   "scores against B's ranking, and the reverse"))
