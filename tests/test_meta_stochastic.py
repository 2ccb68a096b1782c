"""Stochastic simulation of test collections (irscale.meta.margins, .copulas, .stochastic,
.simulated_runs): the margins against scipy.stats (log-densities, maximum-likelihood fits),
AIC picking the family the data came from, the copulas keeping the input's rank
correlations and recovering a t copula's degrees of freedom, the simulated means equal to
the declared true means (law of large numbers, fixed seeds, tolerances of 4 standard
errors), the discrete margins (beta-binomial against scipy.stats.betabinom, the discrete
kernel by hand, AIC picking discrete for P@10 and continuous for AP, draws exactly on the
grid k/10), the t test's Type I rate at α on equal-mean simulations, determinism with seeds;
the simulated runs against their stated score model and AP computed by hand."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, optimize

from irscale.core import ScoreMatrix
from irscale.datasets import synthetic_collection
from irscale.errors import InputError, ParameterError
from irscale.meta import (
    CopulaModel,
    RunsModel,
    simulate_runs,
    simulate_scores,
    simulation_study,
)
from irscale.meta.margins import (
    BetaKernel,
    BetaMargin,
    TruncatedNormal,
    discrete_support,
    fit_beta_binomial,
    fit_discrete_kernel,
    fit_margin,
)

from .conftest import URBANO, require
from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")


def gaussian_scores(n: int, corr: np.ndarray, seed: int) -> np.ndarray:
    """n topics of scores in (0, 1) with a Gaussian dependence of correlation ``corr``:
    Beta(2, 5) and truncated-normal margins of the normal scores (a known copula)."""
    rng = np.random.default_rng(seed)
    z = rng.multivariate_normal(np.zeros(len(corr)), corr, size=n)
    u = sps.norm.cdf(z)
    out = np.empty_like(u)
    for s in range(u.shape[1]):
        if s % 2:
            out[:, s] = sps.beta(2 + s, 5).ppf(u[:, s])
        else:
            out[:, s] = sps.truncnorm(-0.3 / 0.2, 0.7 / 0.2, loc=0.3, scale=0.2).ppf(u[:, s])
    return out


CORR = np.array([[1.0, 0.7, 0.4], [0.7, 1.0, 0.5], [0.4, 0.5, 1.0]])


# ------------------------------------------------------------------------- margins
def test_truncated_normal_logpdf_is_scipys():
    x = np.linspace(0, 1, 11)
    for mu, sigma in ((0.3, 0.2), (-1.5, 0.4), (2.5, 0.05), (0.5, 8.0)):
        a, b = -mu / sigma, (1 - mu) / sigma
        np.testing.assert_allclose(TruncatedNormal(mu, sigma).logpdf(x),
                                   sps.truncnorm.logpdf(x, a, b, loc=mu, scale=sigma),
                                   rtol=1e-9, atol=1e-9)


def test_truncated_normal_fit_maximises_scipys_likelihood():
    """The oracle: scipy.stats.truncnorm's log-likelihood maximised by scipy.optimize from
    another start."""
    x = sps.truncnorm(-0.35 / 0.25, 0.65 / 0.25, loc=0.35, scale=0.25).rvs(
        400, random_state=np.random.default_rng(3))
    fitted = TruncatedNormal.fit(x)

    def nll(theta):
        mu, sigma = theta[0], np.exp(theta[1])
        return -sps.truncnorm.logpdf(x, -mu / sigma, (1 - mu) / sigma, loc=mu,
                                     scale=sigma).sum()

    oracle = optimize.minimize(nll, [0.6, np.log(0.5)], method="Powell",
                               options={"xtol": 1e-10, "ftol": 1e-13})
    assert fitted.mu == pytest.approx(oracle.x[0], abs=1e-4)
    assert fitted.sigma == pytest.approx(np.exp(oracle.x[1]), rel=1e-4)
    assert fitted.loglik == pytest.approx(-oracle.fun, abs=1e-7)
    assert fitted.mu == pytest.approx(0.35, abs=0.05)  # and near the truth


def test_beta_fit_and_logpdf_are_scipys():
    x = sps.beta(2.5, 6).rvs(300, random_state=np.random.default_rng(4))
    fitted = BetaMargin.fit(x)
    a, b, _, _ = sps.beta.fit(x, floc=0, fscale=1)
    assert fitted.a == pytest.approx(a, rel=1e-5) and fitted.b == pytest.approx(b, rel=1e-5)
    assert fitted.loglik == pytest.approx(sps.beta.logpdf(x, a, b).sum(), abs=1e-6)
    grid = np.linspace(0.01, 0.99, 9)
    np.testing.assert_allclose(fitted.logpdf(grid), sps.beta.logpdf(grid, fitted.a, fitted.b),
                               rtol=1e-10)
    assert BetaMargin.fit(np.array([0.0, 0.2, 0.5])) is None  # 0: outside its support


def test_beta_kernel_is_a_density_with_its_stated_mean():
    x = np.array([0.0, 0.05, 0.1, 0.1, 0.3, 0.45, 0.8, 1.0])
    kde = BetaKernel.fit(x)
    h = kde.h
    mixture = [sps.beta(xi / h + 1, (1 - xi) / h + 1) for xi in x]
    grid = np.linspace(0.0, 1.0, 7)
    np.testing.assert_allclose(np.exp(kde.logpdf(grid)),
                               np.mean([m.pdf(grid) for m in mixture], axis=0), rtol=1e-9)
    total, _ = integrate.quad(lambda t: np.exp(kde.logpdf(np.array([t])))[0], 0, 1,
                              points=list(x), limit=400)
    assert total == pytest.approx(1.0, abs=1e-6)
    assert kde.moment(1) == pytest.approx((x.mean() + h) / (1 + 2 * h), rel=1e-12)
    assert kde.moment(2) == pytest.approx(np.mean([m.moment(2) for m in mixture]), rel=1e-10)
    u = np.array([0.001, 0.2, 0.5, 0.77, 0.999])
    inverse = [optimize.brentq(lambda t, p=p: kde.cdf(np.array([t]))[0] - p, 0, 1,
                               xtol=1e-14) for p in u]
    np.testing.assert_allclose(kde.ppf(u), inverse, atol=1e-6)
    assert 1 < kde.df < len(x)


def test_aic_picks_the_family_of_the_data():
    rng = np.random.default_rng(5)
    beta = sps.beta(0.7, 3).rvs(3000, random_state=rng)
    normal = sps.truncnorm(-0.5 / 0.15, 0.5 / 0.15, loc=0.5, scale=0.15).rvs(3000,
                                                                          random_state=rng)
    assert fit_margin(beta, ["truncnorm", "beta"]).family == "beta"
    assert fit_margin(normal, ["truncnorm", "beta"]).family == "truncnorm"
    assert fit_margin(np.r_[0.0, beta[:50]]).family != "beta"  # a 0: beta left out


@pytest.mark.parametrize("scores, message", [
    (np.array([0.1, 1.2, 0.3]), "outside"),
    (np.array([0.4, 0.4, 0.4]), "every topic has the score 0.4"),
])
def test_margins_refuse_scores_they_cannot_fit(scores, message):
    with pytest.raises(InputError, match=message):
        fit_margin(scores)
    with pytest.raises(InputError, match="add truncnorm or bks"):
        fit_margin(np.array([0.0, 0.5, 0.7]), ["beta"])
    with pytest.raises(ParameterError, match="unknown margin family 'gamma'"):
        fit_margin(np.array([0.2, 0.5, 0.7]), ["gamma"])


# ------------------------------------------------------------------------- discrete margins
def p10_scores(n: int, corr: np.ndarray, seed: int) -> np.ndarray:
    """n topics of P@10-like scores (tenths) with a Gaussian dependence: the number of
    relevant documents in ten, binomial with a per-system beta-distributed chance."""
    rng = np.random.default_rng(seed)
    u = sps.norm.cdf(rng.multivariate_normal(np.zeros(len(corr)), corr, size=n))
    chance = np.column_stack([sps.beta(2 + s, 4).ppf(u[:, s]) for s in range(len(corr))])
    return sps.binom(10, chance).ppf(np.clip(u, 1e-12, 1 - 1e-12)) / 10


def test_discrete_support_rule():
    assert np.array_equal(discrete_support(np.array([0.0, 0.3, 0.3, 1.0])),
                          np.arange(11) / 10)
    assert np.array_equal(discrete_support(np.array([0.25, 0.5, 0.5])), np.arange(5) / 4)
    reciprocal = np.array([1, 1 / 2, 1 / 3, 1 / 7, 1 / 2, 1, 1 / 3, 1 / 7])  # RR: m = 42
    assert np.array_equal(discrete_support(reciprocal), [1 / 7, 1 / 3, 1 / 2, 1])
    ap = sps.beta(2, 5).rvs(50, random_state=np.random.default_rng(1))
    assert discrete_support(ap) is None
    assert discrete_support(np.r_[reciprocal, 0.123]) is None  # 5 values in 9 topics


def test_beta_binomial_is_scipys_maximum_likelihood():
    """The oracle: scipy.stats.betabinom's log-likelihood maximised by scipy.optimize from
    another start; the pmf is scipy's."""
    k = sps.betabinom(10, 2.0, 3.5).rvs(800, random_state=np.random.default_rng(2))
    fitted = fit_beta_binomial(k / 10, np.arange(11) / 10)
    a, b = fitted.params["a"], fitted.params["b"]
    np.testing.assert_allclose(fitted.pmf, sps.betabinom(10, a, b).pmf(np.arange(11)),
                               rtol=1e-10)

    def nll(theta):
        return -sps.betabinom(10, *np.exp(theta)).logpmf(k).sum()

    oracle = optimize.minimize(nll, [0.0, 0.0], method="Powell",
                               options={"xtol": 1e-10, "ftol": 1e-13})
    assert a == pytest.approx(np.exp(oracle.x[0]), rel=1e-4)
    assert b == pytest.approx(np.exp(oracle.x[1]), rel=1e-4)
    assert fitted.loglik == pytest.approx(-oracle.fun, abs=1e-6)
    assert fitted.moment(1) == pytest.approx(a / (a + b), rel=1e-12)
    assert fit_beta_binomial(np.array([0.5, 1 / 3]), np.array([1 / 3, 0.5])) is None


