"""The neutral table the writers of :mod:`irscale.io.output` print: columns and values.

A :class:`ResultTable` is what an evaluation holds (:class:`irscale.evaluation.Evaluation`
is one; so is the transformation of :mod:`irscale.scales.transform`): its :class:`Column`
s say how each output is printed (``value_type``), whether it has a value per topic
(``per_query``) and how it is summarised over topics (``aggregate``: ``mean``, ``sum``,
``gmean``, ``count``, ``runid`` or ``none``, as :mod:`irscale.measures.base` defines them);
``values[label]`` holds one value per row of ``rows`` (the run and topic of each).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

from .. import _engine
from ..core.params import Integers
from ..core.rows import TopicRows

if TYPE_CHECKING:  # pragma: no cover - types of the protocols' methods
    import pandas as pd

    from ..core.mean_intervals import MeanInterval
    from ..core.scorematrix import ScoreMatrix

Aggregate = Literal["mean", "sum", "gmean", "count", "runid", "none"]
ValueType = Literal["float", "int", "str"]


@dataclass(frozen=True)
class Column:
    """One output of an evaluation: its label, how it is printed and summarised."""

    label: str
    aggregate: Aggregate = "mean"
    value_type: ValueType = "float"
    per_query: bool = True


class SummaryTable(Protocol):
    """Labelled columns and their summaries per run (what the summary lines print)."""

    @property
    def columns(self) -> tuple[Column, ...]: ...

    @property
    def runs(self) -> tuple[str, ...]: ...

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        """``(column, summary value)`` of one run, in output order."""
        ...


def check_run_index(table: SummaryTable, run_index: object) -> int:
    """``run_index`` as the place of one of the runs of ``table`` (``0 ≤ run_index <
    len(runs)``; a negative index would silently pick a run from the end), or a
    :class:`~irscale.errors.ParameterError` naming it: what every ``summary(run_index)``
    checks first."""
    return Integers(0, max(len(table.runs) - 1, 0), strict=True).check(run_index,
                                                                        "run_index")


class ResultTable(SummaryTable, Protocol):
    """Per-row values of labelled columns and their summaries per run."""

    @property
    def values(self) -> Mapping[str, np.ndarray]: ...

    @property
    def rows(self) -> TopicRows: ...


@runtime_checkable
class RunTable(SummaryTable, Protocol):
    """Summaries per run of per-topic measures, their score matrix and the intervals of their
    means: what the paper's table and the comparison with a baseline read
    (:class:`irscale.measures.results.RunSummaries` is one). Checkable at run time: the API
    edge refuses an argument that lacks them (:mod:`irscale.core.edge`)."""

    @property
    def measures(self) -> tuple[str, ...]:
        """Labels of the numeric per-topic measures."""
        ...

    def to_matrix(self, *, measures: Sequence[str] | None = None) -> ScoreMatrix: ...

    def intervals(self, method: MeanInterval = "t", *, alpha: float = 0.05,
                  samples: int = 10_000, rng: Any = None) -> pd.DataFrame: ...


@runtime_checkable
class AveragedTable(ResultTable, Protocol):
    """A result table with the rule that summarised its rows and the run ids its files
    name: what ndeval's writer reads (:class:`irscale.measures.results.Evaluation` is
    one; checkable at run time, as :class:`RunTable`)."""

    @property
    def averaging(self) -> Averaging: ...

    @property
    def runids(self) -> tuple[str, ...]: ...


def engine_values(values: Any) -> Any:
    """A column's values as the engine reads them: a contiguous float64 array (floats), an
    int64 array (integers, booleans), or a list of strings (text)."""
    array = np.asarray(values)
    if array.dtype.kind == "f":
        return np.ascontiguousarray(array, dtype=np.float64)
    if array.dtype.kind in "iub":
        return np.ascontiguousarray(array, dtype=np.int64)
    return array.tolist()


def run_summaries(columns: Sequence[Column], values: Mapping[str, Any], rows: TopicRows,
                  rule: str, complete: bool, n_qrels_topics: int,
                  totals: Mapping[str, int]) -> list[list[Any]]:
    """The summary values of every run of ``rows``, one per column whose aggregate is not
    ``none`` (in column order), computed by the engine (``rust/src/output/summary.rs``:
    trec_eval 9.0.8's ``meas_avg.c`` rules, ndeval's ``amean`` or the plain mean, by
    ``rule``; :mod:`irscale.measures.results` documents them). ``complete``: ``-c`` (means
    over ``n_qrels_topics``); ``totals``: sums replaced (9.0.8's ``num_rel`` with ``-c``)."""
    evaluated = (None if rows.evaluated is None
                 else np.ascontiguousarray(rows.evaluated, dtype=bool))
    return _engine.summaries(
        [(c.label, c.aggregate) for c in columns],
        [engine_values(values[c.label]) if c.aggregate in ("mean", "gmean", "sum") else None
         for c in columns],
        np.ascontiguousarray(rows.ranking_run, dtype=np.int64), evaluated,
        rows.placeholder is not None, list(rows.runs), rule, complete, n_qrels_topics,
        list(totals.items()))


def summary_mean(values: Any, divisor: int, rule: str) -> float:
    """The mean of ``values`` over ``divisor`` topics, added topic by topic (no topic: 0, or
    ndeval's C ``0.0/0`` with ``rule`` ``"ndeval"``): the engine's, as in
    :func:`run_summaries`."""
    return _engine.summary_mean(np.ascontiguousarray(values, dtype=np.float64), divisor, rule)


#: How an evaluation summarises a run (:mod:`irscale.measures.results` documents the rules).
AveragingRule = Literal["trec_eval", "ndeval", "mean"]


@dataclass(frozen=True)
class Averaging:
    """How an evaluation summarises each run's per-topic values (the rules:
    :mod:`irscale.measures.results`).

    ``complete``: trec_eval's and ndeval's ``-c`` (divide by ``n_qrels_topics``, the number
    of topics of the gold standard); ``totals``: summary values that replace a column's
    sum with ``complete`` in trec_eval 9.0.8 (``num_rel`` counts the relevant documents of
    every qrels topic: :func:`irscale.evaluation.setup.complete_num_rel`).
    """

    rule: AveragingRule = "mean"
    complete: bool = False
    n_qrels_topics: int = 0
    totals: Mapping[str, int] = field(default_factory=dict)

    def mean(self, values: np.ndarray, divisor: int) -> float:
        """The mean of ``values`` over ``divisor`` topics, added topic by topic (no topic:
        0, ndeval's C ``0.0/0`` = ``-nan`` or ``±inf``): the engine's ``summary_mean``."""
        return summary_mean(values, divisor, self.rule)

__all__ = ["Aggregate", "AveragedTable", "Averaging", "AveragingRule", "Column", "ResultTable",
           "RunTable", "SummaryTable", "ValueType", "check_run_index", "engine_values",
           "run_summaries", "summary_mean"]
