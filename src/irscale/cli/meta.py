"""``irscale meta``: meta-evaluation of measures, test collections and significance tests.

    irscale meta correlate      --scores A.csv --scores B.csv [--method kendall] [--by topic]
    irscale meta discriminative-power --scores F.csv [--method bootstrap] [-B 1000] [--seeds 10]
    irscale meta split          --scores F.csv [--sizes 5,10,25] [--models MD1,MD2,MD2f]
    irscale meta swap           --scores F.csv [--sizes 5,10,25] [--bin-width 0.01]
    irscale meta concordance    QRELS RUN... -m M1 -m M2 -m GOLD --gold GOLD
    irscale meta loo            QRELS RUN... -m map [--depth 100]
    irscale meta scales         QRELS RUN... [-m P -m AP ...] [--cutoffs 5,10,20,30]
    irscale meta simulate       --model normal [--topics 50 --systems 2 --effects 0,0.05]
                                 | --model bootstrap --scores F.csv [--null]
                                 [--test t,wilcoxon] [--correction none,holm]
                                 [--repetitions 1000] [--checkpoint DIR]

Scores come from score-matrix CSV files (``--scores``, one column per system, one row per
topic; each file is a measure named after the file) or from qrels and runs evaluated with
``-m MEASURE`` (as ``irscale compare``). Every subcommand prints a table (``--format``
text, csv, markdown, latex or json); ``--plot FILE`` writes a PNG or SVG where a plot
exists (matplotlib needed). See ``docs/meta.md``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.params import (
    CONTRIBUTOR_PATTERN,
    CORRELATION,
    CUTOFF,
    DEPTH,
    DISCRIMINATIVE_METHOD,
    EFFECT,
    ERROR_SD,
    INTERVAL_SAMPLES,
    MATRIX_SIZE,
    RBO_P,
    RESAMPLES,
    RNG_SEED,
    SCALE_CUTOFFS,
    SCALE_MEASURES,
    SEEDS,
    SIGNIFICANCE,
    SIMULATED_MATRICES,
    SPLIT_METRICS,
    SPLIT_REPETITIONS,
    SPLIT_SIZE,
    SWAP_BIN_WIDTH,
    TOPIC_SD,
    Names,
)
from ..errors import ParameterError
from ..stats.names import CORRECTION, PROCEDURE, PROCEDURE_PAIR, TEST
from .checks import NORMAL_OPTIONS, add_digits, check_meta
from .inputs import add_inputs, diversity_inputs, load_matrix, qrels_and_runs
from .main import given
from .options import (
    Checked,
    ListAction,
    add_param,
    add_progress,
    add_scheduler,
    add_ties,
    join,
    scheduler,
    wants_progress,
)
from .outputs import add_output, declare_inputs, declare_outputs, write_text

if TYPE_CHECKING:  # pragma: no cover - the parser imports no analysis module
    from ..meta import BootstrapModel, NormalModel

#: Defaults of ``--sizes`` (split and swap) and ``--models`` (split).
SIZES = (5, 10, 15, 20, 25)
MODELS = ("MD1", "MD2", "MD2f")
#: ``meta dp --method``: a method of discriminative power, or both.
DP_METHOD = Names(DISCRIMINATIVE_METHOD.noun, (*DISCRIMINATIVE_METHOD.names, "both"),
                  DISCRIMINATIVE_METHOD.aliases, fold=True)
#: ``meta split --metric``: an agreement metric, the bias of the halves' means (``bias``)
#: or the spread of τ (``tau_sd``).
METRIC = Names("metric", (*SPLIT_METRICS, "bias", "tau_sd"))

#: Models of ``meta simulate`` (``irscale.meta.simulation``'s NormalModel and BootstrapModel).
SIMULATION_MODELS = ("normal", "bootstrap")


MEASURE_HELP = ("measure (repeatable; default: every measure of the --scores files, one "
                "file per measure)")


def _common(parser: argparse.ArgumentParser, *, scores: bool = True,
            systems: bool | None = None, measure_help: str = MEASURE_HELP) -> None:
    from ..io.formats import TABLE_FORMATS

    add_inputs(parser, scores=scores, systems=scores if systems is None else systems,
               measure_help=measure_help)
    parser.add_argument("--format", default="text", choices=TABLE_FORMATS, dest="fmt",
                        help="output format (default text)")
    add_digits(parser)
    add_progress(parser)
    add_output(parser)


def _sizes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sizes", action=ListAction, api="sizes", domain=SPLIT_SIZE,
                        item="a split size", unique=True, default=list(SIZES),
                        metavar="S,S,...",
                        help=f"comma-separated topics per split (default {join(SIZES)})")
    add_param(parser, SPLIT_REPETITIONS)


def _alpha(parser: argparse.ArgumentParser, *, what: str = "significance level") -> None:
    add_param(parser, SIGNIFICANCE, doc=what)


def _seed(parser: argparse.ArgumentParser) -> None:
    add_param(parser, RNG_SEED, doc="seed of the random draws")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "meta",
        help="meta-evaluation: correlation, discriminative power, topic splitting, ...",
        description="Meta-evaluation of measures and significance tests (Sakai 2014; Ferro "
        "& Sanderson 2022; Ferrante, Ferro & Fuhr 2021).",
    )
    sub = parser.add_subparsers(dest="meta_command", metavar="ANALYSIS")

    p = sub.add_parser("correlate", help="rank correlation between two measures")
    _common(p)
    p.add_argument("--method", action=Checked, domain=CORRELATION, default="kendall",
                   help=f"{' | '.join(CORRELATION.names)} (default kendall)")
    add_param(p, RBO_P, label="the RBO persistence -p/--p (p)")
    p.add_argument("--by", default="overall", choices=("overall", "topic", "matrix"),
                   help="overall (means, then correlate), topic (one value per topic) or "
                   "matrix (every two measures) (default overall)")
    add_param(p, RESAMPLES, domain=INTERVAL_SAMPLES,
              doc="bootstrap confidence interval of the overall correlation with B ≥ 2 "
              "resamples, --by overall only", unset="no interval")
    _seed(p)
    p.set_defaults(func=run_correlate)

    p = sub.add_parser("discriminative-power", aliases=["dp"],
                       help="ASL of every pair and discriminative power (Sakai 2014, §5.1)")
    _common(p)
    p.add_argument("--method", action=Checked, domain=DP_METHOD, default="bootstrap",
                   help=f"{' | '.join(DP_METHOD.names)} (default bootstrap)")
    add_param(p, RESAMPLES, doc="resamples", default=1000)
    _alpha(p)
    _seed(p)
    p.add_argument("--seeds", action=Checked, domain=SEEDS, api="seeds", default=None,
                   metavar="R",
                   help="repeat with seeds seed..seed+R-1 and report the Monte Carlo spread "
                   "(default: one run)")
    p.add_argument("--convention", default="plus-one", choices=("plus-one", "proportion"),
                   help="p-value convention: (c+1)/(B+1) or c/B (default plus-one)")
    p.add_argument("--pairs", action="store_true", help="print the ASL of every pair")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="write the ASL curves to FILE, PNG/SVG (default: no plot)")
    add_scheduler(p, "the resampling")
    declare_outputs(p, "--plot", kind="plot")
    p.set_defaults(func=run_discriminative_power)

    p = sub.add_parser("split", help="topic-splitting consistency (Ferro & Sanderson 2022, "
                       "§3)")
    _common(p)
    _sizes(p)
    p.add_argument("--models", action=ListAction, kind="str", domain=PROCEDURE,
                   default=list(MODELS),
                   metavar="M,M,...",
                   help=f"procedures compared with themselves (default {join(MODELS)})")
    p.add_argument("--cross", action=ListAction, kind="str", domain=PROCEDURE_PAIR, default=[],
                   metavar="A:B,...",
                   help="different models: A on the first half, B on the second "
                   "(default: none)")
    p.add_argument("--metric", action=Checked, domain=METRIC, default=None,
                   help="print one metric by size (sig_1, AA, AD, MA, MD, jaccard, overlap, "
                   "tau, bias); default: the agreement table and τ")
    _alpha(p)
    _seed(p)
    add_param(p, RESAMPLES, doc="resamples of the resampling procedures among --models and "
              "--cross")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="write the metric (default τ) against the split size to FILE, "
                   "PNG/SVG (default: no plot)")
    add_scheduler(p, "the repetitions")
    declare_outputs(p, "--plot", kind="plot")
    p.set_defaults(func=run_split)

    p = sub.add_parser("swap", help="swap method and swap rates (Voorhees & Buckley 2002)")
    _common(p)
    _sizes(p)
    add_param(p, SWAP_BIN_WIDTH)
    p.add_argument("--test", action=Checked, domain=PROCEDURE, default=None,
                   help="count only the pairs this test finds significant on TS1 (default: "
                   "every pair)")
    _alpha(p, what="significance level of --test")
    _seed(p)
    add_param(p, RESAMPLES, doc="resamples of a resampling --test")
    p.add_argument("--by-bin", action="store_true", help="swap rate per difference bin")
    add_scheduler(p, "the repetitions of --test")
    p.set_defaults(func=run_swap)

    p = sub.add_parser("concordance", help="concordance test (Sakai 2014, Fig. 17)")
    _common(p)
    p.add_argument("--gold", action=ListAction, kind="str", required=True, metavar="M,...",
                   help="comma-separated gold-standard measure(s); the other measures are the "
                   "candidates")
    _alpha(p)
    p.set_defaults(func=run_concordance)

    p = sub.add_parser("loo", help="leave-one-out reusability test (Sakai 2014, §5.4)")
    _common(p, scores=False, measure_help="measure (repeatable; at least one)")
    p.add_argument("--depth", action=Checked, domain=DEPTH, api="depth", default=100,
                   help="pool depth (default 100)")
    add_param(p, CONTRIBUTOR_PATTERN)
    p.add_argument("--contributors", default=None, metavar="FILE",
                   help="file of 'run contributor' lines (overrides the pattern; default: "
                   "none)")
    p.add_argument("--per-run", action="store_true", help="print every run")
    add_scheduler(p, "the contributors' evaluations")
    declare_inputs(p, "--contributors")
    p.set_defaults(func=run_loo)

    p = sub.add_parser("scales", help="measures vs their interval-scaled versions "
                       "(Ferrante, Ferro & Fuhr 2021, Tables 2, 4, 5, 6)")
    _common(p, scores=False, measure_help="measure (repeatable; default: the eleven of "
            "Ferrante, Ferro & Fuhr 2021: " + ", ".join(SCALE_MEASURES) + ")")
    p.add_argument("--cutoffs", action=ListAction, api="cutoffs", domain=CUTOFF,
                   item="a cut-off", unique=True, default=list(SCALE_CUTOFFS),
                   metavar="N,N,...",
                   help=f"comma-separated run lengths N (default {join(SCALE_CUTOFFS)})")
    p.add_argument("--table", default="all", choices=("all", "2", "4", "5", "6", "invariants"),
                   help="the table to print (default all)")
    p.add_argument("--table-cutoff", action=Checked, domain=CUTOFF, default=None,
                   dest="table_n", metavar="N", help="cut-off of Tables 4-6, one of --cutoffs "
                   "(default: the largest)")
    p.add_argument("--collection", default="T", help="track label prefix (default T)")
    _alpha(p, what="significance level of tables 5, 6 and invariants")
    add_ties(p, phi=True)
    p.add_argument("--plot-dir", default=None, metavar="DIR",
                   help="write a scatter of each measure vs its ranked version (PNG) to DIR "
                   "(default: no plots)")
    declare_outputs(p, "--plot-dir", kind="folder")
    p.set_defaults(func=run_scales)

    _add_simulate(sub)
    parser.set_defaults(func=lambda args: parser.error(
        f"choose an analysis: {', '.join(sub.choices)}"))


def _add_simulate(sub) -> None:
    """``meta simulate``: :func:`irscale.meta.simulation_study` on the command line; every
    option is one of its arguments or of its model's (the defaults stated in the help are
    the API's: a test checks that they agree)."""
    p = sub.add_parser(
        "simulate", help="Type I, II and III error rates and power of tests over simulated "
        "score matrices (Urbano, Lima & Hanjalic 2019)",
        description="Draw --repetitions topics x systems matrices from a model whose true "
        "system means are known, run every --test with every --correction on every pair of "
        "systems, and report per test and correction the Type I, Type II and Type III error "
        "rates and the power with 95% Wilson intervals (irscale.meta.simulation_study; "
        "docs/scale-out.md).")
    _common(p, systems=False, measure_help="measure of the bootstrap model's matrix "
            "(one; default: the one measure of the --scores file)")
    p.add_argument("--model", required=True, choices=SIMULATION_MODELS,
                   help="normal: X[t, s] = mu_s + u_t + e_ts with normal topic effects and "
                   "errors; bootstrap: the topics of a real matrix (QRELS RUN... -m MEASURE "
                   "or --scores) drawn with replacement, its system means being the truth")
    p.add_argument("--topics", action=Checked, domain=MATRIX_SIZE, api="topics", default=None,
                   metavar="T",
                   help="normal model: topics per matrix (default 50)")
    p.add_argument("--systems", action=Checked, domain=MATRIX_SIZE, api="systems",
                   default=None, metavar="S",
                   help="normal model: systems per matrix (default: the number of "
                   "--effects, else 2)")
    p.add_argument("--effects", action=ListAction, kind="float", domain=EFFECT,
                   item="a system mean", default=None,
                   metavar="E,E,...",
                   help="normal model: the true system means mu_s, one per system; write "
                   "--effects=-0.1,0 when the first is negative (default: all 0, every pair "
                   "null)")
    p.add_argument("--topic-sd", action=Checked, domain=TOPIC_SD, api="topic_sd",
                   default=None, metavar="SD",
                   help="normal model: standard deviation of the topic effects u_t "
                   "(default 0.1)")
    p.add_argument("--error-sd", action=Checked, domain=ERROR_SD, api="error_sd",
                   default=None, metavar="SD",
                   help="normal model: standard deviation of the errors e_ts, > 0 "
                   "(default 0.1)")
    p.add_argument("--null", action="store_true",
                   help="bootstrap model: first centre every system on the grand mean, so "
                   "that every pair is null (default: the matrix's system means are the "
                   "truth)")
    add_param(p, SIMULATED_MATRICES)
    p.add_argument("--test", action=ListAction, kind="str", domain=TEST, unique=True,
                   default=None,
                   metavar="T,T,...",
                   help="comma-separated two-system tests run on every pair: t, student, "
                   "welch, wilcoxon, sign, mann-whitney, randomization, bootstrap, "
                   "bootstrap-shift, unpaired-bootstrap (default t)")
    p.add_argument("--correction", action=ListAction, kind="str", domain=CORRECTION,
                   unique=True, default=None, metavar="C,C,...",
                   help="comma-separated multiple-comparison corrections, each applied to "
                   "every test: none, bonferroni, holm, ... (default none)")
    _alpha(p)
    _seed(p)
    add_param(p, RESAMPLES, doc="resamples of the resampling tests among --test",
              unset="each test's own")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="keep the counts of every finished task in DIR (made if missing) "
                   "and, run again with the same arguments and --seed, compute only the "
                   "unfinished tasks; a DIR holding another study is refused (default: no "
                   "checkpoint)")
    add_scheduler(p, "the simulated matrices")
    declare_outputs(p, "--checkpoint", kind="folder")
    p.set_defaults(func=run_simulate)


