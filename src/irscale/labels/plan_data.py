"""The inputs of the planning of human labels read into the arrays of
:mod:`irscale.labels.plan_core`: the judge's qrels (the population of pairs), the pilot's
human qrels (pairs of the judge's), the runs, the measures (sums over the ranked
documents) and the named differences of runs; and the shifts the unjudged documents can
give every estimand (:func:`irscale.collections.unjudged_bounds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..collections.automatic import _auto_frame, _per_topic
from ..collections.automatic_pairs import check_pairs, contributions, is_linear
from ..errors import ParameterError
from ..io.sources import as_qrels, as_runs
from .plan_core import PlanArrays


@dataclass(frozen=True)
class PlanInputs:
    """The arrays (:class:`~irscale.labels.plan_core.PlanArrays`) and what names them:
    ``auto`` (the judge's pairs: ``topic, docno, rel``), ``pilot_rel`` (the pilot's human
    grades, by pilot pair), ``estimands`` (``measure, system, kind`` rows, in the order of
    the arrays' estimands), ``automatic`` (every estimand under the judge's grades),
    ``shift_low``/``shift_high`` (how far the unjudged documents can move it down and
    up)."""

    arrays: PlanArrays
    auto: pd.DataFrame
    pilot_rel: np.ndarray
    estimands: pd.DataFrame
    automatic: np.ndarray
    shift_low: np.ndarray
    shift_high: np.ndarray


def check_run_pairs(pairs: Sequence[Sequence[str]] | None, runs: Sequence[Any],
                    param: str = "pairs") -> list[tuple[int, int]]:
    """The named differences ``(A, B)`` (their domain checked: ``A:B``) as indices of the
    ``runs``, each part designating a run as every argument that names one does (its name,
    run id or file: :func:`irscale.core.run_names.find_run`); an error names a pair that
    is not two different runs (the runs listed), and the parameter ``param`` (the report's
    ``plan_pairs``)."""
    from ..core.run_names import find_run

    names = [run.name for run in runs]
    found = []
    for parts in pairs or ():
        pair = ":".join(parts)
        first, second = (names.index(find_run(part, runs, f"{param}: {pair!r}: run",
                                              param=param)) for part in parts)
        if first == second:
            raise ParameterError(f"{param}: {pair!r} names one run twice: a difference needs "
                                 "two runs", param=param)
        found.append((first, second))
    return found


def plan_inputs(judge: Any, pilot: Any, runs: Any, measures: str | Sequence[str],
                pairs: Sequence[Sequence[str]] | None, relevance_level: int, *,
                bounds: bool = True) -> PlanInputs:
    """Read and check the inputs (module documentation): the pilot's pairs must be the
    judge's, the measures sums over the ranked documents, the pairs two runs' names;
    ``bounds``: find the unjudged documents' shifts (else 0)."""
    names_given = [measures] if isinstance(measures, str) else list(measures)
    if not names_given:
        raise ParameterError("measures: give one measure at least (P@10, ndcg_cut_10 ...)")
    auto_qrels = as_qrels(judge)
    human = as_qrels(pilot)
    run_list = as_runs(runs)
    if not run_list:
        raise ParameterError("runs: give one run at least", param="runs")
    names = [run.name for run in run_list]
    differences = check_run_pairs(pairs, run_list)
    auto = _auto_frame(auto_qrels)
    sample = pd.DataFrame({"topic": human.topic.to_pylist(), "docno": human.docno.to_pylist(),
                           "rel": np.asarray(human.rel)})
    where = check_pairs(sample, auto)
    topics = list(dict.fromkeys(auto["topic"]))
    auto_values, labels = _per_topic(auto_qrels, run_list, names_given, topics,
                                     relevance_level)
    grades = sorted(set(auto["rel"].tolist()) | set(sample["rel"].tolist()))
    column = {k: j for j, k in enumerate(grades)}
    blocks, rows = [], []
    for m, measure in enumerate(labels):
        values, sums = contributions(auto, run_list, measure, topics, relevance_level,
                                     grades)
        if not is_linear(auto_values[:, :, m], sums):
            raise ParameterError(f"{measure}: its per-topic value is not a sum over the ranked "
                                 "documents of a weight of the rank times a gain of the "
                                 "grade; the labels of pairs are planned for such sums only "
                                 "(P@k, DCG@k, RBP)")
        blocks.append(values)
        rows += [{"measure": measure, "system": name, "kind": "mean"} for name in names]
        blocks.append(np.stack([values[:, a] - values[:, b] for a, b in differences], axis=1)
                      if differences else values[:, :0])
        rows += [{"measure": measure, "system": f"{names[a]} − {names[b]}",
                  "kind": "difference"} for a, b in differences]
    arrays = PlanArrays(
        c=np.concatenate(blocks, axis=1),
        judge=np.array([column[k] for k in auto["rel"]], dtype=np.intp),
        pilot=where.astype(np.intp),
        human=np.array([column[k] for k in sample["rel"]], dtype=np.intp),
        grades=tuple(int(k) for k in grades))
    low, high = _unjudged_shifts(auto_qrels, run_list, names_given, labels, topics,
                                 differences, relevance_level) if bounds else \
        (np.zeros(arrays.c.shape[1]), np.zeros(arrays.c.shape[1]))
    return PlanInputs(arrays, auto, sample["rel"].to_numpy(), pd.DataFrame(rows),
                      arrays.judged().sum(axis=0), low, high)


def _unjudged_shifts(auto_qrels: Any, run_list: list[Any], names: list[str],
                     labels: list[str], topics: list[str],
                     differences: list[tuple[int, int]], relevance_level: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Per estimand (the order of :func:`plan_inputs`): the most the documents the runs
    retrieve and the judge does not label can move it down (≤ 0) and up (≥ 0), every
    unjudged document of a run given the lowest or the highest grade
    (:func:`irscale.collections.unjudged_bounds`, summed over the topics and divided by
    their number; a difference ``a − b``: ``low_a − high_b`` and ``high_a − low_b``)."""
    from ..collections.bounds import unjudged_bounds

    table = unjudged_bounds(auto_qrels, run_list, names,
                            relevance_level=relevance_level).per_topic
    run_of = {run.name: s for s, run in enumerate(run_list)}
    down = np.zeros((len(run_list), len(labels)))
    up = np.zeros((len(run_list), len(labels)))
    measure_of = {label: m for m, label in enumerate(labels)}
    kept = table[table["topic"].isin(set(topics))]
    for row in kept.itertuples():
        s, m = run_of[str(row.run)], measure_of[str(row.measure)]
        down[s, m] += float(row.low) - float(row.value)
        up[s, m] += float(row.high) - float(row.value)
    down, up = down / len(topics), up / len(topics)
    low, high = [], []
    for m in range(len(labels)):
        low += list(down[:, m])
        high += list(up[:, m])
        low += [down[a, m] - up[b, m] for a, b in differences]
        high += [up[a, m] - down[b, m] for a, b in differences]
    return np.array(low), np.array(high)
