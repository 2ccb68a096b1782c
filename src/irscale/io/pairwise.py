"""Reading pairwise judgments: ``topic worker left right label`` files or frames, as codes.

One line is one comparison: ``worker`` saw the documents ``left`` and ``right`` of
``topic`` (in that order on the screen) and preferred ``label``, which must be one of the
two. Read by :mod:`irscale.collections.pairwise`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import EmptyInputError, InputError, about
from ._text import line_of_record, read_fields, source_name
from .text_codes import objects_of

if TYPE_CHECKING:
    import pandas as pd

#: The columns of a pairwise-judgments file, in order.
COLUMNS = ("topic", "worker", "left", "right", "label")

__all__ = ["COLUMNS", "PairwiseJudgments", "read_pairwise"]


@dataclass(frozen=True, eq=False)
class PairwiseJudgments:
    """Pairwise judgments as codes: ``left`` and ``right`` index ``items`` (a frame of
    topic, docno; the documents of a topic are compared only with each other), ``worker``
    indexes ``workers``, ``left_wins`` says which of the two the worker preferred, and
    ``topic`` (one code per item) indexes ``topics``."""

    items: pd.DataFrame
    topics: np.ndarray
    topic: np.ndarray
    workers: np.ndarray
    worker: np.ndarray
    left: np.ndarray
    right: np.ndarray
    left_wins: np.ndarray
    source: str
    #: Line number and text of a comparison (0-based record in input order), for errors.
    locate: Callable[[int], tuple[int, str]] | None = field(default=None, repr=False)

    @property
    def winner(self) -> np.ndarray:
        """The preferred item of every comparison."""
        return np.where(self.left_wins, self.left, self.right)

    @property
    def loser(self) -> np.ndarray:
        """The other item of every comparison."""
        return np.where(self.left_wins, self.right, self.left)

    def __repr__(self) -> str:
        return (f"PairwiseJudgments({len(self.worker):,} comparisons, {len(self.items):,} "
                f"documents, {len(self.topics):,} topics, {len(self.workers):,} workers)")


def read_pairwise(source: Any) -> PairwiseJudgments:
    """Pairwise judgments from a ``topic worker left right label`` file (whitespace-separated;
    path, bytes or stream) or a DataFrame with those columns.

    ``label`` is the preferred document: it must be ``left`` or ``right``, and the two must
    differ. A worker may compare the same pair more than once (every comparison counts).
    Errors name the file, the line and its text.

    >>> read_pairwise(b"1 w1 d1 d2 d1\\n1 w2 d2 d3 d3\\n2 w1 d1 d2 d2\\n")
    PairwiseJudgments(3 comparisons, 5 documents, 2 topics, 2 workers)
    """
    if isinstance(source, PairwiseJudgments):
        return source
    if hasattr(source, "columns"):
        import pandas as pd

        missing = [c for c in COLUMNS if c not in source.columns]
        if missing:
            raise about(InputError(f"pairwise frame lacks column(s) {', '.join(missing)} "
                                   f"(needs {' '.join(COLUMNS)})", source="<DataFrame>"),
                        source)
        frame = pd.DataFrame({c: source[c] for c in COLUMNS})
        empty = frame.isna().any(axis=1).to_numpy()
        if empty.any():
            row = int(np.flatnonzero(empty)[0])
            raise InputError("a value is missing", source="<DataFrame>", line=row + 1,
                             text=" ".join(map(str, frame.iloc[row])))
        return _encoded({c: frame[c].astype(str).to_numpy(dtype=object) for c in COLUMNS},
                        "<DataFrame>", None)
    name = source_name(source)
    fields, raw = read_fields(source, COLUMNS, dict.fromkeys(COLUMNS, "str"), {},
                              "pairwise judgments")
    return _encoded({c: objects_of(fields.strings(c)) for c in COLUMNS}, name,
                    lambda row: line_of_record(raw(), row))


def _encoded(columns: dict[str, np.ndarray], source: str, where: Any) -> PairwiseJudgments:
    """The judgments of ``columns`` (object arrays of :data:`COLUMNS`) as codes, checked on
    the arrays before pandas (which numbers them) is imported; ``where(row)``: the line
    and text of a row (None: row i is line i + 1)."""
    def locate(row: int) -> tuple[int, str]:
        if where is None:
            return row + 1, " ".join(str(columns[c][row]) for c in COLUMNS)
        line, text = where(row)
        return int(line), str(text)

    def fail(message: str, rows: np.ndarray) -> InputError:
        line, text = locate(int(np.flatnonzero(rows)[0]))
        return InputError(message, source=source, line=line, text=text)

    if len(columns["topic"]) == 0:
        raise EmptyInputError("holds no comparisons", source=source)
    left, right, label = (columns[c] for c in ("left", "right", "label"))
    same = left == right
    if same.any():
        raise fail("a document compared with itself (left and right are the same)", same)
    left_wins = label == left
    unknown = ~left_wins & (label != right)
    if unknown.any():
        raise fail("the label (the preferred document) is neither left nor right", unknown)
    import pandas as pd

    topic, topics = pd.factorize(columns["topic"])
    n = len(left)
    # (topic, docno) items numbered in order of first appearance in the left column, then
    # in the right one
    docno, docnos = pd.factorize(np.concatenate([left, right]))
    both = np.concatenate([topic, topic]).astype(np.int64) * len(docnos) + docno
    item, pairs = pd.factorize(both)
    items = pd.DataFrame({"topic": np.asarray(topics, dtype=object)[pairs // len(docnos)],
                          "docno": np.asarray(docnos, dtype=object)[pairs % len(docnos)]})
    worker, workers = pd.factorize(columns["worker"])
    return PairwiseJudgments(items, np.asarray(topics, dtype=object),
                             (pairs // len(docnos)).astype(np.int64),
                             np.asarray(workers, dtype=object), worker.astype(np.int64),
                             item[:n].astype(np.int64), item[n:].astype(np.int64),
                             left_wins.astype(bool), source, locate)
