"""The files of a call checked before any work (``docs/errors.md``, rule 4), and the one
writer of what a command returns.

Every option that names a file is built from a parameter whose domain says its role
(:class:`~irscale.core.params.InputFiles`, :class:`~irscale.core.params.OutputPath`:
:func:`declare_paths`, called by :func:`irscale.cli.options.add_param`;
``tests/test_cli_file_options.py`` fails on one that has none). :func:`check_outputs` then
checks every output: none of the call's inputs under any name, an existing file replaced
only with ``--force``, its folder writable, no two outputs one path. Outputs are written to
a temporary file renamed into place when complete; a standard stream (``-``,
``/dev/stdout``, ``/dev/fd/N``) is written as it is.

A command does not write: its ``run(args)`` returns what it made (a text, a stream of
chunks, a result, a data frame, :class:`Output` objects for several files: a figure,
:func:`plot_output`; a folder, :class:`Folder`), and the command line
(:func:`irscale.cli.main.main`) hands it to :func:`write_outputs`, which writes every file
through :func:`irscale.io.files.atomic_output`, every folder through
:func:`irscale.io.folders.staged_folder` and every text through the guard on numbers
(:func:`irscale.core.numbers.check_text`: a ``nan`` or ``inf`` no computation declared
never leaves). ``tests/test_command_outputs_scan.py`` fails on a command module that
prints, opens a file, saves a figure or makes a folder itself, or hands a path of its
options to a library function that writes it.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections.abc import Iterable, Iterator

from ..core.records import record
from ..errors import ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Callable
    from typing import IO, Any, Literal

    from ..core.params import OutputKind, PathDomain
    from ..io.call_inputs import InputFile

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
    # the declarations' module, loaded with the parser built from them (a command line
    # parsed from the manifest's data, cli.eval_path, loads neither)
    from ..core.params import InputFiles, OutputPath

    if isinstance(domain, (InputFiles, OutputPath)):
        setattr(action, PATHS, domain)


def file_role(action: argparse.Action) -> PathDomain | None:
    """The path domain of ``action`` (its role: ``.kind`` is ``"input"``, or the kind of
    output), None for an argument that names no file."""
    return getattr(action, PATHS, None)


def command_parsers(parser: argparse.ArgumentParser,
                    args: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """``parser``, then the sub-parser of each (sub)command ``args`` names."""
    import argparse

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
        from ..io.sources import input_files  # the inputs read, where outputs are written

        for path, option in self.inputs:
            yield from input_files(path, option)


def call_files(args: argparse.Namespace, parser: argparse.ArgumentParser) -> CallFiles:
    """The inputs and outputs the options of ``args`` name, in its command's parsers."""
    from ..core.params import InputFiles

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
    from ..io.files import check_output, is_stdio

    files = call_files(args, parser)
    if sum(is_stdio(path) for path, _ in files.inputs) > 1:
        raise ParameterError("standard input ('-') can be given as one input only")
    outputs = [(option, path, kind) for option, path, kind in files.outputs
               if kind in FOLDERS or not is_stdio(path)]
    if not outputs:
        return
    from ..io.call_inputs import CallInputs, check_folder_inputs, check_not_input

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


#: What a command's ``run(args)`` returns (:func:`write_outputs`): an exit status, a text,
#: an iterator of chunks, a writing function, a result, a data frame, an :class:`Output` or
#: a list of them (the writer tells them apart; ``typing`` is not imported at start-up).
Done = object

#: What an output holds: its whole text (``str``, or UTF-8 ``bytes``), its chunks one after
#: the other (an iterator: a large output streamed, its memory a chunk's), a function
#: that writes it to the stream it is given (a writer of a library: ``frame.to_csv``, a
#: figure's :func:`plot_output`), or a :class:`Folder`.
Content = "str | bytes | Iterable[str | bytes] | Callable[[IO[Any]], object] | Folder"


@record
class Folder:
    """The content of an output that is a folder: ``fill(folder)`` makes its files in the
    new, empty ``folder`` it is given (a library's writer of a folder:
    ``collection.write(folder)``, ``evaluate_many(..., out=folder)``). The one writer
    builds it in a hidden staging folder beside the output path and renames it onto the
    path once every output of the call is complete (:func:`irscale.io.folders.
    staged_folder`): complete or not at all. A folder already holding files is refused,
    unless ``replace`` and ``--force`` (its command checked before the work that what it
    holds is an earlier output of its own); ``option`` names the output in messages."""

    fill: Callable[[str], object]
    option: str
    replace: bool = False


@record
class Output:
    """One output of a command, as its ``run(args)`` returns it: its ``content``
    (:data:`Content`), the ``path`` it goes to (None: ``-o``, else the path of another
    output option, ``-`` standard output), the ``mode`` of a function's stream (``"w"``
    text, ``"wb"`` bytes; None: from the content), whether it is ``binary`` data that is
    not text (Parquet, a figure: not read by the guard on text), and the output ``folder``
    it lies in (the value of an option of kind ``"folder"``, ``--plot-dir``): a folder
    that does not exist is made with the call's outputs, built whole beside its path and
    renamed once all are complete (:func:`irscale.io.folders.staged_folder`); one that
    exists is written into, file by file."""

    content: Any
    path: str | None = None
    mode: Literal["w", "wb"] | None = None
    binary: bool = False
    folder: str | None = None


