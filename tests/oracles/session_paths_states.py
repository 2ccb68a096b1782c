"""Oracle of the expected session measures esnDCG and esAP (Kanoulas, Carterette, Clough &
Sanderson, SIGIR 2011, §4): irscale's forward pass over the sets of relevant duplicates
read, as it was before :mod:`irscale.text.session_paths` computed them in polynomial time,
kept here only to test that algorithm against an independent one
(``tests/test_session_paths.py``).

The user model and the measures are those of :mod:`irscale.text.session_paths`. A forward
pass over the session's lists carries, per state (path length so far, relevant documents
found so far, relevant documents read that occur again in a later list), the probability
of the state and the expected DCG and precision sum accumulated in it; the paths ending
after list i are summed as they end. The sets of duplicates read number up to 2^d, d the
relevant documents shown in more than one list: exact, but exponential.
"""

from __future__ import annotations

import numpy as np

from irscale.text.session_paths import SessionLists


def stop_probabilities(length: int, p_down: float) -> np.ndarray:
    """s(k), k = 1..length: the probability that a list of ``length`` documents is read
    down to position k exactly."""
    k = np.arange(length, dtype=np.float64)
    out = np.power(p_down, k) * (1.0 - p_down)
    out[-1] = p_down ** (length - 1)
    return out


#: The forward pass's states of one set of relevant duplicates seen: the probability of
#: reaching them, and the expected DCG and precision sum accumulated in them (masses), by
#: (path length, relevant documents found).
_Grid = list[np.ndarray]


def expected_session_measures(lists: SessionLists, p_reform: float, p_down: float,
                              ideal_dcg: np.ndarray, num_rel: int, *,
                              ap: bool = True) -> tuple[float, float]:
    """(esnDCG, esAP) of one session; ``ideal_dcg[L − 1]`` is the
    DCG of the topic's ideal list cut at L documents (its last value beyond its length).
    ``ap=False``: esnDCG alone (its states do not count the relevant documents found, and
    esAP is returned as 0)."""
    m = len(lists.docs)
    # documents of the later lists: the relevant ones among them are all the state keeps
    later: list[set[int]] = [set() for _ in range(m)]
    for i in range(m - 2, -1, -1):
        later[i] = later[i + 1] | {int(d) for d in lists.docs[i + 1]}
    width = sum(len(docs) for docs in lists.docs) + 1  # path lengths 0 .. Σ n_i
    depth = (sum(int(np.count_nonzero(r)) for r in lists.relevant) if ap else 0) + 1
    length = np.arange(width, dtype=np.float64)[:, None]
    found = np.arange(depth, dtype=np.float64)[None, :]
    # 1 / IDCG(L) by path length L (0 where the ideal gains nothing)
    ideal = np.zeros(width)
    if len(ideal_dcg):
        ideal[1:] = ideal_dcg[np.minimum(np.arange(1, width), len(ideal_dcg)) - 1]
    inverse_ideal = np.divide(1.0, ideal, out=np.zeros(width), where=ideal > 0)
    start = np.zeros((width, depth))
    start[0, 0] = 1.0
    states: dict[frozenset[int], _Grid] = {frozenset(): [start, np.zeros_like(start),
                                                         np.zeros_like(start)]}
    ndcg = expected_ap = 0.0
    for i in range(m):
        docs, gains, relevant = lists.docs[i], lists.gains[i], lists.relevant[i]
        stop = stop_probabilities(len(docs), p_down)
        go_on = p_reform if i < m - 1 else 0.0
        following: dict[frozenset[int], _Grid] = {}
        for seen, (prob, dcg, prec) in states.items():
            seen_now = set(seen)
            dcg, prec = dcg.copy(), prec.copy()
            new = 0  # relevant documents found in this list so far
            for r in range(len(docs)):  # the paths read position r + 1 of list i
                doc = int(docs[r])
                if (relevant[r] or gains[r] > 0) and doc not in seen_now:
                    seen_now.add(doc)
                    t = length + (r + 1)  # position in the path, by length so far
                    if relevant[r]:
                        new += 1
                        if ap:
                            prec += prob * (found + new) / t
                    dcg += prob * (gains[r] / np.log2(t + 1.0))
                ends = stop[r] * (1.0 - go_on)
                if ends > 0:
                    # a path of length l so far ends at length l + r + 1
                    ndcg += ends * float((dcg[:width - r - 1].sum(axis=1)
                                          * inverse_ideal[r + 1:]).sum())
                    if ap and num_rel > 0:
                        expected_ap += ends * float(prec.sum()) / num_rel
                if go_on > 0 and stop[r] > 0:
                    key = frozenset(seen_now & later[i])
                    grid = following.setdefault(key, [np.zeros((width, depth))
                                                      for _ in range(3)])
                    shift = new if ap else 0
                    for into, values in zip(grid, (prob, dcg, prec), strict=True):
                        into[r + 1:, shift:] += (stop[r] * go_on) * \
                            values[:width - r - 1, :depth - shift]
        states = following
    return ndcg, expected_ap
