"""Oracle of the diversity measures: irscale's numpy kernels as they were before the
engine computed them (``irscale.measures.diversity.ndeval`` and the D-measures of
``irscale.measures.diversity.dmeasures``), kept here only to test the engine
(``rust/src/diversity/``) against an independent implementation
(``tests/test_native_diversity.py``).

ndeval's measures (ndeval 4.5; Clarke et al., SIGIR 2008 and ICTIR 2009; Chapelle et al.,
CIKM 2009; Agrawal et al., WSDM 2009) take a
:class:`~irscale.measures.diversity.rankings.DiversityRankings` batch; NTCIREVAL's
D-measures (Sakai & Song, SIGIR 2011; Sakai 2014, eqs. 24 and 27–29) a
:class:`~irscale.measures.diversity.context.DiversityContext`. Powers come from repeated
multiplication and sums are made in ndeval's and NTCIREVAL's order (ranks in order, intents
in index order), so that values are the C programs' doubles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from irscale.core import identifiers
from irscale.core.inputs import Run
from irscale.core.subsets import Subset
from irscale.measures.arrays import c_divide, safe_divide
from irscale.measures.cascade import unsatisfied_before
from irscale.measures.diversity.context import DiversityContext
from irscale.measures.diversity.rankings import (
    DiversityIndex,
    DiversityRankings,
    id_ranks,
)
from irscale.measures.diversity.rankings import _index_in as index_in
from irscale.measures.diversity.rankings import _rank_order as rank_order
from irscale.measures.diversity.rankings import _RunJudgment as RunJudgment
from irscale.measures.gain_discount import GainMap, discount_of
from irscale.measures.params import Params


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


# ---------------------------------------------------------------- global gains
def _positions(segment: np.ndarray, rank: np.ndarray, n_segments: int) -> Subset:
    """A :class:`Subset` of positions (sorted by segment, then rank)."""
    counts = np.bincount(segment, minlength=n_segments)
    return Subset(index=np.arange(len(segment)), segment=segment,
                  offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
                  rank=rank, rel=np.zeros(len(segment), dtype=np.int64))


def _level_gains(levels: np.ndarray, gain: GainMap) -> np.ndarray:
    """gv(x) of every level (0 for x ≤ 0: not relevant to that intent), in the shape of
    ``levels`` (the gain map maps a flat array of degrees)."""
    levels = np.asarray(levels, dtype=np.int64)
    gains = gain.gains(np.maximum(levels, 0).ravel(), "D-measure").reshape(levels.shape)
    return np.where(levels > 0, gains, 0.0)


def run_gains(ctx: DiversityContext, gain: GainMap, din: bool = False
              ) -> tuple[Subset, np.ndarray]:
    """The ranks of positive global gain of every ranking and GG there (eq. 27; with
    ``din``, GG^DIN of eq. 32). Memoised per context."""

    def compute() -> tuple[Subset, np.ndarray]:
        dr = ctx.run
        levels = dr.entry_level if dr.entry_level is not None else \
            np.ones(len(dr.entry_rank), np.int64)
        topic = dr.ranking_topic[dr.entry_ranking]
        term = ctx.weights[topic, dr.entry_subtopic] * _level_gains(levels, gain)
        if din:
            navigational = ctx.navigational[topic, dr.entry_subtopic]
            term = np.where(navigational & (intent_counts(dr) > 0), 0.0, term)
        start = np.r_[True, (dr.entry_ranking[1:] != dr.entry_ranking[:-1])
                      | (dr.entry_rank[1:] != dr.entry_rank[:-1])] if len(term) else \
            np.empty(0, dtype=bool)
        gg = np.bincount(np.cumsum(start) - 1, weights=term) if len(term) else np.empty(0)
        keep = gg > 0
        return (_positions(dr.entry_ranking[start][keep], dr.entry_rank[start][keep],
                           dr.n_rankings), gg[keep])

    return ctx.memo(f"gg:{gain}:{din}", compute)


def ideal_gains(ctx: DiversityContext, gain: GainMap) -> tuple[Subset, np.ndarray]:
    """The globally ideal list of every qrels topic (segment = topic): its documents of
    positive global gain by decreasing GG, with GG. Memoised per context."""

    def compute() -> tuple[Subset, np.ndarray]:
        index = ctx.index
        gains = _level_gains(index.rel_level, gain)
        weights = ctx.weights[index.rel_topic]
        gg = np.zeros(len(index.rel_topic))
        for j in range(gains.shape[1]):  # intents in index order
            gg = gg + weights[:, j] * gains[:, j]
        keep = np.flatnonzero(gg > 0)
        order = keep[np.lexsort((-gg[keep], index.rel_topic[keep]))]
        topic = index.rel_topic[order]
        counts = np.bincount(topic, minlength=len(index.topics))
        rank = np.arange(1, len(order) + 1) - np.repeat(
            np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
        return _positions(topic, rank, len(index.topics)), gg[order]

    return ctx.memo(f"ideal_gg:{gain}", compute)


def _per_ranking(ctx: DiversityContext, per_topic: np.ndarray) -> np.ndarray:
    """Per-topic values spread to the rankings (0 for a topic the qrels do not judge)."""
    topic = ctx.run.ranking_topic
    out = np.zeros(len(topic))
    judged = topic >= 0
    out[judged] = per_topic[topic[judged]]
    return out


def _upto(positions: Subset, values: np.ndarray, k: int | None) -> tuple[Subset, np.ndarray]:
    """The positions at ranks ≤ k (all without a cut-off) and their values."""
    if k is None:
        return positions, values
    keep = positions.rank <= k
    return positions.select(keep), values[keep]


def _n_rel(ctx: DiversityContext, gain: GainMap) -> np.ndarray:
    """Per ranking: R, the length of its topic's globally ideal list."""
    return _per_ranking(ctx, ideal_gains(ctx, gain)[0].counts)


