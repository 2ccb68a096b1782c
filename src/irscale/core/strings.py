"""A column of strings held in two numpy arrays: :class:`Strings`.

Topic ids and docnos are columns of millions of short strings. A :class:`Strings` holds
them as the native engine reads them (``rust/src/columns.rs``) and as Arrow lays out a
``large_string`` array: ``offsets`` (int64, one more than the strings, ascending) and
``data`` (uint8, UTF-8), string ``i`` being ``data[offsets[i]:offsets[i + 1]]``. No Python
object per string is kept; operations are numpy's vectorised ones or the engine's
(``rust/src/strings.rs``: hashing into codes, byte-order sorting, lookups, row takes,
row-wise comparison), never a Python loop per row. Strings are compared by their bytes,
so byte order is the order of their code points (trec_eval's ``strcmp``, Arrow's order).

The column is immutable: both arrays are read-only views, and every operation returns a
new column (a slice ``column[a:b]`` shares the arrays).

>>> column = Strings.of(["b", "a", "b"])
>>> column.encode()[0].tolist(), column.unique().to_pylist()
([0, 1, 0], ['b', 'a'])
>>> column.take([2, 1]).to_pylist(), column.argsort().tolist()
(['b', 'a'], [1, 0, 2])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .. import _engine

#: The byte that joins the strings of :meth:`Strings.to_pylist`.
_NEWLINE = ord("\n")


def _frozen(values: np.ndarray) -> np.ndarray:
    """A read-only view of ``values``."""
    view = values.view()
    view.flags.writeable = False
    return view


class Strings:
    """An immutable column of strings: int64 ``offsets`` into UTF-8 ``data`` (module
    documentation).

    Build one with :meth:`of` (Python strings, numpy or pandas columns, Arrow arrays), or
    from its two arrays (``Strings(offsets, data)``: checked to be in order and inside the
    data; the bytes are taken to be UTF-8, as text read from files or encoded from Python
    strings is).
    """

    __slots__ = ("_data", "_offsets")

    def __init__(self, offsets: np.ndarray | Sequence[int],
                 data: np.ndarray | bytes | Sequence[int]) -> None:
        offsets = np.asarray(offsets)
        data = (np.frombuffer(data, np.uint8) if isinstance(data, (bytes, bytearray))
                else np.asarray(data))
        if offsets.ndim != 1 or len(offsets) == 0 or offsets.dtype.kind not in "iu":
            raise ValueError("string offsets must be a 1-d integer array of at least one "
                             "offset")
        if data.ndim != 1 or (len(data) and data.dtype != np.uint8):
            raise ValueError("string data must be a 1-d uint8 array")
        offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        if (int(offsets[0]) < 0 or int(offsets[-1]) > len(data)
                or bool((offsets[1:] < offsets[:-1]).any())):
            raise ValueError("string offsets out of order or beyond the data")
        self._offsets = _frozen(offsets)
        self._data = _frozen(np.ascontiguousarray(data, dtype=np.uint8))

    @classmethod
    def _of_arrays(cls, offsets: np.ndarray, data: np.ndarray) -> Strings:
        """A column of arrays known to be valid (the engine's or this module's): not
        checked again."""
        column = cls.__new__(cls)
        column._offsets = _frozen(offsets)
        column._data = _frozen(data)
        return column

    # -- construction -------------------------------------------------------------------

    @classmethod
    def of(cls, values: object) -> Strings:
        """``values`` as a column: a :class:`Strings` (itself), a sequence or iterable of
        ``str``, a numpy array of ``str`` (or of objects that are all ``str``), a pandas
        ``Series`` or ``Index`` of them, or a pyarrow string array (chunked, large or
        dictionary-encoded). :class:`TypeError` for anything else, a value that is not a
        ``str`` included (its position named), and for a missing value (``None``, NaN,
        an Arrow null)."""
        if isinstance(values, Strings):
            return values
        if isinstance(values, (str, bytes)):
            raise TypeError(f"a column of strings, not one {type(values).__name__}")
        if type(values).__module__.startswith("pyarrow"):
            return cls._of_arrow(values)
        if isinstance(values, np.ndarray):
            if values.dtype.kind not in "UO":
                raise TypeError(f"a column of strings, not of {values.dtype}")
            return cls._of_list(values.reshape(-1).tolist())
        if hasattr(values, "to_numpy") and hasattr(values, "dtype"):  # pandas
            return cls.of(values.to_numpy(dtype=object))
        if not isinstance(values, Iterable):
            raise TypeError(f"a column of strings, not {type(values).__name__}")
        return cls._of_list(values if isinstance(values, list) else list(values))

    @classmethod
    def _of_list(cls, values: list[Any]) -> Strings:
        """Python strings joined and encoded at once (only text with non-ASCII characters,
        whose UTF-8 lengths differ from their lengths, is encoded string by string)."""
        try:
            text = "".join(values)
        except TypeError:
            row, value = next((row, value) for row, value in enumerate(values)
                              if not isinstance(value, str))
            raise TypeError(f"item {row} is not a string: {value!r}") from None
        data = text.encode()
        lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
        if len(data) != len(text):
            lengths = np.fromiter(map(len, map(str.encode, values)), dtype=np.int64,
                                  count=len(values))
        offsets = np.zeros(len(values) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls._of_arrays(offsets, np.frombuffer(data, np.uint8))

    @classmethod
    def _of_arrow(cls, values: Any) -> Strings:
        """A pyarrow string array (or chunked array) read from its buffers: its chunks
        combined and cast to ``large_string`` by pyarrow, then one copy of its bytes."""
        import pyarrow as pa

        if isinstance(values, pa.ChunkedArray):
            values = (values.chunk(0) if values.num_chunks == 1 else
                      pa.concat_arrays(values.chunks) if values.num_chunks else
                      pa.array([], values.type))
        if not isinstance(values, pa.Array):
            raise TypeError(f"a column of strings, not {type(values).__name__}")
        if pa.types.is_dictionary(values.type):
            values = values.dictionary_decode()
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            raise TypeError(f"a column of strings, not of {values.type}")
        if values.null_count:
            raise TypeError(f"{values.null_count} missing value(s) in a column of strings")
        wide = pa.types.is_large_string(values.type)
        width = np.dtype(np.int64 if wide else np.int32)
        offsets = np.frombuffer(values.buffers()[1], dtype=width, count=len(values) + 1,
                                offset=values.offset * width.itemsize).astype(np.int64)
        buffer = values.buffers()[2]
        data = np.frombuffer(buffer, np.uint8) if buffer is not None else np.zeros(0, np.uint8)
        low, high = int(offsets[0]), int(offsets[-1])
        return cls._of_arrays(offsets - low, data[low:high].copy())

    @classmethod
    def concat(cls, columns: Iterable[Strings]) -> Strings:
        """The columns one after the other."""
        parts = list(columns)
        if not parts:
            return cls._of_list([])
        sizes = np.array([0] + [part.nbytes for part in parts], dtype=np.int64)
        shifts = np.cumsum(sizes)
        offsets = np.concatenate(
            [np.zeros(1, np.int64)]
            + [part._offsets[1:] - part._offsets[0] + shift
               for part, shift in zip(parts, shifts[:-1], strict=True)])
        data = np.concatenate([part._data[part._offsets[0]: part._offsets[-1]]
                               for part in parts])
        return cls._of_arrays(offsets, data)

    # -- the arrays -----------------------------------------------------------------------

    @property
    def offsets(self) -> np.ndarray:
        """Where every string starts in :attr:`data`, and where the last ends (int64,
        read-only)."""
        return self._offsets

    @property
    def data(self) -> np.ndarray:
        """The UTF-8 bytes of the strings (uint8, read-only; a slice's may hold more)."""
        return self._data

    @property
    def lengths(self) -> np.ndarray:
        """The length in bytes of every string (int64)."""
        return np.diff(self._offsets)

    @property
    def nbytes(self) -> int:
        """The bytes of the strings."""
        return int(self._offsets[-1] - self._offsets[0])

    # -- sequence protocol ------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_pylist())

    def __getitem__(self, key: Any) -> Any:
        """``column[i]``: string ``i`` (a ``str``; negative from the end);
        ``column[a:b]``: a column sharing the arrays (other steps: a copy); an array of
        positions: :meth:`take`; a boolean mask: :meth:`filter`."""
        if isinstance(key, (int, np.integer)):
            row = int(key) + (len(self) if key < 0 else 0)
            if not 0 <= row < len(self):
                raise IndexError(f"string {int(key)} of a column of {len(self)}")
            return bytes(self._data[self._offsets[row]: self._offsets[row + 1]]).decode()
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step == 1:
                return Strings._of_arrays(self._offsets[start: max(stop, start) + 1],
                                          self._data)
            return self.take(np.arange(start, stop, step))
        rows = np.asarray(key)
        if rows.dtype == bool:
            return self.filter(rows)
        return self.take(rows)

    def __eq__(self, other: object) -> bool:
        """Whether ``other`` is a column of the same strings in the same order."""
        if not isinstance(other, Strings):
            return NotImplemented
        return len(self) == len(other) and bool(
            np.array_equal(self.lengths, other.lengths)
            and np.array_equal(self._data[self._offsets[0]: self._offsets[-1]],
                               other._data[other._offsets[0]: other._offsets[-1]]))

    __hash__ = None  # type: ignore[assignment]  # equal columns may be of different arrays

    def __repr__(self) -> str:
        if len(self) <= 6:
            items = ", ".join(map(repr, self.to_pylist()))
        else:
            items = ", ".join([*map(repr, self[:3].to_pylist()), "...",
                               *map(repr, self[-3:].to_pylist())])
        return f"Strings({len(self)}: [{items}])"

    def __reduce__(self) -> tuple[Any, ...]:
        return Strings._of_arrays, (self._offsets.copy(), self._data.copy())

    # -- conversions ----------------------------------------------------------------------

    def to_pylist(self) -> list[str]:
        """The strings as a list of ``str`` (C loops, no Python code per string): their bytes
        joined by newlines, decoded and split at once (1M short strings: about 0.1 s, where
        slicing the decoded text string by string took 0.35-0.45 s); where a string holds a
        newline itself, the bytes decoded at once when they are ASCII and sliced, string by
        string otherwise."""
        if not len(self):
            return []
        low = int(self._offsets[0])
        data = self._data[low: self._offsets[-1]]
        parts = np.insert(data, self._offsets[1:-1] - low, _NEWLINE).tobytes().decode().split(
            "\n")
        if len(parts) == len(self):  # the newlines are the separators only
            return parts
        raw = data.tobytes()
        bounds = map(slice, (self._offsets[:-1] - low).tolist(),
                     (self._offsets[1:] - low).tolist())
        if raw.isascii():
            return list(map(raw.decode("ascii").__getitem__, bounds))
        return list(map(bytes.decode, map(raw.__getitem__, bounds)))

    def to_numpy(self) -> np.ndarray:
        """The strings as a numpy array of ``str`` objects (dtype ``object``)."""
        out = np.empty(len(self), dtype=object)
        out[:] = self.to_pylist()
        return out

    def to_pandas(self, name: str | None = None) -> Any:
        """The strings as a pandas ``Series`` of ``str`` objects."""
        import pandas as pd

        return pd.Series(self.to_numpy(), name=name, dtype=object)

    def to_arrow(self) -> Any:
        """The strings as a pyarrow ``string`` array (``large_string`` beyond 2 GiB),
        sharing the data (pyarrow must be installed)."""
        from .extras import PYARROW

        pa = PYARROW.load("converting strings to Arrow")
        large = self._offsets[-1] > np.iinfo(np.int32).max
        offsets = self._offsets if large else self._offsets.astype(np.int32)
        return pa.Array.from_buffers(pa.large_string() if large else pa.string(), len(self),
                                     [None, pa.py_buffer(np.ascontiguousarray(offsets)),
                                      pa.py_buffer(np.ascontiguousarray(self._data))])

    # -- operations -------------------------------------------------------------------------

    def take(self, rows: np.ndarray | Sequence[int]) -> Strings:
        """The strings at ``rows`` (non-negative positions below ``len(self)``), in their
        order: :class:`IndexError` for any other position."""
        rows = np.asarray(rows)
        if rows.dtype.kind not in "iu" and len(rows):
            raise TypeError(f"positions must be integers, not {rows.dtype}")
        offsets, data = _engine.strings_take(
            self._offsets, self._data, np.ascontiguousarray(rows.reshape(-1), dtype=np.int64))
        return Strings._of_arrays(offsets, data)

    def filter(self, mask: np.ndarray | Sequence[bool]) -> Strings:
        """The strings where ``mask`` (booleans, one per string) is true."""
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (len(self),):
            raise ValueError(f"a mask of {len(self)} booleans, not of shape {mask.shape}")
        return self.take(np.flatnonzero(mask))

    def argsort(self) -> np.ndarray:
        """The rows in the byte order of their strings, rows of equal strings in their order
        (int64; Arrow's ``sort_indices``)."""
        return _engine.strings_order(self._offsets, self._data)

    def encode(self, sort: bool = False) -> tuple[np.ndarray, Strings]:
        """``(codes, uniques)``: the distinct strings, in order of first appearance (in
        byte order with ``sort``), and every string's place among them (int64), as Arrow's
        ``dictionary_encode`` (hashed by the engine)."""
        codes, first = _engine.strings_encode(self._offsets, self._data)
        uniques = self.take(first)
        if sort and len(uniques):
            order = uniques.argsort()
            place = np.empty(len(order), dtype=np.int64)
            place[order] = np.arange(len(order))
            codes, uniques = place[codes], uniques.take(order)
        return codes, uniques

    def unique(self, sort: bool = False) -> Strings:
        """The distinct strings, in order of first appearance (in byte order with
        ``sort``)."""
        return self.encode(sort)[1]

    def index_in(self, values: Strings | Iterable[str]) -> np.ndarray:
        """The position in ``values`` of every string (the first where it occurs twice), -1
        where it is not there (int64; Arrow's ``index_in``, nulls as -1)."""
        values = Strings.of(values)
        return _engine.strings_index_in(self._offsets, self._data, values._offsets,
                                        values._data)

    def isin(self, values: Strings | Iterable[str]) -> np.ndarray:
        """Whether every string is among ``values`` (bool)."""
        return self.index_in(values) >= 0

    def equal(self, other: Strings | str) -> np.ndarray:
        """Whether every string equals ``other`` (a string), or the string in the same row
        of ``other`` (a column as long), as a boolean array."""
        if isinstance(other, str):
            return self.index_in(Strings._of_list([other])) == 0
        other = Strings.of(other)
        if len(other) != len(self):
            raise ValueError(f"columns of {len(self)} and {len(other)} strings")
        return _engine.strings_equal(self._offsets, self._data, other._offsets, other._data)

