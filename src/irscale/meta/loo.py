"""Leave-one-out reusability test of a pooled test collection (Sakai 2014, §5.4, Fig. 18).

The judgments of a topic are the union of the contributions of the participating teams
(*contributors*): with C_j the documents contributed by team j — the documents its runs
retrieved within the pool depth that were judged — the pool is P = ∪_j C_j and team j's
unique contributions are U_j = C_j − ∪_{j' ≠ j} C_j'. The leave-one-out judgments of team j
are LOO_j = P − U_j: the qrels without the documents only j contributed (Zobel, 1998;
Voorhees, 2001; leaving out a whole team rather than one run, as Sakai (2014), footnote 22
recommends). Team j's runs are evaluated with LOO_j — as a team that did not contribute
to the pool would be — and compared with their evaluation on the full qrels:

* per run: the mean score with the full and with the LOO qrels, the difference and the
  relative change, its rank among all runs in both cases;
* per measure: Kendall's τ between the ranking of all runs by full-qrels scores and the
  ranking in which every run is scored with its own team's LOO qrels, and the largest
  rank drop.

If the LOO evaluation is close to the original one, the collection with that measure is
considered reusable for systems that did not contribute to the pool.

Runs are ranked as trec_eval ranks them (score descending, then docno descending) to
find the documents within the pool ``depth``. Evaluation uses :func:`irscale.evaluate`.
With diversity qrels and measures (ndeval's ``topic subtopic docno judgment``; every
measure a diversity one, or :class:`~irscale.io.diversity.DiversityQrels` given) a
contribution is a judged document, whatever its intents: leaving a team out removes every
intent's judgment of its unique documents, and ``unique_relevant`` counts the documents
relevant to some intent.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.strings import Strings
from ..errors import AlignmentError, InputError, ParameterError
from ..evaluation import evaluate
from ..io.diversity import DiversityQrels, read_diversity_qrels
from ..io.maps import source_of
from ..io.memory import qrels_from_frame
from ..io.naming import by_run
from ..io.sources import as_qrels, as_runs, read_runs
from ..parallel import ExecutorArg, check_executor, is_local, run_tasks
from ..stats.kendall import NOTHING_TO_RANK, kendall_tau
from ..stats.tables import Format, value_text
from .common import format_frame
from .params import (
    CONTRIBUTORS_BY_PREFIX,
    DEFAULT_CONTRIBUTOR_PATTERN,
    LEAVE_ONE_OUT,
    POOL_CONTRIBUTIONS,
)

__all__ = ["LeaveOneOut", "contributors_by_prefix", "leave_one_out", "pool_contributions"]


@CONTRIBUTORS_BY_PREFIX
def contributors_by_prefix(runs: Iterable[str], pattern: str = DEFAULT_CONTRIBUTOR_PATTERN
                           ) -> dict[str, str]:
    """Run → contributor, the contributor being the part of the run name matched by
    ``pattern`` (default: up to the first underscore, ``CUNI_EN_Run1`` → ``CUNI``), a
    regular expression checked on entry (:data:`irscale.meta.params.CONTRIBUTORS_BY_PREFIX`)."""
    regex = re.compile(pattern)
    out = {}
    for run in runs:
        match = regex.search(run)
        if match is None or not match.group(0):
            raise ParameterError(f"the contributor pattern {pattern!r} does not match run {run!r}")
        out[run] = match.group(0)
    return out


def _ranked_frame(run) -> pd.DataFrame:
    frame = run.to_frame()
    frame["run"] = run.name
    # trec_eval order: score descending, then docno descending (byte order)
    frame = frame.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False],
                              kind="mergesort")
    frame["position"] = frame.groupby("query_id", sort=False).cumcount() + 1
    return frame


@POOL_CONTRIBUTIONS
def pool_contributions(
    qrels: object, runs: object, contributors: Mapping[str, str], *, depth: int = 100,
) -> pd.DataFrame:
    """The judged documents each contributor's runs retrieved within ``depth``:
    columns ``query_id, doc_id, contributor, unique`` (unique: no other contributor)."""
    qrels_obj = qrels if isinstance(qrels, DiversityQrels) else as_qrels(qrels)
    run_list = _runs(runs)
    # diversity qrels judge a document once per intent: one row per (topic, document)
    judged = qrels_obj.to_frame()[["query_id", "doc_id"]].astype(str).drop_duplicates()
    parts = []
    for run in run_list:
        frame = _ranked_frame(run)
        frame = frame[frame["position"] <= depth][["query_id", "doc_id"]].astype(str)
        frame["contributor"] = contributors[run.name]
        parts.append(frame)
    pooled = pd.concat(parts, ignore_index=True).drop_duplicates()
    pooled = pooled.merge(judged, on=["query_id", "doc_id"], how="inner")
    teams = pooled.groupby(["query_id", "doc_id"])["contributor"].transform("nunique")
    pooled["unique"] = teams.to_numpy() == 1
    return pooled.reset_index(drop=True)


def _runs(runs: object, keep_rank: bool = False) -> list:
    if isinstance(runs, (list, tuple)) and runs and all(isinstance(r, str) for r in runs):
        return read_runs(list(runs), keep_rank=keep_rank)
    return as_runs(runs, keep_rank=keep_rank)


def _diversity(qrels: object, measures: Sequence[str]) -> bool:
    """Diversity qrels and measures (as :func:`irscale.evaluate` decides): the qrels are
    :class:`~irscale.io.diversity.DiversityQrels` or every measure is a diversity one."""
    from ..measures.diversity import is_diversity_name

    return isinstance(qrels, DiversityQrels) or (bool(measures) and all(
        isinstance(m, str) and is_diversity_name(m) for m in measures))


def _without(qrels: object, kept: pd.DataFrame, source: str) -> object:
    """The qrels of the rows of ``kept`` (a frame of ``qrels.to_frame()``'s columns)."""
    if not isinstance(qrels, DiversityQrels):
        return qrels_from_frame(kept, source=source)

    def column(name: str) -> Strings:
        return Strings.of(kept[name].astype(str).tolist())

    return DiversityQrels(topic=column("query_id"), subtopic=column("subtopic_id"),
                          docno=column("doc_id"),
                          judgment=kept["relevance"].to_numpy(dtype=np.int64), source=source)


@dataclass(frozen=True, eq=False)
class LeaveOneOut(HtmlRepr):
    """Leave-one-out results: ``runs`` (one row per run and measure) and ``summary`` (one
    row per measure), see the module documentation; ``unique`` counts each contributor's
    unique judged documents and how many of them are relevant. A report: ``to_frame()``
    (``summary``, or ``runs`` with ``per_run=True``) and ``format(fmt)``."""

    runs: pd.DataFrame
    summary: pd.DataFrame
    unique: pd.DataFrame
    depth: int

    def to_frame(self, *, per_run: bool = False) -> pd.DataFrame:
        """One row per measure (a copy of ``summary``), or per run and measure."""
        return (self.runs if per_run else self.summary).copy()

    def format(self, fmt: Format = "text", *, digits: int = 4, per_run: bool = False) -> str:
        return format_frame(self.to_frame(per_run=per_run), fmt, digits=digits)

    def __repr__(self) -> str:
        summary = self.summary
        parts = "; ".join(f"{measure}: τ={value_text(tau)}, largest rank drop {drop}"
                          for measure, tau, drop in zip(summary["measure"], summary["tau"],
                                                        summary["max_rank_drop"], strict=True))
        return (f"LeaveOneOut({len(self.unique)} contributors, depth {self.depth}; "
                f"{parts})")


def _topics_of(matrix, systems: Sequence[str]) -> set[str]:
    """The topics on which any of ``systems`` has a value in ``matrix``."""
    columns = [matrix.systems.index(s) for s in systems]
    rows = np.isfinite(matrix.values[:, columns]).any(axis=(1, 2))
    return {t for t, keep in zip(matrix.topics, rows.tolist(), strict=True) if keep}


def _check_scored(matrix) -> None:
    """Every run has a score on some topic: a run that shares no topic with the qrels
    (evaluated with ``allow_empty``) has no mean to rank, with or without a contributor."""
    empty = [s for k, s in enumerate(matrix.systems)
             if not np.isfinite(matrix.values[:, k]).any()]
    if empty:
        raise AlignmentError(f"leave-one-out: run(s) {', '.join(map(repr, empty[:5]))} "
                             "share no topic with the qrels, so they have no score to rank "
                             "(leave them out, or check their topic ids)")


def _ranks(scores: np.ndarray) -> np.ndarray:
    """1 = best; ties share the best rank."""
    order = -scores
    return np.searchsorted(np.sort(order), order, side="left") + 1


def unique_judgments(judged: pd.DataFrame, pool: pd.DataFrame, team: str
                     ) -> tuple[int, pd.Series]:
    """The documents only ``team`` pooled (U_j): how many, and a flag per row of ``judged``
    (``qrels.to_frame()`` with string ids) for the judgments of those documents, which
    LOO_j leaves out."""
    removed = pool[(pool["contributor"] == team) & pool["unique"]]
    keys = pd.MultiIndex.from_frame(judged[["query_id", "doc_id"]])
    flagged = keys.isin(pd.MultiIndex.from_frame(removed[["query_id", "doc_id"]]))
    return len(removed), pd.Series(flagged, index=judged.index)


def _leave_out(
    qrels: object, judged: pd.DataFrame, pool: pd.DataFrame, run_list: list,
    measures: Sequence[str], relevance_level: int, evaluate_options: dict[str, Any],
    team: str, members: list[int],
) -> tuple[dict[str, object], np.ndarray, set[str]]:
    """One contributor left out: its unique judged and relevant documents, the mean
    scores of its runs (``members``) with the qrels without them (runs × measures), and
    the topics on which those runs still have a score."""
    removed, flagged = unique_judgments(judged, pool, team)
    dropped = flagged & (judged["relevance"] >= relevance_level)
    relevant = len(judged.loc[dropped, ["query_id", "doc_id"]].drop_duplicates())
    row = {"contributor": team, "unique_judged": removed, "unique_relevant": relevant}
    kept = judged[~flagged]
    names = [run_list[k].name for k in members]
    with warnings.catch_warnings():
        # the full evaluation checked and reported the runs' topics already; topics
        # that lose every judgment without this team are reported by the caller (irscale's
        # warnings only: a numpy warning is a fault to see)
        warnings.simplefilter("ignore", UserWarning)
        matrix = evaluate(_without(qrels, kept, f"<LOO qrels without {team}>"),
                          [run_list[k] for k in members], measures,
                          relevance_level=relevance_level,
                          **{**evaluate_options, "allow_empty": True}
                          ).to_matrix(allow_missing=True)
    columns = [matrix.systems.index(name) for name in names]
    means = np.nanmean(matrix.values[:, columns], axis=0)
    return row, means, _topics_of(matrix, names)


@LEAVE_ONE_OUT
def leave_one_out(
    qrels: object,
    runs: object,
    measures: str | Sequence[str],
    *,
    contributors: Mapping[str, str] | Callable[[str], str] | None = None,
    contributor_pattern: str = DEFAULT_CONTRIBUTOR_PATTERN,
    depth: int = 100,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    executor: ExecutorArg = "local",
    **evaluate_options: Any,
) -> LeaveOneOut:
    """Leave-one-out test (module documentation).

    ``runs``: run files or objects (see :func:`irscale.evaluate`); ``contributors``: run
    name → contributor (a mapping or a function; default :func:`contributors_by_prefix`
    with ``contributor_pattern``, which applies without ``contributors``); ``depth``: the
    pool depth; ``executor``: where the contributors' evaluations run
    (:mod:`irscale.parallel`: one task per contributor, the qrels and runs sent once to
    every worker; locally one after the other, as the evaluation threads itself). The
    depth, the relevance level and the pattern are checked on entry
    (:data:`irscale.meta.params.LEAVE_ONE_OUT`).
    """
    executor = check_executor(executor)
    if isinstance(measures, str):
        measures = measures.split()
    qrels_obj, run_list = _inputs(qrels, runs, measures)
    names = [run.name for run in run_list]
    team_of = _contributors_of(names, run_list, contributors, contributor_pattern)
    teams = list(dict.fromkeys(team_of[name] for name in names))
    if len(teams) < 2:
        raise InputError("leave-one-out needs runs of at least two contributors")
    full = evaluate(qrels_obj, run_list, measures, relevance_level=relevance_level,
                    **evaluate_options).to_matrix(allow_missing=True)
    _check_scored(full)
    original = np.nanmean(full.values, axis=0)  # runs × measures
    loo = original.copy()
    pool = pool_contributions(qrels_obj, run_list, team_of, depth=depth)
    judged = qrels_obj.to_frame()
    judged[["query_id", "doc_id"]] = judged[["query_id", "doc_id"]].astype(str)
    tasks = [(team, [k for k, name in enumerate(names) if team_of[name] == team])
             for team in teams]
    unique_rows = []
    losses: list[tuple[str, list[str]]] = []

    def collect(index: int, result: tuple[dict[str, object], np.ndarray, set[str]]) -> None:
        team, members = tasks[index]
        row, means, kept_topics = result
        unique_rows.append(row)
        lost = _topics_of(full, [names[k] for k in members]) - kept_topics
        if lost:
            losses.append((team, sorted(lost)))
        loo[members] = means

    run_tasks(_leave_out, tasks, collect,
              shared=(qrels_obj, judged, pool, run_list, measures, relevance_level,
                      evaluate_options), executor=executor,
              workers=1 if is_local(executor) else None)
    for team, listed in losses:
        warnings.warn(f"leave-one-out without {team!r}: {len(listed)} topic(s) keep no "
                      f"judgment ({', '.join(listed[:10])}{' ...' * (len(listed) > 10)}); "
                      "its runs are averaged over their other topics", stacklevel=2)
    runs_frame, summary = _comparison(full.measures, names, team_of, original, loo)
    return LeaveOneOut(runs=runs_frame, summary=summary, unique=pd.DataFrame(unique_rows),
                       depth=depth)


def _inputs(qrels: object, runs: object, measures: Sequence[str]) -> tuple[Any, list]:
    """The qrels and runs of :func:`leave_one_out`, read as the evaluation reads them:
    diversity qrels (:func:`_diversity`) with runs ranked by their rank column (ndeval's
    order), else qrels and runs as trec_eval reads them."""
    diversity = _diversity(qrels, measures)
    qrels_obj: Any
    if not diversity:
        qrels_obj = as_qrels(qrels)
    elif isinstance(qrels, DiversityQrels):
        qrels_obj = qrels
    else:  # the reader refuses what is not a path, file or bytes
        qrels_obj = read_diversity_qrels(qrels)  # type: ignore[arg-type]
    return qrels_obj, _runs(runs, keep_rank=diversity)


def _contributors_of(names: Sequence[str], run_list: Sequence[Any],
                     contributors: Mapping[str, str] | Callable[[str], str] | None,
                     pattern: str) -> dict[str, str]:
    """Run name → contributor: from ``contributors`` (:func:`given_contributors`; the runs
    a mapping names that were not evaluated are warned of), else the part of the name
    ``pattern`` matches (:func:`contributors_by_prefix`)."""
    if contributors is None:
        return contributors_by_prefix(names, pattern)
    team_of, unknown = given_contributors(run_list, contributors)
    if unknown:
        warnings.warn(f"contributors are given for {len(unknown)} run(s) not evaluated "
                      f"(ignored): {', '.join(map(str, unknown[:5]))}"
                      f"{' ...' if len(unknown) > 5 else ''}", stacklevel=3)
    return team_of


def given_contributors(runs: Sequence[Any],
                       contributors: Mapping[str, str] | Callable[[str], str]
                       ) -> tuple[dict[str, str], list[Any]]:
    """Run name → contributor from a function of the name, or from a mapping keyed by the
    runs' names, run ids or files (:func:`irscale.io.naming.by_run`), which must name every
    run (the first runs it lacks refused, its source named); and the mapping's keys that
    name no run of ``runs``."""
    names = [run.name for run in runs]
    if callable(contributors):
        return {name: str(contributors(name)) for name in names}, []
    given, unknown = by_run(contributors, runs)
    missing = [name for name in names if name not in given]
    if missing:
        raise InputError(f"no contributor given for run(s) {missing[:5]}",
                         source=source_of(contributors, "contributors="))
    return {name: str(given[name]) for name in names}, list(unknown)


def _comparison(labels: Sequence[str], names: Sequence[str], team_of: Mapping[str, str],
                original: np.ndarray, loo: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tables of :class:`LeaveOneOut`: per run and measure, its mean ``original``
    (full qrels) and ``loo`` (its contributor's LOO qrels) scores (runs × measures), their
    difference, relative difference and ranks; per measure, Kendall's τ between the two
    rankings, the largest rank drop and the differences' summaries."""
    teams = len(set(team_of.values()))
    run_rows, summary_rows = [], []
    for m, label in enumerate(labels):
        rank_full, rank_loo = _ranks(original[:, m]), _ranks(loo[:, m])
        diff = loo[:, m] - original[:, m]
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = np.where(original[:, m] != 0, diff / original[:, m], np.nan)
        run_rows.append(pd.DataFrame({
            "measure": label, "run": names, "contributor": [team_of[n] for n in names],
            "score": original[:, m], "loo_score": loo[:, m], "diff": diff,
            "relative_diff": relative, "rank": rank_full, "loo_rank": rank_loo,
            "rank_change": rank_loo - rank_full,
        }))
        summary_rows.append({
            "measure": label, "runs": len(names), "contributors": teams,
            "tau": kendall_tau(original[:, m], loo[:, m]).tau,
            "max_rank_drop": int(np.max(rank_loo - rank_full)),
            "mean_diff": float(np.mean(diff)), "max_abs_diff": float(np.max(np.abs(diff))),
            # undefined (NaN) where every run scores 0 on the full qrels
            "mean_relative_diff": (float(np.nanmean(relative)) if not np.isnan(relative).all()
                                   else np.nan),
        })
    zero = undefined("the run scores 0 on the full qrels: a relative difference is x/0")
    return (declare(pd.concat(run_rows, ignore_index=True), {"relative_diff": zero}),
            declare(pd.DataFrame(summary_rows),
                    {"tau": NOTHING_TO_RANK, "mean_relative_diff": zero}))
