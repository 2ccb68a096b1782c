"""The fusion methods: a fused score for every (topic, document) retrieved by any run.

With ``s_r(d)`` the (normalised) score of document ``d`` in run ``r``, ``R(d)`` the runs
that retrieve it, ``|R(d)|`` their number, ``rank_r(d)`` its rank in run ``r`` (1-based)
and ``n`` the number of runs (sums run over ``R(d)``):

* CombSUM ``Σ s_r(d)``; CombMNZ ``|R(d)| · Σ s_r(d)``; CombANZ ``Σ s_r(d) / |R(d)|``;
  CombMED the median of the ``s_r(d)``; CombMAX ``max s_r(d)`` and CombMIN ``min s_r(d)``
  (a run that misses ``d`` counts as −10⁹ for CombMAX, 10⁹ for CombMIN, as ranx does):
  Fox and Shaw, "Combination of multiple searches", TREC-2 (1994);
* wsum ``Σ w_r · s_r(d)``;
* RRF ``Σ 1 / (k + rank_r(d))``: Cormack, Clarke and Büttcher, SIGIR 2009;
* ISR ``|R(d)| · Σ 1 / rank_r(d)²`` and log-ISR ``ln |R(d)| · Σ 1 / rank_r(d)²`` (0 for
  a document of one run): Mourão, Martins and Magalhães, CMIG 39 (2015; online 2014);
* BordaFuse ``Σ_r b_r(d)`` over every run, ``b_r(d) = m − rank_r(d) + 1`` for a document
  run ``r`` retrieves and ``(m − n_r + 1) / 2`` for each of the ``m − n_r`` it does not
  (``m`` documents retrieved by any run for the topic, ``n_r`` by run ``r``): Aslam and
  Montague, "Models for metasearch", SIGIR 2001;
* CondorcetFuse and weighted CondorcetFuse: :mod:`irscale.fusion.condorcet`;
* CombGMNZ ``|R(d)|^γ · Σ s_r(d)``: Lee, "Analyses of multiple evidence combination",
  SIGIR 1997;
* Mixed ``√|R(d)| · Σ w_r · s_r(d)``: Wu and Crestani, "Data fusion with estimated
  weights", CIKM 2002;
* LogN-ISR ``ln(|R(d)| + σ) · Σ 1 / rank_r(d)²`` (σ = 0.01 by default, as ranx's): Mourão,
  Martins and Magalhães (as ISR);
* weighted BordaFuse ``Σ_r w_r · b_r(d)`` over every run (``b_r`` BordaFuse's points):
  Aslam and Montague 2001;
* RBC ``Σ (1 − φ) · φ^(rank_r(d) − 1)``: Bailey, Moffat, Scholer and Thomas, "Retrieval
  consistency in the presence of query variations", SIGIR 2017;
* the supervised methods (ProbFuse, SegFuse, SlideFuse, PosFuse, MAPFuse, BayesFuse):
  :mod:`irscale.fusion.trained`.

Sums add the runs in the order given (as ranx does), so the fused scores are ranx's to
the last bit where the inputs are. A fused score beyond the largest double (weights or
unnormalised scores near 10³⁰⁸) is refused naming the weights or the pair, never written
``inf``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import InputError, ParameterError
from .params import FUSION_WEIGHTED
from .table import FusionTable
from .trained import Model, trained_scores

#: The score of a run that misses a document for CombMAX (its negative for CombMIN), ranx's.
ABSENT = 1e9


def _sum(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """``Σ_r values[:, r]`` over the present runs, added run after run."""
    total = np.zeros(len(values))
    for column in range(values.shape[1]):
        total = total + np.where(present[:, column], values[:, column], 0.0)
    return total


def combine(table: FusionTable, method: str, *, k: float = 60.0,
            weights: Sequence[float] | None = None, params: Mapping[str, Any] | None = None,
            model: Model | None = None) -> np.ndarray:
    """The fused score of every pair of ``table`` by ``method`` (module documentation);
    ``table`` holds the normalised scores for the score methods; ``params``: the method's
    own (:data:`irscale.fusion.params.FUSION_METHOD_PARAMS`), checked; ``model``: what a
    supervised method learnt (:func:`irscale.fusion.trained.train`); a fused score that
    overflows is refused (:func:`_check_finite`)."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow: refused below
        fused = _combine(table, method, k=k, weights=weights, params=params, model=model)
    return _check_finite(table, fused, method, weights)


