"""Markovian session measures MsM (D. van Dijk, M. Ferrante, N. Ferro and E. Kanoulas, "A
Markovian approach to evaluate session-based IR systems", ECIR 2019, LNCS 11437,
pp. 621–635).

The user walks the session's result lists as a Markov chain. Every query's list has the
same N positions (N = k with ``@k``: a shorter list is padded with non-relevant positions;
without ``@k``, N is the longest list of the session). From position i of a list the user

* moves to the next document (i + 1) with probability ``p``,
* moves back to the previous document (i − 1) with probability ``q``,
* reformulates — jumps to the first document of the next query's list — with probability
  ``r`` (state Q, absorbing for one query's chain),
* ends the session with probability ``s`` (state F, absorbing),

with p + q + r + s = 1. Position 1 has no previous document and position N no next one:
their remaining probabilities are rescaled to sum to 1 (p, s, r over p + s + r at 1; q, s,
r over q + s + r at N; s, r over s + r when N = 1). The chain gives:

* e_i, the **average time to reach** position i from position 1 in the chain of the
  document positions alone (Q and F removed, every row rescaled to sum to 1): e_1 = 0 and,
  moves being ±1, e_(i+1) = e_i + f_i with f_i the expected time from i to i + 1:
  f_1 = 1, f_i = (1 + b f_(i−1)) / a for 1 < i < N, a = p/(p + q), b = q/(p + q);
* e_Q, the average time to reach Q from position 1 in the chain with F removed (rows
  rescaled): the time one query's list takes before reformulating;
* h, the probability of reaching Q before F from position 1 (the full chain): the
  probability of going on from one query to the next. The j-th query is reached with
  probability h^(j−1).

The measures replace the fixed rank and query discounts of sDCG with these: a document at
position i of the list of query j (the query number as given) is reached after
1 + e_i + (j − 1) · e_Q steps on average, and::

    MsM(discount=lin) = Σ_j h^(j−1) Σ_i g(j, i) / (1 + e_i + (j − 1) · e_Q)
    MsM(discount=log) = Σ_j h^(j−1) Σ_i g(j, i) / (1 + ln(1 + e_i + (j − 1) · e_Q))

g the gain of the document (``gain=linear``: its relevance degree). A document shown
again in a later query gains again (the authors' implementation fills every (position,
query) cell of the session's gain matrix from the qrels). e_Q and h are the solutions of
tridiagonal linear systems (:func:`scipy.linalg.solve_banded`), computed once per list
length N.

Source. The paper's text could not be read when this was written (only its abstract); the
definitions above follow the authors' public implementation (the MATLAB functions
``msm_lin`` and ``msm_log`` of the repository ekanou/Markovian-Session-Measures that
accompanies the paper), re-derived here: e_i there is solved as the expected time to leave
positions 1..i, which for ±1 moves is the time to reach i + 1 (the recurrence above), and
the probability of reaching query j there, 1 − Σ_(l<j) h^(l−1)(1 − h), is h^(j−1).
That implementation pads every session to a fixed N × K matrix (10 × 10 in its scripts)
and uses the natural logarithm; irscale's N is ``@k`` (or the longest list of the
session), and K, which does not change the value, is the session's queries.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.judged import JudgedRankings
from ..core.progress import declared_memory
from ..measures.gain_discount import element_gains
from ..measures.params import Params
from .params import MSM_POSITIONS

#: Bytes per state of one list length's chain (its rows, the banded matrix, the solver's
#: copies and the solutions): the estimate :func:`~irscale.core.progress.declared_memory` is
#: given, from the declared cost of the positions (:data:`~irscale.text.params.MSM_POSITIONS`).
_BYTES_PER_STATE = 16 * 8

@dataclass(frozen=True)
class SessionChain:
    """The quantities of one list length's chain (module documentation)."""

    #: e_1, e_2, ...: the average time to reach each position from position 1 (as many
    #: positions as were asked for).
    reach_time: np.ndarray
    #: e_Q: the average time to reach the next query from position 1.
    query_time: float
    #: h: the probability of reaching the next query (before ending the session).
    next_query: float


