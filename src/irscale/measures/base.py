"""The measure registry: every measure family is one small module that registers itself.

A *family* (``P``, ``map``, ``ndcg_cut`` ...) is a kernel plus metadata, as in trec_eval's
measure table. The kernel receives the whole batch of judged rankings and the family's
parameters and returns, for every output name it produces (``P_5``, ``P_10`` ...), one value
per ranking. Kernels are vectorised over the batch: no Python loop per topic or document.

Writing a measure (``hits_at`` from :mod:`irscale.measures.arrays`)::

    @register(
        name="P",
        params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
        doc="Precision at cut-off k: |relevant in top k| / k (trec_eval m_P.c).",
        formula="P@k = |relevant in top k| / k",
        source="trec_eval 9.0.8 (m_P.c)",
    )
    def precision(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext):
        return {f"P_{k}": hits_at(jr, k) / k for k in cutoffs}

Aggregation over topics follows trec_eval: ``mean`` (arithmetic mean over evaluated
topics, or over every qrels topic with ``-c``), ``sum`` (counts), ``gmean`` (geometric mean
with values floored at 1e-5, trec_eval's MIN_GEO_MEAN), ``count`` (number of topics
averaged over: num_q), ``runid`` (the run's name) and ``none`` (no summary value).
``per_query=False`` families print nothing per topic (num_q, runid, gm_map ...).

trec_eval's families are computed by the engine alone: each declares its engine call
(:func:`~irscale.measures.native.declare_native`). The catalogue (:data:`CATALOGUE`) knows
their names from the start (the manifest, :data:`irscale._manifest.TREC_FAMILIES`: each
family with the module of :mod:`irscale.measures.trec` declaring it) and imports a family's
module when the family is first read (:class:`TrecFamilies`: ``-m map`` loads
:mod:`~irscale.measures.trec.average_precision` alone); it loads the others on first need
(:class:`FamilyTable`); this module imports no numpy.
"""

from __future__ import annotations

import _thread
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping

from .._manifest import MEASURE_CONTEXTS
from .._manifest import TREC_FAMILIES as TREC_MODULES
from ..core.records import field, record, replace
from ..errors import MeasureError
from .engine_calls import EngineCall, EvalContext
from .params import Keywords, ParamSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values
    from collections.abc import Sequence
    from typing import Any, Literal, Protocol, TypeAlias

    import numpy as np

    from ..core.judged import JudgedRankings
    from ..io.table import Aggregate, ValueType

#: trec_eval's floor for values entering a geometric mean (MIN_GEO_MEAN).
MIN_GEO_MEAN = 0.00001


# ------------------------------------------------------------------ parameter kinds
@record
class NoParams(ParamSpec):
    """The family takes no parameter."""

    default: Any = None

    def parse(self, text: str, family: str) -> Any:
        raise MeasureError(f"measure {family!r} takes no parameters, got {text!r}")

    def format(self, value: Any) -> str:
        return ""


def _split(text: str, family: str, kind: Callable[[str], Any], what: str) -> tuple[Any, ...]:
    """The comma-separated values of a parameter string of the measure ``family``, each
    read by ``kind`` (``int``, ``float``); a part it cannot read is refused with ``what``
    the values must be."""
    try:
        return tuple(kind(part) for part in text.split(","))
    except ValueError:
        raise MeasureError(f"measure {family!r}: {what}, got {text!r}") from None


@record(init=False)
class Cutoffs(ParamSpec):
    """A comma-separated list of positive integer cut-offs, e.g. ``P.5,10``."""

    default: tuple[int, ...]

    def __init__(self, *default: int) -> None:
        object.__setattr__(self, "default", tuple(default))

    def parse(self, text: str, family: str) -> tuple[int, ...]:
        values = _split(text, family, int, "cut-offs must be positive integers")
        if not values or any(v <= 0 or v > 2**63 - 1 for v in values):
            raise MeasureError(f"measure {family!r}: cut-offs must be integers from 1 to "
                               f"{2**63 - 1}, got {text!r}")
        if len(set(values)) != len(values):
            # trec_eval (meas_init.c get_long_cutoffs): "duplicate cutoffs detected"
            raise MeasureError(f"measure {family!r}: duplicate cut-offs in {text!r}")
        return tuple(sorted(values))

    def format(self, value: tuple[int, ...]) -> str:
        return ",".join(str(v) for v in value)


