"""Interleaving logs: ``impression topic rank docno team clicked`` files, as matrices.

One line per document shown: the impression (one user's view of one interleaved list), its
topic (query), the rank of the document in the list shown (1-based), the document, the
*team* — the ranker credited with the document, as team-draft interleaving and team-draft
multileaving log it (the ranker that drew it, for probabilistic interleaving; ``-`` where
the method assigns no team: balanced and optimised interleaving) — and whether it was
clicked (``0``/``1``). Fields are separated by tabs or blanks; lines may come in any order.

The ranks of an impression run 1..n without gaps or repeats, its lines share one topic and
no document is shown twice in it. Errors name the file, the line and its text; an
:class:`InterleavingLog` keeps the line of every document so that the checks made later
against the rankers (:mod:`irscale.online.logged`) name it too. The reading and the
impression checks are those of click logs (:mod:`irscale.io.clicklog`), with impressions
as sessions and topics as queries.

>>> log = read_interleaving_log(b"i1 q1 1 d1 A 1\\ni1 q1 2 d2 B 0\\ni2 q1 1 d2 B 0\\n"
...                             b"i2 q1 2 d1 A 0\\n")
>>> log
InterleavingLog(2 impressions, 1 topics, teams A B, 4 documents shown, 1 clicks)
>>> log.team.tolist(), log.clicks.astype(int).tolist()
([[0, 1], [1, 0]], [[1, 0], [0, 0]])
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, InputFormatError, about
from ._text import FieldKind, check_int64, line_of_record, read_fields, source_name
from .clicklog import ClickLog, _encoded
from .text_codes import codes_of

if TYPE_CHECKING:
    import pandas as pd

#: The columns of an interleaving log, in order.
COLUMNS = ("impression", "topic", "rank", "docno", "team", "clicked")
#: The team of a document the method credits to no ranker.
NO_TEAM = "-"

__all__ = ["COLUMNS", "NO_TEAM", "InterleavingLog", "read_interleaving_log"]


@dataclass(frozen=True, eq=False)
class InterleavingLog:
    """An interleaving log as matrices, one row per impression and one column per rank.

    ``shown`` holds the lists and the clicks as a :class:`~irscale.io.clicklog.ClickLog`
    (sessions = impressions, queries = topics; ``shown.doc[n, r]`` indexes
    ``shown.docs``, -1 past the end of a list). ``team[n, r]`` indexes :attr:`teams`
    (-1 for ``-`` and past the end); ``shown`` keeps the data line of every document,
    which :meth:`error` turns into file, line and text.
    """

    shown: ClickLog
    teams: np.ndarray
    team: np.ndarray

    @property
    def source(self) -> str:
        return self.shown.source

    @property
    def impressions(self) -> np.ndarray:
        """The impression ids (first-appearance order)."""
        return self.shown.sessions

    @property
    def topics(self) -> np.ndarray:
        """The topic ids (first-appearance order); ``shown.query`` indexes them."""
        return self.shown.queries

    @property
    def clicks(self) -> np.ndarray:
        """``clicks[n, r]``: the document at rank r + 1 of impression n was clicked."""
        return self.shown.clicks

    @property
    def valid(self) -> np.ndarray:
        """``valid[n, r]``: impression n shows a document at rank r + 1."""
        return self.shown.valid

    def first(self, where: np.ndarray) -> tuple[int, int]:
        """(impression, rank index) of the first line (in file order) of the documents
        marked in ``where`` (impressions × ranks booleans, at least one True)."""
        return self.shown.first(where)

    def error(self, kind: type[InputError], message: str, where: np.ndarray) -> InputError:
        """An error of ``kind`` at the first line (in file order) of the documents marked
        in ``where`` (impressions × ranks booleans, at least one True)."""
        return self.shown.error(kind, message, where)

    def __repr__(self) -> str:
        return (f"InterleavingLog({len(self.impressions):,} impressions, "
                f"{len(self.topics):,} topics, teams {' '.join(map(str, self.teams))}, "
                f"{int(self.valid.sum()):,} documents shown, {int(self.clicks.sum()):,} "
                "clicks)")


def read_interleaving_log(source: Any) -> InterleavingLog:
    """Read an interleaving log (see the module documentation): a path (text or gzip),
    bytes, a stream, or a DataFrame with the columns of :data:`COLUMNS` (``team`` may be
    left out: ``-``; row i is reported as line i).

    Raises
    ------
    InputFormatError
        A malformed line, a rank below 1, a click other than 0/1, an impression with two
        topics or with a gap in its ranks.
    DuplicateError
        A rank given twice in an impression, or a document shown twice in it.
    EmptyInputError
        No line at all.
    """
    if isinstance(source, InterleavingLog):
        return source
    # (a DataFrame exists only once pandas is imported: a text log is read without it)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(source, pandas.DataFrame):
        return _read_text(_frame_text(source), "<DataFrame>")
    return _read_text(source, source_name(source))


def _frame_text(frame: pd.DataFrame) -> bytes:
    """A DataFrame log as the text it stands for (one line per row)."""
    import pandas as pd

    needed = [c for c in COLUMNS if c != "team"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise about(InputFormatError(f"interleaving log lacks column(s) {', '.join(missing)} "
                                     f"(needs {' '.join(COLUMNS)}; team may be left out)",
                                     source="<DataFrame>"), frame)
    columns = [frame[c] if c in frame.columns else pd.Series(NO_TEAM, index=frame.index)
               for c in COLUMNS]
    lines = pd.concat([c.astype(str) for c in columns], axis=1).agg(" ".join, axis=1)
    return ("\n".join(lines) + "\n").encode() if len(lines) else b""


def _read_text(source: Any, name: str) -> InterleavingLog:
    kinds: dict[str, FieldKind] = {c: "int" if c in ("rank", "clicked") else "str"
                                   for c in COLUMNS}
    read, raw = read_fields(source, COLUMNS, kinds, {2: check_int64, 5: check_int64},
                            "interleaving log")
    coded = {key: codes_of(read.strings(column))
             for column, key in (("impression", "session"), ("topic", "query"),
                                 ("docno", "docno"), ("team", "team"))}
    numbers = {c: read.numbers(c) for c in ("rank", "clicked")}
    del read

    def locate(record: int) -> tuple[int, str]:
        return line_of_record(raw(), record)

    team_of_row, names = coded.pop("team")
    shown = _encoded(coded, numbers, name, None, locate, words=("impression", "topic"))
    size = shown.serp_size
    cell = coded["session"][0] * size + (np.asarray(numbers["rank"], dtype=np.int64) - 1)
    # teams without "-", their codes renumbered (first-appearance order)
    keep = names != NO_TEAM
    renumber = np.full(len(names), -1, dtype=np.int64)
    renumber[keep] = np.arange(int(keep.sum()))
    team = np.full(shown.doc.shape, -1, dtype=np.int64)
    team.reshape(-1)[cell] = renumber[team_of_row]
    return InterleavingLog(shown, names[keep], team)
