"""Progress of long work, on standard error: the one mechanism of irscale.

Every long computation takes ``progress``: ``False`` (nothing), ``True`` (progress on
standard error) or a callable ``progress(done, total)`` called as the work advances
(``done`` reaches ``total`` at the end). :func:`progress_reporter` turns that argument into
the ``report(done)`` function the work calls; :class:`Progress` shows it in one of two ways:

* on a terminal, a bar redrawn in place at most every :data:`INTERVAL` seconds::

    label [#########                     ]  31.0%     12s elapsed, ~   27s left

* elsewhere (a log file, a pipe, a batch job's output), plain lines without carriage
  returns or escape codes, so that a slow job can be told from a hung one::

    irscale: label: 31% done, 45 s elapsed, about 1 min 40 s left

  A line is written when at least :data:`PLAIN_INTERVAL` seconds (30) have passed since
  the previous one (or the start) **and** the work has advanced by :data:`PLAIN_STEP`
  (10% of it) since: whichever of "every 30 s" and "every 10%" is rarer. The first line
  needs no step (it tells the time left early), and after :data:`PLAIN_QUIET` seconds (5
  min) without a line one is written whatever the step. When the work ends after a line
  was written, a last one says so (``irscale: label: done in 2 min 5 s``). A step that
  reports nothing for :data:`PLAIN_INTERVAL` seconds (one long phase of a report) is not
  silent either: a background thread writes the same line, with ``still working``, every
  :data:`PLAIN_INTERVAL` seconds until the work advances, ends or is abandoned (for at most
  :data:`HEARTBEAT_LIMIT` seconds without an advance).

A command whose parts do not all report progress (a report: reading its inputs, importing
its analyses, drawing its figures, of which only the analyses advance a bar) runs inside
:func:`working`, which spans the whole of it: off a terminal, when :data:`PLAIN_INTERVAL`
seconds pass with no progress line of any bar nor estimate written (:data:`_written`), it
writes one itself, ``irscale: report: 1 min 0 s elapsed, still working``, and at the end
``irscale: report: done in 1 min 26 s`` when it wrote one; on a terminal it writes
nothing (the parts' bars show).

Work that ends within ``delay`` seconds (:data:`DELAY` by default) shows nothing either
way. The environment variable ``IRSCALE_NO_PROGRESS=1`` silences all of it. On the command
line, ``--no-progress`` turns it off (:func:`irscale.cli.options.wants_progress`); it also
silences the estimate line printed before long work (:func:`notice`).
The clock is :func:`time.monotonic` unless one is injected (``clock=``, for tests).

Work shared out between threads stops with its caller: when the caller gives up (^C,
SIGTERM, a failed task), the pieces still running in other threads stop at their next
:func:`check_stop` (:func:`stoppable`), which the long kernels call between their blocks,
so that the process ends within a block's time instead of finishing every piece it had
started (``meta dp`` kept computing for 6 to 40 s after ^C).
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import numpy as np

from ..errors import ParameterError, message_line, printable
from .checked import Checked

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from .params import Param

#: Seconds of work before a bar appears (shorter work prints nothing).
DELAY = 1.0
#: Least seconds between two redraws of a bar.
INTERVAL = 0.5
#: Least seconds between two plain lines (and before the first).
PLAIN_INTERVAL = 30.0
#: Least share of the work between two plain lines (the first needs none).
PLAIN_STEP = 0.1
#: Most seconds without a plain line while the work reports progress.
PLAIN_QUIET = 300.0

#: Most seconds the background lines of a step that reports nothing go on (work abandoned by
#: an exception whose traceback keeps it alive stops being announced).
HEARTBEAT_LIMIT = 3600.0


#: Lines of progress and estimates written on standard error by this process so far (a
#: one-element list: :class:`Span` is quiet while they come).
_written = [0]

__all__ = ["DELAY", "HEARTBEAT_LIMIT", "INTERVAL", "PLAIN_INTERVAL", "PLAIN_QUIET",
           "PLAIN_STEP", "Progress", "ProgressArg", "Span", "Stopped", "announce_rest",
           "check_progress", "check_stop", "counted_work", "duration_text", "no_report",
           "notice",
           "phase_progress",
           "progress_callback", "progress_reporter", "stoppable", "working"]


class Progress:
    """``Progress(total, label)``; ``update(n)`` after each step (or ``set(done)``),
    ``close()`` at the end. ``delay``: seconds before anything appears; ``clock``: the
    time in seconds (default :func:`time.monotonic`); ``plain``: plain lines instead of a
    bar (default: when standard error is not a terminal; module documentation)."""

    def __init__(self, total: int, label: str, *, enabled: bool = True,
                 delay: float = DELAY, clock: Callable[[], float] | None = None,
                 plain: bool | None = None, heartbeat: float = PLAIN_INTERVAL) -> None:
        self.total, self.label, self.done = max(int(total), 1), label, 0
        self.enabled = enabled and not os.environ.get("IRSCALE_NO_PROGRESS")
        self.delay = delay
        self.clock = clock or time.monotonic
        self.plain = not _is_terminal() if plain is None else plain
        self.start = self.clock()
        self.last = -float("inf")  # the first draw (once ``delay`` is past) is not held back
        self.last_fraction = 0.0  # (plain lines) the share done at the last line
        self.shown = False
        self.heartbeat = heartbeat  # (plain lines) seconds between two looks of the thread
        self.advanced = self.start  # when set() was last called
        self.lock = threading.Lock()
        self.stop: threading.Event | None = None  # the background thread's, once started

    def update(self, n: int = 1) -> None:
        self.set(self.done + n)

    def set(self, done: int) -> None:
        """``done`` units of the ``total`` are finished."""
        self.done = done
        if not self.enabled:
            return
        now = self.clock()
        self.advanced = now
        if self.plain and self.stop is None and done < self.total:
            self._start_heartbeat()
        if now - self.start < self.delay:
            return
        if self.plain:
            with self.lock:
                self._line(now)
            return
        finished = done >= self.total
        if now - self.last < INTERVAL and not (finished and self.shown):
            return
        self.last = now
        self.shown = True
        fraction = min(self.done / self.total, 1.0)
        elapsed = now - self.start
        eta = elapsed / fraction - elapsed if fraction > 0 else float("nan")
        bar = "#" * int(30 * fraction)
        sys.stderr.write(f"\r{printable(self.label)} [{bar:<30}] {100 * fraction:5.1f}% "
                         f"{elapsed:6.0f}s elapsed, ~{eta:5.0f}s left")
        sys.stderr.flush()

    def _line(self, now: float) -> None:
        """A plain line when the rules of the module documentation say so."""
        fraction = min(self.done / self.total, 1.0)
        if fraction >= 1.0:
            if self.shown:
                self._write(f"done in {_duration(now - self.start)}")
                self.shown = False
            return
        since = now - max(self.last, self.start)
        stepped = fraction - self.last_fraction >= PLAIN_STEP or not self.shown
        if since < PLAIN_INTERVAL or not (stepped or since >= PLAIN_QUIET):
            return
        elapsed = now - self.start
        left = (f", about {_duration(elapsed / fraction - elapsed)} left" if fraction > 0
                else "")
        self._write(f"{100 * fraction:.0f}% done, {_duration(elapsed)} elapsed{left}")
        self.last, self.last_fraction, self.shown = now, fraction, True

    def _write(self, text: str) -> None:
        _written[0] += 1
        sys.stderr.write(f"{message_line(f'{self.label}: {text}')}\n")
        sys.stderr.flush()

    def _start_heartbeat(self) -> None:
        """The background thread of plain lines (module documentation). It holds the
        progress weakly: work dropped unfinished stops it."""
        stop = self.stop = threading.Event()
        weakref.finalize(self, stop.set)
        watched = weakref.ref(self)
        period = self.heartbeat

        def beat() -> None:
            while not stop.wait(period):
                progress = watched()
                if progress is None or not progress._beat():
                    return
                del progress

        threading.Thread(target=beat, name=f"irscale progress {self.label}",
                         daemon=True).start()

    def _beat(self) -> bool:
        """One background line when none was written for :data:`PLAIN_INTERVAL` seconds;
        ``False`` when the work ended or has not advanced for
        :data:`HEARTBEAT_LIMIT` seconds."""
        now = self.clock()
        if self.done >= self.total or now - self.advanced > HEARTBEAT_LIMIT:
            return False
        with self.lock:
            if now - self.start >= self.delay and \
                    now - max(self.last, self.start) >= PLAIN_INTERVAL:
                elapsed = now - self.start
                fraction = min(self.done / self.total, 1.0)
                self._write(f"{100 * fraction:.0f}% done, {_duration(elapsed)} elapsed, "
                            "still working")
                self.last, self.shown = now, True
        return True

    def close(self) -> None:
        """End the bar's line (plain lines are complete already) and the background
        lines."""
        if self.stop is not None:
            self.stop.set()
        if self.shown and not self.plain:
            sys.stderr.write("\n")
            sys.stderr.flush()
        self.shown = False


class Span(Progress):
    """The whole of a piece of work whose parts may show no progress of their own (module
    documentation, :func:`working`): off a terminal, ``LABEL: 45 s elapsed, still working``
    each time :data:`PLAIN_INTERVAL` seconds pass without a progress line or an estimate
    (its own or another's: :data:`_written`), ``LABEL: done in ...`` at the end (``set(1)``)
    when it wrote one; nothing on a terminal. ``clock``, ``delay`` and ``heartbeat`` (the
    seconds between two looks of its thread) as :class:`Progress`'s."""

    def __init__(self, label: str, *, enabled: bool = True, delay: float = DELAY,
                 clock: Callable[[], float] | None = None, plain: bool | None = None,
                 heartbeat: float = PLAIN_INTERVAL) -> None:
        super().__init__(1, label, enabled=enabled, delay=delay, clock=clock, plain=plain,
                         heartbeat=heartbeat)
        self.enabled = self.enabled and self.plain
        self.heard = _written[0]  # the lines written when it last looked
        self.set(0)  # its thread starts with the work

    def _line(self, now: float) -> None:
        """``done in`` at the end, when it wrote a line (its others are :meth:`_beat`'s)."""
        if self.done >= self.total and self.shown:
            self._write(f"done in {_duration(now - self.start)}")
            self.shown = False

    def _beat(self) -> bool:
        """One look of the thread: a line when none was written for :data:`PLAIN_INTERVAL`
        seconds; ``False`` once the work is done (or when it shows nothing)."""
        if self.done >= self.total or not self.enabled:
            return False
        with self.lock:
            now = self.clock()
            if _written[0] != self.heard:  # another line since the last look
                self.heard, self.last = _written[0], now
            elif now - self.start >= self.delay and \
                    now - max(self.last, self.start) >= PLAIN_INTERVAL:
                self._write(f"{_duration(now - self.start)} elapsed, still working")
                self.heard, self.last, self.shown = _written[0], now, True
        return True


@contextmanager
def working(label: str, *, enabled: bool = True) -> Iterator[None]:
    """The work of the block as one :class:`Span` labelled ``label``: ``done in`` said
    when it ends normally, the thread stopped however it ends."""
    span = Span(label, enabled=enabled)
    try:
        yield
        span.set(1)
    finally:
        span.close()


def _is_terminal() -> bool:
    """Whether standard error is a terminal (a closed or replaced stream is not)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _duration(seconds: float) -> str:
    """``45 s``, ``1 min 40 s``, ``2 h 5 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def check_progress(progress: object) -> ProgressArg:
    """``progress`` if it is a bool (or ``None``, read as ``False``) or a callable
    ``progress(done, total)``; :class:`~irscale.errors.ParameterError` otherwise."""
    if progress is None:
        return False
    if isinstance(progress, (bool, np.bool_)):
        return bool(progress)
    if callable(progress):
        return progress
    raise ParameterError(f"progress must be True, False or a callable progress(done, total), "
                         f"got {progress!r}")


#: What every ``progress=`` argument takes, judged on entry by :func:`check_progress`.
ProgressArg = Annotated[bool | Callable[[int, int], None], Checked(check_progress)]


def progress_reporter(
    progress: object, total: int, label: str = "resampling", *, offset: int = 0,
    overall: int | None = None, delay: float = 0.0, units: Param | None = None,
    elsewhere: bool = False,
) -> Callable[[int], None]:
    """``report(done)`` for ``done`` of ``total`` units of work: calls ``progress(done,
    total)``, draws a :class:`Progress` bar labelled ``label`` (``progress=True``; from
    the start unless ``delay``) or does nothing. A phase of a longer run passes ``offset``
    (units done before it) and ``overall`` (units of the whole run): ``progress`` then
    sees the whole run's count. With ``units`` (``progress=True``, no ``delay``), the
    time of the rest is stated as :func:`progress_callback` does (``elsewhere``: work
    done in other processes, timed by the clock)."""
    checked = check_progress(progress)
    if units is not None and not delay:
        checked = progress_callback(checked, label, units=units, elsewhere=elsewhere)
    whole = total if overall is None else overall
    if callable(checked):
        callback = checked
        return lambda done: callback(offset + done, whole)
    if not checked:
        return lambda done: None
    bar = Progress(whole, label, delay=delay)

    def show(done: int) -> None:
        bar.set(offset + done)
        if offset + done >= whole:
            bar.close()

    return show


def progress_callback(progress: object, label: str = "resampling", *,
                      units: Param | None = None, elsewhere: bool = False) -> ProgressArg:
    """``progress`` with ``True`` turned into one callable ``progress(done, total)`` that
    draws one :class:`Progress` (made at its first call), so that the passes of one run
    (:func:`phase_progress`) share one bar and one clock (a bar made per pass, or per
    call, never showed a line off a terminal: its clock started again at every step);
    ``False`` and callables as they are.

    With ``units`` (the parameter whose declared :class:`~irscale.core.params.Cost` names
    what the work counts: ``samples (-B/--samples)``), the time of the rest is stated
    (:func:`announce_rest`) at the seconds per unit measured on the work after the first
    advance (the set-up and the start of the threads left out) once :data:`DELAY` seconds
    of it are done, or at the first advance when that took :data:`DELAY` seconds already
    (the set-up counted in: the statement then errs long by a little). The seconds are the
    process's CPU time (every thread: the statement is the CPU time of the rest, whatever
    the number of threads and the load of the machine), or the time elapsed for work done
    ``elsewhere`` (a Dask cluster's processes)."""
    checked = check_progress(progress)
    if checked is not True:
        return checked
    bar: Progress | None = None
    clock = time.monotonic if elsewhere else time.process_time
    began = clock()
    first: tuple[int, float] | None = None  # (units, seconds) at the first advance
    announced = units is None
    stated = "" if units is None else units.units

    def report(done: int, total: int) -> None:
        nonlocal bar, announced, first
        if bar is None:
            bar = Progress(total, label, delay=0.0)
        if not announced and done > 0:
            spent = clock() - began
            if first is None and spent < DELAY:
                first = (done, spent)
            elif first is None or (spent - first[1] >= DELAY and done > first[0]):
                announced = True
                base = first or (0, 0.0)
                announce_rest(True, label, stated, total - done,
                              (spent - base[1]) / (done - base[0]))
        bar.set(done)
        if done >= total:
            bar.close()

    return report


def spelled(param: Param) -> str:
    """How a message names a declared parameter for the API and the command line at once:
    ``-B/--samples (samples)``; the Python name alone where no option spells it."""
    if not param.flags:
        return param.name
    options = "/".join(param.flags)
    named = param.name in options or param.name.replace("_", "-") in options
    return options if named else f"{options} ({param.name})"


def _params(params: Param | tuple[Param, ...]) -> tuple[Param, ...]:
    """``params`` as a tuple, each declaring a cost that scales work
    (:class:`~irscale.core.params.Cost`, not :data:`~irscale.core.params.NO_WORK`)."""
    found = params if isinstance(params, tuple) else (params,)
    for param in found:
        if _grows(param) == "none":
            raise ValueError(f"{param.name} declares no cost: its value scales no work")
    return found


def _grows(param: Param) -> str:
    """How the work grows with ``param`` (its declared cost's ``grows``)."""
    return "none" if param.cost is None else param.cost.grows


def change_text(params: Param | tuple[Param, ...], option: str | None = None) -> str:
    """What to change to ask for less work, read from the declared costs: ``fewer
    -B/--samples (samples)`` for a parameter whose work grows with its value, ``a larger
    --step`` for one whose work grows as its value shrinks (``inverse``), joined by
    ``or``; ``or a larger OPTION`` where the caller's memory limit is an option."""
    asked = [f"{'a larger' if _grows(param) == 'inverse' else 'fewer'} {spelled(param)}"
             for param in _params(params)]
    if option is not None:
        asked.append(f"a larger {option}")
    return asked[0] if len(asked) == 1 else f"{', '.join(asked[:-1])} or {asked[-1]}"


def declared_memory(params: Param | tuple[Param, ...], need: float, what: str, *,
                    max_memory: str | int | float | None = None,
                    option: str | None = None) -> int:
    """Refuse, before any work, memory that the values of ``params`` (parameters declaring
    a :class:`~irscale.core.params.Cost`, or an input's size declared the same way) make
    ``need`` bytes, beyond the memory limit (:func:`irscale.core.budget.check_memory`:
    ``max_memory``, named ``option`` when the caller takes one; otherwise the default
    limit); return the limit in bytes.

    The message is ``WHAT, about SIZE: more than LIMIT (CHANGE)``: ``what`` states the values
    asked for (``10,000 samples of 45 pairs``), the size is the estimate, and the change is
    read from the declarations (:func:`change_text`), so that no call site writes its own.
    """
    from .budget import check_memory, format_size

    return check_memory(need, f"{what}, about {format_size(need)}",
                        change_text(params, option), max_memory=max_memory, option=option)


def measured_estimate(params: Param | tuple[Param, ...], what: str,
                      probe: Callable[[], object], scale: float, how: str, *,
                      enabled: bool = True) -> float:
    """The time of one computation that reports no progress as it goes (one call of a
    solver), measured before it on a probe: ``probe()`` (the same computation on a small
    size) timed in CPU time and scaled by ``scale`` (the work's size over the probe's, as
    the work grows with ``params``, parameters declaring a
    :class:`~irscale.core.params.Cost`); stated as ``WHAT (OPTIONS): about D (HOW)`` when it
    exceeds :data:`NOTICE_SECONDS` (``how``: what it was measured on and how it grows).
    Returns the estimate in seconds."""
    declared = _params(params)
    began = time.process_time()
    probe()
    seconds = (time.process_time() - began) * scale
    if seconds > NOTICE_SECONDS:
        options = ", ".join(spelled(param) for param in declared)
        notice(f"{what} ({options}): {duration_text(seconds)} ({how})", enabled=enabled)
    return seconds


class Work:
    """``count`` units of the work ``params`` declare, kept by the one mechanism
    (:func:`counted_work`); calling it with ``done`` reports ``done`` units."""

    __slots__ = ("_report", "limit")

    def __init__(self, limit: int, report: Callable[[int], None]) -> None:
        #: The memory limit in bytes the work was checked against.
        self.limit = limit
        self._report = report

    def __call__(self, done: int) -> None:
        check_stop()
        self._report(done)


def counted_work(params: Param | tuple[Param, ...], count: int, what: str, progress: object,
                 *, memory: float = 0.0, need: float | None = None,
                 max_memory: str | int | float | None = None, option: str | None = None,
                 elsewhere: bool = False) -> Work:
    """The work of ``count`` units of what ``params`` declare (the first one's
    :class:`~irscale.core.params.Cost` names the units), kept by the one mechanism;
    ``work(done)`` reports ``done`` units.

    The units are those of an option's value (draws) or of an input's size (the
    collections of a manifest, the lines of a file, the comparisons of a file: the
    parameter that names the input declares its cost as an option does, ``Param(...,
    cost=Cost("collections", per=...))``), and the work grows with them as the cost says
    (``linear``: ``count`` units of work; ``quadratic``: ``count²``). Before any work, the
    memory — ``need`` bytes, or ``memory`` bytes a unit of work — is refused beyond the
    limit (:func:`declared_memory`), the message stating ``count``, the units and the
    options, ``what`` and the estimate. Then each ``work(done)`` shows the progress of
    ``what`` (``progress``: :func:`progress_reporter`; ``elsewhere``: work done in other
    processes, timed by the clock), states the time of the rest in those units, measured
    on its first part, when it exceeds :data:`NOTICE_SECONDS` (:func:`progress_callback`),
    and stops where the caller gave up (:func:`check_stop`); ^C and SIGTERM reach the main
    thread between two reports, a unit of work apart.
    """
    from .budget import max_memory_of

    declared = _params(params)
    grows = _grows(declared[0])
    if grows not in ("linear", "quadratic"):
        raise ValueError(f"{declared[0].name} declares no cost counted in units of its value")
    size = float(count) ** 2 if grows == "quadratic" else float(count)
    total = memory * size if need is None else need
    if total > 0:
        limit = declared_memory(declared, total, f"{count:,} {declared[0].units}: {what}",
                                max_memory=max_memory, option=option)
    else:
        limit = max_memory_of(max_memory)
    return Work(limit, progress_reporter(progress, count, what, units=declared[0],
                                         elsewhere=elsewhere))


def no_report(done: int) -> None:
    """The ``report(done)`` of work whose progress nobody follows."""


def phase_progress(progress: object, index: int, count: int) -> ProgressArg:
    """``progress`` for pass ``index`` of ``count`` passes of equal size (e.g. one group of
    pairs, one of two passes over the samples): the caller's ``progress`` sees the count
    of the whole run, ``index × total + done`` of ``count × total``. The passes of one run
    share a bar when ``progress`` is the callable of :func:`progress_callback`."""
    checked = check_progress(progress)
    if checked is False or count == 1:
        return checked

    def report(done: int, total: int) -> None:
        progress_reporter(checked, total, offset=index * total, overall=count * total)(done)

    return report


def notice(text: str, *, enabled: bool = True, force: bool = False) -> None:
    """``irscale: text`` on standard error (an estimate before long work, ``--explain``),
    unless disabled or IRSCALE_NO_PROGRESS is set (``force``: whatever those say, for what
    the user asked)."""
    if force or (enabled and not os.environ.get("IRSCALE_NO_PROGRESS")):
        _written[0] += 1
        sys.stderr.write(f"{message_line(text)}\n")
        sys.stderr.flush()


#: Work whose rest is estimated to take longer than this (seconds) is announced.
NOTICE_SECONDS = 5.0


def duration_text(seconds: float) -> str:
    """``seconds`` in words: ``under a second``, ``about 41 s``, ``about 23 min``,
    ``about 5 h``, ``about 2.3 days``."""
    if seconds < 1:
        return "under a second"
    if seconds < 120:
        return f"about {seconds:.0f} s"
    if seconds < 7200:
        return f"about {seconds / 60:.0f} min"
    if seconds < 172800:
        return f"about {seconds / 3600:.0f} h"
    return f"about {seconds / 86400:.3g} days"


#: The units of :func:`time_text`, largest first: (name, seconds).
_TIME_UNITS = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))


