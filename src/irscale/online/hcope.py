"""High-confidence off-policy evaluation: a lower bound on a policy's value that holds with
probability at least 1 − δ (Thomas, Theocharous & Ghavamzadeh 2015, *High confidence
off-policy evaluation*, AAAI; the ``hcope`` of :func:`~irscale.online.counterfactual`).

The sessions' importance-weighted returns ``X_i ≥ 0`` (independent, of mean the target's
value μ) are clipped at a threshold ``c > 0``, ``Y_i = min(X_i, c)`` (so E[Y_i] ≤ μ), and
the paper's Theorem 1 with ``c_i = c`` (Maurer & Pontil's empirical Bernstein bound on
``Y_i / c ∈ [0, 1]``) gives, with probability at least 1 − δ,

    μ ≥ (1/n) Σ Y_i − 7 c ln(2/δ) / (3 (n − 1))
          − (1/n) √( 2 ln(2/δ) / (n − 1) · (n Σ Y_i² − (Σ Y_i)²) ).

A small c cuts the mean, a large one widens the two other terms. The threshold is chosen on
a random share of the data, ``D_pre`` (:data:`PRE_SHARE` of the sessions, at least 2), by
maximising the bound it predicts for the rest, ``D_post`` (its ``n_post`` sessions): the
mean and the sample variance of D_pre's ``Y``, the two deviation terms at ``n_post``
(the paper's §"Selecting c"); the bound is then computed on D_post alone, whose sessions the
choice of c did not see. The objective is concave in c between consecutive values of D_pre's
``X`` (a linear mean less the norm of an affine function), so it is maximised there by golden
section (:func:`threshold`). Where no threshold predicts a positive bound (no session of D_pre
has a positive return, or too few do) the objective's supremum is 0, at c → 0, and the bound
is 0 (threshold 0): the value, of returns ≥ 0, is at least that.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["PRE_SHARE", "bound", "high_confidence_bound", "threshold"]

#: The share of the sessions that chooses the threshold (D_pre): 1/20, as in the paper's
#: experiments (irscale's reading).
PRE_SHARE = 1 / 20
#: Golden-section steps per interval of the threshold: the interval shrinks by 0.618 a step.
_STEPS = 80


def bound(x: np.ndarray, c: float, delta: float) -> float:
    """The paper's Theorem 1 with ``c_i = c``: the lower bound at level 1 − ``delta`` on the
    mean of the returns ``x`` (≥ 0, at least two), clipped at ``c`` (> 0)."""
    n = len(x)
    y = np.minimum(np.asarray(x, dtype=np.float64), c)
    log_term = math.log(2 / delta)
    spread = max(n * float(np.sum(y * y)) - float(np.sum(y)) ** 2, 0.0)
    return float(np.mean(y) - 7 * c * log_term / (3 * (n - 1))
                 - math.sqrt(2 * log_term / (n - 1) * spread) / n)


def _predicted(c: np.ndarray, x: np.ndarray, prefix: np.ndarray, squares: np.ndarray,
               n_post: int, delta: float) -> np.ndarray:
    """The bound D_pre (``x`` sorted, with the cumulative sums of its values and squares)
    predicts for D_post at every threshold of ``c``: D_pre's mean and sample variance of
    ``min(x, c)``, the deviation terms at ``n_post``."""
    m = len(x)
    below = np.searchsorted(x, c, side="right")
    clipped = m - below
    s1 = prefix[below] + clipped * c
    s2 = squares[below] + clipped * c * c
    log_term = math.log(2 / delta)
    variance = np.maximum(m * s2 - s1 * s1, 0.0) / (m * (m - 1))
    return (s1 / m - 7 * c * log_term / (3 * (n_post - 1))
            - np.sqrt(2 * log_term * variance / n_post))


def threshold(x: np.ndarray, n_post: int, delta: float) -> float:
    """The threshold c that maximises the bound that the returns ``x`` of D_pre (at least
    two) predict for D_post's ``n_post`` sessions (module doc); 0 when no c predicts a
    positive bound (its supremum, at c → 0)."""
    x = np.sort(np.asarray(x, dtype=np.float64))
    points = np.unique(x[x > 0])
    if not len(points):
        return 0.0
    prefix = np.concatenate([[0.0], np.cumsum(x)])
    squares = np.concatenate([[0.0], np.cumsum(x * x)])

    def objective(c: np.ndarray) -> np.ndarray:
        return _predicted(c, x, prefix, squares, n_post, delta)

    # concave on (0, x_(1)] (linear there: its best at x_(1)) and on every [x_(i), x_(i+1)];
    # decreasing beyond the largest value
    low, high = points[:-1].copy(), points[1:].copy()
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(_STEPS):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        left = objective(a) >= objective(b)
        high = np.where(left, b, high)
        low = np.where(left, low, a)
    candidates = np.concatenate([points, (low + high) / 2])
    values = objective(candidates)
    best = int(np.argmax(values))
    return float(candidates[best]) if values[best] > 0 else 0.0


def high_confidence_bound(x: np.ndarray, delta: float, rng: np.random.Generator
                          ) -> tuple[float, float, int]:
    """(bound, threshold, sessions of D_pre) of the returns ``x`` (≥ 0, at least four):
    a share :data:`PRE_SHARE` of them (at least 2), drawn by ``rng``, chooses the threshold
    (:func:`threshold`), the others are bounded with it (:func:`bound`)."""
    n = len(x)
    m = max(2, math.ceil(n * PRE_SHARE))
    pre = np.zeros(n, dtype=bool)
    pre[rng.permutation(n)[:m]] = True
    c = threshold(x[pre], n - m, delta)
    return (bound(x[~pre], c, delta) if c > 0 else 0.0), c, m
