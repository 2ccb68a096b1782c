"""``irscale meta discriminative-power`` (``dp``): ASL and discriminative power."""

from __future__ import annotations

import argparse

from ..core.params import MEMORY_LIMIT, RNG_SEED, SIGNIFICANCE, Param, Switch
from ..meta.params import (
    BOTH_METHODS,
    DISCRIMINATIVE_CHOICE,
    DISCRIMINATIVE_SAMPLES,
    SPREAD_SEEDS,
)
from ..stats.names import CONVENTION, CONVENTIONS
from .inputs import load_matrix
from .meta_common import add_analysis, add_plot, measure_names, render
from .options import add_scheduler, scheduler, wants_progress
from .outputs import Done, Output, plot_output
from .rules import Rule, given

#: ``meta dp --pairs``: the ASL of every pair, not the summary.
PAIRS = Param("pairs", Switch(), False, "print the ASL of every pair", ("--pairs",))


def add_parser(subparsers) -> None:
    """``meta discriminative-power`` (``dp``)."""
    add_analysis(
        subparsers, "discriminative-power", run_discriminative_power, BOTH_METHODS,
        DISCRIMINATIVE_SAMPLES, SIGNIFICANCE, RNG_SEED, SPREAD_SEEDS,
        (CONVENTION, {"choices": CONVENTIONS}), PAIRS, MEMORY_LIMIT,
        add_plot("write the ASL curves to FILE, PNG/SVG"),
        lambda p: add_scheduler(p, "the resampling"), standardise=True, aliases=["dp"],
        example="--scores ap.csv -B 20 --seed 1",
        help="ASL of every pair and discriminative power (Sakai 2014, §5.1)",
        binding=DISCRIMINATIVE_CHOICE,
        rules=[Rule(("pairs", "plot"), lambda args: not given(args, "seeds"),
                    "{options} {applies} to one resampling run, not to --seeds (which "
                    "prints the spread across seeds)")])


def _discriminative_parts(args: argparse.Namespace, matrix, methods: list[str],
                          executor) -> tuple[list, dict]:
    """The rows of ``meta dp`` (and the results to plot), per measure and method."""
    import pandas as pd

    from .. import meta

    options = dict(samples=args.samples, alpha=args.alpha, convention=args.convention,
                   executor=executor, max_memory=args.max_memory)
    parts, results = [], {}
    for name in measure_names(matrix, args):
        table = matrix.measure(name)
        for method in methods:
            if args.seeds:
                base = args.seed or 0
                spread = meta.discriminative_power_spread(
                    table, method, seeds=range(base, base + args.seeds),
                    progress=wants_progress(args), **options)
                parts.append(spread)
                continue
            result = meta.discriminative_power(table, method, rng=args.seed,
                                               progress=wants_progress(args), **options)
            results[f"{name} ({result.method})"] = result
            parts.append(result.to_frame().assign(measure=name, method=result.method)
                         if args.pairs else pd.DataFrame([result.summary()]))
    return parts, results


def run_discriminative_power(args: argparse.Namespace) -> Done:
    """``meta dp``: the discriminative power of every measure (Sakai 2014, §5.1)."""
    matrix = load_matrix(args)  # (the inputs read before the analysis is imported)

    import numpy as np
    import pandas as pd

    from .. import meta
    from ..core.numbers import declare
    from ..meta.discriminative import MEANINGS

    methods = ["bootstrap", "randomized-tukey-hsd"] if args.method == "both" else [args.method]
    with scheduler(args) as executor:
        parts, results = _discriminative_parts(args, matrix, methods, executor)
    # a column a part has no value in (a summary's None) holds NaN as float64, as pandas'
    # concatenation types it from the other parts in every version
    frame = pd.concat([part.astype({c: np.float64 for c in part if part[c].isna().all()})
                       for part in parts], ignore_index=True)
    if args.seeds:
        frame = meta.spread_summary(frame)
    frame = declare(frame.dropna(axis=1, how="all"), MEANINGS)
    from ..stats.tables import alpha_text

    text = render(frame, args, f"discriminative power (B = {args.samples}, "
                  f"α = {alpha_text(args.alpha)}, p = {args.convention})")
    if args.plot and results:
        return [plot_output(meta.plot_asl_curves(results), args.plot), Output(text)]
    return text
