"""``irscale compare``: significance tests, ANOVA, mixed models and multiple comparisons of
systems. ``--test`` chooses the function called (:data:`PROCEDURES`): an option that
function does not take is refused, and its own rules apply, from its binding; the rules
of the command line's own (inputs, formats, --collection, --risk-alpha) are
:data:`AHEAD` and :data:`RULES` (usage: ``docs/cli.md``, ``docs/stats.md``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..core.binding import Choice
from ..core.params import (
    MEMORY_LIMIT,
    RELEVANCE,
    RESAMPLES,
    RNG_SEED,
    SIGNIFICANCE,
    TABLE_DIGITS,
    THREADS,
    InputFiles,
    Names,
    Param,
    Text,
)
from ..errors import ParameterError
from ..evaluation.params import COLLECTION, COLLECTIONS
from ..io.formats import TABLE_FORMATS
from ..stats import params as sp
from ..stats.names import (
    ALTERNATIVE,
    ALTERNATIVES,
    ANOVA_TRANSFORM,
    BASELINE,
    COMPARE_TEST,
    DOCUMENT_MODELS,
    FAMILY,
    MIXED_METHOD,
    MODEL_NAMES,
    MULTI_TESTS,
    MULTIPLE_CORRECTION,
    RANDOM,
    RANK_MODELS,
    REPLICATE_MODELS,
    RESAMPLE,
    RESAMPLING,
    RISK,
    SHARD_EMPTY,
    TEST_NAMES,
    WEIGHTS,
    is_resampling,
)
from .common_params import PLOT
from .compare_collections import (
    WEIGHTS_RULE,
    across,
    check_collections,
)
from .dataset_options import (
    add_dataset_options,
    apply_dataset_conventions,
    note,
    refuse_level,
)
from .inputs import (
    SOURCES_RULE,
    add_inputs,
    add_standardise,
    check_inputs,
    input_paths,
    load_matrix,
)
from .intervals import add_interval_options, interval_arguments
from .main import SUBCOMMANDS, given
from .options import (
    DIGITS_RULE,
    add_command,
    add_format,
    add_output,
    add_progress,
    add_scheduler,
    check_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import Done, Output, plot_output
from .rules import Declared, Rule, applies_to, words

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from ..stats.mixed import MixedModelResult
    from ..stats.results import AnovaResult, RankTestResult

#: ``--test``: the procedure or two-system test run.
TEST = Param("test", COMPARE_TEST, "tukey-hsd", "procedure or two-system test", ("--test",),
             label="--test")
#: The models of ``--model`` besides formulas (``topic + system``).
MODELS = (*MODEL_NAMES, *RANK_MODELS)
MODEL = Param("model", Text(), "topic+system", f"model of tukey-hsd: {' | '.join(MODELS)} or "
              "a formula; of scheffe: an ANOVA model or a formula", ("--model",))
SHARD_SCORES = Param("shard_scores", InputFiles(), None, "--test mixed and bootstrap-anova: topics "
                     "× runs × shards (replicates, or query variants) scores, the CSV "
                     "topic,run,shard,value that irscale pool shards --shard-scores writes, "
                     "instead of --scores or runs; empty values are missing scores",
                     ("--shard-scores",), "FILE", unset="none")


#: The functions ``--test bootstrap-anova`` and ``document-sampling`` call, with the
#: parameters this command adds: ``--model`` (the bootstrap ANOVA's interaction; the
#: document-sampling test's model) and the level of the document-sampling test.
BOOTSTRAP_ANOVA = sp.BOOTSTRAP_ANOVA.extended(
    Param("model", Names("bootstrap ANOVA model", REPLICATE_MODELS), REPLICATE_MODELS[0],
          "replicates: with the topic × system interaction", ("--model",)))
DOCUMENT_SAMPLING = sp.DOCUMENT_VARIANCE.extended(
    Param("model", Names("document-sampling model", DOCUMENT_MODELS), DOCUMENT_MODELS[0],
          "the model of the document-sampling test", ("--model",)), SIGNIFICANCE)
#: The function each ``--test`` calls, by its binding (:class:`~irscale.core.binding.Choice`):
#: an option is refused where the chosen function does not take it, and the chosen
#: function's rules apply; not with ``--risk-alpha`` or ``--collection`` (other functions,
#: :data:`AHEAD`).
PROCEDURES = Choice(
    on=TEST,
    bindings={"tukey-hsd": sp.TUKEY, "randomized-tukey-hsd": sp.RANDOMIZED_TUKEY,
              "scheffe": sp.SCHEFFE,
              "mixed": sp.MIXED, "bootstrap-anova": BOOTSTRAP_ANOVA,
              "document-sampling": DOCUMENT_SAMPLING,
              **dict.fromkeys(TEST_NAMES, sp.PAIRWISE)},
    shared=(SIGNIFICANCE,), unless=(RISK, COLLECTION, COLLECTIONS))


#: The options of the significance tests, which --risk-alpha (its own t-test) refuses.
TEST_OPTIONS = ("test", "model", "transform", "plot", "correction", "alternative", "samples",
                "seed", "workers", "scheduler", "alpha", "random", "family", "method",
                "shard_scores")


def _risk_alone(args: argparse.Namespace) -> None:
    """``--risk-alpha`` calls :func:`irscale.stats.risk.risk_table`, not a test of
    ``--test``: refuse the tests' options with it, and ask for one ``--baseline``."""
    if not given(args, "risk_alpha"):
        return
    from .rules import spelling

    named = [spelling(args, dest) for dest in TEST_OPTIONS if given(args, dest)]
    if named:
        raise ParameterError(f"{words(named)} {'applies' if len(named) == 1 else 'apply'} "
                             "to the significance tests, not to --risk-alpha (TRisk is its "
                             "own t-test: its p-value is printed)")
    if args.baseline is None:
        raise ParameterError("--risk-alpha needs --baseline SYSTEM (the run every other "
                             "system is compared with)")
    if len(args.baseline) != 1:
        raise ParameterError(f"--risk-alpha compares with one baseline; --baseline names "
                             f"{len(args.baseline)}")


