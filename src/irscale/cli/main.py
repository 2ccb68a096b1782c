"""Entry point of the ``irscale`` command (usage: ``docs/cli.md``).

Each subcommand lives in its own module of this package, whose ``add_parser(subparsers)``
registers a sub-parser with a ``func`` default ``(args) -> int`` (the exit status).
Whatever a user can cause ends in one line on standard error, never a traceback
(``docs/errors.md``): ``irscale: <message>`` with status 2 for bad input, options and
files; ``irscale: interrupted`` (130) for ^C; ``irscale: terminated`` for SIGTERM (143)
and SIGHUP (129), which stop a command as ^C does, with the same clean-up;
``irscale: warning: <message>`` for warnings; ``irscale: internal error: ...`` (3) for a
bug (``IRSCALE_DEBUG=1`` shows the traceback). ^C may come at any moment, also while
modules are imported, so this module imports nothing but ``os`` and ``sys`` when it is
loaded: :class:`Parser` and :class:`UsageError`, whose bases come from argparse and
:mod:`irscale.errors`, are defined on first use, inside :func:`main`'s protected region.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

#: Subcommands, in the order ``irscale --help`` lists them (module: the name, with "_" for "-").
SUBCOMMANDS = ("eval", "session", "text", "demo", "compare", "scale", "meta", "pool",
               "labels", "online", "report", "eval-many", "eval-seeds", "measures", "fuse")

#: Exit status of bad input or options, of ^C, and of an internal error.
EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BUG = 2, 130, 3
#: Signals that stop a command as ^C does (what SLURM, Kubernetes and systemd send, and a
#: closed terminal), by name: the exit status is 128 + the signal's number, as a shell
#: reports a process the signal killed (SIGTERM 143, SIGHUP 129).
STOP_SIGNALS = ("SIGTERM", "SIGHUP")
#: Longest error line printed (a message quoting huge input is cut in the middle).
MESSAGE_LIMIT = 2000
#: Subcommands that do no linear algebra: their processes start numpy's BLAS with one
#: thread (see :func:`_main`).
NO_BLAS = ("eval",)

#: Key of the namespace entry in which :class:`Parser` notes the options it has stored
#: while it parses (removed before the namespace is returned; not a valid identifier, so
#: it cannot clash with an option's ``dest``).
_SEEN = "irscale: options given"
#: Attribute of the namespace that holds its :class:`Given` record.
GIVEN = "_given"
#: Names defined on first use by :func:`_define_classes`.
_LAZY = ("Parser", "UsageError")


def __getattr__(name: str):
    if name in _LAZY:
        return _lazy(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _lazy(name: str):
    """The class ``name`` of :data:`_LAZY` (defined on the first call)."""
    if name not in globals():
        _define_classes()
    return globals()[name]


class Given:
    """What :class:`Parser` records of a command line besides the values: the ``dest`` of
    every option given (its default tells nothing: an option may be given with its default
    value), the option of each Python parameter the command's options declare
    (``{"rng": "--seed"}``: the Python name an option declares, else its ``dest``), which
    names the option in the functions' errors (:func:`named`), and the spelling of the
    option of each ``dest`` (``{"samples": "-B/--samples"}``)."""

    def __init__(self) -> None:
        self.dests: set[str] = set()
        self.flags: dict[str, str] = {}
        self.spelt: dict[str, str] = {}


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the option stored in ``dest`` was given on the command line (a positional
    argument: with a value)."""
    record = getattr(args, GIVEN, None)
    return record is not None and dest in record.dests


def spelling(args: argparse.Namespace, dest: str) -> str:
    """How messages spell the option stored in ``dest`` (``-B/--samples``)."""
    record = getattr(args, GIVEN, None)
    return record.spelt.get(dest, dest) if record is not None else dest


def named(error: Exception, args: argparse.Namespace | None) -> Exception:
    """``error`` naming the option of its parameter: a
    :class:`~irscale.errors.ParameterError` of the functions about ``alpha``, whose message
    begins with it, begins with ``--alpha (alpha)`` instead, the option as the command's
    declarations spell it. Other errors are returned as they are."""
    param = getattr(error, "param", None)
    record = getattr(args, GIVEN, None)
    text = str(error)
    if param is None or record is None or param not in record.flags or \
            not text.startswith(param):
        return error
    from ..errors import ParameterError

    return ParameterError(f"{record.flags[param]} ({param}){text[len(param):]}")


