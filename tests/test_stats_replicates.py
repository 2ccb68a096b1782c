"""Replicates ANOVA and bootstrap ANOVA (Voorhees, Samarov & Soboroff 2017).

Oracles: statsmodels' ``anova_lm`` for the tables; a brute-force loop written here, one
sample at a time with pandas group means and statsmodels' F, for the bootstrap
distributions; simulated data with known system effects for the coverage of the intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale import stats
from irscale.errors import InputError, ParameterError
from irscale.stats import ShardScores

from .oracle_imports import lazy_importorskip

sm_formula = lazy_importorskip("statsmodels.formula.api")
sm_anova = lazy_importorskip("statsmodels.stats.anova")


def _frame(values: np.ndarray) -> pd.DataFrame:
    t, j, k = values.shape
    return pd.DataFrame(
        [(f"t{a}", f"s{b}", f"r{c}", values[a, b, c])
         for a in range(t) for b in range(j) for c in range(k)],
        columns=["topic", "system", "rep", "y"])


def _lm_table(values: np.ndarray, interaction: bool) -> pd.DataFrame:
    formula = "y ~ C(topic) * C(system)" if interaction else "y ~ C(topic) + C(system)"
    return sm_anova.anova_lm(sm_formula.ols(formula, _frame(values)).fit())


@pytest.fixture
def replicated() -> np.ndarray:
    gen = np.random.default_rng(20170901)
    return gen.beta(2.0, 3.0, size=(7, 4, 3))


@pytest.mark.parametrize("interaction", [True, False])
def test_table_matches_anova_lm(replicated, interaction):
    result = stats.replicates_anova(ShardScores.from_array(replicated), interaction=interaction)
    oracle = _lm_table(replicated, interaction)
    names = {"topic": "C(topic)", "system": "C(system)", "topic:system": "C(topic):C(system)",
             "error": "Residual"}
    factors = [r.factor for r in result.rows[:-1]]
    assert factors == (["topic", "system", "topic:system", "error"] if interaction
                       else ["topic", "system", "error"])
    for row in result.rows[:-1]:
        line = oracle.loc[names[row.factor]]
        assert row.ss == pytest.approx(line["sum_sq"], rel=1e-8, abs=1e-12)
        assert row.df == line["df"]
        if row.factor != "error":
            assert row.f == pytest.approx(line["F"], rel=1e-8)
            assert row.p == pytest.approx(line["PR(>F)"], rel=1e-8, abs=1e-12)


def test_named_shard_model_is_the_same_table(replicated):
    scores = ShardScores.from_array(replicated)
    by_name = stats.shard_anova(scores, "replicates").to_frame()
    pd.testing.assert_frame_equal(stats.replicates_anova(scores).to_frame(), by_name)


def _brute_force(values: np.ndarray, resample: str, samples: int, seed: int,
                 interaction: bool = True, rescale: bool = True
                 ) -> tuple[np.ndarray, np.ndarray]:
    """System effects and null F of every sample, one sample at a time (the documented
    draws), with pandas means and statsmodels' F."""
    t, j, k = values.shape
    frame = _frame(values)
    table = _lm_table(values, interaction)
    if interaction:
        fitted = frame.groupby(["topic", "system"])["y"].transform("mean").to_numpy()
    else:
        fitted = (frame.groupby("topic")["y"].transform("mean")
                  + frame.groupby("system")["y"].transform("mean") - frame["y"].mean()
                  ).to_numpy()
    residuals = frame["y"].to_numpy() - fitted
    if rescale:
        residuals = residuals * np.sqrt(len(frame) / table.loc["Residual", "df"])
    effect = (frame.groupby("system")["y"].transform("mean") - frame["y"].mean()).to_numpy()
    gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    effects, fs = [], []
    for _ in range(samples):
        if resample == "residuals":
            index = gen.integers(0, t * j * k, size=t * j * k)
            full = fitted + residuals[index]
            null = fitted - effect + residuals[index]
        elif resample == "topics":
            picks = gen.integers(0, t, size=t)
            rows = np.concatenate([np.arange(a * j * k, (a + 1) * j * k) for a in picks])
            full = frame["y"].to_numpy()[rows]
            null = (frame["y"].to_numpy() - effect)[rows]
        else:
            picks = gen.integers(0, k, size=(t, k))
            rows = [a * j * k + b * k + picks[a, c]
                    for a in range(t) for b in range(j) for c in range(k)]
            full = frame["y"].to_numpy()[rows]
            null = (frame["y"].to_numpy() - effect)[rows]
        sample = frame.assign(y=full)
        effects.append((sample.groupby("system")["y"].mean() - sample["y"].mean()).to_numpy())
        fs.append(_lm_table(np.reshape(null, (t, j, k)), interaction).loc["C(system)", "F"])
    return np.array(effects), np.array(fs)


