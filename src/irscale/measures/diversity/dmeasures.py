"""NTCIREVAL's diversity family: I-rec, D-measures, D♯-measures, DIN-measures and P+Q
(Sakai 2014, §3.1, eqs. 24 and 27–34; Sakai & Song, SIGIR 2011; Sakai, WWW 2012).

Intents ``i`` of a topic are those with a relevant document (:mod:`.context`), with
probabilities Pr(i|q) (uniform by default) and per-intent graded levels x ≥ 1 whose gain
values ``gv(x)`` follow the catalogue's gain maps (``gain=``, default ``linear``: gv = x,
as NTCIREVAL's ``P(i|q)*d`` files; ``exp``, ``binary`` or a list ``1:3:7``;
:mod:`irscale.measures.gain_discount`).

* ``I-rec@l`` = |intents with a relevant document in the top l| / |intents| (eq. 24;
  NTCIREVAL's ``irec``): the same number as ndeval's ``strec@l``.
* Global gain of a document (eq. 27): ``GG(d) = Σ_i Pr(i|q)·gv(x_i(d))`` (intents added in
  index order). The *globally ideal list* holds the topic's documents of positive global
  gain by decreasing GG; R = its length. A D-measure is the graded measure computed by
  NTCIREVAL's ``gcompute`` with GG as the gain of every document (a document is relevant
  when GG > 0):

  - ``D-nDCG@l`` = Σ_{r≤l} GG(r)/d(r) / Σ_{r≤min(l,R)} GG*(r)/d(r) (eq. 28) with the
    discount of the catalogue's nDCG (``discount=log2``, log2(r+1), by default, as eq. 28
    and NTCIREVAL's ``MSnDCG``; ``discount=jk`` is NTCIREVAL's original nDCG);
  - ``D-Q@l`` = Σ_{r≤l, GG(r)>0} BR(r) / min(l, R), BR(r) = (β·cg(r) + C(r)) /
    (β·cg*(r) + r) with cumulative global gains (Q-measure, Sakai 2014, eq. 11–13; without a
    cut-off, / R);
  - ``D-nERR@l`` = ERR@l / ideal ERR@l, ERR = Σ_r dsat(r−1)/r · GG(r)/(h+1), h the
    topic's highest global gain (``gcompute``'s per-topic ``hgain``);
  - ``D-P+`` = (1/C(rp)) Σ_{r≤rp, GG(r)>0} BR(r), rp the first rank holding the highest
    global gain of the (cut) ranking (P⁺, Sakai 2014, eq. 14).

* ``D#-M@l`` = γ·I-rec@l + (1 − γ)·D-M@l (eq. 29; ``gamma=``, default 0.5 as at NTCIR).
* ``DIN-nDCG@l`` (eqs. 32–33): as D-nDCG, but a navigational intent's gain counts only at
  its first relevant document in the evaluated ranking (NTCIREVAL's ``dinlabel``); the
  ideal list is unchanged, so DIN-nDCG may stay below 1. ``DIN#-nDCG`` as eq. 29.
* ``P+Q@l`` (eq. 34) = Σ_{i inf} Pr(i|q)·Q_i@l + Σ_{j nav} Pr(j|q)·P⁺_j, with the
  catalogue's Q-measure (``Q(norm=min)@l``) and P⁺ (on the ranking cut at l) per intent on
  its graded levels; ``P+Q#`` as eq. 29. With every intent informational, P+Q = Q-IA.

Without a cut-off every measure uses the whole ranking. A topic without a relevant
document (or one the qrels do not judge) scores 0 (NTCIREVAL's ``gcompute`` refuses such
a topic). NTCIREVAL writes the run's global gains with four decimals (``glabel``'s
``%.4f``) before computing; irscale uses the exact sums (docs/diversity.md).
"""

from __future__ import annotations

import numpy as np

from ...core.subsets import Subset
from ..base import EvalContext, get_family, register, safe_divide
from ..cascade import unsatisfied_before
from ..gain_discount import (
    BASE,
    DISCOUNT_KIND,
    GainMap,
    check_discount,
    discount_of,
    gain_keyword,
)
from ..graded import BETA, p_plus, q_measure
from ..params import Keyword, Keywords, Params, number
from . import ndeval as nd
from .context import DiversityContext

GAMMA = Keyword(number(low=0.0, high=1.0), 0.5,
                "weight γ of I-rec in the ♯ combination γ·I-rec + (1 − γ)·D (Sakai 2014, eq. 29)")
