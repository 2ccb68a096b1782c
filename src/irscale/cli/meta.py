"""``irscale meta``: meta-evaluation of measures, test collections and significance tests
(``docs/meta.md``; usage in ``docs/cli.md``).

Scores come from score-matrix CSV files (``--scores``) or from qrels and runs evaluated
with ``-m MEASURE`` (:mod:`irscale.cli.inputs`). Every analysis prints a table in
``--format``; ``--plot FILE`` writes a PNG or SVG where a plot exists. Options an analysis
would ignore are refused by the rules declared with its options (:class:`~.options.Rule`).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..core.params import (
    CONTRIBUTOR_PATTERN,
    COPULA,
    COPULA_MARGINS,
    CORRELATION_METHOD,
    CUTOFF,
    DISCRIMINATIVE_METHOD,
    DISCRIMINATIVE_SAMPLES,
    DSTUDY_FACET,
    DSTUDY_TOPICS,
    EFFECT,
    GSTUDY_TARGET,
    INFORMATIVENESS_DEPTH,
    INFORMATIVENESS_MEASURES,
    INTERVAL_SAMPLES,
    LOO_DEPTH,
    MEMORY_LIMIT,
    NORMAL_ERROR_SD,
    NORMAL_SYSTEMS,
    NORMAL_TOPIC_SD,
    NORMAL_TOPICS,
    PREDICT_BIN_EDGE,
    PREDICT_THRESHOLD,
    PREDICT_TIES,
    RBO_P,
    REPRO_DEPTH,
    REPRO_RBO_P,
    RESAMPLES,
    RNG_SEED,
    SCALE_LENGTHS,
    SCALE_MEASURES,
    SIGNIFICANCE,
    SIMULATED_MATRICES,
    SPLIT_METRIC,
    SPLIT_REPETITIONS,
    SPLIT_SIZES,
    SPREAD_SEEDS,
    SWAP_BIN_WIDTH,
    Names,
    Param,
    Reals,
)
from ..errors import InputError, ParameterError
from ..io.formats import TABLE_FORMATS
from ..stats.names import (
    CONVENTION,
    CONVENTIONS,
    PROCEDURE,
    PROCEDURE_PAIR,
    RESAMPLING,
    RESAMPLING_TESTS,
    SHARD_EMPTY,
    SHARD_MODEL_NAMES,
    SIMULATED_CORRECTIONS,
    SIMULATED_TESTS,
    SPLIT_MODELS,
    is_resampling,
    resampling_procedures,
)
from .eval_diversity import intent_rules
from .inputs import (
    SOURCES_RULE,
    add_inputs,
    add_standardise,
    check_inputs,
    diversity_inputs,
    input_paths,
    load_matrix,
    qrels_and_runs,
)
from .main import given
from .options import (
    DIGITS_RULE,
    Checked,
    ListAction,
    add_digits,
    add_format,
    add_option,
    add_param,
    add_progress,
    add_scheduler,
    add_ties,
    check_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import add_output, declare_inputs, declare_outputs, write_text
from .rules import Default, Rule, add_rules, check_options
from .runargs import named_runs, read_inputs, runs_rule

if TYPE_CHECKING:  # pragma: no cover - the parser imports no analysis module
    from ..meta import BootstrapModel, CopulaModel, NormalModel, RunsModel

#: ``meta dp --method``: a method of discriminative power, or both.
DP_METHOD = Param("method", Names(DISCRIMINATIVE_METHOD.noun,
                                  (*DISCRIMINATIVE_METHOD.names, "both"),
                                  DISCRIMINATIVE_METHOD.aliases, fold=True),
                  "bootstrap", "method of discriminative power, or both", ("--method",),
                  label="--method")
#: ``meta swap --test``: the significance filter of the swap method.
SWAP_TEST = Param("test", PROCEDURE, None, "count only the pairs this test finds significant "
                  "on TS1", ("--test",), label="--test", unset="every pair")
#: ``meta correlate --by``: what is correlated.
CORRELATE_BY = Param("by", Names("grouping", ("overall", "topic", "matrix")), "overall",
                     "overall (means, then correlate), topic (one value per topic) or matrix "
                     "(every two measures)", ("--by",))
#: ``meta drank --ridge``: the regularisation of the covariance of d_rank.
RIDGE = Param("ridge", Reals(0.0), 0.0, "added to the diagonal of the covariance of the score "
              "differences (0: none; without it d_rank needs more topics than systems - 1)",
              ("--ridge",), "L")
#: ``meta scales --table``: the table of Ferrante, Ferro & Fuhr (2021) printed.
SCALES_TABLE = Param("table", Names("table", ("all", "2", "4", "5", "6", "invariants")), "all",
                     "the table to print", ("--table",))
#: Models of ``meta simulate`` (``irscale.meta.simulation``'s NormalModel and
#: BootstrapModel, ``irscale.meta.stochastic``'s CopulaModel,
#: ``irscale.meta.simulated_runs``'s RunsModel).
SIMULATION_MODELS = ("normal", "bootstrap", "copula", "runs")
#: ``meta simulate``'s options of the normal model only (NormalModel's fields; ``--topics``
#: is also the copula model's).
NORMAL_OPTIONS = ("systems", "effects", "topic_sd", "error_sd")
#: ``meta simulate``'s options of the copula model only (CopulaModel.fit's arguments).
COPULA_OPTIONS = ("margins", "copula", "equal")

MEASURE_HELP = ("measure (repeatable; default: every measure of the --scores files, one "
                "file per measure)")


def _common(parser: argparse.ArgumentParser, *, scores: bool = True,
            systems: bool | None = None, measure_help: str = MEASURE_HELP) -> None:
    """The inputs, ``--format``, ``--digits``, ``--no-progress`` and ``-o`` of an analysis."""
    add_inputs(parser, scores=scores, systems=scores if systems is None else systems,
               measure_help=measure_help)
    add_format(parser, TABLE_FORMATS)
    add_digits(parser)
    add_progress(parser)
    add_output(parser)
    add_rules(parser, DIGITS_RULE, SOURCES_RULE)


def _sizes(parser: argparse.ArgumentParser) -> None:
    """``--sizes`` and ``--repetitions`` of ``split`` and ``swap``."""
    add_param(parser, SPLIT_SIZES, many=True, item="a split size")
    add_param(parser, SPLIT_REPETITIONS)


def _study_names(args: argparse.Namespace) -> list[str]:
    """The procedures of ``meta split``: ``--models``, then both of every ``--cross``."""
    return [*args.models, *(name for pair in args.cross for name in pair)]


def _split_samples(args: argparse.Namespace) -> str:
    """Why ``-B/--samples`` does not apply to a split study without resampling."""
    return (f"-B/--samples applies to the resampling procedures ({RESAMPLING}) among "
            f"--models and --cross, and the study has none "
            f"({', '.join(dict.fromkeys(_study_names(args)))})")


def _shard_models(args: argparse.Namespace) -> list[str]:
    """The shard models among the procedures of ``meta split``, each once."""
    return list(dict.fromkeys(n for n in _study_names(args) if n in SHARD_MODEL_NAMES))


def _shard_model(args: argparse.Namespace) -> str | None:
    """The first shard model among the procedures of ``meta split``, or None."""
    return next(iter(_shard_models(args)), None)


def add_parser(subparsers) -> None:
    """Register ``irscale meta`` and its analyses, each with its options and rules."""
    parser = subparsers.add_parser(
        "meta",
        help="meta-evaluation: correlation, discriminative power, topic splitting, ...",
        description="Meta-evaluation of measures and significance tests (Sakai 2014; Ferro "
        "& Sanderson 2022; Ferrante, Ferro & Fuhr 2021).",
    )
    sub = parser.add_subparsers(dest="meta_command", metavar="ANALYSIS")
    _add_correlate(sub)
    _add_drank(sub)
    _add_discriminative_power(sub)
    _add_split(sub)
    _add_swap(sub)
    _add_concordance(sub)
    _add_loo(sub)
    _add_pool_bias(sub)
    _add_reproduce(sub)
    _add_predict(sub)
    _add_informativeness(sub)
    _add_scales(sub)
    _add_simulate(sub)
    _add_gstudy(sub)
    _add_qpp(sub)
    parser.set_defaults(func=lambda args: parser.error(
        f"choose an analysis: {', '.join(sub.choices)}"))


def _add_correlate(sub) -> None:
    """``meta correlate``: the rank correlation of two measures, with its rules."""
    p = sub.add_parser("correlate", help="rank correlation between two measures")
    _common(p)
    add_standardise(p)
    add_param(p, CORRELATION_METHOD)
    add_param(p, RBO_P, label="the RBO persistence -p/--p (p)")
    add_param(p, CORRELATE_BY, choices=CORRELATE_BY.domain.names)
    add_param(p, RESAMPLES, domain=INTERVAL_SAMPLES,
              doc="bootstrap confidence interval of the overall correlation with B ≥ 2 "
              "resamples, --by overall only", unset="no interval")
    add_param(p, RNG_SEED)
    add_rules(p, Rule(("p",), lambda args: args.method == "rbo", "-p/--p (p) is the RBO "
                      "persistence: it applies to --method rbo, not to {method}"),
              Rule(("samples",), lambda args: args.by == "overall", "-B/--samples applies to "
                   "--by overall (the interval of the overall correlation), not to --by {by}"),
              Rule(("seed",), lambda args: given(args, "samples"), "--seed applies to "
                   "-B/--samples (the bootstrap interval, the only random part of correlate)"))
    p.set_defaults(func=run_correlate)


def _add_drank(sub) -> None:
    """``meta drank``: Carterette's d_rank between two measures, beside Kendall's τ."""
    p = sub.add_parser("drank", help="d_rank of two measures (Carterette 2009), beside "
                       "Kendall's tau")
    _common(p)
    add_standardise(p)
    add_param(p, RIDGE)
    p.set_defaults(func=run_drank)


def _add_discriminative_power(sub) -> None:
    """``meta discriminative-power`` (``dp``): ASL and discriminative power."""
    p = sub.add_parser("discriminative-power", aliases=["dp"],
                       help="ASL of every pair and discriminative power (Sakai 2014, §5.1)")
    _common(p)
    add_standardise(p)
    add_param(p, DP_METHOD)
    add_param(p, DISCRIMINATIVE_SAMPLES)
    add_param(p, SIGNIFICANCE)
    add_param(p, RNG_SEED)
    add_param(p, SPREAD_SEEDS)
    add_param(p, CONVENTION, choices=CONVENTIONS)
    p.add_argument("--pairs", action="store_true", help="print the ASL of every pair")
    p.add_argument("--plot", metavar="FILE",
                   help="write the ASL curves to FILE, PNG/SVG (default: no plot)")
    add_scheduler(p, "the resampling")
    declare_outputs(p, "--plot", kind="plot")
    add_rules(p, Rule(("pairs", "plot"), lambda args: not given(args, "seeds"),
                      "{options} {applies} to one resampling run, not to --seeds (which "
                      "prints the spread across seeds)"))
    p.set_defaults(func=run_discriminative_power)


def _add_split(sub) -> None:
    """``meta split``: topic-splitting consistency."""
    p = sub.add_parser("split", help="topic-splitting consistency (Ferro & Sanderson 2022, "
                       "§3)")
    _common(p)
    add_standardise(p)
    _sizes(p)
    add_param(p, SPLIT_MODELS, many=True, unique=False)
    p.add_argument("--cross", action=ListAction, kind="str", domain=PROCEDURE_PAIR, default=[],
                   metavar="A:B,...",
                   help="different models: A on the first half, B on the second "
                   "(default: none)")
    add_param(p, SPLIT_METRIC)
    add_param(p, SIGNIFICANCE)
    add_param(p, RNG_SEED)
    add_param(p, RESAMPLES, doc="resamples of the resampling procedures among --models and "
              "--cross")
    p.add_argument("--shard-scores", metavar="FILE",
                   help="topics × runs × shards scores for the shard models (MD3, MD3f, ...): "
                   "the CSV topic,run,shard,value that irscale pool shards --shard-scores "
                   "writes, of the same topics and runs as the score matrix (default: none)")
    add_param(p, SHARD_EMPTY, doc="scores of a topic without relevant documents in a shard "
              "(undefined) in the shard models: error, zero, drop-topic, drop-shard or "
              "missing")
    p.add_argument("--plot", metavar="FILE",
                   help="write the metric (default τ) against the split size to FILE, "
                   "PNG/SVG (default: no plot)")
    add_scheduler(p, "the repetitions")
    declare_inputs(p, "--shard-scores")
    declare_outputs(p, "--plot", kind="plot")
    add_rules(p, Rule(("alpha",), lambda args: args.metric not in ("tau", "tau_sd"),
                      "--alpha applies to the significance metrics; --metric {metric} "
                      "(Kendall's τ between the halves' rankings) uses no test decision"),
              Rule(("models", "cross"), lambda args: _shard_model(args) is None
                   or args.shard_scores is not None,
                   lambda args: f"{_shard_model(args)} is a shard model: it needs topics × "
                   "systems × shards scores: give them with --shard-scores FILE (irscale "
                   "pool shards --shard-scores writes them)"),
              Rule(("shard_scores", "empty"), lambda args: _shard_model(args) is not None,
                   lambda args: "{options} {applies} to the shard models (MD3, MD3f, ...) "
                   "among --models and --cross, and the study has none "
                   f"({', '.join(dict.fromkeys(_study_names(args)))})"),
              Rule(("samples",), lambda args: bool(resampling_procedures(_study_names(args))),
                   _split_samples))
    p.set_defaults(func=run_split)


def _add_swap(sub) -> None:
    """``meta swap``: the swap method."""
    p = sub.add_parser("swap", help="swap method and swap rates (Voorhees & Buckley 2002)")
    _common(p)
    add_standardise(p)
    _sizes(p)
    add_param(p, SWAP_BIN_WIDTH)
    add_param(p, SWAP_TEST)
    add_param(p, SIGNIFICANCE, doc="significance level of --test")
    add_param(p, RNG_SEED)
    add_param(p, RESAMPLES, doc="resamples of a resampling --test")
    p.add_argument("--by-bin", action="store_true", help="swap rate per difference bin")
    add_scheduler(p, "the repetitions of --test")
    add_rules(p, Rule(("bin_width",), lambda args: args.by_bin, "--bin-width applies to "
                      "--by-bin (the swap rate per difference bin); without it no bins are "
                      "made"),
              Rule(("samples",), lambda args: given(args, "test") and is_resampling(args.test),
                   f"-B/--samples applies to a resampling --test ({RESAMPLING})"),
              Rule(("alpha",), lambda args: given(args, "test"), "--alpha applies to --test "
                   "(the significance filter of the swap method); without --test no test is "
                   "run"))
    p.set_defaults(func=run_swap)


def _add_concordance(sub) -> None:
    """``meta concordance``: the concordance test."""
    p = sub.add_parser("concordance", help="concordance test (Sakai 2014, Fig. 17)")
    _common(p)
    add_standardise(p)
    p.add_argument("--gold", action=ListAction, kind="str", unique=True, required=True,
                   metavar="M,...",
                   help="comma-separated gold-standard measure(s); the other measures are the "
                   "candidates")
    add_param(p, SIGNIFICANCE)
    p.set_defaults(func=run_concordance)


def _add_loo(sub) -> None:
    """``meta loo``: the leave-one-out reusability test."""
    p = sub.add_parser("loo", help="leave-one-out reusability test (Sakai 2014, §5.4)")
    _common(p, scores=False, measure_help="measure (repeatable; at least one)")
    add_param(p, LOO_DEPTH)
    add_param(p, CONTRIBUTOR_PATTERN)
    p.add_argument("--contributors", metavar="FILE",
                   help="file of 'run contributor' lines (overrides the pattern; default: "
                   "none)")
    p.add_argument("--per-run", action="store_true", help="print every run")
    add_scheduler(p, "the contributors' evaluations")
    declare_inputs(p, "--contributors")
    add_rules(p, Rule(("contributor_pattern",), lambda args: not given(args, "contributors"),
                      "--contributor-pattern applies without --contributors (the file names "
                      "every run's contributor)"))
    p.set_defaults(func=run_loo)


def _add_pool_bias(sub) -> None:
    """``meta pool-bias``: the score adjustment of runs that did not contribute."""
    p = sub.add_parser("pool-bias", help="adjust the scores of runs that did not contribute "
                       "to the pool (Webber & Park 2009)",
                       description="Leave every contributing run (or --contributors group) "
                       "out of the depth-K pool, re-evaluate it, and add the mean per-topic "
                       "error to the scores of the --new runs.")
    _common(p, scores=False, systems=False, measure_help="measure (repeatable; at least one)")
    p.add_argument("--new", action="append", required=True, metavar="RUN",
                   help="a run that did not contribute to the pool (repeatable)")
    add_param(p, LOO_DEPTH)
    p.add_argument("--contributors", metavar="FILE",
                   help="file of 'run contributor' lines: leave each contributor's runs out "
                   "together (default: each run alone)")
    p.add_argument("--per-topic", action="store_true",
                   help="print every topic's adjustment instead of the new runs' scores")
    declare_inputs(p, "--new", "--contributors")
    p.set_defaults(func=run_pool_bias)


def _runs_given(args: argparse.Namespace) -> bool:
    """Whether the scores come from QRELS RUN... (not ``--scores``): the runs' document
    orderings can then be compared."""
    return not getattr(args, "scores", None)


def _add_reproduce(sub) -> None:
    """``meta reproduce``: ER, ΔRI, RMSE, τ and RBO of a reproduced experiment."""
    p = sub.add_parser("reproduce", help="reproducibility of an experiment: ER, ΔRI, RMSE, "
                       "τ and RBO (Breuer et al. 2020)",
                       description="Compare an original experiment (baseline and advanced "
                       "run) with its reproduction on the same topics: Effect Ratio, Delta "
                       "Relative Improvement, per-topic RMSE and paired t-tests per measure; "
                       "with QRELS RUN..., also Kendall's τ and RBO between the original and "
                       "reproduced document orderings (irscale.meta.reproducibility; "
                       "docs/meta.md).")
    _common(p, systems=False)
    p.add_argument("--original", action=ListAction, kind="str", required=True,
                   metavar="BASELINE,ADVANCED",
                   help="the original experiment's baseline and advanced systems (runs)")
    p.add_argument("--reproduced", action=ListAction, kind="str", required=True,
                   metavar="BASELINE,ADVANCED",
                   help="the reproduced baseline and advanced systems (runs)")
    add_param(p, REPRO_DEPTH)
    add_param(p, REPRO_RBO_P)
    add_rules(p, Rule(("depth", "p"), _runs_given, "{options} {applies} to the document "
                      "orderings of QRELS RUN..., which --scores files do not hold"))
    p.set_defaults(func=run_reproduce)


def _add_predict(sub) -> None:
    """``meta predict``: predictive power against side-by-side preferences."""
    p = sub.add_parser("predict", help="predictive power of measures against side-by-side "
                       "user preferences (Sanderson et al. 2010)",
                       description="The share of side-by-side preferences (a --preferences "
                       "file of 'topic left right preference' lines) that each measure "
                       "predicts, with the binomial test against chance "
                       "(irscale.meta.predictive_power; docs/meta.md).")
    _common(p, systems=False)
    p.add_argument("--preferences", required=True, metavar="FILE",
                   help="judgments, one 'topic left right preference' a line (preference: "
                   "left, right or tie)")
    add_param(p, PREDICT_THRESHOLD)
    add_param(p, PREDICT_TIES, choices=PREDICT_TIES.domain.names)
    p.add_argument("--bins", action=ListAction, kind="float", domain=PREDICT_BIN_EDGE,
                   item="a bin edge", metavar="E,E,...",
                   help="also the power per bin of |ΔM| between these increasing edges "
                   "(default: none)")
    declare_inputs(p, "--preferences")
    p.set_defaults(func=run_predict)


def _add_informativeness(sub) -> None:
    """``meta informativeness``: the maximum entropy method of Aslam, Yilmaz & Pavlu."""
    p = sub.add_parser("informativeness", help="informativeness of measures by the maximum "
                       "entropy method (Aslam, Yilmaz & Pavlu 2005)",
                       description="For every run and topic, the RMS error of the "
                       "precision-recall curve inferred by maximum entropy from the value of "
                       "each measure (AP, R-prec, P@k); the mean per measure (lower: more "
                       "informative) (irscale.meta.informativeness; docs/meta.md).")
    _common(p, scores=False, systems=False, measure_help="AP, R-prec or P@k (repeatable; "
            "default: " + ", ".join(INFORMATIVENESS_MEASURES) + ")")
    add_param(p, INFORMATIVENESS_DEPTH)
    p.add_argument("--per-list", action="store_true",
                   help="print every run and topic (default: the mean per measure)")
    add_rules(p, Default("measures", lambda args: list(INFORMATIVENESS_MEASURES)))
    p.set_defaults(func=run_informativeness)


def _add_scales(sub) -> None:
    """``meta scales``: measures against their interval-scaled versions."""
    p = sub.add_parser("scales", help="measures vs their interval-scaled versions "
                       "(Ferrante, Ferro & Fuhr 2021, Tables 2, 4, 5, 6)")
    _common(p, scores=False, measure_help="measure (repeatable; default: the eleven of "
            "Ferrante, Ferro & Fuhr 2021: " + ", ".join(SCALE_MEASURES) + ")")
    add_param(p, SCALE_LENGTHS, many=True, item="a cut-off")
    add_param(p, SCALES_TABLE, choices=SCALES_TABLE.domain.names)
    p.add_argument("--table-cutoff", action=Checked, domain=CUTOFF,
                   dest="table_n", metavar="N", help="cut-off of Tables 4-6, one of --cutoffs "
                   "(default: the largest)")
    add_option(p, "--collection", default="T", doc="track label prefix")
    add_param(p, SIGNIFICANCE, doc="significance level of tables 5, 6 and invariants")
    add_ties(p, phi=True)
    p.add_argument("--plot-dir", metavar="DIR",
                   help="write a scatter of each measure vs its ranked version (PNG) to DIR "
                   "(default: no plots)")
    declare_outputs(p, "--plot-dir", kind="folder")
    add_rules(p, Default("measures", lambda args: list(SCALE_MEASURES)),
              Rule(("alpha",), lambda args: args.table not in ("2", "4"), "--alpha applies "
                   "to the significance tables (5, 6, invariants, all), not to --table {table}"),
              Rule(("table_n",), lambda args: args.table in ("all", "4", "5", "6"),
                   "--table-cutoff applies to tables 4, 5 and 6 (and all), not to --table "
                   "{table}"),
              Rule(("table_n",), lambda args: args.table_n in args.cutoffs,
                   "--table-cutoff {table_n} is not one of the --cutoffs {cutoffs}"))
    p.set_defaults(func=run_scales)


def _bootstrap(args: argparse.Namespace) -> bool:
    """Whether ``meta simulate`` reads a matrix (``--model bootstrap`` or ``copula``)."""
    return args.model in ("bootstrap", "copula")


#: ``meta simulate --model normal`` reads no runs and ``--model runs`` draws them: the
#: options of runs, of diversity qrels and ``--qrels-format`` are refused.
NORMAL_ONLY = (
    runs_rule("--model {model} (no runs are read)", _bootstrap),
    *intent_rules("diversity measures of --model bootstrap or copula, not to --model "
                  "{model}", _bootstrap),
    Rule(("qrels_format",), lambda args: _bootstrap(args) or args.qrels_format == "auto",
         "--qrels-format applies to the QRELS of --model bootstrap or copula, not to "
         "--model {model}"),
)


def _normal_systems(args: argparse.Namespace) -> int | None:
    """The systems of the normal model: one per ``--effects``, else the API's default
    (the bootstrap and copula models take every system of their matrix)."""
    if args.model != "normal":
        return None
    return len(args.effects) if args.effects else cast(int, NORMAL_SYSTEMS.default)


def _output_in_checkpoint(args: argparse.Namespace) -> bool:
    """Whether ``-o`` lies in ``--checkpoint``, whose files the study writes."""
    return args.output != "-" and os.path.dirname(os.path.realpath(args.output)) == \
        os.path.realpath(args.checkpoint)


def _add_simulate(sub) -> None:
    """``meta simulate``: :func:`irscale.meta.simulation_study` on the command line; every
    option is one of its arguments or of its model's, declared with the API's default."""
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
                   "or --scores) drawn with replacement, its system means being the truth; "
                   "copula: new topics drawn from margins and a copula fitted to a real "
                   "matrix (Urbano & Nagler 2018), the margins' means being the truth; runs: "
                   "runs of --qualities drawn from QRELS and scored with -m (after Parapar "
                   "et al. 2020, 2021)")
    add_param(p, NORMAL_TOPICS, doc="normal and copula models: topics per matrix",
              default=None, unset=f"normal: {NORMAL_TOPICS.default}; copula: the matrix's "
              "topics")
    add_param(p, NORMAL_SYSTEMS, default=None, unset=f"the number of --effects, else "
              f"{NORMAL_SYSTEMS.default}")
    p.add_argument("--effects", action=ListAction, kind="float", domain=EFFECT,
                   item="a system mean",
                   metavar="E,E,...",
                   help="normal model: the true system means mu_s, one per system, e.g. "
                   "-0.1,0 (default: all 0, every pair null)")
    add_param(p, NORMAL_TOPIC_SD)
    add_param(p, NORMAL_ERROR_SD)
    p.add_argument("--null", action="store_true",
                   help="bootstrap model: first centre every system on the grand mean; "
                   "copula model: transform every margin to the mean of the fitted means; "
                   "so that every pair is null (default: the matrix's system means are the "
                   "truth)")
    add_param(p, COPULA_MARGINS, many=True)
    add_param(p, COPULA)
    p.add_argument("--equal", action=ListAction, kind="str", metavar="A,B",
                   help="copula model: transform system B's margin to system A's mean, so "
                   "that the pair (A, B) is null (default: the fitted means)")
    p.add_argument("--qualities", action=ListAction, kind="float", domain=EFFECT,
                   item="a quality", metavar="Q,Q,...",
                   help="runs model (QRELS -m MEASURE): one quality per system, the mean "
                   "score of a relevant document in a binormal score model (non-relevant: "
                   "0; both of variance 1); equal qualities make a null pair")
    add_param(p, SIMULATED_MATRICES)
    add_param(p, SIMULATED_TESTS, many=True)
    add_param(p, SIMULATED_CORRECTIONS, many=True)
    add_param(p, SIGNIFICANCE)
    add_param(p, RNG_SEED)
    add_param(p, RESAMPLES, doc="resamples of the resampling tests among --test",
              unset="each test's own")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="keep the counts of every finished task in DIR (made if missing) "
                   "and, run again with the same arguments and --seed, compute only the "
                   "unfinished tasks; a DIR holding another study is refused (default: no "
                   "checkpoint)")
    add_param(p, MEMORY_LIMIT)
    add_scheduler(p, "the simulated matrices")
    declare_outputs(p, "--checkpoint", kind="folder")
    add_rules(
        p, Rule(("null", "inputs", "scores", "measures", "topic_column"),
                lambda args: args.model != "normal", "{options} {applies} to --model "
                "bootstrap (the matrix whose topics are resampled), not to --model normal",
                spelt={"inputs": "QRELS RUN...", "measures": "-m"}),
        *NORMAL_ONLY,
        Rule(NORMAL_OPTIONS, lambda args: args.model == "normal", "{options} {applies} to "
             "--model normal, not to --model {model} (whose matrix, every system of the "
             "runs or --scores given, is the model's)"),
        Rule(("topics",), lambda args: args.model in ("normal", "copula"), "--topics "
             "applies to --model normal and copula, not to --model {model} (whose matrices "
             "have the topics of its matrix or qrels)"),
        Rule(("null", "scores", "topic_column"), lambda args: args.model != "runs",
             "{options} {applies} to --model bootstrap or copula, not to --model runs "
             "(which draws its runs from QRELS)"),
        Rule(("qualities",), lambda args: args.model == "runs", "--qualities applies to "
             "--model runs, not to --model {model}"),
        Rule(COPULA_OPTIONS, lambda args: args.model == "copula", "{options} {applies} to "
             "--model copula, not to --model {model}"),
        Rule(("equal",), lambda args: not args.null, "--equal and --null do not go "
             "together: --null makes every pair null, --equal one pair"),
        Rule(("samples",), lambda args: bool(resampling_procedures(args.tests)),
             lambda args: f"-B/--samples applies to the resampling tests "
             f"({', '.join(RESAMPLING_TESTS)}) among --test, and the study has none "
             f"({', '.join(args.tests)})"),
        Rule(("checkpoint",), lambda args: given(args, "seed"), "--checkpoint needs --seed: "
             "a study resumes only with the seed it started with"),
        Rule(("checkpoint",), lambda args: not _output_in_checkpoint(args), "-o {output} lies "
             "in --checkpoint {checkpoint}, whose files the study writes: write it outside"),
        Default("systems", _normal_systems))
    p.set_defaults(func=run_simulate)


def _facet_scores(args: argparse.Namespace) -> bool:
    """Whether ``meta gstudy`` reads ``--facet-scores`` rather than a score matrix."""
    return given(args, "facet_scores")


def _reads_matrix(args: argparse.Namespace) -> bool:
    return not _facet_scores(args)


def _add_gstudy(sub) -> None:
    """``meta gstudy``: the G-study and D-study of :func:`irscale.stats.gstudy`."""
    p = sub.add_parser(
        "gstudy", help="generalisability theory: variance components, Eρ² and Φ, D-study "
        "(Bodoff & Li 2007; Brennan 2001; Sakai 2016)",
        description="G-study of systems crossed with topics (and a second facet: query "
        "variants, assessors): the variance components by the ANOVA's expected mean squares, "
        "the generalisability coefficient Eρ² and the dependability Φ; then the D-study "
        "for --topics topic set sizes, and the topics a --target needs "
        "(irscale.stats.gstudy; docs/stats.md).")
    _common(p, measure_help="measure (one; default: the one measure of the --scores file)")
    p.add_argument("--facet-scores", metavar="FILE",
                   help="topics x runs x levels of a second facet, a CSV with the header "
                   "topic,run,FACET,value (FACET as --facet), read instead of QRELS RUN... "
                   "or --scores (default: none)")
    add_option(p, "--facet", default="variant", metavar="NAME",
               doc="name of the second facet, the third column of --facet-scores")
    add_param(p, DSTUDY_TOPICS, many=True, item="a topic set size")
    add_param(p, DSTUDY_FACET, many=True, item="a number of levels")
    add_param(p, GSTUDY_TARGET)
    declare_inputs(p, "--facet-scores")
    add_rules(p, Rule(("facet", "n_facet"), _facet_scores, "{options} {applies} to "
                      "--facet-scores (the scores of a second facet)"),
              Rule(("inputs", "scores", "measures", "topic_column", "systems"), _reads_matrix,
                   "{options} {applies} to the topics x systems scores, not to --facet-scores "
                   "(which hold the scores of the G-study)",
                   spelt={"inputs": "QRELS RUN...", "measures": "-m"}),
              runs_rule("--facet-scores", _reads_matrix),
              *intent_rules("diversity measures of QRELS RUN..., not to --facet-scores",
                            _reads_matrix),
              Rule(("qrels_format",), lambda args: _reads_matrix(args)
                   or args.qrels_format == "auto", "--qrels-format applies to QRELS "
                   "RUN..., not to --facet-scores"))
    p.set_defaults(func=run_gstudy)


def _add_qpp(sub) -> None:
    """``meta qpp``: sARE, sMARE and the ANOVA of :func:`irscale.stats.qpp_anova`."""
    p = sub.add_parser(
        "qpp", help="query performance predictors: sARE, sMARE and their ANOVA (Faggioli et "
        "al. 2021)",
        description="Rank the topics by every predictor's predictions and by the "
        "effectiveness of the same queries, score each topic by sARE (the scaled absolute "
        "rank error), and print every predictor's sMARE and the ANOVA of sARE over topics, "
        "predictors (systems, query variants) (irscale.stats.qpp_anova; docs/stats.md).")
    p.add_argument("--predictions", metavar="FILE", required=True,
                   help="CSV with the columns topic, predictor, value and optionally system "
                   "and variant: one prediction per row")
    p.add_argument("--observed", metavar="FILE", required=True,
                   help="CSV with the columns topic, value and the same optional columns: "
                   "the effectiveness (e.g. AP) of each query")
    add_option(p, "--model", default=None, metavar="FORMULA",
               doc="ANOVA formula over topic, predictor, system and variant, e.g. 'topic + "
               "predictor' (None: the main effects and the predictor's interactions with "
               "system and variant)")
    p.add_argument("--tukey", action="store_true",
                   help="also print Tukey's HSD of every pair of predictors")
    add_param(p, SIGNIFICANCE, doc="significance level of --tukey")
    add_format(p, TABLE_FORMATS)
    add_digits(p)
    add_output(p)
    declare_inputs(p, "--predictions", "--observed")
    add_rules(p, DIGITS_RULE, Rule(("alpha",), lambda args: args.tukey,
                                   "--alpha applies to --tukey (the only test decision)"))
    p.set_defaults(func=run_qpp)


def _check(args: argparse.Namespace) -> None:
    """Every option of the analysis, before anything heavy is imported: the scheduler, the
    rules of the options, then the inputs (none for ``simulate --model normal``)."""
    check_scheduler(args)
    check_options(args)
    if args.meta_command == "qpp" or (args.meta_command == "gstudy" and _facet_scores(args)):
        return
    if args.meta_command == "simulate" and args.model == "runs":
        _check_runs_model(args)
    elif args.meta_command != "simulate" or args.model != "normal":
        check_inputs(args)


def _check_runs_model(args: argparse.Namespace) -> None:
    """``meta simulate --model runs``: one QRELS file, one -m measure, --qualities."""
    paths = input_paths(args)
    if len(paths) != 1 and not getattr(args, "scores", None):
        raise ParameterError(f"--model runs reads QRELS only (it draws its runs): give one "
                             f"qrels file, got {len(paths)} inputs")
    check_inputs(args, min_runs=0)
    if len(args.measures) != 1:
        raise ParameterError("a runs simulation studies one measure: choose one with -m")
    if args.qualities is None:
        raise ParameterError("--model runs needs --qualities Q,Q,... (one quality per "
                             "system)")


# --------------------------------------------------------------------------- helpers
def _matrix(args: argparse.Namespace):
    """The score matrix: from --scores files or qrels and runs (:mod:`irscale.cli.inputs`)."""
    return load_matrix(args)


def _measures(matrix, args: argparse.Namespace) -> list[str]:
    """The ``-m`` measures, else every measure of the matrix."""
    return list(args.measures or matrix.measures)


def _render(frame, args: argparse.Namespace, title: str | None = None) -> str:
    """``frame`` in ``--format`` with ``--digits``; the title for tables a person reads."""
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
    """``meta correlate``: the rank correlation of two measures (or every two)."""
    _check(args)

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


def run_drank(args: argparse.Namespace) -> int:
    """``meta drank``: d_rank(A | B), d_rank(B | A), their mean and Kendall's τ."""
    _check(args)

    import pandas as pd

    from .. import meta

    matrix = _matrix(args)
    names = _measures(matrix, args)
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
    return write_text(args, _render(frame, args, "d_rank (Carterette 2009): A's per-topic "
                                    "scores against B's ranking, and the reverse"))


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
    """``meta dp``: the discriminative power of every measure (Sakai 2014, §5.1)."""
    _check(args)

    import numpy as np
    import pandas as pd

    from .. import meta

    matrix = _matrix(args)
    methods = ["bootstrap", "randomized-tukey-hsd"] if args.method == "both" else [args.method]
    with scheduler(args) as executor:
        parts, results = _discriminative_parts(args, matrix, methods, executor)
    # a column a part has no value in (a summary's None) holds NaN as float64, as pandas'
    # concatenation types it from the other parts in every version
    frame = pd.concat([part.astype({c: np.float64 for c in part if part[c].isna().all()})
                       for part in parts], ignore_index=True)
    if args.seeds:
        frame = meta.spread_summary(frame)
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
    return {name: {"samples": args.samples}
            for name in resampling_procedures(_study_names(args))}


