"""Marginal distributions of per-topic scores on [0, 1], fitted and chosen by AIC.

The continuous families of Urbano & Nagler (SIGIR 2018, "Stochastic Simulation of Test
Collections: Evaluation Scores"), each fitted by maximum likelihood to one system's
scores x_1..x_n (all in [0, 1]):

* ``truncnorm`` — the normal N(μ, σ²) truncated to [0, 1]:
  f(x) = φ((x − μ)/σ) / (σ (Φ(β) − Φ(α))), α = −μ/σ, β = (1 − μ)/σ; 2 parameters,
  searched within μ ∈ [−2, 3], σ ∈ [0.001, 10] (:data:`MU_RANGE`, :data:`SIGMA_RANGE`).
* ``beta`` — Beta(a, b), f(x) = x^(a−1) (1 − x)^(b−1) / B(a, b); 2 parameters. A score of
  exactly 0 or 1 has no finite beta likelihood (for some a, b): the family is a candidate
  only for scores strictly inside (0, 1). (Squeezing the scores into (0, 1), as Smithson
  & Verkuilen 2006 do, would move the mean of scores near 0 — AP — by about 1/(2n).)
* ``bks`` — beta-kernel smoothing (bounded support): the mixture
  f(x) = (1/n) Σ_i Beta(x; x_i/h + 1, (1 − x_i)/h + 1), one beta kernel of mode x_i per
  score. This is the form of Chen's (1999) beta kernel with the roles of the point and the
  data swapped, so that f is a density (integrates to 1) with an exact mean
  ((x̄ + h)/(1 + 2h)). The bandwidth is Silverman's (1986, eq. 3.31) normal-reference
  width w = 0.9 min(s, IQR/1.34) n^(−1/5) translated to the beta kernel, whose standard
  deviation at the mean m is about √(h m (1 − m)): h = w² / (m (1 − m)). Its
  number of parameters in the AIC is the effective degrees of freedom of the smoother,
  Σ_i K_h(x_i; x_i) / (n f(x_i)) (the trace of its hat matrix; Loader 1999, *Local
  Regression and Likelihood*).

Discrete families, for measures of few values (P@10, RR, success): Urbano & Nagler fit
a beta-binomial and a discrete kernel smoothing ("dks") to such scores. A system's scores
are **discrete** (:func:`discrete_support`) when every score is k/m for one m ≤
:data:`MAX_GRID` (P@5..P@30, success: the support is the whole grid {0, 1/m, .., 1}), or
when they take at most :data:`MAX_VALUES` distinct values, each seen twice on average
(RR and other measures of few values off a grid: the support is the values observed).
Each discrete family is a probability mass function p on the support s_1 < .. < s_J:

* ``bbinom`` — the beta-binomial on the grid: P(X = k/m) = C(m, k) B(k + a, m − k + b) /
  B(a, b), maximum likelihood; 2 parameters; only for a grid support.
* ``dks`` — discrete kernel smoothing: p(s_j) = (1/n) Σ_i w_ij, with
  w_ij = φ((s_j − x_i)/h) / Σ_l φ((s_l − x_i)/h) (every score's normal kernel restricted
  to the support and normalised), h Silverman's width as for ``bks``; its parameters in the
  AIC are the smoother's effective degrees of freedom Σ_i w_i,i / (n p(x_i)) (the number of
  distinct values when h → 0, the empirical pmf).

The discrete families compete by AIC among themselves (two probability mass functions),
the continuous ones among themselves (densities, whose likelihoods are not comparable with
a pmf's): whether a system is discrete is the rule above, which families compete is its
answer. A discrete margin's inverse distribution function returns the support's values
themselves (s_j = k/m computed as the float k/m), so the draws of P@10 are multiples of 0.1
exactly, and its moments are exact sums over the support.

Every margin also gives the moment E[X^k] (exact for beta, bks and the discrete families,
by quadrature for the truncated normal), so that a margin transformed by x ↦ x^k
(:mod:`irscale.meta.stochastic`) keeps a known mean; a discrete margin is moved to a
prescribed mean by exponential tilting instead (:meth:`DiscreteMargin.tilted`), which keeps
its support.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy import integrate, interpolate, optimize, special
from scipy import stats as sps

from ..errors import InputError
from .params import MARGIN_FAMILIES, MARGIN_FIT

#: The families, in the order they are tried: continuous, then discrete.
FAMILIES = MARGIN_FAMILIES
#: The discrete families (module documentation).
DISCRETE_FAMILIES: tuple[str, ...] = ("bbinom", "dks")
#: The largest m of a grid {0, 1/m, .., 1} of discrete scores (P@30).
MAX_GRID = 30
#: The most distinct values of discrete scores off a grid (each seen twice on average).
MAX_VALUES = 20
#: The largest |θ (s_J − s_1)| of the exponential tilt of a discrete margin searched
#: (e^700 is near the largest double).
MAX_TILT = 700.0
#: How far from k/m a score on the grid may be (scores written with 15 digits and more).
GRID_TOLERANCE = 1e-9
#: The smallest and largest bandwidth of the beta kernel.
BANDWIDTHS = (1e-4, 1.0)
#: The range of the truncated normal's μ and σ searched (a μ far outside [0, 1] is the
#: exponential-like limit, reached closely enough within these bounds).
MU_RANGE = (-2.0, 3.0)
SIGMA_RANGE = (1e-3, 10.0)
#: Points of the grid on which the inverse of the bks distribution function is
#: interpolated (the kernels' densities are bounded: the error in x is below 1e-6).
PPF_GRID = 2**14 + 1
#: The smallest step of the cdf between two points of that grid kept.
CDF_STEP = 1e-12

__all__ = ["DISCRETE_FAMILIES", "FAMILIES", "BetaKernel", "BetaMargin", "DiscreteMargin",
           "Margin", "TruncatedNormal", "discrete_support", "fit_beta_binomial",
           "fit_discrete_kernel", "fit_margin"]


class Margin(Protocol):
    """A distribution on [0, 1]: its family, parameters, fit and draws."""

    @property
    def family(self) -> str: ...

    @property
    def loglik(self) -> float: ...

    @property
    def n_params(self) -> float: ...

    def logpdf(self, x: np.ndarray) -> np.ndarray: ...

    def ppf(self, u: np.ndarray) -> np.ndarray: ...

    def moment(self, k: float) -> float: ...

    def parameters(self) -> dict[str, float]: ...


def aic(margin: Margin) -> float:
    """Akaike's information criterion, 2 k − 2 log L."""
    return 2.0 * margin.n_params - 2.0 * margin.loglik