#: A negative number, or a comma-separated list of numbers whose first is negative: what
#: :class:`Parser` reads as a value rather than an option (``--effects -0.1,0``).
_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NEGATIVE_NUMBERS_TEXT = rf"^-{_NUMBER}(?:,\s*[-+]?{_NUMBER})*$"


def _define_classes() -> None:
    """Define :class:`UsageError`, :class:`Parser` and its ``store`` action, whose bases
    come from argparse and :mod:`irscale.errors` (imported here, inside :func:`main`)."""
    import argparse
    import re

    from ..errors import IrscaleError

    negative_numbers = re.compile(_NEGATIVE_NUMBERS_TEXT)

    class UsageError(IrscaleError, ValueError):
        """A command line argparse cannot parse (unknown option, missing argument, bad
        value, an option given twice)."""

    class StoreOnce(argparse._StoreAction):
        """argparse's ``store`` action, refusing an option given twice: an option that
        holds one value would otherwise keep the last one silently (``-M 10 -M 20``).
        Options with ``action="append"`` (``-m``) stay repeatable."""

        def __call__(self, parser, namespace, values, option_string=None):
            seen = vars(namespace).setdefault(_SEEN, {})
            if option_string is None:  # positionals are stored once by argparse
                if values:
                    seen[self] = None
            elif self in seen:
                first = seen[self]
                spelt = "" if first == option_string else f" (first as {first})"
                parser.error(f"option {option_string} given twice{spelt}")
            else:
                seen[self] = option_string
            super().__call__(parser, namespace, values, option_string)

    class Noted(argparse.Action):
        """An action that notes in the parse record that it was given (a flag, an option
        that may be repeated)."""

        def __call__(self, parser, namespace, values, option_string=None):
            vars(namespace).setdefault(_SEEN, {}).setdefault(self, option_string)
            super().__call__(parser, namespace, values, option_string)

    class AppendNoted(Noted, argparse._AppendAction):
        """argparse's ``append`` action, noted in the parse record."""

    class FlagNoted(Noted, argparse._StoreTrueAction):
        """argparse's ``store_true`` action, noted in the parse record."""

    class Parser(argparse.ArgumentParser):
        """An argument parser whose errors are :class:`UsageError` (one line, exit status
        2) instead of argparse's usage text and ``SystemExit``, and that refuses an option
        of one value given twice (its sub-parsers are ``Parser`` too). A negative number
        (``-1e-3``) or comma-separated list of numbers whose first is negative
        (``-0.1,0``) is a value, as argparse takes ``-1`` and ``-0.5``: it took the others
        for an option, and said the option before expected an argument."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._negative_number_matcher = negative_numbers
            self.register("action", None, StoreOnce)
            self.register("action", "store", StoreOnce)
            self.register("action", "append", AppendNoted)
            self.register("action", "store_true", FlagNoted)

        def parse_known_args(self, args=None, namespace=None):
            """Parse, and record what the command line gave (:class:`Given`)."""
            namespace, extras = super().parse_known_args(args, namespace)
            seen = vars(namespace).pop(_SEEN, {})
            record = vars(namespace).setdefault(GIVEN, Given())
            record.dests.update(action.dest for action in seen)
            options = [action for action in self._actions if action.option_strings]
            for action in sorted(options, key=lambda action: not getattr(action, "api", None)):
                spelt = getattr(action, "spelt", "/".join(action.option_strings))
                record.flags.setdefault(getattr(action, "api", None) or action.dest, spelt)
                record.spelt.setdefault(action.dest, spelt)
            return namespace, extras

        def error(self, message: str) -> NoReturn:
            """A command line argparse cannot parse: a :class:`UsageError` naming the command."""
            command = self.prog.removeprefix("irscale").strip()
            raise UsageError(f"{command + ': ' if command else ''}{message} "
                             f"(see '{self.prog} --help')")

    for cls in (UsageError, StoreOnce, Noted, AppendNoted, FlagNoted, Parser):
        cls.__module__, cls.__qualname__ = __name__, cls.__name__
    globals().update(UsageError=UsageError, Parser=Parser, _StoreOnce=StoreOnce)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the ``irscale`` command line.

    Given the ``command`` a command line names, only that subcommand's parser is built (its
    module imported); the others are registered by name only, so that the choices and their
    errors stay the same while their modules are not loaded. Without one (``irscale
    --help``, or no or an unknown command), every subcommand is built.
    """
    import importlib

    from .. import __version__

    parser = _lazy("Parser")(
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
            importlib.import_module(f".{name.replace('-', '_')}", __package__
                                    ).add_parser(subparsers)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand a command line names: its first argument that is not an option (the
    ``irscale`` command itself takes no option with a value)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning on standard error, one ``irscale: warning:`` line."""
    print(f"irscale: warning: {message}", file=sys.stderr)


def _silence(stream) -> None:
    """Point the descriptor of ``stream`` (standard output or error) at /dev/null, so that
    the interpreter's final flush of a broken pipe or a full device reports nothing more
    and cannot change the exit status (to 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no descriptor
        pass


def _flush_stdout() -> None:
    """Flush standard output before an error is reported (output a failed command printed
    is not to be flushed at exit, where a full device would make the status 120)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError):
        _silence(sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: this process's, ``sys.argv[1:]``) and return
    its exit status.

    Every import happens inside the protected region, so that ^C at any moment prints
    ``irscale: interrupted`` (status 130). While the command runs, a ^C also marks the
    call as interrupted, so that an error a library makes of it (numpy turns an import
    interrupted in its C extension into an ``ImportError``) is reported as the interrupt
    it is, and the warnings that come after it (a file object an interrupted import left
    unclosed) are not shown. Called without ``argv`` (the ``irscale`` script, ``python -m
    irscale.cli.main``), ``main`` is the process's entry point and ignores ^C once the
    command is done: it could only interrupt the interpreter's exit (an ``atexit``
    callback, with a traceback).
    """
    sigint = _Sigint()
    previous_handlers: dict = {}
    previous_hook = sys.unraisablehook
    entry_point = argv is None
    try:
        previous_handlers = _catch_signals(sigint)
        if previous_handlers:
            sys.unraisablehook = _quiet_interrupts(previous_hook)
        import warnings

        def show_warning(message, category, filename, lineno, file=None, line=None):
            """A warning, unless ^C was pressed."""
            if not sigint.received:  # after ^C, 'irscale: interrupted' says it all
                _show_warning(message, category, filename, lineno, file, line)

        previous = warnings.showwarning
        warnings.showwarning = show_warning
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("default")
                status = _main(argv, sigint, tune_memory=entry_point)
                sigint.done = entry_point
        finally:
            warnings.showwarning = previous
    except KeyboardInterrupt as error:  # while importing, or between the handlers
        status = _interrupted(error, sigint)
    finally:
        sigint.done = entry_point
        if previous_handlers:
            _restore_signals(previous_handlers, done=entry_point)
            sys.unraisablehook = previous_hook
    return status


class Terminated(KeyboardInterrupt):
    """A stop signal (:data:`STOP_SIGNALS`) received while a command runs: raised where ^C
    raises ``KeyboardInterrupt``, so that every clean-up of ^C runs for it too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Sigint:
    """The handler of SIGINT and of the :data:`STOP_SIGNALS` for one call of :func:`main`:
    it counts the signals and raises ``KeyboardInterrupt`` (:class:`Terminated` for a stop
    signal) as Python's own handler does for SIGINT, until the command is ``done``;
    ``signum``: the first signal received (its exit status)."""

    def __init__(self) -> None:
        self.received = 0
        self.signum: int | None = None
        self.done = False

    def __call__(self, signum, frame) -> None:
        import signal

        self.received += 1
        if self.signum is None:
            self.signum = signum
        if not self.done:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated(signum)


def _interrupted(error: BaseException | None, sigint: _Sigint) -> int:
    """Report a command stopped by ^C (``irscale: interrupted``, 130) or by a stop signal
    (``irscale: terminated``, 128 + its number): ``error``, the exception it raised, or
    ``None`` for an error some library made of it."""
    import signal

    signum = error.signum if isinstance(error, Terminated) else sigint.signum
    if signum is None or signum == signal.SIGINT:
        return _fail("interrupted", EXIT_INTERRUPTED)
    return _fail("terminated", 128 + signum)


def _quiet_interrupts(previous):
    """A ``sys.unraisablehook`` for the command: a ``KeyboardInterrupt`` raised where
    Python cannot propagate it (a weakref callback of the import machinery, a ``__del__``)
    is lost — the command goes on, as if the ^C had come after it — and Python would print
    it with a traceback; it is dropped without one. Anything else goes to ``previous``."""

    def hook(info) -> None:
        """Drop an unraisable KeyboardInterrupt; pass anything else on."""
        if not issubclass(info.exc_type, KeyboardInterrupt):
            previous(info)

    return hook


def _catch_signals(handler: _Sigint) -> dict:
    """Install ``handler`` for SIGINT while Python's own handler is in place, and for each
    of the :data:`STOP_SIGNALS` while its default action (death, without a word) is; the
    handlers to restore, by signal. A handler of the caller's, or a signal it ignores (^C
    in a background job, SIGHUP under ``nohup``), is left alone."""
    import signal

    previous: dict = {}
    for name in ("SIGINT", *STOP_SIGNALS):
        number = getattr(signal, name, None)
        if number is None:  # not on this system
            continue
        default = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
        try:
            if signal.getsignal(number) is default:
                previous[number] = signal.signal(number, handler)
        except ValueError:  # not the main thread
            break
    return previous


def _restore_signals(handlers: dict, *, done: bool) -> None:
    """Put back the ``handlers`` of before the command (``done``: the command ended, and
    ^C is ignored from now on: see :func:`main`)."""
    import signal

    for number, handler in handlers.items():
        signal.signal(number, signal.SIG_IGN if done and number == signal.SIGINT else handler)


def _main(argv: Sequence[str] | None, sigint: _Sigint, *, tune_memory: bool = False) -> int:
    """Parse ``argv`` and run its command; ``tune_memory``: this process is the command
    line's own, whose allocator is set up for it (:mod:`irscale.cli.allocator`) when the
    environment asks for it (``IRSCALE_TUNE_MEMORY=1``)."""
    args = None
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

        check_outputs(args, parser)
        if tune_memory and os.environ.get("IRSCALE_TUNE_MEMORY") == "1":
            from . import allocator

            allocator.tune_memory()
        from ..core.edge import bypassed

        with bypassed():  # messages name the options and files, not the API's arguments
            status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt as error:
        return _interrupted(error, sigint)
    except BrokenPipeError:
        _silence(sys.stdout)
        return 0
    except Exception as error:
        if sigint.received:  # a ^C some library turned into another error
            return _interrupted(None, sigint)
        reported = _error_status(named(error, args))
        if reported is None and os.environ.get("IRSCALE_DEBUG"):
            raise
        if reported is None:
            return _fail(f"internal error: {type(error).__name__}: {error} (please report "
                         "it; IRSCALE_DEBUG=1 shows the traceback)", EXIT_BUG)
        return reported


def _error_status(error: Exception) -> int | None:
    """Report ``error`` if a user can cause it and return the exit status; None for a bug."""
    from ..errors import IrscaleError

    if isinstance(error, IrscaleError):
        return _fail(str(error), EXIT_USAGE)
    if isinstance(error, OSError):
        from ..io.files import access_error

        if error.filename is None:  # standard output: a full device, a closed terminal
            _silence(sys.stdout)
            return _fail(str(access_error(error, "standard output", "write")), EXIT_USAGE)
        return _fail(str(access_error(error, error.filename)), EXIT_USAGE)
    if isinstance(error, MemoryError):
        return _fail("out of memory (the input is too large for this machine)", EXIT_USAGE)
    return None


def _fail(message: str, status: int) -> int:
    """Print ``irscale: message`` on standard error and return ``status``. Standard output
    is flushed first; a standard error that cannot be written (``2>/dev/full``) loses the
    line but not the status."""
    _flush_stdout()
    line = " ".join(message.split("\n")) or "error"
    if len(line) > MESSAGE_LIMIT:
        from ..errors import shorten

        line = shorten(line, MESSAGE_LIMIT)
    try:
        print(f"irscale: {line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        _silence(sys.stderr)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