def _finite_numbers(text: str, family: str) -> tuple[float, ...]:
    """The comma-separated finite numbers of a parameter string (MeasureError otherwise)."""
    import math  # (a shared library: loaded by the measures that take numbers)

    values = _split(text, family, float, "parameters must be numbers")
    if not all(math.isfinite(v) for v in values):
        raise MeasureError(f"measure {family!r}: parameters must be finite, got {text!r}")
    return values


@record
class Range:
    """The values a numeric parameter may take: ``low`` ≤ v ≤ ``high`` (``low`` excluded
    when ``open_low``), integers only when ``integer``; ``what`` names the values."""

    what: str
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    integer: bool = False
    open_high: bool = False

    def __str__(self) -> str:
        kind = "an integer" if self.integer else "a number"
        if self.low is not None and self.high is not None:
            left, right = "(" if self.open_low else "[", ")" if self.open_high else "]"
            bounds = f"in {left}{self.low:g}, {self.high:g}{right}"
        elif self.low is not None:
            bounds = f"{'>' if self.open_low else '≥'} {self.low:g}"
        else:
            bounds = f"≤ {self.high:g}"
        return f"{self.what} must be {kind} {bounds}"

    def check(self, values: tuple[float, ...], text: str, family: str) -> None:
        for v in values:
            if ((self.low is not None and (v < self.low or (self.open_low and v == self.low)))
                    or (self.high is not None and (v > self.high
                                                   or (self.open_high and v == self.high)))
                    or (self.integer and not float(v).is_integer())):
                raise MeasureError(f"measure {family!r}: {self}, got {text!r}")


def _check_range(valid: Range | None, values: tuple[float, ...], text: str,
                 family: str) -> None:
    if valid is not None:
        valid.check(values, text, family)


@record(init=False)
class Floats(ParamSpec):
    """A comma-separated set of numbers, sorted: ``iprec_at_recall.0.1,0.5``, ``Rprec_mult.2``
    (``valid``: the values allowed)."""

    default: tuple[float, ...]
    valid: Range | None = None

    def __init__(self, *default: float, valid: Range | None = None) -> None:
        object.__setattr__(self, "default", tuple(default))
        object.__setattr__(self, "valid", valid)

    def parse(self, text: str, family: str) -> tuple[float, ...]:
        values = _finite_numbers(text, family)
        _check_range(self.valid, values, text, family)
        if len(set(values)) != len(values):
            # trec_eval (meas_init.c get_float_cutoffs): "duplicate cutoffs detected"
            raise MeasureError(f"measure {family!r}: duplicate cut-offs in {text!r}")
        return tuple(sorted(values))

    def format(self, value: tuple[float, ...]) -> str:
        return ",".join(repr(v) for v in value)


@record
class FloatList:
    """Parsed numeric parameters kept in the order given, with their text as typed.

    ``text`` is ``None`` for a family's default parameters: trec_eval then prints the bare
    family name (``utility``), and otherwise the name followed by the text as typed
    (``utility_2,-1,0,0``, ``11pt_avg_.25,.5,.75``).
    """

    values: tuple[float, ...]
    text: str | None = None

    def label(self, name: str) -> str:
        """The output name trec_eval prints for family ``name`` with these parameters."""
        return name if self.text is None else f"{name}_{self.text}"


@record(init=False)
class FloatParams(ParamSpec):
    """trec_eval's "float params" (``te_init_meas_s_float_p_float``): one output, numbers.

    As ``get_float_params`` in meas_init.c, the comma-separated numbers are kept in the
    order given (neither sorted nor de-duplicated); ``count`` fixes how many are needed
    (utility: 4). The parsed value is a :class:`FloatList` remembering the text, since
    trec_eval names the output after it.
    """

    default: FloatList
    count: int | None = None
    valid: Range | None = None

    def __init__(self, *default: float, count: int | None = None,
                 valid: Range | None = None) -> None:
        object.__setattr__(self, "default", FloatList(tuple(float(v) for v in default)))
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "valid", valid)

    def parse(self, text: str, family: str) -> FloatList:
        values = _finite_numbers(text, family)
        if self.count is not None and len(values) != self.count:
            raise MeasureError(
                f"measure {family!r} takes {self.count} parameters, got {len(values)} in {text!r}"
            )
        _check_range(self.valid, values, text, family)
        return FloatList(values, text)

    def format(self, value: FloatList) -> str:
        return value.text if value.text is not None else ",".join(repr(v) for v in value.values)


