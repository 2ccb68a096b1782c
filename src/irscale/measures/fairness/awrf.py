"""Attention-weighted rank fairness, AWRF (Sapiezynski, Zeng, Robertson, Mislove & Wilson,
"Quantifying the impact of user attention on fair group representation in ranked lists",
WWW 2019 companion), and the TREC Fair Ranking 2021–2022 score nDCG × AWRF.

For one ranking cut at k, with attention a(i) at rank i (``discount=log2``: 1/log2(i + 1),
the nDCG discount used by TREC Fair Ranking 2021–2022; ``discount=geometric``: p^(i−1)),
the exposure distribution over groups is

    E_g = Σ_{i≤k, d_i ∈ g} a(i) / Σ_{i≤k} a(i)

and the target distribution T (``target=relevant``: the share of each group among the
topic's relevant documents, qrels degree ≥ 1; ``target=uniform``: equal shares over the
groups of the topic's relevant documents). With the Jensen–Shannon divergence in bits
(0 ≤ JSD ≤ 1), M = (E + T)/2:

    JSD(E, T) = ½ Σ_g E_g log2(E_g / M_g) + ½ Σ_g T_g log2(T_g / M_g)
    AWRF@k = 1 − JSD(E, T)                   (1: exposure proportional to the target)
    nDCG-AWRF@k = nDCG@k × AWRF@k            (TREC Fair Ranking 2021–2022, per ranking)

nDCG@k uses the grades as gains and log2(i + 1) (the ideal: the topic's grades in
decreasing order). For a stochastic run both are the mean over the topic's samples. A
topic without a relevant document, or an empty ranking, scores 0. Differences from the
tracks: TREC 2021–2022 mixed the relevant documents' groups with world-population shares
for some attributes and split a document of several groups among them; here a document has
one group (unlabelled documents form one group) and the target is the relevant documents'.
"""

from __future__ import annotations

import numpy as np

from .context import FairnessContext


def attention(position: np.ndarray, discount: str, p: float) -> np.ndarray:
    """a(i) of each 1-based rank."""
    position = position.astype(np.float64)
    return 1.0 / np.log2(position + 1.0) if discount == "log2" else p ** (position - 1.0)


def _entropy_terms(share: np.ndarray, middle: np.ndarray) -> np.ndarray:
    return np.where(share > 0, share * np.log2(np.where(share > 0, share, 1.0) /
                                               np.where(middle > 0, middle, 1.0)), 0.0)


def awrf(ctx: FairnessContext, k: int | None, discount: str, p: float, target: str,
         family: str) -> np.ndarray:
    """Per ranking of the context: AWRF@k (module documentation)."""
    groups = ctx.groups(family)
    width = int(groups.max(initial=-1)) + 1
    keep = ctx.place_position <= (k if k is not None else np.inf)
    rank_of = ctx.place_ranking[keep]
    weight = attention(ctx.place_position[keep], discount, p)
    n_rankings = len(ctx.ranking_topic)
    total = np.bincount(rank_of, weights=weight, minlength=n_rankings)
    # target shares per (topic, group)
    relevant = ctx.universe_grade >= 1
    r_key = ctx.universe_topic[relevant] * width + groups[relevant]
    t_keys, t_count = np.unique(r_key, return_counts=True)
    t_topic = t_keys // max(width, 1)
    share = np.ones(len(t_keys)) if target == "uniform" else t_count.astype(np.float64)
    share = share / np.bincount(t_topic, weights=share, minlength=ctx.n_topics)[t_topic]
    # every (ranking, group) of the exposure and of its topic's target
    ranking_of_topic = np.argsort(ctx.ranking_topic, kind="stable")
    starts = np.searchsorted(ctx.ranking_topic[ranking_of_topic], np.arange(ctx.n_topics))
    per_topic = np.bincount(ctx.ranking_topic, minlength=ctx.n_topics)
    repeat = per_topic[t_topic]
    t_rank = ranking_of_topic[np.repeat(starts[t_topic], repeat)
                              + _ramp(repeat)]
    e_key = rank_of * width + groups[ctx.place_doc[keep]]
    keys = np.r_[e_key, t_rank * width + np.repeat(t_keys % max(width, 1), repeat)]
    pairs, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.ravel()
    exposed = np.bincount(inverse[:len(e_key)], weights=weight, minlength=len(pairs))
    pair_ranking = pairs // max(width, 1)
    exposed = np.divide(exposed, total[pair_ranking], out=np.zeros_like(exposed),
                        where=total[pair_ranking] > 0)
    wanted = np.bincount(inverse[len(e_key):], weights=np.repeat(share, repeat),
                         minlength=len(pairs))
    middle = (exposed + wanted) / 2
    jsd = 0.5 * np.bincount(pair_ranking, weights=_entropy_terms(exposed, middle)
                            + _entropy_terms(wanted, middle), minlength=n_rankings)
    has_target = np.bincount(t_topic, minlength=ctx.n_topics)[ctx.ranking_topic] > 0
    return np.where(has_target & (total > 0), 1.0 - jsd, 0.0)


def ndcg(ctx: FairnessContext, k: int | None) -> np.ndarray:
    """Per ranking: nDCG@k with the grades as gains and log2(i + 1) (module documentation)."""
    cut = k if k is not None else np.inf
    keep = ctx.place_position <= cut
    gain = ctx.universe_grade[ctx.place_doc[keep]]
    dcg = np.bincount(ctx.place_ranking[keep],
                      weights=gain / np.log2(ctx.place_position[keep] + 1.0),
                      minlength=len(ctx.ranking_topic))
    order = np.lexsort((-ctx.universe_grade, ctx.universe_topic))
    topic = ctx.universe_topic[order]
    first = np.searchsorted(topic, np.arange(ctx.n_topics))
    rank = np.arange(len(order)) - first[topic] + 1
    ideal_terms = np.where(rank <= cut, ctx.universe_grade[order] / np.log2(rank + 1.0), 0.0)
    ideal = np.bincount(topic, weights=ideal_terms, minlength=ctx.n_topics)[ctx.ranking_topic]
    return np.divide(dcg, ideal, out=np.zeros_like(dcg), where=ideal > 0)


def _ramp(counts: np.ndarray) -> np.ndarray:
    """0, 1, .., c − 1 for every count c, concatenated."""
    total = int(counts.sum())
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(total) - starts
