"""Helpers of the measure-catalogue tests: batches of judged rankings written by hand, and
measures evaluated on them by name (the same path as ``irscale.evaluate``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irscale.core.judged import JudgedRankings
from irscale.measures.base import EvalContext
from irscale.measures.compute import compute_requests
from irscale.measures.names import parse_measures


def batch(rankings: Sequence[Sequence[int]], levels: Sequence[Sequence[int]],
          relevance_level: int = 1, **attributes: Sequence[Sequence[float]]) -> JudgedRankings:
    """A batch of judged rankings: ``rankings[i]`` the degrees in rank order (-1: not in the
    qrels, -2: judged negative), ``levels[i][g]`` the topic's judged documents of degree g."""
    width = max(len(row) for row in levels)
    rel_levels = np.zeros((len(levels), width), dtype=np.int64)
    for i, row in enumerate(levels):
        rel_levels[i, : len(row)] = row
    lengths = [len(r) for r in rankings]
    jr = JudgedRankings(
        rel=np.array([v for r in rankings for v in r], dtype=np.int64),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        rel_levels=rel_levels,
        ranking_topic=np.arange(len(rankings), dtype=np.int64),
        ranking_run=np.zeros(len(rankings), dtype=np.int64),
        topics=tuple(str(i) for i in range(len(rankings))),
        runs=("run",),
        relevance_level=relevance_level,
    )
    if attributes:
        jr = jr.with_attributes(**{name: np.array([v for r in values for v in r], dtype=float)
                                   for name, values in attributes.items()})
    return jr


def measure(name: str, jr: JudgedRankings) -> np.ndarray:
    """Per-ranking values of the measure ``name`` on ``jr``."""
    requests = parse_measures([name])
    columns, values = compute_requests(jr, requests, EvalContext())
    (column,) = columns
    return values[column.label]


def complete_levels(rankings: Sequence[Sequence[int]], extra: int = 0,
                    n_levels: int = 3) -> list[list[int]]:
    """Recall bases holding every judged document of each ranking (plus ``extra``
    unretrieved documents of the highest degree)."""
    out = []
    for r in rankings:
        row = [0] * n_levels
        for v in r:
            if v >= 0:
                row[v] += 1
        row[-1] += extra
        out.append(row)
    return out