@record
class GainParams:
    """Parsed gain parameters: ``(level, gain)`` pairs in the order given, and their text.

    trec_eval keeps the pairs in command-line order (the order matters for its ideal
    ranking, see :mod:`irscale.measures.trec.gains`) and names the output after the text
    as typed (``ndcg_1=3,2=9,4=4.5``). ``extra`` holds named non-level parameters (such as
    rbp's ``p``), in the order given. ``text`` is ``None`` for the default (no
    parameters: gain = relevance level), as :class:`FloatList`.
    """

    pairs: tuple[tuple[int, float], ...] = ()
    text: str | None = None
    extra: tuple[tuple[str, float], ...] = ()

    def label(self, name: str) -> str:
        """The output name trec_eval prints for family ``name`` with these parameters."""
        return name if self.text is None else f"{name}_{self.text}"


@record
class GainPairs(ParamSpec):
    """trec_eval's gain map: ``level=gain`` pairs, e.g. ``ndcg.0=0,1=1,2=3``.

    As trec_eval (``get_param_pairs`` in meas_init.c), pairs are comma-separated
    ``name=value`` items kept in the order given; a level is an integer (negative levels
    address trec_eval's sentinels: -1 for documents not in the qrels, -2 for pooled but
    unjudged ones) and a gain is a number. Unlike trec_eval, which reads a level name with
    ``atol`` (9.0.8, so ``x=2`` silently sets level 0) or skips it (10.0), a name that is
    not an integer, or a level given twice, is an error; ``names`` lists the non-level
    names a family accepts (rbp's ``p``). The parsed value is a :class:`GainParams`; the
    default (no parameters) means gain = relevance level.
    """

    default: GainParams = field(default_factory=GainParams)
    names: tuple[str, ...] = ()
    #: The values each of ``names`` may take.
    valid: tuple[tuple[str, Range], ...] = ()

    def parse(self, text: str, family: str) -> GainParams:
        import math

        pairs: list[tuple[int, float]] = []
        extra: list[tuple[str, float]] = []
        for part in text.split(","):
            name, sep, value = part.partition("=")
            name = name.strip()
            try:
                if not sep:
                    raise ValueError
                number = float(value)
                if not math.isfinite(number):
                    raise ValueError
                if name not in self.names:
                    level = int(name)
                    if not -(2**63) <= level <= 2**63 - 1:  # a degree is an int64
                        raise ValueError
            except ValueError:
                accepted = "level=gain" + "".join(f" or {n}=value" for n in self.names)
                raise MeasureError(
                    f"measure {family!r}: parameters are {accepted} pairs (integer level, "
                    f"finite gain), got {part!r}"
                ) from None
            if name in self.names:
                if any(name == seen for seen, _ in extra):
                    # trec_eval keeps the last one: the others would be ignored
                    raise MeasureError(f"measure {family!r}: {name} given twice in {text!r}")
                _check_range(dict(self.valid).get(name), (number,), text, family)
                extra.append((name, number))
                continue
            if any(level == seen for seen, _ in pairs):
                raise MeasureError(f"measure {family!r}: level {level} given twice in {text!r}")
            pairs.append((level, number))
        return GainParams(tuple(pairs), text, tuple(extra))

    def format(self, value: GainParams) -> str:
        return value.text or ""


#: Cut-off rule of a family's names: ``optional`` (``name@k``, or the whole input without
#: one), ``required`` (``name@k`` only) or ``none`` (no ``@k``).
CutoffRule: TypeAlias = 'Literal["optional", "required", "none"]'



if TYPE_CHECKING:  # pragma: no cover
    class NativeDeclaration(Protocol):
        """How a trec_eval family is computed by the engine alone
        (:class:`irscale.measures.native.Native`): its engine call and the labels of its
        outputs, given its parsed parameters."""

        def call(self, family: str, params: Any) -> EngineCall: ...

        def labels(self, family: str, params: Any, names: Sequence[str]) -> list[str]: ...


