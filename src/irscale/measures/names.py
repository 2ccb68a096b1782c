"""The one measure-name parser, for every context: trec_eval names and ir_measures-style
names.

One grammar reads every name, whatever the context of its family (:func:`split_name`):
``Name``, ``Name(key=value,...)``, ``Name@k`` or ``Name(key=value,...)@k``, the name made
of letters, digits and ``_ + # * -``. In judged rankings (:func:`parse_measures`), accepted
spellings (each yields one or more :class:`MeasureRequest`):

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
  removed; Sakai 2014, §2.2) and ``conditional=1`` (conditional relevance: each group of
  the label set ``conditional`` relevant once, at the rank of its last member; Sakai 2014,
  §2.3; :mod:`irscale.core.conditional`). A cut-off on a measure that has no native
  cut-off (``RR@10``) evaluates the ranking truncated to its first k documents; a keyword
  family that declares ``cutoff`` receives k as a parameter;
* NTCIREVAL's output names with the prefix ``ntcir:`` (``ntcir:Q-measure``,
  ``ntcir:nDCG@0010``, ``ntcir:MSnDCG@10``, ``ntcir:nERR@10``, ``ntcir:P-plus`` ...), each
  standing for the irscale measure with NTCIREVAL's definition and defaults
  (:data:`NTCIR_NAMES`; docs/measures.md);
* ranx's names (``precision@10``, ``mrr``, ``hits@10`` ...) for the irscale measures of ranx's
  values (:data:`RANX_NAMES`); forms no measure gives are refused (:data:`RANX_UNLIKE`).

An unknown name suggests names (:mod:`irscale.measures.suggestions`): the one it equals but
for case and punctuation (``p_10``: ``P_10``), else close ones with the cut-off kept.

Every label shown to the user is the name as requested (``P@10`` stays ``P@10``); trec_eval
names print exactly as trec_eval prints them.

In the other contexts (per-intent judgments, sessions, texts, nuggets, preferences),
:func:`parse_name` reads a name against the declaration of its family in the catalogue
(:class:`~irscale.measures.base.Family`): its keyword parameters, its cut-off rule
(``alpha-nDCG@20`` needs one, ``NRBP`` takes none) and largest cut-off, its other names
(``S#``), a parameter written after its stem (``ROUGE-2``, ``ROUGE-SU4``) or, for
``IA(<measure>)``, a measure of judged rankings between the parentheses.
:func:`format_name` writes a name back, :func:`canonical_name` the shortest one of a family.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from ..core.options import INT64_MAX
from ..core.records import record, replace
from ..errors import MeasureError, ParameterError, shorten, shown
from .base import (
    CATALOGUE,
    REGISTRY,
    TREC_FAMILIES,
    Cutoffs,
    Family,
    Floats,
    MeasureRequest,
    get_family,
)
from .params import Keywords, flag, split_items
from .trec_table import NICKNAMES, NICKNAMES10

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import re
    from typing import Any

    from ..core.contexts import ContextInfo

#: The one grammar of measure names, compiled where first used (:func:`_pattern`: no ``re``
#: at ``eval``'s start-up): ``name``, ``Name(key=value,...)@k`` (a letter, then letters,
#: digits and ``_ + # * -``: ``alpha-nDCG``, ``D#-nDCG``, ``P+Q``; after the first ``@`` the
#: cut-off); ``family``; ``ir_cutoff``, a number (``P@10``, ``IPrec@0.5``); ``suffix``, a
#: value after a family's stem (``ROUGE-2``, ``ROUGE-S*``); ``ranx_dotted``: ``rbp.95``.
_PATTERNS = {
    "name": r"(?s)(?P<name>[A-Za-z][A-Za-z0-9_+#*-]*)(?:\((?P<params>[^()]*)\))?"
            r"(?:@(?P<cutoff>.*))?",
    "family": r"[A-Za-z0-9_+#*-]+",
    "ir_cutoff": r"[0-9.]+",
    "suffix": r"[0-9]+|\*",
    "ranx_dotted": r"(?P<name>rbp)\.(?P<cutoff>[0-9]+)",
}


def _pattern(name: str) -> re.Pattern[str]:
    """The pattern ``name`` of :data:`_PATTERNS`, compiled once (``re.compile`` keeps it)."""
    import re

    return re.compile(_PATTERNS[name])


@record
class NameParts:
    """The parts of a measure name: ``name``, the text between the parentheses
    (``params``, ``None`` without them) and the text after the ``@`` (``cutoff``)."""

    name: str
    params: str | None
    cutoff: str | None


def split_name(text: str) -> NameParts | None:
    """``Name(params)@cutoff`` → its :class:`NameParts`; ``None`` for a text of another form.

    >>> split_name("alpha-nDCG(alpha=0.5)@20")
    NameParts(name='alpha-nDCG', params='alpha=0.5', cutoff='20')
    >>> split_name("P.5,10") is None
    True
    """
    match = _pattern("name").fullmatch(text)
    return None if match is None else NameParts(match["name"], match["params"], match["cutoff"])

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
#: ``rel``, ``condensed`` and ``conditional``) select a keyword family: ``AP(norm=min)@10``,
#: ``nDCG(gain=exp)``.
IR_KEYWORD_FAMILIES: dict[str, str] = {"AP": "AP", "MAP": "AP", "nDCG": "nDCG", "NDCG": "nDCG"}

#: Other names of keyword families.
ALIASES: dict[str, str] = {"gRBP": "RBP", "Qmeasure": "Q", "RankEff": "bpref_N", "NCG": "NSR"}

#: Names that stand for a keyword family with parameters fixed (giving one of them is an
#: error): ``cRBP`` is uRBP on the trustworthiness labels (CLEF eHealth 2016–2017).
PRESETS: dict[str, tuple[str, dict[str, str]]] = {"cRBP": ("uRBP", {"aspect": "trust"})}

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
    "rpref_N": "rpref_N",
    "rpref_relative": "rpref_relative",
    "rpref_relative2": "rpref_relative2",
}
NTCIR_PREFIX = "ntcir:"

#: ranx's metric names (ranx 0.3.21: ``name``, ``name@k``) → the irscale name of ranx's value
#: from ranx's source (without a cut-off; with one, ``@k`` appended), or ``None``; checked by
#: tests/test_ranx_names.py, listed in docs/evaluation.md. trec_eval's names keep trec_eval's
#: meaning: bare ``recall`` is trec_eval's recall_5 ... (ranx's recall is ``SetR``).
RANX_NAMES: dict[str, tuple[str | None, str | None]] = {
    "precision": ("SetP", "P"),
    "recall": (None, "R"),
    "f1": ("SetF", "F"),
    "r-precision": ("Rprec", None),
    "mrr": ("RR", "RR"),
    "map": ("map", "AP"),
    "ndcg": ("ndcg", "nDCG"),
    "ndcg_burges": ("nDCG(gain=exp,discount=log2)", "nDCG(gain=exp,discount=log2)"),
    "dcg": ("dcg", "DCG(discount=log2)"),
    "dcg_burges": ("DCG(gain=exp,discount=log2)", "DCG(gain=exp,discount=log2)"),
    "bpref": ("Bpref", None),
    "hits": ("NumRelRet", "NumRelRet"),
    "hit_rate": (None, "Success"),
}

#: ranx's forms whose value no irscale measure gives (``name@``: with a cut-off ``{k}``;
#: ranx writes ``rbp.95`` or ``rbp@95`` for p = 0.95): why, and the nearest irscale name.
_IGNORED = ("ranx ignores the cut-off of {name} (its value is {bare}); irscale's {bare}@{k} "
            "evaluates the first {k} documents only: write {name}")
RANX_UNLIKE: dict[str, str] = {
    "r-precision@": _IGNORED, "bpref@": _IGNORED,
    "hit_rate": "ranx's hit_rate without a cut-off (1 when any retrieved document is "
                "relevant) has no irscale counterpart; with one it is Success@k: write "
                "hit_rate@10 or Success@10",
    "rbp@": "ranx's rbp with p = 0.{k} is (1 − p) Σ p^(i−1)·degree_i, the degrees not divided "
            "by the largest one; irscale's nearest is RBP(p=0.{k}), which divides by it "
            "(the two agree on binary judgments)",
}
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
    irscale.errors.MeasureError: unknown measure 'mapp' (did you mean map, GMAP, MP?)
    """
    requests: list[MeasureRequest] = []
    for label, name in labelled_names(names):
        found = parse_measure(name, compat=compat)
        requests.extend(found if label == name else
                        [replace(request, requested=label) for request in found])
    if not requests:
        raise MeasureError("no measure requested")
    return requests


