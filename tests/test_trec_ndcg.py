"""trec_eval's gain-based measures: ndcg, ndcg_cut, Rndcg, ndcg_rel, binG, G (9.0.8) and
dcg, ideal_dcg, rbp, rbp_resid, unj (10.0).

* 9.0.8 families: differential tests against pytrec_eval-terrier (trec_eval 9.0.8 compiled
  in) on hypothesis-generated graded qrels and runs (ties, negative judgments, documents
  outside the qrels, topics missing on either side, -J, -l, gain maps with fractional,
  zero, negative gains and negative levels), and on the 16 real CLEF eHealth 2016 runs.
  The shared harness (tests/trec_oracle.py: -M, C-float score ties, byte-order docnos)
  covers default gains; gain maps use a local generator, since pytrec_eval's Python
  wrapper cannot pass them.
  pytrec_eval's Python wrapper only passes numeric parameters, so gain maps go through its
  extension module directly (a fresh evaluator per evaluation: trec_eval parses ``a=b``
  parameters in place, so an evaluator cannot evaluate them twice).
* 10.0 families: no trec_eval 10.0 reference is installed; hand-computed cases derived
  from the 10.0 source (m_rbp.c, m_rbp_resid.c, m_unjudged.c, m_ndcg.c).

Topics whose judgments are all negative are not generated: trec_eval 9.0.8 then reuses the
previous topic's relevance-level counts (stale static state, see measures/trec/gains.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale.core.judge import build_judged_rankings
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.options import RankingOptions
from irscale.errors import MeasureError
from irscale.io.memory import qrels_from_dict, run_from_dict
from irscale.measures.base import EvalContext, GainParams, get_family
from irscale.measures.trec_table import NICKNAMES10, TREC10_MEASURES, TREC_MEASURES

from .conftest import CLEF
from .oracles.gain_numpy import glibc_msort, trec_compare, trec_sort
from .property_examples import examples
from .trec_oracle import cases, compare, describe

pytrec_ext = pytest.importorskip("pytrec_eval_ext")

GAIN_FAMILIES = ("ndcg", "Rndcg", "ndcg_rel", "G")


# ----------------------------------------------------------------------------- helpers
def evaluate(family: str, jr: JudgedRankings, params_text: str = "",
             ctx: EvalContext | None = None) -> dict[str, np.ndarray]:
    spec = get_family(family)
    params = spec.params.parse(params_text, family) if params_text else None
    return spec.compute(jr, params, ctx)


def oracle(qrels: dict, run: dict, measures: set[str], level: int = 1,
           judged_only: bool = False) -> dict:
    evaluator = pytrec_ext.RelevanceEvaluator(qrels, measures, level, judged_only)
    return evaluator.evaluate(run)


def ours_by_topic(jr: JudgedRankings, values: np.ndarray) -> dict[str, float]:
    return dict(zip(jr.topic_labels.tolist(), values.tolist(), strict=True))


def assert_same(ours: dict[str, float], theirs: dict[str, float], what: str) -> None:
    """Per-topic equality. The values agree bit for bit on the development machine (sums
    are accumulated in trec_eval's order); the tolerance only allows for a numpy ``log2``
    that differs from the C library's in the last place on other platforms."""
    assert sorted(ours) == sorted(theirs), what
    topics = sorted(ours)
    np.testing.assert_allclose(
        [ours[t] for t in topics], [theirs[t] for t in topics],
        rtol=1e-12, atol=1e-15, equal_nan=True, err_msg=what,
    )


def gain_text(pairs: list[tuple[int, float]]) -> str:
    return ",".join(f"{level}={gain!r}" for level, gain in pairs)


def compare_all(qrels: dict, run: dict, gains: str, cutoffs: tuple[int, ...],
                level: int = 1, judged_only: bool = False) -> None:
    """Every 9.0.8 family of this module, ours vs pytrec_eval, per topic."""
    jr = build_judged_rankings(
        qrels_from_dict(qrels), [run_from_dict(run, name="r")],
        RankingOptions(relevance_level=level, judged_only=judged_only),
    )
    suffix = f".{gains}" if gains else ""
    measures = {f"{f}{suffix}" for f in GAIN_FAMILIES} | {"binG"}
    measures.add("ndcg_cut." + ",".join(str(k) for k in cutoffs))
    theirs = oracle(qrels, run, measures, level, judged_only)
    for family in (*GAIN_FAMILIES, "binG"):
        params = gains if family != "binG" else ""
        (name, values), = evaluate(family, jr, params).items()
        assert name == (f"{family}_{gains}" if params else family)
        reference = {t: m[family] for t, m in theirs.items()}
        assert_same(ours_by_topic(jr, values), reference, f"{family} {gains} {qrels} {run}")
    for name, values in evaluate("ndcg_cut", jr, ",".join(map(str, cutoffs))).items():
        reference = {t: m[name] for t, m in theirs.items()}
        assert_same(ours_by_topic(jr, values), reference, f"{name} {qrels} {run}")


# ----------------------------------------------------------------------------- strategies
DOCS = [f"d{i}" for i in range(8)]
TOPICS = ["t1", "t2", "t3", "t4"]


@st.composite
def qrels_and_run(draw):
    max_level = draw(st.integers(1, 4))
    levels = st.integers(-2, max_level)
    qrels = {}
    for topic in draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True)):
        judged = draw(st.dictionaries(st.sampled_from(DOCS), levels, min_size=1, max_size=8))
        if all(v < 0 for v in judged.values()):
            judged[draw(st.sampled_from(DOCS))] = draw(st.integers(0, max_level))
        qrels[topic] = judged
    run = {}
    for topic in draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from([*DOCS, "x1", "x2", "x3"]), min_size=1,
                             max_size=11, unique=True))
        run[topic] = {d: float(draw(st.integers(0, 3))) for d in docs}  # many ties
    if not set(qrels) & set(run):  # at least one evaluated topic
        topic = next(iter(qrels))
        run[topic] = {draw(st.sampled_from(DOCS)): 1.0}
    return qrels, run


