"""The declared evaluation contexts (:class:`~irscale.evaluation.context.Context`), one
module each; importing this package declares them, in the order they are asked
(:func:`~irscale.evaluation.context.choose`). Each module is small and loads its runner
only when it runs, so that choosing a context loads no other context's modules."""

from ..context import CONTEXTS, Context
from . import (  # noqa: F401  (the order they are asked)
    citations,
    fairness,
    intents,
    judged,
    nuggets,
    prefs,
    pyramids,
    qrels_jg,
    sessions,
    texts,
)


def declared() -> tuple[Context, ...]:
    """The declared contexts, these and any declared since, in the order they are asked:
    where the command line applies what they declare (their output formats, their qrels
    forms)."""
    return tuple(CONTEXTS.values())
