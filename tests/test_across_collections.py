"""Systems compared across collections (:mod:`irscale.stats.across_collections`,
:mod:`irscale.stats.meta_analysis`): DerSimonian–Laird against statsmodels'
``combine_effects``, REML against a direct maximisation of the restricted likelihood, the
stratified bootstrap's determinism and its coverage on data of known truth."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

import irscale
from irscale.core import ScoreMatrix
from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.stats.across_collections import across_collections
from irscale.stats.collection_model import variance_table
from irscale.stats.meta_analysis import random_effects

from .oracle_imports import lazy_import, lazy_importorskip

meta_analysis = lazy_import("statsmodels.stats.meta_analysis")
smf = lazy_import("statsmodels.formula.api")
pytrec_eval = lazy_importorskip("pytrec_eval")


def _studies(seed: int, k: int, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """``k`` effects with variances, between-study standard deviation ``tau``."""
    gen = np.random.default_rng(seed)
    v = gen.uniform(0.002, 0.05, k)
    return 0.1 + gen.normal(0, tau, k) + gen.normal(0, np.sqrt(v)), v


def _combine(y: np.ndarray, v: np.ndarray, **options: object):
    """statsmodels' ``combine_effects``, quiet: its DerSimonian–Laird τ² is not truncated at
    0, and the square roots of its negative variances warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return meta_analysis.combine_effects(y, v, **options)


