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
relevant documents viewed that occur again in a later list), the probability of the state
and the expected value accumulated in it; the paths ending after list i are summed as they
end. The number of states is at most (Σ n_i) · (Σ n_i) · 2^d, d the number of relevant
documents shown in more than one list — a small number for real sessions; the test checks
it against the sum over every path.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: A state of the forward pass: (path length, relevant found, relevant duplicates seen).
_State = tuple[int, int, frozenset[int]]


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
                              ideal_dcg: np.ndarray, num_rel: int) -> tuple[float, float]:
    """(esnDCG, esAP) of one session (module documentation); ``ideal_dcg[L − 1]`` is the
    DCG of the topic's ideal list cut at L documents (its last value beyond its length)."""
    m = len(lists.docs)
    # relevant documents shown again in a later list: the only ones the state remembers
    later: list[set[int]] = [set() for _ in range(m)]
    for i in range(m - 2, -1, -1):
        later[i] = later[i + 1] | {int(d) for d in lists.docs[i + 1]}
    states: dict[_State, list[float]] = {(0, 0, frozenset()): [1.0, 0.0, 0.0]}
    ndcg = ap = 0.0
    for i in range(m):
        docs, gains, relevant = lists.docs[i], lists.gains[i], lists.relevant[i]
        stop = stop_probabilities(len(docs), p_down)
        go_on = p_reform if i < m - 1 else 0.0
        following: dict[_State, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for (length, found, seen), (prob, dcg, prec) in states.items():
            seen_now = set(seen)
            for r in range(len(docs)):  # the path views position r + 1 of list i
                t = length + r + 1
                doc = int(docs[r])
                if (relevant[r] or gains[r] > 0) and doc not in seen_now:
                    seen_now.add(doc)
                    if relevant[r]:
                        found += 1
                        prec += prob * found / t
                    dcg += prob * gains[r] / np.log2(t + 1.0)
                weight = stop[r]
                ends = weight * (1.0 - go_on)
                if ends > 0:
                    norm = ideal_dcg[min(t, len(ideal_dcg)) - 1] if len(ideal_dcg) else 0.0
                    if norm > 0:
                        ndcg += ends * dcg / norm
                    if num_rel > 0:
                        ap += ends * prec / num_rel
                if go_on > 0 and weight > 0:
                    key = (t, found, frozenset(seen_now & later[i]))
                    slot = following[key]
                    slot[0] += weight * go_on * prob
                    slot[1] += weight * go_on * dcg
                    slot[2] += weight * go_on * prec
        states = following
    return ndcg, ap

