"""pytrec_eval-style dicts judged by the engine (:mod:`irscale.io.native_dicts`): the same
judged rankings as the Python reader and judge (:mod:`irscale.io.memory`,
:func:`irscale.core.judge.build_judged_rankings`) on generated dicts, the engine path taken
(with values worked by hand), and the same errors and warnings as the Python path for
faulty dicts, which keep it."""

from __future__ import annotations

import math
import warnings
from collections import OrderedDict, defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscale
import irscale.evaluation.judged as evaluation
from irscale.core.judge import build_judged_rankings
from irscale.core.options import RankingOptions
from irscale.io.native_inputs import NativeInputs, judge_native, native_inputs
from irscale.io.sources import as_qrels, as_runs

from .property_examples import examples

IDS = st.text(alphabet="ab1é字 \t-", min_size=1, max_size=3)
# few distinct scores: ties within a topic are common, some only as C floats
SCORES = st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, 1.0 + 1e-12, 7, True, False, 10**17])
DEGREES = st.sampled_from([0, 1, 2, 3, -1, -2, 1.0, 2.0, -0.0, True, False, 40, 2**53 + 1])
#: NumPy scalars, which the Python reader takes (the engine leaves them to it)
NUMPY = st.sampled_from([None, None, None, np.float64(2.5), np.int64(2), np.float32(1.0)])


def entries(values: st.SearchStrategy) -> st.SearchStrategy[dict]:
    """``{topic: {docno: value}}``, some topics without entries."""
    return st.dictionaries(IDS, st.dictionaries(IDS, values, max_size=8), min_size=1,
                           max_size=5)


def plain(data: dict, limit: float = math.inf) -> bool:
    """Every value of ``{topic: {docno: value}}`` (or of its runs) an ``int``, ``bool`` or
    ``float`` below ``limit`` in magnitude (NumPy scalars, and degrees of 2^53 or more,
    which a double would round, are read by the Python reader)."""
    return all(plain(entry, limit) if type(entry) is dict
               else type(entry) in (int, bool, float) and abs(entry) < limit
               for entry in data.values())


def python_judged(qrels: dict, runs: dict, options: RankingOptions, placeholders: bool):
    """The judged rankings of the Python reader and judge."""
    return build_judged_rankings(as_qrels(qrels), as_runs(runs), options,
                                 placeholders=placeholders)


def assert_same(engine, python) -> None:
    for name in ("rel", "offsets", "rel_levels", "ranking_topic", "ranking_run",
                 "placeholder", "degrees"):
        assert np.array_equal(np.asarray(getattr(engine, name)),
                              np.asarray(getattr(python, name))), name
    assert engine.topics == python.topics and engine.runs == python.runs
    assert engine.unjudged_topics == python.unjudged_topics


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels=entries(DEGREES), runs=st.one_of(entries(SCORES), st.dictionaries(
           st.sampled_from(["bm25", "ql", "é"]), entries(SCORES), min_size=1, max_size=3)),
       ties=st.sampled_from(["trec_eval", "file-order"]), compat=st.sampled_from([9, 10]),
       max_docs=st.sampled_from([None, 1, 3]), judged_only=st.booleans(),
       placeholders=st.booleans(), numpy=NUMPY)
def test_the_judged_rankings_of_the_python_path(qrels, runs, ties, compat, max_docs,
                                                judged_only, placeholders, numpy):
    if numpy is not None:  # the first degree a NumPy scalar
        first = next((entry for entry in qrels.values() if entry), {})
        for docno in list(first)[:1]:
            first[docno] = numpy
    options = RankingOptions(ties=ties, compat=compat, max_docs=max_docs,
                             judged_only=judged_only)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the engine takes dicts the Python reader takes quietly
        try:
            python = python_judged(qrels, runs, options, placeholders)
        except irscale.errors.IrscaleError:  # an empty dict: the Python path says why
            assert native_inputs(qrels, runs, ties=ties) == "dicts"
            return
    inputs = native_inputs(qrels, runs, ties=ties)
    if not (plain(qrels, limit=2**53) and plain(runs)):
        assert inputs == "dicts"
        return
    assert isinstance(inputs, NativeInputs)
    engine, at_least = judge_native(inputs, options, placeholders=placeholders)
    assert_same(engine, python)
    rel = as_qrels(qrels).rel
    assert [at_least(level) for level in range(4)] == \
        [int(np.count_nonzero(rel >= level)) for level in range(4)]


@pytest.fixture
def no_python_judge(monkeypatch):
    """Fail if the Python reader or judge is used."""
    def refused(*args, **kwargs):
        raise AssertionError("the Python judge was called for dicts")

    for name in ("build_judged_rankings", "as_qrels", "as_runs"):
        monkeypatch.setattr(evaluation, name, refused)


