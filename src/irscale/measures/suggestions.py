"""The names suggested for an unknown measure name of judged rankings
(:func:`irscale.measures.names.parse_measure`), imported when a name is unknown or
refused, the refusal of a name of the measures of other judgments
(:func:`refuse_other_judgments`) and of measures joined by commas (:func:`refuse_list`).

A name is read as ``Name(params)@k``, or ``Name<sep>k`` with ``<sep>`` one of ``_ . -`` or
nothing (``P_10``, ``ndcg10``), and ``Name`` compared with every known name: the
ir_measures-style and ranx names, the catalogue's families, their other names and
trec_eval's nicknames. The names that ``Name`` equals but for case and punctuation
(``Ndcg`` and ``nDCG``, ``r_prec`` and ``Rprec``) are suggested alone, the one closest in
case first; failing them, the three closest (:func:`difflib.get_close_matches` on the names
without case and punctuation: ``nDGC`` → ``nDCG``). Each is written with the parameters and
cut-off as given, after the separator given where that reads, else after ``@`` or ``_``
(``p_10`` → ``P_10``, ``ndcg_cut@10`` → ``ndcg_cut_10``), else alone (after those that keep
them); a close name is looked for with the trailing number read as a cut-off first
(``ndgc_cut_10`` → ``ndcg_cut_10``). A suggestion is always a name that reads, and no two
suggestions name the same measure.
"""

from __future__ import annotations

import re

from ..core.records import replace
from ..errors import MeasureError, ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Iterable
    from typing import NoReturn, Protocol

    from .base import MeasureRequest

    Read = Callable[[str], list[MeasureRequest] | None]

    class Parts(Protocol):
        """A name's parts (:class:`irscale.measures.names.NameParts`)."""

        @property
        def name(self) -> str: ...
        @property
        def params(self) -> str | None: ...
        @property
        def cutoff(self) -> str | None: ...

#: A name ending in a number: its stem, the separator and the number (``P_10``).
_NUMBERED = re.compile(r"(?P<stem>.*[A-Za-z])(?P<sep>[_.-]?)(?P<number>[0-9][0-9.]*)")
#: How a cut-off may follow a name: ``@k``, then trec_eval's ``_k`` (its output names:
#: ``P_10``); ``.k`` only as given (``set_F.10`` is β² = 10, not a cut-off).
_SEPARATORS = ("@", "_")
#: Most names suggested.
_MOST = 3


def suggest(parts: Parts, known: Iterable[str], read: Read) -> list[str]:
    """Up to three of the ``known`` names, as ``read`` reads them (their requests, ``None``
    for an unknown name), for the unknown name of ``parts`` (module documentation).

    >>> from irscale.measures.names import NameParts, known_measure
    >>> suggest(NameParts("Ndcg", None, "10"), ["nDCG", "dcg"], known_measure)
    ['nDCG@10']
    >>> suggest(NameParts("p_10", None, None), ["P", "AP"], known_measure)
    ['P_10']
    """
    by_folded: dict[str, list[str]] = {}
    for name in dict.fromkeys(known):
        by_folded.setdefault(_folded(name), []).append(name)
    readings = _readings(parts)
    for exact in (True, False):  # the names meant but for case and punctuation come alone
        whole: list[str] = []  # written with what was given after the name
        alone: list[str] = []  # the name alone, dropping it
        measures: list[list[MeasureRequest]] = []
        for name, params, number, separator in readings if exact else readings[::-1]:
            for candidate in _candidates(name, by_folded, exact):
                found = _first_read(candidate, params, number, separator, read)
                if found is None or found[1] in measures:
                    continue
                measures.append(found[1])
                given = found[0] != candidate or params is number is None
                (whole if given else alone).append(found[0])
        if whole or alone:
            return [*whole, *alone][:_MOST]
    return []


def _candidates(name: str, by_folded: dict[str, list[str]], exact: bool) -> list[str]:
    """The known names equal to ``name`` but for case and punctuation (``exact``), or
    close to it, the closest in case first."""
    import difflib

    folded = _folded(name)
    close = by_folded.get(folded, []) if exact else [
        known for near in difflib.get_close_matches(folded, list(by_folded), n=_MOST)
        for known in by_folded[near]]
    return sorted(close, key=lambda known: -difflib.SequenceMatcher(None, known, name).ratio())


def _first_read(name: str, params: str | None, number: str | None, separator: str,
                read: Read) -> tuple[str, list[MeasureRequest]] | None:
    """The first spelling of ``name`` that reads (:func:`_spellings`) and its requests (their
    labels left out)."""
    for spelled in _spellings(name, params, number, separator):
        try:
            requests = read(spelled)
        except (MeasureError, ParameterError):
            continue
        if requests is not None:
            return spelled, [replace(request, requested="") for request in requests]
    return None


