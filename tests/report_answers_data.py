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


def _relabel(rng: np.random.Generator, label: str, labels: tuple[str, ...]) -> str:
    """A person's label of what the model labelled ``label``: another one a time in
    three."""
    return str(rng.choice([x for x in labels if x != label])) if rng.random() < 1 / 3 \
        else label


def _human_nuggets(rng: np.random.Generator, record: dict, design: str) -> dict | None:
    """The human record of a model record: under ``answers`` every nugget of a third of
    the answers relabelled, else (an item design) each nugget relabelled with probability
    one half (None: nothing sampled)."""
    if design == "answers":
        picked = record["nuggets"] if rng.random() < 0.4 else []
    else:
        picked = [n for n in record["nuggets"] if rng.random() < 0.5]
    if not picked:
        return None
    return {**record, "nuggets": [{**n, "assignment": _relabel(rng, n["assignment"],
                                                                ASSIGNED)} for n in picked]}


def _labelled(rng: np.random.Generator, sentence: dict, sampled: bool) -> dict:
    """A person's labels of a sentence of :func:`_sentences` (its one citation's label the
    sentence's, its two citations' each the other's ``without``), or none where it is not
    ``sampled`` (the same passages cited); citing nothing, it is not supported."""
    cited = sentence["citations"]
    if not sampled:
        return {"citations": [{"docid": c["docid"]} for c in cited]}
    if not cited:
        return {"support": "not_supported", "citations": []}
    if len(cited) == 1:
        one = _relabel(rng, sentence["support"], SUPPORTED)
        return {"support": one, "citations": [{"docid": cited[0]["docid"], "support": one}]}
    alone = [_relabel(rng, c["support"], SUPPORTED) for c in cited]
    return {"support": _relabel(rng, sentence["support"], SUPPORTED), "citations": [
        {"docid": c["docid"], "support": alone[k], "without": alone[1 - k]}
        for k, c in enumerate(cited)]}


def _human_sentences(rng: np.random.Generator, record: dict, design: str) -> dict | None:
    """The human record of a model record: under ``answers`` every sentence of some
    answers relabelled, else (``uniform``) every sentence listed and each labelled with
    probability one half (None: the answer is not sampled)."""
    if design == "answers":
        return {**record, "sentences": [_labelled(rng, s, True) for s in
                                        record["sentences"]]} if rng.random() < 0.4 else None
    return {**record, "sentences": [_labelled(rng, s, bool(rng.random() < 0.5))
                                    for s in record["sentences"]]}


def write_samples(folder: Path, files: list[str], design: str, seed: int = 5) -> Path:
    """A human sample of the model's answers ``files`` (nugget assignments, or support
    judgments where their names end in ``.cite.jsonl``) drawn as ``design`` says
    (``answers``, or an item design), as one file ``folder/<kind>.<design>.human.jsonl``;
    every run has 2 sampled units at least (the seed is one that gives them)."""
    rng = np.random.default_rng(seed)
    cites = files[0].endswith(".cite.jsonl")
    relabel = _human_sentences if cites else _human_nuggets
    records = [json.loads(line) for name in files for line in Path(name).read_text().split("\n")
               if line]
    human = [found for record in records if (found := relabel(rng, record, design))]
    out = folder / f"{'cite' if cites else 'nuggets'}.{design}.human.jsonl"
    out.write_text("".join(json.dumps(record) + "\n" for record in human))
    return out
