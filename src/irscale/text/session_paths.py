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

The expectation is computed exactly without listing the paths: a forward pass over the
session's lists carries, per state (path length so far, relevant documents found so far,
relevant documents read that occur again in a later list), the probability of the state
and the expected value accumulated in it; the paths ending after list i are summed as they
end. The states of one set of duplicates read are held as arrays by (length, found) and
moved on together (numpy). The sets of duplicates read number up to 2^d, d the relevant
documents shown in more than one list, and each is moved down every list: long lists with
many duplicates are slow — evaluate at a cut-off (``@10``). The test checks the values
against the sum over every path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The forward pass's states of one set of relevant duplicates seen: the probability of
#: reaching them, and the expected DCG and precision sum accumulated in them (masses), by
#: (path length, relevant documents found).
_Grid = list[np.ndarray]


@dataclass(frozen=True)
class SessionLists:
    """One session's lists, in query order: per list, the documents' codes, gains and
    whether each is relevant."""

    docs: Sequence[np.ndarray]
    gains: Sequence[np.ndarray]
    relevant: Sequence[np.ndarray]


def stop_probabilities(length: int, p_down: float) -> np.ndarray:
    """s(k), k = 1..length: the probability that a list of ``length`` documents is read
    down to position k exactly (module documentation)."""
    k = np.arange(length, dtype=np.float64)
    out = np.power(p_down, k) * (1.0 - p_down)
    out[-1] = p_down ** (length - 1)
    return out


def expected_session_measures(lists: SessionLists, p_reform: float, p_down: float,
                              ideal_dcg: np.ndarray, num_rel: int, *,
                              ap: bool = True) -> tuple[float, float]:
    """(esnDCG, esAP) of one session (module documentation); ``ideal_dcg[L − 1]`` is the
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
