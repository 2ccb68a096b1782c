"""ranx's fusion, recorded: the cases ``tests/test_fusion_ranx.py`` compares irscale.fuse
with, and what ranx 0.3.21 answers on each, written to ``tests/fixtures/ranx_fusion.json.gz``
(JSON, gzipped: 2 MB of scores, 0.6 MB stored).

ranx runs through numba, whose compilation of the fusion kernels made the tests cost 36 s
of CPU where it had compiled before and 374 s on a fresh machine (CI's): the test
compares irscale with ranx's recorded answers, and calls ranx again (:func:`record` on the
fixture's inputs, failing on any difference) only where the installed ranx is not the
release that answered, or where ``IRSCALE_REFRESH_ORACLES=1`` asks. Every value of the
fixture is ranx's own, written by this module::

    PYTHONPATH=src python -m tests.oracles.ranx_fusion

The cases: the properties' layouts drawn by Hypothesis with a fixed seed (derandomised,
:data:`DRAWN` of each, where one run of the properties drew 2 or 3), three CLEF
2016 runs (``../shared/data``: cut to a few topics and documents, recorded with the inputs,
so the comparison runs without the data; where the data is there the test checks that
irscale still reads the same inputs from it), the supervised methods trained by ranx's own
``*_train`` functions, and docs/fusion.md's example of a run that has no vote.

ranx requires every run to hold every topic: a topic a run lacks is given to ranx as an
empty ranking, which is what irscale makes of it. Where ranx's answer depends on the order
of tied scores (numba's unstable sort) — the rank methods and the ``rank`` and ``borda``
normalisations — the runs given have distinct scores within a topic, and the tied runs go
to the score methods and normalisations that ignore order. CondorcetFuse is compared where
the majority relation orders the documents (no cycle, no tie: ranx's sort then has one
answer), and so is weighted CondorcetFuse.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from irscale.fusion.params import FUSION_RANK_METHODS, FUSION_SCORE_METHODS, FUSION_TRAINED

#: The recorded answers.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ranx_fusion.json.gz"

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
#: Examples drawn of each property: four to six times what one run of them drew (2; 3 for
#: the supervised methods), the recording being made once.
DRAWN = 12

Runs = dict[str, dict[str, dict[str, float]]]
Fused = dict[str, dict[str, float]]


# --------------------------------------------------------------------------- calls
def compared_runs(runs: Runs, norm: str) -> Runs:
    """The runs compared under ``norm``: ranx 0.3.21's ``zmuv`` loses every ranking of a run
    that has an empty one (numba's mean of no score), so with ``zmuv`` the runs are cut to
    the topics they all hold (none left: nothing is compared)."""
    if norm != "zmuv":
        return runs
    common = set.intersection(*(set(run) for run in runs.values()))
    return {name: {t: docs for t, docs in run.items() if t in common}
            for name, run in runs.items()} if common else {}


def _padded(ranx: Any, runs: Runs) -> list:
    """ranx runs of ``runs``, every topic of any run in each (empty where it lacks one)."""
    topics = sorted({topic for run in runs.values() for topic in run})
    return [ranx.Run({topic: run.get(topic, {}) for topic in topics}, name=name)
            for name, run in runs.items()]


def _trained(method: str, qrels: dict, runs: Runs, params: dict | None = None) -> dict:
    """ranx's trained parameters of ``method``, every training topic in each run."""
    import ranx
    from ranx import fusion

    params = params or {}
    ranx_qrels = ranx.Qrels(qrels)
    padded = [ranx.Run({topic: run.get(topic, {}) for topic in sorted(qrels)}, name=name)
              for name, run in runs.items()]
    train = getattr(fusion, f"{method}_train")  # ranx.fusion.probfuse_train, ...
    if method == "probfuse":
        return {"probs": train(ranx_qrels, padded, params["segments"])}
    if method == "slidefuse":
        return {"probs": train(ranx_qrels, padded), "w": params["window"]}
    if method == "mapfuse":
        return {"map_scores": train(ranx_qrels, padded)}
    if method == "bayesfuse":
        return {"log_odds": train(ranx_qrels, padded)}
    return {"probs": train(ranx_qrels, padded)}  # posfuse, segfuse


def ranx_fuse(runs: Runs, method: str, norm: str, weights: list[float] | None,
              training: dict | None = None) -> Fused:
    """``ranx.fuse`` of ``runs`` (``training``: the qrels, runs and parameters its
    ``*_train`` function learns from)."""
    import ranx

    params: dict[str, Any] = {"weights": weights} if weights is not None else {}
    params.update(PARAMS.get(method, {}))
    if training is not None:
        params.update(_trained(method, training["qrels"], training["runs"],
                               training.get("params")))
    fused = ranx.fuse(_padded(ranx, runs), norm=None if norm == "none" else norm,
                      method=RANX_METHOD.get(method, method), params=params)
    return {topic: {doc: float(score) for doc, score in fused.run[topic].items()}
            for topic in fused.run}


def ranx_optimize(qrels: dict, runs: Runs) -> list[float]:
    """``ranx.optimize_fusion``'s best weights of ``wsum`` on min-max scores for P@10."""
    import ranx

    padded = [ranx.Run(run, name=name) for name, run in runs.items()]
    best = ranx.optimize_fusion(ranx.Qrels(qrels), padded, norm="min-max", method="wsum",
                                metric="precision@10", show_progress=False)
    return [float(w) for w in best["weights"]]


# --------------------------------------------------------------------------- the cases
def ranked_calls(weights: list[float]) -> list[tuple[str, str, list[float] | None]]:
    """(method, normalisation, weights) of the comparisons on runs of distinct scores: the
    score methods under the normalisations that read the order, and the rank methods."""
    calls = [(m, n, weights if m in WEIGHTED else None) for m in UNTRAINED_SCORE
             for n in ORDERED_NORMS]
    return calls + [(m, "none", weights if m in WEIGHTED else None) for m in UNTRAINED_RANK]


def tied_calls(weights: list[float]) -> list[tuple[str, str, list[float] | None]]:
    """(method, normalisation, weights) of the comparisons on runs of tied scores: the
    score methods under the normalisations that ignore the order of ties."""
    return [(m, n, weights if m in WEIGHTED else None) for m in UNTRAINED_SCORE
            for n in ORDER_FREE_NORMS]


def _drawn(strategy: st.SearchStrategy, count: int = DRAWN) -> list:
    """``count`` examples of ``strategy``, the same at every recording (derandomised)."""
    found: list = []

    @settings(max_examples=count, derandomize=True, database=None, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: object) -> None:
        found.append(value)

    collect()
    return found


DOCS = [f"d{i}" for i in range(9)]


@st.composite
def layouts(draw: Callable) -> list[dict[str, list[str]]]:
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


@st.composite
def tied_runs(draw: Callable) -> dict:
    """Runs of a layout scored from :data:`TIED_SCORES`, and a weight per run."""
    layout = draw(layouts())
    runs = {f"r{i}": {topic: {doc: draw(st.sampled_from(TIED_SCORES)) for doc in docs}
                      for topic, docs in run.items()} for i, run in enumerate(layout)}
    weights = draw(st.lists(st.sampled_from([0.0, 0.3, 1.0, 2.5, -0.5]),
                            min_size=len(runs), max_size=len(runs)))
    return {"runs": runs, "weights": weights}


@st.composite
def distinct_runs(draw: Callable) -> Runs:
    """Runs of a layout, scores decreasing in the drawn order, with a scale and offset per
    run."""
    layout = draw(layouts())
    offsets = draw(st.lists(st.sampled_from([-20.0, 0.0, 0.5, 100.0]), min_size=4,
                            max_size=4))
    return {f"r{i}": {topic: {doc: offsets[i] + (1.5 + i) * (len(docs) - place)
                              for place, doc in enumerate(docs)}
                      for topic, docs in run.items()} for i, run in enumerate(layout)}


def ordered_by_majority(permutations: list[list[str]],
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


#: Weights of three runs no two of which outweigh the third alone, nor tie.
CONDORCET_WEIGHTS = (0.5, 0.3, 0.4)


def majority_runs(topics: list[list[list[str]]],
                  weights: tuple[float, ...] = (1.0, 1.0, 1.0)) -> Runs:
    """Three runs of the topics whose rankings the (weighted) majority orders, scored by
    their places (no run when none is)."""
    kept = [ranking for ranking in topics if ordered_by_majority(ranking, weights)]
    if not kept:
        return {}
    return {f"r{r}": {f"q{t:02d}": {doc: float(len(ranking[r]) - place)
                                     for place, doc in enumerate(ranking[r])}
                      for t, ranking in enumerate(kept)} for r in range(3)}


#: Three rankings of six documents on each topic (Condorcet's cases).
_THREE = st.lists(st.permutations(DOCS[:6]), min_size=3, max_size=3)

#: Documents of the supervised methods' runs: enough for SegFuse's third segment.
LONG_DOCS = [f"d{i:02d}" for i in range(40)]


@st.composite
def trainings(draw: Callable) -> dict:
    """Training runs (distinct scores; topics some runs lack) and qrels of the training
    topics, every topic with one relevant document at least (ranx aligns hit lists by
    position), the runs to fuse, and ProbFuse's segments and SlideFuse's window."""
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
    training = {"qrels": qrels, "runs": runs_of(topics)}
    return {"training": training, "runs": runs_of(test_topics),
            "segments": draw(st.integers(1, 7)), "window": draw(st.integers(0, 4))}


def trained_calls() -> list[tuple[str, str, list[float] | None]]:
    """(method, normalisation, weights) of every trained method (SegFuse's min-max)."""
    return [(m, "min-max" if m == "segfuse" else "none", None) for m in FUSION_TRAINED]


# --------------------------------------------------------------------------- CLEF
CLEF_RUNS = ("CUNI_EN_Run1.txt", "GUIR_EN_Run2.txt", "ecnu_EN_Run3.txt")


def clef_runs(clef: Path, depth: int, topics: int) -> tuple[Runs, Runs]:
    """Three CLEF runs cut to ``depth`` documents on ``topics`` topics: as read (many tied
    scores), and re-scored by irscale's ranking (distinct scores, the same order)."""
    from irscale import read_runs

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
        scored[run.name] = {t: dict(zip(p.doc_id, map(float, p.score), strict=True))
                            for t, p in frame.groupby("query_id")}
        ranked[run.name] = {t: {d: float(len(p) - i) for i, d in enumerate(p.doc_id)}
                            for t, p in frame.groupby("query_id")}
    return scored, ranked


def clef_qrels(clef: Path, topics: list[str]) -> dict[str, dict[str, int]]:
    """The CLEF qrels of ``topics`` (``{topic: {docno: degree}}``), read by irscale."""
    from irscale import read_qrels

    frame = read_qrels(clef / "task2.qrels").to_frame()
    frame = frame[frame.query_id.isin(topics)]
    return {t: {d: int(r) for d, r in zip(p.doc_id, p.relevance, strict=True)}
            for t, p in frame.groupby("query_id")}


def clef_cases(clef: Path) -> dict[str, Any]:
    """The CLEF comparisons: the runs of the untrained methods (60 documents, 6 topics),
    optimize_fusion's two runs and qrels (40 documents, 8 topics), the supervised methods
    trained on six judged topics of twelve and fusing the six others."""
    scored, ranked = clef_runs(clef, depth=60, topics=6)
    opt_scored, _ = clef_runs(clef, depth=40, topics=8)
    two = dict(list(opt_scored.items())[:2])
    opt_topics = sorted(next(iter(two.values())))
    _, ranked12 = clef_runs(clef, depth=60, topics=12)
    topics12 = sorted(next(iter(ranked12.values())))
    qrels12 = clef_qrels(clef, topics12)
    judged = [t for t in topics12 if any(r > 0 for r in qrels12.get(t, {}).values())][:6]
    training = {"qrels": {t: qrels12[t] for t in judged},
                "runs": {name: {t: run[t] for t in judged if t in run}
                         for name, run in ranked12.items()}}
    fused = {name: {t: docs for t, docs in run.items() if t not in judged}
             for name, run in ranked12.items()}
    return {"scored": scored, "ranked": ranked,
            "optimize": {"qrels": clef_qrels(clef, opt_topics), "runs": two},
            "supervised": {"runs": fused, "training": training}}


# --------------------------------------------------------------------------- no vote
#: docs/fusion.md's example: r1 ranks d1 above d2; r2 and r3 retrieve d3 only.
NO_VOTE_EXAMPLE = (("d1", "d2"), ("d3",), ("d3",))
#: Its weights for weighted CondorcetFuse: r1's 2 below r2's and r3's 2.5 together.
NO_VOTE_WEIGHTS = (2.0, 1.5, 1.0)
#: Copies of the example, each topic's docnos its own, so that the order in which ranx's
#: set of candidates yields d1 and d2 changes from topic to topic (each order's chance of
#: missing from every topic: 2^-31).
NO_VOTE_TOPICS = 32


def no_vote_runs() -> Runs:
    """:data:`NO_VOTE_EXAMPLE` on :data:`NO_VOTE_TOPICS` topics."""
    return {f"r{r + 1}": {f"q{t:02d}": {f"t{t}-{d}": float(len(ranking) - place)
                                         for place, d in enumerate(ranking)}
                          for t in range(NO_VOTE_TOPICS)}
            for r, ranking in enumerate(NO_VOTE_EXAMPLE)}


# --------------------------------------------------------------------------- recording
def inputs(clef: Path) -> dict[str, Any]:
    """Every comparison's inputs (no answer yet): ``{"cases": [case, ...], "optimize":
    {"qrels", "runs"}}``, a case ``{"group", "runs", "training", "calls"}`` (``training``:
    the qrels and runs the supervised methods learn from, or None), a call ``{"method",
    "norm", "weights", "params"}`` (``params``: a trained method's segments or window)."""
    cases: list[dict] = []

    def add(group: str, runs: Runs, calls: list[tuple[str, str, list[float] | None]],
            training: dict | None = None, params: dict | None = None) -> None:
        cases.append({"group": group, "runs": runs, "training": training,
                      "calls": [{"method": method, "norm": norm, "weights": weights,
                                 "params": (params or {}).get(method, {})}
                                for method, norm, weights in calls
                                if compared_runs(runs, norm)]})

    for case in _drawn(tied_runs()):
        add("tied", case["runs"], tied_calls(case["weights"]))
    for runs in _drawn(distinct_runs()):
        add("ordered", runs, ranked_calls([0.5, 1.5, 0.25, 2.0][:len(runs)]))
    for topics in _drawn(st.lists(_THREE, min_size=1, max_size=11)):
        if runs := majority_runs(topics):
            add("condorcet", runs, [("condorcet", "none", None)])
    for topics in _drawn(st.lists(_THREE, min_size=4, max_size=12)):
        if runs := majority_runs(topics, CONDORCET_WEIGHTS):
            add("weighted_condorcet", runs,
                [("w-condorcet", "none", list(CONDORCET_WEIGHTS))])
    for case in _drawn(trainings()):
        add("supervised", case["runs"], trained_calls(), case["training"],
            {"probfuse": {"segments": case["segments"]},
             "slidefuse": {"window": case["window"]}})
    clef_case = clef_cases(clef)
    add("clef_tied", clef_case["scored"], tied_calls([0.2, 0.5, 0.3]))
    add("clef_ranked", clef_case["ranked"], ranked_calls([0.2, 0.5, 0.3]))
    supervised = clef_case["supervised"]
    add("clef_supervised", supervised["runs"], trained_calls(), supervised["training"],
        {"probfuse": {"segments": 7}, "slidefuse": {"window": 3}})
    add("no_vote", no_vote_runs(), [("condorcet", "none", None),
                                    ("w-condorcet", "none", list(NO_VOTE_WEIGHTS))])
    return {"cases": cases, "optimize": clef_case["optimize"]}


def documents(runs: Runs) -> dict[str, list[str]]:
    """Each topic's documents in any of ``runs``, sorted: the order in which the fixture
    lists a fused topic's scores."""
    found: dict[str, set[str]] = {}
    for run in runs.values():
        for topic, docs in run.items():
            found.setdefault(topic, set()).update(docs)
    return {topic: sorted(docs) for topic, docs in found.items()}


def answer(case: dict[str, Any], call: dict[str, Any]) -> dict[str, list[float | None]]:
    """ranx's fused scores of one call, per topic in the order of :func:`documents` (None:
    a document ranx's fused run lacks)."""
    runs = compared_runs(case["runs"], call["norm"])
    training = None if case["training"] is None else \
        {**case["training"], "params": call["params"]}
    fused = ranx_fuse(runs, call["method"], call["norm"], call["weights"], training)
    order = documents(runs)
    stray = {t: set(docs) - set(order.get(t, ())) for t, docs in fused.items()}
    if any(stray.values()):
        raise AssertionError(f"ranx fused documents no run holds: {stray}")
    return {topic: [docs.get(doc) for doc in order[topic]] for topic, docs in fused.items()}


def record(cases: dict[str, Any]) -> dict[str, Any]:
    """ranx's answers to ``cases`` (:func:`inputs`' shape, or a fixture's): each call with
    its ``fused`` scores (:func:`answer`), the optimisation with its ``weights``, and the
    ranx release."""
    answered = [{**case, "calls": [{**call, "fused": answer(case, call)}
                                   for call in case["calls"]]}
                for case in cases["cases"]]
    optimize = cases["optimize"]
    return {"ranx": importlib.metadata.version("ranx"), "cases": answered,
            "optimize": {"qrels": optimize["qrels"], "runs": optimize["runs"],
                         "weights": ranx_optimize(optimize["qrels"], optimize["runs"])}}


def differences(recorded: dict[str, Any], answered: dict[str, Any]) -> list[str]:
    """Where ranx's answers now differ from the recorded ones (a score beyond a relative
    1e-12, a document more or less), one line each. (docs/fusion.md's example of a run
    with no vote: which of d1, d2 ranx puts first on a topic is the order its set yields
    them in, drawn anew by each process; the orders shown over the topics are compared.)"""
    found = []
    for number, (old_case, new_case) in enumerate(zip(recorded["cases"], answered["cases"],
                                                      strict=True)):
        for old, new in zip(old_case["calls"], new_case["calls"], strict=True):
            where = f"case {number} ({old_case['group']}), {old['method']}, {old['norm']}"
            if old["fused"].keys() != new["fused"].keys():
                found.append(f"{where}: topics {sorted(old['fused'])} now "
                             f"{sorted(new['fused'])}")
                continue
            if old_case["group"] == "no_vote":  # the orders ranx's set yields, by topic:
                # its strings' hashes, drawn anew by each process (PYTHONHASHSEED)
                shown = {tuple(scores) for scores in old["fused"].values()}
                if shown != {tuple(scores) for scores in new["fused"].values()}:
                    found.append(f"{where}: the topics' scores {sorted(shown)} now "
                                 f"{sorted({tuple(s) for s in new['fused'].values()})}")
                continue
            for topic, scores in old["fused"].items():
                now = new["fused"][topic]
                if any((a is None) != (b is None) or (a is not None and b is not None and
                                                      not math.isclose(a, b, rel_tol=1e-12))
                       for a, b in zip(scores, now, strict=True)):
                    found.append(f"{where}, topic {topic}: {scores} now {now}")
    if recorded["optimize"]["weights"] != answered["optimize"]["weights"]:
        found.append(f"optimize_fusion: weights {recorded['optimize']['weights']} now "
                     f"{answered['optimize']['weights']}")
    return found


def load() -> dict[str, Any]:
    """The recorded answers (:data:`FIXTURE`)."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def main() -> None:
    """Record the cases and ranx's answers in :data:`FIXTURE` (the CLEF data of
    ``../shared/data`` needed)."""
    from tests.conftest import CLEF

    if not CLEF.exists():
        raise SystemExit(f"the CLEF 2016 data is needed to record: {CLEF}")
    answers = record(inputs(CLEF))
    text = json.dumps(answers, separators=(",", ":")) + "\n"
    FIXTURE.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    calls = sum(len(case["calls"]) for case in answers["cases"])
    print(f"{FIXTURE}: {calls} calls of ranx {answers['ranx']}")


if __name__ == "__main__":
    main()
