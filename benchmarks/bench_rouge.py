"""Benchmark of ROUGE: irscale against rouge-score on the same texts.

Case: 10,000 candidates × 4 references, 100-word texts drawn from a Zipf-like vocabulary
of 20,000 words (fixed seed). Timed, in one process, each on the same texts:

* ``irscale.text.rouge(cands, refs, ["ROUGE-1", "ROUGE-2", "ROUGE-L"])`` (tokenising
  included);
* rouge-score's ``RougeScorer(["rouge1", "rouge2", "rougeL"]).score_multi(refs, cand)``
  for every candidate (the same maximum-F rule);
* ``irscale text rouge REFS CANDS -q -o FILE`` in a fresh process (start-up, reading,
  writing 30,000 per-topic lines).

Wall and CPU seconds (process time; children's for the command line) are reported, and
every F value of irscale is checked to equal rouge-score's.

    python benchmarks/bench_rouge.py [--pairs 10000] [--repeat 3] [--stem]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

WORDS, REFS, LENGTH = 20_000, 4, 100


def texts(pairs: int) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(17)
    vocab = np.array([f"w{i}" for i in range(WORDS)])
    weights = 1.0 / np.arange(1, WORDS + 1)
    weights /= weights.sum()

    def one() -> str:
        return " ".join(vocab[rng.choice(WORDS, LENGTH, p=weights)])

    cands = [one() for _ in range(pairs)]
    return cands, [[one() for _ in range(REFS)] for _ in range(pairs)]


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def cli(cands: list[str], refs: list[list[str]], stem: bool) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        c_path, r_path = os.path.join(tmp, "cands.tsv"), os.path.join(tmp, "refs.tsv")
        with open(c_path, "w") as out:
            out.writelines(f"t{k}\tbench\t{c}\n" for k, c in enumerate(cands))
        with open(r_path, "w") as out:
            out.writelines(f"t{k}\tr{j}\t{r}\n" for k, rs in enumerate(refs)
                           for j, r in enumerate(rs))
        argv = [sys.executable, "-m", "irscale.cli.main", "text", "rouge", r_path, c_path,
                "-q", "-o", os.path.join(tmp, "out.txt")] + (["--stem"] if stem else [])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stem", action="store_true", help="Porter stemming on both sides")
    args = parser.parse_args()
    from rouge_score import rouge_scorer

    from irscale.text import rouge

    cands, refs = texts(args.pairs)
    names = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    ours, theirs, lines = [], [], []
    for _ in range(args.repeat):
        got, wall, cpu = timed(lambda: rouge(cands, refs, names, stem=args.stem))
        ours.append((wall, cpu))
        print(f"irscale rouge():      {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
        lines.append(cli(cands, refs, args.stem))
        print(f"irscale text rouge:   {lines[-1][0]:6.2f} s wall, {lines[-1][1]:6.2f} s CPU",
              flush=True)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=args.stem)
    for _ in range(args.repeat):
        expected, wall, cpu = timed(lambda: [scorer.score_multi(r, c)
                                             for c, r in zip(cands, refs, strict=True)])
        theirs.append((wall, cpu))
        print(f"rouge-score:          {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
    for name, key in zip(names, ("rouge1", "rouge2", "rougeL"), strict=True):
        same = all(got[name][i] == e[key].fmeasure for i, e in enumerate(expected))
        print(f"{name} F equal to rouge-score's on every pair: {same}")
    med = [statistics.median(x) for x in zip(*ours, strict=True)]
    ref = [statistics.median(x) for x in zip(*theirs, strict=True)]
    print(f"medians: irscale {med[0]:.2f} s wall / {med[1]:.2f} s CPU, rouge-score "
          f"{ref[0]:.2f} s wall / {ref[1]:.2f} s CPU; ratio (CPU) {med[1] / ref[1]:.3f}, "
          f"(wall) {med[0] / ref[0]:.3f}")


if __name__ == "__main__":
    main()
