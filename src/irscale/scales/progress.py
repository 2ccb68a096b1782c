"""A minimal progress bar on standard error (opt-out), for long image computations.

Nothing is printed for work that ends within :data:`DELAY` seconds; the bar is redrawn at
most every :data:`INTERVAL` seconds. Set ``enabled=False`` (API) or ``--no-progress``
(CLI), or the environment variable ``IRSCALE_NO_PROGRESS=1``, to silence it.
"""

from __future__ import annotations

import os
import sys
import time

DELAY = 1.0
INTERVAL = 0.5


class Progress:
    """``Progress(total, label)``; ``update(n)`` after each step, ``close()`` at the end."""

    def __init__(self, total: int, label: str, *, enabled: bool = True) -> None:
        self.total, self.label, self.done = max(int(total), 1), label, 0
        self.enabled = enabled and not os.environ.get("IRSCALE_NO_PROGRESS")
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < DELAY or now - self.last < INTERVAL:
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
