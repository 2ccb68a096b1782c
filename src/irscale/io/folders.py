"""Output folders: a folder given as an output is checked (new or empty, or writable; a
cache's may be read-only) and written whole or not at all (:func:`staged_folder`: a hidden
staging folder beside it, renamed onto it once complete), with the staging and locking of
:mod:`irscale.io.files`' one writer."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator

from ..errors import FileAccessError, OutputExistsError, ParameterError
from .files import (
    access_error,
    current_umask,
    interrupts_held,
    make_staging,
    output_target,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path


def check_new_folder(path: str, option: str) -> None:
    """``path`` (given to ``option``) must be a new or empty folder, neither the current
    folder nor one above it: nothing is overwritten (its parent must exist and be writable:
    :func:`check_output` of the folder)."""
    from pathlib import Path

    folder = Path(output_target(path))  # a symbolic link stands for its target
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"{option} {path}: exists and is not a folder", path=path)
        if any(folder.iterdir()):
            raise OutputExistsError(f"{option} {path}: folder is not empty; refusing to write "
                                    "into it (choose a new folder)", path=path)
        here = Path.cwd().resolve()
        if folder.resolve() in (here, *here.parents):
            raise FileAccessError(f"{option} {path}: the current folder (or one above it) "
                                  "cannot be replaced (choose a new folder)", path=path)


def check_output_folder(path: str, option: str, *, read_only: bool = False) -> None:
    """An output folder given to ``option`` exists and is writable, or can be created (a
    symbolic link: its target); ``read_only``: an existing folder that cannot be written
    is taken too, if it can be read (a cache, which serves what it holds)."""
    from pathlib import Path

    if not path:
        raise ParameterError(f"{option} is empty: give a folder")
    folder = Path(output_target(path))
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"{option} {path}: not a folder", path=path)
        if read_only:
            if not os.access(folder, os.R_OK | os.X_OK):
                raise FileAccessError(f"{option} {path}: folder is not readable", path=path)
        elif not os.access(folder, os.W_OK | os.X_OK):
            raise FileAccessError(f"{option} {path}: folder is not writable", path=path)
        return
    parent = folder.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise FileAccessError(f"{option} {path}: cannot create it (folder "
                              f"{os.fspath(parent)} does not exist or is not writable)",
                              path=path)


def _is_empty_folder(folder: Path) -> bool:
    """Whether ``folder`` is a folder that holds nothing (False where it cannot be read)."""
    try:
        return folder.is_dir() and not any(folder.iterdir())
    except OSError:
        return False


@contextlib.contextmanager
def staged_folder(path: str, option: str, *, replace: bool = False) -> Iterator[str]:
    """A new empty folder to fill, made in a hidden staging folder beside ``path`` (given
    to ``option``): the folder an output folder is built in.

    When the ``with`` block ends without an exception it is renamed onto ``path``: a new
    path, or an empty folder; a folder holding files only with ``replace`` (an earlier
    output its command has checked, moved aside and removed once the new one has its
    name), refused otherwise. On an exception (a full device, a closed pipe, ^C) the
    staging folder and all it holds are removed: neither ``path`` nor a staging folder is
    left behind. The staging folder, locked while it lives, is what a sweep of orphans
    (:func:`~irscale.io.files.make_staging`) would remove after a kill; the folder is built
    inside it, so that a library's writer of a folder (which stages its own files beside
    the folder it is given) writes there too. A ``path`` that is a symbolic link stands
    for its target: the folder is renamed onto the target, and the link stays a link.
    """
    from pathlib import Path

    folder = Path(output_target(path))
    staging = handle = None
    try:
        with interrupts_held():  # no ^C between making the folder and knowing its name
            try:
                staging, handle = make_staging(folder, folder=True)
                built = os.path.join(staging, "new")
                os.mkdir(built)
            except OSError as error:
                raise access_error(error, path, "write") from None
        yield built
        with interrupts_held():
            os.chmod(built, 0o777 & ~current_umask())
            _commit(built, folder, path, option, replace, staging)
    finally:
        if staging is not None:
            with interrupts_held():
                shutil.rmtree(staging, ignore_errors=True)
        if handle is not None:
            os.close(handle)


def _commit(built: str, folder: Path, path: str, option: str, replace: bool,
            staging: str) -> None:
    """Rename the folder ``built`` onto ``folder`` (:func:`staged_folder`)."""
    try:
        os.replace(built, folder)  # a new path, or an empty folder
        return
    except OSError as error:
        if not folder.is_dir() or _is_empty_folder(folder):
            raise access_error(error, path, "write") from None
    if not replace:
        raise OutputExistsError(f"{option} {path}: appeared or was filled while irscale was "
                                "writing it: refusing to replace it", path=path)
    try:
        os.rename(folder, os.path.join(staging, "old"))  # removed with the staging folder
        os.rename(built, folder)
    except OSError as error:
        raise access_error(error, path, "write") from None
