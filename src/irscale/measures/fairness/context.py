"""What a fairness kernel sees: a stochastic run's sampled rankings, judged, documents in
groups.

:func:`fairness_context` joins one :class:`~irscale.io.stochastic.StochasticRun` with the
qrels and (optionally) a group label set (:func:`~irscale.io.stochastic.judge_samples`),
for the topics of the run that the qrels judge (as trec_eval evaluates them). It holds,
vectorised over every topic:

* the *universe* of each topic: its judged documents (qrels, degree ≥ 0) and the documents
  any sample retrieves, each with its relevance grade (the qrels' degree; 0 when unjudged)
  and its group code (``universe_group``);
* the *placements*: every (sample, position) of a document of the universe
  (``place_doc`` indexes the universe);
* the topic of every (topic, sample) ranking, and per topic its number of samples.

Groups come from a label set ``topic iter docno group`` (topic ``*``: every topic;
:mod:`irscale.core.labels`), one group (a number) per document. Documents the set does not
label form one group of their own ("unlabelled"), as the TREC Fair Ranking tracks kept an
"unknown" group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.inputs import Qrels
from ...core.labels import LabelTable
from ...errors import MeasureError
from ...io.stochastic import StochasticRun, judge_samples


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
    judged = judge_samples(qrels, run, groups)
    return FairnessContext(
        topics=judged.topics, universe_topic=judged.universe_topic,
        universe_grade=judged.universe_grade, universe_group=judged.universe_group,
        n_samples=np.bincount(judged.ranking_topic, minlength=len(judged.topics)),
        ranking_topic=judged.ranking_topic,
        place_ranking=judged.place_ranking, place_position=judged.place_position,
        place_doc=judged.place_doc)
