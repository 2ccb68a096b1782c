"""Nugget scores from a model's assignments corrected with a human sample: prediction-powered
intervals (:func:`irscale.text.evaluate_assignments`' ``human_sample``, ``irscale text
nuggets --assignments MODEL --human-sample HUMAN``).

The assignments of every answer come from a model (an LLM judging nuggetizer's nuggets);
human assessors relabelled a probability sample of the same nuggets (records of the same
JSON lines, :mod:`irscale.io.assignments`). A nugget's importance is the nugget list's and
is not relabelled: a human nugget must be one of the model's record, matched by its text
(the k-th human nugget of a text and importance to the model's k-th of them): a nugget whose
importance differs is refused.

**The target.** For a run ``s`` with ``T_s`` answers (its records) and a measure of
:mod:`irscale.text.assignments` (``A``, ``V``, ``W``, strict or partial), the score is the
mean over its topics of the per-answer score under the *human* labels::

    θ_s = (1/T_s) · Σ_a Σ_{v∈a} w_v·s(v) / Σ_{v∈a} w_v

(``w`` the measure's weight of the nugget, ``s`` its credit). The denominator of each
answer is a sum of weights of importances, which the labels do not change: ``θ_s`` is a
*linear* function of the nuggets' credits, ``θ_s = Σ_v c_v·s(v)`` with the known
coefficient ``c_v = w_v / (T_s·Σ_{u∈a(v)} w_u)``. The linearisation of the ratio is exact,
so the unit of the sample can be the nugget (the item) with no bias from the ratio; that is
irscale's choice for the default design, which is how a human sample of an LLM's
assignments is usually drawn (items to re-judge, not whole answers), and which gives
per-answer (topic) estimates besides. Where whole answers were relabelled, ``answers``
treats the answer as the unit (a cluster: its nuggets' labels are not independent, and an
item-level interval would be too narrow).

**The estimator.** Prediction-powered inference (Angelopoulos, Bates, Fannjiang, Jordan and
Zrnic, "Prediction-powered inference", *Science* 382, 2023; λ by PPI++: Angelopoulos,
Duchi and Zrnic, arXiv:2311.01453) on the ``P_s`` nuggets of the run's answers, the
model's credit ``ŝ`` the prediction and the human credit ``s`` the label, with
:mod:`irscale.core.ppi_means` (the estimators of ``irscale labels auto``):

* ``uniform`` (default): a simple random sample of the nuggets (all runs together: within
  a run, given its count, a simple random sample of the run's nuggets). With ``z_v =
  P_s·c_v·s(v)`` (so that ``θ_s`` is the mean of ``z`` over the run's nuggets)::

      θ̂_s = λ·mean_{P_s}(ẑ) + mean_S(z − λ·ẑ)
          = λ·θ_model + mean_S(z − λ·ẑ),   SE² = λ²·var_{P_s}(ẑ)/P_s + var_S(z − λ·ẑ)/n

  unbiased for ``θ_s`` under the design for any fixed λ (the sampled mean of ``z − λ·ẑ``
  is unbiased for its population mean); ppi-python's ``ppi_mean_ci`` on the same arrays;
* ``stratified``: a simple random sample within every model assignment (support,
  partial_support, not_support): the same in every stratum, weighted by its share of the
  run's nuggets (stratified PPI, Fisch et al., NeurIPS 2024); every stratum a run holds
  needs 2 sampled nuggets;
* ``inclusion``: every nugget sampled independently with the probability its human record
  states (``"prob"`` of the nugget): the Horvitz–Thompson difference estimator
  ``λ·θ_model + Σ_S c_v·(s(v) − λ·ŝ(v))/π_v`` (Särndal, Swensson and Wretman 1992, §6.3);
* ``answers``: a simple random sample of the answers, every nugget of a sampled answer
  relabelled: the prediction-powered mean of the per-answer scores (``y_a`` the human
  score, ``ŷ_a`` the model's) over the run's answers, which is ``θ_s`` itself.

Each row says which part is whose: ``model`` is the model's score (the mean of the
per-answer scores under the model's assignments, every nugget), ``correction`` the
rectifier the human sample estimates (``ppi − model``: ``mean_S(z − ẑ)`` with λ = 1; with
PPI++'s λ it also moves weight from the model to the human labels), ``ppi`` the corrected
score with its ``1 − alpha`` normal interval (``ppi_low``, ``ppi_high``) and ``lam``;
``human`` (``human_low``, ``human_high``) is the estimate from the human sample alone
(λ = 0), beside it so that what the model's labels bought is seen (the widths);
``labelled`` the sampled units, ``units`` the population (nuggets, or answers).

A row per run (``topic`` ``all``), and one per answer (its topic) where the answer's own
nuggets allow an interval (an item design and 2 sampled nuggets at least, in every
stratum for ``stratified``): the answer's score is then ``θ_a = Σ_{v∈a} c_v·s(v)`` with
``c_v = w_v/Σ_{u∈a} w_u``, estimated from the nuggets of the answer alone (within the
answer, given its count, the sample is a simple random one too). An answer that does not
allow one has its model score and blank estimates (declared blank: too few labels).

Refused (an :class:`~irscale.errors.InputError` naming the human file, line and text): a
human record of an answer (topic, run) the model's records lack; a human nugget that is
not one of the model record's, or whose importance differs; a design that does not match
the sample (``inclusion`` without a ``prob`` on every human nugget; a ``prob`` under
another design, which would be ignored; ``answers`` with an answer not relabelled whole);
a run whose sample is too small for an interval (fewer than 2 sampled units, or 2 in a
stratum).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare
from ..core.ppi_means import InclusionOverflow, normal_interval, sampled_mean
from ..errors import InputError
from ..io.assignments import ASSIGNMENT, IMPORTANCE, Assignments
from ..text.assignments import assignment_values, credit_table, nugget_weights

#: The columns of the estimates, one row a measure and run (or answer).
COLUMNS = ("measure", "run", "topic", "model", "correction", "ppi", "ppi_low", "ppi_high",
           "lam", "human", "human_low", "human_high", "labelled", "units")
#: What the estimates of nugget assignments score, by whose labels.
NUGGET_SUBJECT = "Nugget scores: the model's assignments"
#: Why an answer's row may hold no estimate.
TOO_FEW = "the answer's own human labels are too few for an interval (2 nuggets at least, " \
    "in every stratum; none under the answers design)"


@dataclass(frozen=True)
class AssignmentEstimates(HtmlRepr):
    """The prediction-powered scores of :func:`irscale.text.evaluate_assignments` with a
    human sample (module documentation): ``runs``, one row a measure and run (``topic``
    ``all``); ``topics``, one row a measure and answer (blank estimates where its own
    sample allows no interval); the ``design``, ``alpha`` and ``tuning`` used."""

    runs: pd.DataFrame
    topics: pd.DataFrame
    design: str
    alpha: float
    tuning: str
    #: What is scored and by whose labels (the start of :attr:`title`).
    subject: str = NUGGET_SUBJECT
    #: Why an answer's row may hold no estimate (its blank cells' reason).
    too_few: str = TOO_FEW

    @classmethod
    def of_rows(cls, runs: list[dict[str, Any]], topics: list[dict[str, Any]], design: str,
                alpha: float, tuning: str, subject: str = NUGGET_SUBJECT,
                too_few: str = TOO_FEW) -> AssignmentEstimates:
        """The estimates of the rows ``runs`` and ``topics`` (dicts of :data:`COLUMNS`),
        the answers' blank cells declared with their reason ``too_few``."""
        return cls(pd.DataFrame(runs, columns=list(COLUMNS)),
                   declare(pd.DataFrame(topics, columns=list(COLUMNS)), _blanks(too_few)),
                   design, alpha, tuning, subject, too_few)

    def to_frame(self, per_topic: bool = False, summary: bool = True) -> pd.DataFrame:
        """The rows of the runs (``summary``) and, with ``per_topic``, those of their
        answers, each run's answers before its row."""
        if not per_topic:
            return self.runs if summary else self.runs.iloc[:0]
        frame = pd.concat([self.topics, self.runs], ignore_index=True)
        frame = frame.sort_values(["measure", "run", "topic"], kind="stable",
                                  key=lambda c: c.map({"all": 1}).fillna(0) if c.name ==
                                  "topic" else c.map(_order(self.runs, c.name)))
        if not summary:
            frame = frame[frame["topic"] != "all"]
        return declare(frame.reset_index(drop=True), _blanks(self.too_few))

    def format(self, fmt: str = "text", *, digits: int = 4, per_topic: bool = False,
               summary: bool = True) -> str:
        """The table of :meth:`to_frame` as ``text``, ``markdown`` or ``latex`` (rounded to
        ``digits``, under :attr:`title`), ``csv`` or ``json`` (full precision)."""
        from ..stats.protocol import format_table

        return format_table(self.to_frame(per_topic, summary), fmt,  # type: ignore[arg-type]
                            digits=digits, title=self.title)

    @property
    def title(self) -> str:
        """What the table holds, in words (its title where it is printed)."""
        return (f"{self.subject} (model) corrected on the human sample (correction = ppi - "
                f"model); {self.design} design, {self.tuning}, "
                f"{100 * (1 - self.alpha):g}% intervals")


