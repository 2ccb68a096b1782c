"""Whose each per-topic value of an evaluation is: the run and the topic of every row.

An evaluation holds one value per row and measure; :class:`TopicRows` says which run and
which topic each row belongs to, whatever was measured (judged rankings, per-intent
judgments, sessions, texts). Rows come run by run, topics in the evaluation's order
within a run (byte order for trec_eval's measures, sessions and texts; numeric order for
ndeval's). A batch of :class:`~irscale.core.judged.JudgedRankings` gives its rows with
:attr:`~irscale.core.judged.JudgedRankings.rows` (the same arrays, not copies).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

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


@dataclass(frozen=True, eq=False)
class RowKeys:
    """Whose each value of a runner is, as the runner knows it: the run (an index into
    :attr:`runs`) and the topic id of every value, in any order; :meth:`ordered` makes the
    :class:`TopicRows` of the evaluation (rows run by run, topics in order within a run).

    ``gold_topics``: the topics of the gold standard, which the rows' topics join (a
    :class:`TopicRows`' ``topics`` may hold topics no row has); ``topic_order``: the key
    that orders the topics (default: byte order, as trec_eval sorts them; ndeval's
    numeric order for diversity measures); ``unjudged``: per run, the topics it has results
    for that the gold standard does not judge (default: none); ``evaluated``: per value,
    whether it is a measurement (:attr:`TopicRows.evaluated`; default: every one).
    """

    runs: Sequence[str]
    run: Sequence[int] | np.ndarray
    topic: Sequence[str]
    gold_topics: Iterable[str] = ()
    topic_order: Callable[[str], Any] | None = None
    unjudged: Sequence[Sequence[str]] | None = None
    evaluated: np.ndarray | None = None

    def ordered(self) -> tuple[TopicRows, np.ndarray | None]:
        """The rows, and the order that puts the values in them (``values[order]``;
        ``None`` when the values already come run by run, topics in order)."""
        topics = tuple(sorted(set(self.gold_topics).union(self.topic), key=self.topic_order))
        where = {topic: code for code, topic in enumerate(topics)}
        codes = np.fromiter((where[topic] for topic in self.topic), dtype=np.int64,
                            count=len(self.topic))
        run = np.asarray(self.run, dtype=np.int64).reshape(-1)
        order = np.lexsort((codes, run))
        in_order = bool(np.all(order == np.arange(len(order))))
        unjudged = self.unjudged if self.unjudged is not None else [()] * len(self.runs)
        evaluated = self.evaluated
        if not in_order:
            run, codes = run[order], codes[order]
            evaluated = None if evaluated is None else evaluated[order]
        return TopicRows(runs=tuple(self.runs), topics=topics, ranking_run=run,
                         ranking_topic=codes,
                         unjudged_topics=tuple(tuple(u) for u in unjudged),
                         evaluated=evaluated), None if in_order else order


__all__ = ["RowKeys", "TopicRows"]
