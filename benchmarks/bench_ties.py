"""Time of the tie-aware values (``ties="expected"``, ``irscale eval --ties expected``)
against the plain ones (trec_eval's order of ties) on one large run with many ties.

A synthetic qrels file and run file of ``--topics`` topics × ``--depth`` documents
(default 200 × 1,000) are written to a temporary folder; every document's score is drawn
from ``--levels`` distinct values (default 50: tie groups of about 20 documents), a fifth
of the documents judged, degrees 0..2. The same measures are then evaluated from the files
with ``irscale.evaluate`` under each tie policy (reading, judging, measuring), and the
measures alone on the judged rankings with and without their tie groups; the median time
over ``--repeat`` runs is printed with the ratio expected / plain. Run it with
``PYTHONPATH`` naming the ``src`` of the irscale to time::

    PYTHONPATH=src python benchmarks/bench_ties.py [--topics 200] [--depth 1000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np

import irscale
from irscale.core.judged import JudgedRankings
from irscale.core.options import RankingOptions
from irscale.evaluation.setup import evaluation_setup
from irscale.io.native_trec import judge_files
from irscale.measures.compute import compute_requests

#: The measures timed: every family with a tie-aware value computed in expectation.
MEASURES = ["map", "map_cut.10,100", "P.5,10,100", "recall.100", "success.10",
            "relative_P.10", "Rprec", "recip_rank", "ndcg", "ndcg_cut.10,100", "bpref",
            "RBP(p=0.8)", "RBPres(p=0.8)", "ERR", "ERR@20", "nERR@20", "SDCG@10",
            "CWL-RBP(p=0.8)", "INSQ(T=2)"]


def write_files(folder: Path, topics: int, depth: int, levels: int, seed: int = 0
                ) -> tuple[Path, Path]:
    """The qrels and run files of the benchmark (see the module)."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(topics):
        scores = rng.integers(0, levels, size=depth) / levels
        judged = rng.random(depth) < 0.2
        degrees = rng.choice([0, 1, 2], size=depth, p=[0.6, 0.3, 0.1])
        for d in range(depth):
            run.append(f"{t} Q0 d{d} {d + 1} {scores[d]:.4f} bench\n")
            if judged[d]:
                qrels.append(f"{t} 0 d{d} {degrees[d]}\n")
        qrels.append(f"{t} 0 extra{t} 1\n")  # a relevant document not retrieved
    qrels_path, run_path = folder / "qrels", folder / "run"
    qrels_path.write_text("".join(qrels))
    run_path.write_text("".join(run))
    return qrels_path, run_path


def median_time(qrels: Path, run: Path, ties: str, repeat: int) -> float:
    """The median seconds of evaluating :data:`MEASURES` under the tie policy ``ties``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tie-aware evaluation's warning
            irscale.evaluate(str(qrels), str(run), MEASURES, ties=ties)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measures_time(qrels: Path, run: Path, repeat: int) -> tuple[float, float]:
    """The median seconds of computing :data:`MEASURES` on the judged rankings of the
    files, plain (no tie groups) and tie-aware, each time on a fresh copy of the batch (the
    values the measures memoise per batch are computed every time)."""
    tied = judge_files(qrels, [run], RankingOptions(ties="expected"))
    plain = replace(tied, tie_groups=None)
    setup = evaluation_setup(MEASURES, ties="expected")

    def median(jr: JudgedRankings) -> float:
        times = []
        for _ in range(repeat):
            fresh = replace(jr)  # a new batch: nothing memoised
            start = time.perf_counter()
            compute_requests(fresh, setup.requests, setup.context)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    return median(plain), median(tied)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=200)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--levels", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = write_files(Path(folder), args.topics, args.depth, args.levels)
        median_time(qrels, run, "trec_eval", 1)  # warm-up: imports, caches
        plain = median_time(qrels, run, "trec_eval", args.repeat)
        expected = median_time(qrels, run, "expected", args.repeat)
        kernels_plain, kernels_expected = measures_time(qrels, run, args.repeat)
    print(f"{args.topics} topics x {args.depth} documents, {args.levels} score values, "
          f"{len(MEASURES)} measure requests, median of {args.repeat}")
    print("                           evaluate()   measures alone")
    print(f"plain (trec_eval's order): {plain * 1000:8.1f} ms  {kernels_plain * 1000:8.1f} ms")
    print(f"tie-aware (expected):      {expected * 1000:8.1f} ms  "
          f"{kernels_expected * 1000:8.1f} ms")
    print(f"ratio expected / plain:    {expected / plain:8.2f}     "
          f"{kernels_expected / kernels_plain:8.2f}")


if __name__ == "__main__":
    main()
