"""The text outputs of an evaluation of diversity measures: ndeval's CSV, and the trec and
csv formats of ``irscale eval`` with diversity measures (one block of lines per measure).

:func:`ndeval_text` is what :meth:`irscale.measures.results.Evaluation.format` writes for
an evaluation summarised as ndeval summarises (``averaging.rule == "ndeval"``) in the
``ndeval``, ``trec`` and ``csv`` formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np

from ...core.params import check_risk_alpha
from ...errors import ParameterError
from .rankings import id_sort_key
from .risk import c_format, risk_based

if TYPE_CHECKING:  # pragma: no cover
    from ...io.table import AveragedTable


def ndeval_text(evaluation: AveragedTable, fmt: Literal["ndeval", "trec", "csv"] = "ndeval", *,
                per_query: bool = False, summary: bool = True,
                baseline: AveragedTable | None = None, risk_alpha: float | str = "0") -> str:
    """``evaluation`` (of diversity measures) as ndeval prints it, or as ``irscale eval``
    prints it in the trec and csv formats.

    ``ndeval``: ``runid,topic,<measures>`` CSV, one row per run topic and an ``amean`` row
    per run, values with six decimals (``-nan`` as C prints it). With ``baseline`` (the
    evaluation of one baseline run, same measures and options), what ``ndeval -baseline B
    -riskAlpha A`` prints (ndeval 4.5's ``outputMeasures``): every value is
    :func:`~irscale.measures.diversity.risk.risk_based` (run, baseline, A); the run's
    and the baseline's topics are walked together in topic order, a topic one of them
    lacks counting 0 for it; a baseline topic the run lacks is printed only with
    ``complete`` (``-c``); the mean divides by the number of printed rows when that is
    larger than the usual count; the run label reads ``runid (rel to. BASELINE; rs=1+a;
    a=A)`` with A as given (a string is printed as typed, as ndeval prints its argument;
    a number with ``%g``).

    ``trec``: ``measure<TAB>topic<TAB>value`` lines with four decimals, measure after
    measure (``per_query``: a line per run topic, then the ``all`` line of the mean unless
    not ``summary``), a fourth field naming the run when there are several. ``csv``:
    ``run,topic,measure,value`` lines with six decimals, every run topic and the ``amean``
    row (unless not ``summary``).

    >>> from irscale.io.diversity import read_diversity_qrels
    >>> from irscale.io.trec import read_run
    >>> from irscale.evaluation.diversity import evaluate_diversity
    >>> q = read_diversity_qrels(b"1 1 d1 1\\n1 2 d2 1\\n2 1 d3 1\\n")
    >>> run = read_run(b"1 Q0 d1 1 2 new\\n1 Q0 d9 2 1 new\\n", keep_rank=True)
    >>> base = read_run(b"1 Q0 d2 1 2 bm25\\n1 Q0 d1 2 1 bm25\\n2 Q0 d3 1 1 bm25\\n",
    ...                 keep_rank=True)
    >>> new, old = (evaluate_diversity(q, r, "strec@2") for r in (run, base))
    >>> print(ndeval_text(new, baseline=old, risk_alpha="1"), end="")
    runid,topic,strec@2
    new (rel to. bm25; rs=1+a; a=1),1,-1.000000
    new (rel to. bm25; rs=1+a; a=1),amean,-1.000000
    """
    if evaluation.averaging.rule != "ndeval":
        raise ParameterError("ndeval's output prints diversity measures")
    if fmt != "ndeval":
        if baseline is not None:
            raise ParameterError("a baseline applies to ndeval's output (format 'ndeval')")
        return _lines(evaluation, fmt, per_query, summary)
    if not summary:
        raise ParameterError("ndeval always prints its amean row (summary=False does not "
                             "apply to format 'ndeval')")
    text = risk_alpha if isinstance(risk_alpha, str) else f"{risk_alpha:g}"
    alpha = check_risk_alpha(risk_alpha)
    labels = [c.label for c in evaluation.columns]
    if baseline is not None and (len(baseline.runs) != 1
                                 or [c.label for c in baseline.columns] != labels):
        raise ParameterError("the baseline is the evaluation of one run with the same "
                             f"measures ({', '.join(labels)})")
    rows, averaging = evaluation.rows, evaluation.averaging
    topic_of = rows.topic_labels
    lines = []
    for k in range(len(evaluation.runs)):
        lines.append(",".join(["runid", "topic", *labels]))
        mine = np.flatnonzero(rows.ranking_run == k)
        runid = _runid(evaluation, k)
        if baseline is None:
            topics = topic_of[mine].tolist()
            columns = [evaluation.values[label][mine] for label in labels]
            mean = [value for _, value in evaluation.summary(k)]
        else:
            runid = f"{runid} (rel to. {_runid(baseline, 0)}; rs=1+a; a={text})"
            topics, columns = _relative_to(evaluation, mine, baseline, alpha)
            judged = int(np.count_nonzero(rows.evaluated_rows(k)))
            count = max(averaging.n_qrels_topics if averaging.complete else judged,
                        len(topics))
            mean = [averaging.mean(column, count) for column in columns]
        for i, topic in enumerate(topics):
            lines.append(",".join([runid, topic, *(c_format(c[i]) for c in columns)]))
        lines.append(",".join([runid, "amean", *(c_format(m) for m in mean)]))
    return "\n".join(lines) + "\n"


def _runid(evaluation: AveragedTable, run_index: int) -> str:
    """The run id the run file names (ndeval's ``runid`` column), else the run's name."""
    runids = evaluation.runids or evaluation.runs
    return runids[run_index]


def _relative_to(evaluation: AveragedTable, rows: np.ndarray, baseline: AveragedTable,
                 alpha: float) -> tuple[list[str], list[np.ndarray]]:
    """ndeval's walk of a run's rows and the baseline's: the printed topics and, per
    measure, the risk-based values (see :func:`ndeval_text`)."""
    topic_of = evaluation.rows.topic_labels
    mine = {topic_of[row]: row for row in rows.tolist()}
    theirs = {topic: row for row, topic in enumerate(baseline.rows.topic_labels.tolist())}
    topics = sorted(set(mine) | (set(theirs) if evaluation.averaging.complete else set()),
                    key=id_sort_key)
    run_row = np.array([mine.get(t, -1) for t in topics], dtype=np.int64)
    base_row = np.array([theirs.get(t, -1) for t in topics], dtype=np.int64)
    columns = []
    for column in evaluation.columns:
        label = column.label
        r = np.where(run_row >= 0, evaluation.values[label][np.maximum(run_row, 0)], 0.0)
        b = np.where(base_row >= 0, baseline.values[label][np.maximum(base_row, 0)], 0.0)
        columns.append(risk_based(r, b, alpha))
    return topics, columns


def _lines(evaluation: AveragedTable, fmt: Literal["trec", "csv"], per_query: bool,
           summary: bool) -> str:
    """The trec and csv formats of :func:`ndeval_text`."""
    lines = []
    several = len(evaluation.runs) > 1
    topic_of = evaluation.rows.topic_labels
    if fmt == "csv":
        lines.append("run,topic,measure,value")
    for k, name in enumerate(evaluation.runs):
        rows = np.flatnonzero(evaluation.rows.ranking_run == k).tolist()
        for column, mean in evaluation.summary(k):
            label = column.label
            entries = []
            if per_query or fmt == "csv":
                entries = [(topic_of[i], evaluation.values[label][i]) for i in rows]
            if summary:
                entries.append(("all" if fmt == "trec" else "amean", mean))
            for topic, value in entries:
                if fmt == "csv":
                    lines.append(f"{name},{topic},{label},{c_format(value)}")
                else:
                    line = f"{label:<22}\t{topic}\t{c_format(value, 4)}"
                    lines.append(line + (f"\t{name}" if several else ""))
    return "\n".join(lines) + ("\n" if lines else "")