# --------------------------------------------------------------------------- helpers
def _matrix(args: argparse.Namespace):
    """The score matrix: from --scores files or qrels and runs (:mod:`irscale.cli.inputs`)."""
    return load_matrix(args)


def _measures(matrix, args: argparse.Namespace) -> list[str]:
    return list(args.measures or matrix.measures)


def _render(frame, args: argparse.Namespace, title: str | None = None) -> str:
    from ..meta.common import format_frame

    return format_frame(frame, args.fmt, digits=args.digits,
                        title=None if args.fmt in ("csv", "json") else title)


# --------------------------------------------------------------------------- commands
def _topic_mean(series) -> str:
    """The mean of the topic-by-topic correlations, over the topics that define one."""
    defined = int(series.notna().sum())
    if not defined:
        return "mean undefined: defined on no topic"
    over = "" if defined == len(series) else f" over the {defined} of {len(series)} topics " \
        "where it is defined"
    return f"mean {series.mean():.4f}{over}"


def run_correlate(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    import pandas as pd

    from .. import meta

    matrix = _matrix(args)
    names = _measures(matrix, args)
    options = {"p": args.p} if args.method == "rbo" else {}
    if args.by == "matrix":
        frame = meta.correlation_matrix(matrix, names, method=args.method, **options)
        return write_text(args, _render(frame.reset_index(), args, f"{args.method}, overall"))
    if len(names) != 2:
        raise ParameterError(f"name two measures to correlate (have {names}); or --by matrix")
    a, b = names
    if args.by == "topic":
        series = meta.topic_correlations(matrix, measure_a=a, measure_b=b, method=args.method,
                                         **options)
        frame = series.reset_index()
        return write_text(args, _render(frame, args, f"{args.method}: {a} vs {b}, topic by topic "
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
    return write_text(args, _render(frame, args, "overall correlation"))


def _discriminative_parts(args: argparse.Namespace, matrix, methods: list[str],
                          executor) -> tuple[list, dict]:
    """The rows of ``meta dp`` (and the results to plot), per measure and method."""
    import pandas as pd

    from .. import meta

    options = dict(samples=args.samples, alpha=args.alpha, convention=args.convention,
                   executor=executor)
    parts, results = [], {}
    for name in _measures(matrix, args):
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


def run_discriminative_power(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    import pandas as pd

    from .. import meta

    matrix = _matrix(args)
    methods = ["bootstrap", "randomized-tukey-hsd"] if args.method == "both" else [args.method]
    with scheduler(args) as executor:
        parts, results = _discriminative_parts(args, matrix, methods, executor)
    frame = pd.concat(parts, ignore_index=True)
    if args.seeds:
        keys = ["measure", "method"]
        frame = frame.groupby(keys, sort=False).agg(
            seeds=("seed", "count"), significant_mean=("significant", "mean"),
            significant_sd=("significant", "std"), significant_min=("significant", "min"),
            significant_max=("significant", "max"),
            min_sig_diff_mean=("min_significant_diff", "mean"),
            min_sig_diff_sd=("min_significant_diff", "std")).reset_index()
    frame = frame.dropna(axis=1, how="all")
    if args.plot and results:
        meta.plot_asl_curves(results, args.plot)
    from ..stats.tables import alpha_text

    return write_text(args, _render(frame, args, f"discriminative power (B = {args.samples}, "
                                f"α = {alpha_text(args.alpha)}, p = {args.convention})"))


def _one_measure(args: argparse.Namespace, what: str):
    """The one-measure score matrix an analysis of a single measure needs."""
    matrix = _matrix(args)
    names = _measures(matrix, args)
    if len(names) != 1:
        raise ParameterError(f"{what} studies one measure: choose one with -m ({names})")
    return matrix.measure(names[0])


def _resampling_options(args: argparse.Namespace) -> dict[str, dict[str, object]] | None:
    """``-B/--samples`` of ``split``, given to every resampling procedure of the study."""
    if args.samples is None:
        return None
    from .checks import resampling_procedures

    names = [*args.models, *(name for pair in args.cross for name in pair)]
    return {name: {"samples": args.samples} for name in resampling_procedures(names)}


def run_split(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta

    table = _one_measure(args, "topic splitting")
    with scheduler(args) as executor:
        study = meta.split_study(table, args.sizes, args.repetitions, models=args.models,
                                 cross=args.cross, alpha=args.alpha, rng=args.seed,
                                 progress=wants_progress(args),
                                 options=_resampling_options(args), executor=executor)
    if args.plot:
        meta.plot_split_metric(study, args.metric or "tau", args.plot)
    if args.metric:
        text = _render(study.table(args.metric).reset_index(), args,
                       f"{args.metric} by topic-set size ({study!r})")
    else:
        text = "\n".join([
            _render(study.table("tau").reset_index(), args, f"Kendall τ between halves "
                    f"({study!r})"),
            _render(study.agreement_table(), args,
                    f"AA, AD, MA, MD and Bias at {max(args.sizes)} topics"),
        ])
    return write_text(args, text)


def run_swap(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta

    table = _one_measure(args, "the swap method")
    with scheduler(args) as executor:
        result = meta.swap_rates(table, args.sizes,
                                 args.repetitions, bin_width=args.bin_width, test=args.test,
                                 alpha=args.alpha, samples=args.samples, rng=args.seed,
                                 progress=wants_progress(args), executor=executor)
    frame = result.rates if args.by_bin else result.overall
    return write_text(args, _render(frame, args, repr(result)))


def run_concordance(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta

    matrix = _matrix(args)
    names = [m for m in _measures(matrix, args) if m not in args.gold]
    missing = [g for g in args.gold if g not in matrix.measures]
    if missing:
        raise ParameterError(f"gold measure(s) {missing} not among {list(matrix.measures)}")
    if len(names) < 2:
        raise ParameterError("give at least two candidate measures besides the gold standard")
    frame = meta.concordance_table(matrix, names, args.gold, alpha=args.alpha)
    return write_text(args, _render(frame, args, f"concordance with {'+'.join(args.gold)}"))


def _contributors(args: argparse.Namespace) -> dict[str, str] | None:
    """The ``run contributor`` lines of ``--contributors`` (``#`` starts a comment)."""
    if args.contributors is None:
        return None
    from ..errors import EmptyInputError, InputFormatError
    from ..io.files import check_utf8, display_name, raise_nul_line, read_input

    source = display_name(args.contributors)
    data = read_input(args.contributors)
    check_utf8(data, source)
    if b"\x00" in data:
        raise_nul_line(data, source)
    table: dict[str, str] = {}
    for number, line in enumerate(data.decode("utf-8-sig").splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise InputFormatError("expected 'run contributor'", source=source, line=number,
                                   text=line)
        if fields[0] in table:
            raise InputFormatError(f"run {fields[0]!r} is listed twice", source=source,
                                   line=number, text=line)
        table[fields[0]] = fields[1]
    if not table:
        raise EmptyInputError("no 'run contributor' line", source=source)
    return table


def run_loo(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta

    diversity = diversity_inputs(args)  # ndeval ranks by the rank column
    qrels, runs = qrels_and_runs(args, keep_rank=diversity)
    table = _contributors(args)
    contributors = table if table is not None else (
        lambda name: meta.contributors_by_prefix([name], args.contributor_pattern)[name])
    with scheduler(args) as executor:
        result = meta.leave_one_out(qrels, runs, args.measures,
                                    allow_empty=args.allow_empty,
                                    contributors=contributors,
                                    depth=args.depth, executor=executor)
    frame = result.runs if args.per_run else result.summary
    text = _render(frame, args, repr(result))
    if not args.per_run and args.fmt not in ("csv", "json"):
        text += "\n" + _render(result.unique, args, "unique judged documents per contributor")
    return write_text(args, text)


def run_scales(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta

    if diversity_inputs(args):  # refused before the qrels are read, with the reason
        from ..scales.measures import scale_measure

        scale_measure(args.measures[0])
    qrels, runs = qrels_and_runs(args, keep_rank=args.ties == "rank-column")
    # Tables 2 and 4 are rank correlations: no significance test is run for them (one
    # that cannot be, e.g. an ANOVA of identical runs, refused them too)
    tests = {"tests": ()} if args.table in ("2", "4") else {}
    report = meta.scale_report(qrels, runs, args.measures, args.cutoffs, **tests,
                               collection=args.collection, alpha=args.alpha,
                               ties=args.phi_ties, tie_policy=args.ties,
                               allow_empty=args.allow_empty,
                               progress=wants_progress(args))
    text = report.format(args.table, args.fmt, N=args.table_n, digits=args.digits)
    if args.plot_dir:
        from ..io.files import check_output

        effect = report.effects[-1]
        plots = [(Path(args.plot_dir) / f"{effect.label}_{measure}.png", measure, ranked)
                 for measure, ranked in effect.pairs]
        if os.path.isdir(args.plot_dir):  # every plot checked before the first is drawn
            for path, _, _ in plots:
                check_output(path, force=args.force, option="--plot-dir")
        os.makedirs(args.plot_dir, exist_ok=True)
        for path, measure, ranked in plots:
            meta.plot_measure_vs_ranked(effect.matrix, measure, ranked, path)
    return write_text(args, text)


#: ``meta simulate``'s options passed to :func:`irscale.meta.simulation_study` when given:
#: ``{dest: argument}``.
SIMULATION_ARGUMENTS = {"repetitions": "repetitions", "alpha": "alpha",
                        "checkpoint": "checkpoint", "test": "tests",
                        "correction": "corrections"}


def _given(args: argparse.Namespace, names: Iterable[str]) -> dict[str, Any]:
    """The options among ``names`` given on the command line, by their Python names (those
    not given keep the API's defaults)."""
    return {name: getattr(args, name) for name in names if given(args, name)}


def _simulation_model(args: argparse.Namespace) -> NormalModel | BootstrapModel:
    """The model of ``meta simulate``: a NormalModel of the ``--topics``, ``--systems``,
    ``--effects``, ``--topic-sd`` and ``--error-sd`` given (the API checks them; its errors
    name the option: :func:`irscale.cli.main.named`), or a BootstrapModel of the
    one-measure matrix."""
    from .. import meta

    if args.model == "bootstrap":
        return meta.BootstrapModel.of(_one_measure(args, "a bootstrap simulation"),
                                      null=args.null)
    fields = _given(args, NORMAL_OPTIONS)
    if "effects" in fields:
        fields["effects"] = tuple(args.effects)
        fields.setdefault("systems", len(args.effects))
    return meta.NormalModel(**fields)


def run_simulate(args: argparse.Namespace) -> int:
    check_meta(args)  # every option, before anything heavy is imported

    from .. import meta
    from ..stats.tables import alpha_text
    from .checks import resampling_procedures

    model = _simulation_model(args)
    arguments = {SIMULATION_ARGUMENTS[name]: value
                 for name, value in _given(args, SIMULATION_ARGUMENTS).items()}
    if args.samples is not None:
        arguments["options"] = {name: {"samples": args.samples}
                                for name in resampling_procedures(args.test)}
    with scheduler(args) as executor:
        study = meta.simulation_study(model, rng=args.seed, executor=executor,
                                      progress=wants_progress(args), **arguments)
    title = (f"error rates over {study.repetitions:,} matrices of the {args.model} model "
             f"(α = {alpha_text(study.alpha)}; 95% Wilson intervals)")
    return write_text(args, _render(study.to_frame(), args, title))
