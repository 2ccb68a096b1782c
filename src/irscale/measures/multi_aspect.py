"""Multi-aspect relevance: understandability-biased RBP, uRBP (Zuccon & Koopman, MedIR 2014;
Zuccon, ECIR 2016; the CLEF eHealth IR tasks 2015–2017, computed there with the ``ubire``
tool), and the aggregations CAM (Lioma, Simonsen & Larsen, ICTIR 2017) and MM (Palotti,
Zuccon & Hanbury, CIKM 2018) used by the TREC Health Misinformation track.

A document is useful when it is relevant *and* the user understands it. With
``r_i`` the topical relevance of the document at rank i (``gain=``; default ``binary``: 1
for degree ≥ ``rel``, as ubire binarises the qrels; a graded map is divided by gmax) and
``U_i`` the probability that the user understands it, from a second label set (``aspect``,
default ``under``: e.g. CLEF eHealth 2016's ``task2.qunder``, understandability 0..100)::

    uRBP = (1 − p) Σ_i p^(i−1) · r_i · U_i

``U`` from the label ``u_i`` of the document (``u=``):

* ``binary`` (default; ubire's threshold user model): ``U = 1`` when ``u_i ≥ threshold``
  (default 50), else 0 — "uRBP";
* ``linear``: ``U = u_i / scale`` (default scale 100), clipped to [0, 1] — a graded
  understandability, "uRBPgr" style.

A document without a label has U = 0 (as in ubire). Persistence ``p`` defaults to 0.8, the
value of the CLEF eHealth evaluations. Labels are attached with
``evaluate(..., labels={"under": "task2.qunder"})`` or ``irscale eval --labels
under=task2.qunder``; the same measure on trustworthiness labels: ``uRBP(aspect=trust)``.

CAM and MM measure every aspect on its own and aggregate the values. With ``M_0`` the RBP
of the topical relevance (``(1 − p) Σ p^(i−1) r_i``, r as above with ``gain=``) and
``M_k`` the RBP of aspect k (``(1 − p) Σ p^(i−1) U_i``, U from the label set of
``aspects=a1:a2:...``, default ``cred``, by ``u=``/``threshold=``/``scale=`` as uRBP's,
here with threshold 1 and scale 1 by default: credibility labels 0/1), and weights
``w=w0:w1:...`` (relevance first; default equal)::

    CAM = Σ_k w_k M_k / Σ_k w_k                  (convex aggregating measure; λ = w0/Σw)
    MM  = Σ_k w_k / Σ_k (w_k / M_k)              (weighted harmonic mean; 0 if an M_k is 0)

CAM is Lioma et al.'s convex combination λ·M_rel + (1 − λ)·M_cred, here of RBP (their
definition takes any measure; the TREC 2019 Decision track combined MAP and nDCG, which
need each aspect's recall base, not available from a label set of the retrieved
documents). MM is irscale's reading of Palotti et al.'s framework: every dimension
evaluated by the same user model (RBP), the values combined by their weighted harmonic
mean, so that a ranking poor on one dimension cannot make it up on another.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .base import EvalContext, register
from .gain_discount import MAXREL, MAXREL_CHECK, element_gains, gain_keyword, max_gain
from .params import (
    Keyword,
    Keywords,
    Params,
    choice,
    identifier,
    number,
    numbers,
    only_with,
    optional,
    states,
)
from .rbp import PERSISTENCE, rbp_of


def label_values(jr: JudgedRankings, name: str, family: str) -> np.ndarray:
    """The per-document values of label set ``name`` (MeasureError when not attached, in
    words that fit every command and function that takes label sets: eval, session,
    compare, ... and their ``labels=``)."""
    try:
        return jr.attribute(name)
    except KeyError:
        raise MeasureError(
            f"measure {family!r} needs the label set {name!r}: give it with --labels "
            f"{name}=FILE (in Python labels={{{name!r}: path}})"
        ) from None


def understanding(labels: np.ndarray, mode: str, threshold: float, scale: float) -> np.ndarray:
    """Per document: U, the probability of understanding it (0 without a label)."""
    known = ~np.isnan(labels)
    values = np.where(known, labels, 0.0)
    if mode == "binary":
        return (known & (values >= threshold)).astype(np.float64)
    return np.clip(values / scale, 0.0, 1.0)


def _aspect_keywords(labels: dict[str, Keyword], value: str, threshold: tuple[float, str],
                     scale: tuple[float, str], gain: str,
                     *checks: Callable[[Params, str], None]) -> Keywords:
    """The keywords of a measure of relevance and other aspects (``uRBP``, ``CAM``): the
    persistence ``p``, the label sets and what else the measure reads (``labels``), how an
    aspect's label becomes its ``value`` in [0, 1] (``u``: binary, label ≥ ``threshold``,
    or linear, label / ``scale``: :func:`understanding`; each a default and its words), the
    gain of the relevance degrees (default ``gain``) and ``maxrel``; ``threshold`` applies
    with ``u=binary`` only, ``scale`` with ``u=linear``, then the ``checks``."""
    return Keywords(
        p=PERSISTENCE,
        **labels,
        u=Keyword(choice("binary", "linear"), "binary",
                  f"{value}: binary (label ≥ threshold) or linear (label / scale)"),
        threshold=Keyword(number(), *threshold),
        scale=Keyword(number(low=0.0, open_low=True), *scale),
        gain=gain_keyword(gain),
        maxrel=MAXREL,
    ).checked(
        only_with("threshold", lambda p: p["u"] == "binary", "with u=binary"),
        only_with("scale", lambda p: p["u"] == "linear", "with u=linear"),
        MAXREL_CHECK, *checks,
    )


@register(
    "uRBP",
    doc="Understandability-biased RBP (1 − p) Σ p^(i−1) r_i U_i with U from a second label "
    "set (Zuccon & Koopman 2014; CLEF eHealth).",
    params=_aspect_keywords(
        {"aspect": Keyword(identifier, "under", "name of the label set (evaluate labels=...)")},
        "understanding", (50.0, "label from which a document is understood"),
        (100.0, "label of certain understanding"), "binary"),
    missing_value=0.0,
    formula="(1 − p) Σ_i p^(i−1) r_i U_i, U a second label set",
    source="Zuccon & Koopman 2014",
)
def urbp(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    gain, maxrel = params["gain"], params["maxrel"]
    gmax = max_gain(jr, gain, maxrel, "uRBP")
    if gmax <= 0:
        return {"uRBP": np.zeros(jr.n_rankings)}
    relevance = element_gains(jr, gain, maxrel, "uRBP") / gmax
    u = understanding(label_values(jr, params["aspect"], "uRBP"), params["u"],
                      params["threshold"], params["scale"])
    return {"uRBP": rbp_of(jr, params["p"], relevance * u)}


@states("names a1:a2:... (letters, digits, _ and -)")
def identifiers(text: str) -> tuple[str, ...]:
    """Colon-separated label-set names."""
    names = tuple(identifier(part) for part in text.split(":"))
    if len(set(names)) != len(names):
        raise ValueError("a label set named twice")
    return names


def _check_weights(params: Params, family: str) -> None:
    weights = params["w"]
    if weights is None:
        return
    if len(weights) != 1 + len(params["aspects"]):
        raise MeasureError(f"measure {family!r}: w gives {len(weights)} weights for "
                           f"{1 + len(params['aspects'])} dimensions (relevance, then "
                           f"{', '.join(params['aspects'])})")
    if sum(weights) <= 0:
        raise MeasureError(f"measure {family!r}: the weights w add up to 0")


_AGGREGATE = _aspect_keywords(
    {"aspects": Keyword(identifiers, ("cred",),
                        "label sets of the other aspects, a1:a2:... (evaluate labels=...)"),
     "w": Keyword(optional(numbers(low=0.0)), None,
                  "weights of relevance and of each aspect, w0:w1:... (default equal)")},
    "aspect value", (1.0, "label from which an aspect is satisfied"),
    (1.0, "label of a fully satisfied aspect"), "linear", _check_weights)


def aspect_values(jr: JudgedRankings, params: Params, family: str) -> np.ndarray:
    """Per dimension (relevance, then each aspect) and ranking: its RBP, shape (k, n)."""
    p, gain, maxrel = params["p"], params["gain"], params["maxrel"]
    gmax = max_gain(jr, gain, maxrel, family)
    relevance = (element_gains(jr, gain, maxrel, family) / gmax if gmax > 0
                 else np.zeros(len(jr.rel)))
    rows = [rbp_of(jr, p, relevance)]
    for name in params["aspects"]:
        value = understanding(label_values(jr, name, family), params["u"],
                              params["threshold"], params["scale"])
        rows.append(rbp_of(jr, p, value))
    return np.vstack(rows)


def _weights(params: Params) -> np.ndarray:
    given = params["w"]
    weights = np.ones(1 + len(params["aspects"])) if given is None else np.asarray(given)
    return weights / weights.sum()


@register(
    "CAM",
    doc="Convex aggregating measure: the weighted mean of the RBP of relevance and of each "
    "other aspect (credibility ...) from label sets (Lioma, Simonsen & Larsen 2017).",
    params=_AGGREGATE,
    missing_value=0.0,
    formula="Σ_k w_k M_k / Σ_k w_k, M_k the RBP of aspect k (relevance first)",
    source="Lioma, Simonsen & Larsen 2017",
)
def cam(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    # a sum of rows, in order: the same additions whatever the rankings evaluated with it
    # (a matrix product's rounding depends on how many there are)
    return {"CAM": (_weights(params)[:, None] * aspect_values(jr, params, "CAM")).sum(axis=0)}


@register(
    "MM",
    doc="Multidimensional measure: the weighted harmonic mean of the RBP of relevance and of "
    "each other aspect (understandability, credibility ...) from label sets (Palotti, "
    "Zuccon & Hanbury 2018).",
    params=_AGGREGATE,
    missing_value=0.0,
    formula="Σ_k w_k / Σ_k (w_k / M_k), M_k the RBP of aspect k (0 if an M_k is 0)",
    source="Palotti, Zuccon & Hanbury 2018",
)
def mm(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    weights = _weights(params)
    values = aspect_values(jr, params, "MM")
    used = weights > 0
    zero = (values[used] <= 0).any(axis=0)
    inverse = (weights[used][:, None]
               / np.where(values[used] > 0, values[used], 1.0)).sum(axis=0)  # as CAM's
    return {"MM": np.where(zero, 0.0, 1.0 / inverse)}
