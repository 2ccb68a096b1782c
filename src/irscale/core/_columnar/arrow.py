"""Conversions between numpy arrays and pyarrow arrays that do not import pandas.

When pandas is installed, pyarrow imports it (about 0.2 s, more than the rest of
``irscale eval`` on a small file) the first time a process calls ``pa.array(...)``,
``pa.scalar(...)``, ``.to_numpy()`` / ``np.asarray(arrow_array)``, or a compute function
with a Python scalar argument: its pandas shim and its C++ conversion layer initialise
themselves then. The evaluation path converts with these helpers instead, which read and
build arrays from their buffers: zero-copy where pyarrow's own conversions are, with no
Python work per value (except :func:`strings`, which takes the lengths of Python strings).

Compute functions given arrays or :class:`pyarrow.Scalar` arguments (:func:`scalar`) do not
initialise the shim; ``Array.to_pylist()``, ``Scalar.as_py()`` and ``Table`` building from
arrays do not either.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from . import arrow_compute as pc

#: numpy dtypes of the fixed-width arrow types read from their buffers.
_NUMPY_TYPES = {
    pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64,
    pa.uint8(): np.uint8, pa.uint16(): np.uint16, pa.uint32(): np.uint32,
    pa.uint64(): np.uint64, pa.float16(): np.float16, pa.float32(): np.float32,
    pa.float64(): np.float64,
}


def to_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """An arrow array of numbers or booleans without nulls as a numpy array.

    As pyarrow's ``to_numpy``: a read-only view of the buffer of numbers held in one piece
    (an :class:`pyarrow.Array`, or a :class:`pyarrow.ChunkedArray` of one chunk), a new
    array otherwise (several chunks, booleans). Other arrays (strings, nulls) are converted
    by pyarrow.
    """
    if isinstance(values, pa.ChunkedArray):
        if values.num_chunks == 1:
            return _chunk_to_numpy(values.chunk(0))
        if values.num_chunks == 0:
            return np.empty(0, dtype=_NUMPY_TYPES.get(values.type, object))
        return np.concatenate([_chunk_to_numpy(chunk) for chunk in values.chunks])
    return _chunk_to_numpy(values)


def _chunk_to_numpy(values: pa.Array) -> np.ndarray:
    dtype = _NUMPY_TYPES.get(values.type)
    if values.null_count or (dtype is None and not pa.types.is_boolean(values.type)):
        return values.to_numpy(zero_copy_only=False)
    n, offset = len(values), values.offset
    data = values.buffers()[1]
    if dtype is not None:
        if n == 0:
            return np.empty(0, dtype=dtype)
        view = np.frombuffer(data, dtype=dtype, count=n, offset=offset * np.dtype(dtype).itemsize)
        view.flags.writeable = False  # arrow data is immutable (also when numpy lent it)
        return view
    if n == 0:
        return np.empty(0, dtype=bool)
    first, last = offset // 8, (offset + n + 7) // 8
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8, count=last - first, offset=first),
                         bitorder="little")
    start = offset - 8 * first
    return bits[start: start + n].view(bool)


def array(values: np.ndarray | Sequence[int] | Sequence[float]) -> pa.Array:
    """A numpy array (or a sequence of Python numbers) of numbers or booleans as an arrow
    array: zero-copy for a contiguous numeric array (the arrow array keeps it alive), like
    ``pa.array``. Other arrays (strings, objects) are converted by pyarrow."""
    values = np.asarray(values)
    if values.ndim != 1:
        values = values.reshape(-1)
    kind = values.dtype.kind
    if kind == "b":
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    if kind not in "iuf":
        return pa.array(values)
    if not values.dtype.isnative:
        values = values.astype(values.dtype.newbyteorder("="))
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def index_in(values: pa.Array | pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """Index (int64) of every value in ``value_set``, -1 when absent (pyarrow's hash
    lookup, ``pc.index_in``)."""
    codes = pc.index_in(values, value_set=value_set)
    return to_numpy(pc.fill_null(codes, scalar(-1, codes.type))).astype(np.int64)


def sorted_distinct(values: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(rows, codes)`` of strings of at most 8 bytes past a prefix they all share (topic
    ids, :func:`key_prefix`): a row holding each distinct value, the values in byte order,
    and the index (int64) of every string's value among them; ``None`` when a string is
    longer or two strings share a key (they differ in trailing NUL bytes).

    The strings are sorted as their big-endian keys (:func:`short_keys`: their order is the
    strings' byte order) instead of being dictionary-encoded and the distinct values sorted
    as strings.
    """
    prefix = key_prefix(values) if len(values) else None
    if prefix is None:
        return None
    key, length = short_keys(values, len(prefix.encode()))
    # stable: topic ids in numeric order are a few runs in byte order (1-9, 10-99 ...),
    # which it merges (a million in 2 against 56 ms; random keys 86 against 73 ms)
    order = np.argsort(key, kind="stable")
    key, length = key[order], length[order]
    new = np.empty(len(key), dtype=bool)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    if not np.array_equal(length[1:][~new[1:]], length[:-1][~new[1:]]):
        return None
    codes = np.empty(len(key), dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    return order[new], codes


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
                first = pc.index(starts, scalar(False)).as_py()
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


def owned_reader(data: bytes) -> pa.BufferReader:
    """A reader over a copy of ``data`` in memory Arrow allocated, for pyarrow's threaded
    readers (CSV, Parquet).

    Their thread pools can drop the last reference to the input after the call has
    returned. Dropping a buffer that wraps a Python object takes the GIL, and a pool thread
    that asks for it while the interpreter is exiting is ended mid-unwind: the process
    aborts (``terminate called without an active exception``, status 134) after its work
    was done, about once in 300 runs of ``irscale eval qrels -`` on a 2-core machine.
    Arrow's own memory is freed without the GIL. The copy costs about 2 ms per MB; plain
    files are read by Arrow itself and need none.
    """
    buffer = pa.allocate_buffer(len(data))
    np.frombuffer(buffer, dtype=np.uint8)[:] = np.frombuffer(data, dtype=np.uint8)
    return pa.BufferReader(buffer)


def compress(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``values[keep]`` (a 1-d numeric array, a boolean mask as long) by Arrow's filter, as
    a read-only array in memory Arrow allocated.

    Twice as fast as numpy's boolean indexing on bytes whose mask is irregular (the blanks
    of aligned columns: 1 MB in 0.24 against 0.55-0.87 ms), and Arrow's pool hands the
    memory of the previous call to the next one where numpy's fresh array is faulted in.
    """
    kept = pc.filter(array(values), array(keep))
    return _chunk_to_numpy(kept)


#: numpy dtypes holding one string of 1, 2, 4 or 8 bytes (others: ``np.void`` of the width).
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def take(values: pa.Array, rows: np.ndarray) -> pa.Array:
    """``values.take(rows)`` (``rows``: non-negative int positions).

    Strings of one width (fixed-width docnos such as ``D0123456`` or
    ``clueweb12-0304wb-36-29645``) are gathered by numpy as fixed-size records and given
    new offsets ``0, w, 2w, ...``: 4-5 × faster than pyarrow's take, which copies string by
    string (2M docnos in a random order: 17-22 ms against 84-240 ms). Other arrays go to
    pyarrow.

    >>> take(pa.array(["d1", "d2", "d3"]), np.array([2, 0])).to_pylist()
    ['d3', 'd1']
    """
    rows = np.asarray(rows, dtype=np.int64)
    width = _one_width(values, len(rows))
    if width is None:
        return pc.take(values, array(rows))
    return _take_records(values, rows, width)


#: Rows gathered by one call of pyarrow's take in :func:`take_column`.
_TAKE_ROWS = 1 << 16


def take_column(values: pa.Array, rows: np.ndarray) -> pa.ChunkedArray:
    """:func:`take` as a chunked array: strings of several widths are taken
    :data:`_TAKE_ROWS` rows at a time.

    pyarrow's take of such strings grows its output by doubling, each time into fresh
    memory, which this machine's kernel hands out slowly: a million URLs regrouped by topic
    took 0.19-0.48 s in one call in a fresh process (0.05 s once the memory had been used),
    0.08-0.10 s in pieces, whose growing buffers reuse the memory the previous piece freed.
    """
    rows = np.asarray(rows, dtype=np.int64)
    width = _one_width(values, len(rows))
    if width is not None:
        return pa.chunked_array([_take_records(values, rows, width)], values.type)
    return pa.chunked_array([pc.take(values, array(rows[first: first + _TAKE_ROWS]))
                             for first in range(0, len(rows), _TAKE_ROWS)], values.type)


def _one_width(values: pa.Array, n_rows: int) -> int | None:
    """The width in bytes of every string of ``values`` when they all have one (not 0) and
    ``n_rows`` of them fit in 32-bit offsets; ``None`` otherwise (or for other arrays)."""
    n = len(values)
    if n == 0 or values.null_count or not pa.types.is_string(values.type):
        return None
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset:
                                                                 values.offset + n + 1]
    first, width = int(offsets[0]), int(offsets[1] - offsets[0])
    if width == 0 or int(offsets[-1]) - first != width * n or \
            width * (n_rows + 1) > np.iinfo(np.int32).max or \
            not (np.diff(offsets) == width).all():
        return None  # several widths, or offsets beyond int32
    return width


def _take_records(values: pa.Array, rows: np.ndarray, width: int) -> pa.Array:
    """:func:`take` of strings all ``width`` bytes long, gathered as fixed-size records."""
    first = int(np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset])
    data = np.frombuffer(values.buffers()[2], dtype=np.uint8, count=width * len(values),
                         offset=first)
    gathered = data.view(_WORDS.get(width, np.dtype((np.void, width))))[rows]
    new_offsets = np.arange(len(rows) + 1, dtype=np.int32) * np.int32(width)
    return pa.Array.from_buffers(pa.string(), len(rows), [None, pa.py_buffer(new_offsets),
                                                         pa.py_buffer(gathered)])


def strings(values: Sequence[str] | np.ndarray) -> pa.Array:
    """Python strings as an arrow string array (``large_string`` when their UTF-8 bytes
    exceed 2 GiB), as ``pa.array(values, pa.string())`` builds it but without loading
    pandas (which ``pa.array`` of a list does).

    Strings of one length in bytes go to :func:`one_width_strings`; others are joined and
    encoded at once, and only text with non-ASCII characters (whose UTF-8 lengths differ
    from their lengths) is encoded string by string.
    """
    values = values if isinstance(values, list) else list(values)
    fixed = one_width_strings(values)
    if fixed is not None:
        return fixed
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    data = "".join(values).encode()
    if len(data) != int(lengths.sum()):
        encoded = [value.encode() for value in values]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return _string_array(offsets, np.frombuffer(data, np.uint8))


def _string_array(offsets: np.ndarray, chars: np.ndarray) -> pa.Array:
    """The string array of ``len(offsets) - 1`` strings (int64 offsets into ``chars``),
    ``large_string`` when the bytes exceed 2 GiB."""
    large = int(offsets[-1]) > np.iinfo(np.int32).max
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(), len(offsets) - 1,
        [None, pa.py_buffer(offsets if large else offsets.astype(np.int32)),
         pa.py_buffer(chars)])


def one_width_strings(values: list) -> pa.Array | None:
    """Strings of one length in bytes (``D0123456``, ``clueweb12-0304wb-36-29645``) as an
    arrow string array, ``None`` for any other list (an item that is not a ``str``, or
    strings of several lengths, a sample of them measured first); ``UnicodeEncodeError``
    for an item that is not valid text (a lone surrogate).

    The strings are joined with a NUL between two, encoded at once and copied as records
    of their width: C loops, where ``pa.array`` visits string by string (200,000 docnos in
    2.3 against 5.6 ms). Cutting strings of several lengths at the NULs took longer than
    ``pa.array`` (a compaction of all their bytes).
    """
    count = len(values)
    try:
        if not count or len(set(map(len, values[:: max(count // _SAMPLE, 1)]))) != 1:
            return None
        data = np.frombuffer("\x00".join(values).encode(), np.uint8)
    except TypeError:  # not all of them strings
        return None
    width, stray = divmod(len(data) + 1, count)
    if (stray or data[width - 1:: width].any()  # not a NUL every width bytes
            or len(data) - np.count_nonzero(data) != count - 1):  # or another NUL
        return None
    # each string one record of a void type: one copy per string, not per byte
    chars = (np.ndarray((count,), np.dtype(f"V{width - 1}"), data, strides=(width,)).copy()
             if width > 1 else data[:0])
    return _string_array(np.arange(count + 1, dtype=np.int64) * (width - 1), chars)


#: Strings whose lengths :func:`one_width_strings` compares before it joins them all.
_SAMPLE = 32


def scalar(value: str | bool | int | float, type: pa.DataType | None = None) -> pa.Scalar:
    """A Python string or number as an arrow scalar, to pass to compute functions: of
    ``type`` (a string, boolean or fixed-width numeric type) when given, otherwise
    ``string``, ``bool``, ``int64`` or ``double``. (``pc.fill_null`` converts a fill value
    whose type differs from the array's with ``pa.scalar``: give the array's type.)"""
    if isinstance(value, str):
        return strings([value])[0] if type is None else pc.cast(strings([value]), type)[0]
    if type is not None and type in _NUMPY_TYPES:
        return array(np.array([value], dtype=_NUMPY_TYPES[type]))[0]
    if type is not None and not pa.types.is_boolean(type):
        raise TypeError(f"no scalar of type {type} from {value!r}")
    if isinstance(value, bool) or type is not None:
        return array(np.array([bool(value)]))[0]
    return array(np.array([value], dtype=np.int64 if isinstance(value, int) else np.float64))[0]
