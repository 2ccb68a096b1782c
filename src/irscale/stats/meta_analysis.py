"""Random-effects meta-analysis of one effect measured on several collections.

Each of ``k`` studies (here: test collections) gives an effect ``y_i`` (the mean paired
difference of two systems over its topics) and its within-study variance ``v_i`` (the
variance of that mean, ``s²_d / n_i``). The random-effects model is
``y_i = μ + u_i + e_i``, ``u_i ~ N(0, τ²)``, ``e_i ~ N(0, v_i)``: the collections differ
in their true effects by the between-collection variance ``τ²``.

Fixed-effect quantities (Cochran 1954; Higgins & Thompson 2002)
    ``w_i = 1/v_i``, ``ȳ = Σ w_i y_i / Σ w_i``, ``Q = Σ w_i (y_i − ȳ)²`` with
    ``k − 1`` degrees of freedom (its p-value from χ²_{k−1}: the test of homogeneity),
    ``I² = max(0, (Q − (k − 1)) / Q)``, the share of the variation of the effects that
    is between collections rather than sampling error.
τ², DerSimonian–Laird (``"dl"``; DerSimonian & Laird 1986)
    ``τ² = max(0, (Q − (k − 1)) / (Σ w_i − Σ w_i² / Σ w_i))``.
τ², restricted maximum likelihood (``"reml"``; Viechtbauer 2005, eq. 6–7)
    ``τ²`` maximises the restricted log-likelihood
    ``−½ Σ log(v_i + τ²) − ½ log Σ w*_i − ½ Σ w*_i (y_i − μ̂)²``,
    ``w*_i = 1/(v_i + τ²)``, ``μ̂ = Σ w*_i y_i / Σ w*_i``, over ``τ² ≥ 0``, by Fisher
    scoring from the DerSimonian–Laird value:
    ``τ² ← max(0, Σ w*_i² ((y_i − μ̂)² − v_i) / Σ w*_i² + 1 / Σ w*_i)``.
Pooled effect
    ``μ̂ = Σ w*_i y_i / Σ w*_i``, ``SE = (Σ w*_i)^{−1/2}``, the interval
    ``μ̂ ± z_{1−α/2} SE`` (normal, as DerSimonian & Laird and ``statsmodels``'
    ``combine_effects``).
Prediction interval (Higgins, Thompson & Spiegelhalter 2009, J. R. Stat. Soc. A 172,
eq. 12)
    Where the effect of a new collection is expected to lie:
    ``μ̂ ± t_{k−2, 1−α/2} √(τ² + SE²)``; undefined (NaN) with fewer than 3 collections.

Every function works on rows: ``effects`` and ``variances`` are ``(..., k)`` arrays, one
meta-analysis per row (every pair of systems at once).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..core.notebook import HtmlRepr, counted
from ..errors import InputError
from .validation import as_floats, check_choice

if TYPE_CHECKING:
    import pandas as pd

    from .tables import Format

#: The estimators of τ²: DerSimonian–Laird's moment estimator and REML.
ESTIMATORS: tuple[str, ...] = ("dl", "reml")
#: Fisher scoring of REML stops when τ² moves by less than this (relative to 1 + τ²).
REML_TOL = 1e-12
#: ... or after this many steps (with a warning).
REML_STEPS = 1000


@dataclass(frozen=True, eq=False)
class RandomEffects(HtmlRepr):
    """A random-effects meta-analysis per row of the inputs (module documentation).

    Every field has the shape of the inputs without their last axis (a 0-d array for one
    meta-analysis).
    """

    estimator: str
    alpha: float
    k: int
    effect: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    tau2: np.ndarray
    i2: np.ndarray
    q: np.ndarray
    q_pvalue: np.ndarray
    pi_low: np.ndarray
    pi_high: np.ndarray

    #: The per-row fields, in the order of the table.
    COLUMNS: ClassVar[tuple[str, ...]] = ("effect", "se", "ci_low", "ci_high", "tau2", "i2",
                                          "q", "q_pvalue", "pi_low", "pi_high")

    def __repr__(self) -> str:
        return (f"RandomEffects({self.estimator}, {counted(self.effect.size, 'row')}"
                f" of {self.k} studies)")

    def to_frame(self) -> pd.DataFrame:
        """One row per meta-analysis (the inputs' rows, flattened in C order): the
        estimator, k and the fields."""
        import pandas as pd

        columns = {name: np.asarray(getattr(self, name), dtype=float).reshape(-1)
                   for name in self.COLUMNS}
        rows = len(columns["effect"])
        return pd.DataFrame({"estimator": [self.estimator] * rows, "k": self.k, **columns})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The table of :meth:`to_frame` as ``fmt``."""
        from .protocol import format_table

        return format_table(self.to_frame(), fmt, digits=digits,
                            title=f"Random-effects meta-analysis ({self.estimator})")


def _check(effects: object, variances: object) -> tuple[np.ndarray, np.ndarray]:
    """The inputs as float arrays of one shape, at least 2 studies, finite, variances > 0."""
    y, v = as_floats(effects, "effects"), as_floats(variances, "variances")
    if y.shape != v.shape or y.ndim == 0:
        raise InputError(f"effects and variances must be arrays of one shape (…, k), got "
                         f"{y.shape} and {v.shape}")
    if y.shape[-1] < 2:
        raise InputError(f"effects: a meta-analysis needs at least 2 studies (the last "
                         f"axis), got {y.shape[-1]}")
    if not (np.isfinite(y).all() and np.isfinite(v).all()):
        raise InputError("effects and variances must be finite numbers")
    if (v <= 0).any():
        raise InputError("every one of variances must be positive (a study whose effect "
                         "has no variance would weigh infinitely)")
    return y, v


def dersimonian_laird(effects: np.ndarray, variances: np.ndarray) -> np.ndarray:
    """τ² of DerSimonian & Laird (1986) per row (module documentation)."""
    w = 1.0 / variances
    sw = w.sum(axis=-1)
    mean = (w * effects).sum(axis=-1) / sw
    q = (w * (effects - mean[..., None]) ** 2).sum(axis=-1)
    denominator = sw - (w * w).sum(axis=-1) / sw
    return np.maximum(0.0, (q - (effects.shape[-1] - 1)) / denominator)


def reml(effects: np.ndarray, variances: np.ndarray) -> np.ndarray:
    """τ² by restricted maximum likelihood per row: Fisher scoring from DerSimonian–Laird's
    value (Viechtbauer 2005; module documentation); a warning names the rows that did not
    converge in :data:`REML_STEPS` steps."""
    tau2 = dersimonian_laird(effects, variances)
    active = np.ones(tau2.shape, dtype=bool)
    for _ in range(REML_STEPS):
        w = 1.0 / (variances[active] + tau2[active][..., None])
        y = effects[active]
        sw = w.sum(axis=-1)
        mean = (w * y).sum(axis=-1) / sw
        w2 = w * w
        new = np.maximum(0.0, (w2 * ((y - mean[..., None]) ** 2 - variances[active])
                               ).sum(axis=-1) / w2.sum(axis=-1) + 1.0 / sw)
        moved = np.abs(new - tau2[active]) > REML_TOL * (1.0 + new)
        tau2[active] = new
        active[active] = moved
        if not active.any():
            return tau2
    warnings.warn(f"REML's τ² did not converge in {REML_STEPS} Fisher scoring steps for "
                  f"{int(active.sum())} meta-analyses: their last value is kept",
                  stacklevel=2)
    return tau2


def random_effects(effects: object, variances: object, *, estimator: str = "reml",
                   alpha: float = 0.05) -> RandomEffects:
    """The random-effects meta-analysis of ``effects`` with their within-study
    ``variances`` (arrays ``(..., k)``, one meta-analysis per row), τ² estimated by
    ``estimator`` (:data:`ESTIMATORS`): the pooled effect, its standard error and
    ``1 − alpha`` interval, τ², I², Cochran's Q and its p-value and the prediction interval
    of Higgins, Thompson & Spiegelhalter (2009) (module documentation).

    Examples
    --------
    >>> r = random_effects([0.1, 0.3, -0.05, 0.2], [0.01, 0.02, 0.015, 0.03],
    ...                    estimator="dl")
    >>> round(float(r.effect), 4), round(float(r.tau2), 5), round(float(r.i2), 4)
    (0.1177, 0.00444, 0.2082)
    """
    from scipy import stats

    from ..core.params import check_alpha

    estimator = check_choice(estimator, ESTIMATORS, "estimator")
    alpha = check_alpha(alpha)
    y, v = _check(effects, variances)
    shape, k = y.shape[:-1], y.shape[-1]
    y, v = y.reshape(-1, k), v.reshape(-1, k)  # rows: reml assigns to some of them
    w = 1.0 / v
    fixed = (w * y).sum(axis=-1) / w.sum(axis=-1)
    q = (w * (y - fixed[..., None]) ** 2).sum(axis=-1)
    df = k - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        i2 = np.where(q > 0, np.maximum(0.0, (q - df) / np.where(q > 0, q, 1.0)), 0.0)
    tau2 = dersimonian_laird(y, v) if estimator == "dl" else reml(y, v)
    wr = 1.0 / (v + tau2[..., None])
    effect = (wr * y).sum(axis=-1) / wr.sum(axis=-1)
    se = 1.0 / np.sqrt(wr.sum(axis=-1))
    z = stats.norm.ppf(1 - alpha / 2)
    if k >= 3:
        half = stats.t.ppf(1 - alpha / 2, k - 2) * np.sqrt(tau2 + se * se)
        pi_low, pi_high = effect - half, effect + half
    else:
        pi_low = pi_high = np.full(effect.shape, np.nan)
    fields = {"effect": effect, "se": se, "ci_low": effect - z * se,
              "ci_high": effect + z * se, "tau2": tau2, "i2": i2, "q": q,
              "q_pvalue": stats.chi2.sf(q, df), "pi_low": pi_low, "pi_high": pi_high}
    return RandomEffects(estimator=estimator, alpha=alpha, k=k,
                         **{name: np.reshape(value, shape) for name, value in fields.items()})
