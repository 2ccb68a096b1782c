"""The check of a per-user table before pandas reads it (``irscale.io.user_tables``): its
cost over no check, on ``irscale online ab summary`` of a large generated table.

A table of ``--users`` users (``user,variant,clicks,queries,time,ctr``; seeded) is written
once; ``online ab summary TABLE --metrics clicks`` then runs as a whole process with the
check (the command as shipped) and without it (the same process with the quick check
replaced by the line offsets alone and the check of the parsed table skipped: pandas
reads the text as it is), the runs of the two interleaved, ``--repeat`` times each. The
CPU seconds of each process (user + system) are compared by their medians; the issue's
budget for the check is 10 % of the run without it.

    python benchmarks/bench_user_table.py [--users 1000000] [--repeat 5]
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

#: The process without the check: the quick check keeps only the offsets of the lines
#: (what the table's later messages need) and the check of the parsed table is skipped.
UNCHECKED = """
import sys
import numpy as np
import irscale.io.user_tables as tables

def offsets(data, sep, numeric):
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


def cpu_seconds(argv: list[str]) -> float:
    """The CPU seconds (user + system) of the process ``argv``; its exit status is 0."""
    before = os.times()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        table = Path(work) / "users.csv"
        write_table(table, args.users)
        command = ["online", "ab", "summary", str(table), "--metrics", "clicks"]
        runs: dict[str, list[float]] = {"check": [], "no check": []}
        for _ in range(args.repeat):
            runs["check"].append(cpu_seconds([sys.executable, "-m", "irscale", *command]))
            runs["no check"].append(cpu_seconds([sys.executable, "-c", UNCHECKED,
                                                 *command]))
    check, plain = (statistics.median(runs[k]) for k in ("check", "no check"))
    share = check / plain - 1.0
    print(f"{args.users:,} users, median of {args.repeat} (CPU s): check {check:.3f}, "
          f"no check {plain:.3f}, +{share:.1%} (budget {BUDGET:.0%}: "
          f"{'met' if share <= BUDGET else 'NOT met'})")
    print("runs:", {k: [round(v, 3) for v in vs] for k, vs in runs.items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
