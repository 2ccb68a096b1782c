"""Kanoulas et al.'s (SIGIR 2011) expected session measures esnDCG and esAP against the
sum over every browsing path, each path's probability and measure computed here
directly, against the forward pass over the sets of duplicates read
(:mod:`tests.oracles.session_paths_states`), and against a hand computation."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.text import evaluate_sessions, session_paths
from irscale.text.session_paths import (
    SessionLists,
    Sessions,
    expected_ap,
    expected_ap_many,
    expected_ndcg,
    expected_ndcg_many,
)

from .oracles.session_paths_states import expected_session_measures
from .property_examples import examples

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


def linear(degree: int) -> float:
    return float(degree)


def path_measures(queries, ks, qrels: dict[str, int],
                  gain: Callable[[int], float] = linear) -> tuple[float, float]:
    """nDCG and AP of the path's concatenated list (relevant: degree ≥ 1)."""
    viewed = [d for docs, k in zip(queries, ks, strict=False) for d in docs[:k]]
    seen: set[str] = set()
    degrees = []
    for d in viewed:
        degrees.append(0 if d in seen else qrels.get(d, 0))
        seen.add(d)
    dcg = sum(gain(g) / math.log2(t + 2) for t, g in enumerate(degrees) if g > 0)
    ideal = sorted((gain(g) for g in qrels.values() if g > 0), reverse=True)[:len(viewed)]
    idcg = sum(g / math.log2(t + 2) for t, g in enumerate(ideal))
    num_rel = sum(1 for g in qrels.values() if g > 0)
    found, prec = 0, 0.0
    for t, g in enumerate(degrees, 1):
        if g > 0:
            found += 1
            prec += found / t
    return (dcg / idcg if idcg else 0.0), (prec / num_rel if num_rel else 0.0)


def brute_force(queries, qrels, p_reform: float, p_down: float,
                gain: Callable[[int], float] = linear) -> tuple[float, float]:
    total = [0.0, 0.0, 0.0]
    for ks, prob in paths([len(q) for q in queries], p_reform, p_down):
        ndcg, ap = path_measures(queries, ks, qrels, gain)
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


# ------------------------------------------------------------- random sessions, every option
PROBABILITIES = st.sampled_from([0.0, 1.0, 0.5]) | st.floats(0.0, 1.0)
#: The gain maps of ``esnDCG(gain=...)`` (degrees 0..2) as functions of the degree.
GAINS: dict[str, Callable[[int], float]] = {
    "linear": linear, "exp": lambda g: 2.0 ** g - 1.0, "binary": lambda g: float(g > 0),
    "0:3": lambda g: (0.0, 0.0, 3.0)[g], "0.5:2": lambda g: (0.0, 0.5, 2.0)[g]}


@st.composite
def sessions(draw) -> tuple[list[list[int]], list[float], list[bool], int, list[float]]:
    """Lists of documents from a small pool (repeated across and within lists), the
    documents' gains and relevance (relevant with gain 0 and gain without relevance
    included), R (relevant documents the lists may not show included) and the ideal
    gains."""
    pool = draw(st.integers(1, 7))
    gains = draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, 2.0, 3.5]), min_size=pool,
                          max_size=pool))
    relevant = [draw(st.booleans()) if g > 0 else draw(st.sampled_from([False, False, True]))
                for g in gains]
    lists = draw(st.lists(st.lists(st.integers(0, pool - 1), min_size=1, max_size=5),
                          min_size=1, max_size=4))
    hidden = draw(st.lists(st.sampled_from([1.0, 2.0]), max_size=2))  # judged, not shown
    ideal = sorted([g for g in gains if g > 0] + hidden, reverse=True)
    return lists, gains, relevant, sum(relevant) + len(hidden), ideal


def every_path(lists: SessionLists, ideal_dcg: np.ndarray, num_rel: int, p_reform: float,
               p_down: float) -> tuple[float, float]:
    """esnDCG and esAP as the sum over every browsing path (module documentation of
    :mod:`irscale.text.session_paths`), a document counting at its first view."""
    ndcg = ap = 0.0
    for ks, prob in paths([len(d) for d in lists.docs], p_reform, p_down):
        seen: set[int] = set()
        dcg, found, prec, t = 0.0, 0, 0.0, 0
        for docs, gains, relevant, k in zip(lists.docs, lists.gains, lists.relevant, ks,
                                            strict=False):
            for d, g, r in zip(docs[:k], gains[:k], relevant[:k], strict=True):
                t += 1
                if int(d) in seen or not (r or g > 0):
                    continue
                seen.add(int(d))
                dcg += g / math.log2(t + 1)
                if r:
                    found += 1
                    prec += found / t
        idcg = ideal_dcg[min(t, len(ideal_dcg)) - 1] if len(ideal_dcg) else 0.0
        ndcg += prob * (dcg / idcg if idcg > 0 else 0.0)
        ap += prob * (prec / num_rel if num_rel else 0.0)
    return ndcg, ap


