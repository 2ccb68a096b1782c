"""Inputs read once (standard input, FIFOs, devices) moved to a re-readable in-memory file
(:mod:`irscale.io.spool`): same bytes, the regular file's paths, descriptors closed."""

from __future__ import annotations

import gc
import gzip
import os
import stat
import threading

import pytest

import irscale
from irscale.io import _text, spool

pytestmark = pytest.mark.skipif(
    not (hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")),
    reason="no memfd_create or /proc here: inputs read once are read whole")

RUN = "".join(f"{t} Q0 d{k} {k} {10 - k / 7:.4f} r\n" for t in (1, 2) for k in range(1, 9))


def _pipe(data: bytes) -> tuple[int, threading.Thread]:
    """The read end of a pipe that a thread fills with ``data`` (then closes)."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(write_end, view):]
        except BrokenPipeError:
            pass  # a reader that stopped before the end (the line limit)
        finally:
            os.close(write_end)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return read_end, thread


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("size", [0, 10, (1 << 20) + 7, 3 << 20])
def test_pipe_spooled_whole_and_readable_twice(size):
    """Every byte of a pipe (more than one splice and more than the pipe's buffer) is in
    the file, which reads alike twice and is a regular file."""
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    read_end, thread = _pipe(data)
    try:
        spooled = spool.spool_input(f"/proc/self/fd/{read_end}")
    finally:
        thread.join(10)
        os.close(read_end)
    assert spooled is not None
    for _ in range(2):
        with open(spooled.path, "rb") as handle:
            assert handle.read() == data
    assert stat.S_ISREG(os.stat(spooled.path).st_mode)


def test_descriptor_closed_when_collected():
    gc.collect()  # the spooled inputs of earlier tests, held by cycles (their tracebacks)
    before = _open_descriptors()
    read_end, thread = _pipe(RUN.encode())
    spooled = spool.spool_input(f"/proc/self/fd/{read_end}")
    thread.join(10)
    os.close(read_end)
    assert _open_descriptors() == before + 1
    del spooled
    gc.collect()
    assert _open_descriptors() == before


def test_gzip_data_keep_the_gzip_path(monkeypatch):
    """Gzip data through a pipe are parsed as they are decompressed from the spooled file
    (never read whole), and give the run of the plain text."""
    def whole(*args, **kwargs):
        raise AssertionError("read whole")

    read_end, thread = _pipe(gzip.compress(RUN.encode()))
    try:
        with monkeypatch.context() as patch:
            patch.setattr(_text, "read_input", whole)
            patch.setattr(_text, "read_bytes", whole)
            run = irscale.read_run(f"/proc/self/fd/{read_end}")
    finally:
        thread.join(10)
        os.close(read_end)
    expected = irscale.read_run(RUN.encode())
    assert run.docno.to_pylist() == expected.docno.to_pylist()
    assert run.score.tolist() == expected.score.tolist()


class _Descriptor0:
    """``sys.stdin`` as a process's own: reads descriptor 0."""

    buffer = property(lambda self: self)

    def fileno(self) -> int:
        return 0

    def read(self, *args):
        raise AssertionError("standard input read whole")


@pytest.fixture
def stdin_pipe(monkeypatch):
    """Descriptor 0 made the read end of a pipe filled with ``data`` (restored after)."""
    saved = os.dup(0)
    threads = []

    def fill(data: bytes) -> None:
        read_end, thread = _pipe(data)
        threads.append(thread)
        os.dup2(read_end, 0)
        os.close(read_end)

    monkeypatch.setattr("sys.stdin", _Descriptor0())
    yield fill
    for thread in threads:
        thread.join(10)
    os.dup2(saved, 0)
    os.close(saved)


def test_stdin_pipe_spooled(stdin_pipe):
    """``-`` on a pipe is spooled (``sys.stdin`` is never read whole) and reads as the
    bytes do; a later error that needs the text again names ``<stdin>`` and the line."""
    stdin_pipe(RUN.encode())
    run = irscale.read_run("-")
    assert run.docno.to_pylist() == irscale.read_run(RUN.encode()).docno.to_pylist()
    lines = RUN.splitlines(keepends=True)
    stdin_pipe("".join([*lines, lines[2]]).encode())
    with pytest.raises(irscale.errors.DuplicateError) as info:
        irscale.read_run("-")
    assert info.value.source == "<stdin>" and info.value.line == len(lines) + 1


def test_stdin_replaced_is_read_as_it_is(monkeypatch):
    """A ``sys.stdin`` that is not descriptor 0 (a notebook's, a test's) is not spooled."""
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RUN.encode())))
    assert spool.spool_input("-") is None
    assert irscale.read_run("-").docno.to_pylist() == \
        irscale.read_run(RUN.encode()).docno.to_pylist()