def _shard_inputs(args: argparse.Namespace) -> None:
    """``--shard-scores`` is the whole input of the mixed model and of the bootstrap ANOVA:
    refuse the other inputs."""
    if args.shard_scores is None:
        return
    others = [name for name, dest in (("--scores", "scores"), ("-m", "measures"),
                                      ("--systems", "systems"),
                                      ("--standardise", "standardise"),
                                      ("--topic-column", "topic_column"))
              if given(args, dest)]
    if input_paths(args):
        others.insert(0, "QRELS RUN...")
    if others:
        raise ParameterError(f"--shard-scores is the input of --test {args.test}: give it "
                             f"without {', '.join(others)}")


def _interval_reason(args: argparse.Namespace) -> str | None:
    """Why ``--ci`` does not apply to this call (None: it does): it gives intervals of the
    plain means over topics, those of the two-system tests, of Tukey's HSD and Scheffé's
    method after an ANOVA of untransformed scores and of the randomised Tukey HSD."""
    what = ("--ci gives the intervals over topics of the means of the scores: the "
            "two-system tests, --test tukey-hsd (an ANOVA model), scheffe and "
            "randomized-tukey-hsd print them")
    if given(args, "risk_alpha"):
        return f"{what}, not --risk-alpha"
    if args.test in ("mixed", "bootstrap-anova", "document-sampling"):
        return f"{what}, not --test {{test}}"
    if args.test == "tukey-hsd" and args.model in RANK_MODELS:
        return f"{what}, not --model {{model}} (a rank test's mean ranks)"
    if args.test in ("tukey-hsd", "scheffe") and args.transform != "none":
        return f"{what}, not --transform {{transform}} (the means of transformed scores)"
    return None


#: The procedures of score matrices that compare one measure (``_measure_of``).
ONE_MEASURE = (*MULTI_TESTS, "mixed")


def _conventions_apply(args: argparse.Namespace) -> None:
    """What the dataset's conventions give, checked: one official measure for a procedure
    of one measure (several: refused, listing them, rather than one chosen), and relevance
    level 1 for ``--test document-sampling`` (it counts every grade of 1 or more
    relevant)."""
    applied = args.conventions
    if applied is not None and applied.measures is not None and len(applied.measures) > 1 \
            and args.test in ONE_MEASURE and not given(args, "risk_alpha"):
        raise ParameterError(f"--test {args.test} compares one measure and the official "
                             f"measures of {applied.dataset} are {len(applied.measures)} "
                             f"({', '.join(applied.measures)}): choose one with -m")
    if args.test == "document-sampling":
        refuse_level(args, "--test document-sampling counts every grade of 1 or more "
                     "relevant")


