"""Evaluating runs with diversity measures (ndeval's output:
:mod:`irscale.measures.diversity.output`).

:func:`evaluate_diversity` reads its inputs and judges the runs once per intent
(:mod:`.intent_inputs`), builds the greedy ideal rankings once per α, and computes every
requested family over the whole batch. Topics follow ndeval: each run topic gets a row
(a topic the qrels do not judge scores 0 everywhere, with a warning, and is not
evaluated), the mean divides by the number of run topics the qrels judge (``complete``,
ndeval ``-c``: by the number of qrels topics). The result is the
:class:`~irscale.measures.results.Evaluation` of every evaluation, with ndeval's summaries.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.rows import RowKeys
from ..errors import AlignmentError, MeasureError, ParameterError, shown
from ..io.diversity import (
    DiversityQrels,
    IntentProbabilities,
    IntentTypes,
    TopicAlphas,
    read_intent_probabilities,
    read_intent_types,
    read_topic_alphas,
)
from ..io.table import Averaging
from ..measures.diversity import (
    DIVERSITY_REGISTRY,
    NDEVAL_COLUMNS,
    DiversityRequest,
    parse_diversity_measures,
)
from ..measures.diversity.condensed import judged_only, place
from ..measures.diversity.context import DiversityContext, diversity_context
from ..measures.diversity.rankings import DiversityIndex, id_sort_key
from ..measures.diversity.umeasures import per_intent_measure
from ..measures.results import Evaluation, build_evaluation
from .intent_inputs import JudgedRuns, read_and_judge, read_optional, read_qrels

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def evaluate_diversity(
    qrels: Any,
    runs: Any,
    measures: MeasureNames = "ndeval",
    *,
    traditional: bool | None = None,
    complete: bool = False,
    max_docs: int | None = None,
    intent_probabilities: Any = None,
    intent_types: Any = None,
    label_sets: Mapping[str, Any] | None = None,
    allow_empty: bool = False,
    ndeval_ids: bool = False,
    topic_alphas: Any = None,
) -> Evaluation:
    """Evaluate runs with diversity measures against diversity qrels.

    Parameters
    ----------
    qrels : DiversityQrels or path
        Judgments ``topic subtopic docno judgment``
        (:func:`~irscale.io.diversity.read_diversity_qrels`).
    runs : Run, path, or a list / mapping of those
        Runs in TREC format; ranked by their rank column as ndeval ranks them, or by
        score then docno descending with ``traditional``.
    measures : str or iterable of str, default "ndeval"
        Diversity measure names (``alpha-nDCG@20``, ``ERR-IA(alpha=0.5)@10``, ``NRBP``,
        ``ndeval``, ``ndeval(traditional=1)``).
    traditional : bool, optional
        ndeval's ``-traditional``; by default the ``traditional`` of an ``ndeval(...)``
        name, else False.
    complete : bool, default False
        ndeval's ``-c``: average over every qrels topic.
    max_docs : int, optional
        ndeval's ``-M``: evaluate the first ``max_docs`` documents of each ranking.
    intent_probabilities : IntentProbabilities or path, optional
        Pr(i|q) of each intent (NTCIR's Iprob format ``topic subtopic probability``,
        :func:`~irscale.io.diversity.read_intent_probabilities`) for NTCIREVAL's families;
        default uniform over each topic's intents with a relevant document
        (:mod:`~irscale.measures.diversity.context`). ndeval's measures do not use them.
    intent_types : IntentTypes or path, optional
        ``topic subtopic inf|nav`` (:func:`~irscale.io.diversity.read_intent_types`) for
        DIN-nDCG, P+Q and EP; default every intent informational.
    label_sets : mapping, optional
        Label sets by name (as ``labels=`` of :func:`irscale.evaluate`), for the measures
        inside ``IA(...)`` and for ``D-U`` / ``U-IA`` (document lengths, ``doclen``).
    allow_empty : bool, default False
        A run with no topic in common with the qrels (qrels of another collection, topic
        ids written differently) raises :class:`~irscale.errors.AlignmentError` naming it,
        unless ``allow_empty``: then its topics score 0, as ndeval prints them. A run with
        some topics the qrels lack scores 0 there, with a warning.
    topic_alphas : TopicAlphas or path, optional
        One α per topic, lines ``topic alpha`` (:func:`~irscale.io.diversity.read_topic_alphas`),
        for ``alpha-nDCG-w(topic_alpha=1)@k`` and ``nERR-IA-w(topic_alpha=1)@k``; refused when no
        requested measure reads it.
    ndeval_ids : bool, default False
        Read topic (and subtopic) ids as ndeval 4.5 reads them: numbers, written back in
        decimal (``07`` is ``7``), a run's topic possibly after a task prefix ending in
        ``-`` (``wt09-1`` is ``1``); an id ndeval refuses is an
        :class:`~irscale.errors.InputFormatError`. ``irscale eval --format ndeval`` sets
        it. By default ids are strings kept as written (NTCIR's ``0001``).

    Examples
    --------
    >>> from irscale.io.trec import read_run
    >>> from irscale.io.diversity import read_diversity_qrels
    >>> qrels = read_diversity_qrels(b"1 1 d1 1\\n1 2 d2 1\\n1 2 d3 1\\n")
    >>> run = read_run(b"1 Q0 d2 1 3 r\\n1 Q0 d3 2 2 r\\n1 Q0 d1 3 1 r\\n", keep_rank=True)
    >>> ev = evaluate_diversity(qrels, run, "alpha-nDCG@3 strec@2 MAP-IA")
    >>> {k: round(float(v[0]), 4) for k, v in ev.values.items()}
    {'alpha-nDCG@3': 0.9652, 'strec@2': 0.5, 'MAP-IA': 0.6667}
    """
    requests = parse_diversity_measures(measures)
    traditional = _traditional(requests, traditional)
    _check_options(requests, max_docs, ndeval_ids, label_sets or {}, topic_alphas)
    qrels_obj = read_qrels(qrels, ndeval_ids)
    index = DiversityIndex.of(qrels_obj)
    # ndeval's families read the judged rankings only: each run's rows are dropped once it
    # is judged (memory); the others (IA(...), P+Q, D-U, ...) read the runs again
    judged = read_and_judge(index, runs, traditional, max_docs,
                            keep_rows=not _ndeval_only(requests), ndeval_ids=ndeval_ids)
    _check_run_topics(judged, qrels_obj, allow_empty)
    ctx = _context(qrels_obj, index, judged, traditional, max_docs, label_sets or {},
                   intent_probabilities, intent_types, topic_alphas)
    condensed = _condensed_context(qrels_obj, index, judged, traditional, max_docs, ctx) \
        if any(r.condensed for r in requests) else None
    values = {request.label: _values(request, ctx, condensed)
              for request in _distinct(requests)}
    judged_rows = judged.rankings.ranking_topic >= 0
    return build_evaluation(
        values, RowKeys(tuple(run.name for run in judged.runs), judged.run_of,
                        judged.topic_ids, topic_order=id_sort_key,
                        unjudged=_unjudged(judged, ~judged_rows), evaluated=judged_rows),
        Averaging("ndeval", complete=bool(complete), n_qrels_topics=len(index.topics)),
        runids=tuple(run.runids[0] if run.runids else run.name for run in judged.runs))


def _traditional(requests: list[DiversityRequest], traditional: bool | None) -> bool:
    """ndeval's ``-traditional``: ``traditional`` when given, else that of the
    ``ndeval(traditional=...)`` names, else False; names that disagree (with each other or
    with ``traditional``) are a :class:`MeasureError`."""
    chosen = {value for r in requests for key, value in r.options if key == "traditional"}
    if len(chosen) > 1:
        raise MeasureError("measures ask for both traditional=1 and traditional=0")
    if traditional is None:
        return bool(chosen.pop()) if chosen else False
    if chosen and chosen != {bool(traditional)}:
        raise MeasureError("traditional= of the measure names differs from traditional "
                           f"{traditional!r}")
    return bool(traditional)


def _check_options(requests: list[DiversityRequest], max_docs: int | None,
                   ndeval_ids: bool, label_sets: Mapping[str, Any], topic_alphas: Any
                   ) -> None:
    """The options that need no input, checked before any is read: ``max_docs`` a positive
    integer, the condensed lists outside ndeval's table, the label sets and the α per topic
    read by some requested measure."""
    if max_docs is not None and (isinstance(max_docs, bool) or not isinstance(max_docs, int)
                                 or max_docs < 1):
        raise ParameterError(f"max_docs must be a positive integer, got {shown(max_docs)}")
    if ndeval_ids and any(r.condensed for r in requests):
        raise MeasureError("condensed=1 is not one of ndeval's measures: print it with "
                           "--format trec or csv")
    _check_label_sets(label_sets, requests)
    if topic_alphas is not None and not any(
            r.params is not None and "topic_alpha" in r.params and r.params["topic_alpha"]
            for r in requests):
        raise ParameterError("per-topic alphas are read by alpha-nDCG-w(topic_alpha=1)@k and "
                             "nERR-IA-w(topic_alpha=1)@k only: no requested measure reads them")


def _ndeval_only(requests: list[DiversityRequest]) -> bool:
    """Every request one of ndeval's families on the plain lists (which read the judged
    rankings only, not the runs' rows)."""
    return {r.family for r in requests} <= {c.partition("@")[0] for c in NDEVAL_COLUMNS} \
        and not any(r.condensed for r in requests)


def _check_run_topics(judged: JudgedRuns, qrels: DiversityQrels, allow_empty: bool) -> None:
    """ndeval's rule for run topics the qrels do not judge: they score 0, with a warning
    per run; a run with no topic of the qrels file (judged relevant or not) is an
    :class:`AlignmentError`, unless ``allow_empty``."""
    judged_rows = judged.rankings.ranking_topic >= 0
    qrels_topics = set(qrels.topics)  # those of the file, judged relevant or not
    for k, (run, missing) in enumerate(zip(judged.runs, _unjudged(judged, ~judged_rows),
                                           strict=True)):
        if missing and not allow_empty and not judged_rows[judged.run_of == k].any() \
                and qrels_topics.isdisjoint(missing):
            raise AlignmentError(
                f"run {run.name!r} has no topic in common with the diversity qrels "
                f"({qrels.source}): the run has topics {', '.join(missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''} (qrels of another collection, or "
                "topic ids written differently?); --allow-empty (allow_empty=True) "
                "evaluates it anyway")
        if missing:
            warnings.warn(f"run {run.name!r}: {len(missing)} topic(s) not in the diversity "
                          f"qrels score 0 (as ndeval prints them): {', '.join(missing[:10])}",
                          stacklevel=3)


def _unjudged(judged: JudgedRuns, unjudged: np.ndarray) -> list[tuple[str, ...]]:
    """Per run, the topic ids of its rankings marked ``unjudged``, in ranking order."""
    return [tuple(judged.topic_ids[i] for i in np.flatnonzero(
        unjudged & (judged.run_of == k)).tolist()) for k in range(len(judged.runs))]


def _context(qrels: DiversityQrels, index: DiversityIndex, judged: JudgedRuns,
             traditional: bool, max_docs: int | None, label_sets: Mapping[str, Any],
             intent_probabilities: Any, intent_types: Any, topic_alphas: Any
             ) -> DiversityContext:
    """The context of every family (:func:`~irscale.measures.diversity.context.
    diversity_context`): the judged rankings, the per-intent judging of the catalogue's
    measures (``IA(...)``, ``D-U`` ...: the label sets read here) and the optional files."""
    from ..io.labels import read_labels
    from ..measures.diversity.intent_aware import judge_intents

    judge = judge_intents(  # called only by measures that read per-intent rankings
        qrels, judged.runs, judged.run_of, traditional=traditional, max_docs=max_docs,
        labels={k: read_labels(v) for k, v in label_sets.items()})
    return diversity_context(
        index, judged.rankings,
        read_optional(intent_probabilities, read_intent_probabilities, IntentProbabilities),
        read_optional(intent_types, read_intent_types, IntentTypes), judge,
        alphas=read_optional(topic_alphas, read_topic_alphas, TopicAlphas))


def _distinct(requests: list[DiversityRequest]) -> list[DiversityRequest]:
    """The requests, the first of each label (a measure named twice is computed once)."""
    first: dict[str, DiversityRequest] = {}
    for request in requests:
        first.setdefault(request.label, request)
    return list(first.values())


def _values(request: DiversityRequest, ctx: DiversityContext,
            condensed: tuple[DiversityContext, list, list] | None) -> np.ndarray:
    """The value of ``request`` on every ranking of ``ctx`` (on the condensed lists of
    ``condensed``, :func:`_condensed_context`, for a ``condensed=1`` measure)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if request.family == "IA":
            return np.asarray(per_intent_measure(ctx, request.label), dtype=np.float64)
        kernel = DIVERSITY_REGISTRY[request.family].kernel
        values = np.asarray(kernel(ctx, request.params, request.cutoff), dtype=np.float64)
        if request.condensed and condensed is not None:
            inner, keys, inner_keys = condensed
            values = place(values, keys, np.asarray(kernel(inner, request.params,
                                                           request.cutoff), dtype=np.float64),
                           inner_keys)
        return values


def _check_label_sets(label_sets: Mapping[str, Any], requests: list[DiversityRequest]
                      ) -> None:
    """Label sets are read by the catalogue measures computed per intent (``IA(<measure>)``,
    ``D-U`` and ``U-IA``: ``U``'s ``lengths=``, ``doclen`` by default); one that no
    requested measure names is a :class:`ParameterError`."""
    from ..core.labels import unused_label_sets
    from ..measures.base import label_sets_named
    from ..measures.diversity.intent_aware import inner_request
    from ..measures.diversity.umeasures import is_umeasure_name, u_request

    if not label_sets:
        return
    inner = [(u_request if is_umeasure_name(r.label) else inner_request)(r.label)
             for r in requests if r.family == "IA"]
    unused = unused_label_sets(label_sets, label_sets_named(inner))
    if unused:
        raise ParameterError(
            f"label set {unused[0]!r} is read by no measure requested: diversity measures "
            "read label sets only through D-U and U-IA (document lengths, "
            "lengths=doclen by default) and IA(<measure>) of a measure that reads one")


def _condensed_context(qrels: DiversityQrels, index: DiversityIndex, judged: JudgedRuns,
                       traditional: bool, max_docs: int | None, ctx: DiversityContext
                       ) -> tuple[DiversityContext, list, list]:
    """The context of the condensed runs (:mod:`.condensed`), with the ``(run, topic)`` key
    of every ranking of the plain and of the condensed batch."""
    condensed_runs = judged_only(qrels, judged.runs)
    kept = [k for k, run in enumerate(condensed_runs) if len(run)]
    inner = read_and_judge(index, [condensed_runs[k] for k in kept], traditional, max_docs)
    keys = list(zip(judged.run_of.tolist(), judged.topic_ids, strict=True))
    inner_keys = [(kept[k], t) for k, t in zip(inner.run_of.tolist(), inner.topic_ids,
                                               strict=True)]
    return replace(ctx, run=inner.rankings, cache={}), keys, inner_keys
