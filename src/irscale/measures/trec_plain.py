"""trec_eval's names read and planned from the manifest's data, without the catalogue: the
plain path of ``irscale eval`` (the default measures, ``-m map``, ``-m P.5,10``,
``-m ndcg_cut_10``, ``-m all_trec``) reaches the engine without
:mod:`irscale.measures.base`, :mod:`~irscale.measures.params` or
:mod:`~irscale.measures.names`.

A name is plain (:func:`plain_request`) when it is, under the table of ``compat``, a
nickname of trec_eval's (``official``, ``all_trec``, ``set``), a family of trec_eval's that
the catalogue reads as that family alone (the manifest's ``TREC_PLAIN["families"]``), such a
family taking cut-offs followed by ``.`` and cut-offs (``P.5,10``), or an output name of
one cut-off (``P_10``, the longest family name first, as
:func:`irscale.measures.names.known_measure` reads it); cut-offs are plain when written as
positive decimal integers without sign, blank or leading zero, none twice. Every other name
(irscale's families, ir_measures' names, a name with bad or other parameters, a nickname
of ``-R qrels_jg``, an unknown name) is ``None`` here, and the caller takes the catalogue's
route, which reads it and makes every error message as before. What the plain functions
answer is what the catalogue's would (:func:`~irscale.measures.trec_reading.trec_eval_reading`,
:func:`~irscale.measures.plan.plan_trec` of
:func:`~irscale.measures.names.parse_measures`' requests): ``tests/test_manifest.py``
compares the data with the catalogue's declarations, and the answers on every plain name.
"""

from __future__ import annotations

from .._manifest import TREC_PLAIN
from ..core.records import record
from .engine_calls import NO_OUTPUT, EngineCall
from .plan import PlannedColumn, TrecPlan

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Sequence
    from typing import Any

#: The families read so → their fields (the manifest's ``TREC_PLAIN["fields"]``): the
#: engine call on the defaults (``ints``, ``floats``, ``gains``, ``ideal``), whether the
#: family takes cut-offs as the engine names them, its labels on the defaults (``None``:
#: the engine's names), ``value_type``, ``aggregate``, ``per_query``, ``missing_value``.
FAMILIES: dict[str, tuple[Any, ...]] = TREC_PLAIN["families"]
#: The index of the field ``cutoffs`` and of ``aggregate`` of :data:`FAMILIES`' entries.
CUTOFFS, AGGREGATE = 4, 7
#: The largest cut-off the catalogue reads (:class:`irscale.measures.base.Cutoffs`).
MOST = 2**63 - 1


@record
class PlainRequest:
    """One family of trec_eval's requested by a plain name: its cut-offs (``None``: its
    defaults) and the name requested; its outputs keep trec_eval's names. It stands for the
    catalogue's :class:`~irscale.measures.base.MeasureRequest` of the same fields where
    an evaluation of plain names reads its requests (``-c``'s totals,
    :func:`irscale.evaluation.setup.complete_num_rel`)."""

    family: str
    params: tuple[int, ...] | None
    requested: str
    relevance_level: None = None
    trec_spelt: bool = True


def plain_cutoffs(text: str) -> tuple[int, ...] | None:
    """The cut-offs of ``text`` (``5,10``), sorted, where it is written plainly (module
    documentation); ``None`` otherwise, for the catalogue to read or refuse."""
    values = []
    for part in text.split(","):
        if not (part.isascii() and part.isdigit()) or part.startswith("0"):
            return None
        values.append(int(part))
    if len(set(values)) != len(values) or max(values) > MOST:
        return None
    return tuple(sorted(values))


def plain_request(name: str, compat: int) -> list[PlainRequest] | None:
    """The requests of the name ``name`` where it is plain (module documentation), in the
    order :func:`irscale.measures.names.known_measure` gives them; ``None`` otherwise."""
    nicknames = TREC_PLAIN["nicknames"][compat]
    if name in nicknames:
        members = nicknames[name]
        return None if any(member not in FAMILIES for member in members) else [
            PlainRequest(member, None, name) for member in members]
    if name in FAMILIES:
        return [PlainRequest(name, None, name)]
    family, dot, params = name.partition(".")
    if dot:
        if family not in FAMILIES or not FAMILIES[family][CUTOFFS]:
            return None
        cutoffs = plain_cutoffs(params)
        return None if cutoffs is None else [PlainRequest(family, cutoffs, name)]
    specs: dict[str, str] = TREC_PLAIN["specs"]
    for family in sorted(specs, key=len, reverse=True):  # P_10: the longest name first
        if name.startswith(family + "_"):
            cutoffs = plain_cutoffs(name[len(family) + 1:])
            if (cutoffs is None or len(cutoffs) != 1 or family not in FAMILIES
                    or not FAMILIES[family][CUTOFFS]):
                return None
            return [PlainRequest(family, cutoffs, name)]
    return None


