"""Opening inputs and writing outputs safely: the file rules of ``docs/errors.md``.

Inputs
    :func:`read_input` returns every byte of a file (gunzipped when it starts with gzip's
    magic number) or of standard input for ``-``, read by the native engine as its own
    readers read a text: no line beyond its line limit (16 MiB), the text within the memory
    limit (:func:`reading_limit`), gzip data decompressed a block at a time, never beyond
    them. A missing file, a directory or an unreadable file raise
    :class:`~irscale.errors.FileAccessError`; truncated or corrupt gzip data and a line
    beyond the limit raise :class:`~irscale.errors.InputFormatError` naming the file (and
    the line), a text beyond the memory limit :class:`~irscale.errors.InputError`. An input
    that is not a regular file (a FIFO, ``<(cat run)``, ``/dev/stdin``, a device) can be
    read only once: the readers move its bytes to a file that can be opened again
    (:mod:`irscale.io.spool`) or, where the system has none, take them from
    :func:`read_input` (one open, one read); pyarrow is given a Parquet input that is not a
    regular file as its bytes (:func:`parquet_input`). Every ``open`` and read of an input
    here is Python's, which runs a signal's handler and raises (^C while a FIFO waits for
    its writer ends the wait); the engine's waits end the same way
    (``rust/src/read/open.rs``). Every regular file opened here
    (:func:`check_readable`, :func:`read_file`) is noted as read by the running call
    (:mod:`irscale.core.reads`).

Outputs
    :func:`check_output` is called *before* the work starts, after the input owner has
    refused an output that is one of the call's inputs (same resolved path or same inode,
    whatever ``force`` says: :func:`irscale.io.call_inputs.check_not_input`): it refuses an
    existing regular file unless ``force``, a directory, and a folder that does not exist or
    cannot be written. :func:`atomic_output` then writes to a temporary file beside the
    target and renames it into place only when the writing succeeded, so an interrupt, a
    full disk or a crash never leaves a partial file under the output's name, and never
    onto a file the call has read (:func:`refuse_read`: the backstop of the check before
    the work). Devices and pipes (``/dev/null``, a FIFO) are written directly; ``-``,
    ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N`` are written to their descriptor
    (:func:`output_stream`). An output path that is a symbolic link stands for the file it
    points to (:func:`output_target`): the checks apply to the target, the temporary file
    is made in the target's folder and renamed onto the target, so the link stays a link
    (a dangling link creates its target).
"""

from __future__ import annotations

import contextlib
import errno as errno_codes
import io
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator

from ..core import reads
from ..errors import (
    FileAccessError,
    InputError,
    InputFormatError,
    OutputExistsError,
    about,
    printable,
    shorten,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import IO, Any, Literal

#: The file name that stands for standard input (as an input) or output (as an output).
STDIO = "-"

PathLike = str | os.PathLike

#: Flags of every descriptor opened here (not inherited by child processes; binary).
OPEN_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def is_stdio(path: Any) -> bool:
    """True when ``path`` is ``-`` (standard input or output)."""
    return isinstance(path, str) and path == STDIO


#: The names of a descriptor of this process as an output: ``/dev/stdout`` (1) and
#: ``/dev/stderr`` (2), then the prefixes of ``/dev/fd/N`` and ``/proc/self/fd/N`` (N).
_STREAMS = {"/dev/stdout": 1, "/dev/stderr": 2}
_STREAM_PREFIXES = ("/dev/fd/", "/proc/self/fd/")


def output_stream(path: Any) -> int | None:
    """The descriptor an output ``path`` names as a stream of this process: 1 for ``-`` and
    ``/dev/stdout``, 2 for ``/dev/stderr``, N for ``/dev/fd/N`` and ``/proc/self/fd/N``;
    None for any other path. Such an output is written to its descriptor as it is (no
    staging file, nothing replaced: no ``--force`` needed), as a shell's redirection
    means it (``-o /dev/stdout | gzip``)."""
    if is_stdio(path):
        return 1
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str):
        return None
    number = next((text[len(p):] for p in _STREAM_PREFIXES if text.startswith(p)), "")
    return int(number) if number.isdecimal() else _STREAMS.get(text)


def display_name(path: PathLike) -> str:
    """How a path is named in messages: ``<stdin>`` for ``-``, otherwise as given, with
    control characters (and undecodable bytes) escaped (:func:`irscale.errors.printable`)."""
    if is_stdio(path):
        return "<stdin>"
    return printable(os.fspath(path))