def test_discrete_kernel_by_hand():
    """p(s_j) = (1/n) Σ_i φ((s_j − x_i)/h) / Σ_l φ((s_l − x_i)/h), computed by loops with
    scipy's normal density; its degrees of freedom Σ_i w_ii / (n p(x_i))."""
    x = np.array([0.0, 0.1, 0.1, 0.5, 0.6])
    support = np.arange(11) / 10
    fitted = fit_discrete_kernel(x, support)
    h = fitted.params["h"]
    assert h == pytest.approx(0.9 * min(x.std(ddof=1), sps.iqr(x) / 1.34) * 5 ** -0.2)
    pmf = np.zeros(11)
    own = []
    for xi in x:
        kernel = sps.norm.pdf((support - xi) / h)
        pmf += kernel / kernel.sum() / len(x)
        own.append(kernel[round(xi * 10)] / kernel.sum())
    np.testing.assert_allclose(fitted.pmf, pmf, rtol=1e-12)
    at = np.rint(x * 10).astype(int)
    assert fitted.loglik == pytest.approx(np.log(pmf[at]).sum(), rel=1e-12)
    assert fitted.n_params == pytest.approx(sum(o / (5 * pmf[a])
                                                for o, a in zip(own, at, strict=True)))
    assert fitted.moment(2) == pytest.approx(np.sum(support ** 2 * pmf), rel=1e-12)
    np.testing.assert_array_equal(fitted.ppf(np.array([1e-9, pmf[0] + 1e-9, 1 - 1e-12])),
                                  [0.0, 0.1, 1.0])


