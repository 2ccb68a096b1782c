"""The parameters of pooling, judgment sampling, sharding and crowd labels, declared once.

The functions of :mod:`irscale.collections` check their arguments against these
declarations and the command line builds its options from them
(:func:`irscale.cli.options.add_param`), before numpy is imported: this module imports
nothing but :mod:`irscale.core.params` (the mechanism: domains,
:class:`~irscale.core.params.Param`) and the declaration of an input the readers of
:mod:`irscale.io` size (:mod:`irscale.io.params`).
"""

from __future__ import annotations

import math

from ..core.binding import Binding, Excludes, Required
from ..core.params import (
    CUTOFF,
    DEFAULT_RRF_K,
    DEPTH,
    INT64_MAX,
    ITERATIONS,
    MEMORY_LIMIT,
    NO_WORK,
    PPI_TUNING,
    QRELS_OPTION,
    RELEVANCE,
    RNG_SEED,
    RRF_K,
    SAMPLE_DESIGNS,
    SAMPLES,
    SEED,
    SIGNIFICANCE,
    TOLERANCE,
    Cost,
    InputFiles,
    Integers,
    Listed,
    Names,
    Needs,
    Param,
    Reals,
    Switch,
    Text,
)
from ..core.records import replace
from ..core.trec_options import TIE_POLICY
from ..io.params import CONFUSION_FILE as CONFUSION_FILE
from ..stats.names import MULTIPLE_CORRECTION, PROCEDURE, SHARD_MODEL_NAMES, TEST_NAMES
from ..stats.params import SHARD_MODEL as SHARD_MODEL

#: Pooling strategies (:func:`irscale.collections.pool`): those whose order does not depend
#: on judgments (depth-k, take@N, RBP-weighted of Moffat, Webber & Zobel 2007, reciprocal
#: rank fusion) and those that adapt to them (move-to-front of Cormack, Palmer & Clarke
#: 1998, the bandits of Losada, Parapar & Barreiro 2016, 2017).
FIXED_STRATEGIES: tuple[str, ...] = ("depth", "take", "rbp", "rrf")
ADAPTIVE_STRATEGIES: tuple[str, ...] = ("mtf", "mm", "mm-ns", "ts", "ts-ns")
STRATEGY = Names("pooling strategy", (*FIXED_STRATEGIES, *ADAPTIVE_STRATEGIES))
#: RBP's persistence p, RRF's constant k and the forgetting factor γ of mm-ns and ts-ns
#: (irscale's choice), with their defaults.
RBP_P, DEFAULT_RBP_P = Reals(0.0, 1.0, "()"), 0.8
DISCOUNT, DEFAULT_DISCOUNT = Reals(0.0, 1.0, "()"), 0.9
#: The cut of every run before pooling or sampling (:func:`irscale.collections.pool`,
#: :func:`irscale.collections.sample_judgments`).
RUN_DEPTH = Param("depth", DEPTH, None, "cut every run at K documents first", ("--depth",),
                  "K", unset="whole runs",
                  cost=Cost("ranks", per="a rank of every run (at most those ranked)"))
#: The order of the runs' documents with equal scores (:func:`irscale.collections.
#: ranked_candidates`' ``ties``: trec_eval's ``--ties``).
RUN_TIES = replace(TIE_POLICY, name="ties")
#: :func:`irscale.collections.ranked_candidates`: the runs' cut and their order of ties.
CANDIDATES = Binding((RUN_DEPTH, RUN_TIES))
POOL_P = Param("p", RBP_P, DEFAULT_RBP_P, "RBP persistence p, rbp only", ("-p", "--p"), "P")
POOL_K = Param("k", RRF_K, DEFAULT_RRF_K, "RRF constant k, rrf only", ("--k",), "K")
POOL_DISCOUNT = Param("discount", DISCOUNT, DEFAULT_DISCOUNT,
                      "forgetting factor γ of mm-ns and ts-ns", ("--discount",), "G")
#: Judgments per topic.
BUDGET = Integers(1, 1_000_000_000)
#: Sampling designs of :func:`irscale.collections.sample_judgments`, the documents drawn
#: per topic, and the fraction of a stratum drawn.
DESIGNS: tuple[str, ...] = ("with-replacement", "poisson", "stratified")
SAMPLE_SIZE = Integers(1, 1_000_000_000)
STRATUM_RATE = Reals(0.0, 1.0, "(]")
#: How documents are split into shards (:func:`irscale.collections.evaluate_shards`), and
#: how many shards (more is a typo: every shard needs documents of every topic).
SHARD_METHODS: tuple[str, ...] = ("random", "hash")
DOCUMENT_SHARDS = Integers(1, 1_000_000)
#: Aggregation methods of :func:`irscale.collections.aggregate_labels` (majority vote,
#: weighted, Dawid & Skene 1979, GLAD of Whitehill et al. 2009, MACE of Hovy et al. 2013,
#: one-coin Dawid & Skene, Zero-Based Skill, KOS of Karger, Oh & Shah 2011, M-MSR of Ma &
#: Olshevsky 2020, the Gaussian process of Rodrigues, Pereira & Ribeiro 2014, the rater
#: model of Patz, Junker, Johnson & Mariano's 2002 hierarchical rater model) and AWARE's
#: assessor weightings (Ferrante, Ferro & Pontarollo 2017).
AGGREGATION_METHODS: tuple[str, ...] = ("mv", "wmv", "ds", "glad", "mace", "onecoin", "zbs",
                                        "kos", "mmsr", "gp", "hrm")
