"""Model-based session measures over browsing paths (Kanoulas, Carterette, Clough &
Sanderson, SIGIR 2011, "Evaluating multi-query sessions", §4).

A session is m ranked lists, one per query, in the order issued (the first k documents of
each with ``@k``). The user model, as irscale reads it: the user examines the first
document of query 1's list; after examining position r of list i they go down to r + 1
with probability ``p_down`` (when the list has a position r + 1), and otherwise leave the
list; on leaving list i they reformulate — go on to the first document of list i + 1 —
with probability ``p_reform`` (when there is a list i + 1), and otherwise stop. A
*browsing path* ω = (j; k_1, ..., k_j) views the first k_i documents of lists 1..j, and::

    P(ω) = Π_(i<j) s_i(k_i) · p_reform  ·  s_j(k_j) · (1 − p_reform if j < m else 1)
    s_i(k) = p_down^(k−1) · (1 − p_down)  for k < n_i,   p_down^(n_i − 1)  for k = n_i

(n_i the length of list i: the geometric patience of the paper truncated at the lists'
ends, the mass left at the end of a list or of the session going to its last position).
The path's *concatenated list* is the documents it views, in order; a document already
viewed earlier on the path counts as non-relevant there (the paper's handling of
duplicates: the user gains nothing from seeing it again). The expected session measure
is esM = Σ_ω P(ω) · M(ω), with:

* ``esnDCG(p_reform,p_down,gain)`` — M(ω) = DCG(ω) / IDCG(|ω|): DCG = Σ_t g_t / log2(t + 1)
  over the concatenated list, IDCG(L) the DCG of the topic's ideal list cut at L documents
  (0 when that is 0);
* ``esAP(p_reform,p_down)`` — M(ω) = (1/R) Σ_(t relevant) prec(t), prec(t) the fraction of
  the first t documents of the concatenated list that are relevant (duplicates being
  non-relevant), R the topic's number of relevant documents (0 when R = 0).

The expectation is computed exactly, in polynomial time, without listing the paths. The
path is the stopping depths K_1..K_m of the lists (independent, K_i ~ s_i) and the number
J of lists read (P(J ≥ i) = p_reform^(i−1), independent of the K_i). By linearity of
expectation, a sum over the positions (i, r) of the lists replaces the sum over paths.
The document d at (i, r) counts on a path when the path reaches it (J ≥ i, K_i ≥ r), it
is d's first position in list i, and no earlier list shows it within its depth:
K_l < ρ_l(d) for l < i, ρ_l(d) d's first position in list l — a cap on each earlier
depth. With A = K_1 + ... + K_(i−1) (the path length before list i), its position on the
path is A + r and::

    esnDCG = Σ_(i,r) g · p_reform^(i−1) · Σ_a α_(i,d)(a) · H_(i,r)(a) / log2(a + r + 1)
    α_(i,d)(a) = P(A = a, K_l < ρ_l(d) for l < i)
    H_(i,r)(a) = Σ_(k≥r) s_i(k) · G_i(a + k),   G_i(y) = E[1/IDCG(y + B_i) | J ≥ i]

B_i the length read after list i: G_m = 1/IDCG and G_i(y) = (1 − p_reform) / IDCG(y) +
p_reform Σ_k s_(i+1)(k) G_(i+1)(y + k), a backward pass. esAP is a sum over the relevant
positions t = (i, r) of E[count_t / (A + r)], count_t the relevant documents counted up to
t: t's document, the distinct relevant documents whose first position in list i is before
r, and each other relevant document d that an earlier list shows and list i does not show
before r, when an earlier list's depth reaches it (1 − Π_l 1{K_l < ρ_l(d)}). Hence::

    R · esAP = Σ_t p_reform^(i−1) p_down^(r−1) Σ_a [c_t α_t(a) − Σ_d α_(t,d)(a)] / (a + r)

with α_(t,d) the length distribution with both documents' caps (the smaller on each
list) and c_t counting t, the documents before r and the d's. (The pairs where d's caps
are nowhere below t's own cancel and are left out.)

Each α is a forward pass over the earlier lists, the length a as its state, the rows
(capped distributions) as one array (in blocks of rows, to bound the memory): the
truncated geometric s_l capped at c convolves as W − p_down^c · W(· − c)
(+ p_down^(n_l − 1) · α(· − n_l) when uncapped), W = α filtered by the geometric kernel
(one first-order recursion along a, ``lfilter``); H_(i,r) is likewise a difference of one
backward geometric filter of G_i, read at a + r and a + n_i.
With N = Σ n_i positions, a pass costs O(m · rows · N): esnDCG has at most N rows
(O(m N²)), esAP at most N more per relevant document shown before (O(m N³) at worst).
The test checks the values against the sum over every path and against the exponential
forward pass over the sets of duplicates read that irscale used before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.signal import lfilter

#: A position deeper than any list: "not shown" in :attr:`_Layout.first`.
_ABSENT = np.iinfo(np.int64).max
#: Array elements (capped distributions × path lengths) computed at once: bounds the
#: temporaries of :func:`_expectation`.
_BLOCK = 1 << 21


@dataclass(frozen=True)
class SessionLists:
    """One session's lists, in query order: per list, the documents' codes, gains and
    whether each is relevant."""

    docs: Sequence[np.ndarray]
    gains: Sequence[np.ndarray]
    relevant: Sequence[np.ndarray]


@dataclass(frozen=True)
class _Layout:
    """The positions of a session's lists, flat in list order: list index (from 0), rank
    (from 1), document index (into the session's distinct documents), whether the rank is
    the document's first in its list; per document and list, its first rank
    (:data:`_ABSENT` when not shown) and the cap on the list's depth that does not read
    it (its first rank − 1, or the list's length)."""

    lengths: np.ndarray
    list_of: np.ndarray
    rank: np.ndarray
    doc: np.ndarray
    is_first: np.ndarray
    first: np.ndarray
    caps: np.ndarray

    @classmethod
    def of(cls, docs: Sequence[np.ndarray]) -> _Layout:
        lengths = np.array([len(d) for d in docs], dtype=np.int64)
        list_of = np.repeat(np.arange(len(docs)), lengths)
        rank = np.arange(len(list_of)) - (np.cumsum(lengths) - lengths)[list_of] + 1
        codes, doc = np.unique(np.concatenate(docs), return_inverse=True)
        first = np.full((len(codes), len(docs)), _ABSENT, dtype=np.int64)
        np.minimum.at(first, (doc, list_of), rank)
        caps = np.minimum(first - 1, lengths[None, :])
        return cls(lengths, list_of, rank, doc, first[doc, list_of] == rank, first, caps)


def stop_probabilities(length: int, p_down: float) -> np.ndarray:
    """s(k), k = 1..length: the probability that a list of ``length`` documents is read
    down to position k exactly (module documentation)."""
    k = np.arange(length, dtype=np.float64)
    out = np.power(p_down, k) * (1.0 - p_down)
    out[-1] = p_down ** (length - 1)
    return out


def _shift(values: np.ndarray, by: np.ndarray) -> np.ndarray:
    """Row j of ``values`` moved right by ``by[j]`` columns (zeros coming in; 0 ≤ by[j] ≤
    the width): row j of the windows of the row padded on the left, starting at its
    width − by[j]."""
    rows, width = values.shape
    padded = np.zeros((rows, 2 * width))
    padded[:, width:] = values
    windows = np.lib.stride_tricks.sliding_window_view(padded, width, axis=1)
    return windows[np.arange(rows), width - by]


def _capped_lengths(caps: np.ndarray, target: np.ndarray, lengths: np.ndarray,
                    p_down: float, width: int) -> np.ndarray:
    """α[j, a] = P(K_1 + ... + K_(i−1) = a, K_l ≤ caps[j, l] for l < i), i = target[j] + 1
    (lists from 0 in ``target`` and ``caps``): the forward pass over the lists (module
    documentation), the rows of equal caps computed once, a = 0 .. width − 1."""
    key = np.where(np.arange(caps.shape[1])[None, :] < target[:, None], caps, -1)
    unique, inverse = np.unique(np.column_stack([-target, key]), axis=0, return_inverse=True)
    caps, target = unique[:, 1:], -unique[:, 0]  # latest target list first
    alpha = np.zeros((len(target), width))
    alpha[:, 0] = 1.0
    reach = np.cumsum(lengths) + 1  # lengths after list lst: below reach[lst]
    for lst in range(len(lengths) - 1):
        rows = int(np.searchsorted(-target, -lst))  # the rows whose target list is after lst
        if rows == 0:
            break
        upto = min(width, int(reach[lst]))
        n, cap, before = int(lengths[lst]), caps[:rows, lst], alpha[:rows, :upto]
        geometric = lfilter([0.0, 1.0 - p_down], [1.0, -p_down], before, axis=1)
        terms = np.minimum(cap, n - 1)  # depths k ≤ terms of the geometric part
        after = geometric - np.power(p_down, terms)[:, None] * _shift(geometric, terms)
        whole = cap >= n  # uncapped: the last position's mass
        after[whole, n:] += p_down ** (n - 1) * before[whole, :upto - n]
        alpha[:rows, :upto] = after
    return alpha[inverse.ravel()]


def _expectation(caps: np.ndarray, target: np.ndarray, lengths: np.ndarray, p_down: float,
                 weights: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> float:
    """Σ_j Σ_a α[j, a] · weights(j, a) (α of :func:`_capped_lengths`; ``weights`` takes row
    indices and the lengths a, and gives the matrix), in blocks of rows of at most
    :data:`_BLOCK` elements."""
    before = np.cumsum(lengths) - lengths  # the longest path before list i, plus 1: widths
    order = np.argsort(-target, kind="stable")
    total, start = 0.0, 0
    while start < len(order):
        width = int(before[target[order[start]]]) + 1
        block = order[start:start + max(1, _BLOCK // width)]
        alpha = _capped_lengths(caps[block], target[block], lengths, p_down, width)
        total += float((alpha * weights(block, np.arange(width))).sum())
        start += len(block)
    return total


def _tail_means(inverse_ideal: np.ndarray, lengths: np.ndarray, p_reform: float,
                p_down: float) -> list[np.ndarray]:
    """G_i(y) (module documentation) of every list i, y = 0 .. len(inverse_ideal) − 1
    (beyond: 0)."""
    tails = [inverse_ideal]
    for lst in range(len(lengths) - 1, 0, -1):
        kernel = np.concatenate([[0.0], stop_probabilities(int(lengths[lst]), p_down)])
        padded = np.concatenate([tails[0], np.zeros(len(kernel) - 1)])
        ahead = np.correlate(padded, kernel, mode="valid")
        tails.insert(0, (1.0 - p_reform) * inverse_ideal + p_reform * ahead)
    return tails


def expected_ndcg(lists: SessionLists, p_reform: float, p_down: float,
                  ideal_dcg: np.ndarray) -> float:
    """esnDCG of one session (module documentation); ``ideal_dcg[L − 1]`` is the DCG of the
    topic's ideal list cut at L documents (its last value beyond its length)."""
    layout = _Layout.of(lists.docs)
    lengths = layout.lengths
    gains = np.concatenate(lists.gains).astype(np.float64)
    relevant = np.concatenate(lists.relevant).astype(bool)
    rows = np.flatnonzero(layout.is_first & (relevant | (gains > 0)) & (gains != 0))
    if not len(ideal_dcg) or not len(rows):
        return 0.0
    longest = int(lengths.max())
    size = int(lengths.sum()) - int(lengths[-1]) + 1 + longest  # y = a + k below size
    ideal = ideal_dcg[np.clip(np.arange(size), 1, len(ideal_dcg)) - 1]
    ideal[0] = 0.0
    inverse_ideal = np.divide(1.0, ideal, out=np.zeros(size), where=ideal > 0)
    tails = np.array(_tail_means(inverse_ideal, lengths, p_reform, p_down))
    # H_(i,r)(a) = (1 − p) p^(r−1) [B_i(a + r) − p^(n−r) B_i(a + n)] + p^(n−1) G_i(a + n),
    # B_i(y) = Σ_(j≥0) p^j G_i(y + j): the geometric part of Σ_(k≥r) s_i(k) G_i(a + k)
    backward = lfilter([1.0], [1.0, -p_down], tails[:, ::-1], axis=1)[:, ::-1]
    lst, rank = layout.list_of[rows], layout.rank[rows]
    n = lengths[lst]
    gain = gains[rows] * np.power(p_reform, lst)

    def weights(block: np.ndarray, a: np.ndarray) -> np.ndarray:
        i, r, end = lst[block, None], rank[block, None], n[block, None]
        reach = (1.0 - p_down) * np.power(p_down, r - 1.0) \
            * (backward[i, a + r] - np.power(p_down, end - r) * backward[i, a + end]) \
            + np.power(p_down, end - 1.0) * tails[i, a + end]
        return gain[block, None] * reach / np.log2(a + r + 1.0)

    return _expectation(layout.caps[layout.doc[rows]], lst, lengths, p_down, weights)


def expected_ap(lists: SessionLists, p_reform: float, p_down: float, num_rel: int) -> float:
    """esAP of one session (module documentation); ``num_rel`` is R."""
    layout = _Layout.of(lists.docs)
    lengths = layout.lengths
    relevant = np.concatenate(lists.relevant).astype(bool)
    targets = np.flatnonzero(layout.is_first & relevant)
    if num_rel <= 0 or not len(targets):
        return 0.0
    relevant_doc = np.zeros(len(layout.caps), dtype=bool)
    relevant_doc[layout.doc[relevant]] = True
    # distinct relevant documents of the list up to t: c_t before the pairs
    starts = np.cumsum(lengths) - lengths
    found = np.cumsum(layout.is_first & relevant)
    found -= np.concatenate([[0], found])[starts][layout.list_of]
    count = found[targets].astype(np.float64)
    lst, rank, doc = layout.list_of[targets], layout.rank[targets], layout.doc[targets]
    pairs: list[tuple[np.ndarray, np.ndarray]] = []  # (target, other document) of α_(t,d)
    for i in range(1, len(lengths)):
        mine = np.flatnonzero(lst == i)
        shown = np.flatnonzero(relevant_doc & (layout.first[:, :i] < _ABSENT).any(axis=1))
        own, theirs = layout.caps[doc[mine], None, :i], layout.caps[None, shown, :i]
        pair = (doc[mine, None] != shown[None, :]) \
            & (layout.first[shown, i][None, :] > rank[mine, None]) \
            & (theirs < own).any(axis=2)
        t, d = np.nonzero(pair)
        pairs.append((mine[t], shown[d]))
    target = np.concatenate([np.arange(len(targets)), *(t for t, _ in pairs)])
    other = np.concatenate([doc, *(d for _, d in pairs)])
    paired = len(target) - len(targets)
    count += np.bincount(target[len(targets):], minlength=len(targets))
    weight = np.concatenate([count, -np.ones(paired)])
    caps = np.minimum(layout.caps[doc[target]], layout.caps[other])
    row_lst, row_r = lst[target], rank[target]
    weight *= np.power(p_reform, row_lst) * np.power(p_down, row_r - 1.0)

    def weights(block: np.ndarray, a: np.ndarray) -> np.ndarray:
        return weight[block, None] / (a + row_r[block, None])

    return _expectation(caps, row_lst, lengths, p_down, weights) / num_rel
