"""trec_eval's binary-relevance families written with numpy: the oracle of the engine.

These are the numpy kernels irscale computed the families with before the native engine
(rust/src/measures/) took them over, kept here, trimmed, to check the engine against an
independent implementation (``tests/test_native_trec_measures.py``). Each function takes a
batch of judged rankings, the family's parameters as the catalogue parses them and an
:class:`~irscale.measures.base.EvalContext`, and returns ``{output name: values}``.

Sources: trec_eval 9.0.8 m_*.c (10.0 m_unjudged.c, and m_iprec_at_recall.c / m_11pt_avg.c
for compat 10). The vectorised forms are explained where they differ from the C loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.subsets import Subset, first_relevant_rank, pooled_documents, relevant_documents
from irscale.measures.arrays import c_divide, hits_at, safe_divide
from irscale.measures.base import EvalContext, FloatList

Outputs = dict[str, np.ndarray]
INFAP_EPSILON = 0.00001


def c_long(x: np.ndarray) -> np.ndarray:
    """C's ``(long) x`` for doubles: truncation towards zero."""
    return np.trunc(np.asarray(x, dtype=np.float64)).astype(np.int64)


def c_lround(x: np.ndarray) -> np.ndarray:
    """C's ``lround(x)``: nearest integer, halves away from zero."""
    x = np.asarray(x, dtype=np.float64)
    whole = np.trunc(x)
    fraction = x - whole  # exact
    return (whole + np.sign(x) * (np.abs(fraction) >= 0.5)).astype(np.int64)


