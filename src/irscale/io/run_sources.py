"""Which run files a folder, a glob pattern or a list of those names (``irscale eval``,
``irscale eval-many``, :func:`irscale.evaluate`, :func:`irscale.evaluate_many`)."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable

from ..errors import EmptyInputError, ParameterError
from .files import access_error

#: Characters of a glob pattern.
_GLOB_CHARACTERS = frozenset("*?[")


def expands(source: str | os.PathLike[str]) -> bool:
    """Whether ``source`` names several run files: a folder, or a glob pattern that is not
    itself the name of a file (a file named ``a[1].run`` is that file)."""
    text = os.fspath(source)
    if not isinstance(text, str) or not text:
        return False
    return os.path.isdir(text) or (not os.path.lexists(text) and bool(_GLOB_CHARACTERS & set(text)))


def run_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The run files ``sources`` names, in order: a folder gives its files (not those whose
    name starts with a dot, not its subfolders) sorted by name, a glob pattern
    (``runs/*.gz``, ``runs/**/*.run``) the files it matches sorted by path, a file itself;
    a list gives those of each item in its order. A folder with no file, a pattern that
    matches none, a missing path or a file named twice is an error."""
    items = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    if not items:
        raise ParameterError("no run files given")
    files: list[str] = []
    for item in items:
        text = os.fspath(item)
        if not isinstance(text, str) or not text:
            raise ParameterError(f"run files: expected a folder, a glob pattern or a file, "
                                 f"got {item!r}")
        if os.path.isdir(text):
            try:
                names = sorted(os.listdir(text))
            except OSError as error:
                raise access_error(error, text) from None
            found = [os.path.join(text, name) for name in names if not name.startswith(".")
                     and not os.path.isdir(os.path.join(text, name))]
            if not found:
                raise EmptyInputError(f"folder {text} holds no run file")
        elif os.path.lexists(text):
            found = [text]
        elif _GLOB_CHARACTERS & set(text):
            found = sorted(path for path in glob.glob(text, recursive=True)
                           if not os.path.isdir(path))
            if not found:
                raise EmptyInputError(f"pattern {text} matches no run file")
        else:
            raise access_error(OSError(2, "no such file or directory"), text)
        files.extend(found)
    seen: dict[str, str] = {}
    for path in files:
        real = os.path.realpath(path)
        if real in seen:
            raise ParameterError(f"run file {path} is given twice (also as {seen[real]})")
        seen[real] = path
    return files
