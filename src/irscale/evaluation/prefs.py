"""Runs evaluated against preference judgments: ``irscale.evaluate(...,
relevance_format="prefs")`` and ``irscale eval -R prefs`` (trec_eval 9.0.8's ``-R prefs`` and
``-R qrels_prefs``).

The judgments are read by :func:`irscale.io.prefs.read_prefs` and checked topic by topic
(:func:`irscale.core.prefs.topic_judgments`); each run's topics that the judgments hold are
ranked as form_prefs_counts.c ranks them (:func:`irscale.core.prefs.ranked_docnos`: ties by
docno ascending), cut at ``max_docs`` (``-M``), and measured by the families of the
catalogue's ``prefs`` context (:mod:`irscale.measures.prefs`). Summaries follow trec_eval
(``meas_avg.c``): ratios are averaged over the evaluated topics (over every topic of the
judgments with ``complete``, ``-c``), counts are summed, ``num_q`` counts the topics. Topics
a run retrieved documents for that the judgments lack are not evaluated, with a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..core.inputs import Run
from ..core.prefs import TopicJudgments, judge_topic, ranked_docnos, topic_judgments
from ..core.rows import RowKeys
from ..errors import MeasureError
from ..io.prefs import PrefsForm, PrefsJudgments, read_prefs
from ..io.sources import as_runs
from ..io.table import Averaging
from ..measures.base import CATALOGUE
from ..measures.compute import column_of
from ..measures.names import is_measure_name, parse_name
from ..measures.prefs import ALL_PREFS, NICKNAMES
from ..measures.results import Evaluation, build_evaluation
from ..measures.trec_table import AVERAGED_JG
from .counters import COUNTERS, column_values
from .setup import check_run_topics

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def prefs_measures(measures: MeasureNames, form: str) -> list[str]:
    """The families ``measures`` name (preference measures, ``runid``, ``num_q`` and
    trec_eval's sets ``all_prefs`` and ``prefs``), in trec_eval's table order;
    :class:`MeasureError` for any other name, saying why."""
    names = measures.split() if isinstance(measures, str) else list(measures)
    if not names:
        raise MeasureError("no measure requested")
    wanted: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            raise MeasureError(f"measure names are strings, got {name!r}")
        if name in NICKNAMES:
            wanted.update(NICKNAMES[name])
        elif name in COUNTERS:
            wanted.add(name)
        elif name == "official":
            raise MeasureError(f"with -R {form} (relevance_format={form!r}) name the "
                               "preference measures: -m all_prefs, -m prefs, -m prefs_simp "
                               "... (trec_eval's official measures need qrels)")
        elif name == "qrels_jg" or name.partition(".")[0] in AVERAGED_JG:
            raise MeasureError(f"measure {name!r} needs multi-judge qrels (-R qrels_jg), not "
                               f"preference judgments (-R {form})")
        elif is_measure_name(name) or name in NICKNAMES_OF_QRELS:
            raise MeasureError(f"measure {name!r} needs qrels (-R qrels), not preference "
                               f"judgments (-R {form}): use all_prefs, prefs or "
                               f"{', '.join(ALL_PREFS[2:5])} ...")
        else:
            wanted.add(parse_name(name, "prefs").family)
    return [name for name in ALL_PREFS if name in wanted]


#: trec_eval's sets of measures of qrels (refused with preference judgments).
NICKNAMES_OF_QRELS = ("official", "set", "all_trec")


def evaluate_prefs(prefs: Any, runs: Any, measures: MeasureNames = "all_prefs", *,
                   form: PrefsForm = "prefs", max_docs: int | None = None,
                   complete: bool = False, allow_empty: bool = False) -> Evaluation:
    """Evaluate ``runs`` against preference judgments ``prefs`` of ``form`` (a path,
    bytes or :class:`~irscale.io.prefs.PrefsJudgments`): module documentation; options as
    :func:`irscale.evaluate` names them."""
    families = prefs_measures(measures, form)
    if not isinstance(prefs, PrefsJudgments):
        prefs = read_prefs(prefs, form)
    judgments = _by_topic(prefs)
    run_list = as_runs(runs)
    kernels = [(name, CATALOGUE["prefs"][name].kernel) for name in families
               if name not in COUNTERS]
    scored = [_score_run(run, judgments, kernels, max_docs) for run in run_list]
    topic_of = [topic for topics, _, _ in scored for topic in topics]
    columns = [COUNTERS.get(name) or column_of(name, CATALOGUE["prefs"][name])
               for name in families]
    evaluation = build_evaluation(
        {column.label: column_values(column, [values for _, values, _ in scored],
                                      len(topic_of)) for column in columns},
        RowKeys(tuple(run.name for run in run_list),
                np.repeat(np.arange(len(run_list)), [len(topics) for topics, _, _ in scored]),
                topic_of, gold_topics=set(judgments).union(
                    *(run.topic.to_pylist() for run in run_list)),
                unjudged=[missing for _, _, missing in scored]),
        Averaging("trec_eval", complete=complete, n_qrels_topics=len(judgments)),
        columns=columns)
    rows = evaluation.rows
    check_run_topics(rows.runs, np.bincount(rows.ranking_run, minlength=len(run_list)).tolist(),
                     rows.unjudged_topics, sorted(judgments), allow_empty=allow_empty,
                     qrels_source=prefs.source, gold=f"{form} judgments", stacklevel=3)
    return evaluation


def _score_run(run: Run, judgments: Mapping[str, TopicJudgments],
               kernels: list[tuple[str, Callable[[Any], float]]], max_docs: int | None
               ) -> tuple[list[str], dict[str, list[float]], tuple[str, ...]]:
    """One run against the judgments: its topics the judgments hold (in byte order), the
    value of every kernel on each, and its other topics (not evaluated)."""
    topic = np.asarray(run.topic.to_pylist(), dtype=object)
    docno = np.asarray(run.docno.to_pylist(), dtype=object)
    order = np.argsort(topic.astype(str), kind="stable")
    starts = np.flatnonzero(np.r_[True, topic[order][1:] != topic[order][:-1]]) \
        if len(order) else np.zeros(0, dtype=np.int64)
    topics, missing = [], []
    values: dict[str, list[float]] = {label: [] for label, _ in kernels}
    for start, end in zip(starts, np.r_[starts[1:], len(order)], strict=True):
        lines = order[start:end]
        name = str(topic[lines[0]])
        if name not in judgments:
            missing.append(name)
            continue
        ranked = ranked_docnos(docno[lines], run.score[lines], max_docs, run.source, name)
        counts = judge_topic(judgments[name], ranked)
        for label, kernel in kernels:
            values[label].append(kernel(counts))
        topics.append(name)
    return topics, values, tuple(sorted(missing))


def _by_topic(prefs: PrefsJudgments) -> dict[str, TopicJudgments]:
    """Every topic's judgments, checked (:func:`irscale.core.prefs.topic_judgments`)."""
    topic = prefs.topic.astype(str)
    order = np.argsort(topic, kind="stable")
    sorted_topics = topic[order]
    starts = np.flatnonzero(np.r_[True, sorted_topics[1:] != sorted_topics[:-1]])
    judged = {}
    for start, end in zip(starts, np.r_[starts[1:], len(order)], strict=True):
        rows = order[start:end]
        judged[str(sorted_topics[start])] = topic_judgments(
            prefs.jg[rows], prefs.jsg[rows], prefs.docno[rows], prefs.level[rows], rows,
            prefs.source, prefs.where)
    return judged


__all__ = ["evaluate_prefs", "prefs_measures"]
