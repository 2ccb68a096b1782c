"""Mixed models (irscale.stats.mixed_model) against statsmodels' MixedLM (REML and ML),
the ANOVA mean squares (balanced closed form), BinomialBayesMixedGLM and direct numerical
integration (the GLMM), and simulations that know the variance components."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import integrate, special

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.stats import ShardScores, adjust_pvalues, anova, mixed_model

from .oracle_imports import lazy_import, lazy_importorskip
from .property_examples import examples

sps = lazy_import("scipy.stats")

if TYPE_CHECKING:
    from statsmodels.regression.mixed_linear_model import MixedLMParams

sm = lazy_importorskip("statsmodels.api")
bayes_mixed_glm = lazy_importorskip("statsmodels.genmod.bayes_mixed_glm")
mixed_linear_model = lazy_importorskip("statsmodels.regression.mixed_linear_model")


def long_form(values: np.ndarray) -> pd.DataFrame:
    """The observed cells of a topics × systems (× shards) array, one row each."""
    index = np.nonzero(np.isfinite(values))
    frame = pd.DataFrame({"y": values[index], "topic": index[0], "system": index[1]})
    if values.ndim == 3:
        frame["shard"] = index[2]
    return frame


def statsmodels_fit(values: np.ndarray, reml: bool, vc: tuple[str, ...] = ()):
    """MixedLM with one mean per system (no intercept) and a random topic intercept
    (``vc`` empty), or crossed variance components ``vc`` in one group."""
    frame = long_form(values)
    frame["ts"] = frame["topic"] * 1000 + frame["system"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not vc:
            model = sm.MixedLM.from_formula("y ~ 0 + C(system)", frame, groups="topic")
        else:
            frame["one"] = 1
            formulas = {name: f"0 + C({'ts' if name == 'topic:system' else name})"
                        for name in vc}
            model = sm.MixedLM.from_formula("y ~ 0 + C(system)", frame, groups="one",
                                            vc_formula=formulas, re_formula="0")
        return model.fit(reml=reml)


def their_params(ours, names: tuple[str, ...]) -> MixedLMParams:
    """Our estimates as statsmodels' parameters (variances relative to the residual's)."""
    scale = ours.variance("residual")
    if not names:
        return mixed_linear_model.MixedLMParams.from_components(
            ours.estimates, cov_re=np.array([[ours.variance("topic") / scale]]))
    return mixed_linear_model.MixedLMParams.from_components(
        ours.estimates, cov_re=np.zeros((0, 0)),
        vcomp=np.array([ours.variance(n) / scale for n in names]))


def polish(ours, theirs):
    """statsmodels' fit started from our estimates (its default optimiser stops about 1e-4
    short of the optimum on some tables)."""
    model = theirs.model
    names = tuple(model.exog_vc.names) if model.k_vc else ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(reml=model.reml, start_params=their_params(ours, names))


def assert_ols(ours, model) -> None:
    """A variance component at 0: here the fit is least squares of one mean per system."""
    y, x = np.asarray(model.endog), np.asarray(model.exog)
    means, rss, _, _ = np.linalg.lstsq(x, y, rcond=None)
    np.testing.assert_allclose(ours.estimates, means, rtol=1e-9, atol=1e-12)
    dof = len(y) - len(means) if model.reml else len(y)
    assert ours.variance("residual") == pytest.approx(float(rss[0]) / dof, rel=1e-9)


def gls_cov(values: np.ndarray, terms: tuple[str, ...], variances: dict[str, float]
            ) -> np.ndarray:
    """(X'V⁻¹X)⁻¹ with V = σ² I + Σ σ²_k Z_k Z_k' built densely (lme4's and SAS's
    covariance of the fixed effects; statsmodels inverts the whole observed Hessian,
    which differs from it in unbalanced designs)."""
    frame = long_form(values)
    v = variances["residual"] * np.eye(len(frame))
    for term in terms:
        key = frame[term.split(":")].astype(str).agg("/".join, axis=1).to_numpy()
        v += variances[term] * (key[:, None] == key[None, :])
    x = np.eye(values.shape[1])[frame["system"]]
    return np.linalg.inv(x.T @ np.linalg.solve(v, x))


def assert_matches(ours, theirs, values: np.ndarray, rtol: float = 1e-5) -> None:
    """statsmodels' log-likelihood at our estimates is ours (1e-8), its own optimum is no
    higher, and its fit started from ours agrees on the fixed effects, the variance
    components and the log-likelihood; the standard errors are the GLS ones at its
    variance components."""
    model = theirs.model
    names = tuple(model.exog_vc.names) if model.k_vc else ()
    assert theirs.llf <= ours.loglik + 1e-6
    if min(v for _, v in ours.components) == 0.0:  # statsmodels' likelihood is inf there
        assert_ols(ours, model)
        return
    start = their_params(ours, names)
    assert model.loglike(start, profile_fe=False) == pytest.approx(ours.loglik, abs=1e-8)
    polished = polish(ours, theirs)
    k = len(ours.systems)
    np.testing.assert_allclose(ours.estimates, np.asarray(polished.fe_params)[:k], rtol=rtol,
                               atol=1e-8)
    variances = dict(zip(names, polished.vcomp, strict=True)) if names else {
        "topic": float(np.asarray(polished.cov_re)[0, 0])}
    variances["residual"] = polished.scale
    np.testing.assert_allclose(ours.cov, gls_cov(values, ours.random, variances), rtol=1e-4,
                               atol=1e-10)
    assert ours.variance("residual") == pytest.approx(polished.scale, rel=rtol, abs=1e-10)
    if names:
        np.testing.assert_allclose([ours.variance(n) for n in names], polished.vcomp,
                                   rtol=rtol, atol=1e-8)
    else:
        assert ours.variance("topic") == pytest.approx(
            float(np.asarray(polished.cov_re)[0, 0]), rel=rtol, abs=1e-8)
    assert ours.loglik == pytest.approx(polished.llf, abs=1e-6)


@pytest.mark.parametrize("method", ["reml", "ml"])
@pytest.mark.parametrize("name", ["adhoc8_ap.csv", "web2012_ndcg20.csv"])
def test_real_matrices_match_statsmodels(urbano, name, method):
    values = ScoreMatrix.read_csv(urbano / name).values[:30, :12, 0]
    ours = mixed_model(values, method=method)
    assert ours.estimator.endswith("(closed form, balanced)")
    assert_matches(ours, statsmodels_fit(values, method == "reml"), values)
    holed = values.copy()
    holed[[0, 3, 7, 7, 20], [1, 2, 5, 9, 11]] = np.nan  # unbalanced: the iterative fit
    ours = mixed_model(holed, method=method)
    assert "closed form" not in ours.estimator
    assert_matches(ours, statsmodels_fit(holed, method == "reml"), holed)


@st.composite
def score_tables(draw, missing: bool):
    t = draw(st.integers(4, 9))
    s = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    topic_sd = draw(st.sampled_from([0.0, 0.3, 1.0]))
    rng = np.random.default_rng(seed)
    values = (rng.normal(size=(t, s)) + topic_sd * rng.normal(size=(t, 1))
              + rng.normal(size=(1, s)))
    if missing:
        holes = rng.random((t, s)) < 0.2
        holes[:, rng.integers(s)] = False  # every system keeps scores
        holes[rng.integers(t)] = False
        # three topics a system at least: each system's effect leaves residual degrees of
        # freedom (a system seen on one topic fits it exactly, and σ² is not identified)
        holes[:3, (~holes).sum(axis=0) < 3] = False
        values[holes] = np.nan
    return values


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=score_tables(missing=False), reml=st.booleans())
def test_balanced_tables_match_statsmodels(values, reml):
    ours = mixed_model(values, method="reml" if reml else "ml")
    theirs = statsmodels_fit(values, reml)
    assert_matches(ours, theirs, values)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=score_tables(missing=True), reml=st.booleans())
def test_unbalanced_tables_match_statsmodels(values, reml):
    ours = mixed_model(values, method="reml" if reml else "ml")
    theirs = statsmodels_fit(values, reml)
    assert_matches(ours, theirs, values)


def test_crossed_topic_and_shard_match_statsmodels():
    rng = np.random.default_rng(7)
    values = (rng.normal(size=(8, 3, 4)) + rng.normal(size=(8, 1, 1))
              + 0.8 * rng.normal(size=(1, 1, 4)) + np.arange(3)[None, :, None] * 0.2)
    values[2, 1, 3] = np.nan
    for reml in (True, False):
        ours = mixed_model(ShardScores.from_array(values), random=("topic", "shard"),
                           method="reml" if reml else "ml")
        assert_matches(ours, statsmodels_fit(values, reml, ("topic", "shard")), values)


def test_topic_system_interaction_matches_statsmodels():
    rng = np.random.default_rng(11)
    values = (rng.normal(size=(6, 3, 3)) * 0.5 + rng.normal(size=(6, 1, 1))
              + 0.7 * rng.normal(size=(6, 3, 1)))
    terms = ("topic", "topic:system")
    ours = mixed_model(ShardScores.from_array(values), random=terms)
    assert_matches(ours, statsmodels_fit(values, True, terms), values)


def anova_components(values: np.ndarray, reml: bool) -> tuple[float, float]:
    """σ²_t and σ² from the two-way ANOVA table (module docstring of _mixed_fit)."""
    t, s = values.shape
    table = anova(values, "topic+system")
    ss_t, ss_e = table.row("topic").ss, table.row("error").ss
    lam = ss_t / (t - 1 if reml else t)
    sigma2 = ss_e / ((t - 1 if reml else t) * (s - 1))
    if lam >= sigma2:
        return (lam - sigma2) / s, sigma2
    return 0.0, (ss_t + ss_e) / ((t - 1) * s if reml else t * s)


@pytest.mark.parametrize("topic_sd", [1.0, 0.0])
def test_balanced_closed_form_is_the_anova_estimate(topic_sd):
    rng = np.random.default_rng(3)
    values = rng.normal(size=(12, 5)) + topic_sd * rng.normal(size=(12, 1))
    for reml in (True, False):
        result = mixed_model(values, method="reml" if reml else "ml")
        topic, residual = anova_components(values, reml)
        assert result.variance("topic") == pytest.approx(topic, abs=1e-12)
        assert result.variance("residual") == pytest.approx(residual, rel=1e-12)
    if topic_sd == 0.0:  # this seed puts the topic estimate on the boundary
        assert result.variance("topic") == 0.0
    # REML in the interior: the Wald χ²/(S − 1) is the ANOVA F of the systems
    values = rng.normal(size=(12, 5)) + 2.0 * rng.normal(size=(12, 1))
    result = mixed_model(values)
    assert result.variance("topic") > 0
    chi2, df, _ = result.wald()
    assert chi2 / df == pytest.approx(anova(values, "topic+system").row("system").f, rel=1e-10)
    assert result.variance("residual") == pytest.approx(anova(values).ms_error, rel=1e-12)


def test_closed_form_is_the_optimum():
    """The closed form and the numerical optimiser agree (a missing cell filled back
    in the other fit would change the data, so the optimiser runs on the same table)."""
    from irscale.stats._mixed_fit import Grouping, Moments, balanced_theta, optimise, profile

    rng = np.random.default_rng(5)
    values = rng.normal(size=(10, 4)) + rng.normal(size=(10, 1))
    t, s = values.shape
    x = np.eye(s)[np.tile(np.arange(s), t)]
    moments = Moments.of(values.ravel(), x, [Grouping("topic", np.repeat(np.arange(t), s), t)])
    for reml in (True, False):
        theta, converged = optimise(moments, reml)
        assert converged
        closed = balanced_theta(values, reml)
        assert theta == pytest.approx(closed, rel=1e-4)
        # the closed form is the optimum: no higher -2 log L than the optimiser's, up to the
        # rounding of the profile's sums (one unit in the last place on numpy 1.x)
        optimum = profile(theta, moments, reml).neg2ll
        assert profile(closed, moments, reml).neg2ll <= optimum + 1e-12 * abs(optimum)


def test_pairwise_wald_tests_match_statsmodels_contrasts():
    rng = np.random.default_rng(9)
    values = rng.normal(size=(15, 4)) + rng.normal(size=(15, 1)) + np.arange(4) * 0.4
    values[1, 2] = np.nan
    result = mixed_model(values, correction="holm")
    theirs = polish(result, statsmodels_fit(values, True))
    pairs = result.pairwise()
    cov = gls_cov(values, ("topic",), {"topic": float(np.asarray(theirs.cov_re)[0, 0]),
                                       "residual": theirs.scale})
    beta = np.asarray(theirs.fe_params)
    raw = []
    for a, b in zip(*np.triu_indices(4, 1), strict=True):
        se = np.sqrt(cov[a, a] + cov[b, b] - 2 * cov[a, b])
        raw.append(2 * sps.norm.sf(abs(beta[a] - beta[b]) / se))
    np.testing.assert_allclose(pairs.columns["p_raw"], raw, rtol=1e-4)
    np.testing.assert_allclose(pairs.pvalue, adjust_pvalues(np.array(raw), "holm"), rtol=1e-4)
    assert pairs.columns["a"][0] == "s1" and pairs.columns["b"][0] == "s2"
    assert list(pairs.significant) == list(pairs.pvalue <= 0.05)


def test_variance_components_are_recovered_by_simulation():
    rng = np.random.default_rng(2015)
    t, s = 400, 8
    means = np.linspace(0.2, 0.5, s)
    values = means + 0.15 * rng.normal(size=(t, 1)) + 0.1 * rng.normal(size=(t, s))
    result = mixed_model(values)
    assert result.variance("topic") == pytest.approx(0.15**2, rel=0.15)
    assert result.variance("residual") == pytest.approx(0.1**2, rel=0.05)
    np.testing.assert_allclose(result.estimates, means, atol=4 * result.std_errors.max())
    assert result.icc == pytest.approx(0.0225 / 0.0325, abs=0.05)
    # crossed topic and shard components, from 60 topics and 12 shards
    values = (means[None, :, None] + 0.15 * rng.normal(size=(60, 1, 1))
              + 0.1 * rng.normal(size=(1, 1, 12)) + 0.05 * rng.normal(size=(60, s, 12)))
    result = mixed_model(ShardScores.from_array(values), random="topic,shard")
    assert result.variance("topic") == pytest.approx(0.15**2, rel=0.4)
    assert result.variance("shard") == pytest.approx(0.1**2, rel=0.6)
    assert result.variance("residual") == pytest.approx(0.05**2, rel=0.05)


def binary_scores(seed: int, t: int, sigma: float, beta: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(seed)
    eta = beta[None, :] + sigma * rng.normal(size=(t, 1))
    return (rng.random((t, len(beta))) < special.expit(eta)).astype(float)


def test_glmm_matches_variational_bayes():
    values = binary_scores(3, 150, 1.0, np.array([-0.5, 0.0, 0.3, 0.8]))
    result = mixed_model(values, family="binomial")
    frame = long_form(values)
    t, s = values.shape
    vb = bayes_mixed_glm.BinomialBayesMixedGLM(
        frame["y"].to_numpy(), np.eye(s)[frame["system"]], np.eye(t)[frame["topic"]],
        np.zeros(t, dtype=int), vcp_p=1, fe_p=10).fit_vb()
    np.testing.assert_allclose(result.estimates, vb.fe_mean, atol=0.05)
    assert np.sqrt(result.variance("topic")) == pytest.approx(np.exp(vb.vcp_mean[0]), rel=0.05)


def test_glmm_loglik_is_the_integral():
    """The quadrature log-likelihood at the fit equals scipy.integrate.quad's, topic by
    topic, and moving away from the estimates lowers it."""
    from irscale.stats._glmm import _Data, loglik

    values = binary_scores(4, 30, 1.2, np.array([-1.0, 0.5, 1.0]))
    values[4, 1] = np.nan
    result = mixed_model(values, family="binomial")
    sigma = np.sqrt(result.variance("topic"))
    total = 0.0
    for row in values:
        seen = np.isfinite(row)
        y, eta = row[seen], result.estimates[seen]

        def density(u, y=y, eta=eta):
            return np.exp(np.sum(y * np.log(special.expit(eta + u))
                                 + (1 - y) * np.log(special.expit(-eta - u)))
                          ) * sps.norm.pdf(u, 0.0, sigma)

        total += np.log(integrate.quad(density, -12 * sigma, 12 * sigma, epsabs=0,
                                       epsrel=1e-12, limit=200)[0])
    assert result.loglik == pytest.approx(total, abs=1e-6)
    frame = long_form(values)
    data = _Data(frame["y"].to_numpy(), frame["system"].to_numpy(), frame["topic"].to_numpy(),
                 values.shape[0], values.shape[1])
    shifted = result.estimates + np.array([0.05, 0.0, 0.0])
    assert loglik(data, shifted, sigma, 10) < result.loglik


def test_glmm_recovers_the_simulated_model():
    beta = np.array([-1.0, 0.0, 0.5, 1.0, 1.5])
    values = binary_scores(8, 600, 0.8, beta)
    result = mixed_model(values, family="binomial")
    np.testing.assert_allclose(result.estimates, beta, atol=3.5 * result.std_errors.max())
    assert np.sqrt(result.variance("topic")) == pytest.approx(0.8, rel=0.2)
    assert result.converged


def test_result_protocol_and_formats():
    rng = np.random.default_rng(1)
    values = rng.normal(size=(10, 3)) + rng.normal(size=(10, 1))
    result = mixed_model(pd.DataFrame(values, columns=["a", "b", "c"]))
    frame = result.to_frame()
    assert list(frame["section"]) == ["fixed"] * 3 + ["test", "variance", "variance"] + \
        ["fit"] * 4
    assert result.statistic == frame.loc[3, "statistic"] and result.pvalue == frame.loc[3, "p"]
    assert result.aic == pytest.approx(-2 * result.loglik + 2 * 5)
    assert result.bic == pytest.approx(-2 * result.loglik + 5 * np.log(30))
    for fmt in ("text", "csv", "markdown", "latex", "json"):
        assert "residual" in result.format(fmt)
    assert '"mixed"' in result.format("json")


@pytest.mark.parametrize(("kwargs", "error", "text"), [
    ({"random": "shard"}, ParameterError, "needs a shard axis"),
    ({"random": "topic:system"}, ParameterError, "needs replicates"),
    ({"random": "nope"}, ParameterError, "unknown random term"),
    ({"family": "poisson"}, ParameterError, "unknown family"),
    ({"method": "mom"}, ParameterError, "unknown estimator"),
    ({"family": "binomial"}, InputError, "0/1 scores"),
])
def test_refusals(kwargs, error, text):
    values = np.random.default_rng(0).random((5, 3))
    with pytest.raises(error, match=text):
        mixed_model(values, **kwargs)


def test_refusals_of_replicate_terms_and_binomial_options():
    values = np.random.default_rng(0).random((4, 3, 2))
    with pytest.raises(ParameterError, match="needs replicates"):
        mixed_model(ShardScores.from_array(values[:, :, :1]), random="topic:system")
    binary = (values[:, :, 0] > 0.5).astype(float)
    for method in ("reml", "ml"):  # the estimator applies to the linear model only
        with pytest.raises(ParameterError, match=r"method= applies to the linear mixed "
                           r"model .*maximum likelihood only.*, not to family 'binomial'"):
            mixed_model(binary, family="binomial", method=method)
    with pytest.raises(ParameterError, match="one random term"):
        mixed_model(ShardScores.from_array((values > 0.5).astype(float)), family="binomial",
                    random="topic,shard")
    holed = np.random.default_rng(0).random((4, 3))
    holed[:, 1] = np.nan
    with pytest.raises(InputError, match="no score"):
        mixed_model(holed)
    with pytest.raises(InputError, match="no degrees of freedom"):
        mixed_model(np.array([[0.1, np.nan], [np.nan, 0.3]]))
    exact = np.add.outer([0.0, 0.3, 0.5, 0.9], [0.1, 0.2, 0.4])  # topic + system, no noise
    with pytest.raises(InputError, match="fits the scores exactly"):
        mixed_model(exact)
    exact[0, 0] = np.nan  # the same through the iterative fit
    with pytest.raises(InputError, match="fits the scores exactly"):
        mixed_model(exact)


def test_glmm_standard_errors_are_the_curvature_of_the_likelihood():
    """Cov(β̂) is the inverse of −∂²ℓ/∂β² at σ̂_t: a central-difference Hessian of the
    quadrature log-likelihood (nodes re-centred at every point) agrees."""
    from irscale.stats._glmm import _Data, loglik

    values = binary_scores(5, 80, 1.0, np.array([-0.5, 0.2, 0.9]))
    result = mixed_model(values, family="binomial")
    frame = long_form(values)
    data = _Data(frame["y"].to_numpy(), frame["system"].to_numpy(), frame["topic"].to_numpy(),
                 values.shape[0], values.shape[1])
    sigma, beta, h = np.sqrt(result.variance("topic")), result.estimates, 1e-3
    k = len(beta)
    hessian = np.empty((k, k))
    for a in range(k):
        for b in range(k):
            def at(da, db, a=a, b=b):
                step = np.zeros(k)
                step[a] += da
                step[b] += db
                return loglik(data, beta + step, sigma, 10)
            hessian[a, b] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    np.testing.assert_allclose(result.cov, np.linalg.inv(-hessian), rtol=1e-3)


def test_glmm_gradient_is_the_derivative_of_the_likelihood():
    """The gradient of Fisher's identity equals central differences of ℓ(β, σ_t)."""
    from irscale.stats._glmm import _Data, _value_and_gradient, loglik

    values = binary_scores(6, 40, 0.9, np.array([-0.4, 0.3, 1.1]))
    frame = long_form(values)
    data = _Data(frame["y"].to_numpy(), frame["system"].to_numpy(), frame["topic"].to_numpy(),
                 values.shape[0], values.shape[1])
    beta, sigma, h = np.array([-0.2, 0.1, 0.8]), 0.7, 1e-5
    _, gradient = _value_and_gradient(data, beta, sigma, 10)
    numeric = [(loglik(data, beta + h * e, sigma, 10) - loglik(data, beta - h * e, sigma, 10))
               / (2 * h) for e in np.eye(3)]
    numeric.append((loglik(data, beta, sigma + h, 10) - loglik(data, beta, sigma - h, 10))
                   / (2 * h))
    np.testing.assert_allclose(gradient, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("seed", [1, 9, 15, 16, 24, 32])
@pytest.mark.filterwarnings("ignore:.*missing score")
def test_convergence_is_judged_at_the_optimum(seed):
    """``converged`` says whether the optimum is stationary (its first-order conditions),
    not what L-BFGS-B's line search said: on these unbalanced tables its status was
    "ABNORMAL" for one of the two criteria (scipy 1.17), at optima where statsmodels'
    ``MixedLM``, started there, finds no better likelihood; and a point off the optimum is
    not called converged."""
    from irscale.stats._mixed_fit import Grouping, Moments, stationary

    rng = np.random.default_rng(seed)
    t, s = rng.integers(3, 12), rng.integers(2, 6)
    values = rng.normal(size=(t, s)) + rng.uniform(0, 5) * rng.normal(size=(t, 1))
    values[(rng.random((t, s)) <= 0.2)] = np.nan
    values[:, 0] = np.where(np.isnan(values[:, 0]), 0.5, values[:, 0])  # every topic kept
    for reml in (True, False):
        ours = mixed_model(values, method="reml" if reml else "ml")
        assert ours.converged
        theirs = polish(ours, statsmodels_fit(values, reml))
        assert ours.loglik == pytest.approx(theirs.llf, abs=1e-7)
        index = np.nonzero(np.isfinite(values))
        x = np.eye(s)[index[1]]
        y = values[index] - values[index].mean()
        moments = Moments.of(y, x, [Grouping("topic", index[0], t)])
        ratio = ours.variance("topic") / ours.variance("residual")
        if ratio > 0:
            assert stationary(moments, reml, np.array([ratio]))
            assert not stationary(moments, reml, np.array([ratio * 3]))
