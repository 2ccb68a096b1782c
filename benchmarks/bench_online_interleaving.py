"""Benchmark of interleaving: 10^6 team-draft impressions, target ≤ 5 s.

Data (generated in memory, deterministic): 100 topics, two rankers ranking 100 documents
each out of 150 per topic (so their rankings overlap), lists of 10 documents, 10,000
impressions per topic (10^6 in all).

* irscale: :func:`irscale.online.interleave_runs` (the team-draft lists of every
  impression, coin flips and team assignment as array operations over impressions), then
  random clicks (:meth:`Interleavings.simulate_clicks`) and the outcome with its binomial
  test and 10,000-sample bootstrap (:meth:`Interleavings.score`); the other methods on
  10^5 impressions for scale.
* baseline: the plain per-impression loop one would write in Python (Radlinski et al.
  2008's Algorithm 2 on lists), timed on ``--baseline`` impressions and extrapolated
  linearly to 10^6.

Times are wall-clock on this (shared, 2-core) machine, the rankings built before the clock
starts, in one process; the median of ``--repeat`` runs.

    python benchmarks/bench_online_interleaving.py [--repeat 5] [--baseline 20000]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

import numpy as np

N_TOPICS, DEPTH, POOL, LENGTH, PER_TOPIC = 100, 100, 150, 10, 10_000
SEED = 14


def rankings() -> dict[str, dict[str, list[str]]]:
    rng = np.random.default_rng(SEED)
    out: dict[str, dict[str, list[str]]] = {"A": {}, "B": {}}
    for t in range(N_TOPICS):
        for name in out:
            out[name][f"q{t}"] = [f"d{i}" for i in rng.permutation(POOL)[:DEPTH]]
    return out


def team_draft_loop(a: list[str], b: list[str], length: int, coin: random.Random
                    ) -> tuple[list[str], list[int]]:
    """Algorithm 2 of Radlinski et al. (2008), one impression."""
    shown: list[str] = []
    team: list[int] = []
    seen: set[str] = set()
    sizes = [0, 0]
    lists = (a, b)
    pointer = [0, 0]
    while len(shown) < length:
        s = 0 if sizes[0] < sizes[1] or (sizes[0] == sizes[1] and coin.random() < 0.5) \
            else 1
        ranking = lists[s]
        while pointer[s] < len(ranking) and ranking[pointer[s]] in seen:
            pointer[s] += 1
        if pointer[s] == len(ranking):
            break
        doc = ranking[pointer[s]]
        shown.append(doc)
        team.append(s)
        seen.add(doc)
        sizes[s] += 1
    return shown, team


def median_time(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=int, default=20_000,
                        help="impressions the plain loop is timed on")
    args = parser.parse_args()

    from irscale.collections import Candidates
    from irscale.online import interleave_runs
    from irscale.online.interleaving import rankings_from_lists

    lists = rankings()
    cube: Candidates = rankings_from_lists(lists)
    n = N_TOPICS * PER_TOPIC

    build, batch = median_time(
        lambda: interleave_runs(cube, PER_TOPIC, method="team-draft", length=LENGTH, rng=1),
        args.repeat)
    clicks_time, clicks = median_time(
        lambda: batch.simulate_clicks("random", probability=0.3, rng=2), args.repeat)
    score_time, result = median_time(lambda: batch.score(clicks, rng=3), args.repeat)
    rows = [("team-draft", n, build, clicks_time, score_time)]
    for method in ("balanced", "probabilistic", "optimized"):
        t, other = median_time(lambda m=method: interleave_runs(
            cube, PER_TOPIC // 10, method=m, length=LENGTH, rng=1), max(1, args.repeat // 2))
        c = other.simulate_clicks("random", probability=0.3, rng=2)
        s, _ = median_time(lambda o=other, c=c: o.score(c, rng=3), 1)
        rows.append((method, n // 10, t, float("nan"), s))

    coin = random.Random(1)
    topics = list(lists["A"])
    start = time.perf_counter()
    for i in range(args.baseline):
        topic = topics[i % len(topics)]
        team_draft_loop(lists["A"][topic], lists["B"][topic], LENGTH, coin)
    loop = (time.perf_counter() - start) / args.baseline * n

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} "
          f"cores (shared), Python {platform.python_version()}, numpy {np.__version__}")
    print(f"team-draft outcome on random clicks: {result!r}")
    print()
    print("| method | impressions | build lists (s) | random clicks (s) | score (s) |")
    print("|---|---:|---:|---:|---:|")
    for method, count, t, c, s in rows:
        shown = "" if np.isnan(c) else f"{c:.2f}"
        print(f"| {method} | {count:,} | {t:.2f} | {shown} | {s:.2f} |")
    print()
    print(f"plain Python team-draft loop, extrapolated to {n:,} impressions from "
          f"{args.baseline:,}: {loop:.1f} s ({loop / build:.0f}× irscale's lists)")


if __name__ == "__main__":
    main()
