"""Outputs that are not one ranked list: multi-query sessions
(:mod:`irscale.text.sessions`), texts against references (:mod:`irscale.text.rouge`,
:mod:`irscale.text.bleu`), summaries by their content units (:mod:`irscale.text.pyramid`)
and outputs judged by nuggets / iUnits (:mod:`irscale.text.nuggets`, matched by hand or
automatically: :mod:`irscale.text.pourpre`; or judged nugget by nugget as the TREC RAG
track does: :mod:`irscale.text.assignments`) and cited answers by the support of their
citations (:mod:`irscale.text.citations`).

The kernels live here; the runners of files (``evaluate_*``, re-exported here) are
:mod:`irscale.evaluation`'s. They return the same :class:`~irscale.evaluation.Evaluation` as
:func:`irscale.evaluate`, so their per-topic values become a
:class:`~irscale.core.scorematrix.ScoreMatrix` (``.to_matrix()``) for the statistics and
the meta-evaluation.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`): ``irscale text
bleu`` loads the BLEU module, not the session measures and scipy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the submodule that defines it.
_EXPORTS = {
    "SESSION_MEASURES": ".sessions",
    "corpus_bleu": ".bleu",
    "evaluate_assignments": "..evaluation.assignments",
    "evaluate_bleu": "..evaluation.bleu",
    "evaluate_citations": "..evaluation.citations",
    "evaluate_corpus_bleu": "..evaluation.bleu",
    "evaluate_nuggets": "..evaluation.nuggets",
    "evaluate_pyramid": "..evaluation.pyramids",
    "evaluate_rouge": "..evaluation.rouge",
    "evaluate_sessions": "..evaluation.sessions",
    "pourpre_matches": ".pourpre",
    "rouge": ".rouge",
    "sentence_bleu": ".bleu",
}

__all__ = ["SESSION_MEASURES", "corpus_bleu", "evaluate_assignments", "evaluate_bleu",
    "evaluate_citations", "evaluate_corpus_bleu", "evaluate_nuggets", "evaluate_pyramid",
    "evaluate_rouge", "evaluate_sessions", "pourpre_matches", "rouge", "sentence_bleu"]

__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, shadowed={"rouge"})

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.assignments import evaluate_assignments
    from ..evaluation.bleu import evaluate_bleu, evaluate_corpus_bleu
    from ..evaluation.citations import evaluate_citations
    from ..evaluation.nuggets import evaluate_nuggets
    from ..evaluation.pyramids import evaluate_pyramid
    from ..evaluation.rouge import evaluate_rouge
    from ..evaluation.sessions import evaluate_sessions
    from .bleu import corpus_bleu, sentence_bleu
    from .pourpre import pourpre_matches
    from .rouge import rouge
    from .sessions import SESSION_MEASURES
