"""Pyramids: the pyramid scores (``pyramid``, ``pyramid_modified``,
:mod:`irscale.evaluation.pyramids`) of peer summaries' SCUs (in place of runs) against each
topic's pyramid of SCUs (in place of qrels), averaged over the topics."""

from __future__ import annotations

from ..context import CatalogueContext, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


class Pyramids(CatalogueContext):
    """Pyramids: peers' SCUs against each topic's pyramid of SCUs."""

    name = "pyramids"
    what = "pyramid scores"
    why = "they read the SCUs peers express against each topic's pyramid of SCUs"
    reads = frozenset({"allow_empty"})
    averaging = "mean"
    command = "irscale text pyramid"

    def run(self, held: list[Any], measures: Any, *, allow_empty: bool = False
            ) -> Evaluation:
        """:func:`~irscale.evaluation.pyramids.evaluate_pyramid` of ``held`` (``[pyramid,
        peers]``)."""
        from ..pyramids import evaluate_pyramid

        pyramid, peers = take(held)
        return evaluate_pyramid(pyramid, peers, measure_names(measures),
                                allow_empty=allow_empty)


PYRAMIDS = register(Pyramids())
