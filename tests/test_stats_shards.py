"""Shard ANOVA models (Ferro & Sanderson 2022): closed forms, type III against statsmodels,
policies."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.stats import SHARD_MODELS, ShardScores, anova_twoway, shard_anova
from irscale.stats._factorial import parse_model

from .oracle_imports import lazy_importorskip

smf = lazy_importorskip("statsmodels.formula.api")
sm_anova = lazy_importorskip("statsmodels.stats.anova")


TERMS_SM = {
    "topic": "C(topic, Sum)",
    "system": "C(system, Sum)",
    "shard": "C(shard, Sum)",
}


def shard_values(seed: int, shape=(6, 4, 3)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t, s, k = shape
    return (rng.random((t, 1, 1)) + np.linspace(0, 0.3, s)[None, :, None]
            + rng.normal(0, 0.05, (1, 1, k)) + rng.normal(0, 0.1, shape))


def statsmodels_table(values: np.ndarray, formula: str) -> pd.DataFrame:
    t, s, k = np.nonzero(np.isfinite(values))
    frame = pd.DataFrame({"topic": t, "system": s, "shard": k, "y": values[t, s, k]})
    rhs = " + ".join(":".join(TERMS_SM[f] for f in term)
                     for term in parse_model(formula, ("topic", "system", "shard")))
    return sm_anova.anova_lm(smf.ols(f"y ~ {rhs}", frame).fit(), typ=3)


def check_against(result, reference: pd.DataFrame) -> None:
    for row in result.rows[:-2]:
        key = ":".join(TERMS_SM[f] for f in row.factor.split(":"))
        assert row.ss == pytest.approx(reference.loc[key, "sum_sq"], rel=1e-8)
        assert row.df == reference.loc[key, "df"]
        assert row.f == pytest.approx(reference.loc[key, "F"], rel=1e-8)
        assert row.p == pytest.approx(reference.loc[key, "PR(>F)"], rel=1e-6)
    assert result.row("error").ss == pytest.approx(reference.loc["Residual", "sum_sq"], rel=1e-8)


@pytest.mark.parametrize("model", sorted(SHARD_MODELS))
def test_balanced_closed_forms_match_statsmodels(model):
    values = shard_values(1)
    result = shard_anova(ShardScores.from_array(values), model)
    assert result.ss_type.startswith("closed-form")
    check_against(result, statsmodels_table(values, SHARD_MODELS[model][0]))
    # system marginal mean = mean over topics and shards (Ferro & Sanderson 2022, §3.1)
    assert result.system_means == pytest.approx(values.mean(axis=(0, 2)))


@pytest.mark.parametrize("model", ["MD3", "shard-main", "shard-ts-ss"])
def test_unbalanced_type3_matches_statsmodels(model):
    values = shard_values(2)
    values[0, 1, 2] = values[3, 2, 0] = values[5, 0, 1] = np.nan
    result = shard_anova(ShardScores.from_array(values), model, empty="missing")
    assert result.ss_type == "type III" and result.n_obs == values.size - 3
    check_against(result, statsmodels_table(values, SHARD_MODELS[model][0]))


def test_least_squares_means_and_their_covariance():
    values = shard_values(3)
    values[1, 0, 0] = values[2, 3, 1] = np.nan
    result = shard_anova(ShardScores.from_array(values), "shard-main", empty="missing")
    t, s, k = np.nonzero(np.isfinite(values))
    frame = pd.DataFrame({"topic": t, "system": s, "shard": k, "y": values[t, s, k]})
    fit = smf.ols("y ~ C(topic, Sum) + C(system, Sum) + C(shard, Sum)", frame).fit()
    grid = pd.DataFrame([(a, b, c) for a in range(6) for b in range(4) for c in range(3)],
                        columns=["topic", "system", "shard"])
    grid["fit"] = fit.predict(grid)
    assert result.system_means == pytest.approx(grid.groupby("system")["fit"].mean().to_numpy())
    # covariance of a difference of LS means: contrast of the coefficients' covariance
    names = list(fit.params.index)
    contrast = np.zeros(len(names))
    contrast[names.index("C(system, Sum)[S.0]")] = 1
    contrast[names.index("C(system, Sum)[S.1]")] = -1
    variance = contrast @ fit.cov_params().to_numpy() @ contrast
    cov = result.system_cov
    assert cov[0, 0] + cov[1, 1] - 2 * cov[0, 1] == pytest.approx(variance, rel=1e-8)
    hsd = result.tukey_hsd()
    assert hsd.half_width is None and len(hsd) == 6  # Tukey-Kramer: no common half-width


def test_balanced_linear_model_equals_closed_form():
    from irscale.stats._linear import type3

    values = shard_values(4)
    closed = shard_anova(ShardScores.from_array(values), "MD3")
    index = np.indices(values.shape).reshape(3, -1)
    codes = dict(zip(("topic", "system", "shard"), index, strict=True))
    levels = dict(zip(("topic", "system", "shard"), values.shape, strict=True))
    fit = type3(values.ravel(), codes, levels,
                parse_model(SHARD_MODELS["MD3"][0], ("topic", "system", "shard")), "system")
    assert fit.sums.ss == pytest.approx([r.ss for r in closed.rows[:-2]], rel=1e-9)
    assert fit.means == pytest.approx(closed.system_means)
    assert fit.cov == pytest.approx(closed.system_cov, abs=1e-14)


def test_md3_error_is_the_three_way_interaction():
    values = shard_values(5)
    md3 = shard_anova(ShardScores.from_array(values), "MD3")
    assert md3.row("error").df == 5 * 3 * 2  # (T - 1)(S - 1)(K - 1)
    # a system effect alone, pooled over shards, is the two-way effect of the shard means
    main = shard_anova(ShardScores.from_array(values), "topic + system")
    assert main.row("system").ss == pytest.approx(
        anova_twoway(values.mean(axis=2)).row("system").ss * 3)
    copies = ShardScores.from_array(np.repeat(values[:, :, :1], 2, axis=2))
    with pytest.raises(InputError, match="exactly"):  # identical shards: nothing left
        shard_anova(copies, "topic + system + shard + topic:system")


def test_empty_shard_policies():
    values = shard_values(6)
    values[2, :, 1] = np.nan  # topic 3 has no relevant document in shard 2
    scores = ShardScores.from_array(values)
    assert scores.empty_cells() == [("3", "shard2")]
    with pytest.raises(InputError, match="empty-shard policy"):
        shard_anova(scores)
    zero = shard_anova(scores, empty="zero")
    filled = np.where(np.isnan(values), 0.0, values)
    assert zero.row("system").ss == pytest.approx(
        shard_anova(ShardScores.from_array(filled)).row("system").ss)
    dropped = shard_anova(scores, empty="drop-topic")
    assert dropped.n_obs == 5 * 4 * 3 and "1 topic" in dropped.note
    no_shard = shard_anova(scores, empty="drop-shard")
    assert no_shard.n_obs == 6 * 4 * 2
    missing = shard_anova(scores, "shard-main", empty="missing")
    assert missing.ss_type == "type III" and missing.n_obs == 6 * 4 * 3 - 4
    # with topic:shard in the model the empty cell is not estimable: df drops by one
    full = shard_anova(scores, "shard-ts", empty="missing")
    assert full.row("topic:shard").df == 5 * 2 - 1
    with pytest.raises(ParameterError):
        shard_anova(scores, empty="guess")


def test_fake_md3_and_tukey_on_the_system_factor():
    values = shard_values(7)
    real = shard_anova(ShardScores.from_array(values), "MD3").tukey_hsd()
    fake = shard_anova(ShardScores.from_array(values), "MD3f").tukey_hsd()
    assert fake.n_significant == len(fake) == 6
    assert real.extra["df"] == 30
    assert real.half_width == pytest.approx(
        0.5 * real.critical_value * np.sqrt(
            shard_anova(ShardScores.from_array(values)).ms_error / (6 * 3)))


def test_constructors():
    values = shard_values(8, shape=(3, 2, 2))
    t, s, k = np.indices(values.shape).reshape(3, -1)
    frame = pd.DataFrame({"topic": t + 1, "run": [f"r{v}" for v in s], "shard": k,
                          "value": values.ravel()})
    scores = ShardScores.from_frame(frame)
    assert scores.shape == (3, 2, 2) and scores.systems == ("r0", "r1")
    assert np.array_equal(scores.values, values)
    matrices = {
        f"k{i}": ScoreMatrix.from_array(values[:, :, i], systems=["a", "b"]) for i in range(2)
    }
    from_matrices = ShardScores.from_matrices(matrices)
    assert np.array_equal(from_matrices.values, values) and from_matrices.shards == ("k0", "k1")
    matrices["k1"] = ScoreMatrix.from_array(values[:, :, 1], systems=["a", "c"])
    with pytest.raises(AlignmentError):
        ShardScores.from_matrices(matrices)
    with pytest.raises(InputError):
        ShardScores.from_array(values[:, :, 0])
    assert "3 topics" in repr(scores)


def test_a_term_without_degrees_of_freedom_is_named_not_tested():
    """Type III with topic x shard cells missing in two of three shards: the shard marginal
    means are not estimable, the shard row has 0 df, and the table says so in its title."""
    from irscale.stats.shards import ShardScores, shard_anova

    rng = np.random.default_rng(3)
    values = rng.random((6, 4, 3))
    values[0, :, 0] = np.nan  # topic 0 has no relevant document in shard 0
    values[1, :, 1] = np.nan  # topic 1 none in shard 1
    result = shard_anova(ShardScores.from_array(values), "MD3", empty="missing")
    assert result.row("shard").df == 0 and np.isnan(result.row("shard").f)
    shard = result.row("shard")  # no effect size either: blank, not 0
    assert all(np.isnan(v) for v in (shard.omega2, shard.omega2_total, shard.eta2,
                                      shard.partial_eta2))
    assert "no test of shard: 0 degrees of freedom" in result.format("text").splitlines()[0]
    assert result.row("system").df == 3