def run_split(args: argparse.Namespace) -> int:
    """``meta split``: topic-splitting consistency (Ferro & Sanderson 2022, §3)."""
    _check(args)

    from .. import meta

    table = _one_measure(args, "topic splitting")
    shards = None
    options = _resampling_options(args) or {}
    if args.shard_scores is not None:
        from ..io.scores_csv import read_shard_table
        from ..stats import ShardScores

        read = read_shard_table(args.shard_scores)
        shards = ShardScores(read.values, read.topics, read.systems, read.shards)
        options |= {name: {"empty": args.empty} for name in _shard_models(args)}
    with scheduler(args) as executor:
        study = meta.split_study(table, args.sizes, args.repetitions, models=args.models,
                                 cross=args.cross, shards=shards, alpha=args.alpha,
                                 rng=args.seed, progress=wants_progress(args),
                                 options=options or None, executor=executor)
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
    """``meta swap``: swap rates by topic-set size (Voorhees & Buckley 2002)."""
    _check(args)

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
    """``meta concordance``: candidates against the gold measures (Sakai 2014)."""
    _check(args)

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
    """The runs' contributors of ``--contributors`` (``meta loo``, ``pool simulate``), or
    None without it."""
    if args.contributors is None:
        return None
    from ..io.contributors import read_contributors

    return read_contributors(args.contributors)


