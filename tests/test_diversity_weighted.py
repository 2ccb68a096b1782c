"""alpha-nDCG-w and nERR-IA-w: intents weighted by Pr(i|q); topic_alpha=1: an α per topic.

* uniform probabilities (the default) equal ndeval's alpha-nDCG@k and nERR-IA@k, from
  pyndeval (ndeval's C code), on generated collections and several α;
* given probabilities against a hand-worked example and a plain per-topic implementation
  written here (greedy ideal included), on generated collections;
* the command line's ``--intent-probs``;
* one α for every topic given per topic equals ndeval's with that α (pyndeval); different
  α per topic against the per-topic implementation.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

from irscale.errors import InputFormatError, MeasureError, ParameterError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import (
    read_diversity_qrels,
    read_intent_probabilities,
    read_topic_alphas,
)
from irscale.io.trec import read_run


def collection(seed: int):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(1, 5):
        docs = [f"d{k}" for k in range(rng.integers(3, 12))]
        for s in range(1, rng.integers(2, 5) + 1):
            for d in rng.choice(docs, size=rng.integers(1, len(docs) + 1), replace=False):
                qrels.append((str(t), str(s), str(d), int(rng.choice([0, 1, 1, 2]))))
        pool = [*docs, "x1", "x2"]
        for rank, d in enumerate(rng.choice(pool, size=rng.integers(1, len(pool) + 1),
                                            replace=False), start=1):
            run.append((str(t), str(d), rank, float(100 - rank)))
    return qrels, run


def evaluate(qrels, run, names, probabilities=None):
    q = read_diversity_qrels("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode())
    r = read_run("".join(f"{t} Q0 {d} {k} {s} sys\n" for t, d, k, s in run).encode(),
                 keep_rank=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate_diversity(q, r, names, intent_probabilities=probabilities)


def plain(qrels, run, topic, probs, alpha, k, kind):
    """α-nDCG@k / nERR-IA@k of one topic with intent weights ``probs`` (intent → Pr),
    written from the definition: a greedy ideal over the topic's relevant documents."""
    rel = {}
    for t, s, d, j in qrels:
        if t == topic and j >= 1:
            rel.setdefault(d, set()).add(s)

    def disc(r):
        return math.log2(r + 1) if kind == "alpha-nDCG" else r

    def gain(doc, seen):
        return sum(probs[s] * (1 - alpha) ** seen.get(s, 0) for s in rel.get(doc, ()))

    def total(ranking):
        seen, out = {}, 0.0
        for r, doc in enumerate(ranking[:k], start=1):
            out += gain(doc, seen) / disc(r)
            for s in rel.get(doc, ()):
                seen[s] = seen.get(s, 0) + 1
        return out

    ideal, seen, left = [], {}, set(rel)
    while left:
        best = max(left, key=lambda d: (round(gain(d, seen), 12), d))
        ideal.append(best)
        left.discard(best)
        for s in rel[best]:
            seen[s] = seen.get(s, 0) + 1
    value = total([d for t, d, _, _ in sorted(run, key=lambda x: x[2]) if t == topic])
    return value / total(ideal) if value > 0 else 0.0


def test_hand_example():
    # intents 1 (Pr 0.8) and 2 (Pr 0.2); d1 ∈ 1, d2 ∈ 2, d3 ∈ 1 and 2; run d2, d1, d3
    qrels = [("1", "1", "d1", 1), ("1", "2", "d2", 1), ("1", "1", "d3", 1), ("1", "2", "d3", 1)]
    run = [("1", "d2", 1, 3.0), ("1", "d1", 2, 2.0), ("1", "d3", 3, 1.0)]
    probs = read_intent_probabilities(b"1 1 0.8\n1 2 0.2\n")
    got = evaluate(qrels, run, ["alpha-nDCG-w@3", "nERR-IA-w@3", "alpha-nDCG@3"],
                   probs).values
    # run gains: 0.2; 0.8; 0.8·0.5 + 0.2·0.5 = 0.5. Ideal: d3 (1.0), d1 (0.4), d2 (0.1)
    dcg = 0.2 + 0.8 / math.log2(3) + 0.5 / 2
    ideal = 1.0 + 0.4 / math.log2(3) + 0.1 / 2
    assert got["alpha-nDCG-w@3"][0] == pytest.approx(dcg / ideal, abs=1e-12)
    err = (0.2 + 0.8 / 2 + 0.5 / 3) / (1.0 + 0.4 / 2 + 0.1 / 3)
    assert got["nERR-IA-w@3"][0] == pytest.approx(err, abs=1e-12)
    # ndeval's equal weights: 1, 1, 1 against the ideal d3 (2), d2 (0.5), d1 (0.5)
    uniform = (1 + 1 / math.log2(3) + 1 / 2) / (2 + 0.5 / math.log2(3) + 0.5 / 2)
    assert got["alpha-nDCG@3"][0] == pytest.approx(uniform, abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_given_probabilities_against_the_definition(seed):
    qrels, run = collection(seed)
    rng = np.random.default_rng(100 + seed)
    lines, probs = [], {}
    for topic in sorted({t for t, *_ in qrels}, key=int):
        intents = sorted({s for t, s, _, j in qrels if t == topic and j >= 1}, key=int)
        if not intents:
            continue
        raw = rng.integers(1, 10, size=len(intents)).astype(float)
        p = raw / raw.sum()
        p[-1] = 1.0 - p[:-1].sum()
        probs[topic] = dict(zip(intents, p.tolist(), strict=True))
        lines += [f"{topic} {s} {v!r}" for s, v in probs[topic].items()]
    given = read_intent_probabilities(("\n".join(lines) + "\n").encode())
    for alpha in (0.0, 0.5, 0.8):
        for k in (1, 3, 10):
            names = [f"alpha-nDCG-w(alpha={alpha})@{k}",
                     f"nERR-IA-w(alpha={alpha})@{k}"]
            ev = evaluate(qrels, run, names, given)
            topics = list(ev.rows.topic_labels)
            for name, kind in zip(names, ("alpha-nDCG", "nERR-IA"), strict=True):
                want = [plain(qrels, run, t, probs.get(t, {}), alpha, k, kind) for t in topics]
                assert ev.values[name].tolist() == pytest.approx(want, abs=1e-12), name


pyndeval = pytest.importorskip("pyndeval")


@pytest.mark.parametrize("seed", range(8))
def test_uniform_probabilities_are_ndevals(seed):
    qrels, run = collection(seed)
    ordered = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))
    scored = [(t, d, s) for t, d, _, s in run]
    for alpha in (0.0, 0.3, 0.5, 1.0):
        columns = ["alpha-nDCG@5", "alpha-nDCG@20", "nERR-IA@5", "nERR-IA@20"]
        want = pyndeval.RelevanceEvaluator(ordered, columns, alpha=alpha).evaluate(scored)
        names = [c.replace("@", f"-w(alpha={alpha})@") for c in columns]
        ev = evaluate(qrels, run, names)
        topics = list(ev.rows.topic_labels)
        for name, column in zip(names, columns, strict=True):
            expected = [want[t][column] if t in want else 0.0 for t in topics]
            assert ev.values[name].tolist() == pytest.approx(expected, abs=1e-12), name


