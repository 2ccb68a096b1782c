"""The native engine's diversity kernels, called on rankings judged per intent.

ndeval's families (α-DCG, α-nDCG, ERR-IA, nERR-IA, NRBP, nNRBP, MAP-IA, P-IA, strec /
I-rec) and NTCIREVAL's D-measures (D-nDCG, DIN-nDCG, D-Q, D-P+, D-nERR) are computed by
the engine (``rust/src/diversity/``, one module per family); the registrations of
:mod:`irscale.measures.diversity` hand their batch here. A batch is any object with the
arrays of :class:`~irscale.measures.diversity.rankings.DiversityRankings` (the relevant
entries ``(ranking, rank, subtopic)`` sorted by ranking, rank and subtopic, the topic of
each ranking, the intents of the qrels topics), read in place where already contiguous
int64; the values come back as one float64 per ranking.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from .. import _engine


class PerIntentBatch(Protocol):
    """The arrays of a batch of rankings judged per intent."""

    lengths: np.ndarray
    ranking_topic: np.ndarray
    entry_ranking: np.ndarray
    entry_rank: np.ndarray
    entry_subtopic: np.ndarray
    n_intents: np.ndarray
    nrel_sub: np.ndarray


def _int64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _arrays(batch: PerIntentBatch) -> tuple[np.ndarray, ...]:
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