def _random_terms(args: argparse.Namespace) -> None:
    """The random terms beyond ``topic`` need a third axis of replicates: scores of
    ``--shard-scores`` (a score table has topics and systems alone)."""
    if args.shard_scores is None and not set(args.random) <= {"topic"}:
        raise ParameterError("--random: the terms shard, topic:shard and topic:system need "
                             "topics × systems × shards (or query variants) scores: give "
                             "them with --shard-scores FILE (the CSV topic,run,shard,value "
                             "of irscale pool shards --shard-scores)")


#: The rules of the command line's own checked before those of :data:`PROCEDURES`: the
#: calls of other functions (``--collection``, ``--risk-alpha``).
AHEAD: tuple[Declared, ...] = (check_collections, _risk_alone)
#: The rules of the command line's own after those of :data:`PROCEDURES`, in the order
#: they are checked: the inputs each procedure reads, the plot, the threads' scheduler,
#: the intervals, the formats.
RULES: tuple[Declared, ...] = (
    Rule(("scores", "standardise", "systems"), lambda args: args.test != "document-sampling",
         "{options} {applies} to the tests of score tables, not to --test document-sampling: "
         "it reads the qrels and two runs (QRELS RUN RUN -m AP or P@k)"),
    *applies_to("test", {"plot": ("tukey-hsd", "scheffe"),
                         "shard_scores": ("mixed", "bootstrap-anova")}),
    Rule(("plot",), lambda args: args.model not in RANK_MODELS,
         "{options} {applies} to an ANOVA model, not to --model {model} (a rank test: it has "
         "no residuals)"),
    Rule(("test",), lambda args: args.test != "bootstrap-anova" or args.shard_scores is not None,
         "--test bootstrap-anova needs replicated scores: give them with --shard-scores FILE "
         "(the CSV topic,run,shard,value of irscale pool shards --shard-scores)"),
    _shard_inputs,
    _random_terms,
    WEIGHTS_RULE,
    Rule(("scheduler",), lambda args: is_resampling(args.test),
         f"{{options}} {{applies}} to resampling tests ({RESAMPLING}), not to --test {{test}}"),
    Rule(("ci",), lambda args: _interval_reason(args) is None,
         lambda args: _interval_reason(args) or ""),
    DIGITS_RULE,
    SOURCES_RULE,
    check_scheduler,
    Rule(("relevance_level",), lambda args: bool(input_paths(args)), "-l applies to QRELS "
         "RUN..., not to --scores, --shard-scores or --collection"),
    apply_dataset_conventions,
    _conventions_apply,
)


def add_parser(subparsers) -> None:
    """Register ``irscale compare``: its options and the rules of when they apply."""
    add_command(
        subparsers, "compare", run,
        lambda p: add_inputs(p, measure_help="measure (repeatable for pairwise tests; "
                             "default: the only measure of the --scores files, or the "
                             "dataset's official measures)"),
        (RELEVANCE, {"doc": "QRELS RUN...: smallest relevant grade (trec_eval's -l; default: "
                     "1, or the dataset's)"}), add_dataset_options,
        add_standardise,
        (BASELINE, {"many": True, "metavar": "SYSTEM[,SYSTEM...]"}),
        (RISK, {"type": float}), TEST, MODEL, RESAMPLE,
        (SHARD_EMPTY, {"doc": "--test bootstrap-anova: scores of a topic without relevant "
                       "documents in a replicate (undefined)"}),
        ANOVA_TRANSFORM, (PLOT, {"doc": "write the normal Q-Q plot of the ANOVA's residuals "
                                 "(with --collection: the forest plot of every pair's "
                                 "effect across the collections) to FILE, PNG/SVG/PDF"}),
        (MULTIPLE_CORRECTION, {"doc": "multiple-comparison correction of the pairwise tests "
                               "(two-system tests, or the Wald tests of --test mixed; the "
                               "bootstrap p-values of --test bootstrap-anova, where the "
                               "default is bh)"}),
        (RANDOM, {"many": True, "doc": "--test mixed: comma-separated random terms (topic; "
                  "shard, topic:shard and topic:system need --shard-scores)"}),
        (FAMILY, {"doc": "--test mixed: gaussian (linear mixed model) or binomial (logit GLMM "
                  "of 0/1 scores, e.g. success@k)"}),
        (MIXED_METHOD, {"doc": "--test mixed, gaussian: estimator"}), SHARD_SCORES,
        SIGNIFICANCE, (ALTERNATIVE, {"choices": ALTERNATIVES}),
        (RNG_SEED, {"doc": "seed of resampling tests and of --collection's bootstrap"}),
        (RESAMPLES, {"doc": "resamples of the resampling tests and of --collection's "
                     "bootstrap"}),
        (COLLECTION, {"action": "append"}), COLLECTIONS, WEIGHTS,
        (MEMORY_LIMIT, {"doc": "--collection: refuse, with the estimate, collections whose "
                        "evaluation or mixed model would take more memory than SIZE (2G, "
                        "500M, 1.5GiB; powers of 1024)"}),
        (THREADS, {"doc": "threads for resampling"}),
        lambda p: add_scheduler(p, "the resampling"),
        lambda p: add_interval_options(p, "each system's mean and every pair's mean "
                                       "difference (paired by topic)"),
        lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS, add_progress, add_output,
        binding=PROCEDURES, ahead=AHEAD, rules=RULES,
        example="--scores ap.csv --test randomization --samples 20 --seed 1",
        help=SUBCOMMANDS["compare"],
        description="Compare systems on per-topic scores: two-system tests on every pair "
        "with a multiple-comparison correction, an ANOVA model with Tukey's HSD or Scheffé's "
        "method, a mixed "
        "model or a bootstrap ANOVA. See docs/stats.md.")


