"""Benchmark: ``irscale report`` on the 16 CLEF eHealth 2016 runs × 50 topics,
whole process (start-up, reading, evaluation, statistics, robustness panel, figures, the
HTML page). Targets: at most 15 s on 2 cores and at most 5 MB.

Each case runs ``irscale report QRELS RUN... [options] -o FILE --force`` in a fresh process
``--repeat`` times; reported: the wall-clock time (median and min), the CPU time (user +
system, steadier than the wall clock on a shared machine), the peak resident memory
(``/usr/bin/time -f %M``) and the size of the page. The data are read from
``../shared/data/clef2016-task2`` (skipped when absent).

    python benchmarks/bench_report.py [--repeat 3] [--json benchmarks/results/report.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data" / "clef2016-task2"
RESULTS = HERE / "results"
#: (label, extra options): the default report, with a baseline, and with everything.
CASES = [
    ("default measures", []),
    ("--baseline", ["--baseline", "BM25b0.75"]),
    ("--baseline --dp", ["--baseline", "BM25b0.75", "--dp"]),
]


def run_case(options: list[str], output: Path) -> dict:
    runs = sorted(str(p) for p in (DATA / "runs").glob("*.txt"))
    argv = ["/usr/bin/time", "-f", "PEAK_KB %M %U %S", sys.executable, "-c",
            "import sys; from irscale.cli.main import main; sys.exit(main())",
            "report", str(DATA / "task2.qrels"), *runs, *options, "-o", str(output),
            "--force"]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{done.stderr}")
    line = [x for x in done.stderr.splitlines() if x.startswith("PEAK_KB")][-1]
    _, peak, user, system = line.split()
    return {"wall_s": wall, "cpu_s": float(user) + float(system),
            "peak_mb": int(peak) / 1024, "bytes": output.stat().st_size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=RESULTS / "report.json")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"skipped: {DATA} is absent")
        return 0
    RESULTS.mkdir(parents=True, exist_ok=True)
    rows = []
    for label, options in CASES:
        runs = [run_case(options, RESULTS / "clef2016_report.html")
                for _ in range(args.repeat)]
        row = {"case": label,
               "wall_median_s": statistics.median(r["wall_s"] for r in runs),
               "wall_min_s": min(r["wall_s"] for r in runs),
               "cpu_median_s": statistics.median(r["cpu_s"] for r in runs),
               "peak_mb": max(r["peak_mb"] for r in runs),
               "mb": runs[-1]["bytes"] / 1e6}
        rows.append(row)
        print(f"{label:<18} wall {row['wall_median_s']:6.2f} s (min {row['wall_min_s']:.2f})"
              f"  cpu {row['cpu_median_s']:6.2f} s  peak {row['peak_mb']:6.0f} MB"
              f"  page {row['mb']:.2f} MB", flush=True)
    args.json.write_text(json.dumps({
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_avg": os.getloadavg()},
        "repeat": args.repeat, "when": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": rows},
        indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