def _log_mass(alpha: float, beta: float) -> float:
    """log(Φ(β) − Φ(α)) for α < β, from the side of the smaller tail."""
    if alpha > 0:  # both in the upper tail: Φ(−α) − Φ(−β)
        alpha, beta = -beta, -alpha
    high = special.log_ndtr(beta)
    return float(high + np.log1p(-np.exp(special.log_ndtr(alpha) - high)))


@dataclass(frozen=True)
class TruncatedNormal:
    """N(mu, sigma²) truncated to [0, 1] (module documentation)."""

    mu: float
    sigma: float
    loglik: float = float("nan")
    family: str = "truncnorm"

    @property
    def n_params(self) -> float:
        return 2.0

    @classmethod
    def fit(cls, x: np.ndarray) -> TruncatedNormal:
        def nll(theta: np.ndarray) -> float:
            return -float(cls(theta[0], np.exp(theta[1])).logpdf(x).sum())

        start = np.array([x.mean(), np.log(max(x.std(), 2 * SIGMA_RANGE[0]))])
        best = optimize.minimize(nll, start, method="Nelder-Mead",
                                 bounds=[MU_RANGE, np.log(SIGMA_RANGE)],
                                 options={"xatol": 1e-9, "fatol": 1e-12, "maxiter": 2000})
        mu, sigma = float(best.x[0]), float(np.exp(best.x[1]))
        return cls(mu, sigma, -float(best.fun))

    def _bounds(self) -> tuple[float, float]:
        return -self.mu / self.sigma, (1.0 - self.mu) / self.sigma

    def logpdf(self, x: np.ndarray) -> np.ndarray:
        alpha, beta = self._bounds()
        z = (np.asarray(x, dtype=np.float64) - self.mu) / self.sigma
        out = -0.5 * z * z - 0.5 * np.log(2 * np.pi) - np.log(self.sigma) \
            - _log_mass(alpha, beta)
        return np.where((x >= 0) & (x <= 1), out, -np.inf)

    def _frozen(self):  # scipy's truncnorm: its inverse is stable far in the tails
        alpha, beta = self._bounds()
        return sps.truncnorm(alpha, beta, loc=self.mu, scale=self.sigma)

    def ppf(self, u: np.ndarray) -> np.ndarray:
        return np.clip(self._frozen().ppf(u), 0.0, 1.0)

    def moment(self, k: float) -> float:
        if k == 1.0:
            return float(self._frozen().mean())
        value, _ = integrate.quad(lambda t: t ** k * np.exp(self.logpdf(np.array(t))),
                                  0.0, 1.0, epsabs=1e-13, epsrel=1e-11, limit=200)
        return float(value)

    def parameters(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}


