"""A score matrix evaluated from run files knows its runs' files and run ids
(:attr:`irscale.core.ScoreMatrix.sources`, ``runids``): every argument that names a system
of it (a baseline, ``systems=``, the systems of side-by-side preferences) designates it by
its name, its file (path, file name or stem) or its run id, as it designates a run
(:func:`irscale.io.naming.find_run`); a matrix of names alone knows them by name, and its
refusals list them in the resolver's words."""

from __future__ import annotations

import numpy as np
import pytest

import irscale
from irscale.core import ScoreMatrix
from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.meta import predictive_power
from irscale.stats import baseline_comparison

TOPICS = ("1", "2", "3", "4")
#: The ranking of every run (documents d1..d3), its file and its run id.
RUNS = {"a": ("bm25", ["d1", "d2", "d3"]), "b": ("ql", ["d2", "d3", "d1"]),
        "c": ("dph", ["d3", "d1", "d2"])}


@pytest.fixture
def matrix(tmp_path) -> ScoreMatrix:
    paths = []
    for name, (runid, docs) in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} {i + 1} {3 - i} {runid}\n" for t in TOPICS
                                for i, d in enumerate(docs[int(t) % 3:] + docs[:int(t) % 3])))
        paths.append(path)
    qrels = {t: {"d1": 1, f"d{int(t) % 3 + 1}": 2} for t in TOPICS}
    return irscale.evaluate(qrels, paths, ["ndcg_cut_2", "P_1"]).to_matrix()


def test_the_matrix_keeps_the_runs_files_and_run_ids(matrix):
    assert matrix.systems == ("a", "b", "c")
    assert [s.rsplit("/", 1)[-1] for s in matrix.sources] == ["a.run", "b.run", "c.run"]
    assert matrix.runids == ("bm25", "ql", "dph")
    picked = matrix.subset(systems=["c", "a"]).measure("P_1")
    assert picked.runids == ("dph", "bm25") and picked.sources[0].endswith("c.run")
    with pytest.raises(InputError, match="2 runids for 3 systems"):
        ScoreMatrix(matrix.values, matrix.topics, matrix.systems, matrix.measures,
                    runids=("x", "y"))


@pytest.mark.parametrize("baseline", ["a", "bm25", "a.run"])
def test_a_baseline_by_name_file_or_run_id(matrix, baseline):
    expected = baseline_comparison(matrix, "a", measure="P_1").to_frame()
    got = baseline_comparison(matrix, baseline, measure="P_1").to_frame()
    assert got.equals(expected)
    pairs = irscale.pairwise_tests(matrix, "t", baseline=baseline, measures="P_1").to_frame()
    assert set(pairs["b"]) == {"a"} or set(pairs["a"]) == {"a"}


def test_systems_by_name_file_or_run_id(matrix):
    expected = irscale.paired_t(matrix, systems=["a", "b"], measure="P_1")
    got = irscale.paired_t(matrix, systems=["bm25", "b.run"], measure="P_1")
    assert got.pvalue == expected.pvalue
    pairs = irscale.pairwise_tests(matrix, "t", systems=["ql", "dph"], measures="P_1")
    assert pairs.to_frame()[["a", "b"]].values.tolist() == [["b", "c"]]
    with pytest.raises(ParameterError, match=r"'nosuch' names no run: .* runs: 'a' \(.*a\.run"
                       r"\), 'b'"):
        irscale.paired_t(matrix, systems=["a", "nosuch"], measure="P_1")


def test_a_matrix_of_names_knows_its_systems_by_name():
    plain = ScoreMatrix.from_array(np.array([[0.2, 0.4], [0.5, 0.5], [0.1, 0.3]]),
                                   systems=["bm25", "new"])
    with pytest.raises(ParameterError, match=r"'bm25.run' names no run: give a run's name, "
                       r"its run id or its file \(path, file name or stem\); runs: 'bm25', "
                       "'new'"):
        baseline_comparison(plain, "bm25.run")
    with pytest.raises(ParameterError, match="runs: 'bm25', 'new'"):
        irscale.paired_t(plain, systems=["bm25", "x"])


def test_preferences_name_systems_by_name_file_or_run_id(matrix):
    by_name = predictive_power([("1", "a", "b", "left"), ("2", "c", "a", "right")], matrix,
                               measure="P_1")
    other = predictive_power([("1", "bm25", "b.run", "left"), ("2", "dph", "a", "right")],
                             matrix, measure="P_1")
    assert other.to_frame().equals(by_name.to_frame())
    with pytest.raises(AlignmentError, match=r"system 'x' names no run: .*'a' \(.*a\.run\)"):
        predictive_power([("1", "a", "x", "left")], matrix, measure="P_1")
    with pytest.raises(AlignmentError, match="'bm25' with 'a', which name one system 'a'"):
        predictive_power([("1", "bm25", "a", "left")], matrix, measure="P_1")


def test_runs_to_plot_by_name_file_or_run_id(matrix):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from irscale.plots.runs import baseline_differences, score_distributions

    ax = score_distributions(matrix, "P_1", runs=["ql", "a.run"])
    assert [tick.get_text() for tick in ax.get_xticklabels()] == ["b", "a"]
    ax = baseline_differences(matrix, "P_1", "bm25", runs=["c.run"])
    assert ax is not None
    with pytest.raises(ParameterError, match=r"runs: 'x' names no run: .*'a' \(.*a\.run\)"):
        score_distributions(matrix, "P_1", runs=["a", "x"])
    with pytest.raises(ParameterError, match="baseline 'x' names no run"):
        baseline_differences(matrix, "P_1", "x")