GAIN = gain_keyword("linear")


# ---------------------------------------------------------------- global gains
def _positions(segment: np.ndarray, rank: np.ndarray, n_segments: int) -> Subset:
    """A :class:`Subset` of positions (sorted by segment, then rank)."""
    counts = np.bincount(segment, minlength=n_segments)
    return Subset(index=np.arange(len(segment)), segment=segment,
                  offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
                  rank=rank, rel=np.zeros(len(segment), dtype=np.int64))


def _level_gains(levels: np.ndarray, gain: GainMap) -> np.ndarray:
    """gv(x) of every level (0 for x ≤ 0: not relevant to that intent)."""
    levels = np.asarray(levels, dtype=np.int64)
    return np.where(levels > 0, gain.gains(np.maximum(levels, 0), "D-measure"), 0.0)


def run_gains(ctx: DiversityContext, gain: GainMap, din: bool = False
              ) -> tuple[Subset, np.ndarray]:
    """The ranks of positive global gain of every ranking and GG there (eq. 27; with
    ``din``, GG^DIN of eq. 32). Memoised per context."""

    def compute() -> tuple[Subset, np.ndarray]:
        dr = ctx.run
        levels = dr.entry_level if dr.entry_level is not None else \
            np.ones(len(dr.entry_rank), np.int64)
        term = ctx.entry_weights() * _level_gains(levels, gain)
        if din:
            term = np.where(ctx.entry_navigational() & (nd.intent_counts(dr) > 0), 0.0, term)
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
    return nd.subtopic_recall(ctx.run, max(depth, 1))


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


def p_plus_q(ctx: DiversityContext, params: Params, k: int | None) -> np.ndarray:
    """P+Q@k (eq. 34): Pr-weighted Q@k of informational intents and P⁺ (cut at k) of
    navigational ones, by the catalogue's Q and P⁺ kernels on the context's per-intent
    rankings (:meth:`~.context.DiversityContext.intent_rankings`)."""
    pairs = ctx.intent_rankings()
    jr = pairs.batch
    given = {"beta": repr(params["beta"]), "gain": str(params["gain"])}
    q_params = _catalogue_params("Q", {**given, **({"cutoff": str(k)} if k else {})})
    q = q_measure(jr, q_params, EvalContext())["Q"]
    view = jr if k is None else jr.truncate(k)
    pplus = p_plus(view, _catalogue_params("Pplus", given), EvalContext())["Pplus"]
    return pairs.combine(np.where(pairs.navigational, pplus, q), ctx.run.n_rankings)


def _catalogue_params(family: str, items: dict[str, str]) -> Params:
    """The parameters of catalogue family ``family`` given as ``name=text`` items."""
    spec = get_family(family).params
    assert isinstance(spec, Keywords)
    return spec.from_items(items, family)


# ---------------------------------------------------------------- registration
def _sharp(measure, gamma: float, ctx: DiversityContext, k: int | None) -> np.ndarray:
    """γ·I-rec@k + (1 − γ)·measure (eq. 29)."""
    return gamma * intent_recall(ctx, k) + (1.0 - gamma) * measure


_NDCG = dict(gain=GAIN, discount=DISCOUNT_KIND, base=BASE)
_BR = dict(gain=GAIN, beta=BETA)


def _ndcg_params(**extra: Keyword) -> Keywords:
    return Keywords(**_NDCG, **extra).checked(check_discount)


@register("I-rec", params=Keywords(), cutoff="optional",
          doc="Intent recall: share of the topic's intents covered (Sakai 2014, eq. 24).",
          context="intents",
          formula="|intents with a relevant document in the top l| / |intents|",
          source="Sakai & Song 2011; NTCIREVAL (irec)")
def _irec(ctx, p, k):
    return intent_recall(ctx, k)


@register("D-nDCG", cutoff="optional", params=_ndcg_params(),
          doc="nDCG over global gains and the globally ideal list (eq. 27–28).",
          context="intents",
          formula="Σ_{r≤l} GG(r)/d(r) / Σ_{r≤min(l,R)} GG*(r)/d(r), GG(d) = Σ_i Pr(i|q)·gv(x_i(d))",
          source="Sakai & Song 2011; NTCIREVAL")
def _dndcg(ctx, p, k):
    return d_ndcg(ctx, p, k)


