"""The files of a call checked before any work (``docs/errors.md``, rule 4).

Every option that names a file is built from a parameter whose domain says its role
(:class:`~irscale.core.params.InputFiles`, :class:`~irscale.core.params.OutputPath`:
:func:`declare_paths`, called by :func:`irscale.cli.options.add_param`;
``tests/test_cli_file_options.py`` fails on one that has none). :func:`check_outputs` then
checks every output: none of the call's inputs under any name, an existing file replaced
only with ``--force``, its folder writable, no two outputs one path. Outputs are written to
a temporary file renamed into place when complete; a standard stream (``-``,
``/dev/stdout``, ``/dev/fd/N``) is written as it is.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager as ContextManager

from ..core.params import InputFiles, OutputKind, OutputPath, PathDomain
from ..core.records import record
from ..errors import ParameterError
from ..io.files import atomic_output, check_output, is_stdio
from ..io.sources import (
    CallInputs,
    InputFile,
    check_folder_inputs,
    check_not_input,
    input_files,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import IO, Any, Literal

#: Formats a plot can be saved in (from the file's extension).
PLOT_FORMATS = ("png", "svg", "pdf")

#: The attribute of an argparse action that holds the path domain of its parameter.
PATHS = "irscale_paths"


#: The kinds of outputs that are folders (a ``"cache"``: written where it can be, read where
#: it cannot).
FOLDERS = ("folder", "cache")


def declare_paths(action: argparse.Action, domain: object) -> None:
    """Give ``action`` the file role of ``domain``, the domain of the parameter it was built
    from (:func:`irscale.cli.options.add_param`): an input (:class:`~irscale.core.params.
    InputFiles`), an output (:class:`~irscale.core.params.OutputPath`), or none."""
    if isinstance(domain, (InputFiles, OutputPath)):
        setattr(action, PATHS, domain)


def file_role(action: argparse.Action) -> PathDomain | None:
    """The path domain of ``action`` (its role: ``.kind`` is ``"input"``, or the kind of
    output), None for an argument that names no file."""
    return getattr(action, PATHS, None)


def command_parsers(parser: argparse.ArgumentParser,
                    args: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """``parser``, then the sub-parser of each (sub)command ``args`` names."""
    chain = [parser]
    while True:
        sub = next((action for action in chain[-1]._actions
                    if isinstance(action, argparse._SubParsersAction)), None)
        name = None if sub is None else getattr(args, sub.dest, None)
        if sub is None or name not in sub.choices:
            return chain
        chain.append(sub.choices[name])


@record
class CallFiles:
    """The files a command line names, as given: ``inputs`` (path, option), ``outputs``
    (option, path, kind); an option as messages name it (``-o``, its longest spelling)."""

    inputs: list[tuple[str, str]]
    outputs: list[tuple[str, str, OutputKind]]

    def input_files(self) -> Iterator[InputFile]:
        """The files the call reads (folders and patterns expanded as commands do)."""
        for path, option in self.inputs:
            yield from input_files(path, option)


def call_files(args: argparse.Namespace, parser: argparse.ArgumentParser) -> CallFiles:
    """The inputs and outputs the options of ``args`` name, in its command's parsers."""
    files = CallFiles([], [])
    seen: set[str] = set()
    for command in command_parsers(parser, args):
        for action in command._actions:
            role = file_role(action)
            if role is None or action.dest in seen:
                continue
            seen.add(action.dest)
            value = getattr(args, action.dest, None)
            values = [] if value is None else [value] if isinstance(value, str) else value
            strings = list(getattr(action, "target", action).option_strings)
            label = "-o" if "-o" in strings else max(strings, key=len, default="")
            if isinstance(role, InputFiles):
                files.inputs.extend((path, label) for value in values
                                    for path in role.paths(value))
            else:
                files.outputs.extend((label, path, role.kind) for path in values)
    return files


