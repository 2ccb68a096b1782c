"""Multi-query sessions: the session measures (``sDCG@10``, ``nsDCG(norm=jarvelin)@10``,
``sRBP`` ..., :mod:`irscale.evaluation.sessions`) of session runs against qrels, a session
judged with the qrels of the topic of the same id, averaged over sessions."""

from __future__ import annotations

from ..context import CatalogueContext, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


class Sessions(CatalogueContext):
    """Sessions: session runs, each session judged with its topic's qrels."""

    name = "sessions"
    what = "session measures"
    why = ("they read session runs, judged with the qrels of each session's topic; the "
           "session map and click logs are irscale.evaluate_sessions' (topics=, clicks=)")
    reads = frozenset({"relevance_level", "labels", "allow_empty"})
    averaging = "mean"
    command = "irscale session"

    def run(self, held: list[Any], measures: Any, **options: Any) -> Evaluation:
        """:func:`~irscale.evaluation.sessions.evaluate_sessions` of ``held``
        (``[qrels, session runs]``)."""
        from ..sessions import evaluate_sessions

        qrels, runs = take(held)
        return evaluate_sessions(qrels, runs, measure_names(measures), **options)


SESSIONS = register(Sessions())
