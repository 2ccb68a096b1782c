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

AIC = 2 k − 2 log L (Akaike 1974); :func:`fit_margin` fits every family asked and keeps
the one with the smallest AIC, as Urbano & Nagler do. Their discrete families (for measures
of few values, e.g. P@10) are not implemented: such scores are fitted by the continuous
families, whose draws are then not restricted to the measure's values.

Every margin also gives the moment E[X^k] (exact for beta and bks, by quadrature for the
truncated normal), so that a margin transformed by x ↦ x^k (:mod:`irscale.meta.stochastic`)
keeps a known mean.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy import integrate, interpolate, optimize, special
from scipy import stats as sps

from ..core.params import MARGIN_FAMILIES, MARGIN_FAMILY
from ..errors import InputError

#: The continuous families, in the order they are tried.
FAMILIES = MARGIN_FAMILIES
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

__all__ = ["FAMILIES", "BetaKernel", "BetaMargin", "Margin", "TruncatedNormal", "fit_margin"]


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
        spread = min(float(x.std(ddof=1)), float(np.subtract(*np.percentile(x, [75, 25])))
                     / 1.34) or float(x.std(ddof=1))
        width = 0.9 * spread * n ** -0.2  # Silverman's (1986, eq. 3.31) normal reference
        h = float(np.clip(width ** 2 / (mean * (1 - mean)), *BANDWIDTHS))
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


FITTERS: dict[str, Callable[[np.ndarray], Margin | None]] = {
    "truncnorm": TruncatedNormal.fit, "beta": BetaMargin.fit, "bks": BetaKernel.fit}


def fit_margin(scores: np.ndarray, families: Sequence[str] = FAMILIES, *,
               name: str = "the scores") -> Margin:
    """The margin of the smallest AIC among ``families`` fitted to ``scores``
    (module documentation). ``name`` names the scores in errors."""
    x = np.asarray(scores, dtype=np.float64)
    if np.any((x < 0) | (x > 1)) or not np.all(np.isfinite(x)):
        raise InputError(f"{name}: the margins are distributions on [0, 1] and a score "
                         f"lies outside (min {np.nanmin(x):g}, max {np.nanmax(x):g})")
    if np.ptp(x) == 0:
        raise InputError(f"{name}: every topic has the score {x[0]:g}: no distribution "
                         "to fit (leave this system out)")
    chosen = [MARGIN_FAMILY.check(f, "margins") for f in families]
    fitted: list[Margin] = [m for m in (FITTERS[f](x) for f in chosen) if m is not None]
    if not fitted:
        raise InputError(f"{name}: a score is 0 or 1, outside the support of the beta "
                         "family: add truncnorm or bks to the margins")
    return min(fitted, key=aic)
