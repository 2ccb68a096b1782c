"""Benchmark of the bounds under unjudged documents (``irscale eval --bounds``, ``irscale
pool bounds``) on deep runs with few judgments, two versions of irscale side by side.

Data (generated, deterministic): 200 topics, 20 judged documents a topic (grades 0-2, at
random among 5,000), two runs of 5,000 documents a topic (random orders): about 4,980
unjudged documents a ranking. With ``--clef``, also the 16 CLEF eHealth 2016 task 2 runs
(50 topics of 1,000 documents, about 830 unjudged a ranking) from ``../shared/data``.

Every command runs in a fresh process, ``--repeat`` times per version (``--before`` and
``--after``: the ``src`` folders of two checkouts, each with its compiled engine), one
version after the other on the same machine; the time is the median CPU time of the process
(user + system, all threads) from ``resource.getrusage``, so the load of a shared machine
changes it little (single runs of a 2-second command still vary by ±0.3 s there). A
command still running after ``--limit`` seconds is stopped and reported as more than that
(and not repeated).

    python benchmarks/bench_bounds.py --before OLD/src --after src [--clef] [--repeat 3]
        [--markdown]
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TOPICS, DEPTH, JUDGED = 200, 5000, 20
CLEF = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "clef2016-task2"

#: (label, arguments after ``irscale``) on the generated collection.
DEEP_COMMANDS = [
    ("eval -m map (no bounds)", ["eval", "qrels.txt", "a.run", "-m", "map"]),
    ("eval --bounds -m map", ["eval", "qrels.txt", "a.run", "--bounds", "-m", "map"]),
    ("pool bounds -m map, 2 runs", ["pool", "bounds", "qrels.txt", "a.run", "b.run", "-m",
                                    "map"]),
    ("eval --bounds -m map -m ndcg -m bpref -m Rprec",
     ["eval", "qrels.txt", "a.run", "--bounds", "-m", "map", "-m", "ndcg", "-m", "bpref",
      "-m", "Rprec"]),
    ("eval --bounds -m P@10 -m ndcg_cut_10",
     ["eval", "qrels.txt", "a.run", "--bounds", "-m", "P@10", "-m", "ndcg_cut_10"]),
]


def generate(folder: Path) -> None:
    """The deep collection (module documentation) in ``folder``."""
    rng = np.random.default_rng(0)
    with open(folder / "qrels.txt", "w") as qrels:
        for topic in range(TOPICS):
            for doc in rng.choice(DEPTH, JUDGED, replace=False):
                qrels.write(f"{topic} 0 d{doc} {rng.integers(0, 3)}\n")
    for name in ("a", "b"):
        with open(folder / f"{name}.run", "w") as run:
            for topic in range(TOPICS):
                order = rng.permutation(DEPTH)
                run.write("".join(f"{topic} Q0 d{doc} {rank + 1} {DEPTH - rank} {name}\n"
                                  for rank, doc in enumerate(order)))


def cpu_seconds(src: str, argv: list[str], cwd: Path, limit: float) -> float | None:
    """CPU time (user + system) of ``irscale argv`` run with ``src`` first on the path;
    None when stopped at ``limit`` seconds of wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": src, "IRSCALE_NO_PROGRESS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "irscale", *argv], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        proc.communicate()
        return None
    if proc.returncode != 0:
        raise RuntimeError(f"irscale {' '.join(argv)}: {err.decode()[-500:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_seconds(src: str, argv: list[str], cwd: Path, limit: float, repeat: int
                   ) -> float | None:
    """The median of ``repeat`` runs of :func:`cpu_seconds` (None: stopped at ``limit``)."""
    times = []
    for _ in range(repeat):
        seconds = cpu_seconds(src, argv, cwd, limit)
        if seconds is None:
            return None
        times.append(seconds)
    return statistics.median(times)


def shown(seconds: float | None, limit: float) -> str:
    return f"> {limit:.0f} s" if seconds is None else f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="src folder of the old version")
    parser.add_argument("--after", required=True, help="src folder of the new version")
    parser.add_argument("--clef", action="store_true", help="also the CLEF eHealth runs")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="seconds (wall) before a command is stopped")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        generate(folder)
        commands = [(f"deep: {label}", argv, folder) for label, argv in DEEP_COMMANDS]
        if args.clef and CLEF.is_dir():
            runs = sorted(str(p) for p in (CLEF / "runs").iterdir())
            qrels = str(CLEF / "task2.qrels")
            for measures in ("map", "map ndcg bpref Rprec infAP", "P@10 ndcg_cut_10"):
                flags = [flag for m in measures.split() for flag in ("-m", m)]
                commands.append((f"CLEF 2016, 16 runs: eval --bounds -m {measures}",
                                 ["eval", qrels, *runs, "--bounds", *flags], folder))
        for label, argv, cwd in commands:
            started = time.strftime("%H:%M")
            before = median_seconds(args.before, argv, cwd, args.limit, args.repeat)
            after = median_seconds(args.after, argv, cwd, args.limit, args.repeat)
            ratio = "" if before is None or after is None else f"{before / after:.1f}"
            rows.append((label, shown(before, args.limit), shown(after, args.limit), ratio,
                         started))
            print(rows[-1], file=sys.stderr, flush=True)
    if args.markdown:
        print("| command | before (CPU) | after (CPU) | before / after |")
        print("|---|---:|---:|---:|")
        for label, before, after, ratio, _ in rows:
            print(f"| `{label}` | {before} | {after} | {ratio} |")
    else:
        for row in rows:
            print(*row, sep="\t")


if __name__ == "__main__":
    main()
