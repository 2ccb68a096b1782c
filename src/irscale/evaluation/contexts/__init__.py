"""The declared evaluation contexts (:class:`~irscale.evaluation.context.Context`), one
module each (:data:`MODULES`, in the order they are asked,
:func:`choose`). Each module is small and loads its runner
only when it runs, and the package imports none of them: :func:`declared` imports them
all; the command line reads what they declare from the manifest
(:data:`irscale._manifest.CONTEXTS`, :func:`declarations`: their names, formats, qrels
forms and output formats) and imports a context's module when it needs the context
(:func:`load`), so that ``irscale eval`` of trec_eval's measures loads no other context's
module. A context registered since (one not in the manifest) is read from its instance."""

from __future__ import annotations

import importlib

from ...errors import MeasureError
from ..context import CONTEXTS, DEFAULT, Context, Output, declared_data, measure_names
from ..context_manifest import TREC_EVAL_CALLS, declarations, load, trec_eval_call, trec_eval_only

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Mapping
    from typing import Any

#: The modules declaring the contexts, in the order they are asked.
MODULES = ("citations", "fairness", "intents", "judged", "nuggets", "prefs", "pyramids", "qrels_jg",
           "sessions", "texts")


def declared() -> tuple[Context, ...]:
    """Every context, its module imported: these and any declared since, in the order
    they are asked (those of :data:`MODULES` first, then the others in the order they
    were registered)."""
    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")
    ordered = sorted(CONTEXTS.values(), key=_rank)  # stable: the others as registered
    CONTEXTS.clear()
    CONTEXTS.update((context.name, context) for context in ordered)
    return tuple(ordered)


def _rank(context: Context) -> int:
    """The place of ``context``'s module in :data:`MODULES` (after them: another's)."""
    package, _, module = type(context).__module__.rpartition(".")
    return MODULES.index(module) if package == __name__ and module in MODULES else len(MODULES)


def declaration(context: Context, *, probe: bool = False) -> dict[str, Any]:
    """What the command line reads of ``context`` before loading it (an entry of
    :data:`irscale._manifest.CONTEXTS`: :func:`~irscale.evaluation.context.declared_data`),
    with whether it claims a call of trec_eval's measures (``probe``: asked of the
    context, each of :data:`TREC_EVAL_CALLS` with each family and nickname of trec_eval's,
    alone and together, and none; without ``probe``: assumed, a context that must be
    asked)."""
    return declared_data(context, claims_trec_eval=not probe or _claims_trec_eval(context))


def _claims_trec_eval(context: Context) -> bool:
    """Whether ``context`` claims a call of trec_eval's measures (:func:`declaration`)."""
    from ...measures.base import TREC_FAMILIES
    from ...measures.trec_table import NICKNAMES, NICKNAMES10

    names = [*TREC_FAMILIES, *NICKNAMES, *NICKNAMES10, "P.5,10", "P_10", "ndcg_cut_10"]
    calls = [[], names, *([name] for name in names)]
    return any(context.claims(qrels, measures, options) for qrels, options in TREC_EVAL_CALLS
               for measures in calls)


def declared_outputs() -> list[Output]:
    """The output formats of the contexts' own (:attr:`Context.outputs`), in the order the
    contexts are asked, read from :func:`declarations`."""
    return [Output(**output) for entry in declarations().values()
            for output in entry["outputs"]]


def choose(qrels: Any, measures: Any, options: Mapping[str, Any]) -> Context:
    """The context that evaluates a call: the first declared one that claims it, the
    default one (:data:`~irscale.evaluation.context.DEFAULT`) when none does (the
    contexts of :func:`declared`). A call that none claims but in which a context would
    claim some of the measures on their own mixes that context's measures with others: a
    :class:`~irscale.errors.MeasureError` (:meth:`Context.mixed`), one rule for every
    context. A call of trec_eval's measures that the manifest says no other context
    claims (:func:`trec_eval_call`) loads the default context's module alone."""
    if trec_eval_only(qrels, measures, options):
        return load(DEFAULT)
    for context in declared():
        if context.name != DEFAULT and context.claims(qrels, measures, options):
            return context
    _refuse_mixed(qrels, measure_names(measures), options)
    return CONTEXTS[DEFAULT]


def _refuse_mixed(qrels: Any, names: list[str], options: Mapping[str, Any]) -> None:
    """The one rule of a call that mixes a context's measures with others (:func:`choose`):
    each name is asked of each context on its own, unless every name is one of trec_eval's
    or of the catalogue's rankings (no other context is then loaded)."""
    from ...measures.names import is_measure_name

    if len(names) < 2 or all(map(is_measure_name, names)):
        return
    for context in CONTEXTS.values():
        if context.name == DEFAULT:
            continue
        own = [context.claims(qrels, [name], options) for name in names]
        if any(own):  # not every one: the context would have claimed the call
            raise MeasureError(context.mixed(names[own.index(False)]))



__all__ = ["MODULES", "TREC_EVAL_CALLS", "choose", "declaration", "declarations", "declared",
           "declared_outputs", "load", "trec_eval_call"]
