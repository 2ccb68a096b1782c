"""The files one call has read: no output of the call is renamed onto one of them.

The backstop of rule 4 of ``docs/errors.md`` (an input is never replaced, whatever
``--force`` says). The rule is kept by the declarations first: every path a command
names is declared with its role in its parameter's domain, and one check refuses, before
any work, an output that is, or resolves to, an input
(:func:`irscale.cli.outputs.check_outputs`; in Python the functions that write check
their own inputs). This module keeps it where a declaration is missing or wrong: the
readers note every regular file they open (:func:`note`, called by
:func:`irscale.io.files.check_readable` and :func:`~irscale.io.files.read_file`, which
every reader, and every path handed to the native engine, goes through), by device and
inode, so that a hard link, a symbolic link and any spelling of it are that file; the one
writer of finished outputs (:func:`irscale.io.files.atomic_path`, behind
:func:`~irscale.io.files.atomic_output`) refuses to rename onto a file noted
(:func:`was_read`), and the writer of a descriptor to write on one. A refusal there comes
after the work, but no input is lost.

Files are noted during a call only (:func:`call`): one command of the command line
(:func:`irscale.cli.main.main`), one call of a public function (:mod:`irscale.core.edge`).
A Python session that reads a file in one call and writes it in a later one is not
refused: the rule is about one call's inputs and outputs. Calls nest (a public function
that calls another is one call), and threads share the record: what the worker threads
of a call read is noted for it; two calls running at once in two threads each see the
other's files too, which can only refuse more, never lose a file. Worker processes (a
Dask cluster) note nothing here: the declared check covers them. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator

#: One item per running call (nested calls and calls of other threads included): a list's
#: ``append`` and ``pop``, and a set's ``add``, are atomic, so no lock is taken on the way
#: into every public function.
_CALLS: list[None] = []
#: The (device, inode) of every regular file read by the running calls.
_READ: set[tuple[int, int]] = set()


@contextlib.contextmanager
def call() -> Iterator[None]:
    """The scope of one call: the files read inside are noted until the outermost call
    ends."""
    enter()
    try:
        yield
    finally:
        leave()


def enter() -> None:
    """A call starts (:func:`call`, for a wrapper that cannot use a ``with`` block)."""
    _CALLS.append(None)


def leave() -> None:
    """A call ends: the files are forgotten when no call runs any more."""
    _CALLS.pop()
    if not _CALLS:
        _READ.clear()


def note(info: os.stat_result) -> None:
    """Note the file whose status is ``info`` as read by the running call (a regular file;
    pipes, devices and standard input are read once and cannot be replaced)."""
    if _CALLS and stat.S_ISREG(info.st_mode):
        _READ.add((info.st_dev, info.st_ino))


def was_read(info: os.stat_result) -> bool:
    """Whether the file whose status is ``info`` was read by the running call."""
    return bool(_READ) and (info.st_dev, info.st_ino) in _READ