def _folded(name: str) -> str:
    """``name`` without case and punctuation: ``nDCG``, ``NDCG``, ``n-dcg`` → ``ndcg``."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _readings(parts: Parts) -> list[tuple[str, str | None, str | None, str]]:
    """The ways a name may be read: ``(name, params, number, separator)``, the whole name
    first, then its stem and trailing number (``P_10``: ``P``, ``10``, ``_``)."""
    readings = [(parts.name, parts.params, parts.cutoff, "@")]
    numbered = _NUMBERED.fullmatch(parts.name)
    if parts.cutoff is None and numbered is not None:
        readings.append((numbered["stem"], parts.params, numbered["number"],
                         numbered["sep"]))
    return readings


def _spellings(name: str, params: str | None, number: str | None,
               separator: str) -> list[str]:
    """``name`` written with the parameters and number given: after the separator given,
    then after each other one, then ``name`` alone."""
    head = name if params is None else f"{name}({params})"
    if number is None:
        return list(dict.fromkeys([head, name]))
    return list(dict.fromkeys([*(head + sep + number for sep in (separator, *_SEPARATORS)),
                               name]))


#: A comma outside parentheses: between a trec_eval family's parameters (``P.5,10``), or
#: between measures where a list was written in one name.
_OUTER_COMMA = re.compile(r",(?![^()]*\))")


def refuse_list(text: str, read: Read) -> None:
    """A :class:`MeasureError` saying to give each measure on its own when ``text``, not a
    measure, is measures separated by commas (``ndcg@10,P@10``), each read by ``read``. A
    comma list is not read as several measures: a comma also separates the parameters of
    one measure (trec_eval's ``P.5,10``, ``ndcg.0=0,1=1``, ``RBP(p=0.8,gain=binary)``), so
    one rule, one name per measure, keeps every comma's meaning independent of what
    follows it."""
    pieces = [piece.strip() for piece in _OUTER_COMMA.split(text)]
    if len(pieces) < 2:
        return
    for piece in pieces:
        try:
            if not piece or read(piece) is None:
                return
        except MeasureError:
            return
    raise MeasureError(
        f"measure {text!r} is a list of measures: give -m once per measure "
        f"({' '.join(f'-m {piece}' for piece in pieces)}; in Python a list, measures="
        f"{pieces!r}); a comma separates the parameters of one measure (P.5,10)")


def refuse_name(text: str, error: MeasureError | None, read: Read, parts: Parts,
                known: Iterable[str]) -> NoReturn:
    """The error of the measure name ``text`` (its ``parts``) that ``read`` refused
    (``error``) or does not know (``None``): measures joined by commas
    (:func:`refuse_list`), then ``error``, or else a name of other judgments
    (:func:`refuse_other_judgments`) or an unknown name, with the ``known`` names closest
    to it (:func:`suggest`)."""
    refuse_list(text, read)
    if error is not None:
        raise error
    refuse_other_judgments(text)
    close = suggest(parts, known, read)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise MeasureError(f"unknown measure {text!r}{hint}")


def refuse_other_judgments(text: str) -> None:
    """A :class:`MeasureError` for a name of the measures of other judgments than qrels,
    naming the ``-R`` form they need: preference judgments (the prefs families, the sets
    ``all_prefs`` and ``prefs``) and multi-judge qrels (``map_avgjg``, ``P_avgjg.5`` ...,
    the set ``qrels_jg``)."""
    from .base import CATALOGUE

    if text in CATALOGUE["prefs"] or text in ("all_prefs", "prefs"):
        raise MeasureError(f"measure {text!r} needs preference judgments: -R prefs or -R "
                           "qrels_prefs (relevance_format='prefs' or 'qrels_prefs')")
    if text.partition(".")[0] in CATALOGUE["qrels_jg"] or text == "qrels_jg":
        raise MeasureError(f"measure {text!r} needs multi-judge qrels: -R qrels_jg "
                           "(relevance_format='qrels_jg')")


def unknown_in(context: str, label: str, name: str, reason: str = "") -> str:
    """The message of a name that no family of the catalogue's ``context`` has (read by
    :func:`~irscale.measures.names.parse_name`), with the ``reason`` (or close names), the
    context's measures and examples (its words from :mod:`irscale.measures.contexts`)."""
    import difflib

    from .base import CATALOGUE
    from .contexts import CONTEXTS

    info = CONTEXTS[context]
    families = CATALOGUE[context].values()
    spellings = [f"{f.suffix[0]}<{f.suffix[1]}>" if f.suffix and f.suffix[0] != f.name
                 else f"{f.name}(<measure>)" if hasattr(f.params, "example") else f.name
                 for f in families]
    known = [n for f in families for n in (f.name, *f.aliases)]
    close = difflib.get_close_matches(name, known, n=3)
    hint = f" ({reason})" if reason else f" (did you mean {', '.join(close)}?)" if close \
        else ""
    examples = ", ".join(f"'{e}'" if "(" in e else e for e in info.examples)
    return (f"unknown {info.noun} measure {label!r}{hint}; {info.noun} measures: "
            f"{', '.join(spellings)}, e.g. {examples}")


__all__ = ["refuse_list", "refuse_name", "refuse_other_judgments", "suggest", "unknown_in"]
