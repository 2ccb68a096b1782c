"""Relevance judgments (:class:`Qrels`) and retrieval results (:class:`Run`).

Both hold columnar data: topic and document identifiers as pyarrow string arrays, numbers
as numpy arrays. They are validated on construction (no duplicate (topic, docno) pair, no
NaN score) so that every later stage can rely on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
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


def duplicate_rows(
    topic: pa.ChunkedArray, docno: pa.ChunkedArray, fingerprints: np.ndarray | None = None
) -> np.ndarray:
    """Row indices (sorted) of every row whose (topic, docno) pair occurs more than once.

    Fast path: rows are keyed by (topic code, 40-bit fingerprint of the docno) and sorted;
    distinct keys prove distinct pairs, so a file without duplicates (the common case) is
    cleared without hashing millions of docno strings into a dictionary. Rows whose keys
    collide are then checked exactly (fingerprint collisions are never taken for duplicates).
    ``fingerprints`` may pass the docnos' :func:`string_fingerprints` already computed.
    """
    n = len(docno)
    if n < 2:
        return np.empty(0, dtype=np.int64)
    keys = grouped_codes(topic).astype(np.uint64)
    if int(keys.max(initial=0)) >= 1 << 24:  # too many topics to pack: exact path
        return _duplicate_rows_exact(topic, docno)
    # dictionary codes follow first appearance: keys of a topic-grouped file are grouped,
    # which the stable (tim/radix) sort exploits; in place, to keep the peak memory low
    keys <<= np.uint64(40)
    if fingerprints is None:
        fingerprints = string_fingerprints(docno)
    keys |= fingerprints >> np.uint64(24)
    sorted_keys = np.sort(keys, kind="stable")
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return np.empty(0, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    flag = np.zeros(n, dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    candidates = np.sort(order[flag])
    take = pa.array(candidates)
    exact = _duplicate_rows_exact(topic.take(take), docno.take(take))
    return candidates[exact]


def _duplicate_rows_exact(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    keys = _pair_keys(topic, docno)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    if not same.any():
        return np.empty(0, dtype=np.int64)
    flag = np.zeros(len(keys), dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    return np.sort(order[flag])


_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix64(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (a bijection of uint64 with good avalanche), in place."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


def string_fingerprints(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """A 64-bit hash (uint64) of every string, computed 8 bytes at a time with numpy.

    Equal strings get equal fingerprints; different strings almost always get different
    ones, but callers must treat equal fingerprints only as candidates for equality.
    Cost: one vectorised pass per 8 bytes of the longest string.
    """
    if isinstance(values, pa.Array):
        values = pa.chunked_array([values])
    if pa.types.is_dictionary(values.type) or not (
        pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
    ):
        values = as_string_array(values)
    out = np.empty(len(values), dtype=np.uint64)
    position = 0
    for chunk in values.chunks:
        n = len(chunk)
        if n == 0:
            continue
        offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
        buffers = chunk.buffers()
        offsets = np.frombuffer(buffers[1], dtype=offset_type)[
            chunk.offset: chunk.offset + n + 1].astype(np.int64)
        low, high = int(offsets[0]), int(offsets[-1])
        padded = np.zeros(high - low + 8, dtype=np.uint8)  # 8-byte reads stay inside
        if high > low:
            padded[: high - low] = np.frombuffer(buffers[2], dtype=np.uint8)[low:high]
        # every (unaligned) 8-byte little-endian word of the data, by starting byte
        words = np.ndarray(shape=(high - low + 1,), dtype="<u8", buffer=padded, strides=(1,))
        starts = offsets[:-1] - low
        lengths = offsets[1:] - offsets[:-1]
        h = lengths.astype(np.uint64) * _GOLDEN
        with np.errstate(over="ignore"):
            for shift in range(0, int(lengths.max(initial=0)), 8):
                word = words[np.minimum(starts + shift, high - low)]
                word &= _LOW_BYTES[np.clip(lengths - shift, 0, 8)]
                active = lengths > shift  # a string's hash must not depend on its neighbours
                if active.all():
                    h += word
                    h = _mix64(h)
                else:
                    h[active] = _mix64(h[active] + word[active])
        out[position: position + n] = h
        position += n
    return out


def _pair_keys(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    """One int64 key per row, equal exactly when (topic, docno) are equal."""
    topic_codes = _codes(topic).astype(np.int64)
    doc_codes = _codes(docno).astype(np.int64)
    return topic_codes * (int(doc_codes.max(initial=-1)) + 1) + doc_codes


def _codes(values: pa.ChunkedArray) -> np.ndarray:
    encoded = pc.dictionary_encode(values).combine_chunks()
    return encoded.indices.to_numpy(zero_copy_only=False)


def grouped_codes(values: pa.ChunkedArray, value_set: pa.Array | None = None) -> np.ndarray:
    """Integer code (int64) of every value, computed once per run of equal values.

    Without ``value_set``: codes in order of first appearance (as ``dictionary_encode``);
    with it: the index of each value in ``value_set``, -1 when absent (as ``index_in``).
    Topic columns of TREC files come in long runs of one topic, so only the first value
    of each run is hashed: much cheaper than hashing millions of strings.
    """
    n = len(values)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    flat = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    change = pc.not_equal(flat.slice(1), flat.slice(0, n - 1))
    starts = np.flatnonzero(np.concatenate(([True], change.to_numpy(zero_copy_only=False))))
    heads = flat.take(pa.array(starts))
    if value_set is None:
        head_codes = pc.dictionary_encode(heads).indices.to_numpy(zero_copy_only=False)
    else:
        head_codes = pc.fill_null(pc.index_in(heads, value_set=value_set), -1).to_numpy(
            zero_copy_only=False)
    return np.repeat(np.asarray(head_codes, dtype=np.int64), np.diff(np.append(starts, n)))


def resolve_duplicates(
    topic: pa.ChunkedArray,
    docno: pa.ChunkedArray,
    value: np.ndarray,
    policy: DuplicatePolicy,
    source: str,
    describe_row,
    fingerprints: np.ndarray | None = None,
) -> np.ndarray | None:
    """Apply a duplicate policy; returns the row indices to keep, or ``None`` to keep all.

    ``describe_row(i)`` gives ``(line number, text)`` of row ``i`` for error messages;
    ``fingerprints`` the docnos' fingerprints when already computed.
    """
    if policy not in ("error", "first", "last", "max"):
        raise ValueError(f"unknown duplicate policy {policy!r}: use error, first, last or max")
    rows = duplicate_rows(topic, docno, fingerprints)
    # parsing and checking leave hundreds of MB of freed Arrow memory on a large file: give
    # it back now, before the next stages allocate their own
    pa.default_memory_pool().release_unused()
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
    #: The docnos' :func:`string_fingerprints` when the reader computed them already.
    fingerprints: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.score)
        if not (len(self.topic) == len(self.docno) == n) or (
            self.rank is not None and len(self.rank) != n
        ) or (self.fingerprints is not None and len(self.fingerprints) != n):
            raise InputFormatError("run columns have different lengths", source=self.source)

    def __len__(self) -> int:
        return len(self.score)

    @cached_property
    def docno_fingerprints(self) -> np.ndarray:
        """The docnos' :func:`string_fingerprints` (uint64), computed at most once."""
        if self.fingerprints is not None:
            return self.fingerprints
        return string_fingerprints(self.docno)

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