def run_loo(args: argparse.Namespace) -> int:
    """``meta loo``: leave-one-contributor-out reusability (Sakai 2014, §5.4)."""
    _check(args)

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


def run_pool_bias(args: argparse.Namespace) -> int:
    """``meta pool-bias``: scores of the --new runs adjusted (Webber & Park 2009)."""
    _check(args)

    from .. import meta

    qrels, runs = qrels_and_runs(args)
    new_runs = named_runs(args.new, None)
    result = meta.pooling_bias(qrels, runs, new_runs, args.measures,
                               contributors=_contributors(args), depth=args.depth,
                               allow_empty=args.allow_empty)
    frame = result.topics if args.per_topic else result.runs
    return write_text(args, _render(frame, args, repr(result)))


def _pair(args: argparse.Namespace, option: str) -> list[str]:
    """The two systems of ``--original`` or ``--reproduced``."""
    names = list(getattr(args, option))
    if len(names) != 2:
        raise ParameterError(f"--{option} names two systems, the baseline and the advanced "
                             f"one, got {len(names)}: {','.join(names)}")
    return names


def run_reproduce(args: argparse.Namespace) -> int:
    """``meta reproduce``: reproducibility measures (Breuer et al. 2020)."""
    _check(args)

    from .. import meta

    roles = [*_pair(args, "original"), *_pair(args, "reproduced")]
    matrix = _matrix(args)
    unknown = [r for r in roles if r not in matrix.systems]
    if unknown:
        raise ParameterError(f"system(s) {unknown} of --original/--reproduced not among "
                             f"{list(matrix.systems)}")
    scores = matrix.subset(measures=_measures(matrix, args))
    result = meta.reproducibility(*(scores.subset(systems=[r]) for r in roles))
    frame, title = result.to_frame(), repr(result)
    if _runs_given(args):  # the orderings of each run pair: the same on every measure's row
        from ..io.sources import read_runs

        _, paths = qrels_and_runs(args)
        runs = {run.name: run for run in read_runs(list(paths), names=args.names or "runid")}
        for role, a, b in (("baseline", roles[0], roles[2]), ("advanced", roles[1], roles[3])):
            tau, overlap = meta.ranking_agreement(runs[a], runs[b], depth=args.depth,
                                                  p=args.p).mean
            frame[f"tau_{role}"], frame[f"RBO_{role}"] = tau, overlap
        title += (f"; tau and RBO (p = {args.p:g}): document orderings at depth "
                  f"{args.depth}, mean over topics")
    if args.fmt not in ("csv", "json"):  # an undefined ratio is said, never shown as nan
        frame = frame.astype(object).where(frame.notna(), "undefined")
    text = _render(frame, args, title)
    return write_text(args, text)


