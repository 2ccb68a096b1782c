"""The intervals of a comparison's means (irscale.stats.pair_intervals, irscale compare --ci,
Evaluation.compare(interval=)): each system's mean and every pair's paired difference, the
t interval equal to scipy's ``t.interval`` on the per-topic values (pytrec_eval's on real
runs), the bootstrap percentile interval within the Monte Carlo error of scipy's paired
``bootstrap``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.stats import anova, pairwise_tests
from irscale.stats.pair_intervals import with_mean_intervals

from .conftest import CLEF, pytrec_per_topic, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def _t(x: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    return stats.t.interval(level, len(x) - 1, loc=x.mean(), scale=stats.sem(x))


@pytest.fixture(scope="module")
def scores() -> tuple[np.ndarray, ScoreMatrix]:
    values = np.random.default_rng(11).beta(2, 5, size=(40, 4))
    values[:, 3] = np.clip(values[:, 0] + np.random.default_rng(12).normal(0.05, 0.1, 40),
                           0, 1)
    return values, ScoreMatrix.from_array(values, systems=["w", "x", "y", "z"])


@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_t_intervals_equal_scipy(scores, alpha):
    values, matrix = scores
    found = with_mean_intervals(pairwise_tests(matrix, "wilcoxon", alpha=alpha), matrix,
                                "t").to_frame()
    column = {s: k for k, s in enumerate(matrix.systems)}
    assert len(found) == 6
    for row in found.itertuples():
        a, b = values[:, column[row.a]], values[:, column[row.b]]
        level = 1 - alpha
        assert (row.mean_a_low, row.mean_a_high) == pytest.approx(_t(a, level), abs=1e-12)
        assert (row.mean_b_low, row.mean_b_high) == pytest.approx(_t(b, level), abs=1e-12)
        assert (row.diff_low, row.diff_high) == pytest.approx(_t(a - b, level), abs=1e-12)


def test_bootstrap_intervals_agree_with_scipy_paired(scores):
    # Monte Carlo error of a 2.5% quantile of B = 50,000 means, each side: about 0.012
    # standard errors of the mean; the tolerance is 4 standard deviations of the difference
    values, matrix = scores
    found = with_mean_intervals(pairwise_tests(matrix, baseline="w"), matrix, "bootstrap",
                                samples=50_000, rng=4).to_frame()
    column = {s: k for k, s in enumerate(matrix.systems)}
    for row in found.itertuples():
        a, b = values[:, column[row.a]], values[:, column[row.b]]
        theirs = stats.bootstrap((a, b), lambda x, y, axis=-1: np.mean(x - y, axis=axis),
                                 paired=True, n_resamples=50_000, method="percentile",
                                 random_state=9).confidence_interval
        spread = (a - b).std(ddof=1) / np.sqrt(len(a))
        assert row.diff_low == pytest.approx(theirs.low, abs=0.07 * spread)
        assert row.diff_high == pytest.approx(theirs.high, abs=0.07 * spread)
        alone = stats.bootstrap((a,), np.mean, n_resamples=50_000, method="percentile",
                                random_state=9).confidence_interval
        spread = a.std(ddof=1) / np.sqrt(len(a))
        assert row.mean_a_low == pytest.approx(alone.low, abs=0.07 * spread)
        assert row.mean_a_high == pytest.approx(alone.high, abs=0.07 * spread)
    # the baseline has one interval whatever its pair (one set of draws)
    assert found["mean_b_low"].nunique() == 1 and found["mean_b_high"].nunique() == 1


def test_tukey_hsd_and_refusals(scores):
    values, matrix = scores
    found = with_mean_intervals(anova(matrix, "topic+system").tukey_hsd(), matrix,
                                "t").to_frame()
    first = found.iloc[0]
    assert (first["diff_low"], first["diff_high"]) == pytest.approx(
        _t(values[:, 0] - values[:, 1]), abs=1e-12)
    ranked = anova(matrix, "topic+system", transform="rank").tukey_hsd()
    with pytest.raises(ParameterError, match="not the means of the scores"):
        with_mean_intervals(ranked, matrix)
    with pytest.raises(ParameterError, match="must be one of"):
        with_mean_intervals(pairwise_tests(matrix), matrix, "normal")


@pytest.fixture(scope="module")
def clef_values():
    clef = require(CLEF)
    paths = sorted(str(p) for p in (clef / "runs").iterdir())[:3]
    _, found = pytrec_per_topic(clef / "task2.qrels", paths, {"map"})
    values = [np.array([f[t]["map"] for t in sorted(f)]) for f in found]
    return clef, paths, values


def test_command_line_every_format(clef_values, tmp_path, capsys):
    clef, paths, values = clef_values
    out = tmp_path / "pairs.csv"
    assert main(["compare", "--test", "t", str(clef / "task2.qrels"), *paths, "-m", "map",
                 "--ci", "t", "--alpha", "0.1", "--format", "csv", "-o", str(out)]) == 0
    printed = pd.read_csv(out)
    assert len(printed) == 3
    for row, (i, j) in zip(printed.itertuples(), [(0, 1), (0, 2), (1, 2)], strict=True):
        assert (row.mean_a_low, row.mean_a_high) == pytest.approx(_t(values[i], 0.9), abs=1e-9)
        assert (row.mean_b_low, row.mean_b_high) == pytest.approx(_t(values[j], 0.9), abs=1e-9)
        assert (row.diff_low, row.diff_high) == pytest.approx(_t(values[i] - values[j], 0.9),
                                                              abs=1e-9)
    assert main(["compare", str(clef / "task2.qrels"), *paths, "-m", "map", "--ci",
                 "bootstrap", "--ci-samples", "500", "--ci-seed", "2", "--format", "json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    assert {"mean_a_low", "mean_b_high", "diff_low", "diff_high"} <= set(pairs[0])
    for fmt, header in (("text", "CI diff"), ("markdown", "| CI a |"), ("latex", "CI b &")):
        assert main(["compare", str(clef / "task2.qrels"), *paths, "-m", "map", "--ci", "t",
                     "--format", fmt]) == 0
        text = capsys.readouterr().out
        assert header in text and "95% t intervals" in text.replace("\\%", "%")
        low, high = _t(values[0])
        assert f"[{low:.4f}, {high:.4f}]" in text


def test_evaluation_compare(clef_values):
    clef, paths, values = clef_values
    evaluation = irscale.evaluate(clef / "task2.qrels", paths, ["map"])
    comparison = evaluation.compare(evaluation.runs[0], interval="t")
    frame = comparison.to_frame()
    for row, k in zip(frame.itertuples(), (1, 2), strict=True):
        assert (row.baseline_mean_low, row.baseline_mean_high) == pytest.approx(
            _t(values[0]), abs=1e-9)
        assert (row.run_mean_low, row.run_mean_high) == pytest.approx(_t(values[k]), abs=1e-9)
        assert (row.delta_low, row.delta_high) == pytest.approx(_t(values[k] - values[0]),
                                                                abs=1e-9)
    low, high = _t(values[2])
    for fmt in ("markdown", "latex", "html"):
        assert f"[{low:.4f}, {high:.4f}]" in comparison.format(fmt) if fmt != "html" \
            else f"[{low:.4f}, {high:.4f}]" in comparison._repr_html_()
    assert "95% t interval" in comparison.format("markdown")
    assert "delta_low" not in evaluation.compare(evaluation.runs[0]).to_frame()
