"""Benchmark: ``irscale scale transform`` of the 16 CLEF eHealth 2016 runs × 50
topics at N = 30 (and the moonshot N = 40, binary), whole process (start-up, reading,
kernels, scales, φ, output).

Each case runs ``irscale scale transform QRELS RUN... -m M -N N [--levels 3]
--summary-only --no-progress --explain`` in a fresh process with a wall-clock limit; the
time is the wall-clock time of the process, the CPU time its user + system time (steadier
than the wall clock on a shared machine) and the peak memory its maximum resident set
(``/usr/bin/time -f %M``). The issue's targets at N = 30: at most 60 s and 2 GB each. The
data are read from ``../shared/data/clef2016-task2`` (skipped when absent).

    python benchmarks/bench_scale_transform.py [--only nDCG@30] [--levels 2] [--N 30]
        [--timeout 600] [--json benchmarks/results/scale_transform.json]
        [--markdown docs/benchmarks-scales.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data" / "clef2016-task2"
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_scale_transform.py -->"
END = "<!-- END GENERATED: benchmarks/bench_scale_transform.py -->"
#: (measure, levels, N): the target cases at N = 30, then the moonshot (N = 40, binary).
CASES = [("nDCG@30", 2, 30), ("DCG", 2, 30), ("RBP(p=0.8)", 2, 30), ("AP", 2, 30),
         ("nDCG@30", 3, 30), ("DCG", 3, 30), ("RBP(p=0.8)", 3, 30),
         ("nDCG@40", 2, 40), ("DCG", 2, 40), ("RBP(p=0.8)", 2, 40)]


def run_case(measure: str, levels: int, N: int, timeout: float) -> dict:
    runs = sorted(str(p) for p in (DATA / "runs").glob("*.txt"))
    argv = ["/usr/bin/time", "-f", "PEAK_KB %M %U %S", sys.executable, "-c",
            "import sys; from irscale.cli.main import main; sys.exit(main())",
            "scale", "transform", str(DATA / "task2.qrels"), *runs, "-m", measure, "-N",
            str(N), "--levels", str(levels), "--summary-only",
            "--no-progress", "--explain"]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        status = f"timeout ({timeout:.0f} s)"
    seconds = time.perf_counter() - start
    lines = err.decode(errors="replace").splitlines()
    peak_lines = [line for line in lines if line.startswith("PEAK_KB ")]
    fields = peak_lines[-1].split() if peak_lines else []
    peak = int(fields[1]) / 1024 / 1024 if fields else None
    cpu = float(fields[2]) + float(fields[3]) if fields else None
    lines = [line for line in lines if not line.startswith("PEAK_KB ")]
    explain = next((line for line in lines if line.startswith("irscale: explain:")), "")
    estimate = next((line for line in lines if line.startswith("irscale: estimate")), "")
    return {"measure": measure, "levels": levels, "N": N, "status": status,
            "seconds": seconds, "cpu_seconds": cpu, "peak_gb": peak, "explain": explain,
            "estimate": estimate,
            "error": "" if status == "ok" else (lines[-1] if lines else "")}


def markdown(results: list[dict]) -> str:
    when = dt.date.today().isoformat()
    lines = [BEGIN, "",
             f"Run {when} on {platform.platform()} ({os.cpu_count()} CPUs, shared with other "
             "jobs), Python " + platform.python_version() + "; whole process, 16 runs × 50 "
             "topics. Targets (N = 30): ≤ 60 s and ≤ 2 GB.", "",
             "| measure | levels | N | time (s) | CPU (s) | peak (GB) | status | algorithm |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for r in results:
        algo = r["explain"].split(": ", 3)[-1].split(", because")[0] if r["explain"] else ""
        peak = f"{r['peak_gb']:.2f}" if r["peak_gb"] is not None else "–"
        cpu = f"{r['cpu_seconds']:.1f}" if r["cpu_seconds"] is not None else "–"
        lines.append(f"| {r['measure']} | {r['levels']} | {r['N']} | {r['seconds']:.1f} | "
                     f"{cpu} | {peak} | {r['status']} | {algo} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="comma-separated measures")
    parser.add_argument("--levels", type=int, default=None, help="only this many levels")
    parser.add_argument("--N", type=int, default=None, help="only this run length")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--markdown", default=None, help="update this file's section")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"no data at {DATA}: skipped")
        return 0
    only = set(args.only.split(",")) if args.only else None
    results = []
    for measure, levels, N in CASES:
        if (only and measure not in only) or (args.levels and levels != args.levels) \
                or (args.N and N != args.N):
            continue
        result = run_case(measure, levels, N, args.timeout)
        results.append(result)
        peak = f"{result['peak_gb']:.2f} GB" if result["peak_gb"] is not None else "?"
        print(f"{measure:>12} levels={levels} N={N}: {result['seconds']:7.1f} s {peak} "
              f"{result['status']} {result['error']}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if args.markdown:
        path = Path(args.markdown)
        text = path.read_text()
        block = markdown(results)
        if BEGIN in text:
            head, rest = text.split(BEGIN, 1)
            text = head + block + rest.split(END, 1)[1]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
