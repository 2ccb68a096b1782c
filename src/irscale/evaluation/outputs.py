"""Per-(run, topic) values of textual outputs (texts, nuggets, pyramids) as the one
:class:`~irscale.measures.results.Evaluation`, so that ``per_topic()``, ``mean()``,
``to_matrix()``, ``compare()`` and the output writers of ``irscale eval`` work on them
unchanged; and the candidate texts every runner of texts reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.rows import TopicRows
from ..errors import InputError
from ..io.table import Column
from ..io.text import Texts, read_texts
from ..measures.results import Evaluation
from .setup import check_topics


def read_text_source(source: Any, what: str) -> Texts:
    """``source`` as :class:`~irscale.io.text.Texts` (a path or bytes read as ``what``:
    "references", "candidates", "output texts")."""
    return source if isinstance(source, Texts) else read_texts(source, what=what)


def read_candidates(candidates: Any) -> list[Texts]:
    """The candidate texts: one source (path, bytes or Texts) or a list of them."""
    sources = candidates if isinstance(candidates, (list, tuple)) else [candidates]
    if not sources:
        raise InputError("no candidates to evaluate: give a candidate file (or its bytes), "
                         "or a list of them")
    return [read_text_source(c, "candidates") for c in sources]


def text_evaluation(runs: Sequence[str], run_index: np.ndarray, topic: Sequence[str],
                    values: Mapping[str, np.ndarray], *, gold_topics: Sequence[str],
                    unjudged: Sequence[Sequence[str]] | None = None,
                    allow_empty: bool = False, source: str | None = None,
                    gold: str = "references") -> Evaluation:
    """An :class:`Evaluation` with one row per evaluated output, summarised by the plain
    mean over topics.

    ``run_index[i]`` and ``topic[i]`` say whose output row ``i`` of every ``values`` array
    is (any order: rows are put run by run, topics in byte order within a run, as
    :func:`irscale.evaluate` orders them). ``unjudged``: per run, the topics it has
    outputs for but the gold standard (``source``) does not cover, named in a warning by
    :func:`irscale.evaluation.check_topics` (which also refuses a run with no evaluated
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
    rows = TopicRows(runs=tuple(runs), topics=topics, ranking_run=run_index[order],
                     ranking_topic=code[order],
                     unjudged_topics=tuple(tuple(u) for u in (unjudged or [()] * len(runs))))
    check_topics(rows, allow_empty=allow_empty, qrels_source=source, gold=gold,
                 results="outputs", judgments=gold)
    return Evaluation(columns=tuple(Column(label) for label in values),
                      values={k: np.asarray(v, dtype=np.float64)[order]
                              for k, v in values.items()}, rows=rows)
