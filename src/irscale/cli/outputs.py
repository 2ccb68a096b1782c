"""The files of a call checked before any work (``docs/errors.md``, rule 4).

Every option that names a file is declared an input (:func:`declare_inputs`) or an output
(:func:`declare_outputs`); ``tests/test_cli_file_options.py`` fails on one that is
neither. :func:`check_outputs` then checks every output of the call: it is none of the
call's inputs under any name, an existing file is replaced only with ``--force``, its
folder exists and is writable, and no two outputs name one path. Outputs are written to a
temporary file renamed into place when complete.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Collection, Iterator
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from ..errors import FileAccessError, ParameterError
from ..io.files import atomic_output, check_output, is_stdio, output_target
from ..io.sources import (
    CallInputs,
    InputFile,
    check_folder_inputs,
    check_not_input,
    input_files,
)

#: Formats a plot can be saved in (from the file's extension).
PLOT_FORMATS = ("png", "svg", "pdf")

#: The attribute of an argparse action that holds its :class:`FileRole`.
FILE_ROLE = "irscale_file_role"

OutputKind = Literal["file", "plot", "folder"]


@dataclass(frozen=True)
class FileRole:
    """What the value of an option or argument is to the files of the call: an input
    (``kind="input"``; ``path`` gives the file a value names, ``None`` for a value that
    names none), or an output ``"file"``, ``"plot"`` (a file whose name ends in a plot
    format) or ``"folder"``."""

    kind: Literal["input"] | OutputKind
    path: Callable[[str], str | None] | None = None


def declare_inputs(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *names: str,
                   keywords: Collection[str] = (),
                   path: Callable[[str], str | None] | None = None) -> None:
    """Declare the arguments ``names`` of ``parser`` (option strings, or the names of
    positional arguments) inputs: their values name files the call reads, a folder or a
    glob pattern standing for its files. ``keywords``: values that name no file
    (``--clicks perfect``); ``path``: the file a value names (:func:`label_file`)."""
    def named(value: str) -> str | None:
        """The file ``value`` names, or None for a keyword."""
        if value in keywords:
            return None
        return value if path is None else path(value)

    for action in _actions(parser, names):
        setattr(action, FILE_ROLE, FileRole("input", named))


def declare_outputs(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *names: str,
                    kind: OutputKind = "file") -> None:
    """Declare the arguments ``names`` of ``parser`` outputs: each names a ``"file"``, a
    ``"plot"`` or a ``"folder"`` the call writes."""
    for action in _actions(parser, names):
        setattr(action, FILE_ROLE, FileRole(kind))


def _actions(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
             names: tuple[str, ...]) -> list[argparse.Action]:
    """The actions of ``parser`` that ``names`` name (an option string or the name of a
    positional argument); a name that names none is a bug (raised as ``ValueError``)."""
    found = []
    for name in names:
        action = parser._option_string_actions.get(name) or next(
            (a for a in parser._actions if not a.option_strings and a.dest == name), None)
        if action is None:
            raise ValueError(f"{parser} has no argument {name!r}")
        found.append(action)
    return found


def label_file(spec: str) -> str:
    """The file of a ``NAME=FILE`` value (``--labels under=task2.qunder``)."""
    return spec.partition("=")[2]


def file_role(action: argparse.Action) -> FileRole | None:
    """The :class:`FileRole` of ``action``."""
    return getattr(action, FILE_ROLE, None)


def command_parsers(parser: argparse.ArgumentParser,
                    args: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """The parsers of the command line ``args``: ``parser``, then the sub-parser of each
    (sub)command it names."""
    chain = [parser]
    while True:
        sub = next((action for action in chain[-1]._actions
                    if isinstance(action, argparse._SubParsersAction)), None)
        name = None if sub is None else getattr(args, sub.dest, None)
        if sub is None or name not in sub.choices:
            return chain
        chain.append(sub.choices[name])


def _label(action: argparse.Action) -> str:
    """An option as messages name it (``-o``, ``--per-topic-out``); a positional: ``""``."""
    strings = list(getattr(action, "target", action).option_strings)
    if not strings:
        return ""
    return "-o" if "-o" in strings else max(strings, key=len)


@dataclass(frozen=True)
class CallFiles:
    """The files a command line names: ``inputs`` (path, option) as given, before folders
    and patterns are expanded; ``outputs`` (option, path, kind)."""

    inputs: list[tuple[str, str]]
    outputs: list[tuple[str, str, OutputKind]]

    def input_files(self) -> Iterator[InputFile]:
        """The files the call reads: a folder or a glob pattern gives its files, as the
        commands expand them (:func:`irscale.io.sources.input_files`)."""
        for path, option in self.inputs:
            yield from input_files(path, option)


def call_files(args: argparse.Namespace, parser: argparse.ArgumentParser) -> CallFiles:
    """The inputs and outputs the options of ``args`` name (:func:`declare_inputs`,
    :func:`declare_outputs`) in the parsers of its command (:func:`command_parsers`)."""
    inputs: list[tuple[str, str]] = []
    outputs: list[tuple[str, str, OutputKind]] = []
    seen: set[str] = set()
    for command in command_parsers(parser, args):
        for action in command._actions:
            role = file_role(action)
            if role is None or action.dest in seen:
                continue
            seen.add(action.dest)
            value = getattr(args, action.dest, None)
            values = [] if value is None else [value] if isinstance(value, str) \
                else list(value)
            label = _label(action)
            if role.kind == "input":
                named = (role.path(v) if role.path is not None else v for v in values)
                inputs.extend((path, label) for path in named if path)
            else:
                outputs.extend((label, path, role.kind) for path in values)
    return CallFiles(inputs, outputs)


def check_stdin_once(files: CallFiles) -> None:
    """Standard input (``-``) can stand for one input only."""
    if sum(is_stdio(path) for path, _ in files.inputs) > 1:
        raise ParameterError("standard input ('-') can be given as one input only")


def check_outputs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Check, before the work, every output a command will write (see the module doc).

    Called for every command by :func:`irscale.cli.main.main` with the parser of the
    command line. The outputs of one call must be distinct: no two of them may name the
    same path (a symbolic link counts as its target), and a file output may not lie in an
    output folder under a name the plots written there could take.
    """
    files = call_files(args, parser)
    check_stdin_once(files)
    outputs = [(option, path, kind) for option, path, kind in files.outputs
               if kind == "folder" or not is_stdio(path)]
    if not outputs:
        return
    inputs = CallInputs(files.input_files())
    force = getattr(args, "force", False)
    written: list[tuple[str, str]] = []
    for option, path, kind in outputs:
        if kind == "folder":
            continue
        if kind == "plot":
            check_plot_path(path, option)
        check_not_input(path, inputs, option=option)
        check_output(path, force=force, option=option)
        _check_distinct(option, path, written, "file")
        written.append((option, path))
    made: list[tuple[str, str]] = []
    for option, path, kind in outputs:
        if kind != "folder":
            continue
        check_output_folder(path, option)
        check_folder_inputs(path, inputs, option=option)
        _check_distinct(option, path, written + made, "path")
        made.append((option, path))
    for option, path in written:
        for folder_option, folder in made:
            if _inside(path, folder) and \
                    Path(path).suffix.lower().lstrip(".") in PLOT_FORMATS:
                raise ParameterError(
                    f"{option} {path} lies in {folder_option} {folder}, where the plots are "
                    f"written, and could take a plot's name: write it outside {folder}")


