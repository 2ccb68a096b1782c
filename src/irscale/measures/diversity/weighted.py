"""α-nDCG and nERR-IA with intent probabilities (``alpha-nDCG-w@k``, ``nERR-IA-w@k``) and
with an α per topic (``topic_alpha=1``).

ndeval weighs the topic's intents uniformly. Here the novelty-discounted gain
of the document at rank r weighs each intent j by its probability Pr(j|q) (``--intent-probs``,
``intent_probabilities=``; uniform 1/S by default), as the intent-aware measures of Agrawal
et al. (WSDM 2009) weigh intents, and as the gain of Clarke et al. (SIGIR 2008) reads
before it takes every intent (nugget) equally likely:

    score(r) = Σ_j Pr(j|q) · J_j(d_r) · (1 − α)^{c_j(r)},   c_j(r) = |{r' < r : J_j(d_r') = 1}|

    alpha-nDCG-w@k = Σ_{r≤k} score(r)/log2(r + 1) / (the same sum on the ideal ranking)
    nERR-IA-w@k = Σ_{r≤k} score(r)/r / (the same sum on the ideal ranking)

The ideal ranking is ndeval's greedy one computed with the same weighted gains
(:func:`~.rankings.ideal_rankings` with ``intent_weights``). Both measures are ratios, so the
weights are used relative to the topic's largest probability (Pr(j|q) / max_i Pr(i|q)):
with uniform probabilities every weight is exactly 1 and the values (the greedy ideal and
its ties included) are ndeval's ``alpha-nDCG@k`` and ``nERR-IA@k``. A run value of 0, or a
topic the qrels do not judge, scores 0.

With ``topic_alpha=1`` each topic t uses its own α_t (``--topic-alpha FILE``, lines
``topic alpha``; a topic the file does not list takes the name's α) in the run's gains and
in its greedy ideal: a topic whose intents are distinct needs little redundancy penalty,
one with overlapping intents more (Clarke et al. 2008 treat α as the probability of an
assessor error, which may differ by topic). With uniform probabilities and one α for
every topic the values are ndeval's. Computed on the judged entries ``(rank, intent)``
of the batch, vectorised over every ranking.
"""

from __future__ import annotations

import numpy as np

from ...errors import MeasureError
from .context import DiversityContext
from .rankings import DiversityRankings


def relative_weights(ctx: DiversityContext) -> np.ndarray:
    """Pr(j|q) / max_i Pr(i|q) per [topic, intent] (0 for a topic without intents)."""
    top = ctx.weights.max(axis=1, initial=0.0)
    return np.divide(ctx.weights, top[:, None], out=np.zeros_like(ctx.weights),
                     where=top[:, None] > 0)


def novelty_gains(batch: DiversityRankings, weights: np.ndarray, alpha: np.ndarray
                  ) -> np.ndarray:
    """Per entry (document at ``entry_rank`` relevant to ``entry_subtopic``):
    w_j · (1 − α_t)^c, c the earlier entries of the same ranking and intent, α_t the α of
    the ranking's topic (``alpha`` per qrels topic)."""
    order = np.lexsort((batch.entry_rank, batch.entry_subtopic, batch.entry_ranking))
    key = batch.entry_ranking[order] * max(batch.max_subtopics, 1) + \
        batch.entry_subtopic[order]
    start = np.r_[True, key[1:] != key[:-1]] if len(key) else np.empty(0, bool)
    first = np.maximum.accumulate(np.where(start, np.arange(len(key)), 0))
    before = np.empty(len(key), dtype=np.int64)
    before[order] = np.arange(len(key)) - first
    topic = np.where(batch.ranking_topic >= 0, batch.ranking_topic, 0)[batch.entry_ranking]
    return weights[topic, batch.entry_subtopic] * (1.0 - alpha[topic]) ** before


def discounted(batch: DiversityRankings, gains: np.ndarray, k: int, kind: str) -> np.ndarray:
    """Per ranking: Σ_{entries at rank ≤ k} gain / disc(rank), disc log2(r + 1)
    (``alpha-nDCG-w``) or r (``nERR-IA-w``)."""
    rank = batch.entry_rank.astype(np.float64)
    disc = np.log2(rank + 1.0) if kind == "alpha-nDCG-w" else rank
    terms = np.where(batch.entry_rank <= k, gains / disc, 0.0)
    return np.bincount(batch.entry_ranking, weights=terms, minlength=batch.n_rankings)


def weighted_values(ctx: DiversityContext, family: str, k: int, alpha: float,
                    topic_alpha: bool) -> np.ndarray:
    """``family`` (``alpha-nDCG-w`` or ``nERR-IA-w``) at cut-off ``k`` with the intents
    weighted by their probabilities and each topic's α (``topic_alpha``: the context's,
    where it has one; else ``alpha``), per ranking of the context (see the module
    documentation)."""
    weights = relative_weights(ctx)
    alphas = np.full(len(ctx.index.topics), float(alpha))
    if topic_alpha:
        if ctx.topic_alpha is None:
            raise MeasureError(f"{family}(topic_alpha=1) needs the α of each topic: "
                               "--topic-alpha FILE (in Python evaluate_diversity(..., "
                               "topic_alphas=))")
        alphas = np.where(np.isnan(ctx.topic_alpha), alphas, ctx.topic_alpha)
    ideal = ctx.memo(f"weighted-ideal:{alpha!r}:{topic_alpha}",
                     lambda: _ideal(ctx, weights, alphas))
    run = ctx.run
    value = discounted(run, novelty_gains(run, weights, alphas), k, family)
    best = discounted(ideal, novelty_gains(ideal, weights, alphas), k, family)
    judged = run.ranking_topic >= 0
    denominator = np.where(judged, best[np.where(judged, run.ranking_topic, 0)], 0.0)
    return np.divide(value, denominator, out=np.zeros_like(value),
                     where=(value > 0) & (denominator > 0))


def _ideal(ctx: DiversityContext, weights: np.ndarray, alpha: np.ndarray
           ) -> DiversityRankings:
    from .rankings import ideal_rankings

    return ideal_rankings(ctx.index, alpha, intent_weights=weights)
