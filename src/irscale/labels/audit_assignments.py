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

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..errors import InputFormatError, ParameterError
from .audit import AuditResult
from .audit_records import Side, Subject, audit_sides, named_inputs, score_table
from .params import AUDIT_ASSIGNMENTS, DEFAULT_ASSIGNMENT_MEASURE

if TYPE_CHECKING:  # pragma: no cover
    from ..core.progress import ProgressArg
    from ..io.assignments import Assignments
    from ..stats.corrections import Correction

__all__ = ["audit_assignments"]

#: The columns that name an item.
ITEM = ("topic", "run", "text", "k")


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


def _side(a: Assignments, request: Any) -> Side:
    """The records of ``a`` as one side of the audit, scored by ``request``."""
    from ..text.assignments import assignment_values

    def scores(topics: list[str], runs: list[str]) -> np.ndarray:
        values = assignment_values(a, [request])[request.label]
        return score_table(values, a.topic, a.run, topics, runs)

    return Side(a.source, a.topic, a.run, _items(a), scores)


def _same_importance(both: pd.DataFrame, judge: Side, name: str, human: str) -> None:
    """A nugget both label with different importance is refused (the files are not
    assignments of the same nuggets), naming the judge's file, line and nugget text."""
    differ = both[both["vital_human"] != both["vital_judge"]]
    if len(differ):
        row = differ.iloc[0]
        raise InputFormatError(
            f"nugget {row['text']!r} of (topic {row['topic']!r}, run {row['run']!r}) is "
            f"{'vital' if row['vital_judge'] else 'okay'} here and "
            f"{'vital' if row['vital_human'] else 'okay'} in the human assignments "
            f"({human}, line {row['line_human']}): the audit compares assignments "
            "of the same nuggets", source=judge.source, line=int(row["line_judge"]),
            text=str(row["text"]))


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

    requests = _requests(measure)
    if len(requests) != 1:
        raise ParameterError(f"measure: give one measure, {measure!r} names {len(requests)}",
                             param="measure")
    records = _read(human)[0]
    named = named_inputs(judges, lambda source: _read(source)[0])
    subject = Subject("human assignments", "nugget", "nugget texts written differently?",
                      ITEM, lambda both, judge, name: _same_importance(both, judge, name,
                                                                       records.source))
    return audit_sides(_side(records, requests[0]),
                       [(name, _side(a, requests[0])) for name, a in named], subject,
                       requests[0].label, alpha=alpha, test=test, correction=correction,
                       n_boot=n_boot, rng=rng, p=p, top_k=top_k, progress=progress,
                       kind="assignments")