@record
class Family:
    """A registered measure family (one trec_eval measure, or one of ours), whatever the
    context it needs (:data:`~irscale.core.contexts.CONTEXTS`).

    ``kernel`` computes it: for judged rankings, ``kernel(jr, params, ctx)`` →
    ``{output name: values}`` (:meth:`compute`); for per-intent judgments,
    ``kernel(diversity_context, params, k)`` → one value per ranking. The families of
    sessions, texts and nuggets are computed by the evaluation of their context
    (:mod:`irscale.text`), which reads the family's name and parameters: they have no
    kernel here. ``formula`` is the family's definition in one line and ``source`` the
    paper or tool it follows.
    """

    name: str
    kernel: Any
    params: ParamSpec
    doc: str
    aggregate: Aggregate = "mean"
    value_type: ValueType = "float"
    per_query: bool = True
    #: Value given to topics missing from the run under trec_eval 10's ``-c`` (the
    #: placeholder ranking's value is replaced by this); ``None`` keeps the computed value.
    missing_value: float | str | None = None
    aliases: tuple[str, ...] = field(default=())
    #: The generic parameters of measure names (``rel``, ``condensed``, ``conditional``) that
    #: cannot change this family's values, each with the reason: names giving them are refused.
    ignores: tuple[tuple[str, str], ...] = field(default=())
    context: str = "rankings"
    cutoff: CutoffRule = "optional"
    formula: str = ""
    source: str = ""
    #: ``(stem, keyword)``: the family is spelt ``stem`` followed by the value of its
    #: parameter ``keyword`` (``ROUGE-2``: stem ``ROUGE-``, n = 2; ``ROUGE-SU4``: skip = 4);
    #: where the stem is the family's name, the bare name is accepted as well.
    suffix: tuple[str, str] | None = None
    #: The largest cut-off @k its names accept.
    max_cutoff: int = 2**63 - 1
    #: For trec_eval's families, computed by the engine alone: how the engine is called and
    #: how its outputs are named (:class:`~irscale.measures.native.Native`).
    native: NativeDeclaration | None = None
    #: The family reads the run's scores: the evaluation attaches them to the judged
    #: rankings as the per-document values ``score`` (:func:`scores_needed`), as it attaches
    #: the label sets the family names (:func:`label_sets_named`).
    needs_scores: bool = False
    #: The family's kernel computes tie-aware values (``--ties expected``): with
    #: :attr:`~irscale.core.judged.JudgedRankings.tie_groups`, the expectation of its value
    #: over every order of each tie group (:mod:`irscale.measures.ties`).
    tie_aware: bool = False

    def placeholder_value(self, name: str) -> float | str | None:
        """The value of the output printed ``name`` on trec_eval 10's ``-c`` placeholder
        rankings: :attr:`missing_value`, or ``None`` for the value computed on the
        placeholder. trec_eval 10.0 (trec_eval.c, commit f425365) clears the values it
        prints as ``num_ret``, ``utility``, ``relstring``, ``rbp_resid`` (``strcmp``) or
        under a name starting ``unj`` (``strncmp``), and no other: a family's value under
        a name with its parameters (``rbp_resid_p=0.8``, ``utility_2,-1,0,0``,
        ``relstring_5``) is the placeholder's, as is every other family's. irscale's own
        families take their :attr:`missing_value`."""
        if self.native is None or name in PLACEHOLDER_CLEARED or name.startswith("unj"):
            return self.missing_value
        return None

    def compute(
        self, jr: JudgedRankings, params: Any = None, ctx: EvalContext | None = None
    ) -> dict[str, np.ndarray]:
        """Evaluate the family on every ranking: ``{output name: values}``."""
        params = self.params.default if params is None else params
        return dict(self.kernel(jr, params, ctx or EvalContext()))


#: The names trec_eval 10.0 clears on its ``-c`` placeholder rankings (those starting
#: ``unj`` too): :meth:`Family.placeholder_value`.
PLACEHOLDER_CLEARED = ("num_ret", "utility", "relstring", "rbp_resid")

