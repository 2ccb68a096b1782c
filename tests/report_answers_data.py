"""Generated answers of the runs of :mod:`tests.report_data` (seeded): nugget assignment
records and support judgments of cited answers, one file of each per run, every run
answering every topic."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.report_data import RUNS, TOPICS

ASSIGNED = ("support", "partial_support", "not_support")
SUPPORTED = ("supported", "partially_supported", "not_supported")


def _nuggets(rng: np.random.Generator, k: int) -> list[dict]:
    """Four nuggets, two vital: a run later in :data:`RUNS` is supported more often."""
    p = [0.3 + 0.1 * k, 0.3, 0.4 - 0.1 * k]
    return [{"text": f"n{i}", "importance": "vital" if i < 2 else "okay",
             "assignment": str(rng.choice(ASSIGNED, p=p))} for i in range(4)]


def _sentences(rng: np.random.Generator) -> list[dict]:
    """Three sentences: one citation (its label the sentence's), two (each judged alone
    and without the other), none."""
    one = str(rng.choice(SUPPORTED))
    alone = [str(rng.choice(SUPPORTED)) for _ in range(2)]
    return [{"support": one, "citations": [{"docid": "d1", "support": one}]},
            {"support": str(rng.choice(SUPPORTED)), "citations": [
                {"docid": "d2", "support": alone[0], "without": alone[1]},
                {"docid": "d3", "support": alone[1], "without": alone[0]}]},
            {"citations": []}]


def write_answers(folder: Path, seed: int = 11) -> tuple[list[Path], list[Path]]:
    """``folder/<run>.nuggets.jsonl`` and ``folder/<run>.cite.jsonl`` for every run."""
    rng = np.random.default_rng(seed)
    nuggets, cites = [], []
    for k, run in enumerate(RUNS):
        a = [json.dumps({"qid": t, "run_id": run, "nuggets": _nuggets(rng, k)})
             for t in TOPICS]
        c = [json.dumps({"qid": t, "run_id": run, "sentences": _sentences(rng)})
             for t in TOPICS]
        nuggets.append(folder / f"{run}.nuggets.jsonl")
        nuggets[-1].write_text("\n".join(a) + "\n")
        cites.append(folder / f"{run}.cite.jsonl")
        cites[-1].write_text("\n".join(c) + "\n")
    return nuggets, cites
