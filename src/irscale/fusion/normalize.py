"""Score normalisations, per run and topic, as ranx 0.3.21 defines them.

For the scores ``s`` of one run's ``n`` documents for one topic (``ε = 1e-9`` keeps a
denominator from vanishing, as ranx does):

* ``min-max``: ``(s − min s) / max(max s − min s, ε)`` (Lee 1997);
* ``max``: ``s / max(max s, ε)``;
* ``sum``: ``(s − min s) / max(Σ s − n · min s, ε)`` (Montague and Aslam 2001);
* ``zmuv``: ``(s − mean s) / max(σ, ε)``, σ the population standard deviation
  (Montague and Aslam 2001);
* ``rank``: ``1 − (i − 1) / n`` for the document at rank ``i``;
* ``borda``: with ``m`` the documents retrieved by any run for the topic, ``1 − (i − 1)/m``
  for the document at rank ``i``, and ``1/2 − (n − 1)/(2m)`` for each of the other ``m − n``
  (the mean of the points left: Aslam and Montague 2001): afterwards every run scores
  every candidate document;
* ``none``: the scores as they are.

The score normalisations (``min-max``, ``max``, ``sum``, ``zmuv``) are computed on the
scores of a run and topic divided by a power of two near their largest magnitude (half the
one just above it: no larger than 2^1023; ``ε`` with them): dividing by a power of two is
exact, so the values are those of the formulas bit for bit, and no sum, difference or
square of scores near the largest double (1e308: ``zmuv``'s squares overflowed) leaves the
range of doubles.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .table import FusionTable

#: The smallest denominator of a normalisation (ranx's).
EPSILON = 1e-9


def normalize(table: FusionTable, norm: str) -> FusionTable:
    """``table`` with its scores normalised by ``norm`` (module documentation)."""
    if norm == "none":
        return table
    present, rank = table.present, table.rank
    starts = table.topic_starts[:-1]
    size = table.size.astype(np.float64)  # topics × runs
    per_pair = table.pair_topic
    if norm == "rank":
        with np.errstate(divide="ignore", invalid="ignore"):
            values = 1.0 - (rank - 1) / size[per_pair]
        return replace(table, score=np.where(present, values, 0.0))
    if norm == "borda":
        m = table.candidates[:, None].astype(np.float64)
        ranked = 1.0 - (rank - 1) / m
        unranked = 0.5 - (size[per_pair] - 1) / (2 * m)
        every = np.ones_like(rank)  # every candidate is scored by every run now
        return replace(table, score=np.where(present, ranked, unranked),
                       rank=np.where(present, rank, every))
    with np.errstate(invalid="ignore", divide="ignore"):
        values = _scaled(table, norm, starts, size)
    return replace(table, score=np.where(present, values, 0.0))


def _scaled(table: FusionTable, norm: str, starts: np.ndarray, size: np.ndarray
            ) -> np.ndarray:
    """The scores of ``table`` by the score normalisation ``norm``, where present."""
    present, per_pair = table.present, table.pair_topic
    score, epsilon = _unit_scale(table.score, present, starts, per_pair)
    low = np.minimum.reduceat(np.where(present, score, np.inf), starts)[per_pair]
    if norm == "min-max":
        high = np.maximum.reduceat(np.where(present, score, -np.inf), starts)[per_pair]
        values = (score - low) / np.maximum(high - low, epsilon)
    elif norm == "max":
        high = np.maximum.reduceat(np.where(present, score, -np.inf), starts)[per_pair]
        values = score / np.maximum(high, epsilon)
    elif norm == "sum":
        total = np.add.reduceat(np.where(present, score, 0.0), starts)[per_pair]
        values = (score - low) / np.maximum(total - low * size[per_pair], epsilon)
    elif norm == "zmuv":
        count = np.maximum(size, 1.0)
        mean = (np.add.reduceat(np.where(present, score, 0.0), starts) / count)[per_pair]
        deviation = np.where(present, score - mean, 0.0)
        sigma = np.sqrt(np.add.reduceat(deviation * deviation, starts) / count)[per_pair]
        values = deviation / np.maximum(sigma, epsilon)
    else:  # pragma: no cover - the names are checked at the edge (fusion.params.FUSION_NORM)
        raise ValueError(norm)
    return values


def _unit_scale(score: np.ndarray, present: np.ndarray, starts: np.ndarray,
                per_pair: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``score`` and :data:`EPSILON` divided, for each run and topic, by the power of two
    2^(e−1), 2^e just above the largest magnitude of its scores (module documentation:
    exact, so the normalised values are unchanged; the scores then below 2 in magnitude).
    A scale so small that ε over it is beyond the doubles makes that ε infinite, as it is
    meant: such scores are
    all within ε of each other."""
    magnitude = np.maximum.reduceat(np.where(present, np.abs(score), 0.0), starts)[per_pair]
    scale = np.ldexp(1.0, np.frexp(magnitude)[1] - 1)
    with np.errstate(over="ignore"):  # ε / 2^e beyond the doubles: infinite, as meant
        return score / scale, EPSILON / scale
