"""Benchmark of the audit of automatic judges (:func:`irscale.labels.audit`): 10 judges ×
50 topics × 30 runs, 1,000 bootstrap resamples of the topics (the default).

Case: :func:`irscale.datasets.synthetic_collection` with 50 topics, pools of 200 documents
and 30 runs of 100 documents a topic (qualities 0.2 … 2.0); each judge redraws a share of
the human grades uniformly (5 % to 50 %, a fixed seed each). Not timed: the collection
and the judges' qrels. Timed: one call of ``audit`` (agreement, rankings with their
intervals, decisions, bias model and unjudged counts of every judge). Reported: the wall
time, the CPU time (user + system) of the call and the process's peak resident memory.
No other tool audits judges this way (scikit-learn's κ, scipy's τ and the ``rbo`` package
compute one statistic of one sample each; the tests compare them number for number).

    python benchmarks/bench_labels_audit.py [--judges 10] [--topics 50] [--runs 30]
        [--boot 1000]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings

import numpy as np


def judges(qrels, count: int) -> dict:
    """``count`` judges, each redrawing a growing share of the grades."""
    import pandas as pd

    out = {}
    for i, share in enumerate(np.linspace(0.05, 0.5, count)):
        rng = np.random.default_rng(100 + i)
        rel = np.asarray(qrels.rel).copy()
        flip = rng.random(len(rel)) < share
        rel[flip] = rng.integers(0, 3, int(flip.sum()))
        out[f"judge{i + 1}"] = pd.DataFrame({"query_id": qrels.topic.to_pylist(),
                                             "doc_id": qrels.docno.to_pylist(),
                                             "relevance": rel})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judges", type=int, default=10)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--boot", type=int, default=1000)
    args = parser.parse_args(argv)
    from irscale.datasets import synthetic_collection
    from irscale.labels import audit

    collection = synthetic_collection(n_topics=args.topics, pool_size=200, depth=100,
                                      qualities=tuple(np.linspace(0.2, 2.0, args.runs)),
                                      seed=7)
    judged = judges(collection.qrels, args.judges)
    audit(collection.qrels, {"warm": judged["judge1"]}, list(collection.runs)[:3], n_boot=2)
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = audit(collection.qrels, judged, list(collection.runs), n_boot=args.boot)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = after.ru_maxrss / (1024 if sys.platform != "darwin" else 1024 * 1024)
    summary = result.to_frame()
    print(f"audit: {args.judges} judges x {args.topics} topics x {args.runs} runs, "
          f"B = {args.boot}")
    print(f"  wall {wall:.2f} s, CPU {cpu:.2f} s, peak memory {peak:.0f} MiB")
    print(f"  tau_b of the judges: {', '.join(f'{v:.3f}' for v in summary['tau_b'])}")


if __name__ == "__main__":
    main()
