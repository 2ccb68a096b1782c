"""Counting measures of trec_eval: runid, num_q, num_ret, num_rel, num_rel_ret,
num_nonrel_judged_ret.

Sources: trec_eval 9.0.8 m_runid.c, m_num_q.c, m_num_ret.c, m_num_rel.c, m_num_rel_ret.c,
m_num_nonrel_judged_ret.c. Counts are printed as integers and summed over topics in the
summary; ``num_q`` is the number of topics evaluated (the number of qrels topics with -c).
``num_rel_ret`` counts judged documents only (degree ≥ level ≥ 0).

Computed by the engine (rust/src/measures/counts.rs).
"""

from __future__ import annotations

from ..native import Native, declare_native

declare_native(
    "runid",
    Native(),
    doc="Run identifier: the run id of the run file's first line (printed in the summary).",
    aggregate="runid",
    value_type="str",
    per_query=False,
    formula="the run's id",
    source="trec_eval 9.0.8 (m_runid.c)",
)


declare_native(
    "num_q",
    Native(),
    doc="Number of topics results are averaged over.",
    aggregate="count",
    value_type="int",
    per_query=False,
    ignores={"rel": "it counts topics", "condensed": "it counts topics",
             "conditional": "it counts topics"},
    formula="number of topics averaged over",
    source="trec_eval 9.0.8 (m_num_q.c)",
)


declare_native(
    "num_ret",
    Native(),
    doc="Number of documents retrieved for the topic (after -M and -J).",
    aggregate="sum",
    value_type="int",
    missing_value=0,
    ignores={"conditional": "it counts the retrieved documents, relevant or not"},
    formula="|retrieved|",
    source="trec_eval 9.0.8 (m_num_ret.c)",
)


declare_native(
    "num_rel",
    Native(),
    doc="Number of relevant documents for the topic (judged with degree ≥ the relevance level).",
    aggregate="sum",
    value_type="int",
    ignores={"condensed": "the recall base counts judged documents only"},
    formula="R = |relevant|",
    source="trec_eval 9.0.8 (m_num_rel.c)",
)


declare_native(
    "num_rel_ret",
    Native(),
    doc="Number of relevant documents retrieved for the topic.",
    aggregate="sum",
    value_type="int",
    formula="|relevant ∩ retrieved|",
    source="trec_eval 9.0.8 (m_num_rel_ret.c)",
)


declare_native(
    "num_nonrel_judged_ret",
    Native(),
    doc="Number of judged non-relevant documents retrieved for the topic (trec_eval "
    "m_num_nonrel_judged_ret.c: retrieved - not in qrels - pooled unjudged - relevant).",
    aggregate="sum",
    value_type="int",
    formula="|judged non-relevant ∩ retrieved|",
    source="trec_eval 9.0.8 (m_num_nonrel_judged_ret.c)",
)
