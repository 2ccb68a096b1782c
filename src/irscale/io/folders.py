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
def staged_folder(path: str, option: str) -> Iterator[str]:
    """A new hidden folder beside ``path`` (given to ``option``) to write files to.

    It is renamed to ``path`` when the ``with`` block ends without an exception (after the
    block has written and flushed standard output), and removed otherwise: a full device,
    a closed pipe or ^C leave neither ``path`` nor the staging folder behind. A ``path``
    that is a symbolic link stands for its target: the staging folder is made beside the
    target and renamed onto it, and the link stays a link.
    """
    from pathlib import Path

    folder = Path(output_target(path))
    staging = handle = None
    try:
        with interrupts_held():  # no ^C between making the folder and knowing its name
            try:
                staging, handle = make_staging(folder, folder=True)
            except OSError as error:
                raise access_error(error, path, "write") from None
        yield staging
        with interrupts_held():
            os.chmod(staging, 0o777 & ~current_umask())
            try:
                os.replace(staging, folder)
            except OSError as error:
                if folder.exists() and not _is_empty_folder(folder):
                    raise OutputExistsError(
                        f"{option} {path}: appeared or was filled while irscale was writing "
                        "the example files: refusing to replace it", path=path) from None
                raise access_error(error, path, "write") from None
    except BaseException:
        if staging is not None:
            with interrupts_held():
                shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if handle is not None:
            os.close(handle)
