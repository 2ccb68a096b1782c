"""The runner of nugget assignment records (the TREC 2024 RAG track's All, Vital and
Weighted scores): records (:mod:`irscale.io.assignments`) + measure names → an
:class:`~irscale.measures.results.Evaluation`, by the kernels of
:mod:`irscale.text.assignments`, whose module documentation states the measures. Declared
in the ``nuggets`` context of the catalogue beside the measures of matches. With a human
sample of the nuggets (``human_sample``): the scores of the model's assignments corrected
on it, with prediction-powered intervals (:mod:`irscale.evaluation.assignments_ppi`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import MeasureError
from ..io.assignments import Assignments, combine, read_assignments, read_inputs
from ..measures.names import measure_names, parse_name
from ..measures.nuggets import ASSIGNMENT_FAMILIES
from ..measures.results import Evaluation
from ..text.assignments import ASSIGNMENTS_EXPECTED, DEFAULT_MEASURES, assignment_values
from ..text.params import ASSIGNMENT_SAMPLE
from .outputs import record_evaluation

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames
    from .assignments_ppi import AssignmentEstimates


def _read(value: Any) -> tuple[Assignments, list[tuple[str, int]]]:
    """The records of ``value`` (one input, a path, bytes, an :class:`Assignments`, a list
    of record dicts, or a list of them) as one, and the file and line of each record."""
    return read_inputs(value, Assignments, read_assignments, combine)


@ASSIGNMENT_SAMPLE
def evaluate_assignments(assignments: Any,
                         measures: MeasureNames = DEFAULT_MEASURES, *,
                         allow_empty: bool = False, human_sample: Any = None,
                         design: str = "uniform", alpha: float = 0.05,
                         tuning: str = "ppi++") -> Evaluation | AssignmentEstimates:
    """Score answers by their nugget assignments as the TREC 2024 RAG track does
    (:mod:`irscale.text.assignments`: All, Vital, Weighted, strict or with partial credit);
    also :func:`~irscale.evaluation.nuggets.evaluate_nuggets`' ``assignments=``.

    Parameters
    ----------
    assignments : path, bytes, list of record dicts or Assignments, or a list of them
        JSON lines ``{"qid", "run_id", "nuggets": [{"text", "importance", "assignment"}]}``
        (:func:`~irscale.io.assignments.read_assignments`; a record without a run id
        belongs to the run its file's name names).
    measures : str or list of str
        ``A``, ``V``, ``W``, ``A_strict``, ``V_strict``, ``W_strict`` (default: all six).
    allow_empty : bool
        As for the other runners (every run has records, so it never applies).
    human_sample : path, bytes, list of record dicts or Assignments, or a list of them
        Human assignment records (the same JSON lines) of a sample of the nuggets of
        ``assignments``, which are then a model's: the scores are estimated by
        prediction-powered inference, the model's corrected on the sample
        (:mod:`irscale.evaluation.assignments_ppi`).
    design : {"uniform", "stratified", "inclusion", "answers"}
        How the human sample was drawn: a uniform sample of the nuggets, one within every
        model assignment, nuggets with stated inclusion probabilities (their ``prob``),
        or a uniform sample of the answers, every nugget relabelled.
    alpha : float
        The intervals' level is ``1 − alpha``.
    tuning : {"ppi++", "ppi", "classical"}
        The weight λ of the model's labels: estimated (PPI++), 1 (PPI) or 0 (the human
        sample alone).

    Returns
    -------
    Evaluation, or AssignmentEstimates with a human sample
        One value per record (topic, run), averaged over each run's topics; the
        statistics (``intervals``, ``compare``) apply as to any evaluation. With
        ``human_sample``: the prediction-powered scores of every run and measure (and of
        every answer where estimable) with their intervals, the model's score and the
        correction shown apart
        (:class:`~irscale.evaluation.assignments_ppi.AssignmentEstimates`).

    Examples
    --------
    >>> nuggets = [{"text": "x", "importance": "vital", "assignment": "support"},
    ...            {"text": "y", "importance": "okay", "assignment": "partial_support"}]
    >>> e = evaluate_assignments([{"qid": "q1", "run_id": "A", "nuggets": nuggets}],
    ...                          ["A", "V", "W", "W_strict"])
    >>> e.per_topic().value.round(4).tolist()  # 1.5/2, 1/1, 1.25/1.5, 1/1.5
    [0.75, 1.0, 0.8333, 0.6667]
    """
    if human_sample is None:
        return score_assignments(assignments, measures, allow_empty=allow_empty)
    from .assignments_ppi import assignment_estimates

    requests = _requests(measures)
    records, _ = _read(assignments)
    human, where = _read(human_sample)
    return assignment_estimates(records, human, where, requests, design=design, alpha=alpha,
                                tuning=tuning)


def _requests(measures: MeasureNames) -> list[Any]:
    """The parsed names of ``measures``, every one a measure of assignment records."""
    names = measure_names(measures, split=False, expected=ASSIGNMENTS_EXPECTED)
    requests = [parse_name(name, "nuggets") for name in names]
    wrong = [r.label for r in requests if r.family not in ASSIGNMENT_FAMILIES]
    if wrong:
        raise MeasureError(f"{wrong[0]} is a measure of nugget matches (irscale.text."
                           "evaluate_nuggets), not of assignment records: use "
                           f"{', '.join(ASSIGNMENT_FAMILIES)}")
    return requests


def score_assignments(assignments: Any, measures: MeasureNames = DEFAULT_MEASURES,
                      *, allow_empty: bool = False) -> Evaluation:
    """:func:`evaluate_assignments` without a human sample: the evaluation of the
    records' scores (its arguments)."""
    requests = _requests(measures)
    records, _ = _read(assignments)
    values = assignment_values(records, requests)
    return record_evaluation(records, values, gold="nugget assignments", allow_empty=allow_empty)