#: crowd-kit's names of the same methods where irscale's differ.
AGGREGATION_ALIASES: dict[str, str] = {"wawa": "wmv", "Wawa": "wmv"}
#: The methods that draw random starting values (``rng``).
RANDOM_AGGREGATIONS: tuple[str, ...] = ("mace", "kos", "mmsr")
WEIGHTINGS: tuple[str, ...] = ("uniform", "msd", "msd-topic", "tau")
RANDOM_ASSESSORS = Integers(1, 1_000)
#: AWARE's random assessors (:func:`irscale.collections.aware`).
DEFAULT_RANDOM_ASSESSORS = 10
AWARE_RANDOM = Param("n_random", RANDOM_ASSESSORS, DEFAULT_RANDOM_ASSESSORS, "random "
                     "assessors of the msd, msd-topic and tau weightings", ("--random",), "N",
                     cost=Cost("random assessors", per="a scoring of every run"))
#: The strategy of a pool (:func:`irscale.collections.pool`) and its judgments per topic.
POOL_STRATEGY = Param("strategy", STRATEGY, "depth", "depth (depth-k), take (take@N), rbp "
                      "(RBP-weighted, Moffat et al. 2007), rrf (reciprocal rank fusion), mtf "
                      "(move-to-front, Cormack et al. 1998), mm, mm-ns, ts, ts-ns (bandits of "
                      "Losada et al. 2016, 2017)", ("--strategy",), "S")
POOL_BUDGET = Param("budget", BUDGET, None, "judgments per topic: required for take, rbp and "
                    "rrf; the adaptive strategies stop there", ("--budget",), "N",
                    unset="no limit", cost=Cost("judgments", per="a document judged (at "
                                                "most the documents ranked)"))
#: :func:`irscale.collections.pool` (and ``irscale pool build``): its parameters and when
#: they apply: p to rbp, k to rrf, the discount to the non-stationary bandits, the seed to
#: the adaptive strategies (their tie order and draws), the relevance level to the qrels
#: that judge the pool; depth-k pooling needs its depth, take@N, rbp and rrf a budget.
POOL = Binding(
    (POOL_STRATEGY, RUN_DEPTH, POOL_BUDGET, RELEVANCE, POOL_P, POOL_K, POOL_DISCOUNT),
    rules=(Needs((POOL_P,), on=POOL_STRATEGY, values=("rbp",)),
           Needs((POOL_K,), on=POOL_STRATEGY, values=("rrf",)),
           Needs((POOL_DISCOUNT,), on=POOL_STRATEGY, values=("mm-ns", "ts-ns")),
           Needs((RNG_SEED,), on=POOL_STRATEGY, values=ADAPTIVE_STRATEGIES),
           Needs((RELEVANCE,), on=QRELS_OPTION),
           Required(RUN_DEPTH, on=POOL_STRATEGY, values=("depth",)),
           Required(POOL_BUDGET, on=POOL_STRATEGY, values=("take", "rbp", "rrf"))))
#: :func:`irscale.collections.pooling.judging_order`: the strategy, checked on entry.
JUDGING_ORDER = Binding((POOL_STRATEGY,))
#: The strategies and budgets :func:`irscale.collections.simulate_pooling` compares, and
#: the P̂@k cut-offs of :func:`irscale.collections.estimate_sampled`, by default.
SIMULATED_STRATEGIES: tuple[str, ...] = ("depth", "mtf", "mm-ns")
SIMULATED_BUDGETS: tuple[int, ...] = (10, 50, 100)
SAMPLE_CUTOFFS: tuple[int, ...] = (10,)
#: The sampling design of :func:`irscale.collections.sample_judgments`.
SAMPLE_DESIGN = Param("design", Names("sampling design", DESIGNS), "with-replacement",
                      "with-replacement: N draws, the distinct documents judged, π = "
                      "1-(1-p)^N; poisson: each document independently with π = min(1, c·p), "
                      "Σπ = N; stratified: --strata", ("--design",), "DESIGN")
