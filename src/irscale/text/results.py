"""Per-(run, topic) values of textual outputs as the ordinary
:class:`~irscale.evaluation.Evaluation`, so that ``per_topic()``, ``mean()``,
``to_matrix()`` and the output writers of ``irscale eval`` work on them unchanged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..core.judged import JudgedRankings
from ..evaluation import Evaluation, check_topics
from ..io.table import Column
from ..measures.base import EvalContext


def text_evaluation(runs: Sequence[str], run_index: np.ndarray, topic: Sequence[str],
                    values: Mapping[str, np.ndarray], *, gold_topics: Sequence[str],
                    unjudged: Sequence[Sequence[str]] | None = None,
                    allow_empty: bool = False, source: str | None = None,
                    gold: str = "references") -> Evaluation:
    """An :class:`Evaluation` with one row per evaluated output.

    ``run_index[i]`` and ``topic[i]`` say whose output row ``i`` of every ``values`` array
    is (any order: rows are put run by run, topics in byte order within a run, as
    :func:`irscale.evaluate` orders them). The batch's rankings are empty (a text has no
    judged documents): only their labels are used. ``unjudged``: per run, the topics it
    has outputs for but the gold standard (``source``) does not cover, named in a warning
    by :func:`irscale.evaluation.check_topics` (which also refuses a run with no evaluated
    topic unless ``allow_empty``), calling the gold standard ``gold`` ("references",
    "nuggets") and the texts "outputs". ``gold_topics``: the topics of the gold standard
    (those of ``topic`` among them), named when a run has none of them.
    """
    topics = tuple(sorted(set(gold_topics).union(topic)))
    code = np.searchsorted(np.asarray(topics, dtype=object),
                           np.asarray(list(topic), dtype=object)).astype(np.int64) \
        if len(topic) else np.zeros(0, dtype=np.int64)
    run_index = np.asarray(run_index, dtype=np.int64)
    order = np.lexsort((code, run_index))
    n = len(order)
    jr = JudgedRankings(
        rel=np.zeros(0, dtype=np.int64), offsets=np.zeros(n + 1, dtype=np.int64),
        rel_levels=np.zeros((n, 1), dtype=np.int64), ranking_topic=code[order],
        ranking_run=run_index[order], topics=topics, runs=tuple(runs),
        unjudged_topics=tuple(tuple(u) for u in (unjudged or [()] * len(runs))))
    check_topics(jr, allow_empty=allow_empty, qrels_source=source, gold=gold,
                 results="outputs", judgments=gold)
    return Evaluation(columns=tuple(Column(label) for label in values),
                      values={k: np.asarray(v, dtype=np.float64)[order]
                              for k, v in values.items()},
                      rankings=jr, n_qrels_topics=len(topics), context=EvalContext())
