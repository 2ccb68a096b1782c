"""Expected exposure of a stochastic ranking policy (Diaz, Mitra, Ekstrand, Biega &
Carterette, "Evaluating stochastically ranked retrieval systems with expected exposure",
CIKM 2020), per document or per group (TREC Fair Ranking 2019–2020).

Browsing model: RBP's patience γ, the exposure of rank i being ``γ^(i−1)``. The expected
exposure of document d under the policy π, estimated from its S sampled rankings σ_1..σ_S:

    ε_d = (1/S) Σ_s γ^(σ_s(d) − 1)          (0 in a sample that does not retrieve d)

The target ε*_d is the expected exposure under the ideal policy: every ranking of the
topic's documents by decreasing grade, equally likely (ties in grade broken uniformly at
random). A grade level of m documents preceded by a documents shares positions a+1..a+m:

    ε*_d = (γ^a − γ^(a+m)) / ((1 − γ) m)

The documents ranked are the topic's *universe*: its judged documents and every document
a sample retrieves (:mod:`.context`; unjudged ones have grade 0). Per topic:

    EE-D = ‖ε‖²          (disparity: lower is fairer)
    EE-R = ε · ε*         (relevance: higher is better)
    EE-L = ‖ε − ε*‖²      (loss = EE-D − 2 EE-R + ‖ε*‖²: lower is better)

With ``level=group`` the vectors are those of the groups (TREC Fair Ranking 2019–2020's
group exposure against the exposure groups deserve by relevance): ε_g = Σ_d w_dg ε_d and
ε*_g = Σ_d w_dg ε*_d, w_dg the weight of document d in group g (1 for its one group; for a
document of m groups 1/m each with ``membership=split``, 1 each with ``membership=full``:
:mod:`.context`). Differences from the paper: sampled rankings may be truncated
(positions after a sample's last document expose nothing), while the ideal policy ranks
the whole universe; the values are not normalised. TREC Fair Ranking 2021–2022's Task 2
scored expected exposure otherwise (the log discount of nDCG over 20- or 50-document
rankings, an ideal ordering relevant documents by the work they need, only relevant
documents exposed in 2022, targets mixed with population shares): not computed here.
"""

from __future__ import annotations

import numpy as np

from .context import FairnessContext


def exposure(ctx: FairnessContext, gamma: float) -> np.ndarray:
    """ε_d of every universe document: mean over its topic's samples of γ^(position − 1)."""
    def compute() -> np.ndarray:
        total = np.bincount(ctx.place_doc, weights=gamma ** (ctx.place_position - 1.0),
                            minlength=len(ctx.universe_topic))
        return total / np.maximum(ctx.n_samples[ctx.universe_topic], 1)

    return ctx.memo(f"exposure:{gamma!r}", compute)


def target_exposure(ctx: FairnessContext, gamma: float) -> np.ndarray:
    """ε*_d of every universe document under the ideal policy (module documentation)."""
    def compute() -> np.ndarray:
        topic, grade = ctx.universe_topic, ctx.universe_grade
        order = np.lexsort((-grade, topic))
        t, g = topic[order], grade[order]
        n = len(order)
        new_topic = np.r_[True, t[1:] != t[:-1]] if n else np.empty(0, bool)
        new_level = new_topic | (np.r_[True, g[1:] != g[:-1]] if n else new_topic)
        topic_start = np.maximum.accumulate(np.where(new_topic, np.arange(n), 0))
        level = np.cumsum(new_level) - 1
        level_start = np.flatnonzero(new_level)
        size = np.diff(np.r_[level_start, n])
        before = (level_start - topic_start[level_start]).astype(np.float64)
        share = (gamma ** before - gamma ** (before + size)) / ((1.0 - gamma) * size)
        out = np.empty(n)
        out[order] = share[level]
        return out

    return ctx.memo(f"target:{gamma!r}", compute)


def ee_values(ctx: FairnessContext, which: str, gamma: float, level: str,
              membership: str) -> np.ndarray:
    """Per topic: ``EE-L``, ``EE-R`` or ``EE-D`` at ``level`` ``document`` or ``group``
    (documents of several groups weighted as ``membership`` says)."""
    eps, star = exposure(ctx, gamma), target_exposure(ctx, gamma)
    owner = ctx.universe_topic
    if level == "group":
        groups = ctx.groups(which, membership)
        width = max(groups.width, 1)
        key = owner[groups.doc] * width + groups.group
        keys, inverse = np.unique(key, return_inverse=True)
        eps = np.bincount(inverse.ravel(), weights=eps[groups.doc] * groups.weight,
                          minlength=len(keys))
        star = np.bincount(inverse.ravel(), weights=star[groups.doc] * groups.weight,
                           minlength=len(keys))
        owner = keys // width
    terms = {"EE-D": eps * eps, "EE-R": eps * star, "EE-L": (eps - star) ** 2}[which]
    return np.bincount(owner, weights=terms, minlength=ctx.n_topics)