#: What ``measures`` may be (the start of the error message for anything else).
MEASURES_EXPECTED = 'measures must be measure names such as "map" or ["P@10", "ndcg"]'


def measure_names(names: object, *, split: bool = True,
                  expected: str = MEASURES_EXPECTED) -> list[str]:
    """The names of ``names``: a string (names separated by blanks; one name when not
    ``split``) or an iterable of strings and ir_measures' measure objects (their irscale
    names: :func:`labelled_names`), at least one; anything else (None, a number, bytes,
    ``[]``, ``[None]``) is a :class:`MeasureError` naming what was given and starting with
    ``expected``, not a ``TypeError`` from deep inside.

    >>> measure_names("map P@10"), measure_names("ROUGE-1", split=False)
    (['map', 'P@10'], ['ROUGE-1'])
    """
    return [name for _, name in labelled_names(names, split=split, expected=expected)]


def labelled_names(names: object, *, split: bool = True,
                   expected: str = MEASURES_EXPECTED) -> list[tuple[str, str]]:
    """``(label, name)`` of every measure of ``names`` (:func:`measure_names`): a string is
    its own label; an ir_measures measure object (``ir_measures.AP@10``) is labelled as
    ir_measures writes it (``str``) and named as irscale reads it
    (:func:`irscale.measures.ir_measures_names.irscale_name`: a
    :class:`MeasureError` for a measure irscale has no exact counterpart of)."""
    if isinstance(names, str):
        return [(name, name) for name in (names.split() if split else [names])]
    if not isinstance(names, (list, tuple)):  # (names alone load no ir_measures_names)
        from .ir_measures_names import is_ir_measure

        if is_ir_measure(names):
            names = [names]
    items = None
    if not isinstance(names, (bytes, bytearray, memoryview)):
        try:
            items = list(iter(names))  # type: ignore[call-overload]
        except TypeError:
            items = None
    if not items:
        raise MeasureError(f"{expected}, got {shorten(repr(names))}")
    labelled = []
    for item in items:
        if isinstance(item, str):
            labelled.append((item, item))
            continue
        from .ir_measures_names import irscale_name, is_ir_measure

        if not is_ir_measure(item):
            raise MeasureError(f"{expected}, got {shorten(repr(names))} "
                               f"({shorten(repr(item))} is not a string)")
        labelled.append((str(item), irscale_name(item)))
    return labelled


