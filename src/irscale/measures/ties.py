"""Tie-aware values of irscale's own families (``--ties expected``): the expectation of a
measure over every order of the documents of each tie group, each order equally likely
(McSherry & Najork, "Computing information retrieval performance measures efficiently in
the presence of tied scores", ECIR 2008), in closed form. trec_eval's families have theirs
in the engine (``rust/src/tie_aware.rs``).

*Measures linear in the documents' values with weights of the rank alone* (RBP, its
residual, the static C/W/L measures): ``E[Σ_i W(i)·v(d_i)] = Σ_i W(i)·v̄(i)``, with ``v̄(i)``
the mean value of the group filling rank i: the plain kernel on the group means
(:func:`tie_means`).

*ERR* (Chapelle et al. 2009), ``ERR = Σ_r w(r)·R_r·Π_{i<r}(1 − R_i)``, ``w(r) = 1/r`` (0
beyond a cut-off): the product over the documents of the groups above a group does not
depend on their order, so ``E[ERR] = Σ_groups P_before·E_group``. In a group of ``m``
documents after ``s`` others, ``q`` of them with ``R > 0`` (values ``x = 1 − R``), the
relevant documents take a uniform ``q``-subset of the group's ranks and, independently, a
uniform order among themselves; the first ``l − 1`` of them form a uniform subset, so::

    E_group = Σ_{l=1..q} f_l · (ē_{l−1} − ē_l)
    f_l     = Σ_{p} w(s + p) · C(p − 1, l − 1)·C(m − p, q − l) / C(m, q)   (the l-th rank)
    ē_k     = e_k(x) / C(q, k)      (normalised elementary symmetric polynomials)

``ē`` by the recursion ``ē_k ← ((n − k)/n)·ē_k + (k/n)·x_n·ē_{k−1}`` (convex combinations
of values in [0, 1]: no overflow), ``f_l`` by products of the ratios of consecutive
terms: ``O(q·P)`` operations for a group of ``q`` relevant documents and ``P`` ranks that
count (``w > 0``), whatever its non-relevant documents (a group of 5,000 tied documents, 40
of them relevant: 200,000). A group holding one relevant document is ``R·`` (the mean of
``w`` over its ranks), computed for all such groups at once.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import Subset


def group_starts(jr: JudgedRankings) -> np.ndarray:
    """Per document: whether it opens a tie group (the first of its ranking, or its group
    id differs from the previous document's); every document without groups."""
    starts = np.ones(len(jr.rel), dtype=bool)
    if jr.tie_groups is not None and len(jr.rel) > 1:
        starts[1:] = jr.tie_groups[1:] != jr.tie_groups[:-1]
        starts[jr.offsets[:-1][jr.lengths > 0]] = True
    return starts


def tie_means(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document: the mean of ``values`` (per document) over its tie group; ``values``
    themselves without groups."""
    if jr.tie_groups is None:
        return values
    group = np.cumsum(group_starts(jr)) - 1
    sums = np.bincount(group, weights=values)
    return (sums / np.bincount(group))[group]


def _elementary_means(x: list[float], most: int) -> list[float]:
    """``ē_0 .. ē_most`` of the values ``x``: ``e_k(x)/C(len(x), k)``, the mean of the
    product of ``k`` of them taken at random (the module's recursion, ``k`` descending so
    that each step reads the previous ``ē_{k−1}``)."""
    means = [1.0] + [0.0] * most
    for n, value in enumerate(x, start=1):
        for k in range(min(n, most), 0, -1):
            means[k] = ((n - k) * means[k] + k * value * means[k - 1]) / n
    return means


def _rank_means(m: int, q: int, weights: list[float]) -> list[float]:
    """``f_1 .. f_L``: the mean of ``weights[p − 1]`` (``p`` = 1..P, P = len(weights) ≤ m)
    at the rank ``p`` of the l-th of ``q`` documents placed at random among ``m`` ranks,
    ``L = min(q, P)``: ``P(l-th at l) = C(m − l, q − l)/C(m, q)`` (``q/m``, then
    ``× (q − l)/(m − l)``), then ``P(p + 1)/P(p) = p·(m − p − q + l)/((p − l + 1)·(m − p))``."""
    out = []
    start = q / m
    for nth in range(1, min(q, len(weights)) + 1):
        prob, total = start, 0.0
        for p in range(nth, len(weights) + 1):
            total += weights[p - 1] * prob
            if p < len(weights):
                prob *= p * (m - p - q + nth) / ((p - nth + 1) * (m - p))
        out.append(total)
        start *= (q - nth) / (m - nth) if nth < m else 0.0
    return out


def expected_err(jr: JudgedRankings, satisfied: np.ndarray, depth: int | None) -> np.ndarray:
    """Per ranking: the expectation of ERR over the orders of the tie groups of ``jr``
    (module docstring), with ``satisfied`` the stopping probability ``R`` of every document
    of ``jr`` and ``w(r) = 1/r`` up to rank ``depth`` (all ranks: ``None``), 0 beyond."""
    starts = group_starts(jr)
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    size = np.diff(np.append(first, len(jr.rel)))
    above = (first - jr.offsets[:-1][jr.segment[first]])  # s: documents above each group
    limit = int(jr.lengths.max(initial=0)) if depth is None else depth
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, limit + 1))))
    subset = Subset.of(jr, satisfied > 0)
    stop = satisfied[subset.index]
    dsat = subset.previous(subset.scan(1.0 - stop, np.multiply, 1.0), 1.0)
    own = group[subset.index]
    opens = np.ones(len(own), dtype=bool)
    opens[1:] = own[1:] != own[:-1]
    counts = np.bincount(own, minlength=len(first))
    term = np.zeros(len(own))
    # groups of one relevant document: R times the mean weight of the group's ranks
    single = opens & (counts[own] == 1)
    g = own[single]
    low = np.minimum(above[g], limit)
    high = np.minimum(above[g] + size[g], limit)
    term[single] = stop[single] * (harmonic[high] - harmonic[low]) / size[g]
    for at in np.flatnonzero(opens & (counts[own] > 1)):
        g = own[at]
        s, m, q = int(above[g]), int(size[g]), int(counts[g])
        ranks = min(m, limit - s)
        if ranks <= 0:
            continue
        f = _rank_means(m, q, [1.0 / rank for rank in range(s + 1, s + ranks + 1)])
        e = _elementary_means((1.0 - stop[at:at + q]).tolist(), len(f))
        term[at] = sum(fk * (e[k] - e[k + 1]) for k, fk in enumerate(f))
    return subset.total(dsat * term)
