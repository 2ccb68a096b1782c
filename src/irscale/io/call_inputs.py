"""An output is never an input: the files a call reads (:class:`InputFile`,
:class:`CallInputs`, built by :func:`irscale.io.sources.call_inputs`) compared with its
outputs by resolved path and inode (:func:`check_not_input`, :func:`check_folder_inputs`;
``docs/errors.md``, rule 4); run files named twice refused (:func:`check_distinct`), and a
folder or glob pattern told from a file (:func:`expands`), and ranx's JSON from TREC text
(:func:`is_ranx_json`), without the readers (:mod:`irscale.io.sources`, which re-exports
both): the command line of trec_eval's measures checks its runs so and hands the files to
the engine."""

from __future__ import annotations

import os

from ..core.records import record
from ..errors import OutputExistsError, ParameterError
from .files import PathLike, is_stdio, link_note, output_target

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable
    from typing import Any


def file_identity(path: PathLike) -> tuple[int, int] | str:
    """What makes two names one file: the device and inode (``st_dev``, ``st_ino``) of the
    file ``path`` names, symbolic links followed, so that a hard link, a symbolic link and
    another spelling (``./a``) of a file are that file; the resolved path of a path that
    names no file (yet)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return os.path.realpath(path)
    return (info.st_dev, info.st_ino)


def same_file_note(path: PathLike, other: PathLike) -> str:
    """``", the same file under another name"`` when two names of one file resolve to
    different paths (hard links), else nothing (one spelling, ``./a`` and ``a``, a symbolic
    link and its target)."""
    if os.path.realpath(path) == os.path.realpath(other):
        return ""
    return ", the same file under another name"


def check_distinct(files: Iterable[str]) -> None:
    """Refuse a run file named twice, under one name or two (a symbolic or hard link,
    ``./a`` and ``a``: :func:`file_identity`)."""
    seen: dict[object, str] = {}
    for path in files:
        key = file_identity(path)
        if key in seen:
            raise ParameterError(f"run file {path} is given twice (also as {seen[key]}"
                                 f"{same_file_note(path, seen[key])})")
        seen[key] = path


#: Characters of a glob pattern.
_GLOB_CHARACTERS = frozenset("*?[")


def expands(source: str | os.PathLike[str]) -> bool:
    """Whether ``source`` names several run files: a folder, or a glob pattern that is not
    itself the name of a file (a file named ``a[1].run`` is that file)."""
    text = os.fspath(source)
    if not isinstance(text, str) or not text:
        return False
    return os.path.isdir(text) or (not os.path.lexists(text) and bool(_GLOB_CHARACTERS & set(text)))


@record
class InputFile:
    """One file a call reads: its ``path``, and how the call named it: ``how``, for
    messages (the option, the folder or glob pattern it was found through), or nothing."""

    path: str
    how: str = ""

    def named_as(self, name: str | None = None) -> str:
        """This input in a message; ``name``: the output found to be this input."""
        if self.path == name and not self.how:
            return "one of the inputs"
        how = f" ({self.how})" if self.how else ""
        note = "" if name is None else same_file_note(name, self.path)
        return f"the input {self.path}{how}{note}"


class CallInputs:
    """The files one call reads, to compare with every file and folder it writes, by
    resolved path and by inode (:func:`file_identity`): an output is never an input, under
    any name (``docs/errors.md``, rule 4). ``-`` (standard input), objects that are no path
    and paths that name nothing (a run's name given where a file may be) are left out; the
    paths are resolved once, on the first question."""

    def __init__(self, files: Iterable[Any] = ()) -> None:
        self.files = [file if isinstance(file, InputFile) else InputFile(os.fspath(file))
                      for file in files
                      if isinstance(file, InputFile) or (isinstance(file, (str, os.PathLike))
                                                         and not is_stdio(file))]
        self._index: tuple[dict[str, InputFile], dict[tuple[int, int], InputFile]] | None \
            = None

    def _indexed(self) -> tuple[dict[str, InputFile], dict[tuple[int, int], InputFile]]:
        if self._index is None:
            by_path: dict[str, InputFile] = {}
            by_inode: dict[tuple[int, int], InputFile] = {}
            for file in self.files:
                identity = file_identity(file.path)
                if isinstance(identity, tuple):
                    by_inode.setdefault(identity, file)
                    by_path.setdefault(os.path.realpath(file.path), file)
                elif os.path.lexists(file.path):  # a dangling symbolic link: its target
                    by_path.setdefault(identity, file)
            self._index = by_path, by_inode
        return self._index

    def named_by(self, path: PathLike) -> InputFile | None:
        """The input that ``path`` names (symbolic links followed), or ``None``."""
        by_path, by_inode = self._indexed()
        found = by_path.get(os.path.realpath(path))
        if found is None:
            identity = file_identity(path)
            found = by_inode.get(identity) if isinstance(identity, tuple) else None
        return found

    def inside(self, folder: PathLike) -> InputFile | None:
        """An input that is ``folder``, lies in it or below (resolved paths), or that a
        file of the folder is (a hard or symbolic link to it); ``None`` when there is none.
        """
        by_path, by_inode = self._indexed()
        real = os.path.realpath(folder)
        prefix = real.rstrip(os.sep) + os.sep
        for resolved, file in by_path.items():
            if resolved == real or resolved.startswith(prefix):
                return file
        if not by_inode or not os.path.isdir(folder):
            return None
        try:
            with os.scandir(os.fspath(folder)) as entries:
                names = [entry.path for entry in entries]
        except OSError:
            return None
        for name in names:
            identity = file_identity(name)
            if isinstance(identity, tuple) and identity in by_inode:
                return by_inode[identity]
        return None


def check_not_input(path: PathLike, inputs: Iterable[Any] | CallInputs, *,
                    option: str = "-o") -> None:
    """Refuse an output ``path`` that is one of ``inputs`` under any name
    (:meth:`CallInputs.named_by`; a symbolic link stands for the file it points to),
    whatever ``force`` says: :class:`OutputExistsError`. ``-`` is no file."""
    if is_stdio(path):
        return
    name = os.fspath(path)
    resolved = output_target(path)
    known = inputs if isinstance(inputs, CallInputs) else CallInputs(inputs)
    found = known.named_by(resolved)
    if found is not None:
        raise OutputExistsError(
            f"{option} {name}{link_note(path, resolved)} is {found.named_as(name)}: refusing "
            "to overwrite it (an input is never replaced, even with --force)", path=name)


def check_folder_inputs(folder: PathLike, inputs: Iterable[Any] | CallInputs, *,
                        option: str) -> None:
    """Refuse an output ``folder`` that is one of ``inputs`` or holds one, under any name
    (:meth:`CallInputs.inside`), whatever ``force`` says: :class:`OutputExistsError`."""
    known = inputs if isinstance(inputs, CallInputs) else CallInputs(inputs)
    found = known.inside(folder)
    if found is None:
        return
    name = os.fspath(folder)
    if os.path.realpath(found.path) == os.path.realpath(folder):
        raise OutputExistsError(f"{option} {name} is {found.named_as(name)}: refusing to "
                                "write into it (an input is never replaced, even with "
                                "--force)", path=name)
    raise OutputExistsError(f"{option} {name} holds {found.named_as()}: write to a folder "
                            "that holds no input (an input is never replaced, even with "
                            "--force)", path=name)


#: The endings of the name of a ranx JSON file.
RANX_JSON_SUFFIXES = (".json", ".json.gz")
#: How many bytes of a regular file :func:`is_ranx_json` looks at for its first brace.
_SNIFF = 4096


def ranx_json_name(path: str) -> bool:
    """Whether the file name ``path`` ends as ranx's JSON files do (``.json``,
    ``.json.gz``; any case)."""
    return path.lower().endswith(RANX_JSON_SUFFIXES)


def is_ranx_json(source: object) -> bool:
    """Whether ``source`` (a path or bytes) is read as ranx's JSON (module documentation):
    a name ending in ``.json`` or ``.json.gz``, or a first byte that is not white space
    ``{`` in bytes or in a regular file that is not gzip-compressed (a pipe is read once,
    by its reader: it is taken for TREC text unless its name says JSON; an unreadable file
    is not JSON: its reader says why)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _opens_object(bytes(source[:_SNIFF]))
    if not isinstance(source, (str, os.PathLike)):
        return False
    path = os.fspath(source)
    if isinstance(path, bytes) or path == "-":
        return False
    if ranx_json_name(path):
        return True
    if not os.path.isfile(path):
        return False
    from .files import read_file

    try:
        head = read_file(path, _SNIFF)
    except OSError:
        return False
    return _opens_object(head)


def _opens_object(head: bytes) -> bool:
    """Whether ``head``'s first byte that is not white space (after a UTF-8 byte order
    mark) is ``{``."""
    return head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"{")