def parse_measure(name: str, *, compat: int = 9) -> list[MeasureRequest]:
    """Requests for one measure name (module documentation); an unknown one suggests names."""
    text = name.strip()
    if not text:
        raise MeasureError("empty measure name")
    read = partial(known_measure, compat=compat)
    try:
        found: list[MeasureRequest] | MeasureError | None = read(text)
    except MeasureError as error:
        found = error
    if isinstance(found, list):
        return found
    from .suggestions import refuse_name

    refuse_name(text, found, read, split_name(text) or NameParts(text, None, None),
                [*IR_NAMES, *RANX_NAMES, *REGISTRY, *ALIASES, *PRESETS, *NICKNAMES])


def known_measure(text: str, *, compat: int = 9) -> list[MeasureRequest] | None:
    """Requests for the name ``text`` (stripped, not empty), ``None`` for an unknown name;
    :class:`MeasureError` for a bad parameter or cut-off, or a :data:`RANX_UNLIKE` form."""
    nicknames = NICKNAMES10 if compat == 10 else NICKNAMES
    if text in nicknames:
        return [MeasureRequest(family, requested=text) for family in nicknames[text]]
    if text.startswith(NTCIR_PREFIX):
        return [_ntcir_request(text)]
    if text in IR_NAMES and IR_NAMES[text][0] is not None:
        return [_ir_request(text, text, None, None)]
    dotted = text.startswith("rbp.") and _pattern("ranx_dotted").fullmatch(text)
    if dotted:  # rbp.95: ranx's, not rbp.p=.95
        return _ranx_request(text, dotted["name"], dotted["cutoff"])
    if (trec := _trec_request(text)) is not None:
        return [trec]
    family, dot, params = text.partition(".")  # a family of ours, bare or family.k=v
    if _pattern("family").fullmatch(family) and family in REGISTRY:
        read = get_family(family).params.parse(params, family) if dot else None
        return [MeasureRequest(family, read, requested=text)]
    return _split_request(text)


