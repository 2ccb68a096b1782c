"""The cache folder: entries read and written by key, and the warnings of an evaluation
recorded to be stored with it.

Every entry is the file ``<key>.entry`` of the folder (:mod:`irscale.cache.frames`). It is
written whole to a temporary file of the folder (``.<key>.<random>.tmp``) and renamed to
its name (``os.replace``, atomic on POSIX) once complete: a reader sees a complete entry or
none, and two processes writing one key both rename complete entries of the same
evaluation. An entry that cannot be trusted (another format, a wrong checksum, a truncated
file, another key) is reported in a warning and evaluated again; the new entry replaces it.
Nothing is written outside the folder, which is created when missing (its parent must
exist) when the first entry is written, and must hold none of the call's inputs.

A cache never turns a success into a failure: a folder that can be read but not written
(read-only, a full device) still serves its entries, and an entry that cannot be written
is not stored, with one warning per folder and process (:class:`CacheWriteWarning`); the
evaluation is returned as without a cache. An entry is read as any input is: only a
regular file is, opened without blocking (a FIFO planted under an entry's name, by anyone
who can write into a shared folder, would otherwise stop every reader of the cache) and
checked on the descriptor opened (no race between a check and the opening); a FIFO, a
folder, a socket or a device there, or an entry beyond the memory limit, is not used, with
a warning, and the evaluation is done again. The temporary files that a writer killed while
writing left behind are removed when an entry is next written, once older than
:data:`ORPHAN_AGE` (an hour).
"""

from __future__ import annotations

import _thread
import os
import time
import warnings
from contextlib import contextmanager

from ..errors import (
    CacheEntryWarning,
    CacheWriteWarning,
    FileAccessError,
    InputError,
    ParameterError,
    shorten,
)
from ..io.files import access_error, current_umask
from ..io.regular_files import NotRegularFile, read_regular
from .frames import BadEntry, Warned, warning_category, warning_name

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover  (typing: not for a hit, irscale.cache.requests)
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, TypeVar

    #: What an entry holds (an evaluation, a text).
    Held = TypeVar("Held")
    #: Reads an entry's bytes for a key and version: what it holds and its warnings
    #: (:func:`irscale.cache.entries.decode`, :func:`irscale.cache.frames.decode_text`).
    Decode = Callable[[bytes, str, str], tuple[Held, list[Warned]]]
    #: Writes what an entry holds and its warnings under a key and version.
    Encode = Callable[[str, str, Held, list[Warned]], bytes]

#: The suffix of an entry's file.
SUFFIX = ".entry"
#: The pattern of a temporary file of an entry being written (``.<key>.<random>.tmp``:
#: ``tempfile``'s 8 characters; compiled by :mod:`re` when a writer sweeps, not by a hit),
#: and the age (seconds) past which one is an orphan of a killed writer (no entry takes
#: that long to write) and is removed.
TEMPORARY = r"\.[0-9a-f]+\.[a-z0-9_]{8}\.tmp"
ORPHAN_AGE = 3600.0


