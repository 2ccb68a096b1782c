"""R-vine copulas of the dependence between systems (pyvinecopulib, the optional extra
``irscale[vines]``).

Urbano & Nagler (SIGIR 2018) fit R-vine copulas: d(d − 1)/2 bivariate pair-copulas
arranged in a sequence of trees (Dissmann, Brechmann, Czado & Kurowicka 2013, the
structure of each tree the maximum spanning tree of Kendall's τ), each pair-copula's family
selected by AIC, with Nagler's rvinecopulib. irscale fits the same model with
pyvinecopulib (the Python interface of the same C++ library, vinecopulib) on the rank-based
pseudo-observations of :func:`irscale.meta.copulas.pseudo_observations`, with the family
set :data:`VINE_FAMILIES` — the parametric families of rvinecopulib's ``"all"`` in 2018
and the nonparametric transformation local-likelihood estimator ``tll`` — every rotation,
parameters by maximum likelihood, families by AIC.

Discrete margins (:mod:`irscale.meta.margins`): the vine is fitted with the continuous
extension of vinecopulib (variable type ``"d"``), whose likelihood takes for such a system
both u = F̂(x) and its left limit u⁻ = F̂(x⁻), F̂ the empirical distribution function
#{x_t ≤ x}/(n + 1) (the ranks with ties counted on the right and, for u⁻, strictly
below); a continuous system's u is its mid-rank/(n + 1), as for the elliptical copulas.

Draws: n × d independent uniforms from irscale's random stream (``numpy.random.Generator``)
mapped by the vine's inverse Rosenblatt transform — what pyvinecopulib's own ``simulate``
does with its own generator — so that a seed of irscale gives the same draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from scipy import stats as sps

from ..core.extras import PYVINECOPULIB
from .copulas import pseudo_observations

#: The extra that installs pyvinecopulib (named in the error when it is missing).
EXTRA = f"irscale[{PYVINECOPULIB.extra}]"
#: The pair-copula families of the vine (pyvinecopulib's ``BicopFamily`` names).
VINE_FAMILIES: tuple[str, ...] = ("indep", "gaussian", "student", "clayton", "gumbel",
                                  "frank", "joe", "bb1", "bb6", "bb7", "bb8", "tll")

__all__ = ["EXTRA", "VINE_FAMILIES", "VineCopula", "fit_vine"]


def _pyvinecopulib() -> ModuleType:
    """pyvinecopulib, or the :class:`~irscale.errors.ParameterError` naming the extra."""
    return PYVINECOPULIB.load("copula 'vine'", param="copula")


def vine_observations(values: np.ndarray, discrete: np.ndarray) -> np.ndarray:
    """The pseudo-observations of the module documentation: n × d (every system
    continuous) or n × 2d, the u's then their left limits (u⁻ = u for a continuous
    system; the layout that every pyvinecopulib version takes)."""
    n = values.shape[0]
    u = pseudo_observations(values)
    if not discrete.any():
        return u
    left = u.copy()
    u[:, discrete] = sps.rankdata(values[:, discrete], method="max", axis=0) / (n + 1)
    left[:, discrete] = (sps.rankdata(values[:, discrete], method="min", axis=0) - 1) / (n + 1)
    return np.column_stack([u, left])


@dataclass(frozen=True, eq=False)
class VineCopula:
    """A fitted R-vine (module documentation): ``model`` is the pyvinecopulib Vinecop."""

    model: Any
    loglik: float
    n_params: float
    family: str = "vine"
    df: float | None = None

    def draw(self, gen: np.random.Generator, n: int) -> np.ndarray:
        """``n`` × d uniforms of the vine: the inverse Rosenblatt transform of independent
        uniforms of ``gen``."""
        w = gen.random((n, self.model.dim))
        return np.asarray(self.model.inverse_rosenblatt(np.asfortranarray(w)))

    def pair_families(self) -> list[str]:
        """The family of every pair-copula, tree by tree."""
        return [str(self.model.get_pair_copula(t, e).family).split(".")[-1]
                for t in range(self.model.trunc_lvl) for e in range(self.model.dim - 1 - t)]

    def describe(self) -> dict[str, object]:
        return {"copula": self.family, "df": self.df, "pair_copulas": self.pair_families()}


def fit_vine(values: np.ndarray, discrete: np.ndarray) -> VineCopula:
    """The R-vine of :data:`VINE_FAMILIES` selected by AIC on the pseudo-observations of
    the topics × systems ``values``; ``discrete`` (booleans) marks the systems of discrete
    margins."""
    pv = _pyvinecopulib()
    controls = pv.FitControlsVinecop(
        family_set=[getattr(pv.BicopFamily, f) for f in VINE_FAMILIES],
        selection_criterion="aic", parametric_method="mle")
    types = ["d" if flag else "c" for flag in discrete]
    u = vine_observations(values, discrete)
    model = pv.Vinecop.from_data(np.asfortranarray(u), controls=controls, var_types=types)
    return VineCopula(model, float(model.loglik()), float(model.npars))
