"""Regular files read as they are stored (no text rules, gzip data not decompressed): the
files irscale wrote and reads back (:func:`read_regular`: an entry of ``--cache``, the
per-topic parts of ``eval-many -o``, a simulation's checkpoint), the values packed in
their headers (:func:`pack`, :func:`unpack`: a ``--cache`` entry's) and the digests of
inputs (:func:`file_digest`: the keys of the results cache, a report's provenance).

A folder irscale writes into may hold anything anyone who can write there has put under a
file's name: a FIFO (whose reader would wait for a writer for ever), a device, a folder, a
socket, a file beyond the memory limit. :func:`read_regular` opens without blocking, checks
the descriptor it opened and refuses all of them; the text inputs a user names are read by
:func:`irscale.io.files.read_input` and the native engine instead.

The header of such a file (a ``--cache`` entry's, :mod:`irscale.cache.frames`) holds values
packed as tagged bytes (:func:`pack`), read back within bounds (:func:`unpack`) by this
module, which loads nothing more: no :mod:`json`, whose parser loads :mod:`re` (two thirds
of what a cache hit did besides the interpreter's own start-up). The values are JSON's:
``None``, ``True``, ``False``, integers of 64 bits, floats (exactly), text, lists (a tuple
is packed as a list) and dicts whose keys are text. Each is a tag and its bytes, the lengths before
what they count (integers of 8 bytes, little-endian); a list of texts (the topics of an
evaluation, a text column) is one text, split in one pass when read::

    N                      None
    T  F                   True, False
    I  int64               an integer
    R  length · hex text   a float (``float.hex``: every bit kept)
    S  length · UTF-8      a text (lone surrogates kept, as JSON's escapes keep them)
    L  count · values      a list
    A  count · length · UTF-8 texts joined by NUL      a list of texts (none holding NUL)
    D  count · (S key, value) pairs     a dict

:func:`unpack` refuses anything :func:`pack` does not write with
:class:`~irscale.errors.InputFormatError` naming the source and the offset of the fault: an
unknown tag, a length beyond the bytes (a truncated file), bytes left after the value, text
that is not UTF-8, a dict key that is not text or given twice, and nesting deeper than
:data:`MAX_DEPTH`, the bound of every structured input (JSON's too:
:mod:`irscale.io.json_input`).

>>> unpack(pack({"files": [["a.run", None, [1, 2]]], "ok": True}), "entry")
{'files': [['a.run', None, [1, 2]]], 'ok': True}
"""

from __future__ import annotations

import errno as errno_codes
import os
import stat

from ..errors import FileAccessError, InputError, InputFormatError
from .files import OPEN_FLAGS, PathLike, access_error, display_name, memory_reason, reading_limit

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover  (typing: not for a cache hit)
    from typing import Any


class NotRegularFile(FileAccessError):
    """A path that names something other than a regular file where only one is read
    (:func:`read_regular`): a folder, a FIFO, a device or a socket; ``kind`` says which."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(f"cannot read {path}: not a regular file ({kind})", path=path)
        self.kind = kind


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in a message: ``a folder``, ``a FIFO``,
    ``a device`` or ``a socket``."""
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket")


#: The size of a file read back without the memory limit computed (:func:`read_regular`):
#: below any limit under which this interpreter runs at all. The limit is half of the
#: machine's memory, of the address space ``ulimit -v`` allows or of the cgroup's memory
#: (:mod:`irscale.core.budget`), each more than what the running interpreter already
#: holds (some 10 MiB of memory, more of address space): its half is more than 1 MiB.
#: (Computing it reads the system's settings: 2 % of a cache hit.)
UNDER_ANY_LIMIT = 1 << 20