def _split_request(text: str) -> list[MeasureRequest] | None:
    """``name(params)@cutoff`` (:func:`split_name`) of trec_eval's, a keyword family or ranx's."""
    parts = split_name(text)
    if parts and (parts.name in IR_NAMES or _keyword_family(parts.name) is not None):
        _check_cutoff_text(text, parts)
        return [_ir_request(text, parts.name, parts.params, parts.cutoff)]
    if parts and parts.params is None and (
            parts.name in RANX_NAMES or f"{parts.name}@" in RANX_UNLIKE):
        return _ranx_request(text, parts.name, parts.cutoff)
    return None


def _ranx_request(text: str, name: str, cutoff: str | None) -> list[MeasureRequest]:
    """ranx's ``name`` or ``name@cutoff`` → the requests of :data:`RANX_NAMES`' measure,
    labelled ``text``; refused with the reason where no irscale measure gives ranx's value."""
    bare, with_cutoff = RANX_NAMES.get(name, (None, None))
    target = bare if cutoff is None else with_cutoff
    if cutoff is not None:
        _check_cutoff_text(text, NameParts(name, None, cutoff))
    if target is None:
        if cutoff is not None:
            _cutoff_depth(text, cutoff)
        unlike = RANX_UNLIKE[name if cutoff is None else f"{name}@"]
        raise MeasureError(f"measure {text!r}: {unlike.format(k=cutoff, name=name, bare=bare)}")
    spelled = target if cutoff is None else f"{target}@{cutoff}"
    try:
        found = parse_measure(spelled)
    except MeasureError as error:  # named as written (precision@0), not as irscale's P@0
        raise MeasureError(str(error).replace(repr(spelled), repr(text))) from None
    return [replace(request, requested=text) for request in found]


def _check_cutoff_text(text: str, parts: NameParts) -> None:
    """A known name with a cut-off that is not a number (``AP@-1``, ``P@x``, ``nDCG@``) is
    an invalid cut-off, not an unknown measure (whose suggestions would name another)."""
    if parts.cutoff is not None and not _pattern("ir_cutoff").fullmatch(parts.cutoff):
        what = ("a recall level from 0 to 1" if parts.name == "IPrec"
                else f"an integer from 1 to {INT64_MAX}")
        raise MeasureError(f"measure {text!r}: the cut-off after @ must be {what}, got "
                           f"{parts.cutoff!r}")


def _trec_request(text: str) -> MeasureRequest | None:
    """The request of a name of trec_eval's families (``map``, ``P.5,10``, ``P_10``), read
    among trec_eval's families alone (loading no other: no family of ours is spelt so, see
    tests/test_names_lazy.py); ``None`` for any other name."""
    if text in TREC_FAMILIES:
        return MeasureRequest(text, requested=text)
    family, dot, params = text.partition(".")
    if dot and family in TREC_FAMILIES:
        spec = TREC_FAMILIES[family].params
        return MeasureRequest(family, spec.parse(params, family), requested=text)
    return _trec_output_name(text)


