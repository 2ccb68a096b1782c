"""Benchmark of crowd-label aggregation: irscale's Dawid–Skene and majority
vote against crowd-kit's on 1,000,000 labels from 5,000 workers.

Case: 200,000 documents (2,000 topics × 100) with 5 labels each from 5,000 workers, binary
or graded (``--classes``); worker accuracies uniform in [0.5, 0.95], a wrong label uniform
over the other classes (fixed seed). Every measurement runs in a fresh process
(``--child``) that builds the labels table (not timed), then times one call: irscale's
``aggregate_labels(frame, method)`` on a ``topic docno worker label`` DataFrame, or
crowd-kit's ``fit_predict_proba`` on a ``task worker label`` DataFrame (both with their
defaults: 100 EM iterations at most, tolerance 1e-5). Reported: the median wall time over
``--repeat`` processes, the child's peak resident memory (table included), the ratio
irscale / crowd-kit, and the share of documents whose label the two agree on.

    python benchmarks/bench_labels.py [--labels 1000000] [--workers 5000] [--classes 2]
        [--methods ds,mv] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

PER_DOC, DOCS_PER_TOPIC = 5, 100


def make_frame(n_labels: int, n_workers: int, k: int):
    """The case's labels (topic, docno, worker, label), planted accuracies, fixed seed."""
    import pandas as pd

    rng = np.random.default_rng(13)
    n_docs = n_labels // PER_DOC
    truth = rng.integers(0, k, n_docs)
    accuracy = rng.uniform(0.5, 0.95, n_workers)
    doc = np.repeat(np.arange(n_docs), PER_DOC)
    # PER_DOC distinct workers per document: a random start and consecutive workers
    worker = (rng.integers(0, n_workers, n_docs)[:, None] + np.arange(PER_DOC)).ravel() \
        % n_workers
    right = rng.random(len(doc)) < accuracy[worker]
    wrong = (truth[doc] + rng.integers(1, k, len(doc))) % k if k > 1 else truth[doc]
    label = np.where(right, truth[doc], wrong)
    topic = doc // DOCS_PER_TOPIC
    return pd.DataFrame({"topic": topic.astype(str).astype(object),
                         "docno": np.char.add("d", doc.astype(str)).astype(object),
                         "worker": np.char.add("w", worker.astype(str)).astype(object),
                         "label": label})


def child(tool: str, method: str, n_labels: int, n_workers: int, k: int) -> dict:
    frame = make_frame(n_labels, n_workers, k)
    if tool == "irscale":
        from irscale.collections.labels import aggregate_labels

        start = time.perf_counter()
        result = aggregate_labels(frame, method)
        wall = time.perf_counter() - start
        labels = dict(zip(result.qrels["docno"], result.qrels["label"], strict=True))
        iterations = result.iterations
    else:
        import crowdkit.aggregation as ck

        data = frame.assign(task=frame["docno"])[["task", "worker", "label"]]
        model = ck.DawidSkene(100) if method == "ds" else ck.MajorityVote()
        start = time.perf_counter()
        proba = model.fit_predict_proba(data)
        wall = time.perf_counter() - start
        labels = proba.idxmax(axis=1).to_dict()
        iterations = len(getattr(model, "loss_history_", []))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB (Linux)
    sample = sorted(labels)[:: max(1, len(labels) // 20000)]
    return {"wall": wall, "peak_mib": peak, "iterations": iterations,
            "labels": {d: int(labels[d]) for d in sample}}


def measure(tool: str, method: str, args: argparse.Namespace) -> list[dict]:
    out = []
    for _ in range(args.repeat):
        proc = subprocess.run(
            [sys.executable, __file__, "--child", tool, method, "--labels", str(args.labels),
             "--workers", str(args.workers), "--classes", str(args.classes)],
            check=True, capture_output=True, text=True)
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=5000)
    parser.add_argument("--classes", type=int, default=2)
    parser.add_argument("--methods", default="ds,mv")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("TOOL", "METHOD"))
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child, args.labels, args.workers, args.classes)))
        return
    print(f"{args.labels:,} labels, {args.workers:,} workers, {args.classes} classes, "
          f"{args.repeat} fresh processes per tool")
    print(f"{'method':<7}{'tool':<10}{'wall s':>9}{'peak MiB':>10}{'iter':>6}"
          f"{'ratio':>8}{'same label':>12}")
    for method in args.methods.split(","):
        runs = {tool: measure(tool, method, args) for tool in ("irscale", "crowdkit")}
        walls = {tool: statistics.median(r["wall"] for r in rs) for tool, rs in runs.items()}
        ours, theirs = runs["irscale"][0]["labels"], runs["crowdkit"][0]["labels"]
        same = np.mean([ours[d] == theirs[d] for d in ours])
        for tool, rs in runs.items():
            ratio = f"{walls['irscale'] / walls['crowdkit']:.2f}" if tool == "irscale" else ""
            print(f"{method:<7}{tool:<10}{walls[tool]:>9.2f}"
                  f"{max(r['peak_mib'] for r in rs):>10.0f}{rs[0]['iterations']:>6}"
                  f"{ratio:>8}{same if tool == 'irscale' else '':>12}")


if __name__ == "__main__":
    main()
