"""What a fairness kernel sees: a stochastic run's sampled rankings, judged, documents in
groups.

:func:`fairness_context` joins one :class:`~irscale.io.stochastic.StochasticRun` with the
qrels and (optionally) a group label set (:func:`~irscale.io.stochastic.judge_samples`),
for the topics of the run that the qrels judge (as trec_eval evaluates them). It holds,
vectorised over every topic:

* the *universe* of each topic: its judged documents (qrels, degree ≥ 0) and the documents
  any sample retrieves, each with its relevance grade (the qrels' degree; 0 when unjudged)
  and its groups (rows ``member_doc``, ``member_group``: one a group of the document);
* the *placements*: every (sample, position) of a document of the universe
  (``place_doc`` indexes the universe);
* the topic of every (topic, sample) ranking, and per topic its number of samples.

Groups come from a label set ``topic iter docno group`` (topic ``*``: every topic;
:mod:`irscale.core.labels`), a group being a number; a document listed on several lines is
in several groups (TREC Fair Ranking 2021–2022 give a Wikipedia article several
geographic locations or occupations). Documents the set does not label form one group of
their own ("unlabelled"), as the TREC Fair Ranking tracks kept an "unknown" group.

How a document of m groups counts (``membership``, a parameter of the families that read
groups): ``split`` gives each of its groups the weight 1/m (TREC Fair Ranking 2022's
alignment of page geography and occupations: each page's alignment vector normalised to
sum 1), ``full`` the weight 1 (TREC Fair Ranking 2021's geography, and 2022's gender:
one-hot columns summed, the group distribution normalised afterwards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.inputs import Qrels
from ...core.labels import LabelTable
from ...core.segments import ranges
from ...errors import MeasureError
from ...io.stochastic import StochasticRun, judge_samples


@dataclass(frozen=True, eq=False)
class Memberships:
    """Rows ``(doc, group, weight)`` of the universe documents' groups, sorted by document:
    ``start[d]:start[d + 1]`` are document d's rows; groups are coded ``0 .. width − 1``."""

    doc: np.ndarray
    group: np.ndarray
    weight: np.ndarray
    start: np.ndarray
    width: int

    def of(self, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every (i, row) with row a membership of ``docs[i]``: two index arrays."""
        count = self.start[docs + 1] - self.start[docs]
        which = np.repeat(np.arange(len(docs)), count)
        return which, ranges(self.start[docs], count)


@dataclass(frozen=True, eq=False)
class FairnessContext:
    """See the module documentation. Topic indexes ``t`` are over :attr:`topics`; ranking
    indexes over the (topic, sample) rankings, ``ranking_topic[r]`` its topic."""

    topics: tuple[str, ...]
    universe_topic: np.ndarray
    universe_grade: np.ndarray
    member_doc: np.ndarray | None
    member_group: np.ndarray | None
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

    def groups(self, family: str, membership: str) -> Memberships:
        """The groups of the universe documents weighted as ``membership`` says (module
        documentation); a MeasureError without a group set."""
        if self.member_doc is None or self.member_group is None:
            raise MeasureError(f"measure {family!r} needs the document groups: give them with "
                               "--labels groups=FILE (in Python labels={'groups': path})")
        count = np.bincount(self.member_doc, minlength=len(self.universe_topic))
        weight = 1.0 / count[self.member_doc] if membership == "split" else \
            np.ones(len(self.member_doc))
        return Memberships(self.member_doc, self.member_group, weight,
                           np.searchsorted(self.member_doc, np.arange(len(count) + 1)),
                           int(self.member_group.max(initial=-1)) + 1)

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
        universe_grade=judged.universe_grade, member_doc=judged.member_doc,
        member_group=judged.member_group,
        n_samples=np.bincount(judged.ranking_topic, minlength=len(judged.topics)),
        ranking_topic=judged.ranking_topic,
        place_ranking=judged.place_ranking, place_position=judged.place_position,
        place_doc=judged.place_doc)
