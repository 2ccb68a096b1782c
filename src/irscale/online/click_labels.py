"""Relevance inferred from clicks: qrels from a fitted click model's parameters, and
pairwise preferences from the order of clicks and skips on a result page.

Qrels (:func:`click_qrels`)
    A click model fitted on the log (:func:`~irscale.online.clickmodels.fit_click_model`)
    gives every (query, document) pair a *score*: its ``attractiveness`` α_qu, its
    ``satisfaction`` σ_qu (DBN and SDBN) or its ``relevance`` α_qu σ_qu, the probability
    that the document satisfies a user who examines it (Chapelle & Zhang, WWW 2009, §5,
    "Click models for web search ranking"; Chuklin, Markov & de Rijke 2015, §3.8 and §8 on
    click models as relevance estimators). The user declares the mapping from scores to
    grades: increasing thresholds t_1 < ... < t_k, a pair's grade being the number of
    thresholds at or below its score (``thresholds=(0.5,)``: binary, relevant when the
    score is 0.5 or more). Pairs shown in fewer than ``min_sessions`` sessions of the
    training log are left out (their parameters are mostly the prior).

Preferences (:func:`click_preferences`)
    The strategies of Joachims, Granka, Pan, Hembrooke & Gay (SIGIR 2005, "Accurately
    interpreting clickthrough data as implicit feedback", §5; TOIS 2007, §5.1), with C the
    ranks clicked in a session and l_i the document at rank i:

    ===================  =====================================================================
    ``skip-above``       Click > Skip Above: l_i ≻ l_j for every i ∈ C and j < i, j ∉ C.
    ``last-skip-above``  Last Click > Skip Above: the same with i the click last in time only.
    ``earlier-click``    Click > Earlier Click: l_i ≻ l_j for i, j ∈ C with t(i) > t(j).
    ``skip-previous``    Click > Skip Previous: l_i ≻ l_{i−1} for i ∈ C, i ≥ 2, i − 1 ∉ C.
    ``no-click-next``    Click > No-Click Next: l_i ≻ l_{i+1} for i ∈ C, i + 1 ∉ C (shown).
    ===================  =====================================================================

    The rules that need the time order (``last-skip-above``, ``earlier-click``) read the
    log's timestamps and refuse a log without them, or with a click without one; two
    clicks at the same time are not ordered. A session gives a pair at most once. Over
    the sessions of a query, a pair (a, b) is kept when more sessions prefer a to b than
    b to a, and at least ``min_sessions`` prefer a (the papers judge each session's
    preferences separately; irscale aggregates them so that the judgments written are
    consistent).

    Written for trec_eval's ``-R prefs`` (``qid jg jsg docno rel_level``, read by
    :func:`irscale.io.prefs.read_prefs` and ``irscale eval -R prefs``): one judgment group
    per preference (``jg`` = ``p1``, ``p2``, ... within a query), one sub-group ``1``, the
    preferred document at level 1 and the other at level 0; a judgment group per
    preference keeps trec_eval from closing them transitively into a contradiction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..stats.protocol import TableResult
from .clicklog import ClickLog, read_click_log
from .clickmodels import ClickModel, ClickModelFit, fit_click_model
from .params import (
    CLICK_PREFERENCES,
    CLICK_QRELS,
    CLICK_QRELS_SCORES,
    PREFERENCE_RULES,
)

__all__ = ["PREFERENCE_RULES", "QRELS_SCORES", "ClickPreferences", "ClickQrels",
           "click_preferences", "click_qrels"]

#: The scores of a (query, document) pair that :func:`click_qrels` maps to grades.
QRELS_SCORES = CLICK_QRELS_SCORES
#: The rules that order clicks in time.
TIMED_RULES: tuple[str, ...] = ("last-skip-above", "earlier-click")
Rule = Literal["skip-above", "last-skip-above", "earlier-click", "skip-previous",
               "no-click-next"]
#: Models whose (query, document) satisfaction is a parameter of its own.
_SATISFACTION_MODELS = ("dbn", "sdbn")
#: Models without a (query, document) parameter (the CTR models of every pair alike).
_PAIRLESS_MODELS = ("gctr", "rctr")


@dataclass(frozen=True, eq=False)
class ClickQrels(TableResult):
    """Qrels inferred from a click model (:func:`click_qrels`): ``table`` has one row per
    (query, docno) with its ``sessions`` (training sessions showing it), ``score`` and
    ``grade``."""

    table: pd.DataFrame
    model: str
    score: str
    thresholds: tuple[float, ...]

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def to_trec(self) -> str:
        """The qrels as TREC lines ``query 0 docno grade``."""
        t = self.table
        return "".join(f"{q} 0 {d} {g}\n" for q, d, g in
                       zip(t["query"], t["docno"], t["grade"], strict=True))

    def __repr__(self) -> str:
        grades = self.table["grade"].value_counts().sort_index()
        shown = ", ".join(f"{g}: {n}" for g, n in zip(grades.index.tolist(),
                                                       grades.tolist(), strict=True))
        return (f"ClickQrels({self.model} {self.score}, thresholds "
                f"{list(self.thresholds)}: {len(self.table)} pairs, grades {{{shown}}})")


@dataclass(frozen=True, eq=False)
class ClickPreferences(TableResult):
    """Pairwise preferences inferred from clicks (:func:`click_preferences`): ``table``
    has one row per kept preference, ``query``, ``preferred``, ``other``, ``sessions``
    (sessions preferring ``preferred``) and ``against`` (sessions preferring ``other``)."""

    table: pd.DataFrame
    rule: str

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def to_prefs(self) -> str:
        """trec_eval ``-R prefs`` lines (module documentation): one judgment group per
        preference."""
        lines = []
        number = self.table.groupby("query", sort=False).cumcount() + 1
        for q, a, b, n in zip(self.table["query"], self.table["preferred"],
                              self.table["other"], number, strict=True):
            lines.append(f"{q} p{n} 1 {a} 1\n{q} p{n} 1 {b} 0\n")
        return "".join(lines)

    def __repr__(self) -> str:
        return (f"ClickPreferences({self.rule}: {len(self.table)} preferences, "
                f"{self.table['query'].nunique()} queries)")


def _thresholds(values: Sequence[float]) -> tuple[float, ...]:
    """The thresholds (probabilities, none twice: their domain), refused unless they
    increase."""
    checked = tuple(values)
    if any(b <= a for a, b in pairwise(checked)):
        raise ParameterError(f"thresholds must be increasing numbers in [0, 1], one or "
                             f"more; got {list(checked)}", param="thresholds")
    return checked


@CLICK_QRELS
def click_qrels(source: Any, model: str | None = None, *, score: str | None = None,
                thresholds: Sequence[float] | float = (0.5,), min_sessions: int = 1,
                smoothing: float | None = None, iterations: int | None = None,
                tol: float | None = None) -> ClickQrels:
    """Qrels from a click model's parameters (module documentation).

    Parameters
    ----------
    source : ClickModel, ClickLog, path, bytes or DataFrame
        A fitted model, or a click log to fit ``model`` on (default ``sdbn``;
        ``smoothing``, ``iterations``, ``tol``: those of
        :func:`~irscale.online.clickmodels.fit_click_model`, its defaults when None).
        With a fitted model, ``model`` and the fitting options are refused.
    score : str, optional
        ``attractiveness``, ``satisfaction`` or ``relevance`` (α σ); the last two need a
        DBN or SDBN. Default: ``relevance`` for a DBN or SDBN, else ``attractiveness``.
    thresholds : float or increasing floats in [0, 1]
        A pair's grade is the number of thresholds at or below its score.
    min_sessions : int
        Pairs shown in fewer training sessions are left out (a fitted model without
        session counts keeps every pair).

    Examples
    --------
    >>> log = b"s1 q 1 a 1\\ns1 q 2 b 0\\ns2 q 1 b 0\\ns2 q 2 a 1\\n"
    >>> qrels = click_qrels(log, "sdbn", smoothing=0)
    >>> qrels.to_frame()
      query docno  sessions  score  grade
    0     q     a         2    1.0      1
    1     q     b         2    0.0      0
    """
    cuts = _thresholds(cast("list[float]", thresholds))  # a list: the binding's (Listed)
    least = min_sessions
    # the fitting options given (fit_click_model's defaults for the others)
    options: dict[str, Any] = {name: value for name, value in (
        ("smoothing", smoothing), ("iterations", iterations), ("tol", tol))
        if value is not None}
    if isinstance(source, ClickModel):
        given = (["model"] if model is not None else []) + list(options)
        if given:
            raise ParameterError(f"{', '.join(given)}: the click model is fitted already "
                                 "(give a click log to fit one)")
        fitted = source
    else:
        model = model or "sdbn"
        fitted = fit_click_model(read_click_log(source), model,  # type: ignore[arg-type]
                                 **options)
    name = fitted.model
    if name in _PAIRLESS_MODELS:
        raise ParameterError(f"click model {name} has no parameter per (query, document) "
                             "pair to infer relevance from: choose another model")
    score = score or ("relevance" if name in _SATISFACTION_MODELS else "attractiveness")
    if score != "attractiveness" and name not in _SATISFACTION_MODELS:
        raise ParameterError(f"score {score} needs a satisfaction per (query, document) "
                             f"pair: a dbn or sdbn model, not {name}")
    alpha = fitted.attractiveness.astype(np.float64)
    sigma = fitted.satisfaction
    if score == "attractiveness":
        values = alpha
    else:
        assert sigma is not None
        sigma = sigma.reindex(alpha.index).astype(np.float64)
        values = sigma if score == "satisfaction" else alpha * sigma
    shown = fitted.sessions if isinstance(fitted, ClickModelFit) else None
    counts = (shown.reindex(values.index).fillna(0).astype(np.int64) if shown is not None
              else pd.Series(-1, index=values.index))
    table = pd.DataFrame({"query": values.index.get_level_values(0).astype(str),
                          "docno": values.index.get_level_values(1).astype(str),
                          "sessions": counts.to_numpy(),
                          "score": values.to_numpy()})
    if shown is not None:
        table = table[table["sessions"] >= least]
    table["grade"] = np.searchsorted(np.asarray(cuts), table["score"].to_numpy(),
                                     side="right").astype(np.int64)
    table = table.sort_values(["query", "docno"], kind="stable").reset_index(drop=True)
    return ClickQrels(table, name, score, cuts)


# --------------------------------------------------------------------------- preferences
def _click_times(log: ClickLog, clicks: np.ndarray, rule: str) -> np.ndarray:
    """The time of every click (NaN elsewhere); an error without timestamps."""
    if log.timestamps is None:
        raise InputError(f"preference rule {rule} orders the clicks in time: the click log "
                         "has no timestamps (session query rank docno clicked timestamp)",
                         source=log.source)
    times = np.where(clicks, log.timestamps, np.nan)
    untimed = clicks & np.isnan(times)
    if untimed.any():
        s, r = log.first(untimed)
        raise log.error(InputError, f"preference rule {rule} orders the clicks in time: the "
                        f"click at rank {r + 1} of session {log.sessions[s]!r} has no "
                        "timestamp", untimed)
    return times


def _session_pairs(log: ClickLog, rule: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(session, preferred rank, other rank) of every preference the rule draws from a
    session (0-based ranks): the neighbour rules in one pass, the others by a loop over
    the ranks of the preferred document that hold a click (not over every rank of the page:
    a SERP size far beyond the log's ranks costs nothing)."""
    valid = log.valid
    clicks = log.clicks & valid
    skipped = valid & ~clicks
    n = log.serp_size
    rank = np.arange(n)
    if rule in TIMED_RULES:
        times = _click_times(log, clicks, rule)
    if rule == "last-skip-above":
        latest = np.nanmax(np.where(clicks, times, -np.inf), axis=1)
        last = clicks & (times == latest[:, None])
        # two clicks at the latest time: no click is the last one
        clicks = last & (last.sum(axis=1) == 1)[:, None]
    if rule in ("skip-previous", "no-click-next"):  # neighbours: one pass, no loop
        step = -1 if rule == "skip-previous" else 1
        pairs = (clicks[:, 1:] & skipped[:, :-1] if step < 0
                 else clicks[:, :-1] & skipped[:, 1:])
        s, r = np.nonzero(pairs)
        clicked = r + 1 if step < 0 else r
        return (s.astype(np.int64), clicked.astype(np.int64),
                (clicked + step).astype(np.int64))
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = [
        (np.empty(0, np.int64),) * 3]
    for i in np.flatnonzero(clicks.any(axis=0)):  # a preferred document is a clicked one
        if rule in ("skip-above", "last-skip-above"):
            other = skipped & (rank < i) & clicks[:, i:i + 1]
        else:  # earlier-click
            other = clicks & (times < times[:, i:i + 1]) & clicks[:, i:i + 1]
        s, j = np.nonzero(other)
        found.append((s, np.full(len(s), i), j))
    return (np.concatenate([f[0] for f in found]).astype(np.int64),
            np.concatenate([f[1] for f in found]).astype(np.int64),
            np.concatenate([f[2] for f in found]).astype(np.int64))


