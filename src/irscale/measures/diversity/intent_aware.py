"""Intent-aware versions of any measure: ``IA(<measure>)`` (Agrawal et al., WSDM 2009).

Sakai (2014), eq. 26: with ``M_i`` a measure computed with the (graded) judgments of intent
``i`` alone and ``Pr(i|q)`` the intent probabilities,

    IA(M) = Σ_i Pr(i|q) · M_i                                              (eq. 26)

``M`` is any per-topic measure of irscale's catalogue (``IA(nDCG@10)``, ``IA(Q)``,
``IA(P@10)``, ``IA(AP)``, ``IA(ERR@20)``, ``IA(RBP(p=0.8))`` ...): its name is parsed by
:func:`irscale.measures.names.parse_measures` and computed by the main engine. The per-intent
judgments become ordinary qrels with one *pseudo-topic* per (topic, intent); every run's
ranking of a topic is repeated for each of the topic's intents; the whole batch is judged
once by the main engine (:func:`~irscale.core.judge.build_judged_rankings`, in
:func:`judge_intents`: this is the diversity context's
:meth:`~.context.DiversityContext.intent_rankings`, which P+Q reads too), measured by
:func:`~irscale.measures.compute.compute_requests` and the values combined with the context's
weights ``Pr(i|q)`` by one weighted bincount.

Conventions (documented in ``docs/diversity.md``):

* **Intents that count** are those with a relevant document (judgment ≥ the relevance
  level, 1 by default), as ndeval's ``actualSubtopics`` and NTCIREVAL count them.
  ``Pr(i|q)`` is uniform over them unless intent probabilities are given, used as they
  are (not renormalised) and checked as :mod:`.context` checks them. A topic without any
  counted intent scores 0 (ndeval's zeros).
* **Judgments** keep their graded levels (NTCIREVAL's per-intent levels), so graded
  measures (nDCG, Q, ERR) use the levels; binary measures count levels ≥ the relevance
  level (``IA(P(rel=2)@10)`` sets its own); negative levels are pooled but unjudged, as
  in trec_eval; a document judged for another intent only is not in intent ``i``'s qrels.
* **Ranking** is the diversity evaluation's: the rank column (ndeval's default, ``ties =
  "rank-column"``) or score then docno descending (``traditional``: trec_eval's order).
* **Runs lacking a topic**: values are those of the context's rankings (the run's
  topics); a ranking whose topic the qrels do not judge scores 0 (as ndeval prints it).

With uniform probabilities, ``IA(AP)`` is ndeval's ``MAP-IA`` and ``IA(P@k)`` its ``P-IA@k``
(ndeval averages the per-intent AP and precision over the intents with a relevant document;
tests/test_diversity_ia.py checks it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...core import identifiers
from ...core.inputs import Qrels, Run
from ...core.judge import build_judged_rankings
from ...core.labels import ANY_TOPIC, LabelTable, attach_labels
from ...core.options import RankingOptions
from ...core.strings import Strings
from ...errors import MeasureError
from ...io.diversity import DiversityQrels
from ..base import EvalContext, MeasureRequest
from ..names import parse_name
from .context import DiversityContext, IntentRankings
from .rankings import DiversityIndex

#: Between a topic id and an intent id in a pseudo-topic id (ids never hold blanks).
SEPARATOR = " "


def inner_request(name: str) -> MeasureRequest:
    """The request of the measure inside ``IA(...)``: one per-topic measure with one value
    per topic, averaged over topics (not a summary such as ``gm_map`` or ``num_q``;
    :class:`~irscale.measures.diversity.InnerMeasure` checks it).

    >>> inner_request("IA(nDCG@10)").requested
    'nDCG@10'
    >>> inner_request("IA(num_q)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: IA(num_q): ... 'num_q' is not one (its summary is a count)
    """
    measure = parse_name(name, "intents")
    if measure.family != "IA":
        raise MeasureError(f"{name.strip()!r}: write IA(<measure>), e.g. IA(nDCG@10)")
    return measure.params


@dataclass(frozen=True, eq=False)
class PseudoTopics:
    """The pseudo-topics of an index: ``ids[t · width + j]`` is ``"topic intent"`` for
    topic ``t`` and intent index ``j``; ``order[t, k]`` is the k-th counted intent of
    ``t`` (intents with a relevant document, in index order) and ``count[t]`` their
    number."""

    ids: Strings
    width: int
    order: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, index: DiversityIndex) -> PseudoTopics:
        counted = index.nrel_sub > 0
        width = max(counted.shape[1], 1)
        topic = [t for t, subs in zip(index.topics, index.subtopics, strict=True)
                 for _ in range(width)]
        intent = [subs[j] if j < len(subs) else "" for subs in index.subtopics
                  for j in range(width)]
        ids = identifiers.join_strings(identifiers.strings(topic), identifiers.strings(intent),
                                       SEPARATOR)
        order = np.argsort(~counted, axis=1, kind="stable") if counted.size else \
            np.zeros((len(index.topics), 0), dtype=np.int64)
        return cls(ids=ids, width=width, order=order, count=counted.sum(axis=1))

    def units(self, topic: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For items of topics ``topic`` (−1: not judged, no unit): one unit per (item,
        counted intent): ``(item of each unit, pseudo-topic code of each unit)``."""
        copies = np.where(topic >= 0, self.count[np.maximum(topic, 0)], 0) \
            if len(self.count) else np.zeros(len(topic), dtype=np.int64)
        item = np.repeat(np.arange(len(topic)), copies)
        rank = np.arange(len(item)) - np.repeat(np.cumsum(copies) - copies, copies)
        code = topic[item] * self.width + self.order[topic[item], rank]
        return item, code

    def split(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(topic index, intent index)`` of pseudo-topic codes."""
        return codes // self.width, codes % self.width


def per_intent_qrels(qrels: DiversityQrels, pseudo: PseudoTopics,
                     index: DiversityIndex) -> Qrels:
    """Ordinary qrels with one pseudo-topic ``"topic intent"`` per counted intent: every
    judgment of that intent, with its level."""
    counted = identifiers.take(pseudo.ids, _counted_codes(pseudo, index))
    ids = identifiers.join_strings(qrels.topic, qrels.subtopic, SEPARATOR)
    rows = np.flatnonzero(identifiers.index_in(ids, counted) >= 0)
    return Qrels(topic=identifiers.as_strings(identifiers.take(ids, rows)),
                 docno=identifiers.take(qrels.docno, rows),
                 rel=qrels.judgment[rows].astype(np.int64), source=qrels.source)


def _counted_codes(pseudo: PseudoTopics, index: DiversityIndex) -> np.ndarray:
    t, j = np.nonzero(index.nrel_sub > 0)
    return t * pseudo.width + j


def expand_run(run: Run, pseudo: PseudoTopics, topics: Strings) -> Run:
    """``run`` with each topic's rows repeated once per counted intent of the topic, under
    the pseudo-topic ids (topic blocks stay contiguous; scores and ranks kept)."""
    blocks = run.topic_blocks
    block, code = pseudo.units(identifiers.index_in(blocks.heads, topics))
    starts, lengths = blocks.bounds[:-1], np.diff(blocks.bounds)
    size = lengths[block]
    rows = (np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
            + np.repeat(starts[block], size))
    topic = identifiers.take(pseudo.ids, np.repeat(code, size))
    return Run(name=run.name, topic=identifiers.as_strings(topic),
               docno=identifiers.take(run.docno, rows), score=run.score[rows],
               rank=None if run.rank is None else run.rank[rows], source=run.source,
               runids=run.runids)


def expand_labels(table: LabelTable, pseudo: PseudoTopics, topics: Strings) -> LabelTable:
    """A label set keyed by the pseudo-topics: rows of topic ``*`` as they are, a topic's
    rows repeated for each of its counted intents."""
    any_topic = np.flatnonzero(identifiers.index_in(table.topic,
                                                    identifiers.strings([ANY_TOPIC])) == 0)
    item, code = pseudo.units(identifiers.index_in(table.topic, topics))
    rows = np.concatenate([any_topic, item])
    topic = identifiers.as_strings(identifiers.strings([ANY_TOPIC] * len(any_topic)),
                                   identifiers.take(pseudo.ids, code))
    return LabelTable(topic=topic, docno=identifiers.take(table.docno, rows),
                      value=table.value[rows], source=table.source)


def judge_intents(qrels: DiversityQrels, runs: Sequence[Run], run_of: np.ndarray, *,
                  traditional: bool = False, max_docs: int | None = None,
                  labels: Mapping[str, LabelTable] | None = None
                  ) -> Callable[[DiversityContext], IntentRankings]:
    """How a :class:`~.context.DiversityContext` of ``runs`` (whose ranking ``r`` is a
    ranking of run ``run_of[r]``) judges them per intent: every (run, topic, counted
    intent) ranking judged by the main engine against the pseudo-topic qrels (module
    documentation), ranked as the context's rankings (rank column, or score then docno
    descending with ``traditional``; ``max_docs``). ``labels``: label sets
    (:func:`irscale.io.labels.read_labels`) by name, for measures that read them."""
    def judge(ctx: DiversityContext) -> IntentRankings:
        options = RankingOptions(max_docs=max_docs,
                                 ties="trec_eval" if traditional else "rank-column")
        index = ctx.index
        pseudo = PseudoTopics.of(index)
        topics = identifiers.strings(list(index.topics))
        pseudo_qrels = per_intent_qrels(qrels, pseudo, index)
        expanded = [expand_run(run, pseudo, topics) for run in runs]
        jr = build_judged_rankings(pseudo_qrels, expanded, options)
        if labels:
            tables = {name: expand_labels(table, pseudo, topics)
                      for name, table in labels.items()}
            jr = attach_labels(jr, pseudo_qrels, expanded, options, tables)
        codes = identifiers.index_in(identifiers.strings(list(jr.topics)),
                                     pseudo.ids)[jr.ranking_topic]
        topic, intent = pseudo.split(codes)
        # the context's ranking of each (run, topic): judged topics only have intents
        dr = ctx.run
        judged = np.flatnonzero(dr.ranking_topic >= 0)
        n_topics = len(index.topics)
        cell = np.full(len(runs) * n_topics, -1, dtype=np.int64)
        cell[run_of[judged] * n_topics + dr.ranking_topic[judged]] = judged
        ranking = cell[jr.ranking_run * n_topics + topic]
        return ctx.intent_pairs(jr, ranking, intent)

    return judge


def measure_values(pairs: IntentRankings, request: MeasureRequest,
                   label: str) -> np.ndarray:
    """Per ranking of ``pairs``: the value of ``request`` (the main engine's kernels)."""
    from ..compute import compute_requests

    columns, values = compute_requests(pairs.batch, [request], EvalContext())
    if len(columns) != 1:  # pragma: no cover - inner_request admits one-column names
        raise MeasureError(f"{label}: {request.requested!r} yields {len(columns)} values")
    return np.asarray(values[columns[0].label], dtype=np.float64)


def intent_aware(ctx: DiversityContext, name: str) -> np.ndarray:
    """``IA(<measure>)`` per ranking of the context (eq. 26)."""
    pairs = ctx.intent_rankings()
    values = measure_values(pairs, inner_request(name), name)
    return pairs.combine(values, ctx.run.n_rankings)


__all__ = ["inner_request", "intent_aware", "judge_intents",
           "measure_values"]
