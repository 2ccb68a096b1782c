"""The interval of a system's mean over topics and its runs (irscale.stats.seeds.
seed_intervals, SeedEvaluation.to_frame(interval=), irscale eval-seeds --ci): the mean
squares of the topics × runs table are statsmodels' two-way ANOVA's, one run gives scipy's
t interval over topics, and a simulation with a fixed seed (topic, run and residual
components, normal) shows the coverage of the level, where an interval over topics alone
falls short."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.anova import anova_lm

from irscale.cli.main import main
from irscale.core.mean_intervals import mean_intervals
from irscale.stats.seeds import seed_intervals

from .conftest import CLEF, require


def _oracle(y: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    """The interval from statsmodels' mean squares of the two-way (topic + run) ANOVA:
    V = (MS_T + max(MS_R − MS_E, 0))/(nK), Satterthwaite's df."""
    n, k = y.shape
    long = pd.DataFrame({"value": y.ravel(), "topic": np.repeat(np.arange(n), k).astype(str),
                         "run": np.tile(np.arange(k), n).astype(str)})
    table = anova_lm(smf.ols("value ~ C(topic) + C(run)", long).fit())
    ms = table["sum_sq"] / table["df"]
    ms_t, ms_r, ms_e = ms["C(topic)"], ms["C(run)"], ms["Residual"]
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


def test_command_line(tmp_path):
    clef = require(CLEF)
    qrels: dict[str, dict[str, int]] = {}
    for line in open(clef / "task2.qrels"):
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    paths = [clef / "runs" / f"GUIR_EN_Run{k}.txt" for k in (1, 2, 3)]
    columns = []
    for path in paths:
        run: dict[str, dict[str, float]] = {}
        for line in open(path):
            t, _, d, _, s, _ = line.split()
            run.setdefault(t, {})[d] = float(s)
        found = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
        columns.append([found[t]["map"] if t in found else 0.0 for t in qrels])
    out = tmp_path / "seeds.csv"
    assert main(["eval-seeds", str(clef / "task2.qrels"), "--system",
                 "GUIR=" + ",".join(str(p) for p in paths), "-m", "map", "--ci", "t",
                 "--format", "csv", "-o", str(out)]) == 0
    row = pd.read_csv(out).iloc[0]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        _oracle(np.array(columns).T), abs=1e-12)
