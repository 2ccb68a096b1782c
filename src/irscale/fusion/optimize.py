"""The weights of the weighted sum searched on a grid for the best mean of a measure on
training qrels, as ranx's ``optimize_fusion`` (``docs/fusion.md``).

The grid holds every vector of weights that are multiples of ``step`` and sum to 1
(``1/step`` must be an integer: the compositions of ``1/step`` into one part per run,
counted exactly; ranx keeps a vector only when its floating-point sum is exactly 1.0, which
drops some, e.g. 62 of the 66 vectors of three runs with step 0.1). The vectors are tried in
lexicographic order of the weights, and the last of those with the best mean wins, as
ranx's ``>=`` comparison picks it.

The grid has C(1/step + n − 1, n − 1) vectors for n runs (1.7·10^8 for four runs and step
0.001): its memory, :data:`GRID_BYTES` per run and vector (the grid, its construction
and the means kept), is estimated before any work and refused beyond ``max_memory``
(:func:`irscale.core.progress.declared_memory`: ``--step`` declares the cost, a grid
growing as its inverse). The search shows its progress in the weight vectors ``--step``
declares, and the time of the rest, measured on its first batches, is stated when it
would take more than :data:`irscale.core.progress.NOTICE_SECONDS`
(:func:`irscale.core.progress.progress_reporter`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.budget import MAX_MEMORY
from ..core.inputs import Run
from ..core.progress import ProgressArg, declared_memory, progress_reporter
from ..errors import ParameterError
from .fused import fused_run
from .methods import combine
from .normalize import normalize
from .params import (
    FUSION_STEP,
    OPTIMIZE_FUSION,
    check_weight_count,
    fusion_norm,
    fusion_steps,
)
from .table import fusion_table
from .trained import check_training_topics

#: Fused runs evaluated in one call while the grid is searched.
BATCH = 32
#: Bytes per run and vector of the grid at its peak (bars, edges, counts, the sort order
#: and the weights as int64/float64, about five arrays of n columns) plus the mean kept.
GRID_BYTES = 48


@dataclass(frozen=True, eq=False)
class FusionWeights:
    """The best weights found (:func:`optimize_fusion`): ``weights`` (one per run, in the
    runs' order), the fused ``run`` they give, the ``measure``'s mean ``value`` on the
    training qrels, and every vector tried (``grid``: vectors × runs) with its mean
    (``values``)."""

    weights: tuple[float, ...]
    run: Run
    measure: str
    value: float
    grid: np.ndarray
    values: np.ndarray
    runs: tuple[str, ...]

    def to_frame(self):
        """Every vector tried: one column per run's weight, then the measure's mean."""
        import pandas as pd

        frame = pd.DataFrame(self.grid, columns=list(self.runs))
        frame[self.measure] = self.values
        return frame

    def __repr__(self) -> str:
        return (f"FusionWeights(weights={self.weights}, {self.measure}={self.value:.4f}, "
                f"{len(self.values)} vectors tried)")


def grid_size(n_runs: int, steps: int) -> int:
    """The number of weight vectors of the grid: C(steps + n_runs − 1, n_runs − 1)."""
    return math.comb(steps + n_runs - 1, n_runs - 1)


def check_grid(n_runs: int, steps: int, max_memory: str | int | None = None) -> int:
    """The grid's size, refused (:class:`~irscale.errors.ParameterError`, with the
    estimate) when its memory would exceed ``max_memory`` (default half of the RAM)."""
    vectors = grid_size(n_runs, steps)
    need = float(vectors) * GRID_BYTES * (n_runs + 1)
    count = f"{vectors:,}" if vectors < 10**15 else f"{float(vectors):.3g}"
    declared_memory(FUSION_STEP, need, f"--step/step {1 / steps:g} on {n_runs} runs: a grid "
                    f"of {count} weight vectors (fewer runs make fewer)",
                    max_memory=max_memory, option=MAX_MEMORY)
    return vectors


def weight_grid(n_runs: int, steps: int) -> np.ndarray:
    """Every vector of ``n_runs`` multiples of ``1/steps`` summing to 1, in lexicographic
    order (stars and bars: the places of ``n_runs − 1`` bars among ``steps + n_runs − 1``)."""
    vectors = grid_size(n_runs, steps)
    bars = np.fromiter(itertools.chain.from_iterable(
        itertools.combinations(range(steps + n_runs - 1), n_runs - 1)),
        dtype=np.int64, count=vectors * (n_runs - 1)).reshape(vectors, n_runs - 1)
    edges = np.hstack([np.full((len(bars), 1), -1), bars,
                       np.full((len(bars), 1), steps + n_runs - 1)])
    del bars
    counts = np.diff(edges, axis=1) - 1
    del edges
    order = np.lexsort(counts.T[::-1])
    return counts[order] / steps


@OPTIMIZE_FUSION
def optimize_fusion(qrels: Any, runs: Any, measure: str = "AP", *, norm: str | None = None,
                    step: float = 0.1, name: str | None = None,
                    max_memory: str | int | None = None,
                    progress: ProgressArg = False) -> FusionWeights:
    """The weights of :func:`~irscale.fusion.fuse`'s ``wsum`` that maximise the mean of
    ``measure`` over the topics of ``qrels`` (the training topics).

    Parameters
    ----------
    qrels : qrels spec
        The training judgments (anything :func:`irscale.read_qrels` reads).
    runs : run specs
        Two runs or more (as :func:`~irscale.fusion.fuse` reads them).
    measure : str, default "AP"
        One measure of irscale's catalogue with one value per topic (``AP``,
        ``nDCG@10``, ``P@10`` ...), averaged as ``irscale.evaluate`` averages it.
    norm : str, optional
        The normalisation before the weighted sum (default ``min-max``).
    step : float, default 0.1
        The grid step: weights are multiples of it summing to 1 (module documentation).
    name : str, optional
        The fused run's name (default ``wsum``).
    max_memory : size, optional
        The grid is refused, with its estimate, beyond this memory (bytes or a size such
        as ``"2G"``; default half of the RAM; module documentation).
    progress : bool or callable, default False
        The vectors tried, shown on standard error (``True``, with the time estimated
        from the first batch when the search is long) or given to ``(done, total)``.

    Returns
    -------
    FusionWeights
        The best weights, their fused run and mean, and every vector tried.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1}}
    >>> runs = {"a": {"q1": {"d1": 1.0, "d2": 2.0}}, "b": {"q1": {"d1": 2.0, "d2": 1.0}}}
    >>> best = optimize_fusion(qrels, runs, "AP", step=0.5)
    >>> best.weights, best.value
    ((0.0, 1.0), 1.0)
    """
    from ..evaluation import evaluate
    from ..io.sources import as_runs, read_qrels

    norm = fusion_norm("wsum", norm)  # (norm and step checked on entry: OPTIMIZE_FUSION)
    steps = fusion_steps(step)
    read = as_runs(runs)
    check_weight_count(None, len(read))
    check_grid(len(read), steps, max_memory)
    grid = weight_grid(len(read), steps)
    table = normalize(fusion_table(read), norm)
    qrels = read_qrels(qrels)  # once, for every batch of the grid
    check_training_topics(table.topics, qrels)
    values = np.empty(len(grid))
    label = measure
    report = progress_reporter(progress, len(grid), "the weight grid", units=FUSION_STEP)
    for begin in range(0, len(grid), BATCH):
        batch = [fused_run(table, combine(table, "wsum", weights=list(weights)), f"w{index}")
                 for index, weights in enumerate(grid[begin:begin + BATCH], begin)]
        means = evaluate(qrels, batch, measure).mean()
        if means.shape[1] != 1:
            raise ParameterError(f"measure {measure!r} gives {means.shape[1]} values "
                                 f"({', '.join(map(str, means.columns))}); name one",
                                 param="measure")
        label = str(means.columns[0])
        values[begin:begin + len(batch)] = means.iloc[:, 0].to_numpy()
        report(begin + len(batch))
    best = len(values) - 1 - int(np.argmax(values[::-1]))
    weights = tuple(float(w) for w in grid[best])
    run = fused_run(table, combine(table, "wsum", weights=list(weights)), name or "wsum")
    return FusionWeights(weights=weights, run=run, measure=label, value=float(values[best]),
                         grid=grid, values=values, runs=tuple(r.name for r in read))


