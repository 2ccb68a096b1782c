"""trec_eval 9.0.8's measure table: output order and measure-set nicknames (measures.c).

trec_eval prints measures in the order of its table, whatever the order of ``-m``
options; ``official`` is the default set, ``all_trec`` every measure computed from qrels
and a run, ``set`` the measures of the retrieved set regardless of order.
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
    "ndcg",
    "ndcg_cut",
    "Rndcg",
    "ndcg_rel",
    "binG",
    "G",
    "relative_P",
    "success",
    "map_cut",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
)

NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": (
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
    ),
    "all_trec": TREC_MEASURES,
    "set": (
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
    ),
}
