"""Benchmark of BLEU: irscale against sacrebleu on the same texts.

Case: 20,000 hypotheses × 2 references, 25-word sentences with punctuation drawn from a
Zipf-like vocabulary of 20,000 words (fixed seed). Timed, in one process, each on the
same texts (tokeniser 13a):

* ``irscale.text.sentence_bleu(hyps, refs)`` against sacrebleu's
  ``BLEU(effective_order=True).sentence_score(hyp, refs)`` for every hypothesis;
* ``irscale.text.corpus_bleu(hyps, refs)`` against ``BLEU().corpus_score(hyps, streams)``.

Each sacrebleu object is made afresh per repetition (its tokeniser caches lines). CPU
seconds of the process (median of the repetitions; steadier than wall time on a shared
machine), wall seconds and the CPU ratio are printed, and every value is checked against
sacrebleu's.

    python benchmarks/bench_bleu.py [--pairs 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time

import numpy as np

WORDS, REFS, LENGTH = 20_000, 2, 25
PUNCTUATION = np.array([",", ".", "!", "?", ";", "(", ")", "$", "'s", "-"])


def texts(pairs: int) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(23)
    vocab = np.concatenate((np.array([f"w{i}" for i in range(WORDS)]), PUNCTUATION))
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    draw = rng.choice(len(vocab), size=(pairs * (1 + REFS), LENGTH), p=weights)
    words = vocab[draw]
    lines = ["".join(w + ("" if rng.random() < 0.2 else " ") for w in row).strip()
             for row in words]
    hyps = lines[:pairs]
    refs = [lines[pairs + k * REFS: pairs + (k + 1) * REFS] for k in range(pairs)]
    return hyps, refs


def timed(call, repeat: int) -> tuple[tuple[float, float], object]:
    """(median CPU seconds, median wall seconds) of ``call`` and its result."""
    cpu, wall, result = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = call()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return (statistics.median(cpu), statistics.median(wall)), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    from sacrebleu.metrics import BLEU

    from irscale.text import corpus_bleu, sentence_bleu

    hyps, refs = texts(args.pairs)
    streams = [list(s) for s in zip(*refs, strict=True)]
    ours_s, ours = timed(lambda: sentence_bleu(hyps, refs)["BLEU"].to_numpy(), args.repeat)
    theirs_s, theirs = timed(lambda: np.array([
        s.score / 100 for s in map(BLEU(effective_order=True).sentence_score, hyps, refs)]),
        args.repeat)
    assert np.allclose(ours, theirs, rtol=1e-9, atol=1e-15)
    ours_c, c1 = timed(lambda: corpus_bleu(hyps, refs)["BLEU(effective=0)"], args.repeat)
    theirs_c, c2 = timed(lambda: BLEU().corpus_score(hyps, streams).score / 100,
                         args.repeat)
    assert abs(c1 - c2) <= 1e-12  # type: ignore[operator]
    print(f"{args.pairs} hypotheses × {REFS} references, {LENGTH} words")
    for what, ours_t, theirs_t in (("sentence", ours_s, theirs_s),
                                   ("corpus", ours_c, theirs_c)):
        print(f"{what} BLEU: irscale CPU {ours_t[0]:.2f} s (wall {ours_t[1]:.2f} s), "
              f"sacrebleu CPU {theirs_t[0]:.2f} s (wall {theirs_t[1]:.2f} s); "
              f"CPU sacrebleu / irscale = {theirs_t[0] / ours_t[0]:.2f}")


if __name__ == "__main__":
    main()
