"""Parameters declared once: the domains of numbers and the names of choices.

The Python functions check their arguments against these declarations, and the command
line checks its options against the same ones while it parses them
(:class:`irscale.cli.options.Checked`), before numpy or any other numerical package is
imported: a mistyped option is reported at once, in the words the function uses, naming
the option as the command line spells it. So this module imports nothing but the
standard library and :mod:`irscale.errors`, and the modules that declare choices for the
command line (here, :mod:`irscale.stats.names`, :mod:`irscale.io.formats`) import nothing
heavier.

A domain has

* ``type``: how the command line converts the text of an option (``int``, ``float``,
  ``str``);
* ``check(value, name)``: the value as the function uses it, or a
  :class:`~irscale.errors.ParameterError` that names the parameter ``name``;
* ``outside()``: values that are not in it, as a command line writes them (the tests give
  them to every option declared with the domain).

A parameter that the functions and the command line share is declared once as a
:class:`Param`: its Python name, domain, default, doc and the spellings of its option. The
command line builds the option from it (:func:`irscale.cli.options.add_param`: the help is
the doc and the default, never restated by hand), and names the option in the errors the
functions raise about the parameter (:attr:`irscale.errors.ParameterError.param`).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, SupportsInt, cast

from ..errors import ParameterError, shown
from .budget import MAX_MEMORY, parse_size
from .edge import about

#: The largest value of a C ``long`` (and of numpy's int64).
INT64_MAX = 2**63 - 1


def _float(value: numbers.Real) -> float:
    """``value`` as a float; ±inf for a number beyond the range of doubles (10**400)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]


@dataclass(frozen=True)
class Integers:
    """Integers in ``[low, high]`` (no upper bound when ``high`` is None).

    ``strict``: integer types only (``5.0`` is refused) and the bounds spelt "from low to
    high", as trec_eval's options (``-l``, ``-M``, ``-N``) are checked; otherwise integral
    numbers of any type are taken (``5.0`` is 5) and the bounds are spelt ``[low, high]``.
    """

    low: int
    high: int | None = None
    strict: bool = False
    type: ClassVar[type] = int

    def text(self) -> str:
        """What the values are: ``an integer in [1, 1,000]``, ``an integer ≥ 1``."""
        if self.high is None:
            return "a non-negative integer" if self.low == 0 else f"an integer ≥ {self.low}"
        if self.strict:
            return f"an integer from {self.low} to {self.high}"
        return f"an integer in [{self.low}, {self.high:,}]"

    def check(self, value: object, name: str) -> int:
        """``value`` as an ``int`` (booleans, fractions, NaN and non-numbers are refused)."""
        kinds = numbers.Integral if self.strict else numbers.Real
        if isinstance(value, bool) or not isinstance(value, kinds) or (
                not isinstance(value, numbers.Integral) and not math.isfinite(_float(value))):
            raise about(ParameterError(f"{name} must be {self.text()}, got {shown(value)}",
                                       param=name), value)
        # typeshed's numbers.Real declares no __int__, though the Real types int() meets
        # here (Python and numpy numbers, Fraction) all convert
        number = int(cast(SupportsInt, value))
        if number != value or number < self.low or (self.high is not None and
                                                     number > self.high):
            given = number if isinstance(value, numbers.Integral) else value
            raise about(ParameterError(f"{name} must be {self.text()}, got {shown(given)}",
                                       param=name), value)
        return number

    def outside(self) -> tuple[str, ...]:
        return (str(self.low - 1),) + (() if self.high is None else (str(self.high + 1),))