#: How the human sample of :func:`irscale.collections.automatic_judgments` was drawn.
AUTO_DESIGN = Param("design", Names("human sample design",
                                    ("topics", *SAMPLE_DESIGNS)),
                    "topics", "how the human sample was drawn: topics: a uniform sample of the "
                    "topics; uniform: of the (topic, document) pairs; stratified: of the pairs "
                    "of every automatic grade; inclusion: pairs with stated probabilities "
                    "(HUMAN: topic iter docno rel prob)", ("--design",), "DESIGN")
#: Documents drawn per topic (:func:`irscale.collections.sample_judgments`).
SAMPLE_DRAWS = Param("size", SAMPLE_SIZE, None, "per topic: draws (with-replacement) or "
                     "expected judgments (poisson); required by those designs", ("--size",),
                     "N", cost=Cost("draws", per="a draw of every topic"))
#: Shards of the documents (:func:`irscale.collections.evaluate_shards`).
SHARD_COUNT = Param("shards", DOCUMENT_SHARDS, 3, "number of shards (as Ferro & Sanderson "
                    "2022)", ("--shards",), "K",
                    cost=Cost("shards", per="an evaluation of every run (at most the "
                              "documents)"))
#: How the documents are split (:func:`irscale.collections.evaluate_shards`).
SHARD_METHOD = Param("method", Names("shard method", SHARD_METHODS), "random", "random: a "
                     "seeded random partition of the documents (Ferro & Sanderson 2022); hash: "
                     "a stable 64-bit hash of the docno modulo K", ("--method",), "METHOD")
#: A seed applies to the random partition (hash shards depend on the docno only).
SHARD_SEED = Needs((RNG_SEED,), on=SHARD_METHOD, values=("random",))
#: :func:`irscale.collections.evaluate_shards` (``irscale pool shards``).
SHARDS = Binding((SHARD_COUNT, SHARD_METHOD, RELEVANCE), rules=(SHARD_SEED,))
#: The shards of :func:`irscale.collections.shard_documents` (its ``k``: ``--shards`` of
#: ``irscale pool shards``, through :func:`~irscale.collections.evaluate_shards`).
SHARD_K = Param("k", DOCUMENT_SHARDS, None, "number of shards", ("--shards",), "K",
                label="shards (k)", cost=SHARD_COUNT.cost)
#: :func:`irscale.collections.shard_documents`: the split of ``evaluate_shards``.
SHARD_SPLIT = Binding((SHARD_K, SHARD_METHOD), rules=(SHARD_SEED,))
#: EM iterations of the aggregation methods (:func:`irscale.collections.aggregate_labels`;
#: crowd-kit's defaults) and MACE's random restarts.
LABEL_N_ITER: dict[str, int] = {"ds": 100, "glad": 100, "mace": 50, "onecoin": 100,
                                "zbs": 100, "kos": 100, "mmsr": 10_000, "gp": 1000, "hrm": 100}
LABEL_ITERATIONS = Param("n_iter", ITERATIONS, None, "iterations of ds, glad, onecoin, mmsr, "
                         "gp, hrm (at most), mace, zbs and kos", ("--n-iter",), "N",
                         unset=", ".join(f"{n} for {method}"
                                         for method, n in LABEL_N_ITER.items())
                         + ", as crowd-kit where it has the method",
                         cost=Cost("iterations", per="a pass over the answers"))
#: The stopping tolerance of every method that has one (crowd-kit's defaults; ``hrm``, which
#: crowd-kit lacks: the marginal log-likelihood per label).
LABEL_TOL: dict[str, float] = {"ds": 1e-5, "glad": 1e-5, "onecoin": 1e-5, "mmsr": 1e-10,
                               "gp": 1e-6, "hrm": 1e-8}
#: The stopping tolerance given (None: the method's, :data:`LABEL_TOL`); a method without
#: a stopping rule refuses it.
LABEL_TOLERANCE = Param("tol", TOLERANCE, None, "stopping tolerance of ds, glad, onecoin, "
                        "mmsr, gp and hrm", ("--tol",), "T", unset=", ".join(
                            f"{tol:g} for {method}" for method, tol in LABEL_TOL.items()))
LABEL_METHOD = Param("method", Names("aggregation method", AGGREGATION_METHODS,
                                     AGGREGATION_ALIASES), "ds",
                     "mv (majority vote, ties to the lower label), wmv (weighted by agreement "
                     "with MV; alias wawa), ds (Dawid & Skene 1979), glad (Whitehill et al. "
                     "2009), mace (Hovy et al. 2013), onecoin (one-coin Dawid & Skene), zbs "
                     "(Zero-Based Skill), kos (Karger, Oh & Shah 2011; two labels), mmsr (Ma & "
                     "Olshevsky 2020), gp (Rodrigues, Pereira & Ribeiro 2014; two labels, "
                     "--features), hrm (ordinal labels: the rater model of Patz et al. 2002)",
                     ("--method",), "METHOD")