QRELS = {"1": {"d1": 1, "d2": 0, "d3": 2}, "2": {"d5": 1, "d1": 0}, "3": {}}
# worked by hand: bm25's AP is 1/2 on topic 1 (d1 at 1, d3 missed), 1 on topic 2 (map
# 0.75); ql ranks d3 before d1 on topic 1 and d5 before d1 on topic 2 (equal scores,
# docno descending, trec_eval's order): AP 1 and 1
BM25 = {"1": {"d1": 3.0, "d2": 2, "d4": 1.0}, "2": {"d5": 1.0, "d1": 0.5}}
QL = {"1": {"d1": 2.0, "d3": 2.0}, "2": {"d1": True, "d5": 1.0}}


def test_evaluate_takes_the_engine_path(no_python_judge):
    one = irscale.evaluate(QRELS, BM25, "map")
    assert one.mean()["map"].to_dict() == {"run": 0.75}
    # defaultdicts too, as pytrec_eval users build runs
    run: defaultdict[str, dict[str, float]] = defaultdict(dict)
    for topic, entry in BM25.items():
        run[topic].update(entry)
    assert irscale.evaluate(defaultdict(dict, QRELS), run, "map").mean()["map"].to_dict() \
        == {"run": 0.75}
    both = irscale.evaluate(QRELS, {"bm25": BM25, "ql": QL}, "map")
    assert both.mean()["map"].to_dict() == {"bm25": 0.75, "ql": 1.0}
    # file order keeps ties as the dict holds them: on topic 2, ql's d1 (not relevant)
    # before d5: AP 1/2
    ordered = irscale.evaluate(QRELS, QL, "map", ties="file-order").per_topic()
    assert ordered["value"].tolist() == [1.0, 0.5]


def faults() -> list:
    """Dicts that the Python reader refuses or warns of, or that the engine leaves to it
    (the dict rows of tests/faults/test_api_faults.py, with the other side a dict)."""
    run = {"1": {"d1": 0.5}}
    bad_qrels = [{"1": {"d1": "x"}}, {"1": {"d1": math.nan}}, {"1": {"d1": 1.5}},
                 {"1": {"d1": 2**64}}, {None: {"d1": 1}}, {"1": {None: 1}},
                 {"1": {"d1": None}}, {"1": ["d1", 1]}, {}, {"1": {}},
                 {"\ud800": {"d1": 1}}, {"1": {"d1": 1, 1: 2}}, {1: {"d1": 1}},
                 {"1": {"d1": np.int64(1)}}]
    bad_runs = [{"1": {"d1": math.nan, "d2": 0.5}}, {"1": {"d1": math.inf}},
                {"1": {"d1": "abc"}}, {"1": {"d1": None}}, {None: {"d1": 0.5}}, {},
                {"1": {"d\udcff": 0.5}}, {"1": {"d1": 1e39}}, {"1": {"d1": 1e-50}},
                {"1": {"d1": np.float32(0.5)}}, {"r": {"1": {}}}, {"r": {}},
                {"r": run, 1: run}, {"1": {"d1": 2**70}}, OrderedDict(run),
                {"1": OrderedDict({"d1": 0.5})}]
    return [(q, run) for q in bad_qrels] + [({"1": {"d1": 1}}, r) for r in bad_runs]


def outcome(qrels, runs) -> tuple:
    """The error (type and message) or the means, and the warnings, of an evaluation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            found: object = irscale.evaluate(qrels, runs, "map").per_topic().to_dict("list")
        except Exception as error:  # compared, whatever it is
            found = (type(error), str(error))
    return found, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize(("qrels", "runs"), faults())
def test_faulty_dicts_keep_the_python_path(qrels, runs, monkeypatch):
    assert native_inputs(qrels, runs) in ("dicts", "qrels")  # "qrels": an OrderedDict run
    routed = outcome(qrels, runs)
    monkeypatch.setattr(evaluation, "native_inputs", lambda *args, **kwargs: "qrels")
    assert routed == outcome(qrels, runs)


@pytest.mark.parametrize(("qrels", "runs"), [
    (QRELS, {"1": {"d1": 1.0}, "9": {"d1": 1.0}}),  # a run topic without judgments
    (QRELS, {"bm25": BM25, "ql": {"7": {"x": 1.0}}}),  # a run with no judged topic
    ({"1": {"d1": -1}}, {"1": {"d1": 1.0}}),  # no relevant document
])
def test_warnings_and_results_of_the_python_path(qrels, runs, monkeypatch):
    assert isinstance(native_inputs(qrels, runs), NativeInputs)
    routed = outcome(qrels, runs)
    monkeypatch.setattr(evaluation, "native_inputs", lambda *args, **kwargs: "qrels")
    assert routed == outcome(qrels, runs)
