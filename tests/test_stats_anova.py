"""ANOVA models, rank tests and Tukey's HSD: Ferro & Maistro (2024), Table 1, scipy and
statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.stats import (
    anova,
    anova_oneway,
    anova_twoway,
    friedman,
    kruskal_wallis,
    paired_t,
    student_t,
    tukey_hsd,
)
from irscale.stats._ptukey import _quadrature_sf, tukey_sf

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def random_table(seed: int, topics: int = 12, systems: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    topic = rng.random((topics, 1))
    system = np.linspace(0, 0.2, systems)[None, :]
    return np.clip(topic + system + rng.normal(0, 0.1, (topics, systems)), 0, 1)


def long_frame(values: np.ndarray) -> pd.DataFrame:
    t, s = np.indices(values.shape)
    return pd.DataFrame({"topic": t.ravel(), "system": s.ravel(), "y": values.ravel()})


# --------------------------------------------------------------------------- Ferro & Maistro (2024)
@pytest.fixture
def trec8(urbano):
    return ScoreMatrix.read_csv(urbano / "adhoc8_ap.csv")


def test_trec8_two_way_anova_reproduces_seed004_table1(trec8):
    result = anova_twoway(trec8)
    topic, system, error = result.row("topic"), result.row("system"), result.row("error")
    # Table 1 of Ferro & Maistro (2024) (SS topic 167.9974 there; 167.998 from the 4-decimal CSV)
    assert topic.ss == pytest.approx(167.998, abs=5e-4)
    assert system.ss == pytest.approx(60.0299, abs=5e-4)
    assert error.ss == pytest.approx(85.3502, abs=5e-4)
    assert (topic.df, system.df, error.df) == (49, 128, 6272)
    assert topic.ms == pytest.approx(3.4285, abs=5e-5)
    assert system.ms == pytest.approx(0.4690, abs=5e-5)
    assert error.ms == pytest.approx(0.0136, abs=5e-5)
    assert topic.f == pytest.approx(251.95, abs=5e-3)
    assert system.f == pytest.approx(34.46, abs=5e-3)
    assert topic.omega2 == pytest.approx(0.6559, abs=5e-5)
    assert system.omega2 == pytest.approx(0.3991, abs=5e-5)
    assert topic.p < 1e-300 and system.p < 1e-300
    assert result.row("total").df == 6449


def test_trec8_tukey_hsd_reproduces_seed004(trec8):
    hsd = tukey_hsd(trec8, "topic+system", alpha=0.05)
    assert len(hsd) == 8256
    assert hsd.n_significant == 3423  # Ferro & Maistro (2024), §4.2.6
    assert hsd.half_width == pytest.approx(0.0515, abs=5e-5)
    # eq. (9) and eq. (10) agree: |tk| > Q  <=>  p <= alpha
    assert np.array_equal(hsd.significant, hsd.pvalue <= 0.05)
    # eq. (11): significant exactly when the per-system intervals do not overlap
    low = hsd.columns["mean_a"] - hsd.half_width
    high = hsd.columns["mean_a"] + hsd.half_width
    other_low = hsd.columns["mean_b"] - hsd.half_width
    other_high = hsd.columns["mean_b"] + hsd.half_width
    overlap = (low <= other_high) & (other_low <= high)
    assert np.array_equal(hsd.significant, ~overlap)


# --------------------------------------------------------------------------- references
@pytest.mark.parametrize("seed", [0, 1])
def test_two_way_anova_matches_statsmodels(seed):
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    values = random_table(seed)
    ref = anova_lm(smf.ols("y ~ C(topic) + C(system)", long_frame(values)).fit())
    got = anova_twoway(values)
    for ours, theirs in (("topic", "C(topic)"), ("system", "C(system)"), ("error", "Residual")):
        row = got.row(ours)
        assert row.ss == pytest.approx(ref.loc[theirs, "sum_sq"], rel=1e-10)
        assert row.df == ref.loc[theirs, "df"]
        if ours != "error":
            assert row.f == pytest.approx(ref.loc[theirs, "F"], rel=1e-10)
            assert row.p == pytest.approx(ref.loc[theirs, "PR(>F)"], rel=1e-8)
    total = got.row("total").ss
    for row in got.rows[:2]:
        assert row.eta2 == pytest.approx(row.ss / total)
        assert row.partial_eta2 == pytest.approx(row.ss / (row.ss + got.row("error").ss))
        # eq. (8) is the partial ω² written with sums of squares
        ms_e = got.ms_error
        assert row.omega2 == pytest.approx(
            (row.ss - row.df * ms_e) / (row.ss + (got.n_obs - row.df) * ms_e))
        assert row.omega2_total == pytest.approx((row.ss - row.df * ms_e) / (total + ms_e))


def test_one_way_anova_matches_f_oneway():
    values = random_table(2)
    ref = stats.f_oneway(*values.T)
    got = anova_oneway(values).row("system")
    assert got.f == pytest.approx(ref.statistic, rel=1e-12)
    assert got.p == pytest.approx(ref.pvalue, rel=1e-10)


def test_one_way_tukey_matches_scipy_tukey_hsd():
    values = random_table(3, topics=10, systems=6)
    ref = stats.tukey_hsd(*values.T)
    ci = ref.confidence_interval(0.95)
    got = tukey_hsd(values, "system")
    i, j = np.triu_indices(6, k=1)
    assert got.pvalue == pytest.approx(ref.pvalue[i, j], rel=1e-6, abs=1e-12)
    assert got.columns["ci_low"] == pytest.approx(ci.low[i, j], rel=1e-8)
    assert got.columns["ci_high"] == pytest.approx(ci.high[i, j], rel=1e-8)


def test_tukey_with_two_systems_reduces_to_the_t_tests():
    # k = 2: Q = sqrt(2)|t|, so the HSD p-values are the t-tests' (paired for MD2)
    values = random_table(4, topics=15, systems=2)
    x, y = values.T
    assert tukey_hsd(values, "topic+system").pvalue[0] == pytest.approx(
        paired_t(x, y).pvalue, rel=1e-6)
    assert tukey_hsd(values, "system").pvalue[0] == pytest.approx(
        student_t(x, y).pvalue, rel=1e-6)


def test_paired_hsd_uses_the_topic_blocked_error():
    values = random_table(5, topics=20, systems=4)
    paired = tukey_hsd(values, "topic+system")
    unpaired = tukey_hsd(values, "system")
    # topic variance removed from the error: narrower intervals, more power
    assert paired.half_width < unpaired.half_width
    assert paired.n_significant >= unpaired.n_significant
    assert paired.extra["df"] == (20 - 1) * (4 - 1)


def test_rank_tests_match_scipy():
    values = np.round(random_table(6, topics=15, systems=5) * 16) / 16  # with ties
    kw = kruskal_wallis(values)
    ref = stats.kruskal(*values.T)
    assert kw.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert kw.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    fr = friedman(values)
    ref = stats.friedmanchisquare(*values.T)
    assert fr.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert fr.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_tukey_after_friedman_is_the_nemenyi_test():
    rng = np.random.default_rng(7)
    values = rng.random((30, 5)) + np.linspace(0, 0.3, 5)  # continuous: no ties
    hsd = tukey_hsd(values, "friedman")
    n, k = values.shape
    ranks = stats.rankdata(values, axis=1).mean(axis=0)
    i, j = np.triu_indices(k, k=1)
    q = np.abs(ranks[i] - ranks[j]) / np.sqrt(k * (k + 1) / (12 * n))
    assert hsd.columns["diff"] == pytest.approx(ranks[i] - ranks[j])
    assert hsd.pvalue == pytest.approx(stats.studentized_range.sf(q, k, np.inf), rel=1e-6)
    kw = tukey_hsd(values, "kruskal-wallis")
    assert len(kw) == len(hsd) and kw.extra["df"] == np.inf


def test_fake_models_declare_every_nonzero_difference_significant():
    values = random_table(8)
    values[:, 4] = values[:, 3]  # two identical systems
    fake = tukey_hsd(values, "MD2f")
    real = tukey_hsd(values, "MD2")
    assert fake.n_significant == len(fake) - 1
    assert np.array_equal(fake.columns["diff"], real.columns["diff"])
    same = (fake.columns["a"] == "s4") & (fake.columns["b"] == "s5")
    assert fake.pvalue[same] == [1.0] and np.all(fake.pvalue[~same] == 0.0)


@pytest.mark.parametrize(("k", "df"), [(3, 150), (20, 1500), (129, 6272)])
def test_fast_studentized_range_matches_scipy(k, df):
    q = np.concatenate([stats.studentized_range.ppf([0.5, 0.95, 0.999], k, df),
                        np.linspace(0.5, 8, 9)])
    theirs = stats.studentized_range.sf(q, k, df)
    assert _quadrature_sf(q, k, df) == pytest.approx(theirs, rel=2e-5, abs=1e-10)
    many = np.linspace(0.1, 9, 80)  # more than 64 values: tukey_sf takes the quadrature
    assert np.array_equal(tukey_sf(many, k, df), _quadrature_sf(many, k, df))


# --------------------------------------------------------------------------- inputs/outputs
def test_bad_inputs():
    with pytest.raises(InputError, match="constant"):
        anova_twoway(np.full((5, 3), 0.5))
    with pytest.raises(InputError, match="at least 2 systems"):
        anova_twoway(np.ones((5, 1)))
    with pytest.raises(InputError, match="at least 2 topics"):
        anova_twoway(np.array([[0.1, 0.2, 0.3]]))
    with pytest.raises(InputError, match="non-finite"):
        anova_twoway(np.array([[0.1, np.nan], [0.2, 0.3]]))
    with pytest.raises(ParameterError, match="unknown factor"):
        anova(random_table(9), "topic+shard")
    with pytest.raises(ParameterError, match="no degrees of freedom"):
        anova(random_table(9), "topic+system+topic:system")
    with pytest.raises(ParameterError, match="model: unknown model 'nope'"):
        tukey_hsd(random_table(9), "nope")
    # a formula, as compare --model takes it (the named models alone were taken before)
    assert tukey_hsd(random_table(9), "topic + system").columns["p"].size == 10  # 5 systems
    with pytest.raises(ParameterError, match=r"transform= applies without model='friedman'"):
        tukey_hsd(random_table(9), "friedman", transform="rank")


def test_tables_render_in_every_format():
    result = anova_twoway(random_table(10))
    hsd = result.tukey_hsd()
    assert "ω²" in result.format("text") and "$\\omega^2$" in result.format("latex")
    assert result.format("markdown").count("\n|") >= 5
    assert result.format("csv").splitlines()[0].startswith("factor,ss,df,ms,f,p,omega2")
    assert set(result.json_rows()[0]) == {"factor", "ss", "df", "ms", "f", "p", "omega2"}
    frame = hsd.to_frame()
    assert {"a", "b", "diff", "ci_low", "ci_high", "p", "significant"} <= set(frame.columns)
    text = hsd.format("text")
    assert "critical value" in text and "CI of a pair's difference: diff ± " in text
    assert "comparison interval of a system (eq. 11): mean ± " in text
    marked = hsd.format("latex")
    assert ("$^{***}$" in marked) == bool((hsd.pvalue <= 0.001).any())
    assert repr(result).startswith("AnovaResult(")
