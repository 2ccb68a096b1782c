"""``irscale meta``: meta-evaluation of measures, collections and tests (docs/meta.md). Each
analysis is declared here, or where its run is long in a module ``meta_<name>``."""

from __future__ import annotations

import argparse
import importlib

from ..core.params import (
    INTERVAL_SAMPLES,
    RELEVANCE,
    RESAMPLES,
    RNG_SEED,
    SIGNIFICANCE,
    InputFiles,
    Names,
    Param,
    Switch,
    Text,
)
from ..errors import ParameterError
from ..meta import params as mp
from ..stats.names import QPP_MODEL
from ..stats.params import (
    QPP,
    QPP_COMPARE,
    QPP_CORRELATION,
    QPP_CORRELATIONS,
    QPP_SAMPLES,
)
from .inputs import diversity_inputs, load_matrix, qrels_and_runs
from .meta_common import (
    SIZES,
    analysis,
    given_contributors,
    measure_names,
    one_measure,
    render,
)
from .options import add_actions, add_scheduler, scheduler, wants_progress
from .rules import Rule, given
from .runargs import named_runs, read_inputs

#: ``meta correlate --by``: what is correlated.
CORRELATE_BY = Param("by", Names("grouping", ("overall", "topic", "matrix")), "overall",
                     "overall (means, then correlate), topic (one value per topic) or matrix "
                     "(every two measures)", ("--by",))
#: ``meta loo --per-run``, ``meta pool-bias --new``, ``--per-topic``.
PER_RUN = Param("per_run", Switch(), False, "print every run", ("--per-run",))
NEW_RUNS = Param("new", InputFiles(), None, "a run that did not contribute to the pool "
                 "(repeatable)", ("--new",), "RUN")
PER_TOPIC = Param("per_topic", Switch(), False, "print every topic's adjustment instead of "
                  "the new runs' scores", ("--per-topic",))
#: ``meta predict --preferences``: the side-by-side judgments.
PREFERENCES = Param("preferences", InputFiles(), None, "judgments, one 'topic left right "
                    "preference' a line (preference: left, right or tie)", ("--preferences",),
                    "FILE")
#: ``meta swap --by-bin``.
BY_BIN = Param("by_bin", Switch(), False, "swap rate per difference bin", ("--by-bin",))
#: ``meta qpp``: the two tables of :func:`irscale.stats.qpp_anova`; ``--tukey``.
PREDICTIONS = Param("predictions", InputFiles(), None, "CSV with the columns topic, predictor, "
                    "value and optionally system and variant: one prediction per row",
                    ("--predictions",), "FILE")
OBSERVED = Param("observed", InputFiles(), None, "CSV with the columns topic, value and the same "
                 "optional columns: the effectiveness (e.g. AP) of each query", ("--observed",),
                 "FILE")
TUKEY = Param("tukey", Switch(), False, "also print Tukey's HSD of every pair of predictors",
              ("--tukey",))
#: ``meta qpp --correlations``, ``--compare A,B`` (:func:`irscale.stats.qpp_correlations`,
#: :func:`irscale.stats.qpp_compare`).
QPP_CORRELATIONS_TABLE = Param("correlations", Switch(), False, "also print Pearson's r, "
                               "Kendall's tau and Spearman's rho of every predictor with the "
                               "effectiveness, with Fisher z (and, with -B, bootstrap) "
                               "intervals", ("--correlations",))
QPP_PAIR = Param("compare", Text(), None, "also compare two predictors' correlations on the "
                 "same topics: Steiger's (1980) test and, with -B, the paired bootstrap",
                 ("--compare",), "A,B")


def _qpp_pair(args: argparse.Namespace) -> tuple[str, str] | None:
    """The two predictors of ``--compare A,B`` (None: not given)."""
    if args.compare is None:
        return None
    names = [name.strip() for name in args.compare.split(",")]
    if len(names) != 2 or not all(names):
        raise ParameterError(f"--compare names two predictors, A,B; got {args.compare!r}")
    return names[0], names[1]


#: Only at least one measure is read from QRELS RUN...
AT_LEAST_ONE = "measure (repeatable; at least one)"


