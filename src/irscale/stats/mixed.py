"""Mixed-effects models of IR experiments: systems fixed, topics (and more) random.

Linear mixed model (``family="gaussian"``; Robertson & Kanoulas 2012; Carterette 2015; the
General Linear Mixed Model with fixed and random effects of Ferro & Maistro 2024, §4.2,
after Maxwell & Delaney 2004 and Rutherford 2011)
    y_ij = β_j + t_i + ε_ij,  t_i ~ N(0, σ²_t),  ε_ij ~ N(0, σ²):
    β_j is the mean score of system j over the population of topics that the sampled
    topics stand for. With a third axis of replicates (:class:`ShardScores`: shards, or
    query variants of each topic) more random terms may be added, crossed or nested:
    ``"shard"`` (s_k ~ N(0, σ²_s)), ``"topic:shard"`` and ``"topic:system"`` (the topic ×
    system interaction, identifiable only with replicates in each cell). Estimated by
    REML (default) or ML with profiled β and σ² (:mod:`irscale.stats._mixed_fit`); the
    balanced complete topic × system design with a random topic uses the closed form there
    (the ANOVA variance components truncated at 0). Missing scores (NaN) are left out:
    unbalanced designs need no imputation.
Binomial GLMM (``family="binomial"``; the generalised linear mixed model of Breslow &
Clayton 1993 with a logit link: the survey's linear model for binary measures)
    logit P(y_ij = 1) = β_j + t_i, t_i ~ N(0, σ²_t), for 0/1 scores (success@k, P@1), fit by
    maximum likelihood with adaptive Gauss–Hermite quadrature (:mod:`irscale.stats._glmm`).
Report (:class:`MixedModelResult`)
    per system β̂_j, its standard error and Wald z; the Wald test of equal systems
    W = (Cβ̂)'(C Cov(β̂) C')⁻¹ Cβ̂ ~ χ²_{S−1} (C: differences with the last system); the
    variance components; the intra-class correlation of topics ICC = σ²_t / (Σ σ² + σ²)
    (on the latent logit scale σ² = π²/3 for the GLMM); log-likelihood, AIC = −2ℓ + 2k and
    BIC = −2ℓ + k log n (k: fixed effects + variance parameters, n: scores); and
    :meth:`MixedModelResult.pairwise`: Wald z tests of every pair of systems,
    z = (β̂_a − β̂_b)/SE, with a multiple-comparison correction (:mod:`irscale.stats.corrections`).

Differences from statsmodels (``MixedLM``, ``BinomialBayesMixedGLM``)
    The estimates are statsmodels' ``MixedLM`` ones (REML and ML, its log-likelihood
    constants; ``tests/test_stats_mixed.py``), computed from q × q cross-products (q the
    number of random levels) rather than per group, so crossed terms need no single
    "group". Cov(β̂) is the GLS σ̂²(X'H⁻¹X)⁻¹ of lme4 and SAS; statsmodels inverts the
    whole observed Hessian, which differs from it in unbalanced designs (by about 2% on a
    4 × 2 table with one missing cell). Variance components are reported without standard
    errors. The GLMM is a
    likelihood fit, not statsmodels' variational Bayes posterior (which shrinks toward its
    priors and underestimates posterior spread); the two agree to about 0.01 in β on a few
    hundred topics. Wald tests use the normal distribution (no Kenward–Roger or
    Satterthwaite degrees of freedom): with few topics they are liberal.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.linalg as la
from scipy import sparse, stats

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare
from ..errors import InputError, ParameterError, about
from ._glmm import fit_glmm
from ._linear import solve_normal
from ._mixed_fit import Grouping, Moments, balanced_theta, optimise, profile
from .corrections import Correction, adjust_pvalues, correction_name
from .names import RANDOM
from .params import MIXED
from .protocol import Unpacks
from .results import PairwiseComparisons
from .shards import ShardScores
from .tables import Format, alpha_text, json_value, render_result
from .validation import TIE_RTOL, as_floats, check_alpha, check_magnitude, check_not_constant

#: Quadrature nodes of the GLMM's marginal likelihood (1: Laplace's approximation).
QUADRATURE_POINTS = 10


#: The empty cells of :meth:`MixedModelResult.to_frame`: each section fills its own.
_MEANINGS = {column: blank("each section fills its own columns (a fixed effect's z test "
                           "has no degrees of freedom, the Wald test no estimate, a "
                           "variance component and a fit measure a value only)")
             for column in ("estimate", "std_error", "statistic", "df", "p")}


@dataclass(frozen=True, eq=False)
class MixedModelResult(Unpacks, HtmlRepr):
    """A fitted mixed model (module docstring): the systems' fixed effects, the variance
    components, the fit criteria, and the pairwise comparisons of :meth:`pairwise`.

    Protocol: ``statistic`` and ``pvalue`` are the Wald χ² test that every system has the
    same effect; ``to_frame()`` one row per system, variance component and criterion;
    ``format(fmt)``.
    """

    family: str
    method: str
    random: tuple[str, ...]
    systems: tuple[str, ...]
    estimates: np.ndarray
    cov: np.ndarray
    components: tuple[tuple[str, float], ...]
    loglik: float
    n_obs: int
    levels: tuple[tuple[str, int], ...]
    converged: bool = True
    estimator: str = ""
    note: str = ""
    alpha: float = 0.05
    correction: str = "holm"

    @property
    def std_errors(self) -> np.ndarray:
        return np.sqrt(np.diag(self.cov))

    @property
    def n_params(self) -> int:
        """Fixed effects plus variance parameters (the residual variance included)."""
        return len(self.estimates) + len(self.components)

    @property
    def aic(self) -> float:
        return -2.0 * self.loglik + 2.0 * self.n_params

    @property
    def bic(self) -> float:
        return -2.0 * self.loglik + self.n_params * math.log(self.n_obs)

    def variance(self, term: str) -> float:
        """The variance component of ``term`` (``"residual"`` for σ²)."""
        return dict(self.components)[term]

    @property
    def icc(self) -> float:
        """σ²_topic over the total variance (latent scale π²/3 residual for the GLMM)."""
        total = sum(v for _, v in self.components)
        if self.family == "binomial":
            total += math.pi**2 / 3
        return self.variance("topic") / total if total > 0 else math.nan

    def wald(self) -> tuple[float, int, float]:
        """The Wald test of equal system effects: (χ², df, p)."""
        k = len(self.estimates)
        contrast = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
        diff = contrast @ self.estimates
        chi2 = float(diff @ np.linalg.solve(contrast @ self.cov @ contrast.T, diff))
        return chi2, k - 1, float(stats.chi2.sf(chi2, k - 1))

    @property
    def statistic(self) -> float:
        """The Wald χ² of equal system effects."""
        return self.wald()[0]

    @property
    def pvalue(self) -> float:
        return self.wald()[2]

    @property
    def scale(self) -> str:
        return "log-odds" if self.family == "binomial" else "mean"

    def pairwise(self, alpha: float | None = None, correction: Correction | None = None
                 ) -> PairwiseComparisons:
        """Wald z tests of every pair of systems, β̂_a − β̂_b over its standard error, with
        per-pair (unadjusted) normal intervals and ``correction`` of the p-values (default:
        the result's)."""
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        name = correction_name(self.correction if correction is None else correction)
        first, second = np.triu_indices(len(self.systems), 1)
        diff = self.estimates[first] - self.estimates[second]
        var = (self.cov[first, first] + self.cov[second, second]
               - 2.0 * self.cov[first, second])
        se = np.sqrt(np.maximum(var, 0.0))
        z = diff / se
        raw = 2.0 * stats.norm.sf(np.abs(z))
        adjusted = adjust_pvalues(raw, name)
        half = stats.norm.ppf(1 - alpha / 2) * se
        names = np.asarray(self.systems, dtype=object)
        columns: dict[str, np.ndarray] = {
            "a": names[first], "b": names[second],
            "mean_a": self.estimates[first], "mean_b": self.estimates[second],
            "diff": diff, "ci_low": diff - half, "ci_high": diff + half,
            "statistic": z, "p": adjusted,
        }
        if name != "none":
            columns["p_raw"] = raw
        columns["significant"] = adjusted <= alpha
        return PairwiseComparisons(
            method=f"Wald z tests after the {self.describe()}", alpha=alpha, columns=columns,
            correction=None if name == "none" else name,
            extra={"ci_se": se, "ci_df": np.inf})

    def to_frame(self) -> pd.DataFrame:
        """Rows ``fixed`` (one per system: estimate, std_error, z, p), ``test`` (the Wald
        χ² of equal systems), ``variance`` (one per component) and ``fit`` (ICC,
        log-likelihood, AIC, BIC)."""
        rows: list[dict[str, object]] = []
        se = self.std_errors
        for name, estimate, error in zip(self.systems, self.estimates, se, strict=True):
            z = estimate / error
            rows.append({"section": "fixed", "term": name, "estimate": estimate,
                         "std_error": error, "statistic": z, "df": np.nan,
                         "p": 2.0 * stats.norm.sf(abs(z))})
        chi2, df, p = self.wald()
        rows.append({"section": "test", "term": "system (Wald χ²)", "estimate": np.nan,
                     "std_error": np.nan, "statistic": chi2, "df": float(df), "p": p})
        for term, variance in self.components:
            rows.append({"section": "variance", "term": term, "estimate": variance})
        for term, value in (("ICC (topic)", self.icc), ("log-likelihood", self.loglik),
                            ("AIC", self.aic), ("BIC", self.bic)):
            rows.append({"section": "fit", "term": term, "estimate": value})
        columns = ["section", "term", "estimate", "std_error", "statistic", "df", "p"]
        return declare(pd.DataFrame(rows, columns=columns).astype(
            {c: float for c in columns[2:]}), _MEANINGS)

    def json_rows(self) -> list[dict[str, object]]:
        """:meth:`to_frame` as records (``irscale compare --format json``)."""
        return [{str(k): json_value(v) for k, v in row.items()}
                for row in self.to_frame().to_dict("records")]

    #: The key of :meth:`json_rows` in a comparison's JSON document.
    json_key = "mixed"


    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The result as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return render_result(fmt, digits, lambda: {"mixed": self.json_rows()}, self.to_frame,
                             lambda digits: self._display(), self.summary)

    def _display(self) -> pd.DataFrame:
        """The table of the text formats: the degrees of freedom whole numbers, blank where
        undefined."""
        frame = self.to_frame()
        frame["df"] = ["" if math.isnan(v) else str(int(v)) for v in frame["df"]]
        return frame

    def describe(self) -> str:
        fixed = "logit P(y = 1) = system" if self.family == "binomial" else "score = system"
        random = " + ".join(f"({t})" for t in self.random)
        return f"{self.estimator} mixed model {fixed} + {random}"

    def summary(self) -> str:
        levels = ", ".join(f"{n} {name}s" for name, n in self.levels)
        parts = [f"{self.describe()}: N = {self.n_obs} ({levels}); system effects on the "
                 f"{self.scale} scale; α = {alpha_text(self.alpha)}"]
        if not self.converged:
            parts.append("the fit did not converge (its optimum is not stationary)")
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)

    def __repr__(self) -> str:
        return f"MixedModelResult({self.summary()})"