def _random_part(theirs, alpha: float) -> tuple[float, float, float, np.ndarray]:
    """τ², the pooled effect, its standard error and normal interval of a statsmodels
    result, its τ² truncated at 0 as DerSimonian & Laird define it (statsmodels keeps a
    negative value; at 0 the random-effects model is the fixed-effect one)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fixed, random = theirs.conf_int(alpha=alpha, use_t=False)[:2]
    if theirs.tau2 >= 0:
        return theirs.tau2, theirs.mean_effect_re, theirs.sd_eff_w_re, random
    return 0.0, theirs.mean_effect_fe, theirs.sd_eff_w_fe, fixed


CASES = [(seed, k, tau) for seed, k, tau in [(0, 4, 0.0), (1, 5, 0.1), (2, 12, 0.2),
                                             (3, 3, 0.05), (4, 50, 0.1), (5, 2, 0.3)]]


@pytest.mark.parametrize(("seed", "k", "tau"), CASES)
def test_dl_matches_statsmodels(seed: int, k: int, tau: float) -> None:
    y, v = _studies(seed, k, tau)
    ours = random_effects(y, v, estimator="dl", alpha=0.1)
    theirs = _combine(y, v, method_re="dl", alpha=0.1)
    tau2, effect, se, (low, high) = _random_part(theirs, 0.1)
    assert float(ours.tau2) == pytest.approx(tau2, rel=1e-9, abs=1e-14)
    assert float(ours.effect) == pytest.approx(effect, rel=1e-9)
    assert float(ours.se) == pytest.approx(se, rel=1e-9)
    assert (float(ours.ci_low), float(ours.ci_high)) == pytest.approx((low, high), rel=1e-9)
    assert float(ours.q) == pytest.approx(theirs.q, rel=1e-9)
    assert float(ours.i2) == pytest.approx(max(0.0, theirs.i2), rel=1e-9, abs=1e-14)
    homogeneity = theirs.test_homogeneity()
    assert float(ours.q_pvalue) == pytest.approx(homogeneity.pvalue, rel=1e-9)


def _restricted_loglik(tau2: float, y: np.ndarray, v: np.ndarray) -> float:
    """The restricted log-likelihood of the random-effects model, up to a constant:
    y ~ N(1 μ, V), V = diag(v + τ²), μ profiled by generalised least squares
    (Harville 1977): −½ (log|V| + log|Xᵀ V⁻¹ X| + rᵀ V⁻¹ r)."""
    vi = np.diag(1.0 / (v + tau2))
    x = np.ones((len(y), 1))
    xvx = x.T @ vi @ x
    mu = np.linalg.solve(xvx, x.T @ vi @ y)
    r = y - x @ mu
    return -0.5 * (np.linalg.slogdet(np.diag(v + tau2))[1] + np.linalg.slogdet(xvx)[1]
                   + float(r @ vi @ r))


@pytest.mark.parametrize(("seed", "k", "tau"), CASES)
def test_reml_maximises_the_restricted_likelihood(seed: int, k: int, tau: float) -> None:
    y, v = _studies(seed, k, tau)
    ours = random_effects(y, v, estimator="reml")
    upper = 10 * float(np.var(y) + v.max())
    found = optimize.minimize_scalar(lambda t: -_restricted_loglik(t, y, v),
                                     bounds=(0.0, upper), method="bounded",
                                     options={"xatol": 1e-12})
    best = found.x if -found.fun > _restricted_loglik(0.0, y, v) else 0.0
    assert float(ours.tau2) == pytest.approx(best, abs=1e-6)
    # the pooled effect given τ², as statsmodels weighs it (its iterated τ² replaced)
    w = 1 / (v + best)
    assert float(ours.effect) == pytest.approx(float(w @ y / w.sum()), abs=1e-6)


def test_prediction_interval_of_higgins_thompson_spiegelhalter() -> None:
    y, v = _studies(7, 8, 0.3)
    ours = random_effects(y, v, estimator="dl")
    theirs = _combine(y, v, method_re="dl")
    assert theirs.tau2 > 0
    half = stats.t.ppf(0.975, 8 - 2) * np.sqrt(theirs.tau2 + theirs.sd_eff_w_re ** 2)
    assert (float(ours.pi_low), float(ours.pi_high)) == pytest.approx(
        (theirs.mean_effect_re - half, theirs.mean_effect_re + half), rel=1e-9)
    assert np.isnan(random_effects(y[:2], v[:2]).pi_low)


def test_rows_are_meta_analyses_of_their_own() -> None:
    rows = [_studies(seed, 6, 0.1) for seed in range(5)]
    y, v = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    for estimator in ("dl", "reml"):
        together = random_effects(y, v, estimator=estimator)
        for i in range(5):
            alone = random_effects(y[i], v[i], estimator=estimator)
            assert together.tau2[i] == pytest.approx(float(alone.tau2), rel=1e-9, abs=1e-14)
            assert together.effect[i] == pytest.approx(float(alone.effect), rel=1e-9)


def test_bad_meta_analysis_inputs() -> None:
    with pytest.raises(InputError, match="positive"):
        random_effects([0.1, 0.2], [0.01, 0.0])
    with pytest.raises(InputError, match="at least 2"):
        random_effects([0.1], [0.01])


# ------------------------------------------------------------------------ across collections
def _suite(seed: int, topics: tuple[int, ...], effects: tuple[float, ...] = (0.0, 0.05, 0.1)
           ) -> dict[str, ScoreMatrix]:
    """Collections of ``topics`` topics, systems whose true mean on every collection is
    0.4 + the system's effect (topics' difficulty and noise around it)."""
    gen = np.random.default_rng(seed)
    out = {}
    for c, n in enumerate(topics):
        values = (0.4 + gen.normal(0, 0.1, (n, 1)) + np.array(effects)
                  + gen.normal(0, 0.05, (n, len(effects))))
        out[f"c{c}"] = ScoreMatrix.from_array(
            values, topics=[str(t) for t in range(n)],
            systems=[f"s{s}" for s in range(len(effects))], measures=["ap"])
    return out


def test_per_collection_differences_and_meta_analysis() -> None:
    suite = _suite(0, (10, 25, 40))
    result = across_collections(suite, samples=50, rng=1)
    per = result.collection_table
    row = per[(per.collection == "c1") & (per.system_a == "s0") & (per.system_b == "s2")]
    x = suite["c1"].array()
    d = x[:, 0] - x[:, 2]
    assert float(row.difference.iloc[0]) == pytest.approx(d.mean())
    assert float(row.variance.iloc[0]) == pytest.approx(d.var(ddof=1) / len(d))
    means = result.mean_table[result.mean_table.collection == "c1"]
    assert means["mean"].to_numpy() == pytest.approx(x.mean(axis=0))
    assert result.system_table["mean"].to_numpy() == pytest.approx(
        np.mean([m.array().mean(axis=0) for m in suite.values()], axis=0))
    pair = per[(per.system_a == "s0") & (per.system_b == "s2")]
    theirs = _combine(pair.difference.to_numpy(), pair.variance.to_numpy(), method_re="dl")
    meta = result.meta_table
    dl = meta[(meta.system_a == "s0") & (meta.system_b == "s2") & (meta.estimator == "dl")]
    tau2, effect, se, (low, high) = _random_part(theirs, 0.05)
    assert float(dl.effect.iloc[0]) == pytest.approx(effect)
    assert float(dl.tau2.iloc[0]) == pytest.approx(tau2, abs=1e-14)
    assert float(dl.se.iloc[0]) == pytest.approx(se)
    assert (float(dl.ci_low.iloc[0]), float(dl.ci_high.iloc[0])) == pytest.approx((low, high))


def test_mixed_model_matches_statsmodels_mixedlm() -> None:
    """The model with random collection, system × collection and topic within collection
    is statsmodels' ``MixedLM`` with the collection as its group, a random intercept and
    the two other terms as variance components (REML): the same system effects, variance
    components, restricted log-likelihood and Wald test, on collections of unequal
    sizes (with variance in every term: statsmodels' optimiser stops short of a
    boundary)."""
    gen = np.random.default_rng(3)
    suite = {f"c{c}": ScoreMatrix.from_array(
        0.4 + gen.normal(0, 0.1) + gen.normal(0, 0.1, (n, 1)) + np.array([0.0, 0.05, 0.1])
        + gen.normal(0, 0.04, (1, 3)) + gen.normal(0, 0.05, (n, 3)),
        topics=[str(t) for t in range(n)], systems=["s0", "s1", "s2"], measures=["ap"])
        for c, n in enumerate((9, 14, 20, 11, 16))}
    model = across_collections(suite, samples=20, rng=1).model
    rows = [(name, f"{t}", system, value) for name, matrix in suite.items()
            for t, scores in enumerate(matrix.array())
            for system, value in zip(matrix.systems, scores, strict=True)]
    frame = pd.DataFrame(rows, columns=["collection", "topic", "system", "score"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = smf.mixedlm("score ~ 0 + C(system)", frame, groups="collection",
                             re_formula="1", vc_formula={"sc": "0 + C(system)",
                                                         "topic": "0 + C(topic)"}
                             ).fit(reml=True, method=["lbfgs"])
    assert model.estimates == pytest.approx(theirs.fe_params.to_numpy(), abs=1e-6)
    components = [float(theirs.cov_re.iloc[0, 0]), *theirs.vcomp, theirs.scale]
    assert [value for _, value in model.components] == pytest.approx(components, rel=1e-3)
    assert model.loglik == pytest.approx(theirs.llf, rel=1e-6)
    # the Wald test with the GLS Cov(β̂) = (X'V⁻¹X)⁻¹, V built from statsmodels'
    # components (its own cov_params inverts the whole Hessian: mixed.py's docstring)
    def same(column: str) -> np.ndarray:
        return (frame[column].to_numpy()[:, None] == frame[column].to_numpy()).astype(float)

    cells = frame.collection + ":" + frame.system
    inner = (cells.to_numpy()[:, None] == cells.to_numpy()).astype(float)
    topics = same("topic") * same("collection")
    v = (components[0] * same("collection") + components[1] * inner
         + components[2] * topics + components[3] * np.eye(len(frame)))
    x = pd.get_dummies(frame.system).to_numpy(dtype=float)
    cov = np.linalg.inv(x.T @ np.linalg.solve(v, x))
    assert model.cov == pytest.approx(cov, rel=2e-3)
    contrast = np.hstack([np.eye(2), -np.ones((2, 1))])
    difference = contrast @ theirs.fe_params.to_numpy()
    wald = difference @ np.linalg.solve(contrast @ cov @ contrast.T, difference)
    assert model.statistic == pytest.approx(wald, rel=1e-3)
    shares = variance_table(model)
    assert shares.share.sum() == pytest.approx(1.0)
    assert shares.variance.to_numpy() == pytest.approx(components, rel=1e-3)


def test_bootstrap_is_deterministic_with_a_seed() -> None:
    suite = _suite(1, (8, 12))
    one = across_collections(suite, samples=200, rng=7)
    two = across_collections(suite, samples=200, rng=7)
    other = across_collections(suite, samples=200, rng=8)
    assert one.system_table.equals(two.system_table)
    assert one.pair_table.equals(two.pair_table)
    assert not one.system_table.equals(other.system_table)


def test_bootstrap_covers_the_truth() -> None:
    """On simulated suites whose systems' true difference is known, the 90% stratified
    intervals of the difference cover it about 90% of the time (a binomial band: 200
    suites, not a coincidence of one seed)."""
    covered = 0
    suites = 200
    for seed in range(suites):
        result = across_collections(_suite(100 + seed, (30, 40, 50)), alpha=0.1,
                                    samples=400, rng=seed)
        pairs = result.pair_table
        row = pairs[(pairs.system_a == "s0") & (pairs.system_b == "s2")].iloc[0]
        covered += row.ci_low <= -0.1 <= row.ci_high
    low, high = stats.binom.ppf([0.0005, 0.9995], suites, 0.9)
    assert low <= covered <= high


def test_system_missing_from_a_collection() -> None:
    suite = _suite(2, (5, 6))
    suite["c1"] = suite["c1"].subset(systems=["s0", "s1"])
    with pytest.raises(AlignmentError, match=r"collection 'c1' has no run of system.*s2"):
        across_collections(suite)


def test_one_collection_is_refused() -> None:
    with pytest.raises(Exception, match="2 collections"):
        across_collections(dict(list(_suite(3, (5, 6)).items())[:1]))


def _collection(seed: int, topics: int) -> tuple[dict, dict]:
    """Random qrels and three runs (dictionaries, as pytrec_eval takes them)."""
    gen = np.random.default_rng(seed)
    qrels = {f"q{t}": {f"d{d}": int(gen.integers(0, 3)) for d in range(12)}
             for t in range(topics)}
    runs = {name: {f"q{t}": {f"d{d}": float(gen.uniform()) for d in range(12)}
                   for t in range(topics)} for name in ("bm25", "dense", "hybrid")}
    return qrels, runs


def test_evaluations_per_collection_against_pytrec_eval() -> None:
    """Evaluations (``irscale.evaluate``) of two collections: each collection's mean
    difference and its variance are those of pytrec_eval's per-topic values."""
    suite, oracle = {}, {}
    for name, seed, topics in (("x", 1, 8), ("y", 2, 11)):
        qrels, runs = _collection(seed, topics)
        suite[name] = irscale.evaluate(qrels, runs, ["map"])
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
        oracle[name] = {run: np.array([evaluator.evaluate(ranking)[t]["map"]
                                       for t in sorted(ranking)])
                        for run, ranking in runs.items()}
    result = across_collections(suite, samples=20, rng=0)
    for row in result.collection_table.itertuples(index=False):
        d = oracle[row.collection][row.system_a] - oracle[row.collection][row.system_b]
        assert row.topics == len(d)
        assert row.difference == pytest.approx(d.mean(), abs=1e-12)
        assert row.variance == pytest.approx(d.var(ddof=1) / len(d), abs=1e-12)


def test_forest_plot() -> None:
    from irscale.plots import forest

    result = across_collections(_suite(4, (6, 7, 8)), samples=20, rng=0)
    ax = forest(result, [("s0", "s2")], estimator="dl")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["c0", "c1", "c2", "s0 − s2"]
    with pytest.raises(ParameterError, match="no pairs of the result"):
        forest(result, [("s2", "s0")])
