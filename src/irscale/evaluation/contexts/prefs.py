"""Preference judgments (trec_eval ``-R prefs`` and ``-R qrels_prefs``): the preference
measures (``all_prefs``, ``prefs_simp`` ..., :mod:`irscale.evaluation.prefs`)."""

from __future__ import annotations

from collections.abc import Mapping

from ...core.options import MAX_DOCS, integer_option, is_flag
from ...errors import ParameterError
from ..context import Context, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation

#: The forms of preference judgments (``relevance_format`` other than ``qrels``).
FORMS = ("prefs", "qrels_prefs")


class Prefs(Context):
    """Preference judgments, as trec_eval's ``-R prefs`` and ``-R qrels_prefs`` read them."""

    name = "prefs"
    what = "preference judgments"
    why = ("their measures read max_docs (-M) and complete (-c) only, as trec_eval's prefs "
           "measures do, and are printed without a baseline or batches")
    reads = frozenset({"relevance_format", "max_docs", "complete", "allow_empty"})
    averaging = "trec_eval"
    formats = ("trec", "csv", "json", "markdown")

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """``relevance_format`` ``prefs`` or ``qrels_prefs`` (another value than these,
        ``qrels`` and ``qrels_jg`` is a :class:`~irscale.errors.ParameterError`)."""
        form = options.get("relevance_format", "qrels")
        if form not in ("qrels", "qrels_jg", *FORMS):
            raise ParameterError(f"relevance_format (-R) must be qrels, qrels_jg, prefs or "
                                 f"qrels_prefs, got {form!r}")
        return form in FORMS

    def run(self, held: list[Any], measures: Any, *, relevance_format: str,
            max_docs: int | None = None, complete: bool = False,
            allow_empty: bool = False) -> Evaluation:
        """:func:`~irscale.evaluation.prefs.evaluate_prefs` of ``held``
        (``[prefs, runs]``)."""
        if max_docs is not None:
            integer_option(max_docs, MAX_DOCS, low=1)
        if not is_flag(complete):
            raise ParameterError(f"complete (-c) must be True or False, got {complete!r}")
        from ..prefs import evaluate_prefs

        prefs, runs = take(held)
        return evaluate_prefs(prefs, runs, measures,
                              form=relevance_format,  # type: ignore[arg-type]
                              max_docs=max_docs, complete=complete, allow_empty=allow_empty)


PREFS = register(Prefs())
