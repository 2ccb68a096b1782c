"""nDCG averaged over R-levels and over relevant documents (trec_eval 9.0.8 m_Rndcg.c,
m_ndcg_rel.c; "experimental" measures, unchanged in 10.0).

Notation: ranks ``i`` from 1, ``n`` documents retrieved, ``DCG@k`` the DCG of the first
``min(k, n)`` retrieved documents, ``IDCG@k`` the DCG of the first ``min(k, K)`` documents
of trec_eval's ideal ranking (``K`` documents of positive gain, see
:mod:`irscale.measures.trec.gains`), gains as for ``ndcg`` (parameters ``level=gain``).

**Rndcg.** The R-levels are the cut-offs ``c`` (1 ≤ c ≤ K) after which the ideal gain
*value* changes, ``c = K`` included (where it drops to 0); equal gains of two levels make
no R-level. trec_eval averages ``DCG@c / IDCG@c`` over them, plus one point
``DCG@n / IDCG@K`` when the ideal ranking ends at least two documents before the run
(``K + 1 < n``: trec_eval's loop has already consumed document ``K + 1`` when it tests
``K < n``, so ``K + 1 = n`` adds no point — reproduced). ``Rndcg = 0`` when the topic has
no relevant document at the relevance level (``-l``); with relevant documents but an
empty ideal ranking (all gains ≤ 0) trec_eval divides 0 by 0: NaN, reproduced.

**ndcg_rel.** With ``P`` the retrieved documents of positive gain::

    S = Σ_{i ∈ P} DCG@i / IDCG@min(i, K) + (K − |P|) · DCG@n / IDCG@K
    ndcg_rel = S / K if S > 0 else 0

(each unretrieved ideal document counts the final DCG; ``K − |P|`` can be negative when
more positive-gain documents are retrieved than the ideal ranking holds). IEEE arithmetic
as in C: an empty ideal ranking with a positive-gain document retrieved gives +inf.
Neither family depends on ``-l`` except Rndcg's R = 0 test. Computed by the engine
(``rust/src/measures/ndcg_averaged.rs``).
"""

from __future__ import annotations

from ..base import GainPairs
from ..native import declare_native
from .gains import GAINS

declare_native(
    "Rndcg",
    GAINS,
    doc="nDCG averaged at the R-levels (cut-offs where the ideal gain changes), trec_eval's "
    "experimental measure (m_Rndcg.c). Gains as ndcg.",
    params=GainPairs(),
    missing_value=0.0,
    formula="nDCG averaged at the R-levels (ranks where the ideal gain changes)",
    source="trec_eval 9.0.8 (m_Rndcg.c)",
)


declare_native(
    "ndcg_rel",
    GAINS,
    doc="nDCG averaged over the documents of positive gain, unretrieved ones counting the "
    "final DCG (trec_eval's experimental measure, m_ndcg_rel.c). Gains as ndcg.",
    params=GainPairs(),
    missing_value=0.0,
    formula="nDCG averaged over the documents of positive gain",
    source="trec_eval 9.0.8 (m_ndcg_rel.c)",
)
