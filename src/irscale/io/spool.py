"""Inputs that can be read only once (standard input, a FIFO, a device), made re-readable.

A regular file is read where it lies: the native engine opens it, and a diagnosis reads it
again for the text of a bad line (:func:`irscale.io._text.read_fields`). Standard input, a
FIFO such as ``<(zcat run.gz)`` and a character device give their bytes once. Read into a
Python ``bytes`` object, they would be held in the process beside the columns parsed of
them.

:func:`spool_input` moves them instead into an anonymous in-memory file (Linux's
``memfd_create``) and gives its path, ``/proc/self/fd/N``, which every reader opens like a
regular file: the input's bytes are held once, by the kernel, as a file's are in its page
cache (not in the process's resident memory), and every path of a regular file applies
(gzip data decompressed as they are parsed, the re-reading diagnosis). A pipe is moved
with ``splice`` (no copy through the process) after its buffer is enlarged to 1 MiB
(``F_SETPIPE_SZ``: 348 MB through ``cat`` took 0.46 s with the default 64 KiB buffer,
0.21 s so). Standard input redirected from a regular file at its start is not copied at
all: the path is that of a copy of descriptor 0.

Where ``memfd_create`` or ``/proc`` is missing (not Linux), :func:`spool_input` returns
``None`` and the caller reads the bytes whole. Either way the bytes held are within the
memory limit (:func:`irscale.io.files.reading_limit`): an endless pipe is refused, not
held until the memory runs out. Bytes are moved up to the first line beyond the line
limit only (:class:`irscale.io.files.LineWatch`), which the reader then refuses by its
number: those read here (a device such as ``/dev/zero``, a pipe that cannot be spliced)
as they are read, those spliced by the line ends at either end of each move, read back
from the in-memory file (:func:`_spliced_beyond`: two reads of 64 KiB a move at most for
a text of ordinary lines, the whole move where one holds no line end), so that an
endless pipe of one line (``cat /dev/zero |``) stops a little beyond the line limit.
"""

from __future__ import annotations

import errno as errno_codes
import os
import stat
import sys
import weakref

from ..errors import InputError
from .files import (
    OPEN_FLAGS,
    STDIO,
    LineWatch,
    PathLike,
    access_error,
    check_readable,
    display_name,
    memory_reason,
    reading_limit,
)

#: ``fcntl``'s F_SETPIPE_SZ (Linux): the capacity of a pipe's buffer.
_F_SETPIPE_SZ = 1031
#: The pipe buffer asked for (the default maximum an unprivileged process may set).
_PIPE_BYTES = 1 << 20
#: Bytes moved by one ``splice`` or read.
_CHUNK = 1 << 20
#: Errors of the in-memory file, not of the input: no room for its bytes.
_NO_ROOM = {errno_codes.EFBIG, errno_codes.ENOSPC, errno_codes.ENOMEM}
#: ``splice`` refuses these when neither end is a pipe it can use: bytes are copied instead.
_NO_SPLICE = {errno_codes.EINVAL, errno_codes.ENOSYS, errno_codes.EBADF}
#: Bytes read back from each end of a move spliced, for its line ends (:func:`_spliced_beyond`).
_PEEK = 1 << 16


class SpooledInput:
    """A read-once input's bytes in a file that can be opened again by :attr:`path`.

    The descriptor behind :attr:`path` is closed when this object is collected: keep it
    as long as the path may be read (a closure that names the lines of later errors).
    """

    def __init__(self, descriptor: int) -> None:
        self.path = f"/proc/self/fd/{descriptor}"
        weakref.finalize(self, os.close, descriptor)


def spool_input(source: PathLike) -> SpooledInput | None:
    """The bytes of ``source`` (``-``: standard input), a FIFO or a device, in a re-readable
    file; ``None`` where this system cannot make one, or for ``-`` when ``sys.stdin`` is
    not descriptor 0 (a notebook's, a test's): the caller reads the bytes whole.

    Raises :class:`~irscale.errors.FileAccessError` for a path that cannot be read, or when
    the memory for the bytes runs out (as reading them whole would)."""
    if not (hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")):
        return None
    if source == STDIO:
        if not _stdin_is_descriptor_0():
            return None
        try:
            descriptor = os.dup(0)
        except OSError as error:  # descriptor 0 closed since the interpreter started
            raise access_error(error, STDIO) from None
    else:
        check_readable(source)
        try:
            descriptor = os.open(source, os.O_RDONLY | OPEN_FLAGS)
        except OSError as error:
            raise access_error(error, source) from None
    try:
        info = os.fstat(descriptor)
        if stat.S_ISREG(info.st_mode) and os.lseek(descriptor, 0, os.SEEK_CUR) == 0:
            return SpooledInput(descriptor)  # standard input redirected from a file
        moved = _moved(descriptor, stat.S_ISFIFO(info.st_mode), source)
    except BaseException:
        os.close(descriptor)
        raise
    os.close(descriptor)
    return SpooledInput(moved)


def _stdin_is_descriptor_0() -> bool:
    """Whether ``sys.stdin`` reads descriptor 0 (not a stream put in its place by a
    notebook, a test or an embedding program, which is read as it is)."""
    try:
        return sys.stdin.fileno() == 0
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return False


def _moved(descriptor: int, pipe: bool, source: PathLike) -> int:
    """A memfd holding every byte still to be read from ``descriptor``."""
    if pipe:
        try:
            import fcntl

            fcntl.fcntl(descriptor, _F_SETPIPE_SZ, _PIPE_BYTES)
        except (ImportError, OSError):  # above the system's limit, or not a pipe after all
            pass
    target = os.memfd_create("irscale-input", os.MFD_CLOEXEC)
    limit, held = reading_limit(), 0
    watch = LineWatch()  # the bytes read here (not those spliced): /dev/zero stops early
    try:
        splice = pipe and hasattr(os, "splice")
        while held <= limit:
            if splice:
                try:
                    moved = os.splice(descriptor, target, _CHUNK)
                    if not moved:
                        break
                    held += moved
                    if _spliced_beyond(watch, target, held - moved, moved):
                        break  # the reader refuses the line by its number
                    continue
                except OSError as error:
                    if error.errno not in _NO_SPLICE:
                        raise
                    splice = False
            chunk = os.read(descriptor, _CHUNK)
            if not chunk:
                break
            held += len(chunk)
            view = memoryview(chunk)
            while view:
                view = view[os.write(target, view):]
            if watch.beyond(chunk):
                break  # the reader refuses the line by its number
        if held > limit:
            raise InputError(memory_reason([str(held), str(limit)]),
                             source=display_name(source))
    except OSError as error:
        os.close(target)
        holding = error.errno in _NO_ROOM
        raise access_error(error, source, "keep the bytes of" if holding else "read") from None
    except BaseException:
        os.close(target)
        raise
    return target


def _spliced_beyond(watch: LineWatch, target: int, at: int, size: int) -> bool:
    """Whether the ``size`` bytes spliced into ``target`` at offset ``at`` take the text
    to a line beyond the line limit (``watch``): read back from the in-memory file, their
    first and last :data:`_PEEK` bytes, which hold their first and last line ends in a text
    of ordinary lines (:meth:`LineWatch.ends`), or the whole move where either holds none."""
    head = os.pread(target, min(size, _PEEK), at)
    first = head.find(b"\n")
    if first >= 0 and size > 2 * _PEEK:
        last = os.pread(target, _PEEK, at + size - _PEEK).rfind(b"\n")
        if last >= 0:
            return watch.ends(head, first, size - _PEEK + last, size)
    return watch.beyond(head if size <= _PEEK else os.pread(target, size, at))
