"""Transforming real evaluations into the ranked (interval-scaled) measure M_R.

For qrels, runs, a run length N and measures (Ferrante et al. 2021, §5):

1. each run is ranked as trec_eval ranks it (tie policy), **cut at N and padded with
   non-relevant documents** when shorter (§5.1) — a run that retrieved nothing for a
   topic is N non-relevant documents; unjudged documents count as non-relevant;
2. degrees are mapped into the space ``REL = {0..c}``: with ``levels = 2`` the binary projection at
   ``relevance_level`` (the lenient mapping of Ferrante et al. 2021 for ℓ = 1); otherwise degrees
   above c are clipped to c. The topic's recall base is mapped the same way;
3. M is the registered kernel on these runs (the "original" measure), and
   ``M_R = φ(M)`` uses the scale of M on ``REL^N``. Measures that do not depend on the
   recall base (P, RR, RBP, DCG, SBTO, RBTO) have one scale for every topic (§5.2.1).
   Measures that do (R, F, AP, nDCG) get each topic's own scale, computed with its recall
   base, used across topics as the surrogate of §5.2.2: on the whole ``REL^N`` their
   order — hence φ — is the same for every topic (R ~ P, AP ~ AP·RB, nDCG ~ DCG), while
   their values are not. With ``feasible=True`` the space of each topic is restricted to
   the runs it allows (no more documents of a degree than its qrels hold), and every
   measure gets a per-topic scale.

The result holds both score matrices (topics × runs) and an :class:`~irscale.evaluation.
Evaluation` that the writers of ``irscale eval`` print (trec, csv, json, markdown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np

from ..core.budget import max_memory_of
from ..core.judge import build_judged_rankings
from ..core.judged import JudgedRankings
from ..core.options import (
    RankingOptions,
    TiePolicy,
    check_tie_order,
)
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.scorematrix import ScoreMatrix
from ..errors import ParameterError
from ..evaluation import Evaluation, check_topics
from ..io.sources import as_qrels, as_runs
from ..measures.results import build_evaluation
from .cost import report
from .enumeration import synthetic_rankings
from .measures import BINARY_KINDS, ScaleMeasure, scale_measure
from .params import TRANSFORM, TRANSFORM_RANKINGS
from .scale import Scale, ScaledImage, TieStrategy, check_size, scale
from .space import Context, Space

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


@dataclass(frozen=True, eq=False)
class ScaleTransform:
    """Per-topic values of measures and of their ranked versions (module documentation).

    ``matrix`` has the measures ``M`` and ``M_R`` (``M_R01`` when rescaled) for each
    measure; ``evaluation`` the same values for the output writers; ``scales`` the scale
    used for each (measure, topic).
    """

    matrix: ScoreMatrix
    evaluation: Evaluation
    N: int
    levels: int
    ties: str
    rescaled: bool
    feasible: bool
    labels: tuple[tuple[str, str], ...]
    scales: dict[tuple[str, str], Scale]

    def original(self, measure: str | None = None) -> ScoreMatrix:
        """The matrix of a measure M (the first one by default)."""
        m, _ = self._pair(measure)
        return self.matrix.measure(m)

    def ranked(self, measure: str | None = None) -> ScoreMatrix:
        """The matrix of its ranked version M_R."""
        _, r = self._pair(measure)
        return self.matrix.measure(r)

    def legend(self) -> list[str]:
        """What the ranked values are, one sentence per measure (Ferrante et al. 2021, §5: φ maps
        each value of the image of M on runs of length N to its rank, 1 for the lowest)::

            AP_R = φ: the rank of a topic's AP among the AP values of runs of length 10
            (1 = the lowest; φ from 1 to 816, ties unq); --rescale: AP_R01 in [0, 1]

        The range is per topic where the image depends on the topic (its recall base,
        ``feasible``): then the smallest and largest bounds over the topics are given."""
        lines = []
        for label, ranked in self.labels:
            lows, highs = zip(*(sc.phi_bounds(cast(TieStrategy, self.ties))
                                for (m, _), sc in self.scales.items() if m == label),
                              strict=True)
            top = f"{_number(max(highs))}" if min(highs) == max(highs) else \
                f"{_number(min(highs))}-{_number(max(highs))} (by topic)"
            what = (f"the rank of a topic's {label} among the {label} values of runs of "
                    f"length {self.N}")
            if self.rescaled:
                lines.append(f"{ranked} = (φ − φ_min)/(φ_max − φ_min) in [0, 1], φ {what} "
                             f"(from {_number(min(lows))} to {top}, ties {self.ties}): 0 "
                             "for the lowest value, 1 for the highest")
            else:
                lines.append(f"{ranked} = φ: {what} (1 = the lowest; φ from "
                             f"{_number(min(lows))} to {top}, ties {self.ties}); rescaled "
                             f"to [0, 1]: {ranked_label(label, True)} (rescale=True, --rescale)")
        return lines

    def _pair(self, measure: str | None) -> tuple[str, str]:
        if measure is None:
            return self.labels[0]
        for pair in self.labels:
            if measure in pair:
                return pair
        raise ParameterError(f"no measure {measure!r} in the transform "
                             f"(has {[m for m, _ in self.labels]})")


def _number(value: float) -> str:
    """A φ bound as written: an integer without decimals (``816``), a mid-rank with."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def ranked_label(label: str, rescale: bool) -> str:
    return f"{label}_R01" if rescale else f"{label}_R"


