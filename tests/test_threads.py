"""Work spread over the usable cores (:mod:`irscale.parallel.threads`) and its use by the text
parser (integer columns cast chunk by chunk)."""

from __future__ import annotations

import threading
import time

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale.io import _text
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


@pytest.mark.parametrize("cores", [1, 2])
def test_integer_chunks_cast_side_by_side_equal_one_cast(monkeypatch, cores):
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    column = pa.chunked_array([["1", "-2", "30"], [], ["4.0"], ["-5", "+0", "7."]])
    cast = _text._integers(column, pa.int64())
    assert cast.type == pa.int64()
    assert cast.to_pylist() == [1, -2, 30, 4, -5, 0, 7]
    assert cast.num_chunks == column.num_chunks
    for bad in ("2.5", "+-1", "1e1", ""):  # in a later chunk
        with pytest.raises(pa.ArrowInvalid):
            _text._integers(pa.chunked_array([["1"], ["2", bad]]), pa.int64())


def test_in_background_gives_the_result_or_the_error_of_another_thread():
    ran_in = []

    def work() -> int:
        ran_in.append(threading.get_ident())
        return 42

    assert threads.in_background(work)() == 42
    assert ran_in and ran_in[0] != threading.get_ident()

    def fail() -> int:
        raise OSError("gone")

    wait = threads.in_background(fail)
    with pytest.raises(OSError, match="gone"):
        wait()


_LINES = {
    "clean": "{t} Q0 d{k} {k} {s} r\n",
    "double blank": "{t} Q0  d{k} {k} {s} r\n",  # an empty field to the CSV reader
    "no tag, double blank": "{t}  Q0 d{k} {k} {s}\n",  # six fields, one empty
    "tab": "{t}\tQ0 d{k} {k} {s} r\n",
    "trailing blank": "{t} Q0 d{k} {k} {s} r \n",
    "five fields": "{t} Q0 d{k} {k} {s}\n",
    "bad score": "{t} Q0 d{k} {k} x r\n",
}


def _outcome(path):
    """What ``parse_columns`` (the readers not on ``read_fields`` yet) gives of a run file:
    the columns, or the error's class, line and message."""
    try:
        table, _ = _text.parse_columns(
            path, ("qid", "Q0", "docno", "rank", "score", "runid"),
            {"qid": pa.string(), "docno": pa.string(), "score": pa.float64()},
            ["qid", "docno", "score"],
            {4: lambda text: None if _text.is_float(text) else "is not a number"}, "run")
    except Exception as error:  # compared, not raised
        return type(error).__name__, getattr(error, "line", None), str(error)
    return [table[name].to_pylist() for name in ("qid", "docno", "score")]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.sampled_from(sorted(_LINES)), min_size=1, max_size=12),
       scan=st.sampled_from([1, 5, 16, 64, 1 << 22]))
def test_files_checked_beside_their_parse_read_as_checked_before(
        monkeypatch, tmp_path, kinds, scan):
    """With two cores a file of several pieces is parsed as clean while the rest of its
    bytes are checked in another thread: whatever lines it holds, and wherever the first
    line that is not clean lies, the run read (or the error raised, with its line) is the
    one the check made first gives."""
    monkeypatch.setattr(_text, "_CHECK_PIECE", scan)
    path = tmp_path / "r.run"
    path.write_text("".join(_LINES[kind].format(t=1 + k // 4, k=k, s=20 - k)
                            for k, kind in enumerate(kinds)))
    monkeypatch.setattr(threads, "usable_cores", lambda: 1)
    first = _outcome(path)
    monkeypatch.setattr(threads, "usable_cores", lambda: 2)
    parses = []
    parse = _text._parse_checking_aside
    monkeypatch.setattr(_text, "_parse_checking_aside",
                        lambda *args: parses.append(args) or parse(*args))
    assert _outcome(path) == first
    assert parses  # the plain file went that way