def test_aic_picks_discrete_for_p10_and_continuous_for_ap():
    rng = np.random.default_rng(3)
    p10 = sps.betabinom(10, 2, 3).rvs(3000, random_state=rng) / 10
    assert fit_margin(p10).family == "bbinom"
    # a pmf of tenths far from any beta-binomial (spikes at 0, 0.5 and 1): the smoother
    lumpy = rng.choice([0.0, 0.1, 0.5, 1.0], p=[0.3, 0.05, 0.45, 0.2], size=3000)
    assert fit_margin(lumpy).family == "dks"
    ap = sps.beta(0.8, 3).rvs(200, random_state=rng)
    assert fit_margin(ap).family in ("truncnorm", "beta", "bks")
    # the continuous families only: P@10 fitted as before
    assert fit_margin(p10[:100], ["truncnorm", "bks"]).family in ("truncnorm", "bks")
    with pytest.raises(InputError, match=r"continuous .* add truncnorm, beta or bks"):
        fit_margin(ap, ["bbinom", "dks"])
    with pytest.raises(InputError, match=r"off a grid .* add dks"):
        fit_margin(np.array([1, 1 / 2, 1 / 3, 1 / 7] * 3), ["bbinom"])


def test_simulated_p10_is_on_its_grid_with_the_declared_means():
    """500,000 simulated topics: every P@10 score is one of the floats k/10 exactly, the
    means are the declared ones (sums over the support) within 4 standard errors."""
    data = p10_scores(80, CORR, seed=4)
    model = CopulaModel.fit(data, topics=500_000)
    assert set(model.summary()["family"]) <= {"bbinom", "dks"}
    for margin, mean in zip(model.margins, model.means(), strict=True):
        assert mean == pytest.approx(sum(s * p for s, p in zip(margin.support, margin.pmf,
                                                                strict=True)), rel=1e-12)
    drawn = model.draw(np.random.default_rng(5))
    assert set(np.unique(drawn)) <= {k / 10 for k in range(11)}
    _lln(model, seed=6)
    reciprocal = np.column_stack([np.r_[[1, 1 / 2, 1 / 3, 1 / 7] * 10],
                                  np.r_[[1 / 2, 1, 1 / 7, 1 / 3] * 10]])
    rr = CopulaModel.fit(reciprocal, topics=1000).draw(np.random.default_rng(7))
    assert set(np.unique(rr)) <= {1, 1 / 2, 1 / 3, 1 / 7}


