"""Statistical inference for IR experiments.

Two systems (paired by topic unless stated)
    :func:`paired_t`, :func:`student_t`, :func:`welch_t`, :func:`wilcoxon`,
    :func:`sign_test`, :func:`mann_whitney`, :func:`randomization_test`,
    :func:`paired_bootstrap_test` (Sakai 2014, Fig. 11–12), :func:`bootstrap_shift_test`,
    :func:`unpaired_bootstrap_test` (Fig. 13–14), or :func:`two_sample_test` by name.
    Each returns a :class:`TestResult` (statistic, df, p, mean difference with CI, effect
    sizes d_z, Hedges' g, Glass's Δ; noncentral t intervals of d_z and g).
Many systems
    :func:`anova` / :func:`anova_oneway` / :func:`anova_twoway` (Ferro & Maistro 2024, eq. 7–8),
    :func:`kruskal_wallis`, :func:`friedman`, :func:`tukey_hsd` (Ferro & Maistro 2024, eq. 9–11,
    topic-blocked by default), :func:`randomized_tukey_hsd` (Sakai 2014, Fig. 15),
    :func:`scheffe` (Scheffé 1953: every contrast, F-based, the model's error term),
    :func:`pairwise_tests` with :func:`adjust_pvalues` corrections over a declared family.
    ANOVAs take ``transform=`` (:data:`TRANSFORMS`: arcsine, rank) and check their
    assumptions on the residuals (``AnovaResult.assumptions``, an :class:`AssumptionChecks`:
    Shapiro–Wilk, Levene, Brown–Forsythe).
Mixed models
    :func:`mixed_model`: systems fixed, topics (and shards, query variants, topic × system)
    random; REML/ML linear mixed models and the logit GLMM of binary scores.
Across collections
    :func:`across_collections`: the same systems on several test collections, each
    pair's per-collection paired differences, its random-effects meta-analysis
    (:func:`random_effects`: DerSimonian–Laird and REML τ², I², Q, the prediction interval
    of Higgins, Thompson & Spiegelhalter 2009) and stratified bootstrap intervals.
Generalisability theory and query performance prediction
    :func:`gstudy` (variance components of systems, topics and a second facet; Eρ² and Φ,
    :meth:`GStudy.dstudy`, :meth:`GStudy.topics_for`; Bodoff & Li 2007, Brennan 2001,
    Sakai 2016); :func:`sare`, :func:`smare`, :func:`qpp_anova` (Faggioli et al. 2021);
    :func:`qpp_correlations` (r, τ, ρ with Fisher z and bootstrap intervals),
    :func:`qpp_compare` (Steiger 1980, paired bootstrap), :func:`qpp_across_collections`.
Shards
    :class:`ShardScores`, :func:`shard_anova` (MD3 of Ferro & Sanderson 2022 and its nested family).
Replicates
    :func:`replicates_anova` (topic × system interaction estimated from replicates) and
    :func:`bootstrap_anova` (Voorhees, Samarov & Soboroff 2017); :func:`evaluate_seeds`:
    systems given as several runs (seeds, folds), their mean and spread and their
    replicates.
Document sampling
    :func:`document_variance` (per-topic variance of AP or P@k under the document
    bootstrap, Cormack & Lynam 2006) and :func:`document_sampling_test` (with the topic
    variance in a mixed-effects model, Robertson & Kanoulas 2012).
Standardisation
    :func:`standardise` (Webber, Moffat and Zobel 2008: per-topic z-scores against a
    reference set of systems, optionally through the normal CDF), :func:`reference_moments`.
Design
    :func:`power_paired_t`, :func:`power_two_sample_t`, :func:`power_anova`,
    :func:`topic_set_size` (Sakai), :func:`minimum_detectable_difference`.
Results
    One protocol (:mod:`irscale.stats.protocol`): ``statistic``, ``pvalue``,
    ``confidence_interval(confidence_level=0.95)`` (a :class:`ConfidenceInterval`) and
    ``effect_size`` (e.g. an :class:`EffectSize`) where defined, ``to_frame()``,
    ``format(fmt)``. Resampling routines take ``rng`` and ``progress``.

See ``docs/stats.md`` for formulas, sources and examples.
"""

