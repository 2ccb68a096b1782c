"""irscale.fuse against ranx 0.3.21 itself: the same fused scores (relative 1e-9) and the
same order for every method × normalisation, on generated runs and on real CLEF runs.

ranx's answers are recorded (``tests/oracles/ranx_fusion.py`` writes them, with the cases,
to ``tests/fixtures/ranx_fusion.json.gz``): ranx runs through numba, whose compilation
made these tests cost 36 s of CPU where it had compiled before and 374 s on a fresh
machine (CI's); they cost 6 s on the record.
The answers are ranx's own; ranx answers again, and any difference from the record fails
:func:`test_the_record_is_ranxs_answer`, where the installed ranx is another release than
the one recorded or ``IRSCALE_REFRESH_ORACLES=1`` is set (ranx is not needed otherwise).

The cases (the module above says how they are drawn): ranx requires every run to hold
every topic, and a topic a run lacks is given to it as an empty ranking, which is what
irscale makes of it. Where ranx's answer depends on the order of tied scores (numba's
unstable sort) — the rank methods and the ``rank`` and ``borda`` normalisations — the runs
have distinct scores within a topic, and the tied runs go to the score methods and
normalisations that ignore order. CondorcetFuse is compared where the majority relation
orders the documents (no cycle, no tie: ranx's sort then has one answer), and so is
weighted CondorcetFuse. The supervised methods are trained by ranx's own ``*_train``
functions, their output handed to ``ranx.fuse``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from irscale import fuse
from irscale.fusion.params import FUSION_RANK_METHODS

from .oracles import ranx_fusion as oracle
from .oracles.ranx_fusion import Runs
from .oracles.recorded import ask_again


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    """ranx's recorded answers (:func:`tests.oracles.ranx_fusion.load`)."""
    return oracle.load()


def test_the_record_is_ranxs_answer(recorded):
    """ranx answers the recorded cases as recorded: checked where the installed ranx is not
    the recorded release, or when asked (``IRSCALE_REFRESH_ORACLES=1``)."""
    why = ask_again("ranx", recorded["ranx"])
    if why is None:
        pytest.skip(f"ranx {recorded['ranx']}'s record used (IRSCALE_REFRESH_ORACLES=1 asks "
                    "ranx again)")
    found = oracle.differences(recorded, oracle.record(recorded))
    assert not found, (f"ranx answers otherwise than ranx {recorded['ranx']} recorded "
                       f"({why}; python -m tests.oracles.ranx_fusion records it again):\n"
                       + "\n".join(found[:20]))


def _ours(runs: Runs, method: str, norm: str, weights: list[float] | None,
          params: dict, training: dict | None = None) -> dict[str, list[tuple[str, float]]]:
    rank_method = method in FUSION_RANK_METHODS
    extra = dict(oracle.PARAMS.get(method, {}))
    if training is not None:
        extra.update(train_qrels=training["qrels"], train_runs=training["runs"], **params)
    fused = fuse(runs, method, norm=None if rank_method else norm, weights=weights, **extra)
    frame = fused.to_frame()
    out: dict[str, list[tuple[str, float]]] = {}
    for topic, docno, score in zip(frame.query_id, frame.doc_id, frame.score, strict=True):
        out.setdefault(topic, []).append((docno, float(score)))
    return out


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _theirs(case: dict[str, Any], call: dict[str, Any]) -> dict[str, dict[str, float]]:
    """ranx's recorded fused run of ``call`` on ``case``'s runs: ``{topic: {docno:
    score}}``."""
    order = oracle.documents(oracle.compared_runs(case["runs"], call["norm"]))
    return {topic: {doc: score for doc, score in zip(order[topic], scores, strict=True)
                    if score is not None}
            for topic, scores in call["fused"].items()}


def check_same(case: dict[str, Any], call: dict[str, Any]) -> None:
    """Same documents and scores per topic; irscale's order is ranx's scores descending,
    ties (equal within the tolerance) by docno descending. (``zmuv``: the runs cut to the
    topics they all hold, :func:`tests.oracles.ranx_fusion.compared_runs`.)"""
    method, norm = call["method"], call["norm"]
    runs = oracle.compared_runs(case["runs"], norm)
    theirs = _theirs(case, call)
    ours = _ours(runs, method, norm, call["weights"], call["params"], case["training"])
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


def _check_group(recorded: dict[str, Any], group: str) -> None:
    """Every recorded call of the cases of ``group``, the failures listed together."""
    cases = [case for case in recorded["cases"] if case["group"] == group]
    assert cases, f"no recorded case of {group}"
    failed = []
    for number, case in enumerate(cases):
        for call in case["calls"]:
            try:
                check_same(case, call)
            except AssertionError as error:
                failed.append(f"case {number}, {call['method']}, {call['norm']}: {error}")
    assert not failed, f"{len(failed)} calls differ from ranx's:\n" + "\n".join(failed)


@pytest.mark.parametrize("group", ["tied", "ordered", "supervised"])
def test_generated_runs(recorded, group):
    """The generated layouts: tied scores under the score methods and the normalisations
    that ignore the order of ties; distinct scores under ``rank``, ``borda`` and the rank
    methods; the supervised methods trained on generated training runs and qrels."""
    _check_group(recorded, group)


