"""Benchmark: many TREC track runs evaluated in one ``irscale eval`` call, against one
trec_eval 9.0.8 call per run (as a track's organisers or a shell loop run it).

Data (generated once, deterministically, into ``benchmarks/data/many_runs_T_D_R/``,
git-ignored): the qrels and run of a TREC track of ``T`` topics × ``D`` documents
(:mod:`datagen`, case ``track``'s generator at that size), and ``R - 1`` further runs of
the same topics: each re-scores the first run's documents of every topic with noise of its
own (scores of 4 decimals, ties kept frequent), so every run retrieves judged documents
at other ranks, as the runs of one track do.

Each repetition times, in fresh processes, side by side (the tools in turn, so that a
shared machine loads them alike):

* irscale: ``irscale eval QRELS RUN_000 ... RUN_{R-1} -m official`` (one process);
* trec_eval: ``trec_eval QRELS RUN_k`` for every run, one process after another (the
  total wall time of the ``R`` calls).

The table gives medians of the wall time and the peak memory of the largest process, and
the ratio irscale / trec_eval (the issue's target for 100 runs: at most 0.2). Unless
``--no-check``, every run's summary lines (``measure all value``) printed by irscale are
checked equal to trec_eval's.

    python benchmarks/bench_many_runs.py --trec-eval PATH [--runs 100] [--topics 50]
        [--depth 1000] [--repeat 3] [--no-check]
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from datagen import SEED, Case, generate  # noqa: E402

#: The noise added to the first run's scores to give another run (in score units).
NOISE = 3.0


def ensure_data(topics: int, depth: int, runs: int) -> tuple[Path, list[Path]]:
    """The qrels and the ``runs`` run files of the case (generated when missing)."""
    folder = HERE / "data" / f"many_runs_{topics}_{depth}_{runs}"
    qrels = folder / "qrels.txt"
    paths = [folder / f"run_{k:03d}.txt" for k in range(runs)]
    if qrels.exists() and all(p.exists() for p in paths):
        return qrels, paths
    folder.mkdir(parents=True, exist_ok=True)
    generate(Case("many_runs", topics, depth, SEED + 20), qrels, paths[0])
    lines = paths[0].read_bytes().split(b"\n")
    fields = [line.split() for line in lines if line.strip()]
    base = np.array([float(f[4]) for f in fields])
    rng = np.random.default_rng(SEED + 21)
    for k, path in enumerate(paths[1:], start=1):
        scores = np.round(base + rng.uniform(0.0, NOISE, size=len(base)), 4)
        with path.open("wb") as out:
            for f, score in zip(fields, scores.tolist(), strict=True):
                out.write(b"%s Q0 %s %s %.4f run%03d\n" % (f[0], f[2], f[3], score, k))
    return qrels, paths


def timed(commands: list[list[str]]) -> tuple[float, int, bytes]:
    """Wall seconds of ``commands`` run one after another, the peak resident memory of the
    largest (kB, ``/usr/bin/time -f %M``) and their standard output."""
    with tempfile.NamedTemporaryFile("r") as peaks:
        line = " && ".join(
            " ".join(["/usr/bin/time", "-a", "-o", peaks.name, "-f", "%M",
                      *map(shlex.quote, command)]) for command in commands)
        start = time.perf_counter()
        done = subprocess.run(line, shell=True, check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        peak = max(int(value) for value in peaks.read().split())
    return wall, peak, done.stdout


def summaries(text: bytes, several: bool) -> list[tuple[str, str, str]]:
    """The summary lines ``(run or "", measure, value)`` of a trec-format output."""
    out = []
    for line in text.decode().splitlines():
        parts = line.split("\t")
        if parts[1] == "all":
            out.append((parts[3] if several else "", parts[0].strip(), parts[2]))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", required=True, help="trec_eval 9.0.8 binary")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args(argv)
    qrels, runs = ensure_data(args.topics, args.depth, args.runs)
    irscale = [[sys.executable, "-m", "irscale", "eval", str(qrels), *map(str, runs)]]
    loop = [[args.trec_eval, str(qrels), str(run)] for run in runs]
    times: dict[str, list[float]] = {"irscale": [], "trec_eval": []}
    peaks: dict[str, list[int]] = {"irscale": [], "trec_eval": []}
    for _ in range(args.repeat):
        wall, peak, ours = timed(irscale)
        times["irscale"].append(wall)
        peaks["irscale"].append(peak)
        wall, peak, theirs = timed(loop)
        times["trec_eval"].append(wall)
        peaks["trec_eval"].append(peak)
    if not args.no_check:
        # irscale names a run read from a file by its file (run_007), trec_eval by its run
        # id (run007): each run's file stem taken to its run id, read from its first line
        runids = {path.stem: path.read_text().split(maxsplit=6)[5] for path in runs}
        mine = [(runids.get(run, run), m, v) for run, m, v in summaries(ours, len(runs) > 1)
                if m != "runid"]
        expected = []
        for block in theirs.decode().split("runid                 \tall\t")[1:]:
            name, _, rest = block.partition("\n")
            expected += [(name, *line.split("\t")[::2])
                         for line in rest.splitlines() if "\tall\t" in line]
        expected = [(run, m.strip(), v) for run, m, v in expected]
        if sorted(mine) != sorted(expected):
            raise SystemExit("irscale's summaries differ from trec_eval's")
    ours_s, theirs_s = statistics.median(times["irscale"]), statistics.median(times["trec_eval"])
    print(f"{args.runs} runs of {args.topics} topics x {args.depth} documents, medians of "
          f"{args.repeat} (load {os.getloadavg()[0]:.1f}):")
    print("| tool | wall | peak memory |")
    print("|---|---|---|")
    print(f"| irscale, one call | {ours_s:.2f} s | {max(peaks['irscale']) // 1024} MB |")
    print(f"| trec_eval, {args.runs} calls | {theirs_s:.2f} s | "
          f"{max(peaks['trec_eval']) // 1024} MB |")
    print(f"irscale / trec_eval: {ours_s / theirs_s:.3f}")


if __name__ == "__main__":
    main()
