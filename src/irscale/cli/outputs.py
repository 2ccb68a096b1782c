"""Output options shared by the subcommands: ``-o/--output``, ``--force`` and the checks
that run before any work (``docs/errors.md``, rule 4).

Every output path a command will write (``-o``, ``--csv``, ``--plot``, ``--plot-dir``,
``--qrels-out``) is checked when the command starts: it must not be one of the call's
inputs, must not exist unless ``--force``, its folder must exist and be writable, and no two
outputs of the call may name the same path. A symbolic link is checked as the file it points
to. The output itself is written to a temporary file and renamed into place only when
complete.
"""

from __future__ import annotations

import argparse
import os
from contextlib import AbstractContextManager as ContextManager
from pathlib import Path
from typing import IO, Any, Literal

from ..errors import FileAccessError, ParameterError
from ..io.files import atomic_output, check_output, is_stdio

#: Formats a plot can be saved in (from the file's extension).
PLOT_FORMATS = ("png", "svg", "pdf")

#: Attributes of a parsed command line that hold input paths.
_INPUT_ATTRIBUTES = ("qrels", "runs", "inputs", "scores", "contributors")


def add_output(parser: argparse.ArgumentParser, *, what: str = "output") -> None:
    """``-o/--output FILE`` (default standard output) and ``--force``."""
    parser.add_argument("-o", "--output", default="-", metavar="FILE",
                        help=f"write the {what} to FILE (default: standard output); an "
                        "existing file is never replaced without --force")
    add_force(parser)


def add_force(parser: argparse.ArgumentParser) -> None:
    """``--force``: replace existing output files (never an input of the same call)."""
    parser.add_argument("--force", action="store_true",
                        help="replace output files that exist already (inputs never are)")


def input_paths(args: argparse.Namespace) -> list[str]:
    """Every input file named on the command line (qrels, runs, score and label files)."""
    paths: list[str] = []
    for name in _INPUT_ATTRIBUTES:
        value = getattr(args, name, None)
        if value is None:
            continue
        paths.extend([value] if isinstance(value, str) else list(value))
    for spec in getattr(args, "labels", None) or []:
        paths.append(spec.partition("=")[2])
    return [p for p in paths if p]


def check_stdin_once(args: argparse.Namespace) -> None:
    """Standard input (``-``) can stand for one input only."""
    if sum(is_stdio(p) for p in input_paths(args)) > 1:
        raise ParameterError("standard input ('-') can be given as one input only")


def check_outputs(args: argparse.Namespace, *, plots: tuple[str, ...] = ("plot",),
                  files: tuple[str, ...] = ("output", "csv", "shard_scores"),
                  folders: tuple[str, ...] = ("plot_dir", "qrels_out")) -> None:
    """Check, before the work, every output a command will write (see the module doc).

    Called for every command by :func:`irscale.cli.main.main`. ``files`` and ``plots`` name
    the attributes that hold one output file each (``plots`` must end in a plot format),
    ``folders`` those that hold an output folder. The outputs of one call must be distinct:
    no two of them may name the same path (a symbolic link counts as its target), and a file
    output may not lie in an output folder under a name the plots written there could take.
    """
    check_stdin_once(args)
    inputs = input_paths(args)
    force = getattr(args, "force", False)
    written: list[tuple[str, str]] = []
    for name in files + plots:
        path = getattr(args, name, None)
        if path is None:
            continue
        option = "--" + name.replace("_", "-") if name != "output" else "-o"
        if name in plots:
            check_plot_path(path, option)
        check_output(path, inputs=inputs, force=force, option=option)
        if not is_stdio(path):
            for other_option, other in written:
                if _real(path) == _real(other):
                    raise ParameterError(f"{option} and {other_option} name the same file "
                                         f"{path}: give each output its own file")
            written.append((option, path))
    made: list[tuple[str, str]] = []
    for name in folders:
        path = getattr(args, name, None)
        if path is None:
            continue
        option = "--" + name.replace("_", "-")
        check_output_folder(path, option)
        for other_option, other in written + made:
            if _real(path) == _real(other):
                raise ParameterError(f"{option} and {other_option} name the same path "
                                     f"{path}: give each output its own name")
        made.append((option, path))
    for option, path in written:
        for folder_option, folder in made:
            if _inside(path, folder) and \
                    Path(path).suffix.lower().lstrip(".") in PLOT_FORMATS:
                raise ParameterError(
                    f"{option} {path} lies in {folder_option} {folder}, where the plots are "
                    f"written, and could take a plot's name: write it outside {folder}")


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
    """An output folder is an existing writable folder, or can be created."""
    if not path:
        raise ParameterError(f"{option} is empty: give a folder")
    folder = Path(path)
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
