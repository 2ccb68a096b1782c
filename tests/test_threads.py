"""Work spread over the usable cores (:mod:`irscale.parallel.threads`)."""

from __future__ import annotations

import threading
import time

import pytest

from irscale.parallel import threads
from irscale.parallel.threads import map_threads, usable_cores


def test_usable_cores_follows_the_affinity(monkeypatch):
    assert usable_cores() >= 1
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert usable_cores() == 1


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_map_threads_keeps_the_order_and_uses_threads_only_with_cores(monkeypatch, cores):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    callers = set()
    # the first item of every thread waits for the others: each thread takes one
    meet = threading.Barrier(cores, timeout=30)

    def square(value: int) -> int:
        callers.add(threading.get_ident())
        if value < cores:
            meet.wait()
        return value * value

    assert map_threads(square, range(20)) == [v * v for v in range(20)]
    assert len(callers) == cores
    assert threading.get_ident() in callers  # the calling thread takes its share
    assert map_threads(square, []) == []


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_map_threads_raises_the_first_error_in_item_order(monkeypatch, cores):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    done = []
    before = set(threading.enumerate())

    def check(value: int) -> int:
        if value == 5:
            time.sleep(0.05)  # the later error is raised first
            raise ValueError("bad 5")
        if value == 6:
            raise ValueError("bad 6")
        done.append(value)
        return value

    with pytest.raises(ValueError, match="bad 5"):
        map_threads(check, range(200))
    assert set(range(5)) <= set(done) and len(done) < 190  # the items after stop early
    assert set(threading.enumerate()) == before  # no helper thread left behind
