"""The assumptions of the ANOVA models and the transformed ANOVAs, against oracles computed
here: residuals of statsmodels' OLS, then scipy's ``shapiro`` and ``levene``
(``center="mean"``: Levene 1960; ``"median"``: Brown & Forsythe 1974); the arcsine and
rank (Conover & Iman 1981) ANOVA tables against statsmodels' ``anova_lm`` on data
transformed here. Real matrices from ``urbano-sigir2019`` (skipped when absent) and
hypothesis-generated ones."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from irscale import plots, stats
from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.stats.tables import TABLE_FORMATS

from .oracle_imports import lazy_import, lazy_importorskip
from .property_examples import examples

sps = lazy_import("scipy.stats")

smf = lazy_importorskip("statsmodels.formula.api")
sm_anova = lazy_importorskip("statsmodels.stats.anova")

FORMULAS = {"system": "y ~ C(system)", "topic+system": "y ~ C(topic) + C(system)"}
FACTORS = {"system": ("system",), "topic+system": ("system", "topic")}


def long_frame(values: np.ndarray) -> pd.DataFrame:
    """Topic × system (× shard) scores in long form, cells in C order; NaN rows dropped."""
    index = np.indices(values.shape).reshape(values.ndim, -1)
    names = ("topic", "system", "shard")[: values.ndim]
    frame = pd.DataFrame({n: index[a] for a, n in enumerate(names)})
    frame["y"] = values.ravel()
    return frame.dropna().reset_index(drop=True)


def ols_residuals(frame: pd.DataFrame, formula: str) -> pd.Series:
    return smf.ols(formula, frame).fit().resid


def shapiro(residuals: pd.Series):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # n > 5000
        return sps.shapiro(residuals.to_numpy())


def levene_oracle(residuals: pd.Series, groups: pd.Series, center: str):
    """scipy's Levene, and how far its deviations vary within the groups (the share of
    their sum of squares that is within groups; ~0: W undefined)."""
    samples = [g.to_numpy() for _, g in residuals.groupby(groups)]
    centre = np.median if center == "median" else np.mean
    z = [np.abs(s - centre(s)) for s in samples]
    within = sum(float(np.sum((zz - zz.mean()) ** 2)) for zz in z)
    every = np.concatenate(z)
    total = float(np.sum((every - every.mean()) ** 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        ref = sps.levene(*samples, center=center)
    return ref, within / total if total > 0 else 0.0


def check_against_oracle(result, frame: pd.DataFrame, formula: str,
                         factors: tuple[str, ...]) -> None:
    residuals = ols_residuals(frame, formula)
    assert np.allclose(result.residuals, residuals.to_numpy(),
                       atol=1e-9 * max(1.0, float(np.abs(frame["y"]).max())))
    checks = result.assumptions
    assert checks.groups == factors
    ref = shapiro(residuals)
    got = checks.test("Shapiro-Wilk")
    assert got.n == len(residuals)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-300)
    for factor in factors:
        for name, center in (("Levene", "mean"), ("Brown-Forsythe", "median")):
            ref, share = levene_oracle(residuals, frame[factor], center)
            got = checks.test(name, factor)
            k = frame[factor].nunique()
            assert got.df == (k - 1, len(frame) - k)
            if np.isnan(got.statistic):
                assert share < 1e-9 and "not computed" in got.note
                continue
            if share < 1e-6:  # W is ill-conditioned near the undefined case
                continue
            assert got.statistic == pytest.approx(ref.statistic, rel=1e-7, abs=1e-9)
            assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-12)


# --------------------------------------------------------------------------- real data
URBANO = ["adhoc5_p10.csv", "web2011_ndcg20.csv", "adhoc8_ap.csv"]


@pytest.mark.parametrize("name", URBANO)
@pytest.mark.parametrize("model", ["system", "topic+system"])
def test_urbano_matrices_against_statsmodels_and_scipy(urbano, name, model):
    matrix = ScoreMatrix.read_csv(urbano / name)
    values = matrix.values[:, :, 0]
    result = stats.anova(matrix, model)
    check_against_oracle(result, long_frame(values), FORMULAS[model], FACTORS[model])


def test_trec8_beyond_royston_range_is_said(urbano):
    """TREC-8 has 50 × 129 = 6450 residuals: W on all of them, and a note that the p-value
    is Royston's approximation carried beyond n = 5000."""
    checks = stats.anova(ScoreMatrix.read_csv(urbano / "adhoc8_ap.csv")).assumptions
    row = checks.test("shapiro-wilk")
    assert row.n == 6450 and "n = 6450, above the 5000" in row.note and "extrapolated" in row.note
    assert checks.test("Levene", "topic").df == (49, 6400)
    assert checks.test("Brown-Forsythe").df == (128, 6321)


