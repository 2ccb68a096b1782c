"""Pyramids: the pyramid scores (``pyramid``, ``pyramid_modified``,
:mod:`irscale.evaluation.pyramids`) of peer summaries' SCUs (in place of runs) against each
topic's pyramid of SCUs (in place of qrels), averaged over the topics."""

from __future__ import annotations

from ..context import Context, catalogue_claim, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


def _run(held: list[Any], measures: Any, *, allow_empty: bool = False) -> Evaluation:
    """:func:`~irscale.evaluation.pyramids.evaluate_pyramid` of ``held`` (``[pyramid,
    peers]``)."""
    from ..pyramids import evaluate_pyramid

    pyramid, peers = take(held)
    return evaluate_pyramid(pyramid, peers, measure_names(measures), allow_empty=allow_empty)


PYRAMIDS = register(Context(
    name="pyramids", what="pyramid scores",
    why="they read the SCUs peers express against each topic's pyramid of SCUs",
    reads=frozenset({"allow_empty"}), averaging="mean", cacheable=False,
    claims=catalogue_claim("pyramids"), run=_run, command="irscale text pyramid"))
