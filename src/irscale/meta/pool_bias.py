"""Score adjustment of runs that did not contribute to the pool (Webber & Park 2009).

W. Webber and L. A. F. Park, *Score adjustment for correction of pooling bias*, SIGIR 2009,
pp. 444–451 (cited by Sakai 2014, §2.3: "a score adjustment approach, which requires some new
relevance assessments for the non-contributors"). A run that did not contribute to the pool
meets unjudged documents that the contributors' runs did not, and scores lower than it would
have had it contributed: the pooling bias. Leaving one contributor out of the pool and
re-evaluating its runs measures that bias on runs whose true (pooled) score is known. With
LOO_j the qrels without the documents only contributor j pooled (within the pool ``depth``;
:func:`irscale.meta.leave_one_out`), the error of contributing run r of j on topic t is::

    e(r, t) = M(r, t; qrels) − M(r, t; LOO_j)

and the adjustment of topic t is the mean error over the contributing runs scored on t::

    a(t) = (1/|R_t|) Σ_{r ∈ R_t} e(r, t)

A new run s is then scored M(s, t; qrels) + a(t) on every topic, and its adjusted mean is
the mean of these over its topics.

What is assumed (the paper is not available here; the seed only names the method): the
adjustment is the one named above — the new run's score plus the mean leave-one-out error
of the contributing runs, per topic and additively —, contributors are single runs by default
(leave-one-run-out; give ``contributors`` to leave whole teams out, as Sakai (2014),
footnote 22, recommends for the reusability test), and the "new relevance assessments" the
seed mentions are not modelled: judgments of the new run's documents, where they exist, go
into ``qrels`` and act through M(s, t; qrels). An adjusted score may leave [0, 1].
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import AlignmentError, ParameterError
from ..evaluation import evaluate
from ..io.sources import as_qrels
from ..stats.protocol import TableResult
from ..stats.tables import value_text
from .loo import _runs, _without, given_contributors, pool_contributions, unique_judgments
from .params import POOL_REUSE

__all__ = ["PoolingBias", "pooling_bias"]


@dataclass(frozen=True, eq=False)
class PoolingBias(TableResult):
    """Adjusted scores of runs that did not contribute to the pool (module documentation).

    ``runs``: one row per new run and measure (``score``, the mean adjustment over its
    topics, ``adjusted``); ``topics``: one row per topic and measure (``adjustment`` a(t)
    and the number of contributing runs it averages); ``errors``: e(r, t) of every
    contributing run (``run``, ``contributor``, ``topic``, ``measure``, ``score``,
    ``loo_score``, ``error``). A report: ``to_frame()`` (``runs``) and ``format(fmt)``.
    """

    runs: pd.DataFrame
    topics: pd.DataFrame
    errors: pd.DataFrame
    depth: int

    def to_frame(self) -> pd.DataFrame:
        """One row per new run and measure (a copy of ``runs``)."""
        return self.runs.copy()

    def __repr__(self) -> str:
        parts = "; ".join(f"{run} {measure}: {value_text(score)} → {value_text(adjusted)}"
                          for run, measure, score, adjusted in zip(
                              self.runs["run"], self.runs["measure"], self.runs["score"],
                              self.runs["adjusted"], strict=True))
        return f"PoolingBias(depth {self.depth}; {parts})"


def _contributors(runs: Sequence[Any],
                  contributors: Mapping[str, str] | Callable[[str], str] | None
                  ) -> dict[str, str]:
    """Run name → contributor: each run its own by default (leave-one-run-out); a mapping
    keyed by the runs' names, run ids or files (:func:`irscale.io.naming.by_run`)."""
    names = [run.name for run in runs]
    if contributors is None:
        return {name: name for name in names}
    return given_contributors(runs, contributors)[0]


def _long(matrix: Any, value: str) -> pd.DataFrame:
    """A topics × runs × measures matrix as rows ``topic, run, measure, value`` (defined
    values only)."""
    topics, runs, measures = np.meshgrid(np.arange(len(matrix.topics)),
                                         np.arange(len(matrix.systems)),
                                         np.arange(len(matrix.measures)), indexing="ij")
    values = np.asarray(matrix.values, dtype=np.float64)
    keep = np.isfinite(values)
    return pd.DataFrame({
        "topic": np.asarray(matrix.topics, dtype=object)[topics[keep]],
        "run": np.asarray(matrix.systems, dtype=object)[runs[keep]],
        "measure": np.asarray(matrix.measures, dtype=object)[measures[keep]],
        value: values[keep]})


