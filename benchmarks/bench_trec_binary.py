"""Time of trec_eval's binary-relevance families on one large synthetic batch.

A batch of ``--topics`` × ``--runs`` rankings of ``--depth`` documents (default 50 × 100 ×
1,000: five million documents), about one document in ten judged (degrees 0–2, some pooled
but unjudged), is built once; each family is then evaluated, with its default parameters,
on a fresh copy of the batch (no cache shared between families) and its median time over
``--repeat`` runs printed. Run it with ``PYTHONPATH`` naming the ``src`` of the irscale to
time (e.g. before and after a change of the kernels).

    PYTHONPATH=src python benchmarks/bench_trec_binary.py [--topics 50] [--runs 100]
                                                          [--depth 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import numpy as np

import irscale.measures.trec  # noqa: F401  (registers the families)
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.measures.base import REGISTRY, EvalContext

FAMILIES = (
    "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "map_cut",
    "bpref", "infAP", "P", "relative_P", "Rprec", "Rprec_mult", "recall", "success",
    "recip_rank", "relstring", "iprec_at_recall", "11pt_avg", "set_P", "set_F", "utility",
    "unj",
)


def batch(topics: int, runs: int, depth: int, seed: int = 0) -> JudgedRankings:
    """Rankings of ``depth`` documents, run after run, with about 10 % judged."""
    rng = np.random.default_rng(seed)
    n = topics * runs
    rel = rng.choice(np.array([NONPOOL, UNJUDGED, 0, 1, 2]), size=n * depth,
                     p=[0.9, 0.01, 0.05, 0.03, 0.01])
    per_topic = rng.integers(0, 60, size=(topics, 3))
    return JudgedRankings(
        rel=rel.astype(np.int64), offsets=np.arange(n + 1, dtype=np.int64) * depth,
        rel_levels=np.tile(per_topic, (runs, 1)).astype(np.int64),
        ranking_topic=np.tile(np.arange(topics), runs),
        ranking_run=np.repeat(np.arange(runs), topics),
        topics=tuple(str(t) for t in range(topics)), runs=tuple(f"r{r}" for r in range(runs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jr = batch(args.topics, args.runs, args.depth)
    print(f"{jr.n_rankings} rankings, {len(jr.rel)} documents")
    total = 0.0
    for name in FAMILIES:
        family = REGISTRY[name]
        times = []
        for _ in range(args.repeat):
            fresh = replace(jr)
            start = time.perf_counter()
            family.compute(fresh, None, EvalContext())
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        total += median
        print(f"{name:24s} {median * 1000:9.1f} ms")
    print(f"{'total':24s} {total * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
