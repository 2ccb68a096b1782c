"""Enumeration of ``REL^N`` in chunks, as degree matrices and as judged rankings.

Run number ``i`` (``0 ≤ i < levels^N``) is the base-``levels`` numeral of ``i`` read from rank 1
(most significant digit) to rank ``N``: enumeration order is the RBTO order of Ferrante et al.
(2019, eq. 5–6), ``RBTO(r̂) = i``. The measure kernels score synthetic runs exactly as real ones:
:func:`synthetic_rankings` wraps a ``(runs × N)`` matrix of degrees into a
:class:`~irscale.core.judged.JudgedRankings` (offsets ``0, N, 2N, ...``; every run has the given
recall base), so a measure is written once, as a kernel.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..core.judged import JudgedRankings
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from .space import Context, Space

#: Runs per chunk of the streaming enumeration (memory: about 64 bytes × N per run).
CHUNK_RUNS = 1 << 18


def runs_from_index(index: np.ndarray, N: int, levels: int) -> np.ndarray:
    """Degree matrix (``len(index) × N``, int8) of runs numbered ``index`` (see above)."""
    index = np.asarray(index, dtype=np.int64)
    if levels == 2:
        shifts = np.arange(N - 1, -1, -1, dtype=np.int64)
        return ((index[:, None] >> shifts) & 1).astype(np.int8)
    powers = levels ** np.arange(N - 1, -1, -1, dtype=np.int64)
    return ((index[:, None] // powers) % levels).astype(np.int8)


def run_index(degrees: np.ndarray, levels: int) -> np.ndarray:
    """Inverse of :func:`runs_from_index` (int64; needs ``levels^N < 2^63``)."""
    degrees = np.asarray(degrees, dtype=np.int64)
    N = degrees.shape[1]
    powers = levels ** np.arange(N - 1, -1, -1, dtype=np.int64)
    return degrees @ powers


def iter_runs(space: Space, chunk: int = CHUNK_RUNS, start: int = 0,
              stop: int | None = None) -> Iterator[np.ndarray]:
    """Every run of ``space`` (those numbered ``start`` to ``stop`` − 1 when given) as
    degree matrices of at most ``chunk`` rows, in RBTO order (a feasible space drops the
    rows it does not allow)."""
    total = space.levels**space.N
    if total >= 1 << 62:
        raise OverflowError(f"cannot enumerate {space.label()}: {total} runs")
    end = total if stop is None else min(stop, total)
    for first in range(start, end, chunk):
        degrees = runs_from_index(np.arange(first, min(first + chunk, end)), space.N,
                                  space.levels)
        if space.bounds is not None:
            degrees = degrees[space.allows(degrees)]
        yield degrees


def synthetic_rankings(degrees: np.ndarray, context: Context | np.ndarray,
                       relevance_level: int = DEFAULT_RELEVANCE_LEVEL, *,
                       topics: tuple[str, ...] = ("synthetic",),
                       runs: tuple[str, ...] = ("synthetic",),
                       ranking_topic: np.ndarray | None = None,
                       ranking_run: np.ndarray | None = None) -> JudgedRankings:
    """A :class:`JudgedRankings` batch holding each row of ``degrees`` as one ranking.

    ``context``: one topic context for every row, or a ``(rows × levels)`` array of recall
    bases (``rel_levels``), one per row; labels default to one synthetic topic and run.

    Every document of a run in REL^N is judged (Ferrante et al. 2021, §3), so a topic judges at
    least the run's non-relevant documents: the degree-0 count of a row is raised to the number of
    zeros in it where the context gives fewer (measures of judged non-relevant documents,
    such as bpref, would otherwise divide by zero).
    """
    degrees = np.asarray(degrees)
    n, N = degrees.shape
    if isinstance(context, Context):
        rel_levels = np.broadcast_to(np.asarray(context.recall_base, dtype=np.int64),
                                     (n, len(context.recall_base))).copy()
    else:
        rel_levels = np.array(context, dtype=np.int64)
    rel_levels[:, 0] = np.maximum(rel_levels[:, 0], (degrees == 0).sum(axis=1))
    zeros = np.zeros(n, dtype=np.int64)
    return JudgedRankings(
        rel=degrees.astype(np.int64).ravel(),
        offsets=np.arange(n + 1, dtype=np.int64) * N,
        rel_levels=rel_levels,
        ranking_topic=zeros if ranking_topic is None else ranking_topic,
        ranking_run=zeros if ranking_run is None else ranking_run,
        topics=topics,
        runs=runs,
        relevance_level=relevance_level,
    )


def format_run(row: np.ndarray) -> str:
    """``(1,0,1,1)``: a run as Ferrante et al. (2021) write it."""
    return "(" + ",".join(str(int(v)) for v in row) + ")"