def check_outputs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Check every output of the command line (module documentation), before the work:
    standard input stands for one input only, no two outputs name one path (a link counts
    as its target), and no file output lies in an output folder under a plot's name."""
    files = call_files(args, parser)
    if sum(is_stdio(path) for path, _ in files.inputs) > 1:
        raise ParameterError("standard input ('-') can be given as one input only")
    outputs = [(option, path, kind) for option, path, kind in files.outputs
               if kind in FOLDERS or not is_stdio(path)]
    if not outputs:
        return
    inputs = CallInputs(files.input_files())
    written: list[tuple[str, str]] = []
    made: list[tuple[str, str]] = []
    for option, path, kind in sorted(outputs, key=lambda output: output[2] in FOLDERS):
        if kind in FOLDERS:
            from ..io.folders import check_output_folder

            check_folder_inputs(path, inputs, option=option)
            check_output_folder(path, option, read_only=kind == "cache")
        else:
            check_not_input(path, inputs, option=option)  # first: an input, whatever its name
            if kind == "plot":
                check_plot_path(path, option)
            check_output(path, force=getattr(args, "force", False), option=option)
        for other_option, other in written + made:
            if os.path.realpath(path) == os.path.realpath(other):
                what = "path" if kind in FOLDERS else "file"
                raise ParameterError(f"{option} and {other_option} name the same {what} "
                                     f"{path}: give each output its own "
                                     f"{'name' if kind in FOLDERS else 'file'}")
        (made if kind in FOLDERS else written).append((option, path))
    for option, path in written:
        for folder_option, folder in made:
            if inside_folder(path, folder) and \
                    _extension(path) in PLOT_FORMATS:
                raise ParameterError(
                    f"{option} {path} lies in {folder_option} {folder}, where the plots are "
                    f"written, and could take a plot's name: write it outside {folder}")


def check_plot_path(path: str, option: str) -> None:
    """A plot path must name a format matplotlib writes."""
    if _extension(path) not in PLOT_FORMATS:
        raise ParameterError(f"{option} {path}: the file name must end in "
                             f"{', '.join('.' + f for f in PLOT_FORMATS)}")


def write_text(args: argparse.Namespace, text: str, path: str | None = None) -> int:
    """Write a command's whole text output to ``-o`` (or ``path``, another output),
    atomically, or to standard output."""
    with atomic_output(args.output if path is None else path, "w", force=args.force) as stream:
        stream.write(text)
    return 0


def open_output(args: argparse.Namespace,
                mode: Literal["wb", "w"] = "wb") -> ContextManager[IO[Any]]:
    """The stream of a command's output: ``-o`` written atomically, or standard output."""
    return atomic_output(args.output, mode, force=args.force)


def write_done(args: argparse.Namespace, done: Any) -> int:
    """What a command's run returned, ``done``: its exit status, or the text to write to
    ``-o``, or a result written in ``--format`` (its ``format(fmt)``)."""
    if isinstance(done, int):
        return done
    return write_text(args, done if isinstance(done, str) else done.format(args.fmt) + "\n")


def write_table(args: argparse.Namespace, result: Any, **options: Any) -> int:
    """Write a command's table to ``-o`` as :func:`write_text`: ``result`` (a result with
    ``format``, or a data frame) in ``--format`` with ``--digits`` (and ``options``), one
    final newline."""
    if hasattr(result, "columns"):  # a data frame
        from ..stats.protocol import format_table

        text = format_table(result, args.fmt, digits=args.digits)
    else:
        text = result.format(args.fmt, digits=args.digits, **options)
    return write_text(args, text.rstrip("\n") + "\n")


def lines_text(lines: Iterable[str]) -> str:
    """``lines`` as a text output writes them, each ended by a newline."""
    return "".join(line + "\n" for line in lines)


def inside_folder(path: str, folder: str) -> bool:
    """Whether ``path`` lies in ``folder`` (links resolved)."""
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _extension(path: str) -> str:
    """The extension of ``path``'s name, lowercase, without its dot (``png``)."""
    return os.path.splitext(os.path.basename(path))[1].lower().lstrip(".")
