"""The confidence interval of a mean over topics, declared once for every table.

A run's summary value of a measure is the mean of its per-topic values x_1..x_n. Its
1 − α interval, by one of :data:`MEAN_INTERVALS`:

* ``"t"``: x̄ ± t_{1−α/2, n−1} · s/√n (s the sample standard deviation, divisor n − 1), the
  Student t interval, exact under normal per-topic values;
* ``"bootstrap"``: the percentile interval of the mean over B samples of the n topics drawn
  with replacement (Efron and Tibshirani, *An Introduction to the Bootstrap*, 1993, §13.3):
  the α/2 and 1 − α/2 quantiles of the B resampled means (numpy's linear interpolation
  between order statistics). The draws come from one :class:`numpy.random.Generator`
  (PCG64) seeded by ``rng``: sample b draws n topic indices, samples one after another;
  every column of the table uses the same draws (the runs are paired by topic). A resampled
  mean is computed as (c_b · x)/n, c_b the counts of the topics in sample b.

Used by :meth:`irscale.measures.results.Evaluation.intervals` (``irscale eval --ci``), by
the tables of :func:`irscale.stats.summary_table` and by the report's summary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np

from ..errors import ParameterError
from .params import MEAN_INTERVALS, MEAN_SAMPLES, check_alpha
from .progress import counted_work

MeanInterval = Literal["t", "bootstrap"]
#: Resampled means computed at once (memory: this many × (topics + the table's columns)
#: floats).
BLOCK = 2_000


#: How tables and captions name each method ("the 95% t interval").
INTERVAL_NAMES = {"t": "t", "bootstrap": "bootstrap percentile"}


def check_interval(method: object) -> str:
    """``method`` when it is one of :data:`MEAN_INTERVALS`."""
    if method not in MEAN_INTERVALS:
        raise ParameterError(f"the interval of a mean must be one of {list(MEAN_INTERVALS)}, "
                             f"got {method!r}")
    return str(method)


def mean_intervals(values: np.ndarray, method: MeanInterval = "t", *, alpha: float = 0.05,
                   samples: int = 10_000, rng: int | np.random.Generator | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The 1 − ``alpha`` interval of the mean of every column of ``values`` (topics ×
    columns) by ``method`` (module documentation); NaN bounds for a column of one topic.

    >>> low, high = mean_intervals(np.array([[0.1], [0.3], [0.2], [0.4]]), "t")
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.0446, 0.4554)
    """
    check_interval(method)
    alpha = check_alpha(alpha)
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        values = values[:, None]
    n = values.shape[0]
    mean = values.mean(axis=0)
    if n < 2:
        nan = np.full(mean.shape, np.nan)
        return nan, nan.copy()
    if method == "t":
        from scipy import stats

        half = stats.t.ppf(1 - alpha / 2, n - 1) * values.std(axis=0, ddof=1) / np.sqrt(n)
        return mean - half, mean + half
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    means = resampled_means(samples, values.shape[1],
                            lambda count: draw_counts(generator, count, n) @ values / n)
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


def resampled_means(samples: object, columns: int,
                    block: Callable[[int], np.ndarray]) -> np.ndarray:
    """The ``samples × columns`` resampled means of a percentile bootstrap, ``block(count)``
    giving the next ``count`` of them (:data:`BLOCK` at a time), once ``samples`` (a
    positive integer) is checked and the memory the means and their quantiles take (two
    ``samples × columns`` float64 arrays) is within the limit, from the declared cost of the
    samples (:data:`~irscale.core.params.MEAN_SAMPLES`,
    :func:`~irscale.core.progress.counted_work`: refused up front with the estimate); the
    samples are counted by the same mechanism, the time of the rest, measured on the first
    blocks, stated when it is more than a few seconds."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ParameterError(f"samples must be a positive integer, got {samples!r}",
                             param="samples")
    total = int(samples)
    try:
        report = counted_work(MEAN_SAMPLES, total,
                              f"the bootstrap means of {columns:,} column(s)", True,
                              need=2.0 * total * columns * 8)
    except ParameterError as error:
        raise ParameterError(str(error), param="samples") from None
    means = np.empty((total, columns))
    for start in range(0, total, BLOCK):
        count = min(BLOCK, total - start)
        means[start:start + count] = block(count)
        report(start + count)
    return means


def draw_counts(generator: np.random.Generator, count: int, n: int) -> np.ndarray:
    """``count`` bootstrap samples of ``n`` indices drawn with replacement from ``range(n)``
    (``generator.integers(0, n, (count, n))``), as counts: ``count × n`` floats, how many
    times each index was drawn in each sample."""
    draws = generator.integers(0, n, size=(count, n))
    offsets = (np.arange(count)[:, None] * n + draws).ravel()
    return np.bincount(offsets, minlength=count * n).reshape(count, n).astype(np.float64)