def run_predict(args: argparse.Namespace) -> int:
    """``meta predict``: predictive power of every measure (Sanderson et al. 2010)."""
    _check(args)

    import pandas as pd

    from .. import meta
    from ..io.side_by_side import read_side_by_side

    preferences = read_side_by_side(args.preferences)
    matrix = _matrix(args)
    results = [meta.predictive_power(preferences, matrix, measure=name,
                                     threshold=args.threshold, ties=args.ties,
                                     bins=args.bins)
               for name in _measures(matrix, args)]
    overall = pd.concat([r.to_frame() for r in results], ignore_index=True)
    bins = pd.concat([r.by_bin.assign(measure=r.measure) for r in results],
                     ignore_index=True) if args.bins else None
    if bins is not None and args.fmt in ("csv", "json"):  # one table: overall rows, then bins
        return write_text(args, _render(pd.concat([overall, bins], ignore_index=True)
                                        .convert_dtypes(), args))
    text = _render(overall, args, f"predictive power ({len(preferences)} judgments; measure "
                   f"ties: {args.ties})")
    if bins is not None:
        text += "\n" + _render(bins, args, "by |ΔM| bin")
    return write_text(args, text)


def run_informativeness(args: argparse.Namespace) -> int:
    """``meta informativeness``: Aslam, Yilmaz & Pavlu (2005) on QRELS RUN..."""
    check_scheduler(args)
    check_options(args)
    check_inputs(args, min_runs=1)

    from .. import meta

    if diversity_inputs(args):
        raise ParameterError("informativeness infers precision-recall curves of ranked "
                             "lists judged for relevance: not of diversity qrels")
    qrels, runs = qrels_and_runs(args)
    lists, bases = meta.judged_lists(qrels, runs, depth=args.depth)
    result = meta.informativeness(lists, measures=args.measures, recall_base=bases,
                                  progress=wants_progress(args))
    if args.per_list:
        return write_text(args, _render(result.to_frame(), args, repr(result)))
    return write_text(args, result.format(args.fmt, digits=args.digits))


