"""Byte-level assembly of trec_eval's per-topic lines ``%-22s\\t%s\\t%s\\n``.

A block of lines (topics × columns, topic by topic) is built directly in one ``uint8``
buffer. The length of every line is known beforehand (padded label and tab, topic and tab,
value and newline), so cumulative sums give every line's position.

Values printed ``d.dddd`` (``%6.4f`` of 0 ≤ v < 10, nearly all of trec_eval's measures)
are written as the 8-byte words ``\\td.dddd\\n``, from a table of all 10^5 of them for a
large result and built from their digits for a small one. A column whose values all print
so (in the block) is *uniform*: for topics of one length, its lines have the same width.
Each run of consecutive uniform columns with equal label widths is built
as one record per topic, with a label template copied row by row and the topic and value
words written through strided ``uint64`` views, and the records are then copied to their
places at once. The other columns are written piece by piece (label, topic, value) through
views whose elements are the overlapping ``w``-byte windows at every byte
(:func:`windows`); their value texts come from the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import pyarrow as pa

from ..core._columnar.arrow import unique_integers

#: Number of distinct ``d.dddd`` texts: :func:`fixed4_units` returns values below it.
FIXED4_UNITS = 100_000

_TAB, _NEWLINE = ord("\t"), ord("\n")
_TEN_BITS = np.float64(10.0).view(np.uint64)
_POWERS = 10 ** np.arange(4, -1, -1)


def fixed4_units(values: np.ndarray) -> np.ndarray:
    """``round(v · 10^4)`` of every value that ``%6.4f`` prints ``d.dddd``, -1 elsewhere.

    Those values are the non-negative ones (sign bit clear) that round below 10. Rounding
    the floating-point product ``v · 10^4`` gives printf's correctly rounded (half to even)
    decimal expansion unless its fraction lies within 1e-6 of one half: those few values
    are rounded exactly by Python's formatting. Negative, larger and non-finite values get
    -1 (their text must come from elsewhere).
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    # sign bit clear and below 10, NaN excluded: the bits compare as unsigned integers
    candidate = values.view(np.uint64) < _TEN_BITS
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = values * 1e4
        units = np.rint(scaled)
        near_half = np.abs(scaled - units) > 0.5 - 1e-6
        result = units.astype(np.int64)
    result[~candidate] = -1
    near_half &= candidate
    if near_half.any():
        cells = np.flatnonzero(near_half)
        result.reshape(-1)[cells] = [int(f"{v:.4f}".replace(".", ""))
                                     for v in values.reshape(-1)[cells].tolist()]
    result[result == FIXED4_UNITS] = -1  # 10.0000
    return result


def _fixed4_words(units: np.ndarray) -> np.ndarray:
    """The 8 bytes ``"\\t%d.%04d\\n" % divmod(u, 10^4)`` of each of ``units`` (``0 ≤ u <
    10^5``), as ``uint64`` words (native byte order: the bytes in memory are the text).

    Many units are looked up in the table of all 10^5 words (built once, 10 ms); a few are
    built directly, so that printing a small result does not pay for the table.
    """
    if units.size >= FIXED4_UNITS // 8:
        return _fixed4_table()[units]
    return _words_of(units)


@cache
def _fixed4_table() -> np.ndarray:
    """:func:`_fixed4_words` of every unit ``0 .. 10^5 - 1``."""
    return _words_of(np.arange(FIXED4_UNITS))