def _check_distinct(option: str, path: str, others: list[tuple[str, str]], what: str) -> None:
    """No two outputs of one call name one path (however spelt, or through a link)."""
    for other_option, other in others:
        if _real(path) == _real(other):
            raise ParameterError(f"{option} and {other_option} name the same {what} {path}: "
                                 f"give each output its own {'file' if what == 'file' else 'name'}")


def _real(path: str) -> str:
    """A path with every symbolic link resolved (to compare outputs)."""
    return os.path.realpath(path)


def _inside(path: str, folder: str) -> bool:
    """True when ``path`` lies in ``folder`` or one of its subfolders."""
    return Path(_real(path)).is_relative_to(_real(folder))


def check_plot_path(path: str, option: str) -> None:
    """A plot path must name a format matplotlib writes, and matplotlib must be there."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise ParameterError(f"{option} {path}: the file name must end in "
                             f"{', '.join('.' + f for f in PLOT_FORMATS)}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the installation
        raise ParameterError(f"{option} needs matplotlib: pip install 'irscale[plots]'") \
            from None


def check_output_folder(path: str, option: str) -> None:
    """An output folder is an existing writable folder, or can be created (a symbolic link:
    its target)."""
    if not path:
        raise ParameterError(f"{option} is empty: give a folder")
    folder = Path(output_target(path))
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"{option} {path}: not a folder", path=path)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise FileAccessError(f"{option} {path}: folder is not writable", path=path)
        return
    parent = folder.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise FileAccessError(f"{option} {path}: cannot create it (folder "
                              f"{os.fspath(parent)} does not exist or is not writable)",
                              path=path)


def write_text(args: argparse.Namespace, text: str) -> int:
    """Write a command's whole text output to ``-o`` (atomically) or standard output."""
    with atomic_output(args.output, "w", force=args.force) as stream:
        stream.write(text)
    return 0


def open_output(args: argparse.Namespace,
                mode: Literal["wb", "w"] = "wb") -> ContextManager[IO[Any]]:
    """The stream of a command's output: ``-o`` written atomically, or standard output."""
    return atomic_output(args.output, mode, force=args.force)
