"""Relevance judgments (:class:`Qrels`) and retrieval results (:class:`Run`).

Both hold columnar data: topic and document identifiers as
:class:`~irscale.core.strings.Strings` columns (numpy arrays of offsets and UTF-8 bytes),
numbers as numpy arrays. They are validated on construction (no duplicate (topic, docno) pair, no
NaN score) so that every later stage can rely on them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InputFormatError
from ._columnar.blocks import TopicBlocks, as_string_array
from ._columnar.duplicates import DuplicatePolicy, resolve_duplicates
from ._columnar.fingerprints import string_fingerprints
from .extras import RANX
from .input_messages import c_float_warning
from .notebook import HtmlRepr, shown_rows
from .strings import Strings


def _fits(fingerprints: np.ndarray | None, blocks: TopicBlocks | None, n: int) -> bool:
    """True when precomputed fingerprints and blocks (if any) describe ``n`` rows."""
    return (fingerprints is None or len(fingerprints) == n) and (
        blocks is None or int(blocks.bounds[-1]) == n)


def identifier_column(values: object, what: str, source: str) -> Strings:
    """An identifier column as a :class:`Strings` (:func:`as_string_array`: Python
    strings, numpy, pandas or Arrow columns); a missing value or one that is not a string is
    an :class:`InputFormatError` naming ``what`` and ``source``."""
    nulls = getattr(values, "null_count", 0)
    if nulls:  # an Arrow column
        raise InputFormatError(f"{nulls} missing {what}(s)", source=source)
    try:
        return as_string_array(values)
    except TypeError as error:
        raise InputFormatError(f"{what}s: {error}", source=source) from None



def _pick(column: Any, rows: np.ndarray | None) -> Any:
    """The values of ``column`` (:class:`Strings` or an array) at ``rows`` (``None``:
    every one), for the frames of :class:`Qrels` and :class:`Run`."""
    if rows is None:
        return column
    return column.take(rows) if isinstance(column, Strings) else column[rows]


class _IdentifierColumns:
    """What :class:`Qrels` and :class:`Run` derive from their topic and docno columns (and
    take from the reader when it computed them already)."""

    topic: Strings
    docno: Strings
    source: str
    fingerprints: np.ndarray | None
    blocks: TopicBlocks | None

    def _hold_identifiers(self) -> None:
        """The topic and docno columns as :class:`Strings` (whatever they were given as)."""
        for name, what in (("topic", "topic id"), ("docno", "docno")):
            values = getattr(self, name)
            if not isinstance(values, Strings):
                object.__setattr__(self, name, identifier_column(values, what, self.source))

    @cached_property
    def docno_fingerprints(self) -> np.ndarray:
        """The docnos' :func:`string_fingerprints` (uint64), computed at most once."""
        if self.fingerprints is not None:
            return self.fingerprints
        return string_fingerprints(self.docno)

    @cached_property
    def topic_blocks(self) -> TopicBlocks:
        """The topics' :class:`TopicBlocks`, computed at most once."""
        return self.blocks if self.blocks is not None else TopicBlocks.of(self.topic)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order (trec_eval's order)."""
        return self.topic.unique(sort=True).to_pylist()

    def __len__(self) -> int:
        """The number of rows (of every column: ``__post_init__`` checks their lengths)."""
        return len(self.topic)

    def _rows(self, rows: np.ndarray | None) -> Any:  # pragma: no cover - both define it
        raise NotImplementedError

    def _frame(self, rows: np.ndarray | None, name: str, values: np.ndarray) -> Any:
        """The DataFrame of ``rows`` (None: every row, else their row numbers as the
        index) with columns ``query_id``, ``doc_id`` and ``name`` (of ``values``)."""
        import pandas as pd

        return pd.DataFrame({"query_id": _pick(self.topic, rows).to_numpy(),
                             "doc_id": _pick(self.docno, rows).to_numpy(),
                             name: _pick(values, rows)},
                            index=None if rows is None else rows)

    def _html_frame(self) -> Any:
        """A notebook shows the first and last rows (their row numbers as the index)."""
        return self._rows(shown_rows(len(self)))


def nested_dict(topic: Strings, docno: Strings, values: list, cast: Callable[[Any], Any]
                ) -> dict[str, dict[str, Any]]:
    """``{topic: {docno: cast(value)}}`` of rows, in their order (a pair listed twice keeps
    its last value: the readers keep one row per pair)."""
    out: dict[str, dict[str, Any]] = {}
    for t, d, v in zip(topic.to_pylist(), docno.to_pylist(), values, strict=True):
        out.setdefault(t, {})[d] = cast(v)
    return out


@dataclass(frozen=True, eq=False)
class Qrels(_IdentifierColumns, HtmlRepr):
    """Relevance judgments: one row per judged (topic, document) pair.

    ``rel`` holds integer relevance degrees. As in trec_eval, a negative degree marks a
    document that is in the pool but was not judged (e.g. the sampled pools of infAP);
    such a document is neither relevant nor judged non-relevant.
    """

    topic: Strings
    docno: Strings
    rel: np.ndarray
    source: str = "<qrels>"
    #: The docnos' :func:`string_fingerprints` when the reader computed them already.
    fingerprints: np.ndarray | None = field(default=None, repr=False)
    #: The topics' :class:`TopicBlocks` when the reader computed them already.
    blocks: TopicBlocks | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._hold_identifiers()
        n = len(self.rel)
        if not (len(self.topic) == len(self.docno) == n) or not _fits(
            self.fingerprints, self.blocks, n
        ):
            raise InputFormatError("qrels columns have different lengths", source=self.source)

    def to_frame(self):
        """The judgments as a DataFrame with columns ``query_id, doc_id, relevance``."""
        return self._rows(None)

    def _rows(self, rows: np.ndarray | None):
        return self._frame(rows, "relevance", self.rel)

    def __repr__(self) -> str:
        return f"Qrels({len(self.topics)} topics, {len(self)} judgments, source={self.source!r})"

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{topic: {docno: relevance}}``, in the rows' order (what ranx's ``Qrels`` and
        its JSON files hold)."""
        return nested_dict(self.topic, self.docno, self.rel.tolist(), int)

    def to_ranx(self) -> Any:
        """The judgments as ranx's ``Qrels`` (``pip install 'irscale[ranx]'``): every
        relevance as ranx holds it, an integer."""
        ranx = RANX.load("Qrels.to_ranx()")
        return ranx.Qrels(self.to_dict())


@dataclass(frozen=True, eq=False)
class Run(_IdentifierColumns, HtmlRepr):
    """Retrieval results of one system: one row per retrieved (topic, document) pair.

    ``rank`` (the file's rank column) is kept only when asked for, since trec_eval ignores
    it; it is needed by the ``rank-column`` tie policy.

    Rows are usually in file order. When a file does not list each topic's lines together
    (shuffled or interleaved lines), the reader stores the rows grouped by topic instead
    (topics in order of first appearance, a topic's rows in file order, which is all that
    ranking and the duplicate policies depend on) and ``file_row`` gives the file row of
    every row: rows grouped by topic are what the fast paths of duplicate checks and
    ranking work on.
    """

    name: str
    topic: Strings
    docno: Strings
    score: np.ndarray
    rank: np.ndarray | None = None
    source: str = "<run>"
    runids: tuple[str, ...] = field(default=())
    #: The docnos' :func:`string_fingerprints` when the reader computed them already.
    fingerprints: np.ndarray | None = field(default=None, repr=False)
    #: The topics' :class:`TopicBlocks` when the reader computed them already.
    blocks: TopicBlocks | None = field(default=None, repr=False)
    #: The file row (0-based, among non-blank lines) of every row when the rows are not in
    #: file order (see above); ``None``: row ``i`` is the file's ``i``-th line.
    file_row: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._hold_identifiers()
        n = len(self.score)
        if not (len(self.topic) == len(self.docno) == n) or any(
            column is not None and len(column) != n for column in (self.rank, self.file_row)
        ) or not _fits(self.fingerprints, self.blocks, n):
            raise InputFormatError("run columns have different lengths", source=self.source)

    def to_frame(self):
        """The results as a DataFrame with columns ``query_id, doc_id, score`` (and ``rank``)."""
        return self._rows(None)

    def _rows(self, rows: np.ndarray | None):
        frame = self._frame(rows, "score", self.score)
        if self.rank is not None:
            frame["rank"] = _pick(self.rank, rows)
        return frame

    def __repr__(self) -> str:
        return (
            f"Run({self.name!r}, {len(self.topics)} topics, {len(self)} results, "
            f"source={self.source!r})"
        )

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{topic: {docno: score}}``, in the rows' order (what ranx's ``Run`` and its
        JSON files hold)."""
        return nested_dict(self.topic, self.docno, self.score.tolist(), float)

    def to_ranx(self) -> Any:
        """The results as ranx's ``Run``, named as the run (``pip install
        'irscale[ranx]'``)."""
        ranx = RANX.load("Run.to_ranx()")
        return ranx.Run(self.to_dict(), name=self.name)


def as_c_float(scores: np.ndarray) -> np.ndarray:
    """Scores as the C floats trec_eval stores (beyond ±3.4e38: ±inf, quietly)."""
    with np.errstate(over="ignore", under="ignore"):
        return scores.astype(np.float32)


#: Scores checked at once by :func:`warn_single_precision`.
_CHECKED_ROWS = 1 << 18


def warn_single_precision(score: np.ndarray, source: str,
                          describe_row: Callable[[int], tuple[int | None, str]]) -> None:
    """Warn when scores lie outside the range of a C ``float``.

    trec_eval 9.0.8 stores scores as C floats (``TEXT_RESULTS.sim``), and irscale's default
    tie policy reproduces it: a score beyond ±3.4e38 becomes infinite and a non-zero score
    below about 1e-45 in magnitude becomes 0, so such scores tie and are ordered by docno
    even though they differ. The numbers are trec_eval's, but rarely what was meant.
    The scores are checked :data:`_CHECKED_ROWS` at a time (temporaries in the cache: 10M
    scores 29 -> 10 ms warm).
    """
    found = []
    for start in range(0, len(score), _CHECKED_ROWS):
        part = score[start: start + _CHECKED_ROWS]
        single = as_c_float(part)
        lost = np.isinf(single)
        lost |= (single == 0) & (part != 0)
        if lost.any():
            found.append(np.flatnonzero(lost) + start)
    if not found:
        return
    rows = np.concatenate(found)
    line, text = describe_row(int(rows[0]))
    where = f"{source}, line {line}" if line is not None else source
    warnings.warn(c_float_warning(where, len(rows), text), stacklevel=3)


def assemble_run(
    topic: Strings,
    docno: Strings,
    score: np.ndarray,
    rank: np.ndarray | None,
    *,
    name: str,
    source: str,
    runids: tuple[str, ...],
    duplicates: DuplicatePolicy,
    describe_row: Callable[[int], tuple[int | None, str]],
    blocks: TopicBlocks | None = None,
    distinct: bool = False,
) -> Run:
    """A :class:`Run` of the parsed columns (in input order), as every reader builds it.

    Computes the docno fingerprints and topic blocks once; groups the rows by topic when a
    topic's rows are not together (``Run.file_row`` then keeps each row's input row); applies
    the duplicate policy. ``describe_row(i)`` gives ``(line number, text)`` of input row
    ``i`` for error messages. ``blocks``: the topics' blocks when the caller knows that each
    topic's rows are together (dicts of dicts), so that they need not be found;
    ``distinct`` that no (topic, docno) pair occurs twice (dicts of dicts whose keys are all
    ``str``), so that the duplicate check is skipped.
    """
    warn_single_precision(score, source, describe_row)
    topic = identifier_column(topic, "topic id", source)
    docno = identifier_column(docno, "docno", source)
    fingerprints = string_fingerprints(docno)
    file_row, grouped = (None, blocks) if blocks is not None else TopicBlocks.grouped(topic)
    blocks = grouped
    if file_row is not None:
        # a topic's rows are not together: store the rows grouped by topic (see Run)
        topic = grouped.column()
        docno = docno.take(file_row)
        score, fingerprints = score[file_row], fingerprints[file_row]
        rank = None if rank is None else rank[file_row]
    keep = None if distinct else resolve_duplicates(
        topic, docno, score, duplicates, source,
        lambda row: describe_row(row if file_row is None else int(file_row[row])),
        fingerprints, blocks, file_row,
    )
    if keep is not None:
        topic, docno, score = topic.take(keep), docno.take(keep), score[keep]
        rank = None if rank is None else rank[keep]
        file_row = None if file_row is None else file_row[keep]
        fingerprints, blocks = fingerprints[keep], None
    return Run(name=name, topic=topic, docno=docno, score=score, rank=rank, source=source,
               runids=runids, fingerprints=fingerprints, blocks=blocks, file_row=file_row)