@settings(max_examples=examples(300))
@given(sessions(), st.none() | st.integers(1, 4), PROBABILITIES, PROBABILITIES)
def test_random_sessions_against_every_path_and_the_forward_pass(session, cutoff,
                                                                 p_reform, p_down):
    docs, gains, relevant, num_rel, ideal = session
    cut = [d[:cutoff] for d in docs]
    lists = SessionLists([np.array(d, dtype=np.int64) for d in cut],
                         [np.array([gains[i] for i in d]) for d in cut],
                         [np.array([relevant[i] for i in d]) for d in cut])
    ideal_dcg = np.cumsum(np.array(ideal) / np.log2(np.arange(2, len(ideal) + 2)))
    ndcg = expected_ndcg(lists, p_reform, p_down, ideal_dcg)
    ap = expected_ap(lists, p_reform, p_down, num_rel)
    want = every_path(lists, ideal_dcg, num_rel, p_reform, p_down)
    states = expected_session_measures(lists, p_reform, p_down, ideal_dcg, num_rel)
    for got, path_sum, forward in zip((ndcg, ap), want, states, strict=True):
        assert got == pytest.approx(path_sum, rel=1e-12, abs=1e-14)
        assert got == pytest.approx(forward, rel=1e-12, abs=1e-14)


@settings(max_examples=examples(60))
@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), min_size=1,
                         max_size=4, unique=True), min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(["a", "b", "c", "d", "g"]), st.integers(0, 2)),
       st.sampled_from(sorted(GAINS)), st.none() | st.integers(1, 3), PROBABILITIES,
       PROBABILITIES, st.sampled_from([1, 2]))
