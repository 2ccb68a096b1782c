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

The mechanism (the domains, :class:`Param`, the ``check_*`` helpers) and the parameters
that several layers read are declared here; a package's own parameters are declared beside
it, with the same mechanism (:mod:`irscale.collections.params`, :mod:`irscale.online.params`,
:mod:`irscale.meta.params`, :mod:`irscale.text.params`, :mod:`irscale.fusion.params`,
:mod:`irscale.scales.params`, :mod:`irscale.evaluation.params`,
:mod:`irscale.report.params`), in modules that import nothing heavier than this one (their
packages' ``__init__`` is lazy).

A parameter that the functions and the command line share is declared once as a
:class:`Param`: its Python name, domain, default, doc and the spellings of its option. The
command line builds the option from it (:func:`irscale.cli.options.add_param`: the help is
the doc and the default, never restated by hand), and names the option in the errors the
functions raise about the parameter (:attr:`irscale.errors.ParameterError.param`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

from ..errors import ParameterError, about, shown
from .budget import MAX_MEMORY, parse_size
from .extras import IRDS_INPUT
from .option_values import DEFAULT_RELEVANCE_LEVEL as DEFAULT_RELEVANCE_LEVEL
from .option_values import INT64_MAX as INT64_MAX
from .option_values import RELEVANCE_LEVEL as RELEVANCE_LEVEL
from .records import field, record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, ClassVar, Literal, TypeAlias

    from .extras import Requires


def _float(value: numbers.Real) -> float:
    """``value`` as a float; ±inf for a number beyond the range of doubles (10**400)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]


@record
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
        number = int(value)  # type: ignore[call-overload]
        if number != value or number < self.low or (self.high is not None and
                                                     number > self.high):
            given = number if isinstance(value, numbers.Integral) else value
            raise about(ParameterError(f"{name} must be {self.text()}, got {shown(given)}",
                                       param=name), value)
        return number

    def outside(self) -> tuple[str, ...]:
        return (str(self.low - 1),) + (() if self.high is None else (str(self.high + 1),))


@record
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


@record
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


@record
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


@record
class Pattern:
    """A regular expression (Python's :mod:`re` syntax), kept as given."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> str:
        """``value`` itself, once it compiles."""
        if not isinstance(value, str):
            raise about(ParameterError(f"{name} must be a regular expression, got "
                                       f"{shown(value)}", param=name), value)
        import re

        try:
            re.compile(value)
        except re.error as error:
            raise ParameterError(f"{name} {value!r} is not a valid regular expression: "
                                 f"{error}", param=name) from None
        return value

    def outside(self) -> tuple[str, ...]:
        return ("(", "[a-")


@record
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


@record
class Listed:
    """A list of values of ``domain`` (one value alone is a list of one), at least one,
    none twice: the functions' ``budgets=[10, 50]``, the command line's comma-separated
    ``--budget 10,50`` (:func:`irscale.cli.options.add_param` makes a list option of it).
    ``what`` names one value in messages (``a budget``); ``repeats``: a value may come
    twice (fusion's weights, one per run: ``1,1``)."""

    domain: Any
    what: str = "a value"
    repeats: bool = False

    @property
    def type(self) -> type:
        """How the command line converts one item (the domain's)."""
        return self.domain.type

    def check(self, value: object, name: str) -> list[Any]:
        """The values, each as ``domain`` returns it, in the order given."""
        items = [value] if isinstance(value, (str, numbers.Number)) else value
        if isinstance(items, (bytes, Mapping)) or not hasattr(items, "__iter__"):
            raise about(ParameterError(f"{name} must be a list of {self.what.removeprefix('a ')}"
                                       f"s, got {shown(value)}", param=name), value)
        checked = []
        for item in items:
            try:
                checked.append(self.domain.check(item, f"{name}: {self.what}"))
            except ParameterError as error:
                error.param = name
                raise
        noun = self.what.removeprefix("a ").removeprefix("an ")
        if not checked:
            raise ParameterError(f"{name} is empty: give at least one {noun}", param=name)
        if self.repeats:
            return checked
        try:  # (counted once each: a list of a million seeds is checked in a second)
            from collections import Counter

            counts = Counter(checked)
            twice = [v for v in counts if counts[v] > 1]
        except TypeError:  # values that cannot be hashed
            twice = list(dict.fromkeys(v for v in checked if checked.count(v) > 1))
        if twice:
            raise ParameterError(f"{name} lists the {noun}(s) {twice} twice", param=name)
        return checked

    def outside(self) -> tuple[str, ...]:
        return self.domain.outside()


@record
class Increasing(Listed):
    """A list of values of ``domain`` in strictly increasing order, ``least`` of them at
    least: the edges of bins (``meta predict --bins 0,0.05,0.1``), where an edge out of
    order or given twice would make an empty or overlapping bin."""

    least: int = 2

    def check(self, value: object, name: str) -> list[Any]:
        """The values, each as ``domain`` returns it, once they increase."""
        from itertools import pairwise

        checked = super().check(value, name)
        noun = self.what.removeprefix("a ").removeprefix("an ")
        if len(checked) < self.least or any(b <= a for a, b in pairwise(checked)):
            raise ParameterError(f"{name} must be at least {self.least} increasing {noun}s, "
                                 f"got {checked}", param=name)
        return checked

    def outside(self) -> tuple[str, ...]:
        return (*self.domain.outside(), "1,0")


@record
class OrNone:
    """A value of ``domain``, or None, which ``unset`` says the meaning of (``depth=None``:
    no cut): for a function whose default is a value (``depth=100``) yet takes None too, so
    that its binding, which checks every value given where the default is not None, takes
    it. The command line gives the option a value of ``domain`` (None is its absence)."""

    domain: Any
    unset: str = "none"

    @property
    def type(self) -> type:
        """How the command line converts the option (the domain's)."""
        return self.domain.type

    def check(self, value: object, name: str) -> Any:
        """None as it is, else the value ``domain`` returns."""
        return None if value is None else self.domain.check(value, name)

    def outside(self) -> tuple[str, ...]:
        return self.domain.outside()


@record
class Switch:
    """An option given or not (``--force``, ``--no-progress``): the command line stores
    True when it is given; a function's switch is True or False (a Python or numpy
    boolean), never another value read as one (``allow_empty="no"``, which is true)."""

    type: ClassVar[type] = bool

    def check(self, value: object, name: str) -> bool:
        """``value`` as a ``bool``."""
        if not isinstance(value, bool) and type(value).__name__ not in ("bool", "bool_"):
            raise about(ParameterError(f"{name} must be True or False, got {shown(value)}",
                                       param=name), value)
        return bool(value)


@record
class Text:
    """Text used as it is given: the name of a file, a folder or a column, a measure's
    name (checked where it is read, with the file, line and text of the fault)."""

    type: ClassVar[type] = str


@record
class Name(Text):
    """One name used as it is given (a measure's), checked where it is read; the binding
    refuses what no name is (None, a number, a table, a list) on entry, naming the
    parameter, where the body would fail on it deep inside (``measure.lower()``). The
    command line stores it as a :class:`Text` (its values are text)."""

    def check(self, value: object, name: str) -> str:
        """``value`` itself, a ``str``."""
        if not isinstance(value, str):
            raise about(ParameterError(f"{name} must be a name (text), got {shown(value)}",
                                       param=name), value)
        return value


# --------------------------------------------------------------------------- paths
# A parameter that names files says so in its domain: the command line gives its option the
# file role of the domain (irscale.cli.options.add_param), and the call's outputs are
# checked against its inputs by one check (irscale.cli.outputs.check_outputs;
# docs/errors.md, rule 4: an output is never an input).

@record
class InputFiles(Text):
    """Files a call reads, as a value names them (kept as given, read where used).

    A path may be a file, a folder or a glob pattern (the files it stands for are found
    by :func:`irscale.io.sources.input_files`). ``named``: the value is ``NAME=…`` and the
    paths follow the first ``=`` (``--labels under=u.qrels``, ``--system
    A=r0.run,r1.run``); ``lists``: comma-separated paths; ``keywords``: values that name
    no file (``--clicks perfect``); ``numbers``: a comma-separated list of numbers names no
    file (``--propensities 1,0.5``).
    """

    named: bool = False
    lists: bool = False
    keywords: tuple[str, ...] = ()
    numbers: bool = False
    kind: ClassVar[str] = "input"

    def split(self, value: str) -> tuple[str, list[str]]:
        """``(NAME, paths)`` of a value (``NAME`` empty unless :attr:`named`): the paths
        it names, none for a keyword or a list of numbers."""
        name, _, text = value.partition("=") if self.named else ("", "", value)
        if text in self.keywords or (self.numbers and _numbers(text)):
            return name, []
        if not self.lists:
            return name, [text] if text else []
        return name, [path.strip() for path in text.split(",") if path.strip()]

    def paths(self, value: str) -> list[str]:
        """The paths ``value`` names (:meth:`split`)."""
        return self.split(value)[1]


def _numbers(text: str) -> bool:
    """Whether ``text`` is a comma-separated list of numbers (as ``float`` reads them)."""
    try:
        for item in text.split(","):
            float(item)
    except ValueError:
        return False
    return True


#: What an output is: a file, a plot (its format from its extension) or a folder.
OutputKind: TypeAlias = 'Literal["file", "plot", "folder", "cache"]'


@record
class OutputPath(Text):
    """A file a call writes (``kind``: ``"file"``; ``"plot"``, a figure whose format its
    extension names; ``"folder"``, a folder written into; ``"cache"``, a folder written into
    where it can be, read where it cannot): never one of the call's
    inputs, replaced only with ``--force``, written complete or not at all."""

    kind: OutputKind = "file"


#: The domains of parameters that name files: the role they give an option.
PathDomain = InputFiles | OutputPath
#: How the work of a computation can grow with a parameter that scales it (:class:`Cost`).
GROWTHS = ("linear", "inverse", "quadratic", "exponential", "none")


@record
class Cost:
    """What a parameter costs: the work of the computation that reads it grows with its
    value (``docs/errors.md`` §7, "Work bounded by the input").

    ``units``: what one unit of the value is, as the statement of the rest names it
    (``"draws"``); ``grows``: how the work grows with the value, one of :data:`GROWTHS`:
    ``"linear"`` (the same work per unit: samples, draws, iterations, impressions),
    ``"inverse"`` (as a power of 1/value: a grid step), ``"quadratic"`` (pairs of systems,
    tables over the ranks of a page), ``"exponential"`` (the rankings of an interval scale,
    levels^N), ``"none"`` (:data:`NO_WORK`: the value changes what is computed, not how
    much); ``per``: what each unit costs, in words (``"an evaluation of every run on
    every topic"``), for the table of §7.

    A declared cost is kept by one mechanism: before any work the command refuses a value
    whose memory exceeds ``--max-memory`` (:func:`irscale.core.budget.check_memory`), or
    it states the time of the rest, measured on its first part, when that exceeds a few
    seconds, shows its progress (:func:`irscale.core.progress.progress_callback`,
    :func:`~irscale.core.progress.announce_rest`) and stops within a second or two of ^C
    or SIGTERM (:func:`~irscale.core.progress.check_stop`). The work sweep
    (``tests/faults/test_work_sweep_faults.py``) gives every option declared with a cost,
    of every subcommand, 10^6 times its usual value (:meth:`scaled`).
    """

    units: str
    grows: str = "linear"
    per: str = ""

    def __post_init__(self) -> None:
        if self.grows not in GROWTHS:
            raise ValueError(f"grows must be one of {GROWTHS}, got {self.grows!r}")

    def scaled(self, value: float, factor: float) -> float:
        """``value`` asking ``factor`` times more work (a step ``factor`` times smaller)."""
        return value / factor if self.grows == "inverse" else value * factor


#: The cost of a numeric parameter whose value changes no amount of work (a relevance level,
#: a seed, a cap, a cut-off among the ranks read): declared so, a number of a large domain
#: says whether it scales work (``tests/test_declared_costs.py`` fails, naming it, on one
#: that says neither).
NO_WORK = Cost("none", "none", "the value changes what is computed, not how much")


@record
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
    take ``rng``); ``cost``: how the parameter scales the work of the computation that
    reads it (:class:`Cost`), None when it does not; ``requires``: the optional packages
    its values may need (:class:`~irscale.core.extras.Requires`: a Parquet file needs
    pyarrow, ``--copula vine`` pyvinecopulib), checked by the command line before any
    work (:func:`irscale.cli.requirements.check_requirements`).
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
    cost: Cost | None = None
    requires: tuple[Requires, ...] = ()

    def check(self, value: object) -> Any:
        """``value`` checked against the domain; errors name the parameter."""
        return self.domain.check(value, self.name)

    @property
    def units(self) -> str:
        """The units of its :attr:`cost` and the option that asks for them, as the statement
        of the rest names them: ``draws (--draws)``."""
        if self.cost is None:
            raise ValueError(f"{self.name} declares no cost")
        return f"{self.cost.units} ({'/'.join(self.flags)})"


@record
class Needs:
    """Parameters that apply only where another one is given (the order and gain of the
    clicks of session click logs), or holds some values (RBP's ``p`` with the ``rbp``
    pooling strategy): declared once, beside them, so that the functions and the command
    line refuse them by one rule, with one message, each spelling the parameters its own
    way (``click_order=`` and ``clicks=``; ``--click-order`` and ``--clicks``).

    ``on``: the parameter they depend on (None: named where the rule is applied);
    ``values``: the values of ``on`` they apply to (a list parameter: one of its items),
    None for any value given; ``what``: what they apply to, in words, where ``values``
    does not say it. A function declares its rules in its
    :class:`~irscale.core.binding.Binding`, the command line builds them from there
    (:func:`irscale.cli.rules.binding_rules`).
    """

    params: tuple[Param, ...]
    what: str = ""
    on: Param | None = None
    values: tuple[object, ...] | None = None

    def message(self, options: str, needed: str, applies: str = "applies", *,
                chosen: str | None = None, said: str | None = None) -> str:
        """The message that refuses ``options`` (the parameters given, spelt) without
        ``needed`` (the parameter they need, spelt); ``applies`` agrees with them. Where
        the rule holds for some values of ``needed``: ``chosen`` is its value given, and
        ``said`` how the values it applies to are written (default: as given,
        comma-separated)."""
        if self.values is None:
            return f"{options} {applies} to {self.what} ({needed})" if self.what else \
                f"{options} {applies} only with {needed}"
        if self.what:
            return f"{options} {applies} to {self.what}, not to {needed} {chosen}"
        listed = [str(value) for value in self.values]
        allowed = said or (listed[0] if len(listed) == 1 else
                           f"{', '.join(listed[:-1])} and {listed[-1]}")
        return f"{options} {applies} to {needed} {allowed}, not to {needed} {chosen}"



# --------------------------------------------------------------------------- shared
def check_count(value: object, name: str, minimum: int = 1,
                maximum: int | None = None) -> int:
    """``value`` as an ``int`` in [``minimum``, ``maximum``] (integral floats are accepted;
    booleans, fractions, NaN and non-numbers are not): :class:`Integers`."""
    return Integers(minimum, maximum).check(value, name)


@record
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
#: How a prediction-powered estimate weighs the automatic values against a human sample
#: (:mod:`irscale.core.ppi_means`): ``labels auto``, ``text nuggets --human-sample``.
PPI_TUNING = Param("tuning", Names("tuning", ("ppi++", "ppi", "classical")), "ppi++",
                   "ppi++: the weight of the automatic values estimated; ppi: 1; classical: "
                   "0 (the human sample alone)", ("--tuning",))
#: The probability samples of units a prediction-powered estimate corrects with
#: (:data:`irscale.core.ppi_means.SAMPLE_DESIGNS`).
SAMPLE_DESIGNS: tuple[str, ...] = ("uniform", "stratified", "inclusion")


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
                 unset="a fresh random seed", dest="seed",
                 cost=NO_WORK)
#: The confidence intervals a mean over topics can carry (:mod:`irscale.core.mean_intervals`).
MEAN_INTERVALS: tuple[str, ...] = ("t", "bootstrap")
#: Largest number of Monte Carlo samples accepted (B): beyond, the run could not finish.
MAX_SAMPLES = 1_000_000_000
SAMPLES = Integers(1, MAX_SAMPLES)
#: The resamples B of a resampling procedure (None: the procedure's own default).
RESAMPLES = Param("samples", SAMPLES, None, "resamples of the resampling procedures",
                  ("-B", "--samples"), "B", unset="10000 for randomization and "
                  "randomized-tukey-hsd, 1000 for the bootstraps",
                  cost=Cost("samples", per="a resample of the scores"))
#: A bootstrap interval needs two samples at least (:func:`irscale.meta.correlate`).
INTERVAL_SAMPLES = Integers(2, MAX_SAMPLES)
#: The interval of every mean over topics (:mod:`irscale.core.mean_intervals`; the
#: tables' ``interval=``, ``--ci``), its bootstrap samples and seed (``samples``, ``rng``).
MEAN_INTERVAL = Param("interval", Names("interval", MEAN_INTERVALS), None, "the confidence "
                      "interval of every mean over topics", ("--ci",), dest="ci", label="--ci")
MEAN_SAMPLES = Param("samples", SAMPLES, 10_000, "bootstrap samples of --ci bootstrap",
                     ("--ci-samples",), "B", label="--ci-samples (samples)", dest="ci_samples",
                     cost=Cost("samples", per="a resample of the topics of every mean"))
MEAN_SEED = Param("rng", SEED, None, "seed of --ci bootstrap", ("--ci-seed",), "S",
                  unset="a fresh random seed", label="--ci-seed (rng)", dest="ci_seed",
                  cost=NO_WORK)
#: A pool depth (deeper than any run: a larger one is a typo).
DEPTH = Integers(1, 1_000_000_000)
#: Most threads of this process, and most worker processes of ``local:N``: a larger
#: number is a typo (it would not be honoured: work is shared out in far fewer pieces, and
#: each thread or process holds its own memory), so it is refused, not silently capped.
MAX_WORKERS = 1024
#: Threads of this process.
WORKERS = Integers(1, MAX_WORKERS, strict=True)
THREADS = Param("workers", WORKERS, None, "threads of this process", ("--workers",), "N",
                unset="one per CPU core")
#: The worker processes N of a local Dask cluster (``executor="local:N"``, ``--scheduler
#: local:N``; :mod:`irscale.parallel`): each holds its own interpreter and irscale, so that
#: their memory is refused beyond the limit before the cluster starts.
LOCAL_WORKERS = Param("N", WORKERS, None, "worker processes of a local Dask cluster, "
                      "started on this machine", ("local:N",),
                      cost=Cost("worker processes", per="a worker process and its nanny"))

#: Risk sensitivity α ≥ 0: a loss against the baseline weighs 1 + α (TREC Web 2013–2014;
#: ndeval's ``-riskAlpha``, whose text is printed back as typed).
RISK_ALPHA = NumberText(Reals(0.0))


def check_risk_alpha(risk_alpha: object, name: str = "risk_alpha") -> float:
    """``risk_alpha`` (a number, or its text as typed) as a finite float ≥ 0 (irscale
    refuses the negative, NaN and infinite values ndeval's ``sscanf`` would take)."""
    return float(RISK_ALPHA.check(risk_alpha, name))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- evaluation
#: trec_eval's ``-l``: the smallest relevance degree counted as relevant (a C long; its
#: label and default are :mod:`irscale.core.option_values`').
RELEVANCE = Param("relevance_level", Integers(1, INT64_MAX, strict=True), DEFAULT_RELEVANCE_LEVEL,
                  "smallest relevance degree counted as relevant", ("-l", "--relevance-level"),
                  "L", label=RELEVANCE_LEVEL,
                  cost=NO_WORK)
#: ``--qrels FILE``: qrels given as an option (pooling's oracle, interleaving's judge).
#: ``allow_empty=``, ``--allow-empty``: a run with no topic in common with the gold standard
#: evaluated (its values empty) instead of refused (irscale eval, the text measures).
ALLOW_EMPTY = Param("allow_empty", Switch(), False, "evaluate a run that has no topic in "
                    "common with the qrels (an error otherwise, with or without -c: qrels of "
                    "another collection, or topic ids written differently?)",
                    ("--allow-empty",))
QRELS_OPTION = Param("qrels", InputFiles(), None, "qrels file", ("--qrels",), "FILE",
                     requires=(IRDS_INPUT,))
#: Most topics of a synthetic collection (:func:`irscale.datasets.synthetic_collection`,
#: ``irscale demo``): 10,000 topics of the default sizes are 7·10^6 lines (208 MB of
#: files; ``irscale demo`` takes about 30 s and 0.9 GB on a 2-core machine). A demo needs
#: no more; a larger size is a typo.
MAX_TOPICS = 10_000
#: Topics of the demo's collection: its ANOVA needs two.
DEMO_TOPICS = Integers(2, MAX_TOPICS)
DEMO_TOPIC_COUNT = Param("n_topics", DEMO_TOPICS, 50, "number of topics", ("--topics",),
                         "TOPICS", label="--topics", dest="topics",
                         cost=Cost("topics", per="a topic of the collection written"))

# --------------------------------------------------------------------------- shared by layers
# Declared here because packages of two layers read them (the others' parameters live
# with their owner: irscale.collections.params, irscale.online.params, irscale.meta.params,
# irscale.text.params, irscale.fusion.params, irscale.scales.params,
# irscale.evaluation.params, irscale.report.params).
#: Reciprocal rank fusion's constant k and its default (Cormack et al. 2009: 60): pooling's
#: rrf strategy and fusion's rrf method.
RRF_K, DEFAULT_RRF_K = Reals(0.0), 60.0
#: EM iterations and restarts (at most a thousand times crowd-kit's defaults: more is a
#: typo that would run for days): the crowd-label aggregations and the click models.
ITERATIONS = Integers(1, 100_000)
#: The stopping tolerance of EM.
TOLERANCE = Reals(0.0)
#: Ranks of a SERP (a click log is read below the online package: io.clicklog).
SERP_SIZE = Integers(1, 2**31 - 1)
#: Positive reals: the A/B test's effect size and per-user standard deviation, and the
#: statistics' power analyses.
POSITIVE = Reals(0.0, bounds="()")
#: A cut-off (a rank k ≥ 1).
CUTOFF = Integers(1)
#: The largest rank of a click log (:func:`irscale.online.read_click_log`).
LOG_SERP = Param("serp_size", SERP_SIZE, None, "largest rank of the log", ("--serp-size",),
                 "K", unset="the largest found",
                 cost=Cost("ranks", "quadratic", "a rank of the click models' tables"))
#: ndeval's ``-riskAlpha`` of the diversity measures' risk-sensitive output (the text as
#: typed, printed back).
NDEVAL_RISK_ALPHA = Param("risk_alpha", RISK_ALPHA, "0", "diversity, --format ndeval "
                          "--baseline FILE: risk sensitivity A >= 0, a loss against the "
                          "baseline weighs 1+A (ndeval -riskAlpha)", ("--risk-alpha",), "A")

@record
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