@POOL_REUSE
def pooling_bias(
    qrels: object,
    runs: object,
    new_runs: object,
    measures: str | Sequence[str],
    *,
    contributors: Mapping[str, str] | Callable[[str], str] | None = None,
    depth: int = 100,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    **evaluate_options: Any,
) -> PoolingBias:
    """Adjust the scores of ``new_runs`` for the pooling bias (Webber & Park 2009; module
    documentation).

    Parameters
    ----------
    qrels, runs
        The judgments and the runs that contributed to the pool (run files or objects, as
        :func:`irscale.evaluate` reads them).
    new_runs
        The runs that did not contribute, whose scores are adjusted.
    measures
        The measures (names of the catalogue).
    contributors
        Run → contributor (mapping or function) of ``runs``: each contributor is left out
        in turn. Default: every run is its own contributor (leave-one-run-out).
    depth
        The pool depth: the documents a contributor pooled are the judged ones its runs
        retrieved within ``depth``.
    relevance_level, **evaluate_options
        Passed to :func:`irscale.evaluate`.

    Returns
    -------
    PoolingBias
        Scores, adjustments a(t) and the leave-one-out errors e(r, t).
    """
    if isinstance(measures, str):
        measures = measures.split()
    qrels_obj = as_qrels(qrels)
    run_list, new_list = _runs(runs), _runs(new_runs)
    names = [run.name for run in run_list]
    shared = sorted(set(names) & {run.name for run in new_list})
    if shared:
        raise ParameterError(f"run(s) {shared[:5]} are given both as contributing and as new "
                             "runs")
    team_of = _contributors(run_list, contributors)
    options = {**evaluate_options, "relevance_level": relevance_level}
    full = _long(evaluate(qrels_obj, run_list, measures, **options)
                 .to_matrix(allow_missing=True), "score")
    pool = pool_contributions(qrels_obj, run_list, team_of, depth=depth)
    judged = qrels_obj.to_frame()
    judged[["query_id", "doc_id"]] = judged[["query_id", "doc_id"]].astype(str)
    parts = []
    for team in dict.fromkeys(team_of[name] for name in names):
        kept = judged[~unique_judgments(judged, pool, team)[1]]
        members = [run for run in run_list if team_of[run.name] == team]
        with warnings.catch_warnings():
            # topics that keep no judgment without this contributor have no LOO score:
            # they do not enter the mean error of that topic
            warnings.simplefilter("ignore", UserWarning)
            matrix = evaluate(_without(qrels_obj, kept, f"<LOO qrels without {team}>"),
                              members, measures, **{**options, "allow_empty": True}
                              ).to_matrix(allow_missing=True)
        parts.append(_long(matrix, "loo_score"))
    errors = full.merge(pd.concat(parts, ignore_index=True), on=["topic", "run", "measure"])
    errors.insert(1, "contributor", errors["run"].map(team_of))
    errors["error"] = errors["score"] - errors["loo_score"]
    topics = (errors.groupby(["measure", "topic"], sort=False)["error"]
              .agg(adjustment="mean", runs="size").reset_index())
    new = _long(evaluate(qrels_obj, new_list, measures, **options)
                .to_matrix(allow_missing=True), "score")
    scored = new.merge(topics[["measure", "topic", "adjustment"]], on=["measure", "topic"],
                       how="left")
    lost = scored[scored["adjustment"].isna()]
    if len(lost):
        row = lost.iloc[0]
        raise AlignmentError(f"pooling bias: run {row['run']!r} is scored on topic "
                             f"{row['topic']!r}, where no contributing run has a "
                             f"leave-one-out score of {row['measure']} to adjust it with")
    scored["adjusted"] = scored["score"] + scored["adjustment"]
    per_run = (scored.groupby(["run", "measure"], sort=False)[
        ["score", "adjustment", "adjusted"]].mean().reset_index())
    per_run.insert(2, "topics", scored.groupby(["run", "measure"], sort=False).size()
                   .to_numpy())
    return PoolingBias(runs=per_run, topics=topics, errors=errors, depth=depth)