def read_regular(path: PathLike) -> bytes | None:
    """The bytes of the regular file at ``path`` (as stored: gzip data not decompressed),
    ``None`` when there is none: a file irscale wrote and reads back (an entry of
    ``--cache``), where anyone who can write into the folder may have put anything. It is
    opened without blocking and checked on the descriptor opened (no race between a check
    and the opening): a FIFO, a folder, a device or a socket raises
    :class:`NotRegularFile` (a FIFO planted there would otherwise stop every reader), a
    file beyond the memory limit (:func:`reading_limit`, computed for a file of more than
    :data:`UNDER_ANY_LIMIT` bytes) :class:`InputError`, a file that cannot be read
    :class:`FileAccessError`."""
    name = display_name(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | OPEN_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        if error.errno == errno_codes.ENXIO:  # a socket
            raise NotRegularFile(name, "a socket") from None
        raise access_error(error, path) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(name, file_kind(info.st_mode))
        if info.st_size > UNDER_ANY_LIMIT and info.st_size > (limit := reading_limit()):
            raise InputError(memory_reason([str(info.st_size), str(limit)]), source=name)
        chunks = []
        while chunk := os.read(descriptor, max(info.st_size, 1 << 16)):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        if isinstance(error, FileAccessError):
            raise
        raise access_error(error, path) from None
    finally:
        os.close(descriptor)


#: How long (nanoseconds) before it is hashed a file's status must have last changed for
#: its identity to stand for its bytes (:func:`settled_identity`): more than the coarsest
#: timestamps of a file system (FAT's 2 s), so that a later write, which sets the status
#: change time to its own time, cannot leave the same one.
SETTLED_NS = 3_000_000_000


def settled_identity(info: os.stat_result, now_ns: int) -> tuple[int, ...] | None:
    """The identity of the file whose status is ``info``, read at ``now_ns``
    (``time.time_ns()`` before it was read): its device, inode, size, modification and
    status change times (ns), which no write leaves unchanged (a write sets the status
    change time, which no program can set back); ``None`` when its status changed less than
    :data:`SETTLED_NS` before, where a write in the same tick of a coarse clock could leave
    it unchanged (the "racy" files of git's index: they are hashed instead)."""
    if info.st_ctime_ns > now_ns - SETTLED_NS:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def file_digest(path: PathLike, block: int = 1 << 20) -> bytes:
    """The SHA-256 digest of the bytes of the regular file at ``path`` (as stored: gzip
    data not decompressed), read in blocks of ``block`` bytes into one buffer (``hashlib``
    releases the GIL while it hashes a block: files are hashed side by side in threads);
    ``OSError`` when it cannot be read. The callers make sure it is a regular file: a pipe
    would be consumed, a device never end."""
    import hashlib

    digest = hashlib.sha256()
    buffer = bytearray(block)
    view = memoryview(buffer)
    descriptor = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    try:
        while count := os.readv(descriptor, [buffer]):
            digest.update(view[:count])
    finally:
        os.close(descriptor)
    return digest.digest()


#: The deepest nesting of lists and dicts of a structured input (JSON, a packed header):
#: a click model's parameters nest 3 deep, a cache entry's header 3; far below the depth
#: at which Python's recursion ends (about 1,000).
MAX_DEPTH = 100

#: Bytes of an integer, a length or a count.
_WIDTH = 8


def pack(value: Any) -> bytes:
    """The tagged bytes of ``value``, a file's header (module documentation);
    ``ValueError`` (``OverflowError``: an integer beyond 64 bits) for a value they cannot
    hold (bytes, a set, a dict key that is not text)."""
    parts: list[bytes] = []
    _pack(value, parts)
    return b"".join(parts)


def _pack(value: Any, parts: list[bytes]) -> None:
    if value is None:
        parts.append(b"N")
    elif value is True or value is False:
        parts.append(b"T" if value else b"F")
    elif isinstance(value, int):  # (an enumeration's member too, as JSON writes it)
        parts.append(b"I" + int(value).to_bytes(_WIDTH, "little", signed=True))
    elif isinstance(value, float):  # exactly, as its hexadecimal text
        _text(b"R", float(value).hex(), parts)
    elif isinstance(value, str):
        _text(b"S", value, parts)
    elif isinstance(value, (list, tuple)):
        if value and all(isinstance(item, str) and "\0" not in item for item in value):
            data = "\0".join(value).encode("utf-8", "surrogatepass")  # a column of texts
            parts.append(b"A" + len(value).to_bytes(_WIDTH, "little")
                         + len(data).to_bytes(_WIDTH, "little") + data)
            return
        parts.append(b"L" + len(value).to_bytes(_WIDTH, "little"))
        for item in value:
            _pack(item, parts)
    elif isinstance(value, dict):
        parts.append(b"D" + len(value).to_bytes(_WIDTH, "little"))
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"a dict key that is not text: {key!r}")
            _text(b"S", key, parts)
            _pack(item, parts)
    else:
        raise ValueError(f"a {type(value).__name__} cannot be packed")


