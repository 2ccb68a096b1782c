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

* ``given`` — any transition matrix P over the ranks 1..N, given by its invariant
  distribution ``pi=π1:π2:...:πN`` (up to a factor): for an irreducible chain, the chain
  watched only on 𝓡 (the stochastic complement of P on 𝓡) has as invariant distribution π
  restricted to 𝓡 and renormalised (Meyer 1989), so π is all MP needs of P.
  :func:`irscale.measures.calibrate` estimates P from the moves between the clicks of a
  log, as Ferrante et al. propose, and writes this π. A ranking longer than N documents is
  an error (evaluate it with a cut-off, ``MP(...)@N``).

``recall=1`` multiplies by the recall |𝓡| / R, the scaling that turns the uniform model
into AP. 0 when no relevant document is retrieved.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .arrays import safe_divide
from .base import EvalContext, register
from .params import (
    Keyword,
    Keywords,
    Params,
    choice,
    flag,
    number,
    numbers,
    only_with,
    optional,
)


def stationary_weights(jr: JudgedRankings, model: str, alpha: float,
                       pi: tuple[float, ...] | None = None) -> np.ndarray:
    """Per document: the unnormalised invariant probability of its rank."""
    if model == "uniform":
        return np.ones(len(jr.rel))
    if model == "given":
        assert pi is not None  # _needs_pi
        longest = int(jr.lengths.max(initial=0))
        if longest > len(pi):
            raise MeasureError(f"measure 'MP': pi gives {len(pi)} ranks but a ranking has "
                               f"{longest} documents; use a cut-off (MP(...)@{len(pi)})")
        return np.asarray(pi, dtype=np.float64)[jr.rank - 1]
    longest = int(jr.lengths.max(initial=0))
    harmonic = np.concatenate(([0.0], np.cumsum(np.arange(1, longest + 1,
                                                          dtype=np.float64) ** -alpha)))
    n = np.repeat(jr.lengths, jr.lengths)
    return harmonic[jr.rank - 1] + harmonic[n - jr.rank]


def _needs_pi(params: Params, family: str) -> None:
    if params["model"] == "given" and params["pi"] is None:
        raise MeasureError(f"measure {family!r}: model=given needs pi=π1:π2:... (the "
                           "invariant distribution of the chain over the ranks)")


@register(
    "MP",
    doc="Markov precision Σ π_i Prec(i) over the relevant retrieved ranks, π the invariant "
    "distribution of a user's Markov chain restricted to them (Ferrante et al. 2014; "
    "Ferro & Maistro 2024, eq. 18).",
    params=Keywords(
        model=Keyword(choice("uniform", "distance", "given"), "distance",
                      "transition model: uniform among relevant documents, distance, or "
                      "given (by its invariant distribution pi)"),
        alpha=Keyword(number(low=0.0), 1.0, "distance model: P(i→j) ∝ |i − j|^(−alpha)"),
        pi=Keyword(optional(numbers(low=0.0)), None,
                   "model=given: invariant distribution of the chain over ranks 1, 2, ... "
                   "(π1:π2:..., up to a factor; irscale.measures.calibrate)"),
        recall=Keyword(flag, False, "multiply by the recall (uniform model: AP)"),
    ).checked(only_with("alpha", lambda p: p["model"] == "distance", "with model=distance"),
              only_with("pi", lambda p: p["model"] == "given", "with model=given"),
              _needs_pi),
    missing_value=0.0,
    formula="Σ_i π_i·P@i over the relevant retrieved ranks i, π the invariant distribution of the "
            "user's Markov chain",
    source="Ferrante, Ferro & Maistro 2014",
)
def markov_precision(jr: JudgedRankings, params: Params,
                     ctx: EvalContext) -> dict[str, np.ndarray]:
    relevant = jr.is_relevant & jr.is_judged
    weights = np.where(relevant, stationary_weights(jr, params["model"], params["alpha"],
                                                               params["pi"]), 0.0)
    precision = jr.cum_relevant / jr.rank
    value = safe_divide(jr.segment_sum(weights * precision), jr.segment_sum(weights))
    if params["recall"]:
        value = value * safe_divide(jr.num_rel_ret, jr.num_rel)
    return {"MP": value}
