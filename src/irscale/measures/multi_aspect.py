"""Multi-aspect relevance: understandability-biased RBP, uRBP (Zuccon & Koopman, MedIR 2014;
Zuccon, ECIR 2016; the CLEF eHealth IR tasks 2015–2017, computed there with the ``ubire``
tool).

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
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .base import EvalContext, register
from .gain_discount import MAXREL, MAXREL_CHECK, element_gains, gain_keyword, max_gain
from .params import Keyword, Keywords, Params, choice, identifier, number, only_with
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


@register(
    "uRBP",
    doc="Understandability-biased RBP (1 − p) Σ p^(i−1) r_i U_i with U from a second label "
    "set (Zuccon & Koopman 2014; CLEF eHealth).",
    params=Keywords(
        p=PERSISTENCE,
        aspect=Keyword(identifier, "under", "name of the label set (evaluate labels=...)"),
        u=Keyword(choice("binary", "linear"), "binary",
                  "understanding: binary (label ≥ threshold) or linear (label / scale)"),
        threshold=Keyword(number(), 50.0, "label from which a document is understood"),
        scale=Keyword(number(low=0.0, open_low=True), 100.0, "label of certain understanding"),
        gain=gain_keyword("binary"),
        maxrel=MAXREL,
    ).checked(
        only_with("threshold", lambda p: p["u"] == "binary", "with u=binary"),
        only_with("scale", lambda p: p["u"] == "linear", "with u=linear"),
        MAXREL_CHECK,
    ),
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