def test_command_line_intent_probs(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("1 1 d1 1\n1 2 d2 1\n1 1 d3 1\n1 2 d3 1\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 d2 1 3 r\n1 Q0 d1 2 2 r\n1 Q0 d3 3 1 r\n")
    probs = tmp_path / "probs"
    probs.write_text("1 1 0.8\n1 2 0.2\n")
    out = subprocess.run([sys.executable, "-m", "irscale", "eval", "-m",
                          "alpha-nDCG-w@3", "--intent-probs", str(probs), str(qrels),
                          str(run)], capture_output=True, text=True, check=True).stdout
    value = (0.2 + 0.8 / math.log2(3) + 0.25) / (1.0 + 0.4 / math.log2(3) + 0.05)
    assert out.split() == ["alpha-nDCG-w@3", "all", f"{value:.4f}"]


# ---------------------------------------------------------------- an α per topic
def test_one_alpha_for_every_topic_is_ndevals():
    qrels, run = collection(3)
    topics = sorted({t for t, *_ in qrels}, key=int)
    alphas = read_topic_alphas(("".join(f"{t} 0.3\n" for t in topics)).encode())
    ordered = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))
    want = pyndeval.RelevanceEvaluator(ordered, ["alpha-nDCG@10", "nERR-IA@10"],
                                       alpha=0.3).evaluate([(t, d, s) for t, d, _, s in run])
    q = read_diversity_qrels("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode())
    r = read_run("".join(f"{t} Q0 {d} {k} {s} sys\n" for t, d, k, s in run).encode(),
                 keep_rank=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(q, r, ["alpha-nDCG-w(topic_alpha=1)@10",
                                       "nERR-IA-w(topic_alpha=1)@10"], topic_alphas=alphas)
    for name, column in (("alpha-nDCG-w(topic_alpha=1)@10", "alpha-nDCG@10"),
                         ("nERR-IA-w(topic_alpha=1)@10", "nERR-IA@10")):
        expected = [want[t][column] if t in want else 0.0 for t in ev.rows.topic_labels]
        assert ev.values[name].tolist() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_alphas_per_topic_against_the_definition(seed):
    qrels, run = collection(seed)
    topics = sorted({t for t, *_ in qrels}, key=int)
    given = {t: a for t, a in zip(topics, (0.1, 0.9, 0.0, 1.0), strict=False)}
    alphas = read_topic_alphas("".join(f"{t} {a}\n" for t, a in given.items()).encode())
    q = read_diversity_qrels("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode())
    r = read_run("".join(f"{t} Q0 {d} {k} {s} sys\n" for t, d, k, s in run).encode(),
                 keep_rank=True)
    names = ["alpha-nDCG-w(alpha=0.4,topic_alpha=1)@5", "nERR-IA-w(alpha=0.4,topic_alpha=1)@5"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(q, r, names, topic_alphas=alphas)
    for name, kind in zip(names, ("alpha-nDCG", "nERR-IA"), strict=True):
        want = []
        for t in ev.rows.topic_labels:
            intents = {s for tt, s, _, j in qrels if tt == t and j >= 1}
            want.append(plain(qrels, run, t, dict.fromkeys(intents, 1.0),
                              given.get(t, 0.4), 5, kind))
        assert ev.values[name].tolist() == pytest.approx(want, abs=1e-12), name


def test_topic_alphas_refused_when_unread_or_unknown():
    q = read_diversity_qrels(b"1 1 d1 1\n")
    r = read_run(b"1 Q0 d1 1 1 r\n", keep_rank=True)
    with pytest.raises(ParameterError, match="no requested measure reads them"):
        evaluate_diversity(q, r, "alpha-nDCG@5", topic_alphas=b"1 0.3\n")
    with pytest.raises(InputFormatError, match=r"line 1.*topic 9 is not in"):
        evaluate_diversity(q, r, "alpha-nDCG-w(topic_alpha=1)@5", topic_alphas=b"9 0.3\n")
    with pytest.raises(MeasureError, match="--topic-alpha FILE"):
        evaluate_diversity(q, r, "alpha-nDCG-w(topic_alpha=1)@5")
