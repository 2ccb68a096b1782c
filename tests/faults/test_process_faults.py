"""Checks that need the real process: ^C (SIGINT) during the work, while reading
standard input, while the modules are imported and while the interpreter exits, standard
output and error on ``/dev/full``, piped standard input, outputs checked before the work,
a relevance label of 2^31 in 4 GiB of address space, and the absence of tracebacks.

Starting Python with numpy, scipy and pandas costs one to two seconds, so the processes
of this module are all started at once, in their own folders, by one module fixture (a few
at a time); each test then checks the outcome of its own process.
"""

from __future__ import annotations

import json
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
#: The console script (``from irscale.cli.main import main; sys.exit(main())``), announcing
#: on standard error when ``main`` imports its first module, so inside its protected region
#: (only loading ``irscale``, ``irscale.cli`` and ``irscale.cli.main`` comes before ``main``
#: is called: see :func:`test_console_script_imports_nothing_before_main`).
SCRIPT_READY = (
    "import sys\n"
    "from irscale.cli.main import main\n"
    "class Ready:\n"
    "    done = False\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if not Ready.done:\n"
    "            Ready.done = True\n"
    f"            sys.stderr.write({READY!r} + '\\n'); sys.stderr.flush()\n"
    "        return None\n"
    "sys.meta_path.insert(0, Ready())\n"
    "sys.exit(main())\n"
)
HOOKED = "irscale-test: hooked"
#: The console script with ^C simulated when module ``sys.argv[1]`` is first imported:
#: ``raise`` raises ``KeyboardInterrupt`` there; ``convert`` sends a real SIGINT and turns
#: the ``KeyboardInterrupt`` into an ``ImportError``, as numpy does when its C extension's
#: import is interrupted (``PyCapsule_Import could not import module "datetime"``);
#: ``leak`` sends a real SIGINT while a file object is open, as an import interrupted
#: between ``open`` and ``with`` leaves it (collected later with a ``ResourceWarning``);
#: ``version`` lets the module load and sends a real SIGINT while numpy's version is read
#: (what the engine does when it first loads numpy's C API, inside a call: the
#: ``KeyboardInterrupt`` there is a panic of the engine, once shown as a Rust backtrace).
SCRIPT_INTERRUPTED_IMPORT = (
    "import os, sys\n"
    "TARGET, MODE = sys.argv.pop(1), sys.argv.pop(1)\n"
    "class Interrupt:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name != TARGET:\n"
    "            return None\n"
    "        sys.meta_path.remove(self)\n"
    f"        sys.stderr.write({HOOKED!r} + '\\n'); sys.stderr.flush()\n"
    "        if MODE == 'raise':\n"
    "            raise KeyboardInterrupt\n"
    "        if MODE == 'version':\n"
    "            import numpy.lib\n"
    "            real = numpy.lib.NumpyVersion\n"
    "            def interrupted(version):\n"
    "                numpy.lib.NumpyVersion = real\n"
    "                import signal\n"
    "                os.kill(os.getpid(), signal.SIGINT)\n"
    "                for _ in range(10000):\n"
    "                    pass\n"
    "                return real(version)\n"
    "            numpy.lib.NumpyVersion = interrupted\n"
    "            return None\n"
    "        import signal\n"
    "        leaked = open(os.devnull, 'rb') if MODE == 'leak' else None\n"
    "        try:\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "            for _ in range(10000):\n"
    "                pass\n"
    "        except KeyboardInterrupt:\n"
    "            if leaked is not None:\n"
    "                raise\n"
    "        raise ImportError(f'could not import module {name!r}')\n"
    "sys.meta_path.insert(0, Interrupt())\n"
    "from irscale.cli.main import main\n"
    "sys.exit(main())\n"
)
#: The console script, with the signal named by ``sys.argv[1]`` (^C, SIGTERM, SIGHUP) sent
#: while the interpreter exits (an ``atexit`` callback, run after ``main`` returned).
SCRIPT_INTERRUPTED_EXIT = (
    "import atexit, os, signal, sys\n"
    "SIGNAL = getattr(signal, sys.argv.pop(1))\n"
    "def late():\n"
    "    os.kill(os.getpid(), SIGNAL)\n"
    "    sum(range(100000))\n"
    "atexit.register(late)\n"
    "from irscale.cli.main import main\n"
    "sys.exit(main())\n"
)
MEMORY = 4 * 2**30  # address space of the label-size process (2^31 gains need 17 GB)


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@dataclass
class Job:
    argv: list[str]
    interrupt: bool = False  # send ``signum`` one second after the imports
    signum: int = signal.SIGINT  # the signal of ``interrupt``
    interrupt_at: float | None = None  # SIGINT this long after main() is called (or none,
    # if the process ended first)
    script: str | None = None  # Python code run with argv instead of the command
    stdin: bytes | None = None  # data, closed after; None: /dev/null
    open_stdin: bytes | None = None  # data on a pipe that is never closed
    stdout_full: bool = False  # standard output on /dev/full
    stderr_full: bool = False  # standard error on /dev/full (nothing can be read back)
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
                proc.send_signal(job.signum)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            problem = problem or f"still running 30 s after {signal.Signals(job.signum).name}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for fd in (read_end, write_end):
            if fd is not None:
                os.close(fd)
    text_err = (err_head + err).decode(errors="replace").replace(READY + "\n", "")
    return proc.returncode, out, text_err, problem