#: Zero-Based Skill's learning rate, the iterations between its reductions, and the factor
#: of a reduction (crowd-kit's ``lr_init``, ``lr_steps_to_reduce``, ``lr_reduce_factor``).
ZBS_LR = Param("lr", Reals(0.0, math.inf, "()"), 1.0, "zbs: initial learning rate",
               ("--lr",), "R")
ZBS_LR_STEPS = Param("lr_steps", ITERATIONS, 20, "zbs: iterations between two reductions "
                     "of the learning rate", ("--lr-steps",), "N",
                     cost=NO_WORK)
ZBS_LR_DECAY = Param("lr_decay", Reals(0.0, 1.0, "(]"), 0.5, "zbs: factor of a reduction "
                     "of the learning rate", ("--lr-decay",), "F")
#: The RBF length-scale of the ``gp`` aggregation (:mod:`irscale.collections.label_gp`).
GP_LENGTH_SCALE = Param("length_scale", Reals(0.0, math.inf, "()"), None, "gp: length-scale "
                        "of the RBF kernel over the features", ("--length-scale",), "L",
                        unset="learned (--kernel-fit)")
#: How ``gp`` sets its kernel's hyper-parameters when no length-scale is declared.
GP_KERNEL_FIT = Param("kernel_fit", Names("kernel fit", ("evidence", "median")), "median",
                      "gp without --length-scale: median (the median distance between the "
                      "topic's documents, signal variance 1; the default) or evidence "
                      "(length-scale and signal variance learned by maximising the Laplace "
                      "marginal likelihood in EM: often a little more accurate, several times "
                      "the CPU)",
                      ("--kernel-fit",), "FIT")
#: AWARE's assessor weighting (:func:`irscale.collections.aware`).
AWARE_WEIGHTS = Param("weights", Names("weighting", WEIGHTINGS), "uniform", "uniform (the mean "
                      "over assessors), msd, msd-topic (mean squared distance from random "
                      "assessors' scores, per assessor or per topic), tau (Kendall distance of "
                      "the run rankings from random assessors'); msd, msd-topic and tau are "
                      "irscale's reading, not verified against the paper's estimators",
                      ("--weights",), "W")
#: :func:`irscale.collections.aware` (``irscale labels aware``): the random assessors and
#: their seed apply to the weightings that compare with them.
AWARE = Binding((AWARE_WEIGHTS, AWARE_RANDOM),
                rules=(Needs((AWARE_RANDOM,), on=AWARE_WEIGHTS, values=WEIGHTINGS[1:]),
                       Needs((RNG_SEED,), on=AWARE_WEIGHTS, values=WEIGHTINGS[1:])))
#: Pairwise aggregation (:func:`irscale.collections.aggregate_pairwise`): Bradley & Terry
#: (1952) by Hunter's (2004) MM algorithm, and the noisy Bradley–Terry model of Bugakova et
#: al. (2019); crowd-kit's class names are aliases.
PAIRWISE_METHODS: tuple[str, ...] = ("bt", "noisybt")
PAIRWISE_ALIASES: dict[str, str] = {"BradleyTerry": "bt", "NoisyBT": "noisybt",
                                    "NoisyBradleyTerry": "noisybt"}
PAIRWISE_METHOD = Param("method", Names("pairwise aggregation method", PAIRWISE_METHODS,
                                        PAIRWISE_ALIASES), "bt",
                        "bt (Bradley & Terry 1952, MM algorithm of Hunter 2004), noisybt "
                        "(noisy Bradley-Terry with worker skill and position bias, Bugakova "
                        "et al. 2019)", ("--method",), "METHOD")
#: Iterations (at most) and stopping tolerance of each pairwise method: stricter than
#: crowd-kit's (whose ``BradleyTerry`` loop stops after its second iteration and whose
#: ``NoisyBradleyTerry`` stops L-BFGS-B at a relative change of 1e-5).
PAIRWISE_N_ITER: dict[str, int] = {"bt": 10_000, "noisybt": 1000}
PAIRWISE_TOL: dict[str, float] = {"bt": 1e-10, "noisybt": 1e-10}
PAIRWISE_TOLERANCE = Param("tol", TOLERANCE, None, "stopping tolerance of bt and noisybt",
                           ("--tol",), "T", unset=", ".join(
                               f"{tol:g} for {method}" for method, tol in PAIRWISE_TOL.items()))