@register("D#-nDCG", cutoff="optional", params=_ndcg_params(gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·D-nDCG (Sakai 2014, eq. 29; NTCIR INTENT).",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·D-nDCG@l",
          source="Sakai & Song 2011; NTCIREVAL")
def _dsharp_ndcg(ctx, p, k):
    return _sharp(d_ndcg(ctx, p, k), p["gamma"], ctx, k)


@register("DIN-nDCG", cutoff="optional", params=_ndcg_params(),
          doc="D-nDCG crediting a navigational intent at its first relevant "
          "document only (eq. 32–33).",
          context="intents",
          formula="D-nDCG with a navigational intent's gain at its first relevant document only",
          source="Sakai 2012; NTCIREVAL")
def _din_ndcg(ctx, p, k):
    return d_ndcg(ctx, p, k, din=True)


@register("DIN#-nDCG", cutoff="optional", params=_ndcg_params(gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·DIN-nDCG (Sakai, WWW 2012).",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·DIN-nDCG@l",
          source="Sakai 2012; NTCIREVAL")
def _din_sharp_ndcg(ctx, p, k):
    return _sharp(d_ndcg(ctx, p, k, din=True), p["gamma"], ctx, k)


@register("D-Q", cutoff="optional", params=Keywords(**_BR),
          doc="Q-measure over global gains (Sakai & Song 2011).",
          context="intents",
          formula="Q-measure over global gains: Σ_{GG(r)>0} BR(r) / min(l, R)",
          source="Sakai & Song 2011; NTCIREVAL")
def _dq(ctx, p, k):
    return d_q(ctx, p, k)


@register("D#-Q", cutoff="optional", params=Keywords(**_BR, gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·D-Q.",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·D-Q@l",
          source="Sakai & Song 2011; NTCIREVAL")
def _dsharp_q(ctx, p, k):
    return _sharp(d_q(ctx, p, k), p["gamma"], ctx, k)


@register("D-nERR", cutoff="optional", params=Keywords(gain=GAIN),
          doc="nERR over global gains, R = GG/(h + 1) (NTCIREVAL's gcompute).",
          context="intents",
          formula="ERR@l / ideal ERR@l over global gains, R_r = GG(r)/(h + 1)",
          source="Sakai & Song 2011; NTCIREVAL")
def _dnerr(ctx, p, k):
    return d_nerr(ctx, p, k)


@register("D#-nERR", cutoff="optional", params=Keywords(gain=GAIN, gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·D-nERR.",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·D-nERR@l",
          source="Sakai & Song 2011; NTCIREVAL")
def _dsharp_nerr(ctx, p, k):
    return _sharp(d_nerr(ctx, p, k), p["gamma"], ctx, k)


@register("D-P+", cutoff="optional", params=Keywords(**_BR),
          doc="P⁺ over global gains (NTCIREVAL's gcompute P-plus).",
          context="intents",
          formula="(1/C(rp)) Σ_{r≤rp, GG(r)>0} BR(r) over global gains",
          source="Sakai & Song 2011; NTCIREVAL")
def _dpplus(ctx, p, k):
    return d_pplus(ctx, p, k)


@register("D#-P+", cutoff="optional", params=Keywords(**_BR, gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·D-P+.",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·D-P+@l",
          source="Sakai & Song 2011; NTCIREVAL")
def _dsharp_pplus(ctx, p, k):
    return _sharp(d_pplus(ctx, p, k), p["gamma"], ctx, k)


@register("P+Q", cutoff="optional", params=Keywords(**_BR),
          doc="Q per informational and P⁺ per navigational intent, weighted by "
          "Pr(i|q) (Sakai 2014, eq. 34; Sakai, WWW 2012).",
          context="intents",
          formula="Σ_{i informational} Pr(i|q)·Q_i@l + Σ_{j navigational} Pr(j|q)·P+_j",
          source="Sakai 2012; NTCIREVAL")
def _pplus_q(ctx, p, k):
    return p_plus_q(ctx, p, k)


@register("P+Q#", cutoff="optional", params=Keywords(**_BR, gamma=GAMMA),
          doc="γ·I-rec + (1 − γ)·P+Q.",
          context="intents",
          formula="γ·I-rec@l + (1 − γ)·P+Q@l",
          source="Sakai 2012; NTCIREVAL")
def _pplus_q_sharp(ctx, p, k):
    return _sharp(p_plus_q(ctx, p, k), p["gamma"], ctx, k)
