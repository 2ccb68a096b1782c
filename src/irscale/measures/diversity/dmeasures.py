"""NTCIREVAL's diversity family: I-rec, D-measures, D♯-measures, DIN-measures, P+Q and
the gold-standard precisions PMP and EP (Sakai 2014, §3.1, eqs. 24 and 27–34; Sakai &
Song, SIGIR 2011; Sakai, WWW 2012).

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

* Gold-standard precisions of the concordance test (Sakai 2014, §3.1 (h), footnotes
  12–13), counting each rank r ≤ l at most once and dividing by l (as trec_eval's
  P@k, m_P.c: a ranking shorter than l counts its missing ranks as not relevant):

  - ``PMP@l`` (Precision for the Most Popular Intent; Sakai & Song, Information
    Retrieval 2013, "Diversified search evaluation: lessons from the NTCIR-9 INTENT
    task") = |{r ≤ l: the document at r is relevant to an intent i with Pr(i|q) =
    max_j Pr(j|q)}| / l. When several intents share the highest probability (uniform
    probabilities: every intent), a document relevant to any of them counts (Sakai's
    definition does not settle ties; probabilities compare as given, exactly);
  - ``EP@l`` (effective precision; Sakai, WWW 2012; Sakai & Song, AIRS 2013) =
    |{r ≤ l: the document at r is relevant to an informational intent, or isnew_j(r) for
    a navigational intent j}| / l, isnew_j(r) = 1 when r is the first rank of the ranking
    relevant to j (eq. 32's, as DIN-nDCG): redundant relevant documents of navigational
    intents count as not relevant. With every intent informational, EP@l is the precision
    of documents relevant to any intent.

Without a cut-off every measure but PMP and EP (which need one) uses the whole ranking. A
topic without a relevant document (or one the qrels do not judge) scores 0 (NTCIREVAL's
``gcompute`` refuses such a topic). NTCIREVAL writes the run's global gains with four
decimals (``glabel``'s ``%.4f``) before computing; irscale uses the exact sums
(docs/diversity.md).

I-rec and the D-measures are computed by the engine (``rust/src/diversity/``:
``intent_counts``, ``global_gains``, ``dmeasures``; :mod:`irscale.core.diversity_kernels`),
every ranking on its own, its sums made in NTCIREVAL's order (ranks in order, intents in
index order); the gain map and the discount are the catalogue's, applied here.
"""

from __future__ import annotations

import numpy as np

from ...core.diversity_kernels import ntcir_family
from ..base import EvalContext, get_family, register
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


# ---------------------------------------------------------------- engine calls
def _level_gains(levels: np.ndarray, gain: GainMap) -> np.ndarray:
    """gv(x) of every level (0 for x ≤ 0: not relevant to that intent), in the shape of
    ``levels`` (the gain map maps a flat array of degrees)."""
    levels = np.asarray(levels, dtype=np.int64)
    gains = gain.gains(np.maximum(levels, 0).ravel(), "D-measure").reshape(levels.shape)
    return np.where(levels > 0, gains, 0.0)


def _gains(ctx: DiversityContext, gain: GainMap) -> tuple[np.ndarray, np.ndarray]:
    """gv of the level of every relevant entry of the run and of every (relevant document,
    intent) of the qrels (memoised per context)."""

    def compute() -> tuple[np.ndarray, np.ndarray]:
        dr = ctx.run
        levels = dr.entry_level if dr.entry_level is not None else \
            np.ones(len(dr.entry_rank), np.int64)
        return _level_gains(levels, gain), _level_gains(ctx.index.rel_level, gain)

    return ctx.memo(f"level_gains:{gain}", compute)


def _discounts(ctx: DiversityContext, params: Params) -> np.ndarray:
    """The catalogue discount of ranks 1 .. the longest ranking or ideal list (D-nDCG)."""
    index = ctx.index
    depth = max(int(ctx.run.lengths.max(initial=0)),
                int(np.bincount(index.rel_topic, minlength=1).max()))
    return discount_of(params)(np.arange(1, depth + 1))


