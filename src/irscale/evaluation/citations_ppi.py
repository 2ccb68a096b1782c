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

**The estimator.** Prediction-powered inference (Angelopoulos, Bates, Fannjiang, Jordan
and Zrnic, "Prediction-powered inference", *Science* 382, 2023; λ by PPI++: Angelopoulos,
Duchi and Zrnic, arXiv:2311.01453) under one of three designs, by the estimators of the
nugget assignments (:mod:`irscale.evaluation.assignments_ppi`, :mod:`irscale.core.ppi_means`):

* ``answers`` (the default): a simple random sample of the run's answers (all runs
  together: within a run, given its count, a simple random sample of its answers), every
  sentence of a sampled answer relabelled; ``y_a`` the human per-answer score, ``ŷ_a`` the
  model's, by :func:`irscale.evaluation.assignments_ppi.answer_rows`::

      θ̂_s = λ·mean_{T_s}(ŷ) + mean_S(y − λ·ŷ),   SE² = λ²·var_{T_s}(ŷ)/T_s + var_S(y − λ·ŷ)/n

  unbiased for ``θ_s`` under the design for any fixed λ, ppi-python's ``ppi_mean_ci`` on
  the same arrays; with whole answers relabelled, each sampled answer's ratio is computed
  from its own human labels (no linearisation);
