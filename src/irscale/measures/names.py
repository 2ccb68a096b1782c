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
  ``Success@1``, ``IPrec@0.5``, ``GMAP``, ``Judged@10``, and every family with keyword parameters
  (:mod:`irscale.measures.params`): ``Q(beta=0.5)@10``, ``nDCG(gain=exp,discount=log2)@10``,
  ``DCG(discount=jk,base=10)@20``, ``RBP(p=0.8)``, ``ERR(prob=ntcir)@20``, ``AP(norm=min)@10``
  (a name of the trec_eval route that carries such parameters, ``AP(...)`` or ``nDCG(...)``,
  selects the keyword family of that name). Generic parameters, accepted by every name:
  ``rel`` (minimum relevance degree counted as relevant for that measure only) and
  ``condensed=1`` (alias ``judged_only=1``: evaluate the condensed list, unjudged documents
  removed; Sakai 2014, §2.2). A cut-off on a measure that has no native cut-off (``RR@10``)
  evaluates the ranking truncated to its first k documents; a keyword family that declares
  ``cutoff`` receives k as a parameter;
* NTCIREVAL's output names with the prefix ``ntcir:`` (``ntcir:Q-measure``,
  ``ntcir:nDCG@0010``, ``ntcir:MSnDCG@10``, ``ntcir:nERR@10``, ``ntcir:P-plus`` ...), each
  standing for the irscale measure with NTCIREVAL's definition and defaults
  (:data:`NTCIR_NAMES`; docs/measures.md).

Every label shown to the user is the name as requested (``P@10`` stays ``P@10``); trec_eval
names print exactly as trec_eval prints them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from ..core.options import INT64_MAX
from ..errors import MeasureError, ParameterError, shorten, shown
from .base import REGISTRY, Cutoffs, Floats, MeasureRequest, get_family
from .params import Keywords, flag, split_items
from .trec_table import NICKNAMES, NICKNAMES10

_IR_NAME = re.compile(
    r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[0-9.]+))?$"
)
#: The same with anything after the @ (a cut-off that is not a number: ``AP@-1``).
_IR_NAME_ANY_CUTOFF = re.compile(
    r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<params>[^()]*)\))?@(?P<cutoff>.*)$")

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

#: ir-style names of the trec_eval route whose keyword parameters (beyond the generic
#: ``rel`` and ``condensed``) select a keyword family: ``AP(norm=min)@10``, ``nDCG(gain=exp)``.
IR_KEYWORD_FAMILIES: dict[str, str] = {"AP": "AP", "MAP": "AP", "nDCG": "nDCG", "NDCG": "nDCG"}

#: Other names of keyword families.
ALIASES: dict[str, str] = {"gRBP": "RBP", "Qmeasure": "Q"}

#: NTCIREVAL's output names (``ntcir_eval compute``, version 190111) → the irscale measure
#: with NTCIREVAL's definition and defaults; ``{k}`` is the cut-off of ``Name@k``. Gains: the
#: default linear gains are NTCIREVAL's ``-g 1:2:...:c``; give ``gain=`` for other ``-g``.
NTCIR_NAMES: dict[str, str] = {
    "RR": "RR",
    "O-measure": "Omeasure(beta=1)",
    "P-measure": "Pmeasure(beta=1)",
    "P-plus": "Pplus(beta=1)",
    "AP": "AP",
    "Q-measure": "Q(beta=1)",
    "RBP": "RBP(p=0.95)",
    "ERR": "ERR(prob=ntcir)",
    "AP@": "AP(norm=min)@{k}",
    "Q@": "Q(beta=1,norm=min)@{k}",
    "nDCG@": "nDCG(discount=jk,base=2)@{k}",
    "MSnDCG@": "nDCG(discount=log2)@{k}",
    "P@": "P@{k}",
    "RBP@": "RBP(p=0.95)@{k}",
    "ERR@": "ERR(prob=ntcir)@{k}",
    "nERR@": "nERR(prob=ntcir)@{k}",
    "Hit@": "Success@{k}",
    "bpref": "Bpref(condensed=1)",
    "bpref_R": "bpref_R",
    "bpref_N": "bpref_N",
}
NTCIR_PREFIX = "ntcir:"


def parse_measures(names: str | Iterable[str], *, compat: int = 9) -> list[MeasureRequest]:
    """Requests for every name (a single string may hold several, separated by blanks).

    Parameters
    ----------
    names : str or iterable of str
        Measure names: trec_eval's (``map``, ``P.5,10``, ``ndcg_cut_10``, nicknames such as
        ``official`` and ``all_trec``), ir_measures' (``AP@100``, ``P(rel=2)@5``,
        ``nDCG@10``) or irscale's own families with their parameters.
    compat : {9, 10}, default 9
        The trec_eval version whose nicknames (``all_trec`` ...) apply.

    Returns
    -------
    list of MeasureRequest
        One request per measure family to compute, in the order given (a nickname stands
        for its families).

    Raises
    ------
    MeasureError
        An unknown name (suggesting close ones) or bad parameters; the message names the
        offending text and lists the valid values.

    Examples
    --------
    >>> [(r.family, r.params) for r in parse_measures("map P.5,10 nDCG@10")]
    [('map', None), ('P', (5, 10)), ('ndcg_cut', (10,))]
    >>> parse_measures(["P(rel=2)@5"])[0].relevance_level
    2
    >>> parse_measures("mapp")
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: unknown measure 'mapp' (did you mean map, gm_map?)
    """
    requests: list[MeasureRequest] = []
    for name in measure_names(names):
        requests.extend(parse_measure(name, compat=compat))
    if not requests:
        raise MeasureError("no measure requested")
    return requests


