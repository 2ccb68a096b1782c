"""Carterette's decomposition of model-based measures (Carterette, "System effectiveness,
user models, and user utility: a conceptual framework for investigation", SIGIR 2011).

A measure is three models put together (Ferro & Maistro 2024, §3, summarise them so):

* a **browsing model**: the probability P(K = k) that the user stops at rank k — here
  with the probability ``beyond`` that they read every ranked document and go on past the
  last one (where nothing more is shown);
* a model of **document utility**: u_j, what the document at rank j is worth;
* a **utility accumulation** model: A(k), what a user stopping at rank k has gained from
  u_1 .. u_k.

The measure is the expected accumulated utility::

    M = Σ_(k ≤ N) P(K = k) · A(k)  +  beyond · A(N)

Each decomposition is data (:class:`Decomposition`: the three components by name, and
their parameters); :func:`decomposed_values` evaluates any of them on judged rankings. The
components (N the ranking's length):

browsing
    ``geometric`` (p): P(K = k) = (1 − p) p^(k−1), beyond = p^N (RBP's patient user).
    ``log2``: P(K ≥ k) = 1/log2(k + 1), so P(K = k) = 1/log2(k + 1) − 1/log2(k + 2),
    beyond = 1/log2(N + 2) (the stopping distribution under DCG's discount).
    ``relevant``: P(K = k) = rel_k / R, R the topic's relevant documents (the user stops
    at one of the relevant documents, each as likely; those not retrieved leave mass that
    gains nothing).
    ``cascade``: P(K = k) = u_k Π_(j<k) (1 − u_j) — the user stops at the first document
    satisfying them, with the document utility as the probability (an unsatisfied user
    gains nothing).
    ``fixed`` (k): P(K = k) = 1 (a ranking shorter than k is read to rank k, the ranks
    past its end gaining nothing).
utility
    ``binary``: 1 for a relevant document (degree ≥ the relevance level), else 0.
    ``gain``: the catalogue's linear gain (the degree, 0 below the relevance level).
    ``scaled gain``: that gain over the top degree's gain (g/gmax).
    ``satisfaction``: ERR's (2^g − 1)/2^gmax.
accumulation
    ``total``: Σ_(j≤k) u_j.  ``rate`` (p): (1 − p) Σ_(j≤k) u_j, the total over the
    expected number of documents the geometric user examines, 1/(1 − p).
    ``precision``: (1/k) Σ_(j≤k) u_j.  ``reciprocal``: 1/k.

:data:`DECOMPOSITIONS` gives RBP, DCG, AP, ERR, RR and P@k so; each reproduces the
catalogue's value of the measure named by :attr:`Decomposition.measure` (tested on every
ranking of a batch). Carterette places ERR's satisfaction probabilities in the browsing
model, which then depends on the documents' utilities, as AP's does on relevance; the
rate accumulation is irscale's reading of RBP's (1 − p) factor (Carterette describes RBP's
user as accumulating total utility at a geometric stopping rank; the factor normalises it
by the expected depth).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..core.judged import JudgedRankings
from .cascade import satisfaction
from .gain_discount import element_gains, max_gain, parse_gain

_LINEAR = parse_gain("linear")


@dataclass(frozen=True)
class Decomposition:
    """One measure as Carterette's three components (module documentation); ``measure``
    is the catalogue's name of the measure they give."""

    measure: str
    browsing: str
    utility: str
    accumulation: str
    params: Mapping[str, float] = field(default_factory=dict)


#: The measures the decomposition covers, by name.
DECOMPOSITIONS: dict[str, Decomposition] = {
    "RBP": Decomposition("RBP(p=0.8)", "geometric", "scaled gain", "rate", {"p": 0.8}),
    "DCG": Decomposition("DCG", "log2", "gain", "total"),
    "AP": Decomposition("map", "relevant", "binary", "precision"),
    "ERR": Decomposition("ERR", "cascade", "satisfaction", "reciprocal"),
    "RR": Decomposition("recip_rank", "cascade", "binary", "reciprocal"),
    "P@10": Decomposition("P@10", "fixed", "binary", "precision", {"k": 10}),
}


