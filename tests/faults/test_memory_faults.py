"""Readers bound their memory (docs/errors.md §1, "Inputs beyond the line and memory
limits"): whatever an input decompresses to, no reader holds a line beyond the line limit
(16 MiB) or a text beyond the memory limit; the input is refused with one ``irscale:`` line
naming the file (and the line), as a run, qrels, diversity qrels, a label file, a score
CSV, a click log or standard input.

In process, the memory limit is pinned to 8 MiB (by default it is half of the machine's
memory, or of the process's own limit): gzip files of a few kilobytes whose text is a line
of 17 MiB, or 64 MiB of valid lines, are refused reading 8 MiB or 16 MiB of them at most.

In real processes under an address-space limit (``RLIMIT_AS`` of 2 GiB, as ``ulimit -v`` or
a batch scheduler sets it), the bombs of a few megabytes that decompress to 3 GiB of one line
or 4 GiB of one valid line repeated, as a run, as qrels and to ``fuse``, and a plain file of
one line: status 2 and one ``irscale:`` line, never an allocation failure that aborts the
process (status 134) or a bare "out of memory".
"""

from __future__ import annotations

import gzip
import resource
import subprocess
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
