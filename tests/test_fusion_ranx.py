"""irscale.fuse against ranx 0.3.21 itself: the same fused scores (relative 1e-9) and the
same order for every method × normalisation, on generated runs and on real CLEF runs.

ranx requires every run to hold every topic: a topic a run lacks is given to ranx as an
empty ranking, which is what irscale makes of it. Where ranx's answer depends on the order
of tied scores (numba's unstable sort) — the rank methods and the ``rank`` and ``borda``
normalisations — the runs given have distinct scores within a topic, and the tied runs go
to the score methods and normalisations that ignore order. CondorcetFuse is compared where
the majority relation orders the documents (no cycle, no tie: ranx's sort then has one
answer). Ranx runs through numba: each example fuses many topics in one call per method
and normalisation, so the calls stay few.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale import fuse, read_runs
from irscale.core.params import FUSION_RANK_METHODS, FUSION_SCORE_METHODS

ranx = pytest.importorskip("ranx")

#: ranx's name of each method.
RANX_METHOD = {"combsum": "sum", "combmnz": "mnz", "combmax": "max", "combmin": "min",
               "combmed": "med", "combanz": "anz", "wsum": "wsum", "rrf": "rrf",
               "isr": "isr", "log-isr": "log_isr", "bordafuse": "bordafuse",
               "condorcet": "condorcet"}
#: Normalisations whose result does not depend on the order of tied scores.
ORDER_FREE_NORMS = ("none", "min-max", "max", "sum", "zmuv")
ORDERED_NORMS = ("rank", "borda")
#: Scores that tie often (and a negative one, and zero).
TIED_SCORES = (-1.5, 0.0, 0.25, 1.0, 2.0, 7.5)

Runs = dict[str, dict[str, dict[str, float]]]


def _ranx_fuse(runs: Runs, method: str, norm: str, weights: list[float] | None
               ) -> dict[str, dict[str, float]]:
    topics = sorted({topic for run in runs.values() for topic in run})
    padded = [ranx.Run({topic: run.get(topic, {}) for topic in topics}, name=name)
              for name, run in runs.items()]
    params = {"weights": weights} if weights is not None else {}
    fused = ranx.fuse(padded, norm=None if norm == "none" else norm,
                      method=RANX_METHOD[method], params=params)
    return {topic: dict(fused.run[topic]) for topic in fused.run}


def _ours(runs: Runs, method: str, norm: str, weights: list[float] | None
          ) -> dict[str, list[tuple[str, float]]]:
    rank_method = method in FUSION_RANK_METHODS
    fused = fuse(runs, method, norm=None if rank_method else norm, weights=weights)
    frame = fused.to_frame()
    out: dict[str, list[tuple[str, float]]] = {}
    for topic, docno, score in zip(frame.query_id, frame.doc_id, frame.score, strict=True):
        out.setdefault(topic, []).append((docno, float(score)))
    return out


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def check_same(runs: Runs, method: str, norm: str, weights: list[float] | None = None
               ) -> None:
    """Same documents and scores per topic; irscale's order is ranx's scores descending,
    ties (equal within the tolerance) by docno descending.

    ranx 0.3.21's ``zmuv`` loses every ranking of a run that has an empty one (numba's
    mean of no score): with ``zmuv``, the runs are compared on the topics they all hold."""
    if norm == "zmuv":
        common = set.intersection(*(set(run) for run in runs.values()))
        if not common:
            return
        runs = {name: {t: docs for t, docs in run.items() if t in common}
                for name, run in runs.items()}
    theirs = _ranx_fuse(runs, method, norm, weights)
    ours = _ours(runs, method, norm, weights)
    assert sorted(ours) == sorted(t for t, docs in theirs.items() if docs)
    for topic, ranked in ours.items():
        expected = theirs[topic]
        assert sorted(d for d, _ in ranked) == sorted(expected), (method, norm, topic)
        for docno, score in ranked:
            assert _close(score, expected[docno]), (method, norm, topic, docno, score,
                                                    expected[docno])
        for (d1, _), (d2, _) in itertools.pairwise(ranked):
            s1, s2 = expected[d1], expected[d2]
            assert s1 > s2 or _close(s1, s2), (method, norm, topic, d1, d2)
            if s1 == s2:
                assert d1.encode() > d2.encode(), (method, norm, topic, d1, d2)


# --------------------------------------------------------------------------- generated
DOCS = [f"d{i}" for i in range(9)]


@st.composite
def layouts(draw):
    """Per run and topic the documents retrieved, in a drawn order: topics missing from
    some runs, one-document topics, documents missing from some runs."""
    runs = draw(st.integers(2, 4))
    topics = [f"q{i:02d}" for i in range(draw(st.integers(1, 14)))]
    layout = []
    for _ in range(runs):
        run = {}
        for topic in topics:
            docs = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=6))
            if docs:
                run[topic] = docs
        if not run:  # every run retrieves something
            run[topics[0]] = [DOCS[0]]
        layout.append(run)
    return layout


def tied(draw_scores, layout) -> Runs:
    return {f"r{i}": {topic: {doc: draw_scores(st.sampled_from(TIED_SCORES)) for doc in docs}
                      for topic, docs in run.items()} for i, run in enumerate(layout)}


def distinct(layout, offsets: list[float]) -> Runs:
    """Scores decreasing in the drawn order, with a scale and offset per run."""
    return {f"r{i}": {topic: {doc: offsets[i] + (1.5 + i) * (len(docs) - place)
                              for place, doc in enumerate(docs)}
                      for topic, docs in run.items()} for i, run in enumerate(layout)}


@settings(max_examples=2)
@given(layout=layouts(), data=st.data())
def test_score_methods_with_ties(layout, data):
    runs = tied(data.draw, layout)
    weights = data.draw(st.lists(st.sampled_from([0.0, 0.3, 1.0, 2.5, -0.5]),
                                 min_size=len(runs), max_size=len(runs)))
    for method in FUSION_SCORE_METHODS:
        for norm in ORDER_FREE_NORMS:
            check_same(runs, method, norm, weights if method == "wsum" else None)


@settings(max_examples=2)
@given(layout=layouts(), offsets=st.lists(st.sampled_from([-20.0, 0.0, 0.5, 100.0]),
                                          min_size=4, max_size=4))
def test_ordered_norms_and_rank_methods(layout, offsets):
    runs = distinct(layout, offsets)
    for method in FUSION_SCORE_METHODS:
        for norm in ORDERED_NORMS:
            check_same(runs, method, norm, [0.5] * len(runs) if method == "wsum" else None)
    for method in FUSION_RANK_METHODS:
        if method != "condorcet":
            check_same(runs, method, "none")


def _ordered_by_majority(permutations: list[list[str]]) -> bool:
    """Whether the majority relation of complete rankings is a strict order: no tie (an
    odd number of runs), and ordering by the number of wins puts every document before
    each it beats (a transitive tournament)."""
    place = [{doc: i for i, doc in enumerate(p)} for p in permutations]
    docs = permutations[0]

    def beats(x: str, y: str) -> bool:
        return sum(p[x] < p[y] for p in place) * 2 > len(place)

    wins = {x: sum(beats(x, y) for y in docs if y != x) for x in docs}
    order = sorted(docs, key=lambda d: -wins[d])
    return all(beats(x, y) for i, x in enumerate(order) for y in order[i + 1:])


@settings(max_examples=2)
@given(st.lists(st.permutations(DOCS[:6]), min_size=3, max_size=3).flatmap(
    lambda first: st.lists(st.lists(st.permutations(DOCS[:6]), min_size=3, max_size=3),
                           min_size=1, max_size=10).map(lambda rest: [first, *rest])))
def test_condorcet(topics):
    kept = [ranking for ranking in topics if _ordered_by_majority(ranking)]
    if not kept:
        return
    runs = {f"r{r}": {f"q{t:02d}": {doc: float(len(ranking[r]) - place)
                                     for place, doc in enumerate(ranking[r])}
                      for t, ranking in enumerate(kept)} for r in range(3)}
    check_same(runs, "condorcet", "none")


# --------------------------------------------------------------------------- real runs
CLEF_RUNS = ("CUNI_EN_Run1.txt", "GUIR_EN_Run2.txt", "ecnu_EN_Run3.txt")


def _clef_runs(clef, depth: int, topics: int) -> tuple[Runs, Runs]:
    """Three CLEF runs cut to ``depth`` documents on ``topics`` topics: as read (many tied
    scores), and re-scored by irscale's ranking (distinct scores, the same order)."""
    read = read_runs([clef / "runs" / name for name in CLEF_RUNS])
    scored: Runs = {}
    ranked: Runs = {}
    for run in read:
        frame = run.to_frame()
        kept = sorted(frame.query_id.unique())[:topics]
        frame = frame[frame.query_id.isin(kept)]
        frame = frame.assign(key=frame.doc_id.map(lambda d: d.encode())).sort_values(
            ["query_id", "score", "key"], ascending=[True, False, False])
        frame = frame.groupby("query_id", sort=False).head(depth)
        scored[run.name] = {t: dict(zip(p.doc_id, p.score, strict=True))
                            for t, p in frame.groupby("query_id")}
        ranked[run.name] = {t: {d: float(len(p) - i) for i, d in enumerate(p.doc_id)}
                            for t, p in frame.groupby("query_id")}
    return scored, ranked


