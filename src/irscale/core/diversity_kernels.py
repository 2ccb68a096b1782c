"""The native engine's diversity kernels, called on rankings judged per intent.

ndeval's families (α-DCG, α-nDCG, ERR-IA, nERR-IA, NRBP, nNRBP, MAP-IA, P-IA, strec /
I-rec) and NTCIREVAL's D-measures (D-nDCG, DIN-nDCG, D-Q, D-P+, D-nERR) are computed by
the engine (``rust/src/diversity/``, one module per family); the registrations of
:mod:`irscale.measures.diversity` hand their batch here. A batch is any object with the
arrays of :class:`~irscale.measures.diversity.rankings.DiversityRankings` (the relevant
entries ``(ranking, rank, subtopic)`` sorted by ranking, rank and subtopic, the topic of
each ranking, the intents of the qrels topics), read in place where already contiguous
int64; the values come back as one float64 per ranking. Runs are judged per intent by the
engine too (:class:`IntentJudge`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from .. import _engine
from . import identifiers


class PerIntentBatch(Protocol):
    """The arrays of a batch of rankings judged per intent (read only)."""

    @property
    def lengths(self) -> np.ndarray: ...

    @property
    def ranking_topic(self) -> np.ndarray: ...

    @property
    def entry_ranking(self) -> np.ndarray: ...

    @property
    def entry_rank(self) -> np.ndarray: ...

    @property
    def entry_subtopic(self) -> np.ndarray: ...

    @property
    def n_intents(self) -> np.ndarray: ...

    @property
    def nrel_sub(self) -> np.ndarray: ...


def _int64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _arrays(batch: PerIntentBatch
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (_int64(batch.lengths), _int64(batch.ranking_topic), _int64(batch.entry_ranking),
            _int64(batch.entry_rank), _int64(batch.entry_subtopic))


def ndeval_family(family: str, batch: PerIntentBatch, *, cutoff: int | None = None,
                  alpha: float = 0.5, beta: float = 0.5,
                  ideal: PerIntentBatch | None = None) -> np.ndarray:
    """Per ranking of ``batch``: ndeval's ``family`` (``alpha-DCG``, ``alpha-nDCG``,
    ``ERR-IA``, ``nERR-IA``, ``NRBP``, ``nNRBP``, ``MAP-IA``, ``P-IA``, ``strec``) at
    ``cutoff`` (``strec`` without one: the whole ranking, NTCIREVAL's I-rec), ``ideal``
    holding the greedy ideal ranking of every qrels topic (ranking ``t``: topic ``t``) for
    the normalised families."""
    return _engine.ndeval_measure(
        family, None if cutoff is None else int(cutoff), float(alpha), float(beta),
        _arrays(batch), None if ideal is None else _arrays(ideal), _int64(batch.n_intents),
        _int64(batch.nrel_sub))


def ntcir_family(family: str, batch: PerIntentBatch, *, cutoff: int | None, beta: float,
                 din: bool, entry_gain: np.ndarray, probability: np.ndarray,
                 navigational: np.ndarray, rel_topic: np.ndarray, rel_gain: np.ndarray,
                 discounts: np.ndarray) -> np.ndarray:
    """Per ranking of ``batch``: NTCIREVAL's D-measure ``family`` (``D-nDCG``, DIN-nDCG
    with ``din``, ``D-Q``, ``D-P+``, ``D-nERR``) at ``cutoff`` (``None``: the whole
    ranking). ``entry_gain``: the gain value of each entry's level; ``probability`` and
    ``navigational``: Pr(i|q) and the types of the qrels topics' intents (topics × intents);
    ``rel_topic`` and ``rel_gain``: the qrels' relevant documents, with the gain value of
    their level for each intent; ``discounts[r − 1]``: the discount of rank r (D-nDCG)."""
    return _engine.ntcir_measure(
        family, None if cutoff is None else int(cutoff), float(beta), bool(din),
        _arrays(batch), np.ascontiguousarray(entry_gain, dtype=np.float64),
        np.ascontiguousarray(probability, dtype=np.float64),
        np.ascontiguousarray(navigational, dtype=bool), _int64(rel_topic),
        np.ascontiguousarray(rel_gain, dtype=np.float64),
        np.ascontiguousarray(discounts, dtype=np.float64), _int64(batch.n_intents),
        _int64(batch.nrel_sub))


def _string_buffers(values: object) -> tuple[np.ndarray, np.ndarray]:
    """A column of strings as the engine reads it: ``(offsets as int64, bytes)`` of its
    :class:`~irscale.core.strings.Strings` (:func:`identifiers.as_strings`)."""
    column = identifiers.as_strings(values)
    return column.offsets, column.data


class IntentJudge:
    """The relevant ``(topic, docno)`` pairs of diversity qrels, indexed once by the engine
    (``rust/src/diversity/judging.rs``) to judge runs per intent: ``topic[d]`` and
    ``docno[d]`` of every relevant document ``d``, ``mask[d, j]`` when it is relevant to
    intent ``j``, at level ``level[d, j]``."""

    def __init__(self, topic: np.ndarray, docno: object,
                 mask: np.ndarray, level: np.ndarray) -> None:
        offsets, data = _string_buffers(docno)
        self._engine = _engine.IntentJudge(_int64(topic), offsets, data,
                                           np.ascontiguousarray(mask, dtype=bool),
                                           _int64(level))

    def judge(self, docno: object, order: np.ndarray | None,
              start: np.ndarray, length: np.ndarray, topic: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The relevant entries ``(ranking, rank, intent, level)`` of a run whose documents
        are ``docno``, sorted by ranking, rank and intent: ranking ``r`` is the first
        ``length[r]`` rows of ``order[start[r]:]`` (``None``: the rows in file order), of
        qrels topic ``topic[r]`` (−1: not judged)."""
        offsets, data = _string_buffers(docno)
        return self._engine.judge(offsets, data,
                                  np.empty(0, np.int64) if order is None else _int64(order),
                                  _int64(start), _int64(length), _int64(topic))

    def judge_files(self, runs: list[tuple[bytes | str | os.PathLike, str]],
                    topics: Sequence[str], traditional: bool, max_docs: int | None,
                    ndeval_topics: bool, limit: int) -> list[tuple[Any, ...]]:
        """The run files ``runs`` (``(bytes or path, name in messages)``) read as ndeval
        reads them (``rust/src/read/diversity.rs``), each put in ndeval's order and judged
        by the engine side by side (``rust/src/diversity/run_files.rs``): per run ``(run
        ids, topic ids, lengths, qrels topics, entries' ranking, rank, intent, level)``,
        one ranking per topic in order of first appearance, ``topics`` naming the qrels
        topics of the index; the texts held at once within ``limit`` bytes. The first
        faulty file raises the engine's ``TrecReadError``."""
        return self._engine.judge_files(runs, list(topics), traditional, max_docs,
                                        ndeval_topics, limit)
