"""The estimate ``irscale meta dp`` states before its resampling against the CPU time the
resampling then takes.

``meta dp`` (:func:`irscale.meta.discriminative_power`) measures the CPU seconds per
sample of a second of its work after the first chunk
(:func:`irscale.core.progress.progress_callback`) and states the rest as ``irscale:
resampling: N more samples at T each (measured), about D``
(:func:`irscale.core.progress.announce_rest`) when it exceeds 5 s. Here the statement is
recorded whatever its length, and the whole estimate (the seconds per sample × the
samples of the run: B, or 2B for the bootstrap's two passes) is set beside the CPU time of
the call (every thread: the ratio does not depend on the number of cores), for a range of
B, score matrices (topics × systems) and both methods. The aim: CPU time within 0.5 to 2
times the estimate (docs/meta.md, "How long dp takes").

Run: ``python benchmarks/bench_dp_estimate.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

#: (topics, systems, B, method): a few seconds of CPU each (a statement needs a second of
#: work after the first chunk).
CASES = [
    (50, 10, 400_000, "bootstrap"), (50, 10, 1_000_000, "bootstrap"),
    (50, 40, 50_000, "bootstrap"), (50, 40, 100_000, "bootstrap"),
    (200, 20, 200_000, "bootstrap"), (25, 5, 2_000_000, "bootstrap"),
    (50, 10, 500_000, "randomized-tukey-hsd"), (50, 40, 200_000, "randomized-tukey-hsd"),
    (200, 20, 100_000, "randomized-tukey-hsd"), (25, 5, 2_000_000, "randomized-tukey-hsd"),
]
QUICK = [CASES[0], CASES[3], CASES[6]]


def measure(topics: int, systems: int, samples: int, method: str) -> tuple[float, float]:
    """(the whole estimate, the CPU seconds) of one call, in this process."""
    import irscale.core.progress as progress
    from irscale.meta import discriminative_power

    stated: list[tuple[int, float]] = []
    original = progress.announce_rest

    def record(shown: object, what: str, units: str, left: int, each: float) -> None:
        stated.append((left, each))

    values = np.random.default_rng(topics * systems).random((topics, systems))
    progress.announce_rest = record  # type: ignore[assignment]
    progress.os.environ["IRSCALE_NO_PROGRESS"] = "1"  # (the bar; the statement is recorded)
    try:
        started = time.process_time()
        discriminative_power(values, method, samples=samples, rng=1, progress=True)
        cpu = time.process_time() - started
    finally:
        progress.announce_rest = original  # type: ignore[assignment]
        progress.os.environ.pop("IRSCALE_NO_PROGRESS", None)
    (_, each), = stated
    total = samples * (2 if method == "bootstrap" else 1)
    return each * total, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three cases only")
    args = parser.parse_args()
    print(f"{'method':<21} {'topics':>6} {'systems':>7} {'B':>9} {'estimate s':>11} "
          f"{'cpu s':>8} {'ratio':>6}", flush=True)
    for topics, systems, samples, method in QUICK if args.quick else CASES:
        estimate, cpu = measure(topics, systems, samples, method)
        print(f"{method:<21} {topics:>6} {systems:>7} {samples:>9,} {estimate:>11.3g} "
              f"{cpu:>8.3g} {cpu / estimate:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