def judged_matrix(jr: JudgedRankings, N: int) -> np.ndarray:
    """Raw degrees of every ranking cut at N, padded with 0 (negative sentinels → 0)."""
    cut = jr.truncate(N)
    out = np.zeros((cut.n_rankings, N), dtype=np.int64)
    out[cut.segment, cut.rank - 1] = np.maximum(cut.rel, 0)
    return out


def map_degrees(degrees: np.ndarray, levels: int, relevance_level: int) -> np.ndarray:
    """Degrees into ``0..levels-1``: binary projection at ``relevance_level`` for two
    levels, clipping to the highest degree otherwise."""
    if levels == 2:
        return (degrees >= relevance_level).astype(np.int8)
    return np.minimum(degrees, levels - 1).astype(np.int8)


def map_recall_base(rel_levels: np.ndarray, levels: int, relevance_level: int,
                    degrees: np.ndarray | None = None) -> np.ndarray:
    """Per ranking: documents per space degree (same mapping as :func:`map_degrees`).

    ``degrees``: the degree each column of ``rel_levels`` counts
    (:attr:`~irscale.core.judged.JudgedRankings.column_degrees`; default column g, degree g).
    """
    rel_levels = np.asarray(rel_levels, dtype=np.int64)
    if degrees is None:
        degrees = np.arange(rel_levels.shape[1])
    degrees = np.asarray(degrees, dtype=np.int64)
    if levels == 2:
        relevant = degrees >= max(relevance_level, 0)
        return np.stack([rel_levels[:, ~relevant].sum(axis=1),
                         rel_levels[:, relevant].sum(axis=1)], axis=1)
    out = np.zeros((len(rel_levels), levels), dtype=np.int64)
    space_degree = np.minimum(degrees, levels - 1)
    for d in range(levels):  # a handful of space degrees
        out[:, d] = rel_levels[:, space_degree == d].sum(axis=1)
    return out


def _grid(jr: JudgedRankings, complete_topics: Sequence[str] | None
          ) -> tuple[JudgedRankings, tuple[str, ...]]:
    """Every (run, topic) pair: rankings the runs lack become empty rankings."""
    evaluated = sorted(set(jr.topic_labels.tolist()))
    topics = tuple(sorted(set(complete_topics))) if complete_topics is not None else \
        tuple(evaluated)
    topic_index = {t: i for i, t in enumerate(jr.topics)}
    n_runs = len(jr.runs)
    want_topic = np.array([topic_index[t] for t in topics], dtype=np.int64)
    run = np.repeat(np.arange(n_runs), len(topics))
    topic = np.tile(want_topic, n_runs)
    key = jr.ranking_run * len(jr.topics) + jr.ranking_topic
    grid_key = run * len(jr.topics) + topic
    found = np.searchsorted(key, grid_key)  # rankings are ordered run by run, topic by topic
    found = np.minimum(found, max(len(key) - 1, 0))
    if len(key):
        present = key[found] == grid_key
        lengths = np.where(present, jr.lengths[found], 0)
        starts = jr.offsets[:-1][found]
    else:  # no run has a judged topic (allow_empty): every ranking is padding
        lengths = starts = np.zeros(len(grid_key), dtype=np.int64)
    take = np.repeat(starts - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths) + \
        np.arange(int(lengths.sum()))
    per_topic_levels = np.zeros((len(jr.topics), jr.rel_levels.shape[1]), dtype=np.int64)
    per_topic_levels[jr.ranking_topic] = jr.rel_levels
    grid = JudgedRankings(
        degrees=jr.degrees,
        rel=jr.rel[take] if len(take) else np.zeros(0, dtype=np.int64),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        rel_levels=per_topic_levels[topic],
        ranking_topic=topic,
        ranking_run=run,
        topics=jr.topics,
        runs=jr.runs,
        relevance_level=jr.relevance_level,
    )
    return grid, topics


