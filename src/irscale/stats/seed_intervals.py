"""The intervals of systems of several runs: a system's mean over topics and its runs, and
the difference of two systems' means (:mod:`irscale.stats.seeds`, which documents the
design).

A system's values y[t, r] (n topics × K runs, crossed, both random) have the mean ȳ; a
difference of two systems, ȳ_a − ȳ_b, is over the same topics (paired) and the runs of
each (independent). Both are an estimand θ = Σ_g c_g · ȳ_g over one or two groups (c = +1,
or +1 and −1) with the variance

    σ²_Z/n + Σ_g (σ²_{R,g}/K_g + ...)

where Z_t = Σ_g c_g · ȳ_{g,t·} is the topic's value averaged over each group's runs (its
sample variance s²_Z estimates σ²_Z/n plus the residual terms σ²_{E,g}/(n·K_g)) and the run
component of each group is estimated from its two-way mean squares, (MS_R − MS_E)/(n·K),
truncated at 0 (Brennan, *Generalizability Theory*, 2001, §2.2, the absolute error
variance of a t × r design; one group gives the system's own interval, MS_T/(nK) = s²_Z/n):

* ``"t"``: θ̂ ± t_{1−α/2, ν} · √V̂, V̂ = s²_Z/n + Σ_g max(MS_R,g − MS_E,g, 0)/(n·K_g), ν
  Satterthwaite's degrees of freedom of V̂ (*Biometrics Bulletin* 2(6), 1946) over the mean
  squares it adds (s²_Z: n − 1; MS_R,g: K_g − 1; MS_E,g: (n − 1)(K_g − 1)), the groups whose
  run component is 0 left out (ν = n − 1 when every one is); with one run each, the paired
  t interval over topics;
* ``"bootstrap"``: the percentile interval of θ over B resamples drawing the n topics (the
  same for every group) and each group's K_g runs with replacement, independently (Owen,
  "The pigeonhole bootstrap", *Annals of Applied Statistics* 1(2), 2007): sample b draws n
  topic indices then each group's run indices from one :class:`numpy.random.Generator`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..core.mean_intervals import check_interval, draw_counts, resampled_means
from ..core.params import check_alpha
from ..errors import ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from ..core.mean_intervals import MeanInterval


def seed_intervals(values: np.ndarray, method: MeanInterval = "t", *, alpha: float = 0.05,
                   samples: int = 10_000, rng: int | np.random.Generator | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The 1 − ``alpha`` interval of the mean of ``values`` (topics × runs × measures, a
    system's) over topics and runs by ``method`` (module documentation); NaN bounds with
    one topic.

    >>> y = np.array([[0.2, 0.3], [0.5, 0.4], [0.1, 0.2], [0.6, 0.8]])[:, :, None]
    >>> low, high = seed_intervals(y, "t")
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.001, 0.774)
    """
    return crossed_interval([values], [1.0], method, alpha=alpha, samples=samples, rng=rng)


def difference_intervals(a: np.ndarray, b: np.ndarray, method: MeanInterval = "t", *,
                         alpha: float = 0.05, samples: int = 10_000,
                         rng: int | np.random.Generator | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """The 1 − ``alpha`` interval of ``mean(a) − mean(b)``, two systems' values (topics ×
    runs × measures, the same topics in the same order) by ``method`` (module
    documentation).

    >>> a = np.array([[0.2, 0.3], [0.5, 0.4], [0.1, 0.2], [0.6, 0.8]])[:, :, None]
    >>> b = np.array([[0.1], [0.3], [0.2], [0.4]])[:, :, None]
    >>> low, high = difference_intervals(a, b, "t")
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (-0.111, 0.386)
    """
    return crossed_interval([a, b], [1.0, -1.0], method, alpha=alpha, samples=samples,
                            rng=rng)


def crossed_interval(groups: Sequence[np.ndarray], signs: Sequence[float],
                     method: MeanInterval = "t", *, alpha: float = 0.05,
                     samples: int = 10_000, rng: int | np.random.Generator | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The interval of Σ_g ``signs[g]`` · mean(``groups[g]``) (module documentation)."""
    check_interval(method)
    alpha = check_alpha(alpha)
    groups = [np.asarray(g, dtype=np.float64) for g in groups]
    n = groups[0].shape[0]
    if any(g.ndim != 3 or g.shape[0] != n or g.shape[1] < 1 for g in groups):
        raise ParameterError("each system's values are topics × runs × measures, the same "
                             "topics for every system")
    topic_values = sum(c * g.mean(axis=1) for c, g in zip(signs, groups, strict=True))
    estimate = np.asarray(topic_values).mean(axis=0)
    if n < 2:
        nan = np.full(estimate.shape, np.nan)
        return nan, nan.copy()
    if method == "t":
        return _t_interval(np.asarray(topic_values), groups, alpha)
    return _bootstrap_interval(groups, signs, alpha, samples, rng)


def _t_interval(topic_values: np.ndarray, groups: Sequence[np.ndarray], alpha: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The t interval: s²_Z/n plus each group's run component, Satterthwaite's df."""
    from scipy import stats

    n = topic_values.shape[0]
    variance = topic_values.var(axis=0, ddof=1) / n
    spread = variance ** 2 / (n - 1)  # Satterthwaite's denominator, term by term
    for values in groups:
        k = values.shape[1]
        if k < 2:
            continue
        grand = values.mean(axis=(0, 1))
        topic, run = values.mean(axis=1), values.mean(axis=0)
        ms_r = n * ((run - grand) ** 2).sum(axis=0) / (k - 1)
        residual = values - topic[:, None, :] - run[None, :, :] + grand
        ms_e = (residual ** 2).sum(axis=(0, 1)) / ((n - 1) * (k - 1))
        seeds = ms_r > ms_e
        variance = variance + np.where(seeds, ms_r - ms_e, 0.0) / (n * k)
        spread = spread + np.where(seeds, (ms_r / (n * k)) ** 2 / (k - 1)
                                   + (ms_e / (n * k)) ** 2 / ((n - 1) * (k - 1)), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(spread > 0, variance ** 2 / spread, n - 1.0)
    half = stats.t.ppf(1 - alpha / 2, df) * np.sqrt(variance)
    estimate = topic_values.mean(axis=0)
    return estimate - half, estimate + half


def _bootstrap_interval(groups: Sequence[np.ndarray], signs: Sequence[float], alpha: float,
                        samples: object, rng: int | np.random.Generator | None
                        ) -> tuple[np.ndarray, np.ndarray]:
    """The pigeonhole bootstrap's percentile interval: topics shared, runs per group."""
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    n = groups[0].shape[0]

    def block(count: int) -> np.ndarray:
        topics = draw_counts(generator, count, n)
        sums = np.zeros((count, groups[0].shape[2]))
        for sign, values in zip(signs, groups, strict=True):
            k = values.shape[1]
            runs = draw_counts(generator, count, k)
            sums += sign * np.einsum("bt,trm,br->bm", topics, values, runs) / (n * k)
        return sums

    means = resampled_means(samples, groups[0].shape[2], block)
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


__all__ = ["crossed_interval", "difference_intervals", "seed_intervals"]
