"""Condensed-list measures and the bpref family of Sakai (SIGIR 2007; Sakai 2014, §2.2
"Condensed-list Metrics", eq. 21–23; NTCIREVAL ``label -j`` / ``compute -j``).

The *condensed list* of a ranking drops its unjudged documents (not in the qrels, or judged
negative) and moves the judged ones up (:meth:`JudgedRankings.condensed`). Any measure M
has a condensed version M′: the generic parameter ``condensed=1`` (alias ``judged_only=1``)
of every name evaluates it on the condensed lists, e.g. ``AP(condensed=1)`` (AP′ =
induced AP, eq. 21), ``nDCG(condensed=1)@10``, ``Q(condensed=1)``; the cut-off applies to the
condensed list. (trec_eval's ``-J`` does the same for every measure of a run.)

With r′ the rank in the condensed list, ``C(r′)`` its relevant documents up to r′ (so that
``r′ − C(r′)`` is the number of judged non-relevant documents above), R the relevant and N
the judged non-relevant documents of the topic::

    bpref_R = (1/R) Σ_{r′} I(r′) (1 − min(R, r′ − C(r′)) / R)      (eq. 22)
    bpref_N = (1/R) Σ_{r′} I(r′) (1 − (r′ − C(r′)) / N)            (eq. 23)

trec_eval's bpref divides by ``min(R, N)`` (it is bpref_R when R ≤ N and bpref_N when
R ≥ N). With N = 0 no judged non-relevant document can precede a relevant one and every
term of bpref_N is 1. 0 when R = 0. These measures are always computed on the condensed
lists.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .arrays import safe_divide
from .base import EvalContext, register
from .params import Keywords, Params


def bpref_variant(jr: JudgedRankings, divisor: np.ndarray, capped: bool) -> np.ndarray:
    """Per ranking: (1/R) Σ_{relevant r′} (1 − a(r′)/D) on the condensed lists, with
    a(r′) = r′ − C(r′) (capped at D when ``capped``) and D the per-topic ``divisor``."""
    condensed = jr.condensed()
    above = (condensed.rank - condensed.cum_relevant).astype(np.float64)
    per_doc = np.repeat(np.asarray(divisor, dtype=np.float64), condensed.lengths)
    if capped:
        above = np.minimum(above, per_doc)
    terms = np.where(condensed.is_relevant, 1.0 - safe_divide(above, per_doc), 0.0)
    return safe_divide(condensed.segment_sum(terms), condensed.num_rel)


@register(
    "bpref_R",
    doc="bpref_R: (1/R) Σ over the relevant documents of the condensed list of "
    "1 − min(R, judged non-relevant above)/R (Sakai 2007; Sakai 2014, eq. 22).",
    params=Keywords(),
    missing_value=0.0,
    formula="(1/R) Σ_{relevant d of the condensed list} (1 − min(R, n_d)/R)",
    source="Sakai 2007",
)
def bpref_r(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"bpref_R": bpref_variant(jr, jr.num_rel, capped=True)}


@register(
    "bpref_N",
    doc="bpref_N: (1/R) Σ over the relevant documents of the condensed list of "
    "1 − (judged non-relevant above)/N (Sakai 2007; Sakai 2014, eq. 23; RankEff).",
    params=Keywords(),
    missing_value=0.0,
    formula="(1/R) Σ_{relevant d of the condensed list} (1 − n_d/N)",
    source="Sakai 2007",
)
def bpref_n(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"bpref_N": bpref_variant(jr, jr.num_nonrel, capped=False)}
