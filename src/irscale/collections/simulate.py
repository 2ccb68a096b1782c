"""Simulated pooling on existing qrels: how good would a pool of a given budget have been?

The papers evaluate pooling strategies this way (Losada, Parapar & Barreiro 2016, 2017;
Lipani et al. 2021): given runs and qrels that are complete enough, replay a strategy,
letting the qrels act as the assessor (the *oracle*). A pooled document the qrels do not
judge counts as non-relevant (as trec_eval counts an unjudged document). For every
strategy and ``budget`` (judgments per topic) the simulation reports:

* ``judged`` and ``relevant_found``: documents judged and relevant documents found, summed
  over the topics (``relevant_pool``: the relevant documents among all candidates, the
  most any strategy can find);
* the *induced qrels*: the judged documents with their degrees from the qrels (a document
  the qrels do not judge gets 0), every other document unjudged;
* ``tau`` and ``tau_ap``: Kendall's τ_b and the AP correlation τ_ap (Yilmaz, Aslam &
  Robertson 2008; gold = the full qrels) between the ranking of the runs by their mean
  ``measure`` with the induced qrels and with the full qrels;
* ``loo_tau`` and ``loo_max_rank_drop``: the leave-one-contributor-out test
  (:func:`irscale.meta.leave_one_out`) run on the induced qrels: every contributor's runs
  are evaluated without the documents only that contributor pooled (within the candidate
  depth), τ against the induced qrels' own ranking, and the largest rank drop — the
  pooling bias against runs that did not contribute.

Since the judging order of every strategy does not depend on the budget (a budget cuts it;
the random draws of Thompson sampling come one per step from one seeded stream), each
strategy is run once with the largest budget and cut at every budget.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.inputs import Qrels, Run
from ..core.notebook import HtmlRepr
from ..core.numbers import declare
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL, DEFAULT_RRF_K
from ..errors import AlignmentError, InputError, ParameterError
from ..evaluation import evaluate
from ..io.memory import qrels_from_frame
from ..io.sources import as_qrels, as_runs
from ..meta.common import format_frame
from ..meta.loo import leave_one_out
from ..meta.rank_correlation import tau_ap
from ..stats.kendall import NOTHING_TO_RANK, kendall_tau
from ..stats.resampling import check_rng
from ..stats.tables import Format
from .candidates import ranked_candidates
from .params import (
    DEFAULT_DISCOUNT,
    DEFAULT_RBP_P,
    SIMULATE,
    SIMULATED_BUDGETS,
    SIMULATED_STRATEGIES,
)
from .pooling import judging_order

__all__ = ["PoolingSimulation", "simulate_pooling"]


@dataclass(frozen=True, eq=False)
class PoolingSimulation(HtmlRepr):
    """Result of :func:`simulate_pooling`: ``table`` (one row per strategy and budget,
    columns in the module documentation) and ``qrels`` ((strategy, budget) → the induced
    qrels as a DataFrame ``query_id, doc_id, relevance``)."""

    table: pd.DataFrame
    qrels: dict[tuple[str, int], pd.DataFrame]
    measure: str
    depth: int | None

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def relevant_found(self) -> pd.DataFrame:
        """Relevant documents found: one row per budget, one column per strategy."""
        return self.table.pivot(index="budget", columns="strategy",
                                values="relevant_found")[
            list(dict.fromkeys(self.table["strategy"]))]

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_frame(self.table, fmt, digits=digits)

    def write_qrels(self, paths: Mapping[tuple[str, int], str], *,
                    force: bool = False) -> None:
        """Write the induced qrels of every ``(strategy, budget)`` of ``paths`` to its
        file, as TREC qrels (``topic 0 docno rel``, what :func:`irscale.evaluate` reads):
        all are written to temporary files first and renamed into place only once every
        one is complete (none is left behind on an error); an existing file is replaced
        only with ``force``."""
        from ..io.files import atomic_path

        with contextlib.ExitStack() as stack:
            for key, path in paths.items():
                text = self.qrels_text(key)
                temporary = stack.enter_context(atomic_path(path, force=force))
                with open(temporary, "w", encoding="utf-8") as handle:
                    handle.write(text)

    def qrels_text(self, key: tuple[str, int]) -> str:
        """The induced qrels of ``key`` (a strategy and a budget) as TREC qrels lines
        (``topic 0 docno rel``): what :meth:`write_qrels` writes."""
        from ..core.numbers import identifiers

        frame = self.qrels[key]
        identifiers(lambda: [*frame["query_id"].astype(str), *frame["doc_id"].astype(str)])
        lines = (frame["query_id"].astype(str) + " 0 " + frame["doc_id"].astype(str)
                 + " " + frame["relevance"].astype(str) + "\n")
        return "".join(lines)

    def __repr__(self) -> str:
        strategies = ", ".join(dict.fromkeys(self.table["strategy"]))
        budgets = ", ".join(str(b) for b in dict.fromkeys(self.table["budget"]))
        return (f"PoolingSimulation({strategies}; budgets {budgets} per topic; "
                f"{self.measure})")


def _means(qrels: Qrels, runs: Sequence[Run], measure: str, relevance_level: int
           ) -> np.ndarray:
    """Mean ``measure`` of every run over its topics (as :mod:`irscale.meta.loo`)."""
    matrix = evaluate(qrels, list(runs), measure, relevance_level=relevance_level,
                      allow_empty=True).to_matrix(allow_missing=True)
    order = [matrix.systems.index(run.name) for run in runs]
    return np.nanmean(matrix.values[:, order, 0], axis=0)


def _check_common_topics(runs: Sequence[Run], judged: set[str], source: str,
                         measure: str) -> None:
    """A run sharing no topic with the qrels has no mean to rank: an
    :class:`~irscale.errors.AlignmentError` naming it, as :func:`irscale.evaluate` raises
    (before, its mean was the mean of nothing: numpy's 'Mean of empty slice', then a NaN
    in the rank correlation)."""
    for run in runs:
        if not judged.intersection(run.topics):
            shown = ", ".join(list(run.topics)[:5]) + (" ..." if len(run.topics) > 5 else "")
            raise AlignmentError(
                f"run {run.name!r} ({run.source}) has no topic in common with the qrels "
                f"({source}): its "
                f"topics are {shown} ({len(run.topics)} topics; qrels of another "
                f"collection, or topic ids written differently?); the simulation ranks the "
                f"runs by their mean {measure} over judged topics")


@SIMULATE
def simulate_pooling(
    qrels: object,
    runs: object,
    strategies: str | Sequence[str] = SIMULATED_STRATEGIES,
    budgets: int | Sequence[int] = SIMULATED_BUDGETS,
    *,
    measure: str = "map",
    depth: int | None = None,
    contributors: Mapping[str, str] | Callable[[str], str] | None = None,
    loo: bool = True,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    p: float = DEFAULT_RBP_P,
    k: float = DEFAULT_RRF_K,
    discount: float = DEFAULT_DISCOUNT,
    rng: object = None,
    ties: TiePolicy = "trec_eval",
) -> PoolingSimulation:
    """Replay pooling ``strategies`` with ``budgets`` (judgments per topic) on ``qrels``
    (module documentation).

    ``runs``: run files or objects; ``measure``: the measure whose system ranking is
    compared (one name, default ``map``); ``depth``: the runs are cut at this depth first
    (the candidates; default: whole runs); ``contributors``: run → contributor for the
    leave-one-out test (default: the run name up to its first underscore); ``loo``: run
    that test; ``p``, ``k``, ``discount``, ``rng``: as :func:`irscale.collections.pool`.
    Topics judged in the qrels are simulated; run topics without judgments are reported
    (warning) and left out.
    """
    checked = list(strategies)  # (strategies and budgets: lists, once bound: SIMULATE)
    budget_list = sorted(budgets)  # type: ignore[arg-type]
    if not isinstance(measure, str) or len(measure.split()) != 1:
        raise ParameterError(f"measure must be one measure name, got {measure!r}")
    check_rng(rng)
    oracle = as_qrels(qrels)
    run_list = as_runs(runs)
    if len(run_list) < 2:
        raise InputError("simulated pooling compares system rankings: give at least 2 runs")
    judged_topics = set(oracle.topics)
    _check_common_topics(run_list, judged_topics, oracle.source, measure)
    run_topics = sorted({t for run in run_list for t in run.topics})
    topics = [t for t in run_topics if t in judged_topics]
    missing = [t for t in run_topics if t not in judged_topics]
    if not topics:
        raise InputError("the runs and the qrels have no topic in common")
    if missing:
        warnings.warn(f"{len(missing)} run topic(s) have no judgments and are not pooled: "
                      f"{', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}",
                      stacklevel=2)
    cand = ranked_candidates(run_list, depth=depth, ties=ties, topics=topics)
    degree = cand.degrees(oracle)
    labels = np.where(degree >= relevance_level, 1, 0).astype(np.int8)
    full = _means(oracle, run_list, measure, relevance_level)
    topic_names = np.asarray(cand.topics, dtype=object)
    loo_depth = cand.pairs.shape[2] - 1
    rows = []
    induced_qrels: dict[tuple[str, int], pd.DataFrame] = {}
    relevant_pool = int(labels.sum())
    for strategy in checked:
        order, position, _ = judging_order(cand, strategy, budget=budget_list[-1],
                                           labels=labels, p=p, k=k, discount=discount,
                                           rng=rng)
        for budget in budget_list:
            chosen = order[position <= budget]
            frame = pd.DataFrame({
                "query_id": topic_names[cand.pair_topic[chosen]],
                "doc_id": cand.pair_docno.take(chosen).to_numpy(),
                "relevance": np.maximum(degree[chosen], 0),
            })
            induced_qrels[(strategy, budget)] = frame
            induced = qrels_from_frame(frame, source=f"<{strategy} qrels, budget {budget}>")
            with warnings.catch_warnings():
                # topics without a relevant document among few judgments are expected
                # (irscale's warnings only: a numpy warning is a fault to see)
                warnings.simplefilter("ignore", UserWarning)
                scores = _means(induced, run_list, measure, relevance_level)
                row: dict[str, Any] = {
                    "strategy": strategy, "budget": budget, "judged": len(chosen),
                    "relevant_found": int(labels[chosen].sum()),
                    "relevant_pool": relevant_pool,
                    "tau": kendall_tau(scores, full).tau,
                    "tau_ap": float(tau_ap(scores, full)),
                }
                if loo:
                    result = leave_one_out(induced, run_list, measure,
                                           contributors=contributors, depth=loo_depth,
                                           relevance_level=relevance_level,
                                           allow_empty=True)
                    row["loo_tau"] = float(result.summary["tau"].iloc[0])
                    row["loo_max_rank_drop"] = int(result.summary["max_rank_drop"].iloc[0])
            rows.append(row)
    table = declare(pd.DataFrame(rows), dict.fromkeys(("tau", "tau_ap", "loo_tau"),
                                                      NOTHING_TO_RANK))
    return PoolingSimulation(table=table, qrels=induced_qrels, measure=measure, depth=depth)