@pytest.mark.parametrize("resample", ["residuals", "topics", "replicates"])
def test_bootstrap_matches_a_brute_force_loop(replicated, resample):
    result = stats.bootstrap_anova(ShardScores.from_array(replicated), resample=resample,
                                   samples=12, rng=5)
    effects, fs = _brute_force(replicated, resample, 12, 5)
    np.testing.assert_allclose(result.effect_samples, effects, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.f_samples, fs, rtol=1e-8)
    assert result.pvalue == pytest.approx(
        (np.count_nonzero(fs >= result.statistic) + 1) / 13)


def test_bootstrap_without_interaction_and_raw_residuals(replicated):
    result = stats.bootstrap_anova(ShardScores.from_array(replicated), interaction=False,
                                   rescale=False, samples=8, rng=11)
    effects, fs = _brute_force(replicated, "residuals", 8, 11, interaction=False,
                               rescale=False)
    np.testing.assert_allclose(result.effect_samples, effects, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.f_samples, fs, rtol=1e-8)


def test_same_seed_same_distribution(replicated):
    scores = ShardScores.from_array(replicated)
    one = stats.bootstrap_anova(scores, samples=300, rng=42)
    two = stats.bootstrap_anova(scores, samples=300, rng=42)
    other = stats.bootstrap_anova(scores, samples=300, rng=43)
    np.testing.assert_array_equal(one.effect_samples, two.effect_samples)
    np.testing.assert_array_equal(one.f_samples, two.f_samples)
    assert not np.array_equal(one.effect_samples, other.effect_samples)


def test_pairs_from_the_bootstrap_differences(replicated):
    result = stats.bootstrap_anova(ShardScores.from_array(replicated), samples=400, rng=1,
                                   alpha=0.1, correction="none")
    pairs = result.pairs.to_frame()
    draws = result.effect_samples[:, 0] - result.effect_samples[:, 2]
    row = pairs[(pairs["a"] == "s1") & (pairs["b"] == "s3")].iloc[0]
    assert row["diff"] == pytest.approx(result.effects[0] - result.effects[2])
    assert row["ci_low"] == pytest.approx(np.quantile(draws, 0.05))
    assert row["ci_high"] == pytest.approx(np.quantile(draws, 0.95))
    tails = min(np.sum(draws <= 0) + 1, np.sum(draws >= 0) + 1) / 401
    assert row["p"] == pytest.approx(min(1.0, 2 * tails))
    bh = stats.bootstrap_anova(ShardScores.from_array(replicated), samples=400, rng=1,
                               alpha=0.1).pairs.to_frame()
    np.testing.assert_allclose(bh["p"], stats.adjust_pvalues(pairs["p"].to_numpy(), "bh"))


def _simulate(gen: np.random.Generator, alpha_true: np.ndarray, t: int, k: int
              ) -> np.ndarray:
    """y = μ + τ_i + α_j + (τα)_ij + ε_ijk with the interaction centred over topics and
    systems (fixed effects: α_j is the system effect)."""
    j = len(alpha_true)
    topic = gen.normal(0, 0.15, size=t)
    inter = gen.normal(0, 0.1, size=(t, j))
    inter = inter - inter.mean(axis=0) - inter.mean(axis=1, keepdims=True) + inter.mean()
    noise = gen.normal(0, 0.08, size=(t, j, k))
    return 0.4 + topic[:, None, None] + alpha_true[None, :, None] + inter[..., None] + noise


