"""irscale.fuse against ranx 0.3.21 itself: the same fused scores (relative 1e-9) and the
same order for every method × normalisation, on generated runs and on real CLEF runs.

ranx requires every run to hold every topic: a topic a run lacks is given to ranx as an
empty ranking, which is what irscale makes of it. Where ranx's answer depends on the order
of tied scores (numba's unstable sort) — the rank methods and the ``rank`` and ``borda``
normalisations — the runs given have distinct scores within a topic, and the tied runs go
to the score methods and normalisations that ignore order. CondorcetFuse is compared where
the majority relation orders the documents (no cycle, no tie: ranx's sort then has one
answer), and so is weighted CondorcetFuse. The supervised methods are trained on generated
training runs and qrels by ranx's own ``*_train`` functions, their output handed to
``ranx.fuse``. Ranx runs through numba: each example fuses many topics in one call per method
and normalisation, so the calls stay few.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale import fuse, read_runs
from irscale.fusion.params import FUSION_RANK_METHODS, FUSION_SCORE_METHODS, FUSION_TRAINED

from .oracle_imports import lazy_importorskip
from .property_examples import examples

ranx = lazy_importorskip("ranx")
ranx_fusion = lazy_importorskip("ranx.fusion")

#: ranx's name of each method.
RANX_METHOD = {"combsum": "sum", "combmnz": "mnz", "combmax": "max", "combmin": "min",
               "combmed": "med", "combanz": "anz", "wsum": "wsum", "rrf": "rrf",
               "isr": "isr", "log-isr": "log_isr", "bordafuse": "bordafuse",
               "condorcet": "condorcet", "combgmnz": "gmnz", "mixed": "mixed",
               "logn-isr": "logn_isr", "w-bordafuse": "w_bordafuse",
               "w-condorcet": "w_condorcet", "rbc": "rbc"}
#: Each parameterised method's parameters (irscale's and ranx's names are the same).
PARAMS = {"combgmnz": {"gamma": 0.7}, "logn-isr": {"sigma": 0.3}, "rbc": {"phi": 0.8}}
#: The methods that take one weight per run.
WEIGHTED = ("wsum", "mixed", "w-bordafuse", "w-condorcet")
#: The untrained methods compared on any runs (Condorcet's where its order is one).
UNTRAINED_SCORE = [m for m in FUSION_SCORE_METHODS if m not in FUSION_TRAINED]
UNTRAINED_RANK = [m for m in FUSION_RANK_METHODS
                  if m not in FUSION_TRAINED and m not in ("condorcet", "w-condorcet")]
#: Normalisations whose result does not depend on the order of tied scores.
ORDER_FREE_NORMS = ("none", "min-max", "max", "sum", "zmuv")
ORDERED_NORMS = ("rank", "borda")
#: Scores that tie often (and a negative one, and zero).
TIED_SCORES = (-1.5, 0.0, 0.25, 1.0, 2.0, 7.5)

Runs = dict[str, dict[str, dict[str, float]]]


def _padded(runs: Runs) -> list:
    """ranx runs of ``runs``, every topic of any run in each (empty where it lacks one)."""
    topics = sorted({topic for run in runs.values() for topic in run})
    return [ranx.Run({topic: run.get(topic, {}) for topic in topics}, name=name)
            for name, run in runs.items()]


def _ranx_fuse(runs: Runs, method: str, norm: str, weights: list[float] | None,
               training: dict | None = None) -> dict[str, dict[str, float]]:
    params = {"weights": weights} if weights is not None else {}
    params.update(PARAMS.get(method, {}))
    if training is not None:
        params.update(_ranx_trained(method, **training))
    fused = ranx.fuse(_padded(runs), norm=None if norm == "none" else norm,
                      method=RANX_METHOD.get(method, method), params=params)
    return {topic: dict(fused.run[topic]) for topic in fused.run}


def _ours(runs: Runs, method: str, norm: str, weights: list[float] | None,
          training: dict | None = None) -> dict[str, list[tuple[str, float]]]:
    rank_method = method in FUSION_RANK_METHODS
    extra = dict(PARAMS.get(method, {}))
    if training is not None:
        extra.update(train_qrels=training["qrels"], train_runs=training["runs"],
                     **training.get("params", {}))
    fused = fuse(runs, method, norm=None if rank_method else norm, weights=weights, **extra)
    frame = fused.to_frame()
    out: dict[str, list[tuple[str, float]]] = {}
    for topic, docno, score in zip(frame.query_id, frame.doc_id, frame.score, strict=True):
        out.setdefault(topic, []).append((docno, float(score)))
    return out


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def check_same(runs: Runs, method: str, norm: str, weights: list[float] | None = None,
               training: dict | None = None) -> None:
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
    theirs = _ranx_fuse(runs, method, norm, weights, training)
    ours = _ours(runs, method, norm, weights, training)
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


@settings(max_examples=examples(2))
@given(layout=layouts(), data=st.data())
def test_score_methods_with_ties(layout, data):
    runs = tied(data.draw, layout)
    weights = data.draw(st.lists(st.sampled_from([0.0, 0.3, 1.0, 2.5, -0.5]),
                                 min_size=len(runs), max_size=len(runs)))
    for method in UNTRAINED_SCORE:
        for norm in ORDER_FREE_NORMS:
            check_same(runs, method, norm, weights if method in WEIGHTED else None)


@settings(max_examples=examples(2))
@given(layout=layouts(), offsets=st.lists(st.sampled_from([-20.0, 0.0, 0.5, 100.0]),
                                          min_size=4, max_size=4))
def test_ordered_norms_and_rank_methods(layout, offsets):
    runs = distinct(layout, offsets)
    weights = [0.5, 1.5, 0.25, 2.0][:len(runs)]
    for method in UNTRAINED_SCORE:
        for norm in ORDERED_NORMS:
            check_same(runs, method, norm, weights if method in WEIGHTED else None)
    for method in UNTRAINED_RANK:
        check_same(runs, method, "none", weights if method in WEIGHTED else None)


def _ordered_by_majority(permutations: list[list[str]],
                         weights: tuple[float, ...] = (1.0, 1.0, 1.0)) -> bool:
    """Whether the (weighted) majority relation of complete rankings is a strict order: no
    tie (weights no subset of which sums to half), and ordering by the number of wins
    puts every document before each it beats (a transitive tournament)."""
    place = [{doc: i for i, doc in enumerate(p)} for p in permutations]
    docs = permutations[0]

    def beats(x: str, y: str) -> bool:
        return sum(w for w, p in zip(weights, place, strict=True) if p[x] < p[y]) * 2 > \
            sum(weights)

    wins = {x: sum(beats(x, y) for y in docs if y != x) for x in docs}
    order = sorted(docs, key=lambda d: -wins[d])
    return all(beats(x, y) for i, x in enumerate(order) for y in order[i + 1:])


@settings(max_examples=examples(2))
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


#: Weights of three runs no two of which outweigh the third alone, nor tie.
CONDORCET_WEIGHTS = (0.5, 0.3, 0.4)


@settings(max_examples=examples(2))
@given(st.lists(st.lists(st.permutations(DOCS[:6]), min_size=3, max_size=3),
                min_size=4, max_size=12))
def test_weighted_condorcet(topics):
    kept = [ranking for ranking in topics
            if _ordered_by_majority(ranking, CONDORCET_WEIGHTS)]
    if not kept:
        return
    runs = {f"r{r}": {f"q{t:02d}": {doc: float(len(ranking[r]) - place)
                                     for place, doc in enumerate(ranking[r])}
                      for t, ranking in enumerate(kept)} for r in range(3)}
    check_same(runs, "w-condorcet", "none", list(CONDORCET_WEIGHTS))


# --------------------------------------------------------------------------- supervised
#: Documents of the supervised methods' runs: enough for SegFuse's third segment.
LONG_DOCS = [f"d{i:02d}" for i in range(40)]


def _ranx_trained(method: str, qrels: dict, runs: Runs, params: dict | None = None
                  ) -> dict:
    """ranx's trained parameters of ``method``, every training topic in each run."""
    params = params or {}
    ranx_qrels = ranx.Qrels(qrels)
    padded = [ranx.Run({topic: run.get(topic, {}) for topic in sorted(qrels)}, name=name)
              for name, run in runs.items()]
    train = getattr(ranx_fusion, f"{method}_train")  # ranx.fusion.probfuse_train, ...
    if method == "probfuse":
        return {"probs": train(ranx_qrels, padded, params["segments"])}
    if method == "slidefuse":
        return {"probs": train(ranx_qrels, padded), "w": params["window"]}
    if method == "mapfuse":
        return {"map_scores": train(ranx_qrels, padded)}
    if method == "bayesfuse":
        return {"log_odds": train(ranx_qrels, padded)}
    return {"probs": train(ranx_qrels, padded)}  # posfuse, segfuse


