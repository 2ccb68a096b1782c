"""trec_eval's seven options, declared once: their names and defaults, read by every runner
of judged rankings (:func:`irscale.evaluate`, :func:`irscale.evaluate_many`,
:func:`~irscale.evaluation.setup.evaluation_setup`, the text of
:func:`~irscale.evaluation.trec_text.trec_eval_text`) and by the judged rankings' context
(:mod:`irscale.evaluation.contexts.judged`). ``tests/test_evaluation_contexts.py`` checks
every signature that takes them against this declaration. Loads nothing numerical.

The options are trec_eval 9.0.8's (``trec_eval.c``): ``-l`` relevance level, ``-M``
documents per topic, ``-J`` judged documents only, ``-c`` every qrels topic averaged,
``-N`` documents in the collection; ``compat`` the trec_eval whose behaviour is reproduced
and ``ties`` the order of equal scores (:data:`~irscale.core.options.TIE_POLICIES`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL


@dataclass(frozen=True)
class TrecEvalOptions:
    """trec_eval's options with their defaults (meanings: :func:`irscale.evaluate`)."""

    relevance_level: int = DEFAULT_RELEVANCE_LEVEL
    max_docs: int | None = None
    judged_only: bool = False
    complete: bool = False
    num_docs_in_coll: int = 0
    compat: Literal[9, 10] = 9
    ties: TiePolicy = "trec_eval"


#: The defaults, as the signatures of the runners read them (``relevance_level: int =
#: TREC_EVAL.relevance_level``): mypy, IDEs and the documentation see an ordinary keyword
#: with its type and default, and the default is written once, here.
TREC_EVAL = TrecEvalOptions()
#: Each option's name → its default, in trec_eval's order.
TREC_EVAL_DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(TrecEvalOptions)}
