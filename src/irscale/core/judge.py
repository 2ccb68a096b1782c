"""Judging runs against qrels: the batch of judged rankings of every (run, topic) pair.

:func:`build_judged_rankings` hands the columns of the ``Qrels`` and ``Run`` objects
(:mod:`irscale.core.native_columns`) to the native engine (``rust/src/columns.rs``), which
indexes the qrels, ranks every run by the tie policy (``rust/src/ties.rs``), looks its
documents up and stacks the rankings into the arrays of one
:class:`~irscale.core.judged.JudgedRankings`, as it does for TREC files and dicts.
:class:`PairJudge` judges (topic, docno) pairs on the same engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _engine
from ..errors import InputError
from .inputs import Qrels, Run
from .judged import JudgedRankings
from .native_columns import qrels_columns, run_columns, string_column
from .native_judge import judged_rankings
from .options import RankingOptions, TiePolicy, check_tie_order


def build_judged_rankings(
    qrels: Qrels,
    runs: Sequence[Run],
    options: RankingOptions | None = None,
    *,
    placeholders: bool = False,
) -> JudgedRankings:
    """Judge every run against the qrels and stack the rankings into one batch: the native
    engine's ``judge_columns`` (``rust/src/columns.rs``) on the objects' columns, read in
    place (:mod:`irscale.core.native_columns`).

    Rankings are ordered run by run, and within a run by topic id in byte order (the
    order trec_eval prints them in). With ``placeholders`` (trec_eval 10's ``-c``), each
    judged topic a run did not retrieve anything for gets a one-document ranking of a
    non-pooled document, flagged in ``JudgedRankings.placeholder``.
    """
    jr, _ = judge_with_rows(qrels, runs, options, placeholders=placeholders)
    return jr


def judge_with_rows(
    qrels: Qrels,
    runs: Sequence[Run],
    options: RankingOptions | None = None,
    *,
    placeholders: bool = False,
    keep_rows: bool = False,
) -> tuple[JudgedRankings, list[np.ndarray] | None]:
    """:func:`build_judged_rankings`, and with ``keep_rows`` every run's row of each of its
    judged documents but the placeholders, in the order of the rankings (for per-document
    lookups such as :func:`irscale.core.labels.attach_labels`)."""
    options = options or RankingOptions()
    if not runs:
        raise InputError("no run to evaluate")
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    judged, rows = _engine.judge_columns(
        qrels_columns(qrels), [run_columns(run, options.ties) for run in runs], options.ties,
        options.compat, options.max_docs, options.judged_only, placeholders, keep_rows)
    (rel, offsets, rel_levels, degrees, dense, _, ranking_topic, ranking_run, placeholder,
     topics, _, unjudged, tie_groups) = judged
    jr = judged_rankings(rel, offsets, rel_levels, degrees, dense, ranking_topic, ranking_run,
                         placeholder, topics, names, unjudged, options,
                         placeholders=placeholders, tie_groups=tie_groups)
    return jr, rows


def rank_rows(run: Run, topics: Sequence[str], ties: TiePolicy, compat: int = 9
              ) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``run`` of the topics ``topics`` (a topic's code is its place there) by
    code, each topic's in ranking order by the tie policy ``ties`` (scores compared as
    trec_eval ``compat`` compares them), and the code of every row: int64 both. Runs are
    ranked by the native engine, as :func:`build_judged_rankings` ranks them; ``expected``
    is refused (an order of the ties is needed)."""
    check_tie_order(ties, "a ranking of a run's rows")
    rows, codes = _engine.ranked_rows(run_columns(run, ties), list(topics), ties, compat)
    return rows, codes


class PairJudge:
    """Qrels indexed by the engine, to judge (topic, docno) pairs that are not runs ranked
    topic by topic: the documents of sessions, the candidates of a pool.

    Topics are numbered by their place in :attr:`topics` (byte order; -1: no judgments),
    as :class:`~irscale.core.judged.JudgedRankings` numbers the columns of its recall
    bases (:meth:`rel_levels`, :attr:`degrees`).
    """

    def __init__(self, qrels: Qrels) -> None:
        self._columns = qrels_columns(qrels)
        topics, self._rel_levels, degrees, dense = _engine.qrels_levels(self._columns)
        self._topics = tuple(topics)
        self._degrees = None if dense else degrees
        self._codes = {topic: code for code, topic in enumerate(self._topics)}

    @property
    def topics(self) -> tuple[str, ...]:
        """The judged topics, in byte order."""
        return self._topics

    @property
    def degrees(self) -> np.ndarray | None:
        """The degree counted by each column of :meth:`rel_levels` (``None``: column g
        counts degree g), as :attr:`JudgedRankings.degrees`."""
        return self._degrees

    def rel_levels(self, topic_code: np.ndarray) -> np.ndarray:
        """The judged documents of each topic by degree column (one row per code)."""
        return self._rel_levels[topic_code]

    def topic_codes(self, topics: Sequence[str]) -> np.ndarray:
        """The code (int64) of every topic id, -1 for a topic without judgments."""
        return np.array([self._codes.get(topic, -1) for topic in topics], dtype=np.int64)

    def degrees_of(self, topic_code: np.ndarray, docnos: object,
                   doc: np.ndarray | None = None) -> np.ndarray:
        """The relevance degree (int64) of every pair (``topic_code[i]``, ``docnos[doc[i]]``)
        (``doc`` ``None``: ``docnos[i]``): the qrels' degree, ``UNJUDGED`` for a negative
        one, ``NONPOOL`` for a pair not in the qrels (or a topic code -1). ``docnos``: a
        :class:`~irscale.core.strings.Strings` column, or what
        :func:`~irscale.core.native_columns.string_column` takes."""
        offsets, data = string_column(docnos, "docno", "<pairs>")
        return _engine.pair_degrees(
            self._columns, np.ascontiguousarray(topic_code, dtype=np.int64), offsets, data,
            None if doc is None else np.ascontiguousarray(doc, dtype=np.int64))