def _measure_of(matrix: ScoreMatrix, measures: list[str] | None) -> str:
    """The one measure an ANOVA or Tukey HSD compares: the ``-m`` given, else the only one."""
    if measures and len(measures) > 1:
        raise ParameterError(f"an ANOVA / Tukey HSD compares one measure, got {len(measures)} "
                             f"({', '.join(measures)}): give one -m")
    if measures and measures[0] in matrix.measures:
        return measures[0]
    if len(matrix.measures) == 1:
        return matrix.measures[0]
    raise ParameterError(f"choose one measure with -m among {list(matrix.measures)}")


def _mixed_of_shards(args: argparse.Namespace):
    """The mixed model of ``--shard-scores`` and its Wald tests of every pair."""
    from .meta_common import shard_scores  # with the meta parameters: shards only

    shards = shard_scores(args.shard_scores)
    from ..stats.mixed import mixed_model

    fitted = mixed_model(shards, random=args.random, family=args.family,
                         method=args.method if args.family == "gaussian" else None,
                         alpha=args.alpha, correction=args.correction)
    return fitted, fitted.pairwise()


def _bootstrap_of_shards(args: argparse.Namespace):
    """The bootstrap ANOVA of ``--shard-scores`` and its pairwise decisions."""
    from .meta_common import shard_scores

    shards = shard_scores(args.shard_scores)
    from ..stats.replicates import bootstrap_anova

    model = args.model if given(args, "model") else REPLICATE_MODELS[0]
    result = bootstrap_anova(shards, interaction=model == "replicates", resample=args.resample,
                             samples=args.samples or 1000, alpha=args.alpha,
                             correction=args.correction if given(args, "correction") else "bh",
                             empty=args.empty, rng=args.seed, progress=wants_progress(args))
    return result, result.pairs


def _document_sampling(args: argparse.Namespace):
    """The document-sampling test of the two runs of ``QRELS RUN RUN``."""
    from ..io.sources import read_qrels, read_run
    from ..stats.names import document_sampling_cutoff

    paths = input_paths(args)
    if len(paths) != 3 or not args.measures or len(args.measures) != 1:
        raise ParameterError("--test document-sampling compares two runs on one measure: "
                             "give QRELS RUN RUN and one -m (AP or P@k)")
    document_sampling_cutoff(args.measures[0])  # before the files are read
    judgments = read_qrels(paths[0])  # every file read before pandas is imported
    read = [read_run(path) for path in paths[1:]]
    judged = judgments.to_frame()
    qrels = {t: dict(zip(g["doc_id"], g["relevance"].astype(int), strict=True))
             for t, g in judged.groupby("query_id", sort=False)}
    runs = []
    for run in read:
        frame = run.to_frame()
        runs.append({t: dict(zip(g["doc_id"], g["score"].astype(float), strict=True))
                     for t, g in frame.groupby("query_id", sort=False)})
    from ..stats.document_sampling import document_sampling_test, document_variance

    table = document_variance(qrels, runs[0], runs[1], args.measures[0],
                              samples=args.samples or 1000, rng=args.seed,
                              progress=wants_progress(args))
    model = args.model if given(args, "model") else DOCUMENT_MODELS[0]
    return document_sampling_test(table["d"].to_numpy(), table["v"].to_numpy(), model=model,
                                  alpha=args.alpha, topics=table["topic"].tolist())


