"""Runs stored as Parquet files, and the reader of one run file whatever its format.

A Parquet run holds one row per retrieved document with the columns of a TREC run, named
as :mod:`irscale.io.memory` names a DataFrame's: topic (``query_id``, ``qid``, ``topic``
or ``topic_id``), document (``doc_id``, ``docno``, ``doc`` or ``document``) and score
(``score`` or ``sim``); ``rank`` (integers) and ``runid`` are optional. Identifiers that
are integers become their decimal text. The run is named by its file, as every run file
(:mod:`irscale.io.naming`); its run id is the ``runid`` of its last row, as a TREC file's
is its last line's, or else its file stem.

:func:`~irscale.io.files.is_parquet` tells a Parquet run (a name ending in ``.parquet`` or
``.pq``, or a file starting with Parquet's magic bytes ``PAR1``) from a TREC run: the choice
is made by :func:`irscale.io.sources.read_run_file`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import EmptyInputError, InputError, InputFormatError
from .files import access_error, parquet_input
from .memory import DOC_COLUMNS, SCORE_COLUMNS, TOPIC_COLUMNS, find_column, make_run
from .naming import file_stem

if TYPE_CHECKING:  # pragma: no cover
    from ..core._columnar.duplicates import DuplicatePolicy
    from ..core.inputs import Run


def _first_missing(column: pa.ChunkedArray) -> int:
    """The row of the first missing value of a column that holds one."""
    return int(pc.index(pc.is_null(column), True).as_py())


def _identifiers(column: pa.ChunkedArray, what: str, source: str) -> pa.ChunkedArray:
    """A column of identifiers as strings; a missing one is an error naming its row."""
    if column.null_count:
        raise InputFormatError(f"missing {what} id in row {_first_missing(column)}",
                               source=source)
    if pa.types.is_string(column.type):
        return column
    if not (pa.types.is_integer(column.type) or pa.types.is_large_string(column.type)
            or pa.types.is_dictionary(column.type)):
        raise InputFormatError(f"the {what} column holds {column.type}, not text or "
                               "integers", source=source)
    return pc.cast(column, pa.string())


def read_run_parquet(path: str | os.PathLike[str], *, name: str | None = None,
                     duplicates: DuplicatePolicy = "error", keep_rank: bool = False) -> Run:
    """Read a run stored as a Parquet file (module documentation for its columns).

    Errors name the file (and the row where one is at fault): a missing column, a missing
    identifier, a score that is not a finite number, a document retrieved twice for a topic
    (:class:`~irscale.errors.DuplicateError`, with ``duplicates="error"``: the policies of
    :func:`irscale.io.trec.read_run`), no row (:class:`~irscale.errors.EmptyInputError`),
    a file that is not Parquet (:class:`~irscale.errors.InputError`) or cannot be read
    (:class:`~irscale.errors.FileAccessError`).
    """
    import pyarrow.parquet as pq

    source = os.fspath(path)
    given = parquet_input(source)
    where = pa.BufferReader(given) if isinstance(given, bytes) else given
    try:
        schema = pq.read_schema(where)
        names = list(schema.names)
        topic_name = find_column(names, TOPIC_COLUMNS, "topic", source)
        doc_name = find_column(names, DOC_COLUMNS, "document", source)
        score_name = find_column(names, SCORE_COLUMNS, "score", source)
        wanted = [topic_name, doc_name, score_name]
        wanted += [extra for extra in ("rank", "runid") if extra in names and
                   (extra != "rank" or keep_rank)]
        table = pq.read_table(where, columns=wanted)
    except OSError as error:
        raise access_error(error, source) from None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as error:
        raise InputError(f"not a readable Parquet file ({error})", source=source) from None
    if keep_rank and "rank" not in names:
        raise InputError("no rank column (needed by the rank-column tie policy)",
                         source=source)
    if table.num_rows == 0:
        raise EmptyInputError("empty run table", source=source)
    topic = _identifiers(table[topic_name], "topic", source)
    docno = _identifiers(table[doc_name], "document", source)
    score_column = table[score_name]
    if not (pa.types.is_floating(score_column.type) or pa.types.is_integer(score_column.type)):
        raise InputFormatError(f"the score column holds {score_column.type}, not numbers",
                               source=source)
    if score_column.null_count:
        raise InputFormatError(f"missing score in row {_first_missing(score_column)}",
                               source=source)
    score = score_column.to_numpy().astype(np.float64)
    rank = None
    if keep_rank:
        rank_column = table["rank"]
        if not pa.types.is_integer(rank_column.type) or rank_column.null_count:
            raise InputFormatError("the rank column must hold integers (no missing value)",
                                   source=source)
        rank = rank_column.to_numpy().astype(np.int64)
    runid = str(table["runid"][-1].as_py()) if "runid" in table.column_names and \
        table["runid"][-1].is_valid else file_stem(source)
    return make_run(topic, docno, score, runid if name is None else name, duplicates, source,
                    rank, runids=(runid,))


__all__ = ["read_run_parquet"]
