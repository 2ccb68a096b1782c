"""The oracles' view of irscale's string columns as pyarrow arrays: the oracles compute with
pyarrow's own functions, independent of :class:`irscale.core.strings.Strings`, and with the
helpers here, which read the strings' keys and offsets from the arrays' buffers."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from irscale.core.strings import Strings


def arrow_column(values: object) -> pa.ChunkedArray:
    """A string column (a :class:`Strings`, or an Arrow array kept as it is) as a pyarrow
    chunked array."""
    if isinstance(values, pa.ChunkedArray):
        return values
    if isinstance(values, pa.Array):
        return pa.chunked_array([values])
    return pa.chunked_array([Strings.of(values).to_arrow()])


def index_in(values: pa.Array | pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """Index (int64) of every value in ``value_set``, -1 when absent (pyarrow's hash
    lookup, ``pc.index_in``)."""
    codes = pc.index_in(values, value_set=value_set)
    return np.asarray(pc.fill_null(codes, -1)).astype(np.int64)


def key_prefix(values: pa.Array | pa.ChunkedArray) -> str | None:
    """The prefix past which every string (at least one) is at most 8 bytes long, so that
    its next 8 bytes are its key (:func:`short_keys`): ``""`` when all are that short, the
    prefix they all share (:func:`shared_prefix`) when the rest is, else ``None``."""
    longest = length_range(values)[1]
    if longest <= 8:
        return ""
    prefix = shared_prefix(values)
    return prefix if longest - len(prefix.encode()) <= 8 else None


#: ``_HIGH_BYTES[k]``: the mask of the k most significant bytes of a uint64.
_HIGH_BYTES = np.array([0] + [((1 << (8 * k)) - 1) << (64 - 8 * k) for k in range(1, 9)],
                       dtype=np.uint64)


def short_keys(values: pa.Array | pa.ChunkedArray, offset: int = 0
               ) -> tuple[np.ndarray, np.ndarray]:
    """``(keys, lengths)`` of strings: the 8 bytes of each from byte ``offset`` on as a
    big-endian uint64, zero-padded on the right (zero from its end on), and its length in
    bytes (int64).

    Read in place from each chunk's data buffer, no copy of the characters (1M ClueWeb
    docnos: 9 against 18 ms with a copy); a word that would run past the buffer's end is
    read as many bytes earlier and shifted. The strings are read :data:`_KEY_PIECE` at a
    time, so that the temporaries are small and reused rather than fresh memory (1M docnos
    in a fresh process: 7,500 page faults and 18.7 ms at once, 4,800 and 12.3 ms in pieces;
    the keys and lengths returned are 4,000 of them).
    """
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    keys = np.empty(sum(len(chunk) for chunk in chunks), dtype=np.uint64)
    lengths = np.empty(len(keys), dtype=np.int64)
    done = 0
    for chunk in chunks:
        all_offsets = value_offsets(chunk)
        if int(all_offsets[-1]) > np.iinfo(np.int32).max - offset - 8:
            all_offsets = all_offsets.astype(np.int64)
        buffer = chunk.buffers()[2] if len(chunk) else None
        data = np.frombuffer(buffer, np.uint8) if buffer is not None else np.zeros(0, np.uint8)
        if len(data) < 8:
            data = np.concatenate([data, np.zeros(8 - len(data), np.uint8)])
        words: np.ndarray = np.ndarray(shape=(len(data) - 7,), dtype=">u8", buffer=data,
                                       strides=(1,))
        for first in range(0, len(chunk), _KEY_PIECE):
            offsets = all_offsets[first: first + _KEY_PIECE + 1]
            piece = slice(done + first, done + first + len(offsets) - 1)
            length = offsets[1:] - offsets[:-1]
            lengths[piece] = length
            at = np.minimum(offsets[:-1] + offset, offsets[1:])  # past its end: at its end
            late = at - (len(data) - 8)  # bytes of a word past the buffer's end
            if int(late.max()) > 0:
                np.maximum(late, 0, out=late)
                word = words[at - late] << (late.astype(np.uint64) * np.uint64(8))
            else:
                word = words[at]
            length -= offset  # the bytes of the word that are the string's
            np.bitwise_and(word, _HIGH_BYTES[np.clip(length, 0, 8, out=length)],
                           out=keys[piece])
        done += len(chunk)
    return keys, lengths


#: Strings read at once by :func:`short_keys`.
_KEY_PIECE = 1 << 18


def shared_prefix(values: pa.Array | pa.ChunkedArray, sample: int = 64) -> str:
    """The longest prefix every string begins with (``clueweb12-`` of ClueWeb docnos).

    The common prefix of the first and last ``sample`` strings is checked on all of them by
    pyarrow's ``starts_with`` (1M docnos: 2 ms); where a string does not begin with it, the
    prefix is cut to what that string shares with it, and checked again.
    """
    chunks = [chunk for chunk in (values.chunks if isinstance(values, pa.ChunkedArray)
                                  else [values]) if len(chunk)]
    if not chunks:
        return ""
    ends = chunks[0].slice(0, sample).to_pylist() + chunks[-1].slice(
        max(len(chunks[-1]) - sample, 0)).to_pylist()
    prefix = _common_prefix(min(ends), max(ends))  # what all share, these two share
    while prefix:
        for chunk in chunks:
            starts = pc.starts_with(chunk, prefix)
            if not pc.all(starts).as_py():
                first = pc.index(starts, False).as_py()
                prefix = _common_prefix(prefix, chunk[first].as_py())
                break
        else:
            return prefix
    return ""


def _common_prefix(first: str, second: str) -> str:
    """The characters ``first`` and ``second`` begin with alike."""
    for k, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return first[:k]
    return first if len(first) <= len(second) else second


def length_range(values: pa.Array | pa.ChunkedArray) -> tuple[int, int]:
    """The shortest and longest length in bytes of the strings ``values`` (at least one),
    from their offsets: no character is read."""
    ranges = [(int(lengths.min()), int(lengths.max()))
              for lengths in (np.diff(value_offsets(chunk)) for chunk in
                              (values.chunks if isinstance(values, pa.ChunkedArray)
                               else [values]))
              if len(lengths)]
    return min(low for low, _ in ranges), max(high for _, high in ranges)


def value_offsets(chunk: pa.Array) -> np.ndarray:
    """The ``len + 1`` offsets of a string or binary array's values in its data buffer (a
    view, int32; int64 for the large types)."""
    large = pa.types.is_large_string(chunk.type) or pa.types.is_large_binary(chunk.type)
    width = np.dtype(np.int64 if large else np.int32)
    return np.frombuffer(chunk.buffers()[1], dtype=width, count=len(chunk) + 1,
                         offset=chunk.offset * width.itemsize)
