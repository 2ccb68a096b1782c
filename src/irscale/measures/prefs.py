"""Preference measures: trec_eval 9.0.8's ``prefs_*`` family (m_prefs_*.c), on preference
judgments (``-R prefs`` or ``-R qrels_prefs``; Carterette, Bennett, Chickering & Dumais,
"Here or There: Preference Judgments for Relevance", ECIR 2008; Carterette & Bennett,
"Evaluation Measures for Preference Judgments", SIGIR 2008).

Each family is a function of a topic's :class:`~irscale.core.prefs.TopicPrefs` (the context
``prefs``: preferences fulfilled and possible per judgment group, module
:mod:`irscale.core.prefs`). With F and P the fulfilled and possible preferences (P counts
the fulfilled ones too), split into *ret* (both documents retrieved), *imp* (one retrieved)
and *notoccur* (neither: possible, never fulfilled):

* prefs_num_prefs_poss = Σ_JG P_ret + P_imp + P_notoccur; prefs_num_prefs_ful = Σ_JG F_ret +
  F_imp; prefs_num_prefs_ful_ret = Σ_JG F_ret (integers, summed over topics);
* prefs_simp = ΣF / ΣP over every category; _ret: ret only; _imp: ret and imp;
* prefs_avgjg = (1/#JG) Σ_JG F_jg / P_jg (a JG with P = 0 adds 0; the value is 0 unless the
  sum is > 0); _ret and _imp as above;
* prefs_pair: the mean over document pairs that some JG orders of C[i,j] / (C[i,j] +
  C[j,i]), i ranked above j (C: the number of JGs preferring i to j); pairs of which
  neither is retrieved add 0; _ret: pairs both retrieved; _imp: pairs one at least retrieved;
* prefs_avgjg_Rnonrel (_ret): prefs_avgjg with the number of non-relevant documents of each
  JG set to R, its relevant ones (retrieved ones): with N ≤ R non-relevant, R·(R − N)
  fulfilled preferences are added for the retrieved relevant documents (and rel·(R − N)
  possible); with N > R the preferences are recounted with the first R non-relevant
  documents only.

A ratio with no possible preference is 0, as trec_eval leaves it. prefs_avgjg_Rnonrel
reproduces trec_eval's recount as written, quirks included: its EC form compares the
lowest class (the kept non-relevant documents) with itself, counting each pair possible
and the pairs in ranking order fulfilled; a JG with nothing possible makes the topic's sum
NaN, hence the value 0; the _ret variant adds ``num_rel`` (not ``num_rel_ret``) times
(R − N) possible preferences and keeps the first ``num_rel`` retrieved non-relevant
documents of a preference array. Where trec_eval would read past the lowest class (fewer
than R documents in it, when levels below 0 lie under the 0 class of a one-JSG group) its
value is undefined: the class is taken whole, with a warning.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from ..core.prefs import JudgmentGroupCounts, TopicPrefs
from .base import Family, declare
from .params import Keywords

#: trec_eval 9.0.8's measure sets of preference measures (measures.c), in table order.
ALL_PREFS = ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
             "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
             "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
             "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
             "prefs_avgjg_imp")
NICKNAMES: dict[str, tuple[str, ...]] = {
    "all_prefs": ALL_PREFS,
    "prefs": ALL_PREFS[:8],
}

Kernel = Callable[[TopicPrefs], float]


def _family(name: str, doc: str, formula: str, counts: bool = False) -> Callable[[Kernel],
                                                                                  Kernel]:
    def decorate(kernel: Kernel) -> Kernel:
        declare(Family(name, kernel, Keywords(), doc, aggregate="sum" if counts else "mean",
                       value_type="int" if counts else "float", context="prefs",
                       cutoff="none", formula=formula,
                       source=f"trec_eval 9.0.8 (m_{name}.c); Carterette & Bennett 2008"))
        return kernel
    return decorate


def _ratio(fulfilled: float, possible: float) -> float:
    return fulfilled / possible if possible else 0.0


def _full(g: JudgmentGroupCounts) -> tuple[int, int]:
    return (g.fulfilled_ret + g.fulfilled_imp,
            g.possible_ret + g.possible_imp + g.possible_notoccur)


def _implied(g: JudgmentGroupCounts) -> tuple[int, int]:
    return g.fulfilled_ret + g.fulfilled_imp, g.possible_ret + g.possible_imp


def _retrieved(g: JudgmentGroupCounts) -> tuple[int, int]:
    return g.fulfilled_ret, g.possible_ret


def _simple(t: TopicPrefs, part: Callable[[JudgmentGroupCounts], tuple[int, int]]) -> float:
    totals = [part(g) for g in t.groups]
    return _ratio(sum(f for f, _ in totals), sum(p for _, p in totals))


def _per_group(t: TopicPrefs, part: Callable[[JudgmentGroupCounts], tuple[int, int]]
               ) -> float:
    total = 0.0
    for g in t.groups:  # added in JG order, as trec_eval adds them
        total += _ratio(*part(g))
    return total / len(t.groups) if total > 0.0 else 0.0


def _pairs(t: TopicPrefs, retrieved: bool, implied: bool, notoccur: bool) -> float:
    """The mean pair ratio over the pairs of the kinds asked for (module documentation),
    added in trec_eval's order: pairs both retrieved, then one retrieved, row by row."""
    c, njr = t.counts, t.num_judged_ret
    ordered = (c > 0) | (c.T > 0)
    ratios = []
    count = 0
    if retrieved:
        i, j = np.nonzero(np.triu(ordered[:njr, :njr], 1))
        ratios.append(c[i, j] / (c[i, j] + c[j, i]))
        count += len(i)
    if implied:
        i, j = np.nonzero(ordered[:njr, njr:])
        j = j + njr
        ratios.append(c[i, j] / (c[i, j] + c[j, i]))
        count += len(i)
    if notoccur:
        count += int(np.count_nonzero(np.triu(ordered[njr:, njr:], 1)))
    values = np.concatenate(ratios)
    total = float(np.cumsum(values)[-1]) if len(values) else 0.0  # sequential, as in C
    return total / count if count else 0.0


