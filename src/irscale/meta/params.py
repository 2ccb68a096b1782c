"""The parameters of the meta-evaluation, declared once: rank correlation, discriminative
and predictive power, leave-one-out, topic splits, G- and D-studies, simulation studies.

The functions of :mod:`irscale.meta` check their arguments against these declarations and
the command line builds its options from them (:func:`irscale.cli.options.add_param`),
before numpy is imported: this module imports nothing but :mod:`irscale.core.params` (the
mechanism: domains, :class:`~irscale.core.params.Param`; with :mod:`irscale.core.records`
and :mod:`irscale.errors` for a domain of its own), and the names of the statistics'
procedures (:mod:`irscale.stats.names`, plain tuples).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

from ..core.binding import Binding, Choice, Derived, Excludes, SizedBy
from ..core.extras import PYVINECOPULIB, Requires
from ..core.params import (
    CUTOFF,
    DEPTH,
    INTERVAL_SAMPLES,
    RELEVANCE,
    RESAMPLES,
    RNG_SEED,
    SAMPLES,
    SEED,
    SIGNIFICANCE,
    THREADS,
    Cost,
    Increasing,
    InputFiles,
    Integers,
    Listed,
    Names,
    Needs,
    OrNone,
    OutputPath,
    Param,
    Pattern,
    Reals,
    Switch,
    Text,
)
from ..core.records import record, replace
from ..errors import ParameterError, about
from ..scales.params import PHI_TIES
from ..stats.names import (
    CONVENTION,
    PROCEDURE,
    RESAMPLING,
    RESAMPLING_PROCEDURES,
    SHARD_MODEL_NAMES,
)

#: Seeds of ``meta discriminative-power --seeds`` (one resampling run each).
SEEDS = Integers(1, 1_000_000)
#: Repetitions per split size (:func:`irscale.meta.split_study`, ``swap_rates``).
REPETITIONS = Integers(1, 1_000_000)
SPLIT_REPETITIONS = Param("repetitions", REPETITIONS, 100, "random splits per size",
                          ("--repetitions",), "R",
                          cost=Cost("repetitions", per="a split of the topics, its analyses"))
#: Simulated matrices (:func:`irscale.meta.simulate_tests`).
SIMULATIONS = Integers(1, 100_000_000)
SIMULATED_MATRICES = Param("repetitions", SIMULATIONS, 1000, "simulated matrices",
                           ("--repetitions",), "R",
                           cost=Cost("matrices", per="a matrix simulated and tested"))
#: Rank correlation methods of :func:`irscale.meta.correlation` (``tau`` = Kendall's τ_b).
CORRELATION = Names("correlation method", ("kendall", "tau_ap", "tau_ap_sym", "spearman", "rbo"),
                    {"tau": "kendall", "tau_b": "kendall", "ap": "tau_ap", "tauap": "tau_ap",
                     "tau_ap_symmetric": "tau_ap_sym", "rho": "spearman"}, fold=True)
#: The persistence p of rank-biased overlap (Webber, Moffat & Zobel 2010).
PERSISTENCE = Reals(0.0, 1.0, "()")
RBO_P = Param("p", PERSISTENCE, 0.9, "RBO persistence, --method rbo only", ("-p", "--p"), "P")
#: The rank correlation of :func:`irscale.meta.overall_correlation` and its kin.
CORRELATION_METHOD = Param("method", CORRELATION, "kendall", "rank correlation",
                           ("--method",), label="--method")
#: The bootstrap samples of :func:`irscale.meta.correlation_ci` (two at least: an interval).
CORRELATION_SAMPLES = Param("samples", INTERVAL_SAMPLES, 1000, "bootstrap samples of the "
                            "interval of the overall correlation", ("-B", "--samples"), "B",
                            cost=Cost("samples", per="a resample of the topics"))
#: How :func:`irscale.meta.rbo_scores` treats tied scores (Corsi & Urbano, SIGIR 2024):
#: RBO^a (the expectation over the tie orders, the default of the authors' reference
#: implementation), RBO^b (corrected by the information lost to ties), RBO^w (ties as
#: equality), or ``input`` (tied items in their input order, which no variant of the paper
#: is: only when asked for by name).
RBO_TIE_VARIANTS = Names("RBO tie treatment", ("a", "b", "w", "input"),
                         {"rbo-a": "a", "rbo-b": "b", "rbo-w": "w"}, fold=True)
RBO_TIES = Param("ties", RBO_TIE_VARIANTS, "a", "tied scores in RBO (Corsi & Urbano 2024): a "
                 "(expectation over the tie orders), b (corrected for the information lost to "
                 "ties), w (ties as equality) or input (input order); --method rbo only",
                 ("--ties",), "a|b|w|input")
#: RBO's persistence ``p`` and its treatment of tied scores ``ties`` (two of the
#: ``**options`` of :func:`irscale.meta.correlation`) apply to ``method='rbo'`` alone: refused
#: with any other method, by the functions and by ``meta correlate`` (``-p``, ``--ties``).
#: (one rule each: the refusal names its own argument)
RBO_ONLY = (Needs((RBO_P,), on=CORRELATION_METHOD, values=("rbo",)),
            Needs((RBO_TIES,), on=CORRELATION_METHOD, values=("rbo",)))
#: :func:`irscale.meta.correlation` (``meta correlate``): the method, checked on entry, and
#: RBO's options (:data:`RBO_ONLY`; the tolerances, every method's, are the body's).
CORRELATE = Binding((CORRELATION_METHOD, RBO_P, RBO_TIES), rules=RBO_ONLY)
#: :func:`irscale.meta.correlation_ci`: the method and the bootstrap samples.
CORRELATE_CI = Binding((CORRELATION_METHOD, CORRELATION_SAMPLES, RBO_P, RBO_TIES),
                       rules=RBO_ONLY)
#: :func:`irscale.meta.rbo`: the persistence (rankings of items have no ties).
RANK_BIASED_OVERLAP = Binding((RBO_P,))
#: :func:`irscale.meta.rbo_scores`: the persistence and the treatment of tied scores.
RBO_OF_SCORES = Binding((RBO_P, RBO_TIES))
#: Methods of :func:`irscale.meta.discriminative_power`.
DISCRIMINATIVE_METHOD = Names(
    "method", ("bootstrap", "randomized-tukey-hsd"),
    {"paired-bootstrap": "bootstrap", "paired_bootstrap": "bootstrap",
     "randomised-tukey-hsd": "randomized-tukey-hsd", "rtukey": "randomized-tukey-hsd",
     "randomized-tukey": "randomized-tukey-hsd", "randomized_tukey_hsd": "randomized-tukey-hsd",
     "randomised_tukey_hsd": "randomized-tukey-hsd", "randomized_tukey": "randomized-tukey-hsd"},
    fold=True)
DISCRIMINATIVE_POWER_METHOD = Param("method", DISCRIMINATIVE_METHOD, "bootstrap",
                                    "method of discriminative power", ("--method",),
                                    label="--method")
#: The resamples of :func:`irscale.meta.discriminative_power`.
DISCRIMINATIVE_SAMPLES = Param("samples", SAMPLES, 1000, "resamples", ("-B", "--samples"), "B",
                               cost=Cost("samples", per="a resample of every pair of systems"))
#: ``B``, the other name of the resamples of :func:`irscale.meta.discriminative_power`
#: (Sakai's): the number of samples is given once, by either name.
DISCRIMINATIVE_B = Param("B", SAMPLES, None, "the resamples (samples' other name)", ("-B",),
                         "B", unset="samples", label="B",
                         cost=DISCRIMINATIVE_SAMPLES.cost)
#: :func:`irscale.meta.discriminative_power` (and the table and spread that call it): the
#: method, the resamples (by either name, given once), the level, the ASL convention and the
#: threads, checked on entry.
DISCRIMINATIVE = Binding((DISCRIMINATIVE_POWER_METHOD, DISCRIMINATIVE_SAMPLES, DISCRIMINATIVE_B,
                          SIGNIFICANCE, CONVENTION, THREADS),
                         rules=(Excludes((DISCRIMINATIVE_SAMPLES,), on=DISCRIMINATIVE_B,
                                         why="B is samples' other name: give the number of "
                                         "samples once"),))
#: ``meta discriminative-power --method``: a method of :func:`irscale.meta.
#: discriminative_power`, or both (the function called once with each).
BOTH_METHODS = Param("method", Names(DISCRIMINATIVE_METHOD.noun,
                                     (*DISCRIMINATIVE_METHOD.names, "both"),
                                     DISCRIMINATIVE_METHOD.aliases, fold=True),
                     "bootstrap", "method of discriminative power, or both", ("--method",),
                     label="--method")
#: ``meta discriminative-power``: :func:`irscale.meta.discriminative_power` with the method
#: chosen, or with each of them (``both``: two calls of the same binding); ``--seeds`` calls
#: it once per seed (:func:`irscale.meta.discriminative_power_spread`, which hands it its
#: options).
DISCRIMINATIVE_CHOICE = Choice(on=BOTH_METHODS,
                               bindings=dict.fromkeys(BOTH_METHODS.domain.names, DISCRIMINATIVE))
#: Runs that differ in one seed each (:func:`irscale.meta.discriminative_power_spread`).
SPREAD_SEEDS = Param("seeds", SEEDS, None, "repeat with seeds seed..seed+R-1 and report the "
                     "Monte Carlo spread", ("--seeds",), "R", unset="one run",
                     cost=Cost("seeds", per="the whole resampling again"))
#: The seeds of :func:`irscale.meta.discriminative_power_spread`: one run each, none twice
#: (a seed run twice draws the same samples: no spread).
SPREAD_SEED_LIST = Param("seeds", Listed(SEED, "a seed"), None, "the seeds, one resampling run "
                         "each", ("--seeds",), "S,S,...", unset="0 to 9",
                         cost=SPREAD_SEEDS.cost)
#: :func:`irscale.meta.discriminative_power_spread`: the method and the seeds, checked on
#: entry (its other options are :data:`DISCRIMINATIVE`'s, checked by each run).
DISCRIMINATIVE_SPREAD = Binding((DISCRIMINATIVE_POWER_METHOD, SPREAD_SEED_LIST))
#: The pool depth of leave-one-out tests (:func:`irscale.meta.leave_one_out`).
LOO_DEPTH = Param("depth", DEPTH, 100, "pool depth", ("--depth",), "K",
                  cost=Cost("ranks", per="a rank of every run pooled (at most those ranked)"))
#: :func:`irscale.meta.pooling_bias` (``meta pool-bias``): the pool depth and the relevance
#: level, checked on entry.
POOL_REUSE = Binding((LOO_DEPTH, RELEVANCE))
#: :func:`irscale.meta.pool_contributions`: the pool depth.
POOL_CONTRIBUTIONS = Binding((LOO_DEPTH,))
#: Measure differences |ΔM| ≤ θ are measure ties (:func:`irscale.meta.predictive_power`).
PREDICT_THRESHOLD = Param("threshold", Reals(0.0), 0.0,
                          "differences |ΔM| ≤ θ are measure ties (no prediction)",
                          ("--threshold",), "θ")
#: An edge of the |ΔM| bins of :func:`irscale.meta.predictive_power` (``meta predict --bins``).
PREDICT_BIN_EDGE = Reals(0.0)
PREDICT_BINS = Param("bins", Increasing(PREDICT_BIN_EDGE, "an edge"), None, "also the power "
                    "per bin of |ΔM| between these increasing edges", ("--bins",), "E,E,...",
                    unset="none")
#: How a measure tie counts in :func:`irscale.meta.predictive_power`.
PREDICT_TIES = Param("ties", Names("tie counting", ("exclude", "half", "miss")), "exclude",
                     "how a measure tie counts: left out, half a prediction or a miss",
                     ("--ties",))
#: :func:`irscale.meta.predictive_power` (``meta predict``): the threshold of a measure tie,
#: how a tie counts and the bins' edges (two at least, increasing), checked on entry.
PREDICT = Binding((PREDICT_THRESHOLD, PREDICT_TIES, PREDICT_BINS))
#: The cut of the runs whose curves :func:`irscale.meta.informativeness` infers.
INFORMATIVENESS_DEPTH = Param("depth", DEPTH, 100, "cut every run at K documents (the "
                              "maximum entropy of AP costs O(K³) per ranked list)",
                              ("--depth",), "K",
                              cost=Cost("ranks", per="a rank of every ranked list (at most "
                                        "those ranked)"))
#: The cut of the lists of :func:`irscale.meta.judged_lists`: ``--depth`` of ``irscale meta
#: informativeness`` (:data:`INFORMATIVENESS_DEPTH`), or None, whole lists.
JUDGED_DEPTH = Param("depth", OrNone(DEPTH, "no cut: whole lists"), INFORMATIVENESS_DEPTH.default,
                     INFORMATIVENESS_DEPTH.doc, INFORMATIVENESS_DEPTH.flags,
                     INFORMATIVENESS_DEPTH.metavar, cost=INFORMATIVENESS_DEPTH.cost)
#: :func:`irscale.meta.judged_lists`: the cut and the relevance level, checked on entry.
JUDGED_LISTS = Binding((JUDGED_DEPTH, RELEVANCE))
#: :func:`irscale.meta.judged_intent_lists`: the cut of the diversity runs.
JUDGED_INTENT_LISTS = Binding((JUDGED_DEPTH,))
#: The measures of :func:`irscale.meta.informativeness` (Aslam, Yilmaz & Pavlu 2005).
INFORMATIVENESS_MEASURES = ("AP", "R-prec", "P@10")
#: The diversity measures of :func:`irscale.meta.intent_informativeness` (Ashkan & Clarke
#: 2011): ndeval's cascade measures of collection-independent normalisation.
INTENT_INFORMATIVENESS_MEASURES = ("alpha-DCG@20", "ERR-IA@20", "NRBP", "P-IA@20")
#: The cut of both runs before their document orderings are compared
#: (:func:`irscale.meta.ranking_agreement`, Breuer et al. 2020, §3.1).
REPRO_DEPTH = Param("depth", DEPTH, 1000, "cut the original and reproduced runs at K "
                    "documents before comparing their orderings (τ, RBO)", ("--depth",), "K",
                    cost=Cost("ranks", per="a rank of every run compared (at most those "
                              "ranked)"))
#: The RBO persistence of :func:`irscale.meta.ranking_agreement` (Breuer et al. 2020 use 0.8).
REPRO_RBO_P = Param("p", PERSISTENCE, 0.8, "RBO persistence of the document orderings",
                    ("-p", "--p"), "P")
#: :func:`irscale.meta.ranking_agreement` (``meta reproduce``): the cut and the RBO
#: persistence, checked on entry.
RANKING_AGREEMENT = Binding((REPRO_DEPTH, REPRO_RBO_P))
#: The equivalence margin of the TOST of :func:`irscale.meta.reproducibility` (``meta
#: reproduce --margin``), in the measure's units.
REPRO_MARGIN = Param("margin", Reals(0.0, bounds="(]"), None, "equivalence margin: two one-sided "
                     "t-tests (TOST) of |original − reproduced| < M for each run",
                     ("--margin",), "M", unset="no equivalence test")
#: :func:`irscale.meta.reproducibility`: the equivalence margin.
REPRODUCIBILITY = Binding((REPRO_MARGIN,))
#: The bootstrap resamples of the intervals of ER and ΔRI
#: (:meth:`irscale.meta.Reproducibility.effect_intervals`, ``meta reproduce --effect-samples``).
EFFECT_SAMPLES = Param("samples", INTERVAL_SAMPLES, 1000, "bootstrap resamples of the topics "
                       "for the intervals of ER and delta RI", ("--effect-samples",), "B",
                       cost=Cost("samples", per="a resample of the topics, every run's mean "
                                 "recomputed"))
EFFECT_INTERVALS = Binding((EFFECT_SAMPLES, SIGNIFICANCE), takes=(RNG_SEED,))
#: :func:`irscale.meta.replicability_across`: the level of the pooled interval.
REPLICABILITY_ACROSS = Binding((SIGNIFICANCE,))
#: The contributor of a run in leave-one-out tests (:func:`irscale.meta.contributors_by_prefix`,
#: :func:`irscale.collections.simulate_pooling`): the part of its name the pattern matches.
DEFAULT_CONTRIBUTOR_PATTERN = r"^[^_]+"
CONTRIBUTOR_PATTERN = Param("contributor_pattern", Pattern(), DEFAULT_CONTRIBUTOR_PATTERN,
                            "contributor of a run = the part of its name matched (by default "
                            "up to the first '_')", ("--contributor-pattern",), "REGEX")
#: :func:`irscale.meta.contributors_by_prefix`: its ``pattern``, the same declaration.
CONTRIBUTORS_BY_PREFIX = Binding((replace(CONTRIBUTOR_PATTERN, name="pattern"),))
#: The contributor of every run (``meta loo``, ``meta pool-bias``, ``pool simulate``): a file
#: on the command line; a mapping or a function of the run's name in the API.
CONTRIBUTORS = Param("contributors", InputFiles(), None, "file of 'run contributor' lines, "
                     "overriding --contributor-pattern", ("--contributors",), "FILE",
                     unset="none")
#: :func:`irscale.meta.leave_one_out` (``meta loo``): the pool depth, the relevance level and
#: the pattern of the runs' contributors, checked on entry; the pattern applies where no
#: contributors are given (they name every run's contributor).
LEAVE_ONE_OUT = Binding((LOO_DEPTH, RELEVANCE, CONTRIBUTOR_PATTERN),
                        rules=(Excludes((CONTRIBUTOR_PATTERN,), on=CONTRIBUTORS,
                                        why="they name every run's contributor"),))
#: Agreement metrics of :func:`irscale.meta.split_study` (``tau``: Kendall's τ between the
#: halves' rankings).
SPLIT_METRICS: tuple[str, ...] = ("sig_1", "sig_2", "AA", "AD", "MA", "MD", "jaccard",
                                  "overlap", "tau")
#: Topics of a split (each half holds 2 at least), and the sizes studied.
SPLIT_SIZE = Integers(2)
SPLIT_SIZES = Param("sizes", SPLIT_SIZE, (5, 10, 15, 20, 25), "comma-separated topics per "
                    "split", ("--sizes",), "S,S,...",
                    cost=Cost("topics", per="a topic of each half (at most half of them)"))
#: ``meta split --metric``: an agreement metric, the bias of the halves' means (``bias``)
#: or the spread of τ (``tau_sd``).
SPLIT_METRIC = Param("metric", Names("metric", (*SPLIT_METRICS, "bias", "tau_sd")), None,
                     "print one metric by size", ("--metric",), label="--metric",
                     unset="the agreement table and τ")
#: Width of the bins of score differences of the swap method.
BIN_WIDTH = Reals(0.0, bounds="()")
SWAP_BIN_WIDTH = Param("bin_width", BIN_WIDTH, 0.01, "width of the bins of score differences",
                       ("--bin-width",), "W")
#: The significance filter of the swap method (:func:`irscale.meta.swap_rates`' ``test``).
SWAP_TEST = Param("test", PROCEDURE, None, "count only the pairs this test finds significant "
                  "on TS1", ("--test",), label="--test", unset="every pair")
#: :func:`irscale.meta.topic_splits`: the repetitions, checked on entry.
TOPIC_SPLITS = Binding((SPLIT_REPETITIONS,))
#: ``shards=`` of :func:`irscale.meta.split_study` (``meta split --shard-scores FILE``): the
#: topics × systems × shards scores that the shard models of the study read.
SPLIT_SHARDS = Param("shards", InputFiles(), None, "topics × runs × shards scores for the "
                     "shard models (MD3, MD3f, ...): the CSV topic,run,shard,value that "
                     "irscale pool shards --shard-scores writes, of the same topics and runs "
                     "as the score matrix", ("--shard-scores",), "FILE", unset="none",
                     dest="shard_scores")
#: The procedures of a topic-splitting study by their canonical names
#: (:func:`split_procedures`): derived from ``models`` and ``cross``, never given; the
#: command line sets it from ``--models`` and ``--cross`` (``meta split``), and messages
#: name it as "procedures".
SPLIT_PROCEDURES = Param("procedures", PROCEDURE, None, "the procedures of the study, "
                         "derived from models and cross", ("procedures",))


def split_procedures(models: object, cross: object) -> tuple[str, ...]:
    """The procedures of a topic-splitting study (:data:`SPLIT_PROCEDURES`), each once by its
    canonical name (:data:`~irscale.stats.names.PROCEDURE`, whose case does not matter:
    ``md3`` is ``MD3``): those of ``models``, then both of every pair of ``cross``. The value
    the binding of :func:`irscale.meta.split_study` rules on (``SPLIT``, which derives it on
    entry), derived alike by the function and the command line. A name that names no procedure,
    or an argument of the wrong shape, is left out here: the study refuses it, naming it, as it
    reads it."""
    def items(value: object) -> tuple[object, ...]:  # (an iterator is the study's to read)
        plain = isinstance(value, Iterable) and not isinstance(value, (str, bytes, Iterator))
        return tuple(value) if plain else ()  # type: ignore[arg-type]

    names = [*items(models), *(name for pair in items(cross) for name in items(pair))]
    found = (PROCEDURE.canonical(name) for name in names)
    return tuple(dict.fromkeys(name for name in found if name is not None))


#: :func:`irscale.meta.split_study` (``meta split``): the repetitions and the level;
#: the shard scores apply to the shard models among the procedures studied (canonical
#: names, :func:`split_procedures`: ``md3`` and ``MD3`` alike, in ``models`` or in a pair of
#: ``cross``), and would be left unread without one.
SPLIT = Binding((SPLIT_REPETITIONS, SIGNIFICANCE),
                rules=(Needs((SPLIT_SHARDS,), "the shard models (MD3, MD3f, ...) among those "
                             "studied", on=SPLIT_PROCEDURES, values=SHARD_MODEL_NAMES),),
                derived=(Derived(SPLIT_PROCEDURES,
                                 lambda args: split_procedures(args["models"], args["cross"])),))
#: :func:`irscale.meta.swap_rates` (``meta swap``): the level and the resamples apply to
#: the significance filter ``test`` (without it no test is run), the resamples to a
#: resampling test only.
SWAP = Binding(
    (SPLIT_REPETITIONS, SWAP_BIN_WIDTH, SWAP_TEST, SIGNIFICANCE, RESAMPLES),
    rules=(Needs((SIGNIFICANCE, RESAMPLES), "the significance filter of the swap method",
                 on=SWAP_TEST),
           Needs((RESAMPLES,), f"a resampling test ({RESAMPLING})", on=SWAP_TEST,
                 values=RESAMPLING_PROCEDURES)))
#: The normal model of :func:`irscale.meta.simulation_study`: topics and systems per
#: matrix, the standard deviations of topic effects (≥ 0) and errors (> 0), system means.
MATRIX_SIZE = Integers(2)
TOPIC_SD = Reals(0.0)
ERROR_SD = Reals(0.0, bounds="()")
EFFECT = Reals()
NORMAL_TOPICS = Param("topics", MATRIX_SIZE, 50, "normal model: topics per matrix",
                      ("--topics",), "T", cost=Cost("topics", per="a row of every matrix"))
NORMAL_SYSTEMS = Param("systems", MATRIX_SIZE, 2, "normal model: systems per matrix",
                       ("--systems",), "S",
                       cost=Cost("systems", "quadratic", "the pairs of systems tested"))
NORMAL_TOPIC_SD = Param("topic_sd", TOPIC_SD, 0.1, "normal model: standard deviation of the "
                        "topic effects u_t", ("--topic-sd",), "SD")
NORMAL_ERROR_SD = Param("error_sd", ERROR_SD, 0.1, "normal model: standard deviation of the "
                        "errors e_ts, > 0", ("--error-sd",), "SD")
NORMAL_EFFECTS = Param("effects", EFFECT, None, "normal model: the true system means mu_s, "
                       "one per system, e.g. -0.1,0", ("--effects",), "E,E,...",
                       unset="all 0, every pair null", label="--effects")
#: The runs model of :func:`irscale.meta.simulation_study` (``RunsModel.of``): the quality of
#: every system.
RUNS_QUALITIES = Param("qualities", EFFECT, None, "runs model (QRELS -m MEASURE): one quality "
                       "per system, the mean score of a relevant document in a binormal score "
                       "model (non-relevant: 0; both of variance 1); equal qualities make a "
                       "null pair", ("--qualities",), "Q,Q,...", label="--qualities")
#: The runs of the runs model (:meth:`irscale.meta.RunsModel.of`, :func:`irscale.meta.
#: simulate_runs`): their depth and the Monte Carlo runs per distinct quality that estimate
#: the true means (options of no command: ``meta simulate --model runs`` takes the defaults).
RUNS_DEPTH = Param("depth", DEPTH, 1000, "runs model: documents of each run drawn",
                   ("--depth",), "K")
DEFAULT_TRUTH_DRAWS = 200
RUNS_TRUTH_DRAWS = Param("truth_draws", SIMULATIONS, DEFAULT_TRUTH_DRAWS, "runs model: Monte "
                         "Carlo runs per distinct quality that estimate the true means",
                         ("--truth-draws",), "N")
#: :meth:`irscale.meta.RunsModel.of`: the depth, the relevance level and the truth's draws,
#: and the systems' qualities (a list that may repeat a value: checked in the body).
RUNS_MODEL = Binding((RUNS_DEPTH, RELEVANCE, RUNS_TRUTH_DRAWS), takes=(RUNS_QUALITIES,))
#: :class:`irscale.meta.NormalModel`: the matrices' size and the standard deviations (each
#: checked as the model is made, against these declarations), and the system means (one per
#: system: checked with them).
NORMAL_MODEL = Binding((NORMAL_TOPICS, NORMAL_SYSTEMS, NORMAL_TOPIC_SD, NORMAL_ERROR_SD),
                       takes=(NORMAL_EFFECTS,))
#: The margin families and copulas of the copula model (:mod:`irscale.meta.stochastic`;
#: Urbano & Nagler 2018).
MARGIN_FAMILIES: tuple[str, ...] = ("truncnorm", "beta", "bks", "bbinom", "dks")
MARGIN_FAMILY = Names("margin family", MARGIN_FAMILIES)
COPULA_FAMILIES: tuple[str, ...] = ("gaussian", "t", "independent", "auto", "vine")
COPULA_FAMILY = Names("copula", COPULA_FAMILIES)
COPULA_MARGINS = Param("margins", Listed(MARGIN_FAMILY, "a margin family"), MARGIN_FAMILIES,
                       "copula model: "
                       "comma-separated margin families fitted to every system, the one of "
                       "the smallest AIC kept (bbinom, dks: for discrete scores, P@10)",
                       ("--margins",), "F,F,...")
COPULA = Param("copula", COPULA_FAMILY, "gaussian", "copula model: the copula of the "
               "dependence between systems (auto: gaussian or t, the smaller AIC; "
               "vine: an R-vine, needs irscale[vines])",
               ("--copula",),
               requires=(Requires(PYVINECOPULIB, when=lambda value: value == "vine"),))
#: Measures and run lengths N of :func:`irscale.meta.scale_report` (Ferrante, Ferro & Fuhr
#: 2021), and a run length.
SCALE_MEASURES: tuple[str, ...] = ("P", "R", "AP", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02",
                                   "DCG_b10", "nDCG_b02", "nDCG_b10", "RR")
SCALE_CUTOFFS: tuple[int, ...] = (5, 10, 20, 30)
SCALE_LENGTHS = Param("cutoffs", Listed(CUTOFF, "a cut-off"), SCALE_CUTOFFS,
                      "comma-separated run lengths N",
                      ("--cutoffs",), "N,N,...",
                      cost=Cost("ranks", "exponential", "a factor of levels to the rankings "
                                "of a scale"))
#: The gold-standard measures of :func:`irscale.meta.concordance_table`.
GOLD = Param("gold", Text(), None, "comma-separated gold-standard measure(s); the other "
             "measures are the candidates", ("--gold",), "M,...", label="--gold")
#: The null variants of the bootstrap and copula models (``BootstrapModel.of``,
#: ``CopulaModel.fit``): every pair null, or one pair.
SIMULATION_NULL = Param("null", Switch(), False, "bootstrap model: first centre every system "
                        "on the grand mean; copula model: transform every margin to the mean "
                        "of the fitted means; so that every pair is null (default: the "
                        "matrix's system means are the truth)", ("--null",))
COPULA_EQUAL = Param("equal", Text(), None, "copula model: transform system B's margin to "
                     "system A's mean, so that the pair (A, B) is null", ("--equal",), "A,B",
                     unset="the fitted means", label="--equal")
#: :meth:`irscale.meta.CopulaModel.fit` (``meta simulate --model copula``): the margins, the
#: copula and the topics; ``equal`` (one pair made null) applies without ``null`` (every
#: pair made null).
def _matrix_rows(arguments: Mapping[str, Any]) -> int:
    """The topics (rows) of the score matrix ``data`` of a call (its ``measure``'s, of a
    score matrix): :func:`irscale.stats.validation.score_table`'s, which refuses a matrix
    of fewer than 2 topics or systems, naming ``data``."""
    from ..stats.validation import score_table

    return int(score_table(arguments["data"], arguments.get("measure"))[0].shape[0])


COPULA_FIT = Binding((COPULA_MARGINS, COPULA, NORMAL_TOPICS, SIMULATION_NULL, COPULA_EQUAL),
                     rules=(Excludes((COPULA_EQUAL,), on=SIMULATION_NULL,
                                     why="null makes every pair null, equal one pair"),
                            SizedBy(NORMAL_TOPICS, _matrix_rows, "by default the rows of "
                                    "data")))
#: The sizes of the topic subsets of :meth:`irscale.meta.BootstrapModel.of` (``meta simulate
#: --model bootstrap --topics 10,25,50``): each test's conclusions on subsets of that many
#: topics scored against its conclusions on the full set.
TOPIC_SUBSETS = Param("topics", Listed(MATRIX_SIZE, "a topic-set size"), None, "bootstrap "
                      "model: draw subsets of N topics (without replacement; several sizes: "
                      "N,N,...) and score each test's conclusions against the full set's",
                      ("--topics",), "N,N,...", unset="the matrix's topics, drawn with "
                      "replacement", cost=Cost("topics", per="a row of every subset"))
@record
class TopicCounts:
    """``meta simulate --topics``: one number of topics (the normal and copula models'
    matrices) or several, comma-separated (the sizes of the bootstrap model's topic
    subsets): one is returned as a number, several as a list (each model's parameter then
    checks what it takes)."""

    type: ClassVar[type] = str
    #: Its values are numbers, read as text (the command line's sweeps of numeric options
    #: give it theirs).
    numeric: ClassVar[bool] = True

    def check(self, value: object, name: str) -> int | list[int]:
        """``value`` (text ``"10,25,50"``, a number or a list) as a number or a list."""
        items = value.split(",") if isinstance(value, str) else value
        if isinstance(items, (list, tuple)):
            numbers = []
            for item in items:
                text = item.strip() if isinstance(item, str) else item
                if isinstance(text, str) and not (text.isdigit() and text.isascii()):
                    raise about(ParameterError(f"{name}: a topic-set size must be "
                                               f"{MATRIX_SIZE.text()}, got {text!r}",
                                               param=name), value)
                numbers.append(int(text) if isinstance(text, str) else text)
            items = numbers
        sizes = Listed(MATRIX_SIZE, "a topic-set size").check(items, name)
        return sizes[0] if len(sizes) == 1 else sizes

    def outside(self) -> tuple[str, ...]:
        return ("1", "10,10")


#: :meth:`irscale.meta.BootstrapModel.of`: every pair made null, or none; the topic subsets
#: (whose truth is the full set's conclusions, not its means: not with ``null``).
BOOTSTRAP_MODEL = Binding((SIMULATION_NULL, TOPIC_SUBSETS),
                          rules=(Excludes((SIMULATION_NULL,), on=TOPIC_SUBSETS,
                                          why="the truth of topic subsets is the full set's "
                                          "conclusions"),))
#: The fits of one system's margin and of the copula (:func:`irscale.meta.margins.fit_margin`,
#: :func:`irscale.meta.copulas.fit_copula`).
MARGIN_FIT = Binding((COPULA_MARGINS,))
COPULA_FAMILY_FIT = Binding((COPULA,))
#: The folder :func:`irscale.meta.simulation_study` resumes from.
CHECKPOINT = Param("checkpoint", OutputPath("folder"), None, "keep the counts of every finished "
                   "task in DIR (made if missing) and, run again with the same arguments and "
                   "--seed, compute only the unfinished tasks; a DIR holding another study is "
                   "refused", ("--checkpoint",), "DIR", unset="no checkpoint")
#: :func:`irscale.meta.simulation_study` (``meta simulate``): the matrices, the level and
#: the checkpoint, which applies to a seeded study (the checkpoint's description holds the
#: seed: one drawn afresh could never resume).
SIMULATION = Binding((SIMULATED_MATRICES, SIGNIFICANCE, CHECKPOINT),
                     rules=(Needs((CHECKPOINT,), "a seeded study, which alone can resume",
                                  on=RNG_SEED),))
#: The ridge of the covariance of :func:`irscale.meta.d_rank` (Carterette 2009).
RIDGE = Param("ridge", Reals(0.0), 0.0, "added to the diagonal of the covariance of the score "
              "differences (0: none; without it d_rank needs more topics than systems - 1)",
              ("--ridge",), "L")
#: :func:`irscale.meta.d_rank` and :func:`irscale.meta.rank_distance` (``meta drank``): the
#: ridge, checked on entry.
D_RANK = Binding((RIDGE,))
#: :func:`irscale.meta.concordance_table` and :func:`irscale.meta.concordance_test` (``meta
#: concordance``): the significance level of the sign tests, checked on entry.
CONCORDANCE = Binding((SIGNIFICANCE,))
#: The prefix of the track labels of :func:`irscale.meta.scale_report`.
SCALE_COLLECTION = Param("collection", Text(), "T", "track label prefix", ("--collection",))
#: The table of :meth:`irscale.meta.ScaleReport.format` and its cut-off ``N``.
SCALES_TABLE = Param("table", Names("table", ("all", "2", "4", "5", "6", "invariants")), "all",
                     "the table to print", ("--table",))
TABLE_CUTOFF = Param("N", CUTOFF, None, "cut-off of Tables 4-6, one of --cutoffs",
                     ("--table-cutoff",), "N", unset="the largest", label="--table-cutoff",
                     dest="table_n", cost=Cost("ranks", "exponential", "a factor of levels "
                                               "to the rankings of a scale"))
#: :func:`irscale.meta.scale_report` (``meta scales``): the run lengths (at least one, none
#: twice), the significance level and φ's ties, checked on entry (the order of tied
#: documents by :func:`irscale.scales.transform.transform`, which it calls).
SCALE_REPORT = Binding((SCALE_LENGTHS, SIGNIFICANCE, PHI_TIES))
