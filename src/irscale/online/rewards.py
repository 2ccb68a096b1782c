"""The reward models and examination propensities of :func:`~irscale.online.counterfactual`
(module doc there): γ_r of pbm-ips and of a per-(query, docno) reward; the reward model
``m̂(q, d, r)`` of dm, dr, switch-dr and sndr at the log's cells, with the target's expected
clicks under it; cascade-dr's click probabilities ``r̂_m(y)`` on the target's rankings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.identifiers import index_in
from ..errors import InputError, ParameterError
from .clicklog import ClickLog
from .clickmodels import ClickModel, fit_click_model
from .keyed import Keyed, factorize, first_repeat, group, group_sums

__all__ = ["CASCADE_REWARD", "check_propensities", "examination", "reward_values",
           "slate_rewards"]

#: The click model fitted on the log as cascade-dr's reward model when none is given.
CASCADE_REWARD = "sdbn"


def examination(propensities: Any, log: ClickLog) -> np.ndarray:
    """γ_1..γ_K: a click model's (PBM or a CTR model), given, or a PBM fitted on ``log``."""
    k = log.serp_size
    if propensities is None:
        propensities = fit_click_model(log, "pbm")
    if isinstance(propensities, ClickModel):
        if propensities.model == "dctr":
            return np.ones(k)
        if propensities.model not in ("pbm", "gctr", "rctr") or \
                propensities.examination is None:
            raise ParameterError(f"examination propensities come from a position-based "
                                 f"click model (pbm, rctr, gctr), not "
                                 f"{propensities.model}")
        propensities = propensities.examination
    gamma = np.asarray(propensities, dtype=np.float64).ravel()
    if len(gamma) < k:
        raise ParameterError(f"propensities give {len(gamma)} rank(s), the log has "
                             f"{k}: one γ_r per rank 1..{k}")
    if not (np.isfinite(gamma) & (gamma > 0) & (gamma <= 1)).all():
        raise ParameterError("propensities γ_r must lie in (0, 1]")
    return gamma[:k]


def check_propensities(estimator: str, reward: Any, propensities: Any) -> None:
    """A :class:`ParameterError` where the reward estimator ``estimator`` is given
    ``propensities`` that it would not read: they are the γ_r of a per-(query, docno)
    reward, and a click model's reward (given, or fitted on the log) has its own."""
    if propensities is not None and (reward is None or isinstance(reward, ClickModel)):
        raise ParameterError(f"{estimator}: propensities= are the γ_r of a per-(query, "
                             "docno) reward; a click model's reward (given, or fitted on "
                             "the log without reward=) carries its own examination: give "
                             "the reward as a table query docno value, or leave "
                             "propensities= out")


def reward_values(reward: Any, log: ClickLog, table: Keyed, gamma: np.ndarray | None
            ) -> tuple[np.ndarray, np.ndarray]:
    """m̂ at the log's shown cells, and the target's expected clicks under m̂ per query
    (Σ_{d,r} π(d, r | q) m̂(q, d, r), aligned with ``log.queries``)."""
    if reward is None:
        reward = fit_click_model(log, "pbm")
    if isinstance(reward, ClickModel):
        gamma = examination(reward, log)
        alpha = _pairs(reward.attractiveness)
        prior: float | None = reward.prior[0]
    else:
        alpha = _pairs(_pair_series(reward))
        prior = None
    if gamma is None:
        gamma = np.ones(log.serp_size)
    index = alpha.find(table.queries, table.docs, table.query, table.doc)
    if prior is None and (index < 0).any():
        i = int(np.flatnonzero(index < 0)[0])
        q, d = table.label(i)
        raise InputError(f"the reward model has no value for document {d!r} of query "
                         f"{q!r}, which the target policy shows")
    values = np.append(alpha.value, prior if prior is not None else 0)
    direct = group_sums(table.value * values[index] * gamma[table.rank - 1], table.query,
                        len(table.queries))
    per_query = np.append(direct, 0.0)[index_in(log.queries.astype(str), table.queries)]
    s, k = np.nonzero(log.valid)
    cell_index = alpha.find(log.queries.astype(str), log.docs.astype(str), log.query[s],
                            log.doc[s, k])
    if prior is None and (cell_index < 0).any():
        i = int(np.flatnonzero(cell_index < 0)[0])
        raise InputError(f"the reward model has no value for document "
                         f"{log.docs[log.doc[s[i], k[i]]]!r} of query "
                         f"{log.queries[log.query[s[i]]]!r}, shown in session "
                         f"{log.sessions[s[i]]!r}")
    m = np.zeros(log.doc.shape)
    m[s, k] = values[cell_index] * gamma[k]
    return m, per_query


