"""Diversity U-measures over trailtexts: ``D-U`` and ``U-IA`` (Sakai & Dou, SIGIR 2013;
Sakai (2014), §3.1 eq. 30–31).

Both read a ranked list as the catalogue's U-measure does (:mod:`irscale.measures.umeasure`:
linear traversal, the snippet of every document — ``snippet`` characters — and the first
``F`` of every document read, the gain of a document credited where its text ends,
``D(pos) = max(0, 1 − pos/L)``, document lengths in characters from a label set), with the
same parameters (``L``, ``snippet``, ``F``, ``norm``, ``gain``, ``lengths``, ``deflen``):

* ``U-IA = Σ_i Pr(i|q) · U_i`` (eq. 31), ``U_i`` the U-measure of the *local* trailtext of
  intent i: the user with intent i reads the documents relevant to i, and gains their
  local gains ``g_i``. It is ``IA(U(...))`` (:mod:`.intent_aware`).
* ``D-U = (1/𝒩) Σ_k g(pos_k) · D(pos_k)`` with the position-based *global* gain
  ``g(pos) = Σ_i Pr(i|q) · g_i(pos)`` (eq. 30 in eq. 19): one trailtext, in which the user
  reads every document with a positive global gain, so that at rank k
  ``pos_k = k · snippet + F · Σ_{j ≤ k, g(j) > 0} len(j)``.

Intents, probabilities and judgments follow :mod:`.intent_aware` (intents with a relevant
document; uniform ``Pr(i|q)`` unless given; the context's
:meth:`~.context.DiversityContext.intent_rankings`). The two differ only in where the gains are
read: with one intent they are both the U-measure of that intent.
"""

from __future__ import annotations

import numpy as np

from ...errors import MeasureError
from ..base import MeasureRequest, get_family
from ..gain_discount import element_gains
from ..names import parse_name, split_name
from ..tbg import document_lengths
from ..trec._segments import running_sum
from ..umeasure import decay
from .context import DiversityContext, IntentRankings
from .intent_aware import intent_aware

#: The U-measures of per-intent judgments.
U_MEASURES = ("D-U", "U-IA")


def is_umeasure_name(name: str) -> bool:
    """True for ``D-U``, ``U-IA`` and their parameterised forms ``D-U(F=0.3)``."""
    parts = split_name(name.strip())
    return parts is not None and parts.name in U_MEASURES and parts.cutoff is None


def u_request(name: str) -> MeasureRequest:
    """The catalogue's ``U(...)`` request with the parameters of ``name`` (validated as
    ``U``'s; an unknown or bad one is a :class:`MeasureError` naming ``name``).

    >>> u_request("D-U(F=0.3)").params["F"]
    0.3
    """
    measure = parse_name(name, "intents")
    if measure.family not in U_MEASURES:
        raise MeasureError(f"unknown diversity U-measure {name!r}: D-U(...) or U-IA(...)")
    return measure.params


def d_u(pairs: IntentRankings, request: MeasureRequest, n_rankings: int) -> np.ndarray:
    """``D-U`` per ranking of the context (see the module documentation).

    Every intent of a ranking holds the same ranking in ``pairs``; the global gain of each
    rank is added from the intents' local gains onto the first intent's copy of the
    ranking, whose trailtext is then read once.
    """
    jr = pairs.batch
    params = get_family("U").params.default if request.params is None else request.params
    gains = element_gains(jr, params["gain"], None, "D-U")
    _, first_of, inverse = np.unique(pairs.ranking, return_index=True, return_inverse=True)
    head = first_of[inverse.ravel()]
    first = head == np.arange(len(pairs.ranking))
    if not np.array_equal(jr.lengths, jr.lengths[head]):  # pragma: no cover - invariant
        raise MeasureError("D-U: the intents of a topic hold rankings of different lengths")
    target = jr.offsets[head[jr.segment]] + jr.rank - 1
    global_gain = np.bincount(target, weights=pairs.weight[jr.segment] * gains,
                              minlength=len(jr.rel))
    read = global_gain > 0
    lengths = document_lengths(jr, params["lengths"], params["deflen"], "D-U", read)
    position = jr.rank * params["snippet"] + running_sum(
        jr, np.where(read, params["F"] * lengths, 0.0))
    terms = np.where(read, global_gain * decay(position, params["L"]), 0.0)
    values = np.where(first, jr.segment_sum(terms), 0.0) / params["norm"]
    return np.bincount(pairs.ranking, weights=values, minlength=n_rankings)


def compute_umeasure(ctx: DiversityContext, name: str) -> np.ndarray:
    """``D-U`` or ``U-IA`` per ranking of the context."""
    request = u_request(name)
    if name.strip().startswith("U-IA"):
        return intent_aware(ctx, f"IA({request.requested})")
    return d_u(ctx.intent_rankings(), request, ctx.run.n_rankings)


def per_intent_measure(ctx: DiversityContext, name: str) -> np.ndarray:
    """``IA(<measure>)``, ``D-U`` or ``U-IA`` (the names that are not registered kernels:
    the catalogue per intent on :meth:`~.context.DiversityContext.intent_rankings`) per
    ranking of the context."""
    return compute_umeasure(ctx, name) if is_umeasure_name(name) else intent_aware(ctx, name)


__all__ = ["compute_umeasure", "d_u", "is_umeasure_name", "per_intent_measure", "u_request"]
