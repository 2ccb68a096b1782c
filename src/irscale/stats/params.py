"""The parameters of the functions of :mod:`irscale.stats`, bound where they are declared
(:mod:`irscale.core.binding`): their domains checked on entry, the rules of when they
apply. ``irscale compare`` chooses among them by ``--test``
(:data:`irscale.cli.compare.PROCEDURES`, a :class:`~irscale.core.binding.Choice`).

Light, as :mod:`irscale.stats.names` (no numpy): the command line reads it before the
statistics are loaded; ``irscale eval`` never loads it (``tests/test_startup_modules.py``).
"""

from __future__ import annotations

from typing import ClassVar

from ..core.binding import Binding, Excludes, Required
from ..core.params import (
    INTERVAL_SAMPLES,
    MEMORY_LIMIT,
    NO_WORK,
    POSITIVE,
    RESAMPLES,
    RNG_SEED,
    SIGNIFICANCE,
    THREADS,
    Cost,
    Integers,
    Listed,
    Names,
    Needs,
    Param,
    Reals,
)
from ..core.records import record
from ..errors import ParameterError, about, shown
from .names import (
    ALTERNATIVE,
    ANOVA_TRANSFORM,
    BASELINE,
    CONVENTION,
    FAMILY,
    MIXED_METHOD,
    MODEL_NAMES,
    MULTIPLE_CORRECTION,
    QPP_MODEL,
    RANDOM,
    RANK_MODELS,
    RESAMPLE,
    RESAMPLING_TESTS,
    SHARD_EMPTY,
    SHARD_MODEL_NAMES,
    TEST,
    WEIGHTS,
)


@record
class TukeyModels:
    """A model Tukey's HSD follows: a named ANOVA model (:data:`MODEL_NAMES`), a rank
    model (:data:`RANK_MODELS`) or an ANOVA formula over ``topic`` and ``system``
    (``topic + system``: its terms are checked again, in full, where it is fitted)."""

    type: ClassVar[type] = str

    #: The models named, and the factors of a formula.
    names: ClassVar[tuple[str, ...]] = (*MODEL_NAMES, *RANK_MODELS)
    factors: ClassVar[tuple[str, ...]] = ("topic", "system")

    def check(self, value: object, name: str) -> str:
        """``value`` as given, where it names a model or is a formula of the factors."""
        if isinstance(value, str):
            factors = [factor for term in value.replace(" ", "").split("+")
                       for factor in term.split(":")]
            if value in self.names or all(factor in self.factors for factor in factors):
                return value
        raise about(ParameterError(f"{name}: unknown model {shown(value)}; choose from "
                                   f"{', '.join(self.names)} or a formula such as "
                                   f"'{' + '.join(self.factors)}'", param=name), value)

    def outside(self) -> tuple[str, ...]:
        return ("MD9", "topic+shard")


@record
class ScheffeModels(TukeyModels):
    """A model Scheffé's method follows: a named ANOVA model that is not fake, or an ANOVA
    formula over ``topic`` and ``system`` (a rank model's mean ranks and a fake model have
    no F distribution)."""

    def check(self, value: object, name: str) -> str:
        """``value`` as given, where it names an ANOVA model or a formula."""
        if isinstance(value, str) and (value in RANK_MODELS or value in ("MD1f", "MD2f")):
            raise about(ParameterError(
                f"{name}: Scheffé's method follows an ANOVA model, not {value!r} (it has no "
                "F distribution); choose system, MD1, topic+system, MD2 or a formula",
                param=name), value)
        return super().check(value, name)

    def outside(self) -> tuple[str, ...]:
        return ("friedman", "MD2f")


@record
class ShardModels(TukeyModels):
    """A shard model (:func:`irscale.stats.shard_anova`, ``irscale pool shards --model``):
    a named one (:data:`~irscale.stats.names.SHARD_MODEL_NAMES`: MD3, MD3f ...) or an
    ANOVA formula over ``topic``, ``system`` and ``shard`` (its terms checked again, in
    full, where it is fitted)."""

    names: ClassVar[tuple[str, ...]] = SHARD_MODEL_NAMES
    factors: ClassVar[tuple[str, ...]] = ("topic", "system", "shard")

    def outside(self) -> tuple[str, ...]:
        return ("MD1", "topic+run")


#: The model of :func:`irscale.stats.shard_anova` (``irscale pool shards --model``).
SHARD_MODEL = Param("model", ShardModels(), "MD3", "MD3, MD3f, shard-main, shard-ts, "
                    "shard-ss, shard-ts-ss or a formula over topic, system, shard",
                    ("--model",), "MODEL")
