"""The up-front estimate of ``irscale scale image`` against the CPU time it then takes.

For each (measure, N, levels): the estimate of :func:`irscale.scales.scale.check_size`
with the summary counted (``summary=STREAM_LIMIT``: what ``scale image`` announces) beside
the CPU time (every thread: the ratio does not depend on the number of cores) of the image
alone, in a fresh process (no image cached by an earlier case), and of the whole command
``irscale scale image -m M -N N --levels L`` (image, summary, start-up), and the command's
peak memory (its resident set) beside the memory announced. The aims: the command's CPU
time within 0.5 to 2 times the estimate, its peak memory within 1.5 times the memory
announced either way (docs/benchmarks.md, "Scale estimate").

Run: ``python benchmarks/bench_scale_estimate.py [--quick] [--case MEASURE N LEVELS]``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

CASES = [
    ("nDCG@12", 12, 4), ("nDCG@14", 14, 3), ("nDCG@16", 16, 3), ("nDCG@18", 18, 3),
    ("nDCG@20", 20, 3), ("nDCG@22", 22, 3), ("nDCG@24", 24, 3),
    ("DCG@16", 16, 3), ("AP", 16, 2), ("AP", 20, 2), ("AP", 24, 2),
    ("RBP(p=0.8)", 16, 3), ("P@10", 12, 3), ("RR", 14, 3), ("ERR@12", 12, 3),
]
QUICK = CASES[:2] + CASES[5:7]


def command_estimate(name: str, N: int, levels: int) -> tuple[float, int, str]:
    """What ``scale image`` announces for its whole work (image, φ queries, summary):
    seconds, bytes and the algorithm."""
    from irscale.cli.scale import STREAM_LIMIT
    from irscale.scales.measures import scale_measure
    from irscale.scales.scale import check_size
    from irscale.scales.space import Space

    cost = check_size(scale_measure(name).for_length(N), Space(N, levels),
                      summary=STREAM_LIMIT)
    return cost.seconds, cost.memory, cost.algorithm


def image_cpu(name: str, N: int, levels: int) -> float:
    """CPU seconds of :func:`irscale.scales.scale` alone (this process, every thread)."""
    from irscale.scales.scale import scale

    started = time.process_time()
    scale(name, N, levels, progress=False, announce=False)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="four cases only")
    parser.add_argument("--case", nargs=3, metavar=("MEASURE", "N", "LEVELS"),
                        help="one case's image, in this process (what each case runs)")
    parser.add_argument("--command", nargs=argparse.REMAINDER,
                        help="run this command; print its CPU seconds and peak bytes")
    args = parser.parse_args()
    if args.case:
        import irscale.scales  # noqa: F401 (imports out of the timing)

        print(f"{image_cpu(args.case[0], int(args.case[1]), int(args.case[2])):.3g}")
        return
    if args.command:
        subprocess.run(args.command, check=True, stdout=subprocess.DEVNULL)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)
        return
    print(f"{'measure':<12} {'N':>3} {'levels':>6} {'estimate s':>11} {'image s':>8} "
          f"{'command s':>10} {'ratio':>6} {'est. MiB':>9} {'peak MiB':>9} {'ratio':>6}  "
          "algorithm", flush=True)
    for name, N, levels in QUICK if args.quick else CASES:
        estimate, memory, algorithm = command_estimate(name, N, levels)
        image = subprocess.run([sys.executable, __file__, "--case", name, str(N),
                                str(levels)], check=True, capture_output=True,
                               text=True).stdout.strip()
        # the command in a process of its own, whose children's peak is the command's alone
        cpu_text, peak_text = subprocess.run(
            [sys.executable, __file__, "--command", sys.executable, "-m", "irscale", "scale",
             "image", "-m", name, "-N", str(N), "--levels", str(levels), "--no-progress"],
            check=True, capture_output=True, text=True).stdout.split()
        cpu, peak = float(cpu_text), int(peak_text)
        print(f"{name:<12} {N:>3} {levels:>6} {estimate:>11.3g} {image:>8} {cpu:>10.3g} "
              f"{cpu / estimate:>6.2f} {memory / 2**20:>9.0f} {peak / 2**20:>9.0f} "
              f"{peak / memory:>6.2f}  {algorithm[:40]}", flush=True)


if __name__ == "__main__":
    main()
