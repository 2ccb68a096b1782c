"""Scoring a real interleaving log: the impressions and clicks a search engine recorded.

:func:`logged_interleavings` turns an interleaving log (``impression topic rank docno team
clicked``, :mod:`irscale.io.interleaving_log`) into the :class:`~irscale.online.
interleaving.Interleavings` the lists would have been had irscale built them, so that its
credit rules and statistics (:meth:`Interleavings.score`, :class:`InterleavingResult`) score
it; :func:`score_log` does both. What each method needs (module docstring of
:mod:`irscale.online.interleaving` for the rules):

``team-draft`` (two teams; more: team-draft multileaving) and ``probabilistic`` with
    ``credit="assignment"``: the credit is the clicks on each team's documents, so the log
    alone scores them (the rankers are the teams, sorted by name). Team-draft lets every
    team pick once per round of m picks (m rankers): an impression showing one team only,
    or a team twice within a round, is not a team-draft list and is refused.
``balanced``, ``optimized`` (credit ``inverse`` or ``linear``) and ``probabilistic`` with
    ``credit="marginal"``: the credit depends on the ranks the two rankers gave the clicked
    documents, which a log does not hold; their rankings are given (``runs=``) and every
    document shown must be ranked by one of them. The
    marginal credit needs P(choose s) P_s(I_i | I_1..I_{i-1}) of every position, which
    follows from the rankings and the list shown (:func:`_assignment_probabilities`).

Given ``runs=``, every team of the log must designate one of them as every argument that
names a run does (:func:`irscale.io.naming.find_run`: the run's name, its file's name with or
without extension, its path or its run id; a log written with run ids matches runs named by
their files), no two teams the same run, and each run must rank the documents its team is
credited with; the rankers are then named by their runs' names. Errors name the file, line
and text of the first offending document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..collections.candidates import Candidates
from ..core.progress import ProgressArg
from ..core.strings import Strings
from ..errors import InputError, InputFormatError, ParameterError
from ..io.interleaving_log import InterleavingLog, read_interleaving_log
from ..io.naming import RunKey, find_run
from ..io.sources import as_runs
from ..stats.resampling import RngArg
from .interleaving import (
    BOOTSTRAP,
    TAU,
    InterleavingResult,
    Interleavings,
    Method,
    _is_lists,
    candidates_of,
)
from .mixing import Cube
from .params import LOGGED, check_credit
from .params import needs_rankings as needs_rankings

__all__ = ["logged_interleavings", "needs_rankings", "score_log"]


@LOGGED
def logged_interleavings(log: Any, runs: object = None, *, method: Method = "team-draft",
                         credit: str | None = None, tau: float = TAU) -> Interleavings:
    """The lists of an interleaving log as :class:`Interleavings` (module docstring).

    Parameters
    ----------
    log : path, bytes, stream, DataFrame or InterleavingLog
        The log (:func:`~irscale.io.interleaving_log.read_interleaving_log`).
    runs : runs, Candidates or mapping, optional
        The rankers' rankings, as :func:`~irscale.online.interleaving.interleave_runs`
        takes them; needed by balanced, optimized and probabilistic (marginal credit).
    method, credit, tau
        As :func:`~irscale.online.interleaving.interleave_runs`; ``tau`` gives the
        assignment probabilities of marginal credit, and applies to it alone
        (:data:`~irscale.online.params.LOGGED`).

    Examples
    --------
    >>> log = b"i1 q 1 d1 A 1\\ni1 q 2 d2 B 0\\ni2 q 1 d2 B 1\\ni2 q 2 d1 A 1\\n"
    >>> shown = logged_interleavings(log)
    >>> shown.rankers, shown.team.tolist()
    (('A', 'B'), [[0, 1], [1, 0]])
    """
    credit = check_credit(method, credit)
    log = read_interleaving_log(log)
    by_team = not needs_rankings(method, credit)
    if not by_team and runs is None:
        raise ParameterError(f"{method} interleaving ({credit} credit) scores clicks by the "
                             "ranks the rankers gave the documents, which the log does not "
                             "hold: give the rankers' rankings (runs=, --runs)")
    shown = log.valid
    if by_team and (log.team[shown] < 0).any():
        raise log.error(InputFormatError, f"{method} interleaving credits every document to "
                        "a team, this line names none ('-')", shown & (log.team < 0))
    candidates, keys = (_log_candidates(log), None) if runs is None else _rankers(runs)
    rankers = candidates.runs
    if len(rankers) < 2:
        if runs is None:
            raise InputError(f"the log credits one team only ({', '.join(rankers)}): "
                             "interleaving compares at least two rankers",
                             source=log.source)
        raise ParameterError(f"the runs hold one ranker only ({', '.join(rankers)}): "
                             "interleaving compares at least two")
    if len(rankers) > 2 and method != "team-draft":
        raise ParameterError(f"{method} interleaving compares two rankers, got "
                             f"{len(rankers)}; for more, team-draft (multileaving)")
    team, labels = _teams(log, rankers, keys)
    topic = _topics(log, candidates)
    pairs = _pairs(log, candidates, topic)
    if runs is not None:
        ranks = Cube(candidates).ranks()
        unranked = (team >= 0) & (ranks[np.maximum(pairs, 0), np.maximum(team, 0)] == 0)
        if unranked.any():
            n, r = log.first(unranked)
            raise log.error(InputError, f"team {labels[team[n, r]]!r} is credited with "
                            f"document {log.shown.docs[log.shown.doc[n, r]]!r}, which its "
                            f"run does not rank for topic {candidates.topics[topic[n]]!r}",
                            unranked)
    if method == "team-draft":
        _check_rounds(log, team, labels)
    prob = None
    if method == "probabilistic" and credit == "marginal":
        prob = _assignment_probabilities(Cube(candidates), topic, pairs, tau)
    keep_team = method == "team-draft" or (method == "probabilistic"
                                           and bool((team[shown] >= 0).all()))
    return Interleavings(method, credit, candidates, topic, pairs,
                         team.astype(np.int8) if keep_team else None, prob)


@LOGGED
def score_log(log: Any, runs: object = None, *, method: Method = "team-draft",
              credit: str | None = None, tau: float = TAU, alpha: float = 0.05,
              bootstrap: int = BOOTSTRAP, rng: RngArg = None,
              progress: ProgressArg = False) -> InterleavingResult:
    """Wins, losses, ties, Δ with its interval and test for every pair of rankers of an
    interleaving log: :func:`logged_interleavings` scored by :meth:`Interleavings.score`
    on the log's clicks (``progress``: that of the bootstrap).

    >>> log = b"i1 q 1 d1 A 1\\ni1 q 2 d2 B 0\\ni2 q 1 d2 B 1\\ni2 q 2 d1 A 1\\n"
    >>> score_log(log, rng=1).to_frame()[["a", "b", "wins", "losses", "ties", "delta"]]
       a  b  wins  losses  ties  delta
    0  A  B     1       0     1   0.25
    """
    log = read_interleaving_log(log)
    shown = logged_interleavings(log, runs, method=method, credit=credit, tau=tau)
    return shown.score(log.clicks, alpha=alpha, bootstrap=bootstrap, rng=rng,
                       progress=progress)


def _log_candidates(log: InterleavingLog) -> Candidates:
    """The (topic, document) pairs of the log, the teams (sorted) as rankers, and empty
    rankings: the log does not hold the rankers' rankings."""
    shown = log.valid
    n_docs = max(len(log.shown.docs), 1)
    key = np.unique((log.shown.query[:, None] * n_docs + log.shown.doc)[shown])
    pair_topic = key // n_docs
    return Candidates(
        topics=tuple(map(str, log.topics)), runs=tuple(sorted(map(str, log.teams))),
        pairs=np.full((len(log.topics), len(log.teams), 1), -1, dtype=np.int32),
        pair_topic=pair_topic,
        pair_docno=Strings.of([str(d) for d in log.shown.docs[key % n_docs].tolist()]),
        topic_start=np.searchsorted(pair_topic, np.arange(len(log.topics) + 1)), depth=None)


