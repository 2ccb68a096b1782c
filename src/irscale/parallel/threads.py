"""Independent pieces of work spread over the cores this process may use.

numpy releases the GIL inside its compiled loops, so pieces that spend their time there
(the fingerprints of a column's strings, the measures of a batch of runs...) run side by
side in threads.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one
    (``taskset -c 0`` gives 1), else the machine's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def map_threads(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``[function(item) for item in items]``, the items shared out between the calling
    thread and one more thread per further usable core (all in the calling thread when
    there is one item or one core). The results keep the items' order; the first exception
    raised (in item order) is raised here, once every thread has stopped.

    The calling thread takes its share of the items rather than waiting for a pool: each
    thread that allocates gets its own heap from the C allocator (glibc's arenas), so one
    thread fewer keeps the process's peak memory lower (the fingerprint lookups of a 2M-line
    run done in threads: a pool of two raised the peak by 34 MB, the calling thread and one
    more by 13 MB). With ``IRSCALE_TUNE_MEMORY=1`` the ``irscale`` command gives every
    thread the one heap instead (:func:`irscale.cli.allocator.keep_freed_memory`).
    """
    workers = min(usable_cores(), len(items))
    if workers < 2:
        return [function(item) for item in items]
    results: list = [None] * len(items)
    errors: dict[int, BaseException] = {}
    claim = itertools.count()  # next() is atomic: each item goes to one thread
    stop = threading.Event()

    def work() -> None:
        for k in claim:
            if k >= len(items) or stop.is_set():
                return
            try:
                results[k] = function(items[k])
            except Exception as error:  # raised in the calling thread, below
                errors[k] = error
                stop.set()  # items before k are claimed already: their errors come too

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(workers - 1)]
    for helper in helpers:
        helper.start()
    try:
        work()
    finally:  # also on an interrupt: the helpers finish the item they hold, and stop
        stop.set()
        for helper in helpers:
            helper.join()
    if errors:
        raise errors[min(errors)]
    return results
