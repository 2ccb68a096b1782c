"""The completions the bounds search evaluates (irscale.collections.bounds_chains): the
bounds found from the chains' extremes equal those of the search over every completion
(the search without chains, the oracle here) on random cases and on hypothesis' topics,
and a deep ranking costs a number of evaluated lines linear in its depth."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale.collections.bounds as bounds
from irscale.collections import unjudged_bounds

from .property_examples import examples

#: Every family with a chain, and grade measures and counts beside them.
CHAINED = ["map", "map_cut.3,10,30", "Rprec", "recall.5,20", "relative_P.5", "ndcg",
           "ndcg_cut.3,10", "bpref", "iprec_at_recall", "iprec_at_recall.0.15,0.55",
           "11pt_avg", "11pt_avg.0.25,0.5,0.75", "AP11", "P.5", "recip_rank", "num_rel",
           "num_rel_ret", "num_ret"]


def _every_completion(monkeypatch: pytest.MonkeyPatch, *args, **kwargs) -> pd.DataFrame:
    """The per-topic bounds of the search over every completion (no chains)."""
    with monkeypatch.context() as patched:
        patched.setattr(bounds, "candidates", lambda *a, **k: None)
        return unjudged_bounds(*args, **kwargs).per_topic


def _assert_same(found: pd.DataFrame, expected: pd.DataFrame) -> None:
    """The same bounds: equal, but for ties of more than ``KEEP`` completions whose
    values the kernels round differently (a few ulps)."""
    pd.testing.assert_frame_equal(found.drop(columns=["low", "high"]),
                                  expected.drop(columns=["low", "high"]))
    for column in ("low", "high"):
        np.testing.assert_allclose(found[column], expected[column], rtol=0, atol=1e-14,
                                   err_msg=column)


def _case(seed: int, longest: int):
    """Three topics of grades ``lowest..highest`` (-1: unjudged in the qrels), a run of up to
    ``longest`` documents a topic, any share of them unjudged, ties often; a level."""
    rng = np.random.default_rng(seed)
    lowest = int(rng.integers(-1, 2))
    highest = int(rng.integers(max(lowest, 1), 4))
    qrels, run = {}, {}
    for topic in ("1", "2", "3"):
        n = int(rng.integers(1, longest))
        docs = [f"d{topic}_{i}" for i in range(n + 5)]
        unjudged = set(rng.choice(n, int(rng.integers(0, n + 1)), replace=False).tolist())
        qrels[topic] = {d: int(rng.integers(lowest, highest + 1))
                        for i, d in enumerate(docs) if i not in unjudged}
        qrels[topic][docs[-1]] = highest  # (and relevant documents the run misses)
        scores = rng.integers(0, 8, n) if seed % 2 else rng.permutation(n)
        run[topic] = {docs[i]: float(scores[i]) for i in range(n)}
    return qrels, {"r": run}, int(rng.integers(1, 3))


@pytest.mark.parametrize("seed", range(40))
def test_chains_give_the_bounds_of_every_completion(seed, monkeypatch):
    qrels, runs, level = _case(seed, 40 if seed % 4 else 150)
    found = unjudged_bounds(qrels, runs, CHAINED, relevance_level=level).per_topic
    _assert_same(found, _every_completion(monkeypatch, qrels, runs, CHAINED,
                                          relevance_level=level))


@st.composite
def _topic(draw):
    """One topic: grades ``lowest..highest``, a run of 1-12 documents, any of them
    unjudged, tied scores often, unretrieved relevant documents, a level of 1 or 2."""
    lowest = draw(st.integers(-1, 1))
    highest = draw(st.integers(max(lowest, 0), 3))
    n = draw(st.integers(1, 12))
    unjudged = draw(st.sets(st.integers(0, n - 1)))
    qrels = {f"d{i}": draw(st.integers(lowest, highest)) for i in range(n + 3)
             if i not in unjudged}
    qrels[f"d{n + 3}"] = highest
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return qrels, {f"d{i}": float(s) for i, s in enumerate(scores)}, draw(st.integers(1, 2))


#: 50 topics: the 40 seeded cases above (three topics each, runs up to 150 deep) check the
#: same equality on larger inputs; each example here runs the search over every completion
@settings(max_examples=examples(50), deadline=None)
@given(_topic())
def test_property_chains_give_the_bounds_of_every_completion(case):
    qrels, run, level = case
    with pytest.MonkeyPatch.context() as monkeypatch:
        args = ({"1": qrels}, {"r": {"1": run}}, CHAINED)
        _assert_same(unjudged_bounds(*args, relevance_level=level).per_topic,
                     _every_completion(monkeypatch, *args, relevance_level=level))


def _lines(n: int, measures: list[str]) -> int:
    """The ranking lines the search evaluates for a run of ``n`` documents a topic, all
    unjudged but every tenth (two topics)."""
    from irscale.collections.bounds_chains import candidates
    from irscale.evaluation import evaluate
    from irscale.evaluation.setup import evaluation_setup

    qrels = {t: {f"d{i}": i % 3 for i in range(0, n, 10)} for t in ("1", "2")}
    run = {t: {f"d{i}": float(n - i) for i in range(n)} for t in ("1", "2")}
    view = evaluate(qrels, {"r": run}, measures).rankings
    below = np.zeros(view.n_rankings, dtype=np.int64)
    search = bounds._Search(view, below, 0, 2, candidates(
        view, below, 0, 2, evaluation_setup(measures).requests, 1), 1 << 20,
        evaluation_setup(measures), measures)
    return search.lines_searched()


@pytest.mark.parametrize("measures", [["map"], ["map", "ndcg", "bpref", "Rprec"],
                                      ["map_cut.5,1000", "recall.100", "P.10"],
                                      ["iprec_at_recall", "11pt_avg", "AP11"]])
def test_a_deep_ranking_costs_lines_linear_in_its_depth(measures):
    """The lines evaluated grow as the depth, not as its square: ten times deeper, at most
    ten times more (every completion: a hundred times)."""
    shallow, deep = _lines(300, measures), _lines(3000, measures)
    assert deep <= 10 * shallow + 3000 * 40, (shallow, deep)
    assert deep < 3000 * 3000 / 10  # (every completion: 2 · 2,701 · 3,000 a topic)


def _interpolated_case(seed: int):
    """One topic of grades 0/1: a run of 5-60 documents, any share unjudged, in runs of
    alike documents often (many runs of relevant documents, or few), relevant documents
    the run misses; distinct scores."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 61))
    kinds = rng.choice(3, n, p=rng.dirichlet(np.ones(3)))  # 0: non-relevant, 1: relevant
    if seed % 2:  # runs of alike documents
        kinds = np.repeat(kinds[: n // 4 + 1], 4)[:n]
    qrels = {f"d{i}": int(kind) for i, kind in enumerate(kinds) if kind < 2}
    qrels.update({f"x{i}": 1 for i in range(int(rng.integers(0, 3)))})
    return qrels, {f"d{i}": float(n - i) for i in range(n)}


@pytest.mark.parametrize("seed", range(30))
def test_interpolated_chains_are_every_completions_values(seed):
    """The chains of iprec_at_recall give, at every k of both families, the value
    pytrec_eval computes on that completion (the first k or the last k unjudged documents
    relevant, the others not)."""
    import pytrec_eval

    from irscale.collections.bounds_chains import Chains, _interpolated
    from irscale.evaluation import evaluate
    from irscale.measures.names import parse_measures

    qrels, run = _interpolated_case(seed)
    view = evaluate({"1": qrels}, {"r": {"1": run}}, ["map"]).rankings
    chains = Chains(view, np.zeros(1, dtype=np.int64), 0, 1)
    levels = "iprec_at_recall.0,0.05,0.1,0.25,0.3,0.5,0.7,0.75,0.9,1"
    found = list(_interpolated(chains, parse_measures([levels])[0], 1) or ())
    unjudged = [d for d in run if d not in qrels]
    for k in range(len(unjudged) + 1):
        for family, raised in ((0, unjudged[:k]), (1, unjudged[len(unjudged) - k:])):
            completed = {**qrels, **dict.fromkeys(unjudged, 0), **dict.fromkeys(raised, 1)}
            expected = pytrec_eval.RelevanceEvaluator(
                {"1": completed}, {levels}).evaluate({"1": run})["1"]
            for t, level in enumerate(levels.split(".", 1)[1].split(",")):
                key = f"iprec_at_recall_{float(level):.2f}"
                assert found[t][family][k] == pytest.approx(expected[key], abs=1e-12), \
                    (k, family, key)
