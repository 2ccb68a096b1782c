"""What the engine is called with: the evaluation-wide settings of the measures
(:class:`EvalContext`) and one call of its measure dispatch (:class:`EngineCall`).

A module of its own, importing no declaration of the catalogue, so that the plan of
trec_eval's measures read from the manifest (:mod:`irscale.measures.trec_plain`) makes the
same values as the catalogue's (:mod:`irscale.measures.base` re-exports both).
"""

from __future__ import annotations

from ..core.options import NUM_DOCS_IN_COLL, integer_option
from ..core.records import record

#: The output index of a column without engine output (``runid``: the run's name).
NO_OUTPUT = -1


@record
class EvalContext:
    """Evaluation-wide settings that some measures depend on.

    ``compat`` is the trec_eval version profile (9 = 9.0.8, the default; 10 = 10.0).
    ``num_docs_in_coll`` is trec_eval's ``-N`` (an integer from 0 to 2⁶³ − 1, checked
    here); ``complete`` is ``-c``.
    """

    compat: int = 9
    num_docs_in_coll: int = 0
    complete: bool = False

    def __post_init__(self) -> None:
        integer_option(self.num_docs_in_coll, NUM_DOCS_IN_COLL, low=0)


@record
class EngineCall:
    """One call of the engine's measure dispatch (rust ``measures::compute``, by the family's
    line of ``measures::FAMILIES``)."""

    family: str
    ints: tuple[int, ...]
    floats: tuple[float, ...]
    gains: tuple[tuple[int, float], ...]
    #: The family sorts gain tables
    #: (:func:`~irscale.measures.native.warn_unreplayable_sort` applies to its gain map).
    ideal: bool


__all__ = ["NO_OUTPUT", "EngineCall", "EvalContext"]
