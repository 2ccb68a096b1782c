"""Checks that need the real process: ^C (SIGINT) during the work and while reading
standard input, standard output on ``/dev/full``, piped standard input, outputs checked
before the work, a relevance label of 2^31 in 4 GiB of address space, and the absence
of tracebacks.

Starting Python with numpy, scipy and pandas costs one to two seconds, so the processes
of this module are all started at once, in their own folders, by one module fixture (a few
at a time); each test then checks the outcome of its own process.
"""

from __future__ import annotations

import os
import resource
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import (
    BIN,
    changes,
    populate,
    qrels_lines,
    run_lines,
    snapshot,
    subprocess_env,
    text,
    trec_values,
)

#: The console script's code path (``sys.exit(main())``), announcing on standard error
#: when the imports are done, so that ^C is sent once the work has started.
READY = "irscale-test: ready"
WRAPPER = (
    "import sys, numpy, pandas, scipy.stats\n"
    "from irscale.cli.main import build_parser, main\n"
    "build_parser()\n"
    f"sys.stderr.write({READY!r} + '\\n'); sys.stderr.flush()\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
MEMORY = 4 * 2**30  # address space of the label-size process (2^31 gains need 17 GB)


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@dataclass
class Job:
    argv: list[str]
    interrupt: bool = False  # send SIGINT one second after the imports
    stdin: bytes | None = None  # data, closed after; None: /dev/null
    open_stdin: bytes | None = None  # data on a pipe that is never closed
    stdout_full: bool = False  # standard output on /dev/full
    shell: str | None = None  # a shell command line instead of argv
    limit_memory: bool = False
    timeout: float = 60
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Outcome:
    status: int | None
    out: bytes
    err: str
    changes: list[str]
    problem: str | None = None  # the process could not be run as planned
    seconds: float = 0.0

    def describe(self) -> str:
        return (f"\n  status: {self.status}\n  problem: {self.problem}\n  stderr: "
                f"{self.err[-1500:]!r}\n  stdout: {self.out[:300]!r}\n  changes: "
                f"{self.changes}")


def _run_interrupted(job: Job, root: Path) -> tuple[int | None, bytes, str, str | None]:
    read_end = write_end = None
    stdin = subprocess.DEVNULL
    if job.open_stdin is not None:
        read_end, write_end = os.pipe()
        os.write(write_end, job.open_stdin)
        stdin = read_end
    proc = subprocess.Popen([sys.executable, "-c", WRAPPER, *job.argv], cwd=root,
                            env=subprocess_env(), stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    problem = None
    err_head = b""
    try:
        deadline = time.monotonic() + 60
        while READY.encode() not in err_head:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([proc.stderr], [], [], max(remaining, 0))
            chunk = os.read(proc.stderr.fileno(), 4096) if ready else b""
            if not chunk:
                problem = "the process ended (or hung) before its imports were done"
                break
            err_head += chunk
        if problem is None:
            time.sleep(1.0)
            if proc.poll() is not None:
                problem = f"the work finished before the interrupt (status {proc.returncode})"
            else:
                proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            problem = problem or "still running 30 s after SIGINT"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for fd in (read_end, write_end):
            if fd is not None:
                os.close(fd)
    text_err = (err_head + err).decode(errors="replace").replace(READY + "\n", "")
    return proc.returncode, out, text_err, problem


def execute(job: Job, root: Path) -> Outcome:
    root.mkdir(parents=True)
    populate(root)
    for name, data in job.files.items():
        (root / name).write_bytes(data)
    before = snapshot(root)
    problem = None
    start = time.monotonic()
    try:
        if job.interrupt:
            status, out, err, problem = _run_interrupted(job, root)
        else:
            kwargs: dict = dict(cwd=root, env=subprocess_env(), stderr=subprocess.PIPE,
                                timeout=job.timeout)
            if job.limit_memory:
                kwargs["preexec_fn"] = _limit_memory
            kwargs["input" if job.stdin is not None else "stdin"] = (
                job.stdin if job.stdin is not None else subprocess.DEVNULL)
            if job.stdout_full:
                with open("/dev/full", "wb") as full:
                    proc = subprocess.run(job.shell or [*BIN, *job.argv], stdout=full,
                                          shell=job.shell is not None, **kwargs)
            else:
                proc = subprocess.run(job.shell or [*BIN, *job.argv], stdout=subprocess.PIPE,
                                      shell=job.shell is not None, **kwargs)
            status, out, err = proc.returncode, proc.stdout or b"", proc.stderr.decode(
                errors="replace")
    except subprocess.TimeoutExpired as timeout:
        status, out = None, timeout.output or b""
        err = (timeout.stderr or b"").decode(errors="replace")
        problem = f"still running after {job.timeout:g} s"
    return Outcome(status, out, err, changes(before, snapshot(root)), problem,
                   time.monotonic() - start)


# ================================================================================= jobs
RUN = text(run_lines("a"))
CSV_DP = ["meta", "dp", "--scores", "ap.csv", "--seed", "1"]
BOOT = ["compare", "--scores", "ap.csv", "--test", "bootstrap", "--seed", "1"]
SPLIT = ["meta", "split", "--scores", "ap.csv", "--sizes", "3", "--models", "MD1"]
IMAGE = ["scale", "image", "-m", "AP", "--no-progress"]


def _relabel(value: int) -> bytes:
    return text([" ".join([*f[:3], str(value) if f[3] == "2" else f[3]])
                 for f in (line.split() for line in qrels_lines())])


SIGINT_JOBS = {
    "compare-bootstrap-o": Job([*BOOT, "--samples", "1000000000", "--workers", "2", "-o",
                                "out.txt"], interrupt=True),
    "dp-o": Job([*CSV_DP, "-B", "100000000", "-o", "out.txt"], interrupt=True),
    "split-o-and-plot": Job([*SPLIT, "--repetitions", "1000000", "-o", "out.txt", "--plot",
                             "tau.png"], interrupt=True),
    "image-csv-long-write": Job([*IMAGE, "-N", "30", "--csv", "img.csv"], interrupt=True),
    "eval-reading-stdin": Job(["eval", "qrels.txt", "-", "-o", "out.txt"], interrupt=True,
                              open_stdin=RUN[:200]),
}
DEV_FULL_JOBS = {
    "eval": Job(["eval", "qrels.txt", "a.run", "-m", "map"], stdout_full=True),
    "compare": Job(["compare", "--scores", "ap.csv"], stdout_full=True),
    "scale-image": Job([*IMAGE, "-N", "3"], stdout_full=True),
}
BEFORE_WORK_JOBS = {
    "dp-o": Job([*CSV_DP, "-B", "100000000", "-o", "nodir/out.txt"], timeout=20),
    "split-plot": Job([*SPLIT, "--repetitions", "1000000", "--plot", "nodir/tau.png"],
                      timeout=20),
    "compare-o": Job([*BOOT, "--samples", "1000000000", "-o", "nodir/out.txt"], timeout=20),
    "image-csv": Job([*IMAGE, "-N", "30", "--csv", "nodir/img.csv"], timeout=20),
}
NO_TRACEBACK_JOBS = {
    "missing-file": Job(["eval", "qrels.txt", "missing.run"]),
    "bad-run-line": Job(["eval", "qrels.txt", "bad.run"],
                        files={"bad.run": RUN.replace(b"0.70", b"x.yz", 1)}),
    "no-arguments": Job([]),
}
OTHER_JOBS = {
    "stdin-pipe": Job([], shell=f"cat a.run | {shlex.join(BIN)} eval qrels.txt - -m map -q"),
    "stdin-twice": Job(["eval", "qrels.txt", "-", "-"], stdin=RUN),
    "label-2pow31": Job(["eval", "big.qrels", "a.run", "-m", "ndcg", "-m", "ndcg_cut_10",
                         "-m", "ERR@10", "-m", "Q", "-m", "map"], limit_memory=True,
                        files={"big.qrels": _relabel(2**31)}),
}
ALL_JOBS = {
    **{f"sigint-{k}": v for k, v in SIGINT_JOBS.items()},
    **{f"dev-full-{k}": v for k, v in DEV_FULL_JOBS.items()},
    **{f"before-work-{k}": v for k, v in BEFORE_WORK_JOBS.items()},
    **{f"no-traceback-{k}": v for k, v in NO_TRACEBACK_JOBS.items()},
    **OTHER_JOBS,
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    base = tmp_path_factory.mktemp("processes")
    wanted = {k: v for k, v in ALL_JOBS.items()
              if not (k.startswith("dev-full") and not os.path.exists("/dev/full"))}
    # interrupted jobs first: their timing does not depend on the load
    order = sorted(wanted, key=lambda k: not k.startswith("sigint"))
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {k: pool.submit(execute, wanted[k], base / k) for k in order}
        return {k: f.result() for k, f in futures.items()}


def _outcome(outcomes: dict[str, Outcome], key: str) -> Outcome:
    if key not in outcomes:
        pytest.skip(f"{key}: precondition missing (e.g. /dev/full)")
    return outcomes[key]


def _error_line(o: Outcome) -> str:
    assert o.problem is None, o.problem + o.describe()
    assert "Traceback" not in o.err, "traceback shown" + o.describe()
    lines = [line for line in o.err.splitlines()
             if line.strip() and not line.startswith("irscale: warning: ")]
    assert not any(line.lower().startswith("usage:") for line in lines), \
        "usage text shown" + o.describe()
    assert len(lines) == 1 and lines[0].startswith("irscale: "), \
        f"{len(lines)} error lines, expected one 'irscale: ' line" + o.describe()
    return lines[0]


# ================================================================================ tests
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("key", list(SIGINT_JOBS))
def test_sigint(outcomes, key):
    o = _outcome(outcomes, f"sigint-{key}")
    line = _error_line(o)
    assert line == "irscale: interrupted", line + o.describe()
    assert o.status == 130, f"exit status {o.status}, expected 130" + o.describe()
    assert not o.changes, f"files left after ^C: {o.changes}" + o.describe()


@pytest.mark.parametrize("key", list(DEV_FULL_JOBS))
def test_stdout_on_dev_full(outcomes, key):
    o = _outcome(outcomes, f"dev-full-{key}")
    line = _error_line(o)
    assert o.status == 2, f"exit status {o.status}, expected 2" + o.describe()
    assert "cannot write" in line and "no space left on device" in line, line


@pytest.mark.parametrize("key", list(BEFORE_WORK_JOBS))
def test_output_checked_before_work(outcomes, key):
    o = _outcome(outcomes, f"before-work-{key}")
    if o.problem and o.problem.startswith("still running"):
        pytest.fail("the output path was not checked before the work started: "
                    + o.problem + o.describe())
    line = _error_line(o)
    assert o.status == 2, f"exit status {o.status}, expected 2" + o.describe()
    assert "nodir" in line or "qrels.txt" in line, line
    assert not o.changes, o.changes


@pytest.mark.parametrize("key", list(NO_TRACEBACK_JOBS))
def test_real_process_one_line_no_traceback(outcomes, key):
    o = _outcome(outcomes, f"no-traceback-{key}")
    _error_line(o)
    assert o.status == 2, f"exit status {o.status}, expected 2" + o.describe()
    assert not o.changes


def test_stdin_pipe(outcomes, ws, run_cli):
    piped = outcomes["stdin-pipe"]
    direct = run_cli(["eval", "qrels.txt", "a.run", "-m", "map", "-q"])
    assert piped.status == direct.status == 0, piped.describe()
    assert piped.out.decode() == direct.out and piped.out, piped.describe()


def test_stdin_twice(outcomes):
    o = outcomes["stdin-twice"]
    _error_line(o)
    assert o.status == 2, o.describe()


def test_huge_label_in_little_memory(outcomes, ws, run_cli):
    """A relevance label of 2^31 evaluates with graded measures in 4 GiB of address
    space, and the binary measures do not change."""
    o = outcomes["label-2pow31"]
    reference = run_cli(["eval", "qrels.txt", "a.run", "-m", "map"])
    assert reference.status == 0, reference.describe()
    assert o.status == 0, f"exit status {o.status}" + o.describe()
    assert "Traceback" not in o.err
    assert trec_values(o.out.decode(), "map") == trec_values(reference.out, "map")


def test_console_script_exists():
    """The ``irscale`` command is installed (the subprocesses use ``python -m``)."""
    if shutil.which("irscale") is None:
        pytest.skip("irscale script not on PATH")
    proc = subprocess.run(["irscale", "--version"], capture_output=True, text=True,
                          timeout=60, env=subprocess_env())
    assert proc.returncode == 0 and "Traceback" not in proc.stderr

