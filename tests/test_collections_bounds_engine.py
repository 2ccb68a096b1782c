"""The engine's chains of the bounds (rust/src/bounds/, through
irscale.collections.bounds_chains.Chains): at every completion of both families of every
ranking, each chain's value is pytrec_eval's on that completion (the first k or the last k
unjudged documents given the highest grade, the others the lowest), bit for bit where the
chain is exact (EXACT: the search takes its extremes as the bounds); and the completed
rankings the search evaluates are those completions."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.collections.bounds_chains import EXACT, Chains
from irscale.core.bounds_kernels import completed
from irscale.core.judged import NONPOOL
from irscale.evaluation import evaluate
from irscale.measures.names import parse_measures

#: Every family with a chain that pytrec_eval computes, with parameters.
MEASURES = ["map", "map_cut.3,10", "Rprec", "recall.5,20", "relative_P.5", "ndcg",
            "ndcg_cut.3,10", "bpref", "iprec_at_recall.0,0.05,0.1,0.25,0.5,0.7,0.9,1",
            "11pt_avg"]


def _case(seed: int):
    """Three topics of grades ``lowest..highest`` (-1: unjudged in the qrels), runs of 1-60
    documents with any share unjudged, in runs of alike documents often, relevant documents
    the runs miss; a level."""
    rng = np.random.default_rng(seed)
    lowest = int(rng.integers(-1, 1))
    highest = int(rng.integers(1, 4))
    qrels, run = {}, {}
    for topic in ("1", "2", "3"):
        n = int(rng.integers(1, 61))
        kinds = rng.integers(0, 3, n)  # 0: unjudged, else judged
        if seed % 2:
            kinds = np.repeat(kinds[: n // 4 + 1], 4)[:n]
        qrels[topic] = {f"d{i}": int(rng.integers(lowest, highest + 1))
                        for i in range(n) if kinds[i]}
        qrels[topic].update({f"x{i}": highest for i in range(int(rng.integers(0, 3)))})
        run[topic] = {f"d{i}": float(n - i) for i in range(n)}
    return qrels, run, lowest, highest, int(rng.integers(1, 3))


@pytest.mark.parametrize("seed", range(25))
def test_chains_are_pytrec_evals_values_at_every_completion(seed):
    import pytrec_eval

    qrels, run, lowest, highest, level = _case(seed)
    view = evaluate(qrels, {"r": run}, ["map"], relevance_level=level).rankings
    chains = Chains(view, np.zeros(view.n_rankings, dtype=np.int64), lowest, highest)
    topics = list(view.topic_labels)
    for text in MEASURES:
        request = parse_measures([text])[0]
        found = chains.values(request, level)
        assert found is not None, text
        if not found:  # the completions do not change it
            assert not highest >= level > lowest
            continue
        for i, topic in enumerate(topics):
            unjudged = [d for d in run[topic] if d not in qrels[topic]]
            start = int(chains.start[i])
            for k in range(len(unjudged) + 1):
                for family, raised in ((0, unjudged[:k]), (1, unjudged[len(unjudged) - k:])):
                    completion = {**qrels[topic], **dict.fromkeys(unjudged, lowest),
                                  **dict.fromkeys(raised, highest)}
                    expected = pytrec_eval.RelevanceEvaluator(
                        {topic: completion}, {text}, relevance_level=level
                    ).evaluate({topic: run[topic]})[topic]
                    values = [expected[key] for key in sorted(expected, key=_order)]
                    assert len(values) == len(found), (text, expected)
                    for output, value in zip(found, values, strict=True):
                        chain = float(output[family][start + k])
                        if request.family in EXACT:
                            assert chain == value, (text, topic, family, k)
                        else:
                            assert chain == pytest.approx(value, rel=1e-12, abs=1e-12), \
                                (text, topic, family, k)


def _order(key: str) -> float:
    """pytrec_eval's output keys in the order of the request's parameters."""
    tail = key.rsplit("_", 1)[-1]
    try:
        return float(tail)
    except ValueError:
        return 0.0


@pytest.mark.parametrize("seed", range(10))
def test_completions_raise_the_first_or_the_last_unjudged_documents(seed):
    qrels, run, lowest, highest, _ = _case(seed)
    view = evaluate(qrels, {"r": run}, ["map"]).rankings
    u = np.bincount(view.segment[view.rel == NONPOOL], minlength=view.n_rankings)
    rng = np.random.default_rng(seed)
    ranking = rng.integers(0, view.n_rankings, 12)
    suffix = rng.integers(0, 2, 12).astype(bool)
    k = np.array([rng.integers(0, u[i] + 1) for i in ranking])
    rel, offsets = completed(view, ranking, suffix, k, (lowest, highest))
    code = {grade: grade if grade >= 0 else -2 for grade in (lowest, highest)}
    for j, (i, last, raised) in enumerate(zip(ranking, suffix, k, strict=True)):
        expected = view.rel[view.offsets[i]:view.offsets[i + 1]].copy()
        where = np.flatnonzero(expected == NONPOOL)
        high = where[len(where) - raised:] if last else where[:raised]
        expected[where] = code[lowest]
        expected[high] = code[highest]
        assert rel[offsets[j]:offsets[j + 1]].tolist() == expected.tolist()
