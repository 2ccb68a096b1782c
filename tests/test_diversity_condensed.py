"""Condensed-list diversity measures (``alpha-nDCG(condensed=1)@k`` ...): the value on a run
is ndeval's value (pyndeval) on the same run with its unjudged documents removed, and for
NTCIREVAL's family the plain measure on that run; a ranking without a judged document
keeps the plain value; refusals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from irscale.errors import MeasureError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run


def collection(seed: int):
    """qrels (some judgments negative: pooled, unjudged), and a run mixing judged and
    unjudged documents (x*: never judged)."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(1, 6):
        docs = [f"d{k}" for k in range(rng.integers(2, 10))]
        for s in range(1, rng.integers(2, 5) + 1):
            for d in rng.choice(docs, size=rng.integers(1, len(docs) + 1), replace=False):
                qrels.append((str(t), str(s), str(d), int(rng.choice([-1, 0, 1, 1, 2]))))
        pool = [*docs, *(f"x{k}" for k in range(5))]
        for rank, d in enumerate(rng.choice(pool, size=rng.integers(1, len(pool) + 1),
                                            replace=False), start=1):
            run.append((str(t), str(d), rank, float(100 - rank)))
    run += [("6", "x1", 1, 1.0)]  # a topic the qrels do not judge
    return qrels, run


def judged(qrels, run):
    seen = {(t, d) for t, _, d, j in qrels if j >= 0}
    kept, rank = [], {}
    for t, d, _, s in run:
        if (t, d) in seen:
            rank[t] = rank.get(t, 0) + 1
            kept.append((t, d, rank[t], s))
    return kept


def evaluate(qrels, run, names, **options):
    q = read_diversity_qrels("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode())
    r = read_run("".join(f"{t} Q0 {d} {k} {s} sys\n" for t, d, k, s in run).encode(),
                 keep_rank=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(q, r, names, **options)
    return {k: dict(zip(ev.rows.topic_labels, v.tolist(), strict=True))
            for k, v in ev.values.items()}


pyndeval = pytest.importorskip("pyndeval")

NDEVAL = ["alpha-nDCG@5", "alpha-nDCG@20", "ERR-IA@10", "nERR-IA@10", "NRBP", "MAP-IA",
          "P-IA@5", "strec@10"]


@pytest.mark.parametrize("seed", range(8))
def test_condensed_is_ndeval_on_the_judged_documents(seed):
    qrels, run = collection(seed)
    names = [n.replace("@", "(condensed=1)@") if "@" in n else f"{n}(condensed=1)"
             for n in NDEVAL]
    got = evaluate(qrels, run, names)
    ordered = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))
    kept = judged(qrels, run)
    want = pyndeval.RelevanceEvaluator(ordered, NDEVAL).evaluate(
        [(t, d, s) for t, d, _, s in kept])
    for name, column in zip(names, NDEVAL, strict=True):
        for topic, value in got[name].items():
            expected = want[topic][column] if topic in want else 0.0
            assert value == pytest.approx(expected, abs=1e-12), (name, topic)


@pytest.mark.parametrize("seed", range(4))
def test_ntcir_family_on_the_judged_documents(seed):
    qrels, run = collection(seed)
    plain = ["D#-nDCG@5", "D-Q@10", "I-rec@3", "nNRBP", "alpha-nDCG-w@5"]
    names = [n.replace("@", "(condensed=1)@") if "@" in n else f"{n}(condensed=1)"
             for n in plain]
    names[-1] = "alpha-nDCG-w(condensed=1)@5"
    got = evaluate(qrels, run, names)
    want = evaluate(qrels, judged(qrels, run), plain)
    for name, base in zip(names, plain, strict=True):
        for topic, value in got[name].items():
            expected = want[base].get(topic, 0.0)
            assert value == pytest.approx(expected, abs=1e-12, nan_ok=True), (name, topic)


def test_a_ranking_without_judged_documents_keeps_the_plain_value():
    qrels = [("1", "1", "d1", 1), ("2", "1", "d2", 1)]
    run = [("1", "x1", 1, 2.0), ("1", "x2", 2, 1.0), ("2", "x3", 1, 2.0), ("2", "d2", 2, 1.0)]
    got = evaluate(qrels, run, ["alpha-nDCG(condensed=1)@1", "alpha-nDCG(judged_only=1)@1",
                                "alpha-nDCG@1"])
    assert got["alpha-nDCG(condensed=1)@1"] == {"1": 0.0, "2": 1.0}
    assert got["alpha-nDCG(judged_only=1)@1"] == got["alpha-nDCG(condensed=1)@1"]
    assert got["alpha-nDCG@1"] == {"1": 0.0, "2": 0.0}


def test_refusals():
    qrels, run = [("1", "1", "d1", 1)], [("1", "d1", 1, 1.0)]
    with pytest.raises(MeasureError, match="condensed must be 1 or 0"):
        evaluate(qrels, run, ["alpha-nDCG(condensed=2)@5"])
    with pytest.raises(MeasureError, match="not one of ndeval's measures"):
        evaluate(qrels, run, ["alpha-nDCG(condensed=1)@5"], ndeval_ids=True)
