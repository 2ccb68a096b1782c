"""The parameters of online evaluation, declared once: interleaving, click models, A/B
tests, counterfactual estimators, relevance from clicks.

The functions of :mod:`irscale.online` check their arguments against these declarations and
the command line builds its options from them (:func:`irscale.cli.options.add_param`),
before numpy is imported: this module imports nothing but :mod:`irscale.core.params` (the
mechanism: domains, :class:`~irscale.core.params.Param`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, ClassVar

from ..core.binding import Binding, Narrows, Required
from ..core.extras import PARQUET_INPUT
from ..core.params import (
    ALPHA,
    CUTOFF,
    DEFAULT_RELEVANCE_LEVEL,
    ITERATIONS,
    LOG_SERP,
    MAX_SAMPLES,
    NO_WORK,
    POSITIVE,
    QRELS_OPTION,
    SAMPLES,
    SERP_SIZE,
    SIGNIFICANCE,
    TOLERANCE,
    Cost,
    InputFiles,
    Integers,
    Listed,
    Names,
    Needs,
    Param,
    Reals,
    Text,
)
from ..core.records import record
from ..errors import ParameterError, about, shown

#: Interleaving methods (Joachims 2003; Radlinski, Kurup & Joachims 2008; Hofmann, Whiteson
#: & de Rijke 2011; Radlinski & Craswell 2013) and the credit rules each accepts (the first
#: is its default).
INTERLEAVING_METHODS: tuple[str, ...] = ("balanced", "team-draft", "probabilistic",
                                         "optimized")
INTERLEAVING = Names("interleaving method", INTERLEAVING_METHODS)
CREDITS: dict[str, tuple[str, ...]] = {
    "balanced": ("balanced",), "team-draft": ("team",),
    "probabilistic": ("marginal", "assignment"), "optimized": ("inverse", "linear"),
}


#: The methods that take a credit rule of their choice (the others have one).
CREDITED: tuple[str, ...] = tuple(m for m, rules in CREDITS.items() if len(rules) > 1)


def check_credit(method: str, credit: str | None) -> str:
    """The credit rule of interleaving ``method``: ``credit``, refused unless it is one of
    the method's (:data:`CREDITS`), or by default the method's first. The rules a method
    takes depend on the method: checked here, for the functions and the command line,
    where a declared domain could not say it."""
    rules = CREDITS[method]
    if credit is None:
        return rules[0]
    if credit not in rules:
        raise ParameterError(f"credit {credit!r} is not a credit rule of {method} "
                             f"interleaving ({' or '.join(rules)})", param="credit")
    return credit


def needs_rankings(method: str, credit: str | None = None) -> bool:
    """True when ``method`` (with ``credit``) scores clicks by the rankers' rankings, which
    an interleaving log does not hold (:mod:`irscale.online.logged`)."""
    credit = CREDITS[method][0] if credit is None else credit
    return method in ("balanced", "optimized") or credit == "marginal"


#: Softmax exponent τ of probabilistic interleaving (Hofmann et al. 2011), and its default.
TAU, DEFAULT_TAU = Reals(0.0, bounds="()"), 3.0
SOFTMAX_TAU = Param("tau", TAU, DEFAULT_TAU, "probabilistic: softmax exponent", ("--tau",), "T")
#: The softmax exponent a historical interleaving log was built with
#: (:func:`irscale.online.historical_interleaving`).
SOURCE_TAU = Param("source_tau", TAU, None, "softmax exponent the log was built with",
                   ("--source-tau",), "T", unset="--tau")
#: Documents shown per impression; impressions per topic; the probability of a random
#: click (or of γ, continuing after a satisfying click).
SERP_LENGTH = Integers(1)
#: Optimised interleaving enumerates 2^L choice sequences per topic: L ≤ 16.
MAX_OPTIMIZED_LENGTH = 16
OPTIMIZED_LENGTH = Integers(1, MAX_OPTIMIZED_LENGTH)
IMPRESSION_COUNT = Integers(1)


@record
class Impressions(Integers):
    """Impressions per topic (an integer ≥ ``low``), or the topic of every impression: a
    sequence of topic ids, kept as given (each is looked for among the rankers' topics
    where they are read: :func:`irscale.online.interleaving.impression_topics`)."""

    def check(self, value: object, name: str) -> Any:
        """A count as an ``int``; a sequence of topics as it is."""
        if isinstance(value, numbers.Number):
            return super().check(value, name)
        if isinstance(value, (str, bytes, Mapping)) or hasattr(value, "columns") or not (
                hasattr(value, "__len__") and hasattr(value, "__getitem__")):
            raise about(ParameterError(f"{name} must be a number per topic or the topic of "
                                       f"every impression, got {shown(value)}", param=name),
                        value)
        if len(value) == 0:  # (a table's columns are no topics; no topic is no impression)
            raise about(ParameterError(f"{name}: no impression (an empty "
                                       f"{type(value).__name__} of topics)", param=name), value)
        return value


PROBABILITY = Reals(0.0, 1.0)
#: The probability of a random click (:meth:`irscale.online.InterleavingBatch.simulate_clicks`).
CLICK_PROBABILITY = Param("probability", PROBABILITY, 0.5,
                          "random clicks: probability of a click", ("--click-prob",), "P")
#: Click models of :func:`irscale.online.fit_click_model` (Chuklin, Markov & de Rijke
#: 2015) and the users instantiated from qrels grades (Hofmann et al. 2011).
CLICK_MODELS: tuple[str, ...] = ("pbm", "cm", "ubm", "dcm", "dbn", "sdbn", "ccm", "gctr",
                                 "rctr", "dctr")
#: The click models fitted in closed form (the others by EM: iterations and tol apply).
CLOSED_FORM_MODELS: tuple[str, ...] = ("cm", "sdbn", "gctr", "rctr", "dctr")
#: The click models whose clicks are independent given the examination of each rank (no
#: cascade, no satisfaction): ``P(C_r = 1) = α_qu · γ_r`` (UBM: γ of the previous click).
INDEPENDENT_CLICK_MODELS: tuple[str, ...] = ("pbm", "ubm", "gctr", "rctr", "dctr")
#: The parameters each click model needs besides its attractiveness (a model not listed
#: here: the examination of every rank).
_CLICK_MODEL_NEEDS: dict[str, tuple[str, ...]] = {
    "dcm": ("continuation",), "dbn": ("satisfaction", "gamma"), "sdbn": ("satisfaction",),
    "ccm": ("tau",), "cm": ()}
#: The parameters of a click model, every one of them probabilities (``prior``: the Beta
#: prior's two shares).
CLICK_PROBABILITIES: tuple[str, ...] = ("attractiveness", "satisfaction", "examination",
                                        "continuation", "gamma", "tau", "prior")
#: The parameters given as ``[query, docno, value]`` rows.
_CLICK_PAIRS = ("attractiveness", "satisfaction")


def click_model_needs(model: str) -> tuple[str, ...]:
    """The parameters click model ``model`` needs besides its attractiveness."""
    return _CLICK_MODEL_NEEDS.get(model, ("examination",))


def click_values_fault(data: object) -> str | None:
    """What is wrong with the values of a click model's parameters as read from JSON
    (:func:`irscale.io.click_params.click_params`: its fields' shapes are checked): no
    object of parameters at all (None, a list), an unknown model, a parameter the model
    needs missing, a value that is not a probability (a number in [0, 1], not NaN); None
    when nothing is. Plain Python: a file of parameters
    is checked before pandas and the click models are imported."""
    if not isinstance(data, Mapping):
        return f"not a JSON object of parameters, but {shown(data)}"
    model = data.get("model")
    if model not in CLICK_MODELS:
        return f"unknown model {model!r}"
    for name in click_model_needs(model):
        if data.get(name) is None:
            return f"click model {model}: parameter {name} missing"
    for name in CLICK_PROBABILITIES:
        value = data.get(name)
        values = [row[2] for row in value if isinstance(row, list) and len(row) == 3] \
            if name in _CLICK_PAIRS and isinstance(value, list) else _leaves(value)
        for number in values:
            if isinstance(number, bool) or not isinstance(number, (int, float)) or \
                    not 0.0 <= number <= 1.0:
                return (f"click model {model}: {name} holds {number!r}, not a probability "
                        f"(a number in [0, 1])")
    return None


def _leaves(value: object) -> list[object]:
    """The values of nested lists (none for None)."""
    if value is None:
        return []
    if not isinstance(value, list):
        return [value]
    return [leaf for item in value for leaf in _leaves(item)]


USERS: tuple[str, ...] = ("perfect", "navigational", "informational")
#: Additive smoothing of the fitted probabilities.
SMOOTHING = Reals(0.0)
#: The options of :func:`irscale.online.fit_click_model`.
FIT_ITERATIONS = Param("iterations", ITERATIONS, 100, "most EM iterations (EM models only)",
                       ("--iterations",), "N",
                       cost=Cost("iterations", per="a pass of EM over the sessions"))
FIT_TOL = Param("tol", TOLERANCE, 1e-7, "EM stops when the mean log-likelihood rises by less "
                "(EM models only)", ("--tol",), "T")
FIT_SMOOTHING = Param("smoothing", SMOOTHING, 1.0, "pseudo-trials at 0.5 per (query, "
                      "document) parameter (0: maximum likelihood)", ("--smoothing",), "K")
#: A relevance level of a simulated user, sessions simulated per topic (10^9: more is a
#: typo), ranks of a SERP.
CLICK_LEVEL = Integers(1, 2**62)
SESSIONS = Integers(1, 1_000_000_000)
#: ``-l`` of the simulated users: the smallest grade they count as relevant.
CLICK_RELEVANCE = Param("relevance_level", CLICK_LEVEL, DEFAULT_RELEVANCE_LEVEL,
                        "smallest relevant degree",
                        ("-l", "--relevance-level"), "L",
                        cost=NO_WORK)
POWER = Reals(0.0, 1.0, "()")
#: Measures of the A/B tests of :func:`irscale.online.sensitivity`, the experiments per
#: number of impressions, its default grid of impressions (2 at least each) and the
#: agreement that counts as reached.
AB_MEASURES: tuple[str, ...] = ("clicks", "reciprocal_rank", "abandoned")
EXPERIMENTS = Integers(1)
SENSITIVITY_IMPRESSIONS: tuple[int, ...] = (10, 20, 50, 100, 200, 500, 1000)
EXPERIMENT_IMPRESSIONS = Integers(2)
AGREEMENT = Reals(0.0, 1.0, "(]")
#: Simulated click logs (:func:`irscale.online.simulate_click_log`) and the users of the
#: qrels' grades (:func:`irscale.online.qrels_click_model`).
CLICK_SESSIONS = Param("sessions", SESSIONS, 1000, "impressions per topic", ("--sessions",),
                       "N", cost=Cost("sessions", per="a session simulated on every topic"))
SHOWN = Param("serp_size", SERP_SIZE, 10, "documents shown per page", ("--serp-size",), "K",
              cost=Cost("ranks", per="a rank of every session (at most those ranked)"))
USER_GAMMA = Param("gamma", PROBABILITY, 1.0, "--user: probability of going on when not "
                   "satisfied", ("--gamma",), "G")
#: Counterfactual evaluation (:func:`irscale.online.counterfactual`): the estimator, the
#: clipping of propensities, the bootstrap over sessions (none by default).
OPE_ESTIMATORS: tuple[str, ...] = ("ips", "snips", "dr", "pbm-ips", "dm", "switch-dr",
                                   "dr-os", "sndr", "sips", "iips", "rips", "sn-sips", "sn-iips",
                                   "sn-rips", "cascade-dr", "hcope")
#: The estimators with a reward model (``reward=``, ``--reward``).
OPE_REWARD_ESTIMATORS: tuple[str, ...] = ("dm", "dr", "switch-dr", "dr-os", "sndr",
                                          "cascade-dr")
#: The estimators whose policies are distributions over whole rankings (``query slate
#: probability`` tables).
OPE_SLATE_ESTIMATORS: tuple[str, ...] = ("sips", "iips", "rips", "sn-sips", "sn-iips",
                                         "sn-rips", "cascade-dr", "hcope")
#: The self-normalised estimators: per rank, the weighted clicks over the weights' sum.
OPE_SELF_NORMALISED: tuple[str, ...] = ("snips", "sndr", "sn-sips", "sn-iips", "sn-rips")
#: The bound (not an estimate) among them: its level is the confidence level, 1 − δ.
OPE_BOUND = "hcope"
OPE_ESTIMATOR = Param("estimator", Names("estimator", OPE_ESTIMATORS), "ips",
                      "off-policy estimator", ("--estimator",), "NAME")
OPE_CLIP = Param("clip", Reals(0.0, 1.0, bounds="(]"), None, "clip the propensities in "
                 "denominators at max(p, C) (biased downwards)", ("--clip",), "C",
                 unset="no clipping")
OPE_SWITCH_TAU = Param("switch_tau", Reals(0.0, math.inf, bounds="[)"), None,
                       "switch-dr: importance weights above T leave their rank to the "
                       "reward model", ("--switch-tau",), "T", unset="required by switch-dr")
OPE_SHRINKAGE = Param("shrinkage", Reals(0.0, math.inf, bounds="[)"), None,
                      "dr-os: the shrinkage λ of the importance weights, w → λw/(w² + λ) "
                      "(0: dm; dr as λ grows)", ("--shrinkage",), "LAMBDA",
                      unset="required by dr-os")
#: Learned satisfaction (:func:`irscale.online.fit_satisfaction`): the L2 penalty of the
#: logistic regression on standardised features, the cross-validation folds.
SAT_L2 = Param("l2", Reals(0.0, math.inf, bounds="()"), 1.0, "L2 penalty λ of the logistic "
               "regression (on z-scored features; sklearn's C = 1/λ)", ("--l2",), "L")
SAT_FOLDS = Param("folds", Integers(2, 1000), 5, "cross-validation folds (stratified)",
                  ("--folds",), "K", cost=Cost("folds", per="a fit of the classifier"))
SAT_FEATURES = Param("features", Text(), None, "features: clicks, clicks@3, abandoned, "
                     "reciprocal_rank, success, dwell, time_to_first_click", ("--features",),
                     "F1,F2,...", unset="clicks, reciprocal_rank, abandoned, and success with "
                     "timestamps", label="--features")
OPE_BOOTSTRAP = Param("bootstrap", Integers(0, MAX_SAMPLES), 0, "percentile bootstrap "
                      "samples over sessions (0: none)", ("--bootstrap",), "B",
                      cost=Cost("samples", per="a resample of the sessions"))
#: The page of click-calibrated measures (:func:`irscale.online.click_calibrated`).
PAGE_DEPTH = Param("depth", SERP_SIZE, None, "result page size", ("--depth",), "K",
                   unset="the model's ranks, else 10",
                   cost=Cost("ranks", per="a rank of every run (at most those ranked)"))
#: Relevance from clicks (:mod:`irscale.online.click_labels`): the score of a pair mapped
#: to grades, the thresholds of the grades, the preference rule and the sessions a kept
#: pair or preference needs.
CLICK_QRELS_SCORES: tuple[str, ...] = ("attractiveness", "satisfaction", "relevance")
CLICK_QRELS_SCORE = Param("score", Names("click model score", CLICK_QRELS_SCORES), None,
                          "the parameter graded", ("--score",), "NAME",
                          unset="relevance (alpha sigma) for dbn and sdbn, else "
                          "attractiveness")
CLICK_THRESHOLDS = Param("thresholds", Listed(PROBABILITY, "a threshold"), (0.5,),
                         "increasing thresholds: a pair's grade is the number at or below "
                         "its score",
                         ("--thresholds",), "T,...")
PREFERENCE_RULES: tuple[str, ...] = ("skip-above", "last-skip-above", "earlier-click",
                                     "skip-previous", "no-click-next")
PREFERENCE_RULE = Param("rule", Names("preference rule", PREFERENCE_RULES), "skip-above",
                        "Joachims et al.'s rule", ("--rule",), "NAME")
MIN_SESSIONS = Param("min_sessions", Integers(1), 1, "sessions a pair (qrels: showing it; "
                     "prefs: preferring it) needs to be kept", ("--min-sessions",), "N",
                     cost=NO_WORK)
#: The inactivity (seconds) after which a user's next page starts a new search session
#: (:func:`irscale.online.loyalty_measures`).
SESSION_GAP = Param("session_gap", Reals(0.0, bounds="(]"), 1800.0, "seconds without a "
                    "page after which a user's next page starts a search session",
                    ("--session-gap",), "S")
#: The cut-off of clicks@k (:func:`irscale.online.session_measures`).
CLICKS_CUTOFF = Param("k", CUTOFF, 3, "cut-off of clicks@k", ("-k",), "K",
                      cost=NO_WORK)
#: The analysis of an A/B test (:func:`irscale.online.ab_test`).
AB_ANALYSES: tuple[str, ...] = ("welch", "delta", "cuped")
AB_ANALYSIS = Param("analysis", Names("analysis", AB_ANALYSES), "welch", "welch, delta (ratio "
                    "metric: needs --denominator), cuped (needs --covariate)", ("--analysis",),
                    "ANALYSIS")
#: Users without a value of a metric (NaN: e.g. the absence time of a user who never
#: came back) in an A/B test or a mean over users: an error, or left out.
AB_MISSING = Param("missing", Names("missing-value policy", ("error", "drop")), "error",
                   "users without a value (an empty cell or nan) of a metric, denominator "
                   "or covariate: error, or drop them (a warning says how many)",
                   ("--missing",), "POLICY")
#: The sample size of an A/B test (:func:`irscale.online.ab_sample_size`).
MIN_DIFF = Param("min_diff", POSITIVE, None, "the smallest difference of means to detect",
                 ("--min-diff",), "D")
USER_SD = Param("sd", POSITIVE, None, "standard deviation of the per-user metric", ("--sd",),
                "SD")
AB_POWER = Param("power", POWER, 0.8, "power", ("--power",), "POWER")
#: The users per variant whose power :func:`irscale.online.ab_power` gives (two at least:
#: a variance each).
AB_USERS = Param("n", Integers(2), None, "users per variant", ("-n",), "N")
#: The interleaving method (:func:`irscale.online.interleave_runs`,
#: :func:`irscale.online.score_log`).
INTERLEAVING_METHOD = Param("method", INTERLEAVING, "team-draft", "interleaving method",
                            ("--method",), "METHOD")
#: Interleaving (:func:`irscale.online.interleave_runs`, ``score``,
#: :func:`irscale.online.score_log`); the impressions per topic are the command's.
TOPIC_IMPRESSIONS = Param("impressions", Impressions(1), 1000, "impressions per topic",
                          ("--impressions",), "N",
                          cost=Cost("impressions", per="an interleaved list clicked"))
SHOWN_LENGTH = Param("length", SERP_LENGTH, 10, "documents shown per impression (at most the "
                     "documents of a topic's runs together)", ("--length",), "L",
                     cost=Cost("documents", per="a document of every impression (at most "
                               "those of a topic's runs)"))
DEFAULT_BOOTSTRAP = 10_000
INTERVAL_BOOTSTRAP = Param("bootstrap", SAMPLES, DEFAULT_BOOTSTRAP, "bootstrap samples of the "
                           "interval", ("--bootstrap",), "B",
                           cost=Cost("samples", per="a resample of the impressions"))
#: The experiments of :func:`irscale.online.sensitivity`.
EXPERIMENT_REPETITIONS = Param("repetitions", EXPERIMENTS, 100, "experiments per number of "
                               "impressions", ("--repetitions",), "R",
                               cost=Cost("experiments", per="an experiment of every size"))
AB_MEASURE = Param("ab_measure", Names("A/B measure", AB_MEASURES), "clicks", "online "
                   "measure of the A/B test per impression", ("--ab-measure",), "MEASURE")
TARGET = Param("target", AGREEMENT, 0.95, "agreement that counts as reached", ("--target",),
               "TARGET")
TEST_SIGNIFICANCE = Param("significance", ALPHA, None, "an experiment agrees only when its "
                          "test (sign test, Welch) is also significant at LEVEL",
                          ("--significance",), "LEVEL", unset="the sign alone")


#: The credit rule of an interleaving (:func:`irscale.online.interleave_runs`,
#: :func:`irscale.online.score_log`): one of :data:`CREDITS` of the method.
CREDIT = Param("credit", Text(), None, "credit rule: probabilistic marginal|assignment "
               "(default marginal), optimized inverse|linear (default inverse)",
               ("--credit",), "CREDIT")
#: The click model fitted (:func:`irscale.online.fit_click_model`).
CLICK_MODEL = Param("model", Names("click model", CLICK_MODELS), None, "click model",
                    ("--model",), "MODEL")
#: The users of the qrels' grades (:func:`irscale.online.qrels_click_model`).
QRELS_USER = Param("instantiation", Names("user", USERS), "navigational", "user from the "
                   "qrels' grades", ("--user",), "USER", dest="user")
#: The user model fitted on a click log (:func:`irscale.online.calibrate`), and the click
#: model of ERR's.
CALIBRATED = Param("model", Names("measure", ("RBP", "ERR", "MP"),
                                   {"rbp": "RBP", "err": "ERR", "markov": "MP"}, fold=True),
                   None, "the measure whose user model is fitted", ("-m", "--measure"),
                   "MEASURE", dest="measure")
ERR_CLICK_MODEL = Param("click_model", Names("click model", ("sdbn", "dbn")), "sdbn",
                        "-m ERR: sdbn (closed form) or dbn (EM)", ("--click-model",), "MODEL")
#: :func:`irscale.online.calibrate` (``irscale online calibrate``): the user model (its
#: measure or its name: ``MP`` or ``markov``), ERR's click model, the smoothing and the SERP
#: size, checked on entry; the qrels and the click model are ERR's alone (the qrels needed
#: there), the smoothing ERR's click model's and Markov precision's chain's (RBP's
#: persistence is a closed form of the last clicks).
CALIBRATE = Binding((CALIBRATED, ERR_CLICK_MODEL, FIT_SMOOTHING, LOG_SERP),
                    rules=(Needs((QRELS_OPTION, ERR_CLICK_MODEL), on=CALIBRATED,
                                 values=("ERR",)),
                           Needs((FIT_SMOOTHING,), on=CALIBRATED, values=("ERR", "MP")),
                           Required(QRELS_OPTION, on=CALIBRATED, values=("ERR",))))
#: An A/B test (:func:`irscale.online.ab_test`, :func:`irscale.online.oec_test`,
#: :func:`irscale.online.assign`): the metric or the overall evaluation criterion, the
#: columns of a ratio's denominator and of CUPED's covariate, the variants compared, the
#: salt of the assignment and the columns summarised
#: (:func:`irscale.online.engagement_summary`).
AB_METRIC = Param("metric", Text(), None, "the metric column (the numerator of a ratio for "
                  "--analysis delta); or --oec", ("--metric",), "METRIC")
OEC = Param("weights", Text(), None, "an overall evaluation criterion: weighted columns "
            "(their per-user means) and ratios num/den of column sums, e.g. "
            "'clicks/impressions=0.5,success=1', tested by the delta method", ("--oec",),
            "MEASURE=WEIGHT,...", dest="oec")
AB_DENOMINATOR = Param("denominator", Text(), None, "delta: the denominator column (e.g. "
                       "impressions)", ("--denominator",), "COLUMN")
AB_COVARIATE = Param("covariate", Text(), None, "cuped: the pre-period covariate column",
                     ("--covariate",), "COLUMN")
AB_VARIANT = Param("variant", Text(), "variant", "the column naming every user's variant",
                   ("--variant-column",), "COLUMN", dest="variant_column")
AB_CONTROL = Param("control", Text(), "control", "control variant", ("--control",),
                   "CONTROL")
AB_TREATMENT = Param("treatment", Text(), "treatment", "treatment variant",
                     ("--treatment",), "TREATMENT")
AB_SALT = Param("salt", Text(), None, "the experiment's salt: users are assigned by "
                "MD5(salt:user)", ("--salt",), "SALT")
#: The tolerance of the sum of an A/B test's shares (1 up to the rounding of decimals).
SHARES_SUM_TOL = 1e-9


@record
class Splits:
    """The variants of an A/B test and their shares: a mapping ``{variant: share}``, a
    list of variants (equal shares) or the command line's text ``NAME=SHARE,...``, as a
    ``{variant: share}`` dict. At least two variants, each named once (names as ``str``
    gives them), none empty or holding a blank or a tab (``user variant`` files are split
    there); each share a finite number > 0 (a number or its text), the shares summing to
    1 within :data:`SHARES_SUM_TOL` (Kohavi et al. 2009: the planned traffic split)."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> dict[str, float]:
        """The variants and their shares, in the order given."""
        pairs = self._pairs(value, name)
        out: dict[str, float] = {}
        for variant, share in pairs:
            if not variant or len(variant.split()) != 1 or variant != variant.strip():
                raise ParameterError(f"{name}: variant {variant!r} is empty or holds a "
                                     "blank or a tab ('user variant' files are split there)",
                                     param=name)
            if variant in out:
                raise ParameterError(f"{name}: variant {variant!r} given twice", param=name)
            out[variant] = self._share(variant, share, name)
        if len(out) < 2:
            raise ParameterError(f"{name} need at least two distinct variants, got "
                                 f"{list(out)}", param=name)
        if not all(math.isfinite(v) and v > 0 for v in out.values()) or \
                abs(math.fsum(out.values()) - 1.0) > SHARES_SUM_TOL:
            raise ParameterError(f"{name}: the shares must be positive and sum to 1, got "
                                 f"{out}", param=name)
        return out

    @staticmethod
    def _pairs(value: object, name: str) -> list[tuple[str, object]]:
        """``value`` as (variant, share) pairs, the shares as given."""
        if isinstance(value, str):
            pairs: list[tuple[str, object]] = []
            for part in value.split(","):
                variant, sep, share = part.partition("=")
                if not sep:
                    raise ParameterError(f"{name}: expected name=share,name=share,..., got "
                                         f"{value!r}", param=name)
                pairs.append((variant.strip(), share))
            return pairs
        if isinstance(value, Mapping):
            return [(str(k), v) for k, v in value.items()]
        if isinstance(value, (list, tuple)):
            return [(str(k), 1.0 / max(len(value), 1)) for k in value]
        raise about(ParameterError(f"{name} must be NAME=SHARE,... text, a mapping {{variant: "
                                   f"share}} or a list of variants, got {shown(value)}",
                                   param=name), value)

    @staticmethod
    def _share(variant: str, share: object, name: str) -> float:
        """The share of ``variant``: a number, or its text."""
        if isinstance(share, str):
            try:
                return float(share)
            except ValueError:
                pass
        elif not isinstance(share, bool) and isinstance(share, numbers.Real):
            return float(share)
        raise ParameterError(f"{name}: the share of {variant!r} is not a number: {share!r}",
                             param=name)

    def outside(self) -> tuple[str, ...]:
        return ("a=0.5", "a=0.5,b=0.6", "a=0.5,a=0.5", "a b=0.5,c=0.5", "a=x,b=0.5", "a")


#: ``splits=``, ``--splits NAME=SHARE,...``: the variants and their planned shares
#: (:func:`irscale.online.assign`, :func:`irscale.online.sample_ratio_mismatch`).
AB_SPLITS = Param("splits", Splits(), ("control", "treatment"), "variants and their shares, "
                  "summing to 1", ("--splits",), "NAME=SHARE,...")
AB_METRICS = Param("measures", Text(), None, "the columns to summarise", ("--metrics",),
                   "COLUMN,...", unset="every numeric column", label="--metrics",
                   dest="metrics")
#: The experiments of :func:`irscale.online.sensitivity`: the users, the impressions of
#: an experiment, the offline measure and the interleaving methods.
SENSITIVITY_MODEL = Param("model", InputFiles(keywords=USERS), "navigational", "users: an "
                          "instantiation from the qrels' grades (Hofmann et al. 2011) or a click "
                          "model's JSON (online fit --format json)", ("--model",),
                          "|".join(USERS) + "|PARAMS.json")
EXPERIMENT_SIZES = Param("impressions", Listed(EXPERIMENT_IMPRESSIONS, "an impression count"),
                         SENSITIVITY_IMPRESSIONS,
                         "impressions per experiment, increasing", ("--impressions",),
                         "N,N,...", cost=Cost("impressions", per="an interleaved list of "
                                              "every experiment"))
OFFLINE_MEASURE = Param("measure", Text(), "nDCG@10", "offline measure (one name)",
                        ("--measure",), "NAME")
SENSITIVITY_METHODS = Param("methods", Listed(INTERLEAVING, "a method"), ("team-draft",),
                            "interleaving methods",
                            ("--method",), "M[,M...]", label="--method", dest="method")

#: The files of an A/B test's per-user measures (:func:`irscale.online.read_session_users`,
#: :func:`irscale.online.session_measures`, :func:`irscale.online.abtest.with_variants`).
SESSION_USERS = Param("users", InputFiles(), None, "'session user [time]' lines: the user of every "
                      "session of the log and the time its page was shown (seconds; gives "
                      "the loyalty measures)", ("--users",), "FILE")
ANSWERED = Param("satisfied", InputFiles(), None, "the sessions whose page showed the answer, one "
                 "id per line: good_abandonment is a session of them without a click",
                 ("--answered",), "FILE", dest="answered")
VARIANTS = Param("variants", InputFiles(), None, "'user variant' lines (what 'assign' writes)",
                 ("--variants",), "FILE")
#: A click model fitted before (:func:`irscale.online.clickmodels.read_click_model`) and
#: the held-out log it is evaluated on (:meth:`irscale.online.ClickModel.evaluate`).
FITTED = Param("params", InputFiles(), None, "a fitted model (fit --format json)", ("--params",),
               "FILE")
HELD_OUT = Param("test", InputFiles(), None, "held-out click log", ("--test",), "LOG2",
                 requires=(PARQUET_INPUT,))
#: The users that click an interleaving (:meth:`irscale.online.Interleavings.simulate_clicks`):
#: these, or a click model's JSON file.
CLICKING_USERS: tuple[str, ...] = ("perfect", "random")
CLICKS = Param("model", InputFiles(keywords=CLICKING_USERS), None, "user model: perfect (click iff "
               "relevant in --qrels), random (each result with --click-prob) or a click model's "
               "JSON file", ("--clicks",), "|".join(CLICKING_USERS) + "|MODEL.json", dest="clicks")
#: The policies and models of :func:`irscale.online.counterfactual`.
TARGET_RUN = Param("policy", InputFiles(), None, "target policy: a TREC run (its first SERP-size "
                   "documents per query)", ("--run",), "RUN", dest="run")
TARGET_POLICY = Param("policy", InputFiles(), None, "target policy: 'query docno rank probability' "
                      "lines (a stochastic policy); " + ", ".join(OPE_SLATE_ESTIMATORS) +
                      ": 'query slate probability' lines", ("--policy",), "FILE")
#: The value of ``--logging`` that estimates the propensities from the log.
EMPIRICAL = "empirical"
LOGGING_POLICY = Param("logging", InputFiles(keywords=(EMPIRICAL,)), None, "logging propensities: "
                       "'query docno rank probability' lines (" + ", ".join(OPE_SLATE_ESTIMATORS)
                       + ": 'query slate probability' lines), or 'empirical' (their frequencies "
                       "in the log; not hcope); all but dm, pbm-ips", ("--logging",),
                       "FILE|" + EMPIRICAL)
EXAMINATION = Param("propensities", InputFiles(numbers=True), None, "examination propensities γ_r "
                    "of ranks 1.. (comma-separated) or a position-based click model (online fit "
                    "--format json); pbm-ips (default: a PBM fitted on the log), " +
                    ", ".join(OPE_REWARD_ESTIMATORS), ("--propensities",), "G1,G2,...|PARAMS.json")
REWARD_MODEL = Param("reward", InputFiles(), None, "reward model of " +
                     ", ".join(OPE_REWARD_ESTIMATORS) + ": 'query docno value' lines (click "
                     "probabilities, times γ_r of --propensities) or a position-based click "
                     "model (cascade-dr: any click model; default: a PBM fitted on the log, "
                     "cascade-dr an SDBN)", ("--reward",), "FILE|PARAMS.json")
#: The estimators that weight by the logging policy's propensities (all but pbm-ips, whose
#: weights are the examination propensities, and dm, which weights nothing).
OPE_LOGGED: tuple[str, ...] = tuple(e for e in OPE_ESTIMATORS if e not in ("pbm-ips", "dm"))
#: :func:`irscale.online.counterfactual` (``irscale online counterfactual``): each
#: estimator's inputs, what it needs and nothing it would ignore.
COUNTERFACTUAL = Binding(
    (OPE_ESTIMATOR, OPE_CLIP, OPE_SWITCH_TAU, OPE_SHRINKAGE, OPE_BOOTSTRAP),
    rules=(Needs((LOGGING_POLICY,), "every estimator but pbm-ips and dm", on=OPE_ESTIMATOR,
                 values=OPE_LOGGED),
           Required(LOGGING_POLICY, on=OPE_ESTIMATOR, values=OPE_LOGGED),
           Needs((EXAMINATION,), on=OPE_ESTIMATOR, values=("pbm-ips", *OPE_REWARD_ESTIMATORS)),
           Needs((REWARD_MODEL,), on=OPE_ESTIMATOR, values=OPE_REWARD_ESTIMATORS),
           Needs((OPE_CLIP,), "the weighting estimators", on=OPE_ESTIMATOR,
                 values=tuple(e for e in OPE_ESTIMATORS if e != "dm")),
           Needs((OPE_BOOTSTRAP,), "the estimates (hcope gives a bound)", on=OPE_ESTIMATOR,
                 values=tuple(e for e in OPE_ESTIMATORS if e != OPE_BOUND)),
           Needs((OPE_SWITCH_TAU,), on=OPE_ESTIMATOR, values=("switch-dr",)),
           Required(OPE_SWITCH_TAU, on=OPE_ESTIMATOR, values=("switch-dr",)),
           Needs((OPE_SHRINKAGE,), on=OPE_ESTIMATOR, values=("dr-os",)),
           Required(OPE_SHRINKAGE, on=OPE_ESTIMATOR, values=("dr-os",))))
#: The pairs of rankers of :func:`irscale.online.historical_interleaving`.
SOURCE_RUNS = Param("source", InputFiles(), None, "the two runs that built the log (run ids = its "
                    "teams)", ("--source",), "RUN")
TARGET_RUNS = Param("target", InputFiles(), None, "the two runs to compare", ("--target",), "RUN")
#: The labelled sessions of :func:`irscale.online.fit_satisfaction`.
SAT_LABELS = Param("labels", InputFiles(), None, "'session label' lines: 1 satisfied, 0 not",
                   ("--labels",), "FILE")



# --------------------------------------------------------------------------- bindings
# Each public function's parameters, bound where it is defined (irscale.core.binding): the
# domains checked on entry, the rules of when a parameter applies or is needed; the
# commands that call the function build their rules from the same declaration.
def _joined(*bindings: Binding) -> Binding:
    """The parameters and rules of ``bindings`` together: those of a command that calls
    several functions (interleave, then click)."""
    return Binding(tuple(p for b in bindings for p in b.params),
                   rules=tuple(r for b in bindings for r in b.rules))


#: The methods with a credit rule to choose (``credit=``, ``--credit``).
_CREDIT_RULE = Needs((CREDIT,), on=INTERLEAVING_METHOD, values=CREDITED)
#: :func:`irscale.online.interleave_runs` (``irscale online interleave``): τ draws the
#: lists of probabilistic interleaving alone; optimized interleaving, which enumerates
#: the 2^length lists, shows 16 documents at most.
INTERLEAVE = Binding((INTERLEAVING_METHOD, TOPIC_IMPRESSIONS, SHOWN_LENGTH, SOFTMAX_TAU),
                     rules=(_CREDIT_RULE,
                            Needs((SOFTMAX_TAU,), on=INTERLEAVING_METHOD,
                                  values=("probabilistic",)),
                            Narrows(SHOWN_LENGTH, OPTIMIZED_LENGTH, on=INTERLEAVING_METHOD,
                                    values=("optimized",),
                                    why="2^length lists are enumerated")))
#: :meth:`irscale.online.interleaving.ShownLists.simulate_clicks`: the qrels and their
#: relevance level make the perfect user's clicks, the probability the random user's.
SIMULATE_CLICKS = Binding(
    (CLICK_RELEVANCE, CLICK_PROBABILITY),
    rules=(Required(QRELS_OPTION, on=CLICKS, values=("perfect",)),
           Needs((QRELS_OPTION,), on=CLICKS, values=("perfect",)),
           Needs((CLICK_RELEVANCE,), on=CLICKS, values=("perfect",)),
           Needs((CLICK_PROBABILITY,), on=CLICKS, values=("random",))))
#: :func:`irscale.online.logged_interleavings` and :func:`irscale.online.score_log`
#: (``irscale online score``): τ gives the assignment probabilities of marginal credit.
LOGGED = Binding((INTERLEAVING_METHOD, SOFTMAX_TAU),
                 rules=(_CREDIT_RULE,
                        Needs((SOFTMAX_TAU,), on=INTERLEAVING_METHOD, values=("probabilistic",)),
                        Needs((SOFTMAX_TAU,), "marginal credit", on=CREDIT,
                              values=(None, "marginal"))))
#: :func:`irscale.online.historical_interleaving` (``irscale online historical``).
HISTORICAL = Binding((SOFTMAX_TAU, SOURCE_TAU, OPE_BOOTSTRAP))
#: :func:`irscale.online.fair_pairs_run` (``irscale online fairpairs``).
FAIR_PAIRS = Binding((TOPIC_IMPRESSIONS, SHOWN_LENGTH))
#: :meth:`irscale.online.interleaving.InterleavingResult.of` (the outcomes of ``online
#: interleave``, ``score``, ``historical``): the level and the bootstrap of the intervals.
OUTCOMES = Binding((SIGNIFICANCE, INTERVAL_BOOTSTRAP))
#: The commands that show lists and click them.
INTERLEAVE_CLICKS = _joined(INTERLEAVE, SIMULATE_CLICKS)
FAIR_PAIRS_CLICKS = _joined(FAIR_PAIRS, SIMULATE_CLICKS)
#: :func:`irscale.online.sensitivity` (``irscale online sensitivity``): a credit rule
#: for the methods that have one to choose (one of each method's: checked in the body).
SENSITIVITY = Binding(
    (EXPERIMENT_SIZES, EXPERIMENT_REPETITIONS, SENSITIVITY_METHODS, AB_MEASURE, SHOWN_LENGTH,
     TARGET, SIGNIFICANCE, TEST_SIGNIFICANCE),
    rules=(Needs((CREDIT,), on=SENSITIVITY_METHODS, values=CREDITED),))
#: :func:`irscale.online.ab_test` (``irscale online ab analyze``): the denominator of the
#: delta method's ratio, CUPED's covariate.
AB_TEST = Binding((AB_ANALYSIS, SIGNIFICANCE, AB_MISSING),
                  rules=(Needs((AB_DENOMINATOR,), on=AB_ANALYSIS, values=("delta",)),
                         Required(AB_DENOMINATOR, on=AB_ANALYSIS, values=("delta",)),
                         Needs((AB_COVARIATE,), on=AB_ANALYSIS, values=("cuped",)),
                         Required(AB_COVARIATE, on=AB_ANALYSIS, values=("cuped",))))
#: :func:`irscale.online.ab_sample_size` (``irscale online ab size``) and
#: :func:`irscale.online.ab_power`.
AB_SIZE = Binding((MIN_DIFF, USER_SD, SIGNIFICANCE, AB_POWER))
AB_POWER_OF = Binding((MIN_DIFF, USER_SD, AB_USERS, SIGNIFICANCE))
#: :func:`irscale.online.assign` (``irscale online ab assign``, ``measures --salt``) and
#: :func:`irscale.online.sample_ratio_mismatch` (``irscale online ab srm``): the splits.
AB_ASSIGN = Binding((AB_SALT, AB_SPLITS))
AB_SRM = Binding((AB_SPLITS,))
#: :func:`irscale.online.session_measures` (``irscale online ab measures``),
#: :func:`irscale.online.loyalty_measures`, :func:`irscale.online.engagement_summary`
#: (``irscale online ab summary``) and
#: :func:`irscale.online.user_values.users_with_values`.
SESSION_MEASURES = Binding((CLICKS_CUTOFF,))
LOYALTY_MEASURES = Binding((SESSION_GAP,))
ENGAGEMENT = Binding((SIGNIFICANCE, AB_MISSING))
USER_VALUES = Binding((AB_MISSING,))
#: The click models fitted by EM (the others in closed form).
EM_MODELS: tuple[str, ...] = tuple(m for m in CLICK_MODELS if m not in CLOSED_FORM_MODELS)
#: The iterations and tolerance of EM. No model named (None: a command's fitted model, or
#: click_qrels' default sdbn, which fits it by fit_click_model) leaves the rule to where
#: the model is named.
_EM_RULE = Needs((FIT_ITERATIONS, FIT_TOL), "the models fitted by EM", on=CLICK_MODEL,
                 values=(*EM_MODELS, None))
#: :func:`irscale.online.fit_click_model` (``irscale online fit``, ``loglik``).
FIT = Binding((CLICK_MODEL, FIT_ITERATIONS, FIT_TOL, FIT_SMOOTHING), rules=(_EM_RULE,))
#: :func:`irscale.online.click_qrels` (``irscale online qrels``) and
#: :func:`irscale.online.click_preferences` (``irscale online prefs``).
CLICK_QRELS = Binding((CLICK_MODEL, CLICK_QRELS_SCORE, CLICK_THRESHOLDS, MIN_SESSIONS,
                       FIT_SMOOTHING, FIT_ITERATIONS, FIT_TOL), rules=(_EM_RULE,))
CLICK_PREFERENCES = Binding((PREFERENCE_RULE, MIN_SESSIONS))
#: :func:`irscale.online.qrels_click_model`: the relevance level binarises the grades of
#: an instantiation (per-grade tables take every grade); and
#: :func:`irscale.online.simulate_click_log` (``irscale online simulate-clicks``).
QRELS_USERS = Binding((CLICK_RELEVANCE, USER_GAMMA),
                      rules=(Needs((CLICK_RELEVANCE,), "an instantiation", on=QRELS_USER,
                                   values=USERS),))
SIMULATE_LOG = Binding((CLICK_SESSIONS, SHOWN))
#: :func:`irscale.online.fit_satisfaction` (``irscale online satisfaction``).
SATISFACTION = Binding((SAT_L2, SAT_FOLDS))
#: :func:`irscale.online.click_calibrated` (``irscale online measures``).
CALIBRATED_MEASURES = Binding((PAGE_DEPTH,))

def split_calibrated(name: str) -> tuple[str, str, set[str], str]:
    """A click-calibrated measure's name (``uM``, ``rrM(gain=exp)@10``: Chuklin, Serdyukov
    & de Rijke 2013) as ``(head, parameters, parameter names, "@" and the cut-off)``, refused
    unless it is uM or rrM with balanced parentheses and without the click probabilities
    (``click=``, ``pclick=``) that the click model gives; read without the catalogue, so
    that ``irscale online measures`` refuses a name before it reads its files."""
    base, at, cut = name.strip().partition("@")
    head, paren, params = base.partition("(")
    if paren and not params.endswith(")"):
        raise ParameterError(f"measure {name!r}: unbalanced parentheses")
    params = params[:-1] if paren else ""
    if head.strip() not in ("uM", "rrM"):
        raise ParameterError(f"measure {name!r}: click-calibrated measures are uM and rrM")
    given = {part.split("=", 1)[0].strip() for part in params.split(",") if part.strip()}
    if given & {"click", "pclick"}:
        raise ParameterError(f"measure {name!r}: the click model gives the click "
                             "probabilities (leave out click= and pclick=)")
    return head.strip(), params, given, at + cut