@_family("prefs_num_prefs_poss", "Number of possible preferences, documents retrieved or "
         "not (summed over topics).", "Σ_JG P_ret + P_imp + P_notoccur", counts=True)
def num_prefs_poss(t: TopicPrefs) -> float:
    return float(sum(_full(g)[1] for g in t.groups))


@_family("prefs_num_prefs_ful", "Number of preferences fulfilled, implied ones included "
         "(summed over topics).", "Σ_JG F_ret + F_imp", counts=True)
def num_prefs_ful(t: TopicPrefs) -> float:
    return float(sum(_full(g)[0] for g in t.groups))


@_family("prefs_num_prefs_ful_ret", "Number of preferences fulfilled among retrieved "
         "documents (summed over topics).", "Σ_JG F_ret", counts=True)
def num_prefs_ful_ret(t: TopicPrefs) -> float:
    return float(sum(g.fulfilled_ret for g in t.groups))


@_family("prefs_simp", "Preferences fulfilled / preferences possible; a pair neither of "
         "whose documents is retrieved is a failure.", "ΣF / ΣP (ret + imp + notoccur)")
def simp(t: TopicPrefs) -> float:
    return _simple(t, _full)


@_family("prefs_pair", "Mean over judged document pairs of the share of JGs the ranking "
         "agrees with.", "mean over pairs of C[i,j] / (C[i,j] + C[j,i]), i above j")
def pair(t: TopicPrefs) -> float:
    return _pairs(t, True, True, True)


@_family("prefs_avgjg", "Fulfilled / possible per judgment group, averaged over groups.",
         "(1/#JG) Σ_JG F_jg / P_jg")
def avgjg(t: TopicPrefs) -> float:
    return _per_group(t, _full)


@_family("prefs_avgjg_Rnonrel", "prefs_avgjg with each group's non-relevant documents "
         "counted as many as its relevant ones (akin to bpref).",
         "(1/#JG) Σ_JG F'_jg / P'_jg, N non-relevant set to R")
def avgjg_rnonrel(t: TopicPrefs) -> float:
    return _rnonrel(t, retrieved_only=False)


@_family("prefs_simp_ret", "Preferences fulfilled / possible among retrieved documents.",
         "ΣF_ret / ΣP_ret")
def simp_ret(t: TopicPrefs) -> float:
    return _simple(t, _retrieved)


@_family("prefs_pair_ret", "prefs_pair over pairs of retrieved documents.",
         "mean over retrieved pairs of C[i,j] / (C[i,j] + C[j,i])")
def pair_ret(t: TopicPrefs) -> float:
    return _pairs(t, True, False, False)


@_family("prefs_avgjg_ret", "prefs_avgjg among retrieved documents.",
         "(1/#JG) Σ_JG F_ret / P_ret")
def avgjg_ret(t: TopicPrefs) -> float:
    return _per_group(t, _retrieved)


@_family("prefs_avgjg_Rnonrel_ret", "prefs_avgjg_Rnonrel among retrieved documents.",
         "(1/#JG) Σ_JG F'_ret / P'_ret, N_ret set to R_ret")
def avgjg_rnonrel_ret(t: TopicPrefs) -> float:
    return _rnonrel(t, retrieved_only=True)