def _order(runs: pd.DataFrame, column: object) -> dict[object, int]:
    """The first-seen order of ``column``'s values in the runs' rows."""
    return {v: k for k, v in enumerate(dict.fromkeys(runs[column]))}


def _blanks(reason: str = TOO_FEW) -> dict[str, Any]:
    """The blank cells of the answers' rows that allow no interval (``reason``: why)."""
    return {c: blank(reason) for c in COLUMNS[4:12]}


@dataclass(frozen=True)
class HumanSample:
    """The human sample matched to the model's nuggets: per human nugget its place in the
    model's arrays (``item``), its human credit code, π (NaN where not given) and its human
    record (``record``); per human record its model record (``answer``) and where it was
    read (``where``)."""

    item: np.ndarray
    credit: np.ndarray
    prob: np.ndarray
    record: np.ndarray
    answer: np.ndarray
    where: list[tuple[str, int]]


def match_sample(model: Assignments, human: Assignments, where: list[tuple[str, int]],
                 design: str) -> HumanSample:
    """The human nuggets matched to the model's (module documentation); an
    :class:`~irscale.errors.InputError` naming the human file and line for an answer or a
    nugget the model lacks, an importance that differs, or a sample that does not match
    ``design``."""
    record_of = {(t, r): k for k, (t, r) in enumerate(zip(model.topic, model.run,
                                                          strict=True))}
    start = np.concatenate(([0], np.cumsum(np.bincount(model.record, minlength=len(model)))))
    h_start = np.concatenate(([0], np.cumsum(np.bincount(human.record,
                                                         minlength=len(human)))))
    item = np.empty(len(human.record), dtype=np.int64)
    answer = np.empty(len(human), dtype=np.int64)
    for k, (topic, run) in enumerate(zip(human.topic, human.run, strict=True)):
        source, line = where[k]
        m = record_of.get((topic, run))
        if m is None:
            raise InputError(f"the human sample judges an answer the model's assignments "
                             f"({model.source}) do not hold: topic {topic!r}, run {run!r}; "
                             "a human record must relabel nuggets of the model's records",
                             source=source, line=line, text=f"{topic} {run}")
        answer[k] = m
        free: dict[tuple[str, bool], list[int]] = {}
        for p in range(start[m], start[m + 1]):
            free.setdefault((model.text[p], bool(model.vital[p])), []).append(p)
        for j in range(h_start[k], h_start[k + 1]):
            text, vital = human.text[j], bool(human.vital[j])
            places = free.get((text, vital))
            if not places:
                raise _unmatched(model, m, j - h_start[k] + 1, text, vital, free,
                                 source, line)
            item[j] = places.pop(0)
        left = sum(len(v) for v in free.values())
        if design == "answers" and left:
            raise InputError(f"the answers design relabels every nugget of a sampled answer: "
                             f"this record of topic {topic!r}, run {run!r} leaves {left} of "
                             f"the model's {start[m + 1] - start[m]} nuggets out; give them, "
                             "or an item design (uniform, stratified, inclusion)",
                             source=source, line=line, text=f"{topic} {run}")
    prob = np.full(len(human.record), np.nan) if human.prob is None else human.prob
    _check_probabilities(human, prob, where, design)
    return HumanSample(item, human.credit, prob, human.record, answer, where)


