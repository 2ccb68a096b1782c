"""What a fairness kernel sees: a stochastic run's sampled rankings, judged, documents in
groups.

:func:`fairness_context` joins one :class:`~irscale.io.stochastic.StochasticRun` with the
qrels and (optionally) a group label set, for the topics of the run that the qrels judge
(as trec_eval evaluates them). It holds, vectorised over every topic:

* the *universe* of each topic: its judged documents (qrels, degree ≥ 0) and the documents
  any sample retrieves, each with its relevance grade (the qrels' degree; 0 when unjudged)
  and its group code (``universe_group``);
* the *placements*: every (sample, position) of a document of the universe
  (``place_doc`` indexes the universe);
* per topic the number of samples, and per (topic, sample) ranking its length.

Groups come from a label set ``topic iter docno group`` (topic ``*``: every topic;
:mod:`irscale.core.labels`), one group (a number) per document. Documents the set does not
label form one group of their own ("unlabelled"), as the TREC Fair Ranking tracks kept an
"unknown" group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from ...core._columnar import arrow
from ...core._columnar import arrow_compute as pc
from ...core.inputs import Qrels
from ...core.labels import LabelTable, lookup
from ...errors import MeasureError
from ...io.stochastic import StochasticRun


@dataclass(frozen=True, eq=False)
class FairnessContext:
    """See the module documentation. Topic indexes ``t`` are over :attr:`topics`; ranking
    indexes over the (topic, sample) rankings, ``ranking_topic[r]`` its topic."""

    topics: tuple[str, ...]
    universe_topic: np.ndarray
    universe_grade: np.ndarray
    universe_group: np.ndarray | None
    n_samples: np.ndarray
    ranking_topic: np.ndarray
    ranking_length: np.ndarray
    place_ranking: np.ndarray
    place_position: np.ndarray
    place_doc: np.ndarray
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_topics(self) -> int:
        return len(self.topics)

    def memo(self, key: str, compute):
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def groups(self, family: str) -> np.ndarray:
        """The group code of every universe document (MeasureError without a group set)."""
        if self.universe_group is None:
            raise MeasureError(f"measure {family!r} needs the document groups: give them with "
                               "--labels groups=FILE (in Python labels={'groups': path})")
        return self.universe_group

    def per_topic_mean(self, values: np.ndarray) -> np.ndarray:
        """Per topic, the mean over its samples of a per-ranking value."""
        total = np.bincount(self.ranking_topic, weights=values, minlength=self.n_topics)
        return total / np.maximum(self.n_samples, 1)


def fairness_context(qrels: Qrels, run: StochasticRun, groups: LabelTable | None
                     ) -> FairnessContext:
    """The :class:`FairnessContext` of ``run`` against ``qrels`` (see the module
    documentation); run topics the qrels do not have are left out."""
    in_qrels = arrow.index_in(run.topic, pc.unique(qrels.topic)) >= 0
    keep = np.flatnonzero(in_qrels)
    r_topic = arrow.take(run.topic, keep)
    topics = tuple(sorted(set(r_topic.to_pylist())))
    topic_table = pa.array(topics, pa.string())
    t_run = arrow.index_in(r_topic, topic_table).astype(np.int64)
    q_t = arrow.index_in(qrels.topic, topic_table).astype(np.int64)
    rows = np.flatnonzero((q_t >= 0) & (qrels.rel >= 0))
    q_t, q_rel = q_t[rows], qrels.rel[rows].astype(np.float64)
    q_doc = pc.take(qrels.docno, arrow.array(rows))
    r_doc = arrow.take(run.docno, keep)
    # the universe: (topic, docno) pairs of the qrels and of the samples, coded together
    all_docs = pa.concat_arrays([*(c.cast(pa.string()) for c in pa.chunked_array(
        q_doc).chunks), r_doc.cast(pa.string())])
    doc_codes = arrow.to_numpy(pc.dictionary_encode(all_docs).indices).astype(np.int64)
    n_codes = max(int(doc_codes.max(initial=-1)) + 1, 1)
    pair = np.r_[q_t, t_run] * n_codes + doc_codes
    keys, inverse = np.unique(pair, return_inverse=True)
    inverse = inverse.ravel()
    universe_topic = keys // n_codes
    grade = np.zeros(len(keys))
    grade[inverse[:len(q_t)]] = np.maximum(q_rel, 0.0)
    group = None
    if groups is not None:
        first = np.zeros(len(keys), dtype=np.int64)
        first[inverse[::-1]] = np.arange(len(inverse))[::-1]
        topic_of = pa.array(np.asarray(topics, dtype=object)[universe_topic].tolist()
                            if len(keys) else [], pa.string())
        values = lookup(groups, topic_of, all_docs.take(arrow.array(first)))
        _, group = np.unique(np.where(np.isnan(values), np.inf, values), return_inverse=True)
        group = group.ravel().astype(np.int64)
    # rankings: (topic, sample) blocks of the run's sorted rows
    sample = arrow.take(run.sample, keep)
    s_codes = arrow.to_numpy(pc.dictionary_encode(sample).indices).astype(np.int64) \
        if len(keep) else np.empty(0, np.int64)
    block_key = t_run * (int(s_codes.max(initial=0)) + 1) + s_codes
    blocks, place_ranking = np.unique(block_key, return_inverse=True)
    place_ranking = place_ranking.ravel()
    ranking_topic = blocks // (int(s_codes.max(initial=0)) + 1)
    return FairnessContext(
        topics=topics, universe_topic=universe_topic, universe_grade=grade,
        universe_group=group,
        n_samples=np.bincount(ranking_topic, minlength=len(topics)),
        ranking_topic=ranking_topic,
        ranking_length=np.bincount(place_ranking, minlength=len(blocks)),
        place_ranking=place_ranking, place_position=run.position[keep],
        place_doc=inverse[len(q_t):])
