"""The engine's judged TREC batch (``_engine.judge_trec_batch``) and its trec_eval output
(``JudgedTrec.evaluate_trec``: measures, summaries and text in one call), against the text
of :func:`irscale.evaluate` (``Evaluation.format('trec')``), and the batch's numpy-free
accessors against the judged rankings Python builds from its arrays."""

from __future__ import annotations

import random

import numpy as np
import pytest

import irscale
from irscale import _engine
from irscale.io.files import reading_limit

#: The bytes the engine's readers may hold (the memory limit, as every reader is given).
LIMIT = reading_limit()

# a hand-built plan: (family, ints, floats, gains) calls, and the printed columns
# (call, output, label, value type, aggregate, per_query, missing value) in trec_eval's
# table order
CALLS = [("runid", [], [], []), ("num_q", [], [], []), ("num_rel", [], [], []),
         ("map", [], [], []), ("gm_map", [], [], []), ("P", [5, 10], [], []),
         ("relstring", [], [10.0], []), ("ndcg_cut", [5, 10], [], [])]
COLUMNS = [
    (0, -1, "runid", "str", "runid", False, None),
    (1, -1, "num_q", "int", "count", False, None),
    (2, 0, "num_rel", "int", "sum", True, None),  # trec_eval 10 -c: the topic's own
    (3, 0, "map", "float", "mean", True, 0.0),
    (4, 0, "gm_map", "float", "gmean", False, 0.0),
    (5, 0, "P_5", "float", "mean", True, 0.0),
    (5, 1, "P_10", "float", "mean", True, 0.0),
    (6, 0, "relstring", "str", "none", True, ""),
    (7, 0, "ndcg_cut_5", "float", "mean", True, 0.0),
    (7, 1, "ndcg_cut_10", "float", "mean", True, 0.0),
]
MEASURES = ["runid", "num_q", "num_rel", "map", "gm_map", "P.5,10", "relstring",
            "ndcg_cut.5,10"]


def write_files(tmp_path, seed: int) -> tuple[str, list[str]]:
    """Graded qrels of 12 topics and three runs: one misses topics (``-c`` counts them),
    one retrieves a topic the qrels do not judge, scores tie."""
    rng = random.Random(seed)
    topics = [str(t) for t in range(101, 113)]
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {rng.choice([0, 0, 1, 2, 3])}\n"
                             for t in topics for d in range(rng.randint(1, 15))))
    paths = []
    for number, name in enumerate(["bm25", "dense", "sparse"]):
        lines = []
        for t in topics[: 12 - 4 * (number == 1)] + (["999"] if number == 2 else []):
            docs = rng.sample(range(30), rng.randint(1, 25))
            lines += [f"{t} Q0 d{d} {r} {rng.choice([1.5, 2.0, 0.25, rng.random()])} {name}"
                      for r, d in enumerate(docs)]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return str(qrels), paths


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("complete", "compat"), [(False, 9), (True, 9), (True, 10)])
@pytest.mark.parametrize("runs", [1, 3])
def test_evaluate_trec_is_the_text_of_evaluate(tmp_path, seed, complete, compat, runs):
    qrels, paths = write_files(tmp_path, seed)
    paths = paths[:runs] if runs == 1 else paths
    ev = irscale.evaluate(qrels, paths, MEASURES, complete=complete, compat=compat)
    batch = _engine.judge_trec_batch(qrels, qrels, [(p, p) for p in paths], "trec_eval",
                                     compat, None, False, complete and compat == 10, LIMIT)
    names = [last for _, last, _ in batch.notes()]
    totals = [("num_rel", batch.at_least(1))] if complete and compat == 9 else []
    for per_query in (False, True):
        ours = batch.evaluate_trec(CALLS, COLUMNS, names, complete, totals, per_query, True,
                                   1, compat, 0)
        assert ours.decode() == ev.format("trec", per_query=per_query)
    # per-topic lines only
    ours = batch.evaluate_trec(CALLS, COLUMNS, names, complete, totals, True, False, 1,
                               compat, 0)
    assert ours.decode() == ev.format("trec", per_query=True, summary=False)


