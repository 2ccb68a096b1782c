"""The neutral table the writers of :mod:`irscale.io.output` print: columns and values.

A :class:`ResultTable` is what an evaluation holds (:class:`irscale.evaluation.Evaluation`
is one; so is the transformation of :mod:`irscale.scales.transform`): its :class:`Column`
s say how each output is printed (``value_type``), whether it has a value per topic
(``per_query``) and how it is summarised over topics (``aggregate``: ``mean``, ``sum``,
``gmean``, ``count``, ``runid`` or ``none``, as :mod:`irscale.measures.base` defines them);
``values[label]`` holds one value per row of ``rows`` (the run and topic of each).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from ..core.rows import TopicRows

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


class ResultTable(SummaryTable, Protocol):
    """Per-row values of labelled columns and their summaries per run."""

    @property
    def values(self) -> Mapping[str, np.ndarray]: ...

    @property
    def rows(self) -> TopicRows: ...


def engine_values(values: Any) -> Any:
    """A column's values as the engine reads them: a contiguous float64 array (floats), an
    int64 array (integers, booleans), or a list of strings (text)."""
    array = np.asarray(values)
    if array.dtype.kind == "f":
        return np.ascontiguousarray(array, dtype=np.float64)
    if array.dtype.kind in "iub":
        return np.ascontiguousarray(array, dtype=np.int64)
    return array.tolist()


__all__ = ["Aggregate", "Column", "ResultTable", "SummaryTable", "ValueType", "engine_values"]
