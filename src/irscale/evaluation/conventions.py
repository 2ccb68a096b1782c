"""A dataset's evaluation conventions: its official measures and relevance level, applied
by default where the qrels come from ir_datasets (``irds:ID``) or ``dataset=`` names it.

Where the conventions come from (:func:`dataset_conventions`), first match:

1. ir_datasets' documentation of the dataset (``irds:ID``, or an ir_datasets id given as
   ``dataset=``): ``ir_datasets.load(ID).documentation()["official_measures"]``;
2. irscale's table of well-known collections (:mod:`irscale.io.collections_table`), by
   the collection's name or one of its ir_datasets ids.

The relevance level (trec_eval's ``-l``) is the table's where the row gives one; otherwise
it is derived from the official measures by one rule (:func:`derived_level`): the ``rel=``
that the measures naming one name; none named, none is applied (trec_eval's default 1);
different ones named (``P(rel=2)@10``, ``AP(rel=3)``), none is applied either, each
measure keeping its own ``rel=``, and the provenance says so. ir_datasets' ``qrels_defs``
describe the grades in words, with no threshold a program can read: they are not used.

What was applied, and what the caller's own ``measures`` / ``relevance_level`` overrode,
is told by :func:`apply_conventions`' provenance lines (``Evaluation.conventions``, the
report's provenance, ``irscale eval``'s note on standard error).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.extras import IR_DATASETS, IRDS_PREFIX, irds_name
from ..errors import MeasureError, ParameterError


class Conventions(NamedTuple):
    """A dataset's official measures, its relevance level (``None``: none defined, trec_eval's
    default 1) and where they come from; ``levels``: the ``rel=`` its measures name."""

    dataset: str
    measures: tuple[str, ...]
    relevance_level: int | None
    levels: tuple[int, ...]
    source: str


class Applied(NamedTuple):
    """What an evaluation takes from a dataset's conventions: its measures (``None``: the
    caller's, or trec_eval's default), its relevance level (``None``: the caller's or
    trec_eval's default) and the provenance lines that say so (the first names the dataset
    and the source, the others the measures and the level); ``source``: where the
    conventions come from."""

    dataset: str
    measures: tuple[str, ...] | None
    relevance_level: int | None
    lines: tuple[str, ...]
    source: str

    def summary(self) -> str:
        """The one line that says what was applied: ``dataset conventions: NAME: measures:
        ...; relevance level: ...`` (``irscale eval``'s, ``compare``'s and ``report``'s
        note on standard error, and with its source the report's provenance)."""
        return f"dataset conventions: {self.dataset}: {'; '.join(self.lines[1:])}"


def measure_levels(measures: tuple[str, ...]) -> tuple[int, ...]:
    """The distinct ``rel=`` levels that ``measures`` name, in increasing order (a name that
    is no measure is a :class:`~irscale.errors.MeasureError`); none for no measures (a
    collection whose source names none)."""
    from ..measures.names import parse_measures

    if not measures:
        return ()
    return tuple(sorted({request.relevance_level for request in parse_measures(list(measures))
                         if request.relevance_level is not None}))


def derived_level(levels: tuple[int, ...]) -> int | None:
    """The relevance level of measures naming ``levels``: the one level, else ``None``
    (none named, or different ones)."""
    return levels[0] if len(levels) == 1 else None


def dataset_conventions(name: str) -> Conventions:
    """The conventions of ``name``: ``irds:ID`` (the qrels' dataset), an ir_datasets id or
    a collection of :data:`~irscale.io.collections_table.COLLECTIONS` (module
    documentation for the order).

    Raises
    ------
    ParameterError
        ``name`` is neither a collection of the table nor an ir_datasets id (with the
        closest names).
    InputError
        ``irds:ID`` whose dataset ir_datasets does not know, or ir_datasets not installed
        (:func:`irscale.io.irds.load_dataset`)."""
    from ..io.collections_table import find_collection

    dataset_id = name[len(IRDS_PREFIX):] if irds_name(name) else name
    documented = _documented_measures(name, dataset_id)
    row = find_collection(dataset_id)
    if documented:
        measures = documented
        source = f"ir_datasets' documentation of {dataset_id} (official_measures)"
    elif row is not None:
        measures, source = row.measures, f"irscale's table: {row.source}"
    elif documented is None:
        raise ParameterError(_unknown(dataset_id))
    else:
        return Conventions(name, (), None, (), f"ir_datasets' documentation of {dataset_id}, "
                           "which names no official measures")
    try:
        levels = measure_levels(measures)
    except MeasureError as error:
        raise ParameterError(f"{name}: the official measures {', '.join(measures)} (from "
                             f"{source}) are not all irscale's ({error}); turn the dataset's "
                             "defaults off: --no-dataset-defaults, dataset_defaults=False"
                             ) from None
    level = derived_level(levels)
    if row is not None and row.relevance_level is not None:
        if documented and row.relevance_level != level:
            source += f"; level {row.relevance_level}: irscale's table ({row.name})"
        level = row.relevance_level
    return Conventions(name, measures, level, levels, source)


def _documented_measures(name: str, dataset_id: str) -> tuple[str, ...] | None:
    """The official measures ir_datasets documents for ``dataset_id`` (``()``: none);
    ``None`` where it is no ir_datasets id (or, for a name without ``irds:``, ir_datasets
    is not installed)."""
    from ..io.irds import load_dataset

    if not irds_name(name):
        registry = _irds_registry()
        if registry is None or dataset_id not in registry:
            return None
    dataset = load_dataset(IRDS_PREFIX + dataset_id)
    documentation = getattr(dataset, "documentation", None)
    found = documentation() if callable(documentation) else {}
    official = found.get("official_measures") if isinstance(found, dict) else None
    if isinstance(official, str):
        official = [official]
    return tuple(str(m) for m in official) if isinstance(official, (list, tuple)) else ()


def _irds_registry() -> Any:
    """ir_datasets' registry of ids (a mapping); ``None`` where ir_datasets is not
    installed."""
    if not IR_DATASETS.installed():
        return None
    return IR_DATASETS.load("an ir_datasets id").registry


def _unknown(dataset_id: str) -> str:
    """The refusal of a name that is no known dataset, with the closest names."""
    import difflib

    from ..io.collections_table import COLLECTIONS

    names = [row.name for row in COLLECTIONS]
    registry = _irds_registry()
    candidates = names + ([] if registry is None else list(registry))
    close = difflib.get_close_matches(dataset_id, candidates, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    where = ("" if registry is not None
             else "; an ir_datasets id needs ir_datasets: pip install 'irscale[irds]'")
    return (f"unknown dataset {dataset_id!r}{hint}: name a collection of irscale's table "
            f"({', '.join(names)}) or an ir_datasets id{where}")


def apply_conventions(conventions: Conventions, *, measures_given: bool,
                      level_given: int | None, option_names: tuple[str, str]) -> Applied:
    """What an evaluation takes from ``conventions``: their measures unless
    ``measures_given``, their relevance level unless ``level_given`` (the caller's level),
    and the provenance lines. ``option_names``: how the caller spells the measures and the
    relevance level (``("-m", "-l")``, ``("measures=", "relevance_level=")``)."""
    measures_option, level_option = option_names
    official = ", ".join(conventions.measures)
    lines = [f"dataset conventions: {conventions.dataset}, from {conventions.source}"]
    if not conventions.measures:
        lines.append("measures: the dataset names no official measures; trec_eval's defaults")
    elif measures_given:
        lines.append(f"measures: given ({measures_option}), over the dataset's official "
                     f"{official}")
    else:
        lines.append(f"measures: the dataset's official {official}")
    level = conventions.relevance_level
    if level_given is not None:
        dataset_level = ("defines none" if level is None else f"has {level}")
        lines.append(f"relevance level: {level_given}, given ({level_option}); the dataset "
                     f"{dataset_level}")
    elif level is not None:
        lines.append(f"relevance level: {level}, the dataset's")
    elif len(conventions.levels) > 1:
        lines.append("relevance level: trec_eval's default 1; the official measures name "
                     f"different levels ({', '.join(map(str, conventions.levels))}), each "
                     "keeping its own rel=")
    else:
        lines.append("relevance level: trec_eval's default 1; the dataset defines none")
    return Applied(conventions.dataset, None if measures_given or not conventions.measures
                   else conventions.measures,
                   None if level_given is not None else level, tuple(lines),
                   conventions.source)


def conventions_for(qrels: object, dataset: str | None, enabled: bool, *,
                    measures_given: bool, level_given: int | None,
                    option_names: tuple[str, str]) -> Applied | None:
    """The conventions an evaluation of ``qrels`` applies: ``dataset``'s, else those of
    the qrels' ir_datasets dataset (``irds:ID``); ``None`` where neither names one or
    ``enabled`` is false (``dataset`` then refused: the two contradict)."""
    if dataset is not None and not isinstance(dataset, str):
        raise ParameterError(f"dataset must be a dataset's name, got {dataset!r}")
    if not enabled:
        if dataset is not None:
            raise ParameterError("a dataset is named but its defaults are turned off: "
                                 "drop one of the two")
        return None
    name = dataset if dataset is not None else qrels if irds_name(qrels) else None
    if name is None:
        return None
    return apply_conventions(dataset_conventions(name), measures_given=measures_given,
                             level_given=level_given, option_names=option_names)


__all__ = ["Applied", "Conventions", "apply_conventions", "conventions_for",
           "dataset_conventions", "derived_level", "measure_levels"]