@st.composite
def trainings(draw):
    """Training runs (distinct scores; topics some runs lack) and qrels of the training
    topics, every topic with one relevant document at least (ranx aligns hit lists by
    position), and the runs to fuse."""
    n_runs = draw(st.integers(2, 3))
    topics = [f"t{i}" for i in range(draw(st.integers(1, 6)))]

    def runs_of(topic_ids: list[str]) -> Runs:
        runs: Runs = {}
        for r in range(n_runs):
            run = {}
            for topic in topic_ids:
                docs = draw(st.lists(st.sampled_from(LONG_DOCS), unique=True, max_size=30))
                if docs or topic == topic_ids[0]:
                    docs = docs or [LONG_DOCS[r]]
                    run[topic] = {d: (1.5 + r) * (len(docs) - i) + r
                                  for i, d in enumerate(docs)}
            runs[f"r{r}"] = run
        return runs

    qrels = {}
    for topic in topics:
        judged = draw(st.lists(st.sampled_from(LONG_DOCS), unique=True, min_size=1,
                               max_size=25))
        qrels[topic] = {d: draw(st.sampled_from([0, 1, 2])) for d in judged}
        qrels[topic][judged[0]] = 1
    test_topics = [f"q{i}" for i in range(draw(st.integers(1, 4)))]
    return {"qrels": qrels, "runs": runs_of(topics)}, runs_of(test_topics)