@TRANSFORM
def transform(
    qrels: Any,
    runs: Any,
    measures: MeasureNames,
    N: int,
    *,
    tie_policy: TiePolicy = "trec_eval",
    all_topics: bool = False,
    allow_empty: bool = False,
    **options: Any,
) -> ScaleTransform:
    """Per-topic values of ``measures`` and of their ranked versions (module docs).

    ``qrels`` and ``runs`` as :func:`irscale.evaluate` takes them (runs that share a run id
    are named after their files, with a warning); ``tie_policy`` orders documents with
    equal scores; ``all_topics``: every qrels topic (runs without results for one get N
    non-relevant documents), default the topics some run was evaluated on. As
    :func:`irscale.evaluate`: a run with no topic in common with the qrels raises
    :class:`~irscale.errors.AlignmentError` unless ``allow_empty`` (also with
    ``all_topics``), and topics with results but no judgments are named in a warning.
    ``options`` are those of :func:`transform_rankings`: ``levels`` (2),
    ``relevance_level`` (1), ``ties`` ("unq"), ``rescale``, ``feasible``, ``progress``,
    ``max_memory`` (bytes or a size such as ``"2G"``; default half of the RAM) and
    ``explain`` (print the algorithm chosen for each measure and why).
    """
    # options, measures and their cost checked before anything is read, named as the
    # caller wrote them
    _scale_measures(measures, N, options.get("levels", 2), options.get("relevance_level", 1),
                    max_memory_of(options.get("max_memory")))
    check_tie_order(tie_policy, "the interval scales")
    qrels_obj = as_qrels(qrels)
    # several files: runs that share a run id are named after them
    run_objs = as_runs(runs, keep_rank=tie_policy == "rank-column")
    jr = build_judged_rankings(qrels_obj, run_objs, RankingOptions(ties=tie_policy))
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=qrels_obj.source)
    complete = sorted(set(qrels_obj.topic.to_pylist())) if all_topics else None
    return transform_rankings(jr, measures, N, topics=complete, **options)


@TRANSFORM_RANKINGS
def transform_rankings(
    rankings: JudgedRankings,
    measures: MeasureNames,
    N: int,
    *,
    levels: int = 2,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    ties: TieStrategy = "unq",
    rescale: bool = False,
    feasible: bool = False,
    topics: Sequence[str] | None = None,
    progress: bool = True,
    max_memory: str | int | None = None,
    explain: bool = False,
) -> ScaleTransform:
    """:func:`transform` of judged rankings already built (e.g. by
    :func:`~irscale.core.judge.build_judged_rankings`); ``topics``: the topics to report
    (default: those some run was evaluated on)."""
    limit = max_memory_of(max_memory)
    scale_measures = _scale_measures(measures, N, levels, relevance_level, limit)
    grid, topics = _grid(rankings, topics)
    degrees = map_degrees(judged_matrix(grid, N), levels, relevance_level)
    contexts = map_recall_base(grid.rel_levels, levels, relevance_level, grid.column_degrees)
    out_jr = synthetic_rankings(degrees, contexts, topics=grid.topics, runs=grid.runs,
                                ranking_topic=grid.ranking_topic, ranking_run=grid.ranking_run)
    values: dict[str, np.ndarray] = {}
    labels: list[tuple[str, str]] = []
    used: dict[tuple[str, str], Scale] = {}
    for measure in scale_measures:
        label, r_label = measure.label, ranked_label(measure.label, rescale)
        values[label] = measure.kernel_values(degrees, contexts)
        # the cost of this measure's scale for these queries, reported once
        cost = check_size(measure, Space(N, levels), max_memory=limit, queries=len(degrees))
        report(cost, progress=progress, explain=explain)
        values[r_label] = _ranked_values(measure, degrees, contexts, grid, N, levels, ties,
                                         rescale, feasible, progress, used, limit)
        labels.append((label, r_label))
    # each measure and its ranked values, one plain column each (the builder's default)
    evaluation = build_evaluation(values, out_jr.rows, rankings=out_jr)
    matrix = evaluation.to_matrix()
    return ScaleTransform(matrix=matrix, evaluation=evaluation, N=N, levels=levels, ties=ties,
                          rescaled=rescale, feasible=feasible, labels=tuple(labels),
                          scales=used)


