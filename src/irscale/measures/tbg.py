"""Time-biased gain (Smucker & Clarke, SIGIR 2012; Sakai 2014, §2.2 eq. 17–18; Ferro & Maistro 2024,
§5.1 eq. 15).

The user reads the summary of every document in rank order (``ts`` seconds) and clicks
with a probability that depends on its relevance (``pc1`` relevant, ``pc0`` non-relevant);
reading a document of L words takes ``T_D = a·L + b`` seconds (a = 0.018, b = 7.8). The
expected time to reach rank r and TBG are::

    T(r) = Σ_{k<r} (ts + P_click(k) · T_D(k))                  (eq. 18; added in rank order)
    TBG  = Σ_r g(r) · exp(−T(r) · ln 2 / h)                     (eq. 17)

with the gain ``g = pc1 · psave`` for a relevant document (degree ≥ ``rel``; binary, as in
Smucker & Clarke's instantiation) and 0 otherwise, and half-life ``h``. Defaults are Smucker
& Clarke's calibration: ts = 4.4 s, pc1 = 0.64, pc0 = 0.39, psave = 0.77, h = 224 s.
Unjudged documents count as non-relevant.

Document lengths (in words) come from a label set (``lengths``, default ``doclen``;
``evaluate(..., labels={"doclen": "lengths.txt"})``, a file ``topic iter docno words`` with
topic ``*`` for topic-independent lengths). A retrieved document without a length is an
error unless ``deflen`` gives the length to assume.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .base import EvalContext, register
from .multi_aspect import label_values
from .params import Keyword, Keywords, Params, identifier, number, optional
from .trec._segments import running_sum

_PROBABILITY = number(low=0.0, high=1.0)

PARAMS = Keywords(
    h=Keyword(number(low=0.0, open_low=True), 224.0, "half-life of the decay, in seconds"),
    ts=Keyword(number(low=0.0), 4.4, "time to read a summary, in seconds"),
    pc1=Keyword(_PROBABILITY, 0.64, "probability of clicking a relevant document"),
    pc0=Keyword(_PROBABILITY, 0.39, "probability of clicking a non-relevant document"),
    psave=Keyword(_PROBABILITY, 0.77, "probability of judging a clicked relevant document "
                  "relevant (gain = pc1 · psave)"),
    a=Keyword(number(low=0.0), 0.018, "reading time per word, in seconds"),
    b=Keyword(number(low=0.0), 7.8, "reading time of an empty document, in seconds"),
    lengths=Keyword(identifier, "doclen", "label set holding document lengths in words"),
    deflen=Keyword(optional(number(low=0.0)), None,
                   "length of a document missing from the label set (default: error)"),
)


def document_lengths(jr: JudgedRankings, name: str, default: float | None, family: str,
                     needed: np.ndarray | None = None) -> np.ndarray:
    """Per document: its length from label set ``name`` (``default`` where missing; an
    error where missing without a default, or negative, for the documents flagged
    ``needed``)."""
    lengths = label_values(jr, name, family)
    negative = lengths < 0  # (NaN: missing, not negative)
    if needed is not None:
        negative &= needed
    if negative.any():
        at = int(np.flatnonzero(negative)[0])
        ranking = int(jr.segment[at])
        raise MeasureError(
            f"measure {family!r}: a document length of {lengths[at]:g} in label set "
            f"{name!r} (topic {str(jr.topic_labels[ranking])!r}, run "
            f"{str(jr.run_labels[ranking])!r}, rank {int(jr.rank[at])}): a length is a "
            "count, 0 or more"
        )
    missing = np.isnan(lengths)
    if needed is not None:
        missing &= needed
    if default is None and missing.any():
        raise MeasureError(
            f"measure {family!r}: {int(missing.sum())} retrieved document(s) have no "
            f"length in label set {name!r}; give deflen= to assume one"
        )
    return np.where(np.isnan(lengths), 0.0 if default is None else default, lengths)


def expected_times(jr: JudgedRankings, lengths: np.ndarray, *, ts: float = 4.4,
                   pc1: float = 0.64, pc0: float = 0.39, a: float = 0.018,
                   b: float = 7.8) -> np.ndarray:
    """Per document: ``T(r)``, the expected time to reach its rank (eq. 18)."""
    click = np.where(jr.is_relevant & jr.is_judged, pc1, pc0)
    step = ts + click * (a * lengths + b)
    spent = running_sum(jr, step)
    before = np.zeros(len(spent))
    later = np.flatnonzero(jr.rank > 1)
    before[later] = spent[later - 1]
    return before


@register(
    "TBG",
    doc="Time-biased gain Σ g·exp(−T(r) ln2 / h), T(r) the expected time to reach rank r "
    "from summary, click and document-length reading times (Smucker & Clarke 2012; Sakai 2014, "
    "eq. 17–18). Needs document lengths (labels).",
    params=PARAMS,
    missing_value=0.0,
    formula="Σ_r g(r)·exp(−T(r)·ln 2 / h)",
    source="Smucker & Clarke 2012",
)
def tbg(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    lengths = document_lengths(jr, params["lengths"], params["deflen"], "TBG")
    times = expected_times(jr, lengths, ts=params["ts"], pc1=params["pc1"],
                           pc0=params["pc0"], a=params["a"], b=params["b"])
    gain = np.where(jr.is_relevant & jr.is_judged, params["pc1"] * params["psave"], 0.0)
    decay = np.exp(-times * np.log(2.0) / params["h"])
    return {"TBG": jr.segment_sum(gain * decay)}
