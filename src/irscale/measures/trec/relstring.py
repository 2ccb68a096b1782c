"""The relevance string of the first retrieved documents (trec_eval 9.0.8 m_relstring.c).

One character per document for the first ``min((long) N, n)`` documents (``N`` the
parameter, default 10; a negative ``N`` gives an empty string):

* ``0``-``9``: the judged degree; ``>``: a degree above 9;
* ``-``: not in the qrels; ``.``: in the qrels with a negative degree (pooled, unjudged).

Printed only per topic, quoted (``relstring  <tab>101<tab>'1-0..2'``); no summary line.
Under trec_eval 10's -c a topic the run misses prints an empty string ``''``. Computed by
the engine (rust/src/measures/relstring.rs).
"""

from __future__ import annotations

from ..base import FloatParams, Range
from ..native import Native, declare_native, first_number, typed_label

declare_native(
    "relstring",
    Native(floats=first_number, label=typed_label),
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
