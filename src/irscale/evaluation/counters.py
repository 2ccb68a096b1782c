"""trec_eval's own columns ``runid`` and ``num_q`` in the evaluations of the contexts that
print them beside their measures (preference judgments, multi-judge qrels): they hold no
per-topic value, and their summaries are the run's name and its number of topics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..io.table import Column

#: The columns of trec_eval's own, by name.
COUNTERS = {"runid": Column("runid", "runid", "str", per_query=False),
            "num_q": Column("num_q", "count", "int", per_query=False)}


def column_values(column: Column, runs: Sequence[Mapping[str, Sequence[float]]],
                  n_rows: int) -> np.ndarray:
    """The values of one column over every run's rows (``runs``: each run's values by
    label; zeros for :data:`COUNTERS`, whose summaries are the run's name and its number of
    topics)."""
    if column.label in COUNTERS:
        return np.zeros(n_rows)
    values = np.asarray([v for run in runs for v in run[column.label]], dtype=np.float64)
    return values.astype(np.int64) if column.value_type == "int" else values


__all__ = ["COUNTERS", "column_values"]
