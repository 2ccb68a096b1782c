"""Pairs without variance: differences that are the same on every topic up to rounding.

0.3 − 0.1 and 0.4 − 0.2 differ by 2.8e-17: the sample standard deviation of such
differences is rounding noise, and a t statistic of it is ±1e16 with p = 1e-16. Every test
that rests on the spread of the scores (the t-tests, the paired bootstraps) refuses such a
pair alone and gives it p = 1 (no statistic, a warning) in a family, as it does identical
scores; the standardised effect sizes are undefined (NaN). The tests on signs, ranks and
sign flips need no spread: their answers are checked against scipy and brute force. The
tolerance is the tie tolerance, 1e-10 × the largest |score| of the pair.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale import stats
from irscale.errors import InputError

from .oracle_imports import lazy_import

sp = lazy_import("scipy.stats")

SPREAD_TESTS = ("t", "bootstrap", "bootstrap-shift")  # paired tests that need a spread
FREE_TESTS = ("wilcoxon", "sign", "randomization")  # paired tests that need none
OPTIONS = {"bootstrap": {"samples": 199, "rng": 3}, "bootstrap-shift": {"samples": 199, "rng": 3},
           "randomization": {"samples": 199, "rng": 3},
           "unpaired-bootstrap": {"samples": 199, "rng": 3}}
TOLERANCE = r"1e-10 × the largest \|score\|"

#: The issue's case: two topics, differences −0.2 up to rounding (spread 2.8e-17).
TWO_TOPICS = (np.array([0.1, 0.2]), np.array([0.3, 0.4]))


def shifted(seed: int, n: int = 8, shift: float = 0.25, scale: float = 1.0
            ) -> tuple[np.ndarray, np.ndarray]:
    """Scores x and x + shift: differences equal up to the rounding of the additions."""
    x = np.random.default_rng(seed).random(n) * scale
    return x, x + shift * scale


def brute_force_randomization(d: np.ndarray) -> float:
    """Two-sided exact p-value of the sign-flip test: every one of the 2^n sign vectors
    (sums compared after rounding away the noise of the additions)."""
    observed = abs(round(float(d.sum()), 9))
    hits = sum(abs(round(float(np.dot(s, d)), 9)) >= observed
               for s in itertools.product((-1.0, 1.0), repeat=len(d)))
    return hits / 2 ** len(d)


# ------------------------------------------------------------------ the reported cases
@pytest.mark.parametrize("test", SPREAD_TESTS)
@pytest.mark.parametrize("scores", [
    TWO_TOPICS,
    shifted(1),
    shifted(2, n=30, shift=-0.1),
    shifted(3, scale=1e6),  # large scores: noise 1e-10, far above ε · |difference|
    shifted(4, scale=1e-6),
    (np.array([0.1 + 0.2, 0.7, 0.2]), np.array([0.0, 0.4, -0.1])),  # d = 0.3 up to rounding
])
def test_a_difference_constant_up_to_rounding_is_refused(test, scores):
    x, y = scores
    with pytest.raises(InputError, match=f"same on every topic.*{TOLERANCE}.*no variance"):
        stats.two_sample_test(x, y, test=test, **OPTIONS.get(test, {}))


@pytest.mark.parametrize("test", SPREAD_TESTS + FREE_TESTS)
def test_scores_identical_up_to_rounding_are_refused_by_every_test(test):
    x = np.array([0.1 + 0.2, 0.7, 0.4 + 0.2])  # 0.30000000000000004, ..., 0.6000000000000001
    y = np.array([0.3, 0.7, 0.6])
    with pytest.raises(InputError, match=f"identical scores.*{TOLERANCE}"):
        stats.two_sample_test(x, y, test=test, **OPTIONS.get(test, {}))


def test_the_message_states_the_difference_its_spread_and_the_tolerance():
    with pytest.raises(InputError) as info:
        stats.paired_t(*TWO_TOPICS, systems=("bm25", "qe"))
    message = str(info.value)
    assert "'bm25' − 'qe'" in message and "(-0.2;" in message
    assert "spread 2.78e-17 ≤ 4e-11 = 1e-10 × the largest |score| of the pair" in message
    assert "sign, wilcoxon and randomization" in message


@pytest.mark.parametrize("test", ["welch", "student"])
def test_two_samples_each_constant_up_to_rounding_are_refused_by_the_t_tests(test):
    x = np.array([0.1 + 0.2, 0.3, 0.3])  # 0.3 up to rounding
    y = np.array([0.6, 0.2 + 0.4, 0.6])
    with pytest.raises(InputError, match=f"each the same on every topic.*{TOLERANCE}"):
        stats.two_sample_test(x, y, test=test)
    effects = stats.effect_sizes(x, y, paired=False)
    assert math.isnan(effects.cohen_d) and math.isnan(effects.hedges_g)
    assert math.isnan(effects.glass_delta)
    # one constant sample leaves a variance: Welch's t is (x̄ − z̄)/(s_z/√3) on 2 df
    z = np.array([0.2, 0.5, 0.9])
    result = stats.welch_t(x, z)
    t = (0.3 - z.mean()) / (z.std(ddof=1) / math.sqrt(3))
    assert result.statistic == pytest.approx(t, rel=1e-12)
    assert result.df == pytest.approx(2.0, rel=1e-12)
    assert result.pvalue == pytest.approx(2 * sp.t.sf(abs(t), 2), rel=1e-10)


def test_unpaired_tests_without_a_variance_answer_as_scipy():
    """Mann–Whitney and the unpaired bootstrap need no spread: two constant samples are a
    complete separation (scipy's exact p, on the values with the noise rounded away)."""
    x = np.array([0.1 + 0.2, 0.3, 0.3, 0.3])
    y = np.array([0.6, 0.2 + 0.4, 0.6, 0.6])
    result = stats.mann_whitney(x, y)
    assert result.pvalue == pytest.approx(sp.mannwhitneyu(np.round(x, 12), np.round(y, 12),
                                                          method="auto").pvalue, rel=1e-12)
    boot = stats.unpaired_bootstrap_test(x, y, samples=199, rng=1)
    assert 0 < boot.pvalue < 1 and math.isfinite(boot.statistic)


# ------------------------------------------------------------ tests needing no spread
@pytest.mark.parametrize("scores", [TWO_TOPICS, shifted(5, n=6), shifted(6, n=9, shift=-0.3)])
def test_sign_rank_and_randomization_tests_answer_such_pairs(scores):
    """A constant difference is every topic won (or lost): the sign test's p is
    2 · 2^-n, Wilcoxon's exact p scipy's on the rounded differences, the randomisation
    test's 2/2^n (brute force)."""
    x, y = scores
    n = len(x)
    d = x - y
    assert stats.sign_test(x, y).pvalue == pytest.approx(min(1.0, 2.0 * 0.5**n), rel=1e-12)
    assert stats.wilcoxon(x, y).pvalue == pytest.approx(
        sp.wilcoxon(np.round(d, 12)).pvalue, rel=1e-12)
    assert stats.randomization_test(x, y).pvalue == pytest.approx(
        brute_force_randomization(d), rel=1e-12)


# ------------------------------------------------------------ effect sizes and intervals
@pytest.mark.parametrize("scores", [TWO_TOPICS, shifted(7), shifted(8, scale=1e4)])
def test_effect_sizes_of_a_difference_without_variance_are_undefined(scores):
    x, y = scores
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        effects = stats.effect_sizes(x, y)
        assert math.isnan(effects.d_z) and math.isnan(effects.g_z)
        for kind in ("d_z", "g_z"):
            low, high = effects.confidence_interval(0.95, kind=kind)
            assert math.isnan(low) and math.isnan(high)
    # the score sets themselves vary: d and g of the two groups are defined
    s_p = math.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2)
    assert effects.cohen_d == pytest.approx((x.mean() - y.mean()) / s_p, rel=1e-9)