@pytest.mark.parametrize("transform", ["arcsine", "rank"])
def test_urbano_transformed_tables_against_anova_lm(urbano, transform):
    matrix = ScoreMatrix.read_csv(urbano / "adhoc5_p10.csv")
    values = matrix.values[:, :, 0]
    changed = (np.arcsin(np.sqrt(values)) if transform == "arcsine"
               else sps.rankdata(values, method="average").reshape(values.shape))
    result = stats.anova(matrix, "topic+system", transform=transform)
    check_table(result, changed, "y ~ C(topic) + C(system)")
    check_against_oracle(result, long_frame(changed), FORMULAS["topic+system"],
                         FACTORS["topic+system"])


# --------------------------------------------------------------------------- generated
def matrices(min_topics: int = 2, min_systems: int = 2):
    """Score tables in [0, 1]: values with 6 decimals (as score files hold them: distinct
    values differ far more than the tie tolerance), or a coarse grid full of ties."""
    shape = st.tuples(st.integers(min_topics, 12), st.integers(min_systems, 7))

    def fill(dims):
        topics, systems = dims
        cell = st.one_of(st.integers(0, 10**6).map(lambda k: k / 10**6),
                         st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0]))
        return st.lists(cell, min_size=topics * systems, max_size=topics * systems).map(
            lambda xs: np.array(xs).reshape(topics, systems))

    return shape.flatmap(fill)


def fitted(values: np.ndarray, model: str, transform: str | None = None):
    try:
        return stats.anova(values, model, transform=transform)
    except InputError:  # constant scores, or a model that fits them exactly
        assume(False)
        raise


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=matrices(), model=st.sampled_from(["system", "topic+system"]))
# Levene's W of 2e-10 (p = 0.99999), once set to 0 as rounding
@example(values=np.array([0.0, 0.0, 0.0, 1e-06, 0.1, 0.1]).reshape(3, 2), model="system")
def test_generated_matrices_against_statsmodels_and_scipy(values, model):
    result = fitted(values, model)
    if result.df_error < 2:  # 2 topics × 2 systems: the residuals' shape is the design's
        row = result.assumptions.test("Shapiro-Wilk")
        assert np.isnan(row.statistic) and "too few residuals" in row.note
        return
    check_against_oracle(result, long_frame(values), FORMULAS[model], FACTORS[model])


def check_table(result, changed: np.ndarray, formula: str) -> None:
    ref = sm_anova.anova_lm(smf.ols(formula, long_frame(changed)).fit())
    for ours, theirs in (("topic", "C(topic)"), ("system", "C(system)"),
                         ("error", "Residual")):
        if theirs not in ref.index:
            continue
        row = result.row(ours)
        scale = float(ref["sum_sq"].sum())
        assert row.ss == pytest.approx(ref.loc[theirs, "sum_sq"], rel=1e-9, abs=1e-12 * scale)
        assert row.df == ref.loc[theirs, "df"]
        if ours != "error":
            assert row.f == pytest.approx(ref.loc[theirs, "F"], rel=1e-7)
            assert row.p == pytest.approx(ref.loc[theirs, "PR(>F)"], rel=1e-6, abs=1e-300)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=matrices(3, 2), model=st.sampled_from(["system", "topic+system"]),
       transform=st.sampled_from(["arcsine", "rank"]))
def test_generated_transformed_tables_against_anova_lm(values, model, transform):
    # transformed here, independently: numpy's arcsin and scipy's average ranks
    changed = (np.arcsin(np.sqrt(values)) if transform == "arcsine"
               else sps.rankdata(values, method="average").reshape(values.shape))
    result = fitted(values, model, transform)
    assert result.transform == transform and transform in result.summary()
    check_table(result, changed, FORMULAS[model])


