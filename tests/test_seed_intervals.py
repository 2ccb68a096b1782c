"""The interval of a system's mean over topics and its runs, and of the difference of two
systems' means (irscale.stats.seed_intervals, SeedEvaluation.to_frame(interval=) and
differences(), irscale eval-seeds --ci [--pairs]): the mean squares of the topics × runs
tables are statsmodels' two-way ANOVA's, one run gives scipy's t interval over topics (of
the paired differences), and simulations with a fixed seed (topic, run and residual
components, normal) show the coverage of the level, where an interval over topics alone
falls short."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.core.mean_intervals import mean_intervals
from irscale.stats.seed_intervals import difference_intervals, seed_intervals

from .conftest import CLEF, pytrec_per_topic, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

smf = lazy_import("statsmodels.formula.api")
sm_anova = lazy_import("statsmodels.stats.anova")


def _mean_squares(y: np.ndarray) -> tuple[float, float, float]:
    """MS_T, MS_R, MS_E of the topics × runs table ``y``, by statsmodels."""
    n, k = y.shape
    long = pd.DataFrame({"value": y.ravel(), "topic": np.repeat(np.arange(n), k).astype(str),
                         "run": np.tile(np.arange(k), n).astype(str)})
    table = sm_anova.anova_lm(smf.ols("value ~ C(topic) + C(run)", long).fit())
    ms = table["sum_sq"] / table["df"]
    return ms["C(topic)"], ms["C(run)"], ms["Residual"]


def _difference_oracle(a: np.ndarray, b: np.ndarray, alpha: float = 0.05
                       ) -> tuple[float, float]:
    """The interval of mean(a) − mean(b): the variance of the topics' differences of run
    averages over n, plus each system's run component from statsmodels' mean squares,
    Satterthwaite's df."""
    n = a.shape[0]
    z = a.mean(axis=1) - b.mean(axis=1)
    variance, spread = z.var(ddof=1) / n, (z.var(ddof=1) / n) ** 2 / (n - 1)
    for y in (a, b):
        k = y.shape[1]
        _, ms_r, ms_e = _mean_squares(y)
        if ms_r > ms_e:
            variance += (ms_r - ms_e) / (n * k)
            spread += (ms_r / (n * k)) ** 2 / (k - 1) + (ms_e / (n * k)) ** 2 / ((n - 1) * (k - 1))
    half = stats.t.ppf(1 - alpha / 2, variance ** 2 / spread) * np.sqrt(variance)
    return z.mean() - half, z.mean() + half