#: The model of :func:`irscale.stats.tukey_hsd` (``compare --test tukey-hsd --model``).
TUKEY_MODEL = Param("model", TukeyModels(), "topic+system", "model Tukey's HSD follows: "
                    f"{' | '.join((*MODEL_NAMES, *RANK_MODELS))} or a formula", ("--model",))
#: :func:`irscale.stats.anova` (and the one- and two-way ANOVAs, which call it): the
#: transform of the scores.
ANOVA = Binding((ANOVA_TRANSFORM,))
#: A transform applies to an ANOVA model: a rank model ranks the scores itself.
_RANKED = Excludes((ANOVA_TRANSFORM,), on=TUKEY_MODEL, values=RANK_MODELS,
                   why="a rank test ranks the scores itself")
#: :func:`irscale.stats.tukey.tukey_model`: the model fitted before Tukey's HSD, and the
#: transform of the scores of an ANOVA model.
TUKEY_FIT = Binding((TUKEY_MODEL, ANOVA_TRANSFORM), rules=(_RANKED,))
#: :func:`irscale.stats.tukey_hsd`: the model, its transform and the level.
TUKEY = Binding((TUKEY_MODEL, ANOVA_TRANSFORM, SIGNIFICANCE), rules=(_RANKED,))
#: :func:`irscale.stats.scheffe` (``compare --test scheffe --model``): an ANOVA model, its
#: transform and the level.
SCHEFFE = Binding((Param("model", ScheffeModels(), "topic+system", "ANOVA model Scheffé's "
                         "method follows: system | MD1 | topic+system | MD2 or a formula",
                         ("--model",)), ANOVA_TRANSFORM, SIGNIFICANCE))
#: :func:`irscale.stats.randomized_tukey_hsd`: its resamples, level, threads, p-value
#: convention and seed.
RANDOMIZED_TUKEY = Binding((RESAMPLES, SIGNIFICANCE, THREADS, CONVENTION), takes=(RNG_SEED,))
#: The kernels of the resampling tests (:func:`irscale.stats.bootstrap.
#: paired_bootstrap_kernel`, ``bootstrap_shift_kernel``, ``unpaired_bootstrap_kernel``,
#: :func:`irscale.stats.randomization.randomization_kernel`), which every path to a
#: resampling test runs (its function, :func:`irscale.stats.two_sample_test`,
#: :func:`irscale.stats.pairwise_tests`, the meta analyses): the alternative, the
#: resamples, the p-value convention and the threads, checked on entry.
RESAMPLING_TEST = Binding((ALTERNATIVE, RESAMPLES, CONVENTION, THREADS), takes=(RNG_SEED,))
#: The test of :func:`irscale.stats.pairwise_tests`.
PAIRWISE_TEST = Param("test", TEST, "t", "two-system test", ("--test",))
#: :func:`irscale.stats.pairwise_tests`: the test, the level, the alternative and the
#: baseline; the resamples, the seed and the threads apply to the tests that resample
#: (their ``**options``); the correction (None: none) is checked where it is applied.
PAIRWISE = Binding((PAIRWISE_TEST, SIGNIFICANCE, ALTERNATIVE, BASELINE),
                   rules=(Needs((RESAMPLES, RNG_SEED, THREADS), on=PAIRWISE_TEST,
                                values=RESAMPLING_TESTS),),
                   takes=(MULTIPLE_CORRECTION,))

#: :func:`irscale.stats.mixed_model` (``irscale compare --test mixed``): the estimator
#: applies to the linear mixed model. The binomial GLMM has one, maximum likelihood
#: (adaptive Gauss–Hermite quadrature: :mod:`irscale.stats._glmm`; REML, which removes the
#: fixed effects from a Gaussian likelihood, has no counterpart for it: lme4's ``glmer``
#: takes no ``REML``, statsmodels' ``BinomialBayesMixedGLM`` no ``method``), so ``method``
#: is refused with ``family="binomial"`` whatever its value, as ``--method`` is.
MIXED = Binding(
    (FAMILY, MIXED_METHOD, SIGNIFICANCE),
    rules=(Needs((MIXED_METHOD,), "the linear mixed model (the binomial GLMM is fit by "
                 "maximum likelihood only)", on=FAMILY, values=("gaussian",)),),
    takes=(RANDOM, MULTIPLE_CORRECTION))

