"""Click logs: ``session query rank docno clicked [timestamp]`` files, as matrices of codes.

One line per shown result: the session (one impression of a result page), its query, the
rank of the result (1-based), its document and whether it was clicked (``0``/``1``), and
optionally a timestamp of the click (any number; kept, not used by the click models).
Fields are separated by tabs or blanks; a Parquet file (``.parquet``, or any file starting
with Parquet's magic bytes) holds the same columns by name.

The ranks of a session run 1..n without gaps or repeats, its lines share one query, no
document is shown twice in it (the click models and the session counts take a document
once per page), and n is at most the page size, the *SERP size*: given (``serp_size=``,
``--serp-size``) or by default the largest rank in the log. Lines may come in any order.
Errors name the file, the line (a Parquet file: its 1-based row) and its text. Used by
:mod:`irscale.online` (:mod:`irscale.online.clicklog` re-exports it).

>>> log = read_click_log(b"s1 q1 1 d1 1\\ns1 q1 2 d2 0\\ns2 q1 1 d2 0\\n")
>>> log
ClickLog(2 sessions, 1 queries, 2 documents, SERP size 2, 1 clicks)
>>> log.doc.tolist(), log.clicks.astype(int).tolist(), log.lengths.tolist()
([[0, 1], [1, -1]], [[1, 0], [0, 0]], [2, 1])
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from ..core.binding import Binding
from ..core.extras import PYARROW
from ..core.params import LOG_SERP, Cost, Param, Text
from ..core.progress import declared_memory
from ..errors import (
    DuplicateError,
    EmptyInputError,
    InputError,
    InputFormatError,
    about,
)
from ._text import (
    FieldKind,
    check_int64,
    is_float,
    line_of_record,
    read_bytes,
    read_fields,
    source_name,
)
from .files import PARQUET_MAGIC, check_readable, is_parquet, parquet_input
from .text_codes import codes_of

if TYPE_CHECKING:
    import pandas as pd

#: The columns of a click log, in order (``timestamp`` optional).
COLUMNS = ("session", "query", "rank", "docno", "clicked", "timestamp")

__all__ = ["COLUMNS", "ClickLog", "read_click_log"]

#: Where row ``i`` of the input is: (line or row number, its text).
Locate = Callable[[int], "tuple[int, str]"]


@dataclass(frozen=True, eq=False)
class ClickLog:
    """A click log as matrices, one row per session and one column per rank.

    ``doc[s, r]`` indexes :attr:`docs` (``-1`` beyond the session's :attr:`lengths`),
    ``clicks[s, r]`` is True for a click, ``query[s]`` indexes :attr:`queries` and
    :attr:`sessions` holds the session ids (first-appearance order). ``timestamps`` (NaN
    where absent) is there when the input had the column. A log read from a file keeps
    where each result was: ``record[s, r]`` is the 0-based data line (or row) of the result
    (-1 past the end of a session), which :meth:`error` turns into file, line and text
    (``locate``); a log built in memory has neither (its errors name the source only).
    """

    sessions: np.ndarray
    queries: np.ndarray
    docs: np.ndarray
    query: np.ndarray
    doc: np.ndarray
    clicks: np.ndarray
    lengths: np.ndarray
    timestamps: np.ndarray | None = None
    source: str = "<ClickLog>"
    record: np.ndarray | None = field(default=None, repr=False)
    locate: Locate | None = field(default=None, repr=False)
    #: What ``locate`` numbers: ``"line"`` (a text file) or ``"row"`` (a Parquet file).
    rows: str = field(default="line", repr=False)

    @property
    def serp_size(self) -> int:
        """Number of rank columns (the largest session length allowed)."""
        return int(self.doc.shape[1])

    @property
    def valid(self) -> np.ndarray:
        """``valid[s, r]``: rank ``r + 1`` exists in session ``s``."""
        return np.arange(self.serp_size) < self.lengths[:, None]

    @property
    def width(self) -> int:
        """The ranks present: the longest session's length (at most :attr:`serp_size`)."""
        return int(self.lengths.max(initial=0))

    def first(self, where: np.ndarray) -> tuple[int, int]:
        """(session, rank index) of the first line (in file order; the first in session
        order for a log built in memory) of the results marked in ``where`` (sessions ×
        ranks booleans, at least one True)."""
        s, r = np.nonzero(where)
        at = 0 if self.record is None else int(np.argmin(self.record[s, r]))
        return int(s[at]), int(r[at])

    def error(self, kind: type[InputError], message: str, where: np.ndarray) -> InputError:
        """An error of ``kind`` naming the file, line and text of the first line (in file
        order) of the results marked in ``where`` (sessions × ranks booleans, at least one
        True); the source only for a log built in memory."""
        if self.record is None or self.locate is None:
            return kind(message, source=self.source)
        return _error(kind, message, self.source, self.locate, int(self.record[where].min()),
                      self.rows)

    def session_lines(self) -> Sequence[tuple[int, str]] | None:
        """The (line, text) of the first line of every session (in :attr:`sessions` order),
        each found when asked (the rows of a :class:`~irscale.io.user_tables.RowLines` of
        a per-session table); None for a log built in memory."""
        if self.record is None or self.locate is None:
            return None
        return _SessionLines(self.record, self.locate)

    def trimmed(self) -> ClickLog:
        """The log cut to the ranks present (:attr:`width` columns, views of these): what
        lies beyond them is no session's, so that work over its ranks is proportional to the
        ranks shown, not to a larger declared SERP size."""
        width = self.width
        if width == self.serp_size:
            return self
        return replace(self, doc=self.doc[:, :width], clicks=self.clicks[:, :width],
                       timestamps=None if self.timestamps is None
                       else self.timestamps[:, :width],
                       record=None if self.record is None else self.record[:, :width])

    def subset(self, rows: np.ndarray) -> ClickLog:
        """The sessions ``rows`` (indices or a mask), with the same vocabularies."""
        return ClickLog(self.sessions[rows], self.queries, self.docs, self.query[rows],
                        self.doc[rows], self.clicks[rows], self.lengths[rows],
                        None if self.timestamps is None else self.timestamps[rows],
                        self.source, None if self.record is None else self.record[rows],
                        self.locate, self.rows)

    def to_frame(self) -> pd.DataFrame:
        """The log as ``session query rank docno clicked [timestamp]`` rows (session order,
        rank order)."""
        import pandas as pd

        s, r = np.nonzero(self.valid)
        frame = pd.DataFrame({"session": self.sessions[s],
                              "query": self.queries[self.query[s]],
                              "rank": r + 1, "docno": self.docs[self.doc[s, r]],
                              "clicked": self.clicks[s, r].astype(np.int64)})
        if self.timestamps is not None:
            frame["timestamp"] = self.timestamps[s, r]
        return frame

    def __repr__(self) -> str:
        return (f"ClickLog({len(self.sessions):,} sessions, {len(self.queries):,} queries, "
                f"{len(self.docs):,} documents, SERP size {self.serp_size}, "
                f"{int(self.clicks.sum()):,} clicks)")


class _SessionLines(Sequence[tuple[int, str]]):
    """The (line, text) of the first line of session ``i`` of a log (:meth:`ClickLog.
    session_lines`), located when asked: an error names one or two, so none is computed
    ahead (locating one scans the file's bytes)."""

    def __init__(self, record: np.ndarray, locate: Locate) -> None:
        self._record, self._locate = record, locate

    def __len__(self) -> int:
        return len(self._record)

    @overload
    def __getitem__(self, index: int) -> tuple[int, str]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, str]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, str] | Sequence[tuple[int, str]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        row = self._record[index]
        return self._locate(int(row[row >= 0].min()))


#: :func:`read_click_log`: the SERP size checked on entry (no command calls it alone: the
#: commands that read click logs declare ``--serp-size`` with their functions').
CLICK_LOG = Binding((LOG_SERP,))
#: The rows of a log's (rows × SERP size) matrices, whose memory they size with the SERP
#: size: a click log's sessions, an interleaving log's impressions (the input is the work,
#: its cost declared on what counts it).
LOG_ROWS = {unit: Param(f"{unit}s", Text(), None, f"the {unit}s of a log", (),
                        cost=Cost(f"{unit}s", per=f"a row of the log's ({unit} × SERP size) "
                                  "matrices"))
            for unit in ("session", "impression")}


@CLICK_LOG
def read_click_log(source: Any, *, serp_size: int | None = None) -> ClickLog:
    """Read a click log (see the module documentation): a path (text, gzip or Parquet),
    bytes, a stream or a DataFrame with the columns of :data:`COLUMNS`.

    Parameters
    ----------
    source : path, bytes, stream, DataFrame or ClickLog
        The log.
    serp_size : int, optional
        Largest rank allowed (the result page's size); default the largest rank found.

    Raises
    ------
    InputFormatError
        A malformed line, a rank beyond ``serp_size`` or below 1, a click other than
        0/1, a session with two queries or with a gap in its ranks.
    DuplicateError
        A rank given twice in a session, or a document shown twice in it.
    EmptyInputError
        No line at all.
    """
    if isinstance(source, ClickLog):
        return source if serp_size is None else _from_frame(source.to_frame(), source.source,
                                                            serp_size)
    # (a DataFrame exists only once pandas is imported: a text log is read without it)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(source, pandas.DataFrame):
        return _from_frame(source, "<DataFrame>", serp_size)
    if _is_parquet(source):
        return _read_parquet(source, serp_size)
    return _read_text(source, serp_size)


def _read_parquet(source: Any, serp_size: int | None) -> ClickLog:
    """A Parquet click log (a path or its bytes), read by pyarrow (the ``parquet`` extra:
    without it, an error naming the extra)."""
    name = source_name(source)
    pa = PYARROW.load("reading a Parquet click log", InputError, source=name)
    import pyarrow.parquet as pq
    if not isinstance(source, bytes):
        source = parquet_input(source)
    try:
        table = pq.read_table(pa.BufferReader(source) if isinstance(source, bytes)
                              else source)
    except (pa.ArrowInvalid, OSError) as error:
        raise InputFormatError(f"cannot read the Parquet file: {error}",
                               source=name) from None
    return _from_frame(table.to_pandas(), name, serp_size, rows="row")


def _is_parquet(source: Any) -> bool:
    if isinstance(source, bytes):
        return source[:4] == PARQUET_MAGIC
    # (a FIFO or standard input is not opened to look: it is read once, by the text reader)
    return isinstance(source, (str, os.PathLike)) and is_parquet(source)


#: A byte that is not white space (``bytes.strip``'s).
_SOLID = re.compile(rb"\S")


def _first_fields(source: Any, name: str) -> tuple[list[bytes], bytes | None]:
    """The fields of the first non-blank line, and the whole input when it had to be read
    (a stream, standard input, a gzip file); a plain file is peeked at only (up to the line
    limit: a longer line is refused by the reader)."""
    from .. import _engine

    info = check_readable(source) if isinstance(source, (str, os.PathLike)) else None
    if info is not None and stat.S_ISREG(info.st_mode):  # a FIFO is read once, below
        with open(source, "rb") as handle:
            head = bytearray(handle.read(1 << 16))
            if head[:2] != b"\x1f\x8b":  # not gzip: the first line is in the first block
                seen = 0
                while len(head) <= _engine.LINE_LIMIT:
                    solid = _SOLID.search(head)  # the first line's start, if any
                    if solid is None or head.find(b"\n", max(solid.start(), seen)) >= 0:
                        break
                    seen = len(head)
                    more = handle.read(1 << 16)
                    if not more:
                        break
                    head += more
                first = next((line.split() for line in bytes(head).split(b"\n")
                              if line.strip()), None)
                if first is not None:
                    return first, None
    data = read_bytes(source)
    first = next((line.split() for line in data.split(b"\n") if line.strip()), None)
    if first is None:
        raise EmptyInputError("empty click log: no data line", source=name)
    return first, data


def _read_text(source: Any, serp_size: int | None) -> ClickLog:
    name = source_name(source)
    first, data = _first_fields(source, name)
    fields = COLUMNS if len(first) == 6 else COLUMNS[:5]
    kinds: dict[str, FieldKind] = {"session": "str", "query": "str", "rank": "int",
                                   "docno": "str", "clicked": "int", "timestamp": "float"}
    checks = {2: check_int64, 4: check_int64,
              5: lambda t: None if is_float(t) else "is not a number"}
    read, raw = read_fields(source if data is None else data, fields,
                            {c: kinds[c] for c in fields},
                            {i: c for i, c in checks.items() if i < len(fields)},
                            "click log")
    coded = {c: codes_of(read.strings(c)) for c in ("session", "query", "docno")}
    numbers = {c: read.numbers(c) for c in fields if kinds[c] != "str"}
    del read
    return _encoded(coded, numbers, name, serp_size, lambda row: line_of_record(raw(), row))


def _from_frame(frame: pd.DataFrame, name: str, serp_size: int | None,
                rows: str = "line") -> ClickLog:
    import pandas as pd

    missing = [c for c in COLUMNS[:5] if c not in frame.columns]
    if missing:
        raise about(InputFormatError(f"click log lacks column(s) {', '.join(missing)} "
                                     f"(needs {' '.join(COLUMNS[:5])} [timestamp])",
                                     source=name), frame)
    fields = [c for c in COLUMNS if c in frame.columns]
    out = pd.DataFrame({c: frame[c] for c in fields}).reset_index(drop=True)

    def locate(row: int) -> tuple[int, str]:
        return row + 1, " ".join(map(str, out.iloc[row]))

    for column in ("rank", "clicked") + (("timestamp",) if "timestamp" in fields else ()):
        values = pd.to_numeric(out[column], errors="coerce").to_numpy(dtype=np.float64)
        bad = np.isnan(values) if column == "timestamp" else \
            ~np.isfinite(values) | (values % 1 != 0)
        if bad.any():
            raise _error(InputFormatError, f"{column} is not "
                         f"{'a number' if column == 'timestamp' else 'an integer'}",
                         name, locate, int(np.flatnonzero(bad)[0]), rows)
        out[column] = values if column == "timestamp" else values.astype(np.int64)
    coded = {}
    for column in ("session", "query", "docno"):
        codes, vocabulary = pd.factorize(out[column].astype(str).to_numpy(dtype=object))
        coded[column] = (codes.astype(np.int64), np.asarray(vocabulary, dtype=object))
    numbers = {c: out[c].to_numpy() for c in fields if c in ("rank", "clicked", "timestamp")}
    return _encoded(coded, numbers, name, serp_size, locate, rows)


def _error(kind: type[InputError], message: str, name: str, locate: Locate | None,
           row: int, rows: str = "line") -> InputError:
    if locate is None:
        return kind(message, source=name, line=row + 1)
    number, text = locate(row)
    if rows == "row":
        return kind(f"row {number}: {message}", source=name, text=text)
    return kind(message, source=name, line=number, text=text)


#: Peak bytes per (session, rank) cell of a log: its documents and clicks, and the arrays
#: of the same shape that the click models' fits and simulations hold (with a margin).
CELL_BYTES = 64


def _check_size(sessions: int, size: int, unit: str, given: bool) -> None:
    """Refuse a log whose sessions × SERP size matrices exceed the memory limit
    (:func:`irscale.core.progress.declared_memory`): a SERP size far beyond the log's ranks
    (the cost of ``--serp-size``), or one long session among many short ones (the matrices
    are dense: the cost of the log's sessions, :data:`LOG_ROWS`)."""
    need = float(sessions) * size * CELL_BYTES
    if given:
        declared_memory(LOG_SERP, need, f"{sessions:,} {unit}s × a SERP size of {size:,}")
    else:
        declared_memory(LOG_ROWS[unit], need, f"{sessions:,} {unit}s × the longest {unit}'s "
                        f"{size:,} ranks (the matrices are {unit}s × the longest {unit}: "
                        "split or drop the longest)")


def _document_twice(session: np.ndarray, doc_of_row: np.ndarray, cell: np.ndarray,
                    n: int, size: int) -> int | None:
    """The first line (in file order) that shows a document its session showed on an
    earlier line, or None: the sessions × ranks matrix of documents (each cell once)
    sorted along its rows finds the sessions that show one twice; their lines are then
    walked in order with a set of (session, document) pairs."""
    doc = np.full((n, size), -1, dtype=np.int64)
    doc.reshape(-1)[cell] = doc_of_row
    doc.sort(axis=1)
    repeated = ((doc[:, 1:] == doc[:, :-1]) & (doc[:, 1:] >= 0)).any(axis=1)
    if not repeated.any():
        return None
    seen: set[tuple[int, int]] = set()
    for row in np.flatnonzero(repeated[session]).tolist():
        key = (int(session[row]), int(doc_of_row[row]))
        if key in seen:
            return row
        seen.add(key)
    return None  # pragma: no cover (a repeated session has a line that repeats)


def _encoded(coded: dict[str, tuple[np.ndarray, np.ndarray]], numbers: dict[str, np.ndarray],
             name: str, serp_size: int | None, locate: Locate | None,
             rows: str = "line", words: tuple[str, str] = ("session", "query")) -> ClickLog:
    """The log from its text columns as codes (``coded[c]``: codes per line and the
    vocabulary, first-appearance order) and its numeric columns (``numbers``).
    ``words``: what the messages call a session and its query (the interleaving log of
    :mod:`irscale.io.interleaving_log` has impressions of topics)."""
    unit, group = words
    article = "an" if unit[0] in "aeiou" else "a"
    def fail(kind: type[InputError], message: str, row: int) -> InputError:
        return _error(kind, message, name, locate, row, rows)

    if len(numbers["rank"]) == 0:
        raise EmptyInputError("empty click log: no data line", source=name)
    clicked = np.asarray(numbers["clicked"], dtype=np.int64)
    bad = (clicked != 0) & (clicked != 1)
    if bad.any():
        raise fail(InputFormatError, "clicked must be 0 or 1", int(np.flatnonzero(bad)[0]))
    rank = np.asarray(numbers["rank"], dtype=np.int64)
    if (rank < 1).any():
        raise fail(InputFormatError, "rank must be 1 or more", int(np.flatnonzero(rank < 1)[0]))
    size = int(rank.max()) if serp_size is None else int(serp_size)
    if (rank > size).any():
        raise fail(InputFormatError, f"rank beyond the SERP size {size} (--serp-size)",
                   int(np.flatnonzero(rank > size)[0]))
    session, sessions = coded["session"]
    query_of_row, queries = coded["query"]
    n = len(sessions)
    # the query of a session is that of its first line; another one is an error (on a
    # repeated index, the last assignment wins: rows assigned in reverse leave the first)
    first_row = np.empty(n, dtype=np.int64)
    first_row[session[::-1]] = np.arange(len(session) - 1, -1, -1)
    query = query_of_row[first_row]
    other = query_of_row != query[session]
    if other.any():
        raise fail(InputFormatError, f"{article} {unit} has one {group} (this line gives "
                   "another)", int(np.flatnonzero(other)[0]))
    _check_size(n, size, unit, serp_size is not None)
    # the checks below work on the ranks present (the longest session), not the SERP size
    width = int(rank.max())
    cell = session.astype(np.int64) * width + (rank - 1)
    # a (session, rank) cell's first line; a line that is not its cell's first repeats it
    # (numpy on the cells, which the matrices below hold anyway: no pandas is imported)
    first_line = np.empty(n * width, dtype=np.int64)
    first_line[cell[::-1]] = np.arange(len(cell) - 1, -1, -1)
    twice = first_line[cell] != np.arange(len(cell))
    if twice.any():
        raise fail(DuplicateError, f"rank given twice in this {unit}",
                   int(np.flatnonzero(twice)[0]))
    doc_of_row, docs = coded["docno"]
    row = _document_twice(session, doc_of_row, cell, n, width)
    if row is not None:
        raise fail(DuplicateError, f"document {docs[doc_of_row[row]]!r} shown twice in "
                   f"{unit} {sessions[session[row]]!r}", row)
    lengths = np.zeros(n, dtype=np.int64)
    np.maximum.at(lengths, session, rank)
    count = np.bincount(session, minlength=n)
    gap = count != lengths
    if gap.any():
        s = int(np.flatnonzero(gap)[0])
        # the line of that session with the highest rank: ranks below it are missing
        rows_of = np.flatnonzero((session == s) & (rank == lengths[s]))
        raise fail(InputFormatError, f"ranks of {unit} {sessions[s]!r} are not 1..n: "
                   f"{lengths[s] - count[s]} rank(s) below {lengths[s]} missing",
                   int(rows_of[0]))
    cell = session.astype(np.int64) * size + (rank - 1)
    doc = np.full((n, size), -1, dtype=np.int64)
    doc.reshape(-1)[cell] = doc_of_row
    clicks = np.zeros((n, size), dtype=bool)
    clicks.reshape(-1)[cell] = clicked.astype(bool)
    timestamps = None
    if "timestamp" in numbers:
        timestamps = np.full((n, size), np.nan)
        timestamps.reshape(-1)[cell] = np.asarray(numbers["timestamp"], dtype=np.float64)
    record = None
    if locate is not None:
        # (int32 below 2^31 lines: half the memory of the documents' matrix)
        record = np.full((n, size), -1, dtype=np.int32 if len(cell) < 2**31 else np.int64)
        record.reshape(-1)[cell] = np.arange(len(cell))
    return ClickLog(np.asarray(sessions, dtype=object), np.asarray(queries, dtype=object),
                    np.asarray(docs, dtype=object), query.astype(np.int64), doc, clicks,
                    lengths, timestamps, name, record, locate, rows)
