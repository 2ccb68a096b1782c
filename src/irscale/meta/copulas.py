"""Copulas of the dependence between systems: Gaussian and Student t (elliptical).

Urbano & Nagler (SIGIR 2018) model the per-topic scores of the systems as
X_s = F_s⁻¹(U_s), where the F_s are the margins (:mod:`irscale.meta.margins`) and
U = (U_1..U_d) follows a copula C, a distribution on [0, 1]^d with uniform margins. They fit
R-vine copulas (pair-copulas of many families, selected by AIC): ``vine``
(:mod:`irscale.meta.vines`, the optional extra ``irscale[vines]``). irscale also fits the
two elliptical copulas, whose correlation matrix R gives every pair the same kind of
dependence:

* ``gaussian`` — U_s = Φ(Z_s), Z ~ N(0, R);
* ``t`` — U_s = t_ν(Z_s / √(W/ν)), Z ~ N(0, R), W ~ χ²_ν: symmetric tail dependence,
  stronger as ν is smaller;
* ``independent`` — U_s independent (R = I), for reference.

Fit (on the topics × systems scores): R_ij = sin(π τ_ij / 2) from Kendall's τ_b of
systems i and j, the relation that holds for every elliptical copula (Lindskog, McNeil &
Schmock 2003), so that the draws keep the scores' Kendall τ (for continuous margins; τ_b
counts the ties of discrete margins, whose draws keep τ only approximately); a
matrix that is not positive definite (more systems than topics) is moved to the nearest
one with eigenvalues ≥ :data:`MIN_EIGENVALUE` and unit diagonal (Rousseeuw & Molenberghs
1993). The t copula's ν maximises the copula pseudo-likelihood of the rank-transformed
scores u_ts = rank/(n + 1) given R (Genest, Ghoudi & Rivest 1995). ``auto`` keeps the
Gaussian or t copula of the smaller AIC (d(d − 1)/2 parameters, one more for t); it
never picks the vine, so it needs no optional package.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, special
from scipy import stats as sps

from ..errors import ParameterError
from .params import COPULA_FAMILIES, COPULA_FAMILY_FIT

#: The copula families.
COPULAS = COPULA_FAMILIES
#: The smallest eigenvalue kept in a fitted correlation matrix.
MIN_EIGENVALUE = 1e-4
#: The degrees of freedom of the t copula searched.
DF_RANGE = (1.0, 200.0)

__all__ = ["COPULAS", "Copula", "fit_copula", "kendall_matrix"]


def kendall_matrix(values: np.ndarray) -> np.ndarray:
    """Kendall's τ_b of every two columns of ``values`` (topics × systems):
    Σ s_a s_b / √(Σ s_a² Σ s_b²) over the pairs of topics, s = sign of the difference."""
    i, j = np.triu_indices(values.shape[0], 1)
    signs = np.sign(values[i] - values[j])
    cross = signs.T @ signs
    norm = np.sqrt(np.diag(cross))
    with np.errstate(invalid="ignore", divide="ignore"):
        return cross / np.outer(norm, norm)


def nearest_correlation(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` with its eigenvalues raised to :data:`MIN_EIGENVALUE`, rescaled to a unit
    diagonal (the matrix itself when already positive definite enough)."""
    values, vectors = np.linalg.eigh((matrix + matrix.T) / 2)
    if values.min() >= MIN_EIGENVALUE:
        return matrix
    fixed = (vectors * np.maximum(values, MIN_EIGENVALUE)) @ vectors.T
    scale = np.sqrt(np.diag(fixed))
    return fixed / np.outer(scale, scale)


def pseudo_observations(values: np.ndarray) -> np.ndarray:
    """rank / (n + 1) of every column (mid-ranks for ties)."""
    return sps.rankdata(values, axis=0) / (values.shape[0] + 1)


