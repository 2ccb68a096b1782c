"""Readers of multi-query session runs, click logs and session → topic maps.

Formats (fields separated by any run of spaces or tabs; blank lines are ignored; plain or
gzip-compressed; ``-`` reads standard input):

* **session run** ``session query_no docno rank score runid``: the ranked list a system
  returned for the ``query_no``-th query (1, 2, ... in the order the user issued them) of
  session ``session``. ``rank`` (1, 2, ...) is the position at which the document was
  shown, and it orders the list (a session log records what the user saw; ``score`` is
  kept for reference only). A file holds one run: every line has the same ``runid``.
  A (session, query_no, rank) or (session, query_no, docno) given twice is an error.
* **click log** ``session query_no rank timestamp``: one line per click on the document
  shown at ``rank`` for query ``query_no`` of ``session``; ``timestamp`` is any finite
  number that orders the clicks of a session in time (seconds, milliseconds ...).
* **session map** ``session topic``: the qrels topic of each session. Without one, a
  session's id is its topic id (TREC Session track style: one information need, one id).

Errors name the file, the 1-based line and its text (:mod:`irscale.errors`).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core._columnar.blocks import TopicBlocks, as_string_array
from ..core.strings import Strings
from ..errors import DuplicateError, InputFormatError
from ._text import Fields, PathLike, is_float, is_int, line_of_record, read_fields, source_name
from .files import check_file_source
from .maps import SourceMap
from .user_tables import place

SESSION_RUN_FIELDS = ("session", "query_no", "docno", "rank", "score", "runid")
CLICK_FIELDS = ("session", "query_no", "rank", "timestamp")
SESSION_MAP_FIELDS = ("session", "topic")


def _check_positive(text: str) -> str | None:
    if not is_int(text) or int(text) < 1:
        return "is not a whole number ≥ 1"
    return None


def _check_finite(text: str) -> str | None:
    if not is_float(text) or not math.isfinite(float(text)):
        return "is not a finite number"
    return None


def composite(*columns: tuple[np.ndarray, int]) -> np.ndarray:
    """One int64 key per row from (values ≥ 0, bound) columns (mixed radix; the values
    are replaced by their ranks among the distinct values when the bounds overflow)."""
    if np.prod([float(bound) for _, bound in columns]) >= 2.0**62:
        columns = tuple((np.unique(v, return_inverse=True)[1].astype(np.int64), int(v.max()) + 1)
                        for v, _ in columns)
    key = np.zeros(len(columns[0][0]), dtype=np.int64)
    for values, bound in columns:
        key *= bound
        key += values
    return key


def _first_repeat(key: np.ndarray) -> tuple[int, int] | None:
    """(first row, repeating row) of the earliest row whose key occurred before, or None.
    Keys that grow strictly (rows in order) are checked without sorting; otherwise a sort
    of the keys tells whether any repeats, and only then are the rows located."""
    if len(key) < 2 or (key[1:] > key[:-1]).all():
        return None
    ordered = np.sort(key)
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    same = np.flatnonzero(ordered[1:] == ordered[:-1]) + 1
    row = int(order[same].min())
    return int(np.flatnonzero(key == key[row])[0]), row


def _whole_numbers(fields: Fields, raw: Callable[[], bytes], name: str,
                   *columns: str) -> list[np.ndarray]:
    """The ``columns`` as integer arrays (int32 when every value fits, else int64), each
    value a whole number from 1 to 2^53 − 1 (an :class:`InputFormatError` naming the
    first line with another otherwise: numbers are read as doubles, exact below 2^53)."""
    out = []
    for column in columns:
        values = fields.numbers(column)
        whole = (values >= 1) & (values == np.floor(values))
        small = values < 2**53
        if not (whole & small).all():
            first = int(np.flatnonzero(~(whole & small))[0])
            problem = "is not a whole number ≥ 1" if not whole[first] else \
                f"is too large (at most 2^53 − 1 = {2**53 - 1})"
            _check_values(np.arange(len(values)) != first, raw, name, f"{column} {problem}")
        out.append(values.astype(np.int32 if values.max() < 2**31 else np.int64))
    return out


def _check_values(valid: np.ndarray, raw: Callable[[], bytes], name: str,
                  problem: str) -> None:
    """An :class:`InputFormatError` naming the first row not ``valid``."""
    bad = np.flatnonzero(~valid)
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError(f"{problem}", source=name, line=line, text=text)


@dataclass(frozen=True, eq=False)
class SessionLayout:
    """How the rows of a session run lie (:attr:`SessionRun.layout`): computed once, used
    by the reader's duplicate checks and by the judging of the sessions.

    Session logs are usually written session by session, query by query, rank by rank
    (:attr:`grouped`): the sessions are then put in order by moving their blocks of rows
    as a whole, with no sort of the rows.
    """

    #: The blocks of consecutive rows of one session.
    blocks: TopicBlocks
    #: Code of every block's session in :attr:`sessions`.
    block_session: np.ndarray
    #: The distinct session ids, in order of first appearance.
    sessions: list[str]
    #: Every session fills one block, its rows in ascending (query_no, rank) order.
    grouped: bool
    #: Code (int64) of every row's docno in :attr:`docs`.
    doc_code: np.ndarray
    #: The distinct docnos, in order of first appearance.
    docs: Strings

    @classmethod
    def of(cls, session: Strings, docno: Strings, query_no: np.ndarray,
           rank: np.ndarray) -> SessionLayout:
        blocks = TopicBlocks.of(session)
        contiguous = blocks.contiguous
        sessions = (blocks.heads if contiguous else blocks.heads.unique()).to_pylist()
        grouped = contiguous and bool(_ascending(query_no, rank, blocks.bounds).all())
        doc_code, docs = docno.encode()
        return cls(blocks=blocks, block_session=blocks.first_codes, sessions=sessions,
                   grouped=grouped, doc_code=doc_code, docs=docs)

    def session_code(self) -> np.ndarray:
        """Code (int64) of every row's session in :attr:`sessions`."""
        return self.blocks.expand(self.block_session)

    def query_starts(self, query_no: np.ndarray) -> np.ndarray:
        """Flags the first row of every query of a :attr:`grouped` run (a new session or
        a new query number)."""
        start = np.ones(len(query_no), dtype=bool)
        np.not_equal(query_no[1:], query_no[:-1], out=start[1:])
        start[self.blocks.bounds[:-1]] = True
        return start


