"""The audit of model-made nugget assignments against human ones (:func:`audit_assignments`):
the questions :func:`irscale.labels.audit` asks of relevance judges, asked of the
assignments of generated answers' nuggets (records of :mod:`irscale.io.assignments`: per
(topic, run) the nuggets with their importance and ``support``, ``partial_support`` or
``not_support``), a human file against one or more model files.

**Items.** A nugget of a (topic, run) is the item; the k-th nugget of a text within a
record on one side is the k-th of that text on the other (the matching of
:mod:`irscale.evaluation.assignments_ppi`). An item both sides label with different
importance is refused (the files are not assignments of the same nuggets), naming the
judge's file, line and nugget text.

**Topics compared.** The runs both sides have records of (two at least); the topics where
every one of those runs has a record under both sides (two at least: the intervals and
the tests). Every statistic is computed on those topics, the same draws of them for the
agreement and the rankings, exactly as :func:`irscale.labels.audit` does
(:func:`irscale.labels.audit.fidelity`):

1. **Label agreement** over the items both label, the assignment as an ordinal grade
   (``not_support`` 0, ``partial_support`` 1, ``support`` 2, i.e. the credit 0, ½, 1):
   Cohen's κ unweighted, linear and quadratic, Krippendorff's α ordinal, the confusion
   matrix (the model's grades as rows);
2. **ranking fidelity** of the runs' mean score ``measure`` (``A``, ``V``, ``W``, strict
   or with partial credit: :mod:`irscale.text.assignments`), each side's score of a
   record computed from its own assignments: τ_b, τ_ap, RBO, top-k;
3. **decision fidelity** of the paired tests of every pair of runs; 4. **bias** per run
   of the model's score minus the human one (the mixed model of the audit).

**Nothing imputed.** The items one side labels and the other does not (a human sample of
the nuggets), the records (topic, run) of one side only, the runs of one side only and
the topics left out (a run without a record there) are counted in the ``coverage`` table,
and per run the items labelled by both and by each (the ``unjudged`` table); an item one
side lacks is left out of the agreement, never given a label.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.progress import ProgressArg, check_progress, counted_work
from ..errors import AlignmentError, InputError, InputFormatError, ParameterError
from .audit import REPLICATE_BYTES, AuditResult, JudgeAudit, _confusions, _Options, fidelity
from .params import AUDIT_ASSIGNMENTS, AUDIT_SAMPLES, DEFAULT_ASSIGNMENT_MEASURE, DEFAULT_TOP_K

if TYPE_CHECKING:  # pragma: no cover
    from ..io.assignments import Assignments
    from ..stats.corrections import Correction

__all__ = ["audit_assignments"]

#: The columns that name an item.
ITEM = ["topic", "run", "text", "k"]


def _named(judges: Any) -> list[tuple[str, Assignments]]:
    """The judges' names and records: a mapping keeps its names; one input or a sequence
    of inputs (paths, bytes, :class:`~irscale.io.assignments.Assignments`) is named by its
    files (:func:`irscale.io.naming.file_names`; ``judge1`` ... where an input has no
    file)."""
    from ..evaluation.assignments import _read
    from ..io.naming import file_names

    if isinstance(judges, Mapping):
        return [(str(name), _read(source)[0]) for name, source in judges.items()]
    listed = list(judges) if isinstance(judges, (list, tuple)) and judges and \
        not all(isinstance(j, Mapping) for j in judges) else [judges]
    read = [_read(source)[0] for source in listed]
    names = file_names([None if a.source.startswith("<") else a.source for a in read],
                       [f"judge{i + 1}" for i in range(len(read))], stacklevel=4)
    return list(zip(names, read, strict=True))


def _items(a: Assignments) -> pd.DataFrame:
    """One row a nugget of ``a``: its item (:data:`ITEM`), whether it is vital, its grade
    (the assignment's code) and its record's line."""
    record = np.asarray(a.record)
    frame = pd.DataFrame({"record": record, "text": list(a.text),
                          "vital": np.asarray(a.vital, dtype=bool),
                          "rel": np.asarray(a.credit, dtype=np.int64)})
    frame["k"] = frame.groupby(["record", "text"]).cumcount()
    frame["topic"] = np.asarray(a.topic, dtype=object)[record]
    frame["run"] = np.asarray(a.run, dtype=object)[record]
    frame["line"] = np.asarray(a.line, dtype=np.int64)[record]
    return frame


def _scores(a: Assignments, label_request: Any, topics: list[str], runs: list[str]
            ) -> np.ndarray:
    """The score of every (topic, run) of ``a`` under the request: topics × runs."""
    from ..text.assignments import assignment_values

    values = assignment_values(a, [label_request])[label_request.label]
    table = pd.Series(values, index=pd.MultiIndex.from_arrays([list(a.topic), list(a.run)]))
    return table.reindex(pd.MultiIndex.from_product([topics, runs])).to_numpy(
        dtype=np.float64).reshape(len(topics), len(runs))


def _audit_one(name: str, judge: Assignments, human: Assignments, items_h: pd.DataFrame,
               request: Any, options: _Options, seed: np.random.SeedSequence, work: Any,
               done: int) -> JudgeAudit:
    """The audit of one model's assignments (module documentation)."""
    items_j = _items(judge)
    where = f"{name!r} ({judge.source})"
    runs_h, runs_j = list(dict.fromkeys(human.run)), set(judge.run)
    runs = [r for r in runs_h if r in runs_j]
    if len(runs) < 2:
        raise AlignmentError(f"judge {where} and the human assignments ({human.source}) "
                             f"share {len(runs)} run{'s' if len(runs) != 1 else ''} "
                             f"({', '.join(map(repr, runs))}): the rankings need two at "
                             "least; run ids written differently, or files of other runs?")
    records_h = set(zip(human.topic, human.run, strict=True))
    records_j = set(zip(judge.topic, judge.run, strict=True))
    topics = [t for t in dict.fromkeys(human.topic)
              if all((t, r) in records_h and (t, r) in records_j for r in runs)]
    if len(topics) < 2:
        raise InputError(f"judge {where} and the human assignments ({human.source}) have "
                         f"records of every shared run on {len(topics)} topic"
                         f"{'s' if len(topics) != 1 else ''}: the intervals and the tests "
                         "need two at least")
    if options.top_k > len(runs):
        raise InputError(f"judge {where} shares {len(runs)} runs with the human "
                         f"assignments: fewer than top_k {options.top_k}")
    both = items_h.merge(items_j, on=ITEM, suffixes=("_human", "_judge"))
    differ = both[both["vital_human"] != both["vital_judge"]]
    if len(differ):
        row = differ.iloc[0]
        raise InputFormatError(
            f"nugget {row['text']!r} of (topic {row['topic']!r}, run {row['run']!r}) is "
            f"{'vital' if row['vital_judge'] else 'okay'} here and "
            f"{'vital' if row['vital_human'] else 'okay'} in the human assignments "
            f"({human.source}, line {row['line_human']}): the audit compares assignments "
            "of the same nuggets", source=judge.source, line=int(row["line_judge"]),
            text=str(row["text"]))
    compared = both[both["topic"].isin(topics)]
    if compared.empty:
        raise InputError(f"judge {where} and the human assignments label no nugget in "
                         "common on the compared topics: there is no agreement to measure "
                         "(nugget texts written differently?)")
    grades = np.unique(np.concatenate([compared["rel_human"], compared["rel_judge"]]))
    h_scores = _scores(human, request, topics, runs)
    j_scores = _scores(judge, request, topics, runs)
    tables = fidelity(_confusions(compared, topics, grades), grades, h_scores, j_scores,
                      runs, options, np.random.default_rng(seed), work, done)
    on_h = items_h[items_h["topic"].isin(topics) & items_h["run"].isin(runs)]
    on_j = items_j[items_j["topic"].isin(topics) & items_j["run"].isin(runs)]
    compared = compared[compared["run"].isin(runs)]
    shared_elsewhere = len(both) - len(compared)
    n_both = len(compared)
    coverage = pd.DataFrame({"what": [
        "items labelled by both (compared topics and runs)",
        "items labelled by the judge only (compared topics and runs)",
        "items labelled by the humans only (compared topics and runs)",
        "items labelled by both on topics or runs left out",
        "topics of the humans left out (a shared run without a record under one side)",
        "records (topic, run) of the humans only", "records (topic, run) of the judge only",
        "runs of the humans only", "runs of the judge only"], "count": [
        n_both, len(on_j) - n_both, len(on_h) - n_both, shared_elsewhere,
        len(set(human.topic)) - len(topics), len(records_h - records_j),
        len(records_j - records_h), len(set(runs_h) - runs_j), len(runs_j - set(runs_h))]})

    def per_run(frame: pd.DataFrame) -> np.ndarray:
        return frame["run"].value_counts().reindex(runs, fill_value=0).to_numpy(np.int64)

    items = pd.DataFrame({"run": runs, "records": len(topics), "items_human": per_run(on_h),
                          "items_judge": per_run(on_j), "items_both": per_run(compared)})
    return JudgeAudit(judge=name, source=judge.source, topics=len(topics), **tables,
                      unjudged=items, coverage=coverage)


@AUDIT_ASSIGNMENTS
def audit_assignments(human: Any, judges: Any, *, measure: str = DEFAULT_ASSIGNMENT_MEASURE,
                      alpha: float = 0.05, test: str = "t", correction: Correction = "holm",
                      n_boot: int = 1000, rng: int = 0, p: float = 0.9,
                      top_k: int | None = None, progress: ProgressArg = False
                      ) -> AuditResult:
    """Audit model-made nugget assignments against human ones (module documentation).

    Parameters
    ----------
    human : path, bytes, list of record dicts or Assignments
        The human assignment records (:func:`irscale.io.read_assignments`' JSON lines).
    judges : one such input, a sequence of them, or a mapping ``{name: input}``
        The models' assignment records, named by their files (a mapping: by its keys).
    measure : str
        The score whose per-topic values order the runs: ``A``, ``V``, ``W``,
        ``A_strict``, ``V_strict`` or ``W_strict`` (default ``W``).
    alpha, test, correction, n_boot, rng, p, top_k, progress
        As for :func:`irscale.labels.audit`.

    Returns
    -------
    AuditResult
        One :class:`~irscale.labels.JudgeAudit` a model (``subject`` ``"assignments"``):
        its ``unjudged`` table counts per run the items each side labels.

    Examples
    --------
    >>> def answer(topic, run, label):
    ...     return {"qid": topic, "run_id": run, "nuggets": [
    ...         {"text": "x", "importance": "vital", "assignment": label}]}
    >>> human = [answer(t, r, "support" if r == "A" else "not_support")
    ...          for t in ("1", "2", "3") for r in ("A", "B")]
    >>> result = audit_assignments(human, {"model": human}, n_boot=10)
    >>> result.judge("model").agreement["estimate"].tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    from ..evaluation.assignments import _read, _requests

    check_progress(progress)
    requests = _requests(measure)
    if len(requests) != 1:
        raise ParameterError(f"measure: give one measure, {measure!r} names {len(requests)}",
                             param="measure")
    records = _read(human)[0]
    named = _named(judges)
    if not named:
        raise ParameterError("judges: give the assignments of one model at least",
                             param="judges")
    runs = len(set(records.run))
    if top_k is None:
        top_k = min(DEFAULT_TOP_K, runs)
    elif top_k > runs:
        raise ParameterError(f"top_k {top_k} exceeds the number of runs of the human "
                             f"assignments ({runs})", param="top_k")
    options = _Options(alpha=alpha, test=test, correction=correction, n_boot=n_boot, p=p,
                       top_k=top_k)
    items_h = _items(records)
    work = counted_work(AUDIT_SAMPLES, n_boot * len(named), "bootstrap of every model's "
                        "agreement and rankings", progress,
                        need=float(REPLICATE_BYTES) * n_boot)
    seeds = np.random.SeedSequence(rng).spawn(len(named))
    audits = tuple(_audit_one(name, judge, records, items_h, requests[0], options, seed,
                              work, i * n_boot)
                   for i, ((name, judge), seed) in enumerate(zip(named, seeds, strict=True)))
    return AuditResult(judges=audits, measure=requests[0].label, alpha=alpha, test=test,
                       correction=correction, n_boot=n_boot, top_k=top_k, p=p,
                       subject="assignments")
