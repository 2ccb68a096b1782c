"""Evaluating runs with diversity measures (ndeval's output: :mod:`.output`).

:func:`evaluate_diversity` judges the runs once per intent (:func:`~.rankings.read_and_judge`),
builds the greedy ideal rankings once per α, and computes every requested family over the
whole batch. Topics follow ndeval: each run topic gets a row (a topic the qrels do not
judge scores 0 everywhere, with a warning, and is not evaluated), the mean divides by the
number of run topics the qrels judge (``complete``, ndeval ``-c``: by the number of qrels
topics). The result is the :class:`~irscale.measures.results.Evaluation` of every
evaluation, with ndeval's summaries.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..core.rows import TopicRows
from ..errors import AlignmentError, MeasureError, ParameterError, shown
from ..io.diversity import (
    DiversityQrels,
    IntentProbabilities,
    IntentTypes,
    TopicAlphas,
    ndeval_qrels,
    read_diversity_qrels,
    read_intent_probabilities,
    read_intent_types,
    read_topic_alphas,
)
from ..io.table import Column
from ..measures.diversity import (
    DIVERSITY_REGISTRY,
    NDEVAL_COLUMNS,
    DiversityRequest,
    parse_diversity_measures,
)
from ..measures.diversity.condensed import judged_only, place
from ..measures.diversity.context import diversity_context
from ..measures.diversity.rankings import DiversityIndex, id_sort_key, read_and_judge
from ..measures.diversity.umeasures import per_intent_measure
from ..measures.results import Averaging, Evaluation


def evaluate_diversity(
    qrels: Any,
    runs: Any,
    measures: str | Iterable[str] = "ndeval",
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
        Judgments ``topic subtopic docno judgment`` (:func:`read_diversity_qrels`).
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
    >>> qrels = read_diversity_qrels(b"1 1 d1 1\\n1 2 d2 1\\n1 2 d3 1\\n")
    >>> run = read_run(b"1 Q0 d2 1 3 r\\n1 Q0 d3 2 2 r\\n1 Q0 d1 3 1 r\\n", keep_rank=True)
    >>> ev = evaluate_diversity(qrels, run, "alpha-nDCG@3 strec@2 MAP-IA")
    >>> {k: round(float(v[0]), 4) for k, v in ev.values.items()}
    {'alpha-nDCG@3': 0.9652, 'strec@2': 0.5, 'MAP-IA': 0.6667}
    """
    requests = parse_diversity_measures(measures)
    chosen = {value for r in requests for key, value in r.options if key == "traditional"}
    if len(chosen) > 1:
        raise MeasureError("measures ask for both traditional=1 and traditional=0")
    if traditional is None:
        traditional = chosen.pop() if chosen else False
    elif chosen and chosen != {bool(traditional)}:
        raise MeasureError("traditional= of the measure names differs from traditional "
                           f"{traditional!r}")
    if max_docs is not None and (isinstance(max_docs, bool) or not isinstance(max_docs, int)
                                 or max_docs < 1):
        raise ParameterError(f"max_docs must be a positive integer, got {shown(max_docs)}")
    if isinstance(qrels, DiversityQrels):
        qrels_obj = ndeval_qrels(qrels) if ndeval_ids else qrels
    else:
        qrels_obj = read_diversity_qrels(qrels, ndeval=ndeval_ids)
    index = DiversityIndex.of(qrels_obj)
    # ndeval's families read the judged rankings only: each run's rows are dropped once it
    # is judged (memory); the others (IA(...), P+Q, D-U, ...) read the runs again
    ndeval_only = {r.family for r in requests} <= {c.partition("@")[0] for c in NDEVAL_COLUMNS} \
        and not any(r.condensed for r in requests)
    if ndeval_ids and any(r.condensed for r in requests):
        raise MeasureError("condensed=1 is not one of ndeval's measures: print it with "
                           "--format trec or csv")
    run_list, dr, run_of, topic_ids = read_and_judge(index, runs, bool(traditional), max_docs,
                                                     keep_rows=not ndeval_only,
                                                     ndeval_ids=ndeval_ids)
    judged = dr.ranking_topic >= 0
    unjudged = np.flatnonzero(~judged)
    qrels_topics = set(qrels_obj.topics)  # those of the file, judged relevant or not
    for k, run in enumerate(run_list):
        missing = [topic_ids[i] for i in unjudged[run_of[unjudged] == k].tolist()]
        if missing and not allow_empty and not judged[run_of == k].any() \
                and qrels_topics.isdisjoint(missing):
            raise AlignmentError(
                f"run {run.name!r} has no topic in common with the diversity qrels "
                f"({qrels_obj.source}): the run has topics {', '.join(missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''} (qrels of another collection, or "
                "topic ids written differently?); --allow-empty (allow_empty=True) "
                "evaluates it anyway")
        if missing:
            warnings.warn(f"run {run.name!r}: {len(missing)} topic(s) not in the diversity "
                          f"qrels score 0 (as ndeval prints them): {', '.join(missing[:10])}",
                          stacklevel=2)
    from ..io.labels import read_labels
    from ..measures.diversity.intent_aware import judge_intents

    _check_label_sets(label_sets or {}, requests)

    judge = judge_intents(  # called only by measures that read per-intent rankings
        qrels_obj, run_list, run_of, traditional=bool(traditional), max_docs=max_docs,
        labels={k: read_labels(v) for k, v in (label_sets or {}).items()})
    if topic_alphas is not None and not any(
            r.params is not None and "topic_alpha" in r.params and r.params["topic_alpha"]
            for r in requests):
        raise ParameterError("per-topic alphas are read by alpha-nDCG-w(topic_alpha=1)@k and "
                             "nERR-IA-w(topic_alpha=1)@k only: no requested measure reads them")
    ctx = diversity_context(index, dr, _read(intent_probabilities, read_intent_probabilities),
                            _read(intent_types, read_intent_types), judge,
                            alphas=_read(topic_alphas, read_topic_alphas))
    condensed_ctx = None
    if any(r.condensed for r in requests):
        condensed_ctx = _condensed_context(qrels_obj, index, run_list, run_of, topic_ids,
                                           bool(traditional), max_docs, ctx)
    values: dict[str, np.ndarray] = {}
    labels: list[str] = []
    for request in requests:
        if request.label in labels:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            values[request.label] = np.asarray(
                per_intent_measure(ctx, request.label) if request.family == "IA" else
                DIVERSITY_REGISTRY[request.family].kernel(ctx, request.params,
                                                          request.cutoff), dtype=np.float64)
            if request.condensed and condensed_ctx is not None:
                inner, keys, inner_keys = condensed_ctx
                values[request.label] = place(
                    values[request.label], keys,
                    np.asarray(DIVERSITY_REGISTRY[request.family].kernel(
                        inner, request.params, request.cutoff), dtype=np.float64),
                    inner_keys)
        labels.append(request.label)
    names = tuple(run.name for run in run_list)
    runids = tuple(run.runids[0] if run.runids else run.name for run in run_list)
    return diversity_result(values, labels, names, runids, run_of, topic_ids, judged,
                            n_qrels_topics=len(index.topics), complete=bool(complete))


