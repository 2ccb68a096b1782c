"""The native engine's measure kernels, called on a :class:`JudgedRankings`.

trec_eval's measure families are computed by the engine (``rust/src/measures/``, one
module per family as trec_eval's ``m_*.c``); the catalogue's registrations in
:mod:`irscale.measures.trec` hand their batch here. The batch's arrays are read in place
(no copy where they are already contiguous int64), the values come back as numpy arrays
(float64 or int64) or, for text, lists of strings. numpy is imported by the functions that
compute: the output names of a family (:func:`output_names`) are known without it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .. import _engine

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

    from .judged import JudgedRankings


def _int64(values: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.ascontiguousarray(values, dtype=np.int64)


def output_names(family: str, *, ints: Iterable[int] = (), floats: Iterable[float] = (),
                 gains: Iterable[tuple[int, float]] = (), compat: int = 9,
                 num_docs_in_coll: int = 0) -> list[str]:
    """The output names :func:`trec_family` gives for ``family`` with these parameters, in
    the order of its values, known without judging (the engine names them)."""
    return _engine.trec_output_names(
        family, [int(i) for i in ints], [float(f) for f in floats],
        [(int(level), float(gain)) for level, gain in gains], int(compat),
        int(num_docs_in_coll))


#: The kinds of parameters of the engine's trec_eval families: cut-offs, numbers, gain pairs.
PARAMETER_KINDS = ("ints", "floats", "gains")


@cache
def trec_family_kinds() -> dict[str, frozenset[str]]:
    """The kinds of parameters (of :data:`PARAMETER_KINDS`) each of the engine's trec_eval
    families takes, by family name: the kinds of its line of the engine's table, declared
    beside its kernel in ``rust/src/measures/<module>.rs`` (``_engine.trec_families``)."""
    return {name: frozenset(kind for kind, (_, most) in zip(PARAMETER_KINDS, bounds,
                                                            strict=True) if most != 0)
            for name, *bounds, _ in _engine.trec_families()}


@cache
def tie_aware_families() -> frozenset[str]:
    """The engine's trec_eval families that have a tie-aware value (``--ties expected``,
    ``rust/src/tie_aware.rs``): those computed in expectation over the orders of the tied
    documents, and those whose value does not depend on the order."""
    computed, order_free = _engine.tie_aware_families()
    return frozenset((*computed, *order_free))


def no_tie_aware_value(measure: str, own: Iterable[str], ir_names: Iterable[str]) -> str:
    """Why ``measure`` is refused with ``--ties expected``, naming the tie-aware measures:
    the engine's trec_eval families (:func:`tie_aware_families`, in its order), irscale's
    own ``own`` (its families declared tie-aware in the catalogue, with their other names)
    and ir_measures' names ``ir_names`` of the engine's."""
    computed, order_free = _engine.tie_aware_families()
    return (f"measure {measure} has no tie-aware value (--ties expected); the tie-aware "
            f"measures are trec_eval's {', '.join(computed)}, irscale's {', '.join(own)}, "
            f"ir_measures' {', '.join(ir_names)} "
            f"and the measures that do not depend on the order ({', '.join(order_free)}), "
            "without a cut-off @k of their own")


def trec_family(family: str, jr: JudgedRankings, *, ints: Iterable[int] = (),
                floats: Iterable[float] = (), gains: Iterable[tuple[int, float]] = (),
                compat: int = 9, num_docs_in_coll: int = 0) -> dict[str, object]:
    """The outputs of the trec_eval family ``family`` on ``jr``, by output name: its
    parameters as the catalogue parsed them (cut-offs in ``ints``, numbers in ``floats``,
    a gain map in ``gains``: ``(level, gain)`` pairs in the order given, which trec_eval's
    gain tables depend on) and the evaluation's ``compat`` profile and ``-N``; with
    ``jr.tie_groups``, their tie-aware values (``rust/src/tie_aware.rs``)."""
    outputs = _engine.trec_measure(
        family, [int(i) for i in ints], [float(f) for f in floats],
        [(int(level), float(gain)) for level, gain in gains],
        _int64(jr.rel), _int64(jr.offsets), _int64(jr.rel_levels),
        _int64(jr.column_degrees), int(jr.relevance_level), int(compat),
        int(num_docs_in_coll), None if jr.tie_groups is None else _int64(jr.tie_groups))
    return dict(outputs)


def expected_err(jr: JudgedRankings, satisfied: np.ndarray, depth: int | None) -> np.ndarray:
    """Per ranking: the expectation of ERR over the orders of the tie groups of ``jr``,
    with ``satisfied`` the stopping probability ``R`` of every document of ``jr`` and
    ``w(r) = 1/r`` up to rank ``depth`` (all ranks: ``None``), 0 beyond; in closed form, by
    the engine (``rust/src/tie_aware/err.rs``, whose documentation gives the formula)."""
    import numpy as np

    if jr.tie_groups is None:
        raise ValueError("the expected ERR needs the tie groups of the rankings")
    return _engine.expected_err(np.ascontiguousarray(satisfied, dtype=np.float64),
                                _int64(jr.tie_groups), _int64(jr.offsets), depth)


def gain_sort_unreplayable(jr: JudgedRankings, gains: Iterable[tuple[int, float]]
                           ) -> list[tuple[int, float, float]]:
    """``(num_levels, least gain, greatest gain)`` for each number of levels of ``jr``'s
    topics whose trec_eval gain table (under the gain map ``gains``, pairs in the order
    given) the engine cannot sort as trec_eval does: its comparator ``(int)(g1 - g2)`` is
    no order on the table and the table has more than 4,096 entries; such a table is sorted
    by true gain."""
    return _engine.gain_sort_unreplayable(
        [(int(level), float(gain)) for level, gain in gains], _int64(jr.rel_levels),
        _int64(jr.column_degrees))