def _pairs(reward: pd.Series) -> Keyed:
    """Per-(query, docno) values (a Series on a two-level index) as :class:`Keyed`, its
    levels' values as strings; a pair given twice refused."""
    index = reward.index
    assert isinstance(index, pd.MultiIndex)
    codes = []
    for level, code in zip(index.levels, index.codes, strict=True):
        place, distinct = factorize(level.astype(str).to_numpy())
        codes.append((np.append(place, -1)[code], distinct))
    (query, queries), (doc, docs) = codes
    table = Keyed(queries, docs, query, doc, np.zeros(len(query), np.int64),
                  reward.to_numpy(np.float64))
    twice = first_repeat(group(query, doc, len(docs))[1])
    if twice is not None:
        q, d = table.label(twice)
        raise InputError(f"the reward model gives document {d!r} of query {q!r} twice")
    return table


def _pair_series(reward: Any) -> pd.Series:
    """A per-(query, docno) reward: a Series indexed by (query, docno), a mapping
    ``{(query, docno): value}`` or a DataFrame ``query docno value``."""
    if isinstance(reward, pd.DataFrame):
        if not {"query", "docno", "value"} <= set(reward.columns):
            raise InputError("a reward table has columns query docno value")
        reward = reward.set_index(["query", "docno"])["value"]
    elif isinstance(reward, Mapping):
        reward = pd.Series(dict(reward))
    if not isinstance(reward, pd.Series) or reward.index.nlevels != 2:
        raise ParameterError("reward must be a click model, or per-(query, docno) values "
                             "(a Series, a mapping or a DataFrame query docno value)")
    values = pd.to_numeric(reward, errors="coerce").to_numpy(np.float64)
    if not (np.isfinite(values) & (values >= 0) & (values <= 1)).all():
        raise InputError("reward values are click probabilities in [0, 1]")
    return pd.Series(values, index=reward.index)


def slate_rewards(reward: Any, propensities: Any, log: ClickLog, slates: pd.DataFrame,
                  table: Keyed) -> np.ndarray:
    """``r̂[i, m − 1]``: cascade-dr's reward model's click probability at rank m of the
    ranking of row i of ``slates`` (0 beyond it): a click model's unconditional
    probability (default :data:`CASCADE_REWARD` fitted on ``log``), or a per-(query,
    docno) ``α̂`` times γ_m of ``propensities`` (1 without)."""
    k = log.serp_size
    lengths = np.array([min(len(slate), k) for slate in slates["slate"]], dtype=np.int64)
    queries, query = np.unique(slates["query"].to_numpy(str), return_inverse=True)
    cells = [d for slate in slates["slate"] for d in slate[:k]]
    docs, doc = np.unique(np.array(cells, dtype=str), return_inverse=True)
    matrix = np.full((len(slates), k), -1, dtype=np.int64)
    matrix[np.arange(k)[None, :] < lengths[:, None]] = doc
    shown = ClickLog(np.arange(len(slates)).astype(str).astype(object),
                     queries.astype(object), docs.astype(object), query, matrix,
                     np.zeros(matrix.shape, dtype=bool), lengths,
                     source="the target policy's rankings")
    if reward is None:
        reward = fit_click_model(log, CASCADE_REWARD)  # type: ignore[arg-type]
    if isinstance(reward, ClickModel):
        reward.check()
        return reward.click_probabilities(shown)
    exam = None if propensities is None else examination(propensities, log)
    return reward_values(reward, shown, table, exam)[0]