def test_null_tilts_discrete_margins_to_the_mean_of_the_means_on_their_grid():
    """The tilt by hand: p_j e^(θ s_j) / Σ_l p_l e^(θ s_l) with the θ stated, of the
    declared mean; the draws stay on the grid and keep their ranks (same uniforms)."""
    data = p10_scores(80, CORR, seed=8)
    null = CopulaModel.fit(data, topics=500_000, null=True)
    fitted = CopulaModel.fit(data, topics=500_000)
    target = fitted.means().mean()
    assert np.all(null.means() == target) and np.all(null.powers == 1)
    for before, after in zip(fitted.margins, null.margins, strict=True):
        weights = before.pmf * np.exp(after.params["tilt"] * before.support)
        np.testing.assert_allclose(after.pmf, weights / weights.sum(), rtol=1e-9)
        assert np.dot(after.support, after.pmf) == pytest.approx(target, rel=1e-12)
    _lln(null, seed=9)
    a, b = fitted.draw(np.random.default_rng(10)), null.draw(np.random.default_rng(10))
    assert set(np.unique(b)) <= {k / 10 for k in range(11)}
    for s in range(3):  # an increasing map of the same uniforms: no pair of topics swaps
        assert np.all((a[:-1, s] - a[1:, s]) * (b[:-1, s] - b[1:, s]) >= 0)
    with pytest.raises(InputError, match="cannot be moved to the mean 1"):
        fitted.margins[0].tilted(1.0)


# ------------------------------------------------------------------------- copulas
@pytest.mark.parametrize("copula", ["gaussian", "t"])
def test_the_copula_keeps_the_input_rank_correlations(copula):
    """Kendall's τ and Spearman's ρ of 20,000 simulated topics (scipy.stats) equal the
    input's (1,000 topics) within 0.03."""
    data = gaussian_scores(1000, CORR, seed=6)
    model = CopulaModel.fit(data, copula=copula, topics=20000)
    drawn = model.draw(np.random.default_rng(7))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        assert sps.kendalltau(drawn[:, i], drawn[:, j])[0] == pytest.approx(
            sps.kendalltau(data[:, i], data[:, j])[0], abs=0.03)
        assert sps.spearmanr(drawn[:, i], drawn[:, j])[0] == pytest.approx(
            sps.spearmanr(data[:, i], data[:, j])[0], abs=0.03)


def test_the_t_copula_recovers_its_degrees_of_freedom():
    rng = np.random.default_rng(8)
    nu = 4.0
    z = rng.multivariate_normal(np.zeros(3), CORR, size=3000)
    t = z / np.sqrt(rng.chisquare(nu, size=(3000, 1)) / nu)
    data = sps.beta(2, 3).ppf(sps.t.cdf(t, nu))
    model = CopulaModel.fit(data, margins=["beta"], copula="auto")
    assert model.copula.family == "t"
    assert 3.0 < model.copula.df < 5.5
    gaussian = CopulaModel.fit(gaussian_scores(3000, CORR, seed=9), margins=["beta"],
                               copula="auto")
    assert gaussian.copula.family == "gaussian" or gaussian.copula.df > 30


