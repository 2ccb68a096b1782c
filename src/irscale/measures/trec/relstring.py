"""The relevance string of the first retrieved documents (trec_eval 9.0.8 m_relstring.c).

One character per document for the first ``min((long) N, n)`` documents (``N`` the
parameter, default 10; a negative ``N`` gives an empty string):

* ``0``-``9``: the judged degree; ``>``: a degree above 9;
* ``-``: not in the qrels; ``.``: in the qrels with a negative degree (pooled, unjudged).

Printed only per topic, quoted (``relstring  <tab>101<tab>'1-0..2'``); no summary line.
Under trec_eval 10's -c a topic the run misses prints an empty string ``''``.
"""

from __future__ import annotations

import numpy as np

from ...core.judged import NONPOOL, UNJUDGED, JudgedRankings
from ...core.subsets import pooled_documents
from ..base import EvalContext, FloatList, FloatParams, Range, register


def relevance_characters(rel: np.ndarray) -> np.ndarray:
    """trec_eval's character (as a byte) for each relevance value."""
    codes = np.full(len(rel), ord("<"), dtype=np.uint8)
    digit = (rel >= 0) & (rel <= 9)
    codes[digit] = (ord("0") + rel[digit]).astype(np.uint8)
    codes[rel > 9] = ord(">")
    codes[rel == NONPOOL] = ord("-")
    codes[rel == UNJUDGED] = ord(".")
    return codes


@register(
    "relstring",
    doc="The relevance values of the first N (default 10) retrieved documents as a string "
    "(digit = degree, '>' above 9, '-' not in the qrels, '.' pooled but unjudged; "
    "trec_eval m_relstring.c). Printed per topic only. N is an integer ≥ 1.",
    params=FloatParams(10.0, count=1,
                       valid=Range("N (the documents shown)", low=1.0, integer=True)),
    aggregate="none",
    value_type="str",
    missing_value="",
    formula="the relevance degrees of the first N documents, one character each",
    source="trec_eval 9.0.8 (m_relstring.c)",
)
def relstring(jr: JudgedRankings, params: FloatList, ctx: EvalContext) -> dict[str, np.ndarray]:
    name = params.label("relstring")
    # N is an integer ≥ 1 (checked when parsed); only the longest ranking's length matters
    width = int(min(params.values[0], float(jr.lengths.max(initial=0))))
    if width == 0:
        return {name: np.full(jr.n_rankings, "", dtype=object)}
    # '-' (not in the qrels) at every retrieved position, then the pooled documents' own
    # characters; positions beyond a ranking's end stay NUL (dropped below)
    table = np.where(np.arange(width) < jr.lengths[:, None], np.uint8(ord("-")), np.uint8(0))
    pooled = pooled_documents(jr)
    shown = pooled.rank <= width
    table[pooled.segment[shown], pooled.rank[shown] - 1] = relevance_characters(
        pooled.rel[shown])
    strings = table.view(f"S{width}").ravel().astype(str)  # NUL padding is dropped
    return {name: strings.astype(object)}