def run_scales(args: argparse.Namespace) -> int:
    """``meta scales``: Tables 2, 4, 5 and 6 of Ferrante, Ferro & Fuhr (2021)."""
    _check(args)

    from .. import meta

    if diversity_inputs(args):  # refused before the qrels are read, with the reason
        from ..scales.measures import scale_measure

        scale_measure(args.measures[0])
    keep_rank = args.ties == "rank-column"
    # read before the analyses are imported: a malformed file is reported without scipy
    qrels, runs = read_inputs(*qrels_and_runs(args, keep_rank=keep_rank), keep_rank=keep_rank)
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


def _simulation_model(args: argparse.Namespace
                      ) -> NormalModel | BootstrapModel | CopulaModel | RunsModel:
    """The model of ``meta simulate``: a NormalModel of ``--topics``, ``--systems``,
    ``--effects``, ``--topic-sd`` and ``--error-sd`` (the API checks them together; its
    errors name the option: :func:`irscale.cli.main.named`), a BootstrapModel of the
    one-measure matrix, a CopulaModel fitted to it, or a RunsModel of the qrels."""
    from .. import meta

    if args.model == "runs":
        return meta.RunsModel.of(input_paths(args)[0], args.qualities,
                                 measure=args.measures[0])
    if args.model == "bootstrap":
        return meta.BootstrapModel.of(_one_measure(args, "a bootstrap simulation"),
                                      null=args.null)
    if args.model == "copula":
        equal = None if args.equal is None else tuple(args.equal)
        return meta.CopulaModel.fit(_one_measure(args, "a copula simulation"),
                                    margins=args.margins, copula=args.copula,
                                    topics=args.topics, null=args.null, equal=equal)
    effects = None if args.effects is None else tuple(args.effects)
    topics = cast(int, NORMAL_TOPICS.default) if args.topics is None else args.topics
    return meta.NormalModel(topics=topics, systems=args.systems, effects=effects,
                            topic_sd=args.topic_sd, error_sd=args.error_sd)