def d_measure(ctx: DiversityContext, family: str, params: Params, k: int | None,
              din: bool = False) -> np.ndarray:
    """``family`` (``D-nDCG``, ``D-Q``, ``D-P+``, ``D-nERR``; DIN-nDCG: ``D-nDCG`` with
    ``din``) per ranking of the context, by the engine (``rust/src/diversity/dmeasures.rs``)."""
    gain = params["gain"]
    entry_gain, rel_gain = _gains(ctx, gain)
    discounts = _discounts(ctx, params) if family == "D-nDCG" else np.empty(0)
    return ntcir_family(
        family, ctx.run, cutoff=k, beta=params.get("beta", 1.0), din=din,
        entry_gain=entry_gain, probability=ctx.weights, navigational=ctx.navigational,
        rel_topic=ctx.index.rel_topic, rel_gain=rel_gain, discounts=discounts)


# ---------------------------------------------------------------- measures
def intent_recall(ctx: DiversityContext, k: int | None) -> np.ndarray:
    """I-rec@k (eq. 24): ndeval's subtopic recall over the same intents."""
    return nd.ndeval_values(ctx, "strec", k)


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


def gold_precision(ctx: DiversityContext, counted: np.ndarray, k: int) -> np.ndarray:
    """Per ranking: |ranks r ≤ k holding an entry marked in ``counted``| / k, ``counted``
    marking the run's relevant entries (``ctx.run.entry_*``, sorted by ranking, rank and
    intent) that make their document count as relevant; a rank counts once."""
    dr = ctx.run
    keep = counted & (dr.entry_rank <= k)
    ranking, rank = dr.entry_ranking[keep], dr.entry_rank[keep]
    first = np.ones(len(rank), dtype=bool)
    first[1:] = (ranking[1:] != ranking[:-1]) | (rank[1:] != rank[:-1])
    return np.bincount(ranking[first], minlength=dr.n_rankings) / k


def _entry_intents(ctx: DiversityContext) -> tuple[np.ndarray, np.ndarray]:
    """Qrels topic and intent index of every relevant entry of the run."""
    dr = ctx.run
    return dr.ranking_topic[dr.entry_ranking], dr.entry_subtopic


def most_popular_precision(ctx: DiversityContext, k: int) -> np.ndarray:
    """PMP@k: precision of the documents relevant to an intent of highest Pr(i|q) (ties:
    any of them)."""
    topic, intent = _entry_intents(ctx)
    weights = ctx.weights
    counted = weights[topic, intent] == weights.max(axis=1, initial=0.0)[topic]
    return gold_precision(ctx, counted, k)


def effective_precision(ctx: DiversityContext, k: int) -> np.ndarray:
    """EP@k: precision of the documents relevant to an informational intent or first
    relevant to a navigational one (isnew_j(r), eq. 32)."""
    dr = ctx.run
    topic, intent = _entry_intents(ctx)
    pair = dr.entry_ranking * max(dr.max_subtopics, 1) + intent
    isnew = np.zeros(len(pair), dtype=bool)
    isnew[np.unique(pair, return_index=True)[1]] = True  # entries sorted by rank
    return gold_precision(ctx, ~ctx.navigational[topic, intent] | isnew, k)


# ---------------------------------------------------------------- registration
def _sharp(measure, gamma: float, ctx: DiversityContext, k: int | None) -> np.ndarray:
    """γ·I-rec@k + (1 − γ)·measure (eq. 29)."""
    return gamma * intent_recall(ctx, k) + (1.0 - gamma) * measure


def _declare_sharp(name: str, of: str, params: Keywords, doc: str | None = None,
                   source: str = "Sakai & Song 2011; NTCIREVAL") -> None:
    """Register ``name``, the #-measure of the D-measure ``of`` (Sakai 2014, eq. 29):
    γ·I-rec@l + (1 − γ)·``of``@l, ``of`` computed by :func:`d_measure` (``DIN-nDCG``:
    D-nDCG with a navigational intent's gain at its first relevant document only); ``doc``
    by default says that formula."""
    din = of == "DIN-nDCG"
    measure = "D-nDCG" if din else of

    def kernel(ctx: DiversityContext, p: Params, k: int | None) -> np.ndarray:
        return _sharp(d_measure(ctx, measure, p, k, din=din), p["gamma"], ctx, k)

    register(name, cutoff="optional", params=params,
             doc=doc or f"γ·I-rec + (1 − γ)·{of}.", context="intents",
             formula=f"γ·I-rec@l + (1 − γ)·{of}@l", source=source)(kernel)


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
    return d_measure(ctx, "D-nDCG", p, k)


