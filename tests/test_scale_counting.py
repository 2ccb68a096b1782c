"""Issue 18: φ by counting (meet in the middle) for the measures researchers report —
trec_eval's nDCG@k / ndcg (log2(r + 1) discount, gain = degree), DCG, RBP(p=0.8), gP —
equals brute-force enumeration of the kernel's values, binary and with three degrees;
the up-front cost estimate, --max-memory and --explain."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import ParameterError
from irscale.scales import clear_cache, scale
from irscale.scales.cost import estimate, parse_size
from irscale.scales.enumeration import runs_from_index
from irscale.scales.generic import EnumeratedImage
from irscale.scales.measures import scale_measure
from irscale.scales.scale import ScaledImage
from irscale.scales.space import Space, to_context


def names(N: int) -> list[str]:
    return [f"nDCG@{N}", "nDCG", f"ndcg_cut_{N}", "DCG", f"DCG@{N}", "RBP(p=0.8)", "gP",
            f"gP(gain=exp)@{N}", "nDCG(discount=log2)", "DCG_b02"]


def brute(name: str, N: int, levels: int, rb=None, feasible: bool = False):
    measure = scale_measure(name).for_length(N)
    space = Space(N, levels)
    context = to_context(rb, space)
    if feasible:
        space = Space(N, levels, context.bounds())
    return EnumeratedImage(measure, space, context, progress=False), space


def assert_counts(name: str, N: int, levels: int, rb=None, feasible: bool = False):
    reference, space = brute(name, N, levels, rb, feasible)
    fast = scale(name, N, levels, recall_base=rb, feasible=feasible, progress=False)
    assert fast.algorithm != "chunked enumeration", name
    runs = runs_from_index(np.arange(levels**N), N, levels)
    runs = runs[space.allows(runs)]
    assert fast.n_distinct == reference.n_distinct, (name, N, levels, rb, feasible)
    assert np.array_equal(np.asarray(fast.phi(runs), dtype=np.int64), reference.phi(runs))
    assert np.array_equal(np.asarray(fast.phi(runs, "max"), dtype=np.int64),
                          reference.runs_below(runs, False))
    kernel = fast.measure.kernel_values(runs, fast.context)
    assert np.allclose(fast.values(runs), kernel, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("levels,Ns", [(2, range(1, 13)), (3, range(1, 8))])
def test_counting_equals_enumeration(levels, Ns):
    for N in Ns:
        for name in names(N):
            assert_counts(name, N, levels)


@pytest.mark.parametrize("name", ["nDCG", "RBP(p=0.8)", "DCG_b02", "gP"])
def test_counting_recall_base_and_feasible_spaces(name):
    assert_counts(name, 6, 3, rb=[1, 2])
    assert_counts(name, 6, 3, rb=[1, 2], feasible=True)
    assert_counts(name, 7, 2, rb=3, feasible=True)


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


@settings(max_examples=40, deadline=None)
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


@settings(max_examples=40, deadline=None)
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
