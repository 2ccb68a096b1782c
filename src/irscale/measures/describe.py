"""A family's parameters as plain values: name, domain, default and meaning of each, as
the catalogue lists them (:mod:`irscale.measures.listing`) and as a family of another
family's parameters describes its own (the intent-aware ``IA(<measure>)``)."""

from __future__ import annotations

from .base import Cutoffs, FloatList, FloatParams, Floats, GainPairs, GainParams
from .params import Keywords, ParamSpec

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

__all__ = ["format_value", "parameters"]


def format_value(value: Any) -> str:
    """A parameter value as a name spells it: ``0.8``, ``none``, ``1``, ``linear``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return "inf" if value == float("inf") else f"{value:g}"
    if isinstance(value, FloatList):
        return value.text or ",".join(f"{v:g}" for v in value.values)
    if isinstance(value, GainParams):
        return value.text or "degree"
    if isinstance(value, tuple):
        return ",".join(format_value(v) for v in value)
    return str(value)


def parameters(spec: ParamSpec) -> list[dict[str, str]]:
    """The parameters a family declares: name, domain, default and meaning of each (a
    spec of its own kind describes them with its ``describe()``)."""
    if hasattr(spec, "describe"):
        return spec.describe()
    if isinstance(spec, Keywords):
        return [{"name": name, "domain": kw.domain, "default": format_value(kw.default),
                 "doc": kw.doc} for name, kw in spec.keywords.items()]
    if isinstance(spec, Cutoffs):
        return [{"name": "k", "domain": "integers ≥ 1, comma-separated",
                 "default": format_value(spec.default), "doc": "cut-offs (trec_eval: name.k)"}]
    if isinstance(spec, Floats):
        domain = str(spec.valid) if spec.valid is not None else "numbers"
        return [{"name": "x", "domain": f"{domain}; comma-separated",
                 "default": format_value(spec.default), "doc": "values (trec_eval: name.x)"}]
    if isinstance(spec, FloatParams):
        count = f"{spec.count} " if spec.count is not None else ""
        domain = f"; {spec.valid}" if spec.valid is not None else ""
        return [{"name": "values", "domain": f"{count}numbers, comma-separated{domain}",
                 "default": format_value(spec.default),
                 "doc": "parameters in the order given (trec_eval: name.values)"}]
    if isinstance(spec, GainPairs):
        rows = [{"name": "level=gain", "domain": "integer level = finite gain, "
                 "comma-separated", "default": "degree",
                 "doc": "gain of each relevance level (trec_eval: name.level=gain)"}]
        valid = dict(spec.valid)
        return rows + [{"name": name, "domain": str(valid[name]) if name in valid else
                        "number", "default": "", "doc": "named parameter among the pairs"}
                       for name in spec.names]
    return []
