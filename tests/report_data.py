"""A small collection for the report tests: graded qrels and three runs on 8 topics,
written as TREC files (seeded; fast to evaluate and to report on)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

TOPICS = [f"t{i}" for i in range(1, 9)]
RUNS = ("bm25", "lm", "neural")


def write_collection(folder: Path, seed: int = 7) -> tuple[Path, list[Path]]:
    """``folder/qrels`` and ``folder/<run>.run`` for the runs of :data:`RUNS`."""
    rng = np.random.default_rng(seed)
    qrels = folder / "qrels"
    lines = []
    for topic in TOPICS:
        for d in range(30):
            lines.append(f"{topic} 0 d{d:02d} {int(rng.choice([0, 0, 1, 2]))}")
    qrels.write_text("\n".join(lines) + "\n")
    runs = []
    for k, name in enumerate(RUNS):
        path = folder / f"{name}.run"
        out = []
        for topic in TOPICS:
            scores = rng.random(30) + 0.15 * k * (np.arange(30) % 3 == 0)
            for rank, d in enumerate(np.argsort(-scores)[:20], start=1):
                out.append(f"{topic} Q0 d{d:02d} {rank} {scores[d]:.6f} {name}")
        path.write_text("\n".join(out) + "\n")
        runs.append(path)
    return qrels, runs
