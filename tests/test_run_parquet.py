"""Runs stored as Parquet files (:mod:`irscale.io.run_parquet`): identifiers of any type
pyarrow stores them as (text, integers, dictionary-encoded) read as text, the rank column
kept when asked for, and a missing value named by its row across the file's row groups."""

from __future__ import annotations

import pytest

from irscale.errors import InputError, InputFormatError
from irscale.io.run_parquet import read_run_parquet

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _write(path, columns: dict, row_group_size: int = 2) -> str:
    """``columns`` as a Parquet file of row groups of ``row_group_size`` rows (the file is
    read back as chunks of that size)."""
    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return str(path)


def test_identifiers_of_every_stored_type_read_as_text(tmp_path):
    path = _write(tmp_path / "r.parquet", {
        "qid": pa.array([7, 7, 12], pa.int32()),
        "docno": pa.array(["d1", "d2", "d1"]).dictionary_encode(),
        "score": pa.array([2, 1, 5], pa.int64()),
        "rank": pa.array([1, 2, 1], pa.int16()),
        "runid": ["a", "a", "bm25"],
    })
    run = read_run_parquet(path, keep_rank=True)
    assert run.name == "bm25"  # the runid of the last row
    assert run.topic.to_pylist() == ["7", "7", "12"]
    assert run.docno.to_pylist() == ["d1", "d2", "d1"]
    assert run.score.dtype.kind == "f" and run.score.tolist() == [2.0, 1.0, 5.0]
    assert run.rank is not None and run.rank.tolist() == [1, 2, 1]
    assert read_run_parquet(path).rank is None


@pytest.mark.parametrize(("column", "message"), [
    ("qid", "missing topic id in row 3"),
    ("docno", "missing document id in row 3"),
    ("score", "missing score in row 3"),
])
def test_a_missing_value_is_named_by_its_row(tmp_path, column, message):
    """Row 3 (0-based) lies in the second row group of two rows: its number counts the
    rows of the first."""
    columns = {"qid": ["1", "1", "2", "2", "3"], "docno": ["a", "b", "c", "d", "e"],
               "score": [5.0, 4.0, 3.0, 2.0, 1.0]}
    columns[column] = [None if k == 3 else value for k, value in enumerate(columns[column])]
    with pytest.raises(InputFormatError, match=message):
        read_run_parquet(_write(tmp_path / "m.parquet", columns))


def test_columns_of_other_types_are_refused(tmp_path):
    columns = {"qid": ["1"], "docno": ["a"], "score": ["high"]}
    with pytest.raises(InputFormatError, match="score column holds string, not numbers"):
        read_run_parquet(_write(tmp_path / "s.parquet", columns))
    columns = {"qid": [1.5], "docno": ["a"], "score": [1.0]}
    with pytest.raises(InputFormatError, match="topic column holds double"):
        read_run_parquet(_write(tmp_path / "t.parquet", columns))
    columns = {"qid": ["1"], "docno": ["a"], "score": [1.0], "rank": [1.5]}
    with pytest.raises(InputFormatError, match="rank column must hold integers"):
        read_run_parquet(_write(tmp_path / "k.parquet", columns), keep_rank=True)
    with pytest.raises(InputError, match="no rank column"):
        read_run_parquet(_write(tmp_path / "n.parquet", {"qid": ["1"], "docno": ["a"],
                                                         "score": [1.0]}), keep_rank=True)
