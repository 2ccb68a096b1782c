"""Timing of trec_eval's gain-based families on one large graded batch (not a test).

A synthetic batch of ``topics × runs`` rankings of ``depth`` documents each (degrees 0..3,
about a fifth of the retrieved documents judged) is evaluated by every gain-based family,
each on a fresh copy of the batch (nothing cached between families); the best of
``--repeat`` wall-clock times is printed per family. Run it once with the source tree to
time and once with another (``PYTHONPATH``) to compare two versions of the kernels::

    PYTHONPATH=src python benchmarks/bench_gain_families.py --topics 50 --runs 100
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.measures.base import EvalContext, get_family

#: (family, parameter text) timed, in trec_eval's table order.
REQUESTS = (("ndcg", ""), ("ndcg", "0=0,1=1,2=3,3=7"), ("ndcg_cut", ""), ("Rndcg", ""),
            ("ndcg_rel", ""), ("binG", ""), ("G", ""), ("dcg", ""), ("ideal_dcg", ""),
            ("rbp", "p=0.8"), ("rbp_resid", ""))


def graded_batch(topics: int, runs: int, depth: int, seed: int = 0) -> JudgedRankings:
    """``topics × runs`` rankings of ``depth`` documents, degrees 0..3 (see the module)."""
    rng = np.random.default_rng(seed)
    rel_levels = rng.integers(0, 120, size=(topics, 4)) // np.array([1, 2, 4, 8])
    n = topics * runs
    rel = rng.choice([NONPOOL, UNJUDGED, 0, 1, 2, 3], size=n * depth,
                     p=[0.79, 0.01, 0.1, 0.05, 0.03, 0.02]).astype(np.int64)
    ranking_topic = np.tile(np.arange(topics), runs)
    return JudgedRankings(
        rel=rel,
        offsets=np.arange(n + 1, dtype=np.int64) * depth,
        rel_levels=rel_levels[ranking_topic].astype(np.int64),
        ranking_topic=ranking_topic,
        ranking_run=np.repeat(np.arange(runs), topics),
        topics=tuple(f"t{t}" for t in range(topics)),
        runs=tuple(f"r{r}" for r in range(runs)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jr = graded_batch(args.topics, args.runs, args.depth)
    ctx = EvalContext(compat=10)
    print(f"{jr.n_rankings} rankings, {len(jr.rel)} documents")
    total = 0.0
    for family, text in REQUESTS:
        spec = get_family(family)
        params = spec.params.parse(text, family) if text else None
        best = float("inf")
        for _ in range(args.repeat):
            fresh = replace(jr)  # no cached subsets or ideal rankings
            start = time.perf_counter()
            spec.compute(fresh, params, ctx)
            best = min(best, time.perf_counter() - start)
        total += best
        print(f"{family + ('.' + text if text else ''):24s} {best * 1000:9.1f} ms")
    print(f"{'total':24s} {total * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