* ``uniform``: a simple random sample of the run's sentences (all runs together), each
  relabelled whole (its support and every citation's labels the measure reads: a
  sentence's numerator in ``citation_precision`` reads all its citations together);
* ``stratified``: a simple random sample within every stratum of the model's support of
  the sentence j(s) (``not_supported``, ``partially_supported``, ``supported``, as the
  measures read it: a sentence citing nothing is not supported, one citing one passage has
  its citation's), 2 sampled sentences at least in every stratum a run holds; the same in
  every stratum, weighted by its share of the run's sentences (stratified PPI, Fisch et
  al., NeurIPS 2024).

**Sentences as items.** A sentence is named by (topic, run, sentence index): the record of
its answer (one a (topic, run): a second is refused) and its place in the record's
``sentences``. A human record of a sentence design lists every sentence of the answer,
citing the same passages as the model's (the record's structure is the answer's), and
gives the labels of the sentences sampled only: a sentence giving a label (its
``support``, or a citation's ``support`` or ``without``) is sampled, and must give every
label the measure reads (a sampled sentence citing nothing gives ``"support":
"not_supported"``); the others give none. Each measure's answer score is ``Σ_σ N(σ) /
Σ_σ D(σ)`` (:func:`~irscale.text.citations.sentence_scores`), whose denominators (1 a
sentence, or its citations counted) read no label: the score is *linear* in the
sentences' numerators, ``θ_s = Σ_σ c_σ·N(σ)`` with ``c_σ = 1/(T_s·D_a)`` known (0 for an
answer whose denominator is 0, whose score is 0 by ALCE's rule), so the sentence is an
item as a nugget is (the nuggets' ``uniform`` and ``stratified`` estimators on ``z_σ =
P_s·c_σ·N(σ)``), with no bias from the ratio; ppi-python's ``ppi_mean_ci`` on the same
arrays (``uniform``; per stratum for ``stratified``). A row per answer whose own sentences
allow an interval (2 sampled at least, in every stratum) gives its estimate too. The
``inclusion`` design is refused: a record states no inclusion probability of a sentence.

The rows are those of :class:`~irscale.evaluation.assignments_ppi.AssignmentEstimates`
(``model``, ``correction = ppi − model``, ``ppi`` with its interval and λ, ``human``
(λ = 0) with its interval, ``labelled`` answers or sentences of ``units``), one per
measure and run, and one per answer with its model score (blank estimates under the
answers design, and where the answer's own sample allows no interval).

Refused (an :class:`~irscale.errors.InputError` naming the human file, line and text): a
human record of an answer (topic, run) the model's judgments lack; one whose sentences,
or a sentence's citations, are not as many as the model record's; a run with fewer than
2 sampled answers (sentences; in a stratum, 2 sentences); a label a measure reads and a
human record does not give (:mod:`irscale.text.citations`): under a sentence design, a
sampled sentence's; the model's support of a sentence that does not state it under the
stratified design. The inclusion design is a :class:`~irscale.errors.ParameterError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError, ParameterError
from ..io.citations import NOT_GIVEN, SUPPORT_WORDS, Citations
from ..text.citations import citation_values, sentence_scores, sentence_support
from .assignments_ppi import (
    AssignmentEstimates,
    ItemSample,
    answer_rows,
    item_rows,
)

#: The start of the table's title.
SUBJECT = "Citation scores: the model's support labels"
#: Why an answer's row holds no estimate.
NO_INTERVAL = "an answer has no interval of its own under the answers design"
#: Why an answer's row may hold no estimate under a sentence design.
TOO_FEW = "the answer's own human labels are too few for an interval (2 sentences at " \
    "least, in every stratum)"
#: The names of the strata of the stratified design (the model's support of a sentence).
STRATA = np.array([next(w for w, c in SUPPORT_WORDS.items() if c == code)
                   for code in range(3)], dtype=object)


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
                             f"({model.source}, line {model.line[m]}) {len(mine)}: a "
                             "human record lists every sentence of the model's (each "
                             "relabelled under the answers design, the sampled ones under "
                             "a sentence design)",
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
    if design == "inclusion":
        raise ParameterError("design 'inclusion': a record of support judgments states no "
                             "inclusion probability of a sentence; give the answers, "
                             "uniform or stratified design", param="design")
    sampled = match_answers(model, human, where)
    y_model = citation_values(model, measures, max_citations=max_citations)
    runs: list[dict[str, Any]] = []
    topics: list[dict[str, Any]] = []
    if design == "answers":
        y_human = citation_values(human, measures, max_citations=max_citations)
        for measure in measures:
            found = answer_rows(measure, model.run, model.topic, y_model[measure],
                                y_human[measure], sampled, tuning, alpha)
            runs += found[0]
            topics += found[1]
        return AssignmentEstimates.of_rows(runs, topics, design, alpha, tuning, SUBJECT,
                                           NO_INTERVAL)
    read, item = _sampled_sentences(model, human, sampled, where)
    stratum = STRATA[sentence_support(model, "the stratified design (its strata: the "
                                      "model's support of each sentence)",
                                      max_citations=max_citations)] \
        if design == "stratified" else np.zeros(len(model.sentence), dtype=object)
    for measure in measures:
        top, bottom = sentence_scores(model, measure, max_citations=max_citations)
        total = np.bincount(model.sentence, weights=bottom, minlength=len(model))
        c = np.divide(1.0, total, out=np.zeros(len(model)), where=total > 0)[model.sentence]
        h_top = sentence_scores(human, measure, max_citations=max_citations, read=read)[0]
        record = np.asarray(human.sentence)[read]
        found = item_rows(ItemSample(
            np.asarray(model.sentence), c, top, stratum, model.run, model.topic, item,
            h_top[read], np.full(len(item), np.nan), [where[int(k)] for k in record],
            "sentence"), measure, design, tuning, alpha)
        runs += found[0]
        topics += found[1]
    return AssignmentEstimates.of_rows(runs, topics, design, alpha, tuning, SUBJECT, TOO_FEW)


def _model_sentences(model: Citations, human: Citations, sampled: np.ndarray
                     ) -> np.ndarray:
    """Per human sentence its place among the model's sentences: the same place in the
    answer of the model's record of its (topic, run) (``sampled``: per human record, the
    model's, whose sentences :func:`match_answers` found as many)."""
    h_start = np.searchsorted(human.sentence, np.arange(len(human)))
    start = np.searchsorted(model.sentence, np.arange(len(model)))
    h_sentence = np.asarray(human.sentence)
    return start[sampled[h_sentence]] + np.arange(len(h_sentence)) - h_start[h_sentence]


def _same_passages(model: Citations, human: Citations, sentence: np.ndarray,
                   where: Sequence[tuple[str, int]]) -> None:
    """Every human sentence cites the passages its model sentence (``sentence``) cites: a
    passage it cites and the model's does not is an :class:`~irscale.errors.InputError`
    naming the human file, line and passage (the citations are as many per sentence)."""
    cited = set(zip(model.citation.tolist(), model.passage, strict=True))
    for i, (s, passage) in enumerate(zip(sentence[human.citation].tolist(), human.passage,
                                         strict=True)):
        if (s, passage) not in cited:
            k = int(human.sentence[human.citation[i]])
            number = int(human.citation[i]) - int(np.searchsorted(human.sentence, k)) + 1
            source, line = where[k]
            raise InputError(f"sentence {number} cites passage {passage!r} here, which the "
                             "model's sentence does not cite; a human sample relabels the "
                             "model's citations, not the answer", source=source, line=line,
                             text=passage)


def _sampled_sentences(model: Citations, human: Citations, sampled: np.ndarray,
                       where: Sequence[tuple[str, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Under a sentence design, per human sentence whether it is sampled (it gives a
    label), and per sampled one its place among the model's sentences
    (:func:`_model_sentences`), the passages each cites checked."""
    sentence = _model_sentences(model, human, sampled)
    _same_passages(model, human, sentence, where)
    given = human.support != NOT_GIVEN
    labelled = (human.alone != NOT_GIVEN) | (human.without != NOT_GIVEN)
    given |= np.bincount(human.citation[labelled], minlength=len(human.sentence)) > 0
    return given, sentence[given]


__all__ = ["citation_estimates", "match_answers"]