gain_maps = st.lists(
    st.tuples(st.integers(-2, 4),
              st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0, -1.0, 0.5, 0.7, 1.5, 3.1, 0.25, -0.4])),
    max_size=4, unique_by=lambda pair: pair[0],
)
cutoff_sets = st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True).map(
    lambda ks: tuple(sorted(ks)))


# ----------------------------------------------------------------------------- 9.0.8
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=qrels_and_run(), cutoffs=cutoff_sets, level=st.integers(1, 3),
       judged_only=st.booleans())
def test_default_gains_match_pytrec_eval(data, cutoffs, level, judged_only):
    qrels, run = data
    compare_all(qrels, run, "", cutoffs, level, judged_only)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=qrels_and_run(), pairs=gain_maps.filter(bool), cutoffs=cutoff_sets)
def test_gain_maps_match_pytrec_eval(data, pairs, cutoffs):
    qrels, run = data
    compare_all(qrels, run, gain_text(pairs), cutoffs)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_shared_oracle_cases(case):
    qrels, run, options = case
    specs = ["ndcg", "ndcg_cut.1,3,10", "Rndcg", "ndcg_rel", "binG", "G"]
    problems = compare(qrels, run, specs, options, tol=1e-12)
    assert not problems, describe(qrels, run, options, problems)