_declare_sharp("D#-nDCG", "D-nDCG", _ndcg_params(gamma=GAMMA),
               "γ·I-rec + (1 − γ)·D-nDCG (Sakai 2014, eq. 29; NTCIR INTENT).",
               "Sakai & Song 2011; NTCIREVAL")


@register("DIN-nDCG", cutoff="optional", params=_ndcg_params(),
          doc="D-nDCG crediting a navigational intent at its first relevant "
          "document only (eq. 32–33).",
          context="intents",
          formula="D-nDCG with a navigational intent's gain at its first relevant document only",
          source="Sakai 2012; NTCIREVAL")
def _din_ndcg(ctx, p, k):
    return d_measure(ctx, "D-nDCG", p, k, din=True)


_declare_sharp("DIN#-nDCG", "DIN-nDCG", _ndcg_params(gamma=GAMMA),
               "γ·I-rec + (1 − γ)·DIN-nDCG (Sakai, WWW 2012).", "Sakai 2012; NTCIREVAL")


@register("D-Q", cutoff="optional", params=Keywords(**_BR),
          doc="Q-measure over global gains (Sakai & Song 2011).",
          context="intents",
          formula="Q-measure over global gains: Σ_{GG(r)>0} BR(r) / min(l, R)",
          source="Sakai & Song 2011; NTCIREVAL")
def _dq(ctx, p, k):
    return d_measure(ctx, "D-Q", p, k)


_declare_sharp("D#-Q", "D-Q", Keywords(**_BR, gamma=GAMMA))


@register("D-nERR", cutoff="optional", params=Keywords(gain=GAIN),
          doc="nERR over global gains, R = GG/(h + 1) (NTCIREVAL's gcompute).",
          context="intents",
          formula="ERR@l / ideal ERR@l over global gains, R_r = GG(r)/(h + 1)",
          source="Sakai & Song 2011; NTCIREVAL")
def _dnerr(ctx, p, k):
    return d_measure(ctx, "D-nERR", p, k)


_declare_sharp("D#-nERR", "D-nERR", Keywords(gain=GAIN, gamma=GAMMA))


@register("D-P+", cutoff="optional", params=Keywords(**_BR),
          doc="P⁺ over global gains (NTCIREVAL's gcompute P-plus).",
          context="intents",
          formula="(1/C(rp)) Σ_{r≤rp, GG(r)>0} BR(r) over global gains",
          source="Sakai & Song 2011; NTCIREVAL")
def _dpplus(ctx, p, k):
    return d_measure(ctx, "D-P+", p, k)


_declare_sharp("D#-P+", "D-P+", Keywords(**_BR, gamma=GAMMA))


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


@register("PMP", params=Keywords(), cutoff="required",
          doc="Precision for the Most Popular Intent: a document counts when relevant to an "
          "intent of highest Pr(i|q), any of them on a tie (gold standard of Sakai's "
          "concordance test).",
          context="intents",
          formula="|{r ≤ l: d(r) relevant to some i with Pr(i|q) = max_j Pr(j|q)}| / l",
          source="Sakai & Song 2013 (Information Retrieval); Sakai 2014, footnote 13")
def _pmp(ctx, p, k):
    return most_popular_precision(ctx, k)


@register("EP", params=Keywords(), cutoff="required",
          doc="Effective precision: precision ignoring redundant relevant documents of "
          "navigational intents (gold standard of Sakai's concordance test).",
          context="intents",
          formula="|{r ≤ l: d(r) relevant to an informational intent, or isnew_j(r) for a "
          "navigational j}| / l",
          source="Sakai 2012; Sakai & Song 2013 (AIRS); Sakai 2014, footnote 12")
def _ep(ctx, p, k):
    return effective_precision(ctx, k)
