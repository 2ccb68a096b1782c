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
``measure``. ``--format csv`` names the p-values alike. With ``--baseline SYSTEM`` (and a
two-system test) every pair is a system ``a`` against the baseline ``b`` and also carries
the topics ``a`` ``wins``, ``ties`` and ``losses`` against it (every format): the numbers of
``irscale.evaluate(...).compare(baseline=...)``.

``--baseline RUN --risk-alpha A`` is the risk-sensitive comparison (TREC Web 2013–2014;
:mod:`irscale.stats.risk`): for every other system and measure, URisk (the mean
risk-weighted difference, losses weighed 1 + A), TRisk (Dinçer et al. 2014: URisk over its
standard error, with its two-sided t p-value on topics − 1 df) and wins / losses / ties
against the baseline. It is a test of its own: the options of the other tests (``--test``,
``--model``, ``--correction``, ``--alternative``, ``--alpha``, resampling) are refused with
it. ``--format json`` prints ``{"risk": [{"measure", "run", "baseline", "risk_alpha",
"topics", "wins", "losses", "ties", "urisk", "trisk", "df", "p"}, ...]}``.

Options that the chosen test would ignore are refused (``--correction`` and
``--alternative`` with the Tukey tests, ``--samples``/``--seed``/``--workers``/
``--scheduler`` with tests that do not resample, ``--model`` with other tests,
``--digits`` with csv/json, ...): see :mod:`irscale.cli.checks`. ``--scheduler`` runs the
resampling on a Dask cluster (:mod:`irscale.parallel`), with the same results.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..core.params import RESAMPLES, RISK_ALPHA, RNG_SEED, SIGNIFICANCE, THREADS
from ..errors import ParameterError
from ..stats.names import (
    MODEL_NAMES,
    MULTI_TESTS,
    MULTIPLE_CORRECTION,
    RANK_MODELS,
    TABLE_FORMATS,
    TEST_NAMES,
)
from .checks import COMPARE_TEST, add_digits, check_compare
from .inputs import add_inputs, check_inputs, load_matrix
from .main import given
from .options import (
    Checked,
    add_param,
    add_progress,
    add_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import add_output, write_text

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from ..stats.results import AnovaResult, RankTestResult

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
                        "pair); with --risk-alpha: the risk baseline")
    parser.add_argument("--risk-alpha", action=Checked, domain=RISK_ALPHA, type=float,
                        default=None, metavar="A",
                        help="risk-sensitive comparison against --baseline: URisk and "
                        "TRisk with losses weighed 1 + A (A >= 0; TREC Web 2013-14)")
    parser.add_argument("--test", action=Checked, domain=COMPARE_TEST, default=None,
                        help=f"{' | '.join(MULTI_TESTS)} | {' | '.join(TEST_NAMES)} "
                        "(default tukey-hsd)")
    parser.add_argument("--model", default="topic+system",
                        help=f"model of tukey-hsd: {' | '.join(MODEL_NAMES + RANK_MODELS)}"
                        " (default topic+system)")
    add_param(parser, MULTIPLE_CORRECTION, doc="multiple-comparison correction of the pairwise "
              "tests")
    add_param(parser, SIGNIFICANCE)
    parser.add_argument("--alternative", default="two-sided",
                        choices=("two-sided", "greater", "less"),
                        help="alternative hypothesis of pairwise tests: greater = a > b "
                        "(default two-sided)")
    add_param(parser, RNG_SEED, doc="seed of resampling tests")
    add_param(parser, RESAMPLES, doc="resamples of the resampling tests")
    add_param(parser, THREADS, doc="threads for resampling")
    add_scheduler(parser, "the resampling")
    parser.add_argument("--format", default="text", choices=TABLE_FORMATS, dest="fmt",
                        help="output format (default text)")
    add_digits(parser)
    add_progress(parser)
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
        anova,
        friedman,
        kruskal_wallis,
        pairwise_tests,
        randomized_tukey_hsd,
    )
    from ..stats.registry import test_spec

    test = args.test
    progress = wants_progress(args)
    matrix = load_matrix(args)
    if test == "tukey-hsd":
        model = args.model
        measure = _measure_of(matrix, args.measures)
        omnibus: AnovaResult | RankTestResult
        if model in RANK_MODELS:  # else a model of anova (checked by check_compare)
            omnibus = (kruskal_wallis if model == "kruskal-wallis" else friedman)(
                matrix, measure=measure)
        else:
            omnibus = anova(matrix, model, measure=measure)
        return omnibus, omnibus.tukey_hsd(alpha=args.alpha)
    options: dict[str, Any] = {}
    spec = None if test == "randomized-tukey-hsd" else test_spec(test)
    with scheduler(args) as executor:
        where = {"workers": args.workers} if executor == "local" else {"executor": executor}
        if spec is None:
            return None, randomized_tukey_hsd(
                matrix, samples=args.samples or 10_000, alpha=args.alpha,
                measure=_measure_of(matrix, args.measures), rng=args.seed,
                progress=progress, **where,
            )
        if spec.resampling:  # --samples/--seed/--workers/--scheduler otherwise: refused
            default = 10_000 if spec.name == "randomization" else 1_000
            options = {"samples": args.samples or default, "rng": args.seed,
                       "progress": progress, **where}
        measures = list(args.measures) if args.measures else None
        return None, pairwise_tests(
            matrix, spec.name, correction=args.correction, alpha=args.alpha,
            alternative=args.alternative, measures=measures, baseline=args.baseline,
            **options,
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


#: Options of the other tests, refused with --risk-alpha: (flag, attribute).
_NOT_RISK = (("--test", "test"), ("--model", "model"), ("--correction", "correction"),
             ("--alternative", "alternative"), ("-B/--samples", "samples"),
             ("--seed", "seed"), ("--workers", "workers"), ("--scheduler", "scheduler"))


def check_risk(args: argparse.Namespace) -> float:
    """The options of ``--risk-alpha`` (see the module documentation): its value."""
    from .checks import check_digits_option, check_sources

    flags = [flag for flag, attr in (*_NOT_RISK, ("--alpha", "alpha")) if given(args, attr)]
    if flags:
        raise ParameterError(f"{', '.join(flags)} {'applies' if len(flags) == 1 else 'apply'}"
                             " to the significance tests, not to --risk-alpha (TRisk is "
                             "its own t-test: its p-value is printed)")
    if args.baseline is None:
        raise ParameterError("--risk-alpha needs --baseline SYSTEM (the run every other "
                             "system is compared with)")
    check_digits_option(args)
    check_sources(args)
    check_inputs(args)
    return args.risk_alpha


def risk_output(args: argparse.Namespace, alpha: float) -> str:
    """The risk table of ``--baseline --risk-alpha`` in ``--format``."""
    from ..stats.risk import risk_table
    from ..stats.tables import records, render

    matrix = load_matrix(args)
    table = risk_table(matrix, args.baseline, alpha, measures=args.measures or None)
    if args.fmt == "json":
        return json.dumps({"risk": records(table)}, indent=2) + "\n"
    return render(table, args.fmt, digits=args.digits,
                  title=f"Risk against {args.baseline} (losses weigh 1 + {alpha:g}; "
                  "TRisk: t with topics - 1 df)")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "risk_alpha", None) is not None:
        return write_text(args, risk_output(args, check_risk(args)))
    if args.test is None:
        args.test = "tukey-hsd"
    check_compare(args)  # every option, before any work
    omnibus, pairs = compare(args)
    text = render_output(omnibus, pairs, args.fmt, args.digits)
    return write_text(args, text)
