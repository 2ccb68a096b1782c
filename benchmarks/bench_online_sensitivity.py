"""Sensitivity of interleaving vs A/B tests on the CLEF 2016 eHealth task 2 runs:
impressions needed to agree with nDCG@10's preference at 95%.

Data: ``/work/shared/data/clef2016-task2`` (``task2.qrels``, the 16 runs of ``runs/``; the
path can be changed with ``--data``). Pairs: the 120 pairs of runs ordered by |Δ nDCG@10|
(mean over the qrels topics every run ranks), pairs with Δ = 0 left out; ``--pairs`` of
them evenly spaced in that order (from the smallest to the largest difference), each
oriented so that ``a`` is the better run.

Simulation (:func:`irscale.online.sensitivity`): users of the Hofmann et al. (2011)
instantiation ``--model`` from the qrels (grade ≥ 1 relevant); every user draws a topic
uniformly; lists of 10; ``--repetitions`` experiments per number of impressions of
``--impressions``; interleaving methods ``--methods``; the A/B test splits the same users
in half and compares ``--ab-measure`` (clicks per impression by default). Prints the
markdown table of impressions needed (the smallest grid point with agreement ≥ 0.95;
``>N`` where none reaches it) and the wall-clock time of the simulation.

    python benchmarks/bench_online_sensitivity.py [--model navigational] [--repetitions 100]
        [--pairs 10] [--methods team-draft] [--ab-measure clicks] [--seed 14]
        [--csv curves.csv]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import time
from pathlib import Path

DATA = Path("/work/shared/data/clef2016-task2")
GRID = "10,20,50,100,200,500,1000,2000,5000,10000"


def chosen_pairs(qrels: str, runs: dict[str, str], count: int) -> list[tuple[str, str, float]]:
    import irscale

    table = irscale.evaluate(qrels, runs, "nDCG@10").per_topic().pivot(
        index="topic", columns="run", values="value").dropna()
    means = table.mean()
    pairs = []
    for a, b in itertools.combinations(table.columns, 2):
        delta = float((table[a] - table[b]).mean())
        if abs(delta) > 1e-12:
            pairs.append((a, b, delta) if delta > 0 else (b, a, -delta))
    pairs.sort(key=lambda p: (p[2], p[0], p[1]))
    step = (len(pairs) - 1) / max(count - 1, 1)
    picked = [pairs[round(i * step)] for i in range(count)]
    assert all(means[a] > means[b] for a, b, _ in picked)
    return picked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", default="navigational")
    parser.add_argument("--repetitions", type=int, default=100)
    parser.add_argument("--impressions", default=GRID)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--methods", default="team-draft")
    parser.add_argument("--ab-measure", default="clicks")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--csv", default=None, help="write the agreement curves here")
    args = parser.parse_args()

    import pandas as pd

    from irscale.online import sensitivity

    qrels = str(args.data / "task2.qrels")
    # named after their files (CUNI_EN_Run2's run id is Run3; two teams share one)
    runs = {p.stem: str(p) for p in sorted((args.data / "runs").iterdir())}
    pairs = chosen_pairs(qrels, runs, args.pairs)
    grid = [int(n) for n in args.impressions.split(",")]
    methods = args.methods.split(",")
    start = time.perf_counter()
    result = sensitivity(qrels, runs, args.model, impressions=grid,
                         repetitions=args.repetitions, methods=methods,
                         ab_measure=args.ab_measure,
                         pairs=[(a, b) for a, b, _ in pairs], seed=args.seed)
    seconds = time.perf_counter() - start
    if args.csv:
        result.curves.to_csv(args.csv, index=False)
    summary = result.summary()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
          f"(shared), load {os.getloadavg()[0]:.1f}; simulation {seconds:.0f} s")
    print(f"model {args.model}, A/B on {args.ab_measure}, {args.repetitions} repetitions, "
          f"impressions {grid}, "
          f"seed {args.seed}, {result.settings['topics']} topics")
    print()
    names = [*methods, "ab"]
    print("| A | B | Δ nDCG@10 | " + " | ".join(f"{m} needs" for m in names) + " |")
    print("|---|---|---:|" + "---:|" * len(names))
    for _, row in summary.iterrows():
        cells = [f">{grid[-1]:,}" if pd.isna(row[m]) else f"{int(row[m]):,}" for m in names]
        print(f"| {row['a']} | {row['b']} | {row['delta']:.4f} | " + " | ".join(cells) + " |")
    curves = result.curves
    largest = curves[curves["impressions"] == grid[-1]]
    print()
    print(f"agreement at {grid[-1]:,} impressions (median over the pairs): " + ", ".join(
        f"{m} {largest.loc[largest['method'] == m, 'agreement'].median():.2f}"
        for m in names))


if __name__ == "__main__":
    main()
