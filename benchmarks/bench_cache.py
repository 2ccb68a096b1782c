"""Benchmark of the results cache: ``irscale eval-many`` over N run files without a cache,
with a cold cache (every run evaluated and stored), a warm one (every run read back) and
a warm one after one run file changed (that run evaluated, the others read back).

Generates (deterministically, into a scratch folder outside the repository, deleted at the
end unless ``--keep``) one qrels file and N TREC run files: ``--topics`` topics, each with
a pool of 3,000 documents of which 100 are judged (graded 0..2) and ``--depth`` retrieved
by every run in a random order with scores of 3 decimals (ties). Each configuration runs
the command line in a fresh process (``--repeat`` times, the median reported: the process's
wall time, and the time of the command once its modules are imported), with ``map``,
``P.10`` and ``ndcg_cut.10`` (or the ``-m`` given); the outputs of every configuration are
checked identical to the run without a cache.

Then ``irscale eval`` of one run file (the first: a TREC track run at the defaults, 50
topics x 1,000 documents) with trec_eval's official measures, and of the 10M-line run of
:mod:`datagen`'s case ``i`` with ``--datagen-dir DIR`` (generated there once): without a
cache, with a warm one (a hit: the reply to the command line, :mod:`irscale.cache.requests`)
and with a cold one (a miss), alternated in one loop, each a whole process
(``python -m irscale``): medians of the wall and CPU time (user + system of the process),
and the median of the ratios of each hit's and miss's CPU time to the evaluation without
a cache run beside it; the machine's load before and after. Add ``-S`` to ``--python-flags``
to leave out what the machine's ``site`` (its ``.pth`` files) costs every process.

``--instructions`` counts instead the instructions (valgrind's callgrind: independent of
the machine's load) of ``irscale eval -q`` of that run file with a warm cache (a hit)
and without a cache, through ``python -m irscale.cli.main`` and through pip's ``irscale``
launcher beside the interpreter (which imports ``re`` before irscale starts), and
prints their ratios: the row "cache hit vs no cache, track run".

    python benchmarks/bench_cache.py --runs 50 --topics 50 --depth 1000 [--repeat 3]
        [--datagen-dir DIR] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

POOL = 3_000
JUDGED = 100
SEED = 20261126
MEASURES = ["-m", "map", "-m", "P.10", "-m", "ndcg_cut.10"]


def generate(folder: Path, runs: int, topics: int, depth: int) -> tuple[Path, Path]:
    """The qrels file and the folder of run files (module documentation)."""
    rng = np.random.default_rng(SEED)
    qrels = folder / "qrels"
    lines = []
    for topic in range(topics):
        judged = rng.choice(POOL, JUDGED, replace=False)
        degrees = rng.choice(3, JUDGED, p=[0.6, 0.25, 0.15])
        lines.extend(f"t{topic:04d} 0 doc{d:05d} {g}" for d, g in zip(judged, degrees,
                                                                      strict=True))
    qrels.write_text("\n".join(lines) + "\n")
    run_folder = folder / "runs"
    run_folder.mkdir()
    for run in range(runs):
        out = []
        for topic in range(topics):
            docs = rng.choice(POOL, depth, replace=False)
            scores = np.sort(np.round(rng.random(depth) * 10, 3))[::-1]
            out.extend(f"t{topic:04d} Q0 doc{d:05d} {rank} {s:.3f} run{run:03d}"
                       for rank, (d, s) in enumerate(zip(docs, scores, strict=True), 1))
        (run_folder / f"run{run:03d}.txt").write_text("\n".join(out) + "\n")
    return qrels, run_folder


#: Runs the command line in this process, timing its work after the imports it needs.
INNER = """
import sys, time
import irscale.evaluation.many, irscale.cli.eval_many
import irscale.cache.evaluations, irscale.cache.calls
from irscale.cli.main import main
begin = time.perf_counter()
status = main(sys.argv[1:])
sys.stderr.write(f"\\nirscale-bench-seconds {time.perf_counter() - begin}\\n")
sys.exit(status)
"""


def timed(argv: list[str]) -> tuple[float, float, bytes]:
    """Wall time of one command line in a fresh process, the time of its work (the
    imports excluded), and its output."""
    begin = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", INNER, *argv], capture_output=True,
                          check=True)
    wall = time.perf_counter() - begin
    inner = float(done.stderr.decode().rsplit("irscale-bench-seconds ", 1)[1])
    return wall, inner, done.stdout


def whole(argv: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU time (user + system) of ``python -m irscale ARGV`` in a fresh process,
    and its output."""
    import irscale  # where it is installed: on the path of a process started with -S

    path = os.pathsep.join(filter(None, [os.path.dirname(os.path.dirname(irscale.__file__)),
                                         os.environ.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    done = subprocess.run([sys.executable, *PYTHON_FLAGS, "-m", "irscale", *argv],
                          capture_output=True, check=True,
                          env={**os.environ, "PYTHONPATH": path})
    wall = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


#: The interpreter's options of :func:`whole`'s processes (``--python-flags``).
PYTHON_FLAGS: list[str] = []


def load() -> str:
    """The machine's load (1, 5 and 15 minutes) and its processors, for the table's
    caption: a loaded machine spreads the times (the pairs' ratios less)."""
    try:
        averages = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this system
        averages = "unknown"
    return f"load {averages} on {os.cpu_count()} CPUs"


def eval_table(label: str, qrels: Path, run: Path, cache: Path, repeat: int) -> None:
    """``irscale eval QRELS RUN`` (official measures) without a cache, with a warm one (a
    hit: the reply to its command line) and with a cold one (a miss: evaluated and
    stored), in alternating triples (module documentation); the outputs checked
    identical. Each hit's and miss's CPU time is divided by that of the run without a cache
    of its triple: the median of those ratios is the row's "CPU vs no cache" (pairing
    keeps it meaningful when the machine's speed drifts)."""
    command = ["eval", str(qrels), str(run)]
    cold = cache.with_name(cache.name + "-cold")
    from irscale.io.regular_files import SETTLED_NS

    shutil.rmtree(cache, ignore_errors=True)
    # the inputs as a user's usually are, written a while ago: a hit checks them by their
    # identity, not their bytes (irscale.io.regular_files.settled_identity)
    time.sleep(max(0.0, SETTLED_NS / 1e9 - (time.time() - run.stat().st_ctime)) + 0.1)
    _, _, reference = whole([*command, "--cache", str(cache)])  # fills the cache
    times: dict[str, list[tuple[float, float]]] = {"no cache": [], "cache hit": [],
                                                   "cache miss": []}
    ratios: dict[str, list[float]] = {name: [] for name in times}
    before = load()
    for _ in range(repeat):
        shutil.rmtree(cold, ignore_errors=True)
        for name, argv in (("no cache", command),
                           ("cache hit", [*command, "--cache", str(cache)]),
                           ("cache miss", [*command, "--cache", str(cold)])):
            wall, cpu, out = whole(argv)
            assert out == reference, name
            times[name].append((wall, cpu))
            ratios[name].append(cpu / times["no cache"][-1][1])
    shutil.rmtree(cold, ignore_errors=True)
    print(f"\nirscale eval, {label}, official measures; median of {repeat}, alternated; "
          f"{before} before, {load()} after")
    print("| configuration | wall (s) | CPU (s) | wall vs no cache | CPU vs no cache "
          "(median of the triples' ratios) |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(t[0] for t in times["no cache"])
    for name, measured in times.items():
        wall, cpu = (statistics.median(t[i] for t in measured) for i in (0, 1))
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / base:.2f} | "
              f"{statistics.median(ratios[name]):.2f} |")


def instructions(command: list[str]) -> int:
    """The instructions callgrind counts in the process of ``command``."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *command], capture_output=True, text=True, check=True)
    return int(done.stderr.rsplit("Collected : ", 1)[1].split()[0])


def instructions_table(qrels: Path, run: Path, cache: Path) -> None:
    """``irscale eval -q QRELS RUN`` with a warm cache and without one, in callgrind's
    instructions, through ``python -m irscale.cli.main`` and through the ``irscale``
    launcher (module documentation); the outputs checked identical."""
    from irscale.io.regular_files import SETTLED_NS

    launcher = Path(sys.executable).with_name("irscale")
    entries = {"python -m irscale.cli.main": [sys.executable, "-m", "irscale.cli.main"]}
    if launcher.exists():
        entries["irscale (pip's launcher)"] = [str(launcher)]
    time.sleep(max(0.0, SETTLED_NS / 1e9 - (time.time() - run.stat().st_ctime)) + 0.1)
    shutil.rmtree(cache, ignore_errors=True)
    command = ["eval", "-q", str(qrels), str(run)]
    print("\nirscale eval -q, one run file: instructions (callgrind) of a cache hit "
          "and of the evaluation without a cache")
    print("| entry point | no cache (M) | cache hit (M) | hit vs no cache |")
    print("|---|---:|---:|---:|")
    for name, start in entries.items():
        outputs = {subprocess.run([*start, *argv], capture_output=True, check=True).stdout
                   for argv in (command, [*command, "--cache", str(cache)]) * 2}
        assert len(outputs) == 1, name
        none, hit = (instructions([*start, *argv])
                     for argv in (command, [*command, "--cache", str(cache)]))
        print(f"| {name} | {none / 1e6:.1f} | {hit / 1e6:.1f} | {hit / none:.3f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-m", "--measure", action="append", dest="measures",
                        help="measures (repeatable; default map, P.10, ndcg_cut.10)")
    parser.add_argument("--scratch", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--datagen-dir", type=Path, default=None,
                        help="also time eval on datagen's 10M-line case i (kept there)")
    parser.add_argument("--eval-only", action="store_true",
                        help="only the tables of irscale eval (not eval-many's)")
    parser.add_argument("--instructions", action="store_true",
                        help="only the instructions of eval -q's cache hit and of the "
                        "evaluation without a cache (callgrind), through both entry points")
    parser.add_argument("--python-flags", default="",
                        help="the interpreter's options of irscale eval's processes, "
                        "e.g. '-S' (no site: no .pth file of the machine)")
    args = parser.parse_args(argv)
    PYTHON_FLAGS[:] = args.python_flags.split()
    scratch = Path(tempfile.mkdtemp(prefix="irscale-cache-", dir=args.scratch))
    try:
        qrels, runs = generate(scratch, args.runs, args.topics, args.depth)
        measures = ([item for m in args.measures for item in ("-m", m)] if args.measures
                    else MEASURES)
        command = ["eval-many", str(qrels), str(runs), *measures, "--no-progress"]
        cache = scratch / "cache"
        changed = runs / "run000.txt"
        original = changed.read_bytes()
        results: dict[str, list[tuple[float, float]]] = {}
        reference: dict[str, bytes] = {}

        def measure(label: str, argv: list[str], before=None) -> None:
            for _ in range(args.repeat):
                if before is not None:
                    before()
                wall, inner, out = timed(argv)
                results.setdefault(label, []).append((wall, inner))
                reference.setdefault(label, out)

        def cold() -> None:
            shutil.rmtree(cache, ignore_errors=True)

        def one_changed() -> None:  # the warm cache of the original files, run000 changed
            changed.write_bytes(original)
            cold()
            timed([*command, "--cache", str(cache)])
            changed.write_bytes(original.replace(b" 1 ", b" 1  ", 1))

        if args.instructions:
            instructions_table(qrels, runs / "run000.txt", scratch / "eval-cache")
            return
        eval_table(f"one run file ({args.topics} topics x {args.depth} documents)", qrels,
                   runs / "run000.txt", scratch / "eval-cache", args.repeat)
        if args.datagen_dir is not None:
            sys.path.insert(0, str(Path(__file__).parent))
            import datagen

            big_qrels, big_run = datagen.ensure_case(datagen.CASES["i"], args.datagen_dir)
            eval_table("datagen case i (10M lines)", big_qrels, big_run,
                       scratch / "big-cache", args.repeat)
        if args.eval_only:
            return
        measure("no cache", command)
        measure("cold cache", [*command, "--cache", str(cache)], cold)
        measure("warm cache", [*command, "--cache", str(cache)])
        measure("warm, one run changed", [*command, "--cache", str(cache)], one_changed)
        changed.write_bytes(original)
        assert reference["cold cache"] == reference["warm cache"] == reference["no cache"]
        lines = args.runs * args.topics * args.depth
        size = sum(path.stat().st_size for path in runs.iterdir())
        entries = sum(path.stat().st_size for path in cache.iterdir())
        print(f"{args.runs} runs x {args.topics} topics x {args.depth} documents "
              f"({lines:,} lines, {size / 1e6:.0f} MB), {' '.join(measures[1::2])}; "
              f"cache {entries / 1e6:.2f} MB; "
              f"{os.cpu_count()} CPUs; median of {args.repeat}")
        print("| configuration | process (s) | evaluation (s) | evaluation vs no cache |")
        print("|---|---:|---:|---:|")
        base = statistics.median(inner for _, inner in results["no cache"])
        for label, times in results.items():
            wall = statistics.median(w for w, _ in times)
            inner = statistics.median(i for _, i in times)
            print(f"| {label} | {wall:.2f} | {inner:.2f} | {inner / base:.2f} |")
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
