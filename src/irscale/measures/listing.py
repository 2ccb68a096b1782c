"""The listing of the one catalogue: every measure family, whatever its context.

:func:`catalogue_rows` describes every family of :data:`~irscale.measures.base.CATALOGUE`
(its name, the context it needs, its parameters with their domains and defaults, its other
names, its formula and its source) as plain Python values; :func:`catalogue` makes them a
pandas DataFrame, and ``irscale measures`` prints them (:func:`format_catalogue`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ParameterError
from ..io.formats import CATALOGUE_FORMATS
from .base import CATALOGUE, Cutoffs, Family, FloatParams, Floats, GainPairs
from .catalogue_params import LISTING
from .contexts import CONTEXTS
from .describe import parameters

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    import pandas as pd

def other_names(family: Family) -> list[str]:
    """The other names of a family: its aliases, and the ir_measures-style names that stand
    for a trec_eval family (``AP`` and ``AP@k`` for map and map_cut)."""
    names = list(family.aliases)
    if family.context == "rankings":
        from .names import ALIASES, IR_NAMES, PRESETS

        names += [f"{ir}@k" if with_cutoff == family.name and plain != family.name else ir
                  for ir, (plain, with_cutoff) in IR_NAMES.items()
                  if family.name in (plain, with_cutoff) and ir != family.name]
        names += [alias for alias, target in ALIASES.items() if target == family.name]
        names += [f"{alias} ({','.join(f'{k}={v}' for k, v in fixed.items())})"
                  for alias, (target, fixed) in PRESETS.items() if target == family.name]
    return list(dict.fromkeys(names))


def _signature(family: Family, params: list[dict[str, str]]) -> str:
    """The name with its parameters and their defaults: ``RBP(p=0.8, gain=linear,
    maxrel=none)``, ``P.5,10,...`` (trec_eval's), ``ROUGE-<n>(...)``, ``alpha-nDCG(...)@k``
    (``[@k]``: an optional cut-off; in judged rankings, where every family takes one, shown
    for the families that use k themselves, as ``@k`` where they need one)."""
    name = family.name
    if isinstance(family.params, GainPairs):  # trec_eval's spelling: name.parameters
        return f"{name}[.level=gain,...]"
    if isinstance(family.params, (Cutoffs, Floats, FloatParams)):
        return f"{name}.{params[0]['default']}"
    hidden = {"cutoff"}  # the @k of the name
    if family.suffix is not None and family.suffix[0] != name:
        name = f"{family.suffix[0]}<{family.suffix[1]}>"
        hidden.add(family.suffix[1])
    inside = ", ".join(f"{p['name']}={p['default']}" if p["default"] else p["name"]
                       for p in params if p["name"] not in hidden)
    cutoff = {"required": "@k", "optional": "[@k]", "none": ""}[family.cutoff]
    if family.context == "rankings":
        takes = "cutoff" in getattr(family.params, "keywords", {})
        cutoff = ("@k" if family.cutoff == "required" else "[@k]") if takes else ""
    return f"{name}({inside}){cutoff}" if inside else f"{name}{cutoff}"


def _load_every_context() -> None:
    """Import the modules that register families on import only (per-intent judgments,
    stochastic rankings)."""
    from . import diversity, fairness  # noqa: F401


@LISTING
def catalogue_rows(context: str | None = None) -> list[dict[str, Any]]:
    """One description per family of the catalogue (of ``context`` only, when given, a
    context checked on entry: :data:`irscale.measures.catalogue_params.LISTING`), in
    the order of :data:`~irscale.core.contexts.CONTEXTS` then of registration."""
    _load_every_context()
    rows = []
    for name in CONTEXTS if context is None else (context,):
        for family in CATALOGUE[name].values():
            params = parameters(family.params)
            rows.append({
                "name": family.name,
                "context": family.context,
                "signature": _signature(family, params),
                "parameters": ", ".join(f"{p['name']}={p['default']}" if p["default"]
                                        else p["name"] for p in params),
                "cutoff": family.cutoff,
                "aliases": ", ".join(other_names(family)),
                "formula": family.formula,
                "source": family.source,
                "doc": family.doc,
                "parameter_details": params,
            })
    return rows


@LISTING
def catalogue(context: str | None = None) -> pd.DataFrame:
    """Every measure family irscale knows, one row each, whatever the context it needs.

    Parameters
    ----------
    context : str, optional
        List the families of this context only ("rankings", "intents", "sessions",
        "texts", "nuggets", "pyramids", "citations", "prefs"; default: every context).

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``context``, ``signature`` (the name with its parameters and
        their defaults, ``[@k]`` for an optional cut-off), ``parameters``, ``cutoff``
        (``optional``, ``required`` or ``none``), ``aliases`` (other names: ir_measures'
        for trec_eval's families), ``formula``, ``source`` and ``doc``.

    Examples
    --------
    >>> table = catalogue()
    >>> table.set_index("name").loc["alpha-nDCG", ["context", "signature"]].tolist()
    ['intents', 'alpha-nDCG(alpha=0.5)@k']
    >>> sorted(set(table["context"]))
    ['citations', 'intents', 'nuggets', 'policies', 'prefs', 'pyramids', 'qrels_jg', 'rankings',
     'sessions', 'texts']
    """
    import pandas as pd

    rows = catalogue_rows(context)
    for row in rows:
        del row["parameter_details"]
    return pd.DataFrame(rows, columns=["name", "context", "signature", "parameters", "cutoff",
                                       "aliases", "formula", "source", "doc"])


def format_catalogue(rows: Iterable[dict[str, Any]], fmt: str = "text") -> str:
    """The rows of :func:`catalogue_rows` as ``text`` (one block per family, by context),
    ``json`` (a list of objects, parameters detailed) or ``markdown`` (a table)."""
    if fmt not in CATALOGUE_FORMATS:
        raise ParameterError(f"unknown catalogue format {fmt!r}: use one of "
                             f"{', '.join(CATALOGUE_FORMATS)}")
    rows = list(rows)
    from ..core.numbers import declare_words

    declare_words("inf")  # a parameter's value as its domain spells it (skip=inf): words
    if fmt == "json":
        import json

        return json.dumps([{("parameters" if k == "parameter_details" else k): v
                            for k, v in row.items() if k != "parameters"} for row in rows],
                          ensure_ascii=False, indent=1) + "\n"
    if fmt == "markdown":
        def cell(text: str) -> str:
            return text.replace("|", "\\|") or " "

        lines = ["| name | context | parameters | aliases | formula | source |",
                 "|---|---|---|---|---|---|"]
        lines += [f"| {cell(r['signature'])} | {r['context']} | {cell(r['parameters'])} | "
                  f"{cell(r['aliases'])} | {cell(r['formula'])} | {cell(r['source'])} |"
                  for r in rows]
        return "\n".join(lines) + "\n"
    out: list[str] = []
    context = None
    for row in rows:
        if row["context"] != context:
            context = row["context"]
            info = CONTEXTS[context]
            out += [*([""] if out else []), f"{context}: {info.what} ({info.evaluated_by})"]
        out.append(f"  {row['signature']}")
        out.append(f"      {row['formula']}")
        extra = f"; also {row['aliases']}" if row["aliases"] else ""
        out.append(f"      source: {row['source']}{extra}")
    return "\n".join(out) + "\n"


__all__ = ["catalogue", "catalogue_rows", "format_catalogue",
           "other_names"]
