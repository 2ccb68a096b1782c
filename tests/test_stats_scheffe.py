"""Scheffé's method for all contrasts: the one-way form against scikit-posthocs'
``posthoc_scheffe``, the two-way (topic-blocked) form against the F-based formula computed
here by hand, and ``irscale compare --test scheffe``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from irscale.core import ScoreMatrix
from irscale.stats import scheffe, tukey_hsd

from .oracle_imports import lazy_import, lazy_importorskip

sps = lazy_import("scipy.stats")
posthocs = lazy_importorskip("scikit_posthocs")


def table(seed: int = 3, topics: int = 15, systems: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((topics, 1)) + np.linspace(0, 0.3, systems)[None, :]
            + rng.normal(0, 0.1, (topics, systems)))


def matrix(values: np.ndarray) -> ScoreMatrix:
    names = [f"s{k}" for k in range(values.shape[1])]
    return ScoreMatrix.from_wide(pd.DataFrame(values, columns=names,
                                              index=[f"t{k}" for k in range(len(values))]))


def test_one_way_equals_scikit_posthocs():
    """After the one-way model (MD1) every pair's p-value is posthoc_scheffe's."""
    values = table()
    long = pd.DataFrame({"g": np.tile([f"s{k}" for k in range(values.shape[1])], len(values)),
                         "v": values.ravel()})
    expected = posthocs.posthoc_scheffe(long, val_col="v", group_col="g")
    result = scheffe(matrix(values), "system")
    for a, b, p in zip(result.columns["a"], result.columns["b"], result.columns["p"],
                       strict=True):
        assert p == pytest.approx(expected.loc[a, b], rel=1e-9, abs=1e-14)


def test_two_way_by_hand():
    """After MD2 (the default, Tukey's error term): F_c = ĉ² / (MS_E Σc² / n) / (k − 1)
    with the two-way residual mean square on (n − 1)(k − 1) df, p = F.sf, the simultaneous
    interval ĉ ± sqrt((k − 1) F^α) sqrt(MS_E Σc² / n)."""
    values = table(seed=5, topics=12, systems=5)
    n, k = values.shape
    residual = (values - values.mean(axis=0) - values.mean(axis=1, keepdims=True)
                + values.mean())
    df = (n - 1) * (k - 1)
    mse = (residual**2).sum() / df
    result = scheffe(matrix(values), alpha=0.1)
    i, j = np.triu_indices(k, 1)
    diff = values.mean(axis=0)[i] - values.mean(axis=0)[j]
    f = diff**2 / (mse * 2 / n) / (k - 1)
    critical = sps.f.isf(0.1, k - 1, df)
    half = np.sqrt((k - 1) * critical) * np.sqrt(mse * 2 / n)
    np.testing.assert_allclose(result.columns["diff"], diff, rtol=1e-12)
    np.testing.assert_allclose(result.columns["statistic"], f, rtol=1e-9)
    np.testing.assert_allclose(result.columns["p"], sps.f.sf(f, k - 1, df), rtol=1e-9)
    np.testing.assert_allclose(result.columns["ci_low"], diff - half, rtol=1e-9)
    np.testing.assert_allclose(result.columns["ci_high"], diff + half, rtol=1e-9)
    assert np.array_equal(result.columns["significant"], f > critical)
    assert result.critical_value == pytest.approx(critical)


def test_wider_than_tukey():
    """Scheffé covers every contrast: its intervals of the pairs are wider than Tukey's."""
    values = matrix(table(seed=7))
    s, t = scheffe(values), tukey_hsd(values)
    assert np.all(s.columns["ci_high"] - s.columns["ci_low"]
                  > t.columns["ci_high"] - t.columns["ci_low"])


def test_compare_cli(tmp_path, capsys):
    """``compare --test scheffe`` prints the same p-values as the API."""
    from irscale.cli.main import main

    values = table(seed=9)
    path = tmp_path / "ap.csv"
    frame = pd.DataFrame(values, columns=[f"s{k}" for k in range(values.shape[1])])
    frame.insert(0, "topic", [f"t{k}" for k in range(len(values))])
    frame.to_csv(path, index=False)
    assert main(["compare", "--scores", str(path), "--test", "scheffe", "--format",
                 "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = scheffe(matrix(values))
    pairs = out["pairs"] if isinstance(out, dict) and "pairs" in out else out
    got = sorted(row["p"] for row in pairs)
    np.testing.assert_allclose(got, sorted(expected.columns["p"]), rtol=1e-6)
