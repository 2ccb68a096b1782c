"""Columns written as text: numbers spelled as decimal strings and columns joined into
lines, for the writers of TREC files (:mod:`irscale.io.trec_write`).

Every function works on whole columns (numpy arrays and
:class:`~irscale.core.strings.Strings`): integers are spelled by a C loop (``map`` of
``str``), floating-point numbers by the engine, and lines are assembled by one
:meth:`Strings.take` of their pieces; no Python statement runs per row.

>>> integer_text(np.array([3, -12])).to_pylist()
['3', '-12']
>>> shortest_text(np.array([1.0, 1e-7, 1e10, 1.5e-5, -0.0])).to_pylist()
['1', '1e-7', '1e+10', '0.000015', '-0']
>>> join_lines([Strings.of(["a", "b"]), "Q0", Strings.of(["1", "2"])])
b'a Q0 1\\nb Q0 2\\n'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import _engine
from ..core.strings import Strings

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Rows assembled at once by :func:`join_lines` (its index of pieces: 16 bytes per row
#: and column).
_LINES = 1 << 18

def integer_text(values: np.ndarray) -> Strings:
    """Integers (an integer array) in decimal, as ``str`` spells them (``-12``). Where
    they span a range no longer than the column (ranks, relevance degrees), the range is
    spelled once and every value takes its spelling (:meth:`Strings.take`)."""
    values = np.asarray(values)
    if len(values) == 0:
        return Strings.of([])
    low, high = int(values.min()), int(values.max())
    if high - low >= len(values):
        return Strings.of(list(map(str, values.tolist())))
    return Strings.of(list(map(str, range(low, high + 1)))).take(
        (values - values.min()).astype(np.int64))


def repr_text(values: np.ndarray) -> Strings:
    """Numbers as ``repr`` spells them as doubles (``1.0``, ``1e-07``, ``inf``): the
    engine's spelling (``rust/src/output/spelled.rs``) of the shortest digits that read
    back the same double."""
    return _spelled(np.asarray(values, dtype=np.float64), "python")


def shortest_text(values: np.ndarray) -> Strings:
    """Floating-point numbers in the shortest form that reads back the same number (of
    the array's precision: float32 columns keep single precision's shortest digits),
    spelled as Arrow's cast of floats to strings spells them (``arrow/util/formatting.h``,
    on double-conversion's ``ToShortest``): decimal for a decimal exponent from -6 to 9
    (``1``, ``0.000015``, ``1234567.5``), otherwise ``d.ddde±x`` (``1e-7``,
    ``1.5e+10``); ``-0``, ``inf``, ``-inf``, ``nan``. Spelled by the engine
    (``rust/src/output/spelled.rs``)."""
    values = np.asarray(values)
    if values.dtype != np.float32:
        values = values.astype(np.float64)
    return _spelled(values, "arrow")


def _spelled(values: np.ndarray, style: str) -> Strings:
    """``values`` (float64 or float32) spelled by the engine in ``style``."""
    offsets, data = _engine.spell_floats(np.ascontiguousarray(values), style)
    return Strings(offsets, data)


def join_lines(columns: Sequence[Strings | str], separator: str = " ") -> bytes:
    """The lines of the ``columns`` (of one length; a ``str`` is the same text on every
    line), their fields separated by ``separator``, each line ending with ``\\n``.

    The text between two column fields (separators and ``str`` fields: `` Q0 ``) is one
    piece; the pieces of :data:`_LINES` lines at a time are taken at once
    (:meth:`Strings.take`)."""
    given = [column for column in columns if not isinstance(column, str)]
    n = len(given[0]) if given else 1
    if any(len(column) != n for column in given):
        raise ValueError("columns of different lengths")
    texts: list[str] = []  # the constant pieces, and a placeholder before each column
    fields: list[Strings] = []
    pending = ""
    for k, column in enumerate(columns):
        if isinstance(column, str):
            pending += column
        else:
            texts.append(pending)
            fields.append(column)
            pending = ""
        pending += "\n" if k == len(columns) - 1 else separator
    texts.append(pending)
    table = Strings.concat([Strings.of(texts), *fields])
    starts = len(texts) + np.cumsum([0] + [len(field) for field in fields])
    parts = []
    for low in range(0, n, _LINES):
        lines = np.arange(low, min(low + _LINES, n))
        index = np.empty((len(lines), 2 * len(fields) + 1), dtype=np.int64)
        for k in range(len(fields)):
            index[:, 2 * k] = k
            index[:, 2 * k + 1] = starts[k] + lines
        index[:, -1] = len(texts) - 1
        parts.append(table.take(index.reshape(-1)).data.tobytes())
    return b"".join(parts)


#: Bytes that make pandas' ``to_csv`` quote a field (besides the separator).
_QUOTED = b'"\r\n'


def frame_text(frame: pd.DataFrame, separator: str = "\t") -> bytes | None:
    """The text of ``frame.to_csv(sep=separator, index=False)``, spelled a column at a
    time: the header, floating-point numbers as ``repr`` spells them (:func:`repr_text`),
    integers (also nullable ones) in decimal, text as it is, a missing value as an empty
    field. ``None`` for what it does not spell as pandas would: a column of another type
    (booleans, dates), or a field that pandas quotes (one holding the separator, a quote
    or a line break): the caller then writes the frame with pandas.

    >>> import pandas as pd
    >>> frame_text(pd.DataFrame({"a": ["x", None], "n": pd.array([1, None], "Int64"),
    ...                          "v": [0.5, float("nan")]}))
    b'a\\tn\\tv\\nx\\t1\\t0.5\\n\\t\\t\\n'
    """
    from pandas.api.types import is_float_dtype, is_integer_dtype, is_string_dtype

    quoted = np.frombuffer(_QUOTED + separator.encode(), np.uint8)
    columns: list[Strings] = []
    for name in frame.columns:
        column = frame[name]
        missing = column.isna().to_numpy()
        if is_float_dtype(column.dtype):
            spelled = repr_text(column.to_numpy(np.float64, na_value=np.nan))
        elif is_integer_dtype(column.dtype):
            spelled = integer_text(column.to_numpy(np.int64, na_value=0))
        elif is_string_dtype(column.dtype):
            values = column.to_numpy(object, na_value="")
            try:
                spelled = Strings.of(values)
            except TypeError:  # (an object that is no string)
                return None
            if np.isin(spelled.data, quoted).any():
                return None
        else:
            return None
        if missing.any():
            rows = np.where(missing, len(spelled), np.arange(len(spelled)))
            spelled = Strings.concat([spelled, Strings.of([""])]).take(rows)
        columns.append(spelled)
    names = [str(name).encode() for name in frame.columns]
    if not columns or any(np.isin(np.frombuffer(name, np.uint8), quoted).any()
                          for name in names):
        return None
    return separator.encode().join(names) + b"\n" + join_lines(columns, separator)
