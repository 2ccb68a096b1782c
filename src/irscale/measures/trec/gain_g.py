"""Gain measures G and binG (trec_eval 9.0.8 m_G.c, m_binG.c; "experimental", 4/10/2008;
unchanged in 10.0).

**binG** (binary gain; relevant = degree ≥ the relevance level ``-l``)::

    binG = (1/R) Σ_{relevant retrieved d} 1 / log2(2 + nonrel_before(d))

where ``nonrel_before(d)`` counts the retrieved documents ranked above ``d`` that are not
relevant (unjudged included), and R is the number of relevant documents (0 when none is
retrieved).

**G** (gains as ``ndcg``: relevance degree or ``level=gain`` parameters; ``g*_j`` the
gains of trec_eval's ideal ranking, ``K`` of them, see :mod:`irscale.measures.trec.gains`)::

    cost_j = g*_j if j ≤ K and g*_j ≥ 1 else 1
    G = Σ_{i: gain_i ≠ 0} gain_i / log2(2 + Σ_{j≤i} cost_j − Σ_{j≤i} gain_j)  /  Σ_j g*_j

and 0 when the ideal gains sum to 0. A document's contribution thus depends on how far
the ranking so far falls behind the ideal one (with a floor cost of 1 per rank).
Computed by the engine (``rust/src/measures/gain_g.rs``).
"""

from __future__ import annotations

from ..base import GainPairs
from ..native import Native, declare_native
from .gains import GAINS

declare_native(
    "binG",
    Native(),
    doc="Binary G: mean over relevant documents of 1 / log2(2 + non-relevant documents "
    "ranked above), unretrieved ones counting 0 (trec_eval m_binG.c).",
    missing_value=0.0,
    formula="(1/R) Σ_{relevant d retrieved} 1/log2(2 + non-relevant above d)",
    source="trec_eval 9.0.8 (m_binG.c)",
)


declare_native(
    "G",
    GAINS,
    doc="Normalised gain G: gain / log2(2 + ideal cost so far − gain so far), summed and "
    "divided by the ideal total gain (trec_eval m_G.c). Gains as ndcg.",
    params=GainPairs(),
    missing_value=0.0,
    formula="Σ_r g(r)/log2(2 + ideal cost so far − gain so far) / ideal total gain",
    source="trec_eval 9.0.8 (m_G.c)",
)
