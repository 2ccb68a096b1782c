"""Coverage and width of the intervals at the labels ``irscale.labels.plan`` plans, over
simulated collections with a known truth.

Case: ``--topics`` × ``--docs`` pairs judged by an automatic judge that calls 30% of them
relevant, three runs ranking ``10`` random documents of every topic, P@10; the human grade
differs from the judge's on ``--wrong-relevant`` of the pairs the judge calls relevant and
``--wrong-other`` of the others. Each collection (a new one each time, fixed seed) gets a
uniform pilot of ``--pilot`` pairs, a plan for 95% intervals ``--width`` wide under
``--design``, the design's sample at the planned labels and the estimate of ``labels
auto``'s estimator (PPI, stratified PPI, Horvitz–Thompson). Reported: the share of the
intervals that hold the truth and their mean width.

    python benchmarks/bench_labels_plan.py [--design active] [--width 0.06] [--collections 150]
        [--topics 30] [--docs 30] [--pilot 120] [--wrong-relevant 0.4] [--wrong-other 0.03]
        [--uniform-share 0.5]

Measured (150 collections of 30 × 30 pairs, pilots of 120, width 0.06, active; the seed is
fixed, so the numbers are the same on every machine): errors on 3% of the pairs the judge
calls not relevant covered 95.8% at the default uniform share 0.5 and 89.1% at 0.1; errors
on 8%: 94.9% at 0.5 (docs/collections.md §7).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_labels_plan import coverage

from irscale.labels.plan_params import DEFAULT_UNIFORM_SHARE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--design", default="active",
                        choices=("active", "stratified", "uniform"))
    parser.add_argument("--width", type=float, default=0.06)
    parser.add_argument("--collections", type=int, default=150)
    parser.add_argument("--topics", type=int, default=30)
    parser.add_argument("--docs", type=int, default=30)
    parser.add_argument("--pilot", type=int, default=120)
    parser.add_argument("--wrong-relevant", type=float, default=0.4)
    parser.add_argument("--wrong-other", type=float, default=0.03)
    parser.add_argument("--uniform-share", type=float, default=DEFAULT_UNIFORM_SHARE)
    args = parser.parse_args()
    covered, width, trials = coverage(
        args.design, args.width, args.collections, pilot=args.pilot,
        uniform_share=args.uniform_share, topics=args.topics, docs=args.docs,
        wrong_relevant=args.wrong_relevant, wrong_other=args.wrong_other)
    print(f"{args.design}: {trials} intervals, coverage {covered:.3f}, mean width "
          f"{width:.4f} (asked {args.width:g})")


if __name__ == "__main__":
    main()
