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
backward geometric filter of G_i, read at a + r and a + n_i. Many sessions go through
the same array operations: sessions of similar numbers of positions are taken together
(each row carrying its session's list lengths and caps, the path lengths of a block padded
to its widest row, each session's values zero past those it reads), and the rows of equal
earlier lengths and caps, of one session or several, are computed once.
With N = Σ n_i positions, a pass costs O(m · rows · N): esnDCG has at most N rows
(O(m N²)), esAP at most N more per relevant document shown before (O(m N³) at worst).
The test checks the values against the sum over every path and against the exponential
forward pass over the sets of duplicates read that irscale used before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

#: A position deeper than any list: "not shown" in :attr:`_Layout.first`.
_ABSENT = np.iinfo(np.int64).max
#: Array elements (capped distributions × path lengths, or sessions × lists × path
#: lengths) computed at once: bounds the temporaries of :func:`_expectation` and the
#: sessions taken together by :func:`_chunks`.
_BLOCK = 1 << 21


@dataclass(frozen=True)
class SessionLists:
    """One session's lists, in query order: per list, the documents' codes, gains and
    whether each is relevant."""

    docs: Sequence[np.ndarray]
    gains: Sequence[np.ndarray]
    relevant: Sequence[np.ndarray]


@dataclass(frozen=True)
class Sessions:
    """Many sessions' lists, flat: per position (the sessions in order, each session's
    lists in query order, each list in rank order) its session (0 .. ``count`` − 1), its
    query (a list starts where the session or the query changes), the document's code,
    its gain and whether it is relevant."""

    count: int
    session: np.ndarray
    query: np.ndarray
    docs: np.ndarray
    gains: np.ndarray
    relevant: np.ndarray

    @classmethod
    def of(cls, sessions: Sequence[SessionLists]) -> Sessions:
        lists = [len(one.docs) for one in sessions]
        sizes = np.array([len(d) for one in sessions for d in one.docs], dtype=np.int64)
        owner = np.repeat(np.arange(len(sessions)), lists)

        def flat(part: Callable[[SessionLists], Sequence[np.ndarray]],
                 dtype: type) -> np.ndarray:
            arrays: list[np.ndarray] = [np.asarray(a, dtype=dtype) for one in sessions
                                        for a in part(one)]
            return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)

        return cls(len(sessions), np.repeat(owner, sizes),
                   np.repeat(np.arange(len(sizes)), sizes), flat(lambda s: s.docs, np.int64),
                   flat(lambda s: s.gains, np.float64), flat(lambda s: s.relevant, bool))

    def take(self, ids: np.ndarray) -> Sessions:
        """The sessions ``ids`` (increasing), numbered 0 .. len(ids) − 1."""
        bounds = np.searchsorted(self.session, np.arange(self.count + 1))
        sizes = bounds[ids + 1] - bounds[ids]
        at = np.repeat(bounds[ids] - (np.cumsum(sizes) - sizes), sizes) \
            + np.arange(int(sizes.sum()))
        return Sessions(len(ids), np.repeat(np.arange(len(ids)), sizes), self.query[at],
                        self.docs[at], self.gains[at], self.relevant[at])


