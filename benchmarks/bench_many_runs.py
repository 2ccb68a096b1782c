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

The table gives medians of the wall time and of the processor time (user + system, of
every process: the measure that a shared machine's load changes least), the peak memory of
the largest process, and the ratio irscale / trec_eval of the wall times (the issue's
target for 100 runs: at most 0.08 on a quiet machine); the machine's load is printed before
and after. ``--names runid`` times ``irscale eval ... --names runid`` (the runs named by
their run ids, as trec_eval names them). Unless ``--no-check``, every run's summary lines
(``measure all value``) printed by irscale are checked equal to trec_eval's.

irscale's modules are compiled first (``compileall``, as an installed package has them): a
source checkout run with ``PYTHONDONTWRITEBYTECODE`` set would otherwise compile them at
every start (about 0.2 s of a 0.5 s call).

    python benchmarks/bench_many_runs.py --trec-eval PATH [--runs 100] [--topics 50]
        [--depth 1000] [--repeat 3] [--names runid] [--no-check]
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


def timed(commands: list[list[str]]) -> tuple[float, float, int, bytes]:
    """Wall seconds of ``commands`` run one after another, their processor seconds (user
    and system), the peak resident memory of the largest (kB, ``/usr/bin/time -f %M``)
    and their standard output."""
    with tempfile.NamedTemporaryFile("r") as measured:
        line = " && ".join(
            " ".join(["/usr/bin/time", "-a", "-o", measured.name, "-f", "'%M %U %S'",
                      *map(shlex.quote, command)]) for command in commands)
        start = time.perf_counter()
        done = subprocess.run(line, shell=True, check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        rows = [row.split() for row in measured.read().splitlines() if row.strip()]
    peak = max(int(row[0]) for row in rows)
    cpu = sum(float(row[1]) + float(row[2]) for row in rows)
    return wall, cpu, peak, done.stdout


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
    parser.add_argument("--names", choices=("file", "runid"), default="file",
                        help="how irscale names the runs (default: by file)")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args(argv)
    qrels, runs = ensure_data(args.topics, args.depth, args.runs)
    compiled()
    named = [] if args.names == "file" else ["--names", args.names]
    irscale = [[sys.executable, "-m", "irscale", "eval", str(qrels), *map(str, runs),
                *named]]
    loop = [[args.trec_eval, str(qrels), str(run)] for run in runs]
    times: dict[str, list[float]] = {"irscale": [], "trec_eval": []}
    cpus: dict[str, list[float]] = {"irscale": [], "trec_eval": []}
    peaks: dict[str, list[int]] = {"irscale": [], "trec_eval": []}
    outputs: dict[str, bytes] = {}
    load = os.getloadavg()[0]
    for _ in range(args.repeat):
        for tool, commands in (("irscale", irscale), ("trec_eval", loop)):
            wall, cpu, peak, outputs[tool] = timed(commands)
            times[tool].append(wall)
            cpus[tool].append(cpu)
            peaks[tool].append(peak)
    ours, theirs = outputs["irscale"], outputs["trec_eval"]
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
          f"{args.repeat} (load {load:.1f} before, {os.getloadavg()[0]:.1f} after):")
    print("| tool | wall | processor (user + system) | peak memory |")
    print("|---|---|---|---|")
    call = "one call" if args.names == "file" else f"one call, --names {args.names}"
    for tool, label in (("irscale", f"irscale, {call}"),
                        ("trec_eval", f"trec_eval, {args.runs} calls")):
        print(f"| {label} | {statistics.median(times[tool]):.2f} s | "
              f"{statistics.median(cpus[tool]):.2f} s | {max(peaks[tool]) // 1024} MB |")
    print(f"irscale / trec_eval: {ours_s / theirs_s:.3f}")


def compiled() -> None:
    """irscale's modules compiled (their ``__pycache__``), as an installed package holds
    them: a source checkout run with ``PYTHONDONTWRITEBYTECODE`` set (or from a read-only
    folder) compiles every module it imports at every start otherwise."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("irscale")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


if __name__ == "__main__":
    main()