@dataclass(frozen=True)
class _Design:
    """Observed scores and the level of each factor for every one of them."""

    y: np.ndarray
    codes: dict[str, np.ndarray]
    levels: dict[str, int]
    systems: tuple[str, ...]
    table: np.ndarray  # the array the scores come from (NaN: missing)


def _design(data: object, measure: str | None) -> _Design:
    factors: tuple[str, ...]
    if isinstance(data, ShardScores):
        values = data.values
        systems, factors = data.systems, ("topic", "system", "shard")
        names = [data.topics, data.systems, data.shards]
    else:
        if isinstance(data, ScoreMatrix):
            matrix = data.measure(measure)
        elif isinstance(data, pd.DataFrame):
            matrix = ScoreMatrix.from_wide(data, allow_missing=True)
        else:
            array = as_floats(data, "the score table")
            if array.ndim != 2:
                raise about(InputError("expected a topics × systems score table (2-D) or "
                                       f"ShardScores, got {array.ndim} dimension(s)"), data)
            matrix = ScoreMatrix.from_array(array, allow_missing=True)
        values = matrix.values[:, :, 0]
        systems, factors = matrix.systems, ("topic", "system")
        names = [matrix.topics, matrix.systems]
    if np.isinf(values).any():
        raise InputError("infinite score in the score table")
    observed = np.isfinite(values)
    if not observed.all():  # left out, as documented, and said so
        first = tuple(int(i) for i in np.argwhere(~observed)[0])
        cell = ", ".join(f"{f} {str(axis[i])!r}" for f, axis, i in zip(
            factors, names, first, strict=True))
        warnings.warn(f"{int((~observed).sum()):,} missing score(s) (NaN or empty) left out "
                      f"of the mixed model, e.g. {cell}", stacklevel=4)
    index = np.nonzero(observed)
    y = values[observed]
    check_magnitude(y)
    check_not_constant(y)
    codes = {f: index[a] for a, f in enumerate(factors)}
    levels = {f: values.shape[a] for a, f in enumerate(factors)}
    if values.shape[0] < 2 or len(systems) < 2:
        raise InputError("at least two topics and two systems are needed")
    if len(y) <= len(systems):
        raise InputError(f"{len(y)} scores for {len(systems)} systems: no degrees of freedom "
                         "are left for the variances")
    unseen = [s for s, n in zip(systems, np.bincount(codes["system"], minlength=len(systems)),
                                strict=True) if n == 0]
    if unseen:
        raise InputError(f"system {unseen[0]!r} has no score: its effect is not estimable")
    return _Design(y, codes, levels, tuple(systems), values)


