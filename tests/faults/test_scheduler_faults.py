"""``--scheduler`` on every command that parallelises: ``compare``,
``meta dp | split | swap | loo``, ``scale image`` and ``eval`` (its batches, as
``eval-many``): bad address forms, ``local:0``, an unreachable scheduler (a clear error at
once), a peer that is no Dask scheduler (garbage or silence: the same error, in bounded
time), ``--workers`` with it, commands whose work is not parallel, Dask missing (an error
naming the extra), the same output on a local cluster as without it, and a local cluster
stopped by ^C or SIGTERM (only the ``irscale:`` line, no process left)."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from .conftest import BIN, changes, err, ok, opt, run_case, same_output_as, subprocess_env

RANDOM = ["compare", "--scores", "ap.csv", "--test", "randomization", "--samples", "99",
          "--seed", "1"]
DP = ["meta", "dp", "--scores", "ap.csv", "-B", "50", "--seed", "1", "--method", "both"]
SPLIT = ["meta", "split", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
         "--seed", "1", "--models", "MD1"]
SWAP = ["meta", "swap", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
        "--seed", "1", "--test", "randomization", "-B", "50"]
LOO = ["meta", "loo", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "--depth", "3"]
IMAGE = ["scale", "image", "-m", "ERR", "-N", "4", "--levels", "3", "--no-progress"]
COMMANDS = {"compare": RANDOM, "dp": DP, "split": SPLIT, "swap": SWAP, "loo": LOO,
            "image": IMAGE}
#: Nothing listens on port 1 of this machine: the connection is refused at once.
UNREACHABLE = "tcp://127.0.0.1:1"

CASES = [row for name, argv in COMMANDS.items() for row in (
    err(f"{name}-scheduler-local-0", [*argv, "--scheduler", "local:0"], opt("--scheduler"),
        "local:0", "1 to 1024"),
    err(f"{name}-scheduler-local-text", [*argv, "--scheduler", "local:two"],
        opt("--scheduler"), "local:two"),
    err(f"{name}-scheduler-bare-word", [*argv, "--scheduler", "cluster"], opt("--scheduler"),
        "'cluster'", "tcp://host:port"),
    err(f"{name}-scheduler-no-port", [*argv, "--scheduler", "tcp://10.0.0.5"],
        opt("--scheduler"), "scheme://host:port"),
    err(f"{name}-scheduler-bad-port", [*argv, "--scheduler", "tcp://10.0.0.5:70000"],
        opt("--scheduler"), "scheme://host:port"),
    err(f"{name}-scheduler-http", [*argv, "--scheduler", "http://10.0.0.5:8786"],
        opt("--scheduler"), "http://10.0.0.5:8786"),
    err(f"{name}-scheduler-empty", [*argv, "--scheduler", ""], opt("--scheduler")),
    err(f"{name}-scheduler-unreachable", [*argv, "--scheduler", UNREACHABLE],
        opt("--scheduler"), UNREACHABLE, "no Dask scheduler answers"),
)] + [
    ok("compare-scheduler-local-is-the-threads", [*RANDOM, "--scheduler", "local",
                                                  "--workers", "2"], same_output_as(*RANDOM)),
    err("compare-scheduler-and-workers", [*RANDOM, "--workers", "2", "--scheduler", "local:2"],
        "--workers", "--scheduler", "exclude each other"),
    err("compare-scheduler-with-t", ["compare", "--scores", "ap.csv", "--test", "t",
                                     "--scheduler", "local:2"], opt("--scheduler"),
        "resampling tests"),
    err("compare-scheduler-with-tukey", ["compare", "--scores", "ap.csv", "--scheduler",
                                         "local:2"], opt("--scheduler")),
    err("correlate-has-no-scheduler", ["meta", "correlate", "--scores", "ap.csv", "--scores",
                                       "p10.csv", "--scheduler", "local:2"],
        opt("--scheduler")),
    # eval takes --scheduler since it streams its runs in batches
    err("eval-scheduler-unreachable", ["eval", "qrels.txt", "a.run", "--scheduler",
                                       UNREACHABLE, "--no-progress"],
        opt("--scheduler"), "no Dask scheduler answers"),
]

#: The same output on a local cluster of one worker process as in this process.
LOCAL_CLUSTER = [
    ok(f"{name}-scheduler-local-1", [*argv, "--scheduler", "local:1"], same_output_as(*argv))
    for name, argv in COMMANDS.items()
]


@pytest.mark.parametrize("case", CASES)
def test_scheduler(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.parametrize("case", LOCAL_CLUSTER)
def test_scheduler_local_cluster(case, ws, run_cli):
    pytest.importorskip("distributed")
    run_case(case, ws, run_cli)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_scheduler_without_dask_names_the_extra(name, ws, run_cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    run_case(err(f"{name}-no-dask", [*COMMANDS[name], "--scheduler", "local:2"],
                 "irscale[dask]", "--scheduler").values[0], ws, run_cli)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_local_cluster_stopped_by_a_signal(name, ws):
    """``eval-many --scheduler local:2`` on a real LocalCluster, stopped by ^C or SIGTERM
    once its staging folder exists (the cluster at work): only ``irscale:`` lines reach
    the user (no Dask log, traceback, unclosed socket or leaked semaphore), the status is
    that of the signal, nothing is left in the folder, and no process of the command's
    session (nanny, worker, resource tracker) outlives it."""
    pytest.importorskip("distributed")
    (ws.root / "runs").mkdir()
    for index in range(300):  # a batch per file: longer than a few seconds of work
        (ws.root / "runs" / f"r{index}.run").write_bytes((ws.root / "a.run").read_bytes())
    before = ws.snapshot()
    number = getattr(signal, name)
    proc = subprocess.Popen(
        [*BIN, "eval-many", "qrels.txt", "runs", "-m", "map", "--batch-size", "1",
         "--scheduler", "local:2", "--per-topic-out", "pt", "--no-progress", "-o",
         "out.txt"], cwd=ws.root, env=subprocess_env(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # a bound on a stuck start, not a timing
        while not any(p.name.startswith(".pt.") for p in ws.root.iterdir()):
            assert proc.poll() is None, f"ended before its cluster worked: {proc.returncode}"
            assert time.monotonic() < deadline, "no staging folder after 120 s"
            select.select([], [], [], 0.05)
        proc.send_signal(number)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    expected = ["irscale: interrupted" if name == "SIGINT" else "irscale: terminated"]
    assert err.decode(errors="replace").splitlines() == expected, err[-3000:]
    assert proc.returncode == 128 + number, proc.returncode
    assert not changes(before, ws.snapshot())
    deadline = time.monotonic() + 60
    while True:  # the session's processes: gone once their parent's pipes close
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "processes of the command outlive it by 60 s"
        select.select([], [], [], 0.1)


def _children(pid: int) -> bool:
    """Whether process ``pid`` has a child process (a worker its cluster starts)."""
    import psutil

    try:
        return bool(psutil.Process(pid).children())
    except psutil.NoSuchProcess:
        return False


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("moment", ["starting", "stopping"])
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_local_cluster_stopped_while_it_starts_or_stops(name, moment, ws):
    """``eval-many --scheduler local:2`` stopped by ^C or SIGTERM while its LocalCluster
    starts (as soon as the command has a child process: a worker being started) or shuts
    down (as soon as ``--per-topic-out`` is complete: the work is done): one ``irscale:``
    line and the status of the signal (or, where the command ended before the signal
    came, its output), no traceback or line from Dask's exit handler or from
    multiprocessing's resource tracker, no process left."""
    pytest.importorskip("distributed")
    number = getattr(signal, name)
    proc = subprocess.Popen(
        [*BIN, "eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
         "--scheduler", "local:2", "--per-topic-out", "pt", "--no-progress", "-o",
         "out.txt"], cwd=ws.root, env=subprocess_env(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    ready = (lambda: _children(proc.pid)) if moment == "starting" else \
        (lambda: (ws.root / "pt").is_dir())
    try:
        deadline = time.monotonic() + 120  # a bound on a stuck start, not a timing
        while not ready() and proc.poll() is None:
            assert time.monotonic() < deadline, f"not {moment} after 120 s"
            select.select([], [], [], 0.01)
        proc.send_signal(number)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    lines = err.decode(errors="replace").splitlines()
    if proc.returncode == 0:  # done before the signal came
        assert lines == [] and (ws.root / "out.txt").is_file(), err[-3000:]
    else:
        expected = "irscale: interrupted" if name == "SIGINT" else "irscale: terminated"
        assert lines == [expected], err[-3000:]
        assert proc.returncode == 128 + number, proc.returncode
    deadline = time.monotonic() + 60
    while True:  # the session's processes: gone once their parent's pipes close
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "processes of the command outlive it by 60 s"
        select.select([], [], [], 0.1)


MANY_ONE = ["eval-many", "qrels.txt", "a.run", "-m", "map", "--no-progress"]


class _NotDask:
    """A TCP peer on a free port of this machine that is no Dask scheduler: it answers
    each connection with an HTTP error (``garbage``: Dask reads a frame length out of it)
    or with nothing at all (``silent``: an HTTP server waiting for a request)."""

    def __init__(self, mode: str) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.server.getsockname()[1]}"
        self.mode = mode
        self.connections: list = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:  # closed
                return
            self.connections.append(connection)
            if self.mode == "garbage":
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    def close(self) -> None:
        self.server.close()
        for connection in self.connections:
            connection.close()


@pytest.mark.parametrize("mode", ["garbage", "silent"])
def test_scheduler_address_that_is_not_dask(mode, ws, run_cli, monkeypatch):
    """``--scheduler`` naming a peer that is no Dask scheduler: one ``irscale:`` line
    naming the address within the handshake's time limit (made short here), never
    "out of memory" nor a hang."""
    pytest.importorskip("distributed")
    from irscale.parallel import executor

    monkeypatch.setattr(executor, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(executor, "HANDSHAKE_SLACK", 0.5)
    peer = _NotDask(mode)
    try:
        run_case(err(f"not-dask-{mode}", [*MANY_ONE, "--scheduler", peer.address],
                     opt("--scheduler"), peer.address, "no Dask scheduler answers"
                     ).values[0], ws, run_cli)
    finally:
        peer.close()



def test_a_failed_handshake_leaves_no_client_to_deadlock_a_later_one(ws, run_cli, monkeypatch):
    """Handshakes that fail one after the other, the second under the collector's pressure
    (threshold 1: it runs at every allocation), end: the handshake thread is never left
    stuck. Seen once in a full run (a worker's handshake thread stuck in Dask's loop runner,
    closing a collected Client through the lock its own starting Client held, and the
    worker's next LocalCluster waiting on that lock for ever); not reproduced on demand, so
    this is a guard against the hang, beside the cause removed in
    ``irscale.parallel.executor._connected`` (no collection while a Client starts)."""
    pytest.importorskip("distributed")
    import gc

    from irscale.parallel import executor

    monkeypatch.setattr(executor, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(executor, "HANDSHAKE_SLACK", 0.5)
    thresholds = gc.get_threshold()
    peer = _NotDask("garbage")
    try:
        for attempt in range(2):
            if attempt:
                gc.set_threshold(1)
            run_case(err(f"not-dask-{attempt}", [*MANY_ONE, "--scheduler", peer.address],
                         opt("--scheduler"), peer.address, "no Dask scheduler answers"
                         ).values[0], ws, run_cli)
            gc.set_threshold(*thresholds)
            for thread in threading.enumerate():
                if thread.name == "irscale-dask-handshake":
                    thread.join(60)  # a guard against a hang, not a timing
                    assert not thread.is_alive(), "the Dask handshake thread is stuck"
    finally:
        gc.set_threshold(*thresholds)
        peer.close()