def moves(depth: int, p: float, q: float, r: float, s: float
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per position 1..``depth``: the probabilities of moving forward, back, to the next
    query and to the end of the session, rescaled at the first and last positions."""
    forward = np.full(depth, p)
    back = np.full(depth, q)
    forward[-1] = 0.0
    back[0] = 0.0
    jump = np.full(depth, r)
    stop = np.full(depth, s)
    total = forward + back + jump + stop
    return forward / total, back / total, jump / total, stop / total


def _solve(forward: np.ndarray, back: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """x with x_i = rhs_i + forward_i x_(i+1) + back_i x_(i−1)."""
    banded = np.zeros((3, len(rhs)))
    banded[0, 1:] = -forward[:-1]
    banded[1] = 1.0
    banded[2, :-1] = -back[1:]
    from scipy.linalg import solve_banded  # here: reading sessions needs no scipy

    return solve_banded((1, 1), banded, rhs)


def session_chain(depth: int, p: float, q: float, r: float, s: float,
                  positions: int | None = None) -> SessionChain:
    """The chain of lists of ``depth`` positions (module documentation), with the average
    times to reach its first ``positions`` positions (default: all of them).

    Examples
    --------
    >>> chain = session_chain(2, p=0.6, q=0.2, r=0.1, s=0.1)
    >>> chain.reach_time.tolist(), round(chain.query_time, 6), round(chain.next_query, 6)
    ([0.0, 1.0], 4.333333, 0.5)
    """
    forward, back, jump, stop = moves(depth, p, q, r, s)
    kept = 1.0 - stop  # the chain without F: rows rescaled by what is left of them
    query_time = float(_solve(forward / kept, back / kept, np.ones(depth))[0])
    next_query = float(_solve(forward, back, jump)[0])
    wanted = depth if positions is None else min(positions, depth)
    reach = np.zeros(wanted)
    a = p / (p + q)
    step = 1.0  # f_1: position 1 only moves forward in the chain of positions alone
    for i in range(1, wanted):
        reach[i] = reach[i - 1] + step
        step = (1.0 + (1.0 - a) * step) / a
    return SessionChain(reach, query_time, next_query)


def msm_values(view: JudgedRankings, positions: np.ndarray, params: Params,
               cutoff: int | None, label: str) -> np.ndarray:
    """MsM (module documentation) of every ranking of a ``cut`` session view (the first k
    documents of every query, duplicates kept); ``positions``: every document's position
    in its query's list."""
    positions = positions.astype(np.int64)
    gains = element_gains(view, params["gain"], None, "MsM")
    if cutoff is not None:
        depth = np.full(view.n_rankings, cutoff, dtype=np.int64)
    else:
        depth = np.zeros(view.n_rankings, dtype=np.int64)
        np.maximum.at(depth, view.segment, positions)
    longest = int(depth.max(initial=0))
    declared_memory(MSM_POSITIONS, float(longest) * _BYTES_PER_STATE,
                    f"measure {label!r}: a Markov chain of {longest:,} positions per query "
                    "(its cut-off @k, or the longest list of a session without one: a "
                    "smaller cut-off @k shortens it)")
    qnum = view.attribute("qnum")
    chosen = np.flatnonzero(gains > 0)
    doc_depth = depth[view.segment[chosen]]
    terms = np.zeros(len(chosen))
    probabilities = (params["p"], params["q"], params["r"], params["s"])
    for n in np.unique(doc_depth).tolist():
        mine = np.flatnonzero(doc_depth == n)
        at = positions[chosen[mine]]
        chain = session_chain(n, *probabilities, positions=int(at.max()))
        earlier = qnum[chosen[mine]] - 1.0  # queries before this one
        time = 1.0 + chain.reach_time[at - 1] + earlier * chain.query_time
        if params["discount"] == "log":
            time = 1.0 + np.log(time)
        terms[mine] = gains[chosen[mine]] * np.power(chain.next_query, earlier) / time
    return np.bincount(view.segment[chosen], weights=terms, minlength=view.n_rankings)
