"""Texts: ROUGE and BLEU (:mod:`irscale.evaluation.rouge`, :mod:`irscale.evaluation.bleu`) of
candidate texts (``topic<TAB>run<TAB>text``, in place of runs) against reference texts (in
place of qrels), averaged over the topics with references. ROUGE and BLEU are asked in
calls of their own."""

from __future__ import annotations

from ...errors import MeasureError
from ..context import CatalogueContext, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


class Texts(CatalogueContext):
    """Texts: candidate texts against reference texts."""

    name = "texts"
    what = "ROUGE and BLEU"
    why = ("they read candidate texts against reference texts; ROUGE's tokens are set by "
           "irscale.text.evaluate_rouge (stem=, stopwords=, multi=)")
    reads = frozenset({"allow_empty"})
    averaging = "mean"
    command = "irscale text rouge|bleu"

    def run(self, held: list[Any], measures: Any, *, allow_empty: bool = False
            ) -> Evaluation:
        """:func:`~irscale.evaluation.rouge.evaluate_rouge` or
        :func:`~irscale.evaluation.bleu.evaluate_bleu` of ``held`` (``[references,
        candidates]``), as the measures say."""
        from ..bleu import evaluate_bleu
        from ..rouge import evaluate_rouge

        references, candidates = take(held)
        names = measure_names(measures)
        bleu = [name.startswith("BLEU") for name in names]
        if any(bleu) and not all(bleu):
            raise MeasureError(f"BLEU cannot be mixed with ROUGE measures "
                               f"({names[bleu.index(False)]!r}): evaluate them in calls of "
                               "their own")
        runner = evaluate_bleu if all(bleu) else evaluate_rouge
        return runner(references, candidates, names, allow_empty=allow_empty)


TEXTS = register(Texts())
