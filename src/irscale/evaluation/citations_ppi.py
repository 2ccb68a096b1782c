"""Citation scores from a model's support judgments corrected with a human sample:
prediction-powered intervals (:func:`irscale.text.evaluate_citations`' ``human_sample``,
``irscale text citations MODEL --human-sample HUMAN``).

The support labels of every answer come from a model (an entailment model, as ALCE's
TRUE, or an LLM judge, as the TREC 2024 RAG track's); human assessors relabelled a simple
random sample of the same answers, every sentence and citation of a sampled answer
(records of the same JSON lines, :mod:`irscale.io.citations`). A human record is a
relabelling of the model's record of its (topic, run): the same sentences citing as many
passages each; the passages and the sentences' structure are the answer's, not labels.

**The target.** For a run ``s`` with ``T_s`` answers and a measure ``m`` of
:mod:`irscale.text.citations`, the score is the mean over its topics of the per-answer
score under the *human* labels, ``θ_s = (1/T_s)·Σ_a m_a(human)``, ``m_a = Σ_{σ∈a} N(σ) /
Σ_{σ∈a} D(σ)`` (:func:`~irscale.text.citations.sentence_scores`).

**The estimator.** The unit of the sample is the answer (the ``answers`` design, the
default and the only one): a simple random sample of the run's answers (all runs
together: within a run, given its count, a simple random sample of its answers), ``y_a``
the human per-answer score, ``ŷ_a`` the model's. Prediction-powered inference
(Angelopoulos, Bates, Fannjiang, Jordan and Zrnic, "Prediction-powered inference",
*Science* 382, 2023; λ by PPI++: Angelopoulos, Duchi and Zrnic, arXiv:2311.01453) on the
run's answers, by :func:`irscale.evaluation.assignments_ppi.answer_rows` (the nugget
assignments' answers design, :mod:`irscale.core.ppi_means`)::

    θ̂_s = λ·mean_{T_s}(ŷ) + mean_S(y − λ·ŷ),   SE² = λ²·var_{T_s}(ŷ)/T_s + var_S(y − λ·ŷ)/n

unbiased for ``θ_s`` under the design for any fixed λ (the sampled mean of ``y − λ·ŷ`` is
unbiased for its mean over the run's answers), ppi-python's ``ppi_mean_ci`` on the same
arrays; the interval is normal at level ``1 − alpha``.

**Ratios.** Every measure is a ratio per answer; with whole answers relabelled, each
sampled answer's ratio is computed from its own human labels, so the estimator is
unbiased for the mean of the ratios whatever their denominators (no linearisation).
The sentence designs (``uniform``, ``stratified``, ``inclusion``: a sample of sentences,
as nuggets are sampled) are refused: a judged sentence has no identity apart from its
answer's record (no id a human record could name), and ``citation_precision``'s
numerator of a sentence reads the labels of all its citations together, so a sentence
would have to be relabelled whole; relabel whole answers instead.

The rows are those of :class:`~irscale.evaluation.assignments_ppi.AssignmentEstimates`
(``model``, ``correction = ppi − model``, ``ppi`` with its interval and λ, ``human``
(λ = 0) with its interval, ``labelled`` answers of ``units``), one per measure and run,
and one per answer with its model score and blank estimates (an answer has no interval
of its own under this design).

Refused (an :class:`~irscale.errors.InputError` naming the human file, line and text): a
human record of an answer (topic, run) the model's judgments lack; one whose sentences,
or a sentence's citations, are not as many as the model record's; a run with fewer than
2 sampled answers; a label a measure reads and a human record does not give
(:mod:`irscale.text.citations`). A sentence design is a
:class:`~irscale.errors.ParameterError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.numbers import declare
from ..errors import InputError, ParameterError
from ..io.citations import Citations
from ..text.citations import citation_values
from .assignments_ppi import COLUMNS, AssignmentEstimates, _blanks, answer_rows

#: The start of the table's title.
SUBJECT = "Citation scores: the model's support labels"
#: Why an answer's row holds no estimate.
NO_INTERVAL = "an answer has no interval of its own under the answers design"


def match_answers(model: Citations, human: Citations, where: Sequence[tuple[str, int]]
                  ) -> np.ndarray:
    """Per human record, the place of the model's record of its (topic, run); an
    :class:`~irscale.errors.InputError` naming the human file and line (``where``) for an
    answer the model lacks, or sentences and citations not as many as the model's."""
    record_of = {(t, r): k for k, (t, r) in enumerate(zip(model.topic, model.run,
                                                          strict=True))}
    count = np.bincount(model.citation, minlength=len(model.sentence))
    h_count = np.bincount(human.citation, minlength=len(human.sentence))
    start = np.searchsorted(model.sentence, np.arange(len(model) + 1))
    h_start = np.searchsorted(human.sentence, np.arange(len(human) + 1))
    answer = np.empty(len(human), dtype=np.int64)
    for k, (topic, run) in enumerate(zip(human.topic, human.run, strict=True)):
        source, line = where[k]
        text = f"{topic} {run}"
        m = record_of.get((topic, run))
        if m is None:
            raise InputError(f"the human sample judges an answer the model's judgments "
                             f"({model.source}) do not hold: topic {topic!r}, run {run!r}; "
                             "a human record must relabel an answer of the model's records",
                             source=source, line=line, text=text)
        mine, theirs = count[start[m]:start[m + 1]], h_count[h_start[k]:h_start[k + 1]]
        if len(mine) != len(theirs):
            raise InputError(f"this record of topic {topic!r}, run {run!r} has "
                             f"{len(theirs)} sentence(s), the model's record "
                             f"({model.source}, line {model.line[m]}) {len(mine)}: the "
                             "answers design relabels every sentence of a sampled answer",
                             source=source, line=line, text=text)
        differ = np.flatnonzero(mine != theirs)
        if len(differ):
            s = int(differ[0])
            raise InputError(f"sentence {s + 1} of topic {topic!r}, run {run!r} cites "
                             f"{theirs[s]} passage(s) here and {mine[s]} in the model's "
                             f"record ({model.source}, line {model.line[m]}); a human "
                             "sample relabels the model's citations, not the answer",
                             source=source, line=line, text=text)
        answer[k] = m
    return answer