def _unmatched(model: Assignments, m: int, k: int, text: str, vital: bool,
               free: dict[tuple[str, bool], list[int]], source: str, line: int
               ) -> InputError:
    """The error of human nugget ``k`` (``text``, vital or not) of a record that model
    record ``m`` (its nuggets left ``free``) does not match."""
    where = f"the model's record ({model.source}, line {model.line[m]})"
    if (text, not vital) in free:
        return InputError(f"nugget {k} is {IMPORTANCE[vital]} here and "
                          f"{IMPORTANCE[not vital]} in {where}; a human sample relabels "
                          "assignments, not importance", source=source, line=line, text=text)
    more = " (given more often than there)" if (text, vital) in free else ""
    return InputError(f"nugget {k} is not a nugget of {where}{more}; the human sample "
                      "relabels the model's nuggets", source=source, line=line, text=text)


def _check_probabilities(human: Assignments, prob: np.ndarray,
                         where: list[tuple[str, int]], design: str) -> None:
    """Every human nugget states π under the inclusion design, none under another."""
    given = ~np.isnan(prob)
    wrong = np.flatnonzero(~given if design == "inclusion" else given)
    if not len(wrong):
        return
    j = int(wrong[0])
    k = int(human.record[j])
    source, line = where[k]
    if design == "inclusion":
        raise InputError("the inclusion design needs every human nugget's inclusion "
                         "probability (its \"prob\"); this one gives none",
                         source=source, line=line, text=human.text[j])
    raise InputError(f"a human nugget states an inclusion probability (\"prob\"), which the "
                     f"{design} design would ignore; choose the inclusion design, or give "
                     "no prob", source=source, line=line, text=human.text[j])


