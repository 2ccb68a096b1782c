"""ndeval's novelty and diversity measures (TREC Web track 2009–2014, ndeval 4.5).

Every measure is intent-aware over the topic's S intents that have a relevant document
(ndeval's ``actualSubtopics``); a document relevant to intent j adds the gain
``(1 − α)^{c_j}``, c_j being the number of documents relevant to j ranked above it
(Clarke et al., SIGIR 2008). With ``score_i`` = Σ_j of these gains at rank i (intents added
in index order) and ``disc(i) = log 2 / log(i + 1)`` (1 at rank 1):

* ``alpha-DCG@k`` = Σ_{i≤k} score_i·disc(i) / Σ_{i≤k} S(1 − α)^{i−1}·disc(i) (ndeval's
  "ideal ideal", collection-independent normalisation);
* ``ERR-IA@k`` = Σ_{i≤k} score_i / i / Σ_{i≤k} S(1 − α)^{i−1} / i (Chapelle et al., CIKM
  2009, as ndeval computes it; at k = 1 ndeval leaves the sum unnormalised);
* ``alpha-nDCG@k``, ``nERR-IA@k``: the same divided by its value on ndeval's greedy ideal
  ranking (:func:`~irscale.measures.diversity.rankings.ideal_rankings`), 0 when the run's
  value is 0;
* ``NRBP`` = (1 − (1 − α)β)/S · Σ_i score_i·β^{i−1} over the whole ranking (Clarke et al.,
  ICTIR 2009); ``nNRBP`` = NRBP / NRBP of the ideal ranking (0/0 = NaN, printed ``-nan``,
  for a topic without relevant documents, as ndeval prints it);
* ``MAP-IA`` = (1/S) Σ_j AP_j, AP_j the average precision of intent j alone;
* ``P-IA@k`` = Σ_j |relevant to j in top k| / (k·S); ``strec@k`` = |intents covered in top
  k| / S (subtopic recall).

A topic without relevant documents (S = 0) scores 0 on all but nNRBP. Powers of (1 − α) and
β come from repeated multiplication and sums are made in ndeval's order (ranks in order,
intents in index order), so values are ndeval's doubles.
"""

from __future__ import annotations

import math

import numpy as np

from ..base import c_divide
from .rankings import DiversityRankings


def powers(base: float, n: int) -> np.ndarray:
    """``[1, base, base², ...]`` (n values) by repeated multiplication, as C loops do."""
    out = np.full(max(n, 1), base)
    out[0] = 1.0
    return np.cumprod(out)[:n] if n else np.empty(0)


def discounts(depth: int) -> np.ndarray:
    """ndeval's discount of rank i + 1 for i < depth: ``log(2)/log(i + 2)`` (1 at i = 0)."""
    return np.array([1.0] + [math.log(2.0) / math.log(i + 2.0) for i in range(1, depth)])


def intent_counts(dr: DiversityRankings) -> np.ndarray:
    """Per relevant entry, the number of earlier entries of the same ranking and intent
    (entries come sorted by ranking then rank: one pass per intent index)."""
    def compute():
        counts = np.zeros(len(dr.entry_rank), np.int64)
        for j in range(dr.max_subtopics):
            rows = np.flatnonzero(dr.entry_subtopic == j)
            ranking = dr.entry_ranking[rows]
            counts[rows] = np.arange(len(rows)) - np.searchsorted(ranking, ranking)
        return counts
    return dr.memo("counts", compute)


def position_scores(dr: DiversityRankings, alpha: float):
    """``(ranking, rank, score)`` of every rank holding a relevant document."""
    def compute():
        counts = intent_counts(dr)
        gains = powers(1.0 - alpha, int(counts.max(initial=-1)) + 1)[counts]
        n = len(gains)
        if n == 0:
            empty = np.empty(0, np.int64)
            return empty, empty, np.empty(0)
        start = np.r_[True, (dr.entry_ranking[1:] != dr.entry_ranking[:-1])
                      | (dr.entry_rank[1:] != dr.entry_rank[:-1])]
        pos = np.cumsum(start) - 1
        score = np.bincount(pos, weights=gains)  # added in entry order: intents in order
        return dr.entry_ranking[start], dr.entry_rank[start], score
    return dr.memo(f"scores:{alpha!r}", compute)


