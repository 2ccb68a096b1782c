"""trec_eval 9.0.8's measure table: output order and measure-set nicknames (measures.c).

trec_eval prints measures in the order of its table (``te_trec_measures``), whatever the
order of ``-m`` options; ``official`` is the default set, ``all_trec`` every measure computed
from qrels and a run (every entry of the table before the preference and judgment-group
measures), ``set`` the measures of the retrieved set regardless of order. Verified against
the 9.0.x measures.c and against pytrec_eval-terrier, which evaluates in table order.
Nicknames list their members in table order (trec_eval's own lists are unordered sets).
"""

from __future__ import annotations

#: Families in trec_eval 9.0.8's table order (the ``all_trec`` set, in order).
TREC_MEASURES: tuple[str, ...] = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
    "relstring",
    "recall",
    "infAP",
    "gm_bpref",
    "Rprec_mult",
    "utility",
    "11pt_avg",
    "binG",
    "G",
    "ndcg",
    "ndcg_rel",
    "Rndcg",
    "ndcg_cut",
    "map_cut",
    "relative_P",
    "success",
    "set_P",
    "set_relative_P",
    "set_recall",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
)

NICKNAMES: dict[str, tuple[str, ...]] = {
    # trec_eval's default set: the table up to P (``-m official``)
    "official": TREC_MEASURES[: TREC_MEASURES.index("P") + 1],
    "all_trec": TREC_MEASURES,
    "set": (
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "set_P",
        "set_relative_P",
        "set_recall",
        "set_map",
        "set_F",
    ),
}

#: The judgment-group families of the table (read with ``-R qrels_jg`` alone,
#: :mod:`irscale.measures.qrels_jg`), in table order, each with the family it averages over a
#: topic's judgment groups.
AVERAGED_JG: dict[str, str] = {"map_avgjg": "map", "P_avgjg": "P",
                               "Rprec_mult_avgjg": "Rprec_mult"}
#: trec_eval's set ``qrels_jg``, in table order.
QRELS_JG: tuple[str, ...] = ("runid", "num_q", *AVERAGED_JG)

# ---------------------------------------------------------------------- trec_eval 10.0
#: Families in trec_eval 10.0's table order (measures.c ``te_trec_measures`` of 10.0,
#: restricted to the measures computed from qrels and a run): 9.0.8's table with dcg and
#: ideal_dcg before ndcg (m_ndcg.c; printed only when asked for, not in ``all_trec``) and
#: rbp, rbp_resid, unj appended. Output follows this order whatever the order of ``-m``.
TREC10_MEASURES: tuple[str, ...] = (
    *TREC_MEASURES[: TREC_MEASURES.index("ndcg")],
    "dcg",
    "ideal_dcg",
    *TREC_MEASURES[TREC_MEASURES.index("ndcg") :],
    "rbp",
    "rbp_resid",
    "unj",
)

#: trec_eval 10.0's nicknames (measures.c ``te_trec_measure_nicknames``), in table order:
#: ``all_trec`` gains unj, rbp and rbp_resid; ``official`` and ``set`` are unchanged.
NICKNAMES10: dict[str, tuple[str, ...]] = {
    "official": NICKNAMES["official"],
    "all_trec": tuple(m for m in TREC10_MEASURES if m not in ("dcg", "ideal_dcg")),
    "set": NICKNAMES["set"],
}
