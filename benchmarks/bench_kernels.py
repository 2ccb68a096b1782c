"""Time of trec_eval's measure families (the engine's kernels) on one large batch.

A synthetic batch of ``--topics`` × ``--runs`` rankings of ``--depth`` documents each
(default 50 × 100 × 1,000: five million documents; degrees 0..3, about a fifth of the
retrieved documents judged, some pooled but unjudged) is built once; each family request
is then evaluated on a fresh copy of the batch (nothing cached between requests) and its
median time over ``--repeat`` runs printed. ``--group`` chooses the binary-relevance
families, the gain-based ones or both. Run it with ``PYTHONPATH`` naming the ``src`` of
the irscale to time (e.g. before and after a change of the kernels)::

    PYTHONPATH=src python benchmarks/bench_kernels.py [--group all] [--topics 50]
                                                      [--runs 100] [--depth 1000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import numpy as np

from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.measures.base import EvalContext, get_family

#: (family, parameter text) timed, in trec_eval's table order, by group.
GROUPS: dict[str, tuple[tuple[str, str], ...]] = {
    "binary": tuple((name, "") for name in (
        "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "map_cut",
        "bpref", "infAP", "P", "relative_P", "Rprec", "Rprec_mult", "recall", "success",
        "recip_rank", "relstring", "iprec_at_recall", "11pt_avg", "set_P", "set_F",
        "utility", "unj")),
    "gain": (("ndcg", ""), ("ndcg", "0=0,1=1,2=3,3=7"), ("ndcg_cut", ""), ("Rndcg", ""),
             ("ndcg_rel", ""), ("binG", ""), ("G", ""), ("dcg", ""), ("ideal_dcg", ""),
             ("rbp", "p=0.8"), ("rbp_resid", "")),
}


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
    parser.add_argument("--group", choices=(*GROUPS, "all"), default="all")
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    requests = [r for group, rs in GROUPS.items() if args.group in (group, "all") for r in rs]
    jr = graded_batch(args.topics, args.runs, args.depth)
    ctx = EvalContext(compat=10)  # dcg, ideal_dcg, rbp and unj are trec_eval 10.0's
    print(f"{jr.n_rankings} rankings, {len(jr.rel)} documents")
    total = 0.0
    for family, text in requests:
        spec = get_family(family)
        params = spec.params.parse(text, family) if text else None
        times = []
        for _ in range(args.repeat):
            fresh = replace(jr)  # no cached subsets or ideal rankings
            start = time.perf_counter()
            spec.compute(fresh, params, ctx)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        total += median
        print(f"{family + ('.' + text if text else ''):24s} {median * 1000:9.1f} ms")
    print(f"{'total':24s} {total * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
