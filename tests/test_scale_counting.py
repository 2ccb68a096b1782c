"""φ by counting (meet in the middle, closed forms, AP's integer keys) equals a
brute-force enumeration of the kernel's values over every run — for every supported measure
(the paper's and trec_eval's nDCG@k / ndcg, DCG, RBP, gP, P, R, F, RR, AP, SBTO, RBTO),
binary for N = 1..16 and with three degrees for N = 1..10 (N = 11..16 on demand: see
:data:`LENGTHS`), run by run (φ, the min/max tie strategies, ties), on recall-base and
feasible spaces, and for hypothesis-drawn values at, between and outside image points; the
up-front cost estimate, --max-memory and --explain."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core.budget import parse_size
from irscale.errors import ParameterError
from irscale.scales import clear_cache, scale
from irscale.scales.cost import estimate
from irscale.scales.enumeration import runs_from_index
from irscale.scales.generic import EnumeratedImage
from irscale.scales.measures import scale_measure
from irscale.scales.scale import ScaledImage
from irscale.scales.space import Space, to_context

from .property_examples import examples

#: Every measure with an exact algorithm (closed forms, meet in the middle, AP's integer
#: keys), in the paper's and trec_eval's spellings; ``{N}`` is the run length.
SUPPORTED = ("P", "R", "F", "RR", "AP", "RBP(p=0.8)", "RBP_p05", "RBP_p03", "DCG_b02",
             "DCG_b10", "DCG", "DCG@{N}", "nDCG", "nDCG@{N}", "ndcg_cut_{N}",
             "nDCG(discount=log2)", "gP", "gP(gain=exp)@{N}", "SBTO", "RBTO")
#: Run lengths checked run by run in the default suite: every N up to 2^16 runs (binary) and
#: 3^10 = 59,049 runs (three degrees), the largest spaces whose brute force stays within a
#: few seconds. Three degrees from N = 11 to :data:`SLOW_N3` (3^16 = 43M runs at N = 16)
#: are the ``slow`` test :func:`test_counting_equals_enumeration_three_degrees_slow`
#: (``IRSCALE_SLOW=1 pytest tests/test_scale_counting.py -m slow``; the brute force and
#: φ in chunks of :data:`CHUNK` runs, a few GB).
LENGTHS = {2: range(1, 17), 3: range(1, 11)}
#: The longest run length of the slow check of three degrees (``IRSCALE_CHECK_N3``).
SLOW_N3 = int(os.environ.get("IRSCALE_CHECK_N3", "16"))
#: Run lengths of the recall-base and feasible check (three degrees, binary); a longer one:
#: ``IRSCALE_CHECK_RB=14,16 pytest tests/test_scale_counting.py -k recall_base``.
RB_LENGTHS = tuple(int(n) for n in os.environ.get("IRSCALE_CHECK_RB", "7,12").split(","))
#: The brute force's grouping of float values: values closer than this fraction of the
#: largest magnitude are one value. Tied runs' float sums differ by a few ulps (≈ 1e-15 of
#: the largest); distinct values come much closer than 1e-9 in the large spaces: at N = 14
#: with three degrees, DCG's 3^14 runs take 2,893,401 distinct values (the count is the same
#: for every tolerance from 1e-11 to 1e-14; 1e-9 merges 256 of them), and RBP(p=0.8)'s
#: 3^N values are all distinct (with p = 4/5 the values times 5^(N−1) are
#: (1 − p)·g·Σ c_r·4^(r−1)·5^(N−r), c_r ∈ {0, 1, 2}, unique by their 5-adic digits) and differ
#: by at least (1 − p)·g·5^−(N−1) ≈ 3e-12 of the largest at N = 16 (g = 1/2, one degree).
TOLERANCE = 1e-13


#: Runs per call of the kernel and of φ: 3^16 = 43M runs of 16 documents at once would
#: need tens of GB of judged rankings; in chunks the oracle's memory is its own arrays'.
CHUNK = 1 << 20


def in_chunks(function, runs: np.ndarray) -> np.ndarray:
    """``function`` of ``runs`` (one value per run), computed ``CHUNK`` runs at a time."""
    return np.concatenate([np.asarray(function(runs[start:start + CHUNK]))
                           for start in range(0, len(runs), CHUNK)] or [np.zeros(0)])


@dataclass
class Brute:
    """Every run of a space scored by the measure's kernel; values closer than
    :data:`TOLERANCE` of the largest magnitude are one value (tied runs' float sums differ
    by a few ulps, distinct values of these spaces by more)."""

    runs: np.ndarray
    kernel: np.ndarray     # per run: the kernel's value
    values: np.ndarray     # the sorted distinct values
    counts: np.ndarray     # runs per distinct value
    phi: np.ndarray        # per run: 1 + the distinct values below its own
    below: np.ndarray      # per run: runs with a smaller value
    at_or_below: np.ndarray


@lru_cache(maxsize=64)
def brute(name: str, N: int, levels: int, rb: tuple[int, ...] | int | None = None,
          feasible: bool = False) -> tuple[Brute, object]:
    sc = scale(name, N, levels, recall_base=list(rb) if isinstance(rb, tuple) else rb,
               feasible=feasible, progress=False)
    runs = np.concatenate([chunk[sc.space.allows(chunk)] for chunk in (
        runs_from_index(np.arange(start, min(start + CHUNK, levels**N)), N, levels)
        for start in range(0, levels**N, CHUNK))])
    kernel = in_chunks(lambda part: sc.measure.kernel_values(part, sc.context), runs)
    order = np.argsort(kernel, kind="stable")
    ordered = kernel[order]
    tolerance = TOLERANCE * max(1.0, abs(ordered).max())
    new = np.concatenate(([True], np.diff(ordered) > tolerance))
    cluster = np.cumsum(new) - 1
    phi = np.empty(len(runs), dtype=np.int64)
    phi[order] = cluster + 1
    counts = np.bincount(cluster)
    cum = np.concatenate(([0], np.cumsum(counts)))
    return Brute(runs, kernel, ordered[new], counts, phi, cum[phi - 1], cum[phi]), sc


def assert_counts(name: str, N: int, levels: int, rb=None, feasible: bool = False,
                  sample: int = 600) -> None:
    """n_distinct, φ of every run, the min/max tie strategies of ``sample`` runs, φ of
    every image point (counted, not listed) and the values, against the brute force."""
    oracle, sc = brute(name, N, levels, rb, feasible)
    assert sc.algorithm != "chunked enumeration", name
    case = (name, N, levels, rb, feasible)
    assert sc.n_distinct == len(oracle.values), case
    assert np.array_equal(in_chunks(sc.phi, oracle.runs).astype(np.int64), oracle.phi), case
    pick = np.random.default_rng(N).permutation(len(oracle.runs))[:sample]
    assert np.array_equal(np.asarray(sc.phi(oracle.runs[pick], "min"), dtype=np.int64),
                          oracle.below[pick] + 1), case
    assert np.array_equal(np.asarray(sc.phi(oracle.runs[pick], "max"), dtype=np.int64),
                          oracle.at_or_below[pick]), case
    # φ of the image's own values, with phi_of_values' tolerance (values within it count
    # as equal; 1e-9 by default) set to the brute force's: RBP(p=0.8)'s image has points
    # 4.3e-10 apart at N = 13 with three degrees, which the default counts as one
    counted = in_chunks(lambda part: sc.phi_of_values(part, tol=TOLERANCE), oracle.values)
    assert np.array_equal(counted, np.arange(1, len(oracle.values) + 1)), case
    listed, runs_per_value = sc.image_values(limit=None)
    assert np.allclose(listed, oracle.values, rtol=1e-12, atol=1e-14), case
    assert np.array_equal(np.asarray(runs_per_value, dtype=np.int64), oracle.counts), case
    assert np.allclose(in_chunks(sc.values, oracle.runs), oracle.kernel, rtol=1e-12,
                       atol=1e-14), case


@pytest.mark.parametrize("levels", sorted(LENGTHS))
@pytest.mark.parametrize("name", SUPPORTED)
def test_counting_equals_enumeration(name, levels):
    """Every supported measure, every N (binary 1..16, three degrees 1..10)."""
    for N in LENGTHS[levels]:
        assert_counts(name.format(N=N), N, levels)
        brute.cache_clear()  # no later N reuses it; at N = 16 (three degrees) it is GBs


@pytest.mark.slow
@pytest.mark.parametrize("name", SUPPORTED)
def test_counting_equals_enumeration_three_degrees_slow(name):
    """Every supported measure with three degrees, N = 11 to :data:`SLOW_N3` (16: 3^16 runs),
    against the chunked brute force (opt-in: minutes per measure)."""
    for N in range(11, SLOW_N3 + 1):
        assert_counts(name.format(N=N), N, 3)
        brute.cache_clear()


@pytest.mark.parametrize("name", SUPPORTED)
def test_counting_recall_base_and_feasible_spaces(name):
    """A topic's recall base (R, F, AP, nDCG read it) on the whole space and on the runs
    it allows (feasible: at most RB_g documents of degree g)."""
    graded, binary = RB_LENGTHS
    for feasible in (False, True):
        assert_counts(name.format(N=graded), graded, 3, rb=(1, 2), feasible=feasible)
        brute.cache_clear()
        assert_counts(name.format(N=binary), binary, 2, rb=3, feasible=feasible)
        brute.cache_clear()


def test_ties_are_counted_once():
    # DCG_b02: ranks 1 and 2 have equal discounts, graded gains collide (2·1 = 1 + 1)
    for levels in (2, 3):
        sc = scale("DCG_b02", 9, levels, progress=False)
        assert sc.n_distinct < levels**9
        assert_counts("DCG_b02", 9, levels)


def test_trec_names_use_their_kernels_and_counting():
    sc = scale("nDCG@30", 30, 2, progress=False)
    assert sc.algorithm.startswith("meet in the middle") and sc.n_distinct == 2**30
    assert sc.measure.kernel == "nDCG@30"
    # trec_eval's ndcg: the ideal ranking is not cut at N (values differ, order the same)
    cut = scale("nDCG@4", 4, 2, recall_base=10, progress=False)
    whole = scale("nDCG", 4, 2, recall_base=10, progress=False)
    runs = runs_from_index(np.arange(16), 4, 2)
    assert np.array_equal(cut.phi(runs), whole.phi(runs))
    assert (whole.values(runs)[1:] < cut.values(runs)[1:]).all()
    assert np.allclose(whole.values(runs), whole.measure.kernel_values(runs, whole.context))


@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_count_of_values_between_and_at_image_points(data):
    name = data.draw(st.sampled_from(["nDCG", "RBP(p=0.8)", "DCG", "DCG_b02"]))
    levels = data.draw(st.sampled_from([2, 3]))
    sc = scale(name, 9 if levels == 2 else 6, levels, progress=False)
    image = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
    table = image.table
    bucket_values = np.concatenate([b.values for b in table.iter_buckets()])
    k = data.draw(st.integers(0, len(bucket_values) - 1))
    t = data.draw(st.floats(0, 1))
    nxt = bucket_values[min(k + 1, len(bucket_values) - 1)]
    queries = np.array([bucket_values[k], bucket_values[k] + t * (nxt - bucket_values[k]),
                        bucket_values[0] - 1.0, bucket_values[-1] + 1.0])
    expected = np.searchsorted(bucket_values, queries, side="right")
    assert np.array_equal(table.count(queries), expected)
    assert np.array_equal(table.count(queries, strict=True),
                          np.searchsorted(bucket_values, queries, side="left"))


def test_estimate_and_memory_limit():
    binary = estimate(scale_measure("nDCG@30"), Space(30, 2))
    assert binary.distinct == 2**30 and "meet in the middle" in binary.algorithm
    assert binary.memory < 2 * 2**30 and "because" in binary.explain()
    graded = estimate(scale_measure("nDCG@30"), Space(30, 3))
    assert graded.distinct == 69_195_236_437_845  # exact: the blocks' distinct values
    with pytest.raises(ParameterError, match="max_memory"):
        estimate(scale_measure("nDCG@30"), Space(30, 3), max_memory=1 << 30)
    with pytest.raises(ParameterError, match="estimate for nDCG@30"):
        scale("nDCG@30", 30, 3, max_memory="1G", progress=False)
    assert estimate(scale_measure("P"), Space(1000, 2)).seconds < 1
    assert estimate(scale_measure("ERR"), Space(20, 2)).algorithm == "chunked enumeration"


@pytest.mark.parametrize("text,value", [("2G", 2 << 30), ("500M", 500 << 20), ("64k", 65536),
                                        ("1.5GiB", 3 << 29), ("1000", 1000), (" 3 GB ", 3 << 30),
                                        (4096, 4096)])
def test_parse_size(text, value):
    assert parse_size(text) == value


@pytest.mark.parametrize("text", ["", "lots", "2X", "-1G", "0", "1e3", "G", True, 0, -5,
                                  float("nan")])
def test_parse_size_refuses(text):
    with pytest.raises(ParameterError, match="max_memory"):
        parse_size(text)


def test_explain_and_estimate_lines(capsys, monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clear_cache()
    scale("nDCG@12", 12, 2, progress=False, explain=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("irscale: explain: nDCG@12: meet in the middle")
    assert "because" in err[0]
    assert err[1].startswith("irscale: estimate for nDCG@12 on REL^12 (levels=2): 4,096 runs")
    scale("nDCG@12", 12, 2, progress=False)  # short work, no explain: silent
    assert capsys.readouterr().err == ""


def test_generic_enumeration_grows_linearly():
    """Item 4: merging each chunk's distinct values into the running array made the
    enumeration quadratic; it now merges geometrically (same image)."""
    import irscale.scales.generic as generic

    measure = scale_measure("ERR@12")
    space = Space(12, 2)
    context = to_context(None, space)
    one = EnumeratedImage(measure, space, context, progress=False)
    old = generic.CHUNK_RUNS
    try:
        generic.CHUNK_RUNS = 64
        many = EnumeratedImage(measure, space, context, progress=False)
    finally:
        generic.CHUNK_RUNS = old
    assert np.array_equal(one._values, many._values)
    assert np.array_equal(one._counts, many._counts)


@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_phi_of_values_counts_without_listing(data):
    """``Scale.phi_of_values`` counts (meet in the middle, integer keys) and agrees with
    the listed image, for values at, between and outside image points."""
    name = data.draw(st.sampled_from(["nDCG@8", "AP", "RBP(p=0.8)", "DCG_b02", "DCG"]))
    levels = data.draw(st.sampled_from([2, 3]))
    sc = scale(name, 8, levels, progress=False)
    listed, _ = sc.image_values()
    k = data.draw(st.integers(0, len(listed) - 1))
    t = data.draw(st.floats(0, 1))
    nxt = listed[min(k + 1, len(listed) - 1)]
    values = np.array([listed[k], listed[k] + t * (nxt - listed[k]), -1.0, listed[-1] + 1,
                       data.draw(st.floats(-0.5, float(listed[-1]) * 1.5))])
    upper = values + 1e-9 * np.maximum(1.0, np.abs(values))
    assert np.array_equal(sc.phi_of_values(values), np.searchsorted(listed, upper, "right"))


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_phi_of_values_at_and_between_image_points(data):
    """φ(m) of values m (counted: ``Scale.phi_of_values``) at image points, between two
    consecutive ones, outside the range and anywhere, against the brute force, for every
    supported measure on whole and feasible spaces (values within 1e-9 of a point are
    that point, as documented)."""
    name = data.draw(st.sampled_from(SUPPORTED))
    levels = data.draw(st.sampled_from([2, 3]))
    N = data.draw(st.sampled_from([1, 4, 9, 13, 16] if levels == 2 else [1, 3, 6, 9]))
    rb, feasible = data.draw(st.sampled_from([(None, False), (2, False), (2, True)]))
    if rb is not None and levels == 3:
        rb = (1, rb)
    oracle, sc = brute(name.format(N=N), N, levels, rb, feasible)
    points = oracle.values
    k = data.draw(st.integers(0, len(points) - 1))
    t = data.draw(st.floats(0, 1))
    following = points[min(k + 1, len(points) - 1)]
    values = np.array([points[k], points[k] + t * (following - points[k]),
                       (points[k] + following) / 2, points[0] - 1.0, points[-1] + 1.0,
                       data.draw(st.floats(float(points[0]) - 0.5,
                                           float(points[-1]) * 1.5 + 0.5))])
    upper = values + 1e-9 * np.maximum(1.0, np.abs(values))
    expected = np.searchsorted(points, upper, side="right")
    assert np.array_equal(sc.phi_of_values(values), expected), (name, N, levels, values)


def test_phi_of_values_streams_images_it_cannot_count(monkeypatch):
    """An image without a counting algorithm (closed forms such as RBTO, whose 3^16 values
    are more than any listing allows) is streamed in sorted chunks, never materialised."""
    from irscale.scales.image import Image

    def refuse(self, limit=None):
        raise AssertionError("phi_of_values materialised the image")

    monkeypatch.setattr(Image, "values", refuse)
    for name, N in (("RBTO", 6), ("SBTO", 6), ("P", 6), ("RR", 6)):
        oracle, sc = brute(name, N, 3)
        points = oracle.values
        queries = np.concatenate([points, (points[:-1] + points[1:]) / 2,
                                  [points[0] - 1, points[-1] + 1]])
        expected = np.searchsorted(points, queries + 1e-9 * np.maximum(1, abs(queries)),
                                   side="right")
        assert np.array_equal(sc.phi_of_values(queries), expected), name


@pytest.mark.parametrize("name,N,levels,rb", [("RBTO", 30, 3, None), ("RBP_p05", 40, 2, None),
                                              ("RBP(p=0.5)", 30, 3, None),
                                              ("RBP_p03", 20, 3, (3, 4))])
def test_phi_of_values_counts_closed_forms_at_any_size(name, N, levels, rb):
    """RBTO-ordered and dyadic images (3^30 and 2^40 values) count φ(m) rank by rank: the
    value of a run has the run's own φ, and a value just below it one less (the whole
    space and a feasible one)."""
    sc = scale(name, N, levels, recall_base=list(rb) if rb else None, feasible=rb is not None,
               progress=False)
    rng = np.random.default_rng(N)
    weights = np.array([8, 1, 1][:levels], dtype=float) if rb else np.ones(levels)
    runs = rng.choice(levels, (50, N), p=weights / weights.sum()).astype(np.int8)
    runs = runs[sc.space.allows(runs)]
    assert len(runs) > 5
    values = np.asarray(sc.values(runs))
    phi = np.asarray(sc.phi(runs), dtype=np.int64)
    assert np.array_equal(sc.phi_of_values(values, tol=1e-15), phi)
    # a quarter of the last rank's smallest step below: under the value, above the run
    # before it in value order (whose gap is larger), and far above the sums' rounding
    last = np.zeros((2, N), dtype=np.int8)
    last[1, -1] = 1
    step = np.diff(np.asarray(sc.values(last)))[0]
    assert np.array_equal(sc.phi_of_values(values - step / 4, tol=0.0), phi - 1)


@pytest.mark.parametrize("name", ["DCG", "RBTO", "P", "AP", "RBP(p=0.5)", "SBTO"])
def test_phi_of_values_of_infinities_and_nan(name):
    """φ(−∞) = 0 and φ(+∞) = |image| whatever the algorithm; NaN is refused by name;
    huge finite values count every point, tiny ones none."""
    sc = scale(name, 6, 3, progress=False)
    n = sc.n_distinct
    got = sc.phi_of_values([-np.inf, np.inf, -1e300, 1e300, 0.0])
    assert got[:4].tolist() == [0, n, 0, n] and 1 <= got[4] <= n
    with pytest.raises(ParameterError, match="value 1 is NaN"):
        sc.phi_of_values([0.1, np.nan])
    with pytest.raises(ParameterError, match="tol"):
        sc.phi_of_values([0.1], tol=float("nan"))


@pytest.mark.parametrize("runs,message", [
    ([[0, 1, 5, 0]], "lie in 0..2"), ([[-1, 0, 0, 0]], "lie in 0..2"),
    ([[0.5, 0, 0, 0]], "integers"), ([[np.nan, 0, 0, 0]], "integers"),
    ([["a", "b", "c", "d"]], "integers"), ([[0, 1, 0]], "rows of 4 degrees")])
def test_runs_that_are_not_degree_rows_are_refused(runs, message):
    """Degrees are integers of the space: 0.5 or NaN is refused, never truncated."""
    sc = scale("DCG", 4, 3, progress=False)
    with pytest.raises(ParameterError, match=message):
        sc.phi(runs)


def test_no_runs_give_empty_results():
    sc = scale("DCG", 4, 3, progress=False)
    assert len(sc.phi([])) == 0 and len(sc.values(np.zeros((0, 4)))) == 0
    assert np.array_equal(sc.phi([[1.0, 0, 2.0, 0]]), sc.phi([[1, 0, 2, 0]]))
