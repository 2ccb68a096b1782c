"""Benchmark of irscale.evaluate_many: many large run files streamed in batches.

Generates (deterministically, vectorised, into a scratch folder outside the repository,
deleted at the end unless ``--keep``) one qrels file and run files as Parquet:

* topics ``t0000 ..`` with a pool of 3,000 candidate documents each (MS MARCO-style docnos
  of an 8.8M collection, :mod:`datagen`); every run retrieves 1,000 of its topic's pool in
  a random order with scores of 3 decimals (many ties); 1,000 topics give a run of 10^6
  lines, 100 topics one of 10^5 lines;
* qrels: 100 judged documents of each topic's pool, graded 0..2 (about a third relevant).

Each configuration runs in a fresh subprocess (``evaluate_many`` with map, P@10, nDCG@10,
per-topic values written as Parquet to a scratch folder) that reports its wall time, CPU
time and peak resident memory (``VmHWM``; ``ru_maxrss`` would carry the parent's peak
across ``exec``). Optionally, on a subset, pytrec_eval in a
loop over the files (each read with pandas into pytrec_eval's dict of dicts) is timed side
by side and its means are checked equal to irscale's.

    python benchmarks/bench_eval_many.py --configs 200x1000000:4,2000x100000:32 \\
        [--scratch /tmp/irscale-many] [--peer 5x1000000] [--markdown docs/benchmarks-scale-out.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from datagen import _distinct_docs, _docnos  # noqa: E402

BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_eval_many.py -->"
END = "<!-- END GENERATED: benchmarks/bench_eval_many.py -->"
POOL = 3_000
DEPTH = 1_000
JUDGED = 100
MEASURES = ["map", "P@10", "nDCG@10"]
SEED = 20261123


def _pool(n_topics: int) -> np.ndarray:
    return _distinct_docs(np.random.default_rng(SEED), n_topics, POOL)


def write_qrels(path: Path, pool: np.ndarray) -> None:
    rng = np.random.default_rng(SEED + 1)
    n = pool.shape[0]
    pick = np.argsort(rng.random((n, POOL)), axis=1)[:, :JUDGED]
    docs = np.take_along_axis(pool, pick, axis=1)
    grade = rng.choice([0, 0, 0, 0, 1, 1, 2], size=docs.shape)
    topics = np.repeat([f"t{t:04d}" for t in range(n)], JUDGED)
    names = _docnos(docs).to_numpy(zero_copy_only=False)
    with open(path, "w") as stream:
        stream.writelines(f"{t} 0 {d} {g}\n" for t, d, g in
                          zip(topics, names, grade.ravel(), strict=True))


def write_runs(folder: Path, pool: np.ndarray, count: int, n_topics: int) -> None:
    """``count`` runs of ``n_topics`` × 1,000 lines (file k drawn with seed SEED + 2 + k)."""
    folder.mkdir(parents=True, exist_ok=True)
    topic_ids = pa.array([f"t{t:04d}" for t in range(n_topics)])
    query_id = topic_ids.take(pa.array(np.repeat(np.arange(n_topics), DEPTH)))
    for k in range(count):
        rng = np.random.default_rng(SEED + 2 + k)
        pick = np.argsort(rng.random((n_topics, POOL)), axis=1)[:, :DEPTH]
        docs = np.take_along_axis(pool[:n_topics], pick, axis=1)
        scores = rng.integers(0, 20_000, size=docs.shape) / 1_000
        table = pa.table({"query_id": query_id, "doc_id": _docnos(docs),
                          "score": pa.array(scores.ravel())})
        pq.write_table(table, folder / f"run{k:05d}.parquet", compression="zstd")


_CHILD = """
import json, sys, time
import warnings
warnings.simplefilter("ignore")
from irscale.evaluation.many import evaluate_many
qrels, runs, batch, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
measures = sys.argv[5].split(",")
start, cpu = time.perf_counter(), time.process_time()
many = evaluate_many(qrels, runs, measures, batch_size=batch, out=out, force=True)
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = int(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
print(json.dumps({"wall": wall, "cpu": cpu, "peak_kib": peak, "runs": len(many.runs),
                  "means": many.mean().to_dict("index")}))
"""

_PEER = """
import json, sys, time
import pandas as pd, pytrec_eval
qrels_path, files = sys.argv[1], sys.argv[2:]
start, cpu = time.perf_counter(), time.process_time()
qrels = {}
for line in open(qrels_path):
    t, _, d, g = line.split()
    qrels.setdefault(t, {})[d] = int(g)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_10", "ndcg_cut_10"})
means = {}
for path in files:
    frame = pd.read_parquet(path)
    run = {}
    for t, d, s in zip(frame["query_id"], frame["doc_id"], frame["score"]):
        run.setdefault(t, {})[d] = float(s)
    per = evaluator.evaluate(run)
    name = path.rsplit("/", 1)[-1].split(".")[0]
    means[name] = {m: sum(v[m] for v in per.values()) / len(per)
                   for m in ("map", "P_10", "ndcg_cut_10")}
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = int(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
print(json.dumps({"wall": wall, "cpu": cpu, "peak_kib": peak, "means": means}))
"""


def _child(code: str, *args: str) -> dict:
    env = dict(os.environ, IRSCALE_NO_PROGRESS="1")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.splitlines()[-1])


def _parse(spec: str) -> tuple[int, int, int]:
    """``200x1000000:4`` → (files, lines per file, batch size)."""
    shape, _, batch = spec.partition(":")
    files, _, lines = shape.partition("x")
    return int(files), int(lines), int(batch or 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="20x1000000:4,200x1000000:4,2000x100000:32",
                        help="FILESxLINES:BATCH,... (LINES a multiple of 1,000)")
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/irscale-eval-many"))
    parser.add_argument("--peer", default="5x1000000",
                        help="FILESxLINES of the pytrec_eval comparison ('' for none)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="replace the generated block of this page with the results")
    args = parser.parse_args()
    configs = [_parse(spec) for spec in args.configs.split(",") if spec]
    max_topics = max(lines // DEPTH for _, lines, _ in configs)
    scratch = args.scratch
    scratch.mkdir(parents=True, exist_ok=True)
    rows, peer_row = [], None
    try:
        pool = _pool(max_topics)
        qrels = scratch / "qrels.txt"
        write_qrels(qrels, pool)
        generated: dict[int, tuple[Path, int, float]] = {}  # lines -> folder, files, seconds
        for files, lines, _ in configs:
            folder, have, _ = generated.get(lines, (scratch / f"runs-{lines}", 0, 0.0))
            if files > have:
                start = time.perf_counter()
                write_runs(folder, pool, files, lines // DEPTH)
                took = time.perf_counter() - start
                generated[lines] = (folder, files, took)
                size = sum(p.stat().st_size for p in folder.iterdir())
                print(f"generated {files} x {lines:,} lines in {took:.0f} s "
                      f"({size / 2**30:.2f} GiB)", flush=True)
        for files, lines, batch in configs:
            folder = generated[lines][0]
            chosen = sorted(folder.iterdir())[:files]
            listing = scratch / f"list-{files}-{lines}"
            listing.mkdir(exist_ok=True)
            for path in chosen:  # a folder holding exactly these files (links)
                link = listing / path.name
                if not link.exists():
                    link.symlink_to(path)
            result = _child(_CHILD, str(qrels), str(listing), str(batch),
                            str(scratch / "per-topic"), ",".join(MEASURES))
            size = sum(p.stat().st_size for p in chosen)
            rows.append((files, lines, batch, size, result))
            print(f"{files} x {lines:,} lines, batch {batch}: {result['wall']:.1f} s wall, "
                  f"{result['cpu']:.1f} s CPU, peak {result['peak_kib'] / 1024:.0f} MiB",
                  flush=True)
            shutil.rmtree(listing)
        if args.peer:
            files, lines, _ = _parse(args.peer)
            chosen = sorted(generated[lines][0].iterdir())[:files]
            peer = _child(_PEER, str(qrels), *map(str, chosen))
            listing = scratch / "peer"
            listing.mkdir(exist_ok=True)
            for path in chosen:
                (listing / path.name).symlink_to(path)
            ours = _child(_CHILD, str(qrels), str(listing), "8", str(scratch / "per-topic"),
                          ",".join(MEASURES))
            worst = max(abs(peer["means"][run][theirs] - ours["means"][run][mine])
                        for run in peer["means"]
                        for theirs, mine in (("map", "map"), ("P_10", "P@10"),
                                             ("ndcg_cut_10", "nDCG@10")))
            peer_row = (files, lines, peer, ours, worst)
            print(f"pytrec_eval loop on {files} x {lines:,}: {peer['wall']:.1f} s, irscale "
                  f"{ours['wall']:.1f} s; largest difference of the means {worst:.1e}",
                  flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.markdown:
        _write_markdown(args.markdown, rows, peer_row)


def _write_markdown(path: Path, rows: list, peer_row) -> None:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Measured {now} on {platform.machine()}, {os.cpu_count()} CPU cores (shared "
             f"with other work), Python {platform.python_version()}; measures "
             f"{', '.join(MEASURES)}; local executor (threads, one per core); per-topic "
             "values written as Parquet.", "",
             "| run files | lines each | batch size | input (GiB, Parquet) | wall (s) | "
             "CPU (s) | peak RSS (MiB) | lines/s (CPU) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for files, n_lines, batch, size, r in rows:
        lines.append(f"| {files:,} | {n_lines:,} | {batch} | {size / 2**30:.2f} | "
                     f"{r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_kib'] / 1024:,.0f} | "
                     f"{files * n_lines / r['cpu']:,.0f} |")
    if peer_row:
        files, n_lines, peer, ours, worst = peer_row
        lines += ["", f"pytrec_eval in a loop over {files} files of {n_lines:,} lines (each "
                  f"read with pandas into a dict of dicts): {peer['wall']:.1f} s wall, "
                  f"{peer['cpu']:.1f} s CPU, peak {peer['peak_kib'] / 1024:,.0f} MiB; "
                  f"irscale.evaluate_many on the same files: {ours['wall']:.1f} s wall, "
                  f"{ours['cpu']:.1f} s CPU, peak {ours['peak_kib'] / 1024:,.0f} MiB "
                  f"(ratio {peer['wall'] / ours['wall']:.1f}× wall). Largest difference "
                  f"between their means: {worst:.1e}."]
    block = "\n".join([BEGIN, *lines, END])
    text = path.read_text() if path.exists() else ""
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


if __name__ == "__main__":
    main()
