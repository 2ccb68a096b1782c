"""Readers bound their memory (docs/errors.md §1, "Inputs beyond the line and memory
limits"): whatever an input decompresses to, no reader holds a line beyond the line limit
(16 MiB) or a text beyond the memory limit; the input is refused with one ``irscale:`` line
naming the file (and the line), as a run, qrels, diversity qrels, a label file, a score
CSV, a click log or standard input.

In process, the memory limit is pinned to 8 MiB (by default it is half of the machine's
memory, or of the process's own limit): gzip files of a few kilobytes whose text is a line
of 17 MiB, or 64 MiB of valid lines, are refused reading 8 MiB or 16 MiB of them at most.

Inputs that never end (``/dev/zero``, a FIFO whose writer never stops, standard input) are
read a block at a time: one endless line is refused by the line limit, endless valid lines by
the memory limit, whatever the reader (every input of every command as ``/dev/zero``).

In real processes under an address-space limit (``RLIMIT_AS`` of 2 GiB, as ``ulimit -v`` or
a batch scheduler sets it), the bombs of a few megabytes that decompress to 3 GiB of one line
or 4 GiB of one valid line repeated, as a run, as qrels and to ``fuse``, and a plain file of
one line: status 2 and one ``irscale:`` line, never an allocation failure that aborts the
process (status 134) or a bare "out of memory".
"""

from __future__ import annotations

import contextlib
import gzip
import os
import resource
import subprocess
import threading
from pathlib import Path

import pytest

import irscale.core.budget
from irscale import _engine

from .conftest import (
    BIN,
    Result,
    err,
    error_line,
    gz,
    populate,
    qrels_lines,
    run_case,
    run_lines,
    score_text,
    subprocess_env,
)
from .test_diversity_faults import FILES as DIVERSITY
from .test_fifo_sweep_faults import FILES as SWEEP_FILES
from .test_fifo_sweep_faults import INPUTS, NOT_READ, SHARED, key, placed
from .test_meta_judge_noise_faults import BASE as JUDGE_NOISE
from .test_online_clicks_faults import FILES as CLICKS
from .test_online_clicks_faults import LOG

LIMIT = _engine.LINE_LIMIT
MEMORY = ("memory limit", "8 MiB")


