"""The one measure-name parser: trec_eval names and ir_measures-style names.

Accepted spellings (each yields one or more :class:`MeasureRequest`):

* trec_eval nicknames: ``official``, ``all_trec``, ``set``;
* trec_eval families, with optional parameters after a dot: ``map``, ``P``, ``P.5,10``,
  ``ndcg.0=0,1=1,2=3``, ``ndcg_cut.10``, ``iprec_at_recall.0.1,0.5``;
* trec_eval output names: ``P_10``, ``ndcg_cut_10``, ``iprec_at_recall_0.10``,
  ``Rprec_mult_0.20``, ``recall_100``, ``success_1``, ``map_cut_100``;
* ir_measures-style names ``Name(param=value,...)@cutoff``: ``AP``, ``AP@100``, ``P@10``,
  ``P(rel=2)@5``, ``R@100``, ``nDCG``, ``nDCG@10``, ``RR``, ``RR@10``, ``Rprec``, ``Bpref``,
  ``infAP``, ``NumRet``, ``NumRel``, ``NumRelRet``, ``NumQ``, ``SetP``, ``SetR``, ``SetF``,
  ``Success@1``, ``IPrec@0.5``, ``GMAP``. The parameter ``rel`` sets the minimum relevance
  degree counted as relevant for that measure only. A cut-off on a measure that has no
  native cut-off (``RR@10``) evaluates the ranking truncated to its first k documents.

Every label shown to the user is the name as requested (``P@10`` stays ``P@10``); trec_eval
names print exactly as trec_eval prints them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from ..errors import MeasureError
from .base import REGISTRY, Cutoffs, Floats, MeasureRequest, get_family
from .trec_table import NICKNAMES, NICKNAMES10

_IR_NAME = re.compile(
    r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[0-9.]+))?$"
)

#: ir_measures-style name → (family without cut-off, family with native cut-off or None).
IR_NAMES: dict[str, tuple[str | None, str | None]] = {
    "AP": ("map", "map_cut"),
    "MAP": ("map", "map_cut"),
    "GMAP": ("gm_map", None),
    "P": (None, "P"),
    "R": (None, "recall"),
    "Recall": (None, "recall"),
    "nDCG": ("ndcg", "ndcg_cut"),
    "NDCG": ("ndcg", "ndcg_cut"),
    "RR": ("recip_rank", None),
    "MRR": ("recip_rank", None),
    "Rprec": ("Rprec", None),
    "Bpref": ("bpref", None),
    "infAP": ("infAP", None),
    "NumRet": ("num_ret", None),
    "NumRel": ("num_rel", None),
    "NumRelRet": ("num_rel_ret", None),
    "NumQ": ("num_q", None),
    "SetP": ("set_P", None),
    "SetR": ("set_recall", None),
    "SetF": ("set_F", None),
    "SetAP": ("set_map", None),
    "Success": (None, "success"),
    "IPrec": (None, "iprec_at_recall"),
}


def parse_measures(names: str | Iterable[str], *, compat: int = 9) -> list[MeasureRequest]:
    """Requests for every name (a single string may hold several, separated by blanks).

    ``compat`` selects the trec_eval version whose nicknames (``all_trec`` ...) apply.
    Raises :class:`MeasureError` for an unknown name or bad parameters; the message names
    the offending text.
    """
    if isinstance(names, str):
        names = names.split()
    requests: list[MeasureRequest] = []
    for name in names:
        requests.extend(parse_measure(name, compat=compat))
    if not requests:
        raise MeasureError("no measure requested")
    return requests


def parse_measure(name: str, *, compat: int = 9) -> list[MeasureRequest]:
    """Requests for one measure name (see the module documentation)."""
    text = name.strip()
    if not text:
        raise MeasureError("empty measure name")
    nicknames = NICKNAMES10 if compat == 10 else NICKNAMES
    if text in nicknames:
        return [MeasureRequest(family, requested=text) for family in nicknames[text]]
    if text in REGISTRY:
        return [MeasureRequest(text, requested=text)]
    family, dot, params = text.partition(".")
    if dot and family in REGISTRY:
        spec = get_family(family).params
        return [MeasureRequest(family, spec.parse(params, family), requested=text)]
    trec_output = _trec_output_name(text)
    if trec_output is not None:
        return [trec_output]
    match = _IR_NAME.match(text)
    if match and match["name"] in IR_NAMES:
        return [_ir_request(text, match["name"], match["params"], match["cutoff"])]
    import difflib

    known = list(REGISTRY) + list(IR_NAMES) + list(NICKNAMES)
    close = difflib.get_close_matches(text, known, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise MeasureError(f"unknown measure {text!r}{hint}")


def _trec_output_name(text: str) -> MeasureRequest | None:
    """``P_10`` → P with cut-off 10 (any family whose parameter is a list of numbers)."""
    for family_name in sorted(REGISTRY, key=len, reverse=True):
        prefix = family_name + "_"
        if not text.startswith(prefix):
            continue
        spec = REGISTRY[family_name].params
        if not isinstance(spec, (Cutoffs, Floats)):
            continue
        value = text[len(prefix):]
        try:
            params = spec.parse(value, family_name)
        except MeasureError:
            continue
        if len(params) != 1:
            continue
        return MeasureRequest(family_name, params, requested=text)
    return None


def _ir_request(text: str, name: str, params: str | None, cutoff: str | None) -> MeasureRequest:
    plain, with_cutoff = IR_NAMES[name]
    options = _parse_ir_params(text, params)
    level = options.pop("rel", None)
    if options:
        raise MeasureError(f"measure {text!r}: unknown parameter(s) {sorted(options)}")
    if cutoff is None:
        if plain is None:
            raise MeasureError(f"measure {text!r} needs a cut-off, e.g. {name}@10")
        request = MeasureRequest(plain, requested=text)
    elif with_cutoff is not None:
        spec = get_family(with_cutoff).params
        request = MeasureRequest(with_cutoff, spec.parse(cutoff, with_cutoff), requested=text)
    else:
        try:
            depth = int(cutoff)
        except ValueError:
            raise MeasureError(f"measure {text!r}: the cut-off must be an integer") from None
        if depth <= 0:
            raise MeasureError(f"measure {text!r}: the cut-off must be positive")
        request = MeasureRequest(plain, cutoff=depth, requested=text)  # type: ignore[arg-type]
    if level is not None:
        try:
            request = replace(request, relevance_level=int(level))
        except ValueError:
            raise MeasureError(f"measure {text!r}: rel must be an integer, got {level!r}") from None
    return request


def _parse_ir_params(text: str, params: str | None) -> dict[str, str]:
    if not params:
        return {}
    options = {}
    for part in params.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise MeasureError(f"measure {text!r}: parameters are name=value pairs, got {part!r}")
        options[key.strip()] = value.strip()
    return options


def is_trec_request(request: MeasureRequest) -> bool:
    """True when the request was spelled the trec_eval way (its output keeps trec names)."""
    head = request.requested.split(".")[0]
    return head in REGISTRY or head in NICKNAMES or _trec_output_name(request.requested) is not None


__all__ = ["IR_NAMES", "is_trec_request", "parse_measure", "parse_measures"]