# --------------------------------------------------------------------------- shard models
def test_shard_models_group_by_shard_and_type3_residuals_are_ols_residuals():
    rng = np.random.default_rng(3)
    y = rng.random((8, 1, 1)) + np.linspace(0, 0.2, 4)[None, :, None] \
        + rng.normal(0, 0.1, (8, 4, 3))
    balanced = stats.shard_anova(stats.ShardScores.from_array(y), "shard-main")
    check_against_oracle(balanced, long_frame(y), "y ~ C(topic) + C(system) + C(shard)",
                         ("system", "topic", "shard"))
    y[2, 1, 0] = y[5, 3, 2] = np.nan  # unbalanced: type III, residuals of the full fit
    missing = stats.shard_anova(stats.ShardScores.from_array(y), "MD3", empty="missing")
    assert missing.ss_type == "type III"
    check_against_oracle(missing, long_frame(y), "y ~ C(topic) + C(system) + C(shard) + "
                         "C(topic):C(system) + C(topic):C(shard) + C(system):C(shard)",
                         ("system", "topic", "shard"))


def test_shard_rank_transform_ranks_the_scores_the_policy_leaves():
    rng = np.random.default_rng(4)
    y = rng.random((6, 3, 2))
    y[1, 0, 1] = np.nan
    zero = np.nan_to_num(y)
    result = stats.shard_anova(stats.ShardScores.from_array(y), "shard-main", empty="zero",
                               transform="rank")
    changed = sps.rankdata(zero, method="average").reshape(zero.shape)
    ref = sm_anova.anova_lm(smf.ols("y ~ C(topic) + C(system) + C(shard)",
                                    long_frame(changed)).fit())
    assert result.row("system").ss == pytest.approx(ref.loc["C(system)", "sum_sq"], rel=1e-9)
    with pytest.raises(InputError, match=r"topic .1., system .s1., shard .shard1. is "):
        stats.shard_anova(stats.ShardScores.from_array(y * 2), "shard-main", empty="zero",
                          transform="arcsine")


# --------------------------------------------------------------------------- edges
def test_too_few_residuals_for_shapiro_wilk():
    """2 topics × 2 systems: df_error = 1, the four residuals are ±e (their shape is fixed
    by the design): no W, a note; with df_error = 2 W is scipy's on the residuals."""
    checks = stats.anova(np.array([[0.1, 0.4], [0.3, 0.2]])).assumptions
    row = checks.test("Shapiro-Wilk")
    assert np.isnan(row.statistic) and np.isnan(row.pvalue) and row.n == 4
    assert "too few residuals" in row.note and "df_error of at least 2" in row.note
    values = np.array([[0.1, 0.4], [0.3, 0.2], [0.5, 0.9]])
    result = stats.anova(values)
    residuals = ols_residuals(long_frame(values), FORMULAS["topic+system"])
    assert result.assumptions.test("Shapiro-Wilk").statistic == pytest.approx(
        sps.shapiro(residuals).statistic, rel=1e-9)


def test_two_systems_leave_nothing_to_compare_across_topics():
    rng = np.random.default_rng(1)
    checks = stats.anova(rng.random((10, 2))).assumptions
    for name in ("Levene", "Brown-Forsythe"):
        assert np.isnan(checks.test(name, "topic").statistic)
        assert "the same within every topic" in checks.test(name, "topic").note
        # the two systems' residuals are the same values of opposite sign
        assert checks.test(name, "system").statistic == 0.0
        assert checks.test(name, "system").pvalue == 1.0


def test_huge_scores_do_not_overflow():
    rng = np.random.default_rng(2)
    values = rng.random((9, 4))
    small = stats.anova(values).assumptions
    large = stats.anova(values * 1e150).assumptions
    assert np.allclose(small.statistic, large.statistic, rtol=1e-9)
    assert np.isfinite(large.statistic).all()


