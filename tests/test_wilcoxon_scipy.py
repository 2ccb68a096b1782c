"""``irscale.stats.wilcoxon`` with its defaults is ``scipy.stats.wilcoxon`` with its defaults.

scipy's ``method="auto"`` (scipy 1.17, ``scipy/stats/_wilcoxon.py``): the exact null
distribution of W+ when the differences have neither ties nor zeros and n ≤ 50; with ties
or zeros and n ≤ 13 (n counting the zeros) a permutation test that enumerates all 2^n sign
flips (exact, conditional on the observed ranks); the normal approximation otherwise. These
properties check statistic and p-value against scipy to 1e-12 over random samples with
many ties and zeros, every ``zero_method``, ``alternative`` and ``correction``.

The samples are dyadic fractions, so x − y is exact and scipy (which compares with ``==``)
sees the same ties and zeros as irscale (which compares with a relative tolerance of 1e-10,
``docs/stats.md``). scipy reports min(W+, W−) for two-sided tests and W+ otherwise; irscale
always reports W+, so W− is derived here. scipy's permutation test costs about a second at
n = 13, so the small samples stop at n = 10 and n = 13, 14 are checked once each.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from irscale import stats
from irscale.stats.nonparametric import AUTO_EXACT_MAX, AUTO_TIES_EXACT_MAX

from .oracle_imports import lazy_import
from .property_examples import examples

sps = lazy_import("scipy.stats")

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
ALTERNATIVES = ("two-sided", "greater", "less")


def reference(x, y, **options):
    with warnings.catch_warnings():  # scipy warns about ties/zeros with method="exact"
        warnings.simplefilter("ignore")
        return sps.wilcoxon(x, y, **options)


def w_minus(x: np.ndarray, y: np.ndarray, w_plus: float, zero_method: str) -> float:
    """W− from W+: the sum of the ranks that count, less W+."""
    d = x - y
    n, zeros = len(d), int(np.sum(d == 0))
    if zero_method == "wilcox":
        n -= zeros
        return n * (n + 1) / 2 - w_plus
    if zero_method == "pratt":
        return n * (n + 1) / 2 - zeros * (zeros + 1) / 2 - w_plus
    return n * (n + 1) / 2 - w_plus  # zsplit: half of each zero's rank on each side


def assert_same(x, y, zero_method, alternative, correction, **ours):
    got = stats.wilcoxon(x, y, zero_method=zero_method, alternative=alternative,
                         correction=correction, **ours)
    ref = reference(x, y, zero_method=zero_method, alternative=alternative,
                    correction=correction)
    if np.isnan(ref.pvalue):  # nothing left to rank: scipy's normal approximation is NaN
        assert np.isnan(got.pvalue) or got.pvalue == 1.0
        return got
    assert got.pvalue == pytest.approx(float(ref.pvalue), abs=1e-12, rel=1e-12), got.method
    statistic = got.statistic
    if alternative == "two-sided":
        statistic = min(statistic, w_minus(x, y, statistic, zero_method))
    assert statistic == pytest.approx(float(ref.statistic), abs=1e-12)
    return got


def samples(sizes, grid: int):
    """Two equally long vectors of multiples of 1/grid (a power of two: exact differences)."""
    return sizes.flatmap(lambda n: st.tuples(
        st.lists(st.integers(0, grid), min_size=n, max_size=n),
        st.lists(st.integers(0, grid), min_size=n, max_size=n),
    )).map(lambda pair: (np.array(pair[0]) / grid, np.array(pair[1]) / grid))


options = st.tuples(st.sampled_from(ZERO_METHODS), st.sampled_from(ALTERNATIVES),
                    st.booleans())


@settings(max_examples=examples(150), deadline=None)
@given(data=samples(st.integers(2, 10), 4), choice=options)
def test_small_samples_with_ties_and_zeros(data, choice):
    """n ≤ 10 on a grid of five values: ties and zeros in most samples (scipy enumerates
    the sign flips; irscale the exact conditional distribution)."""
    x, y = data
    assume(not np.array_equal(x, y))
    assert_same(x, y, *choice)


@settings(max_examples=examples(150), deadline=None)
@given(data=samples(st.integers(14, 70), 4) | samples(st.integers(14, 70), 1024)
       | samples(st.integers(2, 60), 2**20),
       choice=options)
def test_larger_samples_and_samples_without_ties(data, choice):
    """n ≥ 14 with ties or zeros (normal approximation), and fine grids where most samples
    have neither (the exact distribution up to n = 50, the normal approximation beyond)."""
    x, y = data
    assume(not np.array_equal(x, y))
    assert_same(x, y, *choice)


def _tied(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 4, n) / 4, rng.integers(0, 4, n) / 4
    d = x - y
    assert (d == 0).any() and len(np.unique(np.abs(d[d != 0]))) < np.sum(d != 0)
    return x, y


@pytest.mark.parametrize("n", [AUTO_TIES_EXACT_MAX, AUTO_TIES_EXACT_MAX + 1])
@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_the_ties_boundary_n_13(n, zero_method):
    x, y = _tied(n, 3)
    got = assert_same(x, y, zero_method, "two-sided", False)
    assert got.method.startswith("exact" if n <= AUTO_TIES_EXACT_MAX else "normal")


@pytest.mark.parametrize("n", [AUTO_EXACT_MAX, AUTO_EXACT_MAX + 1])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_the_no_ties_boundary_n_50(n, alternative):
    rng = np.random.default_rng(n)
    x = rng.permutation(n) / 64 + 1
    y = x - (rng.permutation(n) + 1) / 128 * rng.choice([-1, 1], n)
    got = assert_same(x, y, "wilcox", alternative, True)
    assert got.method.startswith("exact" if n <= AUTO_EXACT_MAX else "normal")


def test_the_probe_case_small_sample_with_ties_and_a_zero():
    """The red-team finding: scipy's exact p of 1.0, where the normal approximation was
    reported (0.6547)."""
    x = np.array([0.5, 0.25, 0.75, 0.5, 0.25, 0.0])
    y = np.array([0.25, 0.5, 0.5, 0.5, 0.5, 0.25])
    got = stats.wilcoxon(x, y)
    assert got.pvalue == 1.0 == reference(x, y).pvalue
    assert got.method.startswith("exact")


def test_pairwise_and_cli_path_use_the_same_default():
    """``pairwise_tests(..., "wilcoxon")`` (``irscale compare --test wilcoxon``) gives every
    pair scipy's default p-value."""
    rng = np.random.default_rng(5)
    values = rng.integers(0, 4, (9, 4)) / 4
    family = stats.pairwise_tests(values, "wilcoxon", correction="none").to_frame()
    for (i, j), p in zip(((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)), family["p"],
                         strict=True):
        assert p == pytest.approx(float(reference(values[:, i], values[:, j]).pvalue),
                                  abs=1e-12)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_asymptotic_is_accepted_as_scipys_name_of_approx(zero_method):
    x, y = _tied(9, 1)
    a = stats.wilcoxon(x, y, method="asymptotic", zero_method=zero_method)
    b = stats.wilcoxon(x, y, method="approx", zero_method=zero_method)
    assert (a.statistic, a.pvalue) == (b.statistic, b.pvalue)
    ref = reference(x, y, method="asymptotic", zero_method=zero_method)
    assert a.pvalue == pytest.approx(float(ref.pvalue), abs=1e-12)
