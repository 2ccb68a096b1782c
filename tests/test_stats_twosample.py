"""Two-system tests against scipy, effect sizes, confidence intervals and input handling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from irscale.core import ScoreMatrix
from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.stats import (
    TESTS,
    effect_sizes,
    hedges_j,
    mann_whitney,
    paired_t,
    sign_test,
    student_t,
    two_sample_test,
    welch_t,
    wilcoxon,
)

from .oracle_imports import lazy_import
from .property_examples import examples

stats = lazy_import("scipy.stats")

ALTERNATIVES = ("two-sided", "greater", "less")


def scores(seed: int, n: int = 25, shift: float = 0.05, grid: bool = False):
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    y = np.clip(x - shift + rng.normal(0, 0.15, n), 0, 1)
    if grid:  # values on a 1/16 grid: ties and zero differences, all exact in binary
        x, y = np.round(x * 16) / 16, np.round(y * 16) / 16
    return x, y


# --------------------------------------------------------------------------- t-tests
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_t_tests_match_scipy(alternative, seed):
    x, y = scores(seed)
    got = paired_t(x, y, alternative=alternative)
    ref = stats.ttest_rel(x, y, alternative=alternative)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert got.df == ref.df
    ci = ref.confidence_interval(0.95)
    assert got.ci == pytest.approx((ci.low, ci.high), rel=1e-10)

    y2 = y[:-4]
    for ours, equal_var in ((student_t, True), (welch_t, False)):
        got = ours(x, y2, alternative=alternative)
        ref = stats.ttest_ind(x, y2, alternative=alternative, equal_var=equal_var)
        assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert got.df == pytest.approx(ref.df, rel=1e-12)
        ci = ref.confidence_interval(0.95)
        assert got.ci == pytest.approx((ci.low, ci.high), rel=1e-10)


def test_one_sided_pvalues_are_complementary():
    x, y = scores(3)
    greater = paired_t(x, y, alternative="greater").pvalue
    less = paired_t(x, y, alternative="less").pvalue
    assert greater + less == pytest.approx(1.0)


# --------------------------------------------------------------------------- Wilcoxon
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_normal_approximation_matches_scipy(alternative, correction, zero_method):
    x, y = scores(4, n=40, grid=True)
    d = x - y
    assert (d == 0).any() and len(np.unique(np.abs(d))) < len(d)  # zeros and ties present
    got = wilcoxon(x, y, alternative=alternative, method="approx", correction=correction,
                   zero_method=zero_method)
    ref = stats.wilcoxon(x, y, alternative=alternative, method="asymptotic",
                         correction=correction, zero_method=zero_method)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    if alternative != "two-sided":  # scipy reports min(W+, W-) for two-sided tests
        assert got.statistic == pytest.approx(ref.statistic)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("n", [6, 15, 30])
def test_wilcoxon_exact_matches_scipy_without_ties(alternative, n):
    x, y = scores(n, n=n)
    got = wilcoxon(x, y, alternative=alternative, method="exact")
    ref = stats.wilcoxon(x, y, alternative=alternative, method="exact")
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert wilcoxon(x, y, alternative=alternative).pvalue == got.pvalue  # auto = exact here


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_exact_with_ties_is_the_conditional_permutation_distribution(zero_method):
    # the exact p-value conditional on the observed ranks = full enumeration of sign flips
    x, y = scores(5, n=12, grid=True)
    d = x - y
    got = wilcoxon(x, y, method="exact", zero_method=zero_method, alternative="greater")

    def w_plus(diffs, axis):
        return stats.wilcoxon(diffs, zero_method=zero_method, alternative="greater",
                              method="asymptotic", axis=axis).statistic

    ref = stats.permutation_test((d,), w_plus, permutation_type="samples",
                                 alternative="greater", n_resamples=np.inf)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_differences_equal_up_to_rounding_noise_are_ties():
    # 0.3 - 0.1 != 0.2 - 0.0 in binary floating point; irscale ties them (TIE_RTOL)
    x = np.array([0.3, 0.2, 0.9, 0.75, 0.6, 0.5])
    y = np.array([0.1, 0.0, 0.4, 0.05, 0.5, 0.45])
    exact = np.round(x * 100) - np.round(y * 100)  # the same differences in exact integers
    got = wilcoxon(x, y, method="approx")
    ref = stats.wilcoxon(exact, method="asymptotic", correction=False)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


# --------------------------------------------------------------------------- sign test
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("threshold", [0.0, 0.05, 0.1])
def test_sign_test_matches_binomtest(alternative, threshold):
    x, y = scores(6, n=40, grid=True)
    d = x - y
    positive = int(np.sum(d > threshold + 1e-12))
    total = positive + int(np.sum(d < -threshold - 1e-12))
    got = sign_test(x, y, alternative=alternative, threshold=threshold)
    ref = stats.binomtest(positive, total, 0.5, alternative=alternative)
    assert got.statistic == positive
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_sign_test_threshold_must_be_nonnegative():
    x, y = scores(7)
    with pytest.raises(ParameterError):
        sign_test(x, y, threshold=-0.1)


# --------------------------------------------------------------------------- Mann-Whitney
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method", ["exact", "approx"])
@pytest.mark.parametrize("sizes", [(6, 9), (12, 5), (30, 25)])
def test_mann_whitney_matches_scipy(alternative, method, sizes):
    rng = np.random.default_rng(sum(sizes))
    x, y = rng.random(sizes[0]) + 0.1, rng.random(sizes[1])
    got = mann_whitney(x, y, alternative=alternative, method=method)
    ref = stats.mannwhitneyu(x, y, alternative=alternative,
                             method="asymptotic" if method == "approx" else "exact")
    assert got.statistic == pytest.approx(ref.statistic)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_mann_whitney_ties_use_tie_corrected_normal_approximation():
    x, y = scores(8, n=30, grid=True)
    got = mann_whitney(x, y[:20])
    ref = stats.mannwhitneyu(x, y[:20], method="asymptotic")
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


# --------------------------------------------------------------------------- effect sizes
def test_effect_sizes_follow_their_definitions():
    x, y = scores(9, n=30)
    n = len(x)
    t = stats.ttest_rel(x, y).statistic
    es = effect_sizes(x, y, paired=True)
    assert es.d_z == pytest.approx(t / np.sqrt(n))  # d_z = t / sqrt(n)
    t_ind = stats.ttest_ind(x, y).statistic
    assert es.cohen_d == pytest.approx(t_ind * np.sqrt(2 / n))  # d = t sqrt(1/n1 + 1/n2)
    assert es.hedges_g == pytest.approx(hedges_j(2 * n - 2) * es.cohen_d)
    assert es.g_z == pytest.approx(hedges_j(n - 1) * es.d_z)
    assert es.glass_delta == pytest.approx(
        hedges_j(n - 1) * (x.mean() - y.mean()) / y.std(ddof=1)
    )
    assert np.isnan(effect_sizes(x, y[:20], paired=False).d_z)


@pytest.mark.parametrize("df", [2, 5, 10, 49, 1000])
def test_hedges_exact_correction_is_close_to_the_approximation(df):
    # Hedges (1981): J(ν) ≈ 1 − 3/(4ν − 1), exact for large ν
    assert hedges_j(df) == pytest.approx(1 - 3 / (4 * df - 1), rel=2e-2 if df < 10 else 1e-3)
    assert hedges_j(df) < 1


def test_every_result_carries_the_difference_ci_and_effects():
    x, y = scores(10)
    for name, spec in TESTS.items():
        yy = y if spec.paired else y[:-3]
        result = two_sample_test(x, yy, test=name, alternative="greater",
                                 **({"rng": 1, "samples": 199} if spec.resampling else {}))
        assert 0 <= result.pvalue <= 1
        assert result.diff == pytest.approx(x.mean() - yy.mean())
        assert result.ci_low <= result.diff and result.ci_high == np.inf
        assert np.isfinite(result.effect.hedges_g)
        frame = result.to_frame()
        assert frame.loc[0, "p"] == result.pvalue and frame.loc[0, "test"] == result.test
        assert repr(result).startswith("TestResult(")
        for fmt in ("text", "csv", "markdown", "latex", "json"):
            assert result.format(fmt)


# --------------------------------------------------------------------------- inputs
def test_series_are_aligned_by_topic():
    x, y = scores(11, n=10)
    topics = [f"t{i}" for i in range(10)]
    sx = pd.Series(x, index=topics)
    sy = pd.Series(y, index=topics)[::-1]  # shuffled order
    assert paired_t(sx, sy).pvalue == pytest.approx(paired_t(x, y).pvalue)
    with pytest.raises(AlignmentError, match="same topics"):
        paired_t(sx, sy.rename(index={"t0": "t99"}))


def test_score_matrix_input_picks_systems():
    x, y = scores(12, n=10)
    matrix = ScoreMatrix.from_array(np.column_stack([x, y, x * 0.5]), systems=["a", "b", "c"])
    result = paired_t(matrix, systems=("a", "b"))
    assert result.systems == ("a", "b")
    assert result.pvalue == pytest.approx(paired_t(x, y).pvalue)
    with pytest.raises(InputError, match="name the two"):
        paired_t(matrix)
    with pytest.raises(ParameterError, match="systems 'zz' names no run"):
        paired_t(matrix, systems=("a", "zz"))


@pytest.mark.parametrize(
    ("x", "y", "error", "match"),
    [
        ([0.1, np.nan, 0.3], [0.2, 0.2, 0.2], InputError, "non-finite"),
        ([0.1, 0.2, 0.3], [0.2, 0.2], AlignmentError, "one value per topic"),
        ([0.1], [0.2], InputError, "at least 2 topics"),
        ([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], InputError, "identical scores"),
    ],
)
def test_bad_inputs_raise_clear_errors(x, y, error, match):
    with pytest.raises(error, match=match):
        paired_t(x, y)


def test_unknown_options_and_parameters_are_rejected():
    x, y = scores(13)
    with pytest.raises(ParameterError, match=r"unknown keyword argument.*samples"):
        two_sample_test(x, y, test="t", samples=10)
    with pytest.raises(ParameterError, match="unknown test"):
        two_sample_test(x, y, test="nope")
    with pytest.raises(ParameterError, match="alternative"):
        paired_t(x, y, alternative="bigger")
    with pytest.raises(ParameterError, match="alpha"):
        paired_t(x, y, alpha=1.5)


# --------------------------------------------------------------------------- properties
thousandths = st.integers(0, 1000).map(lambda v: v / 1000)
vectors = arrays(np.float64, st.integers(3, 30), elements=thousandths)


@settings(max_examples=examples(60), deadline=None)
@given(x=vectors, data=st.data())
def test_pvalues_lie_in_unit_interval_and_swap_symmetrically(x, data):
    y = data.draw(arrays(np.float64, len(x), elements=thousandths))
    if np.ptp(np.concatenate([x, y])) == 0 or np.array_equal(x, y):
        return
    for name in ("t", "wilcoxon", "sign", "welch", "mann-whitney"):
        forward = two_sample_test(x, y, test=name)
        backward = two_sample_test(y, x, test=name)
        assert 0.0 <= forward.pvalue <= 1.0
        assert forward.pvalue == pytest.approx(backward.pvalue, abs=1e-9)
        assert forward.diff == pytest.approx(-backward.diff)
