"""Set and rank-based binary measures of the papers: AP with the ``min(l, R)`` depth variant,
11-point interpolated AP, F_β and E (Sakai 2014, §2.1–2.2 eq. 1–10; Ferro & Maistro 2024, §3.1–3.3
eq. 1–4).

With ``C(r)`` the relevant documents (degree ≥ ``rel``) in the top r, R the topic's relevant
documents, n the documents retrieved and k a cut-off::

    AP              = (1/R) Σ_r I(r) C(r)/r                        (eq. 9; trec_eval's map)
    AP(norm=min)@l  = (1/min(l, R)) Σ_{r≤l} I(r) C(r)/r             (eq. 10; NTCIREVAL's AP@l)
    AP(norm=R)@l    = (1/R) Σ_{r≤l} I(r) C(r)/r                     (trec_eval's map_cut)
    AP11            = (1/11) Σ_{i ∈ {0, .1, ..., 1}} IP_i,
                      IP_i = max_{r: C(r) ≥ i·R} C(r)/r  (0 when no rank reaches recall i)
                                                       (eq. 7–8; Ferro & Maistro 2024, eq. 3)
    F_β  = (β² + 1)·P·Rec / (β²·P + Rec) = (β² + 1)·h / (β²·R + m)   (eq. 5)
    E_β  = 1 − F_β                                                    (eq. 1–4)

where, for F and E, h is the relevant retrieved documents and m = n (set measures) or, with
a cut-off, h = C(k) and m = k (precision and recall at k, Ferro & Maistro 2024, eq. 2); F = 0 when
h = 0. Sakai (2014), eq. 7 writes ``Rec(r) > i``; the strict inequality would make IP_1 = 0
always, so the ``≥`` of Ferro & Maistro (2024), eq. 3 (and of trec_eval) is used, with the exact
integer test ``C(r) ≥ ⌈i·R⌉``. trec_eval's set_F takes β² as its parameter (``set_F.1`` is F_1,
``set_F.4`` is F_2); ``F(beta=2)`` is F_2. AP and AP(norm=R)@l are trec_eval's map and
map_cut bit for bit (same kernels).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.kernels import trec_family
from .arrays import f_weights, hits_at, safe_divide
from .base import EvalContext, register
from .params import CUTOFF, Keyword, Keywords, Params, choice, number, only_with

BETA_F = Keyword(number(low=0.0), 1.0, "β: recall is β times as important as precision")


@register(
    "AP",
    doc="Average precision; @l with norm=min divides by min(l, R) (Sakai's eq. 10, "
    "NTCIREVAL's AP@l), with norm=R by R (trec_eval's map_cut).",
    params=Keywords(norm=Keyword(choice("R", "min"), "R",
                                 "divisor with a cut-off l: R (trec_eval) or min (min(l, R))"),
                    cutoff=CUTOFF).checked(
        only_with("norm", lambda p: p["cutoff"] is not None, "with a cut-off (AP(norm=min)@l)")),
    formula="(1/R) Σ_{relevant r ≤ l} P@r; norm=min: / min(l, R)",
    source="Sakai: NTCIREVAL (AP@l); trec_eval (map_cut)",
)
def ap(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    k = params["cutoff"]
    if k is None:
        return {"AP": np.asarray(trec_family("map", jr)["map"])}
    total = np.asarray(trec_family("map_cut_sum", jr, ints=(k,))[f"map_cut_sum_{k}"])
    denominator = jr.num_rel if params["norm"] == "R" else np.minimum(k, jr.num_rel)
    return {"AP": safe_divide(total, denominator)}


@register(
    "AP11",
    doc="11-point interpolated average precision: mean interpolated precision at recall "
    "0, 0.1, ..., 1 (Sakai 2014, eq. 7–8, Ferro & Maistro 2024, eq. 3).",
    params=Keywords(),
    formula="(1/11) Σ_{x ∈ {0, 0.1, …, 1}} iprec(x)",
    source="van Rijsbergen 1979; TREC",
)
def ap11(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    # C(r) ≥ (t/10)·R  ⟺  C(r) ≥ ceil(t·R/10), in integers (trec_eval's reverse loop)
    levels = trec_family("iprec_at_tenths", jr, ints=range(11)).values()
    values = np.nan_to_num(np.column_stack([np.asarray(v) for v in levels]), nan=0.0)
    return {"AP11": values.sum(axis=1) / 11.0}


def f_measure(jr: JudgedRankings, beta: float, cutoff: int | None) -> np.ndarray:
    """Per ranking: F_β of the retrieved set, or of the first ``cutoff`` documents."""
    if cutoff is None:
        hits, size = jr.num_rel_ret, jr.lengths
    else:
        hits, size = hits_at(jr, cutoff), np.full(jr.n_rankings, cutoff)
    a, b = f_weights(beta)  # (β² + 1)·hits / (β²·R + size), with no overflow of β²
    return safe_divide(hits, a * jr.num_rel + b * size)


@register(
    "F",
    doc="F-measure (β² + 1)·P·R / (β²·P + R) of the retrieved set or of the top k "
    "(van Rijsbergen; Sakai 2014, eq. 5).",
    params=Keywords(beta=BETA_F, cutoff=CUTOFF),
    formula="(β² + 1)·P·R / (β²·P + R)",
    source="van Rijsbergen 1979",
)
def f(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"F": f_measure(jr, params["beta"], params["cutoff"])}


@register(
    "E",
    doc="E-measure 1 − F_β of the retrieved set or of the top k (van Rijsbergen; Sakai 2014, "
    "eq. 1–4).",
    params=Keywords(beta=BETA_F, cutoff=CUTOFF),
    formula="1 − F_β",
    source="van Rijsbergen 1979",
)
def e(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"E": 1.0 - f_measure(jr, params["beta"], params["cutoff"])}
