"""Rank-biased precision and its residual (trec_eval 10.0 m_rbp.c, m_rbp_resid.c; not in
9.0.8). Moffat & Zobel, "Rank-biased precision for measurement of retrieval
effectiveness", ACM TOIS 27(1), 2008.

Parameters, as trec_eval 10.0: ``p=<persistence>`` (default 0.9; here it must lie in
(0, 1)) and, for rbp only, ``level=gain`` pairs, e.g. ``rbp.p=0.8,1=1,2=3``. With ranks
``i`` from 1 and ``n`` retrieved documents::

    rbp       = (1 − p) Σ_{i=1..n} gain(d_i) · p^(i−1)
    rbp_resid = p^n + (1 − p) Σ_{i: d_i not judged} p^(i−1)   if some d_i is not judged,
                0 otherwise

*Gains of rbp.* The topic's gain table is trec_eval's (:mod:`irscale.measures.trec.gains`:
``level=gain`` parameters, then gain = degree for the other levels below the topic's
highest degree + 1). When some entry of the table lies outside [0, 1], every entry is
min-max normalised, ``(g − min) / (max − min)``, per topic — so with default gains a
topic judged 0/1/2 uses gains 0, 0.5, 1 and a topic judged 0/1 gains 0, 1. Levels outside
the table (documents not in the qrels, or pooled but unjudged, unless given a gain) gain 0.
trec_eval 10.0 leaves ``min`` and ``max`` uninitialised before that loop (undefined
behaviour); we take them over the table's entries, which equals a zero initialisation
whenever the table holds a gain of 0 (any topic with judged level 0 and default gains).

*rbp_resid* is the largest possible increase of rbp if every unjudged retrieved document
(not in the qrels, or pooled but unjudged) and every unretrieved rank had gain 1. Quirk
reproduced: it is 0, not ``p^n``, when every retrieved document is judged. Powers of
``p`` are formed by repeated multiplication, as trec_eval does.

No reference implementation of trec_eval 10.0 is installed for testing: the values are
checked against hand computations from the 10.0 source (tests/test_trec_ndcg.py).
"""

from __future__ import annotations

import numpy as np

from ...core.identifiers import unique_integers
from ...core.judged import JudgedRankings
from ...errors import MeasureError
from ..base import EvalContext, GainPairs, GainParams, Range, register
from .gains import num_rel_levels

DEFAULT_PERSISTENCE = 0.9
_P_RANGE = (("p", Range("the persistence p", low=0.0, high=1.0, open_low=True,
                        open_high=True)),)


def persistence(params: GainParams, family: str) -> float:
    """The ``p`` parameter (the last one given, as trec_eval), default 0.9."""
    values = [value for name, value in params.extra if name == "p"]
    p = values[-1] if values else DEFAULT_PERSISTENCE
    if not 0.0 < p < 1.0:
        raise MeasureError(f"measure {family!r}: the persistence p must lie in (0, 1), got {p}")
    return p


def powers(p: float, n: int) -> np.ndarray:
    """``[p^0, p^1, ..., p^n]`` by repeated multiplication (trec_eval's ``cur_p *= p``)."""
    return np.cumprod(np.concatenate(([1.0], np.full(n, p))))


def rbp_gains(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    """Per element: the document's gain in trec_eval 10.0's normalised rbp gain table.

    The table of a topic with ``L`` levels holds the parameters' levels and every level
    ``0 ≤ v < L`` (gain ``v`` unless given); its lowest and highest gains are found without
    listing the ``L`` levels, so that a label of 10,000,000 costs nothing more.
    """
    levels_of_ranking = num_rel_levels(jr.rel_levels, jr.column_degrees)
    levels_of_element = levels_of_ranking[jr.segment]
    given_levels = np.array([level for level, _ in params.pairs], dtype=np.int64)
    given_gains = np.array([gain for _, gain in params.pairs], dtype=np.float64)
    given_set = set(given_levels.tolist())
    gains = np.zeros(len(jr.rel))
    for num_levels in unique_integers(levels_of_ranking).tolist():
        low, high = 0, num_levels - 1  # the smallest and largest default levels not given
        while low in given_set:
            low += 1
        while high in given_set:
            high -= 1
        table = given_gains.tolist() + ([float(low), float(high)] if low <= high else [])
        if not table:
            continue
        smallest, largest = min(table), max(table)
        members = levels_of_element == num_levels
        rel = jr.rel[members]
        entry = (rel >= 0) & (rel < num_levels)
        gain = np.where(entry, rel, 0).astype(np.float64)
        for level, value in zip(given_levels.tolist(), given_gains.tolist(), strict=True):
            at = rel == level
            gain[at] = value
            entry |= at
        if smallest < 0 or largest > 1:
            # as C: gains ±1e308 overflow to inf and 0/0 or inf/inf is NaN, no warning
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                gain = (gain - smallest) / (largest - smallest)
        gains[members] = np.where(entry, gain, 0.0)
    return gains


@register(
    "rbp",
    doc="Rank-biased precision (1 − p) Σ gain_i p^(i−1), gains min-max normalised to [0, 1] "
    "per topic when outside it (trec_eval 10.0 m_rbp.c; parameters p=0.9 and level=gain).",
    params=GainPairs(names=("p",), valid=_P_RANGE),
    missing_value=0.0,
    formula="(1 − p) Σ_i p^(i−1) g_i, gains min-max normalised to [0, 1]",
    source="Moffat & Zobel 2008; trec_eval 10.0 (m_rbp.c)",
)
def rbp(jr: JudgedRankings, params: GainParams, ctx: EvalContext) -> dict[str, np.ndarray]:
    p = persistence(params, "rbp")
    weights = powers(p, int(jr.lengths.max(initial=0)))
    total = jr.segment_sum(rbp_gains(jr, params) * weights[jr.rank - 1])
    return {params.label("rbp"): (1.0 - p) * total}


@register(
    "rbp_resid",
    doc="RBP residual: p^n + (1 − p) Σ_{unjudged i} p^(i−1), 0 when every retrieved "
    "document is judged (trec_eval 10.0 m_rbp_resid.c; parameter p=0.9).",
    params=GainPairs(names=("p",), valid=_P_RANGE),
    missing_value=0.0,
    formula="p^n + (1 − p) Σ_{unjudged i ≤ n} p^(i−1)",
    source="Moffat & Zobel 2008; trec_eval 10.0 (m_rbp_resid.c)",
)
def rbp_resid(jr: JudgedRankings, params: GainParams, ctx: EvalContext) -> dict[str, np.ndarray]:
    if params.pairs:
        raise MeasureError(f"measure 'rbp_resid' takes only p=<persistence>, got {params.text!r}")
    p = persistence(params, "rbp_resid")
    weights = powers(p, int(jr.lengths.max(initial=0)))
    unjudged = jr.rel < 0
    total = jr.segment_sum(np.where(unjudged, weights[jr.rank - 1], 0.0))
    value = weights[jr.lengths] + (1.0 - p) * total
    return {params.label("rbp_resid"): np.where(jr.segment_sum(unjudged) > 0, value, 0.0)}
