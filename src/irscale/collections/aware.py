"""AWARE: downstream aggregation of crowd assessors through the measure scores.

Ferrante, Ferro & Maistro (2017), "AWARE: exploiting evaluation measures to combine multiple
assessors", ACM TOIS 36(2), article 20 (summarised in seed 004, §2.5): instead of merging the
labels into one qrels (upstream: MV, EM, ...), every crowd assessor ``k`` judges the pool on
its own, every run ``s`` is scored on every topic ``t`` against each assessor's judgments,
``M_k[t, s]``, and the scores are combined with assessor weights:

    AWARE[t, s] = Σ_k a_k[t] M_k[t, s] / Σ_k a_k[t]      (sums over the assessors who judge t)

Here an *assessor* is a worker of a ``topic docno worker label`` table; a document the
assessor did not label is unjudged (not relevant, as trec_eval treats it), and a topic the
assessor labelled nothing of gets no score from them (their weight on it is left out and
the others' renormalised). Weightings (:data:`WEIGHTINGS`):

``uniform``
    ``a_k = 1/m`` for the ``m`` assessors: the plain mean of the per-assessor scores.
``msd``, ``msd-topic``, ``tau``: accuracy estimated as the distance from random assessors
    The paper's unsupervised estimators weight an assessor by how far their scores lie from
    those of *random* assessors: an assessor who judges at random is no better than noise,
    so the further away, the more accurate. ``R`` random assessors label every pooled
    (topic, docno) pair with a label drawn uniformly from the scale (seeded); ``R_r[t, s]``
    are the runs' scores against them. The gap of assessor ``k``:

    * ``msd``: ``g_k = mean_r mean_{t,s} (M_k[t, s] − R_r[t, s])²`` (one weight per assessor);
    * ``msd-topic``: ``g_k[t] = mean_r mean_s (M_k[t, s] − R_r[t, s])²`` (a weight per topic);
    * ``tau``: ``g_k = mean_r (1 − τ_b(M̄_k, M̄_r)) / 2``, the Kendall distance between the
      ranking of the runs by their mean score under assessor ``k`` and under random
      assessor ``r`` (τ_b is undefined when either ranking is all ties: taken as 0);

    and ``a_k = g_k / Σ_h g_h`` (per topic for ``msd-topic``). Means skip cells an assessor
    did not score. Where every gap is zero (all assessors look random) the weights are
    uniform, with a warning.

What could not be confirmed: the text of the TOIS paper was not available to us (only its
abstract, the SEBD 2018 summary's abstract and seed 004's description). The uniform estimator
and the principle — accuracy as the distance of an assessor's measure scores from those of
random assessors, at the granularity of the whole matrix or of a topic — are the paper's as
we know them; the exact gap functions, the random-assessor model and the normalisation above
are irscale's reading and may differ from the paper's estimators in detail.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.scorematrix import ScoreMatrix
from ..errors import InputError, ParameterError
from ..evaluation import evaluate
from ..io.crowd import CrowdLabels, read_crowd_labels
from ..io.memory import as_runs
from ..stats.resampling import check_rng

#: Assessor weightings (module documentation).
WEIGHTINGS = ("uniform", "msd", "msd-topic", "tau")
#: Random assessors drawn for the accuracy-based weightings by default.
N_RANDOM = 10

__all__ = ["N_RANDOM", "WEIGHTINGS", "AwareResult", "aware", "aware_weights"]


@dataclass(frozen=True, eq=False)
class AwareResult:
    """AWARE scores: ``matrix`` (topics × runs, the measure), ``weights`` (topics ×
    assessors, each row summing to 1 over the assessors who judge the topic), and
    ``assessors`` (the per-assessor scores, assessors × topics × runs, NaN where an
    assessor judges nothing of a topic)."""

    matrix: ScoreMatrix
    weights: pd.DataFrame
    assessors: np.ndarray
    weighting: str

    def __repr__(self) -> str:
        return (f"AwareResult({self.weighting}; {self.matrix.n_topics} topics × "
                f"{self.matrix.n_systems} runs, {self.weights.shape[1]} assessors)")


def _gaps(scores: np.ndarray, random: np.ndarray, weighting: str) -> np.ndarray:
    """Gap of every assessor from the random ones, assessors × topics (module doc)."""
    squared = (scores[:, None] - random[None]) ** 2          # assessors × R × topics × runs
    if weighting == "msd":
        gap = np.nanmean(squared, axis=(1, 2, 3))
        return np.repeat(gap[:, None], scores.shape[1], axis=1)
    if weighting == "msd-topic":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # a topic the assessor skips
            return np.nanmean(squared, axis=(1, 3))
    from ..stats.kendall import kendall_tau

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        means = np.nanmean(scores, axis=1)                   # assessors × runs
    random_means = random.mean(axis=1)                       # R × runs
    # τ_b is undefined (NaN) when either ranking is all ties: taken as 0, distance 1/2
    gap = np.array([np.mean([(1 - np.nan_to_num(kendall_tau(m, r).tau)) / 2
                             for r in random_means]) for m in means])
    return np.repeat(gap[:, None], scores.shape[1], axis=1)


def aware_weights(scores: Any, random: Any = None, weighting: str = "uniform") -> np.ndarray:
    """Assessor weights, topics × assessors (module documentation).

    ``scores``: assessors × topics × runs measure scores (NaN: the assessor judges nothing
    of the topic); ``random``: random assessors × topics × runs scores (complete), needed by
    every weighting but ``uniform``. Each topic's weights sum to 1 over the assessors who
    score it.

    Three assessors, one topic, two runs, one random assessor scoring 0.5 and 0.5: gaps
    (0 + 1/4)/2, (1/4 + 1/4)/2 and (1/4 + 1/4)/2, weights 1/8 : 1/4 : 1/4.

    >>> aware_weights([[[0.5, 0.0]], [[1.0, 1.0]], [[0.0, 0.0]]], [[[0.5, 0.5]]],
    ...               "msd").round(4).tolist()
    [[0.2, 0.4, 0.4]]
    """
    if weighting not in WEIGHTINGS:
        raise ParameterError(f"unknown weighting {weighting!r}; choose one of "
                             f"{', '.join(WEIGHTINGS)}")
    m = np.asarray(scores, dtype=np.float64)
    if m.ndim != 3:
        raise ParameterError("scores must be assessors × topics × runs")
    present = np.asarray(np.isfinite(m).any(axis=2))                    # assessors × topics
    if weighting == "uniform":
        raw = present.astype(np.float64)
    else:
        if random is None:
            raise ParameterError(f"the {weighting} weighting needs random-assessor scores")
        r = np.asarray(random, dtype=np.float64)
        if r.ndim != 3 or r.shape[1:] != m.shape[1:]:
            raise ParameterError("random scores must be random assessors × topics × runs, "
                                 "with the topics and runs of scores")
        raw = np.where(present, _gaps(m, r, weighting), 0.0)
        dead = np.asarray(raw.sum(axis=0) == 0)
        if dead.any():
            warnings.warn(f"every assessor scores as a random one on {int(dead.sum())} "
                          f"topic(s): uniform weights there", stacklevel=2)
            raw[:, dead] = present[:, dead]
    with np.errstate(invalid="ignore"):
        return (raw / raw.sum(axis=0, keepdims=True)).T


def _score(qrels: pd.DataFrame, runs: list[Any], measure: str, topics: Sequence[str],
           relevance_level: int) -> tuple[np.ndarray, str]:
    """topics × runs scores of ``measure`` against one assessor's qrels (NaN: no judgment
    of the topic, or a run without the topic) and the measure's label."""
    with warnings.catch_warnings():
        # an assessor who judges nothing of a topic: expected, their weight is left out
        warnings.filterwarnings("ignore", "run .* with results but no judgments")
        matrix = evaluate(qrels, runs, measure, relevance_level=relevance_level,
                          allow_empty=True).to_matrix(allow_missing=True)
    if len(matrix.measures) != 1:
        raise ParameterError(f"AWARE combines one measure, {measure!r} gives "
                             f"{len(matrix.measures)}: {', '.join(matrix.measures)}")
    frame = pd.DataFrame(matrix.values[:, :, 0], index=list(matrix.topics),
                         columns=list(matrix.systems))
    return (frame.reindex(index=list(topics), columns=[r.name for r in runs]).to_numpy(),
            matrix.measures[0])


