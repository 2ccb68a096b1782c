"""Relevance labels of any size cost what they should.

A qrels file with one label of 10,000,000 (or 2³¹, or 2⁶²) must not make memory grow with the
label: the context of a judged ranking counts documents per *distinct* judged degree, gains
are computed from the degrees themselves and trec_eval's ideal ranking is built without one
gain entry per level. Values stay bit-exact: the label is still the gain of ndcg.
"""

from __future__ import annotations

import math
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import _engine, evaluate
from irscale.core.judge import build_judged_rankings
from irscale.core.options import RankingOptions
from irscale.io.memory import qrels_from_dict, run_from_dict

from .property_examples import examples
from .trec_oracle import qrels_strategy, run_strategy

#: The families of all_trec that depend only on relevant / non-relevant at level 1 (and on
#: judged / unjudged): relabelling the positive degrees in order cannot change them.
BINARY = ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
          "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult",
          "utility", "11pt_avg", "binG", "map_cut", "relative_P", "success", "set_P",
          "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret")
#: Families whose values depend on the degrees themselves, evaluated for their memory.
GRADED = ("ndcg", "ndcg_cut", "Rndcg", "ndcg_rel", "G", "relstring", "nDCG(gain=linear)@5",
          "ERR", "nERR@5", "RBP", "gP", "gR", "Q", "Pplus", "SBTO@5", "RBTO(norm=1)@5")
BIG = {1: 10**7, 2: 10**7 + 1, 3: 2**31, 12: 2**62}
LIMIT = 50 * 2**20  # bytes: small inputs stay far below, whatever the labels


def same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype == object or b.dtype == object:
        return a.tolist() == b.tolist()
    return np.array_equal(a, b, equal_nan=True) and np.array_equal(
        np.signbit(a), np.signbit(b))


def relabel(qrels: dict, mapping: dict[int, int]) -> dict:
    return {t: {d: mapping.get(r, r) for d, r in docs.items()} for t, docs in qrels.items()}


def evaluate_quietly(qrels, run, measures, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unjudged topics; trec_eval's gain sort at 2^31
        return evaluate(qrels, run, measures, **options)


def peak_bytes(function) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module", autouse=True)
def warm_up():
    # imports and one-time caches are not the evaluation's memory
    evaluate_quietly({"q": {"a": 1, "b": 3}}, {"q": {"a": 1.0, "c": 2.0}}, BINARY + GRADED)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels_strategy(), run_strategy(), st.booleans(), st.sampled_from((None, 2, 5)))
def test_relabelling_positive_degrees_in_order_changes_no_binary_measure(
        qrels, run, judged_only, max_docs):
    if not set(qrels) & set(run):
        return
    options = {"judged_only": judged_only, "max_docs": max_docs, "allow_empty": True}
    plain = evaluate_quietly(qrels, run, BINARY, **options)
    big = relabel(qrels, BIG)
    relabelled = evaluate_quietly(big, run, BINARY, **options)
    assert plain.values.keys() == relabelled.values.keys()
    for label, values in plain.values.items():
        assert same(values, relabelled.values[label]), label
    for column, value in plain.summary(0):
        other = dict((c.label, v) for c, v in relabelled.summary(0))[column.label]
        assert value == other or (math.isnan(value) and math.isnan(other)), column.label
    # memory does not grow with the labels, graded families included
    peak = peak_bytes(lambda: evaluate_quietly(big, run, BINARY + GRADED, **options))
    assert peak < LIMIT, peak


def test_a_label_of_ten_million_or_two_to_the_62_costs_one_column():
    qrels = {f"t{i}": {f"d{j}": (j % 3) for j in range(40)} for i in range(30)}
    run = {f"t{i}": {f"d{j}": float(200 - j) for j in range(0, 80, 2)} for i in range(30)}
    for big in (10**7, 2**31, 2**62):
        qrels["t0"]["d0"] = big
        jr = build_judged_rankings(qrels_from_dict(qrels), [run_from_dict(run)])
        assert jr.rel_levels.shape == (30, 4)
        assert jr.column_degrees.tolist() == [0, 1, 2, big]
        peak = peak_bytes(lambda q=qrels: evaluate_quietly(q, run, ["all_trec", *GRADED]))
        assert peak < LIMIT, (big, peak)


def trec_ndcg(ranking: list[int], judged_degrees: list[int]) -> float:
    """trec_eval's ndcg for default gains (gain = degree; documents outside the qrels and
    negative degrees gain 0), its sums added in rank order as the C loops add them."""
    dcg = 0.0
    for i, degree in enumerate(ranking):
        if degree > 0:
            dcg += degree / math.log2(i + 2.0)
    ideal = 0.0
    for i, degree in enumerate(sorted((d for d in judged_degrees if d > 0), reverse=True)):
        ideal += degree / math.log2(i + 2.0)
    return dcg / ideal if ideal > 0 else 0.0


@pytest.mark.parametrize("big", [10**7, 2**31 - 1, 2**53, 2**62])
def test_ndcg_takes_huge_labels_as_gains_bit_for_bit(big):
    qrels = {"q": {"a": big, "b": 2, "c": 1, "d": 0, "e": big}, "r": {"a": 1, "f": 3}}
    run = {"q": {"b": 5.0, "x": 4.0, "a": 3.0, "c": 2.0, "d": 1.0},
           "r": {"f": 2.0, "a": 1.0}}
    ev = evaluate_quietly(qrels, run, ["ndcg"])
    expected = [trec_ndcg([qrels["q"].get(d, -1) for d in run["q"]], list(qrels["q"].values())),
                trec_ndcg([3, 1], [1, 3])]
    assert ev.values["ndcg"].tolist() == expected


