"""Relevance judgments (:class:`Qrels`) and retrieval results (:class:`Run`).

Both hold columnar data: topic and document identifiers as pyarrow string arrays, numbers
as numpy arrays. They are validated on construction (no duplicate (topic, docno) pair, no
NaN score) so that every later stage can rely on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import DuplicateError, InputFormatError

#: What to do with a (topic, docno) pair that occurs more than once.
#: ``error`` (default, as trec_eval), ``first`` / ``last`` (keep that occurrence in file
#: order), ``max`` (keep the highest score or relevance).
DuplicatePolicy = Literal["error", "first", "last", "max"]


def as_string_array(values: object) -> pa.ChunkedArray:
    """Identifiers as a pyarrow chunked string array (dictionary arrays are decoded)."""
    array = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values)
    if isinstance(array, pa.Array):
        array = pa.chunked_array([array])
    if pa.types.is_dictionary(array.type):
        array = array.cast(array.type.value_type)
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = array.cast(pa.string())
    return array


def duplicate_rows(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    """Row indices (sorted) of every row whose (topic, docno) pair occurs more than once."""
    keys = _pair_keys(topic, docno)
    # a stable sort is a radix/tim sort here: fast on the topic-grouped keys of real files
    sorted_keys = np.sort(keys, kind="stable")
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return np.empty(0, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    flag = np.zeros(len(keys), dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    return np.sort(order[flag])


def _pair_keys(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    """One int64 key per row, equal exactly when (topic, docno) are equal."""
    topic_codes = _codes(topic).astype(np.int64)
    doc_codes = _codes(docno).astype(np.int64)
    return topic_codes * (int(doc_codes.max(initial=-1)) + 1) + doc_codes


def _codes(values: pa.ChunkedArray) -> np.ndarray:
    encoded = pc.dictionary_encode(values).combine_chunks()
    return encoded.indices.to_numpy(zero_copy_only=False)


def resolve_duplicates(
    topic: pa.ChunkedArray,
    docno: pa.ChunkedArray,
    value: np.ndarray,
    policy: DuplicatePolicy,
    source: str,
    describe_row,
) -> np.ndarray | None:
    """Apply a duplicate policy; returns the row indices to keep, or ``None`` to keep all.

    ``describe_row(i)`` gives ``(line number, text)`` of row ``i`` for error messages.
    """
    if policy not in ("error", "first", "last", "max"):
        raise ValueError(f"unknown duplicate policy {policy!r}: use error, first, last or max")
    rows = duplicate_rows(topic, docno)
    if len(rows) == 0:
        return None
    if policy == "error":
        topics = topic.take(pa.array(rows)).to_pylist()
        docs = docno.take(pa.array(rows)).to_pylist()
        first_pair = (topics[0], docs[0])
        second = next(
            r for r, t, d in zip(rows[1:], topics[1:], docs[1:], strict=True)
            if (t, d) == first_pair
        )
        line, text = describe_row(int(second))
        raise DuplicateError(
            f"duplicate document {first_pair[1]!r} for topic {first_pair[0]!r} "
            f"(use duplicates='first', 'last' or 'max' to de-duplicate explicitly)",
            source=source,
            line=line,
            text=text,
        )
    keys = _pair_keys(topic, docno)
    n = len(keys)
    if policy == "first":
        order = np.lexsort((np.arange(n), keys))
    elif policy == "last":
        order = np.lexsort((-np.arange(n), keys))
    else:
        order = np.lexsort((np.arange(n), -value, keys))
    sorted_keys = keys[order]
    leader = np.ones(n, dtype=bool)
    leader[1:] = sorted_keys[1:] != sorted_keys[:-1]
    return np.sort(order[leader])


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: one row per judged (topic, document) pair.

    ``rel`` holds integer relevance degrees. As in trec_eval, a negative degree marks a
    document that is in the pool but was not judged (e.g. the sampled pools of infAP);
    such a document is neither relevant nor judged non-relevant.
    """

    topic: pa.ChunkedArray
    docno: pa.ChunkedArray
    rel: np.ndarray
    source: str = "<qrels>"

    def __post_init__(self) -> None:
        if not (len(self.topic) == len(self.docno) == len(self.rel)):
            raise InputFormatError("qrels columns have different lengths", source=self.source)

    def __len__(self) -> int:
        return len(self.rel)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order (trec_eval's order)."""
        return sorted(pc.unique(self.topic).to_pylist())

    def to_frame(self):
        """The judgments as a DataFrame with columns ``query_id, doc_id, relevance``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "query_id": self.topic.to_numpy(),
                "doc_id": self.docno.to_numpy(),
                "relevance": self.rel,
            }
        )

    def __repr__(self) -> str:
        return f"Qrels({len(self.topics)} topics, {len(self)} judgments, source={self.source!r})"


@dataclass(frozen=True, eq=False)
class Run:
    """Retrieval results of one system: one row per retrieved (topic, document) pair.

    ``rank`` (the file's rank column) is kept only when asked for, since trec_eval ignores
    it; it is needed by the ``rank-column`` tie policy.
    """

    name: str
    topic: pa.ChunkedArray
    docno: pa.ChunkedArray
    score: np.ndarray
    rank: np.ndarray | None = None
    source: str = "<run>"
    runids: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        n = len(self.score)
        if not (len(self.topic) == len(self.docno) == n) or (
            self.rank is not None and len(self.rank) != n
        ):
            raise InputFormatError("run columns have different lengths", source=self.source)

    def __len__(self) -> int:
        return len(self.score)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order."""
        return sorted(pc.unique(self.topic).to_pylist())

    def to_frame(self):
        """The results as a DataFrame with columns ``query_id, doc_id, score`` (and ``rank``)."""
        import pandas as pd

        frame = pd.DataFrame(
            {
                "query_id": self.topic.to_numpy(),
                "doc_id": self.docno.to_numpy(),
                "score": self.score,
            }
        )
        if self.rank is not None:
            frame["rank"] = self.rank
        return frame

    def __repr__(self) -> str:
        return (
            f"Run({self.name!r}, {len(self.topics)} topics, {len(self)} results, "
            f"source={self.source!r})"
        )
