"""Several diversity runs judged together (the performance path): run files read side
by side in threads, each run judged in the thread that read it and its rows dropped, the
runs joined end to end — every value as pyndeval (ndeval 4.5's C code) gives it for each run
alone, exact to the printed digits, whatever the runs' layouts (rows in rank order, shuffled,
ranked by score) and topics (missing, unjudged)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import InputFormatError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run
from irscale.measures.diversity import NDEVAL_COLUMNS
from irscale.measures.diversity.risk import c_format

from .property_examples import examples
from .test_diversity_ndeval import collections, oracle, qrels_bytes, run_bytes

pytest.importorskip("pyndeval")


@st.composite
def several_runs(draw):
    """Qrels and two to four runs over them (each drawn as test_diversity_ndeval draws one),
    each written in file order, shuffled or reversed."""
    qrels, first = draw(collections())
    runs = [first]
    for _ in range(draw(st.integers(1, 3))):
        runs.append(draw(collections())[1])
    layouts = [draw(st.sampled_from(["file", "shuffled", "reversed"])) for _ in runs]
    for k, layout in enumerate(layouts):
        if layout == "shuffled":
            runs[k] = draw(st.permutations(runs[k]))
        elif layout == "reversed":
            runs[k] = runs[k][::-1]
    return qrels, runs


def expected_values(qrels, runs, traditional):
    """pyndeval's values, run by run (topics in numeric order), 0 for unjudged topics."""
    out = []
    for run in runs:
        for result in oracle(qrels, run, list(NDEVAL_COLUMNS), traditional).values():
            out.append([c_format(0.0) if result is None else c_format(result[m])
                        for m in NDEVAL_COLUMNS])
    return out


@settings(max_examples=examples(60), deadline=None)
@given(several_runs(), st.booleans())
def test_run_files_judged_together_match_pyndeval(tmp_path_factory, case, traditional):
    qrels, runs = case
    folder = tmp_path_factory.mktemp("runs")
    paths = []
    for k, run in enumerate(runs):
        path = folder / f"r{k}.txt"
        path.write_bytes(run_bytes(run, runid=f"sys{k}"))
        paths.append(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)), paths, "ndeval",
                                traditional=traditional, allow_empty=True)  # as ndeval
    got = [[c_format(ev.values[c][r]) for c in NDEVAL_COLUMNS]
           for r in range(len(ev.rows.ranking_run))]
    assert got == expected_values(qrels, runs, traditional)
    # named by their files (r0.txt ...), not their run ids (sys0 ...)
    assert ev.runs == tuple(f"r{k}" for k in range(len(runs)))
    assert ev.rows.ranking_run.tolist() == [k for k, run in enumerate(runs)
                                       for _ in {row[0] for row in run}]


def test_in_memory_runs_are_judged_as_files(tmp_path):
    """A list of Run objects (and a path among them) gives the values of the files."""
    qrels = [("1", "1", "d1", 1), ("1", "2", "d2", 1), ("2", "1", "d3", 2)]
    runs = [[("1", "d2", 1, 3.0), ("1", "d1", 2, 2.0), ("2", "d3", 1, 1.0)],
            [("2", "d9", 2, 1.0), ("2", "d3", 1, 2.0), ("1", "d1", 1, 1.0)]]
    path = tmp_path / "b.txt"
    path.write_bytes(run_bytes(runs[1], "b"))
    ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                            [read_run(run_bytes(runs[0], "a"), keep_rank=True), str(path)],
                            "ndeval")
    got = [[c_format(ev.values[c][r]) for c in NDEVAL_COLUMNS] for r in range(4)]
    assert got == expected_values(qrels, runs, False)
    assert ev.runs == ("a", "b")


def test_error_names_the_file_and_line_of_the_run_that_has_it(tmp_path):
    qrels = qrels_bytes([("1", "1", "d1", 1)])
    good = tmp_path / "good.txt"
    good.write_bytes(run_bytes([("1", "d1", 1, 1.0), ("1", "d2", 2, 0.5)], "g"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(run_bytes([("1", "d1", 2, 1.0), ("1", "d2", 1, 0.5), ("1", "d3", 2, 0.1)],
                              "b"))
    with pytest.raises(InputFormatError, match=r"bad\.txt, line 3: duplicate rank \(2\)"):
        evaluate_diversity(read_diversity_qrels(qrels), [str(good), str(bad)], "ndeval")
