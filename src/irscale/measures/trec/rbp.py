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
checked against hand computations from the 10.0 source (tests/test_trec_ndcg.py). Computed
by the engine (``rust/src/measures/rbp.rs``).
"""

from __future__ import annotations

from ...errors import MeasureError
from ..base import GainPairs, Range
from ..native import Native, declare_native, typed_label

TYPE_CHECKING = False

if TYPE_CHECKING:
    from ..base import GainParams

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


def rbp_persistence(params: GainParams) -> tuple[float]:
    """rbp's engine parameter: ``(p,)``."""
    return (persistence(params, "rbp"),)


def resid_persistence(params: GainParams) -> tuple[float]:
    """rbp_resid's engine parameter ``(p,)``; it takes no gain map."""
    if params.pairs:
        raise MeasureError(f"measure 'rbp_resid' takes only p=<persistence>, got {params.text!r}")
    return (persistence(params, "rbp_resid"),)


declare_native(
    "rbp",
    Native(floats=rbp_persistence, label=typed_label),
    doc="Rank-biased precision (1 − p) Σ gain_i p^(i−1), gains min-max normalised to [0, 1] "
    "per topic when outside it (trec_eval 10.0 m_rbp.c; parameters p=0.9 and level=gain).",
    params=GainPairs(names=("p",), valid=_P_RANGE),
    missing_value=0.0,
    formula="(1 − p) Σ_i p^(i−1) g_i, gains min-max normalised to [0, 1]",
    source="Moffat & Zobel 2008; trec_eval 10.0 (m_rbp.c)",
)


declare_native(
    "rbp_resid",
    Native(floats=resid_persistence, label=typed_label),
    doc="RBP residual: p^n + (1 − p) Σ_{unjudged i} p^(i−1), 0 when every retrieved "
    "document is judged (trec_eval 10.0 m_rbp_resid.c; parameter p=0.9).",
    params=GainPairs(names=("p",), valid=_P_RANGE),
    missing_value=0.0,
    formula="p^n + (1 − p) Σ_{unjudged i ≤ n} p^(i−1)",
    source="Moffat & Zobel 2008; trec_eval 10.0 (m_rbp_resid.c)",
)
