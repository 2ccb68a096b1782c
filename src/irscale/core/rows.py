"""Whose each per-topic value of an evaluation is: the run and the topic of every row.

An evaluation holds one value per row and measure; :class:`TopicRows` says which run and
which topic each row belongs to, whatever was measured (judged rankings, per-intent
judgments, sessions, texts). Rows come run by run, topics in the evaluation's order
within a run (byte order for trec_eval's measures, sessions and texts; numeric order for
ndeval's). A batch of :class:`~irscale.core.judged.JudgedRankings` gives its rows with
:attr:`~irscale.core.judged.JudgedRankings.rows` (the same arrays, not copies).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class TopicRows:
    """The run and topic of every row of an evaluation (module documentation).

    ``ranking_run[i]`` indexes :attr:`runs` and ``ranking_topic[i]`` indexes :attr:`topics`
    (which may hold topics no row has: those of the gold standard).
    """

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    ranking_run: np.ndarray
    ranking_topic: np.ndarray
    #: Per run: the topics it has results for that the gold standard does not judge.
    unjudged_topics: tuple[tuple[str, ...], ...] = field(default=())
    #: Rows standing for a topic the run did not retrieve anything for (trec_eval 10's
    #: ``-c``); ``None``: none.
    placeholder: np.ndarray | None = None
    #: Rows that are measurements; ``None``: every row. ndeval prints a row scoring 0 for
    #: a run topic the qrels do not judge: it is not evaluated (not in :meth:`per_topic`
    #: tables, matrices or the count of topics a mean divides by).
    evaluated: np.ndarray | None = None

    @property
    def n_rows(self) -> int:
        return len(self.ranking_run)

    @property
    def topic_labels(self) -> np.ndarray:
        """Topic id of every row."""
        return np.asarray(self.topics, dtype=object)[self.ranking_topic]

    @property
    def run_labels(self) -> np.ndarray:
        """Run name of every row."""
        return np.asarray(self.runs, dtype=object)[self.ranking_run]

    def evaluated_rows(self, run_index: int | None = None) -> np.ndarray:
        """Boolean mask of the evaluated rows (of run ``run_index`` when given)."""
        mask = (np.ones(self.n_rows, dtype=bool) if self.evaluated is None
                else np.asarray(self.evaluated, dtype=bool))
        return mask if run_index is None else mask & (self.ranking_run == run_index)


__all__ = ["TopicRows"]
