"""The declarations of :mod:`irscale.core.params`: a domain takes its values and refuses
the values it says are outside, whatever their type or size (a ``ParameterError``, never
an ``OverflowError``); every domain the module declares keeps that promise."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.collections import params as cparams
from irscale.core import params
from irscale.core.params import Integers, Names, NumberText, Reals
from irscale.errors import ParameterError
from irscale.fusion import params as fparams
from irscale.meta import params as mparams
from irscale.online import params as oparams
from irscale.stats import names as stats_names
from irscale.text import params as tparams

#: The modules that declare parameters: the mechanism's and the owners'.
DECLARING = (params, cparams, fparams, mparams, oparams,
             tparams, stats_names)

#: Every domain the modules declare, alone or in a parameter's declaration (text, used as
#: it is given, and a switch have nothing to refuse).
DOMAINS = [(name, domain) for name, domain in (
    (name, value.domain if isinstance(value, params.Param) else value)
    for module in DECLARING for name, value in vars(module).items()
    if isinstance(value, (Integers, Reals, Names, NumberText, params.Size, params.Pattern,
                          params.Param))) if not isinstance(domain, (params.Text, params.Switch))]


@pytest.mark.parametrize(("name", "domain"), DOMAINS, ids=[name for name, _ in DOMAINS])
def test_every_declared_domain_refuses_what_it_says_is_outside(name, domain):
    assert domain.outside()
    for text in domain.outside():
        with pytest.raises(ParameterError, match=r"^where"):
            try:
                value = domain.type(text)
            except ValueError:  # "nan" is a float; "one" is no number: refused as text
                value = text
            domain.check(value, "where")


@given(low=st.integers(-10**6, 10**6), width=st.integers(0, 10**6), strict=st.booleans(),
       value=st.integers(-10**7, 10**7))
def test_integers_take_exactly_their_range(low, width, strict, value):
    domain = Integers(low, low + width, strict=strict)
    if low <= value <= low + width:
        assert domain.check(value, "n") == value
        if strict:  # integer types only
            with pytest.raises(ParameterError, match=r"^n must be"):
                domain.check(float(value), "n")
        else:
            assert domain.check(float(value), "n") == value
    else:
        with pytest.raises(ParameterError, match=f"^n must be {re.escape(domain.text())}"):
            domain.check(value, "n")


@given(value=st.floats(allow_nan=True, allow_infinity=True))
def test_reals_take_exactly_their_interval(value):
    for bounds in ("[]", "()", "(]", "[)"):
        domain = Reals(0.0, 1.0, bounds)
        inside = math.isfinite(value) and (value > 0 or (value == 0 and bounds[0] == "[")) \
            and (value < 1 or (value == 1 and bounds[1] == "]"))
        if inside:
            assert domain.check(value, "x") == value
        else:
            with pytest.raises(ParameterError, match=r"^x must lie in"):
                domain.check(value, "x")


@pytest.mark.parametrize("value", [10**400, -10**400, Fraction(10**400), True, "1", None])
def test_numbers_of_any_size_or_type_are_refused_cleanly(value):
    for domain in (Integers(1, 10), Integers(1, 10, strict=True), Reals(0.0, 1.0), Reals(),
                   params.RISK_ALPHA):
        if domain is params.RISK_ALPHA and value == "1":
            assert domain.check(value, "x") == "1"  # its text, kept as typed
            continue
        with pytest.raises(ParameterError, match=r"^x must"):
            domain.check(value, "x")


def test_integers_strict_refuses_integral_floats_and_names_keep_their_spelling():
    assert Integers(1).check(5.0, "n") == 5
    with pytest.raises(ParameterError, match=re.escape("n must be an integer ≥ 1, got 5.0")):
        Integers(1, strict=True).check(5.0, "n")
    tests = stats_names.TEST
    assert tests.check("Paired-T", "test") == "t" and tests.check("wilcoxon", "test") == \
        "wilcoxon"
    with pytest.raises(ParameterError,
                       match=re.escape("--test: unknown test 'tt'; choose from t, ")):
        tests.check("tt", "--test")


def _defaults():
    """(declaration, function, the function's name of the parameter) of the parameters the
    command line builds from a declaration and a Python function takes."""
    import irscale
    from irscale import collections, fusion, meta, online, report, stats, text
    from irscale.cli import meta_scales
    from irscale.collections.aware import aware  # its module's name, not exported
    from irscale.core import options as coptions
    from irscale.evaluation import params as eparams
    from irscale.scales.diagnostics import tau_table

    takes = {  # function: {its name of the parameter: the declaration}
        irscale.evaluate: {"relevance_level": params.RELEVANCE,
                           "max_docs": coptions.MAX_RETRIEVED,
                           "judged_only": coptions.JUDGED_ONLY,
                           "complete": coptions.COMPLETE,
                           "num_docs_in_coll": coptions.COLLECTION_SIZE,
                           "compat": coptions.COMPAT, "ties": coptions.TIE_POLICY},
        irscale.evaluate_many: {"batch_size": params.BATCH, "out": eparams.PER_TOPIC_OUT,
                                "cache": eparams.CACHE},
        fusion.optimize_fusion: {"measure": fparams.FUSION_MEASURE,
                                 "step": fparams.FUSION_STEP},
        collections.pool: {"relevance_level": params.RELEVANCE, "p": cparams.POOL_P,
                           "k": cparams.POOL_K, "discount": cparams.POOL_DISCOUNT,
                           "depth": params.RUN_DEPTH, "budget": cparams.POOL_BUDGET,
                           "strategy": cparams.POOL_STRATEGY},
        collections.sample_judgments: {"depth": params.RUN_DEPTH, "size": cparams.SAMPLE_DRAWS,
                                       "design": cparams.SAMPLE_DESIGN},
        aware: {"n_random": cparams.AWARE_RANDOM, "weights": cparams.AWARE_WEIGHTS,
                "allow_unretrieved": cparams.AWARE_UNRETRIEVED},
        collections.qrels_agreement: {"measure": cparams.RANKING_MEASURE},
        collections.automatic_judgments: {"tuning": cparams.AUTO_TUNING,
                                          "pairs": cparams.AUTO_PAIRS},
        meta.simulation_study: {"alpha": params.SIGNIFICANCE,
                                "repetitions": mparams.SIMULATED_MATRICES,
                                "tests": stats_names.SIMULATED_TESTS,
                                "corrections": stats_names.SIMULATED_CORRECTIONS,
                                "checkpoint": mparams.CHECKPOINT},
        meta.BootstrapModel.of: {"null": mparams.SIMULATION_NULL},
        meta.CopulaModel.fit: {"null": mparams.SIMULATION_NULL, "equal": mparams.COPULA_EQUAL},
        meta.NormalModel: {"topics": mparams.NORMAL_TOPICS, "systems": mparams.NORMAL_SYSTEMS,
                           "topic_sd": mparams.NORMAL_TOPIC_SD,
                           "error_sd": mparams.NORMAL_ERROR_SD,
                           "effects": mparams.NORMAL_EFFECTS},
        meta.discriminative_power: {"alpha": params.SIGNIFICANCE,
                                    "samples": mparams.DISCRIMINATIVE_SAMPLES,
                                    "convention": stats_names.CONVENTION},
        stats.pairwise_tests: {"alternative": stats_names.ALTERNATIVE},
        meta.leave_one_out: {"depth": mparams.LOO_DEPTH},
        meta.overall_correlation: {"method": mparams.CORRELATION_METHOD},
        meta.contributors_by_prefix: {"pattern": mparams.CONTRIBUTOR_PATTERN},
        meta.rbo: {"p": mparams.RBO_P},
        text.pourpre_matches: {"threshold": tparams.THRESHOLD},
        meta.swap_rates: {"bin_width": mparams.SWAP_BIN_WIDTH, "sizes": mparams.SPLIT_SIZES,
                          "repetitions": mparams.SPLIT_REPETITIONS},
        meta.split_study: {"repetitions": mparams.SPLIT_REPETITIONS,
                           "sizes": mparams.SPLIT_SIZES, "models": stats_names.SPLIT_MODELS,
                           "cross": stats_names.SPLIT_CROSS},
        meta.ScaleReport.format: {"N": meta_scales.TABLE_CUTOFF},
        meta.predictive_power: {"bins": mparams.PREDICT_BINS},
        meta.d_rank: {"ridge": mparams.RIDGE},
        meta.scale_report: {"cutoffs": mparams.SCALE_LENGTHS,
                            "collection": mparams.SCALE_COLLECTION},
        stats.gstudy: {"facet": stats_names.GSTUDY_FACET},
        stats.qpp_anova: {"model": stats_names.QPP_MODEL},
        tau_table: {"levels": params.SCALE_LEVELS, "tie_policy": coptions.TIE_POLICY,
                    "ties": params.PHI_TIES},
        online.fit_click_model: {"iterations": oparams.FIT_ITERATIONS, "tol": oparams.FIT_TOL,
                                 "smoothing": oparams.FIT_SMOOTHING},
        online.Interleavings.simulate_clicks: {"probability": oparams.CLICK_PROBABILITY},
        collections.evaluate_shards: {"shards": cparams.SHARD_COUNT,
                                      "method": cparams.SHARD_METHOD},
        collections.aggregate_labels: {"n_iter": cparams.LABEL_ITERATIONS,
                                       "restarts": cparams.LABEL_RESTARTS,
                                       "features": cparams.LABEL_FEATURES,
                                       "method": cparams.LABEL_METHOD},
        collections.aggregate_pairwise: {"method": cparams.PAIRWISE_METHOD,
                                         "n_iter": cparams.PAIRWISE_ITERATIONS},
        online.simulate_click_log: {"sessions": oparams.CLICK_SESSIONS,
                                    "serp_size": oparams.SHOWN},
        online.qrels_click_model: {"gamma": oparams.USER_GAMMA,
                                   "instantiation": oparams.QRELS_USER},
        online.read_click_log: {"serp_size": params.LOG_SERP},
        online.click_calibrated: {"depth": oparams.PAGE_DEPTH},
        online.session_measures: {"k": oparams.CLICKS_CUTOFF},
        online.ab_sample_size: {"power": oparams.AB_POWER},
        online.interleave_runs: {"length": oparams.SHOWN_LENGTH,
                                 "method": oparams.INTERLEAVING_METHOD,
                                 "credit": oparams.CREDIT},
        online.Interleavings.score: {"bootstrap": oparams.INTERVAL_BOOTSTRAP},
        online.score_log: {"bootstrap": oparams.INTERVAL_BOOTSTRAP,
                           "method": oparams.INTERLEAVING_METHOD},
        online.sensitivity: {"repetitions": oparams.EXPERIMENT_REPETITIONS,
                             "length": oparams.SHOWN_LENGTH, "target": oparams.TARGET,
                             "significance": oparams.TEST_SIGNIFICANCE,
                             "ab_measure": oparams.AB_MEASURE,
                             "model": oparams.SENSITIVITY_MODEL,
                             "impressions": oparams.EXPERIMENT_SIZES,
                             "methods": oparams.SENSITIVITY_METHODS,
                             "measure": oparams.OFFLINE_MEASURE, "credit": oparams.CREDIT},
        irscale.evaluate_sessions: {"click_gain": tparams.SESSION_CLICK_GAIN,
                                    "click_order": tparams.CLICK_ORDER,
                                    "topics": tparams.SESSION_MAP, "clicks": tparams.CLICKS},
        text.evaluate_rouge: {"multi": tparams.ROUGE_MULTI, "stem": tparams.STEM,
                              "stopwords": tparams.STOPWORDS},
        text.evaluate_nuggets: {"lengths": tparams.OUTPUT_LENGTHS,
                                "texts": tparams.OUTPUT_TEXTS},
        online.ab_test: {"analysis": oparams.AB_ANALYSIS, "variant": oparams.AB_VARIANT,
                         "control": oparams.AB_CONTROL, "treatment": oparams.AB_TREATMENT},
        online.engagement_summary: {"measures": oparams.AB_METRICS,
                                    "variant": oparams.AB_VARIANT},
        online.calibrate: {"click_model": oparams.ERR_CLICK_MODEL},
        online.fit_satisfaction: {"features": oparams.SAT_FEATURES},
        report.build_report: {"scale_depth": params.SCALE_DEPTH},
    }
    return [(param, function, name) for function, names in takes.items()
            for name, param in names.items()]


def test_a_declaration_states_the_default_of_the_functions():
    """The help of an option built from a declaration states the declared default: it is
    the default of the Python functions that take the parameter (no second source)."""
    import inspect

    for param, function, name in _defaults():
        default = inspect.signature(function).parameters[name].default
        assert default == param.default, (param.name, function.__name__, default)


def test_an_api_error_names_the_option_its_declaration_spells():
    """An error a function raises about a parameter carries its name, and the command line
    names the option there (``cli.main.named``), in one place for every subcommand."""
    from irscale.cli.main import build_parser, named

    args = build_parser("pool").parse_args(["pool", "build", "--strategy", "rbp", "a.run",
                                            "b.run"])
    with pytest.raises(ParameterError) as error:
        cparams.POOL_P.check(1.5)
    assert error.value.param == "p"
    assert str(named(error.value, args)).startswith("-p/--p (p) must lie in (0, 1)")
    assert named(error.value, None) is error.value  # outside a command line: as raised
