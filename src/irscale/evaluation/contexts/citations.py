"""Citations: the measures of answers' citations (``citation_recall``,
``citation_precision``, ``ais``, ``support_precision``, ``support_recall``,
:mod:`irscale.evaluation.citations`), averaged over the topics. They read support
judgments, an input :func:`irscale.evaluate` does not take: it names the runner that does."""

from __future__ import annotations

from ...errors import ParameterError
from ..context import CatalogueContext, register

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, NoReturn


class Citations(CatalogueContext):
    """Citations: evaluated by a command of their own (:attr:`command`)."""

    name = "citations"
    what = "citation measures"
    why = "they read the support judgments of the answers' sentences and citations"
    reads = frozenset({"allow_empty"})
    averaging = "mean"
    command = "irscale text citations"

    def run(self, held: list[Any], measures: Any, **options: Any) -> NoReturn:
        """Refused: support judgments are no input of :func:`irscale.evaluate`."""
        held.clear()
        raise ParameterError("citation measures read support judgments of the answers' "
                             "sentences, not qrels and runs: irscale.text."
                             "evaluate_citations(judgments, measures)")


CITATIONS = register(Citations())