def test_hand_case_discount_and_ideal():
    # ranking: x (not in qrels), d2 (1), d1 (2), d3 (0); judged: d4 = 3, d1 = 2, d2 = 1
    qrels = {"q": {"d1": 2, "d2": 1, "d3": 0, "d4": 3}}
    run = {"q": {"x": 4.0, "d2": 3.0, "d1": 2.0, "d3": 1.0}}
    jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run, name="r")])
    dcg = 1 / np.log2(3) + 2 / np.log2(4)
    ideal = 3 + 2 / np.log2(3) + 1 / np.log2(4)
    assert evaluate("ndcg", jr)["ndcg"][0] == pytest.approx(dcg / ideal, rel=1e-15)
    assert evaluate("ndcg_cut", jr, "2")["ndcg_cut_2"][0] == pytest.approx(
        (1 / np.log2(3)) / (3 + 2 / np.log2(3)), rel=1e-15)
    ctx10 = EvalContext(compat=10)
    assert evaluate("dcg", jr, ctx=ctx10)["dcg"][0] == pytest.approx(dcg, rel=1e-15)
    assert evaluate("ideal_dcg", jr, ctx=ctx10)["ideal_dcg"][0] == pytest.approx(ideal)
    compare_all(qrels, run, "", (1, 2, 3, 5))


def test_fractional_gain_quirk_is_reproduced():
    """Gains closer than 1 compare equal in trec_eval's qsort comparator: with
    ndcg.1=3.1,2=0.7 the level-0 entry stays above 0.7, so the ideal ranking stops after
    the gain-3.1 document and nDCG exceeds 1."""
    qrels = {"q": {"d1": 1, "d2": 2, "d3": 0}}
    run = {"q": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run, name="r")])
    value = evaluate("ndcg", jr, "1=3.1,2=0.7")["ndcg_1=3.1,2=0.7"][0]
    assert value == pytest.approx((3.1 + 0.7 / np.log2(3)) / 3.1, rel=1e-15)
    assert value > 1
    assert oracle(qrels, run, {"ndcg.1=3.1,2=0.7"})["q"]["ndcg"] == pytest.approx(value)
    # the comparator itself, and glibc's merge order for a non-transitive comparator
    assert trec_compare(0.9, 0.3) == 0 and trec_compare(1.5, 0.3) == 1
    assert trec_compare(3e9, 0.0) == -(2**31)  # int overflow, as x86-64
    # merge of [1.5] with [0.3, 0.9]: 1.5 > 0.3, then 1.5 "equals" 0.9 and is taken first
    assert trec_sort([(2, 1.5), (1, 0.3), (0, 0.9)]) == [(1, 0.3), (2, 1.5), (0, 0.9)]
    # ... so the "ideal" ranking puts the gain-0.9 level-0 documents above the 1.5 ones
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run, name="r")])
    value = evaluate("ndcg", jr, "2=1.5,1=0.3,0=0.9")["ndcg_2=1.5,1=0.3,0=0.9"][0]
    dcg = 1.5 + 0.3 / np.log2(3) + 0.9 / np.log2(4)
    assert value == pytest.approx(dcg / (0.9 + 1.5 / np.log2(3) + 0.3 / np.log2(4)))
    assert value > 1
    compare_all(qrels, run, "2=1.5,1=0.3,0=0.9", (1, 2))
    assert glibc_msort([3, 1, 2, 1], lambda a, b: a - b) == [1, 1, 2, 3]


def test_rndcg_extra_point_and_empty_ideal():
    # K = 2 ideal documents; a point at n only when K + 1 < n
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    for run in ({"q": {"a": 3.0, "c": 2.0, "b": 1.0}},               # n = K + 1
                {"q": {"a": 4.0, "c": 3.0, "x": 2.0, "b": 1.0}},     # n = K + 2
                {"q": {"x": 1.0}}):
        compare_all(qrels, run, "", (1, 3))
    # relevant documents but every gain ≤ 0: trec_eval divides 0 by 0 in Rndcg
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 2.0, "b": 1.0, "x": 0.0}}
    compare_all(qrels, run, "1=0", (2,))
    jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run, name="r")])
    assert np.isnan(evaluate("Rndcg", jr, "1=0")["Rndcg_1=0"][0])


