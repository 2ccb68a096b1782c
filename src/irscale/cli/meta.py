"""``irscale meta``: meta-evaluation of measures, test collections and significance tests.

    irscale meta correlate      --scores A.csv --scores B.csv [--method kendall] [--by topic]
    irscale meta discriminative-power --scores F.csv [--method bootstrap] [-B 1000] [--seeds 10]
    irscale meta split          --scores F.csv [--sizes 5,10,25] [--models MD1,MD2,MD2f]
    irscale meta swap           --scores F.csv [--sizes 5,10,25] [--bin-width 0.01]
    irscale meta concordance    QRELS RUN... -m M1 -m M2 -m GOLD --gold GOLD
    irscale meta loo            QRELS RUN... -m map [--depth 100]
    irscale meta scales         QRELS RUN... [-m P -m AP ...] [--cutoffs 5,10,20,30]

Scores come from score-matrix CSV files (``--scores``, one column per system, one row per
topic; each file is a measure named after the file) or from qrels and runs evaluated with
``-m MEASURE`` (as ``irscale compare``). Every subcommand prints a table (``--format``
text, csv, markdown, latex or json); ``--plot FILE`` writes a PNG or SVG where a plot
exists (matplotlib needed). See ``docs/meta.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import ParameterError
from .checks import check_meta, check_sizes_option, select_systems
from .outputs import add_output, input_paths, write_text
from .runargs import add_run_options

_SCORE_COMMANDS = ("correlate", "discriminative-power", "split", "swap", "concordance")


def _ints(text: str) -> list[int]:
    try:
        return [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") \
            from None


def _names(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _common(parser: argparse.ArgumentParser, *, scores: bool = True) -> None:
    from ..stats import FORMATS

    parser.add_argument("inputs", nargs="*", metavar="QRELS RUN",
                        help="qrels file then run files (evaluated with -m MEASURE)")
    if scores:
        parser.add_argument("--scores", action="append", default=[], metavar="FILE",
                            help="score-matrix CSV (one column per system, one row per "
                            "topic); repeatable, one file per measure")
        parser.add_argument("--topic-column", default=None, metavar="COL",
                            help="column of the CSV holding topic ids (default: row order)")
    parser.add_argument("-m", "--measure", action="append", dest="measures", default=None,
                        metavar="MEASURE", help="measure (repeatable)")
    add_run_options(parser)  # --names, --allow-empty
    if scores:
        parser.add_argument("--systems", default=None, metavar="A,B,...",
                            help="comma-separated systems to keep (default: all)")
    parser.add_argument("--format", default="text", choices=FORMATS, dest="fmt",
                        help="output format (default text)")
    parser.add_argument("--digits", type=int, default=None,
                        help="decimals in text, markdown and latex tables (0-17, default 4)")
    add_output(parser)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "meta",
        help="meta-evaluation: correlation, discriminative power, topic splitting, ...",
        description="Meta-evaluation of measures and significance tests (seed 001 §5, "
        "seed 002 §3, seed 000 §7).",
    )
    sub = parser.add_subparsers(dest="meta_command", metavar="ANALYSIS")

    p = sub.add_parser("correlate", help="rank correlation between two measures")
    _common(p)
    p.add_argument("--method", default="kendall",
                   help="kendall | tau_ap | tau_ap_sym | spearman | rbo (default kendall)")
    p.add_argument("-p", "--p", type=float, default=None,
                   help="RBO persistence in (0, 1), --method rbo only (default 0.9)")
    p.add_argument("--by", default="overall", choices=("overall", "topic", "matrix"),
                   help="overall (means, then correlate), topic (one value per topic) or "
                   "matrix (every two measures)")
    p.add_argument("--bootstrap", type=int, default=None, metavar="B",
                   help="bootstrap confidence interval of the overall correlation with B ≥ 2 "
                   "samples (--by overall)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=run_correlate)

    p = sub.add_parser("discriminative-power", aliases=["dp"],
                       help="ASL of every pair and discriminative power (seed 001 §5.1)")
    _common(p)
    p.add_argument("--method", default="bootstrap",
                   help="bootstrap | randomized-tukey-hsd | both (default bootstrap)")
    p.add_argument("-B", "--samples", type=int, default=1000, help="resamples (default 1000)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seeds", type=int, default=None, metavar="R",
                   help="repeat with seeds seed..seed+R-1 and report the Monte Carlo spread")
    p.add_argument("--convention", default="plus-one", choices=("plus-one", "proportion"),
                   help="p-value convention: (c+1)/(B+1) or c/B (default plus-one)")
    p.add_argument("--pairs", action="store_true", help="print the ASL of every pair")
    p.add_argument("--plot", default=None, metavar="FILE", help="ASL curves as PNG/SVG")
    p.set_defaults(func=run_discriminative_power)

    p = sub.add_parser("split", help="topic-splitting consistency (seed 002 §3)")
    _common(p)
    p.add_argument("--sizes", type=_ints, default=[5, 10, 15, 20, 25],
                   help="topics per split (default 5,10,15,20,25)")
    p.add_argument("--repetitions", type=int, default=100)
    p.add_argument("--models", type=_names, default=["MD1", "MD2", "MD2f"],
                   help="procedures compared with themselves (default MD1,MD2,MD2f)")
    p.add_argument("--cross", type=_names, default=[], metavar="A:B,...",
                   help="different models: A on the first half, B on the second")
    p.add_argument("--metric", default=None,
                   help="print one metric by size (sig_1, AA, AD, MA, MD, jaccard, overlap, "
                   "tau, bias); default: the agreement table and τ")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="the metric (default τ) against the split size, PNG/SVG")
    p.set_defaults(func=run_split)

    p = sub.add_parser("swap", help="swap method and swap rates (Voorhees & Buckley)")
    _common(p)
    p.add_argument("--sizes", type=_ints, default=[5, 10, 15, 20, 25])
    p.add_argument("--repetitions", type=int, default=100)
    p.add_argument("--bin-width", type=float, default=0.01)
    p.add_argument("--test", default=None, help="count only pairs significant on TS1")
    p.add_argument("--alpha", type=float, default=None,
                   help="significance level of --test (default 0.05)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--by-bin", action="store_true", help="swap rate per difference bin")
    p.set_defaults(func=run_swap)

    p = sub.add_parser("concordance", help="concordance test (seed 001 Fig. 17)")
    _common(p)
    p.add_argument("--gold", type=_names, required=True, metavar="M*,...",
                   help="gold-standard measure(s); the other measures are the candidates")
    p.add_argument("--alpha", type=float, default=0.05)
    p.set_defaults(func=run_concordance)

    p = sub.add_parser("loo", help="leave-one-out reusability test (seed 001 §5.4)")
    _common(p, scores=False)
    p.add_argument("--depth", type=int, default=100, help="pool depth (default 100)")
    p.add_argument("--contributor-pattern", default=None, metavar="REGEX",
                   help="contributor = part of the run name matched (default: up to '_')")
    p.add_argument("--contributors", default=None, metavar="FILE",
                   help="file of 'run contributor' lines (overrides the pattern)")
    p.add_argument("--per-run", action="store_true", help="print every run")
    p.set_defaults(func=run_loo)

    p = sub.add_parser("scales", help="measures vs their interval-scaled versions "
                       "(seed 000 Tables 2, 4, 5, 6)")
    _common(p, scores=False)
    p.add_argument("--cutoffs", type=_ints, default=[5, 10, 20, 30],
                   help="run lengths N (default 5,10,20,30)")
    p.add_argument("--table", default="all", choices=("all", "2", "4", "5", "6", "invariants"))
    p.add_argument("-N", type=int, default=None, dest="table_n",
                   help="cut-off of Tables 4-6 (default: the largest)")
    p.add_argument("--collection", default="T", help="track label prefix (default T)")
    p.add_argument("--alpha", type=float, default=None,
                   help="significance level of tables 5, 6 and invariants (default 0.05)")
    p.add_argument("--plot-dir", default=None, metavar="DIR",
                   help="write a scatter of each measure vs its ranked version (PNG)")
    p.set_defaults(func=run_scales)
    parser.set_defaults(func=lambda args: parser.error(
        f"choose an analysis: {', '.join(sub.choices)}"))


# --------------------------------------------------------------------------- helpers
def _runs(args: argparse.Namespace) -> object:
    """The runs of ``args.inputs``, read once and named as ``--names`` says (runs that share
    a run id after their files, with a warning)."""
    from ..io.trec import read_runs

    return read_runs(args.inputs[1:], names=args.names or "runid")


def _matrix(args: argparse.Namespace):
    """The score matrix: from --scores files (as ``irscale compare``) or qrels and runs."""
    from .compare import load_matrix

    if args.scores or not args.inputs:
        return load_matrix(args)
    if len(args.inputs) < 3:
        raise ParameterError("give a qrels file and at least two run files (or --scores FILE)")
    if not args.measures:
        raise ParameterError("name the measure(s) with -m (e.g. -m map)")
    from ..evaluation import evaluate

    matrix = evaluate(args.inputs[0], _runs(args), args.measures,
                      allow_empty=args.allow_empty).to_matrix(allow_missing=True)
    matrix.check_complete()
    return select_systems(matrix, args.systems)


def _measures(matrix, args: argparse.Namespace) -> list[str]:
    wanted = [m for m in (args.measures or []) if m in matrix.measures]
    return wanted or list(matrix.measures)


def _render(frame, args: argparse.Namespace, title: str | None = None) -> str:
    from ..meta.common import format_frame

    return format_frame(frame, args.fmt, digits=args.digits,
                        title=None if args.fmt in ("csv", "json") else title)


# --------------------------------------------------------------------------- commands
def run_correlate(args: argparse.Namespace) -> int:
    import pandas as pd

    from .. import meta

    check_meta(args)
    matrix = _matrix(args)
    names = _measures(matrix, args)
    options = {"p": args.p} if meta.rank_correlation.method_name(args.method) == "rbo" else {}
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
                                    f"(mean {series.mean():.4f})"))
    if args.bootstrap:
        ci = meta.correlation_ci(matrix, measure_a=a, measure_b=b, method=args.method,
                                 samples=args.bootstrap, rng=args.seed, **options)
        frame = ci.to_frame()
    else:
        value = meta.overall_correlation(matrix, measure_a=a, measure_b=b, method=args.method,
                                         **options)
        frame = pd.DataFrame([{"method": args.method, "estimate": value}])
    frame.insert(0, "measures", f"{a} vs {b}")
    return write_text(args, _render(frame, args, "overall correlation"))


def run_discriminative_power(args: argparse.Namespace) -> int:
    import pandas as pd

    from .. import meta

    check_meta(args)
    matrix = _matrix(args)
    methods = ["bootstrap", "randomized-tukey-hsd"] if args.method == "both" else [args.method]
    options = dict(samples=args.samples, alpha=args.alpha, convention=args.convention)
    parts, results = [], {}
    for name in _measures(matrix, args):
        table = matrix.measure(name)
        for method in methods:
            if args.seeds:
                base = args.seed or 0
                spread = meta.discriminative_power_spread(
                    table, method, seeds=range(base, base + args.seeds), **options)
                parts.append(spread)
                continue
            result = meta.discriminative_power(table, method, rng=args.seed, **options)
            results[f"{name} ({result.method})"] = result
            parts.append(result.to_frame().assign(measure=name, method=result.method)
                         if args.pairs else pd.DataFrame([result.summary()]))
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
    return write_text(args, _render(frame, args, f"discriminative power (B = {args.samples}, "
                                f"α = {args.alpha:g}, p = {args.convention})"))


def _cross(items: list[str]) -> list[tuple[str, str]]:
    pairs = []
    for item in items:
        if ":" not in item:
            raise ParameterError(f"--cross takes A:B pairs, got {item!r}")
        a, b = item.split(":", 1)
        pairs.append((a, b))
    return pairs


def _one_measure(args: argparse.Namespace, what: str):
    """The one-measure score matrix an analysis of a single measure needs."""
    matrix = _matrix(args)
    names = _measures(matrix, args)
    if len(names) != 1:
        raise ParameterError(f"{what} studies one measure: choose one with -m ({names})")
    return matrix.measure(names[0])


def run_split(args: argparse.Namespace) -> int:
    from .. import meta

    check_meta(args)
    table = _one_measure(args, "topic splitting")
    study = meta.split_study(table, check_sizes_option(args, table.n_topics),
                             args.repetitions,
                             models=args.models, cross=_cross(args.cross), alpha=args.alpha,
                             rng=args.seed, progress=sys.stderr.isatty())
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
    from .. import meta

    check_meta(args)
    table = _one_measure(args, "the swap method")
    result = meta.swap_rates(table, check_sizes_option(args, table.n_topics),
                             args.repetitions,
                             bin_width=args.bin_width, test=args.test, alpha=args.alpha,
                             rng=args.seed)
    frame = result.rates if args.by_bin else result.overall
    return write_text(args, _render(frame, args, repr(result)))


def run_concordance(args: argparse.Namespace) -> int:
    from .. import meta

    check_meta(args)
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
    from .. import meta

    check_meta(args)
    if len(args.inputs) < 3:
        raise ParameterError("give a qrels file and at least two run files")
    if not args.measures:
        raise ParameterError("name the measure(s) with -m (e.g. -m map)")
    table = _contributors(args)
    contributors = table if table is not None else (
        lambda name: meta.contributors_by_prefix([name], args.contributor_pattern)[name])
    result = meta.leave_one_out(args.inputs[0], _runs(args), args.measures,
                                allow_empty=args.allow_empty,
                                contributors=contributors,
                                depth=args.depth)
    frame = result.runs if args.per_run else result.summary
    text = _render(frame, args, repr(result))
    if not args.per_run and args.fmt not in ("csv", "json"):
        text += "\n" + _render(result.unique, args, "unique judged documents per contributor")
    return write_text(args, text)


def run_scales(args: argparse.Namespace) -> int:
    from .. import meta
    from ..meta.scale_effects import DEFAULT_MEASURES

    check_meta(args)
    if len(args.inputs) < 3:
        raise ParameterError("give a qrels file and at least two run files")
    report = meta.scale_report(args.inputs[0], _runs(args),
                               args.measures or list(DEFAULT_MEASURES), args.cutoffs,
                               collection=args.collection, alpha=args.alpha,
                               allow_empty=args.allow_empty,
                               progress=sys.stderr.isatty())
    text = report.format(args.table, args.fmt, N=args.table_n, digits=args.digits)
    if args.plot_dir:
        from ..io.files import check_output

        os.makedirs(args.plot_dir, exist_ok=True)
        effect = report.effects[-1]
        for measure, ranked in effect.pairs:
            path = Path(args.plot_dir) / f"{effect.label}_{measure}.png"
            check_output(path, inputs=input_paths(args), force=args.force, option="--plot-dir")
            meta.plot_measure_vs_ranked(effect.matrix, measure, ranked, path)
    return write_text(args, text)
