"""Inputs that keep their reader waiting, in real processes (``docs/errors.md`` §4): a FIFO
that no writer opens, and one whose writer sends nothing (a slow pipe), as a run, as qrels
and as diversity qrels, read by the native engine (without the GIL) or by Python. SIGINT
and SIGTERM end the command with its one line (``irscale: interrupted``, 130;
``irscale: terminated``, 143); in the API, ``KeyboardInterrupt`` reaches the caller. And a
FIFO written late, and in two parts, gives what the file gives: its reader waits for the
writer, never taking a FIFO with no writer yet, or emptied while its writer holds it, for
the end of the file.

No case depends on timing: the signal is sent once the process waits for the FIFO (one of
its descriptors in ``/proc/PID/fd`` links to it, or one of its threads sleeps in a FIFO's
blocking ``open``, ``wait_for_partner`` in its ``wchan``) or, with a writer that sends
nothing, once that writer's ``open`` found a reader; nothing is ever written, so the
command can only be waiting then. The limits only end a failure (a process the signal does
not stop), or send the signal anyway where ``/proc`` shows neither sign.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import subprocess
import sys
import termios
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import BIN, populate, subprocess_env
from .test_diversity_faults import FILES as DIVERSITY
from .test_diversity_faults import div

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd") or not hasattr(os, "mkfifo"),
                                reason="needs named pipes and /proc (Linux)")

#: Seconds a process may take to start and wait for the FIFO (a safety net for a loaded
#: machine: the reader opens it as soon as it starts reading); the signal is sent then
#: whatever ``/proc`` shows.
OPEN_LIMIT = 60.0
#: Seconds a process may take to end after the signal (it ends within a second: the limit
#: only ends a reader the signal did not stop).
STOP_LIMIT = 30.0
#: The FIFO's place in a command line.
FIFO = "<fifo>"

#: The API's calls, given the FIFO's path: ``KeyboardInterrupt`` reaches the caller.
API_SCRIPT = (
    "import sys\n"
    "import irscale\n"
    "fifo, call = sys.argv[1], sys.argv[2]\n"
    "try:\n"
    "    if call == 'evaluate-qrels':\n"
    "        irscale.evaluate(fifo, ['a.run'], 'map')\n"
    "    elif call == 'evaluate-run':\n"
    "        irscale.evaluate('qrels.txt', [fifo], 'map')\n"
    "    elif call == 'read_diversity_qrels':\n"
    "        irscale.read_diversity_qrels(fifo)\n"
    "    else:\n"
    "        irscale.read_qrels(fifo)\n"
    "except KeyboardInterrupt:\n"
    "    print('KeyboardInterrupt reached the caller')\n"
    "    sys.exit(0)\n"
    "sys.exit('the call returned')\n"
)
CAUGHT = "KeyboardInterrupt reached the caller"


@dataclass(frozen=True)
class Case:
    """A command line (or, with ``api``, the call of :data:`API_SCRIPT`) whose input
    :data:`FIFO` is a FIFO: nothing is ever written into it; ``writer``: a writer holds it
    open (a slow pipe), else none ever opens it; ``signum`` is sent once it waits."""

    argv: tuple[str, ...]
    signum: int = signal.SIGINT
    writer: bool = False
    api: bool = False
    name: str = "input"  # the FIFO's name (a run named *.parquet is read by pyarrow)


@dataclass
class Outcome:
    status: int | None
    out: str
    err: str
    problem: str | None
    seconds: float  # from the signal to the process's end
    seen_waiting: bool  # the signal was sent once the process was seen waiting

    def describe(self) -> str:
        return (f"\n  status: {self.status}\n  problem: {self.problem}\n  seen waiting: "
                f"{self.seen_waiting}\n  seconds after the signal: {self.seconds:.2f}\n  "
                f"stderr: {self.err[-1500:]!r}\n  stdout: {self.out[:300]!r}")


EVAL_RUN = ("eval", "-m", "map", "qrels.txt", FIFO)
EVAL_QRELS = ("eval", "-m", "map", FIFO, "a.run")
EVAL_DIVERSITY = tuple(div(FIFO))
#: Commands whose inputs Python reads (``irscale.io.files``, ``irscale.io.spool``).
FUSE = ("fuse", FIFO, "b.run", "--method", "wsum", "--weights", "0.5,0.5")
COMPARE = ("compare", "--scores", FIFO)
#: A Parquet run: its bytes read by Python for pyarrow (``irscale.io.files.parquet_input``).
PARQUET = "run.parquet"

CASES: dict[str, Case] = {
    **{f"{name}-{signame.lower()}": Case(argv, getattr(signal, signame))
       for name, argv in {"eval-run": EVAL_RUN, "eval-qrels": EVAL_QRELS,
                          "eval-diversity-qrels": EVAL_DIVERSITY, "fuse": FUSE,
                          "compare-scores": COMPARE}.items()
       for signame in ("SIGINT", "SIGTERM")},
    "eval-run-slow-pipe-sigterm": Case(EVAL_RUN, signal.SIGTERM, writer=True),
    "eval-qrels-slow-pipe-sigint": Case(EVAL_QRELS, writer=True),
    "eval-diversity-qrels-slow-pipe-sigint": Case(EVAL_DIVERSITY, writer=True),
    "fuse-slow-pipe-sigint": Case(FUSE, writer=True),
    "eval-parquet-run-sigterm": Case(EVAL_RUN, signal.SIGTERM, name=PARQUET),
    "eval-parquet-run-slow-pipe-sigint": Case(EVAL_RUN, writer=True, name=PARQUET),
    **{f"api-{call}": Case((call,), api=True)
       for call in ("evaluate-qrels", "evaluate-run", "read_diversity_qrels", "read_qrels")},
    "api-evaluate-run-slow-pipe": Case(("evaluate-run",), writer=True, api=True),
}


def _listed(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:  # the process ended
        return []


def _waits_for(pid: int, path: str) -> bool:
    """Whether process ``pid`` has the FIFO at ``path`` open, or one of its threads sleeps
    in a FIFO's blocking ``open`` (waiting for a writer)."""
    for name in _listed(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{name}") == path:
                return True
        except OSError:  # closed meanwhile
            continue
    for task in _listed(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/wchan") as wchan:
                if wchan.read().strip() == "wait_for_partner":
                    return True
        except OSError:
            continue
    return False


def _open_writer(path: str) -> int | None:
    """A descriptor writing the FIFO at ``path`` once a reader has it open; ``None``
    while none has (``ENXIO``)."""
    try:
        return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno != errno.ENXIO:
            raise
        return None


def execute(case: Case, root: Path) -> Outcome:
    """Run ``case`` in folder ``root``: signal it once it waits for the FIFO, and return how
    it ended."""
    root.mkdir(parents=True)
    populate(root)
    for name, data in DIVERSITY.items():
        (root / name).write_bytes(data)
    pipes = root / "pipes"
    pipes.mkdir()
    fifo = os.path.realpath(pipes / case.name)
    os.mkfifo(fifo)
    if case.api:
        command = [sys.executable, "-c", API_SCRIPT, fifo, *case.argv]
    else:
        command = [*BIN, *(fifo if arg == FIFO else arg for arg in case.argv)]
    proc = subprocess.Popen(command, cwd=root, env=subprocess_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer = None
    problem = None
    seconds = 0.0
    seen = False
    try:
        deadline = time.monotonic() + OPEN_LIMIT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                problem = f"ended (status {proc.returncode}) before the signal"
                break
            if case.writer:
                writer = _open_writer(fifo)
                seen = writer is not None
            else:
                seen = _waits_for(proc.pid, fifo)
            if seen:
                break
            time.sleep(0.01)
        signalled = time.monotonic()
        if proc.poll() is None:
            proc.send_signal(case.signum)
        try:
            out, err = proc.communicate(timeout=STOP_LIMIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            name = signal.Signals(case.signum).name
            problem = problem or f"still running {STOP_LIMIT:g} s after {name}"
        seconds = time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if writer is not None:
            os.close(writer)
    return Outcome(proc.returncode, out.decode(errors="replace"),
                   err.decode(errors="replace"), problem, seconds, seen)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    """Every case run at once, a few processes at a time."""
    base = tmp_path_factory.mktemp("fifo-interrupt")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {key: pool.submit(execute, case, base / key) for key, case in CASES.items()}
        return {key: future.result() for key, future in futures.items()}


@pytest.mark.parametrize("key", [key for key, case in CASES.items() if not case.api])
def test_signal_ends_a_command_waiting_for_an_input(outcomes, key):
    """The command waits for the FIFO (no writer, or one that sends nothing): SIGINT or
    SIGTERM ends it with its one line and status, no traceback."""
    o = outcomes[key]
    assert o.problem is None, o.problem + o.describe()
    assert "Traceback" not in o.err, "traceback shown" + o.describe()
    lines = [line for line in o.err.splitlines() if line.strip()]
    if CASES[key].signum == signal.SIGINT:
        expected, status = "irscale: interrupted", 130
    else:
        expected, status = "irscale: terminated", 128 + signal.SIGTERM
    assert lines == [expected], o.describe()
    assert o.status == status, f"exit status {o.status}, expected {status}" + o.describe()


@pytest.mark.parametrize("key", [key for key, case in CASES.items() if case.api])
def test_keyboard_interrupt_reaches_the_api_caller(outcomes, key):
    """An API call reading a FIFO that keeps it waiting: ^C raises ``KeyboardInterrupt``
    in the caller, as it would in any Python code."""
    o = outcomes[key]
    assert o.problem is None, o.problem + o.describe()
    assert o.status == 0 and o.out.strip() == CAUGHT, o.describe()
    assert "Traceback" not in o.err and "Exception ignored" not in o.err, o.describe()


# ============================================================ FIFOs written late, in parts
class LateWriter(threading.Thread):
    """Writes ``data`` into the FIFO at ``path`` late and in two parts: it opens the FIFO
    only once a reader has it open (a reader that took a FIFO with no writer for an empty
    file would have read its end already), writes the first part (which ends within a
    line), waits until the reader has taken it all (the FIFO empty while its writer still
    holds it), then writes the rest and closes."""

    def __init__(self, path: Path, data: bytes):
        super().__init__(daemon=True)
        self.path, self.data = str(path), data
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._write()
        except OSError as error:  # a reader that left early: the case fails on its output
            self.failure = error

    def _write(self) -> None:
        descriptor = None
        while descriptor is None and not self.stop.is_set():
            descriptor = _open_writer(self.path)
            if descriptor is None:
                self.stop.wait(0.005)
        if descriptor is None:
            return
        try:
            os.set_blocking(descriptor, True)
            half = len(self.data) // 2 + 3
            _write_all(descriptor, self.data[:half])
            while _waiting_bytes(descriptor) and not self.stop.is_set():
                self.stop.wait(0.005)
            _write_all(descriptor, self.data[half:])
        finally:
            os.close(descriptor)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


def _waiting_bytes(descriptor: int) -> int:
    """The bytes written into a FIFO that its reader has not taken yet."""
    return int.from_bytes(fcntl.ioctl(descriptor, termios.FIONREAD, bytes(4)), sys.byteorder)


def _parquet_run(run: bytes) -> bytes:
    """The TREC run ``run`` as a Parquet table (``topic``, ``docno``, ``score``)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import io

    rows = [line.split() for line in run.decode().splitlines()]
    table = pa.table({"topic": [r[0] for r in rows], "docno": [r[2] for r in rows],
                      "score": [float(r[4]) for r in rows]})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


@pytest.mark.parametrize(("argv", "name"), [
    pytest.param(list(EVAL_RUN), "a.run", id="eval-run"),
    pytest.param(list(EVAL_QRELS), "qrels.txt", id="eval-qrels"),
    pytest.param(list(EVAL_DIVERSITY), "div.qrels", id="eval-diversity-qrels"),
    pytest.param(list(EVAL_RUN), PARQUET, id="eval-parquet-run"),
])
def test_fifo_written_late_gives_the_file(argv, name, ws, run_cli, tmp_path):
    """The FIFO opened by its writer after its reader, and written in two parts with a
    pause between them: the output of the same call on the regular file."""
    for file, data in DIVERSITY.items():
        ws.write(file, data)
    if name == PARQUET:
        ws.write(name, _parquet_run(ws.read("a.run")))
    reference = run_cli([name if arg == FIFO else arg for arg in argv])
    assert reference.status == 0, reference.describe()
    folder = tmp_path / "pipes"
    folder.mkdir()
    fifo = folder / name
    os.mkfifo(fifo)
    writer = LateWriter(fifo, ws.read(name))
    writer.start()
    try:
        result = run_cli([str(fifo) if arg == FIFO else arg for arg in argv])
    finally:
        writer.stop.set()
        writer.join(10)
    assert writer.failure is None, repr(writer.failure) + result.describe()
    assert result.status == 0, result.describe()
    assert result.out.replace(str(fifo), name) == reference.out, result.describe()
