"""Statistical inference for IR experiments.

Two systems (paired by topic unless stated)
    :func:`paired_t`, :func:`student_t`, :func:`welch_t`, :func:`wilcoxon`,
    :func:`sign_test`, :func:`mann_whitney`, :func:`randomization_test`,
    :func:`paired_bootstrap_test` (Sakai, seed 001 Fig. 11–12), :func:`bootstrap_shift_test`,
    :func:`unpaired_bootstrap_test` (Fig. 13–14), or :func:`two_sample_test` by name.
    Each returns a :class:`TestResult` (statistic, df, p, mean difference with CI, effect
    sizes d_z, Hedges' g, Glass's Δ).
Many systems
    :func:`anova` / :func:`anova_oneway` / :func:`anova_twoway` (seed 004 eq. 7–8),
    :func:`kruskal_wallis`, :func:`friedman`, :func:`tukey_hsd` (seed 004 eq. 9–11,
    topic-blocked by default), :func:`randomized_tukey_hsd` (seed 001 Fig. 15),
    :func:`pairwise_tests` with :func:`adjust_pvalues` corrections over a declared family.
Shards
    :class:`ShardScores`, :func:`shard_anova` (seed 002 MD3 and its nested family).
Design
    :func:`power_paired_t`, :func:`power_two_sample_t`, :func:`power_anova`,
    :func:`topic_set_size` (Sakai), :func:`minimum_detectable_difference`.

See ``docs/stats.md`` for formulas, sources and examples.
"""

from .anova import MODELS, anova, anova_oneway, anova_twoway
from .bootstrap import bootstrap_shift_test, paired_bootstrap_test, unpaired_bootstrap_test
from .corrections import CORRECTIONS, adjust_pvalues
from .effects import EffectSizes, effect_sizes, hedges_j
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
from .randomization import randomization_test
from .randomized_tukey import randomized_tukey_hsd
from .ranktests import friedman, kruskal_wallis
from .registry import TESTS, two_sample_test
from .results import AnovaResult, AnovaRow, PairwiseComparisons, RankTestResult, TestResult
from .shards import SHARD_MODELS, ShardScores, shard_anova
from .tables import FORMATS, render
from .tukey import tukey_hsd

__all__ = [
    "CORRECTIONS",
    "FORMATS",
    "MODELS",
    "SHARD_MODELS",
    "TESTS",
    "AnovaResult",
    "AnovaRow",
    "EffectSizes",
    "PairwiseComparisons",
    "RankTestResult",
    "ShardScores",
    "TestResult",
    "TopicSetSize",
    "adjust_pvalues",
    "anova",
    "anova_oneway",
    "anova_twoway",
    "bootstrap_shift_test",
    "effect_sizes",
    "expected_ci_width",
    "friedman",
    "hedges_j",
    "kruskal_wallis",
    "mann_whitney",
    "minimum_detectable_difference",
    "paired_bootstrap_test",
    "paired_t",
    "pairwise_tests",
    "power_anova",
    "power_paired_t",
    "power_two_sample_t",
    "randomization_test",
    "randomized_tukey_hsd",
    "render",
    "shard_anova",
    "sign_test",
    "student_t",
    "topic_set_size",
    "tukey_hsd",
    "two_sample_test",
    "unpaired_bootstrap_test",
    "welch_t",
    "wilcoxon",
]
