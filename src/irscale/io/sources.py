"""Which run files a folder, a glob pattern or a list of those names (``irscale eval``,
``irscale eval-many``, :func:`irscale.evaluate`, :func:`irscale.evaluate_many`)."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from typing import Any

from ..errors import EmptyInputError, ParameterError, shorten
from .files import access_error, file_identity, same_file_note

#: Characters of a glob pattern.
_GLOB_CHARACTERS = frozenset("*?[")


def expands(source: str | os.PathLike[str]) -> bool:
    """Whether ``source`` names several run files: a folder, or a glob pattern that is not
    itself the name of a file (a file named ``a[1].run`` is that file)."""
    text = os.fspath(source)
    if not isinstance(text, str) or not text:
        return False
    return os.path.isdir(text) or (not os.path.lexists(text) and bool(_GLOB_CHARACTERS & set(text)))


def source_files(source: str | os.PathLike[str]) -> list[str]:
    """The files one item of :func:`run_files` names, without its checks: a folder's files
    (not those whose name starts with a dot, not its subfolders) sorted by name, the files a
    glob pattern (:func:`expands`) matches sorted by path, otherwise ``source`` itself (also
    when it does not exist). An empty list when the folder or pattern holds no file.

    The outputs of a call are checked against these files before any work
    (:func:`irscale.cli.outputs.check_outputs`): the files a command reads, named as the
    command names them."""
    text = os.fspath(source)
    if not expands(text):
        return [text]
    if os.path.isdir(text):
        try:
            names = sorted(os.listdir(text))
        except OSError as error:
            raise access_error(error, text) from None
        return [os.path.join(text, name) for name in names if not name.startswith(".")
                and not os.path.isdir(os.path.join(text, name))]
    return sorted(path for path in glob.glob(text, recursive=True) if not os.path.isdir(path))


def run_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The run files ``sources`` names, in order: a folder gives its files (not those whose
    name starts with a dot, not its subfolders) sorted by name, a glob pattern
    (``runs/*.gz``, ``runs/**/*.run``) the files it matches sorted by path, a file itself;
    a list gives those of each item in its order (:func:`source_files`). A folder with no
    file, a pattern that matches none, a missing path or a file named twice (under one
    name or two: a symbolic or hard link, ``./a`` and ``a``, compared by resolved path and
    inode, :func:`~irscale.io.files.file_identity`) is an error."""
    if isinstance(sources, (str, os.PathLike)):
        items: list[Any] = [sources]
    elif isinstance(sources, Iterable) and not isinstance(sources, (bytes, bytearray)):
        items = list(sources)
    else:
        raise ParameterError(f"run files: expected a folder, a glob pattern, a file or a "
                             f"list of them, got {shorten(repr(sources))}")
    if not items:
        raise ParameterError("no run files given")
    files: list[str] = []
    for item in items:
        text = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
        if not isinstance(text, str) or not text:
            raise ParameterError(f"run files: expected a folder, a glob pattern or a file, "
                                 f"got {item!r}")
        found = source_files(text)
        if not found:
            raise EmptyInputError(f"folder {text} holds no run file" if os.path.isdir(text)
                                  else f"pattern {text} matches no run file")
        if found == [text] and not os.path.lexists(text):
            raise access_error(OSError(2, "no such file or directory"), text)
        files.extend(found)
    check_distinct(files)
    return files


def check_distinct(files: Iterable[str]) -> None:
    """Refuse a run file named twice, under one name or two (a symbolic or hard link,
    ``./a`` and ``a``: :func:`~irscale.io.files.file_identity`)."""
    seen: dict[object, str] = {}
    for path in files:
        key = file_identity(path)
        if key in seen:
            raise ParameterError(f"run file {path} is given twice (also as {seen[key]}"
                                 f"{same_file_note(path, seen[key])})")
        seen[key] = path
