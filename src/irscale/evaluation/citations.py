"""The runner of support judgments of cited answers (ALCE's citation recall and
precision, the AIS rate, the TREC 2024 RAG track's support scores): judgments
(:mod:`irscale.io.citations`) + measure names → an
:class:`~irscale.measures.results.Evaluation`, by the kernels of
:mod:`irscale.text.citations`, whose module documentation states the measures. Declared
as the ``citations`` context of the catalogue (:mod:`.contexts.citations`). With a human
sample of the answers or of their sentences (``human_sample``): the scores of the model's
judgments corrected on it, with prediction-powered intervals
(:mod:`irscale.evaluation.citations_ppi`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..io.assignments import read_inputs
from ..io.citations import Citations, combine_citations, read_citations
from ..measures.names import measure_names, parse_name
from ..measures.results import Evaluation
from ..text.citations import CITATIONS_EXPECTED, DEFAULT_MEASURES, citation_values
from ..text.params import CITATIONS
from .outputs import record_evaluation

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames
    from .assignments_ppi import AssignmentEstimates


def read_judgments(judgments: Any) -> Citations:
    """The support judgments of every input of ``judgments`` (see
    :func:`evaluate_citations`) as one :class:`Citations`: the per-sentence labels that
    :func:`irscale.text.citations.sentence_scores` reads before averaging."""
    return _read(judgments)[0]


def _read(judgments: Any) -> tuple[Citations, list[tuple[str, int]]]:
    """:func:`read_judgments`, and the file and line of every record."""
    return read_inputs(judgments, Citations, read_citations, combine_citations)


@CITATIONS
def evaluate_citations(judgments: Any,
                       measures: MeasureNames = DEFAULT_MEASURES, *,
                       max_citations: int | None = None,
                       allow_empty: bool = False, human_sample: Any = None,
                       design: str = "answers", alpha: float = 0.05,
                       tuning: str = "ppi++") -> Evaluation | AssignmentEstimates:
    """Score cited answers by the support judgments of their sentences
    (:mod:`irscale.text.citations`: ALCE's citation recall and precision, the AIS rate,
    the TREC 2024 RAG track's weighted precision and recall of support).

    Parameters
    ----------
    judgments : path, bytes, list of record dicts or Citations, or a list of them
        JSON lines ``{"qid", "run_id", "sentences": [{"support", "citations": [{"docid",
        "support", "without"}]}]}`` (:func:`~irscale.io.citations.read_citations`; a
        record without a run id belongs to the run its file's name names).
    measures : str or list of str
        ``citation_recall``, ``citation_precision``, ``ais``, ``support_precision``,
        ``support_recall`` (default: all five).
    max_citations : int, optional
        Count the first ``max_citations`` citations of every sentence only (ALCE and the
        RAG track judge three); default: every citation a record gives.
    allow_empty : bool
        As for the other runners (every run has records, so it never applies).
    human_sample : path, bytes, list of record dicts or Citations, or a list of them
        Human support judgments (the same JSON lines) of a sample of the answers (or of
        the sentences) of ``judgments``, which are then a model's: the
        scores are estimated by prediction-powered inference, the model's corrected on
        the sample (:mod:`irscale.evaluation.citations_ppi`).
    design : {"answers", "uniform", "stratified"}
        How the human sample was drawn: a uniform sample of the answers, every sentence
        relabelled; a uniform sample of the sentences; a uniform sample within each of the
        model's support labels of a sentence. Under a sentence design a human record lists
        every sentence of its answer and labels the sampled ones only
        (:mod:`irscale.evaluation.citations_ppi`); ``inclusion`` is refused (a record
        states no inclusion probability of a sentence).
    alpha, tuning
        As :func:`~irscale.evaluation.assignments.evaluate_assignments`' (the intervals'
        level ``1 − alpha``; the weight λ of the model's labels).

    Returns
    -------
    Evaluation, or AssignmentEstimates with a human sample
        One value per answer (topic, run), averaged over each run's topics (ALCE's macro
        average over answers); the statistics (``intervals``, ``compare``) apply as to
        any evaluation. With ``human_sample``: the prediction-powered scores of every run
        and measure with their intervals, the model's score and the correction shown
        apart (:class:`~irscale.evaluation.assignments_ppi.AssignmentEstimates`).

    Examples
    --------
    >>> record = {"qid": "q1", "run_id": "A", "sentences": [
    ...     {"support": "supported", "citations": [
    ...         {"docid": "d1", "support": "not_supported", "without": "supported"},
    ...         {"docid": "d2", "support": "supported"}]},
    ...     {"citations": []}]}
    >>> e = evaluate_citations([record], ["citation_recall", "citation_precision"])
    >>> e.per_topic().value.round(4).tolist()  # 1/2 sentences; d1 superfluous: 1/2
    [0.5, 0.5]
    """
    names = measure_names(measures, split=False, expected=CITATIONS_EXPECTED)
    requests = [parse_name(name, "citations") for name in names]
    records = read_judgments(judgments)
    if human_sample is not None:
        from .citations_ppi import citation_estimates

        human, where = _read(human_sample)
        return citation_estimates(records, human, where, [r.family for r in requests],
                                  max_citations=max_citations, design=design, alpha=alpha,
                                  tuning=tuning)
    values = citation_values(records, [r.family for r in requests],
                             max_citations=max_citations)
    values = {r.label: values[r.family] for r in requests}
    return record_evaluation(records, values, gold="support judgments", allow_empty=allow_empty)
