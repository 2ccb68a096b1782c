"""Informativeness of a measure by the maximum entropy method (Aslam, Yilmaz & Pavlu, SIGIR
2005, "The maximum entropy method for analyzing retrieval measures"; Sakai 2014, §5.5).

A measure is informative when its value says much about the ranked list it was computed
on. Aslam et al. (2005) infer, from the value alone, the *least committed* distribution of
relevance over the ranks — the one of maximum entropy among those whose expected measure
is the value — and ask how well it recovers the list's precision–recall curve.

irscale's reading (stated here because the method leaves choices open):

* **Distribution.** Documents at ranks i = 1..N are relevant independently with
  probabilities p_i (a product distribution, as the paper's rank-wise probabilities; its
  entropy is Σ_i H(p_i), H the binary entropy). Known: N, the recall base R and the number
  ρ of relevant documents in the list (ρ = R when the list holds every relevant document,
  the paper's setting). Constraints: Σ_i p_i = ρ and E[M] = the measure's value.
* **Expected measures** (x_i the relevance at rank i, C_i = Σ_{j≤i} x_j):

  - ``AP`` = (1/R) Σ_i x_i C_i / i; under independence E[AP] = (1/R) Σ_i (p_i + p_i
    Σ_{j<i} p_j) / i (x_i² = x_i: the same formula gives AP itself on a 0/1 list);
  - ``P@k`` = C_k / k, E = (1/k) Σ_{i≤k} p_i; ``R-prec`` = P@R (the list cut at R); as
    in trec_eval, ranks beyond the list's end are not relevant (C_k = C_N for k > N).

  For P@k and R-prec (linear constraints) the maximum is in closed form: p_i = k·P@k /
  min(k, N) for i ≤ min(k, N) and (ρ − k·P@k)/(N − k) below. For AP it is found
  numerically: Newton's method on the stationarity conditions, each step O(N), followed
  by continuation in the value from the uniform distribution and, close to the lowest AP,
  from the lowest list, where the branch through the uniform distribution folds back;
  the stationary point of largest entropy is kept (:func:`_maxent_ap`; the tests check
  it against a general constrained optimiser).
* **Inferred curve.** With expected counts c_k = Σ_{i≤k} p_i: precision c_k/k and recall
  c_k/R at every rank; the actual curve likewise with C_k. Both are interpolated at the
  eleven recall levels 0, 0.1, ..., 1 (precision at level r = the largest precision at a
  rank whose recall is ≥ r, 0 if none, as trec_eval's ``iprec_at_recall``).
* **Informativeness** of M on a list = the root mean square difference of the two
  interpolated curves (lower: more informative); :attr:`Informativeness.summary`
  averages it over lists, as the paper compares measures by their mean RMS error;
  :meth:`Informativeness.intervals` (``irscale meta informativeness --ci``) gives each
  mean its 1 − α confidence interval by a method of :mod:`irscale.core.mean_intervals`
  (``"t"``, or ``"bootstrap"`` with the lists resampled, every measure's errors of a list
  drawn together). The lists are its sample: lists of several runs on one topic share
  the topic's relevant documents, so their errors are not independent and the interval
  describes the lists given rather than a population of topics.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..core.mean_intervals import MeanInterval, mean_intervals
from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import ProgressArg, progress_reporter
from ..errors import InputError, ParameterError
from ..stats.tables import Format
from ..stats.validation import as_floats
from .common import format_frame, interval_note
from .continuation import damped_newton, follow
from .params import INFORMATIVENESS_DEPTH, INFORMATIVENESS_MEASURES, JUDGED_LISTS

__all__ = ["Informativeness", "informativeness", "judged_lists", "maxent_relevance"]

#: The eleven recall levels of the interpolated precision–recall curve.
RECALL_LEVELS = np.linspace(0.0, 1.0, 11)


def _measure(name: str, n_docs: int, n_relevant: int) -> tuple[str, int]:
    """``(kind, k)`` of a measure name: ``("AP", 0)`` or ``("P", k)`` (R-prec: k = R)."""
    text = name.strip()
    if text.upper() in ("AP", "MAP"):
        return "AP", 0
    if text.lower() in ("r-prec", "rprec", "r-precision"):
        return "P", n_relevant
    if text.upper().startswith("P@"):
        try:
            k = int(text[2:])
        except ValueError:
            k = 0
        if k >= 1:
            return "P", k
    raise ParameterError(f"informativeness knows AP, R-prec and P@k, not {name!r}",
                         param="measures")


def expected_measure(kind: str, k: int, p: np.ndarray, n_relevant: int) -> float:
    """E[M] of a measure under independent relevance with probabilities ``p`` (module
    documentation); on a 0/1 list, the measure's value."""
    if kind == "P":
        return float(np.sum(p[:k]) / k)
    return _ap_terms(p, n_relevant)[0]