def _rankers(runs: object) -> tuple[Candidates, list[Any]]:
    """The rankers' cube (:func:`~irscale.online.interleaving.candidates_of`) and the runs
    as :func:`~irscale.io.naming.find_run` designates them: read runs with their files and
    run ids; a cube or ``{ranker: {topic: [docno, ...]}}`` knows its rankers' names only."""
    if isinstance(runs, Candidates) or _is_lists(runs):
        candidates = candidates_of(runs)
        return candidates, [RunKey(name) for name in candidates.runs]
    read = as_runs(runs)
    return candidates_of(read), read


def _teams(log: InterleavingLog, rankers: tuple[str, ...], runs: list[Any] | None
           ) -> tuple[np.ndarray, list[str]]:
    """The ranker (index into ``rankers``) of every document's team (-1: none), and the
    name each ranker has in the log (its team's; the ranker's name where no team names it).
    Each team designates one of ``runs`` (:func:`~irscale.io.naming.find_run`: its name,
    file or run id; ``None``: the teams are the rankers); a team that designates none or
    several, or a run two teams designate, is refused at the team's first line."""
    teams = [str(team) for team in log.teams]
    if runs is None:
        return (np.where(log.team >= 0, np.append(pd.Index(rankers).get_indexer(teams),
                                                  -1)[log.team], -1), list(rankers))
    index = np.empty(len(teams), dtype=np.int64)
    labels: dict[int, str] = {}
    for code, name in enumerate(teams):
        try:
            ranker = rankers.index(find_run(name, runs, "team"))
        except ParameterError as error:
            raise log.error(InputError, str(error), log.team == code) from None
        if ranker in labels:
            raise log.error(InputError, f"teams {labels[ranker]!r} and {name!r} both name "
                            f"the run {rankers[ranker]!r}: each team is one ranker",
                            log.team == code)
        index[code] = ranker
        labels[ranker] = name
    named = [labels.get(i, ranker) for i, ranker in enumerate(rankers)]
    return np.where(log.team >= 0, np.append(index, -1)[log.team], -1), named


