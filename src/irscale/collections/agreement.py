"""Inter-assessor agreement, per topic and overall, vectorised over documents and topics.

Crowd labels (:func:`label_agreement`, a ``topic docno worker label`` table; ``counts[i, k]``
= ratings of class ``k`` for document ``i``, ``m_i`` = its ratings; documents with fewer
than two ratings are not pairable and are left out):

* percent agreement: the share of agreeing ordered pairs of ratings,
  ``Σ_i Σ_k n_ik (n_ik − 1) / Σ_i m_i (m_i − 1)``;
* Fleiss' κ (Fleiss 1971): ``(P̄ − P_e) / (1 − P_e)`` with ``P̄`` the mean over documents of
  ``Σ_k n_ik (n_ik − 1) / (m (m − 1))`` and ``P_e = Σ_k p_k²``, ``p_k`` the share of all
  ratings in class ``k``; defined when every document has the same number ``m`` of ratings
  (NaN otherwise: use α);
* Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"):
  coincidences ``o_ck = Σ_i (n_ic n_ik − [c = k] n_ic) / (m_i − 1)``, ``n_c = Σ_k o_ck``,
  ``α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck``, with the nominal (``[c ≠ k]``),
  ordinal (``(Σ_{g=c}^{k} n_g − (n_c + n_k)/2)²``) and interval (``(v_c − v_k)²``)
  distances.

Two qrels (:func:`qrels_agreement`, e.g. two assessors or two aggregations): over the
(topic, docno) pairs both judge, percent agreement, Cohen's κ (Cohen 1960,
``(p_o − p_e) / (1 − p_e)``, ``p_e = Σ_k p_a(k) p_b(k)``) and α; and, given runs, the
agreement of the system rankings the two qrels induce (Kendall's τ_b and τ_ap over the runs'
mean scores, as :func:`irscale.collections.simulate_pooling` reports).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.inputs import Qrels
from ..core.numbers import declare, undefined
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError, ParameterError
from ..io.crowd import CrowdLabels, read_crowd_labels
from ..io.sources import as_qrels
from ..stats.kendall import NOTHING_TO_RANK
from .params import LABEL_AGREEMENT, QRELS_AGREEMENT

LEVELS = ("nominal", "ordinal", "interval")

__all__ = ["LEVELS", "krippendorff_alpha", "label_agreement", "qrels_agreement", "with_ranking"]


def _distances(values: np.ndarray, totals: np.ndarray, level: str) -> np.ndarray:
    """δ²_ck of the classes (``totals``: n_c of the coincidences, one row per group)."""
    v = values.astype(np.float64)
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(len(v)), (*totals.shape[:-1], len(v), len(v)))
    if level == "interval":
        return np.broadcast_to((v[:, None] - v[None, :]) ** 2,
                               (*totals.shape[:-1], len(v), len(v)))
    cum = np.cumsum(totals, axis=-1)
    lo = np.minimum.outer(np.arange(len(v)), np.arange(len(v)))
    hi = np.maximum.outer(np.arange(len(v)), np.arange(len(v)))
    below = np.where(lo > 0, np.take(cum, lo - 1, axis=-1), 0.0)
    between = np.take(cum, hi, axis=-1) - below
    return (between - (totals[..., :, None] + totals[..., None, :]) / 2) ** 2


def _alpha(counts: np.ndarray, group: np.ndarray, n_groups: int, values: np.ndarray,
           level: str) -> np.ndarray:
    """α of every group of documents (``counts`` documents × classes)."""
    m = counts.sum(axis=1)
    pairable = m >= 2
    c, g, mm = counts[pairable], group[pairable], m[pairable]
    k = counts.shape[1]
    per_doc = (c[:, :, None] * c[:, None, :]
               - c[:, :, None] * np.eye(k)[None]) / (mm - 1)[:, None, None]
    o = np.zeros((n_groups, k, k))
    np.add.at(o, g, per_doc)
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    d = _distances(values, n_c, level)
    observed = (o * d).sum(axis=(1, 2))
    expected = (n_c[:, :, None] * n_c[:, None, :] * d).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 1, 1 - (n - 1) * observed / expected, np.nan)


def krippendorff_alpha(labels: Any, level: str = "nominal", *,
                       scale: Sequence[int] | None = None) -> float:
    """Krippendorff's α of crowd labels over all documents (module doc)."""
    if level not in LEVELS:
        raise ParameterError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    data = read_crowd_labels(labels, scale)
    return float(_alpha(data.counts, np.zeros(len(data.items), np.int64), 1, data.classes,
                        level)[0])


