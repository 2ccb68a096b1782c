"""Runs evaluated against multi-judge qrels: ``irscale.evaluate(...,
relevance_format="qrels_jg")`` and ``irscale eval -R qrels_jg`` (trec_eval 9.0.8's ``-R
qrels_jg``, form_res_rels_jg.c).

The judgments (``qid jg docno rel``, :func:`irscale.io.qrels_jg.read_qrels_jg`) are split
into one set of qrels per (topic, judgment group): each is evaluated as a topic of its own
by trec_eval's ``map``, ``P`` and ``Rprec_mult`` (as :func:`irscale.evaluate` evaluates
judged rankings, :func:`~irscale.evaluation.judged.run_judged`, with the
run's ranking of the topic, its options ``max_docs``, ``relevance_level`` and
``judged_only``), and a topic's value of ``map_avgjg``, ``P_avgjg`` or ``Rprec_mult_avgjg``
is the sum of its groups' values, added in the groups' byte order, divided by their number
(:mod:`irscale.measures.qrels_jg`). Summaries follow trec_eval (``meas_avg.c``): means over
the evaluated topics (over every topic of the judgments with ``complete``, ``-c``), ``num_q``
the number of topics. Topics a run retrieved documents for that the judgments lack are not
evaluated, with a warning.

Measure names: the families (``P_avgjg.5,10``: cut-offs written as P's), ``runid``,
``num_q`` and trec_eval's set ``qrels_jg``. Every request is computed (``P_avgjg.5`` and
``P_avgjg.7``: both cut-offs), as :func:`irscale.evaluate` computes trec_eval's families;
``irscale eval --format trec`` reads the names as trec_eval does first (a family named twice
keeps its first parameters, :mod:`irscale.measures.trec_reading`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.inputs import Qrels, Run
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.rows import RowKeys
from ..core.strings import Strings
from ..errors import MeasureError
from ..io.qrels_jg import JudgmentGroups, read_qrels_jg
from ..io.sources import as_runs
from ..io.table import Averaging
from ..measures.base import CATALOGUE, get_family
from ..measures.compute import column_of
from ..measures.names import is_measure_name
from ..measures.prefs import NICKNAMES as PREFS_NICKNAMES
from ..measures.results import Evaluation, build_evaluation
from ..measures.trec_table import AVERAGED_JG as AVERAGED
from ..measures.trec_table import QRELS_JG
from .counters import COUNTERS, column_values
from .judged import run_judged
from .setup import check_run_topics

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def qrels_jg_measures(measures: MeasureNames) -> list[tuple[str, Any]]:
    """The families ``measures`` name, each with its parameters (every request kept: the
    cut-offs or multiples of every name of the family, a name without parameters or the set
    ``qrels_jg`` adding the defaults; ``None`` for map_avgjg, runid and num_q), in
    trec_eval's table order; :class:`MeasureError` for any other name, saying why."""
    names = measures.split() if isinstance(measures, str) else list(measures)
    if not names:
        raise MeasureError("no measure requested")
    wanted: dict[str, set[Any]] = {}
    for name in names:
        if not isinstance(name, str):
            raise MeasureError(f"measure names are strings, got {name!r}")
        family, dot, text = name.partition(".")
        if name == "qrels_jg" or name in COUNTERS or (family in AVERAGED and not dot):
            for each in (QRELS_JG if name == "qrels_jg" else (name,)):
                spec = get_family(AVERAGED[each]).params if each in AVERAGED else None
                wanted.setdefault(each, set()).update(getattr(spec, "default", None) or ())
        elif family in AVERAGED:
            wanted.setdefault(family, set()).update(
                get_family(AVERAGED[family]).params.parse(text, family))
        else:
            raise MeasureError(_not_qrels_jg(name))
    return [(name, tuple(sorted(wanted[name])) or None) for name in QRELS_JG
            if name in wanted]


def _not_qrels_jg(name: str) -> str:
    """Why ``name`` is no measure of multi-judge qrels: the official measures, those of
    preference judgments or of qrels, or none at all, each with what to ask instead."""
    if name == "official":
        return ("with -R qrels_jg (relevance_format='qrels_jg') name its measures: -m "
                "qrels_jg, -m map_avgjg, -m P_avgjg, -m Rprec_mult_avgjg (trec_eval's "
                "official measures need qrels)")
    if name in CATALOGUE["prefs"] or name in PREFS_NICKNAMES:
        return (f"measure {name!r} needs preference judgments (-R prefs or -R "
                "qrels_prefs), not multi-judge qrels (-R qrels_jg)")
    if is_measure_name(name) or name in ("set", "all_trec"):
        return (f"measure {name!r} needs qrels (-R qrels), not multi-judge qrels (-R "
                "qrels_jg): use qrels_jg, map_avgjg, P_avgjg or Rprec_mult_avgjg")
    return (f"unknown measure {name!r} of multi-judge qrels (-R qrels_jg): use "
            f"{', '.join(QRELS_JG)} or the set qrels_jg")


