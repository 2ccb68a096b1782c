"""ir_measures' measure objects (``ir_measures.AP@10``, ``nDCG(dcg='exp-log2')@10``,
``P(rel=2)@5``) as irscale's measure names, wherever measure names are accepted.

ir_measures (MacAvaney, Macdonald and Ounis, ECIR 2022) names a measure by an object: its
``NAME`` and the parameters it was given (``params``; ``str()`` leaves out those equal to
their defaults). :func:`irscale_name` writes each measure of :data:`SAME_AS` in irscale's
grammar (:mod:`irscale.measures.names`), and only where irscale's measure is ir_measures'
measure, value for value (``tests/test_neighbours.py`` compares them with
``ir_measures.iter_calc``):

=====================================  ==================================================
ir_measures                            irscale
=====================================  ==================================================
``AP``, ``P``, ``R``, ``RR``,          the same name: trec_eval's ``map``, ``map_cut``,
``Rprec``, ``Bpref``, ``infAP``,       ``P``, ``recall``, ``recip_rank`` (``RR@k``: the
``NumRet``, ``NumRel``, ``NumQ``,      ranking cut at k), ``Rprec``, ``bpref``,
``SetP``, ``SetR``, ``SetF``,          ``infAP``, ``num_ret`` (``NumRet(rel=k)``:
``Success``, ``IPrec``, ``Judged``     ``num_rel_ret`` at level k), ``num_rel``,
                                       ``num_q``, ``set_P``, ``set_recall``, ``set_F``,
                                       ``success``, ``iprec_at_recall``, ``Judged@k``
``nDCG``, ``nDCG@k``                   trec_eval's ``ndcg`` / ``ndcg_cut`` (``dcg='log2'``)
``nDCG(dcg='exp-log2')@k``             ``nDCG(gain=exp,discount=log2)@k`` (gdeval's:
                                       gains 2^v − 1, discount log2(r + 1))
=====================================  ==================================================

``rel=k`` is irscale's ``rel`` (the smallest relevant degree) and ``judged_only=True`` its
``condensed=1`` (unjudged documents removed first). Any other measure or parameter
(``gains=``, ``SetP(relative=True)``, ``SetF(beta=...)``, ``ERR``, ``RBP``, the cwl_eval and
diversity measures ...) has no exact counterpart: :class:`~irscale.errors.MeasureError`
names it and lists what is read. ir_measures is not imported: its objects are known by
their module, ``NAME`` and ``params``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..errors import MeasureError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

#: ir_measures' ``NAME`` → the parameters irscale reads exactly for it (module
#: documentation); ``cutoff`` is written ``@k``, ``recall`` (``IPrec``) too.
SAME_AS: Mapping[str, frozenset[str]] = {
    "AP": frozenset({"cutoff", "rel", "judged_only"}),
    "P": frozenset({"cutoff", "rel", "judged_only"}),
    "R": frozenset({"cutoff", "rel", "judged_only"}),
    "RR": frozenset({"cutoff", "rel", "judged_only"}),
    "nDCG": frozenset({"cutoff", "dcg", "judged_only"}),
    "Rprec": frozenset({"rel", "judged_only"}),
    "Bpref": frozenset({"rel"}),
    "infAP": frozenset({"rel"}),
    "NumRet": frozenset({"rel"}),
    "NumRel": frozenset({"rel"}),
    "NumQ": frozenset(),
    "SetP": frozenset({"rel", "judged_only", "relative"}),
    "SetR": frozenset({"rel"}),
    "SetF": frozenset({"rel", "judged_only", "beta"}),
    "Success": frozenset({"cutoff", "rel", "judged_only"}),
    "IPrec": frozenset({"recall", "rel", "judged_only"}),
    "Judged": frozenset({"cutoff"}),
}

#: Parameters whose default is the only value irscale reads exactly (a value other than
#: the default is refused, naming it).
_DEFAULT_ONLY: Mapping[str, Any] = {"relative": False, "beta": 1.0}

#: ir_measures' ``dcg`` of ``nDCG`` → irscale's keyword parameters.
_DCG: Mapping[str, str] = {"log2": "", "exp-log2": "gain=exp,discount=log2"}


def is_ir_measure(obj: object) -> bool:
    """An ir_measures measure object (a ``Measure`` of ``ir_measures.measures``)."""
    return (type(obj).__module__.split(".")[0] == "ir_measures" and hasattr(obj, "NAME")
            and isinstance(getattr(obj, "params", None), Mapping))


def irscale_name(measure: Any) -> str:
    """The irscale name of ir_measures' ``measure`` (module documentation).

    >>> import ir_measures
    >>> irscale_name(ir_measures.nDCG(dcg="exp-log2") @ 10)
    'nDCG(gain=exp,discount=log2)@10'
    >>> irscale_name(ir_measures.P(rel=2) @ 5), irscale_name(ir_measures.MAP)
    ('P(rel=2)@5', 'AP')
    >>> irscale_name(ir_measures.ERR @ 10)
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: ir_measures' ERR@10 has no exact counterpart in irscale ...
    """
    name, params = str(measure.NAME), dict(measure.params)
    shown = str(measure)
    known = SAME_AS.get(name)
    if known is None:
        raise MeasureError(f"ir_measures' {shown} has no exact counterpart in irscale "
                           f"(read: {', '.join(SAME_AS)}; or give irscale's name)")
    unknown = sorted(set(params) - known)
    odd = [key for key, default in _DEFAULT_ONLY.items()
           if key in params and params.pop(key) != default]
    dcg = params.pop("dcg", "log2")
    if unknown or odd or dcg not in _DCG:
        given = unknown + odd + ([] if dcg in _DCG else ["dcg"])
        raise MeasureError(f"ir_measures' {shown}: irscale has no exact counterpart for "
                           f"{', '.join(f'{k}={measure.params[k]!r}' for k in given)} "
                           "(give irscale's name)")
    cutoff = params.pop("cutoff", None)
    cutoff = params.pop("recall", cutoff)
    items = [_DCG[dcg]] if _DCG[dcg] else []
    for key, spell in _SPELL.items():
        if key in params:
            text = spell(params[key])
            if text:
                items.append(f"{key if key != 'judged_only' else 'condensed'}={text}")
    inside = f"({','.join(items)})" if items else ""
    return f"{name}{inside}" + ("" if cutoff is None else f"@{cutoff}")


#: How irscale spells each generic parameter's value (``""``: the default, left out).
_SPELL: Mapping[str, Callable[[Any], str]] = {
    "rel": lambda value: str(value),
    "judged_only": lambda value: "1" if value else "",
}


__all__ = ["SAME_AS", "irscale_name", "is_ir_measure"]