def _run_interrupted_at(job: Job, root: Path) -> tuple[int | None, bytes, str, str | None]:
    """Run the console script, send SIGINT ``job.interrupt_at`` seconds after ``main``
    announced its first import (unless the process ended before), and return what it
    did."""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT_READY, *job.argv], cwd=root,
                            env=subprocess_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    problem = None
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        head = proc.stderr.readline() if ready else b""
        if head.decode(errors="replace").strip() != READY:
            problem = f"no {READY!r} line: {head!r}"
        else:
            time.sleep(job.interrupt_at or 0)
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            problem = problem or "still running 60 s after SIGINT"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err.decode(errors="replace"), problem


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
        elif job.interrupt_at is not None:
            status, out, err, problem = _run_interrupted_at(job, root)
        else:
            command = job.shell or ([sys.executable, "-c", job.script, *job.argv]
                                    if job.script else [*BIN, *job.argv])
            kwargs: dict = dict(cwd=root, env=subprocess_env(), timeout=job.timeout,
                                shell=job.shell is not None)
            if job.limit_memory:
                kwargs["preexec_fn"] = _limit_memory
            kwargs["input" if job.stdin is not None else "stdin"] = (
                job.stdin if job.stdin is not None else subprocess.DEVNULL)
            full = "/dev/full" if job.stdout_full or job.stderr_full else os.devnull
            with open(full, "wb") as full_device:
                proc = subprocess.run(
                    command, stdout=full_device if job.stdout_full else subprocess.PIPE,
                    stderr=full_device if job.stderr_full else subprocess.PIPE, **kwargs)
            status, out, err = proc.returncode, proc.stdout or b"", (
                proc.stderr or b"").decode(errors="replace")
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


def _wide_scores(systems: int = 48, topics: int = 30) -> bytes:
    """A score matrix of many systems (1,128 pairs at 48): discriminative power keeps
    ⌊Bα⌉ |t*| of every pair, a pool of 0.9 GB at B = 10^6."""
    rows = [",".join(f"s{s}" for s in range(systems))]
    rows += [",".join(f"{((t * 7 + s * 13) % 17) / 20 + s / (4 * systems):.4f}"
                      for s in range(systems)) for t in range(topics)]
    return text(rows)


#: Discriminative power of many pairs at B = 10^6: ^C or a stop signal during its
#: resampling ends it within a block of pairs (it finished the chunks under way and wrote
#: the pool of every pair in one call first: 6.5 to 40 s).
DP_MANY_PAIRS = ["meta", "dp", "--scores", "wide.csv", "-B", "1000000", "--seed", "1",
                 "--no-progress"]