def test_without_memfd_inputs_are_read_whole(monkeypatch):
    """Where the system has no ``memfd_create`` (not Linux), a pipe's bytes are read whole
    (``spool_input`` gives ``None``) and give the same run."""
    monkeypatch.delattr(os, "memfd_create")
    read_end, thread = _pipe(RUN.encode())
    try:
        assert spool.spool_input(f"/proc/self/fd/{read_end}") is None
        run = irscale.read_run(f"/proc/self/fd/{read_end}")
    finally:
        thread.join(10)
        os.close(read_end)
    assert run.docno.to_pylist() == irscale.read_run(RUN.encode()).docno.to_pylist()


def test_stdin_descriptor_closed_is_named(monkeypatch):
    """Descriptor 0 closed after the interpreter started: one error naming ``<stdin>``."""
    saved = os.dup(0)
    monkeypatch.setattr("sys.stdin", _Descriptor0())
    os.close(0)
    try:
        with pytest.raises(irscale.errors.FileAccessError, match="cannot read <stdin>"):
            irscale.read_run("-")
    finally:
        os.dup2(saved, 0)
        os.close(saved)


class _SmallWatch(spool.LineWatch):
    """A line watch whose limit is 200 KiB (the engine's is 16 MiB)."""

    def __init__(self) -> None:
        super().__init__()
        self.limit = 200 << 10


def test_spliced_moves_watched_by_their_line_ends():
    """A move spliced is watched by reading back its two ends (a text of ordinary lines)
    or the whole of it (a move whose ends hold no line end): the same answers, move after
    move, as a watch of every byte, for lines shorter than a peek, longer than one and
    beyond the limit, each cut anywhere by the moves."""
    import random

    rng = random.Random(7)
    lengths = [10, 100, 5000, 70_000, 150_000, 199_000, 210_000]
    text = b"".join(b"x" * rng.choice(lengths) + b"\n" for _ in range(60))
    target = os.memfd_create("irscale-test", os.MFD_CLOEXEC)
    try:
        os.write(target, text)
        whole, spliced, at = _SmallWatch(), _SmallWatch(), 0
        while at < len(text):
            size = min(rng.choice([1, 100, 1 << 16, (1 << 17) + 3, 1 << 20]), len(text) - at)
            expected = whole.beyond(text[at:at + size])
            assert spool._spliced_beyond(spliced, target, at, size) == expected, at
            assert (spliced.open, spliced.head) == (whole.open, whole.head)
            at += size
    finally:
        os.close(target)


def test_pipe_spooled_to_its_first_line_beyond_the_limit(monkeypatch):
    """A pipe whose third line is longer than the limit is moved to a little beyond that
    line's limit, not to its end (an endless one would be held to the memory limit); lines
    longer than a peek but within the limit are moved whole."""
    monkeypatch.setattr(spool, "LineWatch", _SmallWatch)
    fit = b"a\n" + b"y" * (150 << 10) + b"\n"
    data = fit + b"z" * (4 << 20) + b"\n" + RUN.encode()
    read_end, thread = _pipe(data)
    try:
        spooled = spool.spool_input(f"/proc/self/fd/{read_end}")
    finally:
        os.close(read_end)  # the feeder's writes fail once the reader is gone
        thread.join(10)
    assert spooled is not None
    with open(spooled.path, "rb") as handle:
        held = handle.read()
    assert data.startswith(held) and len(fit) + (200 << 10) < len(held) < len(data) - (1 << 20)
    fits = fit * 40
    read_end, thread = _pipe(fits)
    try:
        spooled = spool.spool_input(f"/proc/self/fd/{read_end}")
    finally:
        thread.join(10)
        os.close(read_end)
    with open(spooled.path, "rb") as handle:
        assert handle.read() == fits
