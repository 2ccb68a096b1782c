"""The supervised fusion methods, as ranx 0.3.21 defines them: what each run is worth at
each rank, learnt on training topics (the same systems' runs of them, ``train_runs``, and
their qrels, ``train_qrels``), then summed over the runs of the topics fused.

Training reads the *hit list* of run ``r`` for each training topic ``t`` (the topics of
the training qrels; a run without a topic has an empty list there): ``h_t(i) = 1`` when
the document at rank ``i + 1`` is relevant (degree ≥ 1), else 0. ``T`` is the number of
training topics, ``n_t`` the length of run ``r``'s list for ``t``; for the topic fused,
``p = rank_r(d) − 1`` and ``n`` run ``r``'s documents. The fused score is the sum over the
runs that retrieve ``d`` of:

* PosFuse ``P_r(p)`` (0 past the longest training list), ``P_r(i)`` the share of relevant
  documents at rank ``i + 1`` over the training lists that reach it: Lillis, Zhang,
  Toolan, Collier, Leonard and Dunnion, "Estimating probabilities for effective data
  fusion", SIGIR 2010;
* SlideFuse ``Σ_{i=a}^{b} P_r(i) / (b − a + 1)``, ``a = max(p − w, 0)``,
  ``b = min(p + w, n − 1)`` (``P_r`` 0 past its end): Lillis et al. 2010;
* ProbFuse with ``K`` segments: ``P_r(k) / (k + 1)`` for ``p`` in segment
  ``k = ⌊p / ⌈n/K⌉⌋``, ``P_r(k) = (1/T) Σ_t (hits of t in segment k) / (its length)``
  (segments of ``⌈n_t/K⌉`` ranks; an empty one adds 0): Lillis, Toolan, Collier and
  Dunnion, "ProbFuse: a probabilistic approach to data fusion", SIGIR 2006;
* SegFuse ``P_r(k) · (s_r(d) + 1)`` for the (normalised) score ``s_r(d)``, ``k`` the
  segment of ``p`` among the ten with bounds ``0, 5, 15, 35, …, 10 · 2^k − 5`` (sizes 5,
  10, 20 …; 0 from rank 5116 on), ``P_r(k) = (1/T) Σ_t (hits of t in k) / (size of k)``:
  Shokouhi, "Segmentation of search engine results for effective data-fusion", ECIR 2007;
* MAPFuse ``MAP_r / (p + 1)``, ``MAP_r`` run ``r``'s mean AP over the training topics (a
  topic it lacks counts 0, trec_eval's ``-c``): Lillis, Zhang, Toolan, Collier, Leonard and
  Dunnion, "Extending probabilistic data fusion using sliding windows", ECIR 2008;
* BayesFuse, summed over *every* run: ``ln(π_r(j) / (1 − π_r(j)))`` for ``p`` in segment
  ``j`` of the bounds ``0, 5, 10, 15, 20, 30, 100, 200, 500, 1000``, ``π_r(j)`` the mean
  over training topics of the precision of the segment (0 and 1 moved 0.001 inwards), and
  ``ln(0.001/0.999)`` where run ``r`` does not retrieve ``d`` or ranks it past 1000 (ranx
  reads past its table there): Aslam and Montague, "Models for metasearch", SIGIR 2001.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.inputs import Qrels, Run
from ..errors import AlignmentError, ParameterError
from .table import FusionTable, fusion_table

#: SegFuse's segment bounds (ranks from 0): 0, 5, 15, 35 ... (``10 · 2^(k−1) − 5``).
SEGFUSE_BOUNDS = np.array([0] + [10 * 2 ** (k - 1) - 5 for k in range(1, 11)])
#: BayesFuse's segment bounds (ranks from 0).
BAYES_BOUNDS = np.array([0, 5, 10, 15, 20, 30, 100, 200, 500, 1000])
#: How far BayesFuse moves a precision of 0 or 1 inwards (ranx's).
BAYES_FLOOR = 0.001
#: BayesFuse's log-odds of a document a run does not retrieve.
MIN_LOG_ODDS = float(np.log(BAYES_FLOOR / (1 - BAYES_FLOOR)))
#: The most running sums of SlideFuse's windows held at once.
WINDOW_BLOCK = 1 << 22


@dataclass(frozen=True, eq=False)
class Model:
    """What a supervised method learnt: ``values[r]`` for run ``r`` (probabilities by rank
    or segment, log-odds by rank, or MAP as a one-element array); ``params``: the method's
    own (``segments``, ``window``)."""

    method: str
    values: tuple[np.ndarray, ...]
    params: Mapping[str, Any]


def check_training_topics(topics: Sequence[str], qrels: Qrels, what: str = "the runs"
                          ) -> None:
    """Refuse runs (``what``) none of whose topics the training ``qrels`` judge: nothing
    would be learnt (or measured)."""
    from ..evaluation.setup import some_topics

    judged = set(qrels.topics)
    if not judged.intersection(topics):
        raise AlignmentError(
            f"{what} and the qrels ({qrels.source}) have no topic in common: {what} "
            f"{'have' if what == 'the runs' else 'has'} topics {some_topics(list(topics))}, "
            f"the qrels {some_topics(sorted(judged))} (qrels of another collection, or "
            "topic ids written differently?)")


def train(method: str, runs: Sequence[Run], qrels: Qrels, params: Mapping[str, Any]
          ) -> Model:
    """What ``method`` learns from the training ``runs`` (one per run fused, in order) and
    ``qrels`` (module documentation)."""
    from ..core.judge import PairJudge

    for run in runs:
        check_training_topics(run.topics, qrels, f"training run {run.name!r}")
    table = fusion_table(runs)
    judge = PairJudge(qrels)
    n_topics = len(judge.topics)
    code = judge.topic_codes(table.topics)[table.pair_topic]
    judged = code >= 0
    hit = judge.degrees_of(np.where(judged, code, 0), table.docnos, table.pair_doc) >= 1
    if method == "mapfuse":
        from ..evaluation import evaluate

        means = evaluate(qrels, list(runs), "AP", complete=True).mean()
        return Model(method, tuple(np.array([float(means.loc[run.name].iloc[0])])
                                   for run in runs), params)
    values = []
    for r in range(len(runs)):
        keep = judged & table.present[:, r]
        p = table.rank[keep, r].astype(np.int64) - 1
        hits = hit[keep].astype(np.float64)
        if method in ("posfuse", "slidefuse"):
            values.append(np.bincount(p, hits) / np.maximum(np.bincount(p), 1))
            continue
        topic = table.pair_topic[keep]
        if method == "probfuse":
            k_max = params["segments"]
            n = table.size[topic, r]
            size = (n + k_max - 1) // k_max
            segment = p // size
            length = np.minimum(size, n - segment * size)
            values.append(_per_segment(topic * k_max + segment, hits, length, k_max,
                                       n_topics))
            continue
        bounds = SEGFUSE_BOUNDS if method == "segfuse" else BAYES_BOUNDS
        inside = p < bounds[-1]
        segment = np.searchsorted(bounds, p[inside], side="right") - 1
        width = np.diff(bounds)
        share = _per_segment(topic[inside] * len(width) + segment, hits[inside],
                             width[segment], len(width), n_topics,
                             divide_first=method == "bayesfuse")
        if method == "segfuse":
            values.append(share)
            continue
        precision = np.where(share == 0, BAYES_FLOOR, share)
        rest = np.where(1 - precision == 0, BAYES_FLOOR, 1 - precision)
        values.append(np.repeat(np.log(precision / rest), width))
    return Model(method, tuple(values), params)


def _per_segment(key: np.ndarray, hits: np.ndarray, length: np.ndarray, segments: int,
                 n_topics: int, *, divide_first: bool = False) -> np.ndarray:
    """``(1/T) Σ_t hits(t, k) / length(t, k)`` for every segment ``k``: ``key`` is
    ``t · segments + k`` of every hit-list entry, ``length`` its segment's length; topics
    added in order, each term divided by ``T`` before (``divide_first``, BayesFuse's) or the
    sum after (ProbFuse's, SegFuse's), as ranx rounds them."""
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    share = np.bincount(inverse, hits, minlength=len(unique)) / length[first]
    if divide_first:
        return np.bincount(unique % segments, share / n_topics, minlength=segments)
    return np.bincount(unique % segments, share, minlength=segments) / n_topics


def trained_scores(table: FusionTable, model: Model) -> tuple[np.ndarray, np.ndarray]:
    """Every run's score of every pair of ``table`` by the trained ``model`` (module
    documentation), and which of them the fusion adds."""
    present = table.present
    p = np.where(present, table.rank, 1).astype(np.int64) - 1
    n = table.size[table.pair_topic]
    scores = np.zeros(p.shape)
    for r, values in enumerate(model.values):
        scores[:, r] = _run_scores(model, values, p[:, r], n[:, r], table.score[:, r])
    if model.method == "bayesfuse":
        return np.where(present, scores, MIN_LOG_ODDS), np.ones_like(present)
    return scores, present


def _run_scores(model: Model, values: np.ndarray, p: np.ndarray, n: np.ndarray,
                score: np.ndarray) -> np.ndarray:
    """One run's score of documents at ranks ``p + 1`` of rankings of ``n`` documents."""
    method = model.method
    padded = np.append(values, 0.0)  # 0 past the end of what was learnt
    at = np.minimum(p, len(values))
    if method == "posfuse":
        return padded[at]
    if method == "mapfuse":
        return values[0] / (p + 1)
    if method == "bayesfuse":
        return np.append(values, MIN_LOG_ODDS)[at]
    if method == "probfuse":
        segment = p // np.maximum((n + len(values) - 1) // len(values), 1)  # n = 0: absent
        return values[segment] / (segment + 1)
    if method == "segfuse":
        segment = np.searchsorted(SEGFUSE_BOUNDS, p, side="right") - 1
        return padded[np.minimum(segment, len(values))] * (score + 1)
    # slidefuse: the mean of the window [a, b], values past their end 0
    w = model.params["window"]
    a = np.maximum(p - w, 0)
    b = np.maximum(np.minimum(p + w, n - 1), p)  # n = 0: absent
    return _window_sums(values, a, np.minimum(b + 1, len(values))) / (b - a + 1)


