"""Evaluating stochastic runs with fairness and exposure measures.

:func:`irscale.evaluate` (and ``irscale eval``) hand the fairness names to
:func:`evaluate_fairness`, as they hand diversity names to ndeval's evaluation: it reads
each run as a stochastic run (several sampled rankings per topic, the second column
numbering the sample: :mod:`irscale.io.stochastic`; a run given as a dict, a DataFrame or a
``Run`` is one sample per topic), joins it with the qrels and the group label set
(:mod:`.context`) and computes every requested family per topic. The result is the
:class:`~irscale.measures.results.Evaluation` of every evaluation: one row per run topic the
qrels have (others are left out, as trec_eval leaves them out), means over those topics.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.rows import RowKeys
from ..errors import AlignmentError, MeasureError, ParameterError
from ..io.stochastic import StochasticRun, deterministic, read_stochastic_run
from ..io.table import Averaging
from ..measures.fairness import FAIRNESS_REGISTRY
from ..measures.fairness.context import FairnessContext, fairness_context
from ..measures.results import Evaluation, build_evaluation

if TYPE_CHECKING:  # pragma: no cover
    from ..core.inputs import Qrels
    from ..core.labels import LabelTable
    from ..measures.name_hints import MeasureNames
    from ..measures.names import NamedMeasure

#: The families that read the group label set (EE-* only with level=group).
GROUP_FAMILIES = ("AWRF", "nDCG-AWRF")


def is_fairness_name(name: str) -> bool:
    """True when ``name`` names a family of stochastic rankings (``EE-L``, ``AWRF@10`` ...)."""
    from ..measures.names import split_name

    parts = split_name(name.strip())
    return parts is not None and parts.name in FAIRNESS_REGISTRY


def evaluate_fairness(qrels: Any, runs: Any, measures: MeasureNames, *,
                      labels: Mapping[str, Any] | None = None,
                      allow_empty: bool = False) -> Evaluation:
    """Evaluate stochastic runs with fairness and exposure measures: what
    :func:`irscale.evaluate` does with these measures (the same parameters).

    Parameters
    ----------
    qrels : Qrels or path
        TREC qrels ``topic iter docno rel``.
    runs : StochasticRun, path, bytes, or a list / mapping of those; or runs as
        :func:`irscale.evaluate` takes them
        Run files whose second column numbers the sample (:func:`read_stochastic_run`); a
        mapping names them, otherwise their run ids do (runs of one run id: their files,
        with a warning, :func:`irscale.io.naming.name_runs`). A run given otherwise (a
        dict, a DataFrame, a ``Run``) is one sample per topic.
    measures : str or iterable of str
        ``EE-L(gamma=0.5)``, ``EE-R(level=group)``, ``EE-D``, ``AWRF@10``,
        ``nDCG-AWRF(target=uniform)@20`` ...
    labels : mapping, optional
        Label sets by name (``{"groups": path}``): the document groups, a group number per
        document and line, a document in several groups on several lines (in a mapping,
        a list: ``{"d1": [1, 3]}``) (:mod:`.context`).
    allow_empty : bool, default False
        A run with no topic of the qrels (qrels of another collection, topic ids written
        differently) raises :class:`~irscale.errors.AlignmentError` naming it, unless
        ``allow_empty``: then it has no row.

    Examples
    --------
    >>> qrels = b"1 0 a 1\\n1 0 b 1\\n1 0 c 0\\n"
    >>> run = (b"1 0 a 1 3 r\\n1 0 b 2 2 r\\n1 0 c 3 1 r\\n"   # sample 0: a, b, c
    ...        b"1 1 b 1 3 r\\n1 1 a 2 2 r\\n1 1 c 3 1 r\\n")  # sample 1: b, a, c
    >>> ev = evaluate_fairness(qrels, run, "EE-L EE-R EE-D")
    >>> {k: round(float(v[0]), 4) for k, v in ev.values.items()}
    {'EE-L': 0.0, 'EE-R': 1.1875, 'EE-D': 1.1875}
    """
    from ..io.naming import name_runs
    from ..io.sources import as_qrels

    requests = _requests(measures)
    tables = _read_groups(requests, labels or {})
    qrels_obj = as_qrels(qrels)
    run_list = name_runs(read_runs(runs))
    evaluated = [_evaluate_run(qrels_obj, run, requests, tables, allow_empty)
                 for run in run_list]
    topic_of = [topic for topics, _ in evaluated for topic in topics]
    return build_evaluation(
        {name: np.concatenate([values[name] for _, values in evaluated])
         for name in dict(requests)},
        RowKeys(tuple(run.name for run in run_list),
                np.repeat(np.arange(len(run_list)), [len(topics) for topics, _ in evaluated]),
                topic_of),
        Averaging("mean", n_qrels_topics=len(set(topic_of))))


#: A request: the name as given and the parsed measure.
Request = tuple[str, "NamedMeasure"]


def _requests(measures: MeasureNames) -> list[Request]:
    """The names of ``measures`` (words of the strings) and their measures of the
    catalogue's ``policies`` context; :class:`MeasureError` for none."""
    from ..measures.names import parse_name

    names = [part for m in ([measures] if isinstance(measures, str) else measures)
             for part in str(m).split()]
    if not names:
        raise MeasureError("no measure requested")
    return [(name, parse_name(name, "policies")) for name in names]