def _matrix(jr: JudgedRankings, values: np.ndarray, width: int) -> np.ndarray:
    """Per-document ``values`` as a rankings × ``width`` matrix (0 past a ranking's end)."""
    out = np.zeros((jr.n_rankings, width))
    out[jr.segment, jr.rank - 1] = values
    return out


def _utility(jr: JudgedRankings, name: str) -> np.ndarray:
    if name == "binary":
        return (jr.is_relevant & jr.is_judged).astype(np.float64)
    if name == "gain":
        return element_gains(jr, _LINEAR)
    if name == "scaled gain":
        top = max_gain(jr, _LINEAR)
        return element_gains(jr, _LINEAR) / top if top > 0 else np.zeros(len(jr.rel))
    if name == "satisfaction":
        return satisfaction(jr, "exp", _LINEAR, None)
    raise KeyError(f"no document utility named {name!r}")


#: Browsing models: (utilities matrix, judged rankings, ranking lengths, parameters) →
#: (P(K = k) matrix, beyond).
_Browsing = Callable[[np.ndarray, JudgedRankings, np.ndarray, Mapping[str, float]],
                     tuple[np.ndarray, np.ndarray]]


def _geometric(u: np.ndarray, jr: JudgedRankings, n: np.ndarray,
               p: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(1, u.shape[1] + 1)
    stop = np.where(k <= n[:, None], (1 - p["p"]) * p["p"] ** (k - 1.0), 0.0)
    return stop, p["p"] ** n.astype(np.float64)


def _log2(u: np.ndarray, jr: JudgedRankings, n: np.ndarray,
          p: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(1, u.shape[1] + 1, dtype=np.float64)
    stop = np.where(k <= n[:, None], 1 / np.log2(k + 1) - 1 / np.log2(k + 2), 0.0)
    return stop, 1 / np.log2(n + 2.0)


def _relevant(u: np.ndarray, jr: JudgedRankings, n: np.ndarray,
              p: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    rel = _matrix(jr, (jr.is_relevant & jr.is_judged).astype(np.float64), u.shape[1])
    num_rel = jr.num_rel.astype(np.float64)
    stop = rel / np.where(num_rel > 0, num_rel, 1.0)[:, None]
    return stop, np.zeros(len(n))


def _cascade(u: np.ndarray, jr: JudgedRankings, n: np.ndarray,
             p: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    unsatisfied = np.cumprod(1 - u, axis=1)
    before = np.hstack([np.ones((len(u), 1)), unsatisfied[:, :-1]])
    return u * before, np.zeros(len(n))


def _fixed(u: np.ndarray, jr: JudgedRankings, n: np.ndarray,
           p: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    stop = np.zeros_like(u)
    stop[:, int(p["k"]) - 1] = 1.0
    return stop, np.zeros(len(n))


BROWSING: dict[str, _Browsing] = {"geometric": _geometric, "log2": _log2,
                                  "relevant": _relevant, "cascade": _cascade,
                                  "fixed": _fixed}


def _accumulated(u: np.ndarray, name: str, p: Mapping[str, float]) -> np.ndarray:
    k = np.arange(1, u.shape[1] + 1, dtype=np.float64)
    if name == "total":
        return np.cumsum(u, axis=1)
    if name == "rate":
        return (1 - p["p"]) * np.cumsum(u, axis=1)
    if name == "precision":
        return np.cumsum(u, axis=1) / k
    if name == "reciprocal":
        return np.broadcast_to(1 / k, u.shape)
    raise KeyError(f"no utility accumulation named {name!r}")


def decomposed_values(jr: JudgedRankings, decomposition: Decomposition) -> np.ndarray:
    """M = Σ_k P(K = k) · A(k) + beyond · A(N) of every ranking (module documentation)."""
    p = decomposition.params
    width = max(int(jr.lengths.max(initial=0)), int(p.get("k", 1)), 1)
    u = _matrix(jr, _utility(jr, decomposition.utility), width)
    n = jr.lengths
    stop, beyond = BROWSING[decomposition.browsing](u, jr, n, p)
    accumulated = _accumulated(u, decomposition.accumulation, p)
    last = accumulated[np.arange(len(n)), np.maximum(n - 1, 0)]
    return (stop * accumulated).sum(axis=1) + beyond * np.where(n > 0, last, 0.0)