def plot_output(figure: Any, path: str, dpi: int = 150, *,
                folder: str | None = None) -> Output:
    """The output of the figure ``figure`` (matplotlib's) at ``path`` (a ``--plot`` file,
    its format from its extension; in the output ``folder`` of :class:`Output`): written
    by the one writer, complete or not at all, in the irscale style
    (:func:`irscale.io.figures.figure_writer`)."""
    from ..io.figures import figure_writer

    return Output(figure_writer(figure, path, dpi), path, mode="wb", binary=True,
                  folder=folder)


def write_outputs(args: argparse.Namespace, done: Any) -> int:
    """Write what a command's ``run(args)`` returned, ``done``, through the one writer; the
    exit status. ``done`` is an exit status (or None: 0, nothing to write), a text
    (``str``, ``bytes``, an iterator of chunks, a writing function: written to ``-o``), a
    result written in ``--format`` (its ``format(fmt)``, one final newline), a data frame
    (:func:`table_text`), an :class:`Output` or a list of them (several files: each
    complete or none written, in order). Every file goes through
    :func:`irscale.io.files.atomic_output` (complete or not at all; an input is never
    replaced), every :class:`Folder` through :func:`irscale.io.folders.staged_folder`
    (renamed onto its path after the outputs that follow it are written), and text
    through the guard on numbers
    (:func:`irscale.core.numbers.check_text`), chunk by chunk as it is written."""
    if done is None or isinstance(done, int):
        return int(done or 0)
    outputs = list(done) if isinstance(done, (list, tuple)) else [done]
    outputs = [output if isinstance(output, Output) else Output(_content(args, output))
               for output in outputs]
    staged: dict[str, str] = {}  # an output folder made by the call: its staging folder
    with contextlib.ExitStack() as stack:
        for output in outputs:
            _write(stack, args, output, staged)
    return 0


def _content(args: argparse.Namespace, done: Any) -> Any:
    """What a command returned, as content: a result in ``--format``, a data frame as its
    table, anything else as it is."""
    if hasattr(done, "columns"):  # a data frame
        return table_text(args, done)
    if hasattr(done, "format") and not isinstance(done, (str, bytes)):
        return done.format(args.fmt) + "\n"
    return done


def _write(stack: contextlib.ExitStack, args: argparse.Namespace, output: Output,
           staged: dict[str, str]) -> None:
    """Write ``output`` (its file committed when ``stack`` closes without an error; an
    output folder the call makes, ``staged``, renamed then too)."""
    from ..io.files import atomic_output, is_stdio

    content = output.content
    # the text a command returns goes to its -o, or to standard output where it declares none
    path = getattr(args, "output", "-") if output.path is None else output.path
    force = getattr(args, "force", False)
    folder = output.folder
    if isinstance(content, Folder) or (folder is not None and not os.path.isdir(folder)):
        from ..io.folders import staged_folder  # (loaded for folders only)
    if isinstance(content, Folder):
        content.fill(stack.enter_context(staged_folder(
            path, content.option, replace=content.replace and force)))
        return
    target = path  # where it is written: in the staging folder of a folder made
    if folder is not None and not os.path.isdir(folder):
        if folder not in staged:
            staged[folder] = stack.enter_context(staged_folder(folder, "the output folder"))
        target = os.path.join(staged[folder], os.path.relpath(path, folder))
    chunks: Iterator[Any] | None = None
    mode = output.mode
    if isinstance(content, (str, bytes)):
        mode = "w" if isinstance(content, str) else "wb"
    elif not callable(content):  # an iterator of chunks: its first says the mode
        chunks = iter(content)
        first = next(chunks, b"")
        chunks = itertools.chain([first], chunks)
        mode = "w" if isinstance(first, str) else "wb"
    stream = stack.enter_context(atomic_output(target, mode or "wb", force=force))
    guarded = stream if output.binary else GuardedStream(
        stream, "standard output" if is_stdio(path) else os.fspath(path))
    if chunks is not None:
        try:
            for chunk in chunks:
                guarded.write(chunk)
                stream.flush()  # a chunk is out before the next is made (demo's folder)
        finally:  # a generator stopped by an error cleans up now, not when collected
            getattr(content, "close", lambda: None)()
    elif callable(content):
        content(guarded)
    else:
        guarded.write(content)


class GuardedStream:
    """A stream of the one writer whose every write passes the guard on text
    (:func:`irscale.core.numbers.check_text`) first, the lines written counted for its
    messages; anything else is the stream's (a library's writer can be given it)."""

    def __init__(self, stream: IO[Any], where: str) -> None:
        from ..core.numbers import check_text  # (not for --help)

        self._check = check_text
        self._stream = stream
        self._where = where
        self._lines = 0

    def write(self, data: Any) -> int:
        self._check(data, self._where, self._lines)
        self._lines += data.count(b"\n" if isinstance(data, bytes) else "\n")
        return self._stream.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Standard output, while a command runs, through the guard on text: what a command
    prints itself (it should return it instead: ``tests/test_command_outputs_scan.py``) is
    refused too when it holds a non-finite number no computation declared."""
    real = sys.stdout
    if real is None:  # no standard output (pythonw): nothing to guard
        yield
        return
    sys.stdout = GuardedStream(real, "standard output")
    try:
        yield
    finally:
        sys.stdout = real


def table_text(args: argparse.Namespace, result: Any, **options: Any) -> str:
    """A command's table: ``result`` (a result with ``format``, or a data frame) in
    ``--format`` with ``--digits`` (and ``options``), one final newline."""
    if hasattr(result, "columns"):  # a data frame
        from ..stats.protocol import format_table

        text = format_table(result, args.fmt, digits=args.digits)
    else:
        text = result.format(args.fmt, digits=args.digits, **options)
    return text.rstrip("\n") + "\n"


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