def access_error(error: OSError, path: PathLike, action: str = "read") -> FileAccessError:
    """A :class:`FileAccessError` saying in plain words why ``path`` cannot be used."""
    name = display_name(path)
    reason = {
        errno_codes.ENOENT: "no such file or directory",
        errno_codes.EISDIR: "is a directory, not a file",
        errno_codes.EACCES: "permission denied",
        errno_codes.EPERM: "permission denied",
        errno_codes.ENOSPC: "no space left on device",
        errno_codes.ENOTDIR: "a component of the path is not a directory",
        errno_codes.EROFS: "read-only file system",
        errno_codes.EDQUOT: "disk quota exceeded",
        errno_codes.EFBIG: "file too large for the size limit (ulimit -f)",
        errno_codes.EBADF: "no such open file descriptor",
    }.get(error.errno or -1, (error.strerror or str(error)).lower())
    return FileAccessError(f"cannot {action} {name}: {reason}", path=name, errno=error.errno)


#: What a reader of one file takes, for error messages.
FILE_SOURCES = "a file path, '-' (standard input), an open file or bytes"


def describe(value: object) -> str:
    """``int 3``, ``None``, ``DataFrame``: what a caller passed, for an error message."""
    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, os.PathLike):
        return f"{kind} {shorten(repr(os.fspath(value)), 120)}"
    text = repr(value)
    return f"{kind} {text}" if len(text) <= 60 and "\n" not in text else kind


def check_file_source(source: object, where: str) -> PathLike | io.IOBase | bytes:
    """``source`` if a reader of one file can read it (a path, ``-``, an open file, bytes;
    a bytearray or memoryview as bytes); :class:`InputError` naming ``where`` otherwise,
    and for a ``str`` holding a line break or a tab that names no file (data passed as a
    file name)."""
    if isinstance(source, str) and any(c in source for c in "\n\r\t") and \
            not os.path.lexists(source):
        raise InputError(f"{where}: no file is named {shorten(repr(source), 120)} (a str "
                         "is read as a file name; data held in memory are read as bytes: "
                         "b'...' or text.encode())")
    if isinstance(source, (str, os.PathLike, bytes)):
        return source
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if callable(getattr(source, "read", None)):
        return source  # type: ignore[return-value]
    raise about(InputError(f"{where}: expected {FILE_SOURCES}, got {describe(source)}"),
                source)


def _read_stdin() -> bytes:
    """Every byte of standard input, within the memory and line limits
    (:func:`read_stream`)."""
    if sys.stdin is None:  # descriptor 0 was closed when the interpreter started
        raise FileAccessError("cannot read <stdin>: standard input is closed", path="<stdin>")
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    return read_stream(stream.read, "<stdin>")


#: Bytes read at a time from an input that can be read once only (:func:`read_stream`):
#: far fewer than the line limit, so that a line within one block is never beyond it.
STREAM_BLOCK = 1 << 20

#: The first bytes of gzip data.
GZIP_MAGIC = b"\x1f\x8b"


class LineWatch:
    """Watches a text read a block at a time (an input that can be read once only) for a
    line longer than the line limit (``_engine.LINE_LIMIT``: the bytes before its
    ``\n``), as the native engine's readers count it, so that its reader stops there: the
    engine then refuses that line by its number and start. gzip data (told by their first
    bytes) are not watched: their lines are those they decompress to, bounded when the
    engine reads them."""

    def __init__(self) -> None:
        from .. import _engine

        self.limit = _engine.LINE_LIMIT
        self.open = 0  # bytes of the last line, not ended yet
        self.head = b""  # the text's first bytes, to tell gzip data

    def beyond(self, block: bytes) -> bool:
        """Whether the text, ``block`` its latest bytes, has reached a line beyond the
        limit (a block shorter than the limit: a line within it is shorter too)."""
        return self.ends(block, block.find(b"\n"), block.rfind(b"\n"), len(block))

    def ends(self, start: bytes, first: int, last: int, size: int) -> bool:
        """:meth:`beyond` of a block of ``size`` bytes known by its start and first and last
        ``\n`` (-1: none), which alone decide (a block spliced: :mod:`irscale.io.spool`)."""
        if len(self.head) < len(GZIP_MAGIC):
            self.head += start[:len(GZIP_MAGIC) - len(self.head)]
        if first >= 0:
            longest = self.open + first
            self.open = size - last - 1
        else:
            longest = self.open = self.open + size
        return max(longest, self.open) > self.limit and not self.head.startswith(GZIP_MAGIC)


