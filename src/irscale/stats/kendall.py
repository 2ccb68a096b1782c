"""Kendall's τ between system rankings, with ties as Ferrante et al. (2021, §3.3) write it.

For two score vectors x and y over the same systems, every pair of systems is

* concordant (P) — ordered the same way by x and y;
* discordant (Q) — ordered oppositely;
* tied in x only (T), tied in y only (U), or tied in both (not counted);

and ``τ = (P − Q) / sqrt((P + Q + T)(P + Q + U))`` (Kendall's τ_b; NaN when a vector is
constant). Two scores are tied when ``|a − b| ≤ atol + rtol · max(|a|, |b|)``: means of a
measure over topics are sums of floats, and equal sums in another order may differ in the
last bits (``rtol = 1e-12`` by default; per-topic values ``1e-14``). Ferrante et al. (2021) round
the averages to 8 decimals instead (``decimals=8``), which can tie distinct means: at N = 30,
RBP_p05 means differ by multiples of 2^-30/T.

The *overall* correlation between two measures ranks the systems by their mean over
topics; the *topic-by-topic* correlation compares the two rankings of each topic
(Ferrante et al. 2021, §3.3 and §7.1). The scale diagnostics
(:mod:`irscale.scales.diagnostics`) and the meta-evaluation (:mod:`irscale.meta`) both use
this module, which is why it lives in :mod:`irscale.stats`, below both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..core.numbers import declare, undefined
from ..core.scorematrix import ScoreMatrix
from ..core.segments import ranges
from ..errors import AlignmentError, InputError, ParameterError
from .protocol import Untested

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .tables import Format

#: Default relative tie tolerance of :func:`kendall_tau` and :func:`overall_tau` (means
#: over topics: sums of floats in different orders differ by up to ~100 ulps).
RTOL = 1e-12
#: Why a rank correlation is undefined (NaN; :mod:`irscale.core.numbers`): a ranking that
#: ties every item has no order to compare (τ_b and ρ are 0/0; τ_ap and RBO, irscale's
#: convention, are undefined likewise).
NOTHING_TO_RANK = undefined("a ranking ties every item: it ranks nothing")
#: Default relative tie tolerance of :func:`topic_taus` (values of one kernel: equal values
#: agree to a few ulps — AP's sums of fractions —, while RBP with p = 0.3 at N = 30 separates
#: runs by 1e-14 of its value).
RTOL_TOPIC = 1e-14
ATOL = 0.0


@dataclass(frozen=True)
class KendallTau(Untested):
    """τ and its pair counts (see the module documentation).

    The result protocol of :mod:`irscale.stats.protocol`: ``statistic`` (= ``tau``),
    ``pvalue`` (``None``: τ here measures the agreement of two rankings, it is not a
    test; ``scipy.stats.kendalltau`` tests independence), ``to_frame()``, ``format(fmt)``.
    """

    tau: float
    concordant: int
    discordant: int
    ties_x: int
    ties_y: int
    ties_both: int
    n: int
    statistic_field: ClassVar[str] = "tau"

    def to_frame(self) -> pd.DataFrame:
        """One row: ``statistic`` (τ) and the pair counts."""
        import pandas as pd

        return declare(pd.DataFrame([{"method": "kendall", "statistic": self.tau,
                                      "concordant": self.concordant,
                                      "discordant": self.discordant,
                                      "ties_x": self.ties_x, "ties_y": self.ties_y,
                                      "ties_both": self.ties_both, "n": self.n}]),
                       {"statistic": NOTHING_TO_RANK})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """τ and its counts as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json``
        table (the tables of every irscale result)."""
        from .protocol import format_table

        return format_table(self.to_frame(), fmt, digits=digits)


def _signs(values: np.ndarray, i: np.ndarray, j: np.ndarray, rtol: float, atol: float
           ) -> np.ndarray:
    a, b = values[i], values[j]
    diff = a - b
    tied = np.abs(diff) <= atol + rtol * np.maximum(np.abs(a), np.abs(b))
    return np.where(tied, 0, np.sign(diff)).astype(np.int8)


def score_vector(values: object, name: str) -> np.ndarray:
    """``values`` as a float64 array of finite numbers; :class:`~irscale.errors.InputError`
    naming the vector ``name`` (and the position of the first bad score) otherwise."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"the scores {name} must be numbers") from None
    bad = np.flatnonzero(~np.isfinite(array.ravel()))
    if len(bad):
        where = np.unravel_index(int(bad[0]), array.shape) if array.ndim else ()
        index = ", ".join(str(int(i)) for i in where)
        raise InputError(f"missing or non-finite score in a ranking: {name}[{index}] = "
                         f"{float(array.ravel()[bad[0]])!r} ({len(bad)} such score"
                         f"{'s' if len(bad) > 1 else ''})")
    return array