# ---------------------------------------------------------------- measures
def intent_recall(ctx: DiversityContext, k: int | None) -> np.ndarray:
    """I-rec@k (eq. 24): ndeval's subtopic recall over the same intents."""
    depth = int(ctx.run.lengths.max(initial=0)) if k is None else k
    return subtopic_recall(ctx.run, max(depth, 1))


def d_ndcg(ctx: DiversityContext, params: Params, k: int | None, din: bool = False
           ) -> np.ndarray:
    """D-nDCG@k (eq. 28), DIN-nDCG@k with ``din`` (eq. 33)."""
    gain, discount = params["gain"], discount_of(params)
    run, gg = _upto(*run_gains(ctx, gain, din), k)
    ideal, igg = _upto(*ideal_gains(ctx, gain), k)
    dcg = run.total(gg / discount(run.rank))
    idcg = _per_ranking(ctx, ideal.total(igg / discount(ideal.rank)))
    return safe_divide(dcg, idcg)


def blended_ratios(ctx: DiversityContext, gain: GainMap, beta: float) -> np.ndarray:
    """BR(r) at every position of :func:`run_gains` (Sakai 2014, eq. 11, NTCIREVAL's order)."""
    run, gg = run_gains(ctx, gain)
    ideal, igg = ideal_gains(ctx, gain)
    cg = run.scan(gg, np.add, 0.0)
    icg = ideal.scan(igg, np.add, 0.0)
    topic = ctx.run.ranking_topic[run.segment]  # ≥ 0: a judged topic has positive gains
    depth = np.minimum(run.rank, ideal.counts[topic])
    cg_star = icg[ideal.offsets[topic] + depth - 1]
    return (beta * cg + run.position()) / (beta * cg_star + run.rank)


def d_q(ctx: DiversityContext, params: Params, k: int | None) -> np.ndarray:
    """D-Q@k: Q-measure over global gains, / min(k, R) (/ R without a cut-off)."""
    gain = params["gain"]
    run, _ = run_gains(ctx, gain)
    br = blended_ratios(ctx, gain, params["beta"])
    keep = np.ones(len(br), dtype=bool) if k is None else run.rank <= k
    total = np.bincount(run.segment[keep], weights=br[keep], minlength=ctx.run.n_rankings)
    big_r = _n_rel(ctx, gain)
    return safe_divide(total, big_r if k is None else np.minimum(k, big_r))


def d_pplus(ctx: DiversityContext, params: Params, k: int | None) -> np.ndarray:
    """D-P+: P⁺ over global gains on the ranking cut at k."""
    gain = params["gain"]
    run, gg = run_gains(ctx, gain)
    br = blended_ratios(ctx, gain, params["beta"])
    keep = np.ones(len(br), dtype=bool) if k is None else run.rank <= k
    view = run.select(keep)
    top = np.full(view.n_rankings, -np.inf)
    np.maximum.at(top, view.segment, gg[keep])
    rp = np.full(view.n_rankings, np.iinfo(np.int64).max)
    at_top = gg[keep] == top[view.segment]
    np.minimum.at(rp, view.segment[at_top], view.rank[at_top])
    above = view.rank <= rp[view.segment]
    total = np.bincount(view.segment[above], weights=br[keep][above],
                        minlength=view.n_rankings)
    count = np.bincount(view.segment[above], minlength=view.n_rankings)  # C(rp)
    return safe_divide(total, count)