def _window_sums(values: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """``Σ values[start:end]`` of every pair, added in order (as ranx adds them, so that
    equal windows give equal sums): the running sums of every window of ``values`` as wide
    as the widest asked for, in blocks of rows of :data:`WINDOW_BLOCK` sums at most."""
    sums = np.zeros(len(start))
    count = end - start
    some = count > 0
    if not some.any():
        return sums
    width = int(count[some].max())
    windows = np.lib.stride_tricks.sliding_window_view(
        np.append(values, np.zeros(width)), width)
    rows = max(1, WINDOW_BLOCK // width)
    for first in range(0, len(values), rows):
        block = some & (start >= first) & (start < first + rows)
        running = np.cumsum(windows[first:first + rows], axis=1)
        sums[block] = running[start[block] - first, count[block] - 1]
    return sums


def read_training(train_qrels: Any, train_runs: Any, runs: int) -> tuple[Qrels, list[Run]]:
    """The training qrels and runs read: one training run per run fused."""
    from ..io.sources import as_runs, read_qrels

    read = as_runs(train_runs)
    if len(read) != runs:
        raise ParameterError(f"train_runs: {len(read)} training runs for {runs} runs fused "
                             "(one per run, in order)", param="train_runs")
    return read_qrels(train_qrels), read