def plain_requests(names: Sequence[str], compat: int) -> list[PlainRequest] | None:
    """The requests of every one of ``names`` (none empty), all plain; ``None`` where one
    is not (or ``compat`` is not a table's)."""
    if compat not in TREC_PLAIN["tables"] or not names:
        return None
    requests: list[PlainRequest] = []
    for name in names:
        found = plain_request(name, compat) if isinstance(name, str) else None
        if found is None:
            return None
        requests += found
    return requests


def plain_reading(names: Sequence[str], compat: int, per_query: bool) -> list[str] | None:
    """:func:`~irscale.measures.trec_reading.trec_eval_reading` of ``names`` where all are
    plain (its rules: each family of the table named once, where first named, with the
    parameters of the first ``family.cut-offs``; a nickname holding such a family replaced
    by its members, those printing per topic alone kept only with ``per_query``); ``None``
    otherwise."""
    if plain_requests(names, compat) is None:
        return None
    table = TREC_PLAIN["tables"][compat]
    nicknames = TREC_PLAIN["nicknames"][compat]
    first: dict[str, str] = {}
    for name in names:
        family, dot, _ = name.partition(".")
        if dot and family in table:
            first.setdefault(family, name)
    return read_in_order(names, table, nicknames, first, lambda member: (
        member in first or per_query or FAMILIES[member][AGGREGATE] != "none"))


def read_in_order(names: Sequence[str], table: Any, nicknames: Any, first: dict[str, str],
                  kept: Callable[[str], bool]) -> list[str]:
    """The names trec_eval reads of ``names``, in order, each once: a family of ``table``
    as ``first`` names it (its first ``family.cut-offs``), a nickname holding such a family
    replaced by its members that ``kept`` keeps (named, or printing a summary, or every one
    with ``-q``), any other name as it is."""
    read: list[str] = []
    for name in names:
        family, dot, _ = name.partition(".")
        if dot and family in table:
            items = [first[family]]
        elif name in table:
            items = [first.get(name, name)]
        elif name in nicknames and any(member in first for member in nicknames[name]):
            items = [first.get(member, member) for member in nicknames[name] if kept(member)]
        else:
            items = [name]
        for item in items:
            if item not in read:
                read.append(item)
    return read


def plain_plan(requests: Sequence[PlainRequest], compat: int, num_docs_in_coll: int
               ) -> TrecPlan | None:
    """:func:`~irscale.measures.plan.plan_trec` of plain ``requests``: the families in the
    order of trec_eval's table (the others after, as asked), each family's engine call on
    its cut-offs or defaults, its columns labelled as the engine names its outputs (or as
    the manifest's labels on the defaults), a label met before skipped, ``runid`` one
    column without output. ``None`` where a family's labels are not the engine's and
    ``-N`` is given (the catalogue's route labels them)."""
    from ..core.kernels import output_names

    table = TREC_PLAIN["tables"][compat]
    cleared = TREC_PLAIN["cleared"]

    def order(request: PlainRequest) -> tuple[int, int]:
        family = request.family
        return (0, table.index(family)) if family in table else (1, 0)

    calls: dict[EngineCall, int] = {}
    columns: list[PlannedColumn] = []
    seen: set[str] = set()
    for request in sorted(requests, key=order):
        (ints, floats, gains, ideal, _, labels, value_type, aggregate, per_query,
         missing_value) = FAMILIES[request.family]
        call = EngineCall(request.family, ints if request.params is None else request.params,
                          floats, gains, ideal)
        if labels is None:  # the engine's names
            printed = output_names(call.family, ints=call.ints, floats=call.floats,
                                   gains=call.gains, compat=compat,
                                   num_docs_in_coll=num_docs_in_coll)
        elif num_docs_in_coll == 0:
            printed = list(labels)
        else:
            return None
        new = [(output, label) for output, label in enumerate(printed) if label not in seen]
        seen.update(label for _, label in new)
        if not printed and aggregate == "runid" and request.family not in seen:
            seen.add(request.family)
            new.append((NO_OUTPUT, request.family))
        if not new:
            continue
        index = calls.setdefault(call, len(calls))
        columns.extend(PlannedColumn(
            index, output, label, value_type, aggregate, per_query,
            None if output == NO_OUTPUT or not (label in cleared or label.startswith("unj"))
            else missing_value) for output, label in new)
    return TrecPlan(tuple(calls), tuple(columns))


__all__ = ["PlainRequest", "plain_cutoffs", "plain_plan", "plain_reading", "plain_request",
           "plain_requests"]