def _topics(log: InterleavingLog, candidates: Candidates, rankers: str = "none of the runs"
            ) -> np.ndarray:
    """The topic (index into ``candidates.topics``) of every impression; a topic the
    candidates do not hold is an error (``rankers``: who does not rank it, in its
    message)."""
    index = pd.Index(candidates.topics).get_indexer(log.topics.astype(str))
    if (index < 0).any():
        unknown = int(np.flatnonzero(index < 0)[0])
        raise log.error(InputError, f"topic {log.topics[unknown]!r} is ranked by {rankers}",
                        log.valid & (log.shown.query == unknown)[:, None])
    return index[log.shown.query]


def _pairs(log: InterleavingLog, candidates: Candidates, topic: np.ndarray, *,
           strict: bool = True) -> np.ndarray:
    """The pair id of every document shown (impressions × ranks; -1 past the end); a
    document the candidates do not hold is an error, or (not ``strict``) -1."""
    known = pd.MultiIndex.from_arrays([candidates.pair_topic,
                                       candidates.pair_docno.to_numpy()])
    shown = log.valid
    n, r = np.nonzero(shown)
    pair = known.get_indexer(pd.MultiIndex.from_arrays(
        [topic[n], log.shown.docs[log.shown.doc[n, r]]]))
    out = np.full(shown.shape, -1, dtype=np.int64)
    out[n, r] = pair
    missing = np.zeros(shown.shape, dtype=bool)
    missing[n, r] = pair < 0
    if strict and missing.any():
        m, k = log.first(missing)
        raise log.error(InputError, f"document {log.shown.docs[log.shown.doc[m, k]]!r} is "
                        f"ranked by none of the runs for topic "
                        f"{candidates.topics[topic[m]]!r}", missing)
    return out