def aware(labels: Any, runs: Any, measure: str, *, weights: str = "uniform",
          scale: Sequence[int] | None = None, n_random: int = N_RANDOM, rng: object = None,
          relevance_level: int = 1, allow_unretrieved: bool = False) -> AwareResult:
    """AWARE scores of ``runs`` for ``measure`` from crowd labels (module documentation).

    ``labels``: a ``topic docno worker label`` file, bytes, DataFrame or
    :class:`~irscale.io.crowd.CrowdLabels` (every worker is an assessor); ``runs``: anything
    :func:`irscale.evaluate` takes; ``measure``: one measure with per-topic values;
    ``weights``: one of :data:`WEIGHTINGS`; ``n_random`` random assessors (seeded by
    ``rng``) for the accuracy-based weightings. A labelled document that no run retrieves
    for its topic is an :class:`~irscale.errors.InputError` naming the label's line (labels
    of another collection, or of a pool built from other runs?) unless
    ``allow_unretrieved``: the label is then kept, and counts in the recall base of the
    assessor's qrels as trec_eval counts a judged document no run retrieves. The topics
    are those both labelled and retrieved.
    """
    if weights not in WEIGHTINGS:
        raise ParameterError(f"unknown weighting {weights!r}; choose one of "
                             f"{', '.join(WEIGHTINGS)}")
    if isinstance(n_random, bool) or not isinstance(n_random, (int, np.integer)) \
            or n_random < 1:
        raise ParameterError(f"n_random must be a positive integer, got {n_random!r}")
    data: CrowdLabels = read_crowd_labels(labels, scale)
    run_list = as_runs(runs)
    run_topic = np.concatenate([r.topic.to_numpy() for r in run_list]).astype(str)
    retrieved = pd.MultiIndex.from_arrays(
        [run_topic, np.concatenate([r.docno.to_numpy() for r in run_list]).astype(str)])
    unretrieved = ~np.asarray(pd.MultiIndex.from_frame(data.items).isin(retrieved))
    if unretrieved.any() and not allow_unretrieved:
        record = int(np.flatnonzero(unretrieved[data.item])[0])
        raise data.error(InputError, "labels a document that no run retrieves for the topic "
                         "(allow_unretrieved / --allow-unretrieved keeps such labels)", record)
    run_topics = set(run_topic.tolist())
    topics = [t for t in pd.unique(data.items["topic"]) if t in run_topics]
    unlabelled = sorted(run_topics - set(topics))
    if unlabelled:
        warnings.warn(f"{len(unlabelled)} run topic(s) have no labels and are not scored: "
                      f"{', '.join(unlabelled[:10])}{', ...' if len(unlabelled) > 10 else ''}",
                      stacklevel=2)
    frame = data.to_frame().rename(columns={"label": "rel"})
    per_worker = frame.groupby("worker", sort=False)
    evaluated = [_score(group[["topic", "docno", "rel"]], run_list, measure, topics,
                        relevance_level) for _, group in per_worker]
    scores = np.stack([values for values, _ in evaluated])
    random = None
    if weights != "uniform":
        generator = np.random.default_rng(check_rng(rng))
        pool = data.items
        random = np.stack([
            _score(pool.assign(rel=data.classes[generator.integers(0, len(data.classes),
                                                                   len(pool))]),
                   run_list, measure, topics, relevance_level)[0]
            for _ in range(n_random)])
        # every pooled topic is judged by a random assessor; a run without a topic: 0
        random = np.nan_to_num(random)
    a = aware_weights(scores, random, weights)                 # topics × assessors
    combined = np.einsum("tk,kts->ts", np.nan_to_num(a), np.nan_to_num(scores))
    combined[np.isnan(scores).all(axis=0)] = np.nan            # a run without the topic
    names = [str(w) for w, _ in per_worker]
    matrix = ScoreMatrix.from_array(combined, topics=topics, systems=[r.name for r in run_list],
                                    measures=[evaluated[0][1]], allow_missing=True)
    return AwareResult(matrix, pd.DataFrame(a, index=pd.Index(topics, name="topic"),
                                            columns=names), scores, weights)