def _trec_output_name(text: str) -> MeasureRequest | None:
    """``P_10`` → P with cut-off 10 (any trec_eval family whose parameter is a list of
    numbers; the longest family name that reads the rest; no family of ours starts with the
    name of one of those followed by ``_``, nor takes such a list)."""
    for family_name in sorted(TREC_FAMILIES, key=len, reverse=True):
        prefix = family_name + "_"
        if not text.startswith(prefix):
            continue
        spec = TREC_FAMILIES[family_name].params
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
    family = ALIASES.get(name) or PRESETS.get(name, (name, {}))[0]
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
    conditional = _generic_flag(text, options, "conditional")
    keyword_family = IR_KEYWORD_FAMILIES.get(name) if name in IR_NAMES else _keyword_family(name)
    if name in PRESETS:
        options = _preset_options(text, name, options)
    if keyword_family is not None and (options or name not in IR_NAMES):
        request = _keyword_request(text, keyword_family, options, cutoff)
    else:
        request = _trec_route_request(text, name, options, cutoff)
    if condensed or conditional:
        request = replace(request, condensed=condensed, conditional=conditional)
    if level is not None:
        request = replace(request, relevance_level=parse_relevance_level(text, level))
        if request.family == "num_ret":
            # ir_measures: NumRet(rel=k) counts the retrieved documents of degree ≥ k
            request = replace(request, family="num_rel_ret")
    _check_generic(text, request, level is not None, condensed, conditional)
    return request


def _preset_options(text: str, name: str, options: dict[str, str]) -> dict[str, str]:
    """The parameters of a name of :data:`PRESETS` with those it fixes added (an error when
    one of them is given: the name would then be another measure's)."""
    family, fixed = PRESETS[name]
    for key, value in fixed.items():
        if key in options:
            raise MeasureError(f"measure {text!r}: {name} is {family}({key}={value}); give "
                               f"{key} to {family} instead")
    return {**options, **fixed}


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


def _check_generic(text: str, request: MeasureRequest, level: bool, condensed: bool,
                   conditional: bool) -> None:
    """Refuse ``rel`` / ``condensed`` / ``conditional`` where they would change nothing (the
    family declares it, :attr:`~irscale.measures.base.Family.ignores`): a parameter is
    accepted only when it changes the result as documented."""
    ignored = dict(get_family(request.family).ignores)
    for name, given in (("rel", level), ("condensed", condensed),
                        ("conditional", conditional)):
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
    if cutoff is not None and get_family(family).cutoff == "none":
        raise MeasureError(f"measure {family!r} takes no cut-off ({family} uses the whole "
                           f"ranking), got {text!r}")
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


# ------------------------------------------------------------------ other contexts
@record
class NamedMeasure:
    """A measure of a context other than judged rankings, as its name gives it: the family,
    its parameters (defaults filled in), its cut-off (``None``: none given) and the name as
    written (``label``)."""

    family: str
    params: Any
    cutoff: int | None
    label: str


