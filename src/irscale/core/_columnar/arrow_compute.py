"""pyarrow's compute functions used on the evaluation path, called without importing
:mod:`pyarrow.compute`.

Importing :mod:`pyarrow.compute` builds a Python wrapper, with its signature and docstring,
for each of pyarrow's several hundred compute functions: 25-45 ms of every ``irscale eval``
process (a sixth of a small run's wall time), for the twenty-odd functions the evaluation
calls. This module calls them through ``call_function`` and the options classes of
pyarrow's compiled module instead, with :mod:`pyarrow.compute`'s signatures (the subset
used here), so that ``import irscale.core._columnar.arrow_compute as pc`` reads as the usual alias.

Modules imported by ``irscale eval`` use these functions, and neither :mod:`pyarrow.compute`
nor the array methods that import it on their first call (``take``, ``filter``, ``cast``,
``unique``, ``dictionary_encode``, ``sort``, ``fill_null`` ...): ``tests/test_startup.py``
runs ``irscale eval`` on several inputs and checks that :mod:`pyarrow.compute` stays unloaded.

>>> import pyarrow as pa
>>> values = pa.array(["b", "a", "b"])
>>> unique(values).to_pylist(), sort_indices(values).to_pylist()
(['b', 'a'], [1, 0, 2])
>>> take(values, pa.array([2, 1])).to_pylist()
['b', 'a']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa

from ...parallel.threads import map_threads

try:  # the compiled module, whose names pyarrow.compute re-exports
    import pyarrow._compute as _compute
except ImportError:  # a pyarrow that moved it: the public module, loaded all the same
    import pyarrow.compute as _compute

call_function = _compute.call_function

#: An array, chunked array, scalar, record batch or table: what a compute function takes.
Datum = Any


def all(values: Datum) -> pa.BooleanScalar:
    """Whether every value is true (nulls skipped; ``True`` when there is none)."""
    return call_function("all", [values])


def binary_join_element_wise(*strings: Datum) -> Datum:
    """The strings of each row joined, the last argument being the separator."""
    return call_function("binary_join_element_wise", list(strings))


def cast(values: Datum, target_type: pa.DataType) -> Datum:
    """``values`` as ``target_type``, checked (an overflow or a lossy cast raises)."""
    return call_function("cast", [values], _compute.CastOptions.safe(target_type))


def dictionary_encode(values: Datum) -> Datum:
    """``values`` as a dictionary array: the distinct values in order of first appearance,
    and the index of every value among them."""
    return call_function("dictionary_encode", [values])


def equal(left: Datum, right: Datum) -> Datum:
    return call_function("equal", [left, right])


def fill_null(values: Datum, fill_value: pa.Scalar) -> Datum:
    """``values`` with every null replaced by ``fill_value`` (a scalar of their type)."""
    return call_function("coalesce", [values, fill_value])


def filter(values: Datum, mask: Datum) -> Datum:
    """The values where ``mask`` is true (null: dropped)."""
    return call_function("filter", [values, mask], _compute.FilterOptions())


def if_else(condition: Datum, when_true: Datum, when_false: Datum) -> Datum:
    return call_function("if_else", [condition, when_true, when_false])


def index(data: Datum, value: pa.Scalar) -> pa.Int64Scalar:
    """The position of the first value equal to ``value`` (a scalar of the data's type), or
    -1."""
    return call_function("index", [data], _compute.IndexOptions(value=value))


def index_in(values: Datum, value_set: pa.Array) -> Datum:
    """The position in ``value_set`` of every value (null where it is not there)."""
    return call_function("index_in", [values], _compute.SetLookupOptions(value_set=value_set))


def indices_nonzero(values: Datum) -> Datum:
    """The positions of the true (non-zero) values."""
    return call_function("indices_nonzero", [values])


def is_null(values: Datum) -> Datum:
    """Whether each value is null."""
    return call_function("is_null", [values])


def not_equal(left: Datum, right: Datum) -> Datum:
    return call_function("not_equal", [left, right])


def replace_substring_regex(values: Datum, pattern: str, replacement: str) -> Datum:
    """Every string with each match of the RE2 regular expression ``pattern`` replaced by
    ``replacement`` (``\\1``: the first group's text)."""
    return call_function("replace_substring_regex", [values],
                         _compute.ReplaceSubstringOptions(pattern, replacement))


def replace_with_mask(values: Datum, mask: Datum, replacements: Datum) -> Datum:
    """``values`` with the rows where ``mask`` is true replaced, in turn, by
    ``replacements``."""
    return call_function("replace_with_mask", [values, mask, replacements])


def sort_indices(values: Datum, sort_keys: Sequence[tuple[str, str]] = ()) -> Datum:
    """The rows in sorted order: a column's values ascending, or a table's by its
    ``sort_keys`` (``(column, "ascending" | "descending")``, the first key first); stable."""
    return call_function("sort_indices", [values], _compute.SortOptions(sort_keys) if sort_keys
                         else None)


def starts_with(values: Datum, pattern: str) -> Datum:
    """Whether every string begins with ``pattern``."""
    return call_function("starts_with", [values], _compute.MatchSubstringOptions(pattern))


def sum(values: Datum, *, min_count: int = 1) -> pa.Scalar:
    """The sum of the values (nulls skipped; null when fewer than ``min_count`` values)."""
    return call_function("sum", [values], _compute.ScalarAggregateOptions(min_count=min_count))


def take(data: Datum, indices: Datum) -> Datum:
    """The rows of ``data`` at ``indices`` (bounds checked)."""
    return call_function("take", [data, indices], _compute.TakeOptions(boundscheck=True))


def unique(values: Datum) -> Datum:
    """The distinct values, in order of first appearance."""
    return call_function("unique", [values])


def utf8_lpad(values: Datum, width: int, padding: str = " ") -> Datum:
    """Every string right-aligned in ``width`` characters, padded on the left."""
    return call_function("utf8_lpad", [values], _compute.PadOptions(width, padding))


#: Rows of a column compared at once by :func:`elementwise_shared`.
_SHARED_ROWS = 1 << 21


def elementwise_shared(function: Callable[[Datum, Datum], Datum], left: pa.ChunkedArray,
                       right: pa.ChunkedArray | pa.Scalar) -> pa.ChunkedArray:
    """``function(left, right)`` for an element-wise function of two columns of one length
    (or a column and a scalar), computed on pieces of :data:`_SHARED_ROWS` rows side by
    side on the usable cores (:func:`~irscale.parallel.threads.map_threads`; compute functions
    release the GIL). The neighbours of 10M topic ids compared on 2 cores: 0.026 -> 0.014 s.
    """
    rows = len(left)

    def piece(start: int) -> pa.ChunkedArray:
        size = min(_SHARED_ROWS, rows - start)
        other = right if isinstance(right, pa.Scalar) else right.slice(start, size)
        return function(left.slice(start, size), other)

    if rows <= _SHARED_ROWS:
        return function(left, right)
    parts = map_threads(piece, range(0, rows, _SHARED_ROWS))
    return pa.chunked_array([chunk for part in parts for chunk in part.chunks], parts[0].type)
