"""A numpy-free plan of an evaluation of trec_eval's measures: the engine's calls and the
columns they print, known before any judging.

:func:`plan_trec` reads the requests as :func:`~irscale.measures.compute.compute_requests`
computes them: each family's declaration (:class:`~irscale.measures.native.Native`) gives
its engine call and its labels, the engine names its outputs
(:func:`~irscale.core.kernels.output_names`), and the columns follow the one rule of output order
(:mod:`irscale.measures.layout`). Importing this module imports neither numpy, pandas nor
pyarrow, nor the catalogue (:mod:`irscale.measures.base`, loaded by :func:`plan_trec`): its
records are those of the plan read from the manifest too
(:func:`irscale.measures.trec_plain.plain_plan`).
"""

from __future__ import annotations

from ..core.records import record
from .engine_calls import NO_OUTPUT, EngineCall, EvalContext

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from .base import MeasureRequest

__all__ = ["NO_OUTPUT", "EngineCall", "PlannedColumn", "TrecPlan", "plan_trec"]


@record
class PlannedColumn:
    """One printed column: the value at ``output`` of the engine's outputs of call
    ``call`` (:data:`NO_OUTPUT` for runid), printed as ``label`` and summarised as its
    family says."""

    call: int
    output: int
    label: str
    value_type: str
    aggregate: str
    per_query: bool
    #: trec_eval 10's ``-c`` value for topics missing from the run (``None``: the computed one).
    missing_value: float | str | None


@record
class TrecPlan:
    """The engine's calls and the columns, in output order, no label repeated."""

    calls: tuple[EngineCall, ...]
    columns: tuple[PlannedColumn, ...]


def plan_trec(requests: Sequence[MeasureRequest], context: EvalContext) -> TrecPlan | None:
    """The plan of ``requests``, or ``None`` when one is not a trec_eval family computed by
    the engine alone, or needs a view of the rankings other than the evaluation's own (its
    own relevance level, a cut-off, the condensed rankings or conditional relevance).

    >>> from irscale.measures.names import parse_measures
    >>> plan = plan_trec(parse_measures("P.5,10 P@10 runid"), EvalContext())
    >>> [(c.call, c.output, c.label) for c in plan.columns]
    [(0, -1, 'runid'), (1, 0, 'P_5'), (1, 1, 'P_10'), (2, 0, 'P@10')]
    >>> plan_trec(parse_measures("RR@10"), EvalContext()) is None
    True
    """
    from ..core.kernels import output_names
    from .base import TREC_FAMILIES
    from .layout import ordered_requests, output_labels

    for request in requests:
        if (request.family not in TREC_FAMILIES or request.relevance_level is not None
                or request.cutoff is not None or request.condensed or request.conditional):
            return None
    calls: dict[EngineCall, int] = {}
    columns: list[PlannedColumn] = []
    seen: set[str] = set()
    for request in ordered_requests(requests, context.compat):
        family = TREC_FAMILIES[request.family]
        native = family.native
        assert native is not None  # a trec_eval family
        params = family.params.default if request.params is None else request.params
        call = native.call(family.name, params)
        names = output_names(call.family, ints=call.ints, floats=call.floats,
                             gains=call.gains, compat=context.compat,
                             num_docs_in_coll=context.num_docs_in_coll)
        printed = native.labels(family.name, params, names)  # as trec_eval prints them
        new = output_labels(request, family, printed, seen)
        if not new:
            continue
        index = calls.setdefault(call, len(calls))
        columns.extend(PlannedColumn(index, output, label, family.value_type,
                                     family.aggregate, family.per_query,
                                     None if output == NO_OUTPUT
                                     else family.placeholder_value(printed[output]))
                       for output, label in new)
    return TrecPlan(tuple(calls), tuple(columns))