def test_clef_runs(clef):
    scored, ranked = _clef_runs(clef, depth=60, topics=6)
    for method in FUSION_SCORE_METHODS:
        weights = [0.2, 0.5, 0.3] if method == "wsum" else None
        for norm in ORDER_FREE_NORMS:
            check_same(scored, method, norm, weights)
        for norm in ORDERED_NORMS:
            check_same(ranked, method, norm, weights)
    for method in FUSION_RANK_METHODS:
        if method != "condorcet":
            check_same(ranked, method, "none")


def test_optimize_fusion_matches_ranx(clef):
    """Two runs (where ranx's grid and irscale's are the same): the same best weights."""
    from irscale import optimize_fusion

    scored, _ = _clef_runs(clef, depth=40, topics=8)
    two = dict(list(scored.items())[:2])
    qrels = ranx.Qrels.from_file(str(clef / "task2.qrels"), kind="trec")
    topics = sorted(next(iter(two.values())))
    qrels_dict = {t: {d: int(r) for d, r in qrels.qrels[t].items()} for t in topics}
    ours = optimize_fusion(qrels_dict, two, "P@10", step=0.1)
    padded = [ranx.Run(run, name=name) for name, run in two.items()]
    theirs = ranx.optimize_fusion(ranx.Qrels(qrels_dict), padded, norm="min-max",
                                  method="wsum", metric="precision@10",
                                  show_progress=False)
    assert list(ours.weights) == pytest.approx(list(theirs["weights"]))