def _scale_measures(measures: MeasureNames, N: Any, levels: Any,
                    relevance_level: Any, max_memory: int | None = None
                    ) -> list[ScaleMeasure]:
    """The measures to transform, each checked to have a scale of a size that fits
    (:func:`~irscale.scales.scale.check_size`, within ``max_memory``) on runs of length
    ``N``."""
    if isinstance(measures, str):
        measures = measures.split()
    out = [_for_transform(scale_measure(name).for_length(N), levels, relevance_level)
           for name in measures]
    for measure in out:
        check_size(measure, Space(N, levels), max_memory=max_memory)
    return out


def _for_transform(measure: ScaleMeasure, levels: int, relevance_level: int) -> ScaleMeasure:
    """Binary measures after the binary projection count degree 1; on graded spaces they
    take ``relevance_level`` unless their name set ``rel``."""
    if measure.kind not in BINARY_KINDS and measure.kind != "generic":
        return measure
    if levels == 2:
        return replace(measure, relevance_level=1)
    if measure.relevance_level == 1 and relevance_level != 1:
        return replace(measure, relevance_level=relevance_level)
    return measure


def _ranked_values(measure: ScaleMeasure, degrees: np.ndarray, contexts: np.ndarray,
                   grid: JudgedRankings, N: int, levels: int, ties: TieStrategy,
                   rescale: bool, feasible: bool, progress: bool,
                   used: dict[tuple[str, str], Scale], max_memory: int | None = None
                   ) -> np.ndarray:
    """M_R of every ranking: one scale per distinct topic context, φ computed in one batch
    per shared image structure (all topics share AP's, DCG's, ... on the whole space)."""
    out = np.zeros(len(degrees))
    per_topic = measure.depends_on_recall_base or feasible
    if per_topic:
        keys, inverse = np.unique(contexts, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        keys, inverse = contexts[:1], np.zeros(len(degrees), dtype=np.int64)
    scales = [scale(measure, N, levels, recall_base=Context(tuple(int(v) for v in key)),
                    feasible=feasible, progress=progress, max_memory=max_memory,
                    queries=len(degrees), announce=False) for key in keys]
    topic_names = np.asarray(grid.topics, dtype=object)[grid.ranking_topic]
    for k, sc in enumerate(scales):
        for topic in sorted(set(topic_names[inverse == k].tolist())):
            used[(measure.label, topic)] = sc
    # batch φ by shared structure: ScaledImage wrappers of one cached image
    groups: dict[int, list[int]] = {}
    for k, sc in enumerate(scales):
        base = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
        groups.setdefault(id(base), []).append(k)
    for members in groups.values():
        rows = np.flatnonzero(np.isin(inverse, members))
        if len(rows) == 0:
            continue
        first = scales[members[0]]
        phi = np.asarray(first.phi(degrees[rows], ties), dtype=np.float64)
        if rescale:
            for k in members:
                low, high = scales[k].phi_bounds(ties)
                mine = inverse[rows] == k
                phi[mine] = (phi[mine] - low) / (high - low) if high > low else 0.0
        out[rows] = phi
    return out