from __future__ import annotations

from ..core.lazy import lazy_package

TYPE_CHECKING = False

#: Public name → the submodule that defines it. Names are imported on first use (PEP 562),
#: so that light modules of this package (:mod:`irscale.stats.names`) stay light.
_EXPORTS: dict[str, str] = {
    "MODELS": ".anova",
    "AcrossCollections": ".across_collections",
    "across_collections": ".across_collections",
    "anova": ".anova",
    "anova_oneway": ".anova",
    "anova_twoway": ".anova",
    "AssumptionChecks": ".assumptions",
    "AssumptionTest": ".assumptions",
    "TRANSFORMS": ".names",
    "bootstrap_shift_test": ".bootstrap",
    "paired_bootstrap_test": ".bootstrap",
    "unpaired_bootstrap_test": ".bootstrap",
    "adjust_pvalues": ".corrections",
    "DocumentSamplingResult": ".document_sampling",
    "document_sampling_test": ".document_sampling",
    "document_variance": ".document_sampling",
    "EffectSize": ".effects",
    "RandomEffects": ".meta_analysis",
    "random_effects": ".meta_analysis",
    "EffectSizes": ".effects",
    "ConfidenceInterval": ".protocol",
    "effect_sizes": ".effects",
    "hedges_j": ".effects",
    "CORRECTIONS": ".names",
    "TABLE_FORMATS": ".names",
    "DStudy": ".gtheory",
    "GStudy": ".gtheory",
    "gstudy": ".gtheory",
    "MixedModelResult": ".mixed",
    "mixed_model": ".mixed",
    "mann_whitney": ".nonparametric",
    "sign_test": ".nonparametric",
    "wilcoxon": ".nonparametric",
    "pairwise_tests": ".pairwise",
    "paired_t": ".parametric",
    "student_t": ".parametric",
    "welch_t": ".parametric",
    "TopicSetSize": ".power",
    "expected_ci_width": ".power",
    "minimum_detectable_difference": ".power",
    "power_anova": ".power",
    "power_paired_t": ".power",
    "power_two_sample_t": ".power",
    "topic_set_size": ".power",
    "QppResult": ".qpp",
    "qpp_anova": ".qpp",
    "QppCorrelations": ".qpp",
    "qpp_across_collections": ".qpp",
    "qpp_compare": ".qpp",
    "qpp_correlations": ".qpp",
    "sare": ".qpp",
    "smare": ".qpp",
    "randomization_test": ".randomization",
    "randomized_tukey_hsd": ".randomized_tukey",
    "friedman": ".ranktests",
    "kruskal_wallis": ".ranktests",
    "TESTS": ".registry",
    "two_sample_test": ".registry",
    "AnovaResult": ".results",
    "AnovaRow": ".results",
    "PairwiseComparisons": ".results",
    "RankTestResult": ".results",
    "TestResult": ".results",
    "reference_moments": ".standardisation",
    "standardise": ".standardisation",
    "SHARD_MODELS": ".shards",
    "ShardScores": ".shards",
    "shard_anova": ".shards",
    "BootstrapAnovaResult": ".replicates",
    "bootstrap_anova": ".replicates",
    "replicates_anova": ".replicates",
    "SeedEvaluation": ".seeds",
    "evaluate_seeds": ".seeds",
    "summary_table": ".summary_table",
    "BaselineComparison": ".baseline",
    "baseline_comparison": ".baseline",
    "render": ".tables",
    "tukey_hsd": ".tukey",
    "scheffe": ".tukey",
}

