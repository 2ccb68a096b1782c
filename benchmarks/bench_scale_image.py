"""Benchmark: the sorted image of nDCG@N (binary, 2^N distinct values)
streamed to disk by ``irscale scale image -m nDCG@N -N N -o FILE.parquet``, whole process.

Each case runs the command in a fresh process with a wall-clock limit; the time is the
wall-clock time of the process, the peak memory its maximum resident set (``/usr/bin/time
-f %M``), and the file is checked (rows and φ of the last row = 2^N, from the Parquet
footer and the last row group) and deleted. The free space of the folder is checked first
(at least 5 bytes per value). The issue's target at N = 30: at most 15 minutes and 2 GB.

    python benchmarks/bench_scale_image.py [--sizes 24,26,28,30] [--dir /tmp] [--csv]
        [--timeout 1200] [--json benchmarks/results/scale_image.json]
        [--markdown docs/benchmarks-scales.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_scale_image.py -->"
END = "<!-- END GENERATED: benchmarks/bench_scale_image.py -->"
#: Free bytes per value asked of the folder before a case (Parquet takes about 3.5).
BYTES_PER_VALUE = {"parquet": 5, "csv": 40}


def run_case(N: int, folder: Path, fmt: str, timeout: float) -> dict:
    path = folder / f"ndcg_image_{N}.{fmt}"
    need = BYTES_PER_VALUE[fmt] * 2**N
    free = shutil.disk_usage(folder).free
    result = {"N": N, "format": fmt, "values": 2**N, "free_gb": free / 2**30}
    if free < need:
        return {**result, "status": f"skipped: {free / 2**30:.1f} GB free, "
                f"{need / 2**30:.1f} GB needed", "seconds": None, "peak_gb": None,
                "file_gb": None}
    argv = ["/usr/bin/time", "-f", "PEAK_KB %M", sys.executable, "-c",
            "import sys; from irscale.cli.main import main; sys.exit(main())",
            "scale", "image", "-m", f"nDCG@{N}", "-N", str(N), "-o", str(path),
            "--no-progress"]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = f"timeout ({timeout:.0f} s)"
    seconds = time.perf_counter() - start
    lines = err.decode(errors="replace").splitlines()
    peak = [int(line.split()[1]) for line in lines if line.startswith("PEAK_KB ")]
    result.update(status=status, seconds=seconds,
                  peak_gb=peak[-1] / 2**20 if peak else None,
                  summary=out.decode(errors="replace").splitlines()[:3],
                  error="" if status == "ok" else (lines[-1] if lines else ""))
    try:
        if status == "ok":
            result["file_gb"] = path.stat().st_size / 2**30
            result["checked"] = check_file(path, fmt, 2**N)
    finally:
        path.unlink(missing_ok=True)
    return result


def check_file(path: Path, fmt: str, rows: int) -> bool:
    """Rows and the φ of the last row equal 2^N (the footer and the last row group only)."""
    if fmt == "csv":
        with open(path, "rb") as stream:
            stream.seek(-200, os.SEEK_END)
            last = stream.read().decode().splitlines()[-1]
        return int(last.split(",")[1]) == rows
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path)
    last = parquet.read_row_group(parquet.num_row_groups - 1, columns=["phi"])
    return parquet.metadata.num_rows == rows and last.column("phi")[-1].as_py() == rows


def _num(result: dict, key: str, digits: int) -> str:
    return f"{result[key]:.{digits}f}" if result.get(key) is not None else "–"


def markdown(results: list[dict]) -> str:
    when = dt.date.today().isoformat()
    lines = [BEGIN, "",
             f"Run {when} on {platform.platform()} ({os.cpu_count()} CPUs, shared with other "
             "jobs), Python " + platform.python_version() + "; whole process "
             "`irscale scale image -m nDCG@N -N N -o FILE --no-progress` (binary relevance). "
             "Target (N = 30): ≤ 15 min and ≤ 2 GB.", "",
             "| N | values | format | time (s) | peak (GB) | file (GB) | status |",
             "|---:|---:|---|---:|---:|---:|---|"]
    for r in results:
        checked = "; file checked" if r.get("checked") else ""
        lines.append(f"| {r['N']} | {r['values']:,} | {r['format']} | {_num(r, 'seconds', 1)} "
                     f"| {_num(r, 'peak_gb', 2)} | {_num(r, 'file_gb', 2)} | "
                     f"{r['status']}{checked} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="24,26,28,30", help="comma-separated N")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="folder of the files")
    parser.add_argument("--csv", action="store_true", help="write CSV instead of Parquet")
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--markdown", default=None, help="update this file's section")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="irscale-image-", dir=args.dir))
    results = []
    try:
        for N in (int(n) for n in args.sizes.split(",")):
            result = run_case(N, folder, "csv" if args.csv else "parquet", args.timeout)
            results.append(result)
            print(json.dumps(result), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
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
