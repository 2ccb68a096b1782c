"""The check of a per-user table before pandas reads it (``irscale.io.user_tables``): its
cost over no check, on ``irscale online ab summary`` of a large generated table.

A table of ``--users`` users (``user,variant,clicks,queries,time,ctr``; seeded) is written
once; ``online ab summary TABLE --metrics clicks`` then runs as a whole process with the
check (the command as shipped, its two check functions timed inside the process) and
without it (the same process with the quick check replaced by the line offsets alone and
the check of the parsed table skipped: pandas reads the text as it is), the runs of the
two interleaved, ``--repeat`` times each. Reported: the median CPU seconds (user + system)
of each, and the median over the checked runs of the check's share, its CPU seconds over
the rest of its own process's (the measure least moved by other processes on a shared
machine). The issue's budget for the check is 10 % of the run without it. ``--src
LABEL=DIR`` (repeatable) runs the sources of each ``DIR`` (``PYTHONPATH``), all
interleaved: a branch beside the main line.

    python benchmarks/bench_user_table.py [--users 1000000] [--repeat 5] [--src L=DIR ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

#: The share of the unchecked run's CPU time the check may add.
BUDGET = 0.10

#: The process with the check: its two functions timed (CPU seconds, written to the file
#: of the first argument).
CHECKED = """
import atexit, sys, time
import irscale.io.user_tables as tables

spent = [0.0]

def timed(function):
    def call(*args):
        start = time.process_time()
        try:
            return function(*args)
        finally:
            spent[0] += time.process_time() - start
    return call

tables._plain_rows = timed(tables._plain_rows)
tables._check_parsed = timed(tables._check_parsed)
report = sys.argv.pop(1)
atexit.register(lambda: open(report, "w").write(repr(spent[0])))
from irscale.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

#: The process without the check: the quick check keeps only the offsets of the lines
#: (what the table's later messages need) and the check of the parsed table is skipped.
UNCHECKED = """
import sys
import numpy as np
import irscale.io.user_tables as tables

def offsets(data, sep, numeric, user=None):
    at = data.find(b"\\n") + 1
    ends = np.flatnonzero(np.frombuffer(data, np.uint8)[at:] == 10)
    starts = np.concatenate(([0], ends[:-1] + 1))
    return tables._PlainRows(data, starts + at, ends + at)

tables._plain_rows = offsets
tables._check_parsed = lambda *args: None
from irscale.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def write_table(path: Path, users: int) -> None:
    """``users`` rows of a per-user table (seed 0)."""
    rng = np.random.default_rng(0)
    columns = [np.char.add("u", np.arange(users).astype(str)),
               np.where(rng.random(users) < 0.5, "control", "treatment"),
               rng.poisson(3, users).astype(str), rng.poisson(5, users).astype(str),
               np.round(rng.exponential(30, users), 3).astype(str),
               np.round(rng.random(users), 4).astype(str)]
    with open(path, "w") as stream:
        stream.write("user,variant,clicks,queries,time,ctr\n")
        stream.write("\n".join(",".join(row) for row in zip(*columns, strict=True)) + "\n")


def cpu_seconds(argv: list[str], path: str | None) -> float:
    """The CPU seconds (user + system) of the process ``argv`` (``PYTHONPATH=path``, or
    the environment's); its exit status is 0."""
    env = dict(os.environ) if path is None else {**os.environ, "PYTHONPATH": path}
    before = os.times()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--src", action="append", default=[], metavar="LABEL=DIR")
    args = parser.parse_args()
    sources = dict(item.split("=", 1) for item in args.src) or {"": None}
    with tempfile.TemporaryDirectory() as work:
        table, spent = Path(work) / "users.csv", Path(work) / "spent"
        write_table(table, args.users)
        command = ["online", "ab", "summary", str(table), "--metrics", "clicks"]
        modes = {"check": [sys.executable, "-c", CHECKED, str(spent), *command],
                 "no check": [sys.executable, "-c", UNCHECKED, *command]}
        runs: dict[tuple[str, str], list[float]] = {
            (label, mode): [] for label in sources for mode in modes}
        shares: dict[str, list[float]] = {label: [] for label in sources}
        for _ in range(args.repeat):
            for label, path in sources.items():
                for mode, argv in modes.items():
                    runs[label, mode].append(cpu_seconds(argv, path))
                    if mode == "check":
                        check = float(spent.read_text())
                        shares[label].append(check / (runs[label, mode][-1] - check))
    print(f"{args.users:,} users, {args.repeat} runs each (CPU s; budget +{BUDGET:.0%})")
    for label in sources:
        check, plain = (statistics.median(runs[label, mode]) for mode in modes)
        print(f"{label or 'sources'}: median check {check:.3f}, no check {plain:.3f} "
              f"(+{check / plain - 1.0:.1%}); the check's share of its process, median "
              f"+{statistics.median(shares[label]):.1%} (min +{min(shares[label]):.1%}, "
              f"max +{max(shares[label]):.1%})")
    print("runs:", {" ".join(k).strip(): [round(v, 3) for v in vs] for k, vs in runs.items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