def _groupings(design: _Design, random: Sequence[str]) -> list[Grouping]:
    groups = []
    for term in random:
        factors = term.split(":")
        missing = [f for f in factors if f not in design.codes]
        if missing:
            raise ParameterError(f"random term {term!r} needs a {missing[0]} axis: give "
                                 "ShardScores (topics × systems × shards or query variants)")
        codes = np.zeros(len(design.y), dtype=np.int64)
        for f in factors:  # mixed-radix code of the cell, then only the cells seen
            codes = codes * design.levels[f] + design.codes[f]
        seen, codes = np.unique(codes, return_inverse=True)
        if term == "topic:system" and len(seen) == len(design.y):
            raise ParameterError("random term 'topic:system' needs replicates (several "
                                 "shards or query variants per topic and system): with one "
                                 "score per cell it is the residual")
        groups.append(Grouping(term, codes.astype(np.int64), len(seen)))
    return groups


def _saturated(m: Moments, y: np.ndarray) -> bool:
    """Whether the fixed effects and every random term taken as fixed factors fit the
    centred scores ``y`` exactly, up to rounding (residual sum of squares ≤ TIE_RTOL ×
    Σ y²): then the likelihood grows without bound as σ² → 0 and has no maximum."""
    ztz = m.ztz.toarray() if sparse.issparse(m.ztz) else np.asarray(m.ztz)  # type: ignore[union-attr]
    gram = np.block([[m.xtx, m.ztx.T], [m.ztx, ztz]])
    moment = np.concatenate([m.xty, m.zty])
    coef, _ = solve_normal(gram, moment)
    rss = m.yty - float(coef @ moment)
    return rss <= TIE_RTOL * float(np.sum(y**2))


