"""Per-(run, topic) values of textual outputs (texts, nuggets, pyramids) as the one
:class:`~irscale.measures.results.Evaluation`, so that ``per_topic()``, ``mean()``,
``to_matrix()``, ``compare()`` and the output writers of ``irscale eval`` work on them
unchanged; and the candidate texts every runner of texts reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.rows import RowKeys
from ..errors import InputError
from ..io.text import Texts, candidate_runs, read_texts
from ..measures.results import Evaluation, build_evaluation
from .setup import check_topics


def read_text_source(source: Any, what: str) -> Texts:
    """``source`` as :class:`~irscale.io.text.Texts` (a path or bytes read as ``what``:
    "references", "candidates", "output texts")."""
    return source if isinstance(source, Texts) else read_texts(source, what=what)


def read_candidates(candidates: Any) -> list[Texts]:
    """The candidate texts: one source (path, bytes or Texts) or a list of them."""
    sources = candidates if isinstance(candidates, (list, tuple)) else [candidates]
    if not sources:
        raise InputError("no candidates to evaluate: give a candidate file (or its bytes), "
                         "or a list of them")
    return [read_text_source(c, "candidates") for c in sources]


@dataclass(frozen=True, eq=False)
class TextPairs:
    """Candidate texts paired with the reference texts of their topic (ROUGE, BLEU): the
    candidates of topics with references are kept, in the order read."""

    runs: list[str]  # the runs, in the order they appear
    topics: list[str]  # the topics of the references, sorted
    unjudged: list[list[str]]  # per run, the topics it has texts for without references
    run_index: np.ndarray  # run of every kept candidate
    topic_code: np.ndarray  # topic (index into topics) of every kept candidate
    texts: list[str]  # every kept candidate's text
    references: Texts
    reference_code: np.ndarray  # topic of every reference text

    def evaluation(self, values: Mapping[str, np.ndarray], *,
                   allow_empty: bool) -> Evaluation:
        """The :class:`Evaluation` of ``values`` (one per kept candidate)."""
        return text_evaluation(self.runs, self.run_index,
                               [self.topics[t] for t in self.topic_code.tolist()], values,
                               gold_topics=self.topics, unjudged=self.unjudged,
                               allow_empty=allow_empty, source=self.references.source,
                               stacklevel=4)


def pair_texts(references: Any, candidates: Any) -> TextPairs:
    """Read the reference texts and the candidate texts (one source or a list of them) and
    pair every candidate with its topic's references."""
    refs = read_text_source(references, "references")
    cands = read_candidates(candidates)
    runs = candidate_runs(cands)
    topics = sorted(set(refs.topic))
    topic_pos = {t: k for k, t in enumerate(topics)}
    rows = [(r, t, x) for c in cands for t, r, x in zip(c.topic, c.id, c.text, strict=True)]
    kept = [row for row in rows if row[1] in topic_pos]
    run_pos = {r: k for k, r in enumerate(runs)}
    return TextPairs(
        runs=runs, topics=topics,
        unjudged=[sorted({t for r, t, _ in rows if r == run and t not in topic_pos})
                  for run in runs],
        run_index=np.array([run_pos[r] for r, _, _ in kept], dtype=np.int64),
        topic_code=np.array([topic_pos[t] for _, t, _ in kept], dtype=np.int64),
        texts=[x for _, _, x in kept], references=refs,
        reference_code=np.array([topic_pos[t] for t in refs.topic], dtype=np.int64))


def text_evaluation(runs: Sequence[str], run_index: np.ndarray, topic: Sequence[str],
                    values: Mapping[str, np.ndarray], *, gold_topics: Sequence[str],
                    unjudged: Sequence[Sequence[str]] | None = None,
                    allow_empty: bool = False, source: str | None = None,
                    gold: str = "references", stacklevel: int = 3) -> Evaluation:
    """An :class:`Evaluation` with one row per evaluated output, summarised by the plain
    mean over topics.

    ``run_index[i]`` and ``topic[i]`` say whose output row ``i`` of every ``values`` array
    is (any order: rows are put run by run, topics in byte order within a run, as
    :func:`irscale.evaluate` orders them). ``unjudged``: per run, the topics it has
    outputs for but the gold standard (``source``) does not cover, named in a warning by
    :func:`irscale.evaluation.check_topics` (which also refuses a run with no evaluated
    topic unless ``allow_empty``), calling the gold standard ``gold`` ("references",
    "nuggets") and the texts "outputs". ``gold_topics``: the topics of the gold standard
    (those of ``topic`` among them), named when a run has none of them. ``stacklevel``:
    the warning's, as :func:`~irscale.evaluation.check_topics` takes it (the default names
    the caller of the runner that calls this).
    """
    evaluation = build_evaluation(
        values, RowKeys(tuple(runs), run_index, topic, gold_topics=gold_topics,
                        unjudged=unjudged))
    check_topics(evaluation.rows, allow_empty=allow_empty, qrels_source=source, gold=gold,
                 results="outputs", judgments=gold, stacklevel=stacklevel)
    return evaluation


def record_evaluation(records: Any, values: Mapping[str, np.ndarray], *, gold: str,
                      allow_empty: bool = False) -> Evaluation:
    """:func:`text_evaluation` of records with one value per (topic, run) (nugget
    assignments, support judgments: ``records.topic``, ``records.run``,
    ``records.source``): runs in the order they first appear, the gold standard's topics
    those of the records."""
    runs = list(dict.fromkeys(records.run))
    run_pos = {r: k for k, r in enumerate(runs)}
    return text_evaluation(runs, np.array([run_pos[r] for r in records.run], dtype=np.int64),
                           list(records.topic), values,
                           gold_topics=sorted(set(records.topic)), allow_empty=allow_empty,
                           source=records.source, gold=gold, stacklevel=4)