def _words_of(units: np.ndarray) -> np.ndarray:
    digits = (np.asarray(units, dtype=np.int64)[..., None] // _POWERS % 10).astype(np.uint8)
    text = np.empty((*units.shape, 8), dtype=np.uint8)
    text[..., 0] = _TAB
    text[..., 1] = digits[..., 0] + ord("0")
    text[..., 2] = ord(".")
    text[..., 3:7] = digits[..., 1:] + ord("0")
    text[..., 7] = _NEWLINE
    return text.view(np.uint64)[..., 0]


def windows(buffer: np.ndarray, width: int) -> np.ndarray:
    """A view of the ``uint8`` array ``buffer`` whose element ``p`` is its bytes ``p .. p +
    width - 1`` (a ``width``-byte void item): assigning to element ``p`` writes there."""
    return np.ndarray(shape=(max(len(buffer) - width + 1, 0),), dtype=np.dtype(f"V{width}"),
                      buffer=buffer, strides=(1,))


def string_buffers(strings: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets, data)`` of a string or binary array: string ``i`` is the bytes
    ``data[offsets[i]:offsets[i + 1]]`` (``offsets`` as int64, one more than strings)."""
    if isinstance(strings, pa.ChunkedArray):
        strings = strings.combine_chunks()
    large = pa.types.is_large_string(strings.type) or pa.types.is_large_binary(strings.type)
    _, offset_buffer, data_buffer = strings.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int64 if large else np.int32)[
        strings.offset: strings.offset + len(strings) + 1].astype(np.int64)
    if data_buffer is None:  # every string is empty
        return offsets, np.zeros(0, dtype=np.uint8)
    return offsets, np.frombuffer(data_buffer, dtype=np.uint8)


class _Topics:
    """The topic ids of a block: ``length`` (bytes) of each, and ``groups``, one ``(length,
    rows, padded)`` per distinct length: the rows of the topics of that length and their
    ids followed by a tab and zeros up to a multiple of 8 bytes (``uint8``, a row each)."""

    def __init__(self, topics: pa.Array) -> None:
        offsets, data = string_buffers(topics)
        self.length = np.diff(offsets)
        self.groups: list[tuple[int, np.ndarray, np.ndarray]] = []
        for length in unique_integers(self.length).tolist():
            rows = np.flatnonzero(self.length == length)
            padded = np.zeros((len(rows), -(-(length + 1) // 8) * 8), dtype=np.uint8)
            padded[:, :length] = data[offsets[rows, None] + np.arange(length)]
            padded[:, length] = _TAB
            self.groups.append((length, rows, padded))


def trec_lines(labels: Sequence[str], topics: pa.Array, units: np.ndarray,
               texts: Sequence[tuple[np.ndarray, pa.Array]] = (),
               suffix: bytes = b"") -> np.ndarray:
    """The lines ``f"{labels[j]:<22}\\t{topics[i]}\\t{value}{suffix}\\n"`` of every cell
    ``(i, j)`` of ``units`` (topics × columns), topic by topic, as one ``uint8`` array.

    The value of a cell with ``units ≥ 0`` (see :func:`fixed4_units`) is ``"%d.%04d" %
    divmod(units, 10^4)``. The other cells' values are given in ``texts``: pairs of flat cell
    indices (``i · columns + j``) and the string array of their texts, each such cell in
    exactly one pair. ``suffix`` (``b"\\tbm25"``: the run, when there are several) ends
    every line before its newline: line widths count it, and it is written with the newline
    over the newline of every value, in bulk.
    """
    n, k = units.shape
    if n == 0 or k == 0:
        return np.zeros(0, dtype=np.uint8)
    tail = np.frombuffer(suffix + b"\n", dtype=np.uint8)  # suffix and newline
    extra = len(suffix)
    label_pieces = [f"{label:<22}\t".encode() for label in labels]
    label_width = np.array([len(piece) for piece in label_pieces], dtype=np.int64)
    grouped = _Topics(topics)
    uniform = np.asarray((units >= 0).all(axis=0))  # (the stubs allow a scalar)
    segments = _segments(uniform, label_width)

    # value widths (with the newline) of the other columns, at their rank among them
    others = np.flatnonzero(~uniform)
    rank = np.cumsum(~uniform) - 1
    value_width = np.full((n, len(others)), 7 + extra, dtype=np.int64)  # "d.dddd\n"
    text_buffers = [(cells, *string_buffers(strings)) for cells, strings in texts]
    for cells, offsets, _ in text_buffers:
        value_width[cells // k, rank[cells % k]] = np.diff(offsets) + 1 + extra

    # byte widths of the segments of every topic, then where each segment ends
    segment_width = np.empty((n, len(segments)), dtype=np.int64)
    for index, (first, stop) in enumerate(segments):
        if uniform[first]:
            segment_width[:, index] = (int(label_width[first:stop].sum())
                                       + (stop - first) * (grouped.length + 8 + extra))
        else:
            segment_width[:, index] = (label_width[first] + grouped.length + 1
                                       + value_width[:, rank[first]])
    ends = np.cumsum(segment_width).reshape(segment_width.shape)
    starts = ends - segment_width
    buffer = np.empty(int(ends[-1, -1]), dtype=np.uint8)

    for index, (first, stop) in enumerate(segments):
        if uniform[first]:
            _write_run(buffer, starts[:, index], label_pieces[first:stop], grouped,
                       units[:, first:stop], tail)
    if len(others):
        segment = np.array([index for index, (first, _) in enumerate(segments)
                            if not uniform[first]])
        value_starts = ends[:, segment] - value_width
        _write_columns(buffer, starts[:, segment], value_starts, units[:, others],
                       [label_pieces[j] for j in others], grouped)
        for cells, offsets, data in text_buffers:
            topic, column = cells // k, rank[cells % k]
            _copy_strings(buffer, value_starts[topic, column], offsets, data)
            buffer[ends[topic, segment[column]] - 1] = _NEWLINE
        if extra:  # the suffix and newline end every line of these columns
            windows(buffer, len(tail))[ends[:, segment] - len(tail)] = tail.view(
                f"V{len(tail)}")[0]
    return buffer


def _segments(uniform: np.ndarray, label_width: np.ndarray) -> list[tuple[int, int]]:
    """``(first, stop)`` columns of each segment of a line block: the runs of consecutive
    uniform columns with equal label widths, and every other column alone."""
    segments = []
    first, k = 0, len(uniform)
    while first < k:
        stop = first + 1
        if uniform[first]:
            while stop < k and uniform[stop] and label_width[stop] == label_width[first]:
                stop += 1
        segments.append((first, stop))
        first = stop
    return segments


def _write_run(buffer: np.ndarray, run_starts: np.ndarray, label_pieces: list[bytes],
               grouped: _Topics, units: np.ndarray, tail: np.ndarray) -> None:
    """Write the lines of a run of uniform columns with equal label widths.

    For the topics of each length, one record per topic (all the run's lines) is built in a
    ``topics × columns × line`` array: the labels come from a template copied row by row,
    the topic (by 8-byte words, each word's excess overwritten by the next word or the
    value) and the tab, value and newline word through strided ``uint64`` views. The
    records are then copied to ``buffer`` from ``run_starts`` (one per topic). ``tail``
    (the line's end: a suffix and the newline) is written over the value word's newline.
    """
    width, columns = len(label_pieces[0]), len(label_pieces)
    for length, rows, padded in grouped.groups:
        line = width + length + 7 + len(tail)
        record = columns * line
        template = np.zeros((columns, line), dtype=np.uint8)
        template[:, :width] = np.frombuffer(b"".join(label_pieces), np.uint8).reshape(
            columns, width)
        lines = np.empty((len(rows), columns, line), dtype=np.uint8)
        lines[...] = template
        topic_words = padded.view(np.uint64)
        for word in range(-(-length // 8)):  # a full source copies faster than a broadcast
            _words_at(lines, width + 8 * word)[...] = np.repeat(
                topic_words[:, word, None], columns, axis=1)
        _words_at(lines, width + length)[...] = _fixed4_words(units[rows])
        if len(tail) > 1:
            lines[:, :, width + length + 7:] = tail
        windows(buffer, record)[run_starts[rows]] = lines.reshape(len(rows), record).view(
            f"V{record}")[:, 0]


def _words_at(lines: np.ndarray, offset: int) -> np.ndarray:
    """The 8 bytes at ``offset`` of every line of the ``uint8`` array ``lines`` (topics ×
    columns × line bytes, contiguous), as a ``topics × columns`` ``uint64`` view."""
    return np.ndarray(shape=lines.shape[:2], dtype=np.uint64, buffer=lines, offset=offset,
                      strides=lines.strides[:2])


def _write_columns(buffer: np.ndarray, starts: np.ndarray, value_starts: np.ndarray,
                   units: np.ndarray, label_pieces: list[bytes], grouped: _Topics) -> None:
    """Write the labels, topics (with their tab) and ``d.dddd`` values (``units ≥ 0``) of
    some columns piece by piece; ``starts`` and ``value_starts`` are where their lines and
    values start."""
    label_width = np.array([len(piece) for piece in label_pieces], dtype=np.int64)
    for width in unique_integers(label_width).tolist():
        columns = np.flatnonzero(label_width == width)
        pieces = np.frombuffer(b"".join(label_pieces[j] for j in columns), dtype=f"V{width}")
        windows(buffer, width)[starts[:, columns]] = pieces
    topic_starts = starts + label_width
    for length, rows, padded in grouped.groups:
        pieces = np.ascontiguousarray(padded[:, :length + 1]).view(f"V{length + 1}")
        windows(buffer, length + 1)[topic_starts[rows]] = pieces
    fast = units >= 0
    words = np.ndarray(shape=(max(len(buffer) - 7, 0),), dtype=np.uint64, buffer=buffer,
                       strides=(1,))
    words[value_starts[fast] - 1] = _fixed4_words(units[fast])  # from the topic's tab


def _copy_strings(buffer: np.ndarray, starts: np.ndarray, offsets: np.ndarray,
                  data: np.ndarray) -> None:
    """Copy string ``i`` of ``(offsets, data)`` to ``buffer[starts[i]:]``, byte by byte."""
    positions = (np.repeat(starts - offsets[:-1], np.diff(offsets))
                 + np.arange(offsets[0], offsets[-1]))
    buffer[positions] = data[offsets[0]:offsets[-1]]
