"""One result protocol for irscale.stats and irscale.meta.

Every public result class speaks scipy's language — ``statistic``, ``pvalue``,
``confidence_interval(confidence_level=0.95)`` and ``effect_size`` where defined — plus
``to_frame()`` and ``format(fmt)``; older attribute names agree with the protocol names;
every resampling routine takes one ``rng`` and one
``progress``; d_z and Hedges' g have noncentral t intervals, checked against a brute-force
inversion written here, an independent integration of the noncentral t, and a published
worked example.
"""

from __future__ import annotations

import copy
import io
import json
import math
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from irscale import meta, stats
from irscale.core import ScoreMatrix
from irscale.datasets import synthetic_collection
from irscale.errors import ParameterError
from irscale.meta.rank_correlation import Correlation
from irscale.meta.scale_effects import ScaleReport
from irscale.stats.effects import EffectSize, effect_size_interval, hedges_j
from irscale.stats.effects import noncentral_t_interval as nct_interval
from irscale.stats.protocol import ConfidenceInterval, Estimate
from irscale.stats.tables import TABLE_FORMATS, format_number

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")


def table(seed: int = 0, topics: int = 14, systems: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random((topics, 1)) * 0.5 + np.linspace(0, 0.3, systems) \
        + rng.normal(0, 0.15, (topics, systems))


def _unit(values: np.ndarray) -> np.ndarray:
    """``values`` mapped into (0, 1), where the margins of a copula model live."""
    return sps.norm.cdf(values - values.mean())


def matrix() -> ScoreMatrix:
    values = table()
    return ScoreMatrix.from_array(np.stack([values, np.sqrt(np.abs(values)), values**2], 2),
                                  measures=["m", "root", "square"])


QRELS = {"q1": {"a": 1, "b": 1, "c": 0, "d": 1, "e": 1}, "q2": {"a": 0, "b": 1, "f": 1, "g": 1}}
RUNS = {
    "X_1": {"q1": {"a": 3, "d": 2, "c": 1}, "q2": {"b": 2, "g": 1}},
    "X_2": {"q1": {"d": 3, "a": 2}, "q2": {"g": 2, "a": 1}},
    "Y_1": {"q1": {"b": 3, "e": 2, "a": 1}, "q2": {"f": 2, "b": 1}},
}


# ---------------------------------------------------------------------- the classes
#: Statistical results: ``statistic`` and ``pvalue`` (``None`` for estimates).
STATISTICAL = {"TestResult", "PairwiseComparisons", "AnovaResult", "AnovaRow",
               "AssumptionChecks", "AssumptionTest",
               "RankTestResult", "EffectSizes", "EffectSize", "KendallTau", "RBO",
               "Correlation", "CorrelationCI", "Concordance", "DiscriminativePower",
               "MixedModelResult", "BootstrapAnovaResult", "DRank", "DocumentSamplingResult",
               "PredictivePower"}
#: ... with ``confidence_interval(confidence_level=0.95)``.
WITH_CI = {"TestResult", "PairwiseComparisons", "EffectSizes", "EffectSize", "CorrelationCI",
           "BootstrapAnovaResult", "DocumentSamplingResult"}
#: ... with ``effect_size``.
WITH_EFFECT = {"TestResult", "PairwiseComparisons", "AnovaResult", "AnovaRow",
               "RankTestResult", "EffectSizes", "BootstrapAnovaResult"}
#: Reports: ``to_frame()`` and ``format(fmt)`` only.
REPORTS = {"BaselineComparison", "PoolingBias", "TopicSetSize", "GStudy", "DStudy", "QppResult",
           "Decisions", "LeaveOneOut", "ScaleEffects", "ScaleReport", "SplitStudy",
           "SwapRates", "TopicSplits",
           "SimulationStudy", "Reproducibility", "RankingAgreement", "Informativeness",
           "SimulatedScores", "SimulatedRuns", "SeedEvaluation", "AcrossCollections",
           "RandomEffects", "QppCorrelations"}
#: Public classes that are not results (inputs: shard scores, the generative models of a
#: simulation study; the interval type results return).
NOT_RESULTS = {"ShardScores", "ConfidenceInterval", "NormalModel", "BootstrapModel",
               "CopulaModel", "RunsModel"}


def public_classes() -> dict[str, type]:
    found = {}
    for module in (stats, meta):
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type):
                found[name] = value
    return found


def test_every_public_class_is_classified():
    classes = set(public_classes())
    assert stats.EffectSize is EffectSize and meta.Correlation is Correlation
    assert stats.ConfidenceInterval is ConfidenceInterval
    assert classes == STATISTICAL | REPORTS | NOT_RESULTS
    assert not STATISTICAL & REPORTS
    assert WITH_CI <= STATISTICAL and WITH_EFFECT <= STATISTICAL