def test_n_beyond_5000_is_computed_and_noted():
    rng = np.random.default_rng(5)
    values = rng.random((101, 1)) + rng.normal(0, 0.1, (101, 50))
    result = stats.anova(values)
    residuals = ols_residuals(long_frame(values), FORMULAS["topic+system"])
    row = result.assumptions.test("Shapiro-Wilk")
    assert row.n == 5050 and "n = 5050, above the 5000" in row.note
    assert row.statistic == pytest.approx(shapiro(residuals).statistic, rel=1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy's warning does not leak: the note says it
        stats.anova(values).assumptions  # noqa: B018


def test_arcsine_range():
    values = np.array([[0.0, 0.5], [1.0, 0.25], [0.75, 0.1]])
    noisy = values.copy()
    noisy[1, 0] = 1.0 + 1e-13  # rounding noise of a ratio: read as 1
    noisy[0, 0] = -1e-14
    assert stats.anova(noisy, transform="arcsine").row("system").f == pytest.approx(
        stats.anova(values, transform="arcsine").row("system").f, rel=1e-9)
    frame = pd.DataFrame(values, columns=["bm25", "lm"], index=["q1", "q2", "q3"])
    frame.iloc[2, 1] = 1.5
    frame.iloc[0, 0] = -0.2
    with pytest.raises(InputError, match=r"topic .q1., system .bm25. is -0.2 \(2 scores "
                       r"outside \[0, 1\], from -0.2 to 1.5\)"):
        stats.anova(frame, transform="arcsine")


def test_transform_names():
    values = np.random.default_rng(6).random((6, 3))
    plain = stats.anova(values)
    for same in (None, "none", "NONE"):
        assert stats.anova(values, transform=same).row("system").f == plain.row("system").f
    assert stats.anova(values, transform="asin-sqrt").transform == "arcsine"
    assert stats.anova_oneway(values, transform="Ranks").transform == "rank"
    assert stats.anova_twoway(values, transform="rank").model == "topic + system"
    assert set(stats.TRANSFORMS) == {"none", "arcsine", "rank"}
    with pytest.raises(ParameterError, match="unknown transform 'log'; choose from none, "
                       "arcsine, rank"):
        stats.anova(values, transform="log")


# --------------------------------------------------------------------------- protocol
def test_result_protocol_and_formats():
    values = np.random.default_rng(7).random((8, 4))
    result = stats.anova(values)
    checks = result.assumptions
    assert result.assumptions is checks  # computed once per result
    assert isinstance(checks, stats.AssumptionChecks)
    frame = checks.to_frame()
    assert list(frame["test"]) == ["Shapiro-Wilk", "Levene", "Brown-Forsythe", "Levene",
                                   "Brown-Forsythe"]
    assert list(frame["groups"]) == ["", "system", "system", "topic", "topic"]
    assert np.array_equal(checks.statistic, frame["statistic"].to_numpy())
    assert np.array_equal(checks.pvalue, frame["p"].to_numpy())
    for fmt in TABLE_FORMATS:
        assert checks.format(fmt)
    document = json.loads(checks.format("json"))
    assert [r["test"] for r in document["assumptions"]] == list(frame["test"])
    row = checks.test("levene", "topic")
    assert isinstance(row, stats.AssumptionTest)
    assert row.to_frame().iloc[0]["df1"] == 7 and "Levene" in row.format("markdown")
    with pytest.raises(KeyError, match="shard"):
        checks.test("Levene", "shard")
    assert "Shapiro-Wilk" in repr(checks)
    md1 = stats.anova(values, "system").assumptions
    assert md1.groups == ("system",)


def test_residual_qq_plot():
    pytest.importorskip("matplotlib")
    values = np.random.default_rng(8).random((10, 3))
    result = stats.anova(values)
    ax = plots.residual_qq(result)
    x, y = ax.collections[0].get_offsets().T
    residuals = ols_residuals(long_frame(values), FORMULAS["topic+system"])
    assert np.allclose(y, np.sort(residuals.to_numpy()))
    # Blom's positions (i - 3/8)/(n + 1/4): symmetric about 0, the first at Φ⁻¹(0.625/30.25)
    assert np.allclose(x, -x[::-1]) and np.all(np.diff(x) > 0)
    assert x[0] == pytest.approx(sps.norm.ppf(0.625 / 30.25))
    assert "Shapiro-Wilk W" in ax.get_title()
    with pytest.raises(ParameterError, match=r"^result: expected AnovaResult, got a "
                       r"RankTestResult$"):
        plots.residual_qq(stats.friedman(values))
