"""Work spread over the usable cores (:mod:`irscale.core.threads`) and its use by the text
parser (integer columns cast chunk by chunk)."""

from __future__ import annotations

import threading

import pyarrow as pa
import pytest

from irscale.core import threads
from irscale.core.threads import map_threads, usable_cores
from irscale.io import _text


def test_usable_cores_follows_the_affinity(monkeypatch):
    assert usable_cores() >= 1
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert usable_cores() == 1


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_map_threads_keeps_the_order_and_uses_threads_only_with_cores(monkeypatch, cores):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    callers = set()

    def square(value: int) -> int:
        callers.add(threading.get_ident())
        return value * value

    assert map_threads(square, range(20)) == [v * v for v in range(20)]
    assert map_threads(square, []) == []
    in_caller = callers == {threading.get_ident()}
    assert in_caller == (cores == 1)


def test_map_threads_raises_the_first_error_in_item_order(monkeypatch):
    monkeypatch.setattr(threads, "usable_cores", lambda: 2)

    def check(value: int) -> int:
        if value in (3, 5):
            raise ValueError(f"bad {value}")
        return value

    with pytest.raises(ValueError, match="bad 3"):
        map_threads(check, range(8))


@pytest.mark.parametrize("cores", [1, 2])
def test_cast_chunks_equals_one_cast(monkeypatch, cores):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    column = pa.chunked_array([["1", "-2", "30"], [], ["4"], ["-5", "0"]])
    cast = _text._cast_chunks(column, pa.int64())
    assert cast.type == pa.int64()
    assert cast.to_pylist() == [1, -2, 30, 4, -5, 0]
    assert cast.num_chunks == column.num_chunks
    with pytest.raises(pa.ArrowInvalid):  # a value of a later chunk that is no integer
        _text._cast_chunks(pa.chunked_array([["1"], ["2", "2.5"]]), pa.int64())
