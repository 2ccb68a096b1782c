"""The bootstrap ANOVA of replicates when systems have different numbers of them (3 seeds
against 5: ``bootstrap_anova(..., empty="missing")``): the table, the effects and every
bootstrap sample are statsmodels' OLS fits (type II and type III sums of squares, which
agree on this proportional design; sum-to-zero effects) of the data and of the topics
drawn; the holes it cannot model are refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.errors import InputError
from irscale.stats import ShardScores, bootstrap_anova
from irscale.stats.resampling import seed_sequence

from .oracle_imports import lazy_import

sm = lazy_import("statsmodels.api")
smf = lazy_import("statsmodels.formula.api")

COUNTS = (3, 5, 2)


def _uneven(counts=COUNTS, topics: int = 10, seed: int = 0) -> ShardScores:
    rng = np.random.default_rng(seed)
    width = max(counts)
    values = (0.3 + 0.2 * rng.normal(size=(topics, 1, 1))
              + np.linspace(0, 0.1, len(counts))[None, :, None]
              + 0.1 * rng.normal(size=(topics, len(counts), width)))
    for s, count in enumerate(counts):
        values[:, s, count:] = np.nan
    return ShardScores(values, tuple(f"t{i}" for i in range(topics)),
                       tuple(f"s{j}" for j in range(len(counts))),
                       tuple(str(k) for k in range(width)))


def _statsmodels(values: np.ndarray, interaction: bool) -> dict[str, object]:
    """statsmodels' OLS fit of the observed scores of a topics × systems × replicates array
    (every topic position its own level)."""
    rows = [(f"t{i}", f"s{j}", float(values[i, j, k])) for i, j, k in np.ndindex(values.shape)
            if not np.isnan(values[i, j, k])]
    frame = pd.DataFrame(rows, columns=["topic", "system", "y"])
    formula = "y ~ C(topic, Sum) " + ("*" if interaction else "+") + " C(system, Sum)"
    fit = smf.ols(formula, frame).fit()
    term = "C(system, Sum)"
    coefficients = [fit.params[f"{term}[S.s{j}]"] for j in range(values.shape[1] - 1)]
    return {"F2": sm.stats.anova_lm(fit, typ=2).loc[term, "F"],
            "F3": sm.stats.anova_lm(fit, typ=3).loc[term, "F"], "df": fit.df_resid,
            "effects": [*coefficients, -sum(coefficients)],
            "means": frame.groupby("system", sort=True)["y"].mean().to_numpy()}


@pytest.mark.parametrize("interaction", [True, False])
def test_table_and_effects_equal_statsmodels(interaction):
    scores = _uneven()
    result = bootstrap_anova(scores, interaction=interaction, empty="missing", samples=20,
                             rng=1)
    oracle = _statsmodels(scores.values, interaction)
    assert oracle["F2"] == pytest.approx(oracle["F3"])  # the proportional design
    assert result.statistic == pytest.approx(oracle["F3"], rel=1e-10)
    assert result.table.df_error == oracle["df"]
    assert result.effects == pytest.approx(oracle["effects"], abs=1e-12)
    assert result.means == pytest.approx(oracle["means"], abs=1e-12)
    assert np.isfinite(result.effect_samples).all() and np.isfinite(result.f_samples).all()


@pytest.mark.parametrize("interaction", [True, False])
def test_every_sample_is_the_statsmodels_fit_of_the_topics_drawn(interaction):
    """``resample="topics"``: sample b draws T topics (module "Draws": T integers in [0, T)
    per sample from PCG64 of the seed); its effects are statsmodels' on those topics, its
    F that of the data less the system effects (the null)."""
    scores = _uneven(topics=8, seed=3)
    samples = 4
    result = bootstrap_anova(scores, interaction=interaction, resample="topics",
                             samples=samples, empty="missing", rng=7)
    generator = np.random.Generator(np.random.PCG64(seed_sequence(rng=7)))
    index = generator.integers(0, len(scores.topics), size=(samples, len(scores.topics)))
    effects = _statsmodels(scores.values, interaction)["effects"]
    null = scores.values - np.asarray(effects)[None, :, None]
    for b in range(samples):
        drawn = _statsmodels(scores.values[index[b]], interaction)
        assert result.effect_samples[b] == pytest.approx(drawn["effects"], abs=1e-12)
        assert result.f_samples[b] == pytest.approx(
            _statsmodels(null[index[b]], interaction)["F3"], rel=1e-9, abs=1e-9)


def test_residuals_keep_the_missing_replicates_missing():
    """Residuals are drawn from the observed scores into the observed cells: every sample's
    effects are finite, and their mean is the effects within the Monte Carlo error (the
    residuals, of mean 0, leave a linear statistic unbiased)."""
    scores = _uneven()
    result = bootstrap_anova(scores, empty="missing", samples=2000, rng=2)
    spread = result.standard_errors
    assert np.isfinite(result.effect_samples).all() and (spread > 0).all()
    centre = result.effect_samples.mean(axis=0)
    assert centre == pytest.approx(result.effects, abs=4 * spread.max() / np.sqrt(2000))


def test_refusals_say_what_to_do():
    scores = _uneven()
    with pytest.raises(InputError, match=r"different numbers of replicates \(runs: 's0' 3, "
                       r"'s1' 5, 's2' 2\): choose --empty missing"):
        bootstrap_anova(scores, samples=20)
    with pytest.raises(InputError, match="resample residuals or topics"):
        bootstrap_anova(scores, empty="missing", resample="replicates", samples=20)
    holed = scores.values.copy()
    holed[2, 1, 0] = np.nan  # a hole on one topic only
    with pytest.raises(InputError, match=r"only whole.*topic 't2', system 's1', shard '0'"):
        bootstrap_anova(ShardScores(holed, scores.topics, scores.systems, scores.shards),
                        empty="missing", samples=20)
    ones = _uneven(counts=(1, 1, 1))
    two = ShardScores(np.concatenate([ones.values, np.full_like(ones.values, np.nan)], axis=2),
                      ones.topics, ones.systems, ("0", "1"))
    with pytest.raises(InputError, match="no error degrees of freedom"):
        bootstrap_anova(two, empty="missing", samples=20)
    assert bootstrap_anova(two, empty="missing", samples=20, interaction=False).statistic
    empty = scores.values.copy()
    empty[:, 2, :] = np.nan
    with pytest.raises(InputError, match="system 's2' has no score"):
        bootstrap_anova(ShardScores(empty, scores.topics, scores.systems, scores.shards),
                        empty="missing", samples=20)
