"""G-studies and D-studies: the variance components against statsmodels' ANOVA (expected
mean squares solved by hand) and MixedLM (REML, crossed random effects), Ferro & Maistro's
Table 1 of TREC-8 AP, brute-force D-studies and topic counts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.stats import ShardScores, gstudy


def table(seed: int, topics: int = 15, systems: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.normal(0.4, 0.15, (topics, 1)) + rng.normal(0, 0.05, (1, systems))
            + rng.normal(0, 0.08, (topics, systems)))


def cube(seed: int, topics: int = 10, systems: int = 5, variants: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shape = (topics, systems, variants)
    return (rng.normal(0, 0.15, (topics, 1, 1)) + rng.normal(0, 0.06, (1, systems, 1))
            + rng.normal(0, 0.02, (1, 1, variants)) + rng.normal(0, 0.05, (topics, 1, variants))
            + rng.normal(0, 0.03, (topics, systems, 1)) + rng.normal(0, 0.07, shape))


def long(values: np.ndarray) -> pd.DataFrame:
    index = np.indices(values.shape)
    names = ["t", "s", "q"][: values.ndim]
    frame = pd.DataFrame({n: i.ravel() for n, i in zip(names, index, strict=False)})
    return frame.assign(y=values.ravel())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_facet_components_solve_statsmodels_mean_squares(seed):
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    values = table(seed)
    t, s = values.shape
    ms = anova_lm(smf.ols("y ~ C(t) + C(s)", long(values)).fit())["mean_sq"]
    # E[MS_s] = σ²_e + n_t σ²_s, E[MS_t] = σ²_e + n_s σ²_t, E[MS_E] = σ²_e
    expected = {"system": (ms["C(s)"] - ms["Residual"]) / t,
                "topic": (ms["C(t)"] - ms["Residual"]) / s, "system:topic": ms["Residual"]}
    result = gstudy(values)
    for effect, value in expected.items():
        assert result.variance(effect) == pytest.approx(max(value, 0), rel=1e-10)
    # Hoyt: with the G-study's own sizes Eρ² = 1 − MS_E/MS_s
    assert result.erho2 == pytest.approx(1 - ms["Residual"] / ms["C(s)"], rel=1e-10)


def test_three_facet_components_solve_statsmodels_mean_squares():
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    values = cube(3)
    nt, ns, nq = values.shape
    ms = anova_lm(smf.ols("y ~ C(t) + C(s) + C(q) + C(t):C(s) + C(t):C(q) + C(s):C(q)",
                          long(values)).fit())["mean_sq"]
    e = ms["Residual"]
    st = (ms["C(t):C(s)"] - e) / nq
    sq = (ms["C(s):C(q)"] - e) / nt
    tq = (ms["C(t):C(q)"] - e) / ns
    # Brennan (2001), Table 3.2: E[MS_s] = σ²_e + n_q σ²_st + n_t σ²_sq + n_t n_q σ²_s, ...
    expected = {
        "system": (ms["C(s)"] - e - nq * st - nt * sq) / (nt * nq),
        "topic": (ms["C(t)"] - e - nq * st - ns * tq) / (ns * nq),
        "variant": (ms["C(q)"] - e - nt * sq - ns * tq) / (ns * nt),
        "system:topic": st, "system:variant": sq, "topic:variant": tq,
        "system:topic:variant": e,
    }
    result = gstudy(ShardScores.from_array(values))
    frame = result.to_frame().set_index("effect")
    for effect, value in expected.items():
        key = effect + (",e" if effect == "system:topic:variant" else "")
        assert frame.loc[key, "estimate"] == pytest.approx(value, rel=1e-9, abs=1e-14)
        assert result.variance(effect) == pytest.approx(max(value, 0), rel=1e-9, abs=1e-14)
    # the relative and absolute errors at the G-study's own sizes, written out
    v = {k: max(x, 0) for k, x in expected.items()}
    rel = v["system:topic"] / nt + v["system:variant"] / nq + v["system:topic:variant"] / (nt * nq)
    absolute = rel + v["topic"] / nt + v["variant"] / nq + v["topic:variant"] / (nt * nq)
    assert result.erho2 == pytest.approx(v["system"] / (v["system"] + rel))
    assert result.phi == pytest.approx(v["system"] / (v["system"] + absolute))


@pytest.mark.filterwarnings("ignore:The MLE may be on the boundary")
def test_components_match_statsmodels_mixedlm_reml():
    sm = pytest.importorskip("statsmodels.api")
    values = table(4, topics=12, systems=5)
    frame = long(values).assign(group=1)
    fit = sm.MixedLM.from_formula("y ~ 1", frame, groups="group",
                                  vc_formula={"s": "0 + C(s)", "t": "0 + C(t)"},
                                  re_formula="0").fit(reml=True, method="lbfgs")
    names = list(fit.model.exog_vc.names)
    vcomp = dict(zip(names, fit.vcomp, strict=True))
    result = gstudy(values)
    assert result.variance("system") > 0 and result.variance("topic") > 0
    assert result.variance("system") == pytest.approx(vcomp["s"], rel=1e-3)
    assert result.variance("topic") == pytest.approx(vcomp["t"], rel=1e-3)
    assert result.variance("system:topic") == pytest.approx(fit.scale, rel=1e-3)


def test_trec8_components_from_ferro_maistro_table1(urbano):
    """Table 1 of Ferro & Maistro (2024), TREC-8 AP (50 topics, 129 runs): MS topic
    3.4285, MS system 0.4690, MS error 0.0136; the components solved by hand."""
    result = gstudy(ScoreMatrix.read_csv(urbano / "adhoc8_ap.csv"))
    assert result.sizes == (129, 50)
    assert result.variance("system") == pytest.approx((0.4690 - 0.0136) / 50, abs=2e-6)
    assert result.variance("topic") == pytest.approx((3.4285 - 0.0136) / 129, abs=2e-6)
    assert result.variance("system:topic") == pytest.approx(0.0136, abs=5e-5)
    assert result.erho2 == pytest.approx(1 - 0.0136 / 0.4690, abs=2e-4)  # 0.9710
    s, t, e = (0.4690 - 0.0136) / 50, (3.4285 - 0.0136) / 129, 0.0136
    assert result.phi == pytest.approx(s / (s + (t + e) / 50), abs=5e-4)  # 0.9191
    # the numbers docs/stats.md states
    assert (round(result.erho2, 3), round(result.phi, 3)) == (0.971, 0.919)
    assert (result.topics_for(0.95).n, result.topics_for(0.95, "phi").n) == (29, 84)


@pytest.mark.parametrize("make", [lambda: table(5), lambda: ShardScores.from_array(cube(6))])
def test_dstudy_at_own_sizes_is_the_gstudy(make):
    result = gstudy(make())
    n_topics = result.sizes[1]
    row = result.dstudy(n_topics).to_frame().iloc[0]
    assert row["erho2"] == pytest.approx(result.erho2, rel=1e-12)
    assert row["phi"] == pytest.approx(result.phi, rel=1e-12)
    grid = result.dstudy([1, 5, 50, 500]).to_frame()
    assert grid["erho2"].is_monotonic_increasing and grid["phi"].is_monotonic_increasing
    assert (grid["phi"] <= grid["erho2"] + 1e-15).all()


def test_dstudy_two_facet_closed_form():
    result = gstudy(table(7))
    s, t, e = (result.variance(x) for x in ("system", "topic", "system:topic"))
    frame = result.dstudy([10, 40]).to_frame()
    for n, row in zip((10, 40), frame.itertuples(), strict=True):
        assert row.n_topic == n
        assert row.relative_error == pytest.approx(e / n)
        assert row.absolute_error == pytest.approx((t + e) / n)
        assert row.erho2 == pytest.approx(s / (s + e / n))
        assert row.phi == pytest.approx(s / (s + (t + e) / n))


@pytest.mark.parametrize("coefficient", ["erho2", "phi"])
@pytest.mark.parametrize("target", [0.5, 0.8, 0.9, 0.95, 0.99])
def test_topics_for_is_the_smallest_by_brute_force(coefficient, target):
    for result, n_facet in ((gstudy(table(8)), None),
                            (gstudy(ShardScores.from_array(cube(9))), 2)):
        column = ["erho2", "phi"].index(coefficient)
        brute = next((n for n in range(1, 100_000)
                      if result.coefficients(n, n_facet)[column] >= target), None)
        if brute is None:  # the facet's error alone keeps the coefficient below the target
            with pytest.raises(InputError, match="no number of topics"):
                result.topics_for(target, coefficient, n_facet=n_facet)
            continue
        design = result.topics_for(target, coefficient, n_facet=n_facet)
        assert design.n == brute
        assert design.achieved >= target


def test_topics_for_two_facet_closed_form():
    result = gstudy(table(10))
    s, e = result.variance("system"), result.variance("system:topic")
    assert result.topics_for(0.9).n == math.ceil(0.9 / 0.1 * e / s - 1e-9)
    assert "Eρ²" in repr(result.topics_for(0.9))


def test_unreachable_target_and_bad_arguments():
    rng = np.random.default_rng(11)
    values = cube(11) + rng.normal(0, 0.3, (1, 5, 1)) + rng.normal(0, 0.3, (1, 5, 4))
    result = gstudy(ShardScores.from_array(values))
    assert result.variance("system:variant") > result.variance("system") / 3
    with pytest.raises(InputError, match="more levels of variant"):
        result.topics_for(0.95, n_facet=1)
    with pytest.raises(ParameterError, match="target"):
        result.topics_for(1.0)
    with pytest.raises(ParameterError, match="coefficient"):
        result.topics_for(0.5, "alpha")
    with pytest.raises(ParameterError, match="n_topics"):
        result.dstudy(0)
    with pytest.raises(ParameterError, match="n_facet"):
        gstudy(table(1)).dstudy(10, n_facet=3)
    no_system = np.add.outer(np.linspace(0, 1, 6), np.zeros(4)) + \
        np.random.default_rng(1).normal(0, 0.1, (6, 4))
    no_system -= no_system.mean(axis=0)  # every system mean equal: σ̂²_s < 0 → 0
    with pytest.raises(InputError, match="system variance component is 0"):
        gstudy(no_system).topics_for(0.8)


def test_rounding_noise_reads_as_zero_and_alike_systems_are_refused():
    topics = np.array([0.1, 0.3, 0.5, 0.7])[:, None]
    additive = topics + np.array([0.0, 0.1, 0.2])  # no interaction: MS_E is rounding only
    result = gstudy(additive)
    assert result.to_frame()["estimate"].iloc[-1] == 0.0
    assert result.erho2 == 1.0 and result.topics_for(0.99).n == 1
    with pytest.raises(InputError, match="score alike"):
        gstudy(topics + np.zeros(3))


def test_more_than_a_million_topics_is_refused():
    rng = np.random.default_rng(5)
    values = rng.normal(0, 1, (20, 4)) + np.array([0.0, 0.0, 0.0, 0.05])
    result = gstudy(values)
    s, e = result.variance("system"), result.variance("system:topic")
    if s <= 0:
        pytest.skip("the drawn system variance is 0")
    target = 1 - 1e-9
    assert target / (1 - target) * e / s > 1e6
    with pytest.raises(InputError, match="more than 1,000,000 topics"):
        result.topics_for(target)


def test_incomplete_or_degenerate_scores_are_refused():
    values = cube(12)
    values[1, 2, 3] = np.nan
    with pytest.raises(InputError, match="every cell"):
        gstudy(ShardScores.from_array(values))
    with pytest.raises(InputError):
        gstudy(np.ones((5, 3)))
    missing = table(1)
    missing[0, 0] = np.nan
    with pytest.raises(InputError):
        gstudy(missing)
    with pytest.raises(ParameterError, match="facet"):
        gstudy(table(1), facet="topic")


def test_formats_and_named_facet():
    result = gstudy(ShardScores.from_array(cube(13)), facet="assessor")
    assert result.factors == ("system", "topic", "assessor")
    assert "assessor" in result.format("text")
    frame = result.dstudy(20, n_facet=[1, 3]).to_frame()
    assert list(frame["n_assessor"]) == [1, 3]
    assert result.to_frame()["share"].sum() == pytest.approx(1.0)


def test_command_line_prints_the_api_numbers(urbano):
    """``irscale meta gstudy --format csv``: the components, the D-study and the topic
    counts of the API, in three CSV sections."""
    import io

    from .test_cli_eval import cli

    path = urbano / "adhoc8_ap.csv"
    status, out, err = cli(["meta", "gstudy", "--scores", str(path), "--topics", "25,50",
                            "--target", "0.95", "--format", "csv"])
    assert status == 0, err
    components, dstudy, needed = (pd.read_csv(io.StringIO(part))
                                  for part in out.strip().split("\n\n"))
    result = gstudy(ScoreMatrix.read_csv(path))
    pd.testing.assert_frame_equal(components, result.to_frame(), check_dtype=False)
    pd.testing.assert_frame_equal(dstudy, result.dstudy([25, 50]).to_frame(),
                                  check_dtype=False)
    assert list(needed["n"]) == [29, 84]
