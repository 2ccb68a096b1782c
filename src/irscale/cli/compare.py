"""``irscale compare``: significance tests, ANOVA and multiple comparisons of systems.

    irscale compare --scores FILE [--scores FILE ...] [options]
    irscale compare QRELS RUN RUN [RUN ...] -m MEASURE [options]

Scores come from score-matrix CSV files (one column per system, one row per topic; several
files are several measures of the same systems and topics) or from qrels and runs
evaluated with :func:`irscale.evaluate` (runs named by run id, runs that share one after
their files; ``--names file`` or ``--names a,b,c`` to choose). ``--test tukey-hsd``
(default) prints the ANOVA table of ``--model`` and Tukey's HSD decisions for every pair;
``randomized-tukey-hsd`` the randomised Tukey HSD; any two-system test (``t``,
``wilcoxon``, ``sign``, ``randomization``, ``bootstrap``, ...) is run on every pair with
``--correction`` over the family of pairs × measures. ``--format json`` prints
``{"anova": [{"factor", "ss", "df", "ms", "f", "p", "omega2"}, ...],
"pairs": [{"a", "b", "diff", "ci_low", "ci_high", "p", "p_adjusted", "significant"}, ...]}``
(no ``anova`` for pairwise tests and the randomised Tukey HSD). Per pair, ``diff`` is
mean(a) − mean(b) with its interval [``ci_low``, ``ci_high``] (Tukey: simultaneous;
pairwise tests: per pair, unadjusted), ``p`` the pair's own p-value (Tukey's HSD and the
randomised Tukey HSD: their simultaneous p-value), ``p_adjusted`` the p-value after
``--correction`` (equal to ``p`` with ``--correction none`` and for the Tukey tests) and
``significant`` the decision at ``--alpha``; pairs of several measures also carry
``measure``. ``--format csv`` names the p-values alike.

Options that the chosen test would ignore are refused (``--correction`` and
``--alternative`` with the Tukey tests, ``--samples``/``--seed``/``--workers`` with tests
that do not resample, ``--model`` with other tests, ``--digits`` with csv/json, ...): see
:mod:`irscale.cli.checks`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..errors import ParameterError
from ..stats.names import CORRECTIONS, FORMATS, MODEL_NAMES, TEST_NAMES
from .checks import check_compare, compare_test
from .inputs import add_inputs, load_matrix
from .outputs import add_output, write_text

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from ..stats.results import AnovaResult, RankTestResult

#: Many-system procedures (besides the two-system tests of irscale.stats.TESTS).
MULTI_TESTS = ("tukey-hsd", "randomized-tukey-hsd")
_MULTI_ALIASES = {"tukey": "tukey-hsd", "hsd": "tukey-hsd", "anova": "tukey-hsd",
                  "randomised-tukey-hsd": "randomized-tukey-hsd",
                  "randomized-tukey": "randomized-tukey-hsd", "rtukey": "randomized-tukey-hsd"}
RANK_MODELS = ("kruskal-wallis", "friedman")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare systems: significance tests, ANOVA, Tukey HSD, corrections",
        description="Compare systems on per-topic scores: two-system tests on every pair "
        "with a multiple-comparison correction, or an ANOVA model with Tukey's HSD.",
    )
    add_inputs(parser, measure_help="measure (repeatable for pairwise tests; default: the "
               "only measure of the --scores files)")
    parser.add_argument("--baseline", default=None, metavar="SYSTEM",
                        help="two-system tests: compare every other system with this one "
                        "only (the family: systems x measures against it; default: every "
                        "pair)")
    parser.add_argument("--test", default="tukey-hsd",
                        help=f"{' | '.join(MULTI_TESTS)} | {' | '.join(TEST_NAMES)} "
                        "(default tukey-hsd)")
    parser.add_argument("--model", default=None,
                        help=f"model of tukey-hsd: {' | '.join(MODEL_NAMES + RANK_MODELS)}"
                        " (default topic+system)")
    parser.add_argument("--correction", default=None,
                        help=f"{' | '.join(CORRECTIONS)} (pairwise tests; default holm)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level (default 0.05)")
    parser.add_argument("--alternative", default=None,
                        choices=("two-sided", "greater", "less"),
                        help="alternative hypothesis of pairwise tests: greater = a > b "
                        "(default two-sided)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of resampling tests (default: a fresh random seed)")
    parser.add_argument("-B", "--samples", type=int, default=None, metavar="B",
                        help="resamples of the resampling tests (default: 10000 for "
                        "randomization and randomized-tukey-hsd, 1000 for the bootstraps)"),
    parser.add_argument("--workers", type=int, default=None,
                        help="threads for resampling (default: one per CPU core)")
    parser.add_argument("--format", default="text", choices=FORMATS, dest="fmt",
                        help="output format (default text)")
    parser.add_argument("--digits", type=int, default=None,
                        help="decimals in text, markdown and latex tables (0-17, default 4)")
    parser.add_argument("--no-progress", action="store_true",
                        help="do not show resampling progress on stderr")
    add_output(parser)
    parser.set_defaults(func=run)


def _measure_of(matrix: ScoreMatrix, measures: list[str] | None) -> str:
    if measures and len(measures) > 1:
        raise ParameterError(f"an ANOVA / Tukey HSD compares one measure, got {len(measures)} "
                             f"({', '.join(measures)}): give one -m")
    if measures and measures[0] in matrix.measures:
        return measures[0]
    if len(matrix.measures) == 1:
        return matrix.measures[0]
    raise ParameterError(f"choose one measure with -m among {list(matrix.measures)}")


def compare(args: argparse.Namespace):
    """Run the requested analysis: (omnibus result or None, pairwise comparisons)."""
    from ..stats import (
        MODELS,
        anova,
        friedman,
        kruskal_wallis,
        pairwise_tests,
        randomized_tukey_hsd,
    )
    from ..stats.registry import test_spec

    test, _ = compare_test(args.test)
    progress = not args.no_progress and sys.stderr.isatty()
    matrix = load_matrix(args)
    if test == "tukey-hsd":
        model = args.model or "topic+system"
        measure = _measure_of(matrix, args.measures)
        omnibus: AnovaResult | RankTestResult
        if model in RANK_MODELS:
            omnibus = (kruskal_wallis if model == "kruskal-wallis" else friedman)(
                matrix, measure=measure)
        elif model in MODELS or "+" in model or model in ("topic", "system"):
            omnibus = anova(matrix, model, measure=measure)
        else:
            raise ParameterError(
                f"unknown model {model!r}; choose from {list(MODELS) + list(RANK_MODELS)}"
            )
        return omnibus, omnibus.tukey_hsd(alpha=args.alpha)
    if args.model is not None:
        raise ParameterError(f"--model applies to --test tukey-hsd, not to {args.test!r}")
    options: dict[str, Any] = {}
    if test == "randomized-tukey-hsd":
        return None, randomized_tukey_hsd(
            matrix, samples=args.samples or 10_000, alpha=args.alpha,
            measure=_measure_of(matrix, args.measures), rng=args.seed,
            workers=args.workers, progress=progress,
        )
    spec = test_spec(test)
    if spec.resampling:  # --samples/--seed/--workers with other tests: refused by checks
        default = 10_000 if spec.name == "randomization" else 1_000
        options = {"samples": args.samples or default, "rng": args.seed,
                   "workers": args.workers, "progress": progress}
    measures = list(args.measures) if args.measures else None
    return None, pairwise_tests(
        matrix, spec.name, correction=args.correction, alpha=args.alpha,
        alternative=args.alternative, measures=measures, baseline=args.baseline, **options,
    )


def render_output(omnibus, pairs, fmt: str, digits: int = 4) -> str:
    """The command's output: the omnibus table (if any) and the pairwise table."""
    if fmt == "json":
        document: dict[str, object] = {}
        if omnibus is not None:
            document["anova"] = omnibus.json_rows()
        document["pairs"] = pairs.json_pairs()
        return json.dumps(document, indent=2) + "\n"
    parts = [] if omnibus is None else [omnibus.format(fmt, digits=digits)]
    parts.append(pairs.format(fmt, digits=digits))
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    check_compare(args)  # every option, before any work
    omnibus, pairs = compare(args)
    text = render_output(omnibus, pairs, args.fmt, args.digits)
    return write_text(args, text)