def diversity_result(values: Mapping[str, np.ndarray], labels: Sequence[str],
                     runs: tuple[str, ...], runids: tuple[str, ...], ranking_run: np.ndarray,
                     ranking_topic: Sequence[str], judged: np.ndarray, *,
                     n_qrels_topics: int, complete: bool) -> Evaluation:
    """The :class:`~irscale.measures.results.Evaluation` of diversity measures: one row per
    run topic (``ranking_run``, ``ranking_topic``: run by run, topics in numeric order),
    those the qrels do not judge (``~judged``) printed with 0 and not evaluated; ndeval's
    summaries (``complete``: ndeval's ``-c``)."""
    topics = tuple(sorted(set(ranking_topic), key=id_sort_key))
    where = {topic: i for i, topic in enumerate(topics)}
    codes = np.array([where[t] for t in ranking_topic], dtype=np.int64)
    unjudged = tuple(tuple(ranking_topic[i] for i in np.flatnonzero(
        (ranking_run == k) & ~judged).tolist()) for k in range(len(runs)))
    rows = TopicRows(runs=runs, topics=topics, ranking_run=ranking_run,
                     ranking_topic=codes, unjudged_topics=unjudged, evaluated=judged)
    return Evaluation(columns=tuple(Column(label) for label in labels),
                      values={label: values[label] for label in labels}, rows=rows,
                      averaging=Averaging("ndeval", complete=complete,
                                          n_qrels_topics=n_qrels_topics),
                      runids=runids)


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


def _condensed_context(qrels: DiversityQrels, index: DiversityIndex, run_list: list,
                       run_of: np.ndarray, topic_ids: list[str], traditional: bool,
                       max_docs: int | None, ctx: Any) -> tuple[Any, list, list]:
    """The context of the condensed runs (:mod:`.condensed`), with the ``(run, topic)`` key
    of every ranking of the plain and of the condensed batch."""
    condensed_runs = judged_only(qrels, run_list)
    kept = [k for k, run in enumerate(condensed_runs) if len(run)]
    _, dr, c_run_of, c_topics = read_and_judge(index, [condensed_runs[k] for k in kept],
                                               traditional, max_docs, keep_rows=True)
    inner = replace(ctx, run=dr, cache={})
    keys = list(zip(run_of.tolist(), topic_ids, strict=True))
    inner_keys = [(kept[k], t) for k, t in zip(c_run_of.tolist(), c_topics, strict=True)]
    return inner, keys, inner_keys


def _read(source: Any, reader: Any) -> Any:
    """``source`` read with ``reader`` unless already read (``None`` stays ``None``)."""
    if source is None or isinstance(source, (IntentProbabilities, IntentTypes, TopicAlphas)):
        return source
    return reader(source)