def _fleiss(counts: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    m = counts.sum(axis=1)
    size = np.bincount(group, minlength=n_groups)
    m_min = np.full(n_groups, np.inf)
    np.minimum.at(m_min, group, m)
    m_max = np.zeros(n_groups)
    np.maximum.at(m_max, group, m)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_i = (counts * (counts - 1)).sum(axis=1) / (m * (m - 1))
        p_bar = np.bincount(group, weights=p_i, minlength=n_groups) / size
        totals = np.zeros((n_groups, counts.shape[1]))
        np.add.at(totals, group, counts)
        p = totals / totals.sum(axis=1, keepdims=True)
        p_e = (p ** 2).sum(axis=1)
        kappa = (p_bar - p_e) / (1 - p_e)
    return np.where((m_min == m_max) & (m_min >= 2), kappa, np.nan)


def _percent(counts: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    m = counts.sum(axis=1)
    agree = np.bincount(group, weights=(counts * (counts - 1)).sum(axis=1),
                        minlength=n_groups)
    pairs = np.bincount(group, weights=m * (m - 1), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return agree / pairs


def _table(counts: np.ndarray, topic_codes: np.ndarray, topics: Sequence[str],
           values: np.ndarray, extra: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """Per-topic rows and an ``all`` row of percent agreement, Fleiss' κ and α."""
    n_t = len(topics)
    codes = np.concatenate([topic_codes, np.full(len(topic_codes), n_t)])
    doubled = np.concatenate([counts, counts])
    m = doubled.sum(axis=1)
    columns: dict[str, Any] = {
        "topic": [*topics, "all"],
        "documents": np.bincount(codes[m >= 2], minlength=n_t + 1),
        "ratings": np.bincount(codes, weights=m, minlength=n_t + 1).astype(np.int64),
        **(extra or {}),
        "percent": _percent(doubled, codes, n_t + 1),
        "fleiss_kappa": _fleiss(doubled, codes, n_t + 1),
    }
    for level in LEVELS:
        columns[f"alpha_{level}"] = _alpha(doubled, codes, n_t + 1, values, level)
    return declare(pd.DataFrame(columns), dict.fromkeys(
        ("percent", "fleiss_kappa", "cohen_kappa", *(f"alpha_{level}" for level in LEVELS)),
        _CHANCE))


#: Why an agreement coefficient is undefined (NaN).
_CHANCE = undefined("no document with two labels, unequal label counts (Fleiss' κ), or "
                    "one label for every document: the agreement expected by chance is "
                    "1 and κ and α are 0/0")


@LABEL_AGREEMENT
def label_agreement(labels: Any, *, scale: Sequence[int] | None = None) -> pd.DataFrame:
    """Agreement of crowd labels per topic and over all topics (row ``all``): pairable
    documents, ratings, percent agreement, Fleiss' κ, α nominal, ordinal and interval;
    ``scale``, the label values allowed, is checked on entry
    (:data:`irscale.collections.params.LABEL_AGREEMENT`)."""
    data: CrowdLabels = read_crowd_labels(labels, scale)
    topic_codes, topics = pd.factorize(data.items["topic"])
    return _table(data.counts, topic_codes, [str(t) for t in topics], data.classes)


def _qrels_frame(q: Qrels) -> pd.DataFrame:
    return pd.DataFrame({"topic": q.topic.to_pylist(), "docno": q.docno.to_pylist(),
                         "rel": np.asarray(q.rel, dtype=np.int64)})


@QRELS_AGREEMENT
def qrels_agreement(qrels_a: Any, qrels_b: Any, runs: Sequence[Any] = (), *,
                    measure: str = "map", relevance_level: int = DEFAULT_RELEVANCE_LEVEL
                    ) -> tuple[pd.DataFrame, dict[str, float] | None]:
    """Agreement of two qrels over the documents both judge (module doc).

    Returns the per-topic table (``all`` last: documents, percent, Cohen's κ, Fleiss' κ,
    α nominal/ordinal/interval) and, given two runs or more, ``{"tau": τ_b, "tau_ap":
    τ_ap}`` of the mean ``measure`` of the runs under qrels A versus qrels B (else None):
    ``measure`` and ``relevance_level`` apply with runs, refused without them
    (:data:`irscale.collections.params.QRELS_AGREEMENT`).
    """
    first_qrels, second_qrels = as_qrels(qrels_a), as_qrels(qrels_b)
    a, b = _qrels_frame(first_qrels), _qrels_frame(second_qrels)
    both = a.merge(b, on=["topic", "docno"], suffixes=("_a", "_b"))
    if both.empty:
        raise InputError("the two qrels judge no (topic, docno) pair in common")
    values = np.unique(np.concatenate([both["rel_a"], both["rel_b"]]))
    code_a = np.searchsorted(values, both["rel_a"].to_numpy())
    code_b = np.searchsorted(values, both["rel_b"].to_numpy())
    k = len(values)
    counts = np.zeros((len(both), k))
    np.add.at(counts, (np.arange(len(both)), code_a), 1)
    np.add.at(counts, (np.arange(len(both)), code_b), 1)
    topic_codes, topics = pd.factorize(both["topic"])
    n_t = len(topics)
    codes = np.concatenate([topic_codes, np.full(len(topic_codes), n_t)])
    ca, cb = np.concatenate([code_a, code_a]), np.concatenate([code_b, code_b])
    size = np.bincount(codes, minlength=n_t + 1)
    p_o = np.bincount(codes, weights=ca == cb, minlength=n_t + 1) / size
    pa_k = np.bincount(codes * k + ca, minlength=(n_t + 1) * k).reshape(-1, k) / size[:, None]
    pb_k = np.bincount(codes * k + cb, minlength=(n_t + 1) * k).reshape(-1, k) / size[:, None]
    p_e = (pa_k * pb_k).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cohen = (p_o - p_e) / (1 - p_e)
    table = _table(counts, topic_codes, [str(t) for t in topics], values,
                   {"cohen_kappa": cohen})
    table = table.drop(columns="ratings")
    if len(runs) == 0:
        return table, None
    if len(runs) < 2:
        raise ParameterError("system-ranking agreement needs at least two runs")
    from ..io.sources import as_runs
    from ..meta.rank_correlation import tau_ap
    from ..stats.kendall import kendall_tau
    from .simulate import _means

    run_list = as_runs(list(runs))
    first = _means(first_qrels, run_list, measure, relevance_level)
    second = _means(second_qrels, run_list, measure, relevance_level)
    return table, {"tau": float(kendall_tau(second, first).tau),
                   "tau_ap": float(tau_ap(second, first))}


def with_ranking(table: pd.DataFrame, ranking: Mapping[str, float] | None) -> pd.DataFrame:
    """The per-topic table of :func:`qrels_agreement` with the agreement of the system
    rankings (``{"tau": ..., "tau_ap": ...}``, or None: the table as it is) as columns,
    their values on the ``all`` row (the last), the topics' rows empty (``None``)."""
    if ranking is None:
        return table
    table = table.copy()
    for key, value in ranking.items():  # the topics' cells empty (None), not NaN
        table[key] = pd.Series([None] * (len(table) - 1) + [value], index=table.index,
                               dtype=object)
    return declare(table, dict.fromkeys(ranking, NOTHING_TO_RANK))
