"""U-measure over trailtexts (Sakai & Dou, SIGIR 2013; Sakai 2014, §2.2 eq. 19–20, Fig. 4–5).

A *trailtext* ``tt = s_1 s_2 ... s_n`` is the concatenation of the strings a user read
(snippets, parts of documents ...); ``pos(s_k) = Σ_{j≤k} |s_j|`` (characters) is the offset
at which s_k has been read, and ``g(pos(s_k))`` its gain (0 for a non-relevant string)::

    U = (1/𝒩) Σ_k g(pos(s_k)) · D(pos(s_k)),   D(pos) = max(0, 1 − pos / L)   (eq. 19–20)

with L the amount of text after which nothing is worth anything (default 132,000
characters, Sakai & Dou) and 𝒩 a normalisation factor (``norm``, default 1: unnormalised).

* :func:`u_measure` evaluates a batch of explicit trailtexts (string lengths and gains).
* The ``U`` family builds the trailtext of a ranked list as Sakai (2014), Fig. 5 does, under the
  linear traversal assumption: the user reads the snippet of every document (``snippet``
  characters, default 200 — an assumption of irscale, not a value of the paper), and the
  first ``F`` of every relevant document (``F`` = 0.2, Sakai & Dou's 20 %) right after its
  snippet. The gain of a relevant document (``gain=``, default linear) is credited where
  its text ends: at rank k, ``pos = k·snippet + F·Σ_{relevant j≤k} len(j)``. Document
  lengths in characters come from a label set (``lengths``, default ``doclen``; a missing
  length is an error unless ``deflen`` is given).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import segment_cumsum, segment_sum
from .base import EvalContext, register
from .gain_discount import element_gains, gain_keyword
from .params import Keyword, Keywords, Params, identifier, number, optional
from .tbg import document_lengths
from .trec._segments import running_sum

DEFAULT_L = 132_000.0


def decay(position: np.ndarray, patience: float = DEFAULT_L, *,
          out: np.ndarray | None = None) -> np.ndarray:
    """``D(pos) = max(0, 1 − pos / L)`` (eq. 20); ``out``: a float64 array to write it to
    (``position`` itself, say)."""
    value = np.divide(np.asarray(position, dtype=np.float64), patience, out=out)
    np.subtract(1.0, value, out=value)
    return np.maximum(value, 0.0, out=value)


def u_measure(offsets: np.ndarray, lengths: np.ndarray, gains: np.ndarray, *,
              patience: float = DEFAULT_L, norm: float = 1.0) -> np.ndarray:
    """U of every trailtext of a batch: trailtext i is strings ``offsets[i]:offsets[i+1]``
    with ``lengths`` (characters) and ``gains`` (eq. 19)."""
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.float64)
    positions = segment_cumsum(lengths, offsets)  # added in order within each trailtext
    terms = np.asarray(gains, dtype=np.float64) * decay(positions, patience)
    return segment_sum(terms, offsets) / norm


@register(
    "U",
    doc="U-measure Σ g·max(0, 1 − pos/L) over the trailtext of the ranked list: snippets of "
    "every document, F of every relevant one (Sakai & Dou 2013; Sakai 2014, eq. 19–20). Needs "
    "document lengths in characters (labels).",
    params=Keywords(
        L=Keyword(number(low=0.0, open_low=True), DEFAULT_L, "patience L, in characters"),
        snippet=Keyword(number(low=0.0), 200.0, "length of a snippet, in characters"),
        F=Keyword(number(low=0.0, high=1.0), 0.2, "fraction of a relevant document read"),
        norm=Keyword(number(low=0.0, open_low=True), 1.0, "normalisation factor 𝒩"),
        gain=gain_keyword("linear"),
        lengths=Keyword(identifier, "doclen", "label set holding document lengths in "
                        "characters"),
        deflen=Keyword(optional(number(low=0.0)), None,
                       "length of a document missing from the label set (default: error)"),
    ),
    missing_value=0.0,
    formula="Σ_pos g(pos)·max(0, 1 − pos/L) over the trailtext",
    source="Sakai & Dou 2013",
)
def u(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    gains = element_gains(jr, params["gain"], None, "U")
    relevant = gains > 0
    read = document_lengths(jr, params["lengths"], params["deflen"], "U", relevant)
    read *= params["F"]  # the temporaries are reused in place: a batch holds millions
    read[~relevant] = 0.0
    read = running_sum(jr, read)
    position = jr.rank * params["snippet"]
    position += read
    del read
    terms = decay(position, params["L"], out=position)
    terms *= gains
    terms[~relevant] = 0.0
    return {"U": jr.segment_sum(terms) / params["norm"]}