def read_stream(read: Callable[[int], bytes | str], name: str) -> bytes:
    """Every byte ``read(n)`` gives (an input that can be read once only: standard input,
    a FIFO, a character device such as ``/dev/zero``, a stream), read
    :data:`STREAM_BLOCK` bytes at a time within the bounds the native engine's readers
    keep (``rust/src/read/limits.rs``), so that an endless input is refused, not held
    until the memory runs out: once more than the memory limit (:func:`reading_limit`) has
    come, :class:`InputError` naming ``name``; reading stops within the first line longer
    than the line limit (:class:`LineWatch`), the bytes read so far returned:
    :func:`read_text` then refuses that line by its number and start. ``^C`` stops the
    reading between two blocks."""
    limit = reading_limit()
    watch = LineWatch()
    chunks: list[bytes] = []
    total = 0
    while chunk := read(STREAM_BLOCK):
        data = chunk.encode() if isinstance(chunk, str) else chunk
        chunks.append(data)
        total += len(data)
        if total > limit:
            raise InputError(memory_reason([str(total), str(limit)]), source=name)
        if watch.beyond(data):
            break
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def reading_limit() -> int:
    """The bytes the readers of one call may hold at once, their texts and parsed columns
    (the native engine's readers share it): the memory limit of
    :mod:`irscale.core.budget` (by default half of the machine's memory, or of the
    process's own limit)."""
    from ..core.budget import max_memory_of

    return max_memory_of(None)


def memory_reason(details: list[str]) -> str:
    """The words of a reader's memory error (the native engine's ``details``): the bytes
    it would hold and the limit (:func:`reading_limit`), or the bytes that could not be
    allocated."""
    from ..core.budget import format_size, limit_name

    if len(details) == 2:
        return (f"reading it would hold more than {limit_name()} ({format_size(int(details[0]))}"
                " of its text and columns by then)")
    return f"out of memory reading it ({format_size(int(details[0]))} could not be allocated)"


def engine_error(error: Exception) -> Exception:
    """The package's error for a fault the native engine found reading a file (its
    ``TrecReadError``): a file that cannot be read (:func:`access_error`), a text beyond
    the memory limit (:class:`InputError`), gzip data that cannot be decompressed, a line
    beyond the line limit or another malformed line (:class:`InputFormatError`)."""
    kind, reason, source, line, text, details, *_ = error.args
    if kind == "access":  # the OS's error number, if any, and its words
        return access_error(OSError(int(details[0]) if details else None, reason), source)
    if kind == "memory":
        return InputError(memory_reason(details), source=source, line=line)
    return InputFormatError(reason, source=source, line=line, text=text)