@_family("prefs_simp_imp", "Preferences fulfilled / possible, pairs with neither document "
         "retrieved ignored.", "Σ(F_ret + F_imp) / Σ(P_ret + P_imp)")
def simp_imp(t: TopicPrefs) -> float:
    return _simple(t, _implied)


@_family("prefs_pair_imp", "prefs_pair over pairs with at least one document retrieved.",
         "mean over pairs (one retrieved) of C[i,j] / (C[i,j] + C[j,i])")
def pair_imp(t: TopicPrefs) -> float:
    return _pairs(t, True, True, False)


@_family("prefs_avgjg_imp", "prefs_avgjg, pairs with neither document retrieved ignored.",
         "(1/#JG) Σ_JG (F_ret + F_imp) / (P_ret + P_imp)")
def avgjg_imp(t: TopicPrefs) -> float:
    return _per_group(t, _implied)


# ------------------------------------------------------------------ prefs_avgjg_Rnonrel
def _divide(fulfilled: int, possible: int) -> float:
    """C's double division: 0/0 is NaN (which makes the topic's sum NaN, hence 0)."""
    return float(np.float64(fulfilled) / np.float64(possible)) if possible else (
        float("nan") if fulfilled == 0 else float("inf"))


def _rnonrel(t: TopicPrefs, retrieved_only: bool) -> float:
    total = 0.0
    for g in t.groups:
        rel = g.num_rel_ret if retrieved_only else g.num_rel
        nonrel = g.num_nonrel_ret if retrieved_only else g.num_nonrel
        if rel >= nonrel:
            ful, poss = _retrieved(g) if retrieved_only else _full(g)
            total += _divide(ful + g.num_rel_ret * (rel - nonrel),
                             poss + g.num_rel * (rel - nonrel))
        elif g.ec_ranks:
            total += _divide(*_recount_classes(g, t.num_judged_ret, retrieved_only))
        else:
            total += _divide(*_recount_array(g, t.num_judged, t.num_judged_ret,
                                             retrieved_only))
    return total / len(t.groups) if total > 0.0 else 0.0


def _recount_classes(g: JudgmentGroupCounts, njr: int, retrieved_only: bool
                     ) -> tuple[int, int]:
    """EC form (m_prefs_avgjg_Rnonrel*.c ``recalculate``): pairs of classes but the last,
    then every class (the last included) against the first R documents of the last."""
    classes = [r[r < njr] if retrieved_only else r for r in g.ec_ranks]
    keep = g.num_rel_ret if retrieved_only else g.num_rel
    if len(g.ec_ranks[-1]) < keep:
        warnings.warn("prefs_avgjg_Rnonrel: a judgment group has fewer documents at its "
                      f"lowest level ({len(g.ec_ranks[-1])}, below 0) than relevant ones "
                      f"({keep}): trec_eval 9.0.8 reads past its judgments there (its value "
                      "is undefined); irscale keeps the lowest level's documents",
                      stacklevel=2)
    kept = g.ec_ranks[-1][:keep]
    if retrieved_only:
        kept = kept[kept < njr]
    pairs = [(classes[a], classes[b]) for a in range(len(classes))
             for b in range(a + 1, len(classes) - 1)]
    pairs += [(cls, kept) for cls in classes]
    ful = miss = 0
    for first, second in pairs:
        won = first[:, None] < second[None, :]
        if not retrieved_only:
            won &= (first < njr)[:, None]
        ful += int(np.count_nonzero(won))
        miss += won.size - int(np.count_nonzero(won))
    return ful, miss + ful


def _recount_array(g: JudgmentGroupCounts, n_judged: int, njr: int, retrieved_only: bool
                   ) -> tuple[int, int]:
    """Preference-array form: the non-relevant documents after the first ``num_rel`` (in
    docid order; among the retrieved ones for _ret) are left out of the array."""
    assert g.ranked_prefer is not None and g.ranked_level is not None
    scope = njr if retrieved_only else n_judged
    nonrel = np.flatnonzero(g.ranked_level[:scope] == 0)
    cut = int(nonrel[g.num_rel]) if len(nonrel) > g.num_rel else scope
    keep = ~((np.arange(n_judged) >= cut) & (g.ranked_level == 0))
    a = g.ranked_prefer & keep[:, None] & keep[None, :]
    upper = np.triu(a[:njr, :njr], 1)
    ful = int(np.count_nonzero(upper))
    miss = int(np.count_nonzero(a[:njr, :njr])) - ful
    if not retrieved_only:
        ful += int(np.count_nonzero(a[:njr, njr:]))
        miss += int(np.count_nonzero(a[njr:, :]))
    return ful, miss + ful


__all__ = ["ALL_PREFS", "NICKNAMES"]
