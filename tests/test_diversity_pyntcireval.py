"""NTCIREVAL's D-measures against pyNTCIREVAL (a Python port of NTCIREVAL's ranked-list
measures), an oracle independent of irscale's code.

A D-measure is the graded measure computed with the global gain GG(d) = Σ_i Pr(i|q)·g_i(d)
in place of the per-level gain (Sakai & Song 2011; Sakai 2014, eqs. 27–31). pyNTCIREVAL's
measures take relevance *levels* with a gain per level, so each topic's distinct positive
global gains become its levels (in increasing order, the gain of level ℓ its ℓ-th smallest
GG): its MSnDCG@k (discount 1/log(r + 1)) is D-nDCG@k, QMeasure (β = 1) D-Q, nERR@k
D-nERR@k (ERR's probability GG/(max GG + 1)), PPlusMeasure D-P+; D♯ = γ·I-rec + (1 − γ)·D;
P+Q with every intent informational is Σ_i Pr(i|q)·Q_i, QMeasure on intent i's own levels.
"""

from __future__ import annotations

import numpy as np
import pytest

from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels, read_intent_probabilities
from irscale.io.trec import read_run

ntcir = pytest.importorskip("pyNTCIREVAL")
metrics = pytest.importorskip("pyNTCIREVAL.metrics")


def collection(seed: int, n_topics: int = 6):
    """Random diversity qrels (1–4 intents, levels 0–3, judged-0 rows), intent
    probabilities over every intent of a topic, and one run per topic (unjudged documents
    among the retrieved)."""
    rng = np.random.default_rng(seed)
    qrels, probs, run = [], [], []
    for t in range(1, n_topics + 1):
        n_intents = int(rng.integers(1, 5))
        weights = rng.random(n_intents) + 0.05
        weights /= weights.sum()
        for i in range(1, n_intents + 1):
            probs.append(f"{t} {i} {float(weights[i - 1])!r}")
            docs = rng.choice(15, size=int(rng.integers(1, 9)), replace=False)
            levels = rng.integers(0, 4, size=len(docs))
            levels[0] = max(levels[0], 1)  # NTCIREVAL: every intent has a relevant document
            qrels += [f"{t} {i} d{d} {level}" for d, level in zip(docs, levels, strict=True)]
        docs = rng.choice(20, size=int(rng.integers(3, 16)), replace=False)
        run += [f"{t} Q0 d{d} {r} {100 - r} sys" for r, d in enumerate(docs, 1)]
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(probs) + "\n").encode(), \
        ("\n".join(run) + "\n").encode()


def oracle(qrels: bytes, probs: bytes, run: bytes) -> dict[str, dict[str, float]]:
    """Per topic: D-nDCG@5, D-nDCG@10, D-Q, D-nERR@10, D-P+ by pyNTCIREVAL on GG levels."""
    pr = {}
    for t, i, p in (line.split() for line in probs.decode().splitlines()):
        pr[t, i] = float(p)
    gg: dict[str, dict[str, float]] = {}
    for t, i, d, level in (line.split() for line in qrels.decode().splitlines()):
        gg.setdefault(t, {})
        gg[t][d] = gg[t].get(d, 0.0) + pr[t, i] * int(level)
    per_intent: dict[tuple[str, str], dict[str, int]] = {}
    for t, i, d, level in (line.split() for line in qrels.decode().splitlines()):
        per_intent.setdefault((t, i), {})[d] = int(level)
    ranked: dict[str, list[str]] = {}
    for t, _, d, *_ in (line.split() for line in run.decode().splitlines()):
        ranked.setdefault(t, []).append(d)
    out = {}
    for t, gains in gg.items():
        values = sorted({g for g in gains.values() if g > 0})
        if not values:
            continue
        level = {d: (values.index(g) + 1 if g > 0 else 0) for d, g in gains.items()}
        xrelnum = [sum(1 for v in level.values() if v == k) for k in range(len(values) + 1)]
        labeled = ntcir.Labeler(level).label(ranked.get(t, []))
        out[t] = {
            "D-nDCG@5": metrics.MSnDCG(xrelnum, values, cutoff=5).compute(labeled),
            "D-nDCG@10": metrics.MSnDCG(xrelnum, values, cutoff=10).compute(labeled),
            "D-Q": metrics.QMeasure(xrelnum, values, beta=1.0).compute(labeled),
            "D-nERR@10": metrics.nERR(xrelnum, values, cutoff=10).compute(labeled),
            "D-P+": metrics.PPlusMeasure(xrelnum, values, beta=1.0).compute(labeled),
            # every intent informational: P+Q = Σ_i Pr(i|q)·Q_i, Q_i on intent i's levels
            "P+Q": sum(pr[t, i] * intent_q(levels, ranked.get(t, []))
                       for (u, i), levels in per_intent.items() if u == t),
        }
    return out


def intent_q(levels: dict[str, int], ranked: list[str]) -> float:
    """Q-measure (β = 1) of one intent, its relevance levels as gains (1, 2, 3)."""
    xrelnum = [sum(1 for v in levels.values() if v == k) for k in range(4)]
    return metrics.QMeasure(xrelnum, [1, 2, 3], beta=1.0).compute(
        ntcir.Labeler(levels).label(ranked))


@pytest.mark.parametrize("seed", range(40))
def test_d_measures_equal_pyntcireval(seed):
    qrels, probs, run = collection(seed)
    expected = oracle(qrels, probs, run)
    names = ["D-nDCG@5", "D-nDCG@10", "D-Q", "D-nERR@10", "D-P+", "P+Q", "I-rec@10",
             "D#-nDCG@10"]
    ev = evaluate_diversity(read_diversity_qrels(qrels), read_run(run, keep_rank=True),
                            names, intent_probabilities=read_intent_probabilities(probs))
    topics = [str(t) for t in ev.rows.topic_labels]
    assert set(expected) <= set(topics)
    for row, topic in enumerate(topics):
        if topic not in expected:
            continue
        for name, value in expected[topic].items():
            assert ev.values[name][row] == pytest.approx(value, rel=1e-12, abs=1e-15), \
                (seed, topic, name)
        sharp = 0.5 * ev.values["I-rec@10"][row] + 0.5 * ev.values["D-nDCG@10"][row]
        assert ev.values["D#-nDCG@10"][row] == pytest.approx(sharp, rel=1e-12)