def test_negative_levels_get_gains():
    qrels = {"q": {"a": 1, "b": -1}}
    run = {"q": {"x": 3.0, "b": 2.0, "a": 1.0}}
    compare_all(qrels, run, "-1=1", (1, 2))
    compare_all(qrels, run, "-2=2,-1=0.5,1=1", (2,))
    jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run, name="r")])
    assert jr.rel.tolist() == [NONPOOL, UNJUDGED, 1]
    assert evaluate("ndcg", jr, "-1=1")["ndcg_-1=1"][0] == pytest.approx(1 + 1 / np.log2(4))


def test_gain_parameters_parse_as_trec_eval_with_errors_for_nonsense():
    spec = get_family("ndcg").params
    parsed = spec.parse("2=9.0,1=3", "ndcg")
    assert parsed == GainParams(((2, 9.0), (1, 3.0)), "2=9.0,1=3")  # order kept
    assert spec.format(parsed) == "2=9.0,1=3"
    for bad in ("1=3,1=4", "x=2", "1", "1=abc", "p=0.5", "1=inf"):
        with pytest.raises(MeasureError):
            spec.parse(bad, "ndcg")
    assert get_family("ndcg_cut").params.parse("10,5", "ndcg_cut") == (5, 10)
    rbp = get_family("rbp").params.parse("p=0.8,2=1", "rbp")
    assert rbp.pairs == ((2, 1.0),) and rbp.extra == (("p", 0.8),)
    assert rbp.label("rbp") == "rbp_p=0.8,2=1" and GainParams().label("rbp") == "rbp"


@pytest.mark.parametrize("run_file", sorted(p.name for p in (CLEF / "runs").glob("*.txt"))
                         if CLEF.exists() else ["<no data>"])
def test_clef_runs_match_pytrec_eval(clef, run_file):
    import pytrec_eval

    from irscale.io.trec import read_qrels, read_run

    with open(clef / "task2.qrels") as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(clef / "runs" / run_file) as f:
        run = pytrec_eval.parse_run(f)
    jr = build_judged_rankings(read_qrels(clef / "task2.qrels"),
                               [read_run(clef / "runs" / run_file)])
    for gains in ("", "0=0,1=1,2=3"):
        suffix = f".{gains}" if gains else ""
        measures = {f"{f}{suffix}" for f in GAIN_FAMILIES} | {"binG", "ndcg_cut"}
        theirs = oracle(qrels, run, measures)
        for family in (*GAIN_FAMILIES, "binG", "ndcg_cut"):
            params = gains if family in GAIN_FAMILIES else ""
            for name, values in evaluate(family, jr, params).items():
                key = family if family in GAIN_FAMILIES else name
                reference = {t: m[key] for t, m in theirs.items()}
                assert_same(ours_by_topic(jr, values), reference, f"{run_file} {name}")


# ----------------------------------------------------------------------------- 10.0
def judged(rankings: list[list[int]], rel_levels: list[list[int]],
           topics: list[int] | None = None) -> JudgedRankings:
    """A batch built by hand: one ranking (relevance values) and level counts per topic."""
    lengths = [len(r) for r in rankings]
    return JudgedRankings(
        rel=np.array([v for r in rankings for v in r], dtype=np.int64),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        rel_levels=np.array(rel_levels, dtype=np.int64),
        ranking_topic=np.arange(len(rankings)) if topics is None else np.array(topics),
        ranking_run=np.zeros(len(rankings), dtype=np.int64),
        topics=tuple(f"t{i}" for i in range(len(rankings))),
        runs=("r",),
    )


CTX10 = EvalContext(compat=10)


