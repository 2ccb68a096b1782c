"""AP's φ by counting (integer meet in the middle over the prefix count,
streamed de-duplication in the native engine) against an exact brute force written here.

The oracle scores every binary run with exact rationals (``fractions.Fraction``, AP as Ferrante et
al. 2021 write it: ``AP = (1/RB) Σ_{r relevant} (#relevant ≤ r)/r``) for N ≤ 10, and with integers
``S·lcm(1..N)`` computed rank by rank for N ≤ 16 (the two agree where both run); distinct values are
grouped exactly, never by a float tolerance. The engine's stream is forced into many small buckets
so that its bucket edges, the de-duplication across them and values beyond the last edge are
exercised at these sizes (at the default size one bucket holds every N ≤ 21)."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core.pair_kernels import CLASS_BUCKETS, int_pair_classes, int_pair_scan
from irscale.scales import clear_cache, pairs, scale
from irscale.scales.average_precision import ap_image
from irscale.scales.cost import estimate
from irscale.scales.enumeration import runs_from_index
from irscale.scales.measures import scale_measure
from irscale.scales.space import Space

from .property_examples import examples


def all_binary_runs(N: int) -> np.ndarray:
    """Every binary run of length N, written out independently of the engine."""
    index = np.arange(1 << N)
    return ((index[:, None] >> np.arange(N - 1, -1, -1)[None, :]) & 1).astype(np.int8)


def ap_sum_fraction(run) -> Fraction:
    """S = Σ over relevant ranks r of (relevant documents at ranks ≤ r) / r, exactly."""
    total, seen = Fraction(0), 0
    for rank, rel in enumerate(run, start=1):
        if rel:
            seen += 1
            total += Fraction(seen, rank)
    return total


@lru_cache(maxsize=32)
def ap_sum_keys(N: int) -> np.ndarray:
    """S·lcm(1..N) of every binary run (exact integers), one rank at a time."""
    L = math.lcm(*range(1, N + 1))
    runs = all_binary_runs(N).astype(np.int64)
    seen = np.zeros(len(runs), dtype=np.int64)
    key = np.zeros(len(runs), dtype=np.int64)
    for rank in range(1, N + 1):
        seen += runs[:, rank - 1]
        key += runs[:, rank - 1] * seen * (L // rank)
    return key


@pytest.fixture
def small_buckets(monkeypatch):
    """Stream AP's candidate pairs in buckets of 64 pairs (many edges at N ≥ 8)."""
    monkeypatch.setattr(pairs, "BUCKET_PAIRS", 64)
    clear_cache()
    yield
    clear_cache()


def test_integer_oracle_agrees_with_rationals():
    for N in range(1, 11):
        L = math.lcm(*range(1, N + 1))
        exact = [ap_sum_fraction(run) * L for run in all_binary_runs(N).tolist()]
        assert [int(x) for x in exact] == ap_sum_keys(N).tolist()
        assert all(x.denominator == 1 for x in exact)


def test_worked_example():
    # relevant at ranks 1, 3, 6 of 6, RB = 4: AP = (1/1 + 2/3 + 3/6) / 4 = 13/24
    sc = scale("AP", 6, 2, recall_base=4, progress=False)
    run = np.array([[1, 0, 1, 0, 0, 1]])
    assert sc.values(run)[0] == pytest.approx(13 / 24, abs=1e-15)
    keys = ap_sum_keys(6)
    own = ap_sum_keys(6)[int("101001", 2)]
    assert sc.phi(run)[0] == len(np.unique(keys[keys <= own]))


@pytest.mark.parametrize("N", range(1, 17))
def test_counted_phi_equals_exact_brute_force(N, small_buckets):
    keys = ap_sum_keys(N)
    distinct = np.unique(keys)
    sc = scale("AP", N, 2, recall_base=N, progress=False)
    assert sc.n_distinct == len(distinct)
    runs = all_binary_runs(N)
    pick = np.random.default_rng(N).permutation(len(runs))[:2000]
    expected = np.searchsorted(distinct, keys[pick], side="right")
    assert np.array_equal(np.asarray(sc.phi(runs[pick]), dtype=np.int64), expected)
    # the min / max tie strategies: runs strictly below, and at or below
    ordered = np.sort(keys)
    assert np.array_equal(np.asarray(sc.phi(runs[pick], "min"), dtype=np.int64),
                          np.searchsorted(ordered, keys[pick], side="left") + 1)
    assert np.array_equal(np.asarray(sc.phi(runs[pick], "max"), dtype=np.int64),
                          np.searchsorted(ordered, keys[pick], side="right"))