#: The bootstrap samples B of :func:`irscale.stats.bootstrap_anova` (two at least: its
#: intervals and standard errors).
BOOTSTRAP_ANOVA_SAMPLES = Param(
    "samples", INTERVAL_SAMPLES, 1000, "--test bootstrap-anova: bootstrap samples B",
    ("-B", "--samples"), "B",
    cost=Cost("samples", per="a resample of the replicated scores and its two ANOVA fits "
              "(the data's and the null's)"))
#: :func:`irscale.stats.bootstrap_anova` (``irscale compare --test bootstrap-anova``).
BOOTSTRAP_ANOVA = Binding((RESAMPLE, BOOTSTRAP_ANOVA_SAMPLES, SIGNIFICANCE, SHARD_EMPTY),
                          takes=(RNG_SEED, MULTIPLE_CORRECTION))

#: The document bootstrap samples of :func:`irscale.stats.document_sampling.document_variance`
#: (two at least: a variance).
DOCUMENT_SAMPLES = Param(
    "samples", INTERVAL_SAMPLES, 1000, "--test document-sampling: bootstrap samples of "
    "each topic's documents", ("-B", "--samples"), "B",
    cost=Cost("samples", per="a Poisson resample of every topic's documents, both runs "
              "scored on it"))
#: :func:`irscale.stats.document_sampling.document_variance` (``irscale compare --test
#: document-sampling``).
DOCUMENT_VARIANCE = Binding((DOCUMENT_SAMPLES,), takes=(RNG_SEED,))

#: :func:`irscale.stats.shard_anova` (``irscale pool shards``, ``ShardedEvaluation.anova``).
SHARD_ANOVA = Binding((SHARD_MODEL, SHARD_EMPTY, ANOVA_TRANSFORM))

#: :func:`irscale.stats.across_collections.across_collections` (``irscale compare
#: --collection``): the level, the stratified bootstrap's samples, the collections'
#: weights and the memory limit.
ACROSS_COLLECTIONS = Binding((SIGNIFICANCE, RESAMPLES, WEIGHTS, MEMORY_LIMIT))
#: :func:`irscale.stats.qpp_anova` (``meta qpp``): the ANOVA formula, checked on entry (the
#: factors it names, against those of the tables, by the function).
QPP = Binding((QPP_MODEL,))

#: The bootstrap resamples of the correlations of :func:`irscale.stats.qpp_correlations`
#: and of the paired bootstrap of :func:`irscale.stats.qpp_compare` (None: none).
QPP_SAMPLES = Param("samples", INTERVAL_SAMPLES, None, "bootstrap resamples of the topics for "
                    "the correlations' percentile intervals", ("-B", "--samples"), "B",
                    unset="no bootstrap",
                    cost=Cost("samples", per="a resample of the topics, every correlation "
                              "computed on it"))
#: The correlation of :func:`irscale.stats.qpp_compare` and ``qpp_across_collections``.
QPP_CORRELATION = Param("correlation", Names("correlation", ("pearson", "kendall", "spearman")),
                        "pearson", "correlation of predictions with effectiveness compared "
                        "or pooled", ("--correlation",))
#: :func:`irscale.stats.qpp_correlations` (``meta qpp --correlations``).
QPP_CORRELATIONS = Binding((SIGNIFICANCE, QPP_SAMPLES), takes=(RNG_SEED,))
#: :func:`irscale.stats.qpp_compare` (``meta qpp --compare A,B``).
QPP_COMPARE = Binding((QPP_CORRELATION, SIGNIFICANCE, QPP_SAMPLES), takes=(RNG_SEED,))
#: :func:`irscale.stats.qpp_across_collections`.
QPP_ACROSS = Binding((QPP_CORRELATION, SIGNIFICANCE))

# --------------------------------------------------------------------------- power
#: The designs of :func:`irscale.stats.topic_set_size` (Sakai 2016): three tests whose
#: power detects a difference, and the expected width of a paired t interval.
POWER_DESIGNS: tuple[str, ...] = ("paired-t", "two-sample-t", "anova", "ci")
TOPIC_SET_DESIGN = Param("design", Names("design", POWER_DESIGNS), None, "paired-t, "
                         "two-sample-t, anova (power 1 - beta) or ci (expected width)",
                         ("--design",), "DESIGN")
#: :func:`irscale.stats.minimum_detectable_difference`'s designs: the tests only.
DETECTION_DESIGN = Param("design", Names("design", POWER_DESIGNS[:3]), "paired-t",
                         "paired-t, two-sample-t or anova", ("--design",), "DESIGN")