def _ascending(query_no: np.ndarray, rank: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Per row: it follows the previous row in (query_no, rank) order, or starts a block."""
    later = np.ones(len(rank), dtype=bool)
    if len(rank) > 1:
        q, r = query_no, rank
        np.greater(r[1:], r[:-1], out=later[1:])
        later[1:] &= q[1:] == q[:-1]
        later[1:] |= q[1:] > q[:-1]
        later[bounds[1:-1]] = True
    return later


@dataclass(frozen=True, eq=False)
class SessionRun:
    """One run over multi-query sessions: a row per (session, query, shown document), in
    file order (see the module documentation). The session ids and docnos are
    :class:`~irscale.core.strings.Strings` columns (given as any column
    :func:`~irscale.core._columnar.blocks.as_string_array` converts)."""

    name: str
    session: Strings
    query_no: np.ndarray
    docno: Strings
    rank: np.ndarray
    score: np.ndarray
    source: str = "<session run>"
    #: The bytes read (for the line of a session named in an error), when read from a file.
    raw: Callable[[], bytes] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "session", as_string_array(self.session))
        object.__setattr__(self, "docno", as_string_array(self.docno))

    def where(self, session: str) -> str:
        """The file, first line and text of ``session``, for an error (the file only for a
        run not read from a file)."""
        if self.raw is None:
            return self.source
        code = self.layout.sessions.index(session)
        row = int(np.flatnonzero(self.layout.session_code() == code)[0])
        line, text = line_of_record(self.raw(), row)
        return place({"source": self.source, "line": line, "text": text})

    def __len__(self) -> int:
        return len(self.rank)

    @cached_property
    def layout(self) -> SessionLayout:
        """Session blocks, row order and document codes (:class:`SessionLayout`)."""
        return SessionLayout.of(self.session, self.docno, self.query_no, self.rank)

    @property
    def sessions(self) -> list[str]:
        """Distinct session ids, sorted by byte order."""
        return sorted(self.layout.sessions)

    def to_frame(self):
        """The rows as a DataFrame ``session, query_no, docno, rank, score``."""
        import pandas as pd

        return pd.DataFrame({"session": self.session.to_numpy(), "query_no": self.query_no,
                             "docno": self.docno.to_numpy(), "rank": self.rank,
                             "score": self.score})

    def __repr__(self) -> str:
        return (f"SessionRun({self.name!r}, {len(self.sessions)} sessions, {len(self)} "
                f"results, source={self.source!r})")


def read_session_run(source: PathLike | io.IOBase | bytes) -> SessionRun:
    """Read a session run ``session query_no docno rank score runid``.

    Raises
    ------
    InputFormatError
        A malformed line (not six fields, a query number or rank that is not a whole
        number ≥ 1, a score that is not a finite number, a second run id in the file).
    EmptyInputError
        No data line.
    DuplicateError
        A rank, or a document, given twice for one query of a session.

    Examples
    --------
    >>> run = read_session_run(b"s1 1 d1 1 2.0 sys\\ns1 2 d7 1 1.5 sys\\n")
    >>> run
    SessionRun('sys', 1 sessions, 2 results, source='<bytes>')
    >>> run.query_no.tolist(), run.rank.tolist()
    ([1, 2], [1, 1])
    """
    source = check_file_source(source, "read_session_run")
    name = source_name(source)
    fields, raw = read_fields(
        source, SESSION_RUN_FIELDS,
        {"session": "str", "query_no": "float", "docno": "str", "rank": "float",
         "score": "float", "runid": "str"},
        {1: _check_positive, 3: _check_positive, 4: _check_finite}, "session run")
    query_no, rank = _whole_numbers(fields, raw, name, "query_no", "rank")
    score = fields.numbers("score")
    _check_values(np.isfinite(score), raw, name, "score is not a finite number")
    runid = fields.strings("runid")
    first = runid[0]
    _check_values(runid.equal(first), raw, name,
                  f"a session run holds one run: run id {first!r} on its first line, "
                  "another here")
    session, docno = fields.strings("session"), fields.strings("docno")
    # the columns kept are referenced: the others (run ids, numbers as read) go now
    del fields, runid
    run = SessionRun(name=first, session=session, query_no=query_no, docno=docno,
                     rank=rank, score=score, source=name, raw=raw)
    repeat = _repeated_rank_or_document(run)
    if repeat is not None:
        what, (first_row, row) = repeat
        first_line, _ = line_of_record(raw(), first_row)
        line, text = line_of_record(raw(), row)
        raise DuplicateError(
            f"{what} given twice for query {query_no[row]} of session "
            f"{session[row]} (first on line {first_line})",
            source=name, line=line, text=text)
    return run


def _repeated_rank_or_document(run: SessionRun) -> tuple[str, tuple[int, int]] | None:
    """("rank" or "document", (first row, repeating row)) of the earliest (session, query,
    rank) or (session, query, docno) given twice, or None.

    In a :attr:`~SessionLayout.grouped` run no rank repeats (the rows ascend), and a
    document can repeat only within a block of rows of one query.
    """
    layout = run.layout
    docs = (layout.doc_code, len(layout.docs))
    if layout.grouped:
        group = np.cumsum(layout.query_starts(run.query_no)) - 1
        repeat = _first_repeat(composite((group, int(group[-1]) + 1), docs))
        return None if repeat is None else ("document", repeat)
    session = (layout.session_code(), len(layout.sessions))
    query = (run.query_no, int(run.query_no.max()) + 1)
    for what, last in (("rank", (run.rank, int(run.rank.max()) + 1)), ("document", docs)):
        repeat = _first_repeat(composite(session, query, last))
        if repeat is not None:
            return what, repeat
    return None


@dataclass(frozen=True, eq=False)
class ClickLog:
    """Clicks ``session query_no rank timestamp``, in file order (the session ids a
    :class:`~irscale.core.strings.Strings` column, given as any column
    :func:`~irscale.core._columnar.blocks.as_string_array` converts)."""

    session: Strings
    query_no: np.ndarray
    rank: np.ndarray
    timestamp: np.ndarray
    source: str = "<click log>"
    #: The bytes read (for the line of a click named in an error), when read from a file.
    raw: Callable[[], bytes] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "session", as_string_array(self.session))

    def __len__(self) -> int:
        return len(self.rank)

    def line_of(self, row: int) -> tuple[int | None, str | None]:
        """(1-based line, text) of click ``row``; ``(None, None)`` for clicks not read
        from a file."""
        if self.raw is None:
            return None, None
        return line_of_record(self.raw(), row)

    def __repr__(self) -> str:
        return f"ClickLog({len(self)} clicks, source={self.source!r})"


def read_clicks(source: PathLike | io.IOBase | bytes) -> ClickLog:
    """Read a click log ``session query_no rank timestamp``.

    A click repeated (same session, query, rank and timestamp) is a :class:`DuplicateError`;
    the same document clicked again later is a second click.

    >>> read_clicks(b"s1 1 4 10.0\\ns1 1 2 31.5\\n").rank.tolist()
    [4, 2]
    """
    source = check_file_source(source, "read_clicks")
    name = source_name(source)
    fields, raw = read_fields(
        source, CLICK_FIELDS,
        {"session": "str", "query_no": "float", "rank": "float", "timestamp": "float"},
        {1: _check_positive, 2: _check_positive, 3: _check_finite}, "click log")
    query_no, rank = _whole_numbers(fields, raw, name, "query_no", "rank")
    timestamp = fields.numbers("timestamp")
    _check_values(np.isfinite(timestamp), raw, name,
                  "timestamp is not a finite number")
    session = fields.strings("session")
    session_code, session_ids = session.encode()
    _, moments = np.unique(timestamp, return_inverse=True)
    repeat = _first_repeat(composite(
        (session_code, len(session_ids)), (query_no, int(query_no.max()) + 1),
        (rank, int(rank.max()) + 1), (moments.astype(np.int64), len(timestamp))))
    if repeat is not None:
        line, text = line_of_record(raw(), repeat[1])
        first_line, _ = line_of_record(raw(), repeat[0])
        raise DuplicateError(f"click given twice (first on line {first_line})",
                             source=name, line=line, text=text)
    return ClickLog(session=session, query_no=query_no, rank=rank, timestamp=timestamp,
                    source=name, raw=raw)


def read_session_map(source: PathLike | io.IOBase | bytes) -> SourceMap:
    """Read a session map ``session topic`` (a session listed twice is an error).

    >>> read_session_map(b"s1 101\\ns2 101\\n")
    {'s1': '101', 's2': '101'}
    """
    source = check_file_source(source, "read_session_map")
    name = source_name(source)
    fields, raw = read_fields(source, SESSION_MAP_FIELDS,
                              {"session": "str", "topic": "str"}, {}, "session map")
    session, topic = fields.strings("session"), fields.strings("topic")
    session_code, _ = session.encode()
    repeat = _first_repeat(session_code)
    if repeat is not None:
        line, text = line_of_record(raw(), repeat[1])
        raise DuplicateError(f"session mapped twice (first on line "
                             f"{line_of_record(raw(), repeat[0])[0]})",
                             source=name, line=line, text=text)
    return SourceMap(zip(session.to_pylist(), topic.to_pylist(), strict=True), name)
