"""The contexts a measure needs: what it is computed from (the keys of the one catalogue),
the mechanism that declares them.

A measure family is registered under one context (:data:`CONTEXTS`); the one name parser
(:mod:`irscale.measures.names`) reads a name in the context of the evaluation that asks for
it, so that a name may stand for different families in two contexts (``U`` of a ranking
and ``U`` of a session; ``S`` of nuggets). Each context is declared once, beside its
families, by :func:`declare_context` (:mod:`irscale.measures.contexts`, one module each,
imported in the order the catalogue lists them). This module imports nothing heavy.
"""

from __future__ import annotations

from .records import record


@record
class ContextInfo:
    """What a context holds, the word naming its measures in messages, and examples."""

    what: str
    noun: str
    examples: tuple[str, ...]
    evaluated_by: str
    #: What a cut-off @k counts, and what a measure without one reads whole.
    unit: str = "documents"
    whole: str = "ranking"


#: Every declared context, in the order the catalogue lists them (the order declared).
CONTEXTS: dict[str, ContextInfo] = {}


def declare_context(name: str, info: ContextInfo) -> ContextInfo:
    """Declare the context ``name`` of the catalogue (a name declared twice is a
    :class:`ValueError`): its families are then registered under it, ``irscale measures
    --context`` lists them and the name parser's messages read its words."""
    if name in CONTEXTS:
        raise ValueError(f"measure context {name!r} declared twice")
    CONTEXTS[name] = info
    return info


def undeclare_context(name: str) -> None:
    """Remove the context declared as ``name`` (a context declared for a while)."""
    del CONTEXTS[name]


__all__ = ["CONTEXTS", "ContextInfo", "declare_context", "undeclare_context"]