def _random_terms(random: str | Sequence[str]) -> tuple[str, ...]:
    terms = random.split(",") if isinstance(random, str) else list(random)
    checked = tuple(dict.fromkeys(RANDOM.domain.check(t.strip(), "random") for t in terms))
    if not checked:
        raise ParameterError("random: give at least one random term, e.g. 'topic'")
    return checked


@MIXED
def mixed_model(
    data: object, *, measure: str | None = None, random: str | Sequence[str] = ("topic",),
    family: str = "gaussian", method: str | None = None, alpha: float = 0.05,
    correction: Correction | None = "holm",
) -> MixedModelResult:
    """Fit a mixed model with systems as fixed effects (module docstring).

    ``data``: a :class:`~irscale.core.ScoreMatrix` (``measure`` picks one), a wide
    DataFrame or 2-D array (topics × systems; NaN: missing), or :class:`ShardScores`
    (topics × systems × shards or query variants). ``random``: terms among ``"topic"``,
    ``"shard"``, ``"topic:system"``, ``"topic:shard"`` (a tuple or ``"topic,shard"``).
    ``family``: ``"gaussian"`` (linear mixed model; ``method`` ``"reml"``, the default,
    or ``"ml"``) or ``"binomial"`` (logit GLMM of 0/1 scores with a random topic
    intercept, fit by maximum likelihood, its one estimator: ``method`` applies to the
    linear model only, and is refused with ``"binomial"``). ``alpha`` and ``correction``
    are those of :meth:`MixedModelResult.pairwise`. Parameters checked on entry:
    :data:`irscale.stats.params.MIXED`.
    """
    correction = correction_name(correction)
    terms = _random_terms(random)
    design = _design(data, measure)
    n_systems = len(design.systems)
    levels = tuple((f, design.levels[f]) for f in design.levels if f != "system")
    common: dict[str, Any] = {"random": terms, "systems": design.systems, "n_obs": len(design.y),
              "levels": levels, "alpha": alpha, "correction": correction}
    if family == "binomial":  # (method applies to the linear model only: MIXED)
        if terms != ("topic",):
            raise ParameterError("the binomial GLMM has one random term, 'topic'; got "
                                 f"{', '.join(terms)}")
        if not np.isin(design.y, (0.0, 1.0)).all():
            bad = design.y[~np.isin(design.y, (0.0, 1.0))][0]
            raise InputError(f"the binomial GLMM needs 0/1 scores (success@k, P@1), got "
                             f"{float(bad)!r}")
        successes = np.bincount(design.codes["system"], design.y, n_systems)
        counts = np.bincount(design.codes["system"], None, n_systems)
        for name, hit, count in zip(design.systems, successes, counts, strict=True):
            if hit in (0, count):
                raise InputError(
                    f"system {name!r} scores {int(hit > 0)} on every topic: its log-odds are "
                    f"{'+' if hit else '-'}infinite (complete separation), the GLMM has no "
                    "maximum-likelihood estimate")
        glmm = fit_glmm(design.y, design.codes["system"], design.codes["topic"], n_systems,
                        design.levels["topic"], QUADRATURE_POINTS)
        return MixedModelResult(
            family=family, method="ml", estimates=glmm.beta, cov=glmm.cov,
            components=(("topic", glmm.sigma**2),), loglik=glmm.loglik,
            converged=glmm.converged,
            estimator=f"ML (adaptive Gauss-Hermite, {QUADRATURE_POINTS} nodes)", **common)
    method = "reml" if method is None else method
    closed = terms == ("topic",) and design.table.ndim == 2 and np.isfinite(design.table).all()
    return fit_linear(design.y, design.codes["system"], _groupings(design, terms),
                      method=method, table=design.table if closed else None, family=family,
                      **common)