#: The modules registering the families, in the catalogue's order (the families of one
#: module in their order of registration; ``trec``: trec_eval's, registered with the
#: package). The others are imported the first time a name or a listing needs the whole
#: catalogue (:func:`load_catalogue`): an evaluation of trec_eval's measures imports none.
FAMILY_MODULES = ("cascade", "rbp", "multi_aspect", "compatibility", "click_models",
                  "condensed", "rpref", "coverage", "dcg", "generalized", "trec", "graded",
                  "graded_ap", "markov", "ncu",
                  "order_measures", "pr_curve", "precision_recall", "pres", "search_length",
                  "sliding_ratio", "tbg", "umeasure", "wrr", "cwl_models", "nuggets", "rouge",
                  "bleu", "pyramid", "citations", "sessions", "prefs", "qrels_jg", "adm",
                  "twist")
#: Whether :func:`load_catalogue` has started (``_LOADED``) and finished (``_DONE``).
_LOADED: list[bool] = []
_DONE: list[bool] = []
_LOADING = _thread.RLock()


def load_catalogue() -> None:
    """Register every family of :data:`FAMILY_MODULES` (once; another thread waits for
    it), and list the families of judged rankings in their order, whichever module was
    imported first."""
    if _DONE:
        return
    with _LOADING:
        if _LOADED:  # done, or started by this thread (a module of ours reading the table)
            return
        _LOADED.append(True)
        for module in FAMILY_MODULES:
            loaded = importlib.import_module(f"{__package__}.{module}")
            if module == "trec":  # a package whose modules register trec_eval's families
                loaded.register_all()
        families = sorted(dict.values(REGISTRY), key=_module_rank)
        dict.clear(REGISTRY)
        dict.update(REGISTRY, {family.name: family for family in families})
        _DONE.append(True)


def _module_rank(family: Family) -> tuple[int, int]:
    """The place in :data:`FAMILY_MODULES` of the module registering ``family``'s kernel;
    trec_eval's families in the order the package registers them (:data:`TREC_MODULES`),
    whichever was read first."""
    if family.native is not None:
        order = list(TREC_MODULES)
        return (FAMILY_MODULES.index("trec"),
                order.index(family.name) if family.name in order else len(order))
    module = family.kernel.__module__.rpartition(".")[2]
    return (FAMILY_MODULES.index(module) if module in FAMILY_MODULES
            else len(FAMILY_MODULES), 0)


def _load_trec(name: object) -> bool:
    """Import the module declaring trec_eval's family ``name``
    (:data:`TREC_MODULES`, the manifest); whether ``name`` is one."""
    module = TREC_MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        return False
    importlib.import_module(module)
    return True


#: The packages of ``measures`` registering the families of a context of their own,
#: imported the first time that context's table may matter (an evaluation of another
#: context imports none of them).
CONTEXT_MODULES = {"intents": "diversity"}


class FamilyTable(dict[str, Family]):
    """The families of one context, by name. trec_eval's are registered with the package;
    the others the first time they may matter (:func:`load_catalogue`, and the package of
    :data:`CONTEXT_MODULES` of the table's ``context``): a name missing from the table, or
    reading the whole table (iterating, ``len``, ``keys``/``values``/``items``), loads them
    first, so every reader sees the whole catalogue whenever a name is not one of
    trec_eval's families."""

    def __init__(self, context: str = "rankings") -> None:
        super().__init__()
        self.context = context

    def _load(self) -> None:
        load_catalogue()
        module = CONTEXT_MODULES.get(self.context)
        if module is not None:
            importlib.import_module(f"{__package__}.{module}")

    def _load_name(self, name: object) -> None:
        """Load what may declare ``name``: its module of trec_eval's families (judged
        rankings), else everything (:meth:`_load`)."""
        if self.context != "rankings" or not _load_trec(name) \
                or not dict.__contains__(self, name):
            self._load()

    def __missing__(self, name: str) -> Family:
        self._load_name(name)
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        if dict.__contains__(self, name):
            return True
        self._load_name(name)
        return dict.__contains__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def __iter__(self) -> Iterator[str]:
        self._load()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load()
        return dict.__len__(self)

    def keys(self) -> dict_keys[str, Family]:
        self._load()
        return dict.keys(self)

    def values(self) -> dict_values[str, Family]:
        self._load()
        return dict.values(self)

    def items(self) -> dict_items[str, Family]:
        self._load()
        return dict.items(self)