@dataclass(frozen=True, eq=False)
class Copula:
    """An elliptical copula: ``family`` (``gaussian``, ``t``, ``independent``), the
    correlation matrix ``corr`` and, for ``t``, the degrees of freedom ``df``."""

    family: str
    corr: np.ndarray
    df: float | None = None
    loglik: float = 0.0

    @property
    def n_params(self) -> float:
        d = self.corr.shape[0]
        if self.family == "independent":
            return 0.0
        return d * (d - 1) / 2 + (1 if self.family == "t" else 0)

    def draw(self, gen: np.random.Generator, n: int) -> np.ndarray:
        """``n`` × d uniforms of the copula."""
        d = self.corr.shape[0]
        if self.family == "independent":
            return gen.random((n, d))
        z = gen.standard_normal((n, d)) @ np.linalg.cholesky(self.corr).T
        if self.family == "gaussian":
            return special.ndtr(z)
        assert self.df is not None
        w = gen.chisquare(self.df, size=(n, 1))
        return special.stdtr(self.df, z / np.sqrt(w / self.df))

    def describe(self) -> dict[str, object]:
        return {"copula": self.family, "df": self.df}


def _gaussian_loglik(u: np.ndarray, corr: np.ndarray) -> float:
    """Σ_t log c(u_t) = Σ_t −½ log|R| − ½ z_tᵀ (R⁻¹ − I) z_t, z = Φ⁻¹(u)."""
    z = special.ndtri(u)
    _, logdet = np.linalg.slogdet(corr)
    quad = np.einsum("ti,ij,tj->t", z, np.linalg.inv(corr) - np.eye(len(corr)), z)
    return float(-0.5 * len(u) * logdet - 0.5 * quad.sum())


def _t_loglik(u: np.ndarray, corr: np.ndarray, df: float) -> float:
    """Σ_t log c(u_t): the multivariate t_ν(0, R) log-density at x = t_ν⁻¹(u) minus the
    univariate t_ν log-densities of its coordinates."""
    d = u.shape[1]
    x = special.stdtrit(df, u)
    _, logdet = np.linalg.slogdet(corr)
    quad = np.einsum("ti,ij,tj->t", x, np.linalg.inv(corr), x)
    joint = (special.gammaln((df + d) / 2) - special.gammaln(df / 2)
             - d / 2 * np.log(df * np.pi) - 0.5 * logdet
             - (df + d) / 2 * np.log1p(quad / df))
    single = sps.t.logpdf(x, df).sum(axis=1)
    return float((joint - single).sum())


@COPULA_FAMILY_FIT
def fit_copula(values: np.ndarray, copula: str = "gaussian") -> Copula:
    """The elliptical copula ``copula`` (a family) fitted to the topics × systems ``values``
    (module documentation; the vine is :func:`irscale.meta.vines.fit_vine`), its name
    checked on entry (:data:`irscale.meta.params.COPULA_FAMILY_FIT`)."""
    if copula == "vine":
        raise ParameterError("copula 'vine' is fitted by irscale.meta.vines.fit_vine",
                             param="copula")
    d = values.shape[1]
    if copula == "independent":
        return Copula("independent", np.eye(d))
    tau = np.nan_to_num(kendall_matrix(values))  # a constant column: no dependence
    np.fill_diagonal(tau, 1.0)
    corr = nearest_correlation(np.sin(np.pi * tau / 2))
    u = pseudo_observations(values)
    gaussian = Copula("gaussian", corr, loglik=_gaussian_loglik(u, corr))
    if copula == "gaussian":
        return gaussian
    best = optimize.minimize_scalar(lambda log_df: -_t_loglik(u, corr, float(np.exp(log_df))),
                                    bounds=np.log(DF_RANGE), method="bounded",
                                    options={"xatol": 1e-4})
    student = Copula("t", corr, float(np.exp(best.x)), -float(best.fun))
    if copula == "t":
        return student
    return min((gaussian, student), key=lambda c: 2 * c.n_params - 2 * c.loglik)