def parse_name(text: str, context: str) -> NamedMeasure:
    """The measure of ``context`` (:data:`~irscale.core.contexts.CONTEXTS`) that ``text``
    names, read with the one grammar ``Name(key=value,...)@k`` and checked against its
    family's declaration: its parameters (:class:`~irscale.measures.params.Keywords`), the
    value written after its stem (``ROUGE-2``, ``ROUGE-SU4``), its other names (``S#``),
    its cut-off rule and largest cut-off. ``♯`` may be written for ``#``. A family whose
    parameter is a measure (``IA(nDCG@10)``) reads the whole text between its parentheses.

    Raises :class:`MeasureError` naming the text: an unknown name (with the context's
    measures and close names), a bad parameter, a missing, refused or bad cut-off.

    >>> m = parse_name("nsDCG(norm=jarvelin)@10", "sessions")
    >>> m.family, m.params["norm"], m.params["bq"], m.cutoff
    ('nsDCG', 'jarvelin', 4.0, 10)
    >>> parse_name("ROUGE-SU4(stat=p)", "texts").params["skip"]
    4.0
    >>> parse_name("alpha-nDCG", "intents")
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: measure 'alpha-nDCG' needs a cut-off: alpha-nDCG@k
    """
    label = text.strip()
    spelled = label.replace("\u266f", "#")
    families = CATALOGUE[context]
    for family in families.values():  # IA(<measure>): a name between the parentheses
        inner = getattr(family.params, "inner", None)
        if inner is not None and (spelled == family.name or (spelled.startswith(
                family.name + "(") and spelled.endswith(")"))):
            return NamedMeasure(family.name, inner(spelled[len(family.name) + 1:-1], label),
                                None, label)
    parts = split_name(spelled)
    found = find_family(families, parts.name, context, label) if parts else None
    if parts is None or found is None:
        from .suggestions import unknown_in

        raise MeasureError(unknown_in(context, label, parts.name if parts else label))
    family, items = found
    items.update(_items(parts.params, label, items))
    cutoff = _family_cutoff(family, parts, label, context)
    if not isinstance(family.params, Keywords):  # IA(...) read whole, above
        raise MeasureError(f"measure {label!r}: write {family.name}(...)")
    return NamedMeasure(family.name, family.params.from_items(items, label), cutoff, label)


def find_family(families: dict[str, Family], name: str, context: str, label: str
                 ) -> tuple[Family, dict[str, str]] | None:
    """The family ``name`` stands for, with the parameter its suffix gives (``ROUGE-2``:
    ``{"n": "2"}``); ``None`` when none does."""
    for family in families.values():
        spelt_bare = family.suffix is None or family.suffix[0] == family.name
        if spelt_bare and (name == family.name or name in family.aliases):
            return family, {}
    for family in families.values():
        if family.suffix is None:
            continue
        stem, keyword = family.suffix
        value = name[len(stem):]
        if name.startswith(stem) and _pattern("suffix").fullmatch(value):
            assert isinstance(family.params, Keywords)
            try:
                family.params.keywords[keyword].parse(value)
            except ValueError as error:
                from .suggestions import unknown_in

                raise MeasureError(unknown_in(context, label, name, f"{stem}<{keyword}>: "
                                              f"{keyword} {error}, got {value!r}")) from None
            return family, {keyword: value}
    return None


def _items(params: str | None, label: str, given: dict[str, str]) -> dict[str, str]:
    """The ``key=value`` items between the parentheses (none given twice, the suffix's
    parameter included)."""
    items = split_items(params or "", label)
    for key in given:
        if key in items:
            raise MeasureError(f"measure {label!r}: {key} is given twice (in the name and "
                               "between the parentheses)")
    return items


def _family_cutoff(family: Family, parts: NameParts, label: str, context: str) -> int | None:
    """The cut-off of a name, checked against the family's rule and largest cut-off."""
    if parts.cutoff is None:
        if family.cutoff == "required":
            raise MeasureError(f"measure {family.name!r} needs a cut-off: {family.name}@k")
        return None
    if family.cutoff == "none":
        raise MeasureError(f"measure {family.name!r} takes no cut-off ({family.name} uses "
                           f"the whole {_context_info(context).whole}), got {label!r}")
    depth = parts.cutoff
    if not (depth.isascii() and depth.isdigit()) or not 1 <= int(depth) <= family.max_cutoff:
        raise MeasureError(f"measure {label!r}: the cut-off @k is a whole number from 1 to "
                           f"{family.max_cutoff} ({_context_info(context).unit}), got "
                           f"{shown(depth)}")
    return int(depth)


