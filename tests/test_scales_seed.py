"""Interval scales: the worked examples and statements of Ferrante et al. (2021, §5, §7.1) and
Ferrante et al. (2019)."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.scales import rank_values, scale
from irscale.scales.diagnostics import figure_data, summarize
from irscale.scales.enumeration import runs_from_index


def all_runs(N: int, levels: int = 2) -> np.ndarray:
    return runs_from_index(np.arange(levels**N), N, levels)


def test_example_12_dcg_log2_on_rel4():
    sc = scale("DCG_b02", 4, progress=False)
    assert sc.n_runs == 16 and sc.n_distinct == 12
    m = [3.131, 2.631, 2.500, 2.131, 0.500, 0.000]
    assert sc.phi_of_values(m).tolist() == [12, 11, 10, 9, 2, 1]
    runs = [(1, 1, 1, 1), (1, 1, 1, 0), (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1), (0, 0, 0, 1),
            (0, 0, 0, 0)]
    assert sc.phi(runs).tolist() == [12, 11, 10, 9, 9, 2, 1]
    values, _ = sc.image_values()
    assert values[[11, 10, 9, 8, 1, 0]] == pytest.approx([3.1309, 2.6309, 2.5, 2.1309, 0.5, 0],
                                                         abs=1e-4)
    frame = figure_data(sc)
    assert frame.loc[8, "runs"] == "(0,1,1,1) (1,0,1,1)"  # φ = 9 is shared, as in Figure 2g


def test_tie_strategies_of_section_5():
    m = [0.00, 0.25, 0.40, 0.40, 0.70]
    assert rank_values(m).tolist() == [1, 2, 3, 3, 4]  # unq
    assert rank_values(m, "min").tolist() == [1, 2, 3, 3, 5]
    assert rank_values(m, "max").tolist() == [1, 2, 4, 4, 5]
    assert rank_values(m, "mid").tolist() == [1, 2, 3.5, 3.5, 5]


@pytest.mark.parametrize("N", [1, 4, 8, 12])
def test_rbp_half_phi_is_2N_m_plus_1(N):
    sc = scale("RBP_p05", N, progress=False)
    runs = all_runs(N)
    m = sc.values(runs)
    assert sc.n_distinct == 2**N
    assert sc.phi(runs).tolist() == np.rint(2**N * m + 1).astype(np.int64).tolist()
    assert np.allclose(2**N * m + 1, sc.phi(runs))


def test_rbp_half_phi_at_n30_and_n1000():
    rng = np.random.default_rng(3)
    runs = rng.integers(0, 2, size=(200, 30))
    sc = scale("RBP_p05", 30, progress=False)
    assert np.array_equal(sc.phi(runs), np.rint(2**30 * sc.values(runs) + 1))
    big = scale("RBP_p05", 1000, progress=False)
    run = rng.integers(0, 2, size=(5, 1000))
    expected = [int("".join(map(str, row)), 2) + 1 for row in run.tolist()]
    assert big.phi(run).tolist() == expected and big.n_distinct == 2**1000


@pytest.mark.parametrize("N", [1, 5, 10, 30, 1000])
def test_rr_phi_is_n_plus_2_minus_inverse(N):
    sc = scale("RR", N, progress=False)
    assert sc.n_distinct == N + 1
    runs = np.zeros((N + 1, N), dtype=np.int8)
    for f in range(1, N + 1):
        runs[f, f - 1] = 1
        runs[f, f:] = np.arange(N - f) % 2  # anything after the first relevant document
    m = sc.values(runs)
    phi = sc.phi(runs)
    assert phi[0] == 1 and m[0] == 0
    assert np.array_equal(phi[1:], np.rint(N + 2 - 1 / m[1:]).astype(np.int64))


def test_rr_clusters_below_0_2_as_in_section_7_1():
    # "the number of clusters is ... constant to 5 in [0.2, 1.0] ... in [0, 0.2) it
    # increases from 1 to 6, 16, and 26" for N = 5, 10, 20, 30
    for N, below in ((5, 1), (10, 6), (20, 16), (30, 26)):
        values, _ = scale("RR", N, progress=False).image_values()
        assert (values < 0.2 - 1e-12).sum() == below
        assert (values >= 0.2 - 1e-12).sum() == 5


def test_distinct_dcg_values_of_section_5_1():
    # "24 distinct values for N = 5, 768 for N = 10, 24,576 for N = 15"
    assert [scale("DCG_b02", n, progress=False).n_distinct for n in (5, 10, 15)] == \
        [24, 768, 24576]


def test_dcg_b10_counts_relevant_documents_up_to_rank_10():
    sc, p = scale("DCG_b10", 10, progress=False), scale("P", 10, progress=False)
    runs = all_runs(10)
    assert np.array_equal(sc.phi(runs), p.phi(runs)) and sc.n_distinct == 11


def test_rbp_03_and_05_share_their_ranked_version():
    runs = all_runs(10)
    assert np.array_equal(scale("RBP_p03", 10).phi(runs), scale("RBP_p05", 10).phi(runs))


@pytest.mark.parametrize("name", ["P", "R", "F", "RR", "RBP_p03", "RBP_p05", "SBTO", "RBTO"])
def test_closed_forms_for_n_1000(name):
    """N = 1000 (2^1000 runs) is computed by a closed form, never enumerated (its speed is
    measured by benchmarks/bench_scales.py, not asserted here: the machine may be busy)."""
    rng = np.random.default_rng(0)
    sc = scale(name, 1000, recall_base=300, progress=False)
    phi = sc.phi(rng.integers(0, 2, size=(100, 1000)))
    assert sc.algorithm.startswith("closed form") and sc.exactness == "exact"
    assert len(phi) == 100 and sc.n_distinct >= 1000


def test_sbto_counts_the_multisets_in_decreasing_order():
    # Ferrante et al. (2019), eq. 3 with r̂ sorted decreasingly: (1,1) ↦ 2 < (2,0) ↦ 3 for N = 2,
    # c = 2
    sc = scale("SBTO", 2, 3, progress=False)
    assert sc.values([[1, 1], [2, 0], [0, 2], [2, 2]]).tolist() == [2.0, 3.0, 3.0, 5.0]
    assert sc.n_distinct == 6
    assert scale("SBTO", 1000, 3, progress=False).n_distinct == 1002 * 1001 // 2


def test_unused_ranges_of_figure_2():
    # Ferro & Maistro (2024), §7.7: at N = 4, AP leaves a quarter of its range unused at the top, RR
    # half of it at the top, RBP_p03 about half in the middle
    ap = summarize(scale("AP", 4, progress=False), orders=False)
    assert ap.largest_gap == pytest.approx((0.75, 1.0)) and ap.largest_gap_fraction == 0.25
    rr = summarize(scale("RR", 4, progress=False), orders=False)
    assert rr.largest_gap == pytest.approx((0.5, 1.0))
    rbp = summarize(scale("RBP_p03", 4, progress=False), orders=False)
    low, high = rbp.largest_gap
    assert low < 0.5 < high and rbp.largest_gap_fraction > 0.4
    assert summarize(scale("P", 4), orders=False).equi_spaced
    assert summarize(scale("RBP_p05", 4), orders=False).equi_spaced
    assert not summarize(scale("RBP_p08", 4), orders=False).equi_spaced


@pytest.mark.parametrize("N", [4, 20])
def test_seed_003_scale_types(N):
    # P, R, F: interval w.r.t. SBTO; RBP p=1/2: interval w.r.t. RBTO; RBP p<1/2: ordinal
    # but not interval w.r.t. RBTO; RBP p>1/2, AP, DCG, RR: neither
    def props(name):
        return {k: v.value for k, v in summarize(scale(name, N, progress=False),
                                                 stream=False).orders.items()}

    assert props("P") == {"ordinal_sbto": True, "interval_sbto": True,
                          "ordinal_rbto": False, "interval_rbto": False}
    assert props("RBP_p05") == {"ordinal_sbto": False, "interval_sbto": False,
                                "ordinal_rbto": True, "interval_rbto": True}
    assert props("RBP_p03")["ordinal_rbto"] is True
    assert props("RBP_p03")["interval_rbto"] is False
    for name in ("RBP_p08", "AP", "DCG_b02", "RR"):
        assert set(props(name).values()) == {False}, name
