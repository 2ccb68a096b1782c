"""Attention-weighted rank fairness, AWRF (Sapiezynski, Zeng, Robertson, Mislove & Wilson,
"Quantifying the impact of user attention on fair group representation in ranked lists",
WWW 2019 companion), and the TREC Fair Ranking 2021–2022 score nDCG × AWRF.

For one ranking cut at k, with attention a(i) at rank i (``discount=jk``: 1/log2(max(i, 2)),
the discount of the TREC Fair Ranking 2021–2022 evaluation code, ``discount()`` of its
``metrics.py`` / ``wptrec/metrics/common.py``, Järvelin & Kekäläinen's with base 2: ranks
1 and 2 both get 1; ``discount=log2``: 1/log2(i + 1); ``discount=geometric``: p^(i−1)),
and w_dg the weight of document d in group g (1/m for a document of m groups with
``membership=split``, 1 with ``membership=full``: :mod:`.context`), the exposure
distribution over groups is

    E_g = Σ_{i≤k} a(i) w_{d_i g} / Σ_{i≤k} Σ_h a(i) w_{d_i h}

and the target distribution T (``target=relevant``: T_g = Σ_{d relevant} w_dg /
Σ_{d relevant} Σ_h w_dh, the relevant documents being those of qrels degree ≥ 1;
``target=uniform``: equal shares over the groups of the topic's relevant documents). With
the Jensen–Shannon divergence, M = (E + T)/2, in nats (``base=e``, the TREC Fair Ranking
2021–2022 code's: scipy's ``jensenshannon`` squared, natural logarithm, 0 ≤ JSD ≤ ln 2,
so that 1 − ln 2 ≈ 0.307 ≤ AWRF ≤ 1) or in bits (``base=2``: 0 ≤ JSD ≤ 1, 0 ≤ AWRF ≤ 1):

    JSD(E, T) = ½ Σ_g E_g log(E_g / M_g) + ½ Σ_g T_g log(T_g / M_g)
    AWRF@k = 1 − JSD(E, T)                   (1: exposure proportional to the target)
    nDCG-AWRF@k = nDCG@k × AWRF@k            (TREC Fair Ranking 2021–2022, per ranking)

nDCG@k uses the grades as gains and the same discount a(i) (the ideal: the topic's grades
in decreasing order); the track's qrels are binary, so its 0/1 gains are the grades. For a
stochastic run both are the mean over the topic's samples. A topic without a relevant
document, or an empty ranking, scores 0. Differences from the tracks: their targets mixed
the relevant documents' distribution with world-population shares for some attributes
(geography, gender) and crossed several attributes (intersectional groups); here the target
is the relevant documents' distribution over one set of groups (give crossed groups as
group numbers of their own). Documents the group set does not label form one group (the
tracks' "unknown"; 2021's Task 1 left unknown pages out of the exposure instead).
"""

from __future__ import annotations

import numpy as np

from ...core.segments import ranges
from .context import FairnessContext


def attention(position: np.ndarray, discount: str, p: float) -> np.ndarray:
    """a(i) of each 1-based rank (module documentation)."""
    position = position.astype(np.float64)
    if discount == "jk":
        return 1.0 / np.log2(np.maximum(position, 2.0))
    return 1.0 / np.log2(position + 1.0) if discount == "log2" else p ** (position - 1.0)


def _entropy_terms(share: np.ndarray, middle: np.ndarray) -> np.ndarray:
    return np.where(share > 0, share * np.log2(np.where(share > 0, share, 1.0) /
                                               np.where(middle > 0, middle, 1.0)), 0.0)


def awrf(ctx: FairnessContext, k: int | None, params, family: str) -> np.ndarray:
    """Per ranking of the context: AWRF@k (module documentation) with the family's
    ``discount``, ``p``, ``target``, ``base`` and ``membership``."""
    groups = ctx.groups(family, params["membership"])
    width = max(groups.width, 1)
    keep = ctx.place_position <= (k if k is not None else np.inf)
    placed, row = groups.of(ctx.place_doc[keep])
    rank_of = ctx.place_ranking[keep][placed]
    weight = attention(ctx.place_position[keep], params["discount"], params["p"])[placed] \
        * groups.weight[row]
    n_rankings = len(ctx.ranking_topic)
    total = np.bincount(rank_of, weights=weight, minlength=n_rankings)
    # target shares per (topic, group)
    relevant = np.flatnonzero(ctx.universe_grade >= 1)
    which, r_row = groups.of(relevant)
    r_key = ctx.universe_topic[relevant][which] * width + groups.group[r_row]
    t_keys, t_inverse = np.unique(r_key, return_inverse=True)
    t_topic = t_keys // width
    share = np.ones(len(t_keys)) if params["target"] == "uniform" else \
        np.bincount(t_inverse.ravel(), weights=groups.weight[r_row], minlength=len(t_keys))
    share = share / np.bincount(t_topic, weights=share, minlength=ctx.n_topics)[t_topic]
    # every (ranking, group) of the exposure and of its topic's target
    ranking_of_topic = np.argsort(ctx.ranking_topic, kind="stable")
    starts = np.searchsorted(ctx.ranking_topic[ranking_of_topic], np.arange(ctx.n_topics))
    per_topic = np.bincount(ctx.ranking_topic, minlength=ctx.n_topics)
    repeat = per_topic[t_topic]
    t_rank = ranking_of_topic[ranges(starts[t_topic], repeat)]
    e_key = rank_of * width + groups.group[row]
    keys = np.r_[e_key, t_rank * width + np.repeat(t_keys % width, repeat)]
    pairs, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.ravel()
    exposed = np.bincount(inverse[:len(e_key)], weights=weight, minlength=len(pairs))
    pair_ranking = pairs // width
    exposed = np.divide(exposed, total[pair_ranking], out=np.zeros_like(exposed),
                        where=total[pair_ranking] > 0)
    wanted = np.bincount(inverse[len(e_key):], weights=np.repeat(share, repeat),
                         minlength=len(pairs))
    middle = (exposed + wanted) / 2
    jsd = 0.5 * np.bincount(pair_ranking, weights=_entropy_terms(exposed, middle)
                            + _entropy_terms(wanted, middle), minlength=n_rankings)
    if params["base"] == "e":
        jsd = jsd * np.log(2.0)
    has_target = np.bincount(t_topic, minlength=ctx.n_topics)[ctx.ranking_topic] > 0
    return np.where(has_target & (total > 0), 1.0 - jsd, 0.0)


def ndcg(ctx: FairnessContext, k: int | None, discount: str, p: float) -> np.ndarray:
    """Per ranking: nDCG@k with the grades as gains and the attention a(i) as the discount
    (module documentation)."""
    cut = k if k is not None else np.inf
    keep = ctx.place_position <= cut
    gain = ctx.universe_grade[ctx.place_doc[keep]]
    dcg = np.bincount(ctx.place_ranking[keep],
                      weights=gain * attention(ctx.place_position[keep], discount, p),
                      minlength=len(ctx.ranking_topic))
    order = np.lexsort((-ctx.universe_grade, ctx.universe_topic))
    topic = ctx.universe_topic[order]
    first = np.searchsorted(topic, np.arange(ctx.n_topics))
    rank = np.arange(len(order)) - first[topic] + 1
    ideal_terms = np.where(rank <= cut, ctx.universe_grade[order]
                           * attention(rank, discount, p), 0.0)
    ideal = np.bincount(topic, weights=ideal_terms, minlength=ctx.n_topics)[ctx.ranking_topic]
    return np.divide(dcg, ideal, out=np.zeros_like(dcg), where=ideal > 0)