__all__ = [
    "CORRECTIONS",
    "MODELS",
    "SHARD_MODELS",
    "TABLE_FORMATS",
    "TESTS",
    "TRANSFORMS",
    "AcrossCollections",
    "AnovaResult",
    "AnovaRow",
    "AssumptionChecks",
    "AssumptionTest",
    "BaselineComparison",
    "BootstrapAnovaResult",
    "ConfidenceInterval",
    "DStudy",
    "DocumentSamplingResult",
    "EffectSize",
    "EffectSizes",
    "GStudy",
    "MixedModelResult",
    "PairwiseComparisons",
    "QppCorrelations",
    "QppResult",
    "RandomEffects",
    "RankTestResult",
    "SeedEvaluation",
    "ShardScores",
    "TestResult",
    "TopicSetSize",
    "across_collections",
    "adjust_pvalues",
    "anova",
    "anova_oneway",
    "anova_twoway",
    "baseline_comparison",
    "bootstrap_anova",
    "bootstrap_shift_test",
    "document_sampling_test",
    "document_variance",
    "effect_sizes",
    "evaluate_seeds",
    "expected_ci_width",
    "friedman",
    "gstudy",
    "hedges_j",
    "kruskal_wallis",
    "mann_whitney",
    "minimum_detectable_difference",
    "mixed_model",
    "paired_bootstrap_test",
    "paired_t",
    "pairwise_tests",
    "power_anova",
    "power_paired_t",
    "power_two_sample_t",
    "qpp_across_collections",
    "qpp_anova",
    "qpp_compare",
    "qpp_correlations",
    "random_effects",
    "randomization_test",
    "randomized_tukey_hsd",
    "reference_moments",
    "render",
    "replicates_anova",
    "sare",
    "scheffe",
    "shard_anova",
    "sign_test",
    "smare",
    "standardise",
    "student_t",
    "summary_table",
    "topic_set_size",
    "tukey_hsd",
    "two_sample_test",
    "unpaired_bootstrap_test",
    "welch_t",
    "wilcoxon",
]


__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, shadowed={"across_collections", "anova"})


if TYPE_CHECKING:  # pragma: no cover
    from .across_collections import AcrossCollections, across_collections
    from .anova import MODELS, anova, anova_oneway, anova_twoway
    from .assumptions import AssumptionChecks, AssumptionTest
    from .baseline import BaselineComparison, baseline_comparison
    from .bootstrap import bootstrap_shift_test, paired_bootstrap_test, unpaired_bootstrap_test
    from .corrections import adjust_pvalues
    from .document_sampling import (
        DocumentSamplingResult,
        document_sampling_test,
        document_variance,
    )
    from .effects import EffectSize, EffectSizes, effect_sizes, hedges_j
    from .gtheory import DStudy, GStudy, gstudy
    from .meta_analysis import RandomEffects, random_effects
    from .mixed import MixedModelResult, mixed_model
    from .names import CORRECTIONS, TABLE_FORMATS, TRANSFORMS
    from .nonparametric import mann_whitney, sign_test, wilcoxon
    from .pairwise import pairwise_tests
    from .parametric import paired_t, student_t, welch_t
    from .power import (
        TopicSetSize,
        expected_ci_width,
        minimum_detectable_difference,
        power_anova,
        power_paired_t,
        power_two_sample_t,
        topic_set_size,
    )
    from .protocol import ConfidenceInterval
    from .qpp import (
        QppCorrelations,
        QppResult,
        qpp_across_collections,
        qpp_anova,
        qpp_compare,
        qpp_correlations,
        sare,
        smare,
    )
    from .randomization import randomization_test
    from .randomized_tukey import randomized_tukey_hsd
    from .ranktests import friedman, kruskal_wallis
    from .registry import TESTS, two_sample_test
    from .replicates import BootstrapAnovaResult, bootstrap_anova, replicates_anova
    from .results import AnovaResult, AnovaRow, PairwiseComparisons, RankTestResult, TestResult
    from .seeds import SeedEvaluation, evaluate_seeds
    from .shards import SHARD_MODELS, ShardScores, shard_anova
    from .standardisation import reference_moments, standardise
    from .summary_table import summary_table
    from .tables import render
    from .tukey import scheffe, tukey_hsd
