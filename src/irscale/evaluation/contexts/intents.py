"""Intents: ndeval's and NTCIREVAL's diversity measures over diversity qrels
(:mod:`irscale.evaluation.diversity`), summarised as ndeval summarises them."""

from __future__ import annotations

import sys
from collections.abc import Mapping

from ..context import Context, Output, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...core import ScoreMatrix
    from ...measures.results import Evaluation
    from ..context import Evaluate


#: ndeval's table (``--format ndeval``): its ``-baseline`` run and ``-riskAlpha``, always
#: its ``amean`` row.
NDEVAL = Output(
    name="ndeval", baseline="ndeval's -baseline FILE, with diversity measures",
    options=("risk_alpha",),
    unbaselined="--risk-alpha applies to ndeval's risk-sensitive output (diversity measures, "
                "--format ndeval --baseline FILE); for URisk/TRisk of any measure see irscale "
                "compare --baseline --risk-alpha", at_once=True,
    refused=("no_summary",),
    refusal="-n does not apply to --format ndeval (ndeval always prints its amean row)")

class Intents(Context):
    """Intents: diversity qrels, ndeval's order and table."""

    name = "intents"
    what = "diversity measures"
    why = ("ndeval ranks by the rank column, or by score with 'ndeval(traditional=1)', "
           "counts every judgment ≥ 1 as relevant and prints its own table (--format "
           "ndeval, with its -baseline run)")
    reads = frozenset({"complete", "max_docs", "intent_probabilities", "intent_types",
                       "labels", "allow_empty", "baseline", "topic_alphas"})
    averaging = "ndeval"
    formats = ("ndeval", "trec", "csv")
    keep_rank = True
    baseline_run = True
    outputs = (NDEVAL,)
    #: The form of its qrels on the command line (``--qrels-format diversity``): ndeval's
    #: ``topic subtopic docno judgment``.
    qrels_format = "diversity"
    examples = ("ndeval", "alpha-nDCG@20", "ERR-IA@20")

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """Diversity qrels (:class:`~irscale.io.diversity.DiversityQrels`, or qrels the
        command line reads as diversity qrels: ``qrels_format`` :attr:`qrels_format`), or
        only diversity measures named (``ndeval``, ``alpha-nDCG@20`` ...). Qrels can be
        diversity qrels only once their module is loaded, and a name of trec_eval's or of
        the catalogue is never a diversity one: neither loads the diversity modules (part
        of a small evaluation's start-up)."""
        if options.get("qrels_format") == self.qrels_format:
            return True
        names = measure_names(measures)
        loaded = sys.modules.get("irscale.io.diversity")
        if (loaded is None or not isinstance(qrels, loaded.DiversityQrels)) and (
                not names or _is_measure_name(names[0])):
            return False
        from ...io.diversity import DiversityQrels
        from ...measures.diversity import is_diversity_name

        flags = [is_diversity_name(n) for n in names]
        return isinstance(qrels, DiversityQrels) or (bool(flags) and all(flags))

    def run(self, held: list[Any], measures: Any, *,
            labels: Mapping[str, Any] | None = None, **options: Any) -> Evaluation:
        """:func:`~irscale.evaluation.diversity.evaluate_diversity` of ``held``
        (``[qrels, runs]``); the official measures: ndeval's."""
        from ..diversity import evaluate_diversity

        qrels, runs = take(held)
        names = measure_names(measures)
        if names == ["official"]:
            names = ["ndeval"]
        return evaluate_diversity(qrels, runs, names, label_sets=labels or None, **options)

    def matrix(self, evaluate: Evaluate) -> ScoreMatrix:
        """The score matrix of the topics the qrels judge
        (:meth:`~irscale.measures.results.Evaluation.to_matrix`); ndeval's "score 0" note
        about the other topics is replaced by one warning per run naming them."""
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            evaluated = evaluate()
        for warning in caught:
            if "not in the diversity qrels" not in str(warning.message):
                warnings.warn(warning.message, stacklevel=3)
        for run, unjudged in evaluated.unjudged_topics.items():
            if unjudged:
                warnings.warn(f"run {run!r}: {len(unjudged)} topic(s) with results but no "
                              f"diversity judgments are not analysed: "
                              f"{', '.join(unjudged[:10])}"
                              f"{' ...' if len(unjudged) > 10 else ''}", stacklevel=3)
        return evaluated.to_matrix(allow_missing=True)

    def format_options(self, fmt: str) -> dict[str, bool]:
        """``--format ndeval``: the topic ids as ndeval reads them (``ndeval_ids``)."""
        return {"ndeval_ids": fmt == "ndeval"}


INTENTS = register(Intents())


def _is_measure_name(name: str) -> bool:
    """:func:`irscale.measures.names.is_measure_name` (imported when a name is given)."""
    from ...measures.names import is_measure_name

    return is_measure_name(name)