def test_batch_accessors_and_arrays(tmp_path):
    qrels, paths = write_files(tmp_path, 7)
    batch = _engine.judge_trec_batch(qrels, "qrels", [(p, p) for p in paths], "trec_eval",
                                     10, None, False, True, LIMIT)
    assert batch.topics() == sorted(str(t) for t in range(101, 113))
    assert batch.n_qrels_topics() == 12
    assert batch.unjudged() == [[], [], ["999"]]
    assert batch.evaluated_counts() == [12, 8, 12]  # the placeholders are not counted
    degrees = [int(line.split()[3]) for line in open(qrels)]
    assert batch.at_least(1) == sum(d >= 1 for d in degrees)
    assert batch.at_least(3) == sum(d >= 3 for d in degrees)
    assert batch.gain_sort_unreplayable([(1, 1.0), (2, 3.0)]) == []
    notes = batch.notes()
    arrays = batch.arrays()
    assert len(arrays) == 13 and arrays[10] == notes and arrays[9] == batch.topics()
    assert arrays[12] is None  # the tie groups: the expected tie policy only
    ranking_run, placeholder = arrays[7], arrays[8]
    counts = np.bincount(ranking_run[~placeholder], minlength=3).tolist()
    assert counts == batch.evaluated_counts()
    # the arrays moved to Python: the batch no longer computes
    with pytest.raises(ValueError, match="handed to Python"):
        batch.arrays()
    with pytest.raises(ValueError, match="handed to Python"):
        batch.evaluate_trec(CALLS, COLUMNS, ["a", "b", "c"], False, [], False, True, 1, 9, 0)


def test_evaluate_trec_refuses_what_it_cannot_compute(tmp_path):
    qrels, paths = write_files(tmp_path, 3)
    batch = _engine.judge_trec_batch(qrels, "qrels", [(paths[0], "r")], "trec_eval", 9,
                                     None, False, False, LIMIT)
    with pytest.raises(ValueError, match="no native kernel"):
        batch.evaluate_trec([("nonsense", [], [], [])], [(0, 0, "x", "float", "mean", True,
                                                           None)], ["r"], False, [], False,
                            True, 1, 9, 0)
    with pytest.raises(ValueError, match="has no output"):
        batch.evaluate_trec(CALLS, [(3, 4, "map", "float", "mean", True, None)], ["r"],
                            False, [], False, True, 1, 9, 0)
    with pytest.raises(ValueError, match="run names"):
        batch.evaluate_trec(CALLS, COLUMNS, ["r", "s"], False, [], False, True, 1, 9, 0)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("complete", "compat"), [(False, 9), (True, 9), (True, 10),
                                                  (False, 10)])
def test_evaluate_trec_of_the_plan_of_all_trec(tmp_path, complete, compat):
    """Every trec_eval measure (``-m all_trec``), planned by
    :func:`irscale.measures.plan.plan_trec`, printed by the engine as by ``evaluate``."""
    from irscale.evaluation.setup import complete_num_rel
    from irscale.measures.base import EvalContext
    from irscale.measures.names import parse_measures
    from irscale.measures.plan import plan_trec

    qrels, paths = write_files(tmp_path, 11)
    requests = parse_measures(["all_trec"], compat=compat)
    plan = plan_trec(requests, EvalContext(compat=compat, complete=complete))
    assert plan is not None
    ev = irscale.evaluate(qrels, paths, ["all_trec"], complete=complete, compat=compat)
    batch = _engine.judge_trec_batch(qrels, qrels, [(p, p) for p in paths], "trec_eval",
                                     compat, None, False, complete and compat == 10, LIMIT)
    totals = (complete_num_rel(batch.at_least, requests, 1)
              if complete and compat == 9 else {})
    ours = batch.evaluate_trec(
        [(c.family, list(c.ints), list(c.floats), list(c.gains)) for c in plan.calls],
        [(c.call, c.output, c.label, c.value_type, c.aggregate, c.per_query, c.missing_value)
         for c in plan.columns],
        [last for _, last, _ in batch.notes()], complete, list(totals.items()), True, True, 1,
        compat, 0)
    assert ours.decode() == ev.format("trec", per_query=True)