@settings(max_examples=examples(3), deadline=None)
@given(data=trainings(), segments=st.integers(1, 7), window=st.integers(0, 4))
def test_supervised_methods(data, segments, window):
    training, runs = data
    for method in FUSION_TRAINED:
        params = {"probfuse": {"segments": segments}, "slidefuse": {"window": window}}
        check_same(runs, method, "min-max" if method == "segfuse" else "none",
                   training={**training, "params": params.get(method, {})})


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
    for method in UNTRAINED_SCORE:
        weights = [0.2, 0.5, 0.3] if method in WEIGHTED else None
        for norm in ORDER_FREE_NORMS:
            check_same(scored, method, norm, weights)
        for norm in ORDERED_NORMS:
            check_same(ranked, method, norm, weights)
    for method in UNTRAINED_RANK:
        check_same(ranked, method, "none", [0.2, 0.5, 0.3] if method in WEIGHTED else None)


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


def test_clef_supervised_methods(clef):
    """Trained on six CLEF topics (their qrels), fusing six others: ranx's scores."""
    _, ranked = _clef_runs(clef, depth=60, topics=12)
    qrels = ranx.Qrels.from_file(str(clef / "task2.qrels"), kind="trec")
    topics = sorted(next(iter(ranked.values())))
    judged = [t for t in topics if any(r > 0 for r in qrels.qrels[t].values())][:6]
    training = {"qrels": {t: {d: int(r) for d, r in qrels.qrels[t].items()} for t in judged},
                "runs": {name: {t: run[t] for t in judged if t in run}
                         for name, run in ranked.items()}}
    fused = {name: {t: docs for t, docs in run.items() if t not in judged}
             for name, run in ranked.items()}
    for method in FUSION_TRAINED:
        params = {"probfuse": {"segments": 7}, "slidefuse": {"window": 3}}
        check_same(fused, method, "min-max" if method == "segfuse" else "none",
                   training={**training, "params": params.get(method, {})})


# --------------------------------------------------------------------------- a run's no vote
#: docs/fusion.md's example: r1 ranks d1 above d2; r2 and r3 retrieve d3 only.
NO_VOTE_EXAMPLE = (("d1", "d2"), ("d3",), ("d3",))
#: Its weights for weighted CondorcetFuse: r1's 2 below r2's and r3's 2.5 together.
NO_VOTE_WEIGHTS = (2.0, 1.5, 1.0)
#: Copies of the example, each topic's docnos its own, so that the order in which ranx's
#: set of candidates yields d1 and d2 changes from topic to topic (each order's chance of
#: missing from every topic: 2^-31).
NO_VOTE_TOPICS = 32


def _prefers(ranking: tuple[str, ...], x: str, y: str) -> bool:
    """Whether a run ranks ``x`` above ``y``: both retrieved, ``x`` first, or ``x`` only."""
    if x not in ranking:
        return False
    return y not in ranking or ranking.index(x) < ranking.index(y)


@pytest.mark.parametrize("weights", [None, NO_VOTE_WEIGHTS])
def test_run_retrieving_neither_document_has_no_vote(weights):
    """irscale follows the (weighted) majority, counting no vote from a run that retrieves
    neither document; ranx's comparison counts that run for its second document, so the
    pair d1, d2 keeps the order ranx's set yields it in: d2 above d1 on some topics."""
    w = weights or (1.0,) * len(NO_VOTE_EXAMPLE)
    docs = ("d1", "d2", "d3")

    def beats(x: str, y: str) -> bool:
        votes_x = sum(wr for wr, r in zip(w, NO_VOTE_EXAMPLE, strict=True) if _prefers(r, x, y))
        votes_y = sum(wr for wr, r in zip(w, NO_VOTE_EXAMPLE, strict=True) if _prefers(r, y, x))
        return votes_x > votes_y

    majority = sorted(docs, key=lambda x: -sum(beats(x, y) for y in docs))
    assert all(beats(x, y) for i, x in enumerate(majority) for y in majority[i + 1:])
    assert majority == ["d3", "d1", "d2"]

    runs = {f"r{r + 1}": {f"q{t:02d}": {f"t{t}-{d}": float(len(ranking) - place)
                                         for place, d in enumerate(ranking)}
                          for t in range(NO_VOTE_TOPICS)}
            for r, ranking in enumerate(NO_VOTE_EXAMPLE)}
    method = "condorcet" if weights is None else "w-condorcet"
    ours = _ours(runs, method, "none", None if weights is None else list(weights))
    theirs = _ranx_fuse(runs, method, "none", None if weights is None else list(weights))
    ranx_orders = set()
    for t in range(NO_VOTE_TOPICS):
        topic = f"q{t:02d}"
        assert [d for d, _ in ours[topic]] == [f"t{t}-{d}" for d in majority]
        order = sorted(theirs[topic], key=lambda d: -theirs[topic][d])
        ranx_orders.add(tuple(d.split("-")[1] for d in order))
    assert ranx_orders == {("d3", "d1", "d2"), ("d3", "d2", "d1")}
