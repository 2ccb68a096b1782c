"""Columns of identifiers (topic ids, docnos, intents) for the layers above the core.

Identifiers are :class:`~irscale.core.strings.Strings` columns (numpy arrays of offsets and
UTF-8 bytes); the pooling, sharding, session and per-intent code needs a few operations on
them, given here with numpy arrays in and out (a column may be given as a
:class:`Strings`, Python strings, a numpy or pandas column, or an Arrow array):

* :func:`strings`, :func:`as_strings`, :func:`join_strings`: build string columns;
* :func:`encode`: integer codes of a column and its distinct values;
* :func:`index_in`: where each value is in a set (-1: absent); :func:`byte_order`: the
  values sorted by their bytes (trec_eval's and ndeval's docno order);
* :func:`fingerprints`: stable 64-bit fingerprints (hash sharding);
* :func:`take`, :func:`filter_rows`: rows of a column;
* :func:`unique_integers`: ``np.unique`` of codes or degrees.

None loads pandas or pyarrow (the ``irscale`` command's start-up pays for neither).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np

from ._columnar.blocks import as_string_array
from ._columnar.fingerprints import string_fingerprints
from .strings import Strings

#: An identifier column: a :class:`Strings`, or what :func:`as_strings` converts.
Column: TypeAlias = "Strings | object"

__all__ = ["as_strings", "byte_order", "encode", "filter_rows", "fingerprints", "index_in",
           "join_strings", "strings", "take", "unique_integers"]


def strings(values: Sequence[str] | np.ndarray) -> Strings:
    """Python strings as a :class:`Strings` column.

    >>> strings(["d1", "d22"]).to_pylist()
    ['d1', 'd22']
    """
    return Strings.of(values)


def as_strings(*columns: object) -> Strings:
    """The ``columns`` (string columns or sequences of identifiers; Arrow arrays of other
    types are cast to strings) end to end, as one :class:`Strings` column.

    >>> as_strings(strings(["a"]), ["b", "c"]).to_pylist()
    ['a', 'b', 'c']
    """
    return Strings.concat(as_string_array(column) for column in columns)


def join_strings(left: Column, right: Column, separator: str) -> Strings:
    """``left[i] + separator + right[i]`` for every row (two columns of one length): the
    three pieces of every row taken one after the other (:meth:`Strings.take`) and every
    three strings read as one.

    >>> join_strings(["q1", "q2"], ["a", ""], "/").to_pylist()
    ['q1/a', 'q2/']
    """
    left, right = as_string_array(left), as_string_array(right)
    n = len(left)
    if len(right) != n:
        raise ValueError(f"columns of {n} and {len(right)} strings")
    pieces = Strings.concat([left, Strings.of([separator]), right])
    rows = np.stack([np.arange(n), np.full(n, n), np.arange(n + 1, 2 * n + 1)], axis=1)
    taken = pieces.take(rows.reshape(-1))
    return Strings(taken.offsets[::3], taken.data)


def encode(values: Column, *, grouped: bool = False) -> tuple[np.ndarray, Strings]:
    """``(codes, distinct)``: the distinct values in order of first appearance, and the
    code (int64 index into them) of every value, as pyarrow's ``dictionary_encode``.

    ``grouped``: equal values mostly come in runs (the topics of a run file); neighbours
    are compared first and only the first value of each run is hashed (the result is the
    same).

    >>> codes, distinct = encode(strings(["b", "a", "b"]))
    >>> codes.tolist(), distinct.to_pylist()
    ([0, 1, 0], ['b', 'a'])
    """
    values = as_string_array(values)
    n = len(values)
    if grouped and n >= 2:
        change = np.r_[True, ~values[1:].equal(values[:-1])]
        firsts = np.flatnonzero(change)
        if len(firsts) <= n // 4:
            codes, distinct = values.take(firsts).encode()
            return codes[np.cumsum(change) - 1], distinct
    return values.encode()


def index_in(values: Column, value_set: Column) -> np.ndarray:
    """The index (int64) of every value in ``value_set``, -1 when absent.

    >>> index_in(strings(["b", "x"]), strings(["a", "b"])).tolist()
    [1, -1]
    """
    return as_string_array(values).index_in(as_string_array(value_set))


def byte_order(values: Column) -> np.ndarray:
    """The rows (int64) sorted by their values' bytes, equal values in their order.

    >>> byte_order(strings(["b", "a", "b", "B"])).tolist()
    [3, 1, 0, 2]
    """
    return as_string_array(values).argsort()


def fingerprints(values: Column) -> np.ndarray:
    """A 64-bit fingerprint (uint64) of every string's UTF-8 bytes, the same on every
    machine and in every release: the bytes read as little-endian 8-byte words (the last
    zero-padded), h₀ = L·0x9E3779B97F4A7C15 for L bytes, then h ← mix(h + word) per word
    with splitmix64's finaliser (Steele, Lea and Flood 2014)."""
    return string_fingerprints(as_string_array(values))


def take(values: Column, rows: np.ndarray) -> Strings:
    """The values of ``rows`` (int positions), in that order.

    >>> take(strings(["d1", "d2", "d3"]), np.array([2, 0])).to_pylist()
    ['d3', 'd1']
    """
    return as_string_array(values).take(np.asarray(rows, dtype=np.int64))


def filter_rows(values: Column, keep: np.ndarray) -> Strings:
    """The values where the boolean array ``keep`` is true, in their order."""
    return as_string_array(values).filter(np.asarray(keep, dtype=bool))


def unique_integers(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer (or boolean) array, as ``np.unique`` (which
    loads ``numpy.ma`` on its first call, a cost the command's start-up avoids): counted
    per value when their range is at most the array's length (relevance degrees: 5M labels
    in 17 ms against 29 ms sorted), sorted otherwise.

    >>> unique_integers(np.array([3, 1, 3])).tolist()
    [1, 3]
    """
    values = np.asarray(values)
    if values.dtype.kind not in "iub":
        return np.unique(values)
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low < max(len(values), 1 << 16):
            wide = values if values.dtype == np.uint64 else values.astype(np.int64, copy=False)
            offsets = wide - wide.dtype.type(low) if low else wide  # 0 .. high - low
            offsets = offsets.astype(np.intp, copy=False)
            present = np.flatnonzero(np.bincount(offsets)).astype(wide.dtype)
            return (present + wide.dtype.type(low)).astype(values.dtype)
    ordered = np.sort(values.reshape(-1))
    if len(ordered) == 0:
        return ordered
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]]