def repeated(unit: bytes, total: int) -> bytes:
    """gzip data whose text is ``unit`` repeated to ``total`` bytes or more: one member of
    1 MiB of it, over and over (a few kilobytes of gzip for each GiB of text)."""
    chunk = unit * max(1, (1 << 20) // len(unit))
    return gzip.compress(chunk, mtime=0) * -(-total // len(chunk))


def long_after(first: str) -> bytes:
    """gzip data of the line ``first``, then a line of 17 MiB (line 2)."""
    return gz(first.encode() + b"\n") + repeated(b"x", LIMIT + (1 << 20))


def lines_after(first: str, line: str) -> bytes:
    """gzip data of the line ``first``, then 64 MiB of the valid line ``line``."""
    return gz(first.encode() + b"\n") + repeated(line.encode() + b"\n", 64 << 20)


RUN, QREL = run_lines("a")[0], qrels_lines()[0]
LABEL = "1 0 d1 7"
DIV_QREL = "1 1 d1 1"
HEADER, ROW = score_text("ap").splitlines()[:2]
LABELS = ["eval", "qrels.txt", "a.run", "--labels", "under=big.gz", "-m", "uRBP(p=0.8)"]

#: Each input of each reader: (id, argv, its first line, the valid line it repeats, the
#: other files it needs).
READERS = [
    ("eval-run", ["eval", "qrels.txt", "big.gz"], RUN, RUN, {}),
    ("eval-qrels", ["eval", "big.gz", "a.run"], QREL, QREL, {}),
    ("eval-many-run", ["eval-many", "qrels.txt", "big.gz", "--no-progress"], RUN, RUN, {}),
    ("eval-labels", LABELS, LABEL, LABEL, {}),
    ("eval-diversity-qrels", ["eval", "big.gz", "a.run", "-m", "alpha-nDCG@5"], DIV_QREL,
     DIV_QREL, {}),
    ("eval-ndeval-run", ["eval", "div.qrels", "big.gz", "-m", "alpha-nDCG@5"], RUN, RUN,
     DIVERSITY),
    ("fuse-run", ["fuse", "a.run", "big.gz", "--method", "combsum"], RUN, RUN, {}),
    ("compare-scores", ["compare", "--scores", "big.gz"], HEADER, ROW, {}),
    ("online-click-log", ["online", "fit", "big.gz", "--model", "dbn"], LOG[0], LOG[0],
     CLICKS),
]

LINE_CASES = [
    *[err(f"{name}-line-beyond-the-limit", argv, "big.gz, line 2", "16 MiB",
          files={**files, "big.gz": long_after(first)})
      for name, argv, first, _, files in READERS],
    # a plain file: its line read to the limit, not beyond
    err("eval-run-plain-line-beyond-the-limit", ["eval", "qrels.txt", "long.run"],
        "long.run, line 2", "16 MiB",
        files={"long.run": RUN.encode() + b"\n" + b"x" * (LIMIT + 1) + b"\n"}),
    # standard input, read whole (a test's stdin is not descriptor 0: never spooled)
    err("eval-stdin-line-beyond-the-limit", ["eval", "qrels.txt", "-"], "<stdin>, line 2",
        "16 MiB", stdin=long_after(RUN)),
]

MEMORY_CASES = [
    *[err(f"{name}-text-beyond-the-memory-limit", argv, "big.gz", *MEMORY,
          files={**files, "big.gz": lines_after(first, line)})
      for name, argv, first, line, files in READERS],
    # a plain file beyond the limit is refused by its size, before it is read
    err("eval-qrels-plain-beyond-the-memory-limit", ["eval", "big.qrels", "a.run"],
        "big.qrels", *MEMORY, files={"big.qrels": (QREL + "\n").encode() * (1 << 20)}),
    err("compare-scores-plain-beyond-the-memory-limit", ["compare", "--scores", "big.csv"],
        "big.csv", *MEMORY,
        files={"big.csv": (HEADER + "\n" + (ROW + "\n") * (1 << 19)).encode()}),
    err("eval-stdin-beyond-the-memory-limit", ["eval", "qrels.txt", "-"], "<stdin>",
        *MEMORY, stdin=(RUN + "\n").encode() * (1 << 20)),
    # 2,000 lines of qrels, each topic judged at a degree of its own: the engine's table of
    # judged documents by topic and degree (2,000 × 2,001 cells, 32 MB) is charged to the
    # limit, not allocated whatever its size (80 GB from 100,000 such lines)
    err("eval-qrels-topics-by-degrees-beyond-the-memory-limit", ["eval", "wide.qrels",
                                                                 "a.run"],
        "wide.qrels", *MEMORY, files={"wide.qrels": "".join(
            f"{t} 0 d1 {t}\n" for t in range(1, 2001)).encode()}),
]


@pytest.mark.parametrize("case", LINE_CASES)
def test_line_limit(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.fixture
def eight_mib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: 8 << 20)


@pytest.mark.parametrize("case", MEMORY_CASES)
def test_memory_limit(case, ws, run_cli, eight_mib):
    run_case(case, ws, run_cli)


def test_a_line_of_the_limit_is_read(ws, run_cli):
    """The limit is the longest line read, not refused: a docno of 16 MiB less a few
    bytes, in the run and in the qrels."""
    docno = "d" + "x" * (LIMIT - 40)
    ws.write("long.qrels", f"1 0 d1 1\n1 0 {docno} 1\n")
    ws.write("long.run", gz(f"1 Q0 d1 1 0.9 r\n1 Q0 {docno} 2 0.1 r\n".encode()))
    result = run_cli(["eval", "long.qrels", "long.run", "-m", "num_rel_ret"])
    assert result.status == 0, result.describe()
    assert "num_rel_ret\tall\t2" in result.out.replace(" ", ""), result.describe()


# ----------------------------------------------------------------- real processes
#: The address space the processes may take (RLIMIT_AS).
ADDRESS_SPACE = 2 << 30
#: A run line of a long docno: the columns of a run hold about its text's bytes.
WIDE_RUN = "1 Q0 d" + "w" * 240 + " 1 1.0 r"


def _limited() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _one_line() -> bytes:
    return repeated(b"x", 3 << 30)  # 3 GiB of one line: 3 MB of gzip


#: argv, the files (made when the case runs), what the error line names.
PROCESSES = {
    "run-3gib-one-line": (["eval", "qrels.txt", "bomb.gz"], lambda: {"bomb.gz": _one_line()},
                          ("bomb.gz, line 1", "16 MiB")),
    "qrels-3gib-one-line": (["eval", "bomb.gz", "a.run"], lambda: {"bomb.gz": _one_line()},
                            ("bomb.gz, line 1", "16 MiB")),
    "fuse-3gib-one-line": (["fuse", "a.run", "bomb.gz", "--method", "combsum"],
                           lambda: {"bomb.gz": _one_line()}, ("bomb.gz, line 1", "16 MiB")),
    "run-plain-one-line": (["eval", "qrels.txt", "long.run"],
                           lambda: {"long.run": b"y" * (LIMIT + 4096)},
                           ("long.run, line 1", "16 MiB")),
    # 4 GiB of one valid line: 10 MB of gzip
    "run-4gib-valid-lines": (["eval", "qrels.txt", "bomb.gz"],
                             lambda: {"bomb.gz": repeated(f"{WIDE_RUN}\n".encode(), 4 << 30)},
                             ("bomb.gz", "memory limit", "ulimit -v")),
    "qrels-4gib-valid-lines": (["eval", "bomb.gz", "a.run"],
                               lambda: {"bomb.gz": repeated(f"{QREL}\n".encode(), 4 << 30)},
                               ("bomb.gz", "memory limit", "ulimit -v")),
    # /dev/zero as a run and as qrels: refused by the line limit, not held to the memory limit
    "run-dev-zero": (["eval", "qrels.txt", "/dev/zero"], dict, ("/dev/zero, line 1", "16 MiB")),
    "qrels-dev-zero": (["eval", "/dev/zero", "a.run"], dict, ("/dev/zero, line 1", "16 MiB")),
    # 1.5 MB of qrels whose table of topics by degrees would take 80 GB
    "qrels-topics-by-degrees": (["eval", "wide.qrels", "a.run"], lambda: {"wide.qrels": "".join(
        f"{t} 0 d1 {t}\n" for t in range(1, 100_001)).encode()},
                                ("wide.qrels", "memory limit", "ulimit -v")),
}


@pytest.mark.parametrize("name", PROCESSES)
def test_bombs_under_an_address_space_limit(name, tmp_path: Path):
    """A real process under ``RLIMIT_AS``: status 2 and one ``irscale:`` line naming the
    file (the bombs are a few megabytes of gzip, and no more of them is decompressed than
    the limits allow)."""
    argv, files, needles = PROCESSES[name]
    populate(tmp_path)
    for file, data in files().items():
        (tmp_path / file).write_bytes(data)
    process = subprocess.run([*BIN, *argv], cwd=tmp_path, env=subprocess_env(),
                             preexec_fn=_limited, stdin=subprocess.DEVNULL,
                             capture_output=True, timeout=300)
    result = Result(argv, process.returncode, process.stdout.decode(errors="replace"),
                    process.stderr.decode(errors="replace"))
    assert process.returncode == 2, f"status {process.returncode}" + result.describe()
    line = error_line(result)
    assert all(needle in line for needle in needles), f"{line!r} lacks {needles}"


def _zeros_into(pipe) -> None:  # pragma: no cover - timing of the reader's close
    """Writes NUL bytes into ``pipe`` until its reader closes it."""
    try:
        while True:
            pipe.write(bytes(1 << 20))
    except (BrokenPipeError, ValueError, OSError):
        pass


@pytest.mark.parametrize("argv", [["eval", "qrels.txt", "-"],
                                  ["fuse", "a.run", "-", "--method", "combsum"]],
                         ids=["eval-run", "fuse-run"])
def test_endless_pipe_under_an_address_space_limit(argv, tmp_path: Path):
    """Standard input a pipe of NUL bytes that never ends (``cat /dev/zero |``), read by
    the engine or moved by ``splice`` into an in-memory file: refused by the line limit,
    one ``irscale:`` line, under ``RLIMIT_AS``."""
    populate(tmp_path)
    out, error = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("wb") as out_file, error.open("wb") as error_file:
        process = subprocess.Popen([*BIN, *argv], cwd=tmp_path, env=subprocess_env(),
                                   preexec_fn=_limited, stdin=subprocess.PIPE, bufsize=0,
                                   stdout=out_file, stderr=error_file)
    writer = threading.Thread(target=_zeros_into, args=(process.stdin,), daemon=True)
    writer.start()
    try:
        process.wait(timeout=300)
    finally:
        process.kill()
        writer.join(10)
        with contextlib.suppress(OSError):
            process.stdin.close()
    result = Result(argv, process.returncode, out.read_text(errors="replace"),
                    error.read_text(errors="replace"))
    assert process.returncode == 2, f"status {process.returncode}" + result.describe()
    line = error_line(result)
    assert "<stdin>, line 1" in line and "16 MiB" in line, line


# ------------------------------------------------------------- inputs that never end
#: The memory limit of the rows below: beyond the line limit (16 MiB), so that a line
#: beyond it is refused for its length, and small enough that an input held whole before
#: it is refused does no harm.
ENDLESS_MEMORY = 64 << 20


@pytest.fixture
def sixty_four_mib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: ENDLESS_MEMORY)


LOGLIK = ["online", "loglik", "--params", "/dev/zero", "--test", "test.log"]
ZERO = ("/dev/zero, line 1", "16 MiB")

#: ``/dev/zero`` (one line of NUL bytes that never ends) to the readers that held every
#: byte of it before reading a line: refused by the line limit, naming the file and line 1.
DEVICE_CASES = [
    err("compare-scores-dev-zero", ["compare", "--scores", "/dev/zero"], *ZERO),
    err("compare-scores-dev-zero-twice", ["compare", "--scores", "ap.csv", "--scores",
                                          "/dev/zero"], *ZERO),
    err("compare-collections-dev-zero", ["compare", "--collections", "/dev/zero", "-m", "map",
                                         "--seed", "1"], *ZERO),
    err("online-loglik-params-dev-zero", LOGLIK, *ZERO, files=CLICKS),
    err("meta-judge-noise-confusion-dev-zero", [*JUDGE_NOISE, "--confusion", "/dev/zero"],
        *ZERO),
    err("eval-zscores-dev-zero", ["eval", "-Z", "/dev/zero", "qrels.txt", "a.run"], *ZERO),
    # a run the engine reads by its path (held whole, being read twice)
    err("eval-run-dev-zero", ["eval", "qrels.txt", "/dev/zero"], *ZERO),
    err("eval-many-run-dev-zero", ["eval-many", "qrels.txt", "/dev/zero", "--no-progress"],
        *ZERO),
    err("text-rouge-dev-zero", ["text", "rouge", "/dev/zero", "cands.tsv"], *ZERO,
        files=SWEEP_FILES),
    # standard input (a test's is not descriptor 0: read whole, as a stream)
    err("compare-scores-stdin-line-beyond-the-limit", ["compare", "--scores", "-"],
        "<stdin>, line 2", "16 MiB", stdin=HEADER.encode() + b"\n" + b"9" * (LIMIT + 1)),
    err("online-loglik-params-stdin-line-beyond-the-limit",
        ["online", "loglik", "--params", "-", "--test", "test.log"], "<stdin>, line 1",
        "16 MiB", stdin=b"[" * (LIMIT + 1), files=CLICKS),
]


@pytest.mark.parametrize("case", DEVICE_CASES)
def test_device_that_never_ends(case, ws, run_cli, sixty_four_mib):
    run_case(case, ws, run_cli)


class EndlessWriter(threading.Thread):
    """Writes ``block`` into the FIFO at ``path`` over and over, until its reader closes
    it or :attr:`stop` is set."""

    def __init__(self, path: Path, block: bytes):
        super().__init__(daemon=True)
        self.path, self.block = path, block
        self.stop = threading.Event()

    def run(self) -> None:
        descriptor = os.open(self.path, os.O_WRONLY)  # waits for the reader
        try:
            while not self.stop.is_set():
                os.write(descriptor, self.block)
        except BrokenPipeError:
            pass
        finally:
            os.close(descriptor)


#: A FIFO whose writer never stops, to the readers that held every byte before reading a
#: line: (id, argv with ``FIFO`` for the FIFO, the block written, what the line names).
ENDLESS_FIFOS = [
    ("compare-scores-one-line", ["compare", "--scores", "FIFO"], b"9" * (1 << 20),
     ("line 1", "16 MiB")),
    ("compare-scores-valid-rows", ["compare", "--scores", "FIFO"],
     (HEADER + "\n" + (ROW + "\n") * 4096).encode(), ("memory limit", "64 MiB")),
    ("compare-collections-one-line", ["compare", "--collections", "FIFO", "-m", "map"],
     b"x" * (1 << 20), ("line 1", "16 MiB")),
    ("online-loglik-params-nesting", ["online", "loglik", "--params", "FIFO", "--test",
                                      "test.log"], b"[" * (1 << 20), ("line 1", "16 MiB")),
    # a run the engine reads by its path, held whole (it is read twice)
    ("eval-run-one-line", ["eval", "qrels.txt", "FIFO"], b"x" * (1 << 20),
     ("line 1", "16 MiB")),
    # a run moved into an in-memory file by splice (irscale.io.spool), not read by Python
    ("fuse-run-one-line", ["fuse", "a.run", "FIFO", "--method", "combsum"],
     b"x" * (1 << 20), ("line 1", "16 MiB")),
]


@pytest.mark.parametrize(("argv", "block", "needles"),
                         [pytest.param(argv, block, needles, id=name)
                          for name, argv, block, needles in ENDLESS_FIFOS])
def test_fifo_that_never_ends(argv, block, needles, ws, run_cli, sixty_four_mib, tmp_path):
    """The FIFO's writer never stops: one ``irscale:`` line naming the FIFO, once a little
    more than the line limit (one line) or the memory limit (valid lines) has come."""
    for name, data in CLICKS.items():
        ws.write(name, data)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    writer = EndlessWriter(fifo, block)
    writer.start()
    try:
        result = run_cli([str(fifo) if arg == "FIFO" else arg for arg in argv])
    finally:
        writer.stop.set()
        try:  # a reader that never came: release the writer's open
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
        writer.join(10)
    assert result.status == 2, f"exit status {result.status}" + result.describe()
    line = error_line(result)
    assert str(fifo) in line and all(n in line for n in needles), \
        f"{line!r} lacks {needles}"


def test_malformed_fifo_run_refused_without_waiting(tmp_path: Path):
    """A run read from a FIFO and refused for a malformed line: the error names its line,
    and the FIFO is not opened again (to tell a Parquet file read as text), which would
    wait for a writer that never comes."""
    populate(tmp_path)
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen([*BIN, "eval", "qrels.txt", str(fifo)], cwd=tmp_path,
                               env=subprocess_env(), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(fifo, "wb") as writer:  # once the process opens it
        writer.write(b"bad line\n")
    try:
        out, error = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the FIFO was opened again, waiting for a writer")
    result = Result(["eval"], process.returncode, out.decode(), error.decode())
    assert process.returncode == 2, result.describe()
    assert "run.fifo, line 1" in error_line(result), result.describe()


@pytest.mark.parametrize(("command", "action"), [
    pytest.param(command, action, id=f"{command} {key(action)}")
    for command, action in INPUTS if (command, key(action)) not in SHARED | NOT_READ])
def test_every_input_as_dev_zero(command, action, ws, run_cli, sixty_four_mib):
    """Every input of every command given as ``/dev/zero`` (from the command lines of
    the FIFO sweep, ``tests/faults/test_fifo_sweep_faults.py``): one ``irscale:`` line
    naming it, by the line limit or the memory limit, never a read until the memory runs
    out."""
    found = placed(command, action)
    if found is None:
        pytest.skip("no command line uses it (test_every_input_is_swept fails)")
    argv, at, file = found
    for name, data in SWEEP_FILES.items():
        ws.write(name, data)
    result = run_cli([*argv[:at], argv[at].replace(file, "/dev/zero"), *argv[at + 1:]])
    assert result.status == 2, f"exit status {result.status}" + result.describe()
    line = error_line(result)
    assert "/dev/zero" in line and ("16 MiB" in line or "memory limit" in line), line
