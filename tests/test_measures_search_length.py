"""NCG (the name of NSR), expected search length ESL and its time reading EST, against
oracles written independently of the kernels: pytrec_eval's relative_P (binary NCG@k),
Järvelin & Kekäläinen's cumulated gain vectors computed by a loop (graded NCG@k), and
Cooper's (1968) search length brute-forced over every order of the documents not
retrieved (ESL), with worked examples computed by hand in the comments."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import MeasureError

from .measures_helpers import batch, measure
from .property_examples import examples

SETTINGS = settings(max_examples=examples(50), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def one(name: str, ranking: list[int], levels: list[int]) -> float:
    return float(measure(name, batch([ranking], [levels]))[0])


# ====================================================================== NCG
@st.composite
def collections(draw, graded: bool):
    """Qrels and a run as pytrec_eval dicts: 1–3 topics, up to 10 judged documents each,
    up to 12 retrieved (some not judged), distinct scores (no tie policy involved)."""
    qrels, run = {}, {}
    for t in range(draw(st.integers(1, 3))):
        judged = draw(st.lists(st.integers(0, 3 if graded else 1), min_size=1, max_size=10))
        qrels[f"q{t}"] = {f"d{i}": g for i, g in enumerate(judged)}
        docs = draw(st.lists(st.integers(0, 14), min_size=1, max_size=12, unique=True))
        run[f"q{t}"] = {f"d{d}": float(100 - rank) for rank, d in enumerate(docs)}
    return qrels, run


def _cumulated_gain_ratio(qrels: dict[str, int], run: dict[str, float], k: int) -> float:
    """Järvelin & Kekäläinen (2002): CG[k] of the run over CG[k] of the ideal vector (the
    judged gains sorted decreasingly), gains = relevance degrees, 0 when the ideal is 0."""
    ranked = sorted(run, key=lambda d: -run[d])
    gains = [max(qrels.get(d, 0), 0) for d in ranked]
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)
    cg = sum(gains[:k])
    icg = sum(ideal[:k])
    return cg / icg if icg else 0.0


@SETTINGS
@given(collections(graded=False), st.sampled_from([1, 3, 5, 10, 20]))
def test_binary_ncg_is_trec_eval_relative_precision(data, k):
    """With binary judgments NCG@k = |relevant in top k| / min(k, R): trec_eval's
    relative_P (pytrec_eval, trec_eval 9.0.8)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = data
    got = evaluate(qrels, run, [f"NCG@{k}"]).values[f"NCG@{k}"]
    ref = pytrec_eval.RelevanceEvaluator(qrels, {f"relative_P.{k}"}).evaluate(run)
    topics = sorted(ref)
    expected = [ref[t][f"relative_P_{k}"] for t in topics]
    assert list(got) == pytest.approx(expected, abs=1e-12)


@SETTINGS
@given(collections(graded=True), st.sampled_from([1, 2, 5, 10, 100]))
def test_graded_ncg_is_the_cumulated_gain_ratio(data, k):
    qrels, run = data
    got = evaluate(qrels, run, [f"NCG@{k}"]).values[f"NCG@{k}"]
    topics = sorted(t for t in run if t in qrels)
    expected = [_cumulated_gain_ratio(qrels[t], run[t], k) for t in topics]
    assert list(got) == pytest.approx(expected, abs=1e-12)


def test_ncg_worked_example_and_name():
    # degrees [0, 2, -] (the third not judged) of a topic judged 2, 1, 3: CG@2 = 2, the
    # ideal [3, 2, 1] gives 5: NCG@2 = 0.4; exp gains (0, 3, 0) over (7, 3, 1): 3/11
    ranking, levels = [0, 2, -1], [1, 1, 1, 1]
    assert one("NCG@2", ranking, levels) == pytest.approx(0.4)
    assert one("NCG(gain=exp)@3", ranking, levels) == pytest.approx(3 / 11)
    assert one("NCG", ranking, levels) == pytest.approx(2 / 6)  # l = n = 3


# ====================================================================== ESL, EST
def _cooper(ranking: list[int], levels: list[int], k: int, collection: int | None) -> Fraction:
    """Cooper's search length by brute force: the ranking, then every order of the
    documents not retrieved (u relevant, N − n − u not), equally likely; the mean number of
    non-relevant documents read before the min(k, R)-th relevant one."""
    big_r = sum(levels[1:])
    wanted = min(k, big_r)
    if wanted == 0:
        return Fraction(0)
    relevant = [v >= 1 for v in ranking]
    found = sum(relevant)
    prefix_nonrel = 0
    seen = 0
    for flag in relevant:
        seen += flag
        if seen == wanted:
            return Fraction(prefix_nonrel)
        prefix_nonrel += not flag
    assert collection is not None
    missing = big_r - found
    rest = [True] * missing + [False] * (collection - len(ranking) - missing)
    lengths = []
    for order in set(itertools.permutations(rest)):
        count, need = 0, wanted - found
        for flag in order:
            if flag:
                need -= 1
                if need == 0:
                    break
            else:
                count += 1
        lengths.append(count)
    return prefix_nonrel + Fraction(sum(lengths), len(lengths))


@st.composite
def small_topics(draw):
    ranking = draw(st.lists(st.integers(-2, 2), max_size=6))
    levels = [sum(1 for v in ranking if v == g) + draw(st.integers(0, 2)) for g in range(3)]
    return ranking, levels


@SETTINGS
@given(small_topics(), st.integers(1, 4), st.integers(0, 4))
def test_esl_matches_coopers_definition_by_brute_force(topic, k, spare):
    ranking, levels = topic
    missing = sum(levels[1:]) - sum(1 for v in ranking if v >= 1)
    collection = max(1, len(ranking) + missing + spare)  # spare: non-relevant unretrieved
    name = f"ESL(k={k},collection={collection})"
    expected = _cooper(ranking, levels, k, collection)
    assert one(name, ranking, levels) == pytest.approx(float(expected), abs=1e-12)
    wanted = min(k, sum(levels[1:]))
    time = one(f"EST(k={k},collection={collection},t_rel=2.5,t_nonrel=0.5)", ranking, levels)
    assert time == pytest.approx(2.5 * wanted + 0.5 * float(expected), abs=1e-12)


def test_esl_worked_examples():
    # ranking N R N N R (R = 2): one non-relevant before the first relevant, three before
    # the second
    ranking, levels = [0, 1, -1, 0, 2], [2, 1, 1]
    assert one("ESL", ranking, levels) == 1.0
    assert one("ESL(k=2)", ranking, levels) == 3.0
    assert one("ESL(k=5)", ranking, levels) == 3.0  # the topic has only R = 2
    assert one("EST(k=2)", ranking, levels) == 5.0  # 5 documents read
    # one relevant document not retrieved among 4 unretrieved: 3 non-relevant, R = 3, two
    # found; the third is on average after 3·1/2 of them: 3 + 1.5
    assert one("ESL(k=3,collection=9)", [0, 1, -1, 0, 2], [2, 1, 2]) == 4.5
    assert one("ESL", [], [3, 0, 0]) == 0.0  # nothing wanted


def test_esl_short_ranking_needs_the_collection():
    with pytest.raises(MeasureError, match=r"ESL.*1 of the 2 relevant.*collection=N"):
        one("ESL(k=2)", [1, 0], [1, 2])
    with pytest.raises(MeasureError, match="collection=2 is smaller"):
        one("ESL(k=2,collection=2)", [1, 0], [1, 2])  # 2 retrieved + 1 missing