PAIRWISE_ITERATIONS = Param("n_iter", ITERATIONS, None, "iterations (at most) of bt and "
                            "noisybt", ("--n-iter",), "N", unset=", ".join(
                                f"{n} for {method}" for method, n in PAIRWISE_N_ITER.items()),
                            cost=Cost("iterations", per="a pass over the comparisons"))
#: The largest weight of the noisy Bradley–Terry model's anchor: the anchor term is ``λ``
#: times a document's comparisons with it, so beyond a thousand it holds every score at
#: the anchor's own (gaps of order 1/λ), and the comparisons' share of the objective
#: (about 1/λ² of it) falls below the fit's relative tolerance (``tol``, 1e-10, where λ
#: reaches about 10^4): the order of the scores would be decided by rounding (at 10^6 it
#: reversed the order of 10^3), and from about 10^306 the objective overflows. So the
#: domain stops at 1,000 rather than at the largest float.
MAX_REGULARIZATION = 1e3
#: Weight of the noisy Bradley–Terry model's anchor (a virtual document that every document
#: beats once and loses to once; crowd-kit's ``regularization_ratio``), in (0, 1,000]
#: (:data:`MAX_REGULARIZATION`: why not larger).
NOISYBT_REGULARIZATION = Param("regularization", Reals(0.0, MAX_REGULARIZATION, "(]"), 1e-5,
                               "noisybt: weight of the anchor that keeps the scores finite "
                               "(at most 1000: a larger one holds every score at the "
                               "anchor's)", ("--regularization",), "R")
#: :func:`irscale.collections.aggregate_pairwise` (``irscale labels pairwise``): the anchor's
#: weight applies to noisybt.
PAIRWISE = Binding((PAIRWISE_METHOD, PAIRWISE_ITERATIONS, PAIRWISE_TOLERANCE,
                    NOISYBT_REGULARIZATION),
                   rules=(Needs((NOISYBT_REGULARIZATION,), on=PAIRWISE_METHOD,
                                values=("noisybt",)),))
#: A crowd label's value (stored as int64: :func:`irscale.io.crowd.read_crowd_labels`).
LABEL_VALUE = Integers(-2**63, INT64_MAX)
#: The label values allowed (``scale=`` of the functions that read crowd labels).
LABEL_SCALE = Param("scale", Listed(LABEL_VALUE, "a label"), None, "the label values "
                    "allowed, e.g. 0,1,2; a "
                    "label outside is an error", ("--scale",), "L,L,...",
                    unset="the values the file holds",
                    cost=NO_WORK)
#: :func:`irscale.collections.label_agreement` (``irscale labels agree``): the label values
#: allowed (at least one, none twice), checked on entry.
LABEL_AGREEMENT = Binding((LABEL_SCALE,))
LABEL_RESTARTS = Param("restarts", ITERATIONS, 10, "random restarts of mace", ("--restarts",),
                       "N", cost=Cost("restarts", per="a fit of the answers"))
#: The allocation of crowd answers (:func:`irscale.collections.allocate_labels`).
ALLOCATION_RULES: tuple[str, ...] = ("adaptive", "uniform")
ALLOCATION_RULE = Param("rule", Names("allocation rule", ALLOCATION_RULES), "adaptive",
                        "adaptive stopping or the same answers for every document",
                        ("--rule",), "NAME")
ALLOCATION_C = Param("c", Reals(0.0, bounds="(]"), 1.5, "adaptive: confidence width c of "
                     "the stopping rule n1 - n2 >= c sqrt(t) - epsilon t", ("--c",), "C")
ALLOCATION_EPSILON = Param("epsilon", Reals(0.0, 1.0), 0.1, "adaptive: epsilon of the "
                           "stopping rule (every document stops by (c/epsilon)^2 answers)",
                           ("--epsilon",), "E")
MIN_LABELS = Param("min_labels", Integers(1), 2, "adaptive: answers before the rule may "
                   "stop", ("--min-labels",), "N",
                   cost=NO_WORK)
MAX_LABELS = Param("max_labels", Integers(1), None, "most answers per document",
                   ("--max-labels",), "N", unset="every answer available",
                   cost=NO_WORK)
LABEL_BUDGET = Param("budget", Integers(1), None, "total answers to buy", ("--budget",), "B",
                     unset="every answer available",
                     cost=Cost("answers", per="an answer bought (at most those available)"))
#: :func:`irscale.collections.allocate_labels` (``irscale labels allocate``): the stopping
#: rule's constants apply to the adaptive rule.
ALLOCATE = Binding(
    (ALLOCATION_RULE, ALLOCATION_C, ALLOCATION_EPSILON, MIN_LABELS, MAX_LABELS, LABEL_BUDGET),
    rules=(Needs((ALLOCATION_C,), on=ALLOCATION_RULE, values=("adaptive",)),
           Needs((ALLOCATION_EPSILON,), on=ALLOCATION_RULE, values=("adaptive",)),
           Needs((MIN_LABELS,), on=ALLOCATION_RULE, values=("adaptive",))))