#: The one catalogue: every registered family, by the context it needs, then by name.
#: Its contexts are the catalogue's (:data:`irscale.core.contexts.CONTEXTS`), known by the
#: manifest without loading their declarations (:data:`irscale._manifest.MEASURE_CONTEXTS`).
CATALOGUE: dict[str, FamilyTable] = {context: FamilyTable(context)
                                     for context in MEASURE_CONTEXTS}
#: The families of judged rankings (``CATALOGUE["rankings"]``): trec_eval's and ours.
REGISTRY: FamilyTable = CATALOGUE["rankings"]


class TrecFamilies(dict[str, Family]):
    """trec_eval's families (those computed by the engine alone), by name, each registered
    when its module is imported (:mod:`irscale.measures.trec`): a name of the manifest
    (:data:`TREC_MODULES`) is in the table before its module is loaded, reading the family
    loads its module alone, and iterating gives the names in the order the package
    registers them (those declared since after them); :meth:`values` and :meth:`items`
    load every module."""

    def __missing__(self, name: str) -> Family:
        if _load_trec(name) and dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in TREC_MODULES

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def keys(self) -> Any:
        return list(dict.fromkeys([*TREC_MODULES, *dict.keys(self)]))

    def values(self) -> Any:
        return [self[name] for name in self.keys()]

    def items(self) -> Any:
        return [(name, self[name]) for name in self.keys()]


#: trec_eval's families, by name: known from the manifest, each loaded when first read,
#: without loading the others (:class:`TrecFamilies`).
TREC_FAMILIES: TrecFamilies = TrecFamilies()


def register(
    name: str,
    *,
    doc: str,
    formula: str,
    source: str,
    params: ParamSpec | None = None,
    aggregate: Aggregate = "mean",
    value_type: ValueType = "float",
    per_query: bool = True,
    missing_value: float | str | None = None,
    ignores: Mapping[str, str] | None = None,
    context: str = "rankings",
    cutoff: CutoffRule = "optional",
    aliases: tuple[str, ...] = (),
    needs_scores: bool = False,
    tie_aware: bool = False,
) -> Callable[[Any], Any]:
    """Class the decorated kernel as measure family ``name`` of ``context`` (see the module
    docstring and :class:`Family`).

    ``ignores``: the generic parameters of measure names (``rel``, ``condensed``,
    ``conditional``) that have
    no effect on the family, each with the reason shown when a name gives it.
    ``needs_scores``: the kernel reads the run's scores (:attr:`Family.needs_scores`).
    ``tie_aware``: the kernel computes tie-aware values (:attr:`Family.tie_aware`).
    ``params``: none by default (a family read by the one grammar ``Name(...)@k``, outside
    judged rankings: ``Keywords()``, :func:`_named_params`).
    """

    def decorate(kernel: Any) -> Any:
        declare(Family(
            name=name,
            kernel=kernel,
            params=params or NoParams(),
            doc=doc,
            aggregate=aggregate,
            value_type=value_type,
            per_query=per_query,
            missing_value=missing_value,
            ignores=tuple((ignores or {}).items()),
            context=context,
            cutoff=cutoff,
            formula=formula,
            source=source,
            aliases=aliases,
            needs_scores=needs_scores,
            tie_aware=tie_aware,
        ))
        return kernel

    return decorate


def declare(family: Family) -> Family:
    """Add ``family`` to the catalogue (the families of sessions, texts and nuggets are
    declared so, without a kernel: see :class:`Family`); outside judged rankings, with the
    parameters its names are read with (:func:`_named_params`)."""
    if family.context not in MEASURE_CONTEXTS and not _declared_context(family.context):
        raise RuntimeError(f"measure family {family.name!r}: its context {family.context!r} "
                           "is not declared (irscale.core.contexts.declare_context)")
    family = _named_params(family)
    table = CATALOGUE.setdefault(family.context, FamilyTable(family.context))
    if dict.__contains__(table, family.name):
        raise RuntimeError(f"measure family {family.name!r} of {family.context} registered "
                           "twice")
    dict.__setitem__(table, family.name, family)
    if family.native is not None:
        TREC_FAMILIES[family.name] = family
    return family


def _declared_context(name: str) -> bool:
    """Whether ``name`` is a context of the catalogue declared since the manifest was
    written (:func:`irscale.core.contexts.declare_context`)."""
    from ..core.contexts import CONTEXTS

    return name in CONTEXTS


