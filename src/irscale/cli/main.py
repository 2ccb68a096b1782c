"""Entry point of the ``irscale`` command (usage: ``docs/cli.md``; errors: ``docs/errors.md``).

Each subcommand's module registers its parser with ``add_parser(subparsers)`` and a
``func`` default ``(args)`` that returns what the command made, written here by the one
writer (:func:`irscale.cli.outputs.write_outputs`: atomically, its text through the guard
on numbers); a command prints nothing and opens no file itself. Whatever a user can cause
ends in one line on standard error: ``irscale: <message>`` (status 2), ``irscale:
interrupted`` (130, ^C), ``irscale: terminated`` (SIGTERM 143, SIGHUP 129: the same clean-up as ^C),
``irscale: warning: ...``, ``irscale: internal error: ...`` (3, a bug; ``IRSCALE_DEBUG=1``
shows the traceback). ^C may come at any moment, also during imports: this module imports
only ``os`` and ``sys`` when loaded (argparse and :class:`irscale.cli.parser.Parser`
inside :func:`main`'s protected region).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers
    import argparse
    from collections.abc import Sequence
    from typing import Any

#: Subcommands and their one-line help, in ``irscale --help``'s order (module: the name,
#: with "_" for "-"); ``irscale --help`` lists them without importing their modules.
SUBCOMMANDS = {
    "eval": "evaluate runs against qrels (a drop-in for trec_eval)",
    "session": "evaluate multi-query session runs (sDCG, nsDCG, sRBP, sERR, esnDCG, esAP, "
    "tsCG, MsM, session U-measure)",
    "text": "evaluate textual outputs: ROUGE, BLEU against references; nuggets; pyramids of "
    "SCUs",
    "demo": "generate example data and run an evaluation on it",
    "compare": "compare systems: significance tests, ANOVA, Tukey HSD, corrections",
    "scale": "interval scales: a measure's image, φ and ranked version M_R",
    "meta": "meta-evaluation: correlation, discriminative power, topic splitting, ...",
    "pool": "build pools (depth-k, take@N, RBP, RRF, move-to-front, bandits) and simulate "
    "pooling strategies on qrels",
    "labels": "aggregate crowd labels into qrels, measure their agreement, AWARE",
    "online": "online evaluation: click models, interleaving, multileaving, A/B tests",
    "report": "the experiment report: one HTML page (or LaTeX/Markdown tables) of runs",
    "eval-many": "evaluate many run files (folders, globs) in batches, memory bounded by a "
    "batch",
    "eval-seeds": "systems of several runs (seeds, folds): mean and spread",
    "measures": "list every measure: name, parameters and defaults, formula, source",
    "fuse": "fuse runs into one (CombSUM, CombMNZ, RRF, BordaFuse, ProbFuse ...)",
    "convert": "write qrels or a run as ranx's JSON or as TREC text",
}

#: Exit status of bad input or options, of ^C, and of an internal error.
EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BUG = 2, 130, 3
#: Signals that stop a command as ^C does (SLURM, Kubernetes, systemd, a closed terminal);
#: the exit status is 128 + the signal's number, as a shell reports it.
STOP_SIGNALS = ("SIGTERM", "SIGHUP")
#: Longest error line printed (a message quoting huge input is cut in the middle).
MESSAGE_LIMIT = 2000
#: Subcommands that do no linear algebra (``compare``: tests of one vector of differences
#: at a time): numpy's BLAS starts with one thread (:func:`_main`); its pool of spinning
#: threads cost ``compare`` of 10 CLEF runs 0.17 s of CPU, a sixth of the command.
NO_BLAS = ("eval", "compare")
#: Subcommands whose run, too, is made without the cyclic garbage collector
#: (:class:`_StartUp`): ``eval``'s run imports the readers, the judging and trec_eval's
#: families it uses (some thirty modules, whose objects the collector would walk again and
#: again, about 0.7 million instructions of a 10-line ``eval``) and then makes little
#: cyclic garbage (the engine reads and judges; reference counting frees the rest): the
#: peak memory of a 50-topic run of 50,000 lines stays as it was, with trec_eval's measures
#: (23 MB) and with the catalogue's (44 MB), and so does that of twenty such runs, at once
#: (74 MB) or in batches of two (57 MB), to within the spread between repeated runs.
UNCOLLECTED_RUNS = ("eval",)
#: Subcommands whose inputs, where small, the engine reads and evaluates with one thread
#: (:func:`_one_thread`), and how small: plain files of at most 8 MiB in all. Its pool of
#: threads (rayon's) costs more than it spares there: a TREC track run of 50 topics of
#: 1,000 documents (1.6 MB) took 69 ms of CPU with the pool of a 2-core machine and 47 ms
#: without it (trec_eval: 52 ms), for the same wall time; one of 200 topics (6.6 MB),
#: 71 ms either way.
ONE_THREAD = ("eval",)
ONE_THREAD_BYTES = 8 << 20


def __getattr__(name: str) -> Any:
    """What the command line gave (``given``, ``spelling``, ``named``, ``Given``,
    ``GIVEN``: defined in :mod:`irscale.cli.given`), loaded on first use."""
    if name not in ("given", "spelling", "named", "Given", "GIVEN"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import given

    return getattr(given, name)


def build_parser(command: str | None = None, *,
                 argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the ``irscale`` command line.

    Given ``argv`` (a command line: what :func:`main` parses), each level builds only the
    parser of the choice the command line names (its module imported), a subcommand and,
    below it, an action (``meta split``, ``online ab assign``); the others are registered
    by name and help (:class:`~irscale.cli.parser.Choices`: the same choices, errors and
    ``--help``); a subcommand asked for its ``--help`` alone whose help the manifest holds
    is built from that data (:func:`_help_only`). Given ``command``, that subcommand's
    parser is built whole (a word that names no subcommand, or ``""``, builds none);
    without either, every subcommand's."""
    import importlib

    from ..core.version import __version__
    from .parser import Parser

    words = None if argv is None else [arg for arg in argv if not arg.startswith("-")]
    if words is not None:
        command = words[0] if words else ""
    parser = Parser(
        prog="irscale",
        description="Offline IR evaluation: trec_eval-exact measures, interval scales, "
        "statistics and meta-evaluation.",
    )
    parser.words = words
    parser.add_argument("--version", action="version", version=f"irscale {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    shown = _help_only(argv)
    for name, help in SUBCOMMANDS.items():
        if command is not None and name != command:
            subparsers.add_stub(name, help)
        elif shown is not None:  # its --help alone: its parser built from the manifest
            from .parser import parser_of_help

            parser_of_help(subparsers, name, help, shown)
        else:
            importlib.import_module(f".{name.replace('-', '_')}", __package__
                                    ).add_parser(subparsers)
    return parser


def _help_only(argv: Sequence[str] | None) -> dict | None:
    """The data of a subcommand's ``--help`` (:data:`irscale._manifest.HELP`) where the
    command line asks for that alone (``irscale eval --help``, ``-h``), else None: its text
    is then that of the parser built from the declarations, which are not imported
    (:func:`irscale.cli.parser.parser_of_help`)."""
    if argv is None or len(argv) != 2 or argv[1] not in ("-h", "--help"):
        return None
    from .._manifest import HELP

    return HELP.get(argv[0])


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning on standard error, one ``irscale: warning:`` line (``irscale: note:`` for a
    :class:`~irscale.errors.NoteWarning`)."""
    from ..errors import NoteWarning, message_line

    kind = "note" if issubclass(category, NoteWarning) else "warning"
    print(message_line(f"{kind}: {message}"), file=sys.stderr)


def _silence(stream) -> None:
    """Point ``stream``'s descriptor at /dev/null: the interpreter's final flush of a broken
    pipe or a full device then reports nothing and cannot change the status (to 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no descriptor
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status.

    Every import happens inside the protected region. A ^C also marks the call as
    interrupted, so that an error a library makes of it (numpy's ``ImportError``) is
    reported as the interrupt, and later warnings are not shown. Without ``argv`` ``main``
    is the process's entry point and ignores ^C, SIGTERM and SIGHUP once the command is
    done (they could only interrupt the interpreter's exit, with a traceback or a kill:
    the command's status stands).
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
    if entry_point:
        _skip_final_collection()
    return status


def _skip_final_collection() -> None:
    """Spare the interpreter's exit a last garbage collection of every object the command
    made (about 10 ms of the 0.1 s of a small ``irscale eval``: the modules, declarations and
    parsers of its start-up): :func:`gc.freeze` moves them out of the collector's reach.
    Called once the command is done, when ``main`` is the process's entry point: its
    outputs are complete and closed by then (an output appears only when complete), the
    exit handlers (:mod:`atexit`, :class:`weakref.finalize`) still run, and the memory goes
    back with the process."""
    import gc

    gc.freeze()


class Terminated(KeyboardInterrupt):
    """A stop signal (:data:`STOP_SIGNALS`), raised where ^C raises ``KeyboardInterrupt``
    so that every clean-up of ^C runs for it too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Sigint:
    """The handler of SIGINT and :data:`STOP_SIGNALS` for one :func:`main` call: counts
    them and raises ``KeyboardInterrupt`` (:class:`Terminated`) until the command is
    ``done``; ``signum``: the first received (its exit status)."""

    def __init__(self) -> None:
        self.received = 0
        self.signum: int | None = None
        self.done = False

    def __call__(self, signum, frame) -> None:
        signal = _signals()
        self.received += 1
        if self.signum is None:
            self.signum = signum
        if not self.done:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated(signum)


def _interrupted(error: BaseException | None, sigint: _Sigint) -> int:
    """Report a command stopped by ^C (130) or a stop signal (128 + its number): ``error``,
    the exception raised, or ``None`` for an error a library made of it."""
    signal = _signals()
    signum = error.signum if isinstance(error, Terminated) else sigint.signum
    if signum is None or signum == signal.SIGINT:
        return _fail("interrupted", EXIT_INTERRUPTED)
    return _fail("terminated", 128 + signum)


def _quiet_interrupts(previous):
    """A ``sys.unraisablehook`` dropping, without Python's traceback, a
    ``KeyboardInterrupt`` raised where it cannot propagate (a ``__del__``, a weakref
    callback of imports); anything else goes to ``previous``."""

    def hook(info) -> None:
        if not issubclass(info.exc_type, KeyboardInterrupt):
            previous(info)

    return hook


def _signals() -> Any:
    """The interpreter's signal functions and numbers: :mod:`signal`'s own module,
    ``_signal`` (the same functions, numbers as plain integers), where there is one:
    :mod:`signal` makes enumerations of every signal and handler on import (:mod:`enum`,
    some 3 million instructions of every command line) that the command line never shows."""
    try:
        import _signal  # type: ignore[import-not-found]  # (no stub: signal's own)
    except ImportError:  # pragma: no cover - an interpreter without it
        import signal as _signal
    return _signal


def _catch_signals(handler: _Sigint) -> dict:
    """Install ``handler`` for SIGINT and :data:`STOP_SIGNALS` where Python's default is
    in place (a caller's handler or an ignored signal, ``nohup``, is left alone); the
    handlers to restore, by signal."""
    signal = _signals()
    previous: dict = {}
    for name in ("SIGINT", *STOP_SIGNALS):
        number = getattr(signal, name, None)
        if number is None:  # not on this system
            continue
        default = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
        try:
            if signal.getsignal(number) == default:
                previous[number] = signal.signal(number, handler)
        except ValueError:  # not the main thread
            break
    return previous


def _restore_signals(handlers: dict, *, done: bool) -> None:
    """Put back the ``handlers``; ``done`` (the process's own command finished,
    :func:`main`): ^C and the stop signals are ignored from now on, while the interpreter
    exits (a signal there could only kill a process whose outputs are complete, with no
    message and status -N instead of its own)."""
    signal = _signals()
    for number, handler in handlers.items():
        signal.signal(number, signal.SIG_IGN if done else handler)


def _main(argv: Sequence[str] | None, sigint: _Sigint, *, tune_memory: bool = False) -> int:
    """Parse ``argv`` and run its command; ``tune_memory``: this process is the command
    line's own (:mod:`irscale.cli.allocator`, when ``IRSCALE_TUNE_MEMORY=1``)."""
    parsed: list[Any] = [None]  # the arguments once parsed (an error's message names them)
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        request, replied = _cache_request(argv, own=tune_memory)
        if replied:
            return 0
        return _start_and_run(argv, request, parsed, tune_memory=tune_memory)
    except KeyboardInterrupt as error:
        return _interrupted(error, sigint)
    except BrokenPipeError:
        _silence(sys.stdout)
        return 0
    except Exception as error:
        if sigint.received:  # a ^C some library turned into another error
            return _interrupted(None, sigint)
        reported = _error_status(_named(error, parsed[0]))
        if reported is None and os.environ.get("IRSCALE_DEBUG"):
            raise
        return _internal_error(error) if reported is None else reported
    except BaseException as error:  # SystemExit, or a panic of the engine
        if type(error).__name__ != "PanicException" or os.environ.get("IRSCALE_DEBUG"):
            raise
        return _interrupted(None, sigint) if sigint.received else _internal_error(error)


def _start_and_run(argv: list[str], request: Any, parsed: list[Any], *,
                   tune_memory: bool) -> int:
    """The start-up of the command line ``argv`` (its parser, the parse and the checks,
    ``parsed[0]`` the arguments), then its run: both without the cyclic collector for
    :data:`UNCOLLECTED_RUNS` (:class:`_StartUp`)."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command in NO_BLAS and "numpy" not in sys.modules:
        # OpenBLAS's pool of spinning threads costs ~0.04 s of CPU for no matrix; a
        # caller that imported numpy, or a value the user set, keeps its setup
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    with _StartUp(tune_memory):
        args = _parse(argv, parsed)
        _tune(tune_memory)
        if tune_memory and command in ONE_THREAD:
            _one_thread(args)
        if command in UNCOLLECTED_RUNS:  # its run, too, without the collector
            return _run(args, request)
    return _run(args, request)


def _parse(argv: list[str], parsed: list[Any]) -> Any:
    """The arguments of ``argv`` (kept in ``parsed[0]`` before they are checked), parsed and
    checked: from the manifest's data for a command line of trec_eval's options
    (:func:`_trec_eval_path`), else by the parser built from the declarations
    (:func:`build_parser`, :func:`_check`)."""
    args = parsed[0] = _trec_eval_path(argv)
    if args is None:
        parser = build_parser(argv=argv)
        args = parsed[0] = parser.parse_args(argv)
        _check(args, parser)
    return args


class _StartUp:
    """The command line's start-up (its parser built, the arguments parsed and checked)
    without the cyclic garbage collector, where ``own``: the process is the command line's
    (:func:`main` its entry point). Its imports and declarations make tens of thousands of
    objects and no garbage to speak of, which the collector walked again and again (some
    10 million instructions of ``irscale --help``, a tenth of it); they are then moved out
    of its reach (:func:`gc.freeze`), and the collector runs again for the command itself,
    as it would, except in the run of :data:`UNCOLLECTED_RUNS`. (A class, not
    :func:`contextlib.contextmanager`: this module imports only ``os`` and ``sys`` when
    loaded.)"""

    def __init__(self, own: bool) -> None:
        self.own = own

    def __enter__(self) -> None:
        if self.own:
            import gc

            gc.disable()

    def __exit__(self, *exception: object) -> None:
        if self.own:
            import gc

            gc.freeze()
            gc.enable()


def _cache_request(argv: list[str], *, own: bool) -> tuple[Any, bool]:
    """The results cache's request of ``argv`` (:class:`irscale.cache.requests.Request`;
    None without ``--cache``), and whether its reply to this very command line was written,
    before anything else is loaded (``own``: the process is the command line's, the reply
    read without the collector, as a start-up: :class:`_StartUp`)."""
    if "--cache" not in argv and not any(arg.startswith("--cache=") for arg in argv):
        return None, False
    with _StartUp(own):
        from ..cache.requests import Request

        request = Request.of(argv)
        if request is not None and request.reply() is not None:
            sys.stdout.flush()
            return request, True
    return request, False


def _trec_eval_path(argv: list[str]) -> Any:
    """The namespace of an ``eval`` command line of trec_eval's options alone, parsed and
    checked from the manifest's data (:func:`irscale.cli.eval_path.parse`: neither
    :mod:`argparse` nor the declarations of the options loaded), or None: the parser
    built from the declarations then parses and checks it."""
    if not argv or argv[0] != "eval" or _help_only(argv) is not None:
        return None
    import importlib  # (as a command's module: cli.main imports no command's module)

    return importlib.import_module(f"{__package__}.eval_path").parse(argv)


def _check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Before any input is read: a command chosen, the outputs apart from the inputs,
    every rule of the command, the optional packages it needs."""
    if getattr(args, "func", None) is None:
        parser.error(f"choose a command: {', '.join(SUBCOMMANDS)}")
    from .outputs import check_outputs

    check_outputs(args, parser)
    from .rules import check_options

    check_options(args)  # every command's rules, before any input is read
    from .requirements import check_requirements

    check_requirements(args, parser)  # a missing optional package, before any input


def _tune(tune_memory: bool) -> None:
    """The allocator tuned once the command line is checked, where ``tune_memory`` (the
    process is the command line's) and ``IRSCALE_TUNE_MEMORY=1``
    (:mod:`irscale.cli.allocator`)."""
    if tune_memory and os.environ.get("IRSCALE_TUNE_MEMORY") == "1":
        from . import allocator

        allocator.tune_memory()


def _one_thread(args: Any) -> None:
    """The engine's work with one thread (``RAYON_NUM_THREADS=1``, read when its pool is
    first wanted) where QRELS and RUN... are plain files of at most
    :data:`ONE_THREAD_BYTES` in all; a value the user set stays, and so does the pool
    where an input is anything else (standard input, a folder, a pattern, a compressed or
    Parquet file, a dataset: their size is not what the engine reads)."""
    if "RAYON_NUM_THREADS" in os.environ:
        return
    import stat

    total = 0
    for path in (getattr(args, "qrels", None), *(getattr(args, "runs", None) or ())):
        if not isinstance(path, str) or path.endswith((".gz", ".parquet", ".pq")):
            return
        try:
            status = os.stat(path)
        except (OSError, ValueError):
            return
        if not stat.S_ISREG(status.st_mode):
            return
        total += status.st_size
    if total <= ONE_THREAD_BYTES:
        os.environ["RAYON_NUM_THREADS"] = "1"


def _run(args: argparse.Namespace, request: Any) -> int:
    """Run the command of ``args`` and write what it returns; its exit status. ``request``:
    the results cache's (its reply stored, for the next time), or None."""
    import contextlib

    from ..core import reads
    from ..core.edge_switch import bypassed
    from ..core.numbers import floating_point_errors, text_scope
    from .outputs import guarded_stdout, write_outputs

    # messages name the options and files, not the API's arguments; the files the
    # command reads are never replaced by what it writes (irscale.core.reads); numpy's
    # floating-point warnings are errors (docs/errors.md §6); what the command returns
    # is written by the one writer, its text through the guard on numbers
    with bypassed(), reads.call(), floating_point_errors(), text_scope(), \
            request.recording() if request is not None else contextlib.nullcontext():
        with guarded_stdout():
            done = args.func(args)
        status = write_outputs(args, done)
    sys.stdout.flush()
    if request is not None:  # its reply, for the next time
        request.store(args, done, status)
    return status


def _named(error: Exception, args: argparse.Namespace | None) -> Exception:
    """``error`` naming the option of its parameter as given
    (:func:`irscale.cli.rules.named`), where the command line was parsed."""
    if args is None or getattr(error, "param", None) is None:
        return error
    from .rules import named

    return named(error, args)


def _internal_error(error: BaseException) -> int:
    """Report a bug of irscale (an error no user input explains): a floating-point error
    numpy raised (:mod:`irscale.core.numbers`) in words, naming what failed."""
    from ..core.numbers import floating_point_cause

    cause = floating_point_cause(error)
    what = f"{type(error).__name__}: {error}" if cause is None else (
        f"a computation failed in floating point ({cause}): an input holds numbers it "
        "cannot take, which irscale should have named")
    return _fail(f"internal error: {what} (please report it; IRSCALE_DEBUG=1 shows the "
                 "traceback)", EXIT_BUG)


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
    """Print ``irscale: message`` on standard error and return ``status``; standard output
    is flushed first (not at exit, where a full device makes the status 120), and a
    standard error that cannot be written (``2>/dev/full``) loses the line only."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError):
        _silence(sys.stdout)
    from ..errors import message_line, shorten

    try:
        print(message_line(shorten(message, MESSAGE_LIMIT) or "error"), file=sys.stderr,
              flush=True)
    except (OSError, ValueError):
        _silence(sys.stderr)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