#: The runs whose bounds under the unjudged documents are searched
#: (:func:`irscale.collections.unjudged_bounds`, ``irscale pool bounds``, ``eval --bounds``):
#: the input whose size is the search's work, the lines of the completions of their rankings
#: that the search evaluates (two or more per unjudged document of a ranking, for a measure
#: of the whole ranking), its memory one ranking's completions at a time.
BOUNDED_RUNS = Param("runs", InputFiles(), None, "the runs whose bounds are searched",
                     ("runs",), "RUN",
                     cost=Cost("ranking lines of completions", per="a line of a ranking "
                               "completed with a grade of each unjudged document, evaluated"))
#: :func:`irscale.collections.unjudged_bounds` (``irscale pool bounds``): the relevance
#: level and the memory of a batch of completions, checked on entry.
UNJUDGED_BOUNDS = Binding((RELEVANCE, MEMORY_LIMIT))
#: The features of the documents of ``gp`` (:func:`irscale.collections.aggregate_labels`).
LABEL_FEATURES = Param("features", InputFiles(), None, "gp: 'topic docno f1 f2 ...' lines, the "
                       "features of every labelled document (required with --method gp)",
                       ("--features",), "FILE")
#: :func:`irscale.collections.aggregate_labels` (``irscale labels aggregate``): each
#: method's own parameters apply to it alone (the iterations to the iterative methods, the
#: seed to those with random starts, the restarts to MACE, the learning rate to ZBS, the
#: features and the kernel to the Gaussian process, which needs the features).
AGGREGATE = Binding(
    (LABEL_METHOD, LABEL_ITERATIONS, LABEL_TOLERANCE, LABEL_RESTARTS, ZBS_LR, ZBS_LR_STEPS,
     ZBS_LR_DECAY, GP_LENGTH_SCALE, GP_KERNEL_FIT),
    rules=(Needs((LABEL_ITERATIONS,), on=LABEL_METHOD, values=AGGREGATION_METHODS[2:]),
           Needs((LABEL_TOLERANCE,), on=LABEL_METHOD, values=tuple(LABEL_TOL)),
           Needs((RNG_SEED,), on=LABEL_METHOD, values=RANDOM_AGGREGATIONS),
           Needs((LABEL_RESTARTS,), on=LABEL_METHOD, values=("mace",)),
           Needs((ZBS_LR,), on=LABEL_METHOD, values=("zbs",)),
           Needs((ZBS_LR_STEPS,), on=LABEL_METHOD, values=("zbs",)),
           Needs((ZBS_LR_DECAY,), on=LABEL_METHOD, values=("zbs",)),
           Needs((LABEL_FEATURES,), on=LABEL_METHOD, values=("gp",)),
           Needs((GP_LENGTH_SCALE,), on=LABEL_METHOD, values=("gp",)),
           Needs((GP_KERNEL_FIT,), on=LABEL_METHOD, values=("gp",)),
           Required(LABEL_FEATURES, on=LABEL_METHOD, values=("gp",)),
           Excludes((GP_KERNEL_FIT,), on=GP_LENGTH_SCALE,
                    why="a declared length-scale is fixed")))
#: The measure of the system rankings of :func:`irscale.collections.qrels_agreement`.
RANKING_MEASURE = Param("measure", Text(), "map", "measure of the system rankings, with runs",
                        ("-m", "--measure"), "MEASURE")
#: The runs whose system rankings :func:`irscale.collections.qrels_agreement` compares
#: under either qrels (``labels agree-qrels``: the run files after the two qrels).
AGREEMENT_RUNS = Param("runs", InputFiles(), (), "run files (two or more): the agreement of "
                       "the system rankings", ("RUN",), "RUN")
#: :func:`irscale.collections.qrels_agreement`: the measure of the system rankings and its
#: relevance level apply with runs (the command line states the rule by the count of its
#: input files).
QRELS_AGREEMENT = Binding((RANKING_MEASURE, RELEVANCE),
                          rules=(Needs((RANKING_MEASURE, RELEVANCE), "the system rankings",
                                       on=AGREEMENT_RUNS),))
#: Labels of documents no run retrieves, kept by :func:`irscale.collections.aware.aware`.
AWARE_UNRETRIEVED = Param("allow_unretrieved", Switch(), False, "keep labels of documents "
                          "that no run retrieves for the topic (they count in the recall "
                          "base; an error otherwise)", ("--allow-unretrieved",))
#: How :func:`irscale.collections.automatic_judgments` weighs the automatic values.
AUTO_TUNING = PPI_TUNING  # (shared with text nuggets --human-sample)
AUTO_PAIRS = Param("pairs", Switch(), False, "also estimate the difference of every pair of "
                   "runs", ("--pairs",))