def d_nerr(ctx: DiversityContext, params: Params, k: int | None) -> np.ndarray:
    """D-nERR@k: ERR with R(r) = GG(r)/(h + 1), h the topic's highest global gain."""
    gain = params["gain"]
    ideal_all, igg_all = ideal_gains(ctx, gain)
    highest = np.zeros(ideal_all.n_rankings)
    np.maximum.at(highest, ideal_all.segment, igg_all)

    def err(positions: Subset, gg: np.ndarray, h: np.ndarray) -> np.ndarray:
        stop = gg / (h[positions.segment] + 1.0)
        return positions.total((unsatisfied_before(positions, stop) / positions.rank) * stop)

    run, gg = _upto(*run_gains(ctx, gain), k)
    ideal, igg = _upto(ideal_all, igg_all, k)
    return safe_divide(err(run, gg, _per_ranking(ctx, highest)),
                       _per_ranking(ctx, err(ideal, igg, highest)))


# ---------------------------------------------------------------- judging per intent
@dataclass(frozen=True, eq=False)
class RelevantLookup:
    """The relevant (topic, docno) pairs of a :class:`DiversityIndex` keyed for lookup:
    ``key = qrels topic × width + docno code`` (codes into ``doc_dict``), sorted."""

    doc_dict: pa.Array
    width: int
    sorted_key: np.ndarray
    key_order: np.ndarray

    @classmethod
    def of(cls, index: DiversityIndex) -> RelevantLookup:
        doc_codes, doc_dict = identifiers.encode(index.rel_docno)
        width = max(len(doc_dict), 1)
        rel_key = index.rel_topic * width + doc_codes
        key_order = np.argsort(rel_key)
        return cls(doc_dict, width, rel_key[key_order], key_order)


def judge_run(index: DiversityIndex, lookup: RelevantLookup, run: Run, traditional: bool,
               max_docs: int | None) -> RunJudgment:
    """One run judged per intent against ``index``, vectorised over its rows (irscale's
    numpy judging before the engine's ``rust/src/diversity/judging.rs``)."""
    n = len(run)
    empty = np.empty(0, np.int64)
    if n == 0:
        return RunJudgment(empty, empty, [], empty, empty, empty, empty)
    topic_codes, topic_dict = identifiers.encode(identifiers.as_strings(run.topic), grouped=True)
    order = rank_order(run, topic_codes, topic_dict, traditional)
    identity = order is None
    topic_sorted = topic_codes if order is None else topic_codes[order]
    starts = np.flatnonzero(np.r_[True, topic_sorted[1:] != topic_sorted[:-1]])
    block_topic = topic_sorted[starts]
    lengths = np.r_[starts[1:], n] - starts
    if max_docs is not None:
        lengths = np.minimum(lengths, max_docs)
    names = topic_dict.to_pylist()
    ranking_order = np.argsort(id_ranks(names)[block_topic], kind="stable")
    renumber = np.empty(len(starts), dtype=np.int64)
    renumber[ranking_order] = np.arange(len(starts))
    qrels_topic = index_in(topic_dict, index.topics)
    d_code = index_in(identifiers.as_strings(run.docno), lookup.doc_dict) \
        if len(lookup.doc_dict) else \
        np.full(n, -1)
    candidates = np.flatnonzero(d_code >= 0)
    row_topic = qrels_topic[topic_codes[candidates]]
    judged = row_topic >= 0
    candidates, row_topic = candidates[judged], row_topic[judged]
    if order is None:
        pos_sorted = candidates
    else:
        inverse = np.empty(n, dtype=np.int64)
        inverse[order] = np.arange(n)
        pos_sorted = inverse[candidates]
    block = np.searchsorted(starts, pos_sorted, side="right") - 1
    position = pos_sorted - starts[block]
    keep = position < lengths[block]
    candidates, block, position = candidates[keep], block[keep], position[keep]
    key = row_topic[keep] * lookup.width + d_code[candidates]
    sorted_key = lookup.sorted_key
    where = np.minimum(np.searchsorted(sorted_key, key), max(len(sorted_key) - 1, 0))
    ok = sorted_key[where] == key if len(sorted_key) else np.zeros(len(key), bool)
    block, position, rel = block[ok], position[ok], lookup.key_order[where[ok]]
    r_idx, s_idx = np.nonzero(index.rel_mask[rel])
    ranking = renumber[block[r_idx]]
    rank = position[r_idx] + 1
    if identity:  # rows in rank order within each ranking: only rankings move
        entry_order = np.argsort(ranking, kind="stable")
    else:
        entry_order = np.lexsort((s_idx, rank, ranking))
    return RunJudgment(
        lengths=lengths[ranking_order], ranking_topic=qrels_topic[block_topic][ranking_order],
        topic_ids=[names[t] for t in block_topic[ranking_order].tolist()],
        entry_ranking=ranking[entry_order], entry_rank=rank[entry_order],
        entry_subtopic=s_idx[entry_order],
        entry_level=index.rel_level[rel[r_idx], s_idx][entry_order])
