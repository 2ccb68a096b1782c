"""Readers of TREC qrels and runs: formats, gzip, in-memory inputs, and errors."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.errors import DuplicateError, EmptyInputError, InputError, InputFormatError
from irscale.io.memory import as_runs, qrels_from_dict, run_from_frame


def write(tmp_path, name, text, compress=False):
    path = tmp_path / name
    data = text.encode()
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def test_run_any_whitespace_and_gzip(tmp_path):
    text = "101 Q0 d1 1 2.5 r1\n101\t0  d2\t2 1e0 r1\n\n  102 Q0 d3 1 -3 r1  \r\n"
    for compress in (False, True):
        run = irscale.read_run(write(tmp_path, f"r{compress}.txt", text, compress))
        assert run.name == "r1"
        assert run.topic.to_pylist() == ["101", "101", "102"]
        assert run.docno.to_pylist() == ["d1", "d2", "d3"]
        assert run.score.tolist() == [2.5, 1.0, -3.0]


def test_qrels_graded_and_negative(tmp_path):
    qrels = irscale.read_qrels(write(tmp_path, "q", "1 0 a 2\n1 0 b -1\n2 0 c 0\n"))
    assert qrels.rel.tolist() == [2, -1, 0]
    assert qrels.topics == ["1", "2"]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("101 Q0 d1 1 2.5 r\n101 Q0 d2 2 r\n", 2, "expected 6 fields"),
        ("101 Q0 d1 1 2.5 r\n\n101 Q0 d2 2 abc r\n", 3, "score is not a number"),
        ("101 Q0 d1 1 nan r\n", 1, "not finite"),
        ("101 Q0 d1 1 2 r\n101 Q0 d2 2 inf r\n", 2, "not finite"),
        ("101 Q0 d1 1 2 r\n101 Q0 d2 2 1 r\n101 Q0 d1 3 0 r\n", 3, "duplicate document 'd1'"),
    ],
)
def test_run_errors_name_file_line_and_text(tmp_path, text, line, fragment):
    path = write(tmp_path, "bad.run", text)
    with pytest.raises(InputError) as info:
        irscale.read_run(path)
    error = info.value
    assert error.source == str(path)
    assert error.line == line
    assert fragment in str(error)
    assert error.text == text.split("\n")[line - 1]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1 0 a 1\n1 0 b 1.5\n", 2, "rel is not an integer"),
        ("1 0 a 1\n1 0 b\n", 2, "expected 4 fields"),
        ("1 0 a 1\n2 0 a 1\n1 0 a 0\n", 3, "duplicate document 'a' for topic '1'"),
    ],
)
def test_qrels_errors(tmp_path, text, line, fragment):
    path = write(tmp_path, "bad.qrels", text)
    with pytest.raises(InputFormatError if "dup" not in fragment else DuplicateError) as info:
        irscale.read_qrels(path)
    assert info.value.line == line
    assert fragment in str(info.value)


def test_empty_files(tmp_path):
    for reader in (irscale.read_run, irscale.read_qrels):
        for text in ("", "\n\n  \n"):
            with pytest.raises(EmptyInputError, match="empty"):
                reader(write(tmp_path, "empty", text))


def test_explicit_deduplication(tmp_path):
    path = write(tmp_path, "dup.run", "1 Q0 a 1 1 r\n1 Q0 b 2 5 r\n1 Q0 a 3 3 r\n")
    assert irscale.read_run(path, duplicates="first").score.tolist() == [1.0, 5.0]
    assert sorted(irscale.read_run(path, duplicates="last").score.tolist()) == [3.0, 5.0]
    assert sorted(irscale.read_run(path, duplicates="max").score.tolist()) == [3.0, 5.0]
    with pytest.raises(ValueError, match="unknown duplicate policy"):
        irscale.read_run(path, duplicates="drop")


def test_several_runs_and_name_clash(tmp_path):
    a = write(tmp_path, "a.run", "1 Q0 a 1 1 same\n")
    b = write(tmp_path, "b.run", "1 Q0 a 1 1 same\n")
    runs = irscale.read_runs([a, b])
    assert [r.name for r in runs] == ["same (a.run)", "same (b.run)"]
    named = irscale.read_runs({"x": a, "y": b})
    assert [r.name for r in named] == ["x", "y"]


def test_in_memory_inputs():
    qrels = qrels_from_dict({"1": {"a": 1, "b": 0}})
    assert qrels.rel.tolist() == [1, 0]
    frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    run = run_from_frame(frame, name="f")
    assert run.name == "f" and run.score.tolist() == [1.0, 2.0]
    both = as_runs({"x": {"1": {"a": 1.0}}, "y": frame})
    assert [r.name for r in both] == ["x", "y"]
    with pytest.raises(InputFormatError, match="not finite"):
        run_from_frame(frame.assign(score=[1.0, np.nan]))
    with pytest.raises(InputFormatError, match="not an integer"):
        qrels_from_dict({"1": {"a": 0.5}})
    with pytest.raises(InputError, match="no score column"):
        run_from_frame(frame.drop(columns="score"))
    with pytest.raises(DuplicateError):
        run_from_frame(pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "a"], "score": [1, 2]}))


def test_real_runs_read(clef):
    run = irscale.read_run(clef / "runs" / "GUIR_EN_Run1.txt")
    assert len(run) == 50_000 and run.name == "GUIR_EN_RUN1"
    qrels = irscale.read_qrels(clef / "task2.qrels")
    assert len(qrels) == 25_000 and len(qrels.topics) == 50