def evaluate_qrels_jg(judged: Any, runs: Any, measures: MeasureNames = "qrels_jg",
                      *, max_docs: int | None = None, complete: bool = False,
                      relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                      judged_only: bool = False,
                      allow_empty: bool = False) -> Evaluation:
    """Evaluate ``runs`` against multi-judge qrels ``judged`` (a path, bytes or
    :class:`~irscale.io.qrels_jg.JudgmentGroups`): module documentation; options as
    :func:`irscale.evaluate` names them."""
    families = qrels_jg_measures(measures)
    if not isinstance(judged, JudgmentGroups):
        judged = read_qrels_jg(judged)
    groups = judged.groups()
    virtual, of_topic = _virtual_qrels(judged, groups)
    run_list = as_runs(runs)
    averaged = [(name, params) for name, params in families if name in AVERAGED]
    inner = run_judged([virtual, {str(k): _virtual_run(run, of_topic)
                                  for k, run in enumerate(run_list)}],
                       _inner_names(averaged), max_docs=max_docs,
                       relevance_level=relevance_level, judged_only=judged_only,
                       allow_empty=True)
    labels = {name: [(label, name + label[len(AVERAGED[name]):]) for label in inner.measures
                     if label == AVERAGED[name] or label.startswith(AVERAGED[name] + "_")]
              for name, _ in averaged}
    columns = [COUNTERS.get(name) or column_of(shown, CATALOGUE["qrels_jg"][name])
               for name, _ in families
               for shown in ([name] if name in COUNTERS else [s for _, s in labels[name]])]
    scored = [_averaged(inner, k, groups, of_topic, [pair for name, _ in averaged
                                                     for pair in labels[name]])
              for k in range(len(run_list))]
    keys = _row_keys(run_list, [topics for topics, _ in scored], groups)
    evaluation = build_evaluation(
        {column.label: column_values(column, [values for _, values in scored],
                                     len(keys.topic)) for column in columns},
        keys, Averaging("trec_eval", complete=complete, n_qrels_topics=len(groups)),
        columns=columns)
    rows = evaluation.rows
    check_run_topics(rows.runs, np.bincount(rows.ranking_run, minlength=len(run_list)).tolist(),
                     rows.unjudged_topics, sorted(groups), allow_empty=allow_empty,
                     qrels_source=judged.source, gold="qrels_jg judgments", stacklevel=3)
    return evaluation


def _inner_names(averaged: list[tuple[str, Any]]) -> list[str]:
    """The names of trec_eval's measures that the averaged families of ``averaged`` (with
    their parameters) average over the groups; ``map`` when there are none (runid and
    num_q: its rows)."""
    return [AVERAGED[name] if params is None else
            f"{AVERAGED[name]}.{get_family(AVERAGED[name]).params.format(params)}"
            for name, params in averaged] or ["map"]


def _row_keys(run_list: list[Run], topics: list[list[str]],
              groups: dict[str, tuple[str, ...]]) -> RowKeys:
    """The rows of the evaluation: each run's topics (``topics``, one list per run), the
    topics of the judgments and of the runs, and each run's topics without judgments."""
    missing = [tuple(sorted(set(run.topic.to_pylist()) - set(groups))) for run in run_list]
    return RowKeys(tuple(run.name for run in run_list),
                   np.repeat(np.arange(len(run_list)), [len(each) for each in topics]),
                   [topic for each in topics for topic in each],
                   gold_topics=set(groups).union(*(run.topic.to_pylist() for run in run_list)),
                   unjudged=missing)


def _virtual_qrels(judged: JudgmentGroups, groups: dict[str, tuple[str, ...]]
                   ) -> tuple[Qrels, dict[str, list[str]]]:
    """The qrels with one topic per (topic, group) of ``judged`` (named by a number), and
    each topic's numbers in its groups' order."""
    number = {(topic, jg): str(k) for k, (topic, jg) in enumerate(
        (topic, jg) for topic, jgs in groups.items() for jg in jgs)}
    of_topic = {topic: [number[topic, jg] for jg in jgs] for topic, jgs in groups.items()}
    topic = [number[pair] for pair in zip(judged.topic.tolist(), judged.jg.tolist(),
                                          strict=True)]
    return Qrels(Strings.of(topic), Strings.of(judged.docno.tolist()), judged.rel,
                 source=judged.source), of_topic


def _virtual_run(run: Run, of_topic: dict[str, list[str]]) -> Run:
    """``run`` with its rows of each judged topic repeated under each of the topic's
    (topic, group) numbers."""
    rows: list[int] = []
    topic: list[str] = []
    for row, name in enumerate(run.topic.to_pylist()):
        for number in of_topic.get(name, ()):
            rows.append(row)
            topic.append(number)
    take = np.asarray(rows, dtype=np.int64)
    return Run(run.name, Strings.of(topic), run.docno.take(take), run.score[take],
               source=run.source, runids=run.runids)


def _averaged(inner: Evaluation, run: int, groups: dict[str, tuple[str, ...]],
              of_topic: dict[str, list[str]], labels: list[tuple[str, str]]
              ) -> tuple[list[str], dict[str, list[float]]]:
    """One run's topics (in byte order) and each measure's value on them: the sum of its
    groups' values (``inner``'s, under the labels ``labels`` pairs with the shown ones),
    divided by their number where there are several (as trec_eval adds and divides)."""
    rows = inner.rows
    mine = np.flatnonzero(rows.ranking_run == run)
    where = {rows.topics[code]: row for row, code in zip(
        mine.tolist(), rows.ranking_topic[mine].tolist(), strict=True)}
    topics = sorted(topic for topic in groups if of_topic[topic][0] in where)
    values: dict[str, list[float]] = {shown: [] for _, shown in labels}
    for label, shown in labels:
        column = inner.values[label]
        for topic in topics:
            total = 0.0
            for number in of_topic[topic]:
                total += float(column[where[number]])
            values[shown].append(total / len(of_topic[topic]) if len(of_topic[topic]) > 1
                                 else total)
    return topics, values


__all__ = ["evaluate_qrels_jg", "qrels_jg_measures"]
