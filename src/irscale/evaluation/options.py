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

import functools
from collections.abc import Callable, Mapping

from ..core.options import RankingOptions
from ..core.records import fields, record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import inspect
    from typing import Any, Literal, TypedDict, TypeVar

    from ..core.options import TiePolicy

    F = TypeVar("F", bound=Callable[..., Any])


#: The options that rank and judge the runs, declared with their defaults where the judging
#: reads them (:class:`~irscale.core.options.RankingOptions`, in ``core``).
_RANKING = RankingOptions()


@record
class TrecEvalOptions:
    """trec_eval's options with their defaults (meanings: :func:`irscale.evaluate`): those
    of the ranking and judging read from :class:`~irscale.core.options.RankingOptions`,
    ``-c`` and ``-N`` declared here."""

    relevance_level: int = _RANKING.relevance_level
    max_docs: int | None = _RANKING.max_docs
    judged_only: bool = _RANKING.judged_only
    complete: bool = False
    num_docs_in_coll: int = 0
    compat: Literal[9, 10] = _RANKING.compat  # type: ignore[assignment]
    ties: TiePolicy = _RANKING.ties


#: The defaults, as the signatures of the runners read them (``relevance_level: int =
#: TREC_EVAL.relevance_level``): mypy, IDEs and the documentation see an ordinary keyword
#: with its type and default, and the default is written once, here.
TREC_EVAL = TrecEvalOptions()
#: Each option's name → its default, in trec_eval's order.
TREC_EVAL_DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(TrecEvalOptions)}


if TYPE_CHECKING:  # pragma: no cover
    class TrecEvalKeywords(TypedDict, total=False):
        """The seven options as a function's ``**trec`` takes them
        (``Unpack[TrecEvalKeywords]``: their types for mypy and IDEs; the defaults are
        :class:`TrecEvalOptions`')."""

        relevance_level: int
        max_docs: int | None
        judged_only: bool
        complete: bool
        num_docs_in_coll: int
        compat: Literal[9, 10]
        ties: TiePolicy


def option_types() -> dict[str, Any]:
    """The declared type of each option as an object (``Literal[9, 10]``, the tie policies'
    ``Literal``), resolved here: the annotations name types this module imports for type
    checkers only."""
    from typing import Annotated, Literal, get_type_hints

    from ..core.checked import Checked
    from ..core.options import TIE_POLICIES, compat_option

    hints = get_type_hints(TrecEvalOptions, localns={
        "Literal": Literal, "TiePolicy": Literal.__getitem__(TIE_POLICIES)})
    # the profile refused on entry as RankingOptions refuses it (compat_option's words)
    profiles = hints["compat"]
    hints["compat"] = Annotated[profiles, Checked(compat_option)]
    return hints


class TrecEvalSignature:
    """The signature of a function that takes trec_eval's options as ``**trec``
    (:func:`trec_eval_keywords`): the function's ``__wrapped__``, where
    :func:`inspect.signature` (``help()``, the API's edge) stops, as it has a
    ``__signature__``, which shows the seven options. The signature is built the first time
    it is asked for: building it needs :mod:`inspect` and :mod:`typing`, which a command
    line that only evaluates files never imports. The function stays a plain function,
    called as written (its arguments its own: a runner frees the runs it is handed).
    Other attributes are the function's (``inspect.unwrap(f).__code__``)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        """The function, as a descriptor: :func:`inspect.isroutine` (which :mod:`doctest`
        asks of the end of a function's ``__wrapped__`` chain) sees a routine."""
        return self.function.__get__(instance, owner)

    def __getattr__(self, name: str) -> Any:
        if name == "__wrapped__":  # the end of the chain
            raise AttributeError(name)
        return getattr(self.function, name)

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        """The function's own signature with the seven options as keyword-only parameters
        before its other keyword-only ones, with the declared types (as objects, which the
        API's edge checks arguments against whatever the function's module imports) and
        defaults (:class:`TrecEvalOptions`)."""
        import inspect

        signature = inspect.signature(self.function, follow_wrapped=False)
        kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        first = next((k for k, p in enumerate(kept) if p.kind is p.KEYWORD_ONLY), len(kept))
        types = option_types()  # objects: resolved in any function's module
        declared = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                      default=f.default, annotation=types[f.name])
                    for f in fields(TrecEvalOptions)]
        return signature.replace(parameters=[*kept[:first], *declared, *kept[first:]])


def trec_eval_keywords(function: F) -> F:
    """``function`` (which takes ``**trec``) with the seven options in its signature
    (:class:`TrecEvalSignature`, its ``__wrapped__``)."""
    function.__wrapped__ = TrecEvalSignature(function)  # type: ignore[attr-defined]
    return function


def trec_eval_options(trec: Mapping[str, Any]) -> TrecEvalOptions:
    """The options given as ``**trec`` over the declared defaults; a keyword that is none
    of them is Python's :class:`TypeError`, as for any function (the API's edge,
    :mod:`irscale.core.edge`, names it with the keywords the function takes)."""
    return TrecEvalOptions(**trec)
