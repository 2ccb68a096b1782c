"""The runner of multi-query sessions: session runs + qrels + session measure names → an
:class:`~irscale.measures.results.Evaluation`, one "topic" per session. It reads the inputs
(:mod:`irscale.io.sessions`), validates the options and calls the kernels of
:mod:`irscale.text.sessions`, whose module documentation states each measure, its formula
and its source. Declared as the ``sessions`` context in :mod:`.contexts.sessions`."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..core.judged import JudgedRankings
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.segments import segment_cumsum
from ..errors import InputError, MeasureError, ParameterError
from ..io.labels import read_labels
from ..io.sessions import ClickLog, SessionRun, read_clicks, read_session_map, read_session_run
from ..io.sources import as_qrels
from ..measures.arrays import safe_divide
from ..measures.base import EvalContext, get_family
from ..measures.names import NamedMeasure, measure_names, parse_name
from ..measures.results import Evaluation, build_evaluation
from ..text.params import SESSIONS
from ..text.session_cost import cost_values
from ..text.session_markov import msm_values
from ..text.sessions import (
    SESSION_MEASURES_EXPECTED,
    ClickOrder,
    SessionDiscount,
    ViewKind,
    build_session_rankings,
    click_u,
    cut_flags,
    first_occurrences,
    ideal_sdcg,
    jarvelin_sdcg,
    keep_only,
    path_model_values,
    query_positions,
    query_starts,
    sdcg_values,
    serr_values,
    session_view,
    srbp_values,
)
from .setup import check_topics

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def _as_runs(runs: Any) -> list[SessionRun]:
    """A session run, or a list of them (paths, bytes, :class:`SessionRun`), at least one."""
    if isinstance(runs, (SessionRun, str, bytes)) or hasattr(runs, "__fspath__"):
        runs = [runs]
    if not isinstance(runs, (list, tuple)):
        raise InputError(f"cannot use a {type(runs).__name__} as session runs (give a "
                         "session run file, its bytes, or a list of them)")
    if not runs:
        raise InputError("no session run to evaluate")
    return [run if isinstance(run, SessionRun) else read_session_run(run) for run in runs]


@SESSIONS
def evaluate_sessions(
    qrels: Any,
    runs: Any,
    measures: MeasureNames = ("sDCG@10", "nsDCG@10"),
    *,
    topics: Mapping[str, str] | Any = None,
    clicks: Sequence[Any] | None = None,
    click_order: ClickOrder = "time",
    click_gain: float | None = None,
    labels: Mapping[str, Any] | None = None,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    allow_empty: bool = False,
) -> Evaluation:
    """Evaluate session runs against qrels (module documentation).

    Parameters
    ----------
    qrels : path, Qrels, mapping or DataFrame
        The judgments (as :func:`irscale.evaluate` takes them).
    runs : path, SessionRun, or a list of them
        Session runs (:func:`irscale.io.sessions.read_session_run`), named by run id.
    measures : str or list of str
        ``sDCG@10``, ``nsDCG(norm=jarvelin)@10``, ``U(L=132000)`` ...
    topics : mapping or path, optional
        The qrels topic of every session (``session topic`` lines); default: the
        session id is the topic id.
    clicks : list of paths or ClickLog, optional
        One click log per run (in the order of ``runs``); U is then computed from the
        clicks (:func:`click_u`).
    click_order : {"time", "rank"}
        Order in which the clicks are read (Fig. 8 (g)–(h), or (e)–(f)).
    click_gain : float, optional
        Gain of every click (Fig. 9: 0.5); default: the qrels gain of the document.
    labels : mapping, optional
        Label sets by name (``{"doclen": path}``: document lengths for U).
    relevance_level : int
        Minimum degree counted as relevant (gains of lower degrees are 0).
    allow_empty : bool
        Evaluate a run none of whose sessions has judgments.

    Returns
    -------
    Evaluation
        One "topic" per session (``per_topic()``, ``mean()``, ``to_matrix()``).

    Examples
    --------
    >>> qrels = {"s1": {"d1": 1, "d2": 2}}
    >>> run = b"s1 1 d3 1 0.9 sys\\ns1 1 d1 2 0.5 sys\\ns1 2 d2 1 0.7 sys\\n"
    >>> e = evaluate_sessions(qrels, run, ["sDCG(bq=4)@10"])
    >>> round(float(e.values["sDCG(bq=4)@10"][0]), 4)  # 1/log2(3) + 2/(log4(5)·log2(4))
    1.4923
    """
    names = measure_names(measures, split=False, expected=SESSION_MEASURES_EXPECTED)
    requests = [parse_name(name, "sessions") for name in names]
    qrels_obj = as_qrels(qrels)
    run_list = _as_runs(runs)
    topic_map = None
    if topics is not None:
        topic_map = dict(topics) if isinstance(topics, Mapping) else read_session_map(topics)
    click_logs = _read_clicks(clicks, len(run_list), requests, click_order, click_gain)
    tables = {str(k): read_labels(v) for k, v in (labels or {}).items()}
    jr = build_session_rankings(qrels_obj, run_list, topic_map,
                                relevance_level=relevance_level, labels=tables).jr
    del run_list  # the runs read here: their rows are no longer needed (nor their memory)
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=qrels_obj.source,
                 gold_topics=qrels_obj.topics,
                 why=None if topics is not None else "a session is judged with the qrels "
                 "of the topic of the same id: map sessions to topics with --topics FILE "
                 "(topics=), or are these qrels of another collection?")
    values = _measure(jr, requests, click_logs, click_order, click_gain)
    if tables and not any(r.family == "U" for r in requests):
        warnings.warn(f"label set(s) {', '.join(tables)} used by no measure", stacklevel=2)
    return build_evaluation(values, jr.rows, rankings=jr)


def _read_clicks(clicks: Sequence[Any] | None, n_runs: int, requests: list[NamedMeasure],
                 click_order: ClickOrder, click_gain: float | None
                 ) -> list[ClickLog] | None:
    """The click logs, one per run (read unless already read), given with U only; without
    them ``click_order`` and ``click_gain`` are refused (they read the clicks)."""
    if clicks is None:  # (click_order and click_gain refused without them: SESSIONS)
        return None
    click_logs = [c if isinstance(c, ClickLog) else read_clicks(c) for c in clicks]
    if len(click_logs) != n_runs:
        raise ParameterError(f"{len(click_logs)} click log(s) for {n_runs} "
                             "run(s): give one click log per run, in the runs' order")
    if not any(r.family == "U" for r in requests):
        raise ParameterError("click logs are used by U only: ask for U")
    return click_logs


def _measure(jr: JudgedRankings, requests: list[NamedMeasure],
             click_logs: Sequence[ClickLog] | None, click_order: ClickOrder,
             click_gain: float | None) -> dict[str, np.ndarray]:
    """The values of every request (a label once) on the sessions' rankings ``jr``, each
    session view built once and dropped once no later request reads it."""
    values: dict[str, np.ndarray] = {}
    views = _Views(jr)
    for i, request in enumerate(requests):
        if request.label in values:
            continue
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            result = _compute(jr, request, views, click_logs, click_order, click_gain)
        views.release(key for later in requests[i + 1:]
                      for key in _reads(later, click_logs is not None))
        if not np.isfinite(result).all():
            raise MeasureError(f"measure {request.label!r}: some values are beyond the "
                               "range of a double (gains too large); scale them down")
        values[request.label] = result
    return values


class _Views:
    """The session views of one batch, built once each: cut-offs that keep every
    document share the uncut views, and the two kinds of view of a cut share its first
    occurrences."""

    def __init__(self, jr: JudgedRankings) -> None:
        self.jr = jr
        self._cuts: dict[int | None, np.ndarray | None] = {}
        self._first: dict[int | None, np.ndarray] = {}
        self._views: dict[tuple[int | None, str], JudgedRankings] = {}

    def _effective(self, cutoff: int | None) -> tuple[int | None, np.ndarray | None]:
        """The cut-off (``None`` when it keeps every document) and its flags."""
        if cutoff not in self._cuts:
            self._cuts[cutoff] = cut_flags(self.jr, cutoff)
        keep = self._cuts[cutoff]
        return (None if keep is None else cutoff), keep

    def release(self, needed: Iterable[tuple[int | None, ViewKind]]) -> None:
        """Drop the views, and first occurrences, that none of ``needed`` reads."""
        wanted = {(self._effective(cutoff)[0], kind) for cutoff, kind in needed}
        self._views = {key: view for key, view in self._views.items() if key in wanted}
        self._first = {cutoff: first for cutoff, first in self._first.items()
                       if {(cutoff, "remove"), (cutoff, "no-gain")} & wanted}

    def get(self, cutoff: int | None, kind: ViewKind) -> JudgedRankings:
        cutoff, keep = self._effective(cutoff)
        if (cutoff, kind) not in self._views:
            if kind == "cut":
                view = self.jr if keep is None else keep_only(self.jr, keep)
            else:
                if cutoff not in self._first:
                    self._first[cutoff] = first_occurrences(self.jr, keep)
                view = session_view(self.jr, cutoff, kind, self._first[cutoff])
            self._views[cutoff, kind] = view
        return self._views[cutoff, kind]


def _reads(request: NamedMeasure, clicks: bool) -> list[tuple[int | None, ViewKind]]:
    """The session views a request is computed from (U from clicks reads none)."""
    if request.family == "U":
        return [] if clicks else [(request.cutoff, "no-gain")]
    if request.family in ("sRBP", "tsCG", "tsCGrate"):
        return [(request.cutoff, "no-gain")]
    if request.family in ("esnDCG", "esAP"):
        return []
    if request.family == "MsM" or (request.family in ("sDCG", "nsDCG")
                                   and request.params["form"] == "jarvelin"):
        return [(request.cutoff, "cut")]
    reads: list[tuple[int | None, ViewKind]] = [(request.cutoff, "remove")]
    return [*reads, (request.cutoff, "cut")] if request.family == "nsDCG" else reads


def _compute(jr: JudgedRankings, request: NamedMeasure, views: _Views,
             click_logs: Sequence[ClickLog] | None, click_order: ClickOrder,
             click_gain: float | None) -> np.ndarray:
    """The values of one request (``views``: the session views of ``jr``)."""
    params = request.params
    if request.family == "U":
        if click_logs is None:
            view = views.get(request.cutoff, "no-gain")
            return get_family("U").compute(view, params, EvalContext())["U"]
        if request.cutoff is not None:
            raise MeasureError(f"measure {request.label!r}: a cut-off does not apply to U "
                               "from clicks (the clicks say what was read)")
        out = np.zeros(jr.n_rankings)
        for k, log in enumerate(click_logs):
            mine = jr.ranking_run == k
            out[mine] = click_u(jr, k, log, params, order=click_order,
                                click_gain=click_gain, unjudged=jr.unjudged_topics[k])
        return out
    if request.family == "sRBP":
        return srbp_values(views.get(request.cutoff, "no-gain"), params)
    if request.family == "sERR":
        return serr_values(views.get(request.cutoff, "remove"), params)
    if request.family in ("esnDCG", "esAP"):
        return path_model_values(jr, request)
    if request.family in ("tsCG", "tsCGrate"):
        view = views.get(request.cutoff, "no-gain")
        queries = segment_cumsum(query_starts(view.attribute("qnum"), view.offsets)
                                 .astype(np.int64), view.offsets)
        return cost_values(view, queries, params, request.family)
    if request.family == "MsM":
        view = views.get(request.cutoff, "cut")
        return msm_values(view, query_positions(view.attribute("qnum"), view.offsets),
                          params, request.cutoff, request.label)
    discount = SessionDiscount.of(params)
    cut = views.get(request.cutoff, "cut")
    if discount.form == "jarvelin":
        sdcg = jarvelin_sdcg(cut, params["gain"], discount, request.family)
    else:
        sdcg = sdcg_values(views.get(request.cutoff, "remove"), params["gain"], params["bq"],
                           request.family)
    if request.family == "sDCG":
        return sdcg
    return safe_divide(sdcg, ideal_sdcg(cut, params["gain"], discount, request.cutoff,
                                        params["norm"]))