@dataclass(frozen=True)
class Reals:
    """Finite real numbers between ``low`` and ``high``; ``bounds`` says whether each end
    belongs to the domain: ``"[]"`` both, ``"()"`` neither, ``"(]"``, ``"[)"``."""

    low: float = -math.inf
    high: float = math.inf
    bounds: str = "[]"
    type: ClassVar[type] = float

    def text(self) -> str:
        """How a message says where the values lie: ``lie in (0, 1)``, ``be a number > 0``."""
        low, high = math.isfinite(self.low), math.isfinite(self.high)
        if low and high:
            return f"lie in {self.bounds[0]}{self.low:g}, {self.high:g}{self.bounds[1]}"
        if low and self.low == 0 and self.bounds[0] == "(":
            return "be a positive number"
        if low:
            return f"be a number {'≥' if self.bounds[0] == '[' else '>'} {self.low:g}"
        if high:
            return f"be a number {'≤' if self.bounds[1] == ']' else '<'} {self.high:g}"
        return "be a finite number"

    def contains(self, value: float) -> bool:
        above = value >= self.low if self.bounds[0] == "[" else value > self.low
        below = value <= self.high if self.bounds[1] == "]" else value < self.high
        return math.isfinite(value) and above and below

    def check(self, value: object, name: str) -> float:
        """``value`` as a ``float``."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
                not self.contains(_float(value)):
            raise about(ParameterError(f"{name} must {self.text()}, got {shown(value)}",
                                       param=name), value)
        return float(value)

    def outside(self) -> tuple[str, ...]:
        values = ["nan", "inf", "-inf"]
        for end, closed, step in ((self.low, self.bounds[0] == "[", -1.0),
                                  (self.high, self.bounds[1] == "]", 1.0)):
            if math.isfinite(end):
                values.append(repr(end + step if closed else end))
        return tuple(values)


@dataclass(frozen=True)
class NumberText:
    """A number of ``domain`` given as a number or as its text, the text kept as typed (a
    tool prints it back as given: ndeval's ``-riskAlpha``)."""

    domain: Reals
    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> object:
        """``value`` itself (the text as typed, or the number)."""
        number: object = value
        if isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                number = None
        if isinstance(number, bool) or not isinstance(number, numbers.Real) or \
                not self.domain.contains(_float(number)):
            raise about(ParameterError(f"{name} must {self.domain.text()}, got "
                                       f"{shown(value)}", param=name), value)
        return value

    def outside(self) -> tuple[str, ...]:
        return (*self.domain.outside(), "one")


@dataclass(frozen=True)
class Names:
    """One of ``names`` (the canonical spellings), or one of the other spellings of
    ``aliases``; ``fold``: case does not matter. ``noun`` says what a name is in
    messages (``unknown pooling strategy 'x'``)."""

    noun: str
    names: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    fold: bool = False
    type: ClassVar[type] = str

    def canonical(self, value: object) -> str | None:
        """The canonical spelling of ``value``, or None when it names nothing."""
        if not isinstance(value, str):
            return None
        key = value.lower() if self.fold else value
        for name in self.names:
            if key == (name.lower() if self.fold else name):
                return name
        for alias, name in self.aliases.items():
            if key == (alias.lower() if self.fold else alias):
                return name
        return None

    def check(self, value: object, name: str) -> str:
        """The canonical spelling of ``value``."""
        found = self.canonical(value)
        if found is None:
            raise about(ParameterError(f"{name}: unknown {self.noun} {value!r}; choose from "
                                       f"{', '.join(self.names)}", param=name), value)
        return found

    def outside(self) -> tuple[str, ...]:
        return ("no-such-" + self.noun.split()[-1],)


@dataclass(frozen=True)
class Pattern:
    """A regular expression (Python's :mod:`re` syntax), kept as given."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> str:
        """``value`` itself, once it compiles."""
        if not isinstance(value, str):
            raise about(ParameterError(f"{name} must be a regular expression, got "
                                       f"{shown(value)}", param=name), value)
        try:
            re.compile(value)
        except re.error as error:
            raise ParameterError(f"{name} {value!r} is not a valid regular expression: "
                                 f"{error}", param=name) from None
        return value

    def outside(self) -> tuple[str, ...]:
        return ("(", "[a-")


@dataclass(frozen=True)
class Pair:
    """Two values of ``domain`` written ``A:B``, as a tuple of the values its check
    returns (``--cross t:wilcoxon``)."""

    domain: Any
    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> tuple[Any, Any]:
        """``(a, b)``, each checked against ``domain``."""
        if not isinstance(value, str) or ":" not in value:
            raise about(ParameterError(f"{name} takes A:B pairs, got {value!r}", param=name),
                        value)
        first, _, second = value.partition(":")
        return self.domain.check(first, name), self.domain.check(second, name)

    def outside(self) -> tuple[str, ...]:
        wrong = self.domain.outside()[0]
        return ("no-colon", f"{wrong}:{wrong}")


@dataclass(frozen=True)
class Switch:
    """An option given or not (``--force``, ``--no-progress``): no value, nothing to
    check; the command line stores True when it is given."""

    type: ClassVar[type] = bool


@dataclass(frozen=True)
class Text:
    """Text used as it is given: the name of a file, a folder or a column, a measure's
    name (checked where it is read, with the file, line and text of the fault)."""

    type: ClassVar[type] = str


@dataclass(frozen=True)
class Param:
    """A parameter declared once, for the Python functions and the command line.

    ``name``: the Python name (``relevance_level``); ``domain``: its values (a domain of
    this module); ``default``: the functions' default; ``doc``: what it is, in a phrase
    (the option's help, followed by the default); ``flags``: the spellings of its option,
    the same in every subcommand (``-l``, ``--relevance-level``); ``metavar``: the value
    in the help; ``unset``: what a default of None means (``a fresh random seed``);
    ``label``: how messages name it where the spellings and the Python name would not do
    (trec_eval's ``relevance level (-l, relevance_level)``; the spellings alone for an
    option no function takes under its name); ``dest``: the command line's name of the
    value where it differs from the Python name (``--seed`` gives ``seed``, the functions
    take ``rng``).
    """

    name: str
    domain: Any
    default: object
    doc: str
    flags: tuple[str, ...]
    metavar: str | None = None
    unset: str | None = None
    label: str | None = None
    dest: str | None = None

    def check(self, value: object) -> Any:
        """``value`` checked against the domain; errors name the parameter."""
        return self.domain.check(value, self.name)


# --------------------------------------------------------------------------- shared
def check_count(value: object, name: str, minimum: int = 1,
                maximum: int | None = None) -> int:
    """``value`` as an ``int`` in [``minimum``, ``maximum``] (integral floats are accepted;
    booleans, fractions, NaN and non-numbers are not): :class:`Integers`."""
    return Integers(minimum, maximum).check(value, name)


@dataclass(frozen=True)
class Levels(Reals):
    """Significance levels: numbers in (``low``, ``high``) that are not so small that
    1 − α/2 rounds to 1 in double precision (α below about 2.2e-16): the quantiles
    t_{1−α/2} and z_{1−α/2} of the tests and intervals would be infinite (a "100%" interval
    of ±inf), not the level asked for."""

    def check(self, value: object, name: str) -> float:
        level = super().check(value, name)
        if 1.0 - level / 2 == 1.0:
            raise ParameterError(f"{name} {level:g} cannot be told from 0 in floating point "
                                 f"(1 - {name}/2 rounds to 1): give {name} ≥ 1e-15", param=name)
        return level

    def outside(self) -> tuple[str, ...]:
        return (*super().outside(), "1e-300")


#: A significance level, and the check of one.
ALPHA = Levels(0.0, 1.0, "()")
#: The significance level of the tests and intervals.
SIGNIFICANCE = Param("alpha", ALPHA, 0.05, "significance level", ("--alpha",), "A")


def check_alpha(alpha: object, name: str = "alpha") -> float:
    """``alpha`` as a float in the open interval (0, 1), told from 0 in floating point
    (:class:`Levels`); ``name`` is how messages call it."""
    return ALPHA.check(alpha, name)


#: Most decimals a table (text, Markdown, LaTeX) may show: a float64 holds 15–17
#: significant digits, so more decimals would print noise.
MAX_DIGITS = 17
DIGITS = Integers(0, MAX_DIGITS)
#: The decimals of a table the functions format (``format(fmt, digits=...)``).
TABLE_DIGITS = Param("digits", DIGITS, 4, "decimals in text, markdown and latex tables",
                     ("--digits",), "D")


def check_digits(digits: object, name: str = "digits") -> int:
    """``digits`` as an int in [0, :data:`MAX_DIGITS`] (an integer type: ``4.0`` is refused)."""
    if not isinstance(digits, numbers.Integral):
        raise about(ParameterError(f"{name} must be {DIGITS.text()}, got {shown(digits)}",
                                   param=name), digits)
    return DIGITS.check(digits, name)


#: A seed of numpy's random generators given as one number (the functions also take
#: sequences of them and generators: :func:`irscale.stats.resampling.check_seed`).
SEED = Integers(0, strict=True)
#: The seed of a random procedure (``rng=`` of the functions that take a generator too).
RNG_SEED = Param("rng", SEED, None, "random seed", ("--seed",), "S",
                 unset="a fresh random seed", dest="seed")
#: The confidence intervals a mean over topics can carry (:mod:`irscale.core.mean_intervals`).
MEAN_INTERVALS: tuple[str, ...] = ("t", "bootstrap")
#: Largest number of Monte Carlo samples accepted (B): beyond, the run could not finish.
MAX_SAMPLES = 1_000_000_000
SAMPLES = Integers(1, MAX_SAMPLES)
#: The resamples B of a resampling procedure (None: the procedure's own default).
RESAMPLES = Param("samples", SAMPLES, None, "resamples of the resampling procedures",
                  ("-B", "--samples"), "B", unset="10000 for randomization and "
                  "randomized-tukey-hsd, 1000 for the bootstraps")
#: A bootstrap interval needs two samples at least (:func:`irscale.meta.correlate`).
INTERVAL_SAMPLES = Integers(2, MAX_SAMPLES)
#: Seeds of ``meta discriminative-power --seeds`` (one resampling run each).
SEEDS = Integers(1, 1_000_000)
#: Repetitions per split size (:func:`irscale.meta.split_study`, ``swap_rates``).
REPETITIONS = Integers(1, 1_000_000)
SPLIT_REPETITIONS = Param("repetitions", REPETITIONS, 100, "random splits per size",
                          ("--repetitions",), "R")
#: Simulated matrices (:func:`irscale.meta.simulate_tests`).
SIMULATIONS = Integers(1, 100_000_000)
SIMULATED_MATRICES = Param("repetitions", SIMULATIONS, 1000, "simulated matrices",
                           ("--repetitions",), "R")
#: A pool depth (deeper than any run: a larger one is a typo).
DEPTH = Integers(1, 1_000_000_000)
#: The cut of every run before pooling or sampling (:func:`irscale.collections.pool`,
#: :func:`irscale.collections.sample_judgments`).
RUN_DEPTH = Param("depth", DEPTH, None, "cut every run at K documents first", ("--depth",),
                  "K", unset="whole runs")
#: Threads of this process.
WORKERS = Integers(1, strict=True)
THREADS = Param("workers", WORKERS, None, "threads of this process", ("--workers",), "N",
                unset="one per CPU core")

#: Risk sensitivity α ≥ 0: a loss against the baseline weighs 1 + α (TREC Web 2013–2014;
#: ndeval's ``-riskAlpha``, whose text is printed back as typed).
RISK_ALPHA = NumberText(Reals(0.0))


def check_risk_alpha(risk_alpha: object, name: str = "risk_alpha") -> float:
    """``risk_alpha`` (a number, or its text as typed) as a finite float ≥ 0 (irscale
    refuses the negative, NaN and infinite values ndeval's ``sscanf`` would take)."""
    return float(RISK_ALPHA.check(risk_alpha, name))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- evaluation
#: trec_eval's ``-l``: the smallest relevance degree counted as relevant (a C long).
#: How messages name ``-l``: as trec_eval's options are named (:mod:`irscale.core.options`).
RELEVANCE_LEVEL = "relevance level (-l, relevance_level)"
RELEVANCE = Param("relevance_level", Integers(1, INT64_MAX, strict=True), 1,
                  "smallest relevance degree counted as relevant", ("-l", "--relevance-level"),
                  "L", label=RELEVANCE_LEVEL)
#: Run files evaluated at a time (:func:`irscale.evaluate_many`); by default 64 runs of
#: 10^5 lines take about 0.5 GB while judged.
BATCH_SIZE = Integers(1, strict=True)
DEFAULT_BATCH_SIZE = 64
BATCH = Param("batch_size", BATCH_SIZE, DEFAULT_BATCH_SIZE, "run files per batch: memory "
              "holds about one batch per worker", ("--batch-size",), "N")
#: The gain of every click of a session's click log (:func:`irscale.evaluate_sessions`).
CLICK_GAIN = Reals(0.0)
#: Least share of a nugget's distinct terms a text must hold to match it (POURPRE).
MATCH_THRESHOLD = Reals(0.0, 1.0, "(]")
THRESHOLD = Param("threshold", MATCH_THRESHOLD, 0.5, "least share of a nugget's distinct "
                  "terms a text must contain to match it", ("--threshold",), "T")
#: Most topics of a synthetic collection (:func:`irscale.datasets.synthetic_collection`,
#: ``irscale demo``): 10,000 topics of the default sizes are 7·10^6 lines (208 MB of
#: files; ``irscale demo`` takes about 30 s and 0.9 GB on a 2-core machine). A demo needs
#: no more; a larger size is a typo.
MAX_TOPICS = 10_000
#: Topics of the demo's collection: its ANOVA needs two.
DEMO_TOPICS = Integers(2, MAX_TOPICS)

# --------------------------------------------------------------------------- pooling
#: Pooling strategies (:func:`irscale.collections.pool`): those whose order does not depend
#: on judgments (depth-k, take@N, RBP-weighted of Moffat, Webber & Zobel 2007, reciprocal
#: rank fusion) and those that adapt to them (move-to-front of Cormack, Palmer & Clarke
#: 1998, the bandits of Losada, Parapar & Barreiro 2016, 2017).
FIXED_STRATEGIES: tuple[str, ...] = ("depth", "take", "rbp", "rrf")
ADAPTIVE_STRATEGIES: tuple[str, ...] = ("mtf", "mm", "mm-ns", "ts", "ts-ns")
STRATEGY = Names("pooling strategy", (*FIXED_STRATEGIES, *ADAPTIVE_STRATEGIES))
#: RBP's persistence p, RRF's constant k and the forgetting factor γ of mm-ns and ts-ns
#: (irscale's choice), with their defaults.
RBP_P, DEFAULT_RBP_P = Reals(0.0, 1.0, "()"), 0.8
RRF_K, DEFAULT_RRF_K = Reals(0.0), 60.0
DISCOUNT, DEFAULT_DISCOUNT = Reals(0.0, 1.0, "()"), 0.9
POOL_P = Param("p", RBP_P, DEFAULT_RBP_P, "RBP persistence p, rbp only", ("-p", "--p"), "P")
POOL_K = Param("k", RRF_K, DEFAULT_RRF_K, "RRF constant k, rrf only", ("--k",), "K")
POOL_DISCOUNT = Param("discount", DISCOUNT, DEFAULT_DISCOUNT,
                      "forgetting factor γ of mm-ns and ts-ns", ("--discount",), "G")
#: Judgments per topic.
BUDGET = Integers(1, 1_000_000_000)
#: Sampling designs of :func:`irscale.collections.sample_judgments`, the documents drawn
#: per topic, and the fraction of a stratum drawn.
DESIGNS: tuple[str, ...] = ("with-replacement", "poisson", "stratified")
SAMPLE_SIZE = Integers(1, 1_000_000_000)
STRATUM_RATE = Reals(0.0, 1.0, "(]")
#: How documents are split into shards (:func:`irscale.collections.evaluate_shards`), and
#: how many shards (more is a typo: every shard needs documents of every topic).
SHARD_METHODS: tuple[str, ...] = ("random", "hash")
DOCUMENT_SHARDS = Integers(1, 1_000_000)

# --------------------------------------------------------------------------- crowd labels
#: Aggregation methods of :func:`irscale.collections.aggregate_labels` (majority vote,
#: weighted, Dawid & Skene 1979, GLAD of Whitehill et al. 2009, MACE of Hovy et al. 2013,
#: one-coin Dawid & Skene, Zero-Based Skill, KOS of Karger, Oh & Shah 2011, M-MSR of Ma &
#: Olshevsky 2020, the Gaussian process of Rodrigues, Pereira & Ribeiro 2014, the rater
#: model of Patz, Junker, Johnson & Mariano's 2002 hierarchical rater model) and AWARE's
#: assessor weightings (Ferrante, Ferro & Pontarollo 2017).
AGGREGATION_METHODS: tuple[str, ...] = ("mv", "wmv", "ds", "glad", "mace", "onecoin", "zbs",
                                        "kos", "mmsr", "gp", "hrm")
#: crowd-kit's names of the same methods where irscale's differ.
AGGREGATION_ALIASES: dict[str, str] = {"wawa": "wmv", "Wawa": "wmv"}
#: The methods that draw random starting values (``rng``).
RANDOM_AGGREGATIONS: tuple[str, ...] = ("mace", "kos", "mmsr")
WEIGHTINGS: tuple[str, ...] = ("uniform", "msd", "msd-topic", "tau")
#: EM iterations and restarts (at most a thousand times crowd-kit's defaults: more is a
#: typo that would run for days), and AWARE's random assessors (each one evaluates every
#: run: at most a hundred times the default).
ITERATIONS = Integers(1, 100_000)
RANDOM_ASSESSORS = Integers(1, 1_000)
#: AWARE's random assessors (:func:`irscale.collections.aware`).
DEFAULT_RANDOM_ASSESSORS = 10
AWARE_RANDOM = Param("n_random", RANDOM_ASSESSORS, DEFAULT_RANDOM_ASSESSORS, "random "
                     "assessors of the msd, msd-topic and tau weightings", ("--random",), "N")
#: The stopping tolerance of EM.
TOLERANCE = Reals(0.0)

# --------------------------------------------------------------------------- online evaluation
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
USERS: tuple[str, ...] = ("perfect", "navigational", "informational")
#: Additive smoothing of the fitted probabilities.
SMOOTHING = Reals(0.0)
#: The options of :func:`irscale.online.fit_click_model`.
FIT_ITERATIONS = Param("iterations", ITERATIONS, 100, "most EM iterations (EM models only)",
                       ("--iterations",), "N")
FIT_TOL = Param("tol", TOLERANCE, 1e-7, "EM stops when the mean log-likelihood rises by less "
                "(EM models only)", ("--tol",), "T")
FIT_SMOOTHING = Param("smoothing", SMOOTHING, 1.0, "pseudo-trials at 0.5 per (query, "
                      "document) parameter (0: maximum likelihood)", ("--smoothing",), "K")
#: A relevance level of a simulated user, sessions simulated per topic (10^9: more is a
#: typo), ranks of a SERP.
CLICK_LEVEL = Integers(1, 2**62)
SESSIONS = Integers(1, 1_000_000_000)
SERP_SIZE = Integers(1, 2**31 - 1)
#: ``-l`` of the simulated users: the smallest grade they count as relevant.
CLICK_RELEVANCE = Param("relevance_level", CLICK_LEVEL, 1, "smallest relevant degree",
                        ("-l", "--relevance-level"), "L")
#: The A/B test's effect size and per-user standard deviation (both > 0), and its power.
POSITIVE = Reals(0.0, bounds="()")
POWER = Reals(0.0, 1.0, "()")
#: Measures of the A/B tests of :func:`irscale.online.sensitivity`, the experiments per
#: number of impressions, its default grid of impressions (2 at least each) and the
#: agreement that counts as reached.
AB_MEASURES: tuple[str, ...] = ("clicks", "reciprocal_rank", "abandoned")
EXPERIMENTS = Integers(1)
SENSITIVITY_IMPRESSIONS: tuple[int, ...] = (10, 20, 50, 100, 200, 500, 1000)
EXPERIMENT_IMPRESSIONS = Integers(2)
AGREEMENT = Reals(0.0, 1.0, "(]")

# --------------------------------------------------------------------------- interval scales
#: How the functions name the parameters of a scale's space (command line and Python).
RUN_LENGTH = "run length N (-N, N)"
LEVELS = "number of relevance degrees (--levels, levels)"
RECALL_BASE = "recall base count (--recall-base, recall_base)"
INTENTS = "number of intents (--intents, intents)"
#: Degrees are stored as int8: at most 128 relevance degrees 0..127, and 2^S ≤ 128 intent
#: sets of S intents.
MAX_LEVELS = 128
MAX_INTENTS = 7
#: Largest number of documents of one degree in a recall base: 2^31 − 1 (no topic's qrels
#: come near it; sums over degrees stay far within 64 bits).
MAX_RECALL_BASE = 2**31 - 1
#: The domains of the run length N, the number of degrees, a recall base count, the number
#: of intents and of the shards an image is computed in.
LENGTH = Integers(1, INT64_MAX, strict=True)
DEGREES = Integers(2, MAX_LEVELS, strict=True)
RECALL_COUNT = Integers(0, MAX_RECALL_BASE, strict=True)
INTENT_COUNT = Integers(1, MAX_INTENTS, strict=True)
SHARDS = Integers(1, strict=True)
#: Tie strategies of φ for runs of equal value (Ferrante, Ferro & Fuhr 2021, eq. 2).
TIE_STRATEGIES: tuple[str, ...] = ("unq", "min", "max", "mid")
#: The parameters of a scale's space (:func:`irscale.scales.scale`).
SCALE_LENGTH = Param("N", LENGTH, None, "run length N (runs cut at N, padded with "
                     "non-relevant)", ("-N", "--length"), label=RUN_LENGTH)
SCALE_LEVELS = Param("levels", DEGREES, 2, "number of relevance degrees |REL| = c + 1 (2: "
                     "binary)", ("--levels",), label=LEVELS)
SCALE_INTENTS = Param("intents", INTENT_COUNT, None, "diversity measures (alpha-nDCG@k, "
                      "ERR-IA@k, ...): the number of intents; the space holds the (2^S)^N "
                      "runs whose documents are each relevant to a subset of them (see "
                      "docs/scales.md)", ("--intents",), "S", label=INTENTS)
SCALE_SHARDS = Param("shards", SHARDS, None, "meet-in-the-middle images (AP, DCG/nDCG, RBP "
                     "...): group the image's buckets (about 4M candidate pairs each) into at "
                     "most K tasks, run on --scheduler (or this process's threads without "
                     "it); same image and file", ("--shards",), "K", label="--shards",
                     unset="one task per bucket with --scheduler, none without")

@dataclass(frozen=True)
class Size:
    """A size in bytes, as :func:`parse_size` reads it; kept as given (the function that
    uses it reads it again)."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> object:
        parse_size(value, name)  # type: ignore[arg-type]
        return value

    def outside(self) -> tuple[str, ...]:
        return ("0", "-1G", "2 lots")


#: The memory a computation may take (``--max-memory``).
MEMORY = Size()
MEMORY_LIMIT = Param("max_memory", MEMORY, None, "refuse, with the estimate, a computation "
                     "whose estimated memory exceeds SIZE (2G, 500M, 1.5GiB; powers of "
                     "1024)", ("--max-memory",), "SIZE", label=MAX_MEMORY,
                     unset="half of the RAM")

# --------------------------------------------------------------------------- meta-evaluation
#: Rank correlation methods of :func:`irscale.meta.correlation` (``tau`` = Kendall's τ_b).
CORRELATION = Names("correlation method", ("kendall", "tau_ap", "tau_ap_sym", "spearman", "rbo"),
                    {"tau": "kendall", "tau_b": "kendall", "ap": "tau_ap", "tauap": "tau_ap",
                     "tau_ap_symmetric": "tau_ap_sym", "rho": "spearman"}, fold=True)
#: The persistence p of rank-biased overlap (Webber, Moffat & Zobel 2010).
PERSISTENCE = Reals(0.0, 1.0, "()")
RBO_P = Param("p", PERSISTENCE, 0.9, "RBO persistence, --method rbo only", ("-p", "--p"), "P")
#: The rank correlation of :func:`irscale.meta.overall_correlation` and its kin.
CORRELATION_METHOD = Param("method", CORRELATION, "kendall", "rank correlation",
                           ("--method",), label="--method")
#: Methods of :func:`irscale.meta.discriminative_power`.
DISCRIMINATIVE_METHOD = Names(
    "method", ("bootstrap", "randomized-tukey-hsd"),
    {"paired-bootstrap": "bootstrap", "paired_bootstrap": "bootstrap",
     "randomised-tukey-hsd": "randomized-tukey-hsd", "rtukey": "randomized-tukey-hsd",
     "randomized-tukey": "randomized-tukey-hsd", "randomized_tukey_hsd": "randomized-tukey-hsd",
     "randomised_tukey_hsd": "randomized-tukey-hsd", "randomized_tukey": "randomized-tukey-hsd"},
    fold=True)
#: The resamples of :func:`irscale.meta.discriminative_power`.
DISCRIMINATIVE_SAMPLES = Param("samples", SAMPLES, 1000, "resamples", ("-B", "--samples"), "B")
#: Runs that differ in one seed each (:func:`irscale.meta.discriminative_power_spread`).
SPREAD_SEEDS = Param("seeds", SEEDS, None, "repeat with seeds seed..seed+R-1 and report the "
                     "Monte Carlo spread", ("--seeds",), "R", unset="one run")
#: The pool depth of leave-one-out tests (:func:`irscale.meta.leave_one_out`).
LOO_DEPTH = Param("depth", DEPTH, 100, "pool depth", ("--depth",), "K")
#: Measure differences |ΔM| ≤ θ are measure ties (:func:`irscale.meta.predictive_power`).
PREDICT_THRESHOLD = Param("threshold", Reals(0.0), 0.0,
                          "differences |ΔM| ≤ θ are measure ties (no prediction)",
                          ("--threshold",), "θ")
#: An edge of the |ΔM| bins of :func:`irscale.meta.predictive_power` (``meta predict --bins``).
PREDICT_BIN_EDGE = Reals(0.0)
PREDICT_BINS = Param("bins", PREDICT_BIN_EDGE, None, "also the power per bin of |ΔM| between "
                    "these increasing edges", ("--bins",), "E,E,...", unset="none",
                    label="--bins")
#: How a measure tie counts in :func:`irscale.meta.predictive_power`.
PREDICT_TIES = Param("ties", Names("tie counting", ("exclude", "half", "miss")), "exclude",
                     "how a measure tie counts: left out, half a prediction or a miss",
                     ("--ties",))
#: The cut of the runs whose curves :func:`irscale.meta.informativeness` infers.
INFORMATIVENESS_DEPTH = Param("depth", DEPTH, 100, "cut every run at K documents (the "
                              "maximum entropy of AP costs O(K³) per ranked list)",
                              ("--depth",), "K")
#: The measures of :func:`irscale.meta.informativeness` (Aslam, Yilmaz & Pavlu 2005).
INFORMATIVENESS_MEASURES = ("AP", "R-prec", "P@10")
#: The cut of both runs before their document orderings are compared
#: (:func:`irscale.meta.ranking_agreement`, Breuer et al. 2020, §3.1).
REPRO_DEPTH = Param("depth", DEPTH, 1000, "cut the original and reproduced runs at K "
                    "documents before comparing their orderings (τ, RBO)", ("--depth",), "K")
#: The RBO persistence of :func:`irscale.meta.ranking_agreement` (Breuer et al. 2020 use 0.8).
REPRO_RBO_P = Param("p", PERSISTENCE, 0.8, "RBO persistence of the document orderings",
                    ("-p", "--p"), "P")
#: The contributor of a run in leave-one-out tests (:func:`irscale.meta.contributors_by_prefix`,
#: :func:`irscale.collections.simulate_pooling`): the part of its name the pattern matches.
DEFAULT_CONTRIBUTOR_PATTERN = r"^[^_]+"
CONTRIBUTOR_PATTERN = Param("contributor_pattern", Pattern(), DEFAULT_CONTRIBUTOR_PATTERN,
                            "contributor of a run = the part of its name matched (by default "
                            "up to the first '_')", ("--contributor-pattern",), "REGEX")
#: Agreement metrics of :func:`irscale.meta.split_study` (``tau``: Kendall's τ between the
#: halves' rankings).
SPLIT_METRICS: tuple[str, ...] = ("sig_1", "sig_2", "AA", "AD", "MA", "MD", "jaccard",
                                  "overlap", "tau")
#: Topics of a split (each half holds 2 at least), and the sizes studied.
SPLIT_SIZE = Integers(2)
SPLIT_SIZES = Param("sizes", SPLIT_SIZE, (5, 10, 15, 20, 25), "comma-separated topics per "
                    "split", ("--sizes",), "S,S,...")
#: A D-study size: topics or levels of a second facet (:meth:`irscale.stats.GStudy.dstudy`).
DSTUDY_SIZE = Integers(1, 1_000_000)
#: ``meta gstudy --topics``: the topic set sizes of the D-study.
DSTUDY_TOPICS = Param("n_topics", DSTUDY_SIZE, (10, 25, 50, 100, 200), "comma-separated "
                      "topic set sizes of the D-study", ("--topics",), "N,N,...")
#: ``meta gstudy --facet-levels``: the D-study sizes of the second facet.
DSTUDY_FACET = Param("n_facet", DSTUDY_SIZE, None, "comma-separated levels of the second "
                     "facet in the D-study", ("--facet-levels",), "N,N,...",
                     unset="its number in the --facet-scores file")
#: ``meta gstudy --target``: the coefficient whose topic count is wanted.
GSTUDY_TARGET = Param("target", Reals(0.0, 1.0, "()"), None, "print the fewest topics that "
                      "reach this Eρ² and this Φ", ("--target",), "R", unset="none")
#: ``meta split --metric``: an agreement metric, the bias of the halves' means (``bias``)
#: or the spread of τ (``tau_sd``).
SPLIT_METRIC = Param("metric", Names("metric", (*SPLIT_METRICS, "bias", "tau_sd")), None,
                     "print one metric by size", ("--metric",), label="--metric",
                     unset="the agreement table and τ")
#: Width of the bins of score differences of the swap method.
BIN_WIDTH = Reals(0.0, bounds="()")
SWAP_BIN_WIDTH = Param("bin_width", BIN_WIDTH, 0.01, "width of the bins of score differences",
                       ("--bin-width",), "W")
#: The normal model of :func:`irscale.meta.simulation_study`: topics and systems per
#: matrix, the standard deviations of topic effects (≥ 0) and errors (> 0), system means.
MATRIX_SIZE = Integers(2)
TOPIC_SD = Reals(0.0)
ERROR_SD = Reals(0.0, bounds="()")
EFFECT = Reals()
NORMAL_TOPICS = Param("topics", MATRIX_SIZE, 50, "normal model: topics per matrix",
                      ("--topics",), "T")
NORMAL_SYSTEMS = Param("systems", MATRIX_SIZE, 2, "normal model: systems per matrix",
                       ("--systems",), "S")
NORMAL_TOPIC_SD = Param("topic_sd", TOPIC_SD, 0.1, "normal model: standard deviation of the "
                        "topic effects u_t", ("--topic-sd",), "SD")
NORMAL_ERROR_SD = Param("error_sd", ERROR_SD, 0.1, "normal model: standard deviation of the "
                        "errors e_ts, > 0", ("--error-sd",), "SD")
NORMAL_EFFECTS = Param("effects", EFFECT, None, "normal model: the true system means mu_s, "
                       "one per system, e.g. -0.1,0", ("--effects",), "E,E,...",
                       unset="all 0, every pair null", label="--effects")
#: The runs model of :func:`irscale.meta.simulation_study` (``RunsModel.of``): the quality of
#: every system.
RUNS_QUALITIES = Param("qualities", EFFECT, None, "runs model (QRELS -m MEASURE): one quality "
                       "per system, the mean score of a relevant document in a binormal score "
                       "model (non-relevant: 0; both of variance 1); equal qualities make a "
                       "null pair", ("--qualities",), "Q,Q,...", label="--qualities")
#: The margin families and copulas of the copula model (:mod:`irscale.meta.stochastic`;
#: Urbano & Nagler 2018).
MARGIN_FAMILIES: tuple[str, ...] = ("truncnorm", "beta", "bks", "bbinom", "dks")
MARGIN_FAMILY = Names("margin family", MARGIN_FAMILIES)
COPULA_FAMILIES: tuple[str, ...] = ("gaussian", "t", "independent", "auto", "vine")
COPULA_FAMILY = Names("copula", COPULA_FAMILIES)
COPULA_MARGINS = Param("margins", MARGIN_FAMILY, MARGIN_FAMILIES, "copula model: "
                       "comma-separated margin families fitted to every system, the one of "
                       "the smallest AIC kept (bbinom, dks: for discrete scores, P@10)",
                       ("--margins",), "F,F,...")
COPULA = Param("copula", COPULA_FAMILY, "gaussian", "copula model: the copula of the "
               "dependence between systems (auto: gaussian or t, the smaller AIC; "
               "vine: an R-vine, needs irscale[vines])",
               ("--copula",))
#: Measures and run lengths N of :func:`irscale.meta.scale_report` (Ferrante, Ferro & Fuhr
#: 2021), and a run length.
SCALE_MEASURES: tuple[str, ...] = ("P", "R", "AP", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02",
                                   "DCG_b10", "nDCG_b02", "nDCG_b10", "RR")
SCALE_CUTOFFS: tuple[int, ...] = (5, 10, 20, 30)
CUTOFF = Integers(1)
SCALE_LENGTHS = Param("cutoffs", CUTOFF, SCALE_CUTOFFS, "comma-separated run lengths N",
                      ("--cutoffs",), "N,N,...")

# --------------------------------------------------------------------------- declared once for
# the commands of pooling, crowd labels, online evaluation, sessions, reports (their options
# are built from these: irscale.cli.options.add_param)
#: The strategy of a pool (:func:`irscale.collections.pool`) and its judgments per topic.
POOL_STRATEGY = Param("strategy", STRATEGY, "depth", "depth (depth-k), take (take@N), rbp "
                      "(RBP-weighted, Moffat et al. 2007), rrf (reciprocal rank fusion), mtf "
                      "(move-to-front, Cormack et al. 1998), mm, mm-ns, ts, ts-ns (bandits of "
                      "Losada et al. 2016, 2017)", ("--strategy",), "S")
POOL_BUDGET = Param("budget", BUDGET, None, "judgments per topic: required for take, rbp and "
                    "rrf; the adaptive strategies stop there", ("--budget",), "N",
                    unset="no limit")
#: The strategies and budgets :func:`irscale.collections.simulate_pooling` compares, and
#: the P̂@k cut-offs of :func:`irscale.collections.estimate_sampled`, by default.
SIMULATED_STRATEGIES: tuple[str, ...] = ("depth", "mtf", "mm-ns")
SIMULATED_BUDGETS: tuple[int, ...] = (10, 50, 100)
SAMPLE_CUTOFFS: tuple[int, ...] = (10,)
#: The sampling design of :func:`irscale.collections.sample_judgments`.
SAMPLE_DESIGN = Param("design", Names("sampling design", DESIGNS), "with-replacement",
                      "with-replacement: N draws, the distinct documents judged, π = "
                      "1-(1-p)^N; poisson: each document independently with π = min(1, c·p), "
                      "Σπ = N; stratified: --strata", ("--design",), "DESIGN")
#: How the human sample of :func:`irscale.collections.automatic_judgments` was drawn.
AUTO_DESIGN = Param("design", Names("human sample design",
                                    ("topics", "uniform", "stratified", "inclusion")),
                    "topics", "how the human sample was drawn: topics: a uniform sample of the "
                    "topics; uniform: of the (topic, document) pairs; stratified: of the pairs "
                    "of every automatic grade; inclusion: pairs with stated probabilities "
                    "(HUMAN: topic iter docno rel prob)", ("--design",), "DESIGN")
#: Documents drawn per topic (:func:`irscale.collections.sample_judgments`).
SAMPLE_DRAWS = Param("size", SAMPLE_SIZE, None, "per topic: draws (with-replacement) or "
                     "expected judgments (poisson); required by those designs", ("--size",),
                     "N")
#: Shards of the documents (:func:`irscale.collections.evaluate_shards`).
SHARD_COUNT = Param("shards", DOCUMENT_SHARDS, 3, "number of shards (as Ferro & Sanderson "
                    "2022)", ("--shards",), "K")
#: How the documents are split (:func:`irscale.collections.evaluate_shards`).
SHARD_METHOD = Param("method", Names("shard method", SHARD_METHODS), "random", "random: a "
                     "seeded random partition of the documents (Ferro & Sanderson 2022); hash: "
                     "a stable 64-bit hash of the docno modulo K", ("--method",), "METHOD")
#: EM iterations of the aggregation methods (:func:`irscale.collections.aggregate_labels`;
#: crowd-kit's defaults) and MACE's random restarts.
LABEL_N_ITER: dict[str, int] = {"ds": 100, "glad": 100, "mace": 50, "onecoin": 100,
                                "zbs": 100, "kos": 100, "mmsr": 10_000, "gp": 1000, "hrm": 100}
LABEL_ITERATIONS = Param("n_iter", ITERATIONS, None, "iterations of ds, glad, onecoin, mmsr, "
                         "gp, hrm (at most), mace, zbs and kos", ("--n-iter",), "N",
                         unset=", ".join(f"{n} for {method}"
                                         for method, n in LABEL_N_ITER.items())
                         + ", as crowd-kit where it has the method")
#: The stopping tolerance of every method that has one (crowd-kit's defaults; ``hrm``, which
#: crowd-kit lacks: the marginal log-likelihood per label).
LABEL_TOL: dict[str, float] = {"ds": 1e-5, "glad": 1e-5, "onecoin": 1e-5, "mmsr": 1e-10,
                               "gp": 1e-6, "hrm": 1e-8}
LABEL_METHOD = Param("method", Names("aggregation method", AGGREGATION_METHODS,
                                     AGGREGATION_ALIASES), "ds",
                     "mv (majority vote, ties to the lower label), wmv (weighted by agreement "
                     "with MV; alias wawa), ds (Dawid & Skene 1979), glad (Whitehill et al. "
                     "2009), mace (Hovy et al. 2013), onecoin (one-coin Dawid & Skene), zbs "
                     "(Zero-Based Skill), kos (Karger, Oh & Shah 2011; two labels), mmsr (Ma & "
                     "Olshevsky 2020), gp (Rodrigues, Pereira & Ribeiro 2014; two labels, "
                     "--features), hrm (ordinal labels: the rater model of Patz et al. 2002)",
                     ("--method",), "METHOD")
#: Zero-Based Skill's learning rate, the iterations between its reductions, and the factor
#: of a reduction (crowd-kit's ``lr_init``, ``lr_steps_to_reduce``, ``lr_reduce_factor``).
ZBS_LR = Param("lr", Reals(0.0, math.inf, "()"), 1.0, "zbs: initial learning rate",
               ("--lr",), "R")
ZBS_LR_STEPS = Param("lr_steps", ITERATIONS, 20, "zbs: iterations between two reductions "
                     "of the learning rate", ("--lr-steps",), "N")
ZBS_LR_DECAY = Param("lr_decay", Reals(0.0, 1.0, "(]"), 0.5, "zbs: factor of a reduction "
                     "of the learning rate", ("--lr-decay",), "F")
#: The RBF length-scale of the ``gp`` aggregation (:mod:`irscale.collections.label_gp`).
GP_LENGTH_SCALE = Param("length_scale", Reals(0.0, math.inf, "()"), None, "gp: length-scale "
                        "of the RBF kernel over the features", ("--length-scale",), "L",
                        unset="the median distance between the documents of the topic")
#: AWARE's assessor weighting (:func:`irscale.collections.aware`).
AWARE_WEIGHTS = Param("weights", Names("weighting", WEIGHTINGS), "uniform", "uniform (the mean "
                      "over assessors), msd, msd-topic (mean squared distance from random "
                      "assessors' scores, per assessor or per topic), tau (Kendall distance of "
                      "the run rankings from random assessors'); msd, msd-topic and tau are "
                      "irscale's reading, not verified against the paper's estimators",
                      ("--weights",), "W")
#: Pairwise aggregation (:func:`irscale.collections.aggregate_pairwise`): Bradley & Terry
#: (1952) by Hunter's (2004) MM algorithm, and the noisy Bradley–Terry model of Bugakova et
#: al. (2019); crowd-kit's class names are aliases.
PAIRWISE_METHODS: tuple[str, ...] = ("bt", "noisybt")
PAIRWISE_ALIASES: dict[str, str] = {"BradleyTerry": "bt", "NoisyBT": "noisybt",
                                    "NoisyBradleyTerry": "noisybt"}
PAIRWISE_METHOD = Param("method", Names("pairwise aggregation method", PAIRWISE_METHODS,
                                        PAIRWISE_ALIASES), "bt",
                        "bt (Bradley & Terry 1952, MM algorithm of Hunter 2004), noisybt "
                        "(noisy Bradley-Terry with worker skill and position bias, Bugakova "
                        "et al. 2019)", ("--method",), "METHOD")
#: Iterations (at most) and stopping tolerance of each pairwise method: stricter than
#: crowd-kit's (whose ``BradleyTerry`` loop stops after its second iteration and whose
#: ``NoisyBradleyTerry`` stops L-BFGS-B at a relative change of 1e-5).
PAIRWISE_N_ITER: dict[str, int] = {"bt": 10_000, "noisybt": 1000}
PAIRWISE_TOL: dict[str, float] = {"bt": 1e-10, "noisybt": 1e-10}
PAIRWISE_ITERATIONS = Param("n_iter", ITERATIONS, None, "iterations (at most) of bt and "
                            "noisybt", ("--n-iter",), "N", unset=", ".join(
                                f"{n} for {method}" for method, n in PAIRWISE_N_ITER.items()))
#: Weight of the noisy Bradley–Terry model's anchor (a virtual document that every document
#: beats once and loses to once; crowd-kit's ``regularization_ratio``).
NOISYBT_REGULARIZATION = Param("regularization", Reals(0.0, math.inf, "()"), 1e-5,
                               "noisybt: weight of the anchor that keeps the scores finite",
                               ("--regularization",), "R")
#: A crowd label's value (stored as int64: :func:`irscale.io.crowd.read_crowd_labels`).
LABEL_VALUE = Integers(-2**63, INT64_MAX)
LABEL_RESTARTS = Param("restarts", ITERATIONS, 10, "random restarts of mace", ("--restarts",),
                       "N")
#: Simulated click logs (:func:`irscale.online.simulate_click_log`) and the users of the
#: qrels' grades (:func:`irscale.online.qrels_click_model`).
CLICK_SESSIONS = Param("sessions", SESSIONS, 1000, "impressions per topic", ("--sessions",),
                       "N")
SHOWN = Param("serp_size", SERP_SIZE, 10, "documents shown per page", ("--serp-size",), "K")
USER_GAMMA = Param("gamma", PROBABILITY, 1.0, "--user: probability of going on when not "
                   "satisfied", ("--gamma",), "G")
#: The largest rank of a click log (:func:`irscale.online.read_click_log`).
LOG_SERP = Param("serp_size", SERP_SIZE, None, "largest rank of the log", ("--serp-size",),
                 "K", unset="the largest found")
#: Counterfactual evaluation (:func:`irscale.online.counterfactual`): the estimator, the
#: clipping of propensities, the bootstrap over sessions (none by default).
OPE_ESTIMATORS: tuple[str, ...] = ("ips", "snips", "dr", "pbm-ips", "dm", "switch-dr",
                                   "sndr", "sips", "iips", "rips")
OPE_ESTIMATOR = Param("estimator", Names("estimator", OPE_ESTIMATORS), "ips",
                      "off-policy estimator", ("--estimator",), "NAME")
OPE_CLIP = Param("clip", Reals(0.0, 1.0, bounds="(]"), None, "clip the propensities in "
                 "denominators at max(p, C) (biased downwards)", ("--clip",), "C",
                 unset="no clipping")
OPE_SWITCH_TAU = Param("switch_tau", Reals(0.0, math.inf, bounds="[)"), None,
                       "switch-dr: importance weights above T leave their rank to the "
                       "reward model", ("--switch-tau",), "T", unset="required by switch-dr")
#: Learned satisfaction (:func:`irscale.online.fit_satisfaction`): the L2 penalty of the
#: logistic regression on standardised features, the cross-validation folds.
SAT_L2 = Param("l2", Reals(0.0, math.inf, bounds="()"), 1.0, "L2 penalty λ of the logistic "
               "regression (on z-scored features; sklearn's C = 1/λ)", ("--l2",), "L")
SAT_FOLDS = Param("folds", Integers(2, 1000), 5, "cross-validation folds (stratified)",
                  ("--folds",), "K")
OPE_BOOTSTRAP = Param("bootstrap", Integers(0, MAX_SAMPLES), 0, "percentile bootstrap "
                      "samples over sessions (0: none)", ("--bootstrap",), "B")
#: The page of click-calibrated measures (:func:`irscale.online.click_calibrated`).
PAGE_DEPTH = Param("depth", SERP_SIZE, None, "result page size", ("--depth",), "K",
                   unset="the model's ranks, else 10")
#: Relevance from clicks (:mod:`irscale.online.click_labels`): the score of a pair mapped
#: to grades, the thresholds of the grades, the preference rule and the sessions a kept
#: pair or preference needs.
CLICK_QRELS_SCORES: tuple[str, ...] = ("attractiveness", "satisfaction", "relevance")
CLICK_QRELS_SCORE = Param("score", Names("click model score", CLICK_QRELS_SCORES), None,
                          "the parameter graded", ("--score",), "NAME",
                          unset="relevance (alpha sigma) for dbn and sdbn, else "
                          "attractiveness")
CLICK_THRESHOLDS = Param("thresholds", PROBABILITY, (0.5,), "increasing thresholds: a "
                         "pair's grade is the number at or below its score",
                         ("--thresholds",), "T,...")
PREFERENCE_RULES: tuple[str, ...] = ("skip-above", "last-skip-above", "earlier-click",
                                     "skip-previous", "no-click-next")
PREFERENCE_RULE = Param("rule", Names("preference rule", PREFERENCE_RULES), "skip-above",
                        "Joachims et al.'s rule", ("--rule",), "NAME")
MIN_SESSIONS = Param("min_sessions", Integers(1), 1, "sessions a pair (qrels: showing it; "
                     "prefs: preferring it) needs to be kept", ("--min-sessions",), "N")
#: The inactivity (seconds) after which a user's next page starts a new search session
#: (:func:`irscale.online.loyalty_measures`).
SESSION_GAP = Param("session_gap", Reals(0.0, bounds="(]"), 1800.0, "seconds without a "
                    "page after which a user's next page starts a search session",
                    ("--session-gap",), "S")
#: The allocation of crowd answers (:func:`irscale.collections.allocate_labels`).
ALLOCATION_RULES: tuple[str, ...] = ("adaptive", "uniform")
ALLOCATION_RULE = Param("rule", Names("allocation rule", ALLOCATION_RULES), "adaptive",
                        "adaptive stopping or the same answers for every document",
                        ("--rule",), "NAME")
ALLOCATION_C = Param("c", Reals(0.0, bounds="(]"), 1.5, "adaptive: confidence width c of "
                     "the stopping rule n1 - n2 >= c sqrt(t) - epsilon t", ("--c",), "C")
ALLOCATION_EPSILON = Param("epsilon", Reals(0.0, 1.0), 0.1, "adaptive: epsilon of the "
                           "stopping rule (every document stops by (c/epsilon)^2 answers)",
                           ("--epsilon",), "E")
MIN_LABELS = Param("min_labels", Integers(1), 2, "adaptive: answers before the rule may "
                   "stop", ("--min-labels",), "N")
MAX_LABELS = Param("max_labels", Integers(1), None, "most answers per document",
                   ("--max-labels",), "N", unset="every answer available")
LABEL_BUDGET = Param("budget", Integers(1), None, "total answers to buy", ("--budget",), "B",
                     unset="every answer available")
#: The cut-off of clicks@k (:func:`irscale.online.session_measures`).
CLICKS_CUTOFF = Param("k", CUTOFF, 3, "cut-off of clicks@k", ("-k",), "K")
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
#: The interleaving method (:func:`irscale.online.interleave_runs`,
#: :func:`irscale.online.score_log`).
INTERLEAVING_METHOD = Param("method", INTERLEAVING, "team-draft", "interleaving method",
                            ("--method",), "METHOD")
#: Interleaving (:func:`irscale.online.interleave_runs`, ``score``,
#: :func:`irscale.online.score_log`); the impressions per topic are the command's.
TOPIC_IMPRESSIONS = Param("impressions", IMPRESSION_COUNT, 1000, "impressions per topic",
                          ("--impressions",), "N")
SHOWN_LENGTH = Param("length", SERP_LENGTH, 10, "documents shown per impression (at most the "
                     "documents of a topic's runs together)", ("--length",), "L")
DEFAULT_BOOTSTRAP = 10_000
INTERVAL_BOOTSTRAP = Param("bootstrap", SAMPLES, DEFAULT_BOOTSTRAP, "bootstrap samples of the "
                           "interval", ("--bootstrap",), "B")
#: The experiments of :func:`irscale.online.sensitivity`.
EXPERIMENT_REPETITIONS = Param("repetitions", EXPERIMENTS, 100, "experiments per number of "
                               "impressions", ("--repetitions",), "R")
AB_MEASURE = Param("ab_measure", Names("A/B measure", AB_MEASURES), "clicks", "online "
                   "measure of the A/B test per impression", ("--ab-measure",), "MEASURE")
TARGET = Param("target", AGREEMENT, 0.95, "agreement that counts as reached", ("--target",),
               "TARGET")
TEST_SIGNIFICANCE = Param("significance", ALPHA, None, "an experiment agrees only when its "
                          "test (sign test, Welch) is also significant at LEVEL",
                          ("--significance",), "LEVEL", unset="the sign alone")
#: The order clicks of a session are read in (:func:`irscale.evaluate_sessions`).
CLICK_ORDERS: tuple[str, ...] = ("time", "rank")
CLICK_ORDER = Param("click_order", Names("click order", CLICK_ORDERS), "time", "read the "
                    "clicks in time order (non-linear traversal) or by query and rank",
                    ("--click-order",), "ORDER")
#: How ROUGE scores a text against several references (:func:`irscale.text.evaluate_rouge`).
ROUGE_MULTI = Param("multi", Names("multi-reference rule", ("max", "mean", "pooled")), "max",
                    "several references: the best by F (max, rouge-score's score_multi), the "
                    "mean, or pooled counts (ROUGE-1.5.5 -f A)", ("--multi",), "RULE")
#: The gain of a click in a session (:func:`irscale.evaluate_sessions`).
SESSION_CLICK_GAIN = Param("click_gain", CLICK_GAIN, None, "gain of every click (0.5: "
                           "'clicked = relevant' as Sakai's algorithm)", ("--click-gain",),
                           "G", unset="the qrels gain of the clicked document")
#: ndeval's ``-riskAlpha`` of the diversity measures' risk-sensitive output (the text as
#: typed, printed back).
NDEVAL_RISK_ALPHA = Param("risk_alpha", RISK_ALPHA, "0", "diversity, --format ndeval "
                          "--baseline FILE: risk sensitivity A >= 0, a loss against the "
                          "baseline weighs 1+A (ndeval -riskAlpha)", ("--risk-alpha",), "A")
#: The run length of the report's robustness panel (:func:`irscale.report.build_report`).
SCALE_DEPTH = Param("scale_depth", LENGTH, 10, "run length N of the robustness panel for "
                    "measures without a cut-off", ("--scale-depth",), "N")

# --------------------------------------------------------------------------- rank fusion
#: The fusion methods of :func:`irscale.fusion.fuse` (ranx's names as aliases). Score
#: methods combine (normalised) scores; rank methods read each run's ranking only.
#: The supervised methods (their probabilities or weights learnt on training topics: the
#: runs' rankings of them and their qrels) are in both lists.
FUSION_SCORE_METHODS: tuple[str, ...] = ("combsum", "combmnz", "combmax", "combmin",
                                         "combmed", "combanz", "wsum", "combgmnz", "mixed",
                                         "segfuse")
FUSION_RANK_METHODS: tuple[str, ...] = ("rrf", "isr", "log-isr", "logn-isr", "bordafuse",
                                        "w-bordafuse", "condorcet", "w-condorcet", "rbc",
                                        "probfuse", "slidefuse", "posfuse", "mapfuse",
                                        "bayesfuse")
#: The methods trained on training topics (``train_qrels`` and ``train_runs``).
FUSION_TRAINED: tuple[str, ...] = ("segfuse", "probfuse", "slidefuse", "posfuse", "mapfuse",
                                   "bayesfuse")
#: The methods that take one weight per run (default 1 each).
FUSION_WEIGHTED: tuple[str, ...] = ("wsum", "mixed", "w-bordafuse", "w-condorcet")
FUSION_METHOD = Param(
    "method", Names("fusion method", (*FUSION_SCORE_METHODS, *FUSION_RANK_METHODS),
                    {"sum": "combsum", "mnz": "combmnz", "max": "combmax", "min": "combmin",
                     "med": "combmed", "anz": "combanz", "gmnz": "combgmnz",
                     "log_isr": "log-isr", "logn_isr": "logn-isr",
                     "w_bordafuse": "w-bordafuse", "weighted-bordafuse": "w-bordafuse",
                     "w_condorcet": "w-condorcet", "weighted-condorcet": "w-condorcet",
                     "weighted-sum": "wsum"}, fold=True),
    None, "fusion method", ("--method",), "METHOD")
#: Score normalisations per run and topic (:func:`irscale.fusion.fuse`; ranx's names).
FUSION_NORMS: tuple[str, ...] = ("none", "min-max", "max", "sum", "zmuv", "rank", "borda")
FUSION_NORM = Param(
    "norm", Names("normalisation", FUSION_NORMS,
                  {"min_max": "min-max", "z-score": "zmuv", "zscore": "zmuv"}, fold=True),
    None, "score normalisation per run and topic, before a score method",
    ("--norm",), "NORM", unset="min-max for score methods; rank methods take none")
#: Reciprocal rank fusion's constant k (Cormack et al. 2009: 60), spelt as pooling's.
FUSION_K = Param("k", RRF_K, DEFAULT_RRF_K, "RRF constant k of 1/(k + rank), rrf only",
                 ("--k",), "K")
#: A weight of the weighted sum (any finite number).
FUSION_WEIGHT = Reals()
FUSION_WEIGHTS = Param("weights", FUSION_WEIGHT, None, "wsum, mixed, w-bordafuse, "
                       "w-condorcet: one weight per run, in order", ("--weights",), "W,W,...",
                       unset="1 each")
#: The parameters of one fusion method each (Python name: the method, the Param); those
#: without a default are required by their method.
FUSION_PHI = Param("phi", Reals(0.0, 1.0, "()"), None, "rbc, required: the persistence phi "
                   "of the weights (1-phi)*phi^(rank-1)", ("--phi",), "PHI")
FUSION_GAMMA = Param("gamma", Reals(0.0, 10.0), None, "combgmnz, required: the exponent "
                     "gamma of |R(d)|^gamma", ("--gamma",), "G")
FUSION_SIGMA = Param("sigma", Reals(0.0, 1.0), 0.01, "logn-isr: sigma of ln(|R(d)| + sigma)",
                     ("--sigma",), "S")
FUSION_SEGMENTS = Param("segments", Integers(1, 100_000), None, "probfuse, required: the segments "
                        "of each ranking", ("--segments",), "K")
FUSION_WINDOW = Param("window", Integers(0, 100_000), None, "slidefuse, required: the "
                      "half-width w of the window of ranks averaged", ("--window",), "W")
FUSION_METHOD_PARAMS: dict[str, tuple[str, Param]] = {
    "phi": ("rbc", FUSION_PHI), "gamma": ("combgmnz", FUSION_GAMMA),
    "sigma": ("logn-isr", FUSION_SIGMA), "segments": ("probfuse", FUSION_SEGMENTS),
    "window": ("slidefuse", FUSION_WINDOW)}
#: The grid step of weight optimisation: weights are multiples of it summing to 1.
FUSION_STEP = Param("step", Reals(0.0, 1.0, "(]"), 0.1, "optimisation: the grid step of "
                    "the weights (multiples of it summing to 1; 1/step an integer)",
                    ("--step",), "S")


def check_fusion(method: object, norm: object, k: object = DEFAULT_RRF_K,
                 weights: object = None) -> tuple[str, str, float, list[float] | None]:
    """The parameters of a fusion checked together, before any run is read:
    ``(method, norm, k, weights)`` in canonical form; ``norm`` resolved (``min-max`` for a
    score method, ``none`` for a rank method, which refuses any other); ``k`` for rrf
    only; ``weights`` (finite numbers) for wsum only. Their count is checked against the
    runs' by :func:`check_weight_count`."""
    method = str(FUSION_METHOD.check(method))
    rank_method = method in FUSION_RANK_METHODS
    norm = ("none" if rank_method else "min-max") if norm is None else \
        str(FUSION_NORM.check(norm))
    if rank_method and norm != "none":
        raise ParameterError(f"norm: {method} reads each run's ranking only; a "
                             f"normalisation ({norm}) would change nothing or add unranked "
                             "documents: leave norm unset", param="norm")
    k = float(FUSION_K.check(k))
    if k != FUSION_K.default and method != "rrf":
        raise ParameterError(f"k applies to rrf only, not to {method}", param="k")
    if weights is None:
        return method, norm, k, None
    if method not in FUSION_WEIGHTED:
        raise ParameterError(f"weights apply to {', '.join(FUSION_WEIGHTED)} only, not to "
                             f"{method}", param="weights")
    if isinstance(weights, (str, bytes, Mapping)) or not hasattr(weights, "__len__"):
        raise ParameterError(f"weights must be a sequence of numbers, one per run, got "
                             f"{shown(weights)}", param="weights")
    return method, norm, k, [FUSION_WEIGHT.check(w, "weights") for w in cast(Any, weights)]


def check_training(method: str, train_qrels: Any, train_runs: Any) -> bool:
    """Whether ``method`` is supervised: then it needs ``train_qrels`` and ``train_runs``,
    which the other methods refuse."""
    for name, given in (("train_qrels", train_qrels), ("train_runs", train_runs)):
        if method not in FUSION_TRAINED and given is not None:
            raise ParameterError(f"{name} applies to the supervised methods "
                                 f"({', '.join(FUSION_TRAINED)}) only, not to {method}",
                                 param=name)
        if method in FUSION_TRAINED and given is None:
            raise ParameterError(f"{method} learns on training topics: it needs {name} (the "
                                 "training topics' qrels, and the same systems' runs of "
                                 "them, one per run fused, in order)", param=name)
    return method in FUSION_TRAINED


def check_fusion_params(method: str, given: Mapping[str, object]) -> dict[str, Any]:
    """The parameters of one method of :data:`FUSION_METHOD_PARAMS` checked (``given``:
    name → value, None where not given): ``method``'s own, its default filled in, or
    refused where missing and required; any other given refused."""
    checked: dict[str, Any] = {}
    for name, value in given.items():
        owner, param = FUSION_METHOD_PARAMS[name]
        if owner != method:
            if value is not None:
                raise ParameterError(f"{name} applies to {owner} only, not to {method}",
                                     param=name)
            continue
        if value is None and param.default is None:
            raise ParameterError(f"{method} needs {name} ({param.doc})",
                                 param=name)
        checked[name] = param.check(param.default if value is None else value)
    return checked


def check_weight_count(weights: list[float] | None, runs: int) -> None:
    """Two runs at least, and one weight per run where weights are given."""
    if runs < 2:
        raise ParameterError(f"fusion needs two runs at least, got {runs}")
    if weights is not None and len(weights) != runs:
        raise ParameterError(f"weights: {len(weights)} weights for {runs} runs (one per "
                             "run, in order)", param="weights")


def check_fusion_step(value: object) -> int:
    """The number of grid steps ``1/step`` of :data:`FUSION_STEP` (``step`` must divide 1
    within 1e-9: 0.1, 0.05, 0.25 do; 0.3 does not)."""
    step = FUSION_STEP.check(value)
    count = round(1.0 / step)
    if abs(count * step - 1.0) > 1e-9:
        raise ParameterError(f"step must divide 1 (0.1, 0.05, 0.25 ...), got {shown(value)}",
                             param="step")
    return count
