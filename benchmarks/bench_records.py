"""Lists of namedtuples in (ir_datasets' ``TrecQrel`` / ``GenericScoredDoc``, as ir_measures
and ranx take them): the cost of reading 1M of them into irscale's columns, and
``irscale.evaluate`` on them next to ir_measures' ``calc_aggregate`` on the same lists and
to the pandas detour a user would otherwise take (``pd.DataFrame(rows)`` then evaluate).

A generated run of ``--topics`` × ``--depth`` scored documents (default 1,000 × 1,000 =
1M namedtuples) and 20 judgments per topic (graded 0–3); building the lists is not timed.
One process, median of ``--repeat`` alternating calls; peak memory is not compared.

    python benchmarks/bench_records.py [--topics 1000] [--depth 1000] [--repeat 5]
        [--markdown FILE]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

MEASURES = ["map", "ndcg_cut_10", "recip_rank"]
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_records.py -->"
END = "<!-- END GENERATED -->"


def make_rows(topics: int, depth: int, seed: int = 0) -> tuple[list, list]:
    from ir_datasets.formats import GenericScoredDoc, TrecQrel

    rng = np.random.default_rng(seed)
    docs = np.char.add("D", np.arange(topics * depth).astype(str)).reshape(topics, depth)
    scores = np.round(rng.random((topics, depth)), 4)
    run = [GenericScoredDoc(str(t), d, s) for t in range(topics)
           for d, s in zip(docs[t].tolist(), scores[t].tolist(), strict=True)]
    judged = rng.integers(0, depth, size=(topics, 20))
    qrels = [TrecQrel(str(t), docs[t, j], int(rng.integers(0, 4)), "0")
             for t in range(topics) for j in np.unique(judged[t]).tolist()]
    return qrels, run


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args()

    import ir_measures
    import pandas as pd

    import irscale
    from irscale.io.memory import qrels_from_records, run_from_records

    qrels, run = make_rows(args.topics, args.depth)
    parsed = [ir_measures.parse_measure(m) for m in ("AP", "nDCG@10", "RR")]
    cases: dict[str, Callable[[], object]] = {
        "irscale: read the run (run_from_records)": lambda: run_from_records(run),
        "irscale: read the qrels (qrels_from_records)": lambda: qrels_from_records(qrels),
        "irscale.evaluate(qrels list, run list)":
            lambda: irscale.evaluate(qrels, run, MEASURES).per_topic(),
        "pandas detour: evaluate(DataFrame(qrels), DataFrame(run))":
            lambda: irscale.evaluate(pd.DataFrame(qrels), pd.DataFrame(run),
                                     MEASURES).per_topic(),
        "ir_measures.calc_aggregate(measures, qrels list, run list)":
            lambda: ir_measures.calc_aggregate(parsed, qrels, run),
    }
    for fn in cases.values():  # imports and first-call costs are not what this measures
        fn()
    seconds = {name: median_time(fn, args.repeat) for name, fn in cases.items()}
    # the same values: irscale's means equal ir_measures' (trec_eval 9.0.8 through
    # pytrec_eval) on these lists
    ours = irscale.evaluate(qrels, run, MEASURES).mean().iloc[0]
    theirs = ir_measures.calc_aggregate(parsed, qrels, run)
    assert abs(ours["map"] - theirs[parsed[0]]) < 1e-12
    assert abs(ours["ndcg_cut_10"] - theirs[parsed[1]]) < 1e-12
    assert abs(ours["recip_rank"] - theirs[parsed[2]]) < 1e-12

    lines = [BEGIN, "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared with other "
             f"work while measured); {len(run):,} `GenericScoredDoc` and {len(qrels):,} "
             f"`TrecQrel` namedtuples ({args.topics:,} topics × {args.depth:,} documents); "
             f"median of {args.repeat} calls in one process "
             "(`python benchmarks/bench_records.py`); the three means equal ir_measures' "
             "to 1e-12.", "",
             "| call | seconds |", "|---|---:|"]
    lines += [f"| {name} | {value:.3f} |" for name, value in seconds.items()]
    lines += ["", END]
    block = "\n".join(lines)
    print(block)
    if args.markdown is not None:
        text = args.markdown.read_text()
        start, stop = text.index(BEGIN), text.index(END, text.index(BEGIN)) + len(END)
        args.markdown.write_text(text[:start] + block + text[stop:])


if __name__ == "__main__":
    main()