AUTO_PROBABILITIES = Param("label_probabilities", Switch(), False, "AUTO gives every pair's "
                           "grades with their probabilities (topic iter docno rel prob): the "
                           "automatic values are the measures' expected values under them",
                           ("--label-probabilities",))
#: With label probabilities, the draws of every pair's grade that estimate the expected value
#: of a measure that is not a sum over the ranked documents, and their seed
#: (:func:`irscale.collections.automatic_judgments`).
DEFAULT_LABEL_DRAWS = 100
AUTO_DRAWS = Param("draws", SAMPLES, DEFAULT_LABEL_DRAWS, "with --label-probabilities, draws "
                   "of every pair's grade that estimate the expected value of a measure that "
                   "is not a sum over the ranked documents (AP, nDCG)", ("--draws",), "N",
                   cost=Cost("draws", per="an evaluation of every run on every topic"))
AUTO_SEED = Param("rng", SEED, 0, "seed of the draws of --label-probabilities", ("--seed",),
                  "S", dest="seed",
                  cost=NO_WORK)
#: :func:`irscale.collections.automatic_judgments` (``irscale labels auto``): the draws of
#: every pair's grade, and their seed, apply to label probabilities with the topic design.
AUTOMATIC = Binding(
    (SIGNIFICANCE, AUTO_TUNING, AUTO_DESIGN, AUTO_DRAWS, RELEVANCE, AUTO_PROBABILITIES),
    rules=(Needs((AUTO_DRAWS, AUTO_SEED), on=AUTO_PROBABILITIES),
           Needs((AUTO_DRAWS, AUTO_SEED), on=AUTO_DESIGN, values=("topics",))))
#: The strategies and budgets :func:`irscale.collections.simulate_pooling` replays.
SIMULATED_STRATEGY_LIST = Param("strategies", Listed(STRATEGY, "a strategy"),
                                SIMULATED_STRATEGIES,
                                "comma-separated strategies", ("--strategy",), "S,S,...",
                                label="--strategy")
SIMULATED_BUDGET_LIST = Param("budgets", Listed(BUDGET, "a budget"), SIMULATED_BUDGETS,
                              "comma-separated "
                              "judgments per topic", ("--budget",), "N,N,...",
                              cost=Cost("judgments", per="a document judged (at most the "
                                        "documents ranked)"))
#: The measure and the model of :func:`irscale.collections.evaluate_shards`.
SHARD_MEASURE = Param("measure", Text(), "AP", "the per-topic measure scored in every shard",
                      ("-m", "--measure"), "MEASURE")
#: The strata of :func:`irscale.collections.sample_judgments` (``D:F`` each).
SAMPLE_STRATA = Param("strata", Text(), None, "stratified design: documents whose best rank "
                      "lies in (previous D, D] form a stratum, a fraction F of which is drawn "
                      "without replacement, e.g. 10:1,100:0.2,1000:0.05", ("--strata",),
                      "D:F,D:F,...", unset="none", label="--strata")
#: The designs that draw a number per topic (``size``), not strata.
SIZED_DESIGNS: tuple[str, ...] = ("with-replacement", "poisson")
#: :func:`irscale.collections.sample_judgments` (``irscale pool sample``): the stratified
#: design takes its strata, the others a size per topic (and the runs' cut).
SAMPLE = Binding(
    (SAMPLE_DESIGN, SAMPLE_DRAWS, RUN_DEPTH),
    rules=(Needs((SAMPLE_STRATA,), on=SAMPLE_DESIGN, values=("stratified",)),
           Needs((SAMPLE_DRAWS, RUN_DEPTH), "the with-replacement and poisson designs; "
                 "--strata gives the stratified one's", on=SAMPLE_DESIGN, values=SIZED_DESIGNS),
           Required(SAMPLE_STRATA, on=SAMPLE_DESIGN, values=("stratified",)),
           Required(SAMPLE_DRAWS, on=SAMPLE_DESIGN, values=SIZED_DESIGNS)))
#: The k of the P@k estimates of :func:`irscale.collections.estimate_sampled`.
SAMPLE_CUTOFF_LIST = Param("cutoffs", Listed(CUTOFF, "a cut-off"), SAMPLE_CUTOFFS,
                           "the k of the P@k estimates", ("--cutoffs",), "K,K,...",
                           cost=NO_WORK)
#: :func:`irscale.collections.simulate_pooling` (``irscale pool simulate``): the strategies'
#: own parameters apply where one of the strategies listed uses them (as :data:`POOL`).
#: :func:`irscale.collections.simulate_pooling`'s leave-one-contributor-out test, and the
#: contributor of each run it leaves out (``pool simulate --no-loo``, ``--contributors``,
#: ``--contributor-pattern``: the command states the rule in its own words).
SIMULATION_LOO = Param("loo", Switch(), True, "the leave-one-contributor-out test",
                       ("--loo",))
