"""The documents a pool is drawn from: every run's ranking of every topic, as one cube.

Runs are ranked as trec_eval ranks them (score descending, then docno descending in byte
order; or another tie policy of :data:`irscale.core.options.TIE_POLICIES`) by the
native engine (:func:`irscale.core.judge.rank_rows`), and cut at ``depth`` documents. Every
distinct (topic, document) pair of the runs gets one integer id (*pair*), and
:class:`Candidates` holds the cube ``pairs[t, r, k]``: the pair at rank ``k + 1`` of run
``r`` for topic ``t`` (``-1`` past the end of a ranking), plus the topic and the docno of
every pair. Every pooling strategy works on this cube, vectorised over topics.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core import identifiers
from ..core.inputs import Qrels, Run
from ..core.judge import PairJudge, rank_rows
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.strings import Strings
from ..errors import InputError
from ..io.sources import as_runs
from .params import CANDIDATES

if TYPE_CHECKING:
    pass

__all__ = ["Candidates", "ranked_candidates"]


@dataclass(frozen=True, eq=False)
class Candidates:
    """The ranked documents of a set of runs (module documentation).

    ``pairs``: int32 array (topics × runs × depth + 1), the pair id at every rank (the last
    column is always ``-1``, so that a pointer past a ranking reads ``-1``);
    ``pair_topic``: topic index of every pair; ``pair_docno``: the docno of every pair;
    ``topic_start``: the first pair id of every topic (pairs are numbered topic by topic,
    so the pairs of topic ``t`` are ``topic_start[t]:topic_start[t + 1]``).
    """

    topics: tuple[str, ...]
    runs: tuple[str, ...]
    pairs: np.ndarray
    pair_topic: np.ndarray
    pair_docno: Strings
    topic_start: np.ndarray
    depth: int | None

    @property
    def n_pairs(self) -> int:
        return len(self.pair_topic)

    @property
    def pool_sizes(self) -> np.ndarray:
        """Distinct documents of every topic (the whole candidate pool)."""
        return np.diff(self.topic_start)

    def degrees(self, qrels: Qrels) -> np.ndarray:
        """Relevance degree of every pair by ``qrels`` (int64; -1: not in the qrels or a
        negative degree, i.e. not judged)."""
        judge = PairJudge(qrels)
        topic_code = judge.topic_codes(self.topics)[self.pair_topic]
        # NONPOOL (-1: not in the qrels) and UNJUDGED (-2: a negative degree) become -1
        return np.maximum(judge.degrees_of(topic_code, self.pair_docno), -1)

    def labels(self, qrels: Qrels, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
        """Relevance of every pair by ``qrels``: 1 (degree ≥ ``relevance_level``), 0
        (judged below it) or -1 (not judged, :meth:`degrees`)."""
        degree = self.degrees(qrels)
        return np.where(degree < 0, -1, degree >= relevance_level).astype(np.int8)


@CANDIDATES
def ranked_candidates(
    runs: object,
    *,
    depth: int | None = None,
    ties: TiePolicy = "trec_eval",
    topics: Sequence[str] | None = None,
) -> Candidates:
    """Rank every run (``ties``) and keep its first ``depth`` documents (all when None).

    ``runs``: run files or objects (as :func:`irscale.evaluate` takes them), at least one,
    with distinct names. ``topics``: the topics to keep (default: every topic of any run);
    a run may lack a topic (its rankings there are empty). ``depth`` and ``ties`` are
    checked on entry (:data:`~irscale.collections.params.CANDIDATES`).
    """
    run_list: list[Run] = as_runs(runs, keep_rank=ties == "rank-column")
    if not run_list:
        raise InputError("no run to pool")
    names = [run.name for run in run_list]
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    if topics is None:
        topics = sorted({t for run in run_list for t in run.topics})
    topics = list(topics)
    n_topics = len(topics)
    ranked_topic, ranked_run, ranked_pos, ranked_docno = [], [], [], []
    for r, run in enumerate(run_list):
        order, topic_code = rank_rows(run, topics, ties)
        counts = np.bincount(topic_code, minlength=n_topics)
        starts = np.cumsum(counts) - counts
        position = np.arange(len(order)) - np.repeat(starts, counts)
        if depth is not None:
            keep = position < depth
            order, topic_code, position = order[keep], topic_code[keep], position[keep]
        ranked_topic.append(topic_code)
        ranked_run.append(np.full(len(order), r, dtype=np.int64))
        ranked_pos.append(position)
        ranked_docno.append(identifiers.take(run.docno, order))
    topic_code = np.concatenate(ranked_topic)
    run_code = np.concatenate(ranked_run)
    position = np.concatenate(ranked_pos)
    doc_code, distinct = identifiers.encode(identifiers.as_strings(*ranked_docno))
    n_docs = len(distinct)
    keys, pair = np.unique(topic_code * max(n_docs, 1) + doc_code, return_inverse=True)
    pair_topic = keys // max(n_docs, 1)
    pair_docno = identifiers.take(distinct, keys % max(n_docs, 1))
    width = int(position.max(initial=-1)) + 1
    cube = np.full((n_topics, len(run_list), width + 1), -1, dtype=np.int32)
    cube[topic_code, run_code, position] = pair
    topic_start = np.searchsorted(pair_topic, np.arange(n_topics + 1))
    return Candidates(topics=tuple(topics), runs=tuple(names), pairs=cube,
                      pair_topic=pair_topic, pair_docno=pair_docno,
                      topic_start=topic_start, depth=depth)


def warn_missing_topics(cand: Candidates, use: str, effect: str) -> None:
    """Warn about runs that rank nothing for some of the topics of ``cand`` (a run file cut
    short, or a topic id written differently), saying what that does: ``use`` says what
    is done with the topics (``"pooled"``), ``effect`` what a missing ranking means there
    (``"it contributes nothing there"``)."""
    empty = cand.pairs[:, :, 0] < 0  # topics × runs
    for r in np.flatnonzero(empty.any(axis=0)):
        missing = [cand.topics[t] for t in np.flatnonzero(empty[:, r])]
        warnings.warn(f"run {cand.runs[r]!r} ranks no document for {len(missing)} of the "
                      f"{len(cand.topics)} topics {use} ({', '.join(missing[:5])}"
                      f"{' ...' if len(missing) > 5 else ''}): {effect}", stacklevel=3)