# ------------------------------------------------------------------ counts
def counts(family: str) -> Callable[[JudgedRankings, Any, EvalContext], Outputs]:
    def kernel(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
        if family == "runid":
            return {}
        if family == "num_q":
            return {family: np.ones(jr.n_rankings, dtype=np.int64)}
        if family == "num_ret":
            return {family: jr.lengths.astype(np.int64)}
        if family == "num_rel":
            return {family: jr.num_rel.astype(np.int64)}
        if family == "num_rel_ret":
            return {family: jr.num_rel_ret.astype(np.int64)}
        pooled = pooled_documents(jr)
        judged = pooled.count(pooled.rel >= 0)
        return {family: (judged - jr.num_rel_ret).astype(np.int64)}

    return kernel


# ------------------------------------------------------------------ average precision
def ap_sum_at(jr: JudgedRankings, k: int) -> np.ndarray:
    """Per ranking: ``S(min(k, n))``, precision at the relevant ranks ≤ k added in rank order."""
    relevant = relevant_documents(jr)
    precision = relevant.position() / relevant.rank
    return relevant.total(np.where(relevant.rank <= k, precision, 0.0))


def average_precision(jr: JudgedRankings) -> np.ndarray:
    relevant = relevant_documents(jr)
    total = relevant.total(relevant.position() / relevant.rank)
    found = relevant.counts > 0
    out = np.zeros(jr.n_rankings)
    with np.errstate(divide="ignore", invalid="ignore"):
        out[found] = total[found] / jr.num_rel[found]
    return out


def map_(family: str) -> Callable[[JudgedRankings, Any, EvalContext], Outputs]:
    return lambda jr, params, ctx: {family: average_precision(jr)}


def map_cut(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext) -> Outputs:
    has_rel = jr.num_rel > 0
    out = {}
    for k in cutoffs:
        value = np.zeros(jr.n_rankings)
        value[has_rel] = ap_sum_at(jr, k)[has_rel] / jr.num_rel[has_rel]
        out[f"map_cut_{k}"] = value
    return out


# ------------------------------------------------------------------ bpref, infAP
def _judged_counts(jr: JudgedRankings) -> tuple[Subset, np.ndarray, np.ndarray]:
    pooled = pooled_documents(jr)
    judged = pooled.rel >= 0
    relevant = judged & (pooled.rel >= jr.relevance_level)
    return pooled, relevant, pooled.cumcount(judged & ~relevant)


def _divide_by_num_rel(jr: JudgedRankings, total: np.ndarray) -> np.ndarray:
    out = total.copy()
    has_rel = jr.num_rel > 0
    out[has_rel] = total[has_rel] / jr.num_rel[has_rel]
    return out


def bpref(family: str) -> Callable[[JudgedRankings, Any, EvalContext], Outputs]:
    def kernel(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
        pooled, relevant, nonrel_so_far = _judged_counts(jr)
        ranking = pooled.segment[relevant]
        num_rel, num_nonrel = jr.num_rel[ranking], jr.num_nonrel[ranking]
        above = nonrel_so_far[relevant]
        terms = np.ones(len(above))
        some = above > 0
        terms[some] = 1.0 - (
            np.minimum(above[some], num_rel[some]) / np.minimum(num_nonrel[some], num_rel[some])
        )
        total = np.bincount(ranking, weights=terms, minlength=jr.n_rankings)
        return {family: _divide_by_num_rel(jr, total)}

    return kernel


def infap(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
    pooled, relevant, nonrel_so_far = _judged_counts(jr)
    rel_so_far = pooled.cumcount(relevant)[relevant]
    unjudged_so_far = pooled.cumcount(pooled.rel == UNJUDGED)[relevant]
    nonrel_so_far = nonrel_so_far[relevant]
    fj = (pooled.rank[relevant] - 1).astype(np.float64)
    terms = np.ones(len(fj))
    later = fj > 0
    fj, r1 = fj[later], rel_so_far[later] - 1
    nr, unj = nonrel_so_far[later], unjudged_so_far[later]
    terms[later] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r1 + nr + unj) / fj) * (
        (r1 + INFAP_EPSILON) / ((r1 + nr) + 2 * INFAP_EPSILON)
    )
    total = np.bincount(pooled.segment[relevant], weights=terms, minlength=jr.n_rankings)
    return {"infAP": _divide_by_num_rel(jr, total)}


# ------------------------------------------------------------------ precision, recall
def precision(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext) -> Outputs:
    return {f"P_{k}": hits_at(jr, k) / k for k in cutoffs}


def relative_precision(jr: JudgedRankings, cutoffs: tuple[int, ...],
                       ctx: EvalContext) -> Outputs:
    has_rel = jr.num_rel > 0
    out = {}
    for k in cutoffs:
        value = np.zeros(jr.n_rankings)
        value[has_rel] = hits_at(jr, k)[has_rel] / np.minimum(k, jr.num_rel[has_rel])
        out[f"relative_P_{k}"] = value
    return out


def r_precision(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
    return {"Rprec": safe_divide(hits_at(jr, np.minimum(jr.lengths, jr.num_rel)), jr.num_rel)}


def r_precision_multiples(jr: JudgedRankings, multiples: tuple[float, ...],
                          ctx: EvalContext) -> Outputs:
    n = jr.lengths
    # C's rel_so_far in its reverse loop: num_rel_ret at the bottom, minus the documents
    # passing degree ≥ level below (shifted from the hits when a level ≤ -1 lets documents
    # outside the qrels pass)
    shift = jr.num_rel_ret - relevant_documents(jr).counts
    out = {}
    for x in multiples:
        cut = c_long(x * jr.num_rel.astype(np.float64) + 0.9)
        value = np.zeros(jr.n_rankings)
        beyond = cut > n
        value[beyond] = jr.num_rel_ret[beyond] / cut[beyond]
        inside = (cut >= 1) & ~beyond
        at_cut = np.where(inside, hits_at(jr, np.where(inside, cut, 0)) + shift, 0)
        reached = inside & (at_cut > 0)
        value[reached] = at_cut[reached] / cut[reached]
        out[f"Rprec_mult_{x:3.2f}"] = value
    return out


def recall(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext) -> Outputs:
    has_rel = jr.num_rel > 0
    out = {}
    for k in cutoffs:
        value = np.zeros(jr.n_rankings)
        value[has_rel] = hits_at(jr, k)[has_rel] / jr.num_rel[has_rel]
        out[f"recall_{k}"] = value
    return out


def success(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext) -> Outputs:
    return {f"success_{k}": (hits_at(jr, k) > 0).astype(np.float64) for k in cutoffs}


def reciprocal_rank(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
    return {"recip_rank": safe_divide(1.0, first_relevant_rank(jr))}


# ------------------------------------------------------------------ relstring
def relstring(jr: JudgedRankings, params: FloatList, ctx: EvalContext) -> Outputs:
    name = params.label("relstring")
    width = int(min(params.values[0], float(jr.lengths.max(initial=0))))
    if width == 0:
        return {name: np.full(jr.n_rankings, "", dtype=object)}
    table = np.where(np.arange(width) < jr.lengths[:, None], np.uint8(ord("-")), np.uint8(0))
    pooled = pooled_documents(jr)
    shown = pooled.rank <= width
    rel = pooled.rel[shown]
    codes = np.full(len(rel), ord("<"), dtype=np.uint8)
    digit = (rel >= 0) & (rel <= 9)
    codes[digit] = (ord("0") + rel[digit]).astype(np.uint8)
    codes[rel > 9] = ord(">")
    codes[rel == NONPOOL] = ord("-")
    codes[rel == UNJUDGED] = ord(".")
    table[pooled.segment[shown], pooled.rank[shown] - 1] = codes
    strings = table.view(f"S{width}").ravel().astype(str)
    return {name: strings.astype(object)}


# ------------------------------------------------------------------ interpolated precision
def relevant_counts(jr: JudgedRankings, levels: Sequence[float], compat: int) -> np.ndarray:
    product = np.multiply.outer(jr.num_rel.astype(np.float64), np.asarray(levels, dtype=float))
    if compat >= 10:
        return c_lround(product)
    return c_long(product + 0.9)


class _Interpolation:
    """Interpolated precision at the documents passing the level (all of them scanned for
    a level ≤ -1), from the bottom up, as C's reverse loop sees them."""

    def __init__(self, jr: JudgedRankings) -> None:
        scanned = relevant_documents(jr) if jr.relevance_level >= 0 else pooled_documents(jr)
        passing = scanned.rel >= jr.relevance_level
        n_rel = scanned.count(passing)
        rel_ret = jr.num_rel_ret
        self.shift = rel_ret - n_rel
        so_far = scanned.cumcount(passing) + self.shift[scanned.segment]
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = so_far / scanned.rank
        self.interpolated = scanned.scan(precision, np.maximum, -np.inf, reverse=True)
        self.rel_ret = rel_ret
        self.relevant_positions = np.flatnonzero(passing)
        self.relevant_start = np.concatenate(([0], np.cumsum(n_rel)[:-1]))
        empty_value = c_divide(rel_ret, jr.lengths)
        best = scanned.first(self.interpolated, 0.0)
        self.best_anywhere = np.where(rel_ret >= 1, best, empty_value)

    def at_count(self, count: np.ndarray, rows: np.ndarray) -> np.ndarray:
        index = count - self.shift[rows]
        position = self.relevant_positions[self.relevant_start[rows] + index - 1]
        return self.interpolated[position]


def interpolated_precision(jr: JudgedRankings, counts: np.ndarray) -> np.ndarray:
    """``rankings × levels`` values trec_eval assigns for the relevant-document counts
    ``counts`` (levels visited from the last to the first, as in the C loop)."""
    data = _Interpolation(jr)
    n_rankings, n_levels = counts.shape
    values = np.zeros((n_rankings, n_levels))
    started = np.zeros(n_rankings, dtype=bool)
    stuck = np.zeros(n_rankings, dtype=bool)
    bound = data.rel_ret.copy()
    for t in range(n_levels - 1, -1, -1):
        count = counts[:, t]
        started |= count <= data.rel_ret
        live = started & ~stuck
        met = live & (count >= 1) & (count <= bound)
        rows = np.flatnonzero(met)
        values[rows, t] = data.at_count(count[rows], rows)
        bound[rows] = count[rows]
        stuck |= live & ~met
        values[stuck, t] = data.best_anywhere[stuck]
    return values


def iprec_at_recall(jr: JudgedRankings, levels: tuple[float, ...], ctx: EvalContext) -> Outputs:
    values = interpolated_precision(jr, relevant_counts(jr, levels, ctx.compat))
    return {f"iprec_at_recall_{x:3.2f}": values[:, t] for t, x in enumerate(levels)}


def eleven_point_average(jr: JudgedRankings, levels: FloatList, ctx: EvalContext) -> Outputs:
    values = interpolated_precision(jr, relevant_counts(jr, levels.values, ctx.compat))
    total = np.zeros(jr.n_rankings)
    for t in range(values.shape[1] - 1, -1, -1):
        total = total + values[:, t]
    return {levels.label("11pt_avg"): total / values.shape[1]}


# ------------------------------------------------------------------ set measures
def _counts(jr: JudgedRankings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (jr.lengths.astype(np.float64), jr.num_rel_ret.astype(np.float64),
            jr.num_rel.astype(np.float64))


def set_measure(family: str) -> Callable[[JudgedRankings, Any, EvalContext], Outputs]:
    def kernel(jr: JudgedRankings, params: Any, ctx: EvalContext) -> Outputs:
        n, r, big_r = _counts(jr)
        value = {"set_P": lambda: safe_divide(r, n),
                 "set_recall": lambda: safe_divide(r, big_r),
                 "set_relative_P": lambda: safe_divide(r, np.minimum(n, big_r)),
                 "set_map": lambda: safe_divide(r * r, n * big_r)}[family]()
        return {family: value}

    return kernel


def set_f(jr: JudgedRankings, params: FloatList, ctx: EvalContext) -> Outputs:
    n, r, big_r = _counts(jr)
    beta = params.values[0]
    value = np.zeros(jr.n_rankings)
    ok = r > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        p = r[ok] / n[ok]
        rc = r[ok] / big_r[ok]
        value[ok] = (beta + 1.0) * p * rc / (beta * p + rc)
    return {params.label("set_F"): value}


def utility(jr: JudgedRankings, params: FloatList, ctx: EvalContext) -> Outputs:
    a, b, c, d = params.values
    n, r, big_r = jr.lengths, jr.num_rel_ret, jr.num_rel
    docs = int(ctx.num_docs_in_coll)
    with np.errstate(over="ignore", invalid="ignore"):
        value = (a * r + b * (n - r)) + c * (big_r - r)
        value = value + d * (docs + r - n - big_r)
    return {params.label("utility"): value.astype(np.float64)}


# ------------------------------------------------------------------ unjudged
def unjudged(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext) -> Outputs:
    pooled = pooled_documents(jr)
    judged = pooled.rel >= 0
    return {f"unj_{k}": (np.minimum(jr.lengths, k) - pooled.count(judged, k)) / k
            for k in cutoffs}


#: The oracle of every family, by name.
ORACLES: dict[str, Callable[[JudgedRankings, Any, EvalContext], Outputs]] = {
    **{name: counts(name) for name in ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret",
                                        "num_nonrel_judged_ret")},
    "map": map_("map"), "gm_map": map_("gm_map"), "map_cut": map_cut,
    "bpref": bpref("bpref"), "gm_bpref": bpref("gm_bpref"), "infAP": infap,
    "P": precision, "relative_P": relative_precision, "Rprec": r_precision,
    "Rprec_mult": r_precision_multiples, "recall": recall, "success": success,
    "recip_rank": reciprocal_rank, "relstring": relstring,
    "iprec_at_recall": iprec_at_recall, "11pt_avg": eleven_point_average,
    **{name: set_measure(name) for name in ("set_P", "set_recall", "set_relative_P",
                                            "set_map")},
    "set_F": set_f, "utility": utility, "unj": unjudged,
}