def compare(args: argparse.Namespace):
    """Run the requested analysis: (omnibus result or None, pairwise comparisons)."""
    test = args.test
    progress = wants_progress(args)
    if test == "bootstrap-anova":
        return _bootstrap_of_shards(args)
    if test == "document-sampling":
        return _document_sampling(args), None
    if args.shard_scores is not None:
        return _mixed_of_shards(args)
    matrix = load_matrix(args)  # before the statistics: a malformed input is told at once
    # each procedure imports its own module: a two-system test loads no ANOVA (scipy.stats)
    if test == "tukey-hsd":
        from ..stats.tukey import tukey_model

        measure = _measure_of(matrix, args.measures)
        omnibus: AnovaResult | RankTestResult = tukey_model(
            matrix, args.model, measure=measure, transform=args.transform)
        return omnibus, _intervals(args, matrix, omnibus.tukey_hsd(alpha=args.alpha),
                                   measure)
    if test == "scheffe":
        from ..stats.anova import anova
        from ..stats.tukey import scheffe

        measure = _measure_of(matrix, args.measures)
        fit = anova(matrix, args.model, measure=measure, transform=args.transform)
        return fit, _intervals(args, matrix, scheffe(
            matrix, args.model, alpha=args.alpha, measure=measure, transform=args.transform),
            measure)
    if test == "mixed":
        from ..stats.mixed import mixed_model

        fitted: MixedModelResult = mixed_model(
            matrix, measure=_measure_of(matrix, args.measures), random=args.random,
            family=args.family, method=args.method if args.family == "gaussian" else None,
            alpha=args.alpha, correction=args.correction)
        return fitted, fitted.pairwise()
    from ..stats.registry import test_spec

    spec = None if test == "randomized-tukey-hsd" else test_spec(test)
    resampling = {"samples": args.samples} if given(args, "samples") else {}
    with scheduler(args) as executor:
        where = {"workers": args.workers} if executor == "local" else {"executor": executor}
        if spec is None:
            from ..stats.randomized_tukey import randomized_tukey_hsd

            measure = _measure_of(matrix, args.measures)
            return None, _intervals(args, matrix, randomized_tukey_hsd(
                matrix, alpha=args.alpha, measure=measure, rng=args.seed, progress=progress,
                **resampling, **where), measure)
        options: dict[str, Any] = {}
        if spec.resampling:  # --samples/--seed/--workers/--scheduler otherwise: refused
            options = {**resampling, "rng": args.seed, "progress": progress, **where}
        from ..stats.pairwise import pairwise_tests

        measures = list(args.measures) if args.measures else None
        return None, _intervals(args, matrix, pairwise_tests(
            matrix, spec.name, correction=args.correction, alpha=args.alpha,
            alternative=args.alternative, measures=measures, baseline=args.baseline,
            **options,
        ), measures[0] if measures else None)


def _intervals(args: argparse.Namespace, matrix: ScoreMatrix, pairs: Any,
               measure: str | None) -> Any:
    """``pairs`` with the intervals of ``--ci`` (:mod:`irscale.stats.pair_intervals`), or
    as it is without."""
    if args.ci is None:
        return pairs
    from ..stats.pair_intervals import with_mean_intervals

    return with_mean_intervals(pairs, matrix, args.ci, measure=measure,
                               **interval_arguments(args))


def run(args: argparse.Namespace) -> Done:
    """``irscale compare``: the tests of the options checked by :data:`RULES`."""
    note(args)  # the dataset conventions applied (--dataset, irds: qrels)
    if across(args):
        from .compare_collections import compare_collections

        found = compare_collections(args)
        text = found.format(args.fmt, digits=args.digits)
        if args.plot:
            from ..plots.across import forest

            return [plot_output(forest(found).figure, args.plot), Output(text)]
        return text
    if given(args, "risk_alpha"):
        check_inputs(args)
        from ..stats.risk import format_risk, risk_table

        matrix = load_matrix(args)  # --baseline, a run's name or file, found among the runs
        baseline = args.baseline[0]
        table = risk_table(matrix, baseline, args.risk_alpha, measures=args.measures or None)
        return format_risk(table, baseline, args.risk_alpha, args.fmt, digits=args.digits)
    if args.shard_scores is None:
        check_inputs(args)
    omnibus, pairs = compare(args)
    if pairs is None:  # --test document-sampling: one test of two runs
        return omnibus.format(args.fmt, digits=args.digits)
    from ..stats.tables import format_comparison

    text = format_comparison(omnibus, pairs, args.fmt, digits=args.digits)
    if args.plot:
        from ..plots.residuals import residual_qq

        return [plot_output(residual_qq(omnibus).figure, args.plot), Output(text)]
    return text
