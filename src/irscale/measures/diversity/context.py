"""What a diversity kernel sees: the run's rankings judged per intent, and the intents.

Every registered diversity family is a kernel ``kernel(ctx, params, k)``
(:data:`~irscale.measures.diversity.DiversityKernel`) over one :class:`DiversityContext`,
built once per evaluation by :func:`diversity_context`. The context is the extension point
of the intent-aware families (NTCIREVAL's D-measures here; intent-aware ``IA(<measure>)``,
D-U / U-IA and risk-sensitive evaluation plug in alike). It carries:

* ``run`` — the :class:`~.rankings.DiversityRankings` batch (relevant entries
  ``(rank, intent)`` with their graded levels ``entry_level``);
* ``index`` — the :class:`~.rankings.DiversityIndex` of the qrels (relevant documents with
  their per-intent levels ``rel_level``, per-intent recall base by level
  ``level_counts``);
* ``weights[t, j]`` — the intent probability Pr(j|q) of intent ``j`` of qrels topic ``t``;
* ``navigational[t, j]`` — True for a navigational intent (DIN-measures, P+Q);
* ``topic_alpha[t]`` — the α of topic ``t`` when a file gives one (``topic_alpha=1``);
* :meth:`DiversityContext.ideal` — ndeval's greedy ideal ranking for an α (memoised);
* :meth:`DiversityContext.intent_rankings` — one catalogue
  :class:`~irscale.core.judged.JudgedRankings` ranking per (ranking, intent with a relevant
  document), judged with that intent's graded levels, so that any measure of the catalogue
  runs per intent (P+Q's Q and P⁺, ``IA(<measure>)``, D-U, U-IA). The context does not
  build it itself: whoever builds the context says how (``judge_intents``). Real runs are
  judged by the main engine against per-intent pseudo-topic qrels
  (:func:`.intent_aware.judge_intents`: judged non-relevant and unjudged documents told
  apart, label sets, ranking lengths); a scale's synthetic runs of intent sets by the
  scale engine (:mod:`irscale.scales.diversity`).

**The topic's intents** are, as in NTCIREVAL (whose intent-probability files must list
intents that each have a relevant document) and ndeval (``actualSubtopics``), the intents
with at least one relevant document (judgment ≥ 1). Without probabilities they are
equally likely (Pr = 1/S); a probability file must list, for each topic it names, exactly
these intents with probabilities summing to 1 within :data:`PROBABILITY_TOLERANCE`
(NTCIREVAL uses them as given, without renormalising); a topic it does not name gets
uniform probabilities. Intent types default to informational.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.judged import JudgedRankings
from ...errors import InputFormatError, MeasureError
from ...io.diversity import (
    PROBABILITY_TOLERANCE,
    IntentProbabilities,
    IntentTypes,
    TopicAlphas,
)
from .rankings import DiversityIndex, DiversityRankings, ideal_rankings


@dataclass(frozen=True, eq=False)
class DiversityContext:
    """A run batch judged per intent plus the topics' intent structure (see the module
    documentation). Arrays indexed ``[t, j]`` are over qrels topics ``t`` and intent
    indexes ``j`` of :attr:`DiversityIndex.subtopics`."""

    run: DiversityRankings
    index: DiversityIndex
    weights: np.ndarray
    navigational: np.ndarray
    judge_intents: Callable[[DiversityContext], IntentRankings] | None = field(
        default=None, repr=False)
    cache: dict[str, Any] = field(default_factory=dict, repr=False)
    #: α per qrels topic (``topic_alpha=1``; NaN: the name's α); ``None``: not given.
    topic_alpha: np.ndarray | None = None

    def memo(self, key: str, compute):
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def ideal(self, alpha: float) -> DiversityRankings:
        """ndeval's greedy ideal rankings of every qrels topic for ``alpha`` (memoised)."""
        return self.memo(f"ideal:{alpha!r}", lambda: ideal_rankings(self.index, alpha))

    def intent_rankings(self) -> IntentRankings:
        """One catalogue ranking per (ranking, intent with a relevant document), judged by
        that intent's graded levels (:class:`IntentRankings`), as ``judge_intents``
        builds it; memoised."""
        if self.judge_intents is None:
            raise MeasureError("this evaluation does not judge the runs per intent (P+Q, "
                               "IA(...), D-U and U-IA need it)")
        judge = self.judge_intents
        return self.memo("intent_rankings", lambda: judge(self))

    def intent_pairs(self, batch: JudgedRankings, ranking: np.ndarray,
                     intent: np.ndarray) -> IntentRankings:
        """:class:`IntentRankings` of ``batch``, whose ranking ``p`` is ranking
        ``ranking[p]`` of :attr:`run` judged for intent index ``intent[p]``."""
        topic = self.run.ranking_topic[ranking]
        return IntentRankings(batch, ranking, intent, self.weights[topic, intent],
                              self.navigational[topic, intent])