@dataclass(frozen=True)
class BetaMargin:
    """Beta(a, b) (module documentation)."""

    a: float
    b: float
    loglik: float = float("nan")
    family: str = "beta"

    @property
    def n_params(self) -> float:
        return 2.0

    @classmethod
    def fit(cls, x: np.ndarray) -> BetaMargin | None:
        """The maximum-likelihood Beta(a, b), or None for scores that reach 0 or 1."""
        if np.any((x <= 0) | (x >= 1)):
            return None
        n, y = len(x), x
        logs = np.log(y).mean(), np.log1p(-y).mean()
        m, v = y.mean(), max(y.var(), 1e-8)  # the method of moments starts the search
        common = max(m * (1 - m) / v - 1, 1e-3)

        def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
            a, b = np.exp(theta)
            value = special.betaln(a, b) - (a - 1) * logs[0] - (b - 1) * logs[1]
            da = special.digamma(a) - special.digamma(a + b) - logs[0]
            db = special.digamma(b) - special.digamma(a + b) - logs[1]
            return float(value), np.array([da * a, db * b])

        best = optimize.minimize(nll, np.log([m * common, (1 - m) * common]), jac=True,
                                 method="BFGS", options={"gtol": 1e-10})
        a, b = np.exp(best.x)
        return cls(float(a), float(b), -n * float(best.fun))

    def logpdf(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(divide="ignore"):
            return special.xlogy(self.a - 1, x) + special.xlog1py(self.b - 1, -x) \
                - special.betaln(self.a, self.b)

    def ppf(self, u: np.ndarray) -> np.ndarray:
        return special.betaincinv(self.a, self.b, u)

    def moment(self, k: float) -> float:
        return float(np.exp(special.betaln(self.a + k, self.b) - special.betaln(self.a, self.b)))

    def parameters(self) -> dict[str, float]:
        return {"a": self.a, "b": self.b}


def _silverman(x: np.ndarray) -> float:
    """Silverman's (1986, eq. 3.31) normal-reference width 0.9 min(s, IQR/1.34) n^(−1/5)
    (s alone when the IQR is 0)."""
    spread = min(float(x.std(ddof=1)), float(np.subtract(*np.percentile(x, [75, 25])))
                 / 1.34) or float(x.std(ddof=1))
    return 0.9 * spread * len(x) ** -0.2


def _beta_logpdf_grid(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log Beta(x_j; a_i, b_i) for every (j, i)."""
    xs = x[:, None]
    return special.xlogy(a[None, :] - 1, xs) + special.xlog1py(b[None, :] - 1, -xs) \
        - special.betaln(a, b)[None, :]


@dataclass(frozen=True, eq=False)
class BetaKernel:
    """Beta-kernel smoothing of ``data`` with bandwidth ``h`` (module documentation)."""

    data: np.ndarray
    h: float
    loglik: float = float("nan")
    df: float = float("nan")
    family: str = "bks"
    _inverse: interpolate.PchipInterpolator | None = None

    @property
    def n_params(self) -> float:
        return self.df

    def _shapes(self) -> tuple[np.ndarray, np.ndarray]:
        return self.data / self.h + 1.0, (1.0 - self.data) / self.h + 1.0

    @classmethod
    def fit(cls, x: np.ndarray) -> BetaKernel:
        n = len(x)
        mean = float(x.mean())
        h = float(np.clip(_silverman(x) ** 2 / (mean * (1 - mean)), *BANDWIDTHS))
        kernels = np.exp(_beta_logpdf_grid(x, x / h + 1.0, (1.0 - x) / h + 1.0))
        density = kernels.mean(axis=1)
        df = float((np.diag(kernels) / (n * density)).sum())
        return cls(np.array(x, dtype=np.float64), h, float(np.log(density).sum()), df)

    def logpdf(self, x: np.ndarray) -> np.ndarray:
        a, b = self._shapes()
        grid = _beta_logpdf_grid(np.atleast_1d(np.asarray(x, np.float64)), a, b)
        return special.logsumexp(grid, axis=1) - np.log(len(self.data))

    def cdf(self, x: np.ndarray) -> np.ndarray:
        a, b = self._shapes()
        return special.betainc(a[None, :], b[None, :], np.asarray(x)[:, None]).mean(axis=1)

    def ppf(self, u: np.ndarray) -> np.ndarray:
        """The inverse distribution function: a monotone cubic (Fritsch & Carlson 1980)
        through the cdf at the :data:`PPF_GRID` points of a grid of [0, 1] (made once)."""
        if self._inverse is None:
            grid = np.linspace(0.0, 1.0, PPF_GRID)
            cdf = self.cdf(grid)
            # a flat stretch (no kernel mass): its left end; a step of the cdf above
            # 1e-12 keeps the interpolant's slopes finite
            keep = np.r_[True, np.diff(cdf) > CDF_STEP]
            object.__setattr__(self, "_inverse", interpolate.PchipInterpolator(
                cdf[keep], grid[keep]))
        assert self._inverse is not None
        return np.clip(self._inverse(u), 0.0, 1.0)

    def moment(self, k: float) -> float:
        a, b = self._shapes()
        return float(np.exp(special.betaln(a + k, b) - special.betaln(a, b)).mean())

    def parameters(self) -> dict[str, float]:
        return {"h": self.h, "df": self.df}


@dataclass(frozen=True, eq=False)
class DiscreteMargin:
    """A probability mass function ``pmf`` on the increasing ``support`` (module
    documentation): the ``family`` fitted, its parameters and its number of parameters
    in the AIC."""

    family: str
    support: np.ndarray
    pmf: np.ndarray
    loglik: float
    n_params: float
    params: dict[str, float]

    def _index(self, x: np.ndarray) -> np.ndarray:
        """The position of every x in the support (−1 off it)."""
        x = np.atleast_1d(np.asarray(x, dtype=np.float64))
        at = np.clip(np.searchsorted(self.support, x), 0, len(self.support) - 1)
        return np.where(np.abs(self.support[at] - x) <= GRID_TOLERANCE, at, -1)

    def logpdf(self, x: np.ndarray) -> np.ndarray:
        """log p(x) (−inf off the support): the log-likelihood of a pmf."""
        at = self._index(x)
        with np.errstate(divide="ignore"):
            return np.where(at >= 0, np.log(self.pmf[at]), -np.inf)

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """P(X ≤ x)."""
        cumulative = np.r_[0.0, np.cumsum(self.pmf)]
        return cumulative[np.searchsorted(self.support, np.asarray(x, np.float64)
                                          + GRID_TOLERANCE, side="right")]

    def ppf(self, u: np.ndarray) -> np.ndarray:
        """The smallest support value s_j with P(X ≤ s_j) ≥ u: the values themselves."""
        at = np.searchsorted(np.cumsum(self.pmf), np.asarray(u, np.float64), side="left")
        return self.support[np.minimum(at, len(self.support) - 1)]

    def moment(self, k: float) -> float:
        """E[X^k] = Σ_j s_j^k p_j."""
        return float(np.sum(self.support ** k * self.pmf))

    def parameters(self) -> dict[str, float]:
        return dict(self.params)

    def tilted(self, target: float, name: str = "the scores") -> DiscreteMargin:
        """The exponential tilt p_j(θ) = p_j e^(θ s_j) / Σ_l p_l e^(θ s_l) of mean
        ``target``: the mean increases with θ from s_1 to s_J, one root for a target
        strictly between (searched within |θ (s_J − s_1)| ≤ :data:`MAX_TILT`)."""
        low, high = float(self.support[0]), float(self.support[-1])
        if not low < target < high:
            raise InputError(f"{name}: its discrete margin on [{low:g}, {high:g}] cannot "
                             f"be moved to the mean {target:.6g}")
        log_p = np.log(self.pmf)
        scaled = self.support - low

        def pmf(theta: float) -> np.ndarray:
            logits = log_p + theta * scaled
            return np.exp(logits - special.logsumexp(logits))

        bound = MAX_TILT / (high - low)
        theta = optimize.brentq(lambda t: float(self.support @ pmf(t)) - target, -bound,
                                bound, xtol=1e-14, rtol=1e-14)
        return DiscreteMargin(self.family, self.support, pmf(theta), self.loglik,
                              self.n_params, {**self.params, "tilt": float(theta)})


def discrete_support(x: np.ndarray) -> np.ndarray | None:
    """The support of discrete scores ``x`` (module documentation), None for continuous
    scores: the grid {0, 1/m, .., 1} of the smallest m ≤ :data:`MAX_GRID` with every score
    k/m, else the distinct values when at most :data:`MAX_VALUES` and at most n/2."""
    for m in range(1, MAX_GRID + 1):
        if np.all(np.abs(x * m - np.rint(x * m)) <= GRID_TOLERANCE * m):
            return np.arange(m + 1) / m
    values = np.unique(x)
    if len(values) <= MAX_VALUES and 2 * len(values) <= len(x):
        return values
    return None


def _grid_size(support: np.ndarray) -> int | None:
    """m when ``support`` is the grid {0, 1/m, .., 1}, None otherwise."""
    m = len(support) - 1
    return m if m >= 1 and np.array_equal(support, np.arange(m + 1) / m) else None


def fit_beta_binomial(x: np.ndarray, support: np.ndarray) -> DiscreteMargin | None:
    """The maximum-likelihood beta-binomial of scores on the grid ``support`` (None off
    a grid): P(X = k/m) = C(m, k) B(k + a, m − k + b) / B(a, b)."""
    m = _grid_size(support)
    if m is None:
        return None
    k = np.rint(x * m)
    grid = np.arange(m + 1)
    log_choose = special.gammaln(m + 1) - special.gammaln(grid + 1) \
        - special.gammaln(m - grid + 1)

    def log_pmf(a: float, b: float) -> np.ndarray:
        return log_choose + special.betaln(grid + a, m - grid + b) - special.betaln(a, b)

    counts = np.bincount(k.astype(np.int64), minlength=m + 1)

    def nll(theta: np.ndarray) -> float:
        return -float(counts @ log_pmf(*np.exp(theta)))

    mean, var = float(x.mean()), max(float(x.var()), 1e-8)
    common = max(mean * (1 - mean) / var - 1, 1e-2)  # the beta's method of moments
    best = optimize.minimize(nll, np.log([mean * common, (1 - mean) * common]),
                             method="Nelder-Mead", bounds=[(-10.0, 10.0)] * 2,
                             options={"xatol": 1e-9, "fatol": 1e-12, "maxiter": 4000})
    a, b = np.exp(best.x)
    return DiscreteMargin("bbinom", support, np.exp(log_pmf(a, b)), -float(best.fun), 2.0,
                          {"m": float(m), "a": float(a), "b": float(b)})


def fit_discrete_kernel(x: np.ndarray, support: np.ndarray) -> DiscreteMargin:
    """Discrete kernel smoothing of ``x`` on ``support`` (module documentation)."""
    h = max(_silverman(x), BANDWIDTHS[0])
    z = (support[None, :] - x[:, None]) / h
    at = np.abs(z).argmin(axis=1)  # the support value of every score
    squares = z ** 2  # φ's exponent, shifted by every row's smallest: no underflow at 0
    weights = np.exp(-0.5 * (squares - squares[np.arange(len(x)), at][:, None]))
    weights /= weights.sum(axis=1, keepdims=True)
    pmf = weights.mean(axis=0)
    own = weights[np.arange(len(x)), at]
    df = float((own / (len(x) * pmf[at])).sum())
    return DiscreteMargin("dks", support, pmf, float(np.log(pmf[at]).sum()), df,
                          {"h": h, "df": df})


FITTERS: dict[str, Callable[[np.ndarray], Margin | None]] = {
    "truncnorm": TruncatedNormal.fit, "beta": BetaMargin.fit, "bks": BetaKernel.fit}
DISCRETE_FITTERS: dict[str, Callable[[np.ndarray, np.ndarray], DiscreteMargin | None]] = {
    "bbinom": fit_beta_binomial, "dks": fit_discrete_kernel}


@MARGIN_FIT
def fit_margin(scores: np.ndarray, margins: Sequence[str] = FAMILIES, *,
               name: str = "the scores") -> Margin:
    """The margin of the smallest AIC among the families ``margins`` fitted to ``scores``
    (module documentation), the families checked on entry
    (:data:`irscale.meta.params.MARGIN_FIT`). ``name`` names the scores in errors."""
    x = np.asarray(scores, dtype=np.float64)
    if np.any((x < 0) | (x > 1)) or not np.all(np.isfinite(x)):
        raise InputError(f"{name}: the margins are distributions on [0, 1] and a score "
                         f"lies outside (min {np.nanmin(x):g}, max {np.nanmax(x):g})")
    if np.ptp(x) == 0:
        raise InputError(f"{name}: every topic has the score {x[0]:g}: no distribution "
                         "to fit (leave this system out)")
    chosen = list(margins)
    support = discrete_support(x)
    discrete = [f for f in chosen if f in DISCRETE_FITTERS]
    continuous = [f for f in chosen if f in FITTERS]
    if support is not None and discrete:
        pmfs = [m for m in (DISCRETE_FITTERS[f](x, support) for f in discrete)
                if m is not None]
        if not pmfs:
            raise InputError(f"{name}: the scores take {len(support)} values off a grid "
                             f"k/m (m ≤ {MAX_GRID}), where bbinom has no support: add dks "
                             "to the margins")
        return min(pmfs, key=aic)
    if not continuous:
        raise InputError(f"{name}: the scores are continuous (not all k/m with m ≤ "
                         f"{MAX_GRID}, nor at most {MAX_VALUES} values seen twice on "
                         "average): add truncnorm, beta or bks to the margins")
    fitted: list[Margin] = [m for m in (FITTERS[f](x) for f in continuous) if m is not None]
    if not fitted:
        raise InputError(f"{name}: a score is 0 or 1, outside the support of the beta "
                         "family: add truncnorm or bks to the margins")
    return min(fitted, key=aic)
