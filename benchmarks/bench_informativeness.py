"""Benchmark of the maximum entropy method (``irscale meta informativeness``) on real runs.

Two CLEF eHealth 2016 runs (``../shared/data/clef2016-task2``: 50 topics, lists of 1,000
documents, 100 ranked lists) evaluated with AP, R-prec and P@10: the lists are judged once
(:func:`irscale.meta.judged_lists`), then :func:`irscale.meta.informativeness` is timed
(CPU and wall time, peak memory of the process). The target is at most 1 s of CPU per 100
lists; with dense Newton steps (O(N³) a step) the same job took about 9 s a list.

    python benchmarks/bench_informativeness.py [--runs 2] [--depth 1000]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "clef2016-task2"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="CLEF runs (default 2)")
    parser.add_argument("--depth", type=int, default=1000, help="list depth (default 1000)")
    args = parser.parse_args()
    from irscale import meta

    runs = sorted((DATA / "runs").iterdir())[: args.runs]
    lists, bases = meta.judged_lists(DATA / "task2.qrels", runs, depth=args.depth)
    wall, cpu = time.perf_counter(), time.process_time()
    result = meta.informativeness(lists, measures=["AP", "R-prec", "P@10"],
                                  recall_base=bases)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = len(result.to_frame()["list"].unique())
    print(f"{n} lists of up to {args.depth} documents: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({100 * cpu / n:.2f} s CPU per 100 lists), peak {peak:.0f} MiB, load "
          f"{os.getloadavg()[0]:.1f}")
    print(result.format())


if __name__ == "__main__":
    main()