def run_simulate(args: argparse.Namespace) -> int:
    """``meta simulate``: error rates and power over simulated matrices."""
    _check(args)

    from .. import meta
    from ..stats.tables import alpha_text

    model = _simulation_model(args)
    options = None if args.samples is None else {
        name: {"samples": args.samples} for name in resampling_procedures(args.tests)}
    with scheduler(args) as executor:
        study = meta.simulation_study(model, args.tests, args.corrections, args.repetitions,
                                      alpha=args.alpha, options=options,
                                      checkpoint=args.checkpoint, rng=args.seed,
                                      executor=executor, progress=wants_progress(args),
                                      max_memory=args.max_memory)
    title = (f"error rates over {study.repetitions:,} matrices of the {args.model} model "
             f"(α = {alpha_text(study.alpha)}; 95% Wilson intervals)")
    return write_text(args, _render(study.to_frame(), args, title))


def run_gstudy(args: argparse.Namespace) -> int:
    """``meta gstudy``: the G-study, the D-study and (``--target``) the topics needed."""
    _check(args)

    from .. import stats
    from ..stats.gtheory import COEFFICIENTS

    if args.facet_scores is not None:
        from ..io.scores_csv import read_shard_table

        read = read_shard_table(args.facet_scores, facet=args.facet)
        data = stats.ShardScores(read.values, read.topics, read.systems, read.shards)
        try:
            result = stats.gstudy(data, facet=args.facet)
        except InputError as error:  # the scores of the file: name it
            raise InputError(error.reason, source=read.source) from None
    else:
        result = stats.gstudy(_one_measure(args, "a G-study"))
    parts = [result.format(args.fmt, digits=args.digits),
             result.dstudy(args.n_topics, args.n_facet).format(args.fmt, digits=args.digits)]
    if args.target is not None:
        import pandas as pd

        designs = [result.topics_for(args.target, c) for c in COEFFICIENTS]
        frame = pd.concat([d.to_frame() for d in designs], ignore_index=True)
        parts.append(_render(frame[["design", "n", "achieved", "target"]], args,
                             "topics needed"))
    return write_text(args, "\n".join(parts))


def run_qpp(args: argparse.Namespace) -> int:
    """``meta qpp``: sMARE of every predictor and the ANOVA of sARE."""
    _check(args)

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
    return write_text(args, text)