def test_the_largest_label_has_levels_0_to_itself(tmp_path):
    """A label of 2^63 − 1 (the largest a qrels file may hold): trec_eval's table of levels
    0..2^63 − 1 has 2^63 entries, one more than int64 holds; ndcg, nDCG and rbp take it as
    they take 2^63 − 2 (before, the count wrapped to −2^63: an empty table, ndcg 0)."""
    big = 2**63 - 1
    (tmp_path / "q").write_text(f"q 0 a {big}\nq 0 b {big}\nq 0 c 1\nr 0 a 1\n")
    (tmp_path / "r").write_text("q Q0 c 1 3 x\nq Q0 a 2 2 x\nq Q0 b 3 1 x\nr Q0 a 1 1 x\n")
    measures = ["ndcg", "ndcg_cut.2", "nDCG", "rbp"]
    ev = evaluate_quietly(str(tmp_path / "q"), str(tmp_path / "r"), measures)
    expected = trec_ndcg([1, big, big], [big, big, 1])
    assert ev.values["ndcg"].tolist() == ev.values["nDCG"].tolist() == [expected, 1.0]
    assert 0 < ev.values["ndcg_cut_2"][0] < 1
    (tmp_path / "q").write_text(f"q 0 a {big - 1}\nq 0 b {big - 1}\nq 0 c 1\nr 0 a 1\n")
    below = evaluate_quietly(str(tmp_path / "q"), str(tmp_path / "r"), measures)
    for measure in ("ndcg_cut_2", "rbp"):
        assert ev.values[measure].tolist() == below.values[measure].tolist()


@pytest.mark.parametrize("big", [1030, 1100, 10**7, 2**62])
def test_nerr_beside_huge_labels_keeps_its_digits(big):
    """A topic of degrees 1 and 2 beside a label of 1100 or more: its probabilities
    (2^g − 1)/2^gmax are subnormal or 0, yet nERR is the ratio of its two ERRs, in which
    1 − R rounds to 1: (1/1 + 3/2) / (3/1 + 1/2) for the run ranking degree 1 above 2."""
    qrels = {"q": {"a": big, "b": 1}, "r": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "b": 1.0}, "r": {"a": 2.0, "b": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = evaluate(qrels, run, ["nERR", "nERR@1"])
    assert ev.values["nERR"].tolist() == [1.0, 2.5 / 3.5]
    assert ev.values["nERR@1"].tolist() == [1.0, 1 / 3]


def test_huge_labels_with_trec_evals_gain_sort_beyond_an_order_warn(recwarn):
    # gains 2^31 apart overflow trec_eval's comparator (int)(g1 - g2): the ideal ranking is
    # then sorted by true gain, with a warning saying trec_eval cannot be replayed
    qrels = {"q": {"a": 2**31, "b": 1}}
    run = {"q": {"b": 2.0, "a": 1.0}}
    ev = evaluate(qrels, run, ["ndcg"])
    assert ev.values["ndcg"].tolist() == [trec_ndcg([1, 2**31], [2**31, 1])]
    assert any("gain sort" in str(w.message) for w in recwarn)


# ====================================================================== both layouts agree
FAMILIES_EXACT = ("all_trec", "ndcg.1=3,2=9,4=4.5", "ndcg.0=-1,3=2", "Rndcg.2=0.5",
                  "ndcg_rel.1=2", "G.1=4", "nDCG(gain=exp)@5", "nDCG(gain=1:3:7:8)",
                  "ERR", "RBP(p=0.5)", "Q", "Rmeasure", "gP", "gR", "uM(pclick=0.5:0.4)@2",
                  "SBTO@4", "RBTO@4", "AP(norm=min)@3", "MP")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def _sparse(judge_columns):
    """The engine's ``judge_columns`` with the layout of one column per distinct judged
    degree of the qrels forced, as the engine lays out qrels with a large degree."""
    def sparse(*args):
        judged, rows = judge_columns(*args)
        rel, offsets, rel_levels, degrees, dense, judgments, *rest = judged
        if dense:
            keep = np.flatnonzero(judgments)
            keep = keep if len(keep) else np.zeros(1, dtype=np.int64)
            rel_levels, degrees, judgments = rel_levels[:, keep], degrees[keep], judgments[keep]
        return (rel, offsets, rel_levels, degrees, False, judgments, *rest), rows

    return sparse


@given(qrels_strategy(), run_strategy(), st.sampled_from((1, 2, 3)), st.booleans())
def test_one_column_per_distinct_degree_gives_the_dense_values(qrels, run, level, judged_only):
    """The layout with one column per distinct degree (used for large labels) gives every
    value of the plain one (column g = degree g) bit for bit."""
    if not set(qrels) & set(run):
        return
    qrels = relabel(qrels, {12: 4})  # degrees up to 4: gain lists and exp gains apply
    options = {"relevance_level": level, "judged_only": judged_only, "allow_empty": True}
    # Qrels and Run objects: their judged rankings pass through the layout the patch forces
    qrels, run = qrels_from_dict(qrels), run_from_dict(run)
    dense = evaluate_quietly(qrels, run, FAMILIES_EXACT, **options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_engine, "judge_columns", _sparse(_engine.judge_columns))
        sparse = evaluate_quietly(qrels, run, FAMILIES_EXACT, **options)
    assert sparse.rankings.degrees is not None
    for label, values in dense.values.items():
        assert same(values, sparse.values[label]), label
    # the forced layout really differs when a degree is missing, e.g. {0, 2}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_engine, "judge_columns", _sparse(_engine.judge_columns))
        jr = build_judged_rankings(qrels_from_dict({"q": {"a": 0, "b": 2}}),
                                   [run_from_dict({"q": {"a": 1.0}})], RankingOptions())
    assert jr.column_degrees.tolist() == [0, 2]
