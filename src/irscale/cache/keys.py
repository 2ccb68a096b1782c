"""The keys of the results cache: a SHA-256 digest of everything that can change a value.

A key is the digest (``hashlib.sha256``: with the processors' SHA extensions, OpenSSL's
hashes twice as fast as ``blake2b`` here) of a canonical byte stream written by
:class:`KeyWriter`: every item is a type tag followed by its bytes, lengths before
variable-length parts, so that two different streams of items never write the same bytes.

* Files (a path given as qrels, a run, a label set, a folder or glob pattern's files as
  :func:`irscale.io.sources.source_files` lists them) contribute the path as given (run
  names come from it) and the digest of their bytes, read in blocks of
  :data:`BLOCK` bytes (gzip files as stored: decompression is deterministic).
  :class:`FileStamps` remembers each file's size, inode and modification time, so that a
  file that changed while it was evaluated is not stored under the digest of its earlier
  bytes.
* Objects held in memory (dicts of dicts, lists, DataFrames, ``Qrels`` and ``Run``
  objects, numpy arrays, Arrow columns, the parsed measure requests) contribute a
  canonical serialisation of their content in iteration order (the order of a dict is the
  order of a run's documents: it decides ties under ``file-order``). A type without a
  sound canonical form (an open file, an iterator, standard input ``-``, an ``irds:``
  dataset ...) raises :class:`Unkeyable`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
import struct
import time
from collections.abc import Mapping
from typing import Any

from ..core.records import fields as record_fields
from ..core.records import is_record
from ..errors import ParameterError
from ..io.naming import NamedFiles
from ..io.regular_files import file_digest, settled_identity
from ..io.sources import expands, source_files

#: Bytes read at a time from a file being hashed.
BLOCK = 1 << 20

#: Digest size of the keys and of the files' digests (bytes).
DIGEST_SIZE = 32


class Unkeyable(ParameterError):
    """An input or option of a cached evaluation has no sound canonical form."""


class MissingFile(Exception):
    """A path given as an input does not name a readable file: the evaluation itself then
    reports it, uncached, exactly as without a cache."""


@dataclasses.dataclass
class FileStamps:
    """``(size, inode, modification time)`` of every file hashed into a key, to check that
    none changed before an entry is stored (:meth:`unchanged`), and the digest of its bytes
    that went into the key (``digests``: the command line's own keys,
    :mod:`irscale.cache.requests`, check the files against them)."""

    stamps: dict[str, tuple[int, int, int]] = dataclasses.field(default_factory=dict)
    digests: dict[str, bytes] = dataclasses.field(default_factory=dict)
    #: Each file's identity before it was hashed, where settled
    #: (:func:`~irscale.io.regular_files.settled_identity`; ``None`` otherwise).
    identities: dict[str, tuple[int, ...] | None] = dataclasses.field(default_factory=dict)

    def add(self, path: str) -> None:
        now = time.time_ns()
        info = os.stat(path)
        self.stamps[path] = (info.st_size, info.st_ino, info.st_mtime_ns)
        self.identities[path] = settled_identity(info, now)

    def unchanged(self) -> bool:
        for path, stamp in self.stamps.items():
            try:
                info = os.stat(path)
            except OSError:
                return False
            if (info.st_size, info.st_ino, info.st_mtime_ns) != stamp:
                return False
        return True


class KeyWriter:
    """Writes items into a SHA-256 digest, each as a type tag and its canonical bytes
    (module documentation). ``stamps``: where the files hashed are recorded."""

    def __init__(self, stamps: FileStamps | None = None) -> None:
        self._digest = hashlib.sha256()
        self.stamps = stamps if stamps is not None else FileStamps()

    def copy(self) -> KeyWriter:
        """A writer that continues from this one's items (its files recorded too)."""
        stamps = self.stamps
        writer = KeyWriter(FileStamps(dict(stamps.stamps), dict(stamps.digests),
                                      dict(stamps.identities)))
        writer._digest = self._digest.copy()
        return writer

    def hexdigest(self) -> str:
        return self._digest.hexdigest()

    def _raw(self, tag: bytes, data: bytes) -> None:
        self._digest.update(tag + struct.pack("<Q", len(data)) + data)

    def text(self, value: str) -> None:
        self._raw(b"S", value.encode("utf-8", "surrogatepass"))

    def field(self, name: str) -> None:
        """The name of the item that follows (an option, a dataclass field)."""
        self._raw(b"K", name.encode("utf-8", "surrogatepass"))

    def file(self, path: str) -> None:
        """A file: its path as given and the digest of its bytes (:class:`MissingFile`
        when it cannot be read). A pipe or a device (``/dev/stdin``, ``<(...)``) is
        :class:`Unkeyable`: hashing would consume the bytes the evaluation reads."""
        try:
            regular = stat.S_ISREG(os.stat(path).st_mode)
        except OSError as error:
            raise MissingFile(path) from error
        if not regular:
            raise Unkeyable(f"--cache (cache=): {path} is not a regular file (a pipe or a "
                            "device) and cannot be keyed by its content; give a file, or "
                            "evaluate without a cache")
        try:
            self.stamps.add(path)
            digest = file_digest(path, BLOCK)
        except OSError as error:
            raise MissingFile(path) from error
        self.stamps.digests[path] = digest
        self.text(path)
        self._raw(b"H", digest)

    def input(self, spec: Any) -> None:
        """An input of an evaluation: a path (a file, a folder or a glob pattern: their
        files), bytes, or an object (:meth:`value`), lists and mappings of those; run
        files and their ``--names`` rule (:class:`~irscale.io.naming.NamedFiles`)."""
        if isinstance(spec, (str, os.PathLike)):
            path = os.fspath(spec)
            if not isinstance(path, str) or path == "-" or path.startswith("irds:"):
                raise Unkeyable(f"--cache (cache=): {_named(path)} cannot be keyed by its "
                                "content; give its file, or evaluate without a cache")
            files = source_files(path) if expands(path) else [path]
            self._raw(b"P", struct.pack("<Q", len(files)))
            for name in files:
                self.file(name)
        elif isinstance(spec, NamedFiles):  # the files by their content, and the rule
            self._raw(b"R", b"")
            self.value(spec.names)
            self.input(list(spec.files))
        elif isinstance(spec, Mapping):
            self._raw(b"M", struct.pack("<Q", len(spec)))
            for key, item in spec.items():
                self.value(key)
                self.input(item)
        elif isinstance(spec, (list, tuple)):
            self._raw(b"L", struct.pack("<Q", len(spec)))
            for item in spec:
                self.input(item)
        else:
            self.value(spec)

    def value(self, value: Any) -> None:
        """An object held in memory, by its content (module documentation)."""
        kind = type(value)
        if value is None:
            self._raw(b"N", b"")
        elif kind is bool:
            self._raw(b"B", b"1" if value else b"0")
        elif kind is int:
            self._raw(b"I", str(value).encode())
        elif kind is float:
            self._raw(b"F", value.hex().encode())
        elif kind is str:
            self.text(value)
        elif kind is bytes:
            self._raw(b"Y", value)
        elif kind in (list, tuple):
            self._raw(b"L" if kind is list else b"T", struct.pack("<Q", len(value)))
            for item in value:
                self.value(item)
        elif kind is dict:
            self._raw(b"D", struct.pack("<Q", len(value)))
            for key, item in value.items():
                self.value(key)
                self.value(item)
        elif (dataclasses.is_dataclass(value) or is_record(value)) \
                and not isinstance(value, type):
            self._dataclass(value)
        else:
            self._columnar(value)

    def _dataclass(self, value: Any) -> None:
        """A dataclass or record (options, measure requests, ``Qrels`` and ``Run`` objects):
        its class and every field, but the caches of derived values a reader may attach
        (``fingerprints``, ``blocks``: functions of the other fields)."""
        kind = type(value)
        self._raw(b"C", f"{kind.__module__}.{kind.__qualname__}".encode())
        for item in record_fields(value) if is_record(value) else dataclasses.fields(value):
            if item.name in _DERIVED:
                continue
            self.field(item.name)
            self.value(getattr(value, item.name))

    def _columnar(self, value: Any) -> None:
        """numpy arrays and scalars, string columns (:class:`~irscale.core.strings.Strings`),
        Arrow arrays and pandas frames and series; anything else is :class:`Unkeyable`."""
        module = type(value).__module__.split(".")[0]
        if type(value).__module__ == "irscale.core.strings":
            self._text_column(value.lengths, value.data[value.offsets[0]:value.offsets[-1]])
            return
        if module == "numpy":
            import numpy as np

            array = np.asarray(value)
            if array.dtype.kind in "biufcmM":
                data = np.ascontiguousarray(array)
                self._raw(b"A", f"{array.dtype.str}{array.shape}".encode())
                self._raw(b"a", data.tobytes())
                return
            if array.dtype.kind in "OUS":
                self._raw(b"O", f"{array.dtype.str}{array.shape}".encode())
                for item in array.ravel().tolist():
                    self.value(item)
                return
        elif module == "pyarrow" and hasattr(value, "to_pylist"):
            self._arrow(value)
            return
        elif module == "pandas" and hasattr(value, "dtypes"):
            frame = value.to_frame() if not hasattr(value, "columns") else value
            self._raw(b"W", struct.pack("<Q", len(frame.columns)))
            self.value([str(name) for name in frame.columns])
            self.value([str(dtype) for dtype in frame.dtypes])
            for name in frame.columns:
                self.value(frame[name].to_numpy())
            self.value(frame.index.to_numpy())
            return
        raise Unkeyable(f"--cache (cache=): a {type(value).__name__} input has no canonical "
                        "form to key the cache by; give files, bytes, dicts, DataFrames or "
                        "Qrels and Run objects, or evaluate without a cache")


    def _arrow(self, value: Any) -> None:
        """An Arrow array or chunked array: a text column without nulls as its strings'
        lengths and bytes (whatever its chunks, offsets and offset width), any other
        column by value (no compute function: pyarrow.compute costs 0.3 s to import)."""
        import numpy as np
        import pyarrow as pa

        array = value.combine_chunks() if isinstance(value, pa.ChunkedArray) else value
        text = pa.types.is_string(array.type) or pa.types.is_large_string(array.type)
        if not text or array.null_count:
            self._raw(b"R", str(array.type).encode())
            self.value(array.to_pylist())
            return
        _, offsets, data = array.buffers()
        width = np.int32 if pa.types.is_string(array.type) else np.int64
        ends = np.frombuffer(offsets, dtype=width)[array.offset:array.offset + len(array) + 1]
        first, last = (int(ends[0]), int(ends[-1])) if len(ends) else (0, 0)
        self._text_column(np.diff(ends).astype(np.int64),
                          b"" if data is None else memoryview(data)[first:last])

    def _text_column(self, lengths: Any, data: Any) -> None:
        """A column of strings as their lengths in bytes (int64) and their bytes: the same
        key whether it is held as a :class:`~irscale.core.strings.Strings` or by Arrow."""
        self._raw(b"R", b"text")
        self.value(lengths)
        self._raw(b"r", bytes(data))


#: Fields of ``Qrels`` and ``Run`` that cache values derived from the others.
_DERIVED = frozenset({"fingerprints", "blocks"})


def _named(path: str) -> str:
    return "standard input (-)" if path == "-" else repr(path)


__all__ = ["BLOCK", "DIGEST_SIZE", "FileStamps", "KeyWriter", "MissingFile", "Unkeyable",
           "file_digest"]
