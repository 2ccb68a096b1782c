"""Regular files read as they are stored (no text rules, gzip data not decompressed): the
files irscale wrote and reads back (:func:`read_regular`: an entry of ``--cache``, the
per-topic parts of ``eval-many -o``, a simulation's checkpoint), and the digests of inputs
(:func:`file_digest`: the keys of the results cache, a report's provenance).

A folder irscale writes into may hold anything anyone who can write there has put under a
file's name: a FIFO (whose reader would wait for a writer for ever), a device, a folder, a
socket, a file beyond the memory limit. :func:`read_regular` opens without blocking, checks
the descriptor it opened and refuses all of them; the text inputs a user names are read by
:func:`irscale.io.files.read_input` and the native engine instead.
"""

from __future__ import annotations

import errno as errno_codes
import os
import stat

from ..errors import FileAccessError, InputError
from .files import OPEN_FLAGS, PathLike, access_error, display_name, memory_reason, reading_limit


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


def read_regular(path: PathLike) -> bytes | None:
    """The bytes of the regular file at ``path`` (as stored: gzip data not decompressed),
    ``None`` when there is none: a file irscale wrote and reads back (an entry of
    ``--cache``), where anyone who can write into the folder may have put anything. It is
    opened without blocking and checked on the descriptor opened (no race between a check
    and the opening): a FIFO, a folder, a device or a socket raises
    :class:`NotRegularFile` (a FIFO planted there would otherwise stop every reader), a
    file beyond the memory limit (:func:`reading_limit`) :class:`InputError`, a file that
    cannot be read :class:`FileAccessError`."""
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
        limit = reading_limit()
        if info.st_size > limit:
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


__all__ = ["NotRegularFile", "file_digest", "file_kind", "read_regular"]
