"""The gold-standard precisions of Sakai's concordance test: PMP@l and EP@l.

Oracles: examples worked by hand from the definitions (Sakai 2014, §3.1 (h), footnotes
12–13: "Only documents that are relevant to the intent with the highest intent probability
are considered relevant"; "Precision that ignores redundant relevant documents for
navigational intents", isnew_j(r) of eq. 32), and the catalogue's plain P@k (the main
engine's trec_eval precision) on qrels built here from the diversity qrels: EP = P of the
documents relevant to any intent when every intent is informational; PMP = P of the
documents relevant to an intent of highest probability (one intent: that intent's P).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.errors import MeasureError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import (
    read_diversity_qrels,
    read_intent_probabilities,
    read_intent_types,
)
from irscale.io.trec import read_run

from .property_examples import examples

# topic 1: intent 1 {d1, d2}, intent 2 {d2, d3, d4}, intent 3 {d5}; d6 judged non-relevant
QRELS = (b"1 1 d1 1\n1 1 d2 2\n1 2 d2 1\n1 2 d3 1\n1 2 d4 3\n1 3 d5 1\n1 3 d6 0\n"
         b"2 1 e1 1\n2 2 e2 1\n")
# topic 1 ranks d3 d4 d1 d6 d5 d2; topic 2 ranks e2 e1 e3
RUN = (b"1 Q0 d3 1 9 r\n1 Q0 d4 2 8 r\n1 Q0 d1 3 7 r\n1 Q0 d6 4 6 r\n1 Q0 d5 5 5 r\n"
       b"1 Q0 d2 6 4 r\n2 Q0 e2 1 3 r\n2 Q0 e1 2 2 r\n2 Q0 e3 3 1 r\n")


def per_topic(names: str, probs: bytes | None = None, types: bytes | None = None,
              qrels: bytes = QRELS, run: bytes = RUN) -> dict[str, dict[str, float]]:
    ev = evaluate_diversity(
        read_diversity_qrels(qrels), read_run(run, keep_rank=True), names,
        intent_probabilities=read_intent_probabilities(probs) if probs else None,
        intent_types=read_intent_types(types) if types else None)
    return {name: {str(t): float(v) for t, v in zip(ev.rows.topic_labels, values,
                                                     strict=True)}
            for name, values in ev.values.items()}


# ---------------------------------------------------------------- worked examples
def test_pmp_most_popular_intent():
    # Pr: intent 1 .5, intent 2 .3, intent 3 .2 → intent 1 alone: d1 (rank 3), d2 (rank 6)
    got = per_topic("PMP@1 PMP@3 PMP@6 PMP@10", probs=b"1 1 0.5\n1 2 0.3\n1 3 0.2\n")
    assert got["PMP@1"]["1"] == 0.0
    assert got["PMP@3"]["1"] == pytest.approx(1 / 3)
    assert got["PMP@6"]["1"] == pytest.approx(2 / 6)
    assert got["PMP@10"]["1"] == pytest.approx(2 / 10)  # / l, not / ranking length
    # topic 2 (uniform, both intents tied): e2, e1 relevant, e3 not
    assert got["PMP@3"]["2"] == pytest.approx(2 / 3)


def test_pmp_ties_count_every_tied_intent():
    # intents 1 and 2 tie at .4: d3, d4, d1, d2 count (not d5: intent 3, .2)
    got = per_topic("PMP@2 PMP@5 PMP@6", probs=b"1 1 0.4\n1 2 0.4\n1 3 0.2\n")
    assert got["PMP@2"]["1"] == pytest.approx(2 / 2)
    assert got["PMP@5"]["1"] == pytest.approx(3 / 5)
    assert got["PMP@6"]["1"] == pytest.approx(4 / 6)
    # uniform probabilities (no file): every intent ties, every relevant document counts
    uniform = per_topic("PMP@6")["PMP@6"]
    assert uniform["1"] == pytest.approx(5 / 6)


def test_pmp_most_popular_navigational_intent():
    # intent 2 the most popular: d3, d4, d2 (redundant navigational documents still count)
    got = per_topic("PMP@6", probs=b"1 1 0.2\n1 2 0.7\n1 3 0.1\n", types=b"1 2 nav\n")
    assert got["PMP@6"]["1"] == pytest.approx(3 / 6)


def test_ep_navigational_and_informational_intents():
    # intents 2 and 3 navigational, 1 informational. Rank 1 d3: first of intent 2 → 1;
    # rank 2 d4: intent 2 again → 0; rank 3 d1: informational → 1; rank 4 d6 → 0;
    # rank 5 d5: first of intent 3 → 1; rank 6 d2: informational intent 1 → 1
    got = per_topic("EP@1 EP@2 EP@3 EP@5 EP@6 EP@10", types=b"1 2 nav\n1 3 nav\n")
    expected = {1: 1 / 1, 2: 1 / 2, 3: 2 / 3, 5: 3 / 5, 6: 4 / 6, 10: 4 / 10}
    for k, value in expected.items():
        assert got[f"EP@{k}"]["1"] == pytest.approx(value), k


def test_ep_redundant_document_of_a_navigational_intent_only():
    # every intent navigational: d2 (rank 6) is intent 1's second document after d1 and
    # intent 2's after d3: not counted; topic 2: e2 then e1 are each their intent's first
    types = b"1 1 nav\n1 2 nav\n1 3 nav\n2 1 nav\n2 2 nav\n"
    got = per_topic("EP@6 EP@3", types=types)
    assert got["EP@6"]["1"] == pytest.approx(3 / 6)  # d3, d1, d5
    assert got["EP@3"]["2"] == pytest.approx(2 / 3)
    # all informational: every relevant document counts
    assert per_topic("EP@6")["EP@6"]["1"] == pytest.approx(5 / 6)


def test_mean_over_topics_and_names():
    ev = evaluate_diversity(read_diversity_qrels(QRELS), read_run(RUN, keep_rank=True),
                            "PMP@3 EP@3")
    # uniform, informational: topic 1 d3 d4 d1 (3/3), topic 2 e2 e1 (2/3)
    assert float(ev.mean()["PMP@3"].iloc[0]) == pytest.approx((1 + 2 / 3) / 2)
    assert float(ev.mean()["EP@3"].iloc[0]) == pytest.approx((1 + 2 / 3) / 2)
    with pytest.raises(MeasureError, match="PMP@k"):
        per_topic("PMP")
    with pytest.raises(MeasureError, match="EP"):
        per_topic("EP@0")


# ---------------------------------------------------------------- properties
@st.composite
def cases(draw):
    """Diversity qrels (every topic with a relevant document), probabilities, intent
    types, and a run ranking some of d1..d10 per topic."""
    lines, probs, types, runs = [], [], [], []
    topics: dict[str, tuple[dict[str, set[str]], dict[str, float], list[str]]] = {}
    for t in range(1, draw(st.integers(1, 3)) + 1):
        topic = str(t)
        relevant: dict[str, set[str]] = {}
        for i in range(1, draw(st.integers(1, 4)) + 1):
            docs = draw(st.sets(st.integers(1, 8), min_size=1, max_size=5))
            levels = [draw(st.integers(-1, 3)) for _ in docs]
            if i == 1:
                levels[0] = max(levels[0], 1)
            for d, level in zip(sorted(docs), levels, strict=True):
                lines.append(f"{topic} {i} d{d} {level}")
                if level >= 1:
                    relevant.setdefault(str(i), set()).add(f"d{d}")
        weights = {i: draw(st.integers(1, 4)) for i in relevant}
        pr = {i: w / sum(weights.values()) for i, w in weights.items()}
        probs += [f"{topic} {i} {v!r}" for i, v in pr.items()]
        types += [f"{topic} {i} nav" for i in relevant if draw(st.booleans())]
        docs = draw(st.permutations([f"d{d}" for d in range(1, 11)]))[:draw(st.integers(1, 10))]
        runs += [f"{topic} Q0 {d} {r} {100 - r} r" for r, d in enumerate(docs, 1)]
        topics[topic] = (relevant, pr, docs)
    return lines, probs, types, runs, topics


def plain_precision(topics, relevant_of, k: int) -> dict[str, float]:
    """P@k per topic by the catalogue (main engine), ``relevant_of(relevant, pr)`` the
    topic's documents counted as relevant."""
    qrels = {t: {d: 1 for d in relevant_of(rel, pr)}
             for t, (rel, pr, _) in topics.items()}
    run = {t: {d: 100.0 - r for r, d in enumerate(docs, 1)}
           for t, (_, _, docs) in topics.items()}
    ev = irscale.evaluate(qrels, run, f"P@{k}")
    return {str(t): float(v) for t, v in zip(ev.rows.topic_labels, ev.values[f"P@{k}"],
                                              strict=True)}


