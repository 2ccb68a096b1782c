"""Entry point of the ``irscale`` command.

Each subcommand lives in its own module of this package, which exposes
``add_parser(subparsers)``: it registers an ``argparse`` sub-parser and sets its ``func``
default to a function ``(args) -> int`` (the exit status).

Whatever a user can cause ends in one line on standard error and a nonzero exit status,
never a traceback (``docs/errors.md``):

* errors derived from :class:`irscale.errors.IrscaleError`, usage errors and files that
  cannot be read or written: ``irscale: <message>``, exit status 2;
* ^C: ``irscale: interrupted``, exit status 130 (outputs are written atomically, so none
  is left half-written);
* warnings: ``irscale: warning: <message>`` (never Python's ``file:line: Category``);
* anything else is a bug of irscale: ``irscale: internal error: ...`` with exit status 3
  (``IRSCALE_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn

from ..errors import IrscaleError, shorten

#: Subcommand modules, in the order ``irscale --help`` lists them.
SUBCOMMANDS = ("eval", "demo", "compare", "scale", "meta")

#: Exit status of bad input or options, of ^C, and of an internal error.
EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BUG = 2, 130, 3
#: Longest error line printed (a message quoting huge input is cut in the middle).
MESSAGE_LIMIT = 2000
#: Subcommands that do no linear algebra: their processes start numpy's BLAS with one
#: thread (see :func:`_main`).
NO_BLAS = ("eval",)


class UsageError(IrscaleError, ValueError):
    """A command line argparse cannot parse (unknown option, missing argument, bad value)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (one line, exit status 2)
    instead of argparse's usage text and ``SystemExit``."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("irscale").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} "
                         f"(see '{self.prog} --help')")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the ``irscale`` command line.

    Given the ``command`` a command line names, only that subcommand's parser is built (its
    module imported); the others are registered by name only, so that the choices and their
    errors stay the same while their modules are not loaded. Without one (``irscale
    --help``, or no or an unknown command), every subcommand is built.
    """
    from .. import __version__

    parser = Parser(
        prog="irscale",
        description="Offline IR evaluation: trec_eval-exact measures, interval scales, "
        "statistics and meta-evaluation.",
    )
    parser.add_argument("--version", action="version", version=f"irscale {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if command in SUBCOMMANDS and name != command:
            subparsers.add_parser(name)
        else:
            importlib.import_module(f".{name}", __package__).add_parser(subparsers)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand a command line names: its first argument that is not an option (the
    ``irscale`` command itself takes no option with a value)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"irscale: warning: {message}", file=sys.stderr)


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the interpreter's final flush of a
    broken pipe or a full device reports nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a descriptor
        pass


def main(argv: Sequence[str] | None = None) -> int:
    previous = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            return _main(argv)
    finally:
        warnings.showwarning = previous


def _main(argv: Sequence[str] | None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        command = _command(argv)
        if command in NO_BLAS and "numpy" not in sys.modules:
            # OpenBLAS starts a pool of threads (one per core, spinning a while) when numpy
            # is imported: about 0.04 s of CPU, and more wall time on a busy machine, for a
            # command that multiplies no matrices. Set before numpy is imported (a caller
            # that imported it keeps its setup); a value the user set is kept.
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        parser = build_parser(command)
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:
            parser.error(f"choose a command: {', '.join(SUBCOMMANDS)}")
        from .outputs import check_outputs

        check_outputs(args)
        status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except IrscaleError as error:
        return _fail(str(error), EXIT_USAGE)
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as error:
        from ..io.files import access_error

        if error.filename is None:  # standard output: a full device, a closed terminal
            _silence_stdout()
            return _fail(str(access_error(error, "standard output", "write")), EXIT_USAGE)
        return _fail(str(access_error(error, error.filename)), EXIT_USAGE)
    except MemoryError:
        return _fail("out of memory (the input is too large for this machine)", EXIT_USAGE)
    except Exception as error:
        if os.environ.get("IRSCALE_DEBUG"):
            raise
        return _fail(f"internal error: {type(error).__name__}: {error} (please report it; "
                     "IRSCALE_DEBUG=1 shows the traceback)", EXIT_BUG)


def _fail(message: str, status: int) -> int:
    line = " ".join(message.split("\n")) or "error"
    print(f"irscale: {shorten(line, MESSAGE_LIMIT)}", file=sys.stderr)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