def test_ideal_rankings_follow_level_counts_not_topic_ids():
    # synthetic batches may hold different level counts under one topic id
    rankings = [[2, 0, 1], [1, 2, 0], [0, 0, 2]]
    levels = [[1, 1, 1], [1, 2, 3], [5, 0, 1]]
    for family in ("ndcg", "Rndcg", "ndcg_rel", "G"):
        shared = evaluate(family, judged(rankings, levels, topics=[0, 0, 0]))[family]
        separate = evaluate(family, judged(rankings, levels))[family]
        np.testing.assert_array_equal(shared, separate)


def test_rbp_hand_cases_from_trec_eval_10_source():
    # topic judged 0/1/2: default gains 0, 1, 2 lie outside [0, 1] → normalised to 0, .5, 1
    # topic judged 0/1: gains 0, 1 kept
    jr = judged([[2, 0, NONPOOL, 1], [1, 1]], [[3, 2, 2], [1, 4, 0]])
    values = evaluate("rbp", jr, ctx=CTX10)["rbp"]
    np.testing.assert_allclose(values, [0.1 * (1 + 0.5 * 0.9**3), 0.1 * (1 + 0.9)],
                               rtol=1e-15)
    # p and a gain map: table 1→1, 2→3, 0→0 normalised by max 3
    jr = judged([[2, 1]], [[1, 1, 1]])
    value = evaluate("rbp", jr, "p=0.5,1=1,2=3", CTX10)["rbp_p=0.5,1=1,2=3"][0]
    assert value == pytest.approx(0.5 * (1 + 0.5 / 3), rel=1e-15)
    # a negative gain shifts level 0 up: table 1→-1, 0→0 becomes 1→0, 0→1
    jr = judged([[0, 1, NONPOOL]], [[1, 1]])
    assert evaluate("rbp", jr, "1=-1", CTX10)["rbp_1=-1"][0] == pytest.approx(0.1)
    with pytest.raises(MeasureError):
        evaluate("rbp", jr, "p=1.5", CTX10)


def test_rbp_resid_hand_cases():
    jr = judged([[1, NONPOOL, 0, UNJUDGED], [1, 0], []], [[1, 1], [1, 1], [1, 1]])
    values = evaluate("rbp_resid", jr, ctx=CTX10)["rbp_resid"]
    expected = 0.9**4 + 0.1 * (0.9 + 0.9**3)
    np.testing.assert_allclose(values, [expected, 0.0, 0.0], rtol=1e-15)  # judged only → 0
    value = evaluate("rbp_resid", jr, "p=0.5", CTX10)["rbp_resid_p=0.5"][0]
    assert value == pytest.approx(0.5**4 + 0.5 * (0.5 + 0.5**3), rel=1e-15)
    with pytest.raises(MeasureError):
        evaluate("rbp_resid", jr, "1=2", CTX10)


def test_unj_hand_cases():
    jr = judged([[NONPOOL, 1, UNJUDGED, 0, NONPOOL, NONPOOL, 2], []], [[1, 1, 1], [1, 1, 1]])
    out = evaluate("unj", jr, ctx=CTX10)
    np.testing.assert_allclose(out["unj_5"], [3 / 5, 0])
    np.testing.assert_allclose(out["unj_10"], [4 / 10, 0])
    np.testing.assert_allclose(out["unj_20"], [4 / 20, 0])
    assert list(evaluate("unj", jr, "2", CTX10)) == ["unj_2"]


def test_trec10_table():
    assert set(TREC10_MEASURES) - set(TREC_MEASURES) == {"dcg", "ideal_dcg", "rbp",
                                                         "rbp_resid", "unj"}
    assert TREC10_MEASURES[-3:] == ("rbp", "rbp_resid", "unj")
    all_trec = NICKNAMES10["all_trec"]
    assert {"rbp", "rbp_resid", "unj"} <= set(all_trec)
    assert "dcg" not in all_trec and "ideal_dcg" not in all_trec
    assert [m for m in TREC10_MEASURES if m in all_trec] == list(all_trec)
    for family in ("dcg", "ideal_dcg", "rbp", "rbp_resid", "unj"):
        get_family(family)
