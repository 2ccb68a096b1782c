"""trec_eval's families as the engine computes them: one declaration per family says how
the engine is called (:class:`EngineCall`, from the family's parsed parameters) and how its
outputs are labelled, and serves both the evaluation of judged rankings (the family's
kernel, :meth:`Native.compute`) and the numpy-free plan (:mod:`irscale.measures.plan`).

A family is two halves, each stated once: its kernel, with its line of the engine's table
(``rust/src/measures/<module>.rs``: its name, its kernel and how many cut-offs, numbers and
gain pairs the kernel takes; ``mod.rs`` names the module and puts its lines in the table),
and its declaration here (:func:`declare_native`: its parameters as
typed, docs, formula and source). The declaration reads from the parsed parameters the
kinds of parameters its line takes (:func:`~irscale.core.kernels.trec_family_kinds`),
each by the kind's standard reader (:data:`READERS`) unless it gives its own.

The engine names a family's outputs as trec_eval's C code does for integer cut-offs
(``P_5``) and by the family's name otherwise; where trec_eval prints another name, the
declaration's ``label`` gives it: ``Rprec_mult_0.20`` and
``iprec_at_recall_0.10`` (the level printed ``%3.2f``, m_Rprec_mult.c and
m_iprec_at_recall.c), ``ndcg_1=3,2=9`` and ``utility_2,-1,0,0`` (the parameters as typed,
:meth:`~irscale.measures.base.GainParams.label`, :meth:`~irscale.measures.base.FloatList.label`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

from ..core.records import record
from .base import EngineCall, EvalContext, Family, FloatList, NoParams, declare
from .params import ParamSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from ..core.judged import JudgedRankings
    from ..io.table import Aggregate, ValueType


#: How an output is labelled: ``label(family, params, index, engine name)``.
Label: TypeAlias = "Callable[[str, Any, int, str], str]"


def parsed(params: Any) -> Any:
    """The parsed parameters themselves: cut-offs (``P.5,10``) or levels
    (``iprec_at_recall.0.1``)."""
    return params


def numbers(params: Any) -> tuple[float, ...]:
    """The numbers of a :class:`~irscale.measures.base.FloatList` (``utility.2,-1,0,0``), or
    the parsed levels themselves (``iprec_at_recall.0.1``), in the order typed."""
    return params.values if isinstance(params, FloatList) else tuple(params)


def first_number(params: Any) -> tuple[float, ...]:
    """The first number of a :class:`~irscale.measures.base.FloatList` (set_F's β,
    relstring's N: trec_eval reads only that one)."""
    return tuple(params.values[:1])


def gain_pairs(params: Any) -> tuple[tuple[int, float], ...]:
    """The ``(level, gain)`` pairs of a :class:`~irscale.measures.base.GainParams`, in the
    order typed."""
    return tuple(params.pairs)


#: How a family's parsed parameters are read by default, by kind of parameter its line of
#: the engine's table takes: cut-offs (``ints``), numbers (``floats``), gain pairs (``gains``).
READERS: dict[str, Callable[[Any], Sequence[Any]]] = {
    "ints": parsed, "floats": numbers, "gains": gain_pairs}


def engine_name(family: str, params: Any, index: int, name: str) -> str:
    """The engine's own name of the output (``P_5``, ``map``)."""
    return name


def typed_label(family: str, params: Any, index: int, name: str) -> str:
    """The output named after the parameters as typed (``utility_2,-1,0,0``,
    ``ndcg_0=0,1=1``; the bare name for the defaults)."""
    return str(params.label(name))


def level_label(family: str, params: Any, index: int, name: str) -> str:
    """The output named after the ``index``-th level, printed ``%3.2f`` as trec_eval does
    (``Rprec_mult_0.20``, ``iprec_at_recall_0.10``)."""
    return f"{family}_{params[index]:3.2f}"


@record
class Native:
    """How a trec_eval family is computed by the engine: the kinds of parameters its line of
    the engine's table takes, each read from the family's parsed parameters by the kind's
    standard reader (:data:`READERS`) or by the declaration's own (``ints``, ``floats``,
    ``gains``: a function of them, only for kinds the line takes); whether it sorts gain
    tables (``ideal``); and the ``label`` of each output."""

    ints: Callable[[Any], Sequence[int]] | None = None
    floats: Callable[[Any], Sequence[float]] | None = None
    gains: Callable[[Any], Sequence[tuple[int, float]]] | None = None
    ideal: bool = False
    label: Label = engine_name

    def readers(self, family: str) -> dict[str, Callable[[Any], Sequence[Any]]]:
        """How each kind of parameter ``family``'s kernel takes is read, by kind; a reader of
        the declaration's for a kind the kernel does not take is refused (``TypeError``)."""
        from ..core.kernels import trec_family_kinds

        takes = trec_family_kinds()[family]
        own = {kind: reader for kind, reader in
               (("ints", self.ints), ("floats", self.floats), ("gains", self.gains))
               if reader is not None}
        if extra := sorted(set(own) - takes):
            raise TypeError(f"{family}: the engine's kernel takes no {', '.join(extra)}")
        return {kind: own.get(kind, READERS[kind]) for kind in takes}

    def call(self, family: str, params: Any) -> EngineCall:
        """The engine call of ``family`` with the parsed parameters ``params``."""
        readers = self.readers(family)

        def read(kind: str) -> Sequence[Any]:
            return readers[kind](params) if kind in readers else ()

        return EngineCall(family, tuple(int(i) for i in read("ints")),
                          tuple(float(f) for f in read("floats")),
                          tuple((int(level), float(gain)) for level, gain in read("gains")),
                          self.ideal)

    def labels(self, family: str, params: Any, names: Sequence[str]) -> list[str]:
        """The labels of the engine's outputs ``names`` (in the engine's order)."""
        return [self.label(family, params, index, name) for index, name in enumerate(names)]

    def compute(self, family: str, jr: JudgedRankings, params: Any, ctx: EvalContext
                ) -> dict[str, Any]:
        """The family's values on ``jr`` by label: float64 or int64 arrays, text as object
        arrays."""
        import numpy as np

        from ..core.kernels import trec_family

        call = self.call(family, params)
        if call.ideal:
            warn_unreplayable_sort(jr, call.gains)
        outputs = trec_family(call.family, jr, ints=call.ints, floats=call.floats,
                              gains=call.gains, compat=ctx.compat,
                              num_docs_in_coll=ctx.num_docs_in_coll)
        labels = self.labels(family, params, list(outputs))
        return {label: values if isinstance(values, np.ndarray)
                else np.array(values, dtype=object)
                for label, values in zip(labels, outputs.values(), strict=True)}


def unreplayable_sort_warning(num_levels: int, least: float, greatest: float) -> str:
    """The warning for a gain table on which trec_eval's sort cannot be replayed: topics of
    ``num_levels`` relevance levels whose gains run from ``least`` to ``greatest``."""
    return (f"relevance degrees up to {num_levels - 1}: trec_eval's gain sort "
            f"((int)(gain1 - gain2)) is no order on gains from {least:g} to {greatest:g} "
            f"and cannot be replayed on {num_levels} levels; the ideal ranking is sorted by "
            "true gain")


def warn_unreplayable_sort(jr: JudgedRankings, gains: Sequence[tuple[int, float]]) -> None:
    """Warn for each gain table of ``jr``'s topics on which trec_eval's sort cannot be
    replayed (its comparator no order on more than 4,096 entries), and is replaced by a sort
    by true gain (:mod:`irscale.measures.trec.gains`)."""
    from ..core.kernels import gain_sort_unreplayable

    for table in gain_sort_unreplayable(jr, gains):
        warnings.warn(unreplayable_sort_warning(*table), stacklevel=4)


def declare_native(name: str, native: Native, *, doc: str, formula: str, source: str,
                   params: ParamSpec | None = None, aggregate: Aggregate = "mean",
                   value_type: ValueType = "float", per_query: bool = True,
                   missing_value: float | str | None = None,
                   ignores: dict[str, str] | None = None) -> Family:
    """Register trec_eval's family ``name``, computed by the engine as ``native`` says
    (the other arguments as :func:`~irscale.measures.base.register`'s)."""

    def kernel(jr: JudgedRankings, parsed: Any, ctx: EvalContext) -> dict[str, Any]:
        return native.compute(name, jr, parsed, ctx)

    return declare(Family(
        name=name, kernel=kernel, params=params or NoParams(), doc=doc, aggregate=aggregate,
        value_type=value_type, per_query=per_query, missing_value=missing_value,
        ignores=tuple((ignores or {}).items()), formula=formula, source=source,
        native=native,
    ))