def _grouped(request: NamedMeasure) -> bool:
    """Whether a measure reads the document groups (its ``groups=`` label set)."""
    return request.family in GROUP_FAMILIES or request.params["level"] == "group"


def _read_groups(requests: list[Request], labels: Mapping[str, Any]
                 ) -> dict[str, LabelTable]:
    """The label sets of the document groups, read (a document in several groups on
    several lines); one that no requested measure reads is a :class:`ParameterError`."""
    from ..io.labels import read_labels

    needed = {str(r.params["groups"]) for _, r in requests if _grouped(r)}
    unused = sorted(set(labels) - needed)
    if unused:
        raise ParameterError(f"label set {unused[0]!r} is read by no measure requested: "
                             "fairness measures read the document groups (groups=NAME of "
                             "AWRF, nDCG-AWRF and EE-*(level=group))")
    return {name: read_labels(source, several=True) for name, source in labels.items()}


def _evaluate_run(qrels: Qrels, run: StochasticRun, requests: list[Request],
                  tables: Mapping[str, LabelTable], allow_empty: bool
                  ) -> tuple[tuple[str, ...], dict[str, np.ndarray]]:
    """One run: its topics that the qrels have, and every measure's value on each; the
    run joined with the qrels once per label set of groups (:mod:`.context`)."""
    contexts: dict[str, FairnessContext] = {}

    def context(groups: str | None) -> FairnessContext:
        key = groups or ""
        if key not in contexts:
            contexts[key] = fairness_context(qrels, run, tables.get(groups) if groups
                                             else None)
        return contexts[key]

    plain = context(None)
    if not plain.n_topics and not allow_empty:
        raise AlignmentError(f"run {run.name!r} ({run.source}) has no topic in common with "
                             "the qrels (qrels of another collection, or topic ids "
                             "written differently?); --allow-empty (allow_empty=True) "
                             "evaluates it anyway")
    values: dict[str, np.ndarray] = {}
    for name, request in requests:
        if name not in values:
            values[name] = _values(name, request, context)
    return plain.topics, values


def _values(name: str, request: NamedMeasure,
            context: Callable[[str | None], FairnessContext]) -> np.ndarray:
    """The per-topic values of one measure, on the run's ``context(groups)``."""
    grouped = _grouped(request)
    ctx = context(str(request.params["groups"]) if grouped else None)
    if grouped and ctx.member_doc is None:
        group_set = request.params["groups"]
        raise MeasureError(f"measure {name!r} needs the document groups: give them "
                           f"with --labels {group_set}=FILE (in Python labels="
                           f"{{{group_set!r}: path}})")
    kernel = FAIRNESS_REGISTRY[request.family].kernel
    return np.asarray(kernel(ctx, request.params, request.cutoff), dtype=np.float64)


def read_runs(runs: Any) -> list[StochasticRun]:
    """The stochastic runs of ``runs``: one, a path or bytes (:func:`read_stochastic_run`),
    or a list / mapping (name → run) of those; runs given as :func:`irscale.read_runs`
    takes them (dicts, DataFrames, ``Run`` objects) are one sample per topic
    (:func:`~irscale.io.stochastic.deterministic`)."""
    from ..io.sources import _is_single_run, as_runs, read_run

    def one(spec: Any, name: str | None = None) -> StochasticRun:
        if isinstance(spec, StochasticRun):
            return spec
        if isinstance(spec, (str, bytes)) or hasattr(spec, "__fspath__"):
            return read_stochastic_run(spec, name)
        return deterministic(read_run(spec, name=name), name)

    if isinstance(runs, (StochasticRun, str, bytes, os.PathLike)):
        return [one(runs)]
    if isinstance(runs, Mapping) and not _is_single_run(runs):
        return [one(run, str(name)) for name, run in runs.items()]
    if isinstance(runs, (list, tuple)):
        return [one(run) for run in runs]
    return [deterministic(run) for run in as_runs(runs)]