def _ap_terms(p: np.ndarray, n_relevant: int) -> tuple[float, np.ndarray]:
    """E[AP] = (1/R) Σ_i p_i (1 + Σ_{j<i} p_j)/i and its gradient ∂E[AP]/∂p_m =
    ((1 + Σ_{j<m} p_j)/m + Σ_{i>m} p_i/i) / R, from the same prefix sums."""
    n = len(p)
    ranks = np.arange(1.0, n + 1.0)
    before = np.zeros(n)
    np.cumsum(p[:-1], out=before[1:])
    own = (1.0 + before) / ranks
    weighted = p / ranks
    after = np.cumsum(weighted[::-1])[::-1] - weighted
    return float(p @ own) / n_relevant, (own + after) / n_relevant


def maxent_relevance(measure: str, value: float, *, n_docs: int, n_relevant: int,
                     n_retrieved_relevant: int | None = None) -> np.ndarray:
    """The maximum entropy probabilities p_1..p_N of relevance at each rank of a list of
    ``n_docs`` documents whose ``measure`` (``AP``, ``R-prec``, ``P@k``) is ``value``
    (module documentation). ``n_relevant``: the recall base R;
    ``n_retrieved_relevant``: ρ, the relevant documents in the list (default R).

    Values no list of that shape can have (beyond what ρ relevant documents allow) are
    an error."""
    n, big_r = _positive(n_docs, "n_docs"), _positive(n_relevant, "n_relevant")
    rho = big_r if n_retrieved_relevant is None else int(n_retrieved_relevant)
    if not 0 <= rho <= min(n, big_r):
        raise ParameterError(f"n_retrieved_relevant must be in [0, min(n_docs, n_relevant)] "
                             f"= [0, {min(n, big_r)}], got {n_retrieved_relevant}")
    kind, k = _measure(measure, n, big_r)
    value = float(value)
    if not np.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ParameterError(f"{measure} = {value}: a value in [0, 1] is needed")
    if kind == "P":  # k may pass the list's end: the ranks beyond it are not relevant
        top, shown = value * k, min(k, n)
        if top > min(rho, shown) + 1e-9 or rho - top > n - shown + 1e-9:
            raise ParameterError(f"{measure} = {value} is impossible with {rho} relevant "
                                 f"document(s) among {n}")
        below = (rho - top) / (n - shown) if n > shown else 0.0
        return np.concatenate([np.full(shown, top / shown), np.full(n - shown, below)])
    return _maxent_ap(value, n, big_r, rho)


