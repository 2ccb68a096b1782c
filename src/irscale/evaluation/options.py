"""trec_eval's seven options, declared once: their names and defaults, read by every runner
of judged rankings (:func:`irscale.evaluate`, :func:`irscale.evaluate_many`,
:func:`~irscale.evaluation.setup.evaluation_setup`, the text of
:func:`~irscale.evaluation.trec_text.trec_eval_text`) and by the judged rankings' context
(:mod:`irscale.evaluation.contexts.judged`). Those functions take them as ``**trec``
(typed by :class:`TrecEvalKeywords`) and declare them in their signatures from here
(:func:`trec_eval_keywords`: ``help()`` and :func:`inspect.signature` show the seven
keywords with their declared defaults); :func:`trec_eval_options` reads them.
``tests/test_evaluation_contexts.py`` checks every signature that takes them against this
declaration. Loads nothing numerical.

The options are trec_eval 9.0.8's (``trec_eval.c``): ``-l`` relevance level, ``-M``
documents per topic, ``-J`` judged documents only, ``-c`` every qrels topic averaged,
``-N`` documents in the collection; ``compat`` the trec_eval whose behaviour is reproduced
and ``ties`` the order of equal scores (:data:`~irscale.core.options.TIE_POLICIES`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, TypedDict, TypeVar, cast, get_type_hints

from ..core.options import RankingOptions, TiePolicy

F = TypeVar("F", bound=Callable[..., Any])


#: The options that rank and judge the runs, declared with their defaults where the judging
#: reads them (:class:`~irscale.core.options.RankingOptions`, in ``core``).
_RANKING = RankingOptions()


@dataclass(frozen=True)
class TrecEvalOptions:
    """trec_eval's options with their defaults (meanings: :func:`irscale.evaluate`): those
    of the ranking and judging read from :class:`~irscale.core.options.RankingOptions`,
    ``-c`` and ``-N`` declared here."""

    relevance_level: int = _RANKING.relevance_level
    max_docs: int | None = _RANKING.max_docs
    judged_only: bool = _RANKING.judged_only
    complete: bool = False
    num_docs_in_coll: int = 0
    compat: Literal[9, 10] = cast(Literal[9, 10], _RANKING.compat)
    ties: TiePolicy = _RANKING.ties


#: The defaults, as the signatures of the runners read them (``relevance_level: int =
#: TREC_EVAL.relevance_level``): mypy, IDEs and the documentation see an ordinary keyword
#: with its type and default, and the default is written once, here.
TREC_EVAL = TrecEvalOptions()
#: Each option's name → its default, in trec_eval's order.
TREC_EVAL_DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(TrecEvalOptions)}


class TrecEvalKeywords(TypedDict, total=False):
    """The seven options as a function's ``**trec`` takes them (``Unpack[TrecEvalKeywords]``:
    their types for mypy and IDEs; the defaults are :class:`TrecEvalOptions`')."""

    relevance_level: int
    max_docs: int | None
    judged_only: bool
    complete: bool
    num_docs_in_coll: int
    compat: Literal[9, 10]
    ties: TiePolicy


def trec_eval_keywords(function: F) -> F:
    """``function`` (which takes ``**trec``) with the seven options in its signature, as
    keyword-only parameters before its other keyword-only ones, with the declared types
    (as objects, which the API's edge checks arguments against whatever the function's
    module imports) and defaults (:class:`TrecEvalOptions`)."""
    signature = inspect.signature(function)
    kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    first = next((k for k, p in enumerate(kept) if p.kind is p.KEYWORD_ONLY), len(kept))
    types = get_type_hints(TrecEvalOptions)  # objects: resolved in any function's module
    declared = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                                  annotation=types[f.name]) for f in fields(TrecEvalOptions)]
    setattr(function, "__signature__",  # noqa: B010  (no attribute of a function's type)
            signature.replace(parameters=[*kept[:first], *declared, *kept[first:]]))
    return function


def trec_eval_options(trec: Mapping[str, Any]) -> TrecEvalOptions:
    """The options given as ``**trec`` over the declared defaults; a keyword that is none
    of them is Python's :class:`TypeError`, as for any function (the API's edge,
    :mod:`irscale.core.edge`, names it with the keywords the function takes)."""
    return TrecEvalOptions(**trec)