def _estimates(y: np.ndarray, yhat: np.ndarray, every: np.ndarray, design: str,
               tuning: str, alpha: float, **options: Any) -> dict[str, float]:
    """The human-only (λ = 0) and the corrected estimate with their intervals, and λ."""
    row: dict[str, float] = {}
    for name, prefix in (("classical", "human"), (tuning, "ppi")):
        estimate, se, lam = sampled_mean(y, yhat, every, design,  # type: ignore[arg-type]
                                         tuning=name, **options)
        row[prefix], (row[f"{prefix}_low"], row[f"{prefix}_high"]) = \
            estimate, normal_interval(estimate, se, alpha)
        row["lam"] = lam
    return row


def _refuse_small(run: str, n: int, total: int, unit: str) -> InputError:
    """A run whose human sample is too small for an interval."""
    return InputError(f"the human sample holds {n} {unit}(s) of run {run!r} (of {total}): "
                      f"an interval needs 2 at least; relabel more of its {unit}s")


@dataclass(frozen=True)
class ItemSample:
    """The items of one measure under an item design, of whatever records (nuggets,
    sentences): per item its answer (``record``), its coefficient ``c`` (the answer's
    score is ``Σ c·s`` over its items, module documentation), the model's credit
    ``s_model`` and its ``stratum``; per answer its ``run`` and ``topic``; per sampled item
    its place among the items (``item``), its human credit ``s_human``, π (``prob``) and
    the file and line it was read from (``where[j]``); ``unit``: the item, in the errors."""

    record: np.ndarray
    c: np.ndarray
    s_model: np.ndarray
    stratum: np.ndarray
    run: Sequence[str]
    topic: Sequence[str]
    item: np.ndarray
    s_human: np.ndarray
    prob: np.ndarray
    where: Sequence[tuple[str, int]]
    unit: str = "nugget"