def _cumulated(dr: DiversityRankings, alpha: float, depth: int, kind: str) -> np.ndarray:
    """ndeval's ``rl->dcg`` / ``rl->err``: cumulated, "ideal ideal" normalised (but at
    rank 1), one row per ranking, ``depth`` columns."""
    def compute():
        ranking, rank, score = position_scores(dr, alpha)
        disc = discounts(depth)
        keep = rank <= depth
        terms = np.zeros((dr.n_rankings, depth))
        r, i, s = ranking[keep], rank[keep] - 1, score[keep]
        terms[r, i] = s * disc[i] if kind == "dcg" else s / (i + 1.0)
        cumulated = np.cumsum(terms, axis=1)
        n_topics = len(dr.n_intents)
        ideal = np.full((n_topics, depth), 1.0 - alpha)
        ideal[:, 0] = dr.n_intents.astype(np.float64)
        ideal = np.cumprod(ideal, axis=1)  # S, S(1−α), S(1−α)(1−α), ...
        ideal = ideal * disc if kind == "dcg" else ideal / np.arange(1.0, depth + 1.0)
        ideal = np.cumsum(ideal, axis=1)
        intents = dr.intents()
        out = np.zeros((dr.n_rankings, depth))
        live = intents > 0
        topic = dr.ranking_topic[live]
        out[live] = cumulated[live]
        if depth > 1:
            out[live, 1:] = cumulated[live, 1:] / ideal[topic, 1:]
        return out
    return dr.memo(f"{kind}:{alpha!r}:{depth}", compute)


def normalised(run: np.ndarray, ideal: np.ndarray, topic: np.ndarray,
               gate: np.ndarray) -> np.ndarray:
    """``run / ideal[topic]`` where ``gate`` (ndeval: the run's alpha-DCG) is not 0, else 0."""
    out = np.zeros(len(run))
    live = gate != 0
    out[live] = run[live] / ideal[topic[live]]
    return out


def dcg_at(dr, alpha, k):
    return _cumulated(dr, alpha, max(k, 1), "dcg")[:, k - 1]


def err_at(dr, alpha, k):
    return _cumulated(dr, alpha, max(k, 1), "err")[:, k - 1]


def nrbp(dr: DiversityRankings, alpha: float, beta: float) -> np.ndarray:
    def compute():
        ranking, rank, score = position_scores(dr, alpha)
        decay = powers(beta, int(dr.lengths.max(initial=0)) + 1)
        total = np.bincount(ranking, weights=score * decay[rank - 1], minlength=dr.n_rankings)
        intents = dr.intents()
        factor = np.zeros(dr.n_rankings)
        live = intents > 0
        factor[live] = (1.0 - (1.0 - alpha) * beta) / intents[live]
        return np.where(live, total * factor, 0.0)
    return dr.memo(f"nrbp:{alpha!r}:{beta!r}", compute)


def map_ia(dr: DiversityRankings) -> np.ndarray:
    counts = intent_counts(dr)
    width = max(dr.max_subtopics, 1)
    # entries come by ranking then rank: for one (ranking, intent) they are in rank order,
    # the order in which ndeval adds the precisions
    key = dr.entry_ranking * width + dr.entry_subtopic
    terms = (counts + 1.0) / dr.entry_rank
    totals = np.bincount(key, weights=terms, minlength=dr.n_rankings * width)
    totals = totals.reshape(dr.n_rankings, width)
    intents = dr.intents()
    live = intents > 0
    nrel = np.zeros((dr.n_rankings, width), dtype=np.int64)
    nrel[live, :dr.max_subtopics] = dr.nrel_sub[dr.ranking_topic[live]]
    acc = np.zeros(dr.n_rankings)
    for j in range(dr.max_subtopics):  # intents in index order, as ndeval adds them
        has = nrel[:, j] > 0
        acc = acc + np.where(has, totals[:, j] / np.where(has, nrel[:, j], 1), 0.0)
    out = np.zeros(dr.n_rankings)
    out[live] = acc[live] / intents[live]
    return out


def precision_ia(dr: DiversityRankings, k: int) -> np.ndarray:
    count = np.bincount(dr.entry_ranking[dr.entry_rank <= k], minlength=dr.n_rankings)
    intents = dr.intents()
    return np.where(intents > 0, count / np.maximum(k * intents, 1), 0.0)


def subtopic_recall(dr: DiversityRankings, k: int) -> np.ndarray:
    first = (intent_counts(dr) == 0) & (dr.entry_rank <= k)
    count = np.bincount(dr.entry_ranking[first], minlength=dr.n_rankings)
    intents = dr.intents()
    return np.where(intents > 0, count / np.maximum(intents, 1), 0.0)


def nnrbp(dr: DiversityRankings, ideal: DiversityRankings, alpha: float,
          beta: float) -> np.ndarray:
    """NRBP / ideal NRBP: 0/0 is C's NaN (``-nan``) for a judged topic without relevant
    documents; a topic the qrels do not judge scores 0 (ndeval prints zeros)."""
    run = nrbp(dr, alpha, beta)
    out = np.zeros(dr.n_rankings)
    judged = dr.ranking_topic >= 0
    out[judged] = c_divide(run[judged], nrbp(ideal, alpha, beta)[dr.ranking_topic[judged]])
    return out