def _oracle(y: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    """The interval from statsmodels' mean squares of the two-way (topic + run) ANOVA:
    V = (MS_T + max(MS_R − MS_E, 0))/(nK), Satterthwaite's df."""
    n, k = y.shape
    ms_t, ms_r, ms_e = _mean_squares(y)
    seeds = max(ms_r - ms_e, 0.0)
    df = (ms_t + seeds) ** 2 / (ms_t ** 2 / (n - 1) + ms_r ** 2 / (k - 1)
                                + ms_e ** 2 / ((n - 1) * (k - 1))) if seeds > 0 else n - 1
    half = stats.t.ppf(1 - alpha / 2, df) * np.sqrt((ms_t + seeds) / (n * k))
    return y.mean() - half, y.mean() + half


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_t_interval_equals_statsmodels_mean_squares(seed):
    rng = np.random.default_rng(seed)
    y = 0.3 + rng.normal(0, 0.1, (25, 1)) + rng.normal(0, 0.03 * seed, (1, 4)) \
        + rng.normal(0, 0.05, (25, 4))
    low, high = seed_intervals(y[:, :, None], "t", alpha=0.1)
    assert (low[0], high[0]) == pytest.approx(_oracle(y, 0.1), abs=1e-12)


def test_one_run_is_the_t_interval_over_topics():
    x = np.random.default_rng(4).beta(2, 5, 30)
    low, high = seed_intervals(x[:, None, None], "t")
    expected = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert (low[0], high[0]) == pytest.approx(expected, abs=1e-12)


def test_coverage_with_seed_variance():
    """Topic sd 0.1, run (seed) sd 0.05, residual sd 0.05, 30 topics: the t interval covers
    the mean near 95% (binomial 3-sd band for 400 draws: ±0.033), the interval over the
    topics' averages alone (the seed component left out) about 80%."""
    rng = np.random.default_rng(20261127)
    covered = {"t": 0, "bootstrap": 0, "topics": 0}
    draws = 400
    for draw in range(draws):
        y = 0.4 + rng.normal(0, 0.1, (30, 1)) + rng.normal(0, 0.05, (1, 8)) \
            + rng.normal(0, 0.05, (30, 8))
        for method in ("t", "bootstrap") if draw < 150 else ("t",):
            low, high = seed_intervals(y[:, :, None], method, samples=500, rng=rng)
            covered[method] += bool(low[0] <= 0.4 <= high[0])
        low, high = mean_intervals(y.mean(axis=1), "t")
        covered["topics"] += bool(low[0] <= 0.4 <= high[0])
    assert covered["t"] / draws >= 0.95 - 0.033
    assert covered["bootstrap"] / 150 >= 0.85
    assert covered["topics"] / draws < 0.88


def _pytrec_map(clef, paths) -> np.ndarray:
    """pytrec_eval's AP of every qrels topic (0 where a run has none) × run."""
    qrels, found = pytrec_per_topic(clef / "task2.qrels", paths, {"map"})
    return np.array([[f[t]["map"] if t in f else 0.0 for t in qrels] for f in found]).T


def test_command_line(tmp_path):
    clef = require(CLEF)
    guir = [clef / "runs" / f"GUIR_EN_Run{k}.txt" for k in (1, 2, 3)]
    ecnu = [clef / "runs" / f"ecnu_EN_Run{k}.txt" for k in (1, 2)]
    out = tmp_path / "seeds.csv"
    systems = ["--system", "GUIR=" + ",".join(map(str, guir)),
               "--system", "ecnu=" + ",".join(map(str, ecnu))]
    assert main(["eval-seeds", str(clef / "task2.qrels"), *systems, "-m", "map", "--ci",
                 "t", "--format", "csv", "-o", str(out)]) == 0
    a, b = _pytrec_map(clef, guir), _pytrec_map(clef, ecnu)
    row = pd.read_csv(out).iloc[0]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_oracle(a), abs=1e-12)
    pairs = tmp_path / "pairs.csv"
    assert main(["eval-seeds", str(clef / "task2.qrels"), *systems, "-m", "map", "--ci",
                 "t", "--pairs", "--format", "csv", "-o", str(pairs)]) == 0
    row = pd.read_csv(pairs).iloc[0]
    assert (row["measure"], row["a"], row["b"]) == ("map", "GUIR", "ecnu")
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_difference_oracle(a, b),
                                                            abs=1e-12)


@pytest.mark.parametrize("seed", [5, 6])
def test_difference_interval_equals_the_oracle(seed):
    rng = np.random.default_rng(seed)
    topics = rng.normal(0, 0.1, (25, 1))
    a = 0.3 + topics + rng.normal(0, 0.04, (1, 5)) + rng.normal(0, 0.05, (25, 5))
    b = 0.25 + topics + rng.normal(0, 0.02, (1, 3)) + rng.normal(0, 0.05, (25, 3))
    low, high = difference_intervals(a[:, :, None], b[:, :, None], "t", alpha=0.1)
    assert (low[0], high[0]) == pytest.approx(_difference_oracle(a, b, 0.1), abs=1e-12)


def test_one_run_each_is_the_paired_t_interval():
    rng = np.random.default_rng(7)
    x, y = rng.beta(2, 5, 30), rng.beta(2, 4, 30)
    low, high = difference_intervals(x[:, None, None], y[:, None, None], "t")
    d = x - y
    expected = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert (low[0], high[0]) == pytest.approx(expected, abs=1e-12)


def test_difference_coverage_with_seed_variance():
    """Two systems of equal mean, 30 topics, 6 runs each, run sd 0.04: the t interval of
    the difference covers 0 near 95% (±0.033, 3 sd of 400 draws); the paired t interval on
    the topics' differences of run averages (seeds left out) far less often."""
    rng = np.random.default_rng(20261128)
    covered = {"t": 0, "bootstrap": 0, "topics": 0}
    draws = 400
    for draw in range(draws):
        topics = rng.normal(0, 0.1, (30, 1))
        a = 0.4 + topics + rng.normal(0, 0.04, (1, 6)) + rng.normal(0, 0.05, (30, 6))
        b = 0.4 + topics + rng.normal(0, 0.04, (1, 6)) + rng.normal(0, 0.05, (30, 6))
        for method in ("t", "bootstrap") if draw < 150 else ("t",):
            low, high = difference_intervals(a[:, :, None], b[:, :, None], method,
                                             samples=500, rng=rng)
            covered[method] += bool(low[0] <= 0 <= high[0])
        low, high = mean_intervals(a.mean(axis=1) - b.mean(axis=1), "t")
        covered["topics"] += bool(low[0] <= 0 <= high[0])
    assert covered["t"] / draws >= 0.95 - 0.033
    assert covered["bootstrap"] / 150 >= 0.85
    assert covered["topics"] / draws < 0.8