SIGINT_JOBS = {
    "compare-bootstrap-o": Job([*BOOT, "--samples", "1000000000", "--workers", "2", "-o",
                                "out.txt"], interrupt=True),
    "dp-many-pairs": Job(DP_MANY_PAIRS, interrupt=True, files={"wide.csv": _wide_scores()}),
    "dp-o": Job([*CSV_DP, "-B", "100000000", "-o", "out.txt"], interrupt=True),
    "split-o-and-plot": Job([*SPLIT, "--repetitions", "1000000", "-o", "out.txt", "--plot",
                             "tau.png"], interrupt=True),
    "image-csv-long-write": Job([*IMAGE, "-N", "30", "-o", "img.csv"], interrupt=True),
    "eval-reading-stdin": Job(["eval", "qrels.txt", "-", "-o", "out.txt"], interrupt=True,
                              open_stdin=RUN[:200]),
}
#: SIGTERM (what SLURM, Kubernetes and systemd send) and SIGHUP (a closed terminal) stop a
#: command as ^C does: reading standard input that never ends (so the signal always finds
#: the command at work) and resampling with an output (a staging folder: see
#: ``test_eval_many_faults.test_stop_signal_leaves_no_staging_folder``).
STOP_JOBS = {
    f"{name.lower()}-{key}": Job(argv, interrupt=True, signum=getattr(signal, name),
                                 open_stdin=RUN[:200] if "-" in argv else None,
                                 files={"wide.csv": _wide_scores()} if key == "dp-many-pairs"
                                 else {})
    for name in ("SIGTERM", "SIGHUP")
    for key, argv in {
        "eval-reading-stdin": ["eval", "qrels.txt", "-", "-o", "out.txt"],
        "dp-o": [*CSV_DP, "-B", "100000000", "-o", "out.txt"],
        "dp-many-pairs": DP_MANY_PAIRS,
    }.items()
}
DEV_FULL_JOBS = {
    "eval": Job(["eval", "qrels.txt", "a.run", "-m", "map"], stdout_full=True),
    "compare": Job(["compare", "--scores", "ap.csv"], stdout_full=True),
    "scale-image": Job([*IMAGE, "-N", "3"], stdout_full=True),
}
#: Standard error on /dev/full too (the error line is lost; the status is not).
FULL_STDERR_JOBS = {
    "eval-both": Job(["eval", "qrels.txt", "a.run", "-m", "map"], stdout_full=True,
                     stderr_full=True),
    "compare-both": Job(["compare", "--scores", "ap.csv"], stdout_full=True,
                        stderr_full=True),
    "missing-file-both": Job(["eval", "qrels.txt", "missing.run"], stdout_full=True,
                             stderr_full=True),
    "missing-file": Job(["eval", "qrels.txt", "missing.run"], stderr_full=True),
    "usage-error": Job(["eval", "--bogus", "qrels.txt", "a.run"], stderr_full=True),
}
EVAL_SMALL = ["eval", "qrels.txt", "a.run", "-m", "map", "-m", "P@5"]
#: ^C this long after ``main`` started importing: while it imports (argparse, the
#: subcommand, numpy, pyarrow), evaluates, writes or the interpreter exits, whichever comes.
INTERRUPT_DELAYS = (0.0, 0.005, 0.01, 0.02, 0.04, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5)
INTERRUPT_AT_JOBS = {f"{delay:g}s": Job(EVAL_SMALL, interrupt_at=delay)
                     for delay in INTERRUPT_DELAYS}
