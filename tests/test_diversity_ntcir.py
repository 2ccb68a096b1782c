"""NTCIREVAL's diversity family: I-rec, D-/D♯-measures, DIN-nDCG, P+Q.

Oracles: a worked example computed by hand from the definitions (Sakai 2014, §3.1 eqs. 24,
27–34; Sakai & Song 2011; NTCIREVAL's gcompute for Q, nERR and P⁺), a plain per-topic
reference written here from the same definitions, run on hypothesis-generated qrels,
runs, probabilities and intent types, and invariants (D♯ = γ·I-rec + (1 − γ)·D; DIN = D
when every intent is informational; one intent: D-nDCG = the catalogue's
nDCG(discount=log2), P+Q = the catalogue's Q).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscale
from irscale.errors import InputFormatError, MeasureError, ParameterError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import (
    read_diversity_qrels,
    read_intent_probabilities,
    read_intent_types,
)
from irscale.io.trec import read_run

from .property_examples import examples

QRELS = b"1 1 d1 2\n1 1 d2 1\n1 2 d2 1\n1 2 d3 3\n1 2 d4 0\n"
RUN = b"1 Q0 d2 1 3 r\n1 Q0 d9 2 2 r\n1 Q0 d3 3 1 r\n1 Q0 d1 4 0 r\n"


def values(names, qrels=QRELS, run=RUN, **options):
    ev = evaluate_diversity(read_diversity_qrels(qrels), read_run(run, keep_rank=True),
                            names, **options)
    return {k: float(v[0]) for k, v in ev.values.items()}


# ---------------------------------------------------------------- worked example
def test_worked_example_uniform():
    # intents 1 and 2 both have relevant documents: Pr = 1/2 each; gains = levels.
    # GG(d1) = .5·2 = 1, GG(d2) = .5·1 + .5·1 = 1, GG(d3) = .5·3 = 1.5, GG(d4) = 0
    # ideal list: 1.5, 1, 1 (R = 3); run: d2 (1), d9 (0), d3 (1.5), d1 (1)
    log2 = math.log2
    dcg3 = 1 / log2(2) + 1.5 / log2(4)
    idcg3 = 1.5 / log2(2) + 1 / log2(3) + 1 / log2(4)
    # BR(r) = (cg(r) + C(r)) / (cg*(r) + r), β = 1; cg* = 1.5, 2.5, 3.5, 3.5
    br1, br3, br4 = (1 + 1) / (1.5 + 1), (2.5 + 2) / (3.5 + 3), (3.5 + 3) / (3.5 + 4)
    # ERR with R = GG/(h + 1), h = 1.5: run 1/2.5 at rank 1, 1.5/2.5 at rank 3
    err3 = (1 / 2.5) / 1 + (1 - 1 / 2.5) * (1.5 / 2.5) / 3
    ierr3 = (1.5 / 2.5) + (1 - 0.6) * (1 / 2.5) / 2 + (1 - 0.6) * (1 - 0.4) * (1 / 2.5) / 3
    # P+: highest GG of the run 1.5 first at rank 3: (BR(1) + BR(3)) / 2
    # per intent (P+Q, every intent informational): Q_1 = (BR_1(1) + BR_1(4)) / 2 with
    # intent 1's levels (d1: 2, d2: 1; ideal cg* 2, 3): BR_1(1) = (1 + 1)/(2 + 1),
    # BR_1(4) = (3 + 2)/(3 + 4); Q_2 = (BR_2(1) + BR_2(3)) / 2 with d3: 3, d2: 1
    # (ideal cg* 3, 4): BR_2(1) = (1 + 1)/(3 + 1), BR_2(3) = (4 + 2)/(4 + 3)
    q1 = ((1 + 1) / (2 + 1) + (3 + 2) / (3 + 4)) / 2
    q2 = ((1 + 1) / (3 + 1) + (4 + 2) / (4 + 3)) / 2
    got = values("I-rec@1 I-rec@3 D-nDCG@3 D#-nDCG@3 DIN-nDCG@3 D-Q D-Q@3 D-nERR@3 D-P+ "
                 "P+Q D#-nDCG(gamma=0.2)@3")
    assert got["I-rec@1"] == pytest.approx(1.0)  # d2 covers both intents
    assert got["I-rec@3"] == pytest.approx(1.0)
    assert got["D-nDCG@3"] == pytest.approx(dcg3 / idcg3)
    assert got["D#-nDCG@3"] == pytest.approx(0.5 * 1 + 0.5 * dcg3 / idcg3)
    assert got["D#-nDCG(gamma=0.2)@3"] == pytest.approx(0.2 + 0.8 * dcg3 / idcg3)
    assert got["DIN-nDCG@3"] == pytest.approx(dcg3 / idcg3)
    assert got["D-Q"] == pytest.approx((br1 + br3 + br4) / 3)
    assert got["D-Q@3"] == pytest.approx((br1 + br3) / 3)
    assert got["D-nERR@3"] == pytest.approx(err3 / ierr3)
    assert got["D-P+"] == pytest.approx((br1 + br3) / 2)
    assert got["P+Q"] == pytest.approx(0.5 * q1 + 0.5 * q2)


def test_worked_example_probabilities_and_navigational_intent():
    # Pr(1) = .7, Pr(2) = .3; intent 2 navigational.
    # GG: d1 = 1.4, d2 = .7 + .3 = 1, d3 = .9; ideal 1.4, 1, .9
    # DIN: d3 is intent 2's second relevant document (d2 came first): GG_DIN(d3) = 0
    probs = read_intent_probabilities(b"1 1 0.7\n1 2 0.3\n")
    types = read_intent_types(b"1 2 nav\n")
    idcg3 = 1.4 + 1 / math.log2(3) + 0.9 / 2
    got = values("D-nDCG@3 DIN-nDCG@3 DIN#-nDCG@3 P+Q", intent_probabilities=probs,
                 intent_types=types)
    assert got["D-nDCG@3"] == pytest.approx((1 + 0.9 / 2) / idcg3)
    assert got["DIN-nDCG@3"] == pytest.approx(1 / idcg3)
    assert got["DIN#-nDCG@3"] == pytest.approx(0.5 + 0.5 / idcg3)
    # P+Q: .7·Q_1 + .3·P+_2; intent 2's highest level (3, d3) first at rank 3:
    # P+_2 = (BR_2(1) + BR_2(3)) / C(3) = (2/4 + 6/7) / 2
    q1 = ((1 + 1) / (2 + 1) + (3 + 2) / (3 + 4)) / 2
    assert got["P+Q"] == pytest.approx(0.7 * q1 + 0.3 * (2 / 4 + 6 / 7) / 2)


def test_names_ntcir_and_sharp_sign():
    got = values("ntcir:D#-nDCG@0003 D\u266f-nDCG@3 D#-nDCG@3 ntcir:I-rec@0002 I-rec@2")
    assert got["ntcir:D#-nDCG@0003"] == got["D\u266f-nDCG@3"] == got["D#-nDCG@3"]
    assert got["ntcir:I-rec@0002"] == got["I-rec@2"]
    with pytest.raises(MeasureError, match="NTCIREVAL"):
        values("ntcir:D-foo@0010")
    with pytest.raises(MeasureError, match="gamma"):
        values("D#-nDCG(gamma=2)@10")


def test_evaluate_entry_point_and_cli(tmp_path):
    (tmp_path / "q").write_bytes(QRELS)
    (tmp_path / "r").write_bytes(RUN)
    (tmp_path / "p").write_bytes(b"1 1 0.7\n1 2 0.3\n")
    ev = irscale.evaluate(str(tmp_path / "q"), str(tmp_path / "r"), "D-nDCG@3",
                          intent_probabilities=str(tmp_path / "p"))
    assert float(ev.values["D-nDCG@3"][0]) == pytest.approx(
        (1 + 0.9 / 2) / (1.4 + 1 / math.log2(3) + 0.9 / 2))
    with pytest.raises(ParameterError, match="diversity"):
        irscale.evaluate({"1": {"d1": 1}}, {"1": {"d1": 1.0}}, "map",
                         intent_probabilities=str(tmp_path / "p"))


# ---------------------------------------------------------------- input errors
@pytest.mark.parametrize("probs, message", [
    (b"1 1 0.7\n1 2 0.2\n", "sum to 0.9"),
    (b"1 1 0.5\n1 2 0.5\n9 1 1\n", "topic 9 is not in"),
    (b"1 1 0.5\n1 7 0.5\n", "intent 7 of topic 1 is not in"),
    (b"1 1 1.0\n", "intent 2 has relevant documents"),
])
def test_probability_errors(probs, message):
    with pytest.raises(InputFormatError, match=message) as info:
        values("D-nDCG@3", intent_probabilities=read_intent_probabilities(probs))
    assert "line" in str(info.value)


def test_probability_of_intent_without_relevant_document():
    qrels = QRELS + b"1 3 d5 0\n"
    with pytest.raises(InputFormatError, match="intent 3 of topic 1 has no relevant"):
        values("D-nDCG@3", qrels=qrels, intent_probabilities=read_intent_probabilities(
            b"1 1 0.5\n1 2 0.5\n1 3 0\n"))


def test_intent_type_errors():
    with pytest.raises(InputFormatError, match=r"line 2.*inf or nav"):
        read_intent_types(b"1 1 nav\n1 2 navigational\n")
    with pytest.raises(InputFormatError, match="intent 5 of topic 1"):
        values("DIN-nDCG@3", intent_types=read_intent_types(b"1 5 nav\n"))


# ---------------------------------------------------------------- reference
def _gg(levels, pr, doc, intents, skip=frozenset()):
    """Global gain of ``doc`` (eq. 27), leaving out the intents of ``skip``."""
    return sum(pr[i] * levels.get(doc, {}).get(i, 0) for i in intents if i not in skip)


def _ndcg(g, ideal, depth, k):
    dcg = sum(v / math.log2(r + 2) for r, v in enumerate(g[:depth]))
    return dcg / sum(v / math.log2(r + 2) for r, v in enumerate(ideal[:k]))


def _blended(g, ideal):
    out, cg, c = [], 0.0, 0
    for r, v in enumerate(g, start=1):
        cg += v
        c += v > 0
        out.append((cg + c) / (sum(ideal[:r]) + r))
    return out


def _q(g, ideal, depth, k):
    br = _blended(g, ideal)
    total = sum(b for b, v in zip(br[:depth], g[:depth], strict=False) if v > 0)
    return total / (len(ideal) if k is None else min(k, len(ideal)))


def _pplus(g, ideal, depth):
    cut = g[:depth]
    if not any(v > 0 for v in cut):
        return 0.0
    rp = cut.index(max(cut)) + 1
    rel = [b for b, v in zip(_blended(g, ideal)[:rp], cut[:rp], strict=True) if v > 0]
    return sum(rel) / len(rel)


def _err(g, cut, h):
    total, dsat = 0.0, 1.0
    for r, v in enumerate(g[:cut], start=1):
        total += dsat / r * (v / (h + 1))
        dsat *= 1 - v / (h + 1)
    return total


def reference(qrels, run, probs, nav, k, gamma=0.5):
    """Per topic of ``run`` ({topic: [docno, ...]}), every measure from the definitions,
    with plain loops (gains = levels, β = 1)."""
    out = {}
    for topic, docs in run.items():
        levels = {}  # doc -> {intent: level ≥ 1}
        for (intent, doc), level in qrels.get(topic, {}).items():
            if level >= 1:
                levels.setdefault(doc, {})[intent] = level
        intents = sorted({i for d in levels.values() for i in d})
        if not intents:
            out[topic] = dict.fromkeys(MEASURES, 0.0)
            continue
        pr = probs.get(topic) or {i: 1 / len(intents) for i in intents}
        navs = nav.get(topic, set())
        ideal = sorted((g for g in (_gg(levels, pr, d, intents) for d in levels) if g > 0),
                       reverse=True)
        gains = [_gg(levels, pr, d, intents) for d in docs]
        seen, din = set(), []
        for d in docs:  # GG^DIN (eq. 32): a navigational intent counts once
            din.append(_gg(levels, pr, d, intents, skip=navs & seen))
            seen |= set(levels.get(d, {}))
        depth = len(docs) if k is None else k
        irec = len({i for d in docs[:depth] for i in levels.get(d, {})}) / len(intents)
        pq = 0.0
        for i in intents:
            gi = [float(levels.get(d, {}).get(i, 0)) for d in docs]
            ideal_i = sorted((x[i] for x in levels.values() if i in x), reverse=True)
            pq += pr[i] * (_pplus(gi, ideal_i, depth) if i in navs
                           else _q(gi, ideal_i, depth, k))
        d_ndcg = _ndcg(gains, ideal, depth, k)
        out[topic] = {"I-rec": irec, "D-nDCG": d_ndcg,
                      "D#-nDCG": gamma * irec + (1 - gamma) * d_ndcg,
                      "DIN-nDCG": _ndcg(din, ideal, depth, k), "D-Q": _q(gains, ideal, depth, k),
                      "D-P+": _pplus(gains, ideal, depth),
                      "D-nERR": _err(gains, depth, ideal[0]) / _err(ideal, k, ideal[0]),
                      "P+Q": pq}
    return out


MEASURES = ("I-rec", "D-nDCG", "D#-nDCG", "DIN-nDCG", "D-Q", "D-P+", "D-nERR", "P+Q")


@st.composite
def cases(draw):
    n_topics = draw(st.integers(1, 3))
    qrels, run, probs, nav = {}, {}, {}, {}
    lines, run_lines, prob_lines, type_lines = [], [], [], []
    for t in range(1, n_topics + 1):
        topic = str(t)
        n_int = draw(st.integers(1, 4))
        judged = {}
        for i in range(1, n_int + 1):
            for d in draw(st.sets(st.integers(1, 8), min_size=1, max_size=5)):
                level = draw(st.integers(-1, 3))
                judged[(str(i), f"d{d}")] = level
                lines.append(f"{topic} {i} d{d} {level}")
        qrels[topic] = judged
        relevant = sorted({i for (i, _), x in judged.items() if x >= 1}, key=int)
        if relevant and draw(st.booleans()):
            w = [draw(st.integers(1, 9)) for _ in relevant]
            p = {i: x / sum(w) for i, x in zip(relevant, w, strict=True)}
            probs[topic] = p
            prob_lines += [f"{topic} {i} {v!r}" for i, v in p.items()]
        navs = {i for i in relevant if draw(st.booleans())}
        nav[topic] = navs
        type_lines += [f"{topic} {i} nav" for i in sorted(navs)]
        if draw(st.booleans()) or t == 1:
            docs = draw(st.permutations([f"d{d}" for d in range(1, 11)]))
            docs = docs[:draw(st.integers(1, 10))]
            run[topic] = docs
            run_lines += [f"{topic} Q0 {d} {r} {100 - r} r" for r, d in enumerate(docs, 1)]
    return qrels, run, probs, nav, lines, run_lines, prob_lines, type_lines


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from([None, 1, 3, 5, 20]))
def test_against_reference(case, k):
    qrels, run, probs, nav, lines, run_lines, prob_lines, type_lines = case
    at = "" if k is None else f"@{k}"
    names = [m + at for m in MEASURES]
    ev = evaluate_diversity(
        read_diversity_qrels("\n".join(lines).encode()),
        read_run("\n".join(run_lines).encode(), keep_rank=True), names,
        intent_probabilities=read_intent_probabilities("\n".join(prob_lines).encode())
        if prob_lines else None,
        intent_types=read_intent_types("\n".join(type_lines).encode()) if type_lines
        else None)
    expected = reference(qrels, run, probs, nav, k)
    for row, topic in enumerate(ev.rows.topic_labels):
        for name in MEASURES:
            got = float(ev.values[name + at][row])
            assert got == pytest.approx(expected[topic][name], rel=1e-12, abs=1e-15), \
                (topic, name)
            assert -1e-12 <= got <= 1 + 1e-12  # every measure here lies in [0, 1]


# ---------------------------------------------------------------- invariants
@settings(max_examples=examples(60), deadline=None)
@given(cases(), st.sampled_from([1, 2, 5, 10]), st.floats(0, 1))
def test_sharp_and_din_invariants(case, k, gamma):
    _, _, _, _, lines, run_lines, _, _ = case
    q = read_diversity_qrels("\n".join(lines).encode())
    r = read_run("\n".join(run_lines).encode(), keep_rank=True)
    g = repr(gamma)
    names = [f"I-rec@{k}", f"D-nDCG@{k}", f"D#-nDCG(gamma={g})@{k}", f"DIN-nDCG@{k}",
             f"D-Q@{k}", f"D#-Q(gamma={g})@{k}", f"P+Q@{k}", f"P+Q#(gamma={g})@{k}"]
    v = evaluate_diversity(q, r, names).values
    irec = v[f"I-rec@{k}"]
    # no intent types: every intent informational, DIN-nDCG = D-nDCG
    np.testing.assert_array_equal(v[f"DIN-nDCG@{k}"], v[f"D-nDCG@{k}"])
    for sharp, plain in (("D#-nDCG", "D-nDCG"), ("D#-Q", "D-Q"), ("P+Q#", "P+Q")):
        np.testing.assert_allclose(v[f"{sharp}(gamma={g})@{k}"],
                                   gamma * irec + (1 - gamma) * v[f"{plain}@{k}"],
                                   rtol=1e-13, atol=1e-15)


@settings(max_examples=examples(60), deadline=None)
@given(st.dictionaries(st.integers(1, 12), st.integers(0, 3), min_size=1),
       st.permutations(list(range(1, 15))), st.integers(1, 10))
def test_one_intent_is_the_catalogue_measure(levels, order, k):
    # one intent (Pr = 1): GG = the level, the global ideal list is nDCG's ideal list:
    # D-nDCG@k = nDCG(discount=log2)@k (NTCIREVAL's MSnDCG), P+Q@k = Q@k (Q(norm=min)@k)
    lines = "\n".join(f"1 1 d{d} {x}" for d, x in levels.items()).encode()
    run_lines = "\n".join(f"1 Q0 d{d} {r} {100 - r} r"
                          for r, d in enumerate(order, 1)).encode()
    v = evaluate_diversity(read_diversity_qrels(lines), read_run(run_lines, keep_rank=True),
                           [f"D-nDCG@{k}", f"P+Q@{k}"]).values
    ev = irscale.evaluate({"1": {f"d{d}": x for d, x in levels.items()}},
                          {"1": {f"d{d}": 100.0 - r for r, d in enumerate(order, 1)}},
                          [f"nDCG(discount=log2)@{k}", f"Q@{k}"])
    table = ev.per_topic().set_index("measure")["value"]
    assert v[f"D-nDCG@{k}"][0] == pytest.approx(table[f"nDCG(discount=log2)@{k}"], rel=1e-13)
    assert v[f"P+Q@{k}"][0] == pytest.approx(table[f"Q@{k}"], rel=1e-13)