def _check_finite(table: FusionTable, fused: np.ndarray, method: str,
                  weights: Sequence[float] | None) -> np.ndarray:
    """``fused`` when every score is finite; else the error naming what made one overflow:
    the weights (a :class:`ParameterError`), or the scores of the runs (an
    :class:`InputError` naming the topic and document)."""
    bad = ~np.isfinite(fused)
    if not bad.any():
        return fused
    if weights is not None and method in FUSION_WEIGHTED:
        largest = max(abs(float(w)) for w in weights)
        raise ParameterError(f"weights: with weights up to {largest:.6g} the fused scores of "
                             f"{method} overflow the largest double; give smaller weights "
                             "(their common scale does not change the ranking)",
                             param="weights")
    pair = int(np.flatnonzero(bad)[0])
    raise InputError(f"the fused score of document {table.docnos[int(table.pair_doc[pair])]!r} "
                     f"of topic {table.topics[int(table.pair_topic[pair])]!r} by {method} "
                     "overflows the largest double: the runs' scores are too large (normalise "
                     "them: --norm, norm=)")


def _combine(table: FusionTable, method: str, *, k: float, weights: Sequence[float] | None,
             params: Mapping[str, Any] | None, model: Model | None) -> np.ndarray:
    """:func:`combine`'s scores, unchecked: a trained ``model``'s, else those of the
    methods that combine the runs' scores (:func:`_by_scores`), else of those that
    combine their ranks (:func:`_by_ranks`)."""
    if model is not None:
        return _sum(*trained_scores(table, model))
    params = params or {}
    w = np.asarray(weights if weights is not None else [1.0] * table.score.shape[1],
                   dtype=np.float64)
    count = table.present.sum(axis=1)
    scores = _by_scores(table, method, w, params, count)
    return scores if scores is not None else _by_ranks(table, method, k, w, params, count)


def _by_scores(table: FusionTable, method: str, w: np.ndarray, params: Mapping[str, Any],
               count: np.ndarray) -> np.ndarray | None:
    """The fused scores of the methods that combine the runs' scores (Fox and Shaw's
    CombSUM family, weighted sums), ``None`` for another method (``count``: the runs
    that retrieve each document, ``w``: the runs' weights)."""
    present, score = table.present, table.score
    if method == "combsum":
        return _sum(score, present)
    if method == "combmnz":
        return _sum(score, present) * count
    if method == "combanz":
        return _sum(score, present) / count
    if method == "combmax":
        return np.where(present, score, -ABSENT).max(axis=1)
    if method == "combmin":
        return np.where(present, score, ABSENT).min(axis=1)
    if method == "combmed":
        return np.nanmedian(np.where(present, score, np.nan), axis=1)
    if method == "wsum":
        return _sum(score * w, present)
    if method == "combgmnz":
        return _sum(score, present) * np.power(count.astype(np.float64), params["gamma"])
    if method == "mixed":
        return _sum(score * w, present) * np.sqrt(count)
    return None


def _by_ranks(table: FusionTable, method: str, k: float, w: np.ndarray,
              params: Mapping[str, Any], count: np.ndarray) -> np.ndarray:
    """The fused scores of the methods that combine the runs' ranks (reciprocal rank
    fusion, the inverse square ranks, rank-biased centroids, Borda and Condorcet)."""
    present = table.present
    rank = table.rank.astype(np.float64)
    if method == "rrf":  # absent documents (rank 0) take no term: k = 0 divides by 0
        return _sum(np.divide(1.0, k + rank, out=np.zeros_like(rank), where=present), present)
    if method in ("isr", "log-isr"):
        with np.errstate(divide="ignore"):
            inverse = 1.0 / (rank * rank)
        factor = count if method == "isr" else np.log(count)
        return _sum(inverse, present) * factor
    if method == "logn-isr":
        return _sum(1.0 / np.where(present, rank * rank, 1.0), present) * \
            np.log(count + params["sigma"])
    if method == "rbc":
        phi = params["phi"]
        return _sum((1 - phi) * np.power(phi, rank - 1), present)
    if method in ("bordafuse", "w-bordafuse"):
        m = table.candidates[:, None].astype(np.float64)
        size = table.size[table.pair_topic].astype(np.float64)
        points = np.where(present, m - rank + 1, (m - size + 1) / 2)
        return _sum(points if method == "bordafuse" else points * w, np.ones_like(present))
    if method in ("condorcet", "w-condorcet"):
        from .condorcet import condorcet

        return condorcet(table, None if method == "condorcet" else w)
    raise ValueError(method)  # pragma: no cover - checked at the edge (FUSION_METHOD)
