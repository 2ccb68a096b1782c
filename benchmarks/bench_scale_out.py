"""Benchmark of irscale.parallel: discriminative power on a local Dask cluster vs one worker.

On the TREC-8 ad hoc AP matrix (50 topics × 129 systems, 8,256 pairs;
``../shared/data/urbano-sigir2019/adhoc8_ap.csv``), Sakai's bootstrap discriminative power
with B = 10,000 (two passes over the samples: the ASLs, then t_α; chunks of 1,024 samples,
so 2 × 10 tasks) and the randomised Tukey HSD with B = 10,000, run

* with the local executor on 1 and on 2 threads;
* on a ``dask.distributed.LocalCluster`` of 1 and of 2 worker processes (one thread each),
  started before the clock;

and checked identical (every pair's ASL, MC error and required difference). The overhead
per task is measured with empty tasks (``map_tasks`` of a function returning ``None``) on
the 2-worker cluster, and the cost of sending the shared array once (``scatter``).

    python benchmarks/bench_scale_out.py [--markdown docs/benchmarks-scale-out.md]
                                         [--repeat 2] [--samples 10000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data" / "urbano-sigir2019" / "adhoc8_ap.csv"
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_scale_out.py -->"
END = "<!-- END GENERATED -->"


def _noop() -> None:
    return None


def _touch(shared, index: int) -> int:
    return shared.shape[0] + index


def _timed(call, repeat: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return times, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", type=Path, default=None,
                        help="replace the generated block of this page with the results")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--samples", type=int, default=10_000)
    args = parser.parse_args()

    import distributed
    import numpy as np
    import pandas as pd

    from irscale.meta import discriminative_power
    from irscale.parallel import map_tasks
    from irscale.stats.bootstrap import CHUNK

    values = np.ascontiguousarray(pd.read_csv(DATA).to_numpy(dtype=np.float64))
    B = args.samples
    chunks = -(-B // CHUNK)
    rows, results = [], {}
    methods = ("bootstrap", "randomized-tukey-hsd")

    def run(method: str, **where):
        return discriminative_power(values, method, samples=B, rng=2024, **where)

    for method in methods:
        for threads in (1, 2):
            times, result = _timed(lambda m=method, t=threads: run(m, workers=t), args.repeat)
            rows.append((method, f"local, {threads} thread(s)", times))
            results[(method, f"local-{threads}")] = result
    overhead = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            client.run(lambda: __import__("irscale.meta"))  # imports before the clock
            for method in methods:
                times, result = _timed(lambda m=method, c=client: run(m, executor=c),
                                       args.repeat)
                rows.append((method, f"Dask LocalCluster, {workers} worker(s)", times))
                results[(method, f"dask-{workers}")] = result
            if workers == 2:
                tasks = 400
                map_tasks(_noop, [()] * 20, executor=client)  # warm
                t, _ = _timed(lambda c=client, n=tasks: map_tasks(_noop, [()] * n, executor=c), 3)
                overhead["empty task"] = min(t) / tasks
                w = np.zeros((values.shape[0], values.shape[1] * (values.shape[1] - 1) // 2))
                t, _ = _timed(lambda c=client, a=w: map_tasks(
                    _touch, [(i,) for i in range(2)], shared=(a,), executor=c), 3)
                overhead["scatter"] = min(t)
                overhead["scatter_mb"] = w.nbytes / 2**20
    for method in methods:
        reference = results[(method, "local-1")].pairs
        for key, result in results.items():
            if key[0] == method:
                pd.testing.assert_frame_equal(reference, result.pairs, check_exact=True)
    lines = report(rows, overhead, B, chunks)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        page = args.markdown.read_text(encoding="utf-8")
        head, rest = page.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        args.markdown.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def report(rows, overhead, B: int, chunks: int) -> list[str]:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Measured {now} on {platform.machine()}, {os.cpu_count()} CPU cores (shared "
             f"with other work), Python {sys.version.split()[0]}; B = {B:,}, 50 topics × "
             f"129 systems (8,256 pairs); times of {len(rows[0][2])} runs (min / median).",
             "", "| method | executor | min (s) | median (s) | speed-up vs 1 worker |",
             "|---|---|---:|---:|---:|"]
    base: dict[tuple[str, str], float] = {}
    for method, where, times in rows:
        kind = "dask" if where.startswith("Dask") else "local"
        if where.endswith(("1 thread(s)", "1 worker(s)")):
            base[(method, kind)] = min(times)
        ratio = base[(method, kind)] / min(times)
        lines.append(f"| {method} | {where} | {min(times):.2f} | "
                     f"{statistics.median(times):.2f} | {ratio:.2f} |")
    boot_one = next(min(t) for m, w, t in rows
                    if m == "bootstrap" and w == "Dask LocalCluster, 1 worker(s)")
    lines += ["", f"Task size: a chunk of 1,024 bootstrap samples for all 8,256 pairs; the "
              f"bootstrap runs 2 × {chunks} tasks, "
              f"{boot_one / (2 * chunks):.3f} s each on one worker. Overhead per task "
              f"(empty tasks, 2 workers): {overhead['empty task'] * 1e3:.2f} ms. Sending the "
              f"shared array once ({overhead['scatter_mb']:.1f} MiB, the centred differences "
              f"of every pair) to both workers plus two tiny tasks: "
              f"{overhead['scatter'] * 1e3:.0f} ms."]
    return lines


if __name__ == "__main__":
    main()
