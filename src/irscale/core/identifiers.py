"""Columns of identifiers (topic ids, docnos, intents) for the layers above the core.

The columnar engine behind :mod:`irscale.core` (private) holds identifiers as Arrow string
columns and works on them with numpy; the pooling, sharding, session and per-intent code
needs a few of its operations, given here with numpy arrays in and out:

* :func:`strings`, :func:`as_strings`, :func:`join_strings`: build string columns;
* :func:`encode`: integer codes of a column and its distinct values;
* :func:`index_in`: where each value is in a set (-1: absent); :func:`byte_order`: the
  values sorted by their bytes (trec_eval's and ndeval's docno order);
* :func:`fingerprints`: stable 64-bit fingerprints (hash sharding);
* :func:`take`, :func:`filter_rows`: rows of a column;
* :func:`unique_integers`: ``np.unique`` of codes or degrees.

They use the engine's conversions, which load neither pandas nor :mod:`pyarrow.compute`
(the ``irscale`` command's start-up pays for neither); only :func:`as_strings` of Python
objects other than arrow arrays goes through ``pa.array``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import pyarrow as pa

from ._columnar import arrow
from ._columnar import arrow_compute as pc
from ._columnar.blocks import as_string_array, take_rows
from ._columnar.fingerprints import string_fingerprints

#: An identifier column: an arrow string array, chunked or not.
Column: TypeAlias = "pa.Array | pa.ChunkedArray"

__all__ = ["as_strings", "byte_order", "encode", "filter_rows", "fingerprints", "index_in",
           "join_strings", "strings", "take", "unique_integers"]


def strings(values: Sequence[str] | np.ndarray) -> pa.Array:
    """Python strings as an arrow string array (as ``pa.array(values, pa.string())``).

    >>> strings(["d1", "d22"]).to_pylist()
    ['d1', 'd22']
    """
    return arrow.strings(values)


def as_strings(*columns: object) -> pa.ChunkedArray:
    """The ``columns`` (arrow arrays or sequences of identifiers) end to end, as one
    chunked array of ``string`` values (dictionary arrays decoded, other types cast).

    >>> as_strings(strings(["a"]), ["b", "c"]).to_pylist()
    ['a', 'b', 'c']
    """
    chunks = [chunk if chunk.type == pa.string() else pc.cast(chunk, pa.string())
              for column in columns for chunk in as_string_array(column).chunks]
    return pa.chunked_array(chunks, type=pa.string())


def join_strings(left: Column, right: Column, separator: str) -> Column:
    """``left[i] + separator + right[i]`` for every row (two columns of one length)."""
    return pc.binary_join_element_wise(left, right, separator)


def encode(values: Column, *, grouped: bool = False) -> tuple[np.ndarray, pa.Array]:
    """``(codes, distinct)``: the distinct values in order of first appearance, and the
    code (int64 index into them) of every value, as pyarrow's ``dictionary_encode``.

    ``grouped``: equal values mostly come in runs (the topics of a run file); neighbours
    are compared first and only the first value of each run is hashed (the result is the
    same).

    >>> codes, distinct = encode(strings(["b", "a", "b"]))
    >>> codes.tolist(), distinct.to_pylist()
    ([0, 1, 0], ['b', 'a'])
    """
    flat = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    n = len(flat)
    if grouped and n >= 2:
        change = np.r_[True, arrow.to_numpy(pc.not_equal(flat.slice(1), flat.slice(0, n - 1)))]
        firsts = np.flatnonzero(change)
        if len(firsts) <= n // 4:
            codes, distinct = encode(pc.take(flat, arrow.array(firsts)))
            return codes[np.cumsum(change) - 1], distinct
    encoded = pc.dictionary_encode(flat)
    return arrow.to_numpy(encoded.indices).astype(np.int64), encoded.dictionary


def index_in(values: Column, value_set: pa.Array) -> np.ndarray:
    """The index (int64) of every value in ``value_set``, -1 when absent.

    >>> index_in(strings(["b", "x"]), strings(["a", "b"])).tolist()
    [1, -1]
    """
    return arrow.index_in(values, value_set)


def byte_order(values: Column) -> np.ndarray:
    """The rows (int64) sorted by their values' bytes, equal values in their order.

    >>> byte_order(strings(["b", "a", "b", "B"])).tolist()
    [3, 1, 0, 2]
    """
    return arrow.to_numpy(pc.sort_indices(values)).astype(np.int64)


def fingerprints(values: Column) -> np.ndarray:
    """A 64-bit fingerprint (uint64) of every string's UTF-8 bytes, the same on every
    machine and in every release: the bytes read as little-endian 8-byte words (the last
    zero-padded), h₀ = L·0x9E3779B97F4A7C15 for L bytes, then h ← mix(h + word) per word
    with splitmix64's finaliser (Steele, Lea and Flood 2014)."""
    return string_fingerprints(values)


def take(values: Column, rows: np.ndarray) -> Column:
    """The values of ``rows`` (int positions), in that order; a chunked column is taken
    chunk by chunk (never concatenated whole first).

    >>> take(strings(["d1", "d2", "d3"]), np.array([2, 0])).to_pylist()
    ['d3', 'd1']
    """
    if isinstance(values, pa.ChunkedArray):
        return take_rows(values, np.asarray(rows, dtype=np.int64))
    return arrow.take(values, np.asarray(rows, dtype=np.int64))


def filter_rows(values: Column, keep: np.ndarray) -> Column:
    """The values where the boolean array ``keep`` is true, in their order."""
    return pc.filter(values, arrow.array(np.asarray(keep, dtype=bool)))


def unique_integers(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer (or boolean) array, as ``np.unique`` (which
    loads ``numpy.ma`` on its first call, a cost the command's start-up avoids).

    >>> unique_integers(np.array([3, 1, 3])).tolist()
    [1, 3]
    """
    return arrow.unique_integers(values)