@pytest.mark.parametrize("N,rb,levels", [(8, 3, 2), (12, 5, 2), (14, 2, 2), (7, (2, 1), 3),
                                         (9, (1, 3), 3)])
def test_feasible_space_counts_the_runs_the_topic_allows(N, rb, levels, small_buckets):
    """At most RB relevant documents (three degrees: per degree, AP sees degree ≥ 1)."""
    sc = scale("AP", N, levels, recall_base=list(rb) if isinstance(rb, tuple) else rb,
               feasible=True, progress=False)
    runs = runs_from_index(np.arange(levels**N), N, levels)
    if isinstance(rb, tuple):
        allowed = np.all([(runs == d + 1).sum(axis=1) <= rb[d] for d in range(len(rb))],
                         axis=0)
    else:
        allowed = runs.sum(axis=1) <= rb
    binary = (runs[allowed] >= 1).astype(np.int64)
    index = binary @ (1 << np.arange(N - 1, -1, -1))
    keys = ap_sum_keys(N)[index]
    distinct = np.unique(keys)
    assert sc.n_distinct == len(distinct)
    assert sc.n_runs == int(allowed.sum())
    expected = np.searchsorted(distinct, keys, side="right")
    assert np.array_equal(np.asarray(sc.phi(runs[allowed]), dtype=np.int64), expected)


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_phi_of_values_at_between_and_outside_image_points(data):
    """φ(m) of measure values: an image point counts itself (phi_of_values' tolerance of
    1e-9 absorbs the rounding of S/RB; distinct AP values here are 1e-8 or more apart), a
    value between two points counts the lower one, values outside count nothing / all."""
    N = data.draw(st.integers(2, 14))
    rb = data.draw(st.integers(1, N + 3))
    distinct = np.unique(ap_sum_keys(N))
    L = math.lcm(*range(1, N + 1))
    k = data.draw(st.integers(0, len(distinct) - 1))
    t = data.draw(st.floats(0.1, 0.9))
    at = Fraction(int(distinct[k]), L * rb)
    nxt = Fraction(int(distinct[min(k + 1, len(distinct) - 1)]), L * rb)
    queries = np.array([float(at), float(at + (nxt - at) * Fraction(t)), -1.0, 2.0 * N,
                        0.0])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairs, "BUCKET_PAIRS", data.draw(st.sampled_from([32, 256, 1 << 22])))
        clear_cache()
        got = scale("AP", N, 2, recall_base=rb, progress=False).phi_of_values(queries)
        clear_cache()
    # value 0 (no relevant document) is the smallest image point
    assert got.tolist() == [k + 1, k + 1, 0, len(distinct), 1]


def test_values_above_the_image_count_it_all(small_buckets):
    sc = scale("AP", 12, 2, recall_base=12, progress=False)
    n = len(np.unique(ap_sum_keys(12)))
    assert sc.phi_of_values(np.array([1.0, 1.5, 100.0, -0.5, 0.0])).tolist() == \
        [n, n, n, 0, 1]