def time_text(seconds: float) -> str:
    """A short time (a unit of work's) to three significant digits, in the unit that keeps
    the number from 1 to 999 (SI prefixes): ``440 ns``, ``25.3 µs``, ``8 ms``, ``1.8 s``;
    beyond 999 s it stays seconds (``1,230 s``), below 1 ns nanoseconds (``0.4 ns``)."""
    rounded = float(f"{seconds:.3g}")  # first: 999.7 µs is 1 ms
    name, size = next(((name, size) for name, size in _TIME_UNITS if rounded >= size),
                      _TIME_UNITS[-1])
    number = rounded / size
    return f"{number:,.0f} {name}" if number >= 100 else f"{number:.3g} {name}"


def announce_rest(progress: object, what: str, units: str, left: int, each: float) -> None:
    """``irscale: WHAT: LEFT more UNITS at T each (measured), about D`` when the rest of a
    computation, timed on its first part (``each`` seconds per unit, ``T`` as
    :func:`time_text` writes it), would take more than :data:`NOTICE_SECONDS` and its
    progress is shown (``progress is True``)."""
    if progress is True and each * left > NOTICE_SECONDS:
        notice(f"{what}: {left:,} more {units} at {time_text(each)} each (measured), "
               f"{duration_text(each * left)}")


class Stopped(Exception):
    """Raised by :func:`check_stop` in a thread whose work was abandoned: its result would
    be dropped."""


#: The event of the work this thread runs for (:func:`stoppable`).
_work = threading.local()


@contextmanager
def stoppable(stop: threading.Event) -> Iterator[None]:
    """Within it, :func:`check_stop` in this thread raises :class:`Stopped` once ``stop``
    is set (by the caller that gave up the work)."""
    previous = getattr(_work, "stop", None)
    _work.stop = stop
    try:
        yield
    finally:
        _work.stop = previous


def check_stop() -> None:
    """:class:`Stopped` when the work this thread runs for was given up (:func:`stoppable`);
    nothing otherwise, at the cost of a thread-local read. Long kernels call it between
    their blocks (module documentation)."""
    stop = getattr(_work, "stop", None)
    if stop is not None and stop.is_set():
        raise Stopped
