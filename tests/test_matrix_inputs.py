"""The score matrices of the analyses: score files read into one matrix
(:func:`irscale.io.score_files.read_score_files`) and runs evaluated into one
(:func:`irscale.evaluation.evaluate_matrix`), checked against values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.errors import AlignmentError, InputError
from irscale.evaluation import evaluate_matrix
from irscale.io.score_files import read_score_files


def _write(path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_score_files_are_one_matrix_aligned_by_topic(tmp_path):
    first = _write(tmp_path / "map.csv", "topic,a,b\nt1,0.5,0.25\nt2,0.1,0.2\n")
    second = _write(tmp_path / "P_10.csv", "topic,b,a\nt2,0.3,0.4\nt1,0.7,0.6\n")
    matrix = read_score_files([first, second], "topic")
    assert list(matrix.measures) == ["map", "P_10"]
    assert list(matrix.topics) == ["t1", "t2"] and list(matrix.systems) == ["a", "b"]
    # topics × systems × measures; the second file's rows and columns follow the first's
    expected = np.array([[[0.5, 0.6], [0.25, 0.7]], [[0.1, 0.4], [0.2, 0.3]]])
    np.testing.assert_allclose(matrix.values, expected)


def test_score_files_must_hold_the_same_systems_and_measures_once(tmp_path):
    first = _write(tmp_path / "map.csv", "topic,a,b\nt1,0.5,0.25\nt2,0.1,0.2\n")
    other = _write(tmp_path / "ndcg.csv", "topic,a,c\nt1,0.5,0.25\nt2,0.1,0.2\n")
    with pytest.raises(AlignmentError, match=r"systems differ from .*map\.csv \(\['b', 'c'\]\)"):
        read_score_files([first, other], "topic")
    (tmp_path / "again").mkdir()
    twice = _write(tmp_path / "again" / "map.csv", "topic,a,b\nt1,0.5,0.25\nt2,0.1,0.2\n")
    with pytest.raises(InputError, match="two score files give the same measure name"):
        read_score_files([first, twice], "topic")


QRELS = "t1 0 a 1\nt1 0 b 0\nt2 0 c 1\n"


def _run(tmp_path, name: str, lines: list[str]) -> str:
    return _write(tmp_path / f"{name}.run", "".join(f"{line} {name}\n" for line in lines))


def test_runs_are_evaluated_into_one_matrix(tmp_path):
    qrels = _write(tmp_path / "qrels", QRELS)
    a = _run(tmp_path, "A", ["t1 Q0 a 1 2.0", "t1 Q0 b 2 1.0", "t2 Q0 c 1 1.0"])
    b = _run(tmp_path, "B", ["t1 Q0 b 1 2.0", "t1 Q0 a 2 1.0", "t2 Q0 x 1 2.0",
                             "t2 Q0 c 2 1.0"])
    matrix = evaluate_matrix(qrels, [a, b], ["P_1", "recip_rank"])
    assert list(matrix.topics) == ["t1", "t2"] and list(matrix.systems) == ["A", "B"]
    # P@1: A ranks a relevant document first on both topics, B on neither; RR: 1 and 1/2
    measures = list(matrix.measures)
    np.testing.assert_allclose(matrix.values[:, :, measures.index("P_1")],
                               [[1.0, 0.0], [1.0, 0.0]])
    np.testing.assert_allclose(matrix.values[:, :, measures.index("recip_rank")],
                               [[1.0, 0.5], [1.0, 0.5]])


def test_runs_must_cover_the_same_topics(tmp_path):
    qrels = _write(tmp_path / "qrels", QRELS)
    a = _run(tmp_path, "A", ["t1 Q0 a 1 2.0", "t2 Q0 c 1 1.0"])
    c = _run(tmp_path, "C", ["t1 Q0 a 1 2.0"])
    with pytest.raises(AlignmentError) as error:
        evaluate_matrix(qrels, [a, c], ["P_1"])
    assert str(error.value) == ("the runs do not cover the same topics (1 topic(s) missing "
                                "somewhere: 'C' lacks topic 't2')")
