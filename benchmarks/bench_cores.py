"""Both cores, and the limit set by parsing: the last two engine targets.

For each case, in one run, alternating within every repetition (fresh process each):

* ``irscale eval -q -m map -m ndcg_cut.10 -m recip_rank -o FILE QRELS RUN`` free to use every
  core, and the same command pinned to one core (``os.sched_setaffinity`` in the child, as
  ``taskset -c`` does); the two output files must be byte-identical;
* a bare parse: a Python process that imports ``pyarrow.csv`` and parses the run file with
  pyarrow's multi-threaded CSV reader (every field inferred, nothing else done), the floor
  that any evaluation reading the file with pyarrow pays;
* the floor: ``bench_eval.FLOOR`` on the run file, a Python process that imports numpy and
  ``pyarrow.csv``, as irscale does, and parses only the three fields irscale reads (topic
  and docno as strings, score as a double; blocks of 8 MiB, the separator of the first line,
  as irscale's reader): the least a process that reads the file with pyarrow and evaluates
  it with numpy pays, whatever it evaluates. irscale's time less the floor's is what its
  own work costs. (Both parses take files whose fields are separated by one blank, or one
  tab for the floor: every generated case but ``aligned``, and ``tsv`` for the bare parse.)
* the start-ups, the serial part of every process that no core count shortens: Python's
  own (``python -c pass``, the same interpreter) and irscale's (the same command on a qrels
  and a run of one line each: Python's start, irscale's imports and command line, the
  engine's set-up, the output).

irscale's modules are byte-compiled first, as an installed copy is (without it, where the
environment says ``PYTHONDONTWRITEBYTECODE``, every process would compile the modules edited
since their bytecode was written: 20-30 ms each time).

Reported: medians of wall and CPU seconds and peak RSS (``ru_maxrss``; the parent holds
numpy, about 35 MB, which a child's figure cannot fall below), the speed-up of all cores
over one (target ≥ 1.7 × on 10M lines), the same speed-up of what follows Python's
start-up and of what follows irscale's (each start-up's median taken off both walls: by
Amdahl's law a serial part of s seconds bounds the speed-up of a wall w on two cores by
w / (s + (w − s) / 2)), irscale's time over the bare parse (target ≤ 2 ×) and over the
floor.

With ``--cores 1 2 8 16`` the irscale command runs pinned to each of those numbers of
cores (the first usable ones) instead of all and one, and the table gives each count's
speed-up and peak memory over one core's (the sixteen-core target: ≥ 8 × and ≤ 1.1 × the
peak); ``--tune`` runs each count also with ``IRSCALE_TUNE_MEMORY=1``;
``--baseline [NAME=]PATH`` (repeatable) runs every count also with another build of
irscale (an A/B in one loop); ``--no-parse`` leaves out the bare parse and the floor.

    python benchmarks/bench_cores.py [--cases i ii] [--repeat 5] [--cores 1 2 8 16] [--tune]
        [--baseline [NAME=]PATH ...] [--no-parse] [--markdown docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import datagen  # noqa: E402
from bench_eval import (  # noqa: E402
    CASE_LABEL,
    END,
    FLOOR,
    ROOT,
    SECTION_BEGIN,
    compiled_env,
    write_markdown,
)

#: As the ``irscale`` console script runs it: the entry point (no arguments passed), so
#: that the process gets its memory settings (:mod:`irscale.cli.allocator`) when
#: ``IRSCALE_TUNE_MEMORY=1`` is set.
IRSCALE = ("import sys; from irscale.cli.main import main; sys.exit(main())",)
BARE = ("import sys, pyarrow.csv as c; c.read_csv(sys.argv[1], read_options=c.ReadOptions("
        "column_names=list('abcdef')), parse_options=c.ParseOptions(delimiter=' '))",)
SECTION = "cores"


def run_child(argv: list[str], cpus: set[int] | None, env: dict[str, str]
              ) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one process."""
    pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
    start = time.perf_counter()
    process = subprocess.Popen(argv, preexec_fn=pin, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{argv[:4]} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


class Variant(NamedTuple):
    """An irscale process: the cores it is pinned to, what it adds to the environment,
    and the variant whose wall its speed-up divides (the same build and settings on one
    core)."""

    cpus: set[int]
    env: dict[str, str]
    one: str


def irscale_variants(cores: list[str], tune: bool, baselines: list[str]
                     ) -> dict[str, Variant]:
    """The irscale variants by label, each core count of ``cores`` and one core, with and
    without ``IRSCALE_TUNE_MEMORY=1`` (``tune``), of this build and of each of
    ``baselines`` (``NAME=PATH``: the irscale of PATH, a source tree's ``src`` or an
    install's site folder, put first on ``PYTHONPATH``; ``PATH`` alone is named
    "baseline")."""
    usable = sorted(os.sched_getaffinity(0))
    counts = sorted({len(usable) if c == "all" else int(c) for c in cores} | {1})
    if counts[-1] > len(usable):
        raise SystemExit(f"--cores {counts[-1]}: this process may use {len(usable)} cores")
    builds: dict[str, dict[str, str]] = {"irscale": {}}
    for given in baselines:
        name, _, path = given.rpartition("=")
        builds[name or "baseline"] = {"PYTHONPATH": str(Path(path).resolve())}
    variants: dict[str, Variant] = {}
    for build, path in builds.items():
        for tuned in (False, True) if tune else (False,):
            extra = {**path, "IRSCALE_TUNE_MEMORY": "1"} if tuned else path
            suffix = ", tuned memory" if tuned else ""
            for n in counts:
                label = f"{build}, {'one core' if n == 1 else f'{n} cores'}{suffix}"
                variants[label] = Variant(set(usable[:n]), extra, f"{build}, one core{suffix}")
    return variants


def bench_case(name: str, repeat: int, scratch: Path, env: dict[str, str],
               irscale: dict[str, Variant], parse: bool) -> dict:
    case = datagen.CASES[name]
    # generated (when missing) by a child process: vfork shares this process's memory with
    # each child until its exec, which records the memory's high-water mark as the child's
    # own, so a parent that peaked generating 10M lines lent its peak (1.2 GB) to every child
    subprocess.run([sys.executable, str(HERE / "datagen.py"), name, "--data-dir",
                    str(HERE / "data")], check=True)
    qrels, run = datagen.paths(case, HERE / "data")
    with run.open("rb") as handle:  # warm page cache for every variant, a piece at a time:
        while handle.read(1 << 24):  # a child started by vfork reports its parent's peak
            pass
    others = ["bare parse", "floor"] if parse else []
    variants = [*irscale, *others, "Python start-up", "irscale start-up"]
    line_qrels, line_run = scratch / f"{name}-line.qrels", scratch / f"{name}-line.run"
    with qrels.open("rb") as handle:
        line_qrels.write_bytes(handle.readline())
    with run.open("rb") as handle:
        line_run.write_bytes(handle.readline())
    times: dict[str, list[tuple[float, float, float]]] = {v: [] for v in variants}
    outputs = {v: scratch / f"{name}-{i}.txt" for i, v in enumerate(variants)}
    for _ in range(repeat):
        for variant in variants:
            cpus, extra = (irscale[variant].cpus, irscale[variant].env) if variant in irscale \
                else (None, {})
            if variant == "bare parse":
                argv = [sys.executable, "-c", *BARE, str(run)]
            elif variant == "floor":  # the run file only; its report is not needed here
                argv = [sys.executable, "-c", FLOOR, str(run), os.devnull]
            elif variant == "Python start-up":
                argv = [sys.executable, "-c", "pass"]
            else:
                outputs[variant].unlink(missing_ok=True)
                files = ([line_qrels, line_run] if variant == "irscale start-up"
                         else [qrels, run])
                argv = [sys.executable, "-c", *IRSCALE, "eval", "-q", "-m", "map", "-m",
                        "ndcg_cut.10", "-m", "recip_rank", "-o", str(outputs[variant]),
                        *map(str, files)]
            times[variant].append(run_child(argv, cpus, {**env, **extra}))
            print(f"{name:4s} {variant:34s} {times[variant][-1][0]:6.2f} s "
                  f"{times[variant][-1][1]:6.2f} s CPU {times[variant][-1][2]:7.0f} MiB",
                  flush=True)
    same = all(filecmp.cmp(outputs[v], outputs["irscale, one core"], shallow=False)
               for v in irscale)
    med = {v: tuple(statistics.median(t[k] for t in ts) for k in range(3))
           for v, ts in times.items()}
    walls = {v: [round(t[0], 2) for t in ts] for v, ts in times.items()}
    return {"case": CASE_LABEL.get(name, f"{name} {case.label}"),
            "lines": case.n_topics * case.depth, "median": med, "walls": walls,
            "identical": same, "irscale": irscale}


def markdown(rows: list[dict], repeat: int, load: tuple[tuple[float, ...], ...]) -> str:
    begin = SECTION_BEGIN.format(SECTION)
    out = [begin, "",
           f"Machine: {platform.machine()}, {len(os.sched_getaffinity(0))} cores, Python "
           f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
           f"; median of {repeat} fresh processes per variant, variants alternating; load "
           f"average {', '.join(f'{x:.2f}' for x in load[0])} before, "
           f"{', '.join(f'{x:.2f}' for x in load[1])} after.", "",
           "| case | variant | wall (s) | CPU (s) | peak RSS (MiB) | every wall (s) |",
           "|---|---|---:|---:|---:|---|"]
    for r in rows:
        for variant, (wall, cpu, peak) in r["median"].items():
            out.append(f"| {r['case']} | {variant} | {wall:.2f} | {cpu:.2f} | {peak:,.0f} | "
                       f"{', '.join(map(str, r['walls'][variant]))} |")
    out += ["", "| case | variant | speed-up over one core | after Python's start-up | "
            "after irscale's start-up | peak over one core's | irscale / bare parse | "
            "irscale / floor | outputs identical |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        med = r["median"]
        python, start = med["Python start-up"][0], med["irscale start-up"][0]
        for variant, settings in r["irscale"].items():
            one, _, one_peak = med[settings.one]
            wall, _, peak = med[variant]
            parse = (f"{wall / med['bare parse'][0]:.2f} × | {wall / med['floor'][0]:.2f} ×"
                     if "floor" in med else "— | —")
            out.append(f"| {r['case']} | {variant} | {one / wall:.2f} × | "
                       f"{(one - python) / (wall - python):.2f} × | "
                       f"{(one - start) / (wall - start):.2f} × | {peak / one_peak:.2f} × | "
                       f"{parse} | {'yes' if r['identical'] else '**no**'} |")
    out += ["", END]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["i", "ii"], choices=datagen.CASES)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cores", nargs="+", default=["all"], metavar="N",
                        help="core counts to pin irscale to besides one ('all': every usable "
                        "core)")
    parser.add_argument("--tune", action="store_true",
                        help="also run each count with IRSCALE_TUNE_MEMORY=1")
    parser.add_argument("--baseline", action="append", default=[], metavar="[NAME=]PATH",
                        help="also run every count with the irscale of PATH (a source tree's "
                        "src or an install's site folder) first on PYTHONPATH (repeatable)")
    parser.add_argument("--no-parse", action="store_true",
                        help="leave out the bare parse and the floor")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="rewrite this page's generated 'cores' section")
    args = parser.parse_args(argv)
    # irscale's modules byte-compiled, as an installed copy is: no process compiles them
    env = compiled_env(ROOT / "src")
    before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="irscale-cores-") as scratch:
        variants = irscale_variants(args.cores, args.tune, args.baseline)
        rows = [bench_case(name, args.repeat, Path(scratch), env, variants, not args.no_parse)
                for name in args.cases]
    text = markdown(rows, args.repeat, (before, os.getloadavg()))
    print(text)
    if args.markdown:
        write_markdown(args.markdown, text, SECTION_BEGIN.format(SECTION))
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