@pytest.mark.parametrize("group", ["condorcet", "weighted_condorcet"])
def test_condorcet(recorded, group):
    """Rankings the (weighted) majority orders, and those alone."""
    weights = oracle.CONDORCET_WEIGHTS if group == "weighted_condorcet" else (1.0, 1.0, 1.0)
    for case in (case for case in recorded["cases"] if case["group"] == group):
        runs = case["runs"]
        for topic in next(iter(runs.values())):
            rankings = [sorted(run[topic], key=run[topic].__getitem__, reverse=True)
                        for run in runs.values()]
            assert oracle.ordered_by_majority(rankings, weights), topic
    _check_group(recorded, group)


@pytest.mark.parametrize("group", ["clef_tied", "clef_ranked", "clef_supervised"])
def test_clef_runs(recorded, group):
    """Three CLEF 2016 runs (60 documents, 6 topics) as read and re-scored by their ranks;
    the supervised methods trained on six judged topics, fusing six others."""
    _check_group(recorded, group)


def test_the_clef_cases_are_what_irscale_reads(recorded, clef):
    """The recorded CLEF inputs are what irscale reads from ``../shared/data`` today (skipped
    where it is absent: the comparisons above run on the record)."""
    from irscale import read_runs

    cases = oracle.clef_cases(clef)
    # the record names the runs by their run ids (the rule when it was written); irscale
    # names them by their files now: the same runs, renamed file -> run id
    files = [clef / "runs" / name for name in oracle.CLEF_RUNS]
    run_ids = dict(zip((run.name for run in read_runs(files)),
                       (run.name for run in read_runs(files, names="runid")), strict=True))

    def by_run_id(runs):
        return {run_ids[name]: run for name, run in runs.items()}

    cases = {"scored": by_run_id(cases["scored"]), "ranked": by_run_id(cases["ranked"]),
             "supervised": {"runs": by_run_id(cases["supervised"]["runs"]),
                            "training": {**cases["supervised"]["training"],
                                         "runs": by_run_id(
                                             cases["supervised"]["training"]["runs"])}},
             "optimize": {**cases["optimize"], "runs": by_run_id(cases["optimize"]["runs"])}}
    by_group = {case["group"]: case for case in recorded["cases"]}
    assert by_group["clef_tied"]["runs"] == cases["scored"]
    assert by_group["clef_ranked"]["runs"] == cases["ranked"]
    assert by_group["clef_supervised"]["runs"] == cases["supervised"]["runs"]
    assert by_group["clef_supervised"]["training"] == cases["supervised"]["training"]
    optimize = recorded["optimize"]
    assert {"qrels": optimize["qrels"], "runs": optimize["runs"]} == cases["optimize"]


def test_optimize_fusion_matches_ranx(recorded):
    """Two CLEF runs (where ranx's grid and irscale's are the same): the same best
    weights."""
    from irscale import optimize_fusion

    optimize = recorded["optimize"]
    ours = optimize_fusion(optimize["qrels"], optimize["runs"], "P@10", step=0.1)
    assert list(ours.weights) == pytest.approx(optimize["weights"])


# --------------------------------------------------------------------------- a run's no vote
def _prefers(ranking: tuple[str, ...], x: str, y: str) -> bool:
    """Whether a run ranks ``x`` above ``y``: both retrieved, ``x`` first, or ``x`` only."""
    if x not in ranking:
        return False
    return y not in ranking or ranking.index(x) < ranking.index(y)


@pytest.mark.parametrize("weights", [None, oracle.NO_VOTE_WEIGHTS])
def test_run_retrieving_neither_document_has_no_vote(recorded, weights):
    """irscale follows the (weighted) majority, counting no vote from a run that retrieves
    neither document; ranx's comparison counts that run for its second document, so the
    pair d1, d2 keeps the order ranx's set yields it in: d2 above d1 on some topics."""
    w = weights or (1.0,) * len(oracle.NO_VOTE_EXAMPLE)
    docs = ("d1", "d2", "d3")

    def beats(x: str, y: str) -> bool:
        votes_x = sum(wr for wr, r in zip(w, oracle.NO_VOTE_EXAMPLE, strict=True)
                      if _prefers(r, x, y))
        votes_y = sum(wr for wr, r in zip(w, oracle.NO_VOTE_EXAMPLE, strict=True)
                      if _prefers(r, y, x))
        return votes_x > votes_y

    majority = sorted(docs, key=lambda x: -sum(beats(x, y) for y in docs))
    assert all(beats(x, y) for i, x in enumerate(majority) for y in majority[i + 1:])
    assert majority == ["d3", "d1", "d2"]

    case = next(case for case in recorded["cases"] if case["group"] == "no_vote")
    runs = case["runs"]
    assert runs == oracle.no_vote_runs()
    method = "condorcet" if weights is None else "w-condorcet"
    call = next(call for call in case["calls"] if call["method"] == method)
    assert call["weights"] == (None if weights is None else list(weights))
    ours = _ours(runs, method, "none", call["weights"], {})
    theirs = _theirs(case, call)
    ranx_orders = set()
    for t in range(oracle.NO_VOTE_TOPICS):
        topic = f"q{t:02d}"
        assert [d for d, _ in ours[topic]] == [f"t{t}-{d}" for d in majority]
        order = sorted(theirs[topic], key=lambda d: -theirs[topic][d])
        ranx_orders.add(tuple(d.split("-")[1] for d in order))
    assert ranx_orders == {("d3", "d1", "d2"), ("d3", "d2", "d1")}