def citation_estimates(model: Citations, human: Citations, where: Sequence[tuple[str, int]],
                       measures: Sequence[str], *, max_citations: int | None, design: str,
                       alpha: float, tuning: str) -> AssignmentEstimates:
    """The prediction-powered scores of ``measures`` (citation measure names) of the
    model's judgments corrected with the human sample ``human`` (``where``: the file and
    line of each of its records) under ``design`` (module documentation)."""
    if design != "answers":
        raise ParameterError(f"design {design!r}: a human sample of support judgments "
                             "relabels whole answers (design answers); a judged sentence "
                             "has no identity apart from its answer's record, so a sample "
                             "of sentences cannot be matched to the model's", param="design")
    sampled = match_answers(model, human, where)
    y_model = citation_values(model, measures, max_citations=max_citations)
    y_human = citation_values(human, measures, max_citations=max_citations)
    runs: list[dict[str, Any]] = []
    topics: list[dict[str, Any]] = []
    for measure in measures:
        found = answer_rows(measure, model.run, model.topic, y_model[measure],
                            y_human[measure], sampled, tuning, alpha)
        runs += found[0]
        topics += found[1]
    return AssignmentEstimates(pd.DataFrame(runs, columns=list(COLUMNS)),
                               declare(pd.DataFrame(topics, columns=list(COLUMNS)),
                                       _blanks(NO_INTERVAL)),
                               design, alpha, tuning, SUBJECT, NO_INTERVAL)


__all__ = ["citation_estimates", "match_answers"]