@dataclass(frozen=True)
class _Layout:
    """The positions of sessions' lists, flat: session, list index within the session
    (from 0), rank (from 1), document index (into the distinct documents of each session,
    those of a session consecutive), whether the rank is the document's first in its
    list; per session and list, the list's length (0 past the session's last list); per
    document, its session and, per list of its session, its first rank (:data:`_ABSENT`
    when not shown) and the cap on the list's depth that does not read it (its first rank
    − 1, or the list's length)."""

    lengths: np.ndarray
    session: np.ndarray
    list_of: np.ndarray
    rank: np.ndarray
    doc: np.ndarray
    is_first: np.ndarray
    owner: np.ndarray
    first: np.ndarray
    caps: np.ndarray

    @classmethod
    def of(cls, sessions: Sessions) -> _Layout:
        session, docs = sessions.session, sessions.docs
        new = np.ones(len(session), dtype=bool)
        new[1:] = (session[1:] != session[:-1]) | (sessions.query[1:] != sessions.query[:-1])
        starts = np.flatnonzero(new)
        flat_list = np.cumsum(new) - 1
        list_of = flat_list - np.searchsorted(session[starts], session)
        width = int(list_of.max()) + 1
        lengths = np.zeros((sessions.count, width), dtype=np.int64)
        lengths[session[starts], list_of[starts]] = np.diff(np.append(starts, len(session)))
        rank = np.arange(len(session)) - starts[flat_list] + 1
        order = np.lexsort((docs, session))
        change = np.ones(len(order), dtype=bool)
        change[1:] = (session[order[1:]] != session[order[:-1]]) \
            | (docs[order[1:]] != docs[order[:-1]])
        doc = np.empty(len(order), dtype=np.int64)
        doc[order] = np.cumsum(change) - 1
        owner = session[order[change]]
        first = np.full((len(owner), width), _ABSENT, dtype=np.int64)
        key = doc * width + list_of
        _, at = np.unique(key, return_index=True)  # a document's first position in a list
        first.flat[key[at]] = rank[at]
        caps = np.minimum(first - 1, lengths[owner])
        return cls(lengths, session, list_of, rank, doc, first[doc, list_of] == rank, owner,
                   first, caps)


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
    (lists from 0 in ``target``, ``caps`` and ``lengths``, the lengths of row j's session's
    lists): the forward pass over the lists (module documentation), the rows of equal
    caps and lengths before their target list computed once, a = 0 .. width − 1."""
    from scipy.signal import lfilter  # here: reading sessions needs no scipy

    lists = caps.shape[1]
    earlier = np.arange(lists)[None, :] < target[:, None]
    key = np.column_stack([-target, np.where(earlier, lengths, 0),
                           np.where(earlier, caps, -1)])
    order = np.lexsort(key.T[::-1])  # by decreasing target list, then lengths and caps
    key = key[order]
    distinct = np.ones(len(key), dtype=bool)
    distinct[1:] = (key[1:] != key[:-1]).any(axis=1)
    inverse = np.empty(len(key), dtype=np.int64)
    inverse[order] = np.cumsum(distinct) - 1
    target, lengths, caps = -key[distinct, 0], key[distinct, 1:lists + 1], \
        key[distinct, lists + 1:]
    reach = np.cumsum(lengths, axis=1) + 1  # lengths after list lst: below reach[:, lst]
    alpha = np.zeros((len(target), width))
    alpha[:, 0] = 1.0
    for lst in range(lists - 1):
        rows = int(np.searchsorted(-target, -lst))  # the rows whose target list is after lst
        if rows == 0:
            break
        upto = min(width, int(reach[:rows, lst].max()))
        n, cap, before = lengths[:rows, lst], caps[:rows, lst], alpha[:rows, :upto]
        geometric = lfilter([0.0, 1.0 - p_down], [1.0, -p_down], before, axis=1)
        terms = np.minimum(cap, n - 1)  # depths k ≤ terms of the geometric part
        after = geometric \
            - np.power(p_down, terms)[:, None] * _shift(geometric, np.minimum(terms, upto))
        whole = np.flatnonzero(cap >= n)  # uncapped: the last position's mass
        after[whole] += np.power(p_down, n[whole] - 1)[:, None] \
            * _shift(before[whole], np.minimum(n[whole], upto))
        after[np.arange(upto)[None, :] >= reach[:rows, lst, None]] = 0.0
        alpha[:rows, :upto] = after
    return alpha[inverse.ravel()]


def _expectation(caps: np.ndarray, target: np.ndarray, lengths: np.ndarray, p_down: float,
                 weights: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Σ_a α[j, a] · weights(j, a) of every row j (α of :func:`_capped_lengths`;
    ``weights`` takes row indices and the lengths a, and gives the matrix), the rows taken
    by decreasing longest path before their target list, in blocks of at most
    :data:`_BLOCK` elements."""
    before = (np.cumsum(lengths, axis=1) - lengths)[np.arange(len(target)), target]
    order = np.argsort(-before, kind="stable")
    out = np.zeros(len(target))
    start = 0
    while start < len(order):
        width = int(before[order[start]]) + 1
        block = order[start:start + max(1, _BLOCK // width)]
        alpha = _capped_lengths(caps[block], target[block], lengths[block], p_down, width)
        out[block] = (alpha * weights(block, np.arange(width))).sum(axis=1)
        start += len(block)
    return out


def _chunks(sessions: Sessions) -> Iterator[tuple[np.ndarray, Sessions]]:
    """The sessions that have positions in groups of similar sizes (by number of
    positions), each group's sessions × lists × (positions + 1) at most :data:`_BLOCK` (or
    one session): the group's session indices and the group."""
    if not len(sessions.session):
        return
    bounds = np.searchsorted(sessions.session, np.arange(sessions.count + 1))
    sizes = np.diff(bounds)
    new = np.ones(len(sessions.session), dtype=bool)
    new[1:] = (sessions.session[1:] != sessions.session[:-1]) \
        | (sessions.query[1:] != sessions.query[:-1])
    lists = int(np.bincount(sessions.session[new]).max())
    order = np.argsort(sizes, kind="stable")
    order = order[sizes[order] > 0]  # a session without positions: 0
    start = 0
    while start < len(order):
        cost = np.arange(1, len(order) - start + 1) * (sizes[order[start:]] + 1) * lists
        end = start + max(1, int(np.searchsorted(cost, _BLOCK, side="right")))
        ids = np.sort(order[start:end])
        yield ids, sessions.take(ids)
        start = end


def _tail_means(inverse_ideal: np.ndarray, lengths: np.ndarray, sizes: np.ndarray,
                p_reform: float, p_down: float) -> np.ndarray:
    """G_i(y) (module documentation) of every session and list i, y = 0 ..
    inverse_ideal.shape[1] − 1, from the sessions' last lists backwards; 0 from
    ``sizes[session]`` on (the values a session reads are below)."""
    count, size = inverse_ideal.shape
    lists = (lengths > 0).sum(axis=1)
    longest = int(lengths.max())
    inside = np.arange(size)[None, :] < sizes[:, None]
    tails = np.zeros((count, lengths.shape[1], size))
    tails[np.arange(count), np.maximum(lists - 1, 0)] = inverse_ideal * inside
    stops = np.zeros((longest + 1, longest + 1))  # stops[n, k] = s(k) of a list of n
    for n in np.unique(lengths[lengths > 0]).tolist():
        stops[n, 1:n + 1] = stop_probabilities(n, p_down)
    for lst in range(lengths.shape[1] - 2, -1, -1):
        mine = np.flatnonzero(lists > lst + 1)  # the sessions with a list after lst
        padded = np.concatenate([tails[mine, lst + 1], np.zeros((len(mine), longest))], axis=1)
        n = lengths[mine, lst + 1]
        ahead = np.zeros((len(mine), size))
        for k in range(1, longest + 1):  # Σ_k s_(lst+1)(k) G_(lst+1)(y + k)
            ahead += stops[n, k][:, None] * padded[:, k:k + size]
        tails[mine, lst] = ((1.0 - p_reform) * inverse_ideal[mine] + p_reform * ahead) \
            * inside[mine]
    return tails


def expected_ndcg_many(sessions: Sessions, p_reform: float, p_down: float,
                       ideal_dcg: np.ndarray, ideal_bounds: np.ndarray) -> np.ndarray:
    """esnDCG of every session (module documentation), the sessions of similar sizes
    together (:func:`_chunks`); ``ideal_dcg[ideal_bounds[s, 0] + L − 1]`` is the DCG of
    session s's topic's ideal list cut at L documents (its last value, before
    ``ideal_bounds[s, 1]``, beyond its length)."""
    out = np.zeros(sessions.count)
    for ids, group in _chunks(sessions):
        out[ids] = _ndcg_group(group, p_reform, p_down, ideal_dcg, ideal_bounds[ids])
    return out


def _ndcg_group(sessions: Sessions, p_reform: float, p_down: float, ideal_dcg: np.ndarray,
                ideal_bounds: np.ndarray) -> np.ndarray:
    """esnDCG of every session of one group of :func:`_chunks`."""
    layout = _Layout.of(sessions)
    lengths, count = layout.lengths, sessions.count
    gains = sessions.gains.astype(np.float64)
    relevant = sessions.relevant.astype(bool)
    start, stop = ideal_bounds[:, 0], ideal_bounds[:, 1]
    known = stop > start
    rows = np.flatnonzero(layout.is_first & (relevant | (gains > 0)) & (gains != 0)
                          & known[layout.session])
    if not len(rows):
        return np.zeros(count)
    lists = (lengths > 0).sum(axis=1)
    ahead = lengths.sum(axis=1) - lengths[np.arange(count), np.maximum(lists - 1, 0)] + 1
    sizes = ahead + lengths.max(axis=1)  # each session's y = a + k below its size
    size = int(ahead.max() + lengths.max())  # and every row's, paths padded to a block's
    y = np.arange(size)
    ideal = np.zeros((count, size))
    at = start[:, None] + np.clip(y[None, :], 1, np.maximum(stop - start, 1)[:, None]) - 1
    ideal[known] = ideal_dcg[at[known]]
    ideal[:, 0] = 0.0
    inverse_ideal = np.divide(1.0, ideal, out=np.zeros_like(ideal), where=ideal > 0)
    tails = _tail_means(inverse_ideal, lengths, sizes, p_reform, p_down)
    # H_(i,r)(a) = (1 − p) p^(r−1) [B_i(a + r) − p^(n−r) B_i(a + n)] + p^(n−1) G_i(a + n),
    # B_i(y) = Σ_(j≥0) p^j G_i(y + j): the geometric part of Σ_(k≥r) s_i(k) G_i(a + k)
    from scipy.signal import lfilter

    backward = lfilter([1.0], [1.0, -p_down], tails[:, :, ::-1], axis=2)[:, :, ::-1]
    session, lst, rank = layout.session[rows], layout.list_of[rows], layout.rank[rows]
    n = lengths[session, lst]
    gain = gains[rows] * np.power(p_reform, lst)

    def weights(block: np.ndarray, a: np.ndarray) -> np.ndarray:
        s, i, r, end = session[block, None], lst[block, None], rank[block, None], \
            n[block, None]
        reach = (1.0 - p_down) * np.power(p_down, r - 1.0) \
            * (backward[s, i, a + r] - np.power(p_down, end - r) * backward[s, i, a + end]) \
            + np.power(p_down, end - 1.0) * tails[s, i, a + end]
        return gain[block, None] * reach / np.log2(a + r + 1.0)

    totals = _expectation(layout.caps[layout.doc[rows]], lst, lengths[session], p_down,
                          weights)
    return np.bincount(session, weights=totals, minlength=count)


def expected_ap_many(sessions: Sessions, p_reform: float, p_down: float,
                     num_rel: np.ndarray) -> np.ndarray:
    """esAP of every session (module documentation), the sessions of similar sizes
    together (:func:`_chunks`); ``num_rel[s]`` is session s's R."""
    out = np.zeros(sessions.count)
    for ids, group in _chunks(sessions):
        out[ids] = _ap_group(group, p_reform, p_down, num_rel[ids])
    return out


def _ap_group(sessions: Sessions, p_reform: float, p_down: float,
              num_rel: np.ndarray) -> np.ndarray:
    """esAP of every session of one group of :func:`_chunks`."""
    layout = _Layout.of(sessions)
    lengths, count = layout.lengths, sessions.count
    relevant = sessions.relevant.astype(bool)
    targets = np.flatnonzero(layout.is_first & relevant & (num_rel > 0)[layout.session])
    if not len(targets):
        return np.zeros(count)
    # distinct relevant documents of the list up to t: c_t before the pairs
    found = np.cumsum(layout.is_first & relevant)
    found -= np.concatenate([[0], found])[np.arange(len(found)) - layout.rank + 1]
    count_t = found[targets].astype(np.float64)
    session, lst = layout.session[targets], layout.list_of[targets]
    rank, doc = layout.rank[targets], layout.doc[targets]
    # (target, other document) of α_(t,d): the relevant documents of t's session shown
    # before t's list, not t's, not in t's list before t, capped below t's somewhere
    shown = layout.first < _ABSENT
    earliest = np.where(shown.any(axis=1), shown.argmax(axis=1), lengths.shape[1])
    relevant_doc = np.zeros(len(layout.owner), dtype=bool)
    relevant_doc[layout.doc[relevant]] = True
    candidates = np.flatnonzero(relevant_doc)  # those of a session consecutive
    lo, hi = (np.searchsorted(layout.owner[candidates], np.arange(count), side=side)
              for side in ("left", "right"))
    many = np.where(lst > 0, hi[session] - lo[session], 0)
    t = np.repeat(np.arange(len(targets)), many)
    d = candidates[lo[session[t]] + np.arange(len(t)) - np.repeat(np.cumsum(many) - many, many)]
    keep = (earliest[d] < lst[t]) & (d != doc[t]) & (layout.first[d, lst[t]] > rank[t])
    t, d = t[keep], d[keep]
    below = (layout.caps[d] < layout.caps[doc[t]]) \
        & (np.arange(lengths.shape[1])[None, :] < lst[t, None])
    keep = below.any(axis=1)
    t, d = t[keep], d[keep]
    target = np.concatenate([np.arange(len(targets)), t])
    other = np.concatenate([doc, d])
    count_t += np.bincount(t, minlength=len(targets))
    weight = np.concatenate([count_t, -np.ones(len(t))])
    caps = np.minimum(layout.caps[doc[target]], layout.caps[other])
    row_session, row_lst, row_r = session[target], lst[target], rank[target]
    weight *= np.power(p_reform, row_lst) * np.power(p_down, row_r - 1.0)

    def weights(block: np.ndarray, a: np.ndarray) -> np.ndarray:
        return weight[block, None] / (a + row_r[block, None])

    totals = _expectation(caps, row_lst, lengths[row_session], p_down, weights)
    return np.bincount(row_session, weights=totals, minlength=count) \
        / np.maximum(num_rel, 1)


def expected_ndcg(lists: SessionLists, p_reform: float, p_down: float,
                  ideal_dcg: np.ndarray) -> float:
    """esnDCG of one session (module documentation); ``ideal_dcg[L − 1]`` is the DCG of the
    topic's ideal list cut at L documents (its last value beyond its length)."""
    bounds = np.array([[0, len(ideal_dcg)]], dtype=np.int64)
    return float(expected_ndcg_many(Sessions.of([lists]), p_reform, p_down,
                                    np.asarray(ideal_dcg, dtype=np.float64), bounds)[0])


def expected_ap(lists: SessionLists, p_reform: float, p_down: float, num_rel: int) -> float:
    """esAP of one session (module documentation); ``num_rel`` is R."""
    return float(expected_ap_many(Sessions.of([lists]), p_reform, p_down,
                                  np.array([num_rel], dtype=np.int64))[0])
