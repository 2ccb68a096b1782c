"""Progress of long work, on standard error: the one mechanism of irscale (issue 15 §5).

Every long computation takes ``progress``: ``False`` (nothing), ``True`` (a bar on standard
error) or a callable ``progress(done, total)`` called as the work advances (``done``
reaches ``total`` at the end). :func:`progress_reporter` turns that argument into the
``report(done)`` function the work calls; :class:`Progress` draws the bar:

    label [#########                     ]  31.0%     12s elapsed, ~   27s left

redrawn at most every :data:`INTERVAL` seconds, and for work that ends within ``delay``
seconds (:data:`DELAY` by default) not at all. The environment variable
``IRSCALE_NO_PROGRESS=1`` silences every bar. On the command line the bar is drawn only
when standard error is a terminal, and ``--no-progress`` turns it off
(:func:`irscale.cli.options.wants_progress`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import numpy as np

from ..errors import ParameterError

#: Seconds of work before a bar appears (shorter work prints nothing).
DELAY = 1.0
#: Least seconds between two redraws of a bar.
INTERVAL = 0.5

#: What every ``progress=`` argument takes.
ProgressArg = bool | Callable[[int, int], None]

__all__ = ["DELAY", "INTERVAL", "Progress", "ProgressArg", "check_progress", "phase_progress",
           "progress_reporter"]


class Progress:
    """``Progress(total, label)``; ``update(n)`` after each step (or ``set(done)``),
    ``close()`` at the end. ``delay``: seconds before the bar first appears."""

    def __init__(self, total: int, label: str, *, enabled: bool = True,
                 delay: float = DELAY) -> None:
        self.total, self.label, self.done = max(int(total), 1), label, 0
        self.enabled = enabled and not os.environ.get("IRSCALE_NO_PROGRESS")
        self.delay = delay
        self.start = time.monotonic()
        self.last = -float("inf")  # the first draw (once ``delay`` is past) is not held back
        self.shown = False

    def update(self, n: int = 1) -> None:
        self.set(self.done + n)

    def set(self, done: int) -> None:
        """``done`` units of the ``total`` are finished."""
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        finished = done >= self.total
        if now - self.start < self.delay or (now - self.last < INTERVAL and not
                                             (finished and self.shown)):
            return
        self.last = now
        self.shown = True
        fraction = min(self.done / self.total, 1.0)
        elapsed = now - self.start
        eta = elapsed / fraction - elapsed if fraction > 0 else float("nan")
        bar = "#" * int(30 * fraction)
        sys.stderr.write(f"\r{self.label} [{bar:<30}] {100 * fraction:5.1f}% "
                         f"{elapsed:6.0f}s elapsed, ~{eta:5.0f}s left")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.shown = False


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


def progress_reporter(
    progress: object, total: int, label: str = "resampling", *, offset: int = 0,
    overall: int | None = None, delay: float = 0.0,
) -> Callable[[int], None]:
    """``report(done)`` for ``done`` of ``total`` units of work: calls ``progress(done,
    total)``, draws a :class:`Progress` bar labelled ``label`` (``progress=True``; from
    the start unless ``delay``) or does nothing. A phase of a longer run passes ``offset``
    (units done before it) and ``overall`` (units of the whole run): ``progress`` then
    sees the whole run's count."""
    checked = check_progress(progress)
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


def phase_progress(progress: object, index: int, count: int) -> ProgressArg:
    """``progress`` for pass ``index`` of ``count`` passes of equal size (e.g. one group of
    pairs, one of two passes over the samples): the caller's ``progress`` sees the count
    of the whole run, ``index × total + done`` of ``count × total``."""
    checked = check_progress(progress)
    if checked is False or count == 1:
        return checked

    def report(done: int, total: int) -> None:
        progress_reporter(checked, total, offset=index * total, overall=count * total)(done)

    return report