@dataclass(frozen=True, eq=False)
class IntentRankings:
    """Per-intent rankings: ``batch`` ranking ``p`` is ranking ``ranking[p]`` of the run
    judged for intent ``intent[p]``, weighted ``weight[p]`` (= Pr(intent|q))."""

    batch: JudgedRankings
    ranking: np.ndarray
    intent: np.ndarray
    weight: np.ndarray
    navigational: np.ndarray

    def combine(self, values: np.ndarray, n_rankings: int) -> np.ndarray:
        """Per ranking: Σ_j Pr(j|q)·values[pair (ranking, j)] (added in pair order; 0 for
        a ranking without a pair)."""
        return np.bincount(self.ranking, weights=self.weight * values, minlength=n_rankings)


def diversity_context(index: DiversityIndex, run: DiversityRankings,
                      probabilities: IntentProbabilities | None = None,
                      types: IntentTypes | None = None,
                      judge_intents: Callable[[DiversityContext], IntentRankings] | None
                      = None, alphas: TopicAlphas | None = None) -> DiversityContext:
    """The :class:`DiversityContext` of ``run`` against ``index``, with intent
    probabilities and types checked against the qrels (see the module documentation);
    ``judge_intents`` builds :meth:`DiversityContext.intent_rankings`.

    Raises
    ------
    InputFormatError
        A topic or intent the qrels do not have, an intent with a probability but no
        relevant document, a relevant intent missing from a topic the file lists, or a
        topic whose probabilities do not sum to 1 (± :data:`PROBABILITY_TOLERANCE`),
        naming the file and the line.
    """
    width = index.nrel_sub.shape[1]
    relevant = index.nrel_sub > 0
    counts = relevant.sum(axis=1)
    weights = np.where(relevant, 1.0 / np.maximum(counts, 1)[:, None], 0.0)
    navigational = np.zeros((len(index.topics), width), dtype=bool)
    position = {topic: t for t, topic in enumerate(index.topics)}
    if probabilities is not None:
        for topic, given in probabilities.probabilities.items():
            t = _topic_of(position, topic, given, probabilities, index)
            _check_known(given, index.subtopics[t], probabilities, topic, index)
            row = np.zeros(width)
            for j, subtopic in enumerate(index.subtopics[t]):
                if subtopic in given:
                    row[j] = given[subtopic]
                    if not relevant[t, j]:
                        _refuse(probabilities, topic, subtopic,
                                f"intent {subtopic} of topic {topic} has no relevant "
                                f"document in {index.source} (NTCIREVAL requires one for "
                                "every intent it is given a probability for)")
                elif relevant[t, j]:
                    _refuse(probabilities, topic, next(iter(given)),
                            f"topic {topic}: intent {subtopic} has relevant documents in "
                            f"{index.source} but no probability (list every intent of "
                            "the topic)")
            total = float(sum(given.values()))
            if not abs(total - 1.0) <= PROBABILITY_TOLERANCE:
                _refuse(probabilities, topic, next(iter(given)),
                        f"the probabilities of topic {topic} sum to {total:.6g}, not 1 "
                        f"(tolerance {PROBABILITY_TOLERANCE:g})")
            weights[t] = row
    if types is not None:
        for topic, kinds in types.types.items():
            t = _topic_of(position, topic, kinds, types, index)
            _check_known(kinds, index.subtopics[t], types, topic, index)
            navigational[t, :len(index.subtopics[t])] = types.navigational(
                topic, list(index.subtopics[t]))
    topic_alpha = None
    if alphas is not None:
        topic_alpha = np.full(len(index.topics), np.nan)
        for topic, alpha in alphas.alphas.items():
            if topic not in position:
                line, text = alphas.where.get(topic, (None, None))
                raise InputFormatError(f"topic {topic} is not in the diversity qrels "
                                       f"{index.source}", source=alphas.source, line=line,
                                       text=text)
            topic_alpha[position[topic]] = alpha
    return DiversityContext(run=run, index=index, weights=weights,
                            navigational=navigational, judge_intents=judge_intents,
                            topic_alpha=topic_alpha)


def _refuse(source: IntentProbabilities | IntentTypes, topic: str, subtopic: str,
            message: str) -> None:
    line, text = source.where.get((topic, subtopic), (None, None))
    raise InputFormatError(message, source=source.source, line=line, text=text)


def _topic_of(position: dict[str, int], topic: str, given, source, index) -> int:
    if topic not in position:
        _refuse(source, topic, next(iter(given)),
                f"topic {topic} is not in the diversity qrels {index.source}")
    return position[topic]


def _check_known(given, subtopics, source, topic: str, index: DiversityIndex) -> None:
    known = set(subtopics)
    for subtopic in given:
        if subtopic not in known:
            _refuse(source, topic, subtopic, f"intent {subtopic} of topic {topic} is not "
                    f"in the diversity qrels {index.source}")