class CacheDir:
    """The folder ``path`` of a results cache, checked when opened (module documentation):
    ``inputs``, the specs of the call's inputs (none may be the folder or lie in it)."""

    def __init__(self, path: str | os.PathLike[str], inputs: Iterable[Any],
                 *, option: str = "cache") -> None:
        from ..io.call_inputs import check_folder_inputs
        from ..io.folders import check_output_folder
        from ..io.sources import call_inputs

        name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        if not isinstance(name, str) or not name:
            raise ParameterError(f"{option} must name a folder, got {shorten(repr(path))}")
        self._open(name, option)
        check_folder_inputs(name, call_inputs(inputs), option=option)
        if os.path.lexists(name) and not os.path.isdir(name):
            raise FileAccessError(f"{option} {name}: not a folder", path=name)
        check_output_folder(name, option, read_only=True)  # read-only serves its entries

    @classmethod
    def read_only(cls, path: str, option: str = "cache") -> CacheDir:
        """The folder ``path`` opened to read entries (:meth:`get`) without its checks:
        reading writes nothing, and an entry is only ever written through a folder the
        constructor checked (the command line's replies, :mod:`irscale.cache.requests`,
        read before the inputs are known)."""
        folder = cls.__new__(cls)
        folder._open(path, option)
        return folder

    def _open(self, path: str, option: str) -> None:
        self.path = path
        self.option = option
        self._swept = False
        #: Keys whose entry is not a regular file (:meth:`get`): not replaced where a
        #: folder holds the name (:meth:`put`), the warning said so.
        self._not_files: set[str] = set()

    def _create(self) -> None:
        """The folder, created on the first entry written (nothing is written before)."""
        try:
            os.mkdir(self.path)
        except FileExistsError:
            pass

    def _sweep(self) -> None:
        """Remove, once, the temporary files older than :data:`ORPHAN_AGE` (a writer
        killed while writing an entry: SIGKILL, a power loss)."""
        if self._swept:
            return
        self._swept = True
        import re

        temporary = re.compile(TEMPORARY)
        now = time.time()
        with os.scandir(self.path) as entries:
            for entry in entries:
                if temporary.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    if now - entry.stat(follow_symlinks=False).st_mtime > ORPHAN_AGE:
                        _remove(entry.path)

    def _not_written(self, error: OSError, path: str) -> None:
        """Warn, once per folder and process, that an entry could not be written."""
        folder = os.path.realpath(self.path)
        with _WARNED_LOCK:
            if folder in _WARNED:
                return
            _WARNED.add(folder)
        reason = access_error(error, path, "write")
        warnings.warn(f"{self.option} {self.path}: {reason}: results are not cached",
                      CacheWriteWarning, stacklevel=4)

    def _entry(self, key: str) -> str:
        return os.path.join(self.path, key + SUFFIX)

    def get(self, key: str, version: str, decode: Decode[Held]
            ) -> tuple[Held, list[Warned]] | None:
        """The entry of ``key`` read by ``decode``, or ``None`` when there is none or it
        cannot be trusted (a warning says so: the evaluation is done again)."""
        try:
            data = self._read(key)
            if data is None:
                return None
            held, warned = decode(data, key, version)
            for category, _ in warned:
                warning_category(category)
        except BadEntry as error:
            warnings.warn(f"{self.option} {self.path}: entry {key}{SUFFIX} is not used "
                          f"({error}): evaluating again", CacheEntryWarning, stacklevel=3)
            return None
        return held, warned

    def _read(self, key: str) -> bytes | None:
        """The bytes of the entry of ``key``, ``None`` when there is none; :class:`BadEntry`
        for one that is not a regular file (opened without blocking, and checked on the
        descriptor opened: a FIFO, a folder, a device; a socket cannot be opened), that
        cannot be read (permission denied) or that is beyond the memory limit."""
        try:
            return read_regular(self._entry(key))
        except NotRegularFile as error:
            self._not_files.add(key)
            raise BadEntry(f"not a regular file: {error.kind}") from None
        except InputError as error:  # beyond the memory limit
            raise BadEntry(error.reason) from None
        except FileAccessError as error:
            raise BadEntry(str(error)) from None

    def put(self, key: str, version: str, held: Held, warned: list[Warned],
            encode: Encode[Held]) -> None:
        """Store ``held`` (written by ``encode``) and its warnings under ``key`` (module
        documentation); what an entry cannot hold is not stored."""
        try:
            data = encode(key, version, held, warned)
        except BadEntry:
            return
        import tempfile  # (a write only: 8 ms of a hit's start-up otherwise)

        try:
            self._create()
            self._sweep()
            handle, temporary = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp",
                                                 dir=self.path)
        except OSError as error:
            self._not_written(error, self.path)
            return
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temporary, 0o666 & ~current_umask())  # as any file written
            os.replace(temporary, self._entry(key))
        except OSError as error:
            _remove(temporary)
            if key not in self._not_files:  # a folder under its name: said by get()
                self._not_written(error, self._entry(key))
        except BaseException:
            _remove(temporary)
            raise


#: The folders (real paths) whose write failure was reported (:meth:`CacheDir.put`).
_WARNED: set[str] = set()
_WARNED_LOCK = _thread.allocate_lock()


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


#: Held while a :class:`Recorder` is installed: Python's warning filters and
#: ``showwarning`` are the process's, so one recorder is installed at a time (cached
#: evaluations in several threads record one after the other).
_INSTALLED = _thread.RLock()


class Recorder:
    """Records the warnings of evaluations, per thread, while :meth:`installed`: the
    warnings of a thread inside :meth:`recording` go to its list, every other warning of
    the process is kept to be shown when the recorder is removed (under the filters of
    the caller). The recorded warnings are stored with their entries and shown again
    by the caller (``(category, message)``). Every warning is recorded, whatever the
    filters (``always``): an entry holds every warning its evaluation emits, and a hit
    shows them under the filters of its own caller."""

    def __init__(self) -> None:
        import threading  # (a miss only: the locks above are threading's own)

        self._local = threading.local()
        self._pending: list[tuple[type[Warning], str]] = []
        self._lock = threading.Lock()

    @contextmanager
    def installed(self, stacklevel: int = 4) -> Iterator[Recorder]:
        """Record while in the block, then show the warnings kept (``stacklevel``: theirs,
        seen from here: 4 is the caller of the function that entered the block)."""
        try:
            with _INSTALLED, warnings.catch_warnings():
                warnings.simplefilter("always")
                warnings.showwarning = self._show
                yield self
        finally:
            for category, message in self._pending:
                warnings.warn(message, category, stacklevel=stacklevel)

    def _show(self, message: Warning | str, category: type[Warning], filename: str,
              lineno: int, file: Any = None, line: str | None = None) -> None:
        caught = getattr(self._local, "caught", None)
        if caught is not None:
            caught.append((category, str(message)))
            return
        with self._lock:
            self._pending.append((category, str(message)))

    @contextmanager
    def recording(self) -> Iterator[list[tuple[type[Warning], str]]]:
        """The warnings of this thread until the end of the block."""
        caught: list[tuple[type[Warning], str]] = []
        self._local.caught = caught
        try:
            yield caught
        finally:
            self._local.caught = None


def stored(caught: Iterable[tuple[type[Warning], str]]) -> list[Warned]:
    """Recorded warnings as an entry stores them."""
    return [(warning_name(category), message) for category, message in caught]


def shown(warned: Iterable[Warned]) -> list[tuple[type[Warning], str]]:
    """Stored warnings as they are shown again."""
    return [(warning_category(category), message) for category, message in warned]


__all__ = ["ORPHAN_AGE", "SUFFIX", "TEMPORARY", "CacheDir", "Recorder", "shown", "stored"]