def _context_info(context: str) -> ContextInfo:
    """The declaration of ``context`` (:mod:`irscale.measures.contexts`, loaded on need)."""
    from .contexts import CONTEXTS

    return CONTEXTS[context]


def format_name(family: str, params: Any = None, cutoff: int | None = None, *,
                context: str = "rankings") -> str:
    """The name of ``family`` of ``context`` with the parameters ``params`` (those given, or
    every one that differs from its default) and ``cutoff``, as :func:`parse_name` and
    :func:`parse_measures` read it back: ``RBP(p=0.5)``, ``nsDCG(norm=jarvelin)@10``,
    ``ROUGE-2(stat=r)``.

    >>> format_name("ROUGE-N", parse_name("ROUGE-2(stat=r)", "texts").params,
    ...             context="texts")
    'ROUGE-2(stat=r)'
    """
    spec = CATALOGUE[context][family]
    name, items, keywords = spec.name, [], getattr(spec.params, "keywords", {})
    in_name = spec.suffix[1] if spec.suffix and spec.suffix[0] != spec.name else None
    for key, keyword in keywords.items():
        value = keyword.default if params is None else params[key]
        if key == in_name:  # ROUGE-2: the parameter is written after the stem
            name = spec.suffix[0] + spell_value(value)  # type: ignore[index]
        elif key == "cutoff" and value is not None:  # the family's own @k
            cutoff = value
        elif params is not None and (key in getattr(params, "given", ())
                                     or value != keyword.default):
            items.append(f"{key}={spell_value(value)}")
    text = f"{name}({','.join(items)})" if items else name
    return text if cutoff is None else f"{text}@{cutoff}"


def canonical_name(family: Family) -> str:
    """The shortest name that selects ``family`` in its context, its parameters at their
    defaults: ``P``, ``alpha-nDCG@10`` (a required cut-off: 10), ``ROUGE-1``,
    ``IA(nDCG@10)`` (the family's example measure), and for a keyword family whose bare
    name is a trec_eval one (``AP`` is map) the name with a parameter at its default,
    ``nDCG(gain=linear)``, ``AP(norm=R)@10``."""
    example = getattr(family.params, "example", None)
    if example is not None:
        return f"{family.name}({example})"
    cutoff = 10 if family.cutoff == "required" else None
    bare = format_name(family.name, None, cutoff, context=family.context)
    if family.context != "rankings" or not isinstance(family.params, Keywords):
        return bare
    candidates = [bare] + [f"{family.name}({key}={spell_value(kw.default)}){at}"
                           for at in ("", "@10")
                           for key, kw in family.params.keywords.items() if key != "cutoff"]
    for name in candidates:
        try:
            if parse_measure(name)[0].family == family.name:
                return name
        except MeasureError:
            continue
    raise MeasureError(f"no name selects measure family {family.name!r}")  # pragma: no cover


def spell_value(value: Any) -> str:
    """A parameter value as a name writes it, exactly: ``0.8``, ``inf``, ``none``, ``1``
    (true), ``1:3:7`` (a gain list), ``linear``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        if value == float("inf"):
            return "inf"
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    if isinstance(value, tuple):
        return ":".join(spell_value(v) for v in value)
    if getattr(value, "kind", None) == "list":  # a gain map: its text is exact
        return str(value)
    return str(value)


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
    if (head in TREC_FAMILIES or head in NICKNAMES
            or _trec_output_name(request.requested) is not None):
        return True
    if head in IR_NAMES or not _pattern("family").fullmatch(head):
        return False  # no family of ours is spelt so (tests/test_names_lazy.py)
    return head in REGISTRY and not isinstance(REGISTRY[head].params, Keywords)


__all__ = ["ALIASES", "IR_KEYWORD_FAMILIES", "IR_NAMES", "NTCIR_NAMES", "PRESETS", "NameParts",
           "NamedMeasure", "canonical_name", "format_name", "is_measure_name",
           "is_trec_request", "parse_measure", "parse_measures",
           "parse_name", "parse_relevance_level", "spell_value", "split_name"]
