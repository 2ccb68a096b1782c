"""Benchmark of rank fusion: irscale.fuse against ranx.fuse on the same runs.

Case: five real CLEF eHealth 2016 runs (50 topics × 1,000 documents each, many tied
scores) from ``../shared/data/clef2016-task2/runs`` (``--runs`` names another folder), fused
by RRF (k = 60) and by CombMNZ after min-max normalisation. Each tool runs in a fresh
process of its own, after reading the runs (irscale: ``read_runs``; ranx:
``Run.from_file``), on the same files:

* the first call (ranx: numba compiles or loads its cache then), and the median of
  ``--repeat`` calls after it, wall and CPU seconds;
* the peak resident memory of the process after the calls, and its growth over the calls
  (the reading and the imports excluded).

The fused scores of irscale are checked against ranx's (largest relative difference over
every document), and the ratios irscale / ranx printed.

    python benchmarks/bench_fuse.py [--runs DIR] [--count 5] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(os.environ.get("IRSCALE_SHARED_DATA") or
              Path(__file__).resolve().parents[2] / "shared" / "data")
CASES = (("rrf", None), ("combmnz", "min-max"))
RANX_NAMES = {"rrf": "rrf", "combmnz": "mnz"}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def measure(tool: str, files: list[str], repeat: int, out: str) -> None:
    """In a process of its own: read the runs, fuse them by every case, write the timings
    and the fused scores (JSON) to ``out``."""
    if tool == "irscale":
        from irscale import fuse, read_runs

        runs = read_runs(files)

        def call(method, norm):
            return fuse(runs, method, norm=norm)

        def scores(run):
            frame = run.to_frame()
            return {f"{t}\t{d}": s for t, d, s in zip(frame.query_id, frame.doc_id,
                                                    frame.score, strict=True)}
    else:
        import ranx

        runs = [ranx.Run.from_file(path, kind="trec") for path in files]

        def call(method, norm):
            return ranx.fuse(runs, norm=norm, method=RANX_NAMES[method])

        def scores(run):
            return {f"{t}\t{d}": s for t in run.run for d, s in run.run[t].items()}
    report = {"read_peak_mb": _peak_mb(), "cases": {}}
    for method, norm in CASES:
        before = _peak_mb()
        fused, first_wall, first_cpu = _timed(lambda m=method, n=norm: call(m, n))
        times = [_timed(lambda m=method, n=norm: call(m, n))[1:] for _ in range(repeat)]
        report["cases"][f"{method}+{norm or 'none'}"] = {
            "first_wall": first_wall, "first_cpu": first_cpu,
            "wall": statistics.median(t[0] for t in times),
            "cpu": statistics.median(t[1] for t in times),
            "peak_mb": _peak_mb(), "growth_mb": _peak_mb() - before,
            "scores": scores(fused)}
    Path(out).write_text(json.dumps(report))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=SHARED / "clef2016-task2" / "runs")
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tool", choices=("irscale", "ranx"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    files = [str(p) for p in sorted(args.runs.iterdir())[:args.count]]
    if args.tool:
        measure(args.tool, files, args.repeat, args.out)
        return
    reports = {}
    for tool in ("irscale", "ranx"):
        out = Path(f"/tmp/bench_fuse_{tool}_{os.getpid()}.json")
        subprocess.run([sys.executable, __file__, "--runs", str(args.runs), "--count",
                        str(args.count), "--repeat", str(args.repeat), "--tool", tool,
                        "--out", str(out)], check=True)
        reports[tool] = json.loads(out.read_text())
        out.unlink()
    print(f"{len(files)} runs: {', '.join(Path(f).name for f in files)}; "
          f"median of {args.repeat} calls after the first")
    print(f"{'case':<18} {'tool':<8} {'first s':>8} {'wall s':>8} {'CPU s':>8} "
          f"{'peak MB':>8} {'+MB':>6}")
    for case in reports["irscale"]["cases"]:
        for tool in ("irscale", "ranx"):
            c = reports[tool]["cases"][case]
            print(f"{case:<18} {tool:<8} {c['first_wall']:8.3f} {c['wall']:8.3f} "
                  f"{c['cpu']:8.3f} {c['peak_mb']:8.0f} {c['growth_mb']:6.0f}")
        ours, theirs = (reports[t]["cases"][case] for t in ("irscale", "ranx"))
        worst = max(abs(ours["scores"][k] - v) / max(abs(v), 1e-300)
                    for k, v in theirs["scores"].items())
        same = ours["scores"].keys() == theirs["scores"].keys()
        print(f"{case:<18} ratio irscale/ranx: wall {ours['wall'] / theirs['wall']:.3f}, "
              f"CPU {ours['cpu'] / theirs['cpu']:.3f}, first call "
              f"{ours['first_wall'] / theirs['first_wall']:.3f}; same documents: {same}, "
              f"largest relative score difference {worst:.1e}")


if __name__ == "__main__":
    main()