def fit_linear(y: np.ndarray, system: np.ndarray, groups: Sequence[Grouping], *,
               method: str, table: np.ndarray | None = None,
               blocks: Sequence[np.ndarray] | None = None, exact: bool | None = None,
               **common: Any) -> MixedModelResult:
    """The linear mixed model y = β_system + Σ random terms + ε of scores ``y``, the system
    of each in ``system`` (codes 0 … S − 1, S = ``len(common["systems"])``), the random
    terms ``groups``, by ``method`` (``"reml"`` or ``"ml"``; :mod:`irscale.stats._mixed_fit`);
    ``table``: the complete topics × systems table when the only random term is the topic,
    fit in closed form; ``blocks``: those of :class:`~irscale.stats._mixed_fit.Moments`
    (random levels nested in one factor); ``exact``: whether the model fits ``y`` exactly,
    where the caller knows it more cheaply than the general check (:func:`_saturated`).
    ``common``: the other fields of :class:`MixedModelResult`."""
    reml = method == "reml"
    n_systems = len(common["systems"])
    x = sparse.csr_matrix((np.ones(len(y)), (np.arange(len(y)), system)),
                          shape=(len(y), n_systems))
    shift = float(y.mean())  # centred scores: no cancellation in the cross-products
    moments = Moments.of(y - shift, x, groups, blocks)
    error = InputError("the model fits the scores exactly, up to rounding: there is no "
                       "residual variance")
    if _saturated(moments, y - shift) if exact is None else exact:
        raise error
    try:
        if table is not None:
            theta, converged = balanced_theta(table, reml), True
        else:
            theta, converged = optimise(moments, reml)
        fit = profile(theta, moments, reml)
    except la.LinAlgError:  # the residual variance went to 0: θ = σ_k/σ without bound
        raise error from None
    components = (*((g.name, float(t**2 * fit.sigma2)) for g, t in
                     zip(groups, theta, strict=True)), ("residual", fit.sigma2))
    estimator = method.upper() + (" (closed form, balanced)" if table is not None else "")
    return MixedModelResult(
        method=method, estimates=fit.beta + shift, cov=fit.cov, components=components,
        loglik=-0.5 * fit.neg2ll, converged=converged, estimator=estimator, **common)