def qpp_tables(values: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two predictors of the first system's scores (made-up predictions: the second and
    third systems' scores) and that system's scores."""
    topics = [f"q{i}" for i in range(len(values))]
    predictions = pd.DataFrame(
        [{"topic": t, "predictor": p, "value": v} for p, column in (("a", 1), ("b", 2))
         for t, v in zip(topics, values[:, column], strict=True)])
    return predictions, pd.DataFrame({"topic": topics, "value": values[:, 0]})


def qpp_result(values: np.ndarray) -> stats.QppResult:
    """The ANOVA of the two predictors of :func:`qpp_tables`."""
    return stats.qpp_anova(*qpp_tables(values))


def qpp_correlations(values: np.ndarray) -> stats.QppCorrelations:
    """The correlations of the two predictors of :func:`qpp_tables`, bootstrapped."""
    return stats.qpp_correlations(*qpp_tables(values), samples=50, rng=1)


@pytest.fixture(scope="module")
def instances() -> dict[str, list[object]]:
    """At least one instance of every result class, made through the public API."""
    values = table()
    x, y = values[:, 3], values[:, 0]
    m = matrix()
    anova = stats.anova(values)
    replicated = stats.ShardScores.from_array(np.stack([values, table(1), table(2)], axis=2))
    effects = meta.scale_effects(m, [("m", "root")], recall_base={"m": False}, N=5,
                                 label="X", tests=("t", "MD2", "friedman"))
    made = {
        "TestResult": [stats.paired_t(x, y), stats.welch_t(x, y, alternative="greater"),
                       stats.randomization_test(x, y, samples=200, rng=1, exact=False),
                       stats.mann_whitney(x, y)],
        "PairwiseComparisons": [stats.tukey_hsd(values), stats.pairwise_tests(values, "t"),
                                stats.randomized_tukey_hsd(values, samples=200, rng=1),
                                stats.pairwise_tests(values, "welch", correction="none"),
                                stats.mixed_model(values).pairwise()],
        "AnovaResult": [anova, stats.anova(values, "system")],
        "AnovaRow": list(anova.rows),
        "AssumptionChecks": [anova.assumptions, stats.anova(values, "system").assumptions],
        "AssumptionTest": list(anova.assumptions.tests),
        "RankTestResult": [stats.friedman(values), stats.kruskal_wallis(values)],
        "BaselineComparison": [stats.baseline_comparison(m, m.systems[0])],
        "PoolingBias": [meta.pooling_bias(
            {"1": {"d1": 1, "d2": 0, "d3": 1}, "2": {"d1": 1, "d4": 1}},
            {"a": {"1": {"d1": 3, "d2": 2}, "2": {"d1": 1, "d4": 2}},
             "b": {"1": {"d3": 3, "d2": 2}, "2": {"d4": 1}}},
            {"c": {"1": {"d3": 3, "d1": 2}, "2": {"d1": 1}}}, ["map"])],
        "MixedModelResult": [stats.mixed_model(values), stats.mixed_model(values, method="ml"),
                             stats.mixed_model((values > np.median(values)).astype(float),
                                               family="binomial")],
        "EffectSizes": [stats.effect_sizes(x, y), stats.effect_sizes(x, y, paired=False)],
        "EffectSize": [stats.paired_t(x, y).effect_size, stats.student_t(x, y).effect_size],
        "TopicSetSize": [stats.topic_set_size("paired-t", min_diff=0.05, sd=0.15),
                         stats.gstudy(values).topics_for(0.9)],
        "GStudy": [stats.gstudy(values),
                   stats.gstudy(np.stack([values, values[::-1] ** 2], axis=2))],
        "DStudy": [stats.gstudy(values).dstudy([10, 50])],
        "QppResult": [qpp_result(values)],
        "QppCorrelations": [qpp_correlations(values)],
        "BootstrapAnovaResult": [
            stats.bootstrap_anova(replicated, samples=50, rng=1),
            stats.bootstrap_anova(replicated, resample="topics", interaction=False,
                                  samples=50, rng=1)],
        "DocumentSamplingResult": [
            stats.document_sampling_test(x - y, np.full(len(x), 0.01)),
            stats.document_sampling_test(x - y, np.full(len(x), 0.01), model="documents")],
        "DRank": [meta.d_rank(m, measure_a="m", measure_b="root"),
                  meta.rank_distance(values, [f"s{i + 1}" for i in range(5)][::-1])],
        "KendallTau": [meta.kendall_tau(x, y)],
        "RBO": [meta.rbo_scores(x, y)],
        "Correlation": [meta.tau_ap(x, y), meta.spearman(x, y), meta.correlation(x, y),
                        meta.overall_correlation(m, measure_a="m", measure_b="root")],
        "CorrelationCI": [meta.correlation_ci(m, measure_a="m", measure_b="square",
                                              samples=100, rng=2)],
        "Concordance": [meta.concordance_test(m.measure("m"), m.measure("root"),
                                              m.measure("square"))],
        "PredictivePower": [meta.predictive_power(
            [(str(t), "A", "B", "left" if t % 3 else "right") for t in range(5)],
            pd.DataFrame(values[:5, :2], index=[str(t) for t in range(5)],
                         columns=["A", "B"]), bins=[0, 0.1, 1])],
        "DiscriminativePower": [meta.discriminative_power(values, samples=100, rng=1),
                                meta.discriminative_power(values, "randomized-tukey-hsd",
                                                          samples=100, rng=1)],
        "Decisions": [meta.decide(values, "MD2")],
        "RandomEffects": [stats.random_effects(values[:3].T, np.abs(values[3:6].T) / 10 + 0.01),
                          stats.random_effects(values[0], np.abs(values[1]) / 10 + 0.01,
                                               estimator="dl")],
        "AcrossCollections": [stats.across_collections(
            {"c1": ScoreMatrix.from_array(values[:7]), "c2": ScoreMatrix.from_array(values[7:])},
            samples=50, rng=1)],
        "LeaveOneOut": [meta.leave_one_out(QRELS, RUNS, ["P@2", "map"], depth=10)],
        "Reproducibility": [meta.reproducibility(*(values[:, k] for k in range(4))),
                            meta.reproducibility(values[:, 0], values[:, 1], values[:5, 2],
                                                 values[:5, 3])],
        "Informativeness": [meta.informativeness([[1, 0, 1, 0, 0, 1], [0, 1, 1, 0, 0, 0]],
                                                 measures=["AP", "P@2"])],
        "RankingAgreement": [meta.ranking_agreement(RUNS["X_1"], RUNS["X_2"])],
        "ScaleEffects": [effects],
        "ScaleReport": [ScaleReport("X", (effects,))],
        "SplitStudy": [meta.split_study(values, (4,), 3, models=("MD2",), rng=1)],
        "SwapRates": [meta.swap_rates(values, (4,), 3, rng=1)],
        "TopicSplits": [meta.topic_splits(14, 5, 3, rng=1)],
        "SimulationStudy": [meta.simulation_study(meta.BootstrapModel(values), ("t",),
                                                  repetitions=20, rng=1)],
        "SimulatedScores": [meta.simulate_scores(_unit(values), n_topics=5, rng=1),
                            meta.simulate_scores(_unit(values), copula="t", null=True,
                                                 n_topics=3, rng=2)],
        "SeedEvaluation": [stats.evaluate_seeds(
            {"1": {"a": 1, "b": 0}, "2": {"c": 1, "d": 0}},
            {"x": {"x1": {"1": {"a": 2.0, "b": 1.0}, "2": {"d": 2.0, "c": 1.0}},
                   "x2": {"1": {"b": 2.0, "a": 1.0}, "2": {"c": 2.0, "d": 1.0}}},
             "y": {"y1": {"1": {"a": 2.0}, "2": {"c": 2.0}}}}, ["map", "P@1"])],
        "SimulatedRuns": [meta.simulate_runs(
            synthetic_collection(n_topics=4, pool_size=20, depth=10).qrels, (0.5, 1.0),
            truth_draws=5, rng=1)],
    }
    return made


def test_every_class_has_an_instance(instances):
    for name, cls in public_classes().items():
        if name in NOT_RESULTS:
            continue
        assert instances[name], name
        assert all(isinstance(obj, cls) for obj in instances[name]), name


@pytest.mark.parametrize("name", sorted(STATISTICAL | REPORTS))
def test_to_frame_and_every_format(instances, name):
    for obj in instances[name]:
        frame = obj.to_frame()
        assert isinstance(frame, pd.DataFrame) and len(frame) >= 1, name
        for fmt in TABLE_FORMATS:
            for text in (obj.format(fmt), obj.format(fmt=fmt)):
                assert isinstance(text, str) and text.strip(), (name, fmt)
            if fmt == "json":
                json.loads(text)
            if fmt == "csv":  # (a report of several tables: one section each)
                assert len(pd.read_csv(io.StringIO(text.split("\n\n")[0]))) >= 1
            if fmt == "latex":
                assert "\\begin{tabular}" in text
                # text-mode < and > print as ¡ and ¿ in LaTeX's default font encoding
                outside_math = re.sub(r"\$[^$]*\$", "", text)
                assert "<" not in outside_math and ">" not in outside_math, name
        with pytest.raises(ParameterError, match="format must be one of"):
            obj.format(fmt="html")


@pytest.mark.parametrize("name", sorted(STATISTICAL))
def test_statistic_and_pvalue_exist(instances, name):
    for obj in instances[name]:
        assert hasattr(obj, "statistic") and hasattr(obj, "pvalue"), name
        has_ci = callable(getattr(obj, "confidence_interval", None))
        assert has_ci == (name in WITH_CI), name
        assert hasattr(obj, "effect_size") == (name in WITH_EFFECT), name
        if name in WITH_CI:
            ci = obj.confidence_interval()
            assert isinstance(ci, ConfidenceInterval)
            low, high = ci
            assert np.all(np.asarray(low) <= np.asarray(high))
            assert np.all(np.asarray(ci.low) == np.asarray(low))
            wide, narrow = obj.confidence_interval(0.99), obj.confidence_interval(0.8)
            assert np.all(np.asarray(wide.low) <= np.asarray(narrow.low))
            assert np.all(np.asarray(wide.high) >= np.asarray(narrow.high))
            for bad in (0, 1, 1.5, -0.1, "x", True):
                with pytest.raises(ParameterError, match="confidence_level"):
                    obj.confidence_interval(bad)


def test_new_names_agree_with_the_old_ones(instances):
    for r in instances["TestResult"]:
        assert r.confidence_interval(1 - r.alpha) == (r.ci_low, r.ci_high) == r.ci
        expected = r.effect.d_z if r.paired else r.effect.hedges_g
        assert float(r.effect_size) == expected
        assert r.effect_size.kind == ("d_z" if r.paired else "hedges_g")
    for fam in instances["PairwiseComparisons"]:
        assert fam.pvalue is fam.columns["p"]
        assert fam.statistic is fam.columns["statistic"]
        ci = fam.confidence_interval(1 - fam.alpha)
        assert np.array_equal(ci.low, fam.columns["ci_low"])
        assert np.array_equal(ci.high, fam.columns["ci_high"])
        if "d_z" in fam.columns:
            paired = fam.extra["paired"]
            assert fam.effect_size is fam.columns["d_z" if paired else "hedges_g"]
        else:
            assert fam.effect_size is None
    for row in instances["AnovaRow"]:
        assert (row.statistic, row.pvalue, row.effect_size) == (row.f, row.p, row.omega2)
    for table_ in instances["AnovaResult"]:
        system = table_.row("system")
        assert (table_.statistic, table_.pvalue, table_.effect_size) == (
            system.f, system.p, system.omega2)
    for tau in instances["KendallTau"]:
        assert tau.statistic == tau.tau == float(tau) and tau.pvalue is None
    for overlap in instances["RBO"]:
        assert overlap.statistic == overlap.ext == float(overlap) and overlap.pvalue is None
    for ci in instances["CorrelationCI"]:
        assert ci.statistic == ci.estimate and ci.pvalue is None
        assert ci.confidence_interval(ci.level) == (ci.low, ci.high)
    for conc in instances["Concordance"]:
        assert conc.statistic == conc.wins_1
    for dp in instances["DiscriminativePower"]:
        assert np.array_equal(dp.pvalue, dp.pairs["asl"].to_numpy())
        assert len(dp.statistic) == dp.n_pairs
    for es in instances["EffectSizes"]:
        assert es.statistic == getattr(es, es.primary) == float(es.effect_size)
        assert es.pvalue is None
    friedman, kruskal = instances["RankTestResult"]
    n, k = table().shape
    assert friedman.effect_size == pytest.approx(friedman.statistic / (n * (k - 1)))
    assert kruskal.effect_size == pytest.approx(kruskal.statistic / (n * k - 1))


# ---------------------------------------------------------------------- floats that stay floats
def test_numbers_beyond_double_precision_are_shown_in_scientific_notation():
    # a double holds 15-17 significant digits: a delta-method difference of 1.7e299 was
    # printed with its 300 fixed-point digits, all but the first 17 noise
    assert format_number(-1.6683283482884672e299) == "-1.67e+299"
    assert format_number(1e15) == "1.00e+15"
    assert format_number(999999999999999.0, 1) == "999999999999999.0"
    assert format_number(123456.5) == "123456.5000"
    assert format_number(1e-5) == "1.00e-05"


def test_correlations_are_still_floats():
    x, y = table()[:, 1], table()[:, 4]
    old = {  # the float each function returned before
        "tau_ap": meta.rank_correlation._tau_ap(x, y, 1e-12, 0.0),
        "spearman": float(sps.spearmanr(x, y).statistic),
        "kendall": meta.kendall_tau(x, y).tau,
    }
    for method, value in (("tau_ap", meta.tau_ap(x, y)), ("spearman", meta.spearman(x, y)),
                          ("kendall", meta.correlation(x, y))):
        assert isinstance(value, float) and isinstance(value, Estimate)
        assert value == pytest.approx(old[method], abs=1e-12)
        assert repr(value) == repr(float(value)) and f"{value:.3f}" == f"{float(value):.3f}"
        assert value.statistic == float(value) and value.pvalue is None
        assert value.method == method and value.n == len(x)
        assert json.loads(json.dumps({"v": value}))["v"] == float(value)
        restored = pickle.loads(pickle.dumps(value))
        assert restored == value and restored.method == method
        assert copy.deepcopy(value).info == value.info
        assert type(value + 1) is float and math.isclose(value * 2, 2 * float(value))
        assert np.asarray([value, value]).dtype == np.float64
        with pytest.raises(AttributeError):
            value.method = "other"
    sym = meta.tau_ap_symmetric(x, y)
    assert sym == pytest.approx(0.5 * (meta.tau_ap(x, y) + meta.tau_ap(y, x)))
    assert meta.topic_correlations(matrix(), measure_a="m", measure_b="root").dtype == float
    assert meta.correlation_matrix(matrix()).dtypes.eq(float).all()


# ---------------------------------------------------------------------- intervals at any level
def test_difference_intervals_match_scipy():
    values = table(3, 20, 3)
    x, y = values[:, 2], values[:, 0]
    for alternative in ("two-sided", "greater", "less"):
        ours = stats.paired_t(x, y, alternative=alternative)
        ref = sps.ttest_rel(x, y, alternative=alternative)
        for level in (0.8, 0.95, 0.99):
            assert ours.confidence_interval(level) == pytest.approx(
                tuple(ref.confidence_interval(level)), rel=1e-12)
        for function, equal in ((stats.student_t, True), (stats.welch_t, False)):
            ours = function(x, y, alternative=alternative)
            ref = sps.ttest_ind(x, y, equal_var=equal, alternative=alternative)
            assert ours.confidence_interval(0.9) == pytest.approx(
                tuple(ref.confidence_interval(0.9)), rel=1e-12)


def test_tukey_intervals_match_scipy_at_any_level():
    values = table(4, 12, 4)
    ours = stats.tukey_hsd(values, "system")
    ref = sps.tukey_hsd(*values.T)
    i, j = np.triu_indices(4, 1)
    for level in (0.9, 0.95):
        ci, expected = ours.confidence_interval(level), ref.confidence_interval(level)
        assert ci.low == pytest.approx(expected.low[i, j], rel=1e-6)
        assert ci.high == pytest.approx(expected.high[i, j], rel=1e-6)


def test_randomized_tukey_and_pairwise_intervals_at_other_levels():
    values = table(5)
    rt = stats.randomized_tukey_hsd(values, samples=500, rng=3)
    critical = np.quantile(rt.extra["ranges"], 0.8)
    assert rt.confidence_interval(0.8).high == pytest.approx(rt.columns["diff"] + critical)
    fam = stats.pairwise_tests(values, "t", correction="none")
    first = stats.paired_t(values[:, 0], values[:, 1])
    assert fam.confidence_interval(0.9).low[0] == pytest.approx(first.confidence_interval(0.9)
                                                                .low, rel=1e-12)


def test_correlation_ci_at_other_levels():
    ci = meta.correlation_ci(matrix(), measure_a="m", measure_b="square", samples=300, rng=4)
    finite = ci.replicates[np.isfinite(ci.replicates)]
    assert ci.confidence_interval(0.5) == pytest.approx(tuple(np.quantile(finite,
                                                                          [0.25, 0.75])))


# ---------------------------------------------------------------------- effect size intervals
def brute_force_limits(t: float, df: float, level: float) -> tuple[float, float]:
    """λ with P(T'_{df,λ} ≤ t) = 1 − a and = a, a = (1 − level)/2, by plain bisection on a
    wide bracket (independent of the implementation's bracketing and root finder)."""

    def solve(q: float) -> float:
        low, high = t - 60.0, t + 60.0
        for _ in range(200):
            mid = 0.5 * (low + high)
            if sps.nct.cdf(t, df, mid) > q:
                low = mid
            else:
                high = mid
        return 0.5 * (low + high)

    a = (1 - level) / 2
    return solve(1 - a), solve(a)


@pytest.mark.parametrize("seed", range(6))
def test_d_z_interval_is_the_noncentral_t_inversion(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    x = rng.normal(0.4, 0.2, n)
    y = x - rng.normal(rng.uniform(-0.1, 0.2), 0.1, n)
    result = stats.paired_t(x, y)
    d_z = result.effect.d_z
    assert result.statistic == pytest.approx(d_z * math.sqrt(n), rel=1e-12)
    for level in (0.9, 0.95):
        lam_low, lam_high = brute_force_limits(d_z * math.sqrt(n), n - 1, level)
        low, high = result.effect_size.confidence_interval(level)
        assert low == pytest.approx(lam_low / math.sqrt(n), abs=1e-8)
        assert high == pytest.approx(lam_high / math.sqrt(n), abs=1e-8)
        # g_z: the bias correction J(n − 1) applied to the limits
        g = result.effect.get("g_z").confidence_interval(level)
        j = float(hedges_j(n - 1))
        assert g == pytest.approx((j * low, j * high), rel=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_hedges_g_interval_is_j_times_the_d_interval(seed):
    rng = np.random.default_rng(100 + seed)
    n, m = (int(v) for v in rng.integers(4, 40, 2))
    x, y = rng.normal(0.5, 0.2, n), rng.normal(0.45, 0.25, m)
    result = stats.student_t(x, y)
    d = result.effect.cohen_d
    scale = math.sqrt(n * m / (n + m))
    assert result.statistic == pytest.approx(d * scale, rel=1e-10)
    lam_low, lam_high = brute_force_limits(d * scale, n + m - 2, 0.95)
    j = float(hedges_j(n + m - 2))
    g = result.effect_size
    assert g.kind == "hedges_g" and float(g) == pytest.approx(j * d)
    assert g.confidence_interval() == pytest.approx((j * lam_low / scale, j * lam_high / scale),
                                                    abs=1e-8)
    assert result.effect.confidence_interval(kind="cohen_d") == pytest.approx(
        (lam_low / scale, lam_high / scale), abs=1e-8)


def mpmath_nct_cdf(t: float, nu: float, lam: float) -> float:
    """P(T' ≤ t) = ∫ Φ(t √(v/ν) − λ) f_{χ²_ν}(v) dv by mpmath quadrature (not scipy's
    noncentral t)."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30

    def density(v):
        return mp.ncdf(t * mp.sqrt(v / nu) - lam) * mp.exp(
            (nu / 2 - 1) * mp.log(v) - v / 2 - (nu / 2) * mp.log(2) - mp.loggamma(nu / 2))

    return float(mp.quad(density, [0, nu / 2, nu, 2 * nu, 4 * nu, mp.inf]))


def test_noncentral_interval_against_an_independent_integration():
    """The limits solve P(T' ≤ t) = 0.975 and 0.025 (:func:`mpmath_nct_cdf`)."""
    for t, df in ((3.66393, 39), (-1.2, 7), (0.4, 24)):
        low, high = nct_interval(t, df, 0.95)
        assert mpmath_nct_cdf(t, df, low) == pytest.approx(0.975, abs=1e-9)
        assert mpmath_nct_cdf(t, df, high) == pytest.approx(0.025, abs=1e-9)


def test_noncentral_interval_at_levels_near_one():
    """A 99.9999% interval of t = −8.5 on 2 df (d_z of three topics) brackets λ where
    scipy's ``nct.cdf`` is NaN (tail below 10⁻¹³): the limits are found, not a ValueError
    of the root finder, and solve the equations (:func:`mpmath_nct_cdf`)."""
    for level in (0.999999, 0.9999999999):
        low, high = nct_interval(-8.5, 2, level)
        assert math.isfinite(low) and math.isfinite(high) and low < -8.5 < high
        tail = (1 - level) / 2
        assert mpmath_nct_cdf(-8.5, 2, high) == pytest.approx(tail, rel=1e-6)
        assert 1 - mpmath_nct_cdf(-8.5, 2, low) == pytest.approx(tail, rel=1e-3)


def test_published_worked_example_kline_2013():
    """Kline (2013, *Beyond Significance Testing*, Table 3.4, worked in ch. 7, p. 202 —
    as esci's tests quote it): d = −0.8528028 for two groups of 5 with the error df of
    a three-group design (ν = 12); noncentral 95% interval [−2.121155, 0.4482578]."""
    scale = math.sqrt(5 * 5 / (5 + 5))
    low, high = nct_interval(-0.8528028 * scale, 12, 0.95)
    assert low / scale == pytest.approx(-2.121155, abs=2e-6)
    assert high / scale == pytest.approx(0.4482578, abs=2e-7)


def test_effect_size_intervals_follow_the_alternative_and_the_design():
    values = table(7, 25, 2)
    x, y = values[:, 1], values[:, 0]
    two = stats.paired_t(x, y).effect_size.confidence_interval(0.9)
    greater = stats.paired_t(x, y, alternative="greater").effect_size.confidence_interval(0.95)
    less = stats.paired_t(x, y, alternative="less").effect_size.confidence_interval(0.95)
    assert greater.high == math.inf and greater.low == pytest.approx(two.low, rel=1e-9)
    assert less.low == -math.inf and less.high == pytest.approx(two.high, rel=1e-9)
    paired = stats.effect_sizes(x, y)
    with pytest.raises(ParameterError, match="independent groups"):
        paired.confidence_interval(kind="hedges_g")
    with pytest.raises(ParameterError, match="Glass"):
        paired.confidence_interval(kind="glass_delta")
    with pytest.raises(ParameterError, match="paired scores"):
        stats.effect_sizes(x, y, paired=False).confidence_interval(kind="d_z")
    with pytest.raises(ParameterError, match="unknown effect size"):
        paired.confidence_interval(kind="eta")
    assert effect_size_interval("d_z", math.nan, 10, paired=True) == (
        pytest.approx(math.nan, nan_ok=True), pytest.approx(math.nan, nan_ok=True))
    # zero effect: symmetric interval
    low, high = nct_interval(0.0, 20, 0.95)
    assert low == pytest.approx(-high, rel=1e-9)


def test_extreme_noncentral_intervals_are_finite_and_ordered():
    for t, df in ((300.0, 999), (-50.0, 5), (40.0, 3), (1e-9, 2), (12.0, 1)):
        low, high = nct_interval(t, df, 0.95)
        assert math.isfinite(low) and math.isfinite(high) and low < t < high


# ---------------------------------------------------------------------- one rng, one progress
def resampling_calls(values: np.ndarray, m: ScoreMatrix):
    x, y = values[:, 2], values[:, 0]
    return {
        "paired_bootstrap_test": lambda **o: stats.paired_bootstrap_test(x, y, samples=150, **o),
        "bootstrap_shift_test": lambda **o: stats.bootstrap_shift_test(x, y, samples=150, **o),
        "unpaired_bootstrap_test": lambda **o: stats.unpaired_bootstrap_test(x, y, samples=150,
                                                                             **o),
        "randomization_test": lambda **o: stats.randomization_test(x, y, samples=150,
                                                                   exact=False, **o),
        "two_sample_test": lambda **o: stats.two_sample_test(x, y, test="bootstrap",
                                                             samples=150, **o),
        "randomized_tukey_hsd": lambda **o: stats.randomized_tukey_hsd(values, samples=150, **o),
        "pairwise_tests": lambda **o: stats.pairwise_tests(m, "randomization", samples=150,
                                                           exact=False, **o),
        "discriminative_power": lambda **o: meta.discriminative_power(values, samples=150, **o),
        "split_study": lambda **o: meta.split_study(values, (4, 5), 2,
                                                    models=("MD2", "bootstrap"),
                                                    options={"bootstrap": {"samples": 50}},
                                                    **o),
        "swap_rates": lambda **o: meta.swap_rates(values, (4,), 3, test="bootstrap", **o),
        "correlation_ci": lambda **o: meta.correlation_ci(m, measure_a="m", measure_b="root",
                                                          samples=150, **o),
    }


def fingerprint(result: object) -> object:
    if hasattr(result, "to_frame"):
        return result.to_frame().to_json()
    return repr(result)


def test_rng_seeds_and_generators():
    values, m = table(8), matrix()
    for name, call in resampling_calls(values, m).items():
        reference = fingerprint(call(rng=7))
        assert fingerprint(call(rng=np.int64(7))) == reference, name
        assert fingerprint(call(rng=np.random.default_rng(5))) == \
            fingerprint(call(rng=np.random.default_rng(5))), name
        for bad in (-1, 1.5, "x", True, np.random.RandomState(0)):
            with pytest.raises(ParameterError, match="must be"):
                call(rng=bad)
    splits = meta.topic_splits(20, 6, 4, rng=3)
    again = meta.topic_splits(20, 6, 4, rng=3)
    assert np.array_equal(splits.first, again.first)


def test_rng_results_equal_the_seed_results_before_the_change():
    """rng=s draws from numpy's SeedSequence(s)."""
    values = table(9)
    x, y = values[:, 1], values[:, 0]
    result = stats.randomization_test(x, y, samples=500, rng=11, exact=False)
    gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(11).spawn(1)[0]))
    signs = 1.0 - 2.0 * gen.integers(0, 2, size=(500, len(x)), dtype=np.int8)
    d = x - y
    count = np.count_nonzero(np.abs(signs @ d) >= abs(d.sum()) * (1 - 1e-10))
    assert result.pvalue == pytest.approx((count + 1) / 501)


def test_one_progress_mechanism(capsys, monkeypatch):
    # progress=True draws a bar on a terminal (off one, short work prints no plain line)
    monkeypatch.setattr("irscale.core.progress._is_terminal", lambda: True)
    values, m = table(10), matrix()
    for name, call in resampling_calls(values, m).items():
        seen: list[tuple[int, int]] = []
        call(rng=1, progress=lambda done, total, seen=seen: seen.append((done, total)))
        assert seen, name
        totals = {total for _, total in seen}
        assert len(totals) == 1, (name, seen)
        dones = [done for done, _ in seen]
        assert dones == sorted(dones) and dones[-1] == totals.pop(), (name, seen)
        call(rng=1, progress=True)
        assert capsys.readouterr().err.strip(), name
        call(rng=1, progress=False)
        assert not capsys.readouterr().err, name
        with pytest.raises(ParameterError, match="progress must be"):
            call(rng=1, progress="yes")


def test_no_deprecation_warning_on_the_primary_names():
    values, m = table(11), matrix()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in resampling_calls(values, m).values():
            call(rng=2)


def test_statistical_results_show_in_a_notebook(instances):
    """Every statistical and meta-evaluation result renders its notebook table (its
    to_frame(), under its escaped caption: the first line of its repr)."""
    import html

    for name, values in instances.items():
        for result in values:
            page = result._repr_html_()
            caption = repr(result).splitlines()[0]
            assert html.escape(caption) in page and "<table" in page, name
            for column in result.to_frame().columns:
                assert html.escape(str(column)) in page, (name, column)


# ------------------------------------------------------------ unpacking, notebook views
def test_tests_unpack_as_scipy():
    """``t, p = irscale.stats.paired_t(x, y)`` as ``t, p = scipy.stats.ttest_rel(x, y)``."""
    import scipy.stats

    import irscale.stats

    rng = np.random.default_rng(3)
    x, y = rng.random(20), rng.random(20)
    t, p = irscale.stats.paired_t(x, y)
    assert (t, p) == pytest.approx(tuple(scipy.stats.ttest_rel(x, y)), rel=1e-12)
    h, p_kw = irscale.stats.kruskal_wallis(ScoreMatrix.from_array(
        np.column_stack([x, y, x + 0.5])))
    assert (h, p_kw) == pytest.approx(tuple(scipy.stats.kruskal(x, y, x + 0.5)), rel=1e-12)


def test_every_result_of_one_statistic_and_p_unpacks_as_scipy(instances):
    """A result with one test statistic and one p-value (a test's, an ANOVA's system
    factor, a mixed model's Wald test, a bootstrap ANOVA's) unpacks as scipy's results do:
    ``F, p = irscale.stats.anova_oneway(scores)`` as ``F, p = scipy.stats.f_oneway(...)``."""
    for name, values in instances.items():
        for result in values:
            statistic = getattr(result, "statistic", None)
            pvalue = getattr(result, "pvalue", None)
            if statistic is None or pvalue is None or np.ndim(statistic) or np.ndim(pvalue):
                continue
            assert tuple(result) == (statistic, pvalue), name  # type: ignore[arg-type]
    scores = table(5)
    f, p = stats.anova_oneway(scores)
    assert (f, p) == pytest.approx(tuple(sps.f_oneway(*scores.T)), rel=1e-10)


def test_inputs_show_their_first_and_last_rows_in_a_notebook():
    from irscale.core.notebook import MAX_ROWS
    from irscale.io import read_qrels, read_run

    lines = "".join(f"q{i // 10} Q0 d{i} 1 {1000 - i} r\n" for i in range(100))
    run = read_run(lines.encode())
    html = run._repr_html_()
    shown = [f"<td>d{i}</td>" in html for i in range(100)]
    half = MAX_ROWS // 2
    assert shown == [True] * half + [False] * (100 - 2 * half) + [True] * half
    assert "<td>d99</td>" in html and "10 topics, 100 results" in html
    qrels = read_qrels(b"q1 0 d1 1\nq1 0 d2 0\n")
    assert "<td>d2</td>" in qrels._repr_html_()
    matrix = ScoreMatrix.from_array(np.array([[0.2, 0.4], [0.6, 0.5]]),
                                            systems=["a", "b"])
    assert "<td>0.40</td>" in matrix._repr_html_() and "<td>0.45</td>" in matrix._repr_html_()