POWER_SD = Param("sd", POSITIVE, None, "the standard deviation of the per-topic "
                 "differences (paired-t, ci) or within a system (two-sample-t, anova)",
                 ("--sd",), "SD")
MIN_DIFF = Param("min_diff", POSITIVE, None, "the minimum detectable difference (the range "
                 "of the means for anova)", ("--min-diff",), "D")
CI_WIDTH = Param("width", POSITIVE, None, "ci: the largest expected interval width",
                 ("--width",), "W")
POWER_SYSTEMS = Param("n_systems", Integers(2), 2, "anova: the systems compared",
                      ("--systems",), "K")
POWER_TOPICS = Param("n", Integers(2), None, "the topics (2 at least: a t interval needs "
                     "a degree of freedom)", ("-n",), "N")
#: :func:`irscale.stats.topic_set_size`: the difference for the tests, the width for the
#: interval, the systems for the ANOVA (each refused elsewhere, where it was ignored).
TOPIC_SET_SIZE = Binding(
    (TOPIC_SET_DESIGN, POWER_SD, MIN_DIFF, CI_WIDTH, POWER_SYSTEMS),
    rules=(Needs((MIN_DIFF,), on=TOPIC_SET_DESIGN, values=POWER_DESIGNS[:3]),
           Needs((CI_WIDTH,), on=TOPIC_SET_DESIGN, values=("ci",)),
           Needs((POWER_SYSTEMS,), on=TOPIC_SET_DESIGN, values=("anova",)),
           Required(MIN_DIFF, on=TOPIC_SET_DESIGN, values=POWER_DESIGNS[:3]),
           Required(CI_WIDTH, on=TOPIC_SET_DESIGN, values=("ci",))))
#: :func:`irscale.stats.minimum_detectable_difference`.
MINIMUM_DIFFERENCE = Binding(
    (POWER_TOPICS, POWER_SD, DETECTION_DESIGN, POWER_SYSTEMS),
    rules=(Needs((POWER_SYSTEMS,), on=DETECTION_DESIGN, values=("anova",)),))


# --------------------------------------------------------------------------- G-theory
@record
class FacetName:
    """The name of the second facet of a G-study (``variant``, ``assessor``): an
    identifier (it names a column and the effects, ``system:variant``) other than the
    design's own ``system`` and ``topic``."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> str:
        """``value`` itself."""
        if not isinstance(value, str) or not value.isidentifier() or \
                value in ("system", "topic"):
            raise about(ParameterError(f"{name} must be a name other than system and topic, "
                                       f"got {value!r}", param=name), value)
        return value

    def outside(self) -> tuple[str, ...]:
        return ("system", "topic", "a b", "1x")


#: The second facet of :func:`irscale.stats.gstudy` (query variants, assessors, ...).
GSTUDY_FACET = Param("facet", FacetName(), "variant", "name of the second facet, the third "
                     "column of --facet-scores", ("--facet",), "NAME")
#: A D-study size: topics or levels of a second facet (:meth:`irscale.stats.GStudy.dstudy`).
DSTUDY_SIZE = Integers(1, 1_000_000)
#: ``n_topics=``, ``meta gstudy --topics``: the topic set sizes of the D-study.
DSTUDY_TOPICS = Param("n_topics", Listed(DSTUDY_SIZE, "a topic set size"),
                      (10, 25, 50, 100, 200), "comma-separated topic set sizes of the "
                      "D-study", ("--topics",), "N,N,...", cost=NO_WORK)
#: ``n_facet=``, ``meta gstudy --facet-levels``: the D-study sizes of the second facet.
DSTUDY_FACET = Param("n_facet", Listed(DSTUDY_SIZE, "a number of levels"), None,
                     "comma-separated levels of the second facet in the D-study",
                     ("--facet-levels",), "N,N,...",
                     unset="its number in the --facet-scores file", cost=NO_WORK)
#: ``target=``, ``meta gstudy --target``: the coefficient whose topic count is wanted.
GSTUDY_TARGET = Param("target", Reals(0.0, 1.0, "()"), None, "print the fewest topics that "
                      "reach this Eρ² and this Φ", ("--target",), "R", unset="none")
#: :func:`irscale.stats.gstudy` (``irscale meta gstudy``), :meth:`irscale.stats.GStudy.
#: dstudy` and :meth:`irscale.stats.GStudy.topics_for`: each a binding of its own; the
#: command takes the three.
GSTUDY = Binding((GSTUDY_FACET,))
DSTUDY = Binding((DSTUDY_TOPICS, DSTUDY_FACET))
TOPICS_FOR = Binding((GSTUDY_TARGET,))