def test_effect_sizes_near_the_tolerance_are_computed():
    """A spread of 1e-7 (a thousand times the tolerance) is a variance: d_z is its
    mean over its standard deviation (numpy), the t statistic scipy's."""
    x = np.random.default_rng(9).random(10)
    y = x - 0.2 + 1e-7 * np.random.default_rng(10).standard_normal(10)
    d = x - y
    effects = stats.effect_sizes(x, y)
    assert effects.d_z == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-6)
    result = stats.paired_t(x, y)
    expected = sp.ttest_rel(x, y)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-6)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-6, abs=1e-300)


@pytest.mark.parametrize("seed", range(4))
def test_ordinary_pairs_match_scipy(seed):
    """Nothing moved for pairs with a variance: t, Welch, Student and d_z against scipy."""
    rng = np.random.default_rng(seed)
    x = rng.random(15)
    y = np.clip(x - 0.05 + rng.normal(0, 0.1, 15), 0, 1)
    for ours, theirs in ((stats.paired_t(x, y), sp.ttest_rel(x, y)),
                         (stats.welch_t(x, y), sp.ttest_ind(x, y, equal_var=False)),
                         (stats.student_t(x, y), sp.ttest_ind(x, y))):
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)
    d = x - y
    assert stats.paired_t(x, y).effect.d_z == pytest.approx(d.mean() / d.std(ddof=1),
                                                            rel=1e-12)


