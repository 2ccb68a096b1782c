"""Randomised Tukey HSD test (Carterette, 2012; Sakai 2014, §4.4, Fig. 15).

U is the topics × systems score matrix. Under H0 (no system differs from any other) the
scores of a topic are exchangeable across systems, so each sample U* permutes every row
of U independently; with ū*_j the column means of U*, the sample's statistic is the range
max_j ū*_j − min_j ū*_j. All pairs share this one null distribution: the p-value of the
pair (X, Y) counts the samples with max* − min* ≥ |ū(X) − ū(Y)| (Fig. 15). Comparing each
pair with the largest difference of the sample controls the family-wise error rate.

Fig. 15 counts ``>`` and reports count/B; irscale counts ``≥`` (up to the tie tolerance,
so that the observed arrangement counts as one of the samples) with the (c + 1)/(B + 1)
convention by default; ``strict=True, convention="proportion"`` is Fig. 15 exactly, except
that a pair with no difference (|ū(X) − ū(Y)| within the tie tolerance) has p = 1 under
either count: with ``>``, a matrix whose every topic scores all systems alike samples only
ranges of 0 and would make every one of its pairs significant. The
simultaneous 100(1 − α)% interval of a difference is diff ± r*_{1−α}, r*_{1−α} the
(1 − α) quantile of the sampled ranges (reported as ``critical_value``).

Vectorised: each chunk of samples is a (chunk × topics × systems) array whose rows are
shuffled in place (``Generator.permuted``) and averaged at once; the B ranges are sorted
and every pair's count is a binary search.
"""

from __future__ import annotations

import numpy as np

from ..core.budget import MAX_MEMORY
from ..core.params import RESAMPLES
from ..core.progress import ProgressArg, check_progress, declared_memory
from ..parallel import ExecutorArg, check_workers
from .params import RANDOMIZED_TUKEY
from .resampling import (
    Convention,
    RngArg,
    check_rng,
    chunk_sizes,
    map_chunks,
    mc_pvalue,
    seed_sequence,
)
from .results import PairwiseComparisons
from .validation import TIE_RTOL, check_not_constant, score_table

#: Memory per chunk: at most this many float64 values in the permuted chunk array.
CHUNK_VALUES = 4_000_000
#: Bytes per sample: its range, kept (``extra["ranges"]``), the chunks' copy joined and the
#: sorted copy.
RANGE_BYTES = 24


def chunk_for(topics: int, systems: int) -> int:
    """Samples per chunk for a topics × systems matrix (a function of the shape only)."""
    return int(max(1, min(4096, CHUNK_VALUES // (topics * systems))))


def _ranges_chunk(values: np.ndarray, gen: np.random.Generator, size: int) -> np.ndarray:
    """The ranges of ``size`` row-permuted copies of ``values``."""
    block = np.empty((size, *values.shape))
    block[:] = values
    gen.permuted(block, axis=2, out=block)
    means = block.mean(axis=1)
    return means.max(axis=1) - means.min(axis=1)


def sample_ranges(
    values: np.ndarray, samples: int, seeds: np.random.SeedSequence, *,
    workers: int | None = None, executor: ExecutorArg = "local",
    progress: ProgressArg = False,
) -> np.ndarray:
    """The ranges max_j ū*_j − min_j ū*_j of ``samples`` row-permuted copies of ``values``."""
    n, m = values.shape
    parts = map_chunks(_ranges_chunk, chunk_sizes(samples, chunk_for(n, m)), seeds,
                       shared=(values,), workers=workers, executor=executor,
                       progress=progress)
    return np.concatenate(parts)


def check_ranges_memory(samples: int, max_memory: str | int | None = None,
                        option: str | None = None) -> None:
    """Refuse B = ``samples`` whose ranges (kept for intervals at any level) exceed
    ``max_memory``, from the declared cost of the samples
    (:func:`irscale.core.progress.declared_memory`; ``option``: the caller's limit option,
    named in the message)."""
    declared_memory(RESAMPLES, RANGE_BYTES * float(samples),
                    f"{samples:,} {RESAMPLES.units} of randomised Tukey HSD keep their ranges "
                    "for intervals at any level", max_memory=max_memory, option=option)


@RANDOMIZED_TUKEY
def randomized_tukey_hsd(
    data: object,
    *,
    samples: int = 10_000,
    alpha: float = 0.05,
    measure: str | None = None,
    rng: RngArg = None,
    convention: Convention = "plus-one",
    strict: bool = False,
    workers: int | None = None,
    progress: ProgressArg = False,
    executor: ExecutorArg = "local",
    max_memory: str | int | None = None,
) -> PairwiseComparisons:
    """Randomised Tukey HSD over all pairs of systems (see the module docstring).

    ``rng``: an integer seed, a :class:`numpy.random.Generator` or ``None``; ``progress``: a bool or
    a callable ``progress(done, total)``; ``workers`` / ``executor``: where the samples are drawn
    (:mod:`irscale.parallel`). ``confidence_interval(level)`` of the result uses the (level)
    quantile of the same sampled ranges. ``max_memory``: the limit of the ranges kept
    (bytes or a size such as ``"2G"``; default half of the RAM). The samples, level,
    threads and convention are checked on entry (:data:`irscale.stats.params.
    RANDOMIZED_TUKEY`)."""
    rng = check_rng(rng)
    check_workers(workers, executor)  # (the rest bound: RANDOMIZED_TUKEY)
    check_progress(progress)
    check_ranges_memory(samples, max_memory, None if max_memory is None else MAX_MEMORY)
    values, _, systems = score_table(data, measure)
    check_not_constant(values)
    ranges = np.sort(sample_ranges(values, samples, seed_sequence(rng=rng),
                                   workers=workers, executor=executor,
                                   progress=progress))
    means = values.mean(axis=0)
    i, j = np.triu_indices(len(systems), k=1)
    diff = means[i] - means[j]
    observed = np.abs(diff)
    tol = TIE_RTOL * float(np.abs(values).max())
    if strict:
        count = samples - np.searchsorted(ranges, observed + tol, side="right")
        # no difference is never evidence: where every topic scores all systems alike, every
        # sampled range is 0 and `>` would count none, making every pair "significant"
        count = np.where(observed <= tol, samples, count)
    else:
        count = samples - np.searchsorted(ranges, observed - tol, side="left")
    p, se = mc_pvalue(count, samples, convention)
    critical = float(np.quantile(ranges, 1.0 - alpha))
    names = np.array(systems, dtype=object)
    return PairwiseComparisons(
        method="randomised Tukey HSD",
        alpha=alpha,
        columns={
            "a": names[i], "b": names[j], "mean_a": means[i], "mean_b": means[j],
            "diff": diff, "ci_low": diff - critical, "ci_high": diff + critical,
            "statistic": observed, "p": p, "mc_se": se, "significant": p <= alpha,
        },
        critical_value=critical,
        samples=samples,
        convention=convention + (" (strict >)" if strict else ""),
        note="one null distribution of max − min of the permuted system means",
        extra={"ranges": ranges},
    )