def run_correlate(args: argparse.Namespace) -> str:
    """``meta correlate``: the rank correlation of two measures (or every two)."""
    matrix = load_matrix(args)  # a malformed input: reported before pandas is imported
    import pandas as pd

    from .. import meta
    from ..core.numbers import declare
    from ..stats.kendall import NOTHING_TO_RANK

    def undefined_where_tied(frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with its coefficients declared undefined where a ranking ties."""
        return declare(frame, dict.fromkeys(map(str, frame.columns), NOTHING_TO_RANK))

    names = measure_names(matrix, args)
    options = {"method": args.method,
               **({"p": args.p, "ties": args.ties} if args.method == "rbo" else {})}
    if args.by == "matrix":
        frame = meta.correlation_matrix(matrix, names, **options)
        return render(undefined_where_tied(frame.reset_index()), args,
                      f"{args.method}, overall")
    if len(names) != 2:
        raise ParameterError(f"name two measures to correlate (have {names}); or --by matrix")
    pair = {"measure_a": names[0], "measure_b": names[1], **options}
    if args.by == "topic":
        series = meta.topic_correlations(matrix, **pair)
        return render(undefined_where_tied(series.reset_index()), args,
                      f"{args.method}: {names[0]} vs {names[1]}, topic by topic "
                      f"({_topic_mean(series)})")
    if args.samples:
        frame = meta.correlation_ci(matrix, samples=args.samples, rng=args.seed,
                                    progress=wants_progress(args), **pair).to_frame()
    else:
        frame = pd.DataFrame([{"method": args.method,
                               "estimate": meta.overall_correlation(matrix, **pair)}])
    frame.insert(0, "measures", f"{names[0]} vs {names[1]}")
    return render(undefined_where_tied(frame), args, "overall correlation")


def _topic_mean(series) -> str:
    """The mean of the topic-by-topic correlations, over the topics that define one."""
    defined = int(series.notna().sum())
    if not defined:
        return "mean undefined: defined on no topic"
    over = "" if defined == len(series) else f" over the {defined} of {len(series)} topics " \
        "where it is defined"
    return f"mean {series.mean():.4f}{over}"


def run_drank(args: argparse.Namespace) -> str:
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
    from ..core.numbers import declare
    from ..stats.kendall import NOTHING_TO_RANK

    frame = declare(pd.DataFrame([{
        "measures": f"{a} vs {b}", "kendall": float(meta.overall_correlation(
            matrix, measure_a=a, measure_b=b)),
        "d_rank(A|B)": forward.d, "d_rank(B|A)": backward.d,
        "d_rank_sym": (forward.d + backward.d) / 2, "systems": len(forward.ranking),
        "topics": forward.n_topics, "ridge": args.ridge}]), {"kendall": NOTHING_TO_RANK})
    return render(frame, args, "d_rank (Carterette 2009): A's per-topic scores against B's "
                  "ranking, and the reverse")


def run_swap(args: argparse.Namespace) -> str:
    """``meta swap``: swap rates by topic-set size (Voorhees & Buckley 2002)."""
    from .. import meta

    table = one_measure(args, "the swap method")
    with scheduler(args) as executor:
        result = meta.swap_rates(table, args.sizes, args.repetitions,
                                 bin_width=args.bin_width, test=args.test, alpha=args.alpha,
                                 samples=args.samples, rng=args.seed,
                                 progress=wants_progress(args), executor=executor)
    return render(result.rates if args.by_bin else result.overall, args, repr(result))


def run_concordance(args: argparse.Namespace) -> str:
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
    return render(frame, args, f"concordance with {'+'.join(args.gold)}")


def run_loo(args: argparse.Namespace) -> str:
    """``meta loo``: leave-one-contributor-out reusability (Sakai 2014, §5.4)."""
    from ..io.sources import as_runs

    diversity = diversity_inputs(args)  # ndeval ranks by the rank column
    path, named = qrels_and_runs(args, keep_rank=diversity)
    qrels: object = path  # (diversity qrels are read by the evaluation's reader of them)
    runs: list[object]
    if diversity:
        runs = list(as_runs(named, keep_rank=True))
    else:
        qrels, runs = read_inputs(path, named)
    contributors = given_contributors(args)

    from .. import meta  # (after the inputs are read: their errors come first)

    pattern = {} if contributors is not None else \
        {"contributor_pattern": args.contributor_pattern}
    with scheduler(args) as executor:
        result = meta.leave_one_out(qrels, runs, args.measures, allow_empty=args.allow_empty,
                                    contributors=contributors, depth=args.depth,
                                    relevance_level=args.relevance_level, executor=executor,
                                    **pattern)
    text = render(result.runs if args.per_run else result.summary, args, repr(result))
    if not args.per_run and args.fmt not in ("csv", "json"):
        text += "\n" + render(result.unique, args, "unique judged documents per contributor")
    return text


def run_pool_bias(args: argparse.Namespace) -> str:
    """``meta pool-bias``: scores of the --new runs adjusted (Webber & Park 2009)."""
    from ..io.sources import as_runs

    qrels, runs = read_inputs(*qrels_and_runs(args))
    new_runs = list(as_runs(named_runs(args.new, None)))
    contributors = given_contributors(args)

    from .. import meta  # (after the inputs are read: their errors come first)

    result = meta.pooling_bias(qrels, runs, new_runs, args.measures,
                               contributors=contributors, depth=args.depth,
                               relevance_level=args.relevance_level,
                               allow_empty=args.allow_empty)
    return render(result.topics if args.per_topic else result.runs, args, repr(result))


def run_predict(args: argparse.Namespace) -> str:
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
        from ..core.numbers import blank, declare, declared

        own = blank("the overall rows and the bins' rows fill their own columns")
        table = pd.concat([overall, bins], ignore_index=True).convert_dtypes()
        return render(declare(table, {**dict.fromkeys(set(overall.columns) ^ set(bins.columns),
                                                      own), **declared(overall)}), args)
    text = render(overall, args, f"predictive power ({len(preferences)} judgments; measure "
                  f"ties: {args.ties})")
    return text if bins is None else text + "\n" + render(bins, args, "by |ΔM| bin")


def run_qpp(args: argparse.Namespace) -> str:
    """``meta qpp``: sMARE of every predictor and the ANOVA of sARE."""
    from ..io.scores_csv import read_keyed_table
    from ..stats.names import QPP_OPTIONAL_FACTORS as optional

    predictions = read_keyed_table(args.predictions, ("topic", "predictor"), optional)
    observed = read_keyed_table(args.observed, ("topic",), optional)
    import pandas as pd

    from .. import stats

    result = stats.qpp_anova(
        pd.DataFrame({**predictions.keys, "value": predictions.values}),
        pd.DataFrame({**observed.keys, "value": observed.values}), model=args.model,
        labels=(predictions.source, observed.source))
    text = result.format(args.fmt, digits=args.digits)
    if args.tukey:
        text += "\n" + result.anova.tukey_hsd(args.alpha).format(args.fmt, digits=args.digits)
    tables = (pd.DataFrame({**predictions.keys, "value": predictions.values}),
              pd.DataFrame({**observed.keys, "value": observed.values}))
    boot = {"samples": args.samples, "rng": args.seed, "progress": wants_progress(args)}
    labels = (predictions.source, observed.source)
    if args.correlations:
        text += "\n" + stats.qpp_correlations(*tables, alpha=args.alpha, labels=labels,
                                              **boot).format(args.fmt, digits=args.digits)
    pair = _qpp_pair(args)
    if pair is not None:
        text += "\n" + stats.qpp_compare(*tables, *pair, correlation=args.correlation,
                                         alpha=args.alpha, labels=labels, **boot
                                         ).format(args.fmt, digits=args.digits)
    return text


#: The analyses in the order of ``--help``: declared here, or (None) by ``add_parser`` of the
#: module ``meta_<name>`` (``-`` spelt ``_``).
ANALYSES = {
    "correlate": analysis(
        run_correlate, mp.CORRELATION_METHOD,
        (mp.RBO_P, {"label": "the RBO persistence -p/--p (p)"}),
        (mp.RBO_TIES, {"label": "the RBO tie treatment --ties (ties)"}),
        (CORRELATE_BY, {"choices": CORRELATE_BY.domain.names}),
        (RESAMPLES, {"domain": INTERVAL_SAMPLES, "unset": "no interval",
                     "doc": "bootstrap confidence interval of the overall correlation with "
                     "B ≥ 2 resamples, --by overall only"}),
        RNG_SEED, standardise=True, help="rank correlation between two measures",
        binding=mp.CORRELATE,
        example="--scores ap.csv --scores p10.csv",
        # (-p and --ties apply to --method rbo: the binding's rule, mp.RBO_ONLY)
        rules=(Rule(("samples",), lambda args: args.by == "overall", "-B/--samples applies "
                    "to --by overall (the interval of the overall correlation), not to --by "
                    "{by}"),
               Rule(("seed",), lambda args: given(args, "samples"), "--seed applies to "
                    "-B/--samples (the bootstrap interval, the only random part of "
                    "correlate)"))),
    "drank": analysis(run_drank, mp.RIDGE, standardise=True, help="d_rank of two measures "
                      "(Carterette 2009), beside Kendall's tau",
                      example="--scores p10.csv --scores gold.csv", binding=mp.D_RANK),
    "discriminative-power": None,
    "split": None,
    "swap": analysis(
        run_swap, *SIZES, mp.SWAP_BIN_WIDTH, mp.SWAP_TEST,
        (SIGNIFICANCE, {"doc": "significance level of --test"}), RNG_SEED,
        (RESAMPLES, {"doc": "resamples of a resampling --test"}), BY_BIN,
        lambda p: add_scheduler(p, "the repetitions of --test"), standardise=True,
        example="--scores ap.csv --sizes 2,3 --repetitions 3 --seed 1",
        help="swap method and swap rates (Voorhees & Buckley 2002)", binding=mp.SWAP,
        rules=(Rule(("bin_width",), lambda args: args.by_bin, "--bin-width applies to "
                    "--by-bin (the swap rate per difference bin); without it no bins are "
                    "made"),)),
    "concordance": analysis(run_concordance, (mp.GOLD, {"many": True, "required": True}),
                            SIGNIFICANCE, standardise=True,
                            example="--scores ap.csv --scores p10.csv --scores gold.csv "
                            "--gold gold",
                            help="concordance test (Sakai 2014, Fig. 17)",
                            binding=mp.CONCORDANCE),
    "loo": analysis(
        run_loo, mp.LOO_DEPTH, RELEVANCE, mp.CONTRIBUTOR_PATTERN, mp.CONTRIBUTORS, PER_RUN,
        lambda p: add_scheduler(p, "the contributors' evaluations"), scores=False,
        example="qrels.txt a.run b.run c.run -m map --depth 3",
        measure_help=AT_LEAST_ONE, binding=mp.LEAVE_ONE_OUT,
        help="leave-one-out reusability test (Sakai 2014, §5.4)"),
    "pool-bias": analysis(
        run_pool_bias, (NEW_RUNS, {"action": "append", "required": True}), mp.LOO_DEPTH,
        RELEVANCE,
        (mp.CONTRIBUTORS, {"doc": "file of 'run contributor' lines: leave each contributor's "
                           "runs out together", "unset": "each run alone"}), PER_TOPIC,
        example="qrels.txt a.run b.run --new c.run -m map --depth 3", binding=mp.POOL_REUSE,
        scores=False, systems=False, measure_help=AT_LEAST_ONE,
        help="adjust the scores of runs that did not "
        "contribute to the pool (Webber & Park 2009)"),
    "reproduce": None,
    "predict": analysis(
        run_predict, (PREFERENCES, {"required": True}), mp.PREDICT_THRESHOLD,
        (mp.PREDICT_TIES, {"choices": mp.PREDICT_TIES.domain.names}),
        mp.PREDICT_BINS,
        example="--scores ap.csv --preferences prefs.txt", binding=mp.PREDICT,
        systems=False, help="predictive power of measures against "
        "side-by-side user preferences (Sanderson et al. 2010)"),
    "informativeness": None,
    "scales": None,
    "simulate": None,
    "judge-noise": None,
    "gstudy": None,
    "qpp": analysis(
        run_qpp, (PREDICTIONS, {"required": True}), (OBSERVED, {"required": True}), QPP_MODEL,
        TUKEY, QPP_CORRELATIONS_TABLE, QPP_PAIR, QPP_CORRELATION, QPP_SAMPLES, RNG_SEED,
        (SIGNIFICANCE, {"doc": "significance level of --tukey, 1 - the level of the "
                        "intervals of --correlations and --compare"}), inputs=False,
        min_runs=None,
        example="--predictions pred.csv --observed obs.csv",
        binding=(QPP, QPP_CORRELATIONS, QPP_COMPARE),
        help="query performance predictors: sARE, sMARE and their ANOVA (Faggioli et al. "
        "2021)", description="Query performance predictors: sARE, sMARE and their ANOVA "
        "(Faggioli et al. 2021). See docs/stats.md.",
        rules=[Rule(("alpha",), lambda args: args.tukey or args.correlations or
                    args.compare is not None, "--alpha applies to --tukey, --correlations "
                    "and --compare"),
               Rule(("samples", "seed"), lambda args: args.correlations or
                    args.compare is not None, "{options} {applies} to the bootstrap of "
                    "--correlations and --compare"),
               Rule(("correlation",), lambda args: args.compare is not None,
                    "{options} {applies} to --compare A,B")]),
}


def add_parser(subparsers) -> None:
    """Register ``irscale meta`` and its analyses."""
    sub = add_actions(
        subparsers, "meta", what="an analysis", metavar="ANALYSIS",
        description="Meta-evaluation of measures and significance tests (Sakai 2014; Ferro "
        "& Sanderson 2022; Ferrante, Ferro & Fuhr 2021).")
    for name, declared in ANALYSES.items():
        if declared is None:
            module = f".meta_{name.replace('-', '_')}"
            importlib.import_module(module, __package__).add_parser(sub)
        else:
            declared(sub, name)
