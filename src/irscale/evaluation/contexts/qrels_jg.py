"""Multi-judge qrels (trec_eval ``-R qrels_jg``): the measures averaged over judgment
groups (``map_avgjg``, ``P_avgjg``, ``Rprec_mult_avgjg``, :mod:`irscale.evaluation.qrels_jg`)."""

from __future__ import annotations

from collections.abc import Mapping

from ..context import Context, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


class QrelsJg(Context):
    """Multi-judge qrels, as trec_eval's ``-R qrels_jg`` reads them."""

    name = "qrels_jg"
    what = "multi-judge qrels (-R qrels_jg)"
    why = ("their measures read max_docs (-M), complete (-c), relevance_level (-l) and "
           "judged_only (-J) only, as trec_eval's measures of qrels_jg do, and are printed "
           "without a baseline or batches")
    reads = frozenset({"relevance_format", "max_docs", "complete", "relevance_level",
                       "judged_only", "allow_empty"})
    averaging = "trec_eval"
    formats = ("trec", "csv", "json", "markdown")

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """``relevance_format`` ``qrels_jg``."""
        return options.get("relevance_format", "qrels") == "qrels_jg"

    def run(self, held: list[Any], measures: Any, *, relevance_format: str,
            **options: Any) -> Evaluation:
        """:func:`~irscale.evaluation.qrels_jg.evaluate_qrels_jg` of ``held``
        (``[qrels_jg, runs]``)."""
        from ..qrels_jg import evaluate_qrels_jg

        judged, runs = take(held)
        return evaluate_qrels_jg(judged, runs, measures, **options)


QRELS_JG = register(QrelsJg())