def _check_rounds(log: InterleavingLog, team: np.ndarray, rankers: Sequence[str]) -> None:
    """Team-draft (multileaving) picks in rounds of m = len(rankers) positions (``rankers``:
    their names in the log), every ranker once per round: an impression of two or more
    documents showing one team only, or a team twice within a round, is refused at the line
    of the offending document."""
    n, length = team.shape
    lengths = log.shown.lengths
    single = (lengths >= 2) & (team.max(axis=1) == np.where(log.valid, team,
                                                            len(rankers)).min(axis=1))
    if single.any():
        where = log.valid & single[:, None]
        first = log.first(where)[0]
        raise log.error(InputFormatError, f"impression {log.impressions[first]!r} shows "
                        f"documents of team {rankers[team[first, 0]]!r} only: team-draft "
                        "shows those of every team in turn", where)
    m = len(rankers)
    width = -(-length // m) * m
    rounds = np.full((n, width), -1, dtype=np.int64)
    rounds[:, :length] = team
    rounds = rounds.reshape(n, -1, m)
    again = np.zeros(rounds.shape, dtype=bool)
    for i in range(1, m):  # a loop over the positions of a round
        again[:, :, i] = ((rounds[:, :, :i] == rounds[:, :, i:i + 1]).any(axis=2)
                          & (rounds[:, :, i] >= 0))
    again = again.reshape(n, width)[:, :length]
    if again.any():
        row, pos = log.first(again)
        raise log.error(InputFormatError, f"team {rankers[team[row, pos]]!r} picks twice in "
                        f"round {pos // m + 1} of impression {log.impressions[row]!r} "
                        f"(ranks {pos // m * m + 1}-{pos // m * m + m}): team-draft lets "
                        "every team pick once per round", again)


def _assignment_probabilities(cube: Cube, topic: np.ndarray, pairs: np.ndarray,
                              tau: float) -> np.ndarray:
    """p[n, i, s] = P(choose s) P_s(I_i | I_1..I_{i-1}) of every position of the lists
    ``pairs`` (probabilistic interleaving, Hofmann et al. 2011): ranker s weighs its rank r
    by r^-τ, P_s(d | prefix) = w_s(d) / (Σ_{d' ranked by s} w_s(d') − Σ_{shown d'} w_s(d'));
    P(choose s) = 1/2 while both rankers have a document not shown yet, else 1 for the one
    that has (0 for the other)."""
    lengths = cube.lengths()[topic]  # n × 2
    rank = cube.ranks()[np.maximum(pairs, 0)]  # n × L × 2, 0: not ranked
    rank = np.where((pairs >= 0)[:, :, None], rank, 0)
    weight = np.where(rank > 0, np.maximum(rank, 1).astype(np.float64) ** -tau, 0.0)
    depth = int(lengths.max(initial=0))
    total = np.cumsum(np.arange(1, depth + 1, dtype=np.float64) ** -tau)
    mass = np.where(lengths > 0, total[np.maximum(lengths - 1, 0)], 0.0)  # n × 2
    before = np.cumsum(weight, axis=1) - weight  # mass shown before position i
    left = mass[:, None, :] - before
    ranked = (rank > 0).astype(np.int64)
    shown_before: np.ndarray = np.cumsum(ranked, axis=1) - ranked
    available = shown_before < lengths[:, None, :]
    pick = np.where(available.all(axis=2, keepdims=True), 0.5, available.astype(np.float64))
    return pick * np.divide(weight, left, out=np.zeros_like(weight), where=left > 0)
