"""The runs of a fusion laid out as one table: a row per (topic, document) retrieved by
any run (a *pair*), a column per run.

Topics are the union of the runs' topics in byte order (a run without a topic has an empty
ranking for it); a topic's pairs are contiguous. Each run's documents are ranked as
irscale ranks them everywhere (score descending, ties by docno descending in byte order,
scores compared as doubles: :func:`irscale.core.judge.rank_rows`), so the rank methods and
the ``rank`` and ``borda`` normalisations read the order evaluations see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.inputs import Run
from ..core.judge import rank_rows
from ..core.strings import Strings


@dataclass(frozen=True)
class FusionTable:
    """``score[p, r]`` and ``rank[p, r]`` (1-based; 0 where run ``r`` does not retrieve
    pair ``p``) of ``n_pairs × n_runs``; ``present = rank > 0``. ``pair_topic``: the topic
    code of each pair (index into ``topics``), non-decreasing; ``pair_doc``: the docno of
    each pair as an index into ``docnos``; ``doc_order``: the place of each of ``docnos``
    in byte order; ``size[t, r]``: documents of run ``r`` for topic ``t``."""

    topics: list[str]
    docnos: Strings
    doc_order: np.ndarray
    pair_topic: np.ndarray
    pair_doc: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    size: np.ndarray

    @property
    def present(self) -> np.ndarray:
        return self.rank > 0

    @property
    def topic_starts(self) -> np.ndarray:
        """Index of the first pair of every topic, and ``n_pairs`` last."""
        return np.searchsorted(self.pair_topic, np.arange(len(self.topics) + 1))

    @property
    def candidates(self) -> np.ndarray:
        """The number of pairs (documents retrieved by any run) of each pair's topic."""
        return np.diff(self.topic_starts)[self.pair_topic]


def fusion_table(runs: Sequence[Run]) -> FusionTable:
    """The :class:`FusionTable` of ``runs`` (one pass per run, none per topic)."""
    topics = sorted({topic for run in runs for topic in run.topics},
                    key=lambda topic: topic.encode())
    codes, docs, scores, ranks, runs_of = [], [], [], [], []
    for index, run in enumerate(runs):
        rows, code = rank_rows(run, topics, "trec_eval", compat=10)
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]]) if len(code) else \
            np.zeros(0, np.int64)
        lengths = np.diff(np.r_[starts, len(code)])
        ranks.append(np.arange(len(code)) - np.repeat(starts, lengths) + 1)
        codes.append(code)
        docs.append(run.docno.take(rows))
        scores.append(np.asarray(run.score, dtype=np.float64)[rows])
        runs_of.append(np.full(len(code), index))
    doc, docnos = Strings.concat(docs).encode()
    code = np.concatenate(codes).astype(np.int64)
    key = code * max(len(docnos), 1) + doc
    unique, pair = np.unique(key, return_inverse=True)
    n_pairs, n_runs = len(unique), len(runs)
    run_of = np.concatenate(runs_of)
    score = np.zeros((n_pairs, n_runs))
    rank = np.zeros((n_pairs, n_runs), dtype=np.int32)
    score[pair, run_of] = np.concatenate(scores)
    rank[pair, run_of] = np.concatenate(ranks)
    size = np.zeros((len(topics), n_runs), dtype=np.int64)
    np.add.at(size, (code, run_of), 1)
    doc_order = np.empty(len(docnos), dtype=np.int64)
    doc_order[docnos.argsort()] = np.arange(len(docnos))
    width = max(len(docnos), 1)
    return FusionTable(topics=topics, docnos=docnos, doc_order=doc_order,
                       pair_topic=unique // width, pair_doc=unique % width, score=score,
                       rank=rank, size=size)
