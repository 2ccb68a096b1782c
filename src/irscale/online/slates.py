"""Distributions over whole rankings (slates) and the prefix propensities and prefix values
of the slate estimators of :func:`~irscale.online.counterfactual` (``sips``, ``rips``,
``iips``, their self-normalised forms, ``cascade-dr``, ``hcope``).

A slate policy gives every ranking ``y = (y_1, ..., y_L)`` of a query its probability
``π(y | q)``; the probability of a prefix is ``π(y_1..y_k | q) = Σ_{y' : y'_{1..k} =
y_{1..k}} π(y' | q)`` (rankings are cut at the SERP size K), and its item-position
marginal ``π(d, k | q) = Σ_{y : y_k = d} π(y | q)``. A deterministic policy (a run,
rankings) puts probability 1 on its ranking; ``"empirical"`` logging gives every logged
ranking the share of its query's sessions that showed it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..errors import InputError
from .clicklog import ClickLog

__all__ = ["logged_slates", "prefix_propensities", "prefix_values", "slate_frame",
           "slate_marginals"]

_COLUMNS = ["query", "slate", "probability"]


def slate_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (columns ``query slate probability``; a slate a sequence of docnos or a
    string of docnos joined by commas) checked: probabilities in [0, 1] summing to at most
    1 per query, no slate empty, repeating a document or given twice."""
    missing = [c for c in _COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(f"a slate policy has columns query slate probability; missing "
                         f"{', '.join(missing)}")
    slates = [tuple(s.split(",")) if isinstance(s, str) else tuple(map(str, s))
              for s in frame["slate"]]
    prob = pd.to_numeric(frame["probability"], errors="coerce").to_numpy(np.float64)
    queries = frame["query"].astype(str).to_numpy()
    for i, slate in enumerate(slates):
        if not (np.isfinite(prob[i]) and 0 <= prob[i] <= 1):
            raise InputError(f"slate policy row {i + 1}: probability must lie in [0, 1], "
                             f"got {frame['probability'].iloc[i]!r}")
        if not slate or "" in slate or len(set(slate)) < len(slate):
            raise InputError(f"slate policy row {i + 1}: a slate lists distinct documents, "
                             f"got {frame['slate'].iloc[i]!r}")
    out = pd.DataFrame({"query": queries, "slate": slates, "probability": prob})
    twice = out.duplicated(["query", "slate"])
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        raise InputError(f"the slate policy gives slate {','.join(slates[i])!r} of query "
                         f"{queries[i]!r} twice")
    total = out.groupby("query")["probability"].sum()
    over = total[total > 1 + 1e-9]
    if len(over):
        raise InputError(f"the slate policy's probabilities of query {over.index[0]!r} sum "
                         f"to {over.iloc[0]:.6g} > 1")
    return out


def slate_marginals(slates: pd.DataFrame, depth: int) -> pd.DataFrame:
    """The item-position marginals ``query docno rank probability`` of a slate policy (its
    ranks 1..``depth``)."""
    rows = [(q, d, k + 1, p) for q, slate, p in slates.itertuples(index=False)
            for k, d in enumerate(slate[:depth])]
    frame = pd.DataFrame(rows, columns=["query", "docno", "rank", "probability"])
    return frame.groupby(["query", "docno", "rank"], as_index=False)["probability"].sum()


def logged_slates(log: ClickLog) -> pd.DataFrame:
    """The ``"empirical"`` slate policy: every ranking the log shows for a query, with the
    share of the query's sessions that showed it."""
    sessions = np.bincount(log.query, minlength=len(log.queries))
    frame = pd.DataFrame({"query": log.queries[log.query].astype(str),
                          "slate": list(_shown(log)),
                          "probability": 1.0 / sessions[log.query]})
    return frame.groupby(["query", "slate"], as_index=False, sort=False)["probability"].sum()


def _shown(log: ClickLog) -> Iterable[tuple[str, ...]]:
    docs = log.docs.astype(str)
    for s in range(len(log.sessions)):
        yield tuple(docs[log.doc[s, :log.lengths[s]]])


def prefix_propensities(log: ClickLog, slates: pd.DataFrame) -> np.ndarray:
    """``p[s, k] = π(y_{s,1..k+1} | q_s)``: the slate policy's probability of the first
    k + 1 documents session s shows (0 beyond the session's length)."""
    k_max = log.serp_size
    mass: dict[tuple[str, tuple[str, ...]], float] = {}
    for q, slate, p in slates.itertuples(index=False):
        for k in range(1, min(len(slate), k_max) + 1):
            key = (q, slate[:k])
            mass[key] = mass.get(key, 0.0) + p
    queries = log.queries.astype(str)
    out = np.zeros(log.doc.shape)
    for s, shown in enumerate(_shown(log)):
        q = queries[log.query[s]]
        for k in range(len(shown)):
            out[s, k] = mass.get((q, shown[:k + 1]), 0.0)
    return out


def prefix_values(log: ClickLog, slates: pd.DataFrame, rewards: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The slate policy's expected reward from a rank on, over the rankings that begin
    with a session's prefix (Cascade-DR's ``π(y_{1..k}) Q̂_k`` and
    ``π(y_{1..k−1}) E_π[Q̂_k]``), at every (session s, rank k) of ``log``:

    ``here[s, k−1] = Σ_{y : y_{1..k} = y_{s,1..k}} π(y | q_s) Σ_{m=k}^{L_s} r̂_m(y)`` and
    ``before[s, k−1] = Σ_{y : y_{1..k−1} = y_{s,1..k−1}} π(y | q_s) Σ_{m=k}^{L_s} r̂_m(y)``,

    ``r̂_m(y) = rewards[i, m − 1]`` of the slate y of row i of ``slates``, L_s the
    session's length (0 beyond it)."""
    k_max = log.serp_size
    index: dict[tuple[str, tuple[str, ...]], int] = {}
    rows: list[np.ndarray] = []
    for (q, slate, p), reward in zip(slates.itertuples(index=False), rewards, strict=True):
        weighted = p * np.asarray(reward, dtype=np.float64)[:k_max]
        for k in range(min(len(slate), k_max) + 1):
            key = (q, slate[:k])
            if key not in index:
                index[key] = len(rows)
                rows.append(np.zeros(k_max))
            rows[index[key]] += weighted
    # cumulative sums over the ranks (column t: ranks 1..t), and a row of zeros for the
    # prefixes no ranking of the policy begins with
    table = np.concatenate([np.zeros((len(rows) + 1, 1)),
                            np.cumsum(np.array([*rows, np.zeros(k_max)]), axis=1)], axis=1)
    queries = log.queries.astype(str)
    at = np.full((len(log.sessions), k_max + 1), len(rows))
    for s, shown in enumerate(_shown(log)):
        q = queries[log.query[s]]
        for k in range(len(shown) + 1):
            at[s, k] = index.get((q, shown[:k]), len(rows))
    length = log.lengths[:, None]
    start = np.arange(k_max)[None, :]  # rank k's column: ranks 1..k − 1 summed before it
    here = table[at[:, 1:], length] - table[at[:, 1:], start]
    before = table[at[:, :-1], length] - table[at[:, :-1], start]
    valid = log.valid
    return np.where(valid, here, 0.0), np.where(valid, before, 0.0)