@CLICK_PREFERENCES
def click_preferences(log: Any, rule: Rule = "skip-above", *,
                      min_sessions: int = 1) -> ClickPreferences:
    """Pairwise preferences of a click log by one of Joachims et al.'s rules, aggregated
    over sessions (module documentation).

    >>> log = b"s1 q 1 a 0\\ns1 q 2 b 0\\ns1 q 3 c 1\\n"
    >>> click_preferences(log, "skip-above").to_frame()
      query preferred other  sessions  against
    0     q         c     a         1        0
    1     q         c     b         1        0
    >>> print(click_preferences(log, "skip-previous").to_prefs(), end="")
    q p1 1 c 1
    q p1 1 b 0
    """
    least = min_sessions
    log = read_click_log(log).trimmed()  # the ranks shown: not a larger declared page
    s, i, j = _session_pairs(log, rule)
    query = log.query[s]
    a, b = log.doc[s, i], log.doc[s, j]
    keep = a != b
    frame = pd.DataFrame({"session": s[keep], "query": query[keep], "a": a[keep],
                          "b": b[keep]}).drop_duplicates()
    count = frame.groupby(["query", "a", "b"]).size()
    reverse = count.copy()
    reverse.index = reverse.index.reorder_levels([0, 2, 1])
    against = reverse.reindex(count.index).fillna(0).astype(np.int64)
    kept = (count > against) & (count >= least)
    q, pa_, pb = (count.index.get_level_values(k).to_numpy().astype(np.int64)
                  [kept.to_numpy()] for k in range(3))
    mask = kept.to_numpy()
    table = pd.DataFrame({"query": log.queries[q].astype(str),
                          "preferred": log.docs[pa_].astype(str),
                          "other": log.docs[pb].astype(str),
                          "sessions": count.to_numpy()[mask].astype(np.int64),
                          "against": against.to_numpy()[mask]})
    table = table.sort_values(["query", "preferred", "other"], kind="stable")
    return ClickPreferences(table.reset_index(drop=True), rule)
