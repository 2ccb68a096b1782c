"""Columns written as text: numbers spelled as decimal strings and columns joined into
lines, for the writers of TREC files (:mod:`irscale.io.trec_write`).

Every function works on whole columns (numpy arrays and
:class:`~irscale.core.strings.Strings`): numbers are spelled by C loops (``map`` of
``str`` / ``float.__repr__``), respelled by numpy operations on a matrix of their
bytes, and lines are assembled by one :meth:`Strings.take` of their pieces; no Python
statement runs per row.

>>> integer_text(np.array([3, -12])).to_pylist()
['3', '-12']
>>> shortest_text(np.array([1.0, 1e-7, 1e10, 1.5e-5, -0.0])).to_pylist()
['1', '1e-7', '1e+10', '0.000015', '-0']
>>> join_lines([Strings.of(["a", "b"]), "Q0", Strings.of(["1", "2"])])
b'a Q0 1\\nb Q0 2\\n'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.strings import Strings

#: Rows assembled at once by :func:`join_lines` (its index of pieces: 16 bytes per row
#: and column).
_LINES = 1 << 18

#: Bytes of a row of :func:`_respelled`'s matrices: more than the longest spelling of a
#: double either way (``repr``'s ``-2.2250738585072014e-308``: 24; Arrow's decimal
#: ``-0.00000`` and 17 digits: 25).
_WIDTH = 32

#: Arrow's spelling is decimal for a decimal exponent in ``[_LOW, _HIGH)`` and scientific
#: otherwise (double-conversion's ``decimal_in_shortest_low`` / ``_high`` as Arrow's cast
#: sets them; observed with pyarrow 26: ``1e-6`` is ``0.000001``, ``1e-7`` is ``1e-7``,
#: ``9999999999.5`` is decimal, ``1e10`` is ``1e+10``; tests/test_trec_write.py compares
#: the two on generated numbers).
_LOW, _HIGH = -6, 10

_ZERO, _DOT, _MINUS, _PLUS, _E = (ord(c) for c in "0.-+e")


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
    """Numbers as ``repr`` spells them as doubles (``1.0``, ``1e-07``, ``inf``)."""
    return Strings.of(list(map(float.__repr__,
                               np.asarray(values, dtype=np.float64).tolist())))


def shortest_text(values: np.ndarray) -> Strings:
    """Floating-point numbers in the shortest form that reads back the same number (of
    the array's precision), spelled as Arrow's cast of floats to strings spells them
    (``arrow/util/formatting.h``, on double-conversion's ``ToShortest``): decimal for a
    decimal exponent from -6 to 9 (``1``, ``0.000015``, ``1234567.5``), otherwise
    ``d.ddde±x`` (``1e-7``, ``1.5e+10``); ``-0``, ``inf``, ``-inf``, ``nan``.

    The digits are Python's (``repr``: David Gay's shortest round trip, the digits
    double-conversion gives too) or numpy's for float32 (Dragon4's shortest). Where
    ``repr`` writes the number in decimal with at most 10 digits before the point, Arrow's
    spelling is ``repr``'s without a trailing ``.0``; the other numbers are respelled
    from a matrix of their bytes (:func:`_respelled`)."""
    values = np.asarray(values)
    if values.dtype.kind != "f":
        values = values.astype(np.float64)
    spelled = (repr_text(values) if values.dtype.itemsize == 8
               else Strings.of(values.astype(str).tolist()))
    n = len(values)
    if n == 0:
        return spelled
    offsets, data = spelled.offsets, spelled.data
    starts, ends = offsets[:-1], offsets[1:]
    marks = np.flatnonzero((data == _E) | (data == _DOT))
    rows = np.searchsorted(offsets, marks, side="right") - 1
    is_e = data[marks] == _E
    plain = np.isfinite(values)
    plain[rows[is_e]] = False
    whole = np.zeros(n, dtype=np.int64)  # digits before the point (and a sign)
    whole[rows[~is_e]] = marks[~is_e] - starts[rows[~is_e]]
    plain &= whole - (data[starts] == _MINUS) <= _HIGH
    point_zero = plain & (data[ends - 1] == _ZERO) & (data[ends - 2] == _DOT)
    keep = np.ones(len(data), dtype=bool)
    keep[ends[point_zero] - 1] = False
    keep[ends[point_zero] - 2] = False
    lengths = np.diff(offsets) - 2 * point_zero
    trimmed_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=trimmed_offsets[1:])
    trimmed = Strings(trimmed_offsets, data[keep])
    others = np.flatnonzero(~plain & np.isfinite(values))
    if len(others) == 0:
        return trimmed
    rows_of = np.arange(n)
    rows_of[others] = n + np.arange(len(others))
    respelled = Strings.concat(_respelled(spelled.take(others[low: low + _LINES]))
                               for low in range(0, len(others), _LINES))
    return Strings.concat([trimmed, respelled]).take(rows_of)


def _respelled(spelled: Strings) -> Strings:
    """Arrow's spelling of finite numbers spelled by ``repr`` (at most :data:`_WIDTH`
    bytes each): from their digits without leading and trailing zeros and the decimal
    exponent ``point`` of ``0.DIGITS`` times ``10 ** point``."""
    chars = _matrix(spelled)
    n = len(spelled)
    rows_all = np.arange(n)
    neg = (chars[:, 0] == _MINUS).astype(np.int64)
    width = spelled.lengths
    column = np.arange(_WIDTH)
    e_mark = chars == _E
    e_at = np.where(e_mark.any(axis=1), e_mark.argmax(axis=1), width)
    mantissa = (chars >= _ZERO) & (chars <= _ZERO + 9) & (column < e_at[:, None])
    dot = chars == _DOT
    dot_at = np.where(dot.any(axis=1), dot.argmax(axis=1), e_at)
    whole = np.count_nonzero(mantissa & (column < dot_at[:, None]), axis=1)
    nonzero = mantissa & (chars != _ZERO)
    first = nonzero.argmax(axis=1)
    last = _WIDTH - 1 - nonzero[:, ::-1].argmax(axis=1)
    kept = (mantissa & nonzero.any(axis=1)[:, None] & (column >= first[:, None])
            & (column <= last[:, None]))
    leading = np.count_nonzero(mantissa & (column < first[:, None]), axis=1)
    # repr writes an exponent as "e", a sign and two or three digits: 0 where none
    written = np.zeros(n, dtype=np.int64)
    for place in range(2, 5):
        at = np.minimum(e_at + place, _WIDTH - 1)
        more = (e_at < width) & (e_at + place < width)
        written = np.where(more, written * 10 + chars[rows_all, at].astype(np.int64) - _ZERO,
                           written)
    after_e = chars[rows_all, np.minimum(e_at + 1, _WIDTH - 1)]
    written = np.where((e_at < width) & (after_e == _MINUS), -written, written)
    point = whole - leading + written
    count = np.count_nonzero(kept, axis=1)
    exponent = point - 1
    decimal = (exponent >= _LOW) & (exponent < _HIGH)

    out = np.zeros((n, _WIDTH), dtype=np.uint8)
    flat = out.reshape(-1)
    out[:, 0] = np.where(neg == 1, _MINUS, 0)
    at_kept = np.flatnonzero(kept)
    rows, source = np.divmod(at_kept, _WIDTH)
    f = first[rows]
    rank = source - f - ((dot_at[rows] > f) & (source > dot_at[rows]))  # place in the digits
    s, p, d = neg[rows], point[rows], count[rows]
    target = np.where(
        decimal[rows],
        np.where(p <= 0, s + 2 - p + rank, s + rank + ((rank >= p) & (p < d))),
        s + rank + (rank >= 1))
    # zeros of the decimal form: "0.00" before the digits, or up to the point after them
    low = np.where(point <= 0, neg, neg + count)
    high = np.where(point <= 0, neg + 2 - point, np.where(point >= count, neg + point, 0))
    out[decimal[:, None] & (column >= low[:, None]) & (column < high[:, None])] = _ZERO
    flat[rows * _WIDTH + target] = chars.reshape(-1)[at_kept]

    def put(where: np.ndarray, place: np.ndarray, byte: int | np.ndarray) -> None:
        flat[rows_all[where] * _WIDTH + place[where]] = (
            byte if isinstance(byte, int) else byte[where])

    put(decimal & (point > 0) & (point < count), neg + point, _DOT)
    put(decimal & (point <= 0), neg + 1, _DOT)
    scientific = ~decimal
    put(scientific & (count > 1), neg + 1, _DOT)
    e_place = neg + count + (count > 1)
    put(scientific, e_place, _E)
    put(scientific, e_place + 1, np.where(exponent < 0, _MINUS, _PLUS).astype(np.uint8))
    size = np.abs(exponent)
    digits = 1 + (size >= 10) + (size >= 100)
    for place in range(3):  # the exponent's digits, most significant first
        shown = size // 10 ** np.maximum(digits - 1 - place, 0) % 10
        put(scientific & (digits > place), e_place + 2 + place,
            (_ZERO + shown).astype(np.uint8))
    return _of_matrix(out)


def _matrix(column: Strings) -> np.ndarray:
    """The strings (ASCII, at most :data:`_WIDTH` bytes) as rows of bytes padded with 0."""
    lengths = column.lengths
    out = np.zeros((len(column), _WIDTH), dtype=np.uint8)
    starts = column.offsets[:-1]
    shift = np.repeat(np.arange(len(column)) * _WIDTH - (starts - starts[0]), lengths)
    out.reshape(-1)[np.arange(int(lengths.sum())) + shift] = \
        column.data[column.offsets[0]: column.offsets[-1]]
    return out


def _of_matrix(chars: np.ndarray) -> Strings:
    """Rows of bytes padded with 0 as a column of strings."""
    lengths = np.count_nonzero(chars, axis=1)
    offsets = np.zeros(len(chars) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Strings(offsets, chars[chars != 0])


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
