"""Independent pieces of work spread over the cores this process may use.

numpy and pyarrow release the GIL inside their compiled loops, so pieces that spend their
time there (casting the chunks of a parsed column, ...) run side by side in threads.
"""

from __future__ import annotations

import os
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
    """``[function(item) for item in items]``, computed by one thread per usable core when
    there are several items and cores (in the calling thread otherwise). The results keep
    the items' order; the first exception raised (in item order) is raised here."""
    workers = min(usable_cores(), len(items))
    if workers < 2:
        return [function(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, items))