def _named_params(family: Family) -> Family:
    """``family`` with the parameters its names are read with. Judged rankings read
    trec_eval's names (``P.5,10``: cut-offs, numbers, gain pairs as parameters) as well;
    every other context reads only the one grammar ``Name(key=value,...)@k``
    (:func:`~irscale.measures.names.parse_name`), whose cut-off is the ``@k`` (the
    family's ``cutoff`` rule), never a parameter: its parameters are
    :class:`~irscale.measures.params.Keywords`, or a spec reading the whole text between
    the parentheses (``inner``: ``IA(nDCG@10)``). There a family declared with no
    parameters (:class:`NoParams`, :func:`register`'s default) takes no keyword:
    ``Keywords()``; any other kind is refused (:class:`RuntimeError` saying what to
    write), when its module is imported."""
    spec = family.params
    if family.context == "rankings" or isinstance(spec, Keywords) or hasattr(spec, "inner"):
        return family
    if isinstance(spec, NoParams):
        return replace(family, params=Keywords())
    raise RuntimeError(
        f"measure family {family.name!r} of {family.context}: its names are read as "
        f"{family.name}(key=value,...)@k, not with params={type(spec).__name__}(...): "
        "declare params=Keywords(key=Keyword(parse, default, doc), ...) from "
        "irscale.measures.params (none: Keywords()), and its cut-off @k by "
        "cutoff='optional', 'required' or 'none'")


def get_family(name: str) -> Family:
    """The registered family ``name``; :class:`MeasureError` listing close names otherwise."""
    found = TREC_FAMILIES.get(name)  # loads its module alone
    if found is not None:
        return found
    try:
        return REGISTRY[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, list(REGISTRY), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise MeasureError(f"unknown measure {name!r}{hint}") from None


@record
class MeasureRequest:
    """One family evaluated with given parameters (and possibly its own relevance level).

    ``labels`` maps the family's output names to the names shown to the user; an empty
    mapping shows the family's own output names (trec_eval's names).
    """

    family: str
    params: Any = None
    relevance_level: int | None = None
    cutoff: int | None = None
    labels: tuple[tuple[str, str], ...] = ()
    requested: str = ""
    #: Evaluate on the condensed rankings (unjudged documents removed; Sakai 2014, §2.2).
    condensed: bool = False
    #: Evaluate under conditional relevance (the label set ``conditional``:
    #: :mod:`irscale.core.conditional`).
    conditional: bool = False

    def with_labels(self, labels: Mapping[str, str]) -> MeasureRequest:
        return replace(self, labels=tuple(labels.items()))


def label_sets_named(requests: Iterable[MeasureRequest]) -> set[str]:
    """The label sets the requests name: every text value of their keyword parameters, the
    family's defaults included (``TBG`` and ``U`` read ``lengths=doclen`` unless told
    otherwise; ``uRBP(aspect=under)`` names ``under``), and the names of their lists of
    label sets (``CAM(aspects=cred:correct)``); ``conditional`` for a request with
    ``conditional=1``."""
    named: set[str] = set()
    for request in requests:
        if request.conditional:
            named.add("conditional")
        params = request.params
        if params is None:
            params = get_family(request.family).params.default
        if isinstance(params, Mapping):
            named |= {str(value) for value in params.values() if isinstance(value, str)}
            named |= {item for value in params.values() if isinstance(value, tuple)
                      for item in value if isinstance(item, str)}
    return named


def scores_needed(requests: Iterable[MeasureRequest]) -> bool:
    """Whether one of the requests' families reads the run's scores (the per-document
    values ``score``): only then are they attached to the judged rankings."""
    return any(get_family(request.family).needs_scores for request in requests)


def table_order(name: str, compat: int = 9) -> tuple[int, int]:
    """Sort key putting trec_eval's families in the order of its measure table.

    ``compat`` chooses the table: 9 (trec_eval 9.0.8) or 10 (trec_eval 10.0).
    """
    from .trec_table import TREC10_MEASURES, TREC_MEASURES

    table = TREC10_MEASURES if compat == 10 else TREC_MEASURES
    if name in table:
        return (0, table.index(name))
    return (1, 0)
