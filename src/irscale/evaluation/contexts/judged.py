"""Judged rankings: trec_eval's and the catalogue's measures (the default context)."""

from __future__ import annotations

from collections.abc import Mapping

from ..context import Context, Output, register
from ..options import TREC_EVAL_DEFAULTS

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation


#: The table of a paper (``--format latex``): the runs × measures table of the summaries,
#: best values in bold, its tests against ``--baseline RUN`` and the means' intervals.
LATEX = Output(
    name="latex", baseline="the run the table tests against",
    options=("test", "correction", "alpha"),
    unbaselined="{options} applies to the tests against --baseline RUN",
    refused=("per_query", "no_summary"),
    refusal="--format latex prints the summary table: -q/--per-query and -n/--no-summary do "
            "not apply", intervals=True)

class Judged(Context):
    """Judged rankings: every option of trec_eval's, the label sets, the Z file, the cache
    and the run names; the latex table's baseline and tests, the means' intervals, the
    bounds under the unjudged documents and the batches of run files. It claims every
    call (:data:`~irscale.evaluation.context.DEFAULT`: asked last)."""

    name = "judged"
    what = "trec_eval's and the catalogue's measures"
    why = "the intents are read by diversity measures only: I-rec@10, D#-nDCG@10, P+Q ..."
    reads = frozenset({*TREC_EVAL_DEFAULTS, "labels", "allow_empty", "zscores", "names",
                       "baseline", "test", "correction", "alpha", "interval", "bounds",
                       "batches"})
    averaging = "trec_eval"
    cacheable = True
    outputs = (LATEX,)
    #: trec_eval's measures of TREC files, from the files to the text in the engine,
    #: without numpy (:meth:`~irscale.evaluation.context.Context.text`).
    text_by = "irscale.evaluation.trec_text:trec_eval_text"
    #: With ``--names``, the files and its rule (:class:`~irscale.io.naming.NamedFiles`):
    #: read where they are evaluated, by the engine where it judges them (the names the
    #: only difference from runs named by their files), by the Python readers otherwise
    #: (:meth:`~irscale.evaluation.context.Context.read_runs`).
    named_runs_by = "irscale.io.naming:named_files"

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """Every call."""
        return True

    def run(self, held: list[Any], measures: Any, **options: Any) -> Evaluation:
        """:func:`~irscale.evaluation.judged.run_judged`, loaded when it runs: choosing a
        context (``irscale eval`` on TREC files, printed by the engine) loads no numpy."""
        from ..judged import run_judged

        return run_judged(held, measures, **options)


JUDGED = register(Judged())
