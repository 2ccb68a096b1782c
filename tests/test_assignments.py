"""Nugget assignment records (the TREC 2024 RAG track): A, V and their strict forms equal
nuggetizer's ``calculate_nugget_scores`` on generated records; W by hand; an answer
without a vital nugget has no V; the statistics apply to the result; the command line
prints what the API computes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import MeasureError
from irscale.text import evaluate_assignments, evaluate_nuggets

from .property_examples import examples

calculate = pytest.importorskip("nuggetizer.core.metrics").calculate_nugget_scores

#: irscale's name → nuggetizer's field.
NUGGETIZER = {"A": "all_score", "V": "vital_score", "A_strict": "strict_all_score",
              "V_strict": "strict_vital_score"}
IMPORTANCE = ("vital", "okay")
ASSIGNMENT = ("support", "partial_support", "not_support")


def nugget(importance: str, assignment: str, text: str = "x") -> dict:
    return {"text": text, "importance": importance, "assignment": assignment}


def record(qid: str, run: str, *nuggets: dict) -> dict:
    return {"qid": qid, "run_id": run, "nuggets": list(nuggets)}


def values(evaluation) -> dict[tuple[str, str, str], float]:
    """(run, topic, measure) → value of every per-topic row."""
    frame = evaluation.per_topic()
    return {(r.run, r.topic, r.measure): r.value for r in frame.itertuples()}


_nugget = st.builds(nugget, st.sampled_from(IMPORTANCE), st.sampled_from(ASSIGNMENT))
# every answer holds a vital nugget (V is defined), then any others
_nuggets = st.builds(lambda first, rest: [first, *rest],
                     st.builds(nugget, st.just("vital"), st.sampled_from(ASSIGNMENT)),
                     st.lists(_nugget, max_size=12))


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(_nuggets, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_equal_to_nuggetizer(answers, rng):
    """A, V, A_strict, V_strict of every (topic, run) are nuggetizer's to 1e-12, the
    nuggets of an answer in any order."""
    records = []
    for k, nuggets in enumerate(answers):
        rng.shuffle(nuggets)
        records.append(record(f"q{k // 2}", f"run{k % 2}", *nuggets))
    got = values(evaluate_assignments(records, list(NUGGETIZER)))
    for rec in records:
        expected = calculate(rec["qid"], rec["nuggets"])
        for name, field in NUGGETIZER.items():
            assert got[rec["run_id"], rec["qid"], name] == pytest.approx(
                getattr(expected, field), abs=1e-12, rel=0)


def test_seeded_files_equal_to_nuggetizer(tmp_path):
    """Seeded random records read from JSON lines files (one per run, the run named by the
    file's stem) give nuggetizer's per-answer scores and their means."""
    rng = np.random.default_rng(7)
    paths, records = [], []
    for run in ("alpha", "beta", "gamma"):
        lines = []
        for t in range(20):
            n = int(rng.integers(1, 15))
            nuggets = [nugget(IMPORTANCE[int(rng.integers(2))], ASSIGNMENT[int(rng.integers(3))],
                              f"n{j}") for j in range(n)]
            nuggets[0]["importance"] = "vital"
            lines.append(json.dumps({"qid": f"t{t}", "nuggets": nuggets}))
            records.append((run, f"t{t}", nuggets))
        path = tmp_path / f"{run}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    evaluation = evaluate_assignments(paths)
    got = values(evaluation)
    for run, topic, nuggets in records:
        expected = calculate(topic, nuggets)
        for name, field in NUGGETIZER.items():
            assert abs(got[run, topic, name] - getattr(expected, field)) <= 1e-12
    means = evaluation.mean()
    for run in ("alpha", "beta", "gamma"):
        mine = [calculate(t, n).vital_score for r, t, n in records if r == run]
        assert abs(means.loc[run, "V"] - np.mean(mine)) <= 1e-12


@pytest.mark.parametrize(("nuggets", "w", "w_strict"), [
    # (1·1 + 1·0.5 + 0.5·1 + 0.5·0) / (1 + 1 + 0.5 + 0.5), strict (1 + 0.5) / 3
    ((("vital", "support"), ("vital", "partial_support"), ("okay", "support"),
      ("okay", "not_support")), 2 / 3, 1 / 2),
    # (0.5·1 + 0.5·0.5) / 1, strict 0.5 / 1
    ((("okay", "support"), ("okay", "partial_support")), 3 / 4, 1 / 2),
    # (1·0 + 0.5·1) / 1.5, strict the same
    ((("vital", "not_support"), ("okay", "support")), 1 / 3, 1 / 3),
])
def test_weighted_by_hand(nuggets, w, w_strict):
    """W weighs a vital nugget 1 and an okay one 0.5 (the RAG track's weighted score)."""
    e = evaluate_assignments([record("q", "r", *(nugget(i, a) for i, a in nuggets))],
                             ["W", "W_strict"])
    assert e.per_topic().value.tolist() == pytest.approx([w, w_strict], abs=1e-15)


def test_vital_undefined_without_vital_nugget():
    """An answer without a vital nugget has no V (nuggetizer: 0): refused, naming the
    topic; the other measures are computed."""
    records = [record("q1", "r", nugget("vital", "support")),
               record("q2", "r", nugget("okay", "support"))]
    for name in ("V", "V_strict"):
        with pytest.raises(MeasureError, match=r"undefined.*q2 \(r\).*nuggetizer gives"):
            evaluate_assignments(records, [name])
    assert calculate("q2", records[1]["nuggets"]).vital_score == 0.0  # what we refuse
    e = evaluate_assignments(records, ["A", "W"])
    assert e.mean().loc["r"].tolist() == [1.0, 1.0]


def test_statistics_apply():
    """The result is an Evaluation: intervals and paired comparisons as for any measure."""
    new = ("support", "support", "partial_support", "support", "not_support", "support")
    records = [record(f"q{t}", run, nugget("vital", a), nugget("okay", "support"))
               for t in range(6) for run, a in (("base", "not_support"), ("new", new[t]))]
    e = evaluate_assignments(records)
    table = e.compare("base", measures=["V", "W"]).to_frame()
    # V: (1 + 1 + 0.5 + 1 + 0 + 1) / 6 − 0; W: 2/3 of it
    assert table.delta.tolist() == pytest.approx([0.75, 0.5])
    assert set(e.intervals().measure) == {"A", "V", "W", "A_strict", "V_strict", "W_strict"}


def test_evaluate_nuggets_takes_assignments():
    """evaluate_nuggets(assignments=...) is evaluate_assignments; its inputs of matches
    do not apply then (the binding's rule)."""
    records = [record("q", "r", nugget("vital", "partial_support"))]
    assert evaluate_nuggets(assignments=records).mean().equals(
        evaluate_assignments(records).mean())


def test_cli_prints_the_api_values(tmp_path, capsys):
    """``irscale text nuggets --assignments`` prints the API's values."""
    from irscale.cli.main import main

    path = tmp_path / "sysA.jsonl"
    path.write_text(json.dumps(record("q1", "sysA", nugget("vital", "support"),
                                      nugget("okay", "partial_support"))) + "\n")
    assert main(["text", "nuggets", "--assignments", str(path), "-m", "W", "-q"]) in (0, None)
    out = capsys.readouterr().out.split()
    assert out[:3] == ["W", "q1", "0.8333"]  # (1 + 0.25) / 1.5
