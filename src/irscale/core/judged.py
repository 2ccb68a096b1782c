"""Judged rankings: the common currency of every measure.

A judged ranking is the vector of relevance degrees of the documents a system retrieved
for one topic, in rank order, together with the topic's context (how many judged
documents it has at each relevance degree). :class:`JudgedRankings` holds a whole batch of
them (every evaluated (run, topic) pair) in CSR form, built once per (qrels, runs):

* ``rel``: flat int64 array of relevance values, ranking after ranking, with trec_eval's
  sentinels: ``NONPOOL = -1`` (document not in the qrels) and ``UNJUDGED = -2`` (in the
  qrels with a negative degree, i.e. pooled but not judged);
* ``offsets``: ranking ``i`` is ``rel[offsets[i]:offsets[i + 1]]``;
* ``rel_levels[i, j]``: number of documents judged with degree ``degrees[j]`` (``≥ 0``) for
  the topic of ranking ``i`` — the recall base per level, from which ideal rankings follow.
  Columns are the distinct judged degrees (:attr:`JudgedRankings.column_degrees`): column
  ``g`` is degree ``g`` when the qrels use the degrees 0, 1, ..., k-1, and a qrels file with
  one label of 10,000,000 gets one more column, not ten million.

Measure kernels are functions of a :class:`JudgedRankings` only, vectorised over the batch.
The same structure is fed with synthetic rankings by the interval-scale engine.

Batches of real runs are built by the native engine (``rust/src/judge.rs``): from TREC
files and dicts (:mod:`irscale.io.native_trec`), and from ``Qrels`` and ``Run`` objects
(:func:`irscale.core.judge.build_judged_rankings`): the qrels are indexed once, every run is
ranked by the tie policy and its documents looked up in the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from ..errors import InputError, MeasureError, ParameterError
from .params import DEFAULT_RELEVANCE_LEVEL
from .rows import TopicRows
from .segments import ScanLayout, Segmented, segment_cumsum, segment_sum

NONPOOL = -1
UNJUDGED = -2

@dataclass(frozen=True, eq=False)
class Rejudged:
    """Other judgments of the same rankings (:attr:`JudgedRankings.rejudged`): a degree per
    retrieved document (aligned with ``rel``, trec_eval's sentinels kept), and the recall
    base per degree of each ranking's topic with the degree of each column."""

    rel: np.ndarray
    rel_levels: np.ndarray
    degrees: np.ndarray


#: The cached properties of a batch that depend on its offsets only.
_LAYOUT_CACHES = ("lengths", "segment", "rank", "scan_layout")


@dataclass(frozen=True, eq=False)
class JudgedRankings(Segmented):
    """A batch of judged rankings (see the module documentation)."""

    rel: np.ndarray
    offsets: np.ndarray
    rel_levels: np.ndarray
    ranking_topic: np.ndarray
    ranking_run: np.ndarray
    topics: tuple[str, ...]
    runs: tuple[str, ...]
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL
    #: Rankings standing for a topic the run did not retrieve anything for (trec_eval 10's
    #: ``-c`` evaluates such a topic on one non-pooled "bogus" document).
    placeholder: np.ndarray | None = None
    #: Per run: the topics the run retrieved documents for that have no judgments.
    unjudged_topics: tuple[tuple[str, ...], ...] = field(default=())
    #: Per-document values aligned with ``rel`` (e.g. understandability labels, document
    #: lengths, click probabilities; NaN where a document has none), by name. Views
    #: (:meth:`truncate`, :meth:`condensed`) keep them aligned.
    attributes: tuple[tuple[str, np.ndarray], ...] = field(default=())
    #: The relevance degree counted by each column of ``rel_levels`` (ascending, all ≥ 0);
    #: ``None``: column ``g`` counts degree ``g``. Use :attr:`column_degrees`.
    degrees: np.ndarray | None = None
    #: The judgments under conditional relevance (:mod:`irscale.core.conditional`), when
    #: conditional groups were given: see :meth:`conditional`.
    rejudged: Rejudged | None = None
    #: With ``--ties expected``: the tie group of each document, aligned with ``rel``
    #: (consecutive documents of a ranking with the same id have equal scores); the
    #: measures then take their expectations over the orders of each group
    #: (``rust/src/tie_aware.rs``). ``None``: the rankings' order is the only one.
    tie_groups: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.offsets) - 1
        if n < 0 or self.offsets[0] != 0 or self.offsets[-1] != len(self.rel):
            raise InputError("inconsistent judged-ranking offsets")
        if self.rel_levels.shape[0] != n or len(self.ranking_topic) != n:
            raise InputError("inconsistent judged-ranking context arrays")
        if self.degrees is not None and len(self.degrees) != self.rel_levels.shape[1]:
            raise InputError("inconsistent judged-ranking degrees")

    # ------------------------------------------------------------ sizes and positions
    # (n_rankings, and lengths, the retrieved documents of each ranking, num_ret: Segmented)
    @cached_property
    def segment(self) -> np.ndarray:
        """Ranking index of every element of ``rel``."""
        return np.repeat(np.arange(self.n_rankings), self.lengths)

    @cached_property
    def rank(self) -> np.ndarray:
        """1-based rank of every element of ``rel`` within its ranking."""
        return np.arange(1, len(self.rel) + 1) - np.repeat(self.offsets[:-1], self.lengths)

    # ------------------------------------------------------------ relevance context
    @cached_property
    def is_relevant(self) -> np.ndarray:
        """Boolean per element: relevance degree ≥ the relevance level."""
        return self.rel >= self.relevance_level

    @cached_property
    def is_judged(self) -> np.ndarray:
        """Boolean per element: the document was judged (degree ≥ 0)."""
        return self.rel >= 0

    @cached_property
    def scan_layout(self) -> ScanLayout:
        """Block layout of the batch for in-order scans (:func:`segment_scan`)."""
        return ScanLayout.of(self.offsets)

    @cached_property
    def cum_relevant(self) -> np.ndarray:
        """Number of relevant documents at or above each element, within its ranking."""
        return segment_cumsum(self.is_relevant.astype(np.int64), self.offsets)

    @cached_property
    def column_degrees(self) -> np.ndarray:
        """The relevance degree counted by each column of ``rel_levels`` (int64, ascending)."""
        if self.degrees is None:
            return np.arange(self.rel_levels.shape[1], dtype=np.int64)
        return np.asarray(self.degrees, dtype=np.int64)

    def judged_at_least(self, level: int) -> np.ndarray:
        """Per ranking: its topic's judged documents of degree ≥ ``level`` (and ≥ 0)."""
        return self.rel_levels[:, self.column_degrees >= max(level, 0)].sum(axis=1)

    @cached_property
    def num_rel(self) -> np.ndarray:
        """Recall base R of each ranking's topic: judged documents with degree ≥ level."""
        return self.judged_at_least(self.relevance_level)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged non-relevant documents of each ranking's topic (0 ≤ degree < level)."""
        return self.rel_levels[:, self.column_degrees < self.relevance_level].sum(axis=1)

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        """Relevant judged documents retrieved by each ranking (form_res_rels' num_rel_ret).

        Only judged documents count, as in trec_eval: with a relevance level ≤ -1 a document
        outside the qrels passes ``is_relevant`` but is never counted here.
        """
        counted = np.flatnonzero(self.rel >= max(self.relevance_level, 0))
        ranking = np.searchsorted(self.offsets, counted, side="right") - 1
        return np.bincount(ranking, minlength=self.n_rankings)

    def tie_dependent(self) -> int:
        """The rankings (with :attr:`tie_groups`) whose plain values may depend on the order
        of their ties: those with a tie group holding documents of different relevance
        values (documents outside the qrels and unjudged ones alike); 0 without groups."""
        if self.tie_groups is None or len(self.rel) < 2:
            return 0
        rel = np.maximum(self.rel, NONPOOL)
        segment = self.segment
        mixed = (self.tie_groups[1:] == self.tie_groups[:-1]) \
            & (segment[1:] == segment[:-1]) & (rel[1:] != rel[:-1])
        return len(np.unique(segment[1:][mixed]))

    def segment_sum(self, values: np.ndarray) -> np.ndarray:
        """Sum of per-element ``values`` over each ranking (floats added in rank order)."""
        return segment_sum(values, self.offsets, self.segment)

    # ------------------------------------------------------------ derived batches
    def with_level(self, relevance_level: int) -> JudgedRankings:
        """The same rankings judged with another minimum relevant degree (``-l``)."""
        if relevance_level == self.relevance_level:
            return self
        return replace(self, relevance_level=relevance_level)

    def truncate(self, depth: int) -> JudgedRankings:
        """The rankings cut after their first ``depth`` documents (the recall base is kept)."""
        if depth < 0:
            raise ParameterError(f"truncation depth must be ≥ 0, got {depth}")
        if depth >= int(self.lengths.max(initial=0)):
            return self
        return self._subset(self.rank <= depth)

    def condensed(self) -> JudgedRankings:
        """The condensed rankings: unjudged documents removed, the others moved up (Sakai's
        condensed lists, Sakai (2014), §2.2; trec_eval's ``-J``)."""
        judged = self.is_judged
        return self if judged.all() else self._subset(judged)

    def conditional(self) -> JudgedRankings:
        """The rankings judged under conditional relevance (:attr:`rejudged`, built by
        :func:`irscale.core.conditional.with_conditional`): the same documents at the same
        ranks, each conditional group relevant once, at the rank of its last member.
        :class:`MeasureError` when no conditional groups were given."""
        if self.rejudged is None:
            raise MeasureError("no conditional groups were given: give them with --labels "
                               "conditional=FILE (in Python labels={'conditional': path})")
        out = replace(self, rel=self.rejudged.rel, rel_levels=self.rejudged.rel_levels,
                      degrees=self.rejudged.degrees, rejudged=None)
        for name in _LAYOUT_CACHES:
            if name in self.__dict__:
                out.__dict__[name] = self.__dict__[name]
        return out

    def _subset(self, keep: np.ndarray) -> JudgedRankings:
        """The rankings reduced to the documents flagged in ``keep`` (order kept)."""
        lengths = np.bincount(self.segment[keep], minlength=self.n_rankings)
        rejudged = self.rejudged
        return replace(
            self,
            rel=self.rel[keep],
            offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            attributes=tuple((name, values[keep]) for name, values in self.attributes),
            rejudged=None if rejudged is None else replace(rejudged, rel=rejudged.rel[keep]),
            tie_groups=None if self.tie_groups is None else self.tie_groups[keep],
        )

    def rankings(self, first: int, stop: int) -> JudgedRankings:
        """The batch of rankings ``first .. stop - 1`` (views, not copies, of this batch's
        arrays; the per-run lists are kept whole)."""
        if not 0 <= first <= stop <= self.n_rankings:
            raise ParameterError(f"rankings {first}..{stop} out of 0..{self.n_rankings}")
        begin, end = int(self.offsets[first]), int(self.offsets[stop])
        rejudged = self.rejudged
        if rejudged is not None:
            rejudged = replace(rejudged, rel=rejudged.rel[begin:end],
                               rel_levels=rejudged.rel_levels[first:stop])
        return replace(
            self,
            rel=self.rel[begin:end],
            offsets=self.offsets[first: stop + 1] - begin,
            rel_levels=self.rel_levels[first:stop],
            ranking_topic=self.ranking_topic[first:stop],
            ranking_run=self.ranking_run[first:stop],
            placeholder=None if self.placeholder is None else self.placeholder[first:stop],
            attributes=tuple((name, values[begin:end]) for name, values in self.attributes),
            rejudged=rejudged,
            tie_groups=None if self.tie_groups is None else self.tie_groups[begin:end],
        )

    def attribute(self, name: str) -> np.ndarray:
        """The per-document values named ``name`` (KeyError listing the available names)."""
        for key, values in self.attributes:
            if key == name:
                return values
        available = ", ".join(key for key, _ in self.attributes) or "none"
        raise KeyError(f"no per-document values named {name!r} (available: {available})")

    def with_values(self, *, rel: np.ndarray | None = None,
                    attributes: tuple[tuple[str, np.ndarray], ...] | None = None
                    ) -> JudgedRankings:
        """The same rankings (offsets and context) with other per-document relevance values
        and/or attributes; the caches that follow from the offsets alone (:attr:`lengths`,
        :attr:`segment`, :attr:`rank`, :attr:`scan_layout`) are shared, not recomputed."""
        attributes = self.attributes if attributes is None else attributes
        if any(len(v) != len(self.rel) for _, v in attributes):
            raise InputError("attributes and relevance values differ in length")
        out = replace(self, rel=self.rel if rel is None else rel, attributes=attributes,
                      rejudged=self.rejudged if rel is None else None)
        for name in _LAYOUT_CACHES:
            if name in self.__dict__:
                out.__dict__[name] = self.__dict__[name]
        return out

    def with_attributes(self, **values: np.ndarray) -> JudgedRankings:
        """The same rankings with per-document values added (or replaced), by name."""
        for name, array in values.items():
            if len(array) != len(self.rel):
                raise InputError(f"attribute {name!r} has {len(array)} values for "
                                 f"{len(self.rel)} documents")
        kept = tuple((k, v) for k, v in self.attributes if k not in values)
        added = tuple((k, np.asarray(v, dtype=np.float64)) for k, v in values.items())
        return replace(self, attributes=kept + added)

    # ------------------------------------------------------------ labels
    @property
    def rows(self) -> TopicRows:
        """The run and topic of every ranking (the same arrays), as an evaluation's rows."""
        return TopicRows(runs=self.runs, topics=self.topics, ranking_run=self.ranking_run,
                         ranking_topic=self.ranking_topic,
                         unjudged_topics=self.unjudged_topics, placeholder=self.placeholder)

    @property
    def topic_labels(self) -> np.ndarray:
        """Topic id of every ranking."""
        return self.rows.topic_labels

    @property
    def run_labels(self) -> np.ndarray:
        """Run name of every ranking."""
        return self.rows.run_labels

    def __repr__(self) -> str:
        return (
            f"JudgedRankings({self.n_rankings} rankings, {len(self.rel)} documents, "
            f"{len(self.runs)} runs, relevance_level={self.relevance_level})"
        )
