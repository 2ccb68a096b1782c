"""Stochastic simulation of evaluation scores: new topics of the same systems, with copulas.

Urbano & Nagler (SIGIR 2018, "Stochastic Simulation of Test Collections: Evaluation
Scores") model the score of system s on a random topic as X_s = F_s⁻¹(U_s): a margin F_s
per system (:mod:`irscale.meta.margins`: truncated normal, beta or beta-kernel smoothing,
or for scores of few values beta-binomial or discrete kernel smoothing, chosen by AIC) and
a copula for U (:mod:`irscale.meta.copulas`: Gaussian, Student t or an R-vine). Fitted
to an existing topics × systems matrix, the model draws matrices of new topics whose
**true system means** are known: μ_s = E[X_s], the margins' expected values. Urbano,
Lima & Hanjalic (SIGIR 2019) use it to measure the Type I, II and III errors of
significance tests (:func:`irscale.meta.simulation_study` takes a :class:`CopulaModel`).

Null hypotheses made true. For Type I errors, some systems must have exactly equal means.
Each chosen margin is transformed by x ↦ x^k (k > 0: a monotone map of [0, 1] onto itself,
so the copula, and every Kendall τ, is unchanged), with k the root of E[X^k] = target
(E[X^k] decreases from 1 to 0 as k grows: one root for any target in (0, 1)):

* ``equal=(a, b)``: system b's margin is transformed to system a's mean (``a`` and ``b``
  each a system's position from 0, or, as every argument that names a run, its name, or
  its run's file or run id where the matrix knows them: ``docs/evaluation.md``, "Naming a
  run");
* ``null=True``: every system's margin is transformed to the mean of the fitted means.

Urbano, Lima & Hanjalic (2019) likewise modify fitted margins to set their expected
values; the power transform is irscale's choice and may differ from theirs. A discrete
margin (P@10) is moved instead by exponential tilting, p_j ∝ p_j e^(θ s_j) with θ the root
of Σ_j s_j p_j(θ) = target (:meth:`~irscale.meta.margins.DiscreteMargin.tilted`): its
support, and so its grid, is kept, and x ↦ F⁻¹(u) stays increasing, so the copula is kept.

Copulas: Gaussian, t and R-vines (``copula="vine"``, :mod:`irscale.meta.vines`, the
optional extra ``irscale[vines]``; the systems of discrete margins enter the vine with the
continuous extension).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import optimize

from ..core.notebook import HtmlRepr
from ..core.run_names import find_run, keys_of
from ..errors import ParameterError
from ..stats.resampling import RngArg, check_rng
from ..stats.tables import Format
from .common import format_frame, generator, score_table, seed_sequence
from .copulas import Copula, fit_copula
from .margins import FAMILIES, DiscreteMargin, Margin, aic, fit_margin
from .params import COPULA_FIT
from .vines import VineCopula, fit_vine

__all__ = ["CopulaModel", "SimulatedScores", "simulate_scores"]


def _power_for_mean(margin: Margin, target: float) -> float:
    """The k > 0 with E[X^k] = ``target`` (module documentation)."""
    if abs(margin.moment(1.0) - target) <= 1e-15:
        return 1.0

    def gap(log_k: float) -> float:
        return margin.moment(float(np.exp(log_k))) - target

    return float(np.exp(optimize.brentq(gap, -25.0, 25.0, xtol=1e-14, rtol=1e-14)))


def _system_index(data: object, systems: tuple[str, ...], key: object) -> int:
    """The position of the system ``key`` designates: a position (an integer from 0), or,
    as every argument that names a run, its name, or its run's file or run id where
    ``data`` knows them (:func:`irscale.core.run_names.find_run`: one message for a key of
    no system or of several, listing them)."""
    return systems.index(find_run(key, keys_of(data, systems), "equal", positions=True,
                                  param="equal"))


@dataclass(frozen=True, eq=False)
class CopulaModel:
    """Margins and a copula fitted to a matrix; draws ``topics`` × systems matrices of new
    topics (module documentation). Build it with :meth:`fit`."""

    names: tuple[str, ...]
    margins: tuple[Margin, ...]
    copula: Copula | VineCopula
    topics: int
    powers: np.ndarray
    null: bool = False
    equal: tuple[int, int] | None = None
    fingerprint: str = ""
    _means: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    @COPULA_FIT
    def fit(cls, data: object, measure: str | None = None, *,
            margins: Sequence[str] = FAMILIES, copula: str = "gaussian",
            topics: int | None = None, null: bool = False,
            equal: tuple[object, object] | None = None) -> CopulaModel:
        """Fit the margins (the smallest AIC among ``margins`` per system) and ``copula``
        to a score matrix, wide DataFrame or topics × systems array; ``topics``: topics
        per drawn matrix (default: the matrix's, read on entry by the binding's
        :class:`~irscale.core.binding.SizedBy`); ``null`` or ``equal``: the systems whose
        means are made equal (module documentation). The margins, the copula, ``topics``
        and ``equal`` without ``null`` are checked on entry
        (:data:`irscale.meta.params.COPULA_FIT`)."""
        values, _, systems = score_table(data, measure)
        assert topics is not None  # (COPULA_FIT: by default the rows of data, checked)
        pair = None
        if equal is not None:
            if not isinstance(equal, (tuple, list)) or len(equal) != 2:
                raise ParameterError(f"equal must be two systems, got {equal!r}",
                                     param="equal")
            pair = (_system_index(data, systems, equal[0]),
                    _system_index(data, systems, equal[1]))
            if pair[0] == pair[1]:
                raise ParameterError(f"equal names system {systems[pair[0]]!r} twice: give "
                                     "two systems", param="equal")
        fitted = tuple(fit_margin(values[:, s], margins, name=f"system {systems[s]!r}")
                       for s in range(len(systems)))
        discrete = np.array([isinstance(m, DiscreteMargin) for m in fitted])
        cop = fit_vine(values, discrete) if copula == "vine" else fit_copula(values, copula)
        fitted_means = np.array([m.moment(1.0) for m in fitted])
        targets = fitted_means.copy()
        if null:
            targets[:] = fitted_means.mean()
        elif pair is not None:
            targets[pair[1]] = fitted_means[pair[0]]
        moved = tuple(m.tilted(t, f"system {name!r}")
                      if isinstance(m, DiscreteMargin) and t != mu else m
                      for m, t, mu, name in zip(fitted, targets, fitted_means, systems,
                                                strict=True))
        powers = np.array([_power_for_mean(m, t) if t != mu and not flag else 1.0
                           for m, t, mu, flag in zip(fitted, targets, fitted_means, discrete,
                                                     strict=True)])
        digest = hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()
        return cls(systems, moved, cop, topics, powers, null, pair, digest, targets)

    @property
    def systems(self) -> int:
        return len(self.names)

    def means(self) -> np.ndarray:
        """The true system means E[X_s] (after the transforms of ``null``/``equal``)."""
        return self._means.copy()

    def draw(self, gen: np.random.Generator) -> np.ndarray:
        """A ``topics`` × systems matrix of new topics."""
        u = self.copula.draw(gen, self.topics)
        return np.column_stack([m.ppf(u[:, s]) ** k for s, (m, k) in
                                enumerate(zip(self.margins, self.powers, strict=True))])

    def summary(self) -> pd.DataFrame:
        """One row per system: the chosen family, its parameters, AIC, the power k of the
        transform and the true mean."""
        return pd.DataFrame({
            "system": list(self.names),
            "family": [m.family for m in self.margins],
            "parameters": [", ".join(f"{k}={v:.6g}" for k, v in m.parameters().items())
                           for m in self.margins],
            "aic": [aic(m) for m in self.margins],
            "power": self.powers, "mean": self._means})

    def describe(self) -> dict[str, Any]:
        return {"model": "copula", "topics": self.topics, "systems": self.systems,
                "margins": [m.family for m in self.margins], **self.copula.describe(),
                "null": self.null, "equal": None if self.equal is None else list(self.equal),
                "sha256": self.fingerprint}


@dataclass(frozen=True, eq=False)
class SimulatedScores(HtmlRepr):
    """Result of :func:`simulate_scores`: ``scores`` (new topics × systems, a wide
    DataFrame), ``means`` (the true system means, a Series) and the fitted ``model``."""

    scores: pd.DataFrame
    means: pd.Series
    model: CopulaModel

    def to_frame(self) -> pd.DataFrame:
        """The scores, topics as the index (``query_id``)."""
        return self.scores.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_frame(self.to_frame(), fmt, digits=digits)

    def __repr__(self) -> str:
        families = pd.Series([m.family for m in self.model.margins]).value_counts()
        shown = ", ".join(f"{name} {count}" for name, count in families.items())
        return (f"SimulatedScores({self.scores.shape[0]} topics × {self.scores.shape[1]} "
                f"systems; {self.model.copula.family} copula; margins: {shown})")


def simulate_scores(data: object, measure: str | None = None, *,
                    margins: Sequence[str] = FAMILIES, copula: str = "gaussian",
                    n_topics: int | None = None, null: bool = False,
                    equal: tuple[object, object] | None = None,
                    rng: RngArg = None) -> SimulatedScores:
    """Fit a :class:`CopulaModel` to ``data`` and draw ``n_topics`` new topics (default: as
    many as ``data`` has) from it, from the random stream of ``rng`` (a seed or a Generator) (module
    documentation)."""
    model = CopulaModel.fit(data, measure, margins=margins, copula=copula, topics=n_topics,
                            null=null, equal=equal)
    values = model.draw(generator(seed_sequence(rng=check_rng(rng))))
    index = pd.Index([f"sim{t + 1}" for t in range(model.topics)], name="query_id")
    return SimulatedScores(pd.DataFrame(values, index=index, columns=list(model.names)),
                           pd.Series(model.means(), index=list(model.names), name="mean"),
                           model)
