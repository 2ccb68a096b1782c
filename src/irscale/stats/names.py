"""Names of the choices of :mod:`irscale.stats` (tests, models, corrections, table formats).

A module of plain tuples without numpy or scipy, so that the command line can offer,
list and check the choices without loading the statistics (:mod:`irscale.core.params`).
The implementations register the same names (:data:`irscale.stats.registry.TESTS`,
:data:`irscale.stats.anova.MODELS`); ``tests/test_startup.py`` checks that they agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.params import RISK_ALPHA, Names, Pair, Param, Text
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS as TABLE_FORMATS  # the formats of every table

#: Two-system tests of :func:`irscale.stats.two_sample_test`, in the registry's order.
TEST_NAMES: tuple[str, ...] = (
    "t", "student", "welch", "wilcoxon", "sign", "mann-whitney", "randomization",
    "bootstrap", "bootstrap-shift", "unpaired-bootstrap",
)

#: Other spellings of the tests (case does not matter).
TEST_ALIASES: dict[str, str] = {
    "paired-t": "t", "ttest": "t", "t-test": "t", "student-t": "student", "welch-t": "welch",
    "signed-rank": "wilcoxon", "wilcoxon-signed-rank": "wilcoxon", "rank-sum": "mann-whitney",
    "mannwhitney": "mann-whitney", "wilcoxon-rank-sum": "mann-whitney",
    "permutation": "randomization", "randomisation": "randomization", "fisher": "randomization",
    "paired-bootstrap": "bootstrap", "shift": "bootstrap-shift",
}
#: A two-system test, by name or alias (:func:`irscale.stats.registry.test_spec`).
TEST = Names("test", TEST_NAMES, TEST_ALIASES, fold=True)
#: The tests that resample (``samples``, ``rng`` and ``workers`` apply to them).
RESAMPLING_TESTS: tuple[str, ...] = ("randomization", "bootstrap", "bootstrap-shift",
                                     "unpaired-bootstrap")

#: Named ANOVA models of :func:`irscale.stats.anova` (``MODELS``' keys), the rank tests
#: that stand in for them (:func:`irscale.stats.kruskal_wallis`, ``friedman``), and the
#: shard models of :func:`irscale.stats.shard_anova` (``SHARD_MODELS``' keys) with the
#: policies for a topic without relevant documents in a shard.
MODEL_NAMES: tuple[str, ...] = ("system", "MD1", "topic+system", "MD2", "MD1f", "MD2f")
RANK_MODELS: tuple[str, ...] = ("kruskal-wallis", "friedman")
SHARD_MODEL_NAMES: tuple[str, ...] = ("MD3", "MD3f", "shard-main", "shard-ts", "shard-ss",
                                      "shard-ts-ss", "replicates", "replicates-main")
EMPTY_POLICIES: tuple[str, ...] = ("error", "zero", "drop-topic", "drop-shard", "missing")

#: Transforms of the scores before an ANOVA (:func:`irscale.stats.anova`, ``transform=``;
#: ``compare --transform``): none, the arcsine square root asin(√x) of scores in [0, 1], or
#: the rank transform of Conover & Iman (1981), the ANOVA of the ranks of all scores.
TRANSFORMS: tuple[str, ...] = ("none", "arcsine", "rank")
TRANSFORM_ALIASES: dict[str, str] = {"asin-sqrt": "arcsine", "arcsin": "arcsine",
                                     "angular": "arcsine", "ranks": "rank"}
ANOVA_TRANSFORM = Param("transform", Names("transform", TRANSFORMS, TRANSFORM_ALIASES,
                                           fold=True), "none",
                        "scores the ANOVA is computed on: none, arcsine (asin(sqrt(x)), "
                        "scores in [0, 1]) or rank (ranks of all scores, Conover & Iman 1981)",
                        ("--transform",), "T")

#: The random terms of :func:`irscale.stats.mixed_model` (``shard`` and the interactions
#: need a third axis of replicates: shards or query variants), its response families and
#: its estimators.
RANDOM_TERMS: tuple[str, ...] = ("topic", "shard", "topic:system", "topic:shard")
FAMILIES: tuple[str, ...] = ("gaussian", "binomial")
MIXED_METHODS: tuple[str, ...] = ("reml", "ml")
RANDOM = Param("random", Names("random term", RANDOM_TERMS), ("topic",), "comma-separated "
               "random terms of the mixed model", ("--random",), "TERM,TERM,...",
               label="--random")
FAMILY = Param("family", Names("family", FAMILIES), "gaussian", "response of the mixed "
               "model: gaussian (linear mixed model) or binomial (logit GLMM of 0/1 scores)",
               ("--family",))
MIXED_METHOD = Param("method", Names("estimator", MIXED_METHODS, fold=True), "reml",
                     "estimator of the linear mixed model", ("--method",),
                     label="--method")

#: Procedures that compare every pair of many systems at once (Tukey's HSD after an ANOVA
#: or rank model, the randomised Tukey HSD, Scheffé's method after an ANOVA), and their
#: other spellings.
MULTI_TESTS: tuple[str, ...] = ("tukey-hsd", "randomized-tukey-hsd", "scheffe")
MULTI_ALIASES: dict[str, str] = {
    "tukey": "tukey-hsd", "hsd": "tukey-hsd", "anova": "tukey-hsd",
    "randomised-tukey-hsd": "randomized-tukey-hsd", "randomized-tukey": "randomized-tukey-hsd",
    "rtukey": "randomized-tukey-hsd", "scheffé": "scheffe"}
#: ``compare --test``: a many-system procedure or a two-system test, by name or alias.
COMPARE_TEST = Names("test", (*MULTI_TESTS, "mixed", "bootstrap-anova", "document-sampling",
                              *TEST_NAMES),
                     {**TEST_ALIASES, **MULTI_ALIASES, "mixed-model": "mixed", "lmm": "mixed",
                      "glmm": "mixed", "bootstrap_anova": "bootstrap-anova",
                      "document_sampling": "document-sampling"}, fold=True)
#: What the bootstrap ANOVA resamples (:func:`irscale.stats.bootstrap_anova`).
RESAMPLE = Param("resample", Names("resampled unit", ("residuals", "topics", "replicates")),
                 "residuals", "--test bootstrap-anova: what is resampled, the model's "
                 "residuals (Voorhees et al. 2017), the topics, or the replicates within "
                 "each topic", ("--resample",), "UNIT")
#: The models of the bootstrap ANOVA (``compare --test bootstrap-anova --model``).
REPLICATE_MODELS: tuple[str, ...] = ("replicates", "replicates-main")
#: The models of the document-sampling test (``compare --test document-sampling --model``;
#: :data:`irscale.stats.document_sampling.MODELS`).
DOCUMENT_MODELS: tuple[str, ...] = ("mixed", "documents")
#: The procedures that resample (``-B/--samples`` applies to them), and as messages list them.
RESAMPLING_PROCEDURES: tuple[str, ...] = (*RESAMPLING_TESTS, "randomized-tukey-hsd")
RESAMPLING = ", ".join(RESAMPLING_PROCEDURES)


def is_resampling(procedure: str) -> bool:
    """Whether the canonical ``procedure`` resamples (``samples`` applies to it)."""
    return procedure in RESAMPLING_PROCEDURES


#: The procedures of meta-evaluation (:func:`irscale.meta.procedures.decide`): ANOVA, rank
#: and shard models with Tukey's HSD, the randomised Tukey HSD and the two-system tests.
PROCEDURE = Names("procedure", (*MODEL_NAMES, *RANK_MODELS, *SHARD_MODEL_NAMES,
                                "randomized-tukey-hsd", *TEST_NAMES),
                  {**TEST_ALIASES, "randomised-tukey-hsd": "randomized-tukey-hsd",
                   "rtukey": "randomized-tukey-hsd"}, fold=True)
#: Two procedures, one per half of a split (``meta split --cross A:B``).
PROCEDURE_PAIR = Pair(PROCEDURE)

#: Multiple-comparison corrections of :func:`irscale.stats.adjust_pvalues`, and their
#: other spellings (statsmodels' names; case does not matter).
CORRECTIONS: tuple[str, ...] = ("none", "bonferroni", "sidak", "holm", "holm-sidak", "hommel",
                                "bh", "by")
CORRECTION_ALIASES: dict[str, str] = {
    "fdr_bh": "bh", "benjamini-hochberg": "bh", "fdr": "bh", "fdr_by": "by",
    "benjamini-yekutieli": "by", "hs": "holm-sidak", "holm_sidak": "holm-sidak",
    "šidák": "sidak", "holm-šidák": "holm-sidak",
}
CORRECTION = Names("correction", CORRECTIONS, CORRECTION_ALIASES, fold=True)
#: The correction of a family of pairwise tests.
MULTIPLE_CORRECTION = Param("correction", CORRECTION, "holm", "multiple-comparison correction",
                            ("--correction",), "C")
#: The system the pairwise tests compare the others with (:func:`irscale.stats.pairwise_tests`),
#: and the baseline of the risk-sensitive comparison (:func:`irscale.stats.risk.risk_table`).
BASELINE = Param("baseline", Text(), None, "two-system tests: compare every other system with "
                 "this one only (the family: systems x measures against it), or with each of "
                 "several, corrected as one family (each pair once); with --risk-alpha: the "
                 "risk baseline", ("--baseline",), unset="every pair", label="--baseline")
#: The risk sensitivity of the risk-sensitive comparison.
RISK = Param("risk_alpha", RISK_ALPHA, None, "risk-sensitive comparison against --baseline: "
             "URisk and TRisk with losses weighed 1 + A (A >= 0; TREC Web 2013-14)",
             ("--risk-alpha",), "A", label="--risk-alpha")


def resampling_procedures(names: Sequence[str]) -> list[str]:
    """The canonical names of the procedures among ``names`` that resample."""
    canonical = dict.fromkeys(PROCEDURE.check(name, "procedure") for name in names)
    return [name for name in canonical if is_resampling(name)]


#: The tests and the corrections of :func:`irscale.meta.simulation_study`.
SIMULATED_TESTS = Param("tests", TEST, ("t",), "comma-separated two-system tests run on every "
                        "pair", ("--test",), "T,T,...", label="--test")
SIMULATED_CORRECTIONS = Param("corrections", CORRECTION, ("none",), "comma-separated "
                              "multiple-comparison corrections, each applied to every test",
                              ("--correction",), "C,C,...", label="--correction")

#: The alternative hypotheses of the two-system tests (``greater``: a > b).
ALTERNATIVES: tuple[str, ...] = ("two-sided", "greater", "less")
ALTERNATIVE = Param("alternative", Names("alternative", ALTERNATIVES), "two-sided",
                    "alternative hypothesis of pairwise tests: greater = a > b",
                    ("--alternative",))
#: The p-value conventions of the Monte Carlo tests: (c+1)/(B+1) or c/B.
CONVENTIONS: tuple[str, ...] = ("plus-one", "proportion")
CONVENTION = Param("convention", Names("convention", CONVENTIONS), "plus-one",
                   "p-value convention: (c+1)/(B+1) or c/B", ("--convention",))
#: The procedures of :func:`irscale.meta.split_study` compared with themselves.
SPLIT_MODELS = Param("models", PROCEDURE, ("MD1", "MD2", "MD2f"), "procedures compared with "
                     "themselves", ("--models",), "M,M,...", label="--models")
#: The pairs of procedures of :func:`irscale.meta.split_study` run as A on the first half
#: and B on the second.
SPLIT_CROSS = Param("cross", PROCEDURE_PAIR, (), "different models: A on the first half, B on "
                    "the second", ("--cross",), "A:B,...", unset="none", label="--cross")
# --------------------------------------------------------------------------- shard models
#: What the shard ANOVA does with an undefined score (:func:`irscale.stats.shard_anova`).
SHARD_EMPTY = Param("empty", Names("empty-shard policy", EMPTY_POLICIES), "error", "scores of "
                    "a topic without relevant documents in a shard (undefined): error, zero, "
                    "drop-topic, drop-shard or missing", ("--empty",), "POLICY")

#: The factors a prediction of :func:`irscale.stats.qpp_anova` may be keyed by, besides
#: its topic and predictor (the command line reads its files with them before loading
#: the statistics).
QPP_OPTIONAL_FACTORS = ("system", "variant")
#: The ANOVA formula of :func:`irscale.stats.qpp_anova`.
QPP_MODEL = Param("model", Text(), None, "ANOVA formula over topic, predictor, system and "
                  "variant, e.g. 'topic + predictor' (None: the main effects and the "
                  "predictor's interactions with system and variant)", ("--model",),
                  "FORMULA", unset="None")
#: The weightings of the collections in the systems' means across them
#: (:mod:`irscale.stats.across_collections`): ``equal`` (the macro average) or ``topics``
#: (the micro average).
WEIGHTINGS = ("equal", "topics")
#: ``--weights`` / ``weights=``: how the collections weigh in the systems' means across
#: them and in their stratified bootstrap.
WEIGHTS = Param("weights", Names("weighting", WEIGHTINGS), "equal", "how the collections "
                "weigh in the systems' means across them and in their bootstrap (equal: "
                "each the same, the macro average; topics: each by its number of topics, "
                "the micro average; the meta-analysis weighs them by inverse variance "
                "either way)", ("--weights",))


def document_sampling_cutoff(name: str) -> int | None:
    """The measure of the document-sampling test (Cormack & Lynam 2006) that ``name``
    names: ``None`` for AP, k for P@k: the name read by the one measure-name grammar
    (:func:`irscale.measures.names.parse_measure`, which checks a cut-off against its
    domain), then kept when it is AP or P at one cut-off with the default relevance."""
    from ..measures.names import parse_measure

    text = name.strip() if isinstance(name, str) else name
    if isinstance(text, str) and text.lower() in ("ap", "map"):
        return None
    requests = parse_measure(text) if isinstance(text, str) and text else []
    if len(requests) == 1 and requests[0].relevance_level is None:
        request = requests[0]
        if request.family == "map" and request.params is None:
            return None
        if request.family == "P" and request.params is not None and \
                len(request.params) == 1:
            return int(request.params[0])
    raise ParameterError(f"the document bootstrap computes AP and P@k, not {name!r}")
