"""Binary preference and inferred AP: bpref, gm_bpref, infAP.

Sources: trec_eval 9.0.8 m_bpref.c, m_gm_bpref.c, m_infap.c. These measures look only at
*judged* documents: a document outside the qrels (``-1``) or pooled but unjudged (a negative
degree in the qrels, ``-2``) is skipped, not taken as non-relevant. Judged documents are
relevant (degree ≥ level) or non-relevant (0 ≤ degree < level). For the relevant
retrieved documents, in rank order, with ``N(d)`` the judged non-relevant documents ranked
above ``d``, ``R`` the relevant documents of the topic and ``NR`` its judged non-relevant
documents::

    bpref  = (1/R) Σ_d [ 1 - min(N(d), R) / min(NR, R) ]   (the term is 1 when N(d) = 0)

infAP (Yilmaz and Aslam, CIKM 2006) at a relevant document of 0-based index ``j`` among all
retrieved documents (non-pooled ones included), with ``r``, ``nr`` and ``u`` the relevant,
non-relevant and pooled-unjudged documents at indices ≤ j (``r`` counts the document
itself) and ε = 0.00001::

    term = 1                                                        if j = 0
    term = 1/(j+1) + (j/(j+1)) · ((r-1+nr+u)/j) · ((r-1+ε)/(r-1+nr+2ε))  otherwise
    infAP = (1/R) Σ term

All sums are accumulated in rank order; R = 0 gives 0. gm_bpref is bpref summarised by the
geometric mean of max(bpref, 0.00001) and is printed only in the summary. Computed by the
engine (rust/src/measures/bpref.rs).
"""

from __future__ import annotations

from ..native import Native, declare_native

declare_native(
    "bpref",
    Native(),
    doc="Binary preference: for each relevant retrieved document, the fraction of the first R "
    "judged non-relevant documents ranked below it, averaged over R (trec_eval m_bpref.c).",
    formula="(1/R) Σ_{relevant d retrieved} (1 − min(n_d, R)/min(R, N)), n_d judged non-relevant "
            "above d, N judged non-relevant",
    source="Buckley & Voorhees 2004; trec_eval 9.0.8 (m_bpref.c)",
)


declare_native(
    "gm_bpref",
    Native(),
    doc="bpref summarised by the geometric mean of max(bpref, 0.00001) over topics "
    "(trec_eval m_gm_bpref.c); printed only in the summary.",
    aggregate="gmean",
    per_query=False,
    formula="exp(mean over topics of log max(bpref, 0.00001))",
    source="trec_eval 9.0.8 (m_gm_bpref.c)",
)


declare_native(
    "infAP",
    Native(),
    doc="Inferred average precision for sampled judgments (Yilmaz and Aslam, CIKM 2006): "
    "pooled-but-unjudged documents are skipped, non-pooled ones count as non-relevant "
    "(trec_eval m_infap.c).",
    formula="inferred AP: expected precision at the relevant ranks, estimated from the judged "
            "sample",
    source="Yilmaz & Aslam 2006; trec_eval 9.0.8 (m_infap.c)",
)