# --------------------------------------------------------------------------- families
def family_table(seed: int = 11) -> np.ndarray:
    """Systems s1, s2 = s1 + 0.2 (no variance between them), s3 and s4 (ordinary)."""
    rng = np.random.default_rng(seed)
    a = rng.random(10) * 0.7
    return np.column_stack([a, a + 0.2, rng.random(10), rng.random(10)])


def pair_row(family, a: str, b: str):
    frame = family.to_frame()
    return frame[(frame.a == a) & (frame.b == b)].iloc[0]


@pytest.mark.parametrize("test", SPREAD_TESTS)
def test_in_a_family_such_a_pair_has_p_one_and_a_warning(test):
    values = family_table()
    with pytest.warns(UserWarning, match=r"1 pair\(s\) whose differences are the same on "
                      r"every topic .* p = 1: s1 − s2 \(-0\.2\)"):
        family = stats.pairwise_tests(values, test, correction="holm",
                                      **OPTIONS.get(test, {}))
    row = pair_row(family, "s1", "s2")
    assert row["p_raw"] == 1.0 and math.isnan(row["statistic"]) and math.isnan(row["d_z"])
    assert row["ci_low"] == row["ci_high"] == row["diff"]  # no sampling variability
    # the other pairs are what the single-pair test gives them
    for i, j in ((0, 2), (2, 3), (1, 3)):
        alone = stats.two_sample_test(values[:, i], values[:, j], test=test,
                                      **OPTIONS.get(test, {}))
        other = pair_row(family, f"s{i + 1}", f"s{j + 1}")
        assert other["p_raw"] == pytest.approx(alone.pvalue, rel=1e-12)
        assert other["statistic"] == pytest.approx(alone.statistic, rel=1e-12)


@pytest.mark.parametrize("test", (*FREE_TESTS, "mann-whitney", "unpaired-bootstrap"))
def test_in_a_family_tests_needing_no_spread_give_the_single_pair_answer(test):
    values = family_table()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        family = stats.pairwise_tests(values, test, correction="none",
                                      **OPTIONS.get(test, {}))
    alone = stats.two_sample_test(values[:, 0], values[:, 1], test=test,
                                  **OPTIONS.get(test, {}))
    row = pair_row(family, "s1", "s2")
    assert row["p"] == pytest.approx(alone.pvalue, rel=1e-12)