def _positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ParameterError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _maxent_ap(value: float, n: int, big_r: int, rho: int) -> np.ndarray:
    """Maximum entropy p under Σ p = ρ and E[AP] = value: the stationary points of

        y_m = λ + μ ∂E[AP]/∂p_m,   Σ_m p_m = ρ,   E[AP](p) = value

    (y_m = log(p_m / (1 − p_m)), λ and μ the multipliers), each found by Newton's method
    with the exact Jacobian in O(N) a step (:func:`_newton`, :func:`_jacobian`) and
    followed in the value by continuation (:func:`_follow`: a tangent predictor
    dz/dvalue from the same O(N) solve, Newton's corrector, steps cut by 4 where it fails;
    Allgower & Georg 1990, "Numerical Continuation Methods", ch. 2). E[AP] is not concave,
    so one value may have several stationary points, on branches that fold back (near
    the lowest AP with few relevant documents, the branch of the uniform distribution
    turns back before the value, and the one of the lowest list turns back above it). Two
    branches are followed: the one through the uniform distribution (the solution for
    its own E[AP], μ = 0) and, where the value lies in the lowest quarter of [lowest AP,
    E[AP] of the uniform distribution] or the first branch does not reach it, the one
    through the lowest list (:func:`_bottom_start`); of the stationary points they reach,
    the one of largest entropy is the answer."""
    from scipy.special import expit

    low = expected_measure("AP", 0, np.concatenate([np.zeros(n - rho), np.ones(rho)]), big_r)
    high = expected_measure("AP", 0, np.concatenate([np.ones(rho), np.zeros(n - rho)]), big_r)
    if not low - 1e-9 <= value <= high + 1e-9:
        raise ParameterError(f"AP = {value} is impossible with {rho} relevant document(s) "
                             f"among {n} and R = {big_r}: it lies in [{low:.6g}, {high:.6g}]")
    if rho in (0, n) or high - low <= 1e-12:
        return np.full(n, rho / n)
    if value >= high - 1e-9 or value <= low + 1e-9:  # one list has it: nothing is uncertain
        top = np.concatenate([np.ones(rho), np.zeros(n - rho)])
        return top if value >= high - 1e-9 else top[::-1].copy()
    start = np.log(rho / (n - rho))
    uniform = expected_measure("AP", 0, np.full(n, rho / n), big_r)
    # a trial step may overflow: its residual is then not finite, and the step is cut
    with np.errstate(over="ignore", invalid="ignore"):
        found = [_follow(np.concatenate([np.full(n, start), [start, 0.0]]), uniform, value,
                         n, big_r, rho)]
        if value < uniform and (found[0] is None or value - low < (uniform - low) / 4):
            bottom = _bottom_start(value, n, big_r, rho)
            if bottom is not None:
                found.append(_follow(*bottom, value, n, big_r, rho, attempts=6))
    solved = [z for z in found if z is not None]
    if not solved:
        raise ParameterError(f"the maximum entropy distribution of AP = {value} (N = {n}, "
                             f"R = {big_r}) was not found (Newton's method did not converge)")
    best = max(solved, key=lambda z: _entropy(z[:n]))
    return cast(np.ndarray, expit(best[:n]))


def _entropy(y: np.ndarray) -> float:
    """Σ H(p_m) of p = expit(y), from the logits: H = log(1 + e^y) − p·y."""
    from scipy.special import expit

    return float(np.sum(np.logaddexp(0.0, y) - expit(y) * y))


def _follow(z: np.ndarray, at: float, value: float, n: int, big_r: int, rho: int,
            attempts: int = 60) -> np.ndarray | None:
    """Continuation of the stationary point ``z`` = (y, λ, μ) of E[AP] = ``at`` to E[AP] =
    ``value`` (:func:`_maxent_ap`, :func:`irscale.meta.continuation.follow`); None where
    the branch folds back before ``value`` or ``attempts`` corrections do not get there."""
    from scipy.special import expit

    unit = np.zeros(n + 2)
    unit[-1] = -1.0  # J·dz/dvalue = e_last: the tangent is the Newton step of r = −e_last

    def tangent(z: np.ndarray) -> np.ndarray:
        p = expit(z[:n])
        return _jacobian(p, _ap_terms(p, big_r)[1], z[n + 1], big_r)(unit)

    return follow(z, at, value, lambda z, target: _newton(z, target, n, big_r, rho, 15, 1e-3),
                  tangent, attempts)


