"""The engine's binary-relevance trec_eval families against the numpy oracle, bit for bit.

The registered families (computed by rust/src/measures/) are compared with the numpy
kernels kept in :mod:`tests.oracles.trec_numpy` on hypothesis-generated batches — random
degrees with the sentinels NONPOOL (-1) and UNJUDGED (-2), empty rankings, topics with
R = 0, several degree columns with gaps between degrees, relevance levels from -2 to 3,
cut-offs, numeric parameters in any order, both compat profiles and ``-N`` — and on real
runs (CLEF eHealth 2016, skipped when ../shared/data is absent). Floats are compared by
their bits (NaN's sign included), counts must stay int64 and relstring text.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core.judge import build_judged_rankings
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.options import RankingOptions
from irscale.io.trec import read_qrels, read_run
from irscale.measures.base import REGISTRY, EvalContext, FloatList
from irscale.measures.params import Params
from irscale.measures.precision_recall import ap, ap11

from .conftest import CLEF, require
from .oracles import trec_numpy
from .oracles.trec_numpy import ORACLES
from .property_examples import examples

FAMILIES = sorted(ORACLES)
DEGREES = (0, 1, 2, 3, 7, 12)


def same(got: Any, expected: Any) -> bool:
    """Equal values of the same kind: floats bit for bit, int64 counts, text."""
    got, expected = np.asarray(got), np.asarray(expected)
    if got.dtype != expected.dtype or got.shape != expected.shape:
        return False
    if got.dtype == np.float64:
        return np.array_equal(got.view(np.int64), expected.view(np.int64))
    return bool(np.array_equal(got, expected))


def assert_same(got: dict[str, Any], expected: dict[str, Any], what: str) -> None:
    assert list(got) == list(expected), what
    for name in expected:
        assert same(got[name], expected[name]), (what, name, got[name], expected[name])


@st.composite
def batches(draw: st.DrawFn) -> JudgedRankings:
    degrees = draw(st.lists(st.sampled_from(DEGREES), min_size=1, max_size=4, unique=True))
    degrees.sort()
    n = draw(st.integers(0, 6))
    values = st.sampled_from((NONPOOL, NONPOOL, UNJUDGED, *degrees))
    rankings = [draw(st.lists(values, max_size=20)) for _ in range(n)]
    levels = np.array([draw(st.lists(st.integers(0, 9), min_size=len(degrees),
                                     max_size=len(degrees))) for _ in range(n)],
                      dtype=np.int64).reshape(n, len(degrees))
    rel = np.array([r for ranking in rankings for r in ranking], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum([len(r) for r in rankings]))).astype(np.int64)
    return JudgedRankings(
        rel=rel, offsets=offsets, rel_levels=levels,
        ranking_topic=np.arange(n), ranking_run=np.zeros(n, dtype=np.int64),
        topics=tuple(str(t) for t in range(n)), runs=("run",),
        relevance_level=draw(st.integers(-2, 3)), degrees=np.array(degrees, dtype=np.int64))


cutoffs = st.lists(st.integers(1, 16), min_size=1, max_size=5, unique=True).map(
    lambda ks: tuple(sorted(ks)))
multiples = st.lists(st.sampled_from((0.2, 0.33, 0.5, 0.8, 1.0, 1.5, 2.0, 3.7)), min_size=1,
                     max_size=4, unique=True).map(lambda xs: tuple(sorted(xs)))
recall_levels = st.lists(st.integers(0, 20).map(lambda t: t / 20), min_size=1, max_size=6)


def params_of(family: str) -> st.SearchStrategy[Any]:
    """Parameters as the catalogue parses them (cut-offs and sets sorted, lists as given)."""
    if family in ("P", "relative_P", "recall", "map_cut", "unj"):
        return cutoffs
    if family == "success":
        return cutoffs | st.just((1, 5, 10))
    if family == "Rprec_mult":
        return multiples
    if family == "iprec_at_recall":
        return recall_levels.map(lambda xs: tuple(sorted(set(xs))))
    if family == "11pt_avg":  # trec_eval keeps these in command-line order
        return recall_levels.map(lambda xs: FloatList(tuple(xs), ",".join(map(str, xs))))
    if family == "set_F":
        return st.sampled_from((0.0, 0.25, 1.0, 4.0)).map(lambda b: FloatList((b,), str(b)))
    if family == "utility":
        numbers = st.sampled_from((1.0, -1.0, 0.0, 0.5, 3.0, 1e308))
        return st.tuples(numbers, numbers, numbers, numbers).map(lambda c: FloatList(c, "u"))
    if family == "relstring":
        return st.integers(1, 20).map(lambda k: FloatList((float(k),), str(k)))
    return st.just(REGISTRY[family].params.default)


contexts = st.builds(EvalContext, compat=st.sampled_from((9, 10)),
                     num_docs_in_coll=st.sampled_from((0, 7, 1000, 2**63 - 1)))


def check(family: str, jr: JudgedRankings, params: Any, ctx: EvalContext) -> None:
    got = REGISTRY[family].compute(jr, params, ctx)
    with np.errstate(all="ignore"):  # the oracle divides by 0 where trec_eval does
        expected = ORACLES[family](jr, params, ctx)
    if REGISTRY[family].value_type == "float":
        # numpy's bincount of no weights is int64: the oracle's bpref and infAP are int64
        # zeros when no ranking of the batch retrieved a judged relevant document
        expected = {name: np.asarray(values, dtype=np.float64)
                    for name, values in expected.items()}
    assert_same(got, expected, f"{family} {params} level={jr.relevance_level} {ctx}")


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=examples(100))
@given(data=st.data(), jr=batches(), ctx=contexts)
def test_engine_equals_the_numpy_oracle(family, data, jr, ctx):
    check(family, jr, data.draw(params_of(family)), ctx)


def test_the_comparison_can_fail():
    """A value off by one bit, an int64 count as float64 or a NaN of the other sign differ."""
    x = np.array([0.1, np.nan])
    assert not same(np.array([np.nextafter(0.1, 1.0), np.nan]), x)
    assert not same(np.array([0.1, -np.nan]), np.array([0.1, np.copysign(np.nan, 1.0)]))
    assert not same(np.array([1.0]), np.array([1], dtype=np.int64))
    assert same(x.copy(), x)


def test_edge_values_of_trec_eval():
    """An empty ranking gives -nan (C's 0/0) for iprec at recall 0; a level of -1 lets a
    document outside the qrels pass (AP divides by R = 0: inf); counts stay int64."""
    jr = JudgedRankings(
        rel=np.array([NONPOOL], dtype=np.int64), offsets=np.array([0, 0, 1]),
        rel_levels=np.zeros((2, 1), dtype=np.int64), ranking_topic=np.arange(2),
        ranking_run=np.zeros(2, dtype=np.int64), topics=("1", "2"), runs=("r",),
        relevance_level=-1)
    iprec = REGISTRY["iprec_at_recall"].compute(jr, (0.0,))["iprec_at_recall_0.00"]
    assert np.isnan(iprec[0]) and np.signbit(iprec[0])
    assert REGISTRY["map"].compute(jr)["map"].tolist() == [0.0, float("inf")]
    assert REGISTRY["num_rel_ret"].compute(jr)["num_rel_ret"].dtype == np.int64
    strings = REGISTRY["relstring"].compute(jr)["relstring"]
    assert strings.dtype == object and strings.tolist() == ["", "-"]


@settings(max_examples=examples(80))
@given(jr=batches(), k=st.integers(1, 16), norm=st.sampled_from(("R", "min")))
def test_ap_and_ap11_on_the_engine_equal_the_oracle(jr, k, norm):
    """irscale's AP (trec_eval's sums, another divisor with norm=min) and AP11 (iprec at
    counts ⌈t·R/10⌉) build on the same engine families."""
    ctx = EvalContext()
    with np.errstate(all="ignore"):
        expected_full = trec_numpy.average_precision(jr)
        total = trec_numpy.ap_sum_at(jr, k)
        divisor = jr.num_rel if norm == "R" else np.minimum(k, jr.num_rel)
        expected_cut = np.zeros(jr.n_rankings)
        np.divide(total, divisor, out=expected_cut, where=divisor != 0)
        counts = (np.multiply.outer(jr.num_rel, np.arange(11)) + 9) // 10
        tenths = np.nan_to_num(trec_numpy.interpolated_precision(jr, counts), nan=0.0)
    full = ap(jr, Params((("norm", "R"), ("cutoff", None))), ctx)["AP"]
    cut = ap(jr, Params((("norm", norm), ("cutoff", k))), ctx)["AP"]
    assert same(full, expected_full)
    assert same(cut, expected_cut)
    assert same(ap11(jr, Params(()), ctx)["AP11"], tenths.sum(axis=1) / 11.0)


@pytest.fixture(scope="module")
def clef_batch() -> JudgedRankings:
    clef = require(CLEF)
    runs = sorted((clef / "runs").glob("*.txt"))[:4]
    qrels = read_qrels(clef / "task2.qrels")
    return build_judged_rankings(qrels, [read_run(path, name=path.stem) for path in runs],
                                 RankingOptions())


@pytest.mark.parametrize("level", [-1, 0, 1, 2, 3])
def test_real_runs_give_the_oracles_values(clef_batch, level):
    """Four CLEF eHealth 2016 runs (1,000 documents per topic, graded 0–2 qrels), every
    family with its default parameters, both profiles and -N."""
    jr = clef_batch.with_level(level)
    for family in FAMILIES:
        for ctx in (EvalContext(), EvalContext(compat=10, num_docs_in_coll=1_000_000)):
            check(family, jr, REGISTRY[family].params.default, ctx)
    for family, params in (("P", (1, 7, 2000)), ("Rprec_mult", (0.33, 2.5)),
                           ("11pt_avg", FloatList((1.0, 0.0, 0.5), "1,0,.5")),
                           ("utility", FloatList((2.0, -1.0, 0.5, 0.25), "2,-1,.5,.25")),
                           ("relstring", FloatList((1500.0,), "1500"))):
        check(family, jr, params, EvalContext(num_docs_in_coll=25_000))
