"""The columns of :class:`~irscale.core.inputs.Qrels` and :class:`~irscale.core.inputs.Run`
objects as the native engine reads them in place (``rust/src/bind/columns.rs``).

A string column (:class:`~irscale.core.strings.Strings`) is given as its offsets (int64)
and its data (uint8): no string is copied. Numbers are given as contiguous NumPy arrays
(int64 degrees and ranks, float64 scores: a copy only when the array is of another type or
strided).
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

from ..errors import InputFormatError, ParameterError
from .inputs import Qrels, Run, identifier_column
from .options import TiePolicy

#: A string column as the engine takes it: ``(offsets, data)``.
StringColumn: TypeAlias = tuple[np.ndarray, np.ndarray]
#: Qrels as the engine takes them: topic and docno columns, degrees.
QrelsColumns: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: A run as the engine takes it: topic and docno columns, scores, ranks (or ``None``).
RunColumns: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                              np.ndarray | None]


def string_column(values: object, what: str, source: str) -> StringColumn:
    """``values``' offsets and data (a :class:`~irscale.core.strings.Strings`, or a column
    :func:`~irscale.core.inputs.identifier_column` converts: a missing value is refused,
    naming ``what`` and ``source``)."""
    column = identifier_column(values, what, source)
    return column.offsets, column.data


def qrels_columns(qrels: Qrels) -> QrelsColumns:
    """The qrels' columns for the engine."""
    return (*string_column(qrels.topic, "topic id", qrels.source),
            *string_column(qrels.docno, "docno", qrels.source),
            np.ascontiguousarray(qrels.rel, dtype=np.int64))


def run_columns(run: Run, ties: TiePolicy = "trec_eval") -> RunColumns:
    """The run's columns for the engine, to rank by the tie policy ``ties`` (the
    ``rank-column`` policy needs the run's rank column: a :class:`ParameterError`
    otherwise). A NaN score is refused (:class:`InputFormatError`), as the readers refuse
    it: no tie policy can rank it."""
    if ties == "rank-column" and run.rank is None:
        raise ParameterError("the rank-column tie policy needs the run's rank column: "
                             "read the run with keep_rank=True")
    score = np.ascontiguousarray(run.score, dtype=np.float64)
    if np.isnan(score).any():  # the readers refuse them; a Run built as it is may hold them
        row = int(np.flatnonzero(np.isnan(score))[0])
        raise InputFormatError("score is not finite (NaN scores cannot be ranked)",
                               source=run.source,
                               text=f"{run.topic[row]} {run.docno[row]} {score[row]}")
    rank = None if run.rank is None else np.ascontiguousarray(run.rank, dtype=np.int64)
    return (*string_column(run.topic, "topic id", run.source),
            *string_column(run.docno, "docno", run.source), score, rank)