def test_evaluate_sessions_against_every_path(lists, degrees, gain, cutoff, p_reform,
                                              p_down, level):
    """End to end: the measure names' options and cut-off, qrels degrees to gains, the
    relevance level (a degree below it judged non-relevant: degree 0)."""
    qrels = {"s": {"z": 2, **degrees}}  # one relevant document at least: the topic is judged
    at = "" if cutoff is None else f"@{cutoff}"
    names = [f"esnDCG(p_reform={p_reform!r},p_down={p_down!r},gain={gain}){at}",
             f"esAP(p_reform={p_reform!r},p_down={p_down!r}){at}"]
    values = evaluate_sessions(qrels, run_bytes({"s": lists}), names,
                               relevance_level=level).values
    cut = [q[:cutoff] for q in lists]
    judged = {d: g if g >= level else 0 for d, g in qrels["s"].items()}
    ndcg, _ = brute_force(cut, judged, p_reform, p_down, GAINS[gain])
    _, ap = brute_force(cut, judged, p_reform, p_down)
    assert float(values[names[0]][0]) == pytest.approx(ndcg, rel=1e-12, abs=1e-14)
    assert float(values[names[1]][0]) == pytest.approx(ap, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("block", [None, 40])
def test_long_lists_with_many_repeats_against_the_forward_pass(block, monkeypatch):
    """Lists of 12 from 16 documents (many shown again): the forward pass's 2^d states are
    still few enough to compare. p_down near 1 and near 0; in one block and in blocks of
    a few rows."""
    if block is not None:
        monkeypatch.setattr(session_paths, "_BLOCK", block)
    rng = np.random.default_rng(5)
    grades = rng.integers(0, 4, 16).astype(np.float64)
    docs = [rng.permutation(16)[:12] for _ in range(4)]
    lists = SessionLists(docs, [grades[d] for d in docs], [grades[d] >= 2 for d in docs])
    ideal = np.sort(grades)[::-1]
    ideal_dcg = np.cumsum(ideal / np.log2(np.arange(2, len(ideal) + 2)))
    num_rel = int((grades >= 2).sum())
    for p_reform, p_down in ((0.5, 0.8), (0.9, 0.95), (0.99, 0.999), (0.3, 0.02)):
        want = expected_session_measures(lists, p_reform, p_down, ideal_dcg, num_rel)
        got = (expected_ndcg(lists, p_reform, p_down, ideal_dcg),
               expected_ap(lists, p_reform, p_down, num_rel))
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


@settings(max_examples=examples(120))
@given(st.lists(sessions(), min_size=1, max_size=6), st.none() | st.integers(1, 4),
       PROBABILITIES, PROBABILITIES, st.sampled_from([None, 60, 4000]))
def test_sessions_together_equal_each_alone(drawn, cutoff, p_reform, p_down, block):
    """Sessions of mixed sizes (lists, lengths, repeats), gains, relevance and R evaluated
    together equal each evaluated alone and the forward pass over the sets of duplicates
    read; with small blocks, the sessions go in several groups and the rows in several
    blocks."""
    with pytest.MonkeyPatch.context() as patch:
        if block is not None:
            patch.setattr(session_paths, "_BLOCK", block)
        alone, ideals, num_rels, oracle = [], [], [], []
        for docs, gains, relevant, num_rel, ideal in drawn:
            cut = [d[:cutoff] for d in docs]
            lists = SessionLists([np.array(d, dtype=np.int64) for d in cut],
                                 [np.array([gains[i] for i in d]) for d in cut],
                                 [np.array([relevant[i] for i in d]) for d in cut])
            ideal_dcg = np.cumsum(np.array(ideal) / np.log2(np.arange(2, len(ideal) + 2)))
            alone.append(lists)
            ideals.append(ideal_dcg)
            num_rels.append(num_rel)
            oracle.append(expected_session_measures(lists, p_reform, p_down, ideal_dcg,
                                                    num_rel))
        stops = np.cumsum([len(i) for i in ideals])
        bounds = np.column_stack([stops - [len(i) for i in ideals], stops])
        together = Sessions.of(alone)
        ndcg = expected_ndcg_many(together, p_reform, p_down,
                                  np.concatenate([np.zeros(0), *ideals]), bounds)
        ap = expected_ap_many(together, p_reform, p_down, np.array(num_rels))
        for j, lists in enumerate(alone):
            one = (expected_ndcg(lists, p_reform, p_down, ideals[j]),
                   expected_ap(lists, p_reform, p_down, num_rels[j]))
            assert (ndcg[j], ap[j]) == pytest.approx(one, rel=1e-13, abs=1e-15)
            assert (ndcg[j], ap[j]) == pytest.approx(oracle[j], rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("cutoff", ["", "@2", "@6"])
@pytest.mark.parametrize("level", [1, 2])
def test_evaluate_sessions_together_equal_each_alone(cutoff, level):
    """End to end: a run of sessions of 1 to 5 lists of 1 to 9 documents (repeats across
    and within sessions' lists, one session without relevant documents) against each
    session's run alone, at relevance levels 1 and 2 and with and without cut-offs."""
    rng = np.random.default_rng(11)
    qrels, lists = {}, {}
    for s in range(12):
        pool = [f"d{d}" for d in rng.permutation(15)[:8]]
        qrels[f"s{s}"] = {d: int(rng.integers(0, 3)) if s else 0 for d in pool}
        if s:
            qrels[f"s{s}"]["z"] = 2
        lists[f"s{s}"] = [list(rng.choice([*pool, "x", "y"], int(rng.integers(1, 10)),
                                          replace=False))
                          for _ in range(int(rng.integers(1, 6)))]
    names = [f"esnDCG(p_reform=0.7,p_down=0.85,gain=exp){cutoff}",
             f"esAP(p_reform=0.7,p_down=0.85){cutoff}"]
    together = evaluate_sessions(qrels, run_bytes(lists), names, relevance_level=level)
    rows = together.per_topic().set_index(["topic", "measure"]).value
    for session, queries in lists.items():
        alone = evaluate_sessions({session: qrels[session]}, run_bytes({session: queries}),
                                  names, relevance_level=level)
        for name in names:
            assert rows[(session, name)] == pytest.approx(float(alone.values[name][0]),
                                                          rel=1e-13, abs=1e-15)


def test_sessions_without_positions_are_zero_among_others():
    """Sessions without lists, before, between and after one with lists: 0, and the other
    session's values those of the hand-worked example above (lists [d1 (1)] and
    [d1, d2 (2)], p_reform = p_down = 0.5, ideal list d2, d1, R = 2)."""
    empty = SessionLists([], [], [])
    lists = SessionLists([np.array([1]), np.array([1, 2])],
                         [np.array([1.0]), np.array([1.0, 2.0])],
                         [np.array([True]), np.array([True, True])])
    together = Sessions.of([empty, lists, empty, empty])
    ideal_dcg = np.array([2.0, 2.0 + 1.0 / math.log2(3)])
    ndcg = expected_ndcg_many(together, 0.5, 0.5, ideal_dcg, np.array([[0, 2]] * 4))
    ap = expected_ap_many(together, 0.5, 0.5, np.array([2, 2, 2, 2]))
    l3 = math.log2(3)
    want_ndcg = 0.5 * 0.5 + 0.25 * 1 / (2 + 1 / l3) + 0.25 * (1 + 2 / 2) / (2 + 1 / l3)
    want_ap = 0.5 * 0.5 + 0.25 * 0.5 + 0.25 * (1 + 2 / 3) / 2
    assert ndcg.tolist() == pytest.approx([0.0, want_ndcg, 0.0, 0.0], rel=1e-14)
    assert ap.tolist() == pytest.approx([0.0, want_ap, 0.0, 0.0], rel=1e-14)