def _bottom_start(value: float, n: int, big_r: int,
                  rho: int) -> tuple[np.ndarray, float] | None:
    """A stationary point (y, λ, μ) close to the lowest list (its ρ relevant documents at
    the bottom) and its E[AP], below ``value``: y = λ + μ·g with g = ∂E[AP]/∂p at that list
    and μ < 0 large enough that the logits of ranks N − ρ and N − ρ + 1 lie ≥ 10 apart
    (λ from Σ p = ρ), corrected by Newton's method; None when none is found."""
    from scipy.special import expit

    g = _ap_terms(np.concatenate([np.zeros(n - rho), np.ones(rho)]), big_r)[1]
    gap = g[n - rho - 1] - g[n - rho]
    if not gap > 0:
        return None
    for spread in (10.0, 20.0, 40.0):
        mu = -spread / gap
        below, above = -40.0 - np.max(mu * g), 40.0 - np.min(mu * g)
        for _ in range(80):  # bisection: Σ expit(λ + μ·g) increases with λ
            lam = (below + above) / 2
            below, above = (lam, above) if np.sum(expit(lam + mu * g)) < rho else (below, lam)
        y = lam + mu * g
        at = expected_measure("AP", 0, expit(y), big_r)
        z = _newton(np.concatenate([y, [lam, mu]]), at, n, big_r, rho)
        if z is not None and at < value:
            return z, at
    return None