def ap_sum_keys_of_index(index: np.ndarray, N: int) -> np.ndarray:
    """S·lcm(1..N) of the runs numbered ``index`` (rank 1 the most significant bit),
    rank by rank from the bits, without a matrix of runs."""
    L = math.lcm(*range(1, N + 1))
    seen = np.zeros(len(index), dtype=np.int64)
    key = np.zeros(len(index), dtype=np.int64)
    for rank in range(1, N + 1):
        rel = (index >> (N - rank)) & 1
        seen += rel
        key += rel * seen * (L // rank)
    return key


@pytest.fixture(scope="module")
def ap_keys_22() -> tuple[np.ndarray, np.ndarray]:
    """The brute force at N = 22: every run's AP key and the distinct keys (computed once
    for both bucket sizes)."""
    keys = ap_sum_keys_of_index(np.arange(1 << 22, dtype=np.int64), 22)
    return keys, np.unique(keys)


@pytest.mark.parametrize("bucket_pairs", [1 << 16, 1 << 22])
def test_native_buckets_count_ap_exactly_at_n_22(bucket_pairs, ap_keys_22, monkeypatch):
    """The native engine's integer buckets (radix-sorted sub-buckets): AP's exact count at
    N = 22 (2,282,412 distinct values of 2^22 runs) and φ of runs against the brute force,
    with one bucket and with 64 of them."""
    N = 22
    keys, distinct = ap_keys_22
    assert len(distinct) == 2282412
    monkeypatch.setattr(pairs, "BUCKET_PAIRS", bucket_pairs)
    clear_cache()
    sc = scale("AP", N, progress=False)
    assert sc.n_distinct == len(distinct)
    index = np.random.default_rng(22).integers(0, 1 << N, 2000)
    expected = np.searchsorted(distinct, keys[index], side="right")
    assert np.array_equal(np.asarray(sc.phi(runs_from_index(index, N, 2)), dtype=np.int64),
                          expected)
    clear_cache()


@pytest.mark.parametrize("N", [12, 16, 20])
def test_native_residue_classes_count_ap_exactly(N):
    """The engine's pass by residue classes (``rust/src/scales/residues.rs``: AP's prefix
    values share a factor M, so a sum's residue is its suffix value's; a bitmap per class),
    over 40 buckets and over a slice of 12 of them, against the brute force: the distinct
    values of each bucket and the distinct values in range ≤ (< when strict) each query."""
    keys = ap_sum_keys_of_index(np.arange(1 << N, dtype=np.int64), N)
    distinct = np.unique(keys)
    table = ap_image(Space(N, 2), progress=False).table
    assert np.gcd.reduce(np.concatenate([g.a_val - table.min_raw for g in table.groups])) > 1
    edges = table.edges(max(1, table.n_pairs // 40))
    assert len(edges) > 9
    picked = distinct[np.random.default_rng(N).integers(0, len(distinct), 300)]
    queries = np.concatenate([picked, picked - 1, picked + 1, [distinct[0] - 7,
                              distinct[-1] + 7, np.iinfo(np.int64).min,
                              np.iinfo(np.int64).max]]).astype(np.int64)
    assert not int_pair_classes(table._int_groups, edges[:CLASS_BUCKETS])
    for cut in (edges, edges[5:18]):
        assert int_pair_classes(table._int_groups, cut)
        inside = distinct[(distinct >= cut[0]) & (distinct < cut[-1])]
        for strict in (False, True):
            sizes, answers = int_pair_scan(table._int_groups, cut, queries, strict)
            assert sizes.tolist() == np.diff(np.searchsorted(inside, cut)).tolist()
            side = "left" if strict else "right"
            assert answers.tolist() == np.searchsorted(inside, queries, side=side).tolist()


def test_estimate_and_explain_name_the_algorithm():
    cost = estimate(scale_measure("AP"), Space(30, 2))
    assert cost.algorithm == "meet in the middle over the prefix count, integer keys"
    assert "would count runs, not values" in cost.explain()
    assert "2^30 candidate pairs" in cost.explain()
    assert "residues" in cost.explain()  # counted by classes: seconds, not half a minute
    assert cost.seconds < 10 and cost.memory < 2 << 30
    assert "sorts and de-duplicates" in estimate(scale_measure("AP"), Space(20, 2)).explain()


@pytest.mark.parametrize("classes", [True, False])
def test_the_pass_is_one_call_by_classes_and_batches_otherwise(classes, small_buckets,
                                                                monkeypatch):
    """AP's pass over its buckets: one engine call where it counts by residue classes,
    else batches of SCAN_BATCH buckets (progress and ^C between them); the same distinct
    values either way, those of the brute force."""
    N = 12
    calls = []

    def scan(groups, edges, queries, strict):
        calls.append(len(edges) - 1)
        return int_pair_scan(groups, edges, queries, strict)

    monkeypatch.setattr(pairs, "int_pair_scan", scan)
    if not classes:
        monkeypatch.setattr(pairs, "int_pair_classes", lambda groups, edges: False)
    sc = scale("AP", N, 2, recall_base=N, progress=False)
    assert sc.n_distinct == len(np.unique(ap_sum_keys(N)))
    n_buckets = sum(calls)
    assert n_buckets > pairs.SCAN_BATCH  # two batches or more
    expected = [n_buckets] if classes else \
        [min(pairs.SCAN_BATCH, n_buckets - k) for k in range(0, n_buckets, pairs.SCAN_BATCH)]
    assert calls == expected