def test_unpaired_family_pair_of_constant_samples_has_p_one():
    values = np.column_stack([[0.1 + 0.2, 0.3, 0.3, 0.3], [0.6, 0.6, 0.2 + 0.4, 0.6],
                              [0.2, 0.5, 0.4, 0.9]])
    with pytest.warns(UserWarning, match="two samples are each the same on every topic"):
        family = stats.pairwise_tests(values, "welch", correction="none")
    assert pair_row(family, "s1", "s2")["p"] == 1.0
    alone = stats.welch_t(values[:, 0], values[:, 2])
    assert pair_row(family, "s1", "s3")["p"] == pytest.approx(alone.pvalue, rel=1e-12)


@pytest.mark.parametrize("test", ["wilcoxon", "sign", "mann-whitney"])
def test_a_pairs_ties_do_not_depend_on_the_other_systems(test):
    """Ties are decided with the pair's own tolerance: a system of scores near 100 beside
    it (whose tolerance, 1e-8, would tie differences 5e-9 apart) changes nothing."""
    x = np.array([0.5, 0.6, 0.2, 0.9, 0.4, 0.3])
    y = x - np.array([0.1, 0.1 + 5e-9, -0.1, 0.2, 0.2 + 5e-9, -0.05])
    values = np.column_stack([x, y, 100.0 + x])
    alone = stats.two_sample_test(x, y, test=test)
    family = stats.pairwise_tests(values, test, correction="none")
    assert pair_row(family, "s1", "s2")["p"] == pytest.approx(alone.pvalue, rel=1e-12)


# --------------------------------------------------------------------------- properties
@given(
    # scores whose squares underflow are refused for that (another rule): none here
    values=st.lists(st.floats(0.0, 1.0).map(lambda v: 0.0 if v < 1e-100 else v), min_size=2,
                    max_size=25),
    shift=st.floats(-1.0, 1.0).filter(lambda c: abs(c) > 1e-6),
    exponent=st.integers(-6, 8),
)
def test_adding_a_constant_never_gives_a_significant_t(values, shift, exponent):
    """y = x + c has differences equal up to rounding: every test that needs a spread
    refuses the pair (never |t| = 1e16 and p = 1e-16), d_z is undefined, and in a family
    the pair has p = 1."""
    scale = 10.0**exponent
    x = np.asarray(values) * scale
    y = x + shift * scale
    for test in ("t", "bootstrap-shift"):
        with pytest.raises(InputError, match=r"no variance|identical scores"):
            stats.two_sample_test(x, y, test=test, **OPTIONS.get(test, {}))
    assert math.isnan(stats.effect_sizes(x, y).d_z)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        family = stats.pairwise_tests(np.column_stack([x, y]), "t", correction="none")
    assert family.to_frame()["p"].tolist() == [1.0]


def test_anova_of_systems_that_are_shifts_of_each_other_is_refused():
    """The two-way model fits such scores up to rounding: its residual variance is noise,
    so F and Tukey's HSD are undefined (the tolerance is stated)."""
    x = np.random.default_rng(12).random(9)
    values = np.column_stack([x, x + 0.1, x + 0.3])
    with pytest.raises(InputError, match=r"fits the scores exactly, up to rounding.*1e-10"):
        stats.anova(values, "topic+system")
    with pytest.raises(InputError, match="fits the scores exactly"):
        stats.tukey_hsd(values, "topic+system")
    # the one-way model has the topics' variance as its error: it is defined
    assert math.isfinite(stats.anova(values, "system").rows[0].f)


def test_trisk_of_differences_without_variance_is_its_limit_not_noise():
    """TRisk = URisk / (s_z/√c): z constant up to rounding has s_z = 0 and TRisk = ±inf
    (documented), not 1e16."""
    from irscale.core import ScoreMatrix
    from irscale.stats.risk import risk_table

    x, y = TWO_TOPICS
    matrix = ScoreMatrix.from_array(np.column_stack([y, x]), systems=["base", "run"])
    row = risk_table(matrix, "base").iloc[0]
    assert row["trisk"] == -math.inf and row["p"] == 0.0