def kendall_tau(x, y, *, rtol: float = RTOL, atol: float = ATOL,
                decimals: int | None = None) -> KendallTau:
    """Kendall's τ_b of two score vectors (module documentation), in O(n²) pair blocks.
    Missing or non-finite scores are an :class:`~irscale.errors.InputError`."""
    x = score_vector(x, "x")
    y = score_vector(y, "y")
    if x.shape != y.shape or x.ndim != 1:
        raise ParameterError(f"x and y: τ needs two vectors of the same length, got {x.shape}, "
                             f"{y.shape}")
    if decimals is not None:
        x, y = np.round(x, decimals), np.round(y, decimals)
        rtol = atol = 0.0
    n = len(x)
    counts = np.zeros(5, dtype=np.int64)  # P, Q, T, U, both
    block = max(1, (1 << 22) // max(n, 1))
    for start in range(0, n, block):
        rows = np.arange(start, min(start + block, n))
        lengths = n - 1 - rows
        i = np.repeat(rows, lengths)
        j = ranges(rows + 1, lengths)
        sx, sy = _signs(x, i, j, rtol, atol), _signs(y, i, j, rtol, atol)
        prod = sx.astype(np.int16) * sy
        counts += [int((prod > 0).sum()), int((prod < 0).sum()),
                   int(((sx == 0) & (sy != 0)).sum()), int(((sx != 0) & (sy == 0)).sum()),
                   int(((sx == 0) & (sy == 0)).sum())]
    p, q, t, u, both = (int(v) for v in counts)
    denominator = math.sqrt((p + q + t) * (p + q + u))
    tau = (p - q) / denominator if denominator > 0 else float("nan")
    return KendallTau(tau, p, q, t, u, both, n)


def _aligned(a: ScoreMatrix, b: ScoreMatrix, measure_a: str | None, measure_b: str | None
             ) -> tuple[np.ndarray, np.ndarray]:
    left, right = a.measure(measure_a), b.measure(measure_b)
    if set(left.systems) != set(right.systems):
        raise AlignmentError("the two score matrices have different systems")
    left, right = left.align(right)
    right = right.subset(systems=left.systems)
    return left.array(), right.array()


def overall_tau(a: ScoreMatrix, b: ScoreMatrix | None = None, measure_a: str | None = None,
                measure_b: str | None = None, **options) -> KendallTau:
    """τ between the systems' mean scores (over common topics) of two measures
    (``b`` defaults to ``a``: two measures of one matrix)."""
    x, y = _aligned(a, a if b is None else b, measure_a, measure_b)
    return kendall_tau(x.mean(axis=0), y.mean(axis=0), **options)


def topic_taus(a: ScoreMatrix, b: ScoreMatrix | None = None, measure_a: str | None = None,
               measure_b: str | None = None, **options) -> np.ndarray:
    """τ between the two measures' rankings of the systems, topic by topic (NaN for a
    topic on which every system ties under a measure; default ``rtol`` 1e-14)."""
    options.setdefault("rtol", RTOL_TOPIC)
    x, y = _aligned(a, a if b is None else b, measure_a, measure_b)
    return np.array([kendall_tau(x[t], y[t], **options).tau for t in range(len(x))])