# ------------------------------------------------------------------------- true means
def _lln(model: CopulaModel, seed: int) -> None:
    """Every system's simulated mean is its declared true mean within 4 standard errors
    (200,000 topics; a wrong mean by 0.002 fails)."""
    drawn = model.draw(np.random.default_rng(seed))
    error = drawn.std(axis=0, ddof=1) / np.sqrt(len(drawn))
    assert np.all(np.abs(drawn.mean(axis=0) - model.means()) < 4 * error), (
        drawn.mean(axis=0), model.means(), error)
    assert np.all(4 * error < 0.002)


def test_simulated_means_are_the_declared_true_means():
    data = gaussian_scores(60, CORR, seed=10)
    for margins in (["truncnorm"], ["beta"], ["bks"], ["truncnorm", "beta", "bks"]):
        model = CopulaModel.fit(data, margins=margins, topics=200_000)
        assert list(model.summary()["family"]) == [margins[0]] * 3 or len(margins) == 3
        _lln(model, seed=11)


def test_null_and_equal_make_the_true_means_equal_keeping_the_ranks():
    data = gaussian_scores(60, CORR, seed=12)
    fitted = CopulaModel.fit(data, topics=200_000)
    null = CopulaModel.fit(data, topics=500_000, null=True)
    assert len(set(null.means())) == 1
    assert null.means()[0] == pytest.approx(fitted.means().mean(), rel=1e-12)
    _lln(null, seed=13)
    equal = CopulaModel.fit(data, topics=200_000, equal=(2, 0))
    assert equal.means()[0] == equal.means()[2] == fitted.means()[2]
    assert equal.means()[1] == fitted.means()[1] and equal.powers[1] == 1
    _lln(equal, seed=14)
    # x -> x^k is increasing: the same uniforms give the same ranks (the copula is kept)
    before, after = fitted.draw(np.random.default_rng(15)), equal.draw(np.random.default_rng(15))
    np.testing.assert_array_equal(after[:, 1:], before[:, 1:])
    np.testing.assert_array_equal(np.argsort(after[:, 0]), np.argsort(before[:, 0]))


def test_type_I_rate_of_the_t_test_on_equal_mean_simulations_is_alpha():
    """Two systems of a fitted model made equal in mean (Urbano, Lima & Hanjalic 2019):
    the paired t test's Type I rate over 2,000 matrices of 50 topics lies in the Wilson
    interval around α (the t test's Type I rate is near α on such data, their Fig. 2)."""
    data = gaussian_scores(50, CORR, seed=16)[:, :2]
    model = CopulaModel.fit(data, equal=(0, 1), topics=50)
    study = simulation_study(model, ["t"], ["none"], 2000, rng=17)
    row = study.rates.iloc[0]
    assert row["null"] == 2000 and row["non_null"] == 0
    assert row["type_I_low"] <= 0.05 <= row["type_I_high"]
    assert study.model["model"] == "copula"


def test_unequal_systems_of_the_fitted_model_are_non_null():
    data = gaussian_scores(50, CORR, seed=18)
    study = simulation_study(CopulaModel.fit(data, copula="t"), ["t"], ["none"], 50, rng=19)
    row = study.rates.iloc[0]
    assert row["null"] == 0 and row["non_null"] == 150 and row["power"] > 0.5


def test_seeds_make_the_draws_reproducible():
    data = gaussian_scores(40, CORR, seed=20)
    a = simulate_scores(data, n_topics=30, rng=1)
    b = simulate_scores(data, n_topics=30, rng=1)
    c = simulate_scores(data, n_topics=30, rng=2)
    assert a.scores.equals(b.scores) and not a.scores.equals(c.scores)
    assert a.scores.shape == (30, 3) and list(a.means.index) == list(a.scores.columns)
    assert np.all((a.scores.to_numpy() >= 0) & (a.scores.to_numpy() <= 1))


def test_simulate_scores_names_the_systems_of_a_matrix():
    data = gaussian_scores(40, CORR, seed=21)
    matrix = ScoreMatrix.from_array(data, systems=["a", "b", "c"])
    result = simulate_scores(matrix, n_topics=10, equal=("c", "a"), rng=3)
    assert list(result.scores.columns) == ["a", "b", "c"]
    assert result.means["a"] == result.means["c"]
    assert "10 topics × 3 systems" in repr(result)


