"""Intents: ndeval's and NTCIREVAL's diversity measures over diversity qrels
(:mod:`irscale.evaluation.diversity`), summarised as ndeval summarises them."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...measures.names import is_measure_name
from ..context import Context, measure_names, register, take

if TYPE_CHECKING:  # pragma: no cover
    from ...measures.results import Evaluation


def _claims(qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
    """Diversity qrels (:class:`~irscale.io.diversity.DiversityQrels`), or only diversity
    measures named (``ndeval``, ``alpha-nDCG@20`` ...). Qrels can be diversity qrels only
    once their module is loaded, and a name of trec_eval's or of the catalogue is never a
    diversity one: neither loads the diversity modules (part of a small evaluation's
    start-up)."""
    names = measure_names(measures)
    loaded = sys.modules.get("irscale.io.diversity")
    if (loaded is None or not isinstance(qrels, loaded.DiversityQrels)) and (
            not names or is_measure_name(names[0])):
        return False
    from ...io.diversity import DiversityQrels
    from ...measures.diversity import is_diversity_name

    flags = [is_diversity_name(n) for n in names]
    return isinstance(qrels, DiversityQrels) or (bool(flags) and all(flags))


def _run(held: list[Any], measures: Any, *, labels: Mapping[str, Any] | None = None,
         **options: Any) -> Evaluation:
    """:func:`~irscale.evaluation.diversity.evaluate_diversity` of ``held``
    (``[qrels, runs]``); diversity qrels with the official measures: ndeval's."""
    from ...io.diversity import DiversityQrels
    from ..diversity import evaluate_diversity

    qrels, runs = take(held)
    names = measure_names(measures)
    if isinstance(qrels, DiversityQrels) and names == ["official"]:
        names = ["ndeval"]
    return evaluate_diversity(qrels, runs, names, label_sets=labels or None, **options)


INTENTS = register(Context(
    name="intents", what="diversity measures",
    why="ndeval ranks by the rank column, or by score with 'ndeval(traditional=1)', counts "
        "every judgment ≥ 1 as relevant and prints its own table (--format ndeval, with "
        "its -baseline run)",
    reads=frozenset({"complete", "max_docs", "intent_probabilities", "intent_types",
                     "labels", "allow_empty", "baseline", "topic_alphas"}),
    averaging="ndeval", cacheable=False, claims=_claims, run=_run,
    formats=("ndeval", "trec", "csv")))