SIMULATION_CONTRIBUTORS = Param("contributors", Text(), None, "the contributor of each run "
                                "(a mapping or a function of the run's name)",
                                ("--contributors",), "FILE")
SIMULATE = Binding(
    (SIMULATED_STRATEGY_LIST, SIMULATED_BUDGET_LIST, RUN_DEPTH, RELEVANCE, POOL_P, POOL_K,
     POOL_DISCOUNT),
    rules=(Needs((SIMULATION_CONTRIBUTORS,), "the leave-one-contributor-out test",
                 on=SIMULATION_LOO, values=(True,)),
           Needs((POOL_P,), on=SIMULATED_STRATEGY_LIST, values=("rbp",)),
           Needs((POOL_K,), on=SIMULATED_STRATEGY_LIST, values=("rrf",)),
           Needs((POOL_DISCOUNT,), on=SIMULATED_STRATEGY_LIST, values=("mm-ns", "ts-ns")),
           Needs((RNG_SEED,), on=SIMULATED_STRATEGY_LIST, values=ADAPTIVE_STRATEGIES)))
#: :func:`irscale.collections.estimate_sampled` (``irscale pool estimate``).
ESTIMATE = Binding((SAMPLE_CUTOFF_LIST, RELEVANCE))
#: The judges' confusion of :func:`irscale.collections.judgment_noise`: stated in a file, a flip
#: rate of binary qrels, estimated from two judgments of the same pairs or from the human
#: sample of automatic judgments (``irscale labels auto``); the replicates. The file's
#: declaration (its cost: the square of its grades) is the reader's
#: (:data:`irscale.io.params.CONFUSION_FILE`).
FLIP_RATE = Param("flip_rate", Reals(0.0, 1.0), None, "binary qrels (grades 0 and 1): the "
                  "judges flip a label with this probability", ("--flip-rate",), "P",
                  label="--flip-rate")
DOUBLE_JUDGED = Param("double_judged", InputFiles(lists=True), None, "two qrels files judging "
                      "the same (topic, document) pairs: the confusion of the second given "
                      "the first, add-1/2 smoothed", ("--double-judged",), "FIRST,SECOND",
                      label="--double-judged")
AUTO_SAMPLE = Param("auto_sample", InputFiles(lists=True), None, "the automatic qrels and the "
                    "human sample of irscale labels auto (its AUTO and HUMAN): the confusion "
                    "P(automatic grade | human grade) over the pairs both judge, add-1/2 "
                    "smoothed", ("--auto-sample",), "AUTO,HUMAN", label="--auto-sample")
DEFAULT_REPLICATES = 1000
NOISE_REPLICATES = Param("replicates", Integers(1, 100_000_000), DEFAULT_REPLICATES,
                         "relabelled qrels drawn", ("--replicates",), "N",
                         cost=Cost("replicates", per="an evaluation of every run on "
                                   "relabelled qrels, and its tests"))
#: The procedure whose decisions :func:`irscale.collections.judge_noise` compares on every
#: replicate (:func:`irscale.meta.decide`): a two-system test or an ANOVA/Tukey procedure of
#: the topics × systems matrix (a shard model needs shards, which a replicate has not).
NOISE_TEST = Param("test", Names(PROCEDURE.noun, tuple(name for name in PROCEDURE.names
                                                       if name not in SHARD_MODEL_NAMES),
                                 PROCEDURE.aliases, fold=True),
                   "t", "the significance procedure of every pair: a two-system test (t, "
                   "wilcoxon, sign, bootstrap ...) or an ANOVA/Tukey procedure (MD1, MD2, "
                   "friedman ...)", ("--test",))
#: The correction of :func:`irscale.collections.judge_noise`'s two-system test over the
#: pairs (none by default: each pair's decision as the test makes it).
NOISE_CORRECTION = replace(MULTIPLE_CORRECTION, default="none",
                           doc="the correction of a two-system --test over the pairs")
#: :func:`irscale.collections.judge_noise` (``meta judge-noise``): the replicates, the
#: procedure, its correction (a two-system test's alone) and level, the relevance level,
#: checked on entry; the seed, which also takes a numpy Generator, is taken.
JUDGE_NOISE = Binding(
    (NOISE_REPLICATES, NOISE_TEST, NOISE_CORRECTION, SIGNIFICANCE, RELEVANCE),
    rules=(Needs((NOISE_CORRECTION,), "a two-system test", on=NOISE_TEST, values=TEST_NAMES),),
    takes=(RNG_SEED,))
