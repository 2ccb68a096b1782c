"""The mixing policies of interleaving: how the list of an impression is built from the
rankers' rankings, and how a click on it is credited (:mod:`irscale.online.interleaving`
draws impressions with them and scores the clicks).

Mixing policies and their credit rules (rankers A and B; ``length`` = the SERP length L):

``balanced`` — balanced interleaving (Joachims 2002), Algorithm 1 of Ferro & Maistro (2024) (as
    given by Radlinski, Kurup & Joachims 2008): a coin ``AFirst`` gives one ranker priority; with
    pointers k_a, k_b (1-based) the list takes a[k_a] when k_a < k_b or (k_a = k_b and AFirst),
    b[k_b] otherwise — appending the document unless it is in the list already — and the pointer
    that was read advances. It stops when a pointer runs past its ranking; the list shown is its
    first L documents. The pointer advances whether or not the document was appended: the layout of
    the pseudo-code in Ferro & Maistro (2024) puts ``k_a ← k_a + 1`` inside the ``if a[k_a] ∉ I``
    branch, which never ends when the rankings share a document (Radlinski et al. 2008, Algorithm 1,
    advance it in both cases).
    Credit: with c_max the lowest clicked position and d = I[c_max],
    k = min{j : a[j] = d or b[j] = d}; h_a = |{clicked d' : d' ∈ a[1..k]}|,
    h_b = |{clicked d' : d' ∈ b[1..k]}|; A wins when h_a > h_b, B when h_a < h_b.

``team-draft`` — team-draft interleaving (Radlinski, Kurup & Joachims 2008, Algorithm 2):
    while both rankings have a document not in the list, the ranker with the smaller team
    (a coin when the teams are equal) adds its highest-ranked document not in the list to
    the list and to its team. Credit: the clicks on each team's documents; the ranker with
    more wins. The coins are drawn for all impressions at once: teams are equal at every
    even position, so the list is fixed by one coin per pair of positions.

``probabilistic`` — probabilistic interleaving (Hofmann, Whiteson & de Rijke 2011): each
    ranker is a softmax over its ranking, P_s(d) ∝ 1/r_s(d)^τ (τ = 3); at every position a
    fair coin picks a ranker (the other one when the picked one has no document left),
    which draws a document from its distribution renormalised over the documents not yet
    shown (every ranker's distribution loses the shown documents). Credit (``credit=
    "marginal"``, the paper's estimator): the outcome is marginalised over the assignments
    a ∈ {A, B}^L of positions to rankers that could have produced the list,
    P(a | I) ∝ Π_i P(choose a_i) P_{a_i}(I_i | I_1..I_{i-1}) — a product over positions,
    so P(a_i = A | I) = p_A,i / (p_A,i + p_B,i) independently per position — and the
    expected outcome E[o] = P(c_A > c_B | I, clicks) − P(c_A < c_B | I, clicks) (c_s: the
    clicks assigned to s) is computed exactly by a convolution over the clicked positions.
    An impression counts as a win with probability P(c_A > c_B | ...) and a loss with
    P(c_A < c_B | ...), so Δ_AB = mean(E[o])/2: the sign of E[o] is biased under random
    clicks where rankings overlap, its mean is not. ``credit="assignment"`` credits each
    click to the ranker that actually drew the document (as team-draft).

``optimized`` — optimised interleaving (Radlinski & Craswell 2013). Allowed lists: those in
    which every document is the highest-ranked document of A or of B not yet in the list
    (every prefix is a union of prefixes of A and B). Credit of a click on d:
    δ_s(d) = f(r_s(d)) with f(r) = 1/r (``credit="inverse"``) or f(r) = −r
    (``credit="linear"``), r_s(d) = |s| + 1 for a document s does not rank; A wins when
    Σ_clicked δ_A > Σ_clicked δ_B. The probabilities p_I of the allowed lists of a topic
    solve the linear program (``scipy.optimize.linprog``, HiGHS): unbiasedness — for every
    k ≤ L, Σ_I p_I Σ_{i≤k} (δ_A(I_i) − δ_B(I_i)) = 0, so that a user who clicks at random
    among the top k favours neither ranker — with Σ p_I = 1, p ≥ 0, minimising the
    expected insensitivity of Schuth et al. (2014), Σ_I p_I Σ_s (Σ_i δ_s(I_i)/i − μ_I)²
    with μ_I = (1/2) Σ_s Σ_i δ_s(I_i)/i (clicks with probability 1/i at position i). One
    program per topic (2^L choice sequences enumerated, so L ≤ 16); a topic whose program
    has no solution is an error.

``team-draft`` with more than two rankers is team-draft multileaving (Schuth et al. 2014):
    in every round the rankers pick in a random order (a random permutation per round),
    each adding its highest-ranked document not in the list; the list ends when the ranker
    whose turn it is has no document left. Credit: the clicks on each team; every pair of
    rankers gets a win, loss or tie per impression (the pairwise preference matrix).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..collections.candidates import Candidates
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class Cube:
    """The rankings of :class:`Candidates` prepared for the mixing policies: lengths of
    every ranking, the rank of every (topic, document) pair in every ranker."""

    candidates: Candidates

    @property
    def pairs(self) -> np.ndarray:
        return self.candidates.pairs

    @property
    def n_rankers(self) -> int:
        return self.pairs.shape[1]

    def lengths(self) -> np.ndarray:
        """Documents in every ranking (topics × rankers)."""
        return (self.pairs >= 0).sum(axis=2)

    def ranks(self) -> np.ndarray:
        """Rank (1-based) of every pair in every ranker, 0 where it does not rank it
        (pairs × rankers)."""
        out = np.zeros((self.candidates.n_pairs, self.n_rankers), dtype=np.int64)
        t, r, k = np.nonzero(self.pairs >= 0)
        out[self.pairs[t, r, k], r] = k + 1
        return out

    def local(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """The cube cut at ``depth`` with every pair numbered within its topic (0, 1, ...;
        -1 past a ranking, one column of -1 appended), and the pair id of every local code
        (topics × codes, -1 where a topic has fewer codes)."""
        cut = self.pairs[:, :, :depth]
        valid = cut >= 0
        codes, inverse = np.unique(cut[valid], return_inverse=True)
        topic_of = self.candidates.pair_topic[codes]
        code = np.arange(len(codes)) - np.searchsorted(topic_of, topic_of)
        local = np.full((*cut.shape[:2], cut.shape[2] + 1), -1, dtype=np.int64)
        local[:, :, :-1][valid] = code[inverse]
        table = np.full((cut.shape[0], int(code.max(initial=-1)) + 2), -1, dtype=np.int64)
        table[topic_of, code] = codes
        return local, table


def to_pairs(table: np.ndarray, codes: np.ndarray, topic: np.ndarray) -> np.ndarray:
    """Pair ids of the local ``codes`` (rows of impressions of topics ``topic``; -1 stays)."""
    return table[topic[:, None], codes]


# --------------------------------------------------------------------------- drafting
def draft(local: np.ndarray, width: int, topic: np.ndarray, choice: np.ndarray,
           ) -> tuple[np.ndarray, np.ndarray]:
    """Lists built by drafting: at position i the ranker ``choice[:, i]`` appends its
    highest-ranked document not in the list; the list ends when that ranker has none.
    Returns the local codes (impressions × L, -1 after the end) and the ranker of every
    position (-1 after the end)."""
    n, length = choice.shape
    n_rankers, depth = local.shape[1], local.shape[2]
    flat = local.ravel()  # flat index of (topic, ranker, rank): (t·m + s)·depth + rank
    used = np.zeros(n * width, dtype=bool)  # flat index of (impression, code)
    pointer = np.zeros(n * n_rankers, dtype=np.int64)  # flat index of (impression, ranker)
    docs = np.full((n, length), -1, dtype=np.int64)
    team = np.full((n, length), -1, dtype=np.int8)
    live = np.arange(n)
    for i in range(length):
        ranker = choice[live, i].astype(np.int64)
        slot = live * n_rankers + ranker
        p = pointer[slot]
        start = (topic[live] * n_rankers + ranker) * depth
        doc = flat[start + p]
        row = live * width
        need = np.flatnonzero(doc >= 0)
        need = need[used[row[need] + doc[need]]]
        while need.size:  # skip the documents other rankers put in the list already
            p[need] += 1
            doc[need] = flat[start[need] + p[need]]
            need = need[doc[need] >= 0]
            need = need[used[row[need] + doc[need]]]
        if not (doc >= 0).all():  # a ranker with no document left ends its lists
            ok = doc >= 0
            live, ranker, slot, p, doc, row = (live[ok], ranker[ok], slot[ok], p[ok],
                                               doc[ok], row[ok])
        docs[live, i] = doc
        team[live, i] = ranker
        used[row + doc] = True
        pointer[slot] = p + 1
    return docs, team


def balanced_lists(local: np.ndarray, width: int, length: int) -> np.ndarray:
    """Algorithm 1 of Ferro & Maistro (2024) for every topic and both values of AFirst: local codes
    (2 topics × L; row 2t + AFirst)."""
    n_topics = local.shape[0]
    rows = np.arange(2 * n_topics)
    topic, a_first = rows // 2, (rows % 2).astype(bool)
    size = (local >= 0).sum(axis=2)
    size_a, size_b = size[topic, 0], size[topic, 1]
    used = np.zeros((len(rows), width), dtype=bool)
    out = np.full((len(rows), length), -1, dtype=np.int64)
    shown = np.zeros(len(rows), dtype=np.int64)
    ka = np.zeros(len(rows), dtype=np.int64)
    kb = np.zeros(len(rows), dtype=np.int64)
    active = (ka < size_a) & (kb < size_b) & (shown < length)
    while active.any():
        r = rows[active]
        take_a = (ka[r] < kb[r]) | ((ka[r] == kb[r]) & a_first[r])
        doc = np.where(take_a, local[topic[r], 0, ka[r]], local[topic[r], 1, kb[r]])
        new = ~used[r, doc]
        put = r[new]
        out[put, shown[put]] = doc[new]
        used[put, doc[new]] = True
        shown[put] += 1
        ka[r[take_a]] += 1
        kb[r[~take_a]] += 1
        active = (ka < size_a) & (kb < size_b) & (shown < length)
    return out


# --------------------------------------------------------------------------- probabilistic
def probabilistic_lists(cube: Cube, topic: np.ndarray, length: int, tau: float,
                   gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Probabilistic interleaving of two rankers: pair ids (impressions × L), the ranker
    that drew every document, and p[:, i, s] = P(choose s) P_s(I_i | I_1..I_{i-1}).

    Ranker s weighs its rank r by w(r) = r^-τ; T(r) = Σ_{j ≥ r} w(j) (summed from the
    tail, so that small masses keep their precision). With r0 the best rank of s not yet
    shown, the mass left is M = T(r0) − Σ w(shown ranks > r0), and a draw inverts the
    CDF over the unshown ranks: u ~ U(0, M), and the rank is the fixed point of
    r = min{r ≥ r0 : T(r0) − T(r + 1) > u + S(r)}, S(r) the weight of the shown ranks in
    (r0, r] (at most L + 1 iterations; each a binary search of T, all impressions at
    once)."""
    n = len(topic)
    lengths = cube.lengths()
    ranks = cube.ranks()
    pairs = cube.pairs
    depth = pairs.shape[2] - 1
    k = np.arange(1, depth + 1, dtype=np.float64)
    weight = np.where(pairs[:, :, :depth] >= 0, k ** -tau, 0.0)  # topics × 2 × depth
    tail = np.zeros((*weight.shape[:2], depth + 1))
    tail[:, :, :depth] = np.cumsum(weight[:, :, ::-1], axis=2)[:, :, ::-1]
    flat_tail, flat_weight = tail.ravel(), weight.ravel()
    rows = np.arange(n)
    docs = np.full((n, length), -1, dtype=np.int64)
    drawn = np.full((n, length), -1, dtype=np.int8)
    prob = np.zeros((n, length, 2))
    never = np.iinfo(np.int64).max
    shown_rank = np.full((2, n, length), never, dtype=np.int64)  # 0-based ranks shown
    first = np.zeros((n, 2), dtype=np.int64)  # best rank of each ranker not shown yet
    size = lengths[topic]  # n × 2

    def weights_at(side: np.ndarray, live: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """w of the 0-based ``rank`` (rows × m) of ranker ``side`` of every row."""
        at = (topic[live, None] * 2 + side[:, None]) * depth + np.minimum(rank, depth - 1)
        return flat_weight[at]

    def mass_left(side: np.ndarray, live: np.ndarray) -> np.ndarray:
        """M of ranker ``side`` of every row: T(r0) − Σ w(shown ranks > r0)."""
        r0 = first[live, side]
        shown = shown_rank[side, live]
        beyond = np.where((shown > r0[:, None]) & (shown != never),
                          weights_at(side, live, shown), 0.0).sum(axis=1)
        return flat_tail[(topic[live] * 2 + side) * (depth + 1) + r0] - beyond

    for i in range(length):
        avail = first < size
        coin = gen.integers(0, 2, n)
        chosen = np.where(avail[rows, coin], coin, 1 - coin)
        live = rows[avail.any(axis=1)]
        s = chosen[live]
        start = (topic[live] * 2 + s) * (depth + 1)
        r0 = first[live, s]
        shown = shown_rank[s, live]
        shown_w = np.where(shown != never, weights_at(s, live, shown), 0.0)
        u = gen.random(len(live)) * mass_left(s, live)
        top = flat_tail[start + r0]
        r = r0.copy()
        while True:
            within = ((shown > r0[:, None]) & (shown <= r[:, None]))
            x = top - u - np.where(within, shown_w, 0.0).sum(axis=1)
            lo, hi = r0 + 1, size[live, s]  # the first k in [lo, hi] with T(k) < x
            while (lo < hi).any():
                mid = (lo + hi) // 2
                below = flat_tail[start + mid] < x
                hi = np.where(below, mid, hi)
                lo = np.where(below, lo, mid + 1)
            new = np.minimum(lo - 1, size[live, s] - 1)
            if np.array_equal(new, r):
                break
            r = new
        # a rank shown already can only come from rounding at the very end of the tail
        r = np.where((shown == r[:, None]).any(axis=1), r0, r)
        doc = pairs[topic[live], s, r]
        docs[live, i] = doc
        drawn[live, i] = s
        both = avail[live].all(axis=1)
        for side in (0, 1):
            side_of = np.full(len(live), side)
            rank = ranks[doc, side] - 1  # 0-based, -1: not ranked by this side
            left = mass_left(side_of, live)
            w = np.where(rank >= 0,
                         weights_at(side_of, live, np.maximum(rank, 0)[:, None])[:, 0], 0.0)
            pick = np.where(both, 0.5, (s == side).astype(np.float64))
            prob[live, i, side] = pick * np.divide(w, left, out=np.zeros_like(w),
                                                   where=left > 0)
            shown_rank[side, live, i] = np.where(rank >= 0, rank, never)
            # the best rank not shown yet moves past the ranks shown
            p = first[live, side]
            move = np.flatnonzero((shown_rank[side, live] == p[:, None]).any(axis=1))
            while move.size:
                p[move] += 1
                move = move[(shown_rank[side, live[move]] == p[move, None]).any(axis=1)]
            first[live, side] = p
    return docs, drawn, prob


# --------------------------------------------------------------------------- optimized
def credit_function(credit: str):
    return (lambda r: 1.0 / r) if credit == "inverse" else (lambda r: -r.astype(np.float64))


def optimized_lists(cube: Cube, length: int, credit: str,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Allowed lists of every topic and their probabilities: (pair ids of the lists,
    topic of every list, probability of every list); see the module docstring."""
    from scipy.optimize import linprog

    local, table = cube.local(length)
    n_topics = local.shape[0]
    sequences = (np.arange(2 ** length)[:, None] >> np.arange(length)) & 1
    topic = np.repeat(np.arange(n_topics), len(sequences))
    choice = np.tile(sequences, (n_topics, 1))
    docs, _ = draft(local, table.shape[1], topic, choice)
    key = np.concatenate([topic[:, None], docs], axis=1)
    key = np.unique(key, axis=0)
    topic, docs = key[:, 0], key[:, 1:]
    pairs = to_pairs(table, docs, topic)
    delta = list_credits(cube, pairs, topic, credit)  # lists × L × 2
    bounds = np.searchsorted(topic, np.arange(n_topics + 1))
    prob = np.zeros(len(topic))
    position = 1.0 / np.arange(1, length + 1)
    for t in range(n_topics):  # one linear program per topic
        part = slice(bounds[t], bounds[t + 1])
        d = delta[part]
        if len(d) == 0:
            continue
        bias = np.cumsum(d[:, :, 0] - d[:, :, 1], axis=1).T  # L × lists
        expected = (d * position[None, :, None]).sum(axis=1)  # lists × 2
        mu = expected.mean(axis=1, keepdims=True)
        cost = ((expected - mu) ** 2).sum(axis=1)
        a_eq = np.vstack([np.ones(len(d)), bias])
        b_eq = np.zeros(len(a_eq))
        b_eq[0] = 1.0
        solved = linprog(cost, A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
        if solved.status != 0:
            raise InputError(f"optimized interleaving: no unbiased distribution over the "
                             f"allowed lists of topic {cube.candidates.topics[t]!r} "
                             f"({solved.message}); use another method or credit")
        p = np.clip(solved.x, 0.0, None)
        prob[part] = p / p.sum()
    return pairs, topic, prob


def list_credits(cube: Cube, pairs: np.ndarray, topic: np.ndarray, credit: str,
                  ) -> np.ndarray:
    """δ_s of every shown document (lists × L × 2; 0 where no document is shown)."""
    ranks = cube.ranks()
    lengths = cube.lengths()
    r = ranks[np.maximum(pairs, 0)]  # lists × L × 2
    r = np.where(r > 0, r, lengths[topic][:, None, :] + 1)
    return np.where((pairs >= 0)[:, :, None], credit_function(credit)(r), 0.0)