@settings(max_examples=examples(60), deadline=None)
@given(cases(), st.sampled_from([1, 2, 3, 5, 20]))
def test_against_plain_precision(case, k):
    lines, probs, types, runs, topics = case
    qrels, run = "\n".join(lines).encode(), "\n".join(runs).encode()
    # EP with every intent informational = P of the documents relevant to any intent
    ep = per_topic(f"EP@{k}", qrels=qrels, run=run)[f"EP@{k}"]
    any_relevant = plain_precision(topics, lambda rel, pr: set().union(*rel.values()), k)
    assert ep == pytest.approx(any_relevant, rel=1e-12)
    # PMP = P of the documents relevant to an intent of highest Pr (ties: any of them)
    pmp = per_topic(f"PMP@{k}", probs="\n".join(probs).encode(),
                    types="\n".join(types).encode() if types else None,
                    qrels=qrels, run=run)[f"PMP@{k}"]
    top = plain_precision(topics, lambda rel, pr: set().union(
        *(rel[i] for i in rel if pr[i] == max(pr.values()))), k)
    assert pmp == pytest.approx(top, rel=1e-12)
    # navigational intents only take credit away: EP ≤ P (any relevant)
    ep_nav = per_topic(f"EP@{k}", types="\n".join(types).encode() if types else None,
                       qrels=qrels, run=run)[f"EP@{k}"]
    assert all(ep_nav[t] <= any_relevant[t] + 1e-12 for t in ep_nav)


def test_pmp_single_intent_is_that_intents_precision():
    qrels = b"1 1 d1 1\n1 1 d3 2\n1 1 d4 0\n"
    run = b"1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d3 3 1 r\n"
    plain = irscale.evaluate({"1": {"d1": 1, "d3": 2, "d4": 0}},
                             {"1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}, "P@2 P@3 P@5")
    got = per_topic("PMP@2 PMP@3 PMP@5", qrels=qrels, run=run)
    for k in (2, 3, 5):
        assert got[f"PMP@{k}"]["1"] == pytest.approx(float(plain.values[f"P@{k}"][0]))
