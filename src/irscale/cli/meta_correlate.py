"""``irscale meta correlate``: the rank correlation of two measures (or of every two):
Kendall's τ, τ_ap, Spearman's ρ or RBO, overall, topic by topic or as a matrix, with a
bootstrap interval. Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import INTERVAL_SAMPLES, RESAMPLES, RNG_SEED, Names, Param
from ..errors import ParameterError
from ..meta.params import CORRELATION_METHOD, RBO_P
from .inputs import load_matrix
from .main import given
from .meta_common import add_analysis, measure_names, render
from .options import wants_progress
from .outputs import write_text
from .rules import Rule

#: ``meta correlate --by``: what is correlated.
CORRELATE_BY = Param("by", Names("grouping", ("overall", "topic", "matrix")), "overall",
                     "overall (means, then correlate), topic (one value per topic) or matrix "
                     "(every two measures)", ("--by",))


def add_parser(subparsers) -> None:
    """``meta correlate``: the rank correlation of two measures, with its rules."""
    add_analysis(
        subparsers, "correlate", run_correlate, CORRELATION_METHOD,
        (RBO_P, {"label": "the RBO persistence -p/--p (p)"}),
        (CORRELATE_BY, {"choices": CORRELATE_BY.domain.names}),
        (RESAMPLES, {"domain": INTERVAL_SAMPLES, "unset": "no interval",
                     "doc": "bootstrap confidence interval of the overall correlation with "
                     "B ≥ 2 resamples, --by overall only"}),
        RNG_SEED, standardise=True, help="rank correlation between two measures",
        rules=(Rule(("p",), lambda args: args.method == "rbo", "-p/--p (p) is the RBO "
                    "persistence: it applies to --method rbo, not to {method}"),
               Rule(("samples",), lambda args: args.by == "overall", "-B/--samples applies "
                    "to --by overall (the interval of the overall correlation), not to --by "
                    "{by}"),
               Rule(("seed",), lambda args: given(args, "samples"), "--seed applies to "
                    "-B/--samples (the bootstrap interval, the only random part of "
                    "correlate)")))


def _topic_mean(series) -> str:
    """The mean of the topic-by-topic correlations, over the topics that define one."""
    defined = int(series.notna().sum())
    if not defined:
        return "mean undefined: defined on no topic"
    over = "" if defined == len(series) else f" over the {defined} of {len(series)} topics " \
        "where it is defined"
    return f"mean {series.mean():.4f}{over}"


def run_correlate(args: argparse.Namespace) -> int:
    """``meta correlate``: the rank correlation of two measures (or every two)."""
    matrix = load_matrix(args)  # a malformed input: reported before pandas is imported
    import pandas as pd

    from .. import meta

    names = measure_names(matrix, args)
    options = {"p": args.p} if args.method == "rbo" else {}
    if args.by == "matrix":
        frame = meta.correlation_matrix(matrix, names, method=args.method, **options)
        return write_text(args, render(frame.reset_index(), args, f"{args.method}, overall"))
    if len(names) != 2:
        raise ParameterError(f"name two measures to correlate (have {names}); or --by matrix")
    a, b = names
    if args.by == "topic":
        series = meta.topic_correlations(matrix, measure_a=a, measure_b=b, method=args.method,
                                         **options)
        frame = series.reset_index()
        return write_text(args, render(frame, args, f"{args.method}: {a} vs {b}, topic by topic "
                                    f"({_topic_mean(series)})"))
    if args.samples:
        ci = meta.correlation_ci(matrix, measure_a=a, measure_b=b, method=args.method,
                                 samples=args.samples, rng=args.seed,
                                 progress=wants_progress(args), **options)
        frame = ci.to_frame()
    else:
        value = meta.overall_correlation(matrix, measure_a=a, measure_b=b, method=args.method,
                                         **options)
        frame = pd.DataFrame([{"method": args.method, "estimate": value}])
    frame.insert(0, "measures", f"{a} vs {b}")
    return write_text(args, render(frame, args, "overall correlation"))