def _item_rows(model: Assignments, sample: HumanSample, label: str, family: str,
               design: str, tuning: str, alpha: float) -> tuple[list[dict[str, Any]],
                                                                list[dict[str, Any]]]:
    """The rows of the runs and of the answers of one measure under an item design."""
    w = nugget_weights(model, family[0])
    total = np.bincount(model.record, weights=w, minlength=len(model))
    table = credit_table(family)
    return item_rows(ItemSample(
        model.record, w / total[model.record], table[model.credit],
        np.asarray(ASSIGNMENT, dtype=object)[model.credit], model.run, model.topic,
        sample.item, table[sample.credit], sample.prob,
        [sample.where[int(k)] for k in sample.record]), label, design, tuning, alpha)


def item_rows(items: ItemSample, label: str, design: str, tuning: str, alpha: float
              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of the runs and of the answers of the measure ``label`` under an item
    design (module documentation), the items and their sample ``items``."""
    n_answers = len(items.run)
    runs = np.asarray(items.run, dtype=object)
    run_rows: list[dict[str, Any]] = []
    topic_rows: list[dict[str, Any]] = []
    answer_values = np.bincount(items.record, weights=items.c * items.s_model,
                                minlength=n_answers)
    unit = items.unit
    for run in dict.fromkeys(items.run):
        answers = np.flatnonzero(runs == run)
        domain = np.flatnonzero(runs[items.record] == run)
        picked = runs[items.record[items.item]] == run
        mine, n = items.item[picked], int(picked.sum())
        if n < 2:
            raise _refuse_small(run, n, len(domain), unit)
        scale = 1.0 if design == "inclusion" else float(len(domain))
        base = items.c / len(answers) * scale
        options = _design_options(design, items.stratum[mine], items.stratum[domain],
                                  items.prob[picked], f"{{n}} {unit}(s) of run " +
                                  _literal(repr(run)) + " the model labels {h}")
        try:
            row = _estimates(base[mine] * items.s_human[picked],
                             base[mine] * items.s_model[mine],
                             base[domain] * items.s_model[domain], design, tuning, alpha,
                             **options)
        except InclusionOverflow as overflow:
            source, line = items.where[int(np.flatnonzero(picked)[overflow.row])]
            raise InputError(f"inclusion probability {overflow.prob:.6g} is too small for the "
                             "Horvitz–Thompson estimator: its variance, a sum of (1 − π)/π² "
                             "times squared contributions, overflows the largest double",
                             source=source, line=line) from None
        model_score = float(answer_values[answers].mean())
        run_rows.append(_row(label, run, "all", model_score, row, n, len(domain)))
        for a in answers:
            topic_rows.append(_answer_row(label, run, items, int(a), picked, design, tuning,
                                          alpha, float(answer_values[a])))
    return run_rows, topic_rows


def _answer_row(label: str, run: str, items: ItemSample, a: int, picked: np.ndarray,
                design: str, tuning: str, alpha: float, model_score: float) -> dict[str, Any]:
    """The row of answer ``a`` (blank estimates where its own sample allows no interval)."""
    domain = np.flatnonzero(items.record == a)
    inside = picked & (items.record[items.item] == a)
    mine = items.item[inside]
    scale = 1.0 if design == "inclusion" else float(len(domain))
    c = items.c
    row: dict[str, float] | None = None
    if len(mine) >= 2:
        options = _design_options(design, items.stratum[mine], items.stratum[domain],
                                  items.prob[inside],
                                  f"{{n}} {items.unit}(s) the model labels {{h}}")
        try:
            row = _estimates(c[mine] * scale * items.s_human[inside],
                             c[mine] * scale * items.s_model[mine],
                             c[domain] * scale * items.s_model[domain], design, tuning,
                             alpha, **options)
        except InputError:  # a stratum of the answer with fewer than 2 sampled items
            row = None
    return _row(label, run, items.topic[a], model_score, row, len(mine), len(domain))


def _literal(text: str) -> str:
    """``text`` as a literal part of a :meth:`str.format` template (braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def _design_options(design: str, stratum: np.ndarray, stratum_all: np.ndarray,
                    prob: np.ndarray, words: str) -> dict[str, Any]:
    """The arguments of :func:`~irscale.core.ppi_means.sampled_mean` that ``design``
    takes."""
    if design == "stratified":
        return {"stratum": stratum, "stratum_all": stratum_all, "stratum_words": words}
    if design == "inclusion":
        return {"prob": prob}
    return {}


def _row(label: str, run: str, topic: str, model_score: float,
         found: dict[str, float] | None, labelled: int, units: int) -> dict[str, Any]:
    """One row of :data:`COLUMNS` (``found`` None: blank estimates)."""
    found = found or dict.fromkeys(("ppi", "ppi_low", "ppi_high", "lam", "human",
                                    "human_low", "human_high"), float("nan"))
    return {"measure": label, "run": run, "topic": topic, "model": model_score,
            "correction": found["ppi"] - model_score, **found, "labelled": labelled,
            "units": units}


def _answer_design_rows(model: Assignments, human: Assignments, sample: HumanSample,
                        request: Any, tuning: str, alpha: float
                        ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of one measure under the answers design: the prediction-powered mean of
    the per-answer scores (no answer's own interval)."""
    label = request.label
    return answer_rows(label, model.run, model.topic,
                       assignment_values(model, [request])[label],
                       assignment_values(human, [request])[label], sample.answer, tuning,
                       alpha)


def answer_rows(label: str, run: Sequence[str], topic: Sequence[str], y_model: np.ndarray,
                y_human: np.ndarray, sampled: np.ndarray, tuning: str, alpha: float
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of measure ``label`` under the answers design (a simple random sample of
    the answers, each relabelled whole): per run, the prediction-powered mean of the
    per-answer scores, ``y_model`` the model's score of every answer (its ``run`` and
    ``topic``), ``y_human`` the human score of each sampled answer, ``sampled`` its place
    among the model's; per answer, its model score and blank estimates (no answer's own
    interval). The estimator is :func:`~irscale.core.ppi_means.sampled_mean`'s uniform
    one over the run's answers, unbiased for the mean of the human per-answer scores."""
    runs = np.asarray(run, dtype=object)
    run_rows: list[dict[str, Any]] = []
    topic_rows: list[dict[str, Any]] = []
    for name in dict.fromkeys(run):
        answers = np.flatnonzero(runs == name)
        picked = runs[sampled] == name
        n = int(picked.sum())
        if n < 2:
            raise _refuse_small(name, n, len(answers), "answer")
        row = _estimates(y_human[picked], y_model[sampled[picked]], y_model[answers],
                         "uniform", tuning, alpha)
        run_rows.append(_row(label, name, "all", float(y_model[answers].mean()), row, n,
                             len(answers)))
        chosen = set(sampled[picked].tolist())
        topic_rows.extend(_row(label, name, topic[a], float(y_model[a]), None,
                               int(a in chosen), 1) for a in answers)
    return run_rows, topic_rows


def assignment_estimates(model: Assignments, human: Assignments,
                         where: list[tuple[str, int]], requests: Sequence[Any], *,
                         design: str, alpha: float, tuning: str) -> AssignmentEstimates:
    """The prediction-powered scores of ``requests`` (parsed measure names) of the model's
    assignments corrected with the human sample ``human`` (``where``: the file and line of
    each of its records) under ``design`` (module documentation)."""
    assignment_values(model, requests)  # V of an answer without a vital nugget: refused
    sample = match_sample(model, human, where, design)
    runs: list[dict[str, Any]] = []
    topics: list[dict[str, Any]] = []
    for request in requests:
        if design == "answers":
            found = _answer_design_rows(model, human, sample, request, tuning, alpha)
        else:
            found = _item_rows(model, sample, request.label, request.family, design, tuning,
                               alpha)
        runs += found[0]
        topics += found[1]
    return AssignmentEstimates.of_rows(runs, topics, design, alpha, tuning)


__all__ = ["COLUMNS", "AssignmentEstimates", "HumanSample", "ItemSample", "answer_rows",
           "assignment_estimates", "item_rows", "match_sample"]
