"""Correlations of query performance predictions with effectiveness: scipy's pearsonr,
kendalltau and spearmanr with their intervals, Steiger's (1980) test by hand, the paired
bootstrap redone here from the same seeded draws, and the pooling across collections."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale import stats as irstats
from irscale.errors import InputError

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")

N = 25


def tables(seed: int = 0, noise=(0.1, 0.4, 0.25)):
    rng = np.random.default_rng(seed)
    effect = rng.random(N)
    rows = []
    for name, sd in zip(("good", "bad", "mid"), noise, strict=True):
        values = effect + rng.normal(0, sd, N)
        rows += [{"topic": f"t{i}", "predictor": name, "value": values[i]} for i in range(N)]
    return (pd.DataFrame(rows),
            pd.DataFrame({"topic": [f"t{i}" for i in range(N)], "value": effect}))


def column(pred: pd.DataFrame, name: str) -> np.ndarray:
    return pred[pred["predictor"] == name]["value"].to_numpy()


def test_correlations_equal_scipy():
    pred, obs = tables()
    y = obs["value"].to_numpy()
    table = irstats.qpp_correlations(pred, obs, alpha=0.1).table.set_index("predictor")
    z = sps.norm.isf(0.05)
    for name in ("good", "bad", "mid"):
        x = column(pred, name)
        row = table.loc[name]
        pearson = sps.pearsonr(x, y)
        interval = pearson.confidence_interval(confidence_level=0.9)
        assert row["pearson"] == pytest.approx(pearson.statistic, rel=1e-12)
        assert row["pearson_low"] == pytest.approx(interval.low, rel=1e-10)
        assert row["pearson_high"] == pytest.approx(interval.high, rel=1e-10)
        assert row["kendall"] == pytest.approx(sps.kendalltau(x, y).statistic, rel=1e-12)
        rho = sps.spearmanr(x, y).statistic
        assert row["spearman"] == pytest.approx(rho, rel=1e-12)
        half = z * np.sqrt(1.06 / (N - 3))  # Fieller, Hartley & Pearson (1957)
        assert row["spearman_low"] == pytest.approx(np.tanh(np.arctanh(rho) - half))
        assert row["spearman_high"] == pytest.approx(np.tanh(np.arctanh(rho) + half))


def test_bootstrap_seeded_and_by_hand():
    """The percentile interval from B resamples of the topics, drawn from the seed (the
    same draws for every predictor); the same seed, the same table."""
    pred, obs = tables(seed=1)
    y = obs["value"].to_numpy()
    first = irstats.qpp_correlations(pred, obs, samples=300, rng=7).table
    again = irstats.qpp_correlations(pred, obs, samples=300, rng=7).table
    pd.testing.assert_frame_equal(first, again)
    draws = np.random.default_rng(np.random.SeedSequence(7)).integers(0, N, size=(300, N))
    x = column(pred, "good")
    r = [sps.pearsonr(x[d], y[d]).statistic for d in draws]
    row = first.set_index("predictor").loc["good"]
    assert row["pearson_boot_low"] == pytest.approx(np.quantile(r, 0.025), rel=1e-10)
    assert row["pearson_boot_high"] == pytest.approx(np.quantile(r, 0.975), rel=1e-10)
    tau = [sps.kendalltau(x[d], y[d]).statistic for d in draws]
    assert row["kendall_boot_low"] == pytest.approx(np.quantile(tau, 0.025), rel=1e-10)
    assert row["b_defined"] == 300


def steiger_by_hand(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Steiger (1980), eq. (15) with (14)'s pooled r̄: the correlations of variable 1
    (effectiveness) with 2 and 3 (the predictors), r23 between the predictors."""
    rbar = (r12 + r13) / 2
    covariance = (r23 * (1 - 2 * rbar**2) - 0.5 * rbar**2 * (1 - 2 * rbar**2 - r23**2)) \
        / (1 - rbar**2) ** 2
    z = (np.arctanh(r12) - np.arctanh(r13)) * np.sqrt(n - 3) / np.sqrt(2 - 2 * covariance)
    return z, 2 * (1 - sps.norm.cdf(abs(z)))


@pytest.mark.parametrize("correlation", ["pearson", "spearman"])
def test_steiger_by_hand(correlation):
    pred, obs = tables(seed=2)
    y = obs["value"].to_numpy()
    a, b = column(pred, "good"), column(pred, "mid")
    if correlation == "spearman":
        a, b, y = sps.rankdata(a), sps.rankdata(b), sps.rankdata(y)
    z, p = steiger_by_hand(sps.pearsonr(a, y).statistic, sps.pearsonr(b, y).statistic,
                           sps.pearsonr(a, b).statistic, N)
    row = irstats.qpp_compare(pred, obs, "good", "mid",
                              correlation=correlation).table.iloc[0]
    assert row["steiger_z"] == pytest.approx(z, rel=1e-10)
    assert row["steiger_p"] == pytest.approx(p, rel=1e-8)


def test_paired_bootstrap_by_hand():
    pred, obs = tables(seed=3)
    y = obs["value"].to_numpy()
    a, b = column(pred, "good"), column(pred, "bad")
    draws = np.random.default_rng(np.random.SeedSequence(5)).integers(0, N, size=(200, N))
    diff = np.array([sps.kendalltau(a[d], y[d]).statistic - sps.kendalltau(b[d], y[d]).statistic
                     for d in draws])
    row = irstats.qpp_compare(pred, obs, "good", "bad", correlation="kendall", samples=200,
                              rng=5).table.iloc[0]
    assert row["boot_low"] == pytest.approx(np.quantile(diff, 0.025), rel=1e-10)
    assert row["boot_high"] == pytest.approx(np.quantile(diff, 0.975), rel=1e-10)
    tail = min((diff <= 0).sum(), (diff >= 0).sum())
    assert row["boot_p"] == pytest.approx(min(1.0, 2 * (tail + 1) / 201))
    assert "steiger_z" not in row  # Kendall's τ has no Steiger test


def test_across_collections_pooled():
    """Fisher's z per collection, pooled by the random-effects meta-analysis; with three
    collections the prediction interval of a new one is defined and wider than the CI."""
    collections = {f"c{k}": tables(seed=10 + k) for k in range(3)}
    pooled = irstats.qpp_across_collections(collections).table.set_index("predictor")
    z = [np.arctanh(sps.pearsonr(column(p, "good"), o["value"]).statistic)
         for p, o in collections.values()]
    expected = irstats.random_effects(z, [1 / (N - 3)] * 3)
    row = pooled.loc["good"]
    assert row["pooled"] == pytest.approx(np.tanh(float(expected.effect)), rel=1e-10)
    assert row["pi_low"] <= row["ci_low"] < row["pooled"] < row["ci_high"] <= row["pi_high"]
    per = irstats.qpp_correlations(collections).table
    assert list(dict.fromkeys(per["collection"])) == ["c0", "c1", "c2"]


def test_constant_predictor_refused():
    pred, obs = tables()
    pred.loc[pred["predictor"] == "bad", "value"] = 0.5
    with pytest.raises(InputError, match="same on every topic"):
        irstats.qpp_correlations(pred, obs)
