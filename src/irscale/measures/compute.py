"""Computing measure requests on a batch of judged rankings: the one loop that evaluates
families, shared by :func:`irscale.evaluate`, the intent-aware measures and the scales.

Requests spelled the trec_eval way come first, in trec_eval's table order (``-m all_trec``
prints them so); the others follow in the order asked. Rankings are viewed once per
(relevance level, conditional relevance, condensed, cut-off) and every family computes on
its view, made in that order (:func:`view_of`). A large batch
of real runs is shared out between the cores by whole rankings (:func:`compute_shared`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import chunks
from ..errors import IrscaleError, MeasureError
from ..io.table import Column
from ..parallel.threads import map_threads, usable_cores
from .base import REGISTRY, EvalContext, Family, MeasureRequest, get_family
from .layout import NO_OUTPUT, ordered_requests, output_labels
from .params import Keywords

#: Batches of fewer documents and fewer rankings are computed in one piece by
#: :func:`compute_shared`: below these sizes, pieces in threads cost more than they save
#: (docs/benchmarks.md, "Timings moved out of the source").
_SHARED_ROWS, _SHARED_RANKINGS = 1 << 20, 1 << 16


def column_of(label: str, family: Family) -> Column:
    """The output column ``label`` of a measure family (printed and summarised as it says)."""
    return Column(label, family.aggregate, family.value_type, family.per_query)


def check_finite(name: str, outputs: Mapping[str, np.ndarray]) -> None:
    """A value beyond the range of a double (inf, or NaN from inf - inf) is an error naming
    the measure: gains, persistences or label values too large to be meant."""
    for values in outputs.values():
        values = np.asarray(values)
        if values.dtype.kind == "f" and not np.isfinite(values).all():
            raise MeasureError(
                f"measure {name!r}: some values are beyond the range of a double (gains or "
                "label values too large); scale them down")


def compute_requests(
    jr: JudgedRankings, requests: Sequence[MeasureRequest], context: EvalContext
) -> tuple[tuple[Column, ...], dict[str, np.ndarray]]:
    """Evaluate every request on the batch; columns come in output order, without repeats
    (:mod:`irscale.measures.layout`: requests spelled the trec_eval way first, in trec_eval's
    table order, then the others in the order asked)."""
    columns: list[Column] = []
    values: dict[str, np.ndarray] = {}
    seen: set[str] = set()
    views: dict[tuple[int, int | None, bool, bool], JudgedRankings] = {}
    for request in ordered_requests(requests, context.compat):
        family = get_family(request.family)
        if jr.tie_groups is not None:
            check_tie_aware(request)
        level = jr.relevance_level if request.relevance_level is None else request.relevance_level
        key = (level, request.cutoff, request.condensed, request.conditional)
        if key not in views:
            views[key] = view_of(jr, request, level)
        # trec_eval's families compute as its C code does: overflow to inf, 0/0 to -nan,
        # silently (printed "inf", "-nan"); the other families must give numbers
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            outputs = family.compute(views[key], request.params, context)
        if isinstance(family.params, Keywords):
            check_finite(request.requested, outputs)
        arrays, names = list(outputs.values()), list(outputs)
        for index, label in output_labels(request, family, names, seen):
            array = np.empty(0) if index == NO_OUTPUT else arrays[index]
            missing = None if index == NO_OUTPUT else family.placeholder_value(names[index])
            if jr.placeholder is not None and missing is not None:
                array = np.where(jr.placeholder, missing, array)
            values[label] = array
            columns.append(column_of(label, family))
    return tuple(columns), values


def has_tie_aware_value(request: MeasureRequest) -> bool:
    """Whether ``request`` has a tie-aware value (``--ties expected``): it is one of the
    engine's trec_eval families that has (:func:`~irscale.core.kernels.tie_aware_families`)
    or one of irscale's declared so (:attr:`Family.tie_aware`), without a cut of the ranking
    of its own (``AP@100``: which documents a cut keeps depends on the order of the ties)."""
    from ..core.kernels import tie_aware_families

    family = get_family(request.family)
    return request.cutoff is None and (family.tie_aware or (
        family.native is not None and request.family in tie_aware_families()))


def check_tie_aware(request: MeasureRequest) -> None:
    """A :class:`MeasureError` naming every tie-aware measure unless ``request`` has a
    tie-aware value (:func:`has_tie_aware_value`)."""
    if not has_tie_aware_value(request):
        from ..core.kernels import no_tie_aware_value

        raise MeasureError(no_tie_aware_value(request.requested, *tie_aware_names()))


def tie_aware_names() -> tuple[list[str], list[str]]:
    """The names of the measures with a tie-aware value besides the engine's trec_eval
    families, read from their declarations so that none is left out: irscale's families
    declared tie-aware (:attr:`Family.tie_aware`), each followed by its other names
    (:data:`~irscale.measures.names.ALIASES`, :data:`~irscale.measures.names.PRESETS`:
    ``RBP``, ``gRBP``), and ir_measures' names whose trec_eval families all have one
    (:data:`~irscale.measures.names.IR_NAMES`: ``AP``, ``nDCG``...)."""
    from ..core.kernels import tie_aware_families
    from .names import ALIASES, IR_NAMES, PRESETS

    others = {**ALIASES, **{name: family for name, (family, _) in PRESETS.items()}}
    own = [spelt for name, family in REGISTRY.items() if family.tie_aware
           for spelt in (name, *(other for other, of in others.items() if of == name))]
    engine = tie_aware_families()
    ir_names = [name for name, families in IR_NAMES.items()
                if all(family in engine for family in families if family is not None)]
    return own, ir_names


def view_of(jr: JudgedRankings, request: MeasureRequest, level: int) -> JudgedRankings:
    """The rankings ``request`` is computed on: judged at ``level``, under conditional
    relevance (``conditional=1``: the groups' relevance moved to their completing members,
    no document moved), condensed (``condensed=1``: unjudged documents removed), then cut
    after ``request.cutoff`` documents (of the condensed list when condensed)."""
    view = jr.with_level(level)
    if request.conditional:
        try:
            view = view.conditional()
        except MeasureError as error:
            raise MeasureError(f"measure {request.requested!r}: {error}") from None
    if request.condensed:
        view = view.condensed()
    return view if request.cutoff is None else view.truncate(request.cutoff)


def compute_shared(
    jr: JudgedRankings, requests: Sequence[MeasureRequest], context: EvalContext
) -> tuple[tuple[Column, ...], dict[str, np.ndarray]]:
    """:func:`compute_requests`, with a batch of :data:`_SHARED_ROWS` documents or
    :data:`_SHARED_RANKINGS` rankings or more cut into about one piece of whole rankings per
    usable core, the pieces computed side by side
    in threads (:func:`~irscale.parallel.threads.map_threads`; numpy releases the GIL in the
    kernels' loops) and their values put back in ranking order.

    Every kernel computes each ranking from that ranking's documents and its topic's recall
    base alone, so the values are those of the whole batch, bit for bit (tested on every
    family). A measure's error in a piece is raised by computing the whole batch instead,
    so that its message speaks of the batch (a piece's longest ranking is not the batch's).
    Pieces in threads save up to about 40 % of the kernels' time on 2 cores (docs/benchmarks.md,
    "Timings moved out of the source").
    """
    pieces = usable_cores()
    if pieces < 2 or (len(jr.rel) < _SHARED_ROWS and jr.n_rankings < _SHARED_RANKINGS):
        return compute_requests(jr, requests, context)
    bounds = list(chunks(jr.offsets, -(-len(jr.rel) // pieces)))
    try:
        parts = map_threads(lambda b: compute_requests(jr.rankings(*b), requests, context),
                            bounds)
    except IrscaleError:  # raised again on the whole batch, as it words the error
        return compute_requests(jr, requests, context)
    columns = parts[0][0]
    return columns, {name: np.concatenate([values[name] for _, values in parts])
                     for name in parts[0][1]}
