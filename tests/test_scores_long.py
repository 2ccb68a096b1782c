"""Per-topic results of sessions, texts and runs reach ``compare`` and ``meta`` on the
command line: ``irscale session|text|eval --format csv -q`` writes irscale's long results
(``run,topic,measure,value``), which ``--scores`` reads. The statistics
must equal those of the Python API's score matrix (``Evaluation.to_matrix``)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import irscale
from irscale.cli.main import main
from irscale.io.scores_csv import read_tables
from irscale.text import evaluate_sessions


def cli(*argv: str) -> None:
    assert main(list(argv)) == 0


@pytest.fixture
def session_files(tmp_path):
    rng = random.Random(3)
    qrels = "".join(f"s{t} 0 d{d} {rng.randint(0, 2)}\n" for t in range(1, 9) for d in range(12))
    (tmp_path / "qrels").write_text(qrels)
    runs = []
    for name in ("A", "B", "C"):
        lines = []
        for t in range(1, 9):
            for q in (1, 2, 3):
                for r, d in enumerate(rng.sample(range(12), 6), 1):
                    lines.append(f"s{t} {q} d{d} {r} {1 / r} {name}\n")
        path = tmp_path / f"run{name}"
        path.write_text("".join(lines))
        runs.append(str(path))
    return str(tmp_path / "qrels"), runs


def test_session_results_feed_compare(tmp_path, session_files, capsys):
    qrels, runs = session_files
    out = tmp_path / "sessions.csv"
    cli("session", qrels, *runs, "-m", "sDCG@10", "-m", "nsDCG@10", "-q", "--format", "csv",
        "-o", str(out))
    capsys.readouterr()
    cli("compare", "--scores", str(out), "--test", "t", "--correction", "holm",
        "--format", "json")
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    matrix = evaluate_sessions(qrels, runs, ["sDCG@10", "nsDCG@10"]).to_matrix()
    expected = irscale.stats.pairwise_tests(matrix, test="t", correction="holm").to_frame()
    assert len(pairs) == len(expected) == 6
    for pair in pairs:
        row = expected[(expected.measure == pair["measure"]) & (expected.a == pair["a"])
                       & (expected.b == pair["b"])]
        assert len(row) == 1
        assert pair["p"] == pytest.approx(float(row.p_raw.iloc[0]), rel=1e-12)
        assert pair["p_adjusted"] == pytest.approx(float(row.p.iloc[0]), rel=1e-12)


def test_long_results_read_as_the_matrix(tmp_path, session_files):
    qrels, runs = session_files
    out = tmp_path / "s.csv"
    cli("session", qrels, *runs, "-m", "sDCG@10", "-m", "sERR@10", "-q", "--format",
        "csv", "-o", str(out))
    tables = read_tables(str(out))
    matrix = evaluate_sessions(qrels, runs, ["sDCG@10", "sERR@10"]).to_matrix()
    assert [t.measure for t in tables] == list(matrix.measures)
    for k, table in enumerate(tables):
        assert table.systems == matrix.systems
        order = [table.topics.index(t) for t in matrix.topics]
        # the CSV holds the printed digits (repr of the float): the same numbers
        np.testing.assert_array_equal(table.values[order], matrix.values[:, :, k])


def test_eval_long_results_equal_runs(tmp_path, capsys):
    irscale_dir = tmp_path / "demo"
    cli("demo", "--out", str(irscale_dir))
    capsys.readouterr()
    qrels = sorted(irscale_dir.glob("*qrels*"))[0]
    runs = sorted(str(p) for p in irscale_dir.glob("*.run"))
    assert len(runs) >= 2
    out = tmp_path / "eval.csv"
    cli("eval", str(qrels), *runs, "-m", "map", "-m", "P.10", "-q", "--format", "csv",
        "-o", str(out))
    capsys.readouterr()
    cli("compare", "--scores", str(out), "--test", "t")
    from_csv = capsys.readouterr().out
    cli("compare", str(qrels), *runs, "-m", "map", "-m", "P.10", "--test", "t")
    assert from_csv == capsys.readouterr().out


def test_diversity_long_results_leave_out_their_amean_rows(tmp_path):
    """The diversity measures' results name their summary row ``amean`` (as ndeval does):
    it is not read as a topic, so the matrix holds the qrels' topics only."""
    rng = random.Random(5)
    qrels = "".join(f"{t} {i} d{d} {rng.randint(0, 1)}\n" for t in (1, 2, 3)
                    for i in (1, 2) for d in range(8))
    (tmp_path / "qrels").write_text(qrels)
    runs = []
    for name in ("A", "B", "C"):
        order = rng.sample(range(8), 8)
        (tmp_path / name).write_text("".join(f"{t} Q0 d{d} {r} {10 - r} {name}\n"
                                             for t in (1, 2, 3)
                                             for r, d in enumerate(order, 1)))
        runs.append(str(tmp_path / name))
    out = tmp_path / "d.csv"
    cli("eval", str(tmp_path / "qrels"), *runs, "-m", "alpha-nDCG@5", "-q", "--format",
        "csv", "-o", str(out))
    assert ",amean," in out.read_text()
    (table,) = read_tables(str(out))
    assert sorted(table.topics) == ["1", "2", "3"]
    assert table.values.shape == (3, 3)
