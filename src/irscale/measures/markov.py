"""Markov precision (Ferrante, Ferro & Maistro, SIGIR 2014; Ferro & Maistro 2024, §5.1 eq. 18).

The user moves among the ranks of the result list as a Markov chain (skipping documents,
going back, revisiting); π is the invariant distribution of the chain *restricted to the
relevant retrieved documents* (watched only when it visits them), and::

    MP = Σ_{i ∈ 𝓡} π_i · Prec(i)                            (eq. 18)

with 𝓡 the ranks of the relevant retrieved documents and Prec(i) = C(i)/i. Transition
models (``model``), over the n retrieved ranks:

* ``uniform`` — from a relevant document the user jumps to any other relevant one with
  equal probability: π is uniform on 𝓡 and MP is the mean precision at the relevant ranks
  (with ``recall=1``, exactly AP: Ferrante et al.'s reading of AP as a user model);
* ``distance`` — from rank i the user moves to rank j ≠ i with probability proportional to
  ``|i − j|^(−α)`` (``alpha``, default 1: nearby documents are likelier). The weights are
  symmetric, so the chain is reversible with ``π_i ∝ Σ_{j≠i} |i − j|^(−α)``, and the chain
  restricted to 𝓡 has the invariant distribution π restricted to 𝓡, renormalised.

``recall=1`` multiplies by the recall |𝓡| / R, the scaling that turns the uniform model
into AP. 0 when no relevant document is retrieved.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .arrays import safe_divide
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, choice, flag, number, only_with


def stationary_weights(jr: JudgedRankings, model: str, alpha: float) -> np.ndarray:
    """Per document: the unnormalised invariant probability of its rank."""
    if model == "uniform":
        return np.ones(len(jr.rel))
    longest = int(jr.lengths.max(initial=0))
    harmonic = np.concatenate(([0.0], np.cumsum(np.arange(1, longest + 1,
                                                          dtype=np.float64) ** -alpha)))
    n = np.repeat(jr.lengths, jr.lengths)
    return harmonic[jr.rank - 1] + harmonic[n - jr.rank]


@register(
    "MP",
    doc="Markov precision Σ π_i Prec(i) over the relevant retrieved ranks, π the invariant "
    "distribution of a user's Markov chain restricted to them (Ferrante et al. 2014; "
    "Ferro & Maistro 2024, eq. 18).",
    params=Keywords(
        model=Keyword(choice("uniform", "distance"), "distance",
                      "transition model: uniform among relevant documents, or distance"),
        alpha=Keyword(number(low=0.0), 1.0, "distance model: P(i→j) ∝ |i − j|^(−alpha)"),
        recall=Keyword(flag, False, "multiply by the recall (uniform model: AP)"),
    ).checked(only_with("alpha", lambda p: p["model"] == "distance", "with model=distance")),
    missing_value=0.0,
    formula="Σ_i π_i·P@i over the relevant retrieved ranks i, π the invariant distribution of the "
            "user's Markov chain",
    source="Ferrante, Ferro & Maistro 2014",
)
def markov_precision(jr: JudgedRankings, params: Params,
                     ctx: EvalContext) -> dict[str, np.ndarray]:
    relevant = jr.is_relevant & jr.is_judged
    weights = np.where(relevant, stationary_weights(jr, params["model"], params["alpha"]), 0.0)
    precision = jr.cum_relevant / jr.rank
    value = safe_divide(jr.segment_sum(weights * precision), jr.segment_sum(weights))
    if params["recall"]:
        value = value * safe_divide(jr.num_rel_ret, jr.num_rel)
    return {"MP": value}
