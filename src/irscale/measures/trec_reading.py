"""The ``-m`` options as trec_eval reads them, where irscale's output stands for trec_eval's
(``irscale eval --format trec``, the default: docs/trec_eval_semantics.md, "A family requested
twice").

trec_eval (9.0.8, ``trec_eval.c`` and ``meas_init.c``) gives each of its families one set of
parameters: that of the first ``-m family.params`` naming the family; the later ones are not
read. A name without parameters (``-m P``, or a nickname such as ``all_trec`` holding P) only
marks the family for computing, with the first parameters given elsewhere or else its
defaults. So ``-m P.5 -m P.7`` prints P_5 alone, ``-m all_trec -m P.7`` prints P_7 and no
other P_k, and ``-m P.7 -m P`` prints P_7. irscale's other formats and :func:`irscale.evaluate`
compute every request as given (P_5 and P_7). The judgment-group families of ``-R qrels_jg``
(``P_avgjg`` ..., and their set ``qrels_jg``) are read so too.

:func:`trec_eval_reading` writes the names so read: the names irscale's evaluation then
computes as trec_eval prints them. Names trec_eval does not read (``P@10``, ``P_10``,
irscale's families) are kept as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from ..errors import MeasureError
from .trec_plain import plain_reading, plain_request, read_in_order


def trec_eval_reading(names: Sequence[str], *, compat: int = 9,
                      per_query: bool = False) -> list[str]:
    """``names`` (one measure name each, as ``-m`` gives them) as trec_eval reads them
    (module documentation): each family of trec_eval's table (``compat``'s) named once, where
    it is first named (by itself, with parameters or in a nickname), with the parameters of
    the first ``family.params`` naming it (the later ones' still checked: irscale refuses a
    malformed name wherever it stands). A nickname holding a family given parameters is
    replaced by its members, without those that print only per topic (relstring) unless
    ``per_query`` (``-q``: without it they print nothing, as in the nickname); a nickname
    holding none stays. The other names are kept where they stand; a name given twice is
    kept once.

    >>> trec_eval_reading(["P", "map", "P.7", "P.5"])
    ['P.7', 'map']
    >>> trec_eval_reading(["official", "P.7", "P@10"])[-3:]
    ['iprec_at_recall', 'P.7', 'P@10']

    Names all plain (:mod:`irscale.measures.trec_plain`) are read from the manifest's
    data, without the catalogue.
    """
    plain = plain_reading(names, compat, per_query)
    if plain is not None:
        return plain
    from .base import TREC_FAMILIES
    from .trec_table import (
        AVERAGED_JG,
        NICKNAMES,
        NICKNAMES10,
        QRELS_JG,
        TREC10_MEASURES,
        TREC_MEASURES,
    )

    # the judgment-group families (-R qrels_jg) are of trec_eval's table too
    table = (*(TREC10_MEASURES if compat == 10 else TREC_MEASURES), *AVERAGED_JG)
    nicknames = {**(NICKNAMES10 if compat == 10 else NICKNAMES), "qrels_jg": QRELS_JG}
    first = _first_named(names, table, compat)
    return read_in_order(names, table, nicknames, first, lambda member: (
        member in first or per_query or member in AVERAGED_JG
        or TREC_FAMILIES[member].aggregate != "none"))


def _first_named(names: Sequence[str], table: Sequence[str], compat: int
                 ) -> dict[str, str]:
    """Each family of ``table`` named with parameters in ``names``, with the first name
    that gives them; every such name's parameters are checked (one that is a list of
    measures, ``P.5,map``, refused by what it lists)."""
    from .base import TREC_FAMILIES
    from .names import known_measure
    from .trec_table import AVERAGED_JG

    first: dict[str, str] = {}
    for name in names:
        family, dot, params = name.partition(".")
        if dot and family in table:  # checked, if left out
            try:
                TREC_FAMILIES[AVERAGED_JG.get(family, family)].params.parse(params, family)
            except MeasureError:  # P.5,map: measures in one name
                from .suggestions import refuse_list

                refuse_list(name, partial(known_measure, compat=compat))
                raise
            first.setdefault(family, name)
    return first


def is_trec_eval_name(text: str) -> bool:
    """Whether ``text`` names trec_eval's measures the trec_eval way, read among trec_eval's
    families alone: a nickname (``official``, ``all_trec``, ``set``), a family with or
    without parameters (``map``, ``P.5,10``) or an output name (``P_10``); a bad parameter
    is no such name (its error is the full parser's). A plain name
    (:func:`~irscale.measures.trec_plain.plain_request`) is one without the catalogue."""
    if plain_request(text, 9) is not None:
        return True
    from .names import _trec_request
    from .trec_table import NICKNAMES, NICKNAMES10

    if text in NICKNAMES or text in NICKNAMES10:
        return True

    try:
        return _trec_request(text) is not None
    except MeasureError:
        return False


__all__ = ["is_trec_eval_name", "trec_eval_reading"]
