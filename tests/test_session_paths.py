"""Kanoulas et al.'s (SIGIR 2011) expected session measures esnDCG and esAP against the
sum over every browsing path, each path's probability and measure computed here
directly, and against a hand computation."""

from __future__ import annotations

import itertools
import math

import pytest

from irscale.text.sessions import evaluate_sessions

QRELS = {"s1": {"d1": 1, "d2": 2, "d3": 0, "d4": 1, "d5": 2},
         "s2": {"d1": 1}}
#: s1: query 1 shows d3 d1 d4, query 2 d2 d1 (d1 again), query 3 d4 (again) d5 d9.
LISTS = {"s1": [["d3", "d1", "d4"], ["d2", "d1"], ["d4", "d5", "d9"]],
         "s2": [["d7", "d1"]]}


def run_bytes(lists: dict[str, list[list[str]]]) -> bytes:
    lines = [f"{s} {q} {d} {r} 0 sys" for s, queries in lists.items()
             for q, docs in enumerate(queries, 1) for r, d in enumerate(docs, 1)]
    return ("\n".join(lines) + "\n").encode()


def paths(lengths: list[int], p_reform: float, p_down: float):
    """Every browsing path (stop rank in each list read) with its probability."""
    m = len(lengths)
    for j in range(1, m + 1):
        for ks in itertools.product(*(range(1, n + 1) for n in lengths[:j])):
            prob = 1.0
            for i, k in enumerate(ks):
                n = lengths[i]
                prob *= p_down ** (k - 1) * ((1 - p_down) if k < n else 1.0)
                prob *= p_reform if i < j - 1 else ((1 - p_reform) if j < m else 1.0)
            yield ks, prob


def path_measures(queries, ks, qrels: dict[str, int]) -> tuple[float, float]:
    viewed = [d for docs, k in zip(queries, ks, strict=False) for d in docs[:k]]
    seen: set[str] = set()
    gains = []
    for d in viewed:
        gains.append(0 if d in seen else qrels.get(d, 0))
        seen.add(d)
    dcg = sum(g / math.log2(t + 2) for t, g in enumerate(gains))
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:len(viewed)]
    idcg = sum(g / math.log2(t + 2) for t, g in enumerate(ideal))
    num_rel = sum(1 for g in qrels.values() if g > 0)
    found, prec = 0, 0.0
    for t, g in enumerate(gains, 1):
        if g > 0:
            found += 1
            prec += found / t
    return (dcg / idcg if idcg else 0.0), (prec / num_rel if num_rel else 0.0)


def brute_force(queries, qrels, p_reform: float, p_down: float) -> tuple[float, float]:
    total = [0.0, 0.0, 0.0]
    for ks, prob in paths([len(q) for q in queries], p_reform, p_down):
        ndcg, ap = path_measures(queries, ks, qrels)
        total[0] += prob
        total[1] += prob * ndcg
        total[2] += prob * ap
    assert total[0] == pytest.approx(1.0, abs=1e-12)
    return total[1], total[2]


@pytest.mark.parametrize("p_reform,p_down", [(0.5, 0.8), (0.0, 0.5), (1.0, 1.0),
                                             (0.3, 0.0), (0.9, 0.35)])
def test_against_every_path(p_reform, p_down):
    names = [f"esnDCG(p_reform={p_reform},p_down={p_down})",
             f"esAP(p_reform={p_reform},p_down={p_down})"]
    e = evaluate_sessions(QRELS, run_bytes(LISTS), names)
    rows = e.per_topic()
    for session, queries in LISTS.items():
        ndcg, ap = brute_force(queries, QRELS[session], p_reform, p_down)
        got = rows[rows.topic == session].set_index("measure").value
        assert got[names[0]] == pytest.approx(ndcg, rel=1e-12, abs=1e-15)
        assert got[names[1]] == pytest.approx(ap, rel=1e-12, abs=1e-15)


def test_cutoff_reads_the_first_k_of_every_list():
    e = evaluate_sessions(QRELS, run_bytes(LISTS), ["esnDCG@2", "esAP@2"])
    rows = e.per_topic()
    cut = [q[:2] for q in LISTS["s1"]]
    ndcg, ap = brute_force(cut, QRELS["s1"], 0.5, 0.8)
    got = rows[rows.topic == "s1"].set_index("measure").value
    assert got["esnDCG@2"] == pytest.approx(ndcg, rel=1e-12)
    assert got["esAP@2"] == pytest.approx(ap, rel=1e-12)


def test_hand_worked_two_queries():
    """Lists [d1 (1)] and [d1 (again), d2 (2)], p_reform = 0.5, p_down = 0.5: the paths
    are (1) with 0.5, (1; 1) with 0.25 and (1; 2) with 0.25. Ideal list d2, d1.
    nDCG: (1) 1/2; (1; 1) 1/2 (d1 again gains nothing, IDCG(2) = 2 + 1/log2 3);
    (1; 2) views d1, d1, d2: (1 + 2/log2 4)/(2 + 1/log2 3). AP (R = 2): 1/2, 1/2, (1 + 2/3)/2."""
    qrels = {"s": {"d1": 1, "d2": 2}}
    run = b"s 1 d1 1 0 x\ns 2 d1 1 0 x\ns 2 d2 2 0 x\n"
    e = evaluate_sessions(qrels, run, ["esnDCG(p_reform=0.5,p_down=0.5)",
                                       "esAP(p_reform=0.5,p_down=0.5)"])
    l3 = math.log2(3)
    ndcg = 0.5 * 0.5 + 0.25 * 1 / (2 + 1 / l3) + 0.25 * (1 + 2 / 2) / (2 + 1 / l3)
    ap = 0.5 * 0.5 + 0.25 * 0.5 + 0.25 * (1 + 2 / 3) / 2
    assert float(e.values["esnDCG(p_reform=0.5,p_down=0.5)"][0]) == pytest.approx(ndcg)
    assert float(e.values["esAP(p_reform=0.5,p_down=0.5)"][0]) == pytest.approx(ap)
