"""Benchmark of the sharded exact images: AP's image at N = 26 on a local
Dask cluster vs one worker vs this process.

Each configuration runs in its own process (so that its peak memory, ``ru_maxrss`` of the
client alone — the workers are other processes — is its own): build ``scale("AP", N)``,
count its distinct values and write the sorted image to Parquet
(:func:`irscale.scales.stream.write_image`), timed after the cluster has started and the
workers have imported irscale:

* ``local``: no executor (today's path, in this thread);
* ``Dask LocalCluster, k worker(s)``: ``executor=client`` (one shard per bucket of about
  4M candidate pairs), k = 1 and 2; and with ``max_memory`` lowered so that only a few
  shards are in flight (the memory bound of the client).

Every written file is checked byte-identical to the local one. The overhead per task is
measured with empty tasks on the 2-worker cluster, the task size by computing one shard
(one bucket) in the client.

    python benchmarks/bench_scale_shards.py [--markdown docs/benchmarks-scale-out.md]
                                            [--N 26] [--repeat 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_scale_shards.py -->"
END = "<!-- END GENERATED -->"


def _noop() -> None:
    return None


def _payload(n: int):
    """A shard's result of ``n`` distinct values (int64 keys and int64 run counts)."""
    import numpy as np

    from irscale.scales.pairs import Bucket

    return [Bucket(0, 1, np.arange(n, dtype=np.int64), np.ones(n, dtype=np.int64), n)]


def one(N: int, workers: int, max_memory: str | None, path: str) -> dict:
    """One configuration in this process: seconds of scale + count + write, client peak."""
    from contextlib import nullcontext

    from irscale.scales import scale
    from irscale.scales.stream import write_image

    scope: object = nullcontext("local")
    if workers:
        import distributed

        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
        scope = distributed.Client(cluster)
    with scope as executor:  # type: ignore[attr-defined]
        if workers:
            executor.run(lambda: __import__("irscale.scales.shards"))  # before the clock
        start = time.perf_counter()
        sc = scale("AP", N, progress=False, executor=executor, max_memory=max_memory)
        n = sc.n_distinct
        counted = time.perf_counter()
        written = write_image(sc, path, force=True, progress=False, max_memory=max_memory)
        end = time.perf_counter()
        table = (sc.image.inner if hasattr(sc.image, "inner") else sc.image).table
        buckets = len(table.edges_cache()) - 1
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return {"seconds": end - start, "count": counted - start, "write": end - counted,
            "n_distinct": n, "rows": written.rows, "pairs": table.n_pairs,
            "buckets": buckets, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            / 1024, "sha256": digest}


def _spawn(N: int, workers: int, max_memory: str | None, path: str) -> dict:
    argv = [sys.executable, __file__, "--one", str(workers), "--N", str(N), "--path", path]
    if max_memory:
        argv += ["--max-memory", max_memory]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{argv} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def overheads(N: int) -> dict:
    """Empty-task overhead on a 2-worker cluster; one shard's (bucket's) time here."""
    import distributed
    import numpy as np

    from irscale.parallel import map_tasks
    from irscale.scales import scale
    from irscale.scales.shards import shard_buckets

    out: dict = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        map_tasks(_noop, [()] * 20, executor=client)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            map_tasks(_noop, [()] * 400, executor=client)
            times.append((time.perf_counter() - start) / 400)
        out["empty_task_ms"] = min(times) * 1e3
        size = 1 << 22
        times = []
        for _ in range(3):
            start = time.perf_counter()
            map_tasks(_payload, [(size,)] * 8, executor=client)
            times.append((time.perf_counter() - start) / 8)
        out["payload_ms"] = min(times) * 1e3
        out["payload_mib"] = 16 * size / 2**20
    table = scale("AP", N, progress=False).image.inner.table
    edges = table.edges_cache()
    shard_times = []
    for k in np.linspace(0, len(edges) - 2, 5).astype(int).tolist():
        start = time.perf_counter()
        shard_buckets(table, edges[k:k + 2], True)
        shard_times.append(time.perf_counter() - start)
    out["shard_s"] = statistics.median(shard_times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument("--N", type=int, default=26)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--path", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--max-memory", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.N, args.one, args.max_memory, args.path)))
        return
    configs = [("local", 0, None), ("Dask LocalCluster, 1 worker", 1, None),
               ("Dask LocalCluster, 2 workers", 2, None),
               ("Dask LocalCluster, 2 workers, max_memory 1G", 2, "1G")]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, workers, memory in configs:
            runs = [_spawn(args.N, workers, memory, f"{folder}/ap-{workers}-{memory}.parquet")
                    for _ in range(args.repeat)]
            rows.append((name, runs))
            print(name, [round(r["seconds"], 2) for r in runs], file=sys.stderr)
    reference = rows[0][1][0]["sha256"]
    assert all(r["sha256"] == reference for _, runs in rows for r in runs), "files differ"
    extra = overheads(args.N)
    lines = report(rows, extra, args.N)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        page = args.markdown.read_text(encoding="utf-8")
        head, rest = page.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        args.markdown.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def report(rows, extra: dict, N: int) -> list[str]:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    first = rows[0][1][0]
    lines = [f"Measured {now} on {platform.machine()}, {os.cpu_count()} CPU cores (shared "
             f"with other work), Python {sys.version.split()[0]}; AP at N = {N}: "
             f"{first['n_distinct']:,} distinct values from {first['pairs']:,} candidate "
             f"pairs in {first['buckets']} buckets (= shards); scale + distinct count + "
             f"Parquet write, {len(rows[0][1])} runs each in a fresh process; every file "
             "byte-identical to the local one.", "",
             "| executor | median (s) | min–max (s) | count pass (s) | write pass (s) | "
             "speed-up vs 1 worker | client peak (MiB) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    one_worker = statistics.median(r["seconds"] for r in rows[1][1])
    for name, runs in rows:
        seconds = [r["seconds"] for r in runs]
        median = statistics.median(seconds)
        speed = f"{one_worker / median:.2f}" if name.startswith("Dask") else "–"
        lines.append(
            f"| {name} | {median:.2f} | {min(seconds):.2f}–{max(seconds):.2f} | "
            f"{statistics.median(r['count'] for r in runs):.2f} | "
            f"{statistics.median(r['write'] for r in runs):.2f} | {speed} | "
            f"{max(r['peak_mib'] for r in runs):.0f} |")
    lines += ["", f"Task size: one shard = one bucket of about 4M candidate pairs "
              f"(BUCKET_PAIRS), {extra['shard_s']:.2f} s to compute here (median of 5 "
              f"buckets, values and run counts). Overhead per task (empty tasks, 2 workers): "
              f"{extra['empty_task_ms']:.1f} ms; a task returning a shard's result of 4M "
              f"values ({extra['payload_mib']:.0f} MiB: int64 keys and run counts) to the "
              f"client: {extra['payload_ms']:.0f} ms."]
    return lines


if __name__ == "__main__":
    main()
