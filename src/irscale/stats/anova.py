"""ANOVA models of IR experiments: one-way (MD1), two-way topic + system (MD2).

Models (Ferro & Sanderson 2022, §3.1; Ferro & Maistro 2024, §4.2; Ferrante et al. 2021, §7.3)
    ``"system"`` (MD1)         y_ij = μ + α_j + ε_ij: the one-way ANOVA of the systems,
                               topics as replicates (the unpaired view).
    ``"topic+system"`` (MD2)   y_ij = μ + τ_i + α_j + ε_ij (Ferro & Maistro 2024, eq. 7):
                               the crossed repeated-measures design of Tague-Sutcliffe &
                               Blustein and Banks et al., the paired view.
    ``"MD1f"``, ``"MD2f"``     the "fake" models of Ferro & Sanderson (2022), §3.1:
                               estimated as MD1/MD2, but Tukey's HSD then declares every
                               non-zero difference significant (p = 0), an upper bound for
                               comparisons. MD1f and MD2f have the same system estimates.
    Shard models (MD3 and its nested family) are in :mod:`irscale.stats.shards`.

Table (Ferro & Maistro 2024, §4.2.2–4.2.3)
    For each term: SS, df, MS = SS/df, F = MS/MS_E, p = P(F_{df, df_E} ≥ F), and the effect
    sizes ω² = df(F − 1)/(df(F − 1) + N) (eq. 8, N = number of scores; ω² may be
    negative, which reads as zero), Hays' total ω² = (SS − df MS_E)/(SS_T + MS_E),
    η² = SS/SS_T and partial η² = SS/(SS + SS_E); then the error and total lines.
    Balanced complete data use the closed forms (:mod:`irscale.stats._factorial`);
    incomplete data type III sums of squares (:mod:`irscale.stats._linear`).

Transforms (``transform=``, :mod:`irscale.stats.transforms`)
    ``"arcsine"``: the table of asin(√x) of scores in [0, 1]; ``"rank"``: the rank
    transform of Conover & Iman (1981), the ANOVA of the ranks of all the scores. The
    system means (and Tukey's HSD) are then in the transformed units.

Assumptions (:mod:`irscale.stats.assumptions`)
    ``AnovaResult.assumptions`` checks the model's residuals: normality (Shapiro & Wilk,
    1965) and equal variances across systems, and across topics where the model has a
    topic factor (Levene, 1960; Brown & Forsythe, 1974).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

from ..core import ScoreMatrix
from ..errors import InputError
from ._factorial import SumsOfSquares, Term, balanced, format_model, parse_model, term_name
from ._linear import type3
from .params import ANOVA
from .results import AnovaResult, AnovaRow
from .transforms import transform_scores
from .validation import TIE_RTOL, check_not_constant, score_table

#: Named models of a topics × systems score table: (formula, description, fake).
MODELS: dict[str, tuple[str, str, bool]] = {
    "system": ("system", "one-way ANOVA (MD1)", False),
    "MD1": ("system", "one-way ANOVA (MD1)", False),
    "topic+system": ("topic + system", "two-way ANOVA (MD2)", False),
    "MD2": ("topic + system", "two-way ANOVA (MD2)", False),
    "MD1f": ("system", "fake one-way ANOVA (MD1f)", True),
    "MD2f": ("topic + system", "fake two-way ANOVA (MD2f)", True),
}


def table_rows(sums: SumsOfSquares) -> tuple[AnovaRow, ...]:
    """The ANOVA lines of every term, then ``error`` and ``total`` (see module docstring)."""
    ms_error = sums.ss_error / sums.df_error
    rows = []
    for term, ss, df in zip(sums.terms, sums.ss, sums.df, strict=True):
        ms = ss / df if df > 0 else np.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            f = ms / ms_error
        p = float(stats.f.sf(f, df, sums.df_error)) if df > 0 else np.nan
        omega = df * (f - 1) / (df * (f - 1) + sums.n_obs)
        # a term with 0 df (not estimable: type III with missing cells) has no effect size
        estimable = 1.0 if df > 0 else np.nan
        rows.append(AnovaRow(
            factor=term_name(term), ss=ss, df=df, ms=ms, f=float(f), p=p,
            omega2=float(omega),
            omega2_total=estimable * (ss - df * ms_error) / (sums.ss_total + ms_error),
            eta2=estimable * ss / sums.ss_total,
            partial_eta2=estimable * ss / (ss + sums.ss_error),
        ))
    rows.append(AnovaRow("error", sums.ss_error, sums.df_error, ms_error))
    rows.append(AnovaRow("total", sums.ss_total, float(sums.n_obs - 1), None))
    return tuple(rows)


def fit_model(
    values: np.ndarray,
    factors: Sequence[str],
    terms: Sequence[Term],
    systems: Sequence[str],
    *,
    name: str,
    fake: bool = False,
    note: str = "",
    transform: str | None = None,
    target: str = "system",
) -> AnovaResult:
    """ANOVA of an array with one axis per factor (NaN = missing, then type III);
    ``transform`` names the transform ``values`` went through (recorded, not applied);
    ``target`` is the factor whose marginal means (and Tukey's HSD) the result holds, its
    levels named by ``systems`` (the predictors of :func:`irscale.stats.qpp_anova`)."""
    if target not in factors or (target,) not in terms:
        raise InputError(f"the model must contain the {target} factor")
    observed = np.isfinite(values)
    check_not_constant(values[observed])
    system_axis = list(factors).index(target)
    if observed.all():
        sums = balanced(values, factors, terms)
        other = tuple(a for a in range(values.ndim) if a != system_axis)
        means = values.mean(axis=other)
        replicates = values.size // values.shape[system_axis]
        ms_error = sums.ss_error / sums.df_error
        cov = np.eye(len(means)) * ms_error / replicates
        ss_type = "closed-form (balanced)"
    else:
        index = np.nonzero(observed)
        codes = {f: index[a] for a, f in enumerate(factors)}
        levels = {f: values.shape[a] for a, f in enumerate(factors)}
        fit = type3(values[observed], codes, levels, terms, target)
        sums, means, cov = fit.sums, fit.means, fit.cov
        if sums.df_error <= 0:
            raise InputError(f"the model {format_model(terms)} leaves no error degrees of freedom")
        ss_type = "type III"
    if sums.ss_error <= TIE_RTOL * sums.ss_total:  # residuals of rounding noise only
        raise InputError(
            f"the model fits the scores exactly, up to rounding (error sum of squares "
            f"{sums.ss_error:.3g} ≤ {TIE_RTOL:g} × the total {sums.ss_total:.3g}): F and "
            "Tukey's HSD are undefined"
        )
    rows = table_rows(sums)
    groups = tuple(f for f in factors if f != target and (f,) in terms)
    untested = [row.factor for row in rows[:-2] if row.df == 0]
    if untested:  # e.g. a shard effect whose topic x shard cells are missing together
        note = "; ".join(filter(None, [note, (
            f"no test of {', '.join(untested)}: 0 degrees of freedom ({ss_type}; the "
            "missing cells leave it not estimable)")]))
    return AnovaResult(
        model=format_model(terms),
        name=name,
        rows=rows,
        n_obs=sums.n_obs,
        ss_type=ss_type,
        systems=tuple(systems),
        system_means=np.asarray(means, dtype=np.float64),
        system_cov=np.asarray(cov, dtype=np.float64),
        df_error=sums.df_error,
        ms_error=sums.ss_error / sums.df_error,
        fake=fake,
        note=note,
        transform=transform,
        residuals=sums.residuals,
        residual_cells=observed,
        factors=tuple(factors),
        variance_factors=(target, *groups),
        target=target,
    )


@ANOVA
def anova(data: object, model: str = "topic+system", *, measure: str | None = None,
          transform: str | None = None) -> AnovaResult:
    """ANOVA of a topics × systems score table for a named model or formula.

    ``model`` is a key of :data:`MODELS` (``"system"``/``"MD1"``, ``"topic+system"``/
    ``"MD2"``, ``"MD1f"``, ``"MD2f"``) or a formula over ``topic`` and ``system``.
    ``data``: a :class:`~irscale.core.ScoreMatrix` (``measure`` picks one), a wide
    DataFrame or a 2-D array (rows = topics, columns = systems). ``transform``: ``None``
    or ``"none"``, ``"arcsine"`` (asin(√x), scores in [0, 1]) or ``"rank"`` (Conover &
    Iman 1981): the table is computed on the transformed scores
    (:mod:`irscale.stats.transforms`). The result's ``assumptions`` checks the residuals
    (:mod:`irscale.stats.assumptions`). The transform is checked on entry
    (:data:`irscale.stats.params.ANOVA`).
    """
    transform = None if transform == "none" else transform  # (canonical: the binding's)
    values, topics, systems = score_table(data, measure)
    formula, name, fake = MODELS.get(model, (model, "ANOVA", False))
    terms = parse_model(formula, ("topic", "system"))
    if measure is None and isinstance(data, ScoreMatrix) and len(data.measures) == 1:
        measure = data.measures[0]  # named in an error of the transform
    values = transform_scores(values, transform, ("topic", "system"), (topics, systems),
                              measure)
    return fit_model(values, ("topic", "system"), terms, systems, name=name, fake=fake,
                     transform=transform)


def anova_oneway(data: object, *, measure: str | None = None,
                 transform: str | None = None) -> AnovaResult:
    """One-way ANOVA of the system effect (MD1): y_ij = μ + α_j + ε_ij."""
    return anova(data, "system", measure=measure, transform=transform)


def anova_twoway(data: object, *, measure: str | None = None,
                 transform: str | None = None) -> AnovaResult:
    """Two-way ANOVA topic + system (MD2; Ferro & Maistro 2024, eq. 7):
    y_ij = μ + τ_i + α_j + ε_ij."""
    return anova(data, "topic+system", measure=measure, transform=transform)