#: Modules the console script imports (stdlib, irscale, numerical) and how ^C hits them.
INTERRUPTED_IMPORTS = {
    "signal": ("signal", "raise"),
    "argparse": ("argparse", "raise"),
    "irscale.errors": ("irscale.errors", "raise"),
    "irscale.cli.eval": ("irscale.cli.eval", "raise"),
    "irscale.cli.outputs": ("irscale.cli.outputs", "raise"),
    "irscale.evaluation": ("irscale.evaluation", "raise"),
    "numpy": ("numpy", "raise"),
    "pyarrow": ("pyarrow", "raise"),
    "numpy-converted": ("numpy", "convert"),
    "pyarrow-leaving-a-file": ("pyarrow", "leak"),
    "engine-numpy-api": ("irscale._engine", "version"),
}
INTERRUPTED_IMPORT_JOBS = {
    key: Job([module, mode, *(["demo", "--out", "d"] if mode == "version" else EVAL_SMALL)],
             script=SCRIPT_INTERRUPTED_IMPORT)
    for key, (module, mode) in INTERRUPTED_IMPORTS.items()
}
#: A job whose output is checked before the work ends at once; unchecked, it would run for
#: hours. The limit only ends such a failure: a busy machine's start-up stays far below it.
BEFORE_WORK_LIMIT = 120
BEFORE_WORK_JOBS = {
    key: Job(argv, timeout=BEFORE_WORK_LIMIT) for key, argv in {
        "dp-o": [*CSV_DP, "-B", "100000000", "-o", "nodir/out.txt"],
        "split-plot": [*SPLIT, "--repetitions", "1000000", "--plot", "nodir/tau.png"],
        "compare-o": [*BOOT, "--samples", "1000000000", "-o", "nodir/out.txt"],
        "image-csv": [*IMAGE, "-N", "30", "-o", "nodir/img.csv"],
    }.items()
}
NO_TRACEBACK_JOBS = {
    "missing-file": Job(["eval", "qrels.txt", "missing.run"]),
    "bad-run-line": Job(["eval", "qrels.txt", "bad.run"],
                        files={"bad.run": RUN.replace(b"0.70", b"x.yz", 1)}),
    "no-arguments": Job([]),
}
_IRSCALE = shlex.join(BIN)
_RUN_LINES = run_lines("a")
#: Standard input as a pipe and as a file (spooled to a re-readable file, irscale.io.spool):
#: errors name ``<stdin>`` and the line, never the file the bytes were moved to.
STDIN_JOBS = {
    "stdin-pipe-gzip": Job([], shell=f"gzip -c a.run | {_IRSCALE} eval qrels.txt - -m map -q"),
    "stdin-pipe-bad-line": Job(
        [], shell=f"cat bad.run | {_IRSCALE} eval qrels.txt -",
        files={"bad.run": text([*_RUN_LINES[:4], _RUN_LINES[4].replace(" Q0", ""),
                                *_RUN_LINES[5:]])}),
    "stdin-pipe-duplicate": Job(
        [], shell=f"cat dup.run | {_IRSCALE} eval qrels.txt -",
        files={"dup.run": text([*_RUN_LINES, _RUN_LINES[1]])}),
    "stdin-pipe-truncated-gzip": Job(
        [], shell=f"gzip -c a.run | head -c 60 | {_IRSCALE} eval qrels.txt -"),
    "stdin-pipe-empty": Job([], shell=f"true | {_IRSCALE} eval qrels.txt -"),
    # files may not exceed 1 KiB: the engine holds piped standard input in memory, so the
    # run (4 KB) is evaluated as from its file
    "stdin-pipe-size-limit": Job(
        [], shell=f"cat long.run | (ulimit -f 1; {_IRSCALE} eval qrels.txt -)",
        files={"long.run": text([f"1 Q0 d{k} {k} {200 - k} r" for k in range(1, 200)])}),
    "stdin-pipe-size-limit-file": Job(
        ["eval", "qrels.txt", "long.run"],
        files={"long.run": text([f"1 Q0 d{k} {k} {200 - k} r" for k in range(1, 200)])}),
    "stdin-closed": Job([], shell=f"{_IRSCALE} eval qrels.txt - <&-"),
    "stdin-file": Job([], shell=f"{_IRSCALE} eval qrels.txt - -m map -q < a.run"),
    # bash's read leaves a regular file's offset just after the line it read: the run is
    # the lines after it, not the file from its start
    "stdin-file-read-on": Job(
        [], shell=f"(read -r first; {_IRSCALE} eval qrels.txt - -m map -q) < a.run"),
    "stdin-file-rest": Job(["eval", "qrels.txt", "rest.run", "-m", "map", "-q"],
                           files={"rest.run": text(_RUN_LINES[1:])}),
}
OTHER_JOBS = {
    "stdin-pipe": Job([], shell=f"cat a.run | {shlex.join(BIN)} eval qrels.txt - -m map -q"),
    "stdin-twice": Job(["eval", "qrels.txt", "-", "-"], stdin=RUN),
    **STDIN_JOBS,
    "label-2pow31": Job(["eval", "big.qrels", "a.run", "-m", "ndcg", "-m", "ndcg_cut_10",
                         "-m", "ERR@10", "-m", "Q", "-m", "map"], limit_memory=True,
                        files={"big.qrels": _relabel(2**31)}),
    **{f"{name.lower()}-at-exit": Job([name, *EVAL_SMALL], script=SCRIPT_INTERRUPTED_EXIT)
       for name in ("SIGINT", "SIGTERM", "SIGHUP")},
    "reference-eval": Job(EVAL_SMALL),
}
ALL_JOBS = {
    **{f"sigint-{k}": v for k, v in SIGINT_JOBS.items()},
    **{f"stop-{k}": v for k, v in STOP_JOBS.items()},
    **{f"sigint-at-{k}": v for k, v in INTERRUPT_AT_JOBS.items()},
    **{f"sigint-importing-{k}": v for k, v in INTERRUPTED_IMPORT_JOBS.items()},
    **{f"dev-full-{k}": v for k, v in DEV_FULL_JOBS.items()},
    **{f"stderr-full-{k}": v for k, v in FULL_STDERR_JOBS.items()},
    **{f"before-work-{k}": v for k, v in BEFORE_WORK_JOBS.items()},
    **{f"no-traceback-{k}": v for k, v in NO_TRACEBACK_JOBS.items()},
    **OTHER_JOBS,
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    base = tmp_path_factory.mktemp("processes")
    wanted = {k: v for k, v in ALL_JOBS.items()
              if not (k.startswith(("dev-full", "stderr-full"))
                      and not os.path.exists("/dev/full"))}
    # interrupted jobs first: their timing does not depend on the load
    order = sorted(wanted, key=lambda k: not k.startswith(("sigint", "stop")))
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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("key", list(STOP_JOBS))
def test_stop_signal(outcomes, key):
    """SIGTERM and SIGHUP: one ``irscale: terminated`` line, status 128 + the signal's
    number (as a shell reports a process the signal killed), no output, no staging file."""
    o = _outcome(outcomes, f"stop-{key}")
    line = _error_line(o)
    assert line == "irscale: terminated", line + o.describe()
    expected = 128 + STOP_JOBS[key].signum
    assert o.status == expected, f"exit status {o.status}, expected {expected}" + o.describe()
    assert not o.changes, f"files left after the signal: {o.changes}" + o.describe()


@pytest.mark.parametrize("key", list(DEV_FULL_JOBS))
def test_stdout_on_dev_full(outcomes, key):
    o = _outcome(outcomes, f"dev-full-{key}")
    line = _error_line(o)
    assert o.status == 2, f"exit status {o.status}, expected 2" + o.describe()
    assert "cannot write" in line and "no space left on device" in line, line


@pytest.mark.parametrize("key", list(FULL_STDERR_JOBS))
def test_stderr_on_dev_full(outcomes, key):
    """``2>/dev/full``: the error line cannot be written, the status still says what
    happened (2: a write failure or bad input), never 1 (a traceback that could not be
    printed) or 120 (Python's own flush at exit failing)."""
    o = _outcome(outcomes, f"stderr-full-{key}")
    assert o.problem is None, o.problem + o.describe()
    assert o.status == 2, f"exit status {o.status}, expected 2" + o.describe()
    assert not o.changes, o.changes


def _lines(err: str, *drop: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip() and line not in drop]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("key", list(INTERRUPT_AT_JOBS))
def test_sigint_at_any_moment(outcomes, key):
    """^C at several moments after the console script calls ``main`` (imports, the
    evaluation, the output, the interpreter's exit): ``irscale: interrupted`` and status
    130, or, if the command was done first, its output and status 0; never a traceback."""
    o = _outcome(outcomes, f"sigint-at-{key}")
    assert o.problem is None, o.problem + o.describe()
    assert "Traceback" not in o.err, "traceback shown" + o.describe()
    if o.status == 130:
        assert _lines(o.err) == ["irscale: interrupted"], o.describe()
        assert not o.changes, o.changes
    else:
        assert o.status == 0, f"exit status {o.status}, expected 130 or 0" + o.describe()
        assert not _lines(o.err), o.describe()
        assert o.out == outcomes["reference-eval"].out, o.describe()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_at_some_moment_interrupts(outcomes):
    """At least one of the ^C of :func:`test_sigint_at_any_moment` came before the command
    was done (SIGINT right as ``main`` is called): they do check the interrupt."""
    statuses = {key: outcomes[f"sigint-at-{key}"].status for key in INTERRUPT_AT_JOBS}
    assert 130 in statuses.values(), statuses


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("key", list(INTERRUPTED_IMPORT_JOBS))
def test_sigint_while_importing(outcomes, key):
    """^C while a module is imported, the modules of ``irscale.cli.main`` included: they
    are imported inside ``main``'s protected region. A ^C that a library turns into an
    ``ImportError`` (numpy) is still an interrupt, not an internal error (status 3), and a
    file object left to the garbage collector adds no ``irscale: warning: unclosed file``."""
    o = _outcome(outcomes, f"sigint-importing-{key}")
    assert o.problem is None, o.problem + o.describe()
    if HOOKED not in o.err:
        pytest.skip(f"{key}: imported before the console script ran")
    assert "Traceback" not in o.err, "traceback shown" + o.describe()
    assert _lines(o.err, HOOKED) == ["irscale: interrupted"], o.describe()
    assert o.status == 130, f"exit status {o.status}, expected 130" + o.describe()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_signal_while_exiting(outcomes, name):
    """^C, SIGTERM or SIGHUP after ``main`` returned, in an ``atexit`` callback: the
    command is done, its output and status stand (a stop signal once killed the process
    there: status -15, no message), and the interpreter prints no traceback."""
    o = outcomes[f"{name.lower()}-at-exit"]
    assert "Traceback" not in o.err, "traceback shown" + o.describe()
    assert o.status == 0, f"exit status {o.status}, expected 0" + o.describe()
    assert not _lines(o.err) and o.out == outcomes["reference-eval"].out, o.describe()


def test_console_script_imports_nothing_before_main():
    """The ``irscale`` script imports its entry point's module before ``main`` runs, where
    ^C would show a traceback: that loads ``irscale``, ``irscale.cli`` and
    ``irscale.cli.main`` and nothing else (argparse, ``irscale.errors``... come inside
    ``main``; ``import irscale`` loads no submodule, not even :mod:`typing`)."""
    from importlib.metadata import entry_points

    scripts = [ep for ep in entry_points(group="console_scripts") if ep.name == "irscale"]
    module, attr = (scripts[0].module, scripts[0].attr) if scripts else (
        "irscale.cli.main", "main")
    code = ("import json, sys\n"
            "before = set(sys.modules)\n"
            f"from {module} import {attr}\n"
            "print(json.dumps(sorted(set(sys.modules) - before)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=subprocess_env(), check=True)
    loaded = set(json.loads(done.stdout))
    package = module.split(".")
    ours = {".".join(package[:i]) for i in range(1, len(package) + 1)}
    assert loaded <= ours | {"__future__"}, sorted(loaded - ours)


#: The console script with ^C where Python cannot raise it: in a weakref callback run by
#: the import machinery while ``main`` imports :mod:`irscale.io.trec` (seen once in CI at
#: 0.02 s after ``main`` was called, as ``Exception ignored in: <function
#: _get_module_lock.<locals>.cb>`` with a traceback).
SCRIPT_UNRAISABLE_INTERRUPT = (
    "import os, signal, sys, weakref\n"
    "class Held:\n"
    "    pass\n"
    "held = [Held()]\n"
    "def late(_):\n"
    "    os.kill(os.getpid(), signal.SIGINT)\n"
    "    sum(range(100000))\n"
    "ref = weakref.ref(held[0], late)\n"
    "class Drop:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'irscale.io.trec' and held:\n"
    "            held.clear()\n"
    "        return None\n"
    "sys.meta_path.insert(0, Drop())\n"
    "from irscale.cli.main import main\n"
    "sys.exit(main())\n"
)


#: The console script with an ``atexit`` callback and, with ``thread`` as first argument, a
#: Python thread that writes a file once ``main`` has returned: it is alive when the command
#: is done, whatever the machine's load (an event, not a sleep that a slow command could
#: outlast).
SCRIPT_AT_EXIT = (
    "import atexit, sys, threading\n"
    "atexit.register(lambda: open('atexit.txt', 'w').write('ran'))\n"
    "returned = threading.Event()\n"
    "if sys.argv[1] == 'thread':\n"
    "    threading.Thread(target=lambda: (returned.wait(),\n"
    "                     open('thread.txt', 'w').write('done'))).start()\n"
    "del sys.argv[1]\n"
    "from irscale.cli.main import main\n"
    "status = main()\n"
    "returned.set()\n"
    "sys.exit(status)\n"
)


@pytest.mark.parametrize("thread", [False, True], ids=["alone", "thread"])
def test_the_finished_command_ends_the_process(tmp_path, thread):
    """A finished command ends its process by the interpreter's usual exit: the ``atexit``
    callbacks run, the whole output and the status stand, and a Python thread still alive
    is waited for."""
    populate(tmp_path)
    argv = ["eval", "qrels.txt", "a.run", "-m", "map", "-q"]
    done = subprocess.run([sys.executable, "-c", SCRIPT_AT_EXIT, "thread" if thread else "-",
                           *argv], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=subprocess_env())
    reference = subprocess.run([*BIN, *argv], cwd=tmp_path, capture_output=True,
                               text=True, timeout=120, env=subprocess_env())
    assert done.returncode == reference.returncode == 0, done.stderr
    assert done.stdout == reference.stdout and done.stdout.count("\n") == 7
    assert (tmp_path / "atexit.txt").read_text() == "ran"
    assert done.stderr == reference.stderr == "", done.stderr
    assert (tmp_path / "thread.txt").exists() == thread


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_python_cannot_raise_shows_no_traceback(tmp_path):
    """A ^C raised inside a weakref callback is lost to Python (it goes on, as if the ^C
    had come after the command): no ``Exception ignored`` traceback, the command's
    output and status 0."""
    populate(tmp_path)
    done = subprocess.run([sys.executable, "-c", SCRIPT_UNRAISABLE_INTERRUPT, "eval",
                           "qrels.txt", "a.run", "-m", "map"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=subprocess_env())
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, \
        done.stderr
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout.startswith("map"), done.stdout


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


def test_stdin_pipe_gzip_and_file(outcomes, ws, run_cli):
    """Gzip data through a pipe, and standard input redirected from the file, give the
    file's output."""
    direct = run_cli(["eval", "qrels.txt", "a.run", "-m", "map", "-q"])
    for key in ("stdin-pipe-gzip", "stdin-file"):
        o = outcomes[key]
        assert o.status == direct.status == 0, key + o.describe()
        assert o.out.decode() == direct.out, key + o.describe()


def test_stdin_file_read_from_its_offset(outcomes):
    """Standard input redirected from a file that was partly read: the lines after the
    offset, as reading the descriptor gives them, not the file from its start."""
    rest, read_on = outcomes["stdin-file-rest"], outcomes["stdin-file-read-on"]
    assert rest.status == read_on.status == 0, read_on.describe()
    assert read_on.out == rest.out and rest.out, read_on.describe()


def test_stdin_pipe_needs_no_file(outcomes):
    """Piped standard input is read into memory, not spooled to a file, so a limit on the
    size of files (``ulimit -f``) does not stop it: the run is evaluated as from its file."""
    piped, from_file = outcomes["stdin-pipe-size-limit"], outcomes["stdin-pipe-size-limit-file"]
    assert piped.status == from_file.status == 0, piped.describe()
    assert piped.out == from_file.out and b"num_ret" in piped.out, piped.describe()


@pytest.mark.parametrize(("key", "words"), [
    ("stdin-pipe-bad-line", ["<stdin>", "line 5"]),
    ("stdin-pipe-duplicate", ["<stdin>", f"line {len(_RUN_LINES) + 1}"]),
    ("stdin-pipe-truncated-gzip", ["<stdin>"]),
    ("stdin-pipe-empty", ["<stdin>", "empty"]),
    ("stdin-closed", ["<stdin>", "closed"]),
])
def test_stdin_pipe_errors_name_stdin(outcomes, key, words):
    """Errors in piped standard input name ``<stdin>`` and the line, not the in-memory
    file its bytes were moved to."""
    o = outcomes[key]
    line = _error_line(o)
    assert o.status == 2, o.describe()
    assert all(word in line for word in words) and "/proc/" not in line, line


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