def _text(tag: bytes, text: str, parts: list[bytes]) -> None:
    data = text.encode("utf-8", "surrogatepass")
    parts.append(tag + len(data).to_bytes(_WIDTH, "little") + data)


def unpack(data: bytes | memoryview, source: str) -> Any:
    """The value :func:`pack` wrote as ``data``, all of it;
    :class:`~irscale.errors.InputFormatError` naming ``source`` otherwise (module
    documentation)."""
    reader = _Reader(bytes(data), source)
    value = reader.value(0)
    if reader.at != len(reader.data):
        raise reader.fault(f"{len(reader.data) - reader.at} bytes after its value")
    return value


class _Reader:
    """Reads the values of ``data`` from offset :attr:`at`."""

    def __init__(self, data: bytes, source: str) -> None:
        self.data = data
        self.source = source
        self.at = 0

    def fault(self, reason: str) -> InputFormatError:
        return InputFormatError(f"not a packed value: {reason} (offset {self.at})",
                                source=self.source)

    def _take(self, size: int) -> bytes:
        end = self.at + size
        if end > len(self.data):
            raise self.fault(f"{size} bytes announced, {len(self.data) - self.at} left "
                             "(truncated)")
        taken = self.data[self.at:end]
        self.at = end
        return taken

    def _count(self) -> int:
        return int.from_bytes(self._take(_WIDTH), "little")

    def _text(self) -> str:
        if self._take(1) != b"S":
            self.at -= 1
            raise self.fault("a dict key that is not text")
        raw = self._take(self._count())
        try:
            return raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as error:
            raise self.fault(f"text that is not UTF-8 ({error.reason})") from None

    def _texts(self) -> list[str]:
        """The texts of a list of them (tag ``A``), split in one pass."""
        count = self._count()
        raw = self._take(self._count())
        try:
            texts = raw.decode("utf-8", "surrogatepass").split("\0")
        except UnicodeDecodeError as error:
            raise self.fault(f"text that is not UTF-8 ({error.reason})") from None
        if len(texts) != count or not count:
            raise self.fault(f"{len(texts)} texts where {count} are announced")
        return texts

    def value(self, depth: int) -> Any:
        tag = self._take(1)
        if tag == b"S":
            self.at -= 1
            return self._text()
        if tag == b"I":
            return int.from_bytes(self._take(_WIDTH), "little", signed=True)
        if tag == b"R":
            written = self._take(self._count())
            try:
                return float.fromhex(written.decode("ascii"))
            except ValueError:  # (UnicodeDecodeError too)
                raise self.fault(f"not a float: {written[:40]!r}") from None
        if tag == b"N" or tag == b"T" or tag == b"F":
            return None if tag == b"N" else tag == b"T"
        if tag == b"A":
            return self._texts()
        if tag != b"L" and tag != b"D":
            self.at -= 1
            raise self.fault(f"an unknown tag {tag!r}")
        if depth == MAX_DEPTH:
            self.at -= 1
            raise self.fault(f"lists and dicts nested deeper than {MAX_DEPTH} levels, the "
                             "deepest irscale reads")
        count = self._count()
        if count > len(self.data) - self.at:  # each item takes a byte at least
            raise self.fault(f"{count} items announced, {len(self.data) - self.at} bytes "
                             "left (truncated)")
        if tag == b"L":
            return [self.value(depth + 1) for _ in range(count)]
        found = {}
        for _ in range(count):
            key = self._text()
            if key in found:
                raise self.fault(f"the key {key!r} given twice")
            found[key] = self.value(depth + 1)
        return found


__all__ = ["MAX_DEPTH", "UNDER_ANY_LIMIT", "NotRegularFile", "file_digest", "file_kind", "pack",
           "read_regular", "unpack"]