def test_residual_intervals_cover_the_true_effects():
    gen = np.random.default_rng(7)
    alpha_true = np.array([-0.05, 0.0, 0.05])
    covered = total = 0
    for rep in range(150):
        values = _simulate(gen, alpha_true, 10, 3)
        result = stats.bootstrap_anova(ShardScores.from_array(values), samples=300,
                                       alpha=0.1, rng=rep)
        low, high = result.confidence_interval(0.9)
        covered += int(np.sum((low <= alpha_true) & (alpha_true <= high)))
        total += len(alpha_true)
    assert 0.85 <= covered / total <= 0.95


def test_interaction_narrows_the_intervals():
    values = _simulate(np.random.default_rng(3), np.array([0.0, 0.02, 0.04]), 20, 3)
    scores = ShardScores.from_array(values)
    with_it = stats.bootstrap_anova(scores, samples=500, rng=2)
    without = stats.bootstrap_anova(scores, interaction=False, samples=500, rng=2)
    assert np.all(with_it.standard_errors < 0.8 * without.standard_errors)


def test_result_protocol_and_formats(replicated):
    result = stats.bootstrap_anova(ShardScores.from_array(replicated), samples=50, rng=0)
    assert result.statistic == result.table.row("system").f
    assert 0 < result.pvalue <= 1
    frame = result.to_frame()
    assert list(frame.columns) == ["system", "mean", "effect", "se", "ci_low", "ci_high"]
    np.testing.assert_allclose(frame["mean"], replicated.mean(axis=(0, 2)))
    assert "bootstrap ANOVA (residuals, rescaled, B = 50)" in result.format()
    assert '"bootstrap_anova"' in result.format("json")


def test_progress_counts_the_samples(replicated):
    calls = []
    stats.bootstrap_anova(ShardScores.from_array(replicated), samples=30, rng=1,
                          progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (30, 30) and all(total == 30 for _, total in calls)


def test_errors(replicated):
    with pytest.raises(InputError, match="two replicates"):
        stats.bootstrap_anova(ShardScores.from_array(replicated[:, :, :1]), samples=10)
    holed = replicated.copy()
    holed[0, 0, 0] = np.nan
    with pytest.raises(InputError, match="missing replicates only whole"):
        stats.bootstrap_anova(ShardScores.from_array(holed), empty="missing", samples=10)
    with pytest.raises(ParameterError, match="resample"):
        stats.bootstrap_anova(ShardScores.from_array(replicated), resample="shards")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="samples"):  # an interval needs two samples
        stats.bootstrap_anova(ShardScores.from_array(replicated), samples=1)


def test_command_line_is_the_api(replicated, tmp_path):
    """``irscale compare --test bootstrap-anova`` prints what ``bootstrap_anova`` gives
    for the same scores and seed."""
    import json

    from .test_cli_eval import cli

    t, j, k = replicated.shape
    lines = ["topic,run,shard,value"] + [
        f"t{a},s{b + 1},k{c},{float(replicated[a, b, c])!r}"
        for a in range(t) for b in range(j) for c in range(k)]
    path = tmp_path / "rep.csv"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = cli(["compare", "--test", "bootstrap-anova", "--shard-scores",
                            str(path), "--resample", "replicates", "-B", "200", "--seed", "9",
                            "--format", "json"])
    assert status == 0, err
    document = json.loads(out)
    api = stats.bootstrap_anova(ShardScores.from_array(replicated), resample="replicates",
                                samples=200, rng=9)
    effects = [row for row in document["bootstrap_anova"] if "system" in row]
    np.testing.assert_allclose([row["ci_low"] for row in effects],
                               api.to_frame()["ci_low"], rtol=1e-12)
    np.testing.assert_allclose([p["p"] for p in document["pairs"]],
                               api.pairs.columns["p_raw"], rtol=1e-12)
    np.testing.assert_allclose([p["p_adjusted"] for p in document["pairs"]], api.pairs.pvalue,
                               rtol=1e-12)