@pytest.mark.parametrize("kwargs, message", [
    ({"equal": ("a", "x")}, r"equal 'x' names no run: .*; runs: 'a', 'b', 'c'"),
    ({"equal": ("a", 3)}, r"equal 3 names no run: .* or its position \(0 to 2\)"),
    ({"equal": ("a", "a")}, "names system 'a' twice"),
    ({"equal": ("a", "b"), "null": True}, r"equal= applies without null= \(null makes"),
    ({"copula": "clayton"}, "unknown copula 'clayton'"),
    ({"margins": []}, "at least one"),
    ({"n_topics": 1}, "topics must be"),
])
def test_simulate_scores_refuses_bad_arguments(kwargs, message):
    matrix = ScoreMatrix.from_array(gaussian_scores(20, CORR, seed=22), systems=["a", "b", "c"])
    with pytest.raises(ParameterError, match=message):
        simulate_scores(matrix, **kwargs)


def test_real_collection_null_model(urbano):
    """TREC-8 AP (Urbano et al.'s data): 10 systems fitted, all made equal; the simulated
    means are the declared ones."""
    matrix = ScoreMatrix.read_csv(require(URBANO) / "adhoc8_ap.csv")
    values = matrix.values[:, :10, 0]
    model = CopulaModel.fit(values, null=True, topics=200_000)
    _lln(model, seed=23)


# ------------------------------------------------------------------------- runs
def _ap(relevant: np.ndarray, total: int) -> float:
    """AP of a ranked list of relevance flags, ``total`` relevant documents (by hand)."""
    hits = np.cumsum(relevant)
    return float((hits / np.arange(1, len(relevant) + 1))[relevant].sum() / total)


@pytest.fixture(scope="module")
def collection():
    return synthetic_collection(n_topics=6, pool_size=40, depth=20, seed=3)


def test_runs_follow_the_binormal_model(collection):
    model = RunsModel.of(collection.qrels, (0.0, 1.5), truth_draws=20)
    runs = model.runs(np.random.default_rng(24), [1.5] * 200, [f"r{i}" for i in range(200)])
    score = np.concatenate([r.score for r in runs])
    relevant = np.tile(model.relevant, 200)
    assert score[relevant].mean() == pytest.approx(1.5, abs=0.03)
    assert score[~relevant].mean() == pytest.approx(0.0, abs=0.03)
    assert score[~relevant].std() == pytest.approx(1.0, abs=0.03)


def test_the_true_means_of_simulated_runs_are_ap_by_hand(collection):
    """Equal qualities: equal means exactly; the estimate of one quality equals AP computed
    by hand over as many independent runs of the model (within 4 standard errors)."""
    model = RunsModel.of(collection.qrels, (0.8, 0.8, 2.0), truth_draws=300)
    means = model.means()
    assert means[0] == means[1] < means[2]
    rng = np.random.default_rng(25)
    topics = sorted(set(model.topic))
    values = []
    for _ in range(300):
        per_topic = []
        for t in topics:
            rel = model.relevant[model.topic == t]
            score = np.where(rel, 2.0, 0.0) + rng.standard_normal(len(rel))
            per_topic.append(_ap(rel[np.argsort(-score)], int(rel.sum())))
        values.append(np.mean(per_topic))
    error = np.std(values, ddof=1) * np.sqrt(2 / 300)
    assert means[2] == pytest.approx(np.mean(values), abs=4 * error)


def test_simulated_runs_feed_the_study_and_are_reproducible(collection):
    model = RunsModel.of(collection.qrels, (1.0, 1.0), truth_draws=20)
    study = simulation_study(model, ["t"], ["none"], 200, rng=26)
    row = study.rates.iloc[0]
    assert row["null"] == 200 and row["type_I_low"] <= 0.05 <= row["type_I_high"]
    a = simulate_runs(collection.qrels, (0.5, 1.0), truth_draws=5, rng=4)
    b = simulate_runs(collection.qrels, (0.5, 1.0), truth_draws=5, rng=4)
    assert a.to_frame().equals(b.to_frame()) and list(a.means.index) == ["sim1", "sim2"]


@pytest.mark.parametrize("kwargs, message", [
    ({"qualities": (1.0,)}, "at least 2"),
    ({"qualities": (1.0, float("nan"))}, "qualities"),
    ({"measure": "AP P@10"}, "one measure name"),
    ({"depth": 0}, "depth"),
])
def test_simulate_runs_refuses_bad_arguments(collection, kwargs, message):
    args = {"qualities": (0.5, 1.0), **kwargs}
    with pytest.raises(ParameterError, match=message):
        simulate_runs(collection.qrels, truth_draws=5, **args)