#: What ``measures`` may be (the start of the error message for anything else).
MEASURES_EXPECTED = 'measures must be measure names such as "map" or ["P@10", "ndcg"]'


def measure_names(names: object, *, split: bool = True,
                  expected: str = MEASURES_EXPECTED) -> list[str]:
    """The names of ``names``: a string (names separated by blanks; one name when not
    ``split``) or an iterable of strings, at least one; anything else (None, a number,
    bytes, ``[]``, ``[None]``) is a :class:`MeasureError` naming what was given and starting
    with ``expected``, not a ``TypeError`` from deep inside.

    >>> measure_names("map P@10"), measure_names("ROUGE-1", split=False)
    (['map', 'P@10'], ['ROUGE-1'])
    """
    if isinstance(names, str):
        return names.split() if split else [names]
    items = None
    if not isinstance(names, (bytes, bytearray, memoryview)):
        try:
            items = list(iter(names))  # type: ignore[call-overload]
        except TypeError:
            items = None
    if not items:
        raise MeasureError(f"{expected}, got {shorten(repr(names))}")
    for item in items:
        if not isinstance(item, str):
            raise MeasureError(f"{expected}, got {shorten(repr(names))} "
                               f"({shorten(repr(item))} is not a string)")
    return items


def parse_measure(name: str, *, compat: int = 9) -> list[MeasureRequest]:
    """Requests for one measure name (see the module documentation)."""
    text = name.strip()
    if not text:
        raise MeasureError("empty measure name")
    nicknames = NICKNAMES10 if compat == 10 else NICKNAMES
    if text in nicknames:
        return [MeasureRequest(family, requested=text) for family in nicknames[text]]
    if text.startswith(NTCIR_PREFIX):
        return [_ntcir_request(text)]
    if text in IR_NAMES and IR_NAMES[text][0] is not None:
        return [_ir_request(text, text, None, None)]
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
    if match and (match["name"] in IR_NAMES or _keyword_family(match["name"]) is not None):
        return [_ir_request(text, match["name"], match["params"], match["cutoff"])]
    _check_cutoff_text(text)
    import difflib

    # a name may be a family and an ir_measures name at once (P, Rprec): each is suggested
    # once; names that differ only in case (p, MAP) come first
    known = list(dict.fromkeys([*REGISTRY, *IR_NAMES, *ALIASES, *NICKNAMES]))
    close = [k for k in known if k.lower() == text.lower()]
    close += [k for k in difflib.get_close_matches(text, known, n=3) if k not in close]
    close = close[:3]
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise MeasureError(f"unknown measure {text!r}{hint}")


def _check_cutoff_text(text: str) -> None:
    """A known name with a cut-off that is not a number (``AP@-1``, ``P@x``, ``nDCG@``) is
    an invalid cut-off, not an unknown measure (whose suggestions would name another)."""
    match = _IR_NAME_ANY_CUTOFF.match(text)
    if match and (match["name"] in IR_NAMES or _keyword_family(match["name"]) is not None):
        what = ("a recall level from 0 to 1" if match["name"] == "IPrec"
                else f"an integer from 1 to {INT64_MAX}")
        raise MeasureError(f"measure {text!r}: the cut-off after @ must be {what}, got "
                           f"{match['cutoff']!r}")


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


def _keyword_family(name: str) -> str | None:
    """The keyword family an ir-style name stands for (``None``: not a keyword family)."""
    family = ALIASES.get(name, name)
    if family in REGISTRY and isinstance(REGISTRY[family].params, Keywords):
        return family
    return None


def _ntcir_request(text: str) -> MeasureRequest:
    """``ntcir:Name`` or ``ntcir:Name@k`` → the irscale measure of :data:`NTCIR_NAMES`."""
    name, at, cutoff = text[len(NTCIR_PREFIX):].partition("@")
    template = NTCIR_NAMES.get(name + at)
    if template is None or (at and not cutoff.isdigit()):
        known = ", ".join(NTCIR_PREFIX + key + ("k" if key.endswith("@") else "")
                          for key in NTCIR_NAMES)
        raise MeasureError(f"unknown NTCIREVAL measure {text!r} (known: {known})")
    spelled = template.format(k=int(cutoff)) if at else template
    return replace(parse_measure(spelled)[0], requested=text)


