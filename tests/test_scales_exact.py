"""Interval scales: every fast algorithm equals brute-force enumeration where both run, and
φ preserves the order of the measure (property tests)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscale.scales.pairs as pairs
from irscale.scales import clear_cache, scale
from irscale.scales.enumeration import runs_from_index
from irscale.scales.generic import EnumeratedImage, naive_image
from irscale.scales.measures import scale_measure
from irscale.scales.space import Space, count_sequences, to_context
from irscale.stats.kendall import kendall_tau

from .property_examples import examples

MEASURES = ["P", "R", "F", "AP", "RR", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02", "DCG_b10",
            "nDCG_b02", "nDCG_b10", "SBTO", "RBTO", "RBP(p=0.4)", "DCG(discount=log2)",
            "DCG_b02(gain=exp)", "RBP_p05(gain=exp)", "F(beta=2)", "AP(norm=min)"]


def brute(name: str, N: int, levels: int, rb, feasible: bool):
    measure = scale_measure(name).for_length(N)
    space = Space(N, levels)
    context = to_context(rb, space)
    if feasible:
        space = Space(N, levels, context.bounds())
    return EnumeratedImage(measure, space, context, progress=False), space


def assert_same(name: str, N: int, levels: int, rb=None, feasible: bool = False):
    reference, space = brute(name, N, levels, rb, feasible)
    fast = scale(name, N, levels, recall_base=rb, feasible=feasible, progress=False)
    runs = runs_from_index(np.arange(levels**N), N, levels)
    runs = runs[space.allows(runs)]
    assert fast.n_runs == len(runs) == reference.n_runs
    assert fast.n_distinct == reference.n_distinct, (name, N, levels, rb, feasible)
    values, counts = fast.image_values()
    assert np.allclose(values, reference._values, rtol=1e-9, atol=1e-12)
    assert np.array_equal(np.asarray(counts, dtype=np.int64), reference._counts)
    assert np.array_equal(np.asarray(fast.phi(runs), dtype=np.int64), reference.phi(runs))
    assert np.array_equal(np.asarray(fast.phi(runs, "min"), dtype=np.int64),
                          reference.runs_below(runs, True) + 1)
    assert np.array_equal(np.asarray(fast.phi(runs, "max"), dtype=np.int64),
                          reference.runs_below(runs, False))
    # the algorithm's own arithmetic gives the kernel's values
    assert np.allclose(fast.values(runs), fast.measure.kernel_values(runs, fast.context),
                       rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", MEASURES)
def test_binary_whole_space(name):
    for N in (1, 2, 3, 5, 8, 11):
        assert_same(name, N, 2)


@pytest.mark.parametrize("name", MEASURES)
def test_graded_whole_space(name):
    for N in (1, 2, 4, 6):
        assert_same(name, N, 3)


@pytest.mark.parametrize("name", MEASURES)
def test_feasible_spaces_and_recall_bases(name):
    for N, levels, rb in ((6, 2, [0]), (7, 2, [2]), (9, 2, [4]), (5, 3, [1, 2]),
                          (5, 3, [0, 3]), (4, 3, [2, 2])):
        assert_same(name, N, levels, rb, feasible=True)
        assert_same(name, N, levels, rb, feasible=False)


def test_four_degrees():
    for name in ("DCG_b02", "RBP_p08", "AP", "SBTO", "RBTO", "RR", "P(rel=2)"):
        assert_same(name, 4, 4)
        assert_same(name, 4, 4, [1, 1, 2], feasible=True)


@pytest.mark.parametrize("name", ["AP", "DCG_b02", "RBP_p08", "nDCG_b10", "RBP_p05(gain=exp)"])
def test_streaming_in_many_small_buckets(name, monkeypatch):
    monkeypatch.setattr(pairs, "BUCKET_PAIRS", 5)
    clear_cache()
    try:
        assert_same(name, 10, 2)
        assert_same(name, 5, 3, [2, 2], feasible=True)
    finally:
        clear_cache()


def test_naive_baseline_agrees():
    for name in ("AP", "DCG_b02", "RBP_p08", "RR"):
        sc = scale(name, 10, progress=False)
        values, counts = naive_image(sc.measure, sc.space, sc.context)
        assert len(values) == sc.n_distinct
        assert np.array_equal(counts, np.asarray(sc.image_values()[1], dtype=np.int64))


def test_feasible_run_counts():
    assert count_sequences(5, (2,)) == 1 + 5 + 10
    assert Space(4, 3, (1, 1)).n_runs == 1 + 4 + 4 + 12
    assert scale("P", 30, recall_base=5, feasible=True).n_runs == sum(
        __import__("math").comb(30, k) for k in range(6))


def test_exact_counts_beyond_brute_force():
    # image sizes known in closed form: every binary RBP run is distinct (p-adic
    # certificate); DCG_b02 splits into independent classes of ranks
    assert scale("RBP_p08", 30, progress=False).n_distinct == 2**30
    assert scale("DCG_b02", 30, progress=False).n_distinct == 24 * 8 * 4 * 2**20
    assert scale("DCG_b10", 30, progress=False).n_distinct == 11 * 2**20
    assert scale("RBP_p03", 15, 3, progress=False).n_distinct == 3**15
    assert scale("AP", 22, progress=False).n_distinct == 2282412  # brute force: same
    # per-rank keys of RBP_p08 beyond N = 31 (4^(i−1) > 2^62) are reduced, not overflowing
    deep = scale("RBP_p08", 34, progress=False)
    assert "independent blocks" in deep.algorithm and deep.n_distinct == 2**34
    runs = np.eye(34, dtype=np.int8)[[0, 33]]  # (1,0,...,0) and (0,...,0,1)
    phi = deep.phi(runs).tolist()
    assert phi[1] == 2 and phi == deep.phi(runs, "max").tolist()  # every run distinct


@st.composite
def runs_of(draw, levels: int, max_n: int):
    N = draw(st.integers(1, max_n))
    rows = draw(st.lists(st.lists(st.integers(0, levels - 1), min_size=N, max_size=N),
                         min_size=2, max_size=25))
    return np.array(rows, dtype=np.int8)


ORDER_MEASURES = ["P", "R", "AP", "RR", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02",
                  "DCG_b10", "nDCG_b02", "SBTO", "RBTO"]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=runs_of(2, 24), name=st.sampled_from(ORDER_MEASURES))
def test_phi_preserves_the_order_of_the_measure_binary(runs, name):
    check_order(runs, name, 2)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=runs_of(3, 9), name=st.sampled_from(ORDER_MEASURES))
def test_phi_preserves_the_order_of_the_measure_graded(runs, name):
    check_order(runs, name, 3)


def check_order(runs: np.ndarray, name: str, levels: int):
    N = runs.shape[1]
    sc = scale(name, N, levels, recall_base=[3] * (levels - 1), progress=False)
    m = sc.measure.kernel_values(runs, sc.context)
    phi = np.asarray(sc.phi(runs), dtype=np.float64)
    # φ is an order-preserving map of M: same ranking, ties included
    result = kendall_tau(m, phi, rtol=1e-14)  # kernel floats: ulp-level noise only
    assert result.discordant == 0
    assert result.ties_x == 0 and result.ties_y == 0
    assert phi.min() >= 1 and phi.max() <= sc.n_distinct