def check_readable(path: PathLike) -> os.stat_result | None:
    """Raise :class:`FileAccessError` unless ``path`` is ``-`` or a readable file; returns
    the file's status (``None`` for ``-``)."""
    if is_stdio(path):
        return None
    try:
        info = os.stat(path)
    except OSError as error:
        raise access_error(error, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise access_error(OSError(errno_codes.EISDIR, "is a directory"), path)
    if not os.access(path, os.R_OK):
        raise access_error(OSError(errno_codes.EACCES, "permission denied"), path)
    reads.note(info)  # an input of the call: no output replaces it (irscale.core.reads)
    return info


def read_file(path: PathLike, limit: int | None = None) -> bytes:
    """The bytes of the file at ``path`` (at most ``limit``), read through one descriptor
    opened once: a FIFO or a pipe gives all its bytes.

    No Python file object is made, so ^C at any moment leaves none unclosed (Python 3.11
    handles a pending signal right after ``open()`` returns, before ``with`` could take the
    file: the dropped file would print a ``ResourceWarning``).
    """
    descriptor = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    try:
        info = os.fstat(descriptor)
        reads.note(info)  # an input of the call: no output replaces it (irscale.core.reads)
        size = info.st_size  # 0 for pipes and devices
        chunks: list[bytes] = []
        total = 0
        while limit is None or total < limit:
            want = max(size - total + 1, 1 << 16)
            chunk = os.read(descriptor, want if limit is None else min(want, limit - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(descriptor)


#: The first (and last) bytes of every Parquet file.
PARQUET_MAGIC = b"PAR1"


def is_parquet(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a Parquet file: by its name's ending, or by the first bytes of
    a regular file (not of a pipe, which is read once, by its reader; an unreadable file
    is not Parquet: its reader says why)."""
    from ..core.extras import parquet_name  # (here: a cache hit loads no core.extras)
    if parquet_name(os.fspath(path)):
        return True
    if os.fspath(path) == STDIO or not os.path.isfile(path):
        return False
    try:
        return read_file(path, len(PARQUET_MAGIC)) == PARQUET_MAGIC
    except OSError:
        return False


def parquet_input(path: PathLike) -> PathLike | bytes:
    """The Parquet file at ``path`` as pyarrow's reader is given it: the path of a regular
    file (or ``-``); the bytes of a FIFO or a device, read here once within the memory
    limit (:func:`read_path`). pyarrow would open such a path once for its schema and again
    for its table, each ``open`` waiting for a writer, in a wait that ^C and SIGTERM cannot
    end; Python's ``open`` and reads run the signal's handler and raise. Raises
    :class:`FileAccessError` for a path that cannot be read."""
    info = check_readable(path)
    if info is None or stat.S_ISREG(info.st_mode):
        return path
    return read_path(path)


def read_input(source: PathLike | IO[bytes] | bytes, name: str | None = None) -> bytes:
    """All bytes of a path (``-``: standard input), a binary stream or a bytes object,
    decompressed when they are gzip data, read as :func:`read_text` reads them (errors of
    a path name ``name`` if given, as for a spooled input's file, :mod:`irscale.io.spool`).
    A file's bytes are read here, within the memory limit, and handed to the engine, which
    gives plain text back as it is (no copy) and decompresses gzip data."""
    given: bytes
    if isinstance(source, bytes):
        given = source
    elif isinstance(source, (str, os.PathLike)):
        if is_stdio(source):
            given = _read_stdin()
        else:
            given = read_path(source, name)
    else:
        checked = check_file_source(source, "input")  # a stream, or a bytearray's bytes
        # a text stream where a binary one was promised gives text
        read: bytes | str = checked if isinstance(checked, bytes) else \
            checked.read()  # type: ignore[union-attr]
        given = read.encode() if isinstance(read, str) else read
    if name is None:
        name = (display_name(source) if isinstance(source, (str, os.PathLike))
                else str(getattr(source, "name", "<bytes>")))
    return read_text(given, name)


def read_path(path: PathLike, name: str | None = None) -> bytes:
    """The bytes of the file at ``path``, within the memory limit: a regular file larger
    than it is refused by its size, before it is read; a FIFO or a device is read once,
    within the memory and line limits (:func:`read_stream`). Errors name ``name`` if given
    (else the path)."""
    info = check_readable(path)
    limit = reading_limit()
    named = name or display_name(path)
    if info is not None and info.st_size > limit:
        raise InputError(memory_reason([str(info.st_size), str(limit)]), source=named)
    try:
        if info is not None and not stat.S_ISREG(info.st_mode):
            descriptor = os.open(path, os.O_RDONLY | OPEN_FLAGS)
            try:
                return read_stream(lambda size: os.read(descriptor, size), named)
            finally:
                os.close(descriptor)
        data = read_file(path, limit + 1)
    except OSError as error:
        raise access_error(error, named) from None
    if len(data) > limit:
        raise InputError(memory_reason([str(len(data)), str(limit)]), source=named)
    return data


def read_text(given: bytes | PathLike, name: str) -> bytes:
    """The text of a file's bytes or of the file at a path (named ``name`` in errors), as
    the native engine's readers read it (``irscale._engine.read_text``): gzip data
    decompressed a block at a time, no line beyond the line limit, the text within the
    memory limit (:func:`reading_limit`), the errors of :func:`engine_error` otherwise.
    Plain bytes are given back as they are."""
    from .. import _engine

    try:
        return _engine.read_text(given, name, reading_limit())
    except _engine.TrecReadError as error:
        raise engine_error(error) from None


def check_text(data: bytes, source: str) -> None:
    """The rule every text input obeys, whatever its reader: not a Parquet file
    (:func:`refuse_parquet`), valid UTF-8 (:func:`check_utf8`) and no NUL byte on any line
    (:func:`raise_nul_line`). Raises :class:`InputFormatError` naming the file, and the
    line and its text where there is one."""
    refuse_parquet(data, source)
    check_utf8(data, source)
    if b"\x00" in data:
        raise_nul_line(data, source)


def refuse_parquet(data: bytes, source: str) -> None:
    """Raise :class:`InputFormatError` when ``data`` (a file's first bytes at least) are a
    Parquet file's (:data:`PARQUET_MAGIC`), given where a text file is expected."""
    if data[:len(PARQUET_MAGIC)] == PARQUET_MAGIC:
        raise InputFormatError(
            "a Parquet file, where a text file is expected: qrels, labels and the other "
            "judgment and table files are text (Parquet is read for runs and click logs)",
            source=source)


def check_utf8(data: bytes, source: str) -> None:
    """Raise :class:`InputFormatError` naming the first line that is not valid UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        number = data.count(b"\n", 0, error.start) + 1
        start = data.rfind(b"\n", 0, error.start) + 1
        column = len(data[start:error.start].decode("utf-8", errors="replace")) + 1
        end = data.find(b"\n", error.start)
        text = data[start:end if end >= 0 else len(data)].rstrip(b"\r")
        raise InputFormatError(
            f"not valid UTF-8 text (byte 0x{data[error.start]:02x} at column {column})",
            source=source, line=number, text=text.decode("utf-8", errors="replace"),
        ) from None


def read_lines(source: str) -> list[str]:
    """The lines of the UTF-8 text file ``source`` (:func:`read_input`: gzip or not, ``-``
    standard input): not text is an error naming the line (:func:`check_text`); a byte
    order mark at the start is not text, and a line ends at LF, CRLF or CR."""
    data = read_input(source)
    check_text(data, source)
    return data.decode("utf-8-sig").splitlines()


def raise_nul_line(data: bytes, source: str) -> None:
    """Raise :class:`InputFormatError` naming the first line of ``data`` that holds a NUL
    byte (``data`` must hold one)."""
    at = data.find(b"\x00")
    number = data.count(b"\n", 0, at) + 1
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    text = data[start:end if end >= 0 else len(data)].decode("utf-8", errors="replace")
    raise InputFormatError("a NUL byte in the line (trec_eval would cut the field there)",
                           source=source, line=number, text=text)


# ------------------------------------------------------------------------------ outputs
def output_target(path: PathLike) -> str:
    """The file an output path writes: ``path`` itself, or, when ``path`` is a symbolic
    link (dangling or not), the file it points to (:func:`os.path.realpath`).

    The link is not replaced by the output: the output is written to the target's folder
    and renamed onto the target, so the link keeps pointing at the new content.
    """
    if os.path.islink(path):
        return os.path.realpath(path)
    return os.fspath(path)


def link_note(path: PathLike, target: str) -> str:
    """`` (a link to TARGET)`` when ``path`` is a symbolic link, else nothing."""
    return f" (a link to {target})" if target != os.fspath(path) else ""


def check_output(path: PathLike | None, *, force: bool = False, option: str = "-o") -> None:
    """Refuse, before any work, an output the call cannot write, or must not: raises
    :class:`OutputExistsError` when ``path`` is an existing regular file (without
    ``force``), and :class:`FileAccessError` when it is a directory or its folder does not
    exist or cannot be written. A symbolic link is checked as the file it points to
    (:func:`output_target`). That it is none of the call's inputs is checked first, by the
    input owner (:func:`irscale.io.call_inputs.check_not_input`). A standard stream
    (:func:`output_stream`) is written as it is: only its descriptor must be open.
    """
    from pathlib import Path

    if path is None or is_stdio(path):
        return
    descriptor = output_stream(path)
    if descriptor is not None:
        if _status(descriptor) is None:
            raise access_error(OSError(errno_codes.EBADF, "bad descriptor"), path, "write")
        return
    name = os.fspath(path)
    resolved = output_target(path)
    note = link_note(path, resolved)
    target = Path(resolved)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise access_error(error, path, "write") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise FileAccessError(f"cannot write {name}{note}: is a directory "
                                  f"(give a file name to {option})", path=name)
        if stat.S_ISREG(info.st_mode) and not force:
            raise OutputExistsError(
                f"{option} {name}{note} exists already: refusing to overwrite it "
                "(--force to replace it)", path=name)
        if not stat.S_ISREG(info.st_mode):
            if not os.access(target, os.W_OK):
                raise access_error(OSError(errno_codes.EACCES, "denied"), path, "write")
            return
    folder = target.parent
    if not folder.is_dir():
        raise FileAccessError(f"cannot write {name}{note}: folder {os.fspath(folder)} "
                              "does not exist", path=name)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileAccessError(f"cannot write {name}{note}: folder {os.fspath(folder)} "
                              "is not writable", path=name)


def current_umask() -> int:
    """The process's file-creation mask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Signals :func:`interrupts_held` holds: ^C, and those the command line turns into the
#: same exception (``irscale.cli.main.STOP_SIGNALS``).
HELD_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold ^C (SIGINT), SIGTERM and SIGHUP while the block runs, then act on the first
    received (``KeyboardInterrupt``, or what the handler of that signal raises): a step
    that must not be cut in half (making and recording a temporary file, a rename, a
    clean-up) runs to its end.

    Only in the main thread, and only the signals with a Python handler in place (Python's
    own for SIGINT, by default); otherwise the block runs as it is.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for name in HELD_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None and callable(handler := signal.getsignal(number)):
            previous[number] = handler  # not SIG_IGN, SIG_DFL or a handler set outside Python
    received: list[int] = []
    for number in previous:
        signal.signal(number, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if received:
        previous[received[0]](received[0], None)  # Python's own raises KeyboardInterrupt


#: How long (seconds) an unlocked staging file or folder must have stood untouched before
#: a sweep removes it (:func:`make_staging`): its writer locks it as soon as it is made.
ORPHAN_AGE = 60.0


def make_staging(target: Path, *, folder: bool = False) -> tuple[str, int]:
    """A new hidden staging file (``folder``: folder) beside ``target``,
    ``.<name>.<random>.part``, and a descriptor holding an exclusive ``flock`` on it for as
    long as it is open (close it once the staging path is renamed or removed); an
    ``OSError`` when it cannot be made.

    Before, the staging files and folders of ``target`` that a killed writer (SIGKILL, a
    power loss) left behind are removed: those of that pattern that nobody locks (a lock
    dies with its process) and that have stood untouched for :data:`ORPHAN_AGE` seconds
    (the moment between making one and locking it). Call it with interrupts held.
    """
    import tempfile  # (on the write path only)

    _sweep_orphans(target)
    if folder:
        path = tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        handle = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    else:
        handle, path = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                        dir=target.parent)
    _lock(handle, wait=True)
    return path, handle


def _lock(handle: int, *, wait: bool) -> bool:
    """An exclusive ``flock`` on ``handle`` (where the system has it): taken or not."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no sweep either
        return not wait
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        return False
    return True


def _sweep_orphans(target: Path) -> None:
    """Remove the orphan staging files and folders of ``target`` (:func:`make_staging`)."""
    import re

    pattern = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.part")
    try:
        names = [name for name in os.listdir(target.parent) if pattern.fullmatch(name)]
    except OSError:
        return
    for name in names:
        path = os.path.join(target.parent, name)
        try:
            info = os.lstat(path)
            if (time.time() - info.st_mtime < ORPHAN_AGE
                    or not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode))):
                continue
            handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | OPEN_FLAGS)
        except OSError:
            continue
        try:
            if _lock(handle, wait=False):  # its writer is gone
                if stat.S_ISDIR(info.st_mode):
                    import shutil  # (not at import: its bz2 and lzma are no start-up's)

                    shutil.rmtree(path, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
        finally:
            os.close(handle)


def _status(file: PathLike | int) -> os.stat_result | None:
    """The status of a path or a descriptor (links followed); None where there is none."""
    try:
        return os.stat(file)
    except (OSError, OverflowError, ValueError):
        return None


def refuse_read(path: PathLike, info: os.stat_result | None) -> None:
    """Refuse to write the output ``path`` onto the file whose status is ``info`` (None:
    none) when the running call has read it (:mod:`irscale.core.reads`), whatever
    ``force`` says: :class:`OutputExistsError`."""
    if info is not None and reads.was_read(info):
        name = os.fspath(path)
        raise OutputExistsError(
            f"{name}{link_note(path, output_target(path))} is a file this call has read: "
            "refusing to overwrite it (an input is never replaced, even with --force)",
            path=name)


@contextlib.contextmanager
def atomic_path(path: PathLike, *, force: bool = False) -> Iterator[str]:
    """A temporary path beside ``path`` to write the whole output to; renamed to ``path``
    when the ``with`` block ends without an exception, removed otherwise.

    Devices, pipes and standard streams (:func:`output_stream`) are not replaced: their
    own path is yielded, written directly (a writer of a stream writes to its descriptor:
    :func:`atomic_output`). A symbolic link is followed (:func:`output_target`): the
    temporary file is made in the target's folder and renamed onto the target, and the
    link stays as it is.
    """
    from pathlib import Path

    if output_stream(path) is not None:
        yield os.fspath(path)
        return
    target = Path(output_target(path))
    existing = _status(target)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        yield os.fspath(target)
        return
    refuse_read(path, existing)
    temporary = handle = None
    try:
        with interrupts_held():  # no ^C between making the file and knowing its name
            try:
                temporary, handle = make_staging(target)
            except OSError as error:
                raise access_error(error, path, "write") from None
        yield temporary
        os.chmod(temporary, 0o666 & ~current_umask())
        if not force and os.path.lexists(target):
            raise OutputExistsError(
                f"{os.fspath(path)} appeared while irscale was writing it: refusing to "
                "overwrite it (--force to replace it)", path=os.fspath(path))
        refuse_read(path, _status(target))
        os.replace(temporary, target)
    except BaseException:
        if temporary is not None:
            with interrupts_held(), contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    finally:
        if handle is not None:
            os.close(handle)


@contextlib.contextmanager
def atomic_output(
    path: PathLike, mode: Literal["wb", "w"] = "wb", *, force: bool = False
) -> Iterator[IO[Any]]:
    """A stream for the whole output, committed atomically; a standard stream
    (:func:`output_stream`: ``-`` or ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``)
    written to its descriptor as it is.

    ``mode`` is ``"wb"`` or ``"w"`` (UTF-8 text). Write errors (a full disk) raise
    :class:`FileAccessError` naming the file; nothing is left under ``path`` then.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', got {mode!r}")
    descriptor = output_stream(path)
    if descriptor is not None:
        with _descriptor_stream(descriptor, os.fspath(path), mode) as stream:
            yield stream
        return
    with atomic_path(path, force=force) as temporary:
        try:
            # a descriptor, and a file object that does not own it: ^C right after open()
            # leaves no unclosed file behind (see read_file)
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                                 | OPEN_FLAGS, 0o666)
            try:
                opened: IO[Any] = (
                    open(descriptor, "wb", closefd=False) if mode == "wb"
                    else open(descriptor, "w", closefd=False, encoding="utf-8")
                )
                with opened as stream:
                    yield stream
            finally:
                os.close(descriptor)
        except OSError as error:
            if isinstance(error, FileAccessError):
                raise
            raise access_error(error, path, "write") from None


@contextlib.contextmanager
def _descriptor_stream(descriptor: int, path: str, mode: Literal["wb", "w"]
                       ) -> Iterator[IO[Any]]:
    """A stream on ``descriptor`` (named ``path``), flushed at the end and left open: the
    interpreter's own for standard output and standard error (what it prints stays in
    order), a stream that does not own the descriptor for another."""
    name = {1: "standard output", 2: "standard error"}.get(descriptor, path)
    refuse_read(path, _status(descriptor))
    standard = {1: sys.stdout, 2: sys.stderr}.get(descriptor)
    stream: IO[Any]
    if standard is not None:
        stream = standard.buffer if mode == "wb" else standard
    else:
        try:
            stream = open(descriptor, mode, closefd=False,
                          encoding=None if mode == "wb" else "utf-8")
        except (OSError, OverflowError, ValueError) as error:
            raise access_error(error if isinstance(error, OSError) else
                               OSError(errno_codes.EBADF, "bad descriptor"), path, "write"
                               ) from None
    try:
        yield stream
        try:
            stream.flush()
        except OSError as error:
            raise access_error(error, name, "write") from None
    finally:
        if standard is None:
            with contextlib.suppress(OSError):
                stream.close()  # the descriptor stays open (closefd=False)


def write_output(path: PathLike, data: bytes | str, *, force: bool = False) -> None:
    """Write ``data`` (all of it) to ``path`` atomically (``-``: standard output)."""
    mode: Literal["wb", "w"] = "wb" if isinstance(data, bytes) else "w"
    with atomic_output(path, mode, force=force) as stream:
        stream.write(data)