def _ir_request(text: str, name: str, params: str | None, cutoff: str | None) -> MeasureRequest:
    options = _parse_ir_params(text, params)
    level = options.pop("rel", None)
    condensed = _generic_flag(text, options, "condensed") | _generic_flag(
        text, options, "judged_only")
    keyword_family = IR_KEYWORD_FAMILIES.get(name) if name in IR_NAMES else _keyword_family(name)
    if keyword_family is not None and (options or name not in IR_NAMES):
        request = _keyword_request(text, keyword_family, options, cutoff)
    else:
        request = _trec_route_request(text, name, options, cutoff)
    if condensed:
        request = replace(request, condensed=True)
    if level is not None:
        request = replace(request, relevance_level=parse_relevance_level(text, level))
        if request.family == "num_ret":
            # ir_measures: NumRet(rel=k) counts the retrieved documents of degree ≥ k
            request = replace(request, family="num_rel_ret")
    _check_generic(text, request, level is not None, condensed)
    return request


def parse_relevance_level(text: str, level: str) -> int:
    """The ``rel=`` of a name: an integer from 1 to 2⁶³ − 1 (as trec_eval's ``-l``)."""
    try:
        value = int(level)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= INT64_MAX:
        raise MeasureError(f"measure {text!r}: rel must be an integer from 1 to {INT64_MAX} "
                           f"(the minimum relevant degree), got {shown(level)}")
    return value


def _check_generic(text: str, request: MeasureRequest, level: bool, condensed: bool) -> None:
    """Refuse ``rel`` / ``condensed`` where they would change nothing (the family declares
    it, :attr:`~irscale.measures.base.Family.ignores`): a parameter is accepted only when it
    changes the result as documented."""
    ignored = dict(get_family(request.family).ignores)
    for name, given in (("rel", level), ("condensed", condensed)):
        if given and name in ignored:
            raise MeasureError(f"measure {text!r}: {name} cannot apply to "
                               f"{request.family}: {ignored[name]}")


def _generic_flag(text: str, options: dict[str, str], name: str) -> bool:
    if name not in options:
        return False
    try:
        return flag(options.pop(name))
    except ValueError:
        raise MeasureError(f"measure {text!r}: {name} must be 1 or 0") from None


def _cutoff_depth(text: str, cutoff: str) -> int:
    try:
        depth = int(cutoff)
    except ValueError:
        raise MeasureError(f"measure {text!r}: the cut-off must be an integer") from None
    if not 1 <= depth <= INT64_MAX:
        raise MeasureError(f"measure {text!r}: the cut-off must be an integer from 1 to "
                           f"{INT64_MAX}")
    return depth


def _keyword_request(text: str, family: str, options: dict[str, str],
                     cutoff: str | None) -> MeasureRequest:
    spec = get_family(family).params
    assert isinstance(spec, Keywords)
    depth = None if cutoff is None else _cutoff_depth(text, cutoff)
    if "cutoff" in options:
        raise MeasureError(f"measure {text!r}: give the cut-off as @k")
    if depth is not None and spec.takes_cutoff:
        options = {**options, "cutoff": str(depth)}
        depth = None
    return MeasureRequest(family, spec.from_items(options, family), cutoff=depth,
                          requested=text)


def _trec_route_request(text: str, name: str, options: dict[str, str],
                        cutoff: str | None) -> MeasureRequest:
    plain, with_cutoff = IR_NAMES[name]
    if options:
        raise MeasureError(f"measure {text!r}: unknown parameter(s) {sorted(options)}")
    if cutoff is None:
        if plain is None:
            raise MeasureError(f"measure {text!r} needs a cut-off, e.g. {name}@10")
        request = MeasureRequest(plain, requested=text)
    elif with_cutoff is not None:
        spec = get_family(with_cutoff).params
        try:
            params = spec.parse(cutoff, with_cutoff)
        except MeasureError as error:  # named as written (AP@0), not as the trec family
            raise MeasureError(str(error).replace(f"measure {with_cutoff!r}",
                                                  f"measure {text!r}", 1)) from None
        request = MeasureRequest(with_cutoff, params, requested=text)
    else:
        depth = _cutoff_depth(text, cutoff)
        request = MeasureRequest(plain, cutoff=depth, requested=text)  # type: ignore[arg-type]
    return request


def _parse_ir_params(text: str, params: str | None) -> dict[str, str]:
    return split_items(params or "", text)


def is_measure_name(name: str) -> bool:
    """Whether ``name`` names measures of trec_eval or of the catalogue (never a diversity
    measure's: the two sets of names do not meet), without importing the diversity
    measures."""
    try:
        parse_measures([name])
    except (MeasureError, ParameterError):
        return False
    return True


def is_trec_request(request: MeasureRequest) -> bool:
    """True when the request was spelled the trec_eval way (its output keeps trec names)."""
    if isinstance(get_family(request.family).params, Keywords):
        return False
    head = request.requested.split(".")[0]
    trec_family = head in REGISTRY and not isinstance(REGISTRY[head].params, Keywords)
    return trec_family or head in NICKNAMES or _trec_output_name(request.requested) is not None


__all__ = ["ALIASES", "IR_KEYWORD_FAMILIES", "IR_NAMES", "NTCIR_NAMES", "is_measure_name",
           "is_trec_request", "parse_measure", "parse_measures", "parse_relevance_level"]