def _newton(z: np.ndarray, value: float, n: int, big_r: int, rho: int,
            iterations: int = 100, shortest: float = 1e-10) -> np.ndarray | None:
    """Newton's method for :func:`_maxent_ap` from ``z`` = (y, λ, μ)
    (:func:`irscale.meta.continuation.damped_newton`); None when it does not converge in
    ``iterations`` steps or a damped step shorter than ``shortest`` is needed."""
    from scipy.special import expit

    def residual(z: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """The residual at z, with p and g = ∂E[AP]/∂p there (for the Jacobian)."""
        y, lam, mu = z[:n], z[n], z[n + 1]
        p = expit(y)
        at, g = _ap_terms(p, big_r)
        return np.concatenate([y - lam - mu * g, [np.sum(p) - rho], [at - value]]), (p, g)

    found = damped_newton(z, residual, lambda z, pg: _jacobian(pg[0], pg[1], z[n + 1], big_r),
                          iterations, shortest)
    if found is None:
        return None
    z, r = found
    if abs(r[n]) > 1e-7 or abs(r[n + 1]) > 1e-7:  # Σ p − ρ and E[AP] − value
        return None
    # the maximum is monotone down the ranking (∂E[AP]/∂p_m decreases with m there, so
    # y = λ + μ·g is monotone in the direction of μ's sign): another stationary point of
    # the constraints (near the lowest AP) is not it
    p = expit(z[:n])
    if np.any(np.sign(z[n + 1]) * np.diff(p) > 1e-9):
        return None
    return z


def _jacobian(p: np.ndarray, g: np.ndarray, mu: float,
              big_r: int) -> Callable[[np.ndarray], np.ndarray]:
    """The Newton step ``r ↦ d`` = (dy, dλ, dμ) of :func:`_newton` at (p, μ), ``J d = −r``
    with (g = ∂E[AP]/∂p at p, :func:`_ap_terms`)

        J = [[A, −1, −g], [wᵀ, 0, 0], [(g∘w)ᵀ, 0, 0]],   A = I − (μ/R)·K·W,

    w = p(1 − p), g = ∂E[AP]/∂p, K_mi = 1/max(m, i) off the diagonal: A⁻¹ applied to −r_y,
    1 and g (:func:`_stationary_solver`, O(N)), then the 2 × 2 system of the constraints
    for (dλ, dμ) (a Schur complement). A is factorised and A⁻¹·1, A⁻¹·g and the 2 × 2
    system are solved once, so each further step (the simplified corrections of the damping
    test, the tangent of the continuation) costs one O(N) solve."""
    n = len(p)
    w = p * (1.0 - p)
    solve = _stationary_solver(mu / big_r, w)
    ones, grad = solve(np.ones(n)), solve(g)
    gw = g * w
    system = np.array([[w @ ones, w @ grad], [gw @ ones, gw @ grad]])
    try:
        inverse = np.linalg.inv(system)
    except np.linalg.LinAlgError:  # least squares where the constraints are dependent
        inverse = np.linalg.pinv(system)

    def step(r: np.ndarray) -> np.ndarray:
        base = solve(-r[:n])
        d_lam, d_mu = inverse @ np.array([-r[n] - w @ base, -r[n + 1] - gw @ base])
        return np.concatenate([base + d_lam * ones + d_mu * grad, [d_lam, d_mu]])

    return step


def _stationary_solver(c: float, w: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """``b ↦ x`` with (I − c·K·W) x = b (vectors of N), K_mi = 1/max(m, i) for m ≠ i and 0
    on the diagonal, W = diag(w): a tridiagonal matrix factorised once in O(N), then O(N) a
    solve.

    K is the Green's function of a second difference: with s = K·z (z = W·x),
    2(s₂ − s₁) = z₁ − z₂ and, for m = 1..N−2,

        (m+1)(m+2)(s_{m+2} − s_{m+1}) − m(m+1)(s_{m+1} − s_m)
            = −(m+1) z_m + (2m+1) z_{m+1} − (m+1) z_{m+2},

    which fix s up to a constant, and s_N = σ/N with σ = Σ_{i<N} z_i. Since c·s = x − b, the
    first N − 1 equations are a tridiagonal system in x (row m divided by m + 1); the last,
    x_N = b_N + c·σ/N, makes x affine in σ, which one scalar equation then gives. The
    tridiagonal system is solved by LAPACK's LU factorisation with partial pivoting
    (``dgttrf``/``dgttrs``; N = 2 densely); where it is singular, x is NaN (Newton's method
    then cuts the step, and fails)."""
    n = len(w)
    if n == 1 or c == 0.0:
        return np.copy
    if n == 2:  # (scipy's wrapper of dgttrf refuses N = 2) the matrix itself is 2 × 2
        dense = np.array([[1.0, -c * w[1] / 2.0], [-c * w[0] / 2.0, 1.0]])
        if np.linalg.det(dense) == 0.0:
            return lambda b: np.full(b.shape, np.nan)
        return lambda b: np.linalg.solve(dense, b)
    from scipy.linalg.lapack import dgttrf, dgttrs

    m, cw = np.arange(1.0, n - 1.0), c * w
    lower, diag, upper = np.zeros(n - 1), np.empty(n), np.empty(n - 1)
    diag[0], upper[0], diag[-1] = -2.0 - cw[0], 2.0 + cw[1], 1.0
    lower[:-1] = m + cw[:-2]
    diag[1:-1] = -2.0 * (m + 1.0) - (2.0 * m + 1.0) / (m + 1.0) * cw[1:-1]
    upper[1:] = m + 2.0 + cw[2:]
    *factors, info = dgttrf(lower, diag, upper, overwrite_dl=1, overwrite_d=1, overwrite_du=1)
    if info:
        return lambda b: np.full(b.shape, np.nan)
    sigma_rhs = np.zeros(n)
    sigma_rhs[-1] = c / n
    per_sigma = dgttrs(*factors, sigma_rhs, overwrite_b=1)[0]
    scale = 1.0 - w[:-1] @ per_sigma[:-1]
    middle, right = -2.0 * (m + 1.0), m + 2.0

    def solve(b: np.ndarray) -> np.ndarray:
        rhs = np.empty(n)
        rhs[0] = 2.0 * (b[1] - b[0])
        rhs[1:-1] = m * b[:-2] + middle * b[1:-1] + right * b[2:]
        rhs[-1] = b[-1]
        fixed = dgttrs(*factors, rhs, overwrite_b=1)[0]
        return fixed + per_sigma * ((w[:-1] @ fixed[:-1]) / scale)

    return solve


def interpolated_curve(counts: np.ndarray, n_relevant: int) -> np.ndarray:
    """Interpolated precision at :data:`RECALL_LEVELS` of a curve given by the (expected)
    relevant counts c_k at ranks k = 1..N."""
    ranks = np.arange(1, len(counts) + 1)
    precision, recall = counts / ranks, counts / n_relevant
    # the largest precision at a rank whose recall is ≥ r: a suffix maximum over ranks
    best = np.maximum.accumulate(precision[::-1])[::-1]
    reached = np.searchsorted(recall, RECALL_LEVELS - 1e-12, side="left")
    return np.where(reached < len(counts), best[np.minimum(reached, len(counts) - 1)], 0.0)


@dataclass(frozen=True)
class Informativeness(HtmlRepr):
    """RMS errors of the precision–recall curves inferred by maximum entropy from each
    measure's value (:func:`informativeness`). A report: ``to_frame()`` (one row per list
    and measure: the value and the RMS error), :attr:`summary` (the mean RMS error per
    measure, lower: more informative) and ``format(fmt)``."""

    table: pd.DataFrame

    @property
    def summary(self) -> pd.DataFrame:
        return (self.table.groupby("measure", sort=False)["rms_error"]
                .agg(["mean", "count"]).rename(columns={"mean": "mean_rms_error",
                                                        "count": "lists"}).reset_index())

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def intervals(self, method: MeanInterval = "t", *, alpha: float = 0.05,
                  samples: int = 10_000, rng: int | np.random.Generator | None = None
                  ) -> pd.DataFrame:
        """:attr:`summary` with each mean's 1 − ``alpha`` confidence interval over the lists,
        ``ci_low, ci_high`` (module documentation; ``samples`` and ``rng`` for
        ``"bootstrap"``)."""
        summary = self.summary
        errors = self.table.pivot(index="list", columns="measure", values="rms_error")
        errors = errors.loc[self.table["list"].unique(), list(summary["measure"])]
        low, high = mean_intervals(errors.to_numpy(np.float64), method, alpha=alpha,
                                   samples=samples, rng=rng)
        return summary.assign(ci_low=low, ci_high=high)

    def format(self, fmt: Format = "text", *, digits: int = 4,
               interval: MeanInterval | None = None, alpha: float = 0.05,
               samples: int = 10_000, rng: int | np.random.Generator | None = None) -> str:
        """The summary as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table;
        with ``interval``, the intervals of :meth:`intervals`."""
        frame = self.summary if interval is None else \
            self.intervals(interval, alpha=alpha, samples=samples, rng=rng)
        title = repr(self) + interval_note("ci_low, ci_high", interval, alpha, "lists")
        return format_frame(frame, fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else title)

    def __repr__(self) -> str:
        shown = ", ".join(f"{m} {e:.4f}" for m, e in
                          zip(self.summary["measure"], self.summary["mean_rms_error"],
                              strict=True))
        return f"Informativeness(mean RMS error of the inferred PR curve: {shown})"


def _lists(rankings: object) -> dict[str, np.ndarray]:
    items = rankings.items() if isinstance(rankings, Mapping) else \
        enumerate(rankings)  # type: ignore[arg-type]
    lists = {}
    for key, values in items:
        x = as_floats(values, f"rankings[{key!r}]")
        if x.ndim != 1 or not len(x) or not np.all((x == 0) | (x == 1)):
            raise InputError(f"list {key!r}: a ranked list is a non-empty vector of 0 "
                             "(not relevant) and 1 (relevant), in rank order")
        lists[str(key)] = x
    if not lists:
        raise InputError("no ranked list given")
    return lists


def _list_rows(key: str, x: np.ndarray, big_r: int, rho: int,
               measures: Sequence[str]) -> list[dict]:
    """The value and RMS error of the inferred curve of every measure on one list."""
    actual = interpolated_curve(np.cumsum(x), big_r)
    rows = []
    for name in measures:
        kind, k = _measure(name, len(x), big_r)
        value = expected_measure(kind, k, x, big_r)
        p = maxent_relevance(name, value, n_docs=len(x), n_relevant=big_r,
                             n_retrieved_relevant=rho)
        inferred = interpolated_curve(np.cumsum(p), big_r)
        rows.append({"list": key, "measure": name, "value": value,
                     "rms_error": float(np.sqrt(np.mean((inferred - actual) ** 2)))})
    return rows


def informativeness(rankings: Sequence[ArrayLike] | Mapping[str, ArrayLike], *,
                    measures: Sequence[str] = INFORMATIVENESS_MEASURES,
                    recall_base: Mapping[str, int] | Sequence[int] | None = None,
                    progress: ProgressArg = False) -> Informativeness:
    """How well each measure's value lets one infer a list's precision–recall curve by
    maximum entropy (Aslam, Yilmaz & Pavlu 2005; module documentation).

    ``rankings``: 0/1 relevance vectors in rank order (a sequence, or a mapping id →
    vector); ``recall_base``: R of each list (default: its relevant documents); a list
    without a relevant document is skipped (its curve is undefined) and counted in no row,
    with a warning that counts the lists skipped. ``progress``: ``True`` shows the lists
    done on standard error, a callable gets ``(done, total)`` (:mod:`irscale.core.progress`;
    the maximum entropy of AP costs O(N) a Newton step on a list of N documents).

    Examples
    --------
    >>> result = informativeness([[1, 0, 1, 0, 0, 1, 0, 0]], measures=["AP", "P@2"])
    >>> result.to_frame()[["measure", "value"]].round(4).values.tolist()
    [['AP', 0.7222], ['P@2', 0.5]]
    """
    lists = _lists(rankings)
    keys = list(lists)
    if recall_base is None:
        bases = {key: int(lists[key].sum()) for key in keys}
    elif isinstance(recall_base, Mapping):
        bases = {key: int(recall_base[key]) for key in keys if key in recall_base}
        missing = [key for key in keys if key not in bases]
        if missing:
            raise InputError(f"recall_base lacks the list(s) {missing[:5]}")
    else:
        if len(recall_base) != len(keys):
            raise InputError(f"{len(recall_base)} recall bases for {len(keys)} lists")
        bases = {key: int(r) for key, r in zip(keys, recall_base, strict=True)}
    rows = []
    empty = []
    report = progress_reporter(progress, len(keys), "informativeness")
    for done, key in enumerate(keys, 1):
        x, big_r = lists[key], bases[key]
        rho = int(x.sum())
        if big_r < rho:
            raise InputError(f"list {key!r} holds {rho} relevant documents, more than its "
                             f"recall base {big_r}")
        if rho == 0:
            empty.append(key)
        else:
            rows += _list_rows(key, x, big_r, rho, measures)
        report(done)
    return informativeness_of(rows, empty, len(keys))


def informativeness_of(rows: list[dict], empty: list[str], lists: int
                       ) -> Informativeness:
    """The result of ``lists`` ranked lists from their ``rows``; the lists ``empty`` (no
    relevant document: no curve to infer) are left out with a warning, and refused when
    every list is."""
    if not rows:
        raise InputError("no list holds a relevant document: no curve to infer")
    if empty:
        warnings.warn(f"{len(empty)} of {lists} ranked lists hold no relevant document "
                      f"and are left out (no curve to infer), e.g. {empty[0]!r}", stacklevel=3)
    return Informativeness(table=pd.DataFrame(rows))


@JUDGED_LISTS
def judged_lists(qrels: object, runs: object, *,
                 depth: int | None = cast(int, INFORMATIVENESS_DEPTH.default),
                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                 ) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """The 0/1 relevance lists and recall bases of every (run, topic) of ``runs`` judged
    by ``qrels`` (ranked as trec_eval ranks them, cut at ``depth``, None: not cut; a
    document is relevant with a degree ≥ ``relevance_level``, unjudged ones are not), keyed
    ``"run topic"``: what :func:`informativeness` takes (``informativeness(lists,
    recall_base=bases)``). Parameters checked on entry:
    :data:`irscale.meta.params.JUDGED_LISTS`."""
    from ..core.judge import build_judged_rankings
    from ..io.sources import as_qrels, as_runs

    batch = build_judged_rankings(as_qrels(qrels), as_runs(runs))
    batch = batch.with_level(relevance_level)
    if depth is not None:
        batch = batch.truncate(depth)
    relevant = batch.is_relevant & batch.is_judged
    lists, bases = {}, {}
    for i in range(batch.n_rankings):
        key = f"{batch.runs[batch.ranking_run[i]]} {batch.topics[batch.ranking_topic[i]]}"
        lists[key] = relevant[batch.offsets[i]:batch.offsets[i + 1]].astype(np.float64)
        bases[key] = int(batch.num_rel[i])
    return lists, bases
