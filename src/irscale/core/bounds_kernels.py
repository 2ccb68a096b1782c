"""The native engine's kernels of the bounds under unjudged documents
(``rust/src/bounds/``), for :mod:`irscale.collections.bounds` and
:mod:`irscale.collections.bounds_chains`: a measure's chain along both families of
completions of every ranking of a batch (its values, or the slots where it reaches an
extreme and the extremes), and the completed rankings the search evaluates. The batch's
arrays are read in place (no copy where they are already contiguous int64).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _engine
from .judged import JudgedRankings

#: Per output: the prefix family's array and the suffix family's (values, or per ranking
#: the lowest and the highest value).
Pairs = list[tuple[np.ndarray, np.ndarray]]


def _int64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _batch(jr: JudgedRankings, below: np.ndarray
           ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int], np.ndarray]:
    return ((_int64(jr.rel), _int64(jr.offsets), _int64(jr.rel_levels),
             _int64(jr.column_degrees), int(jr.relevance_level)), _int64(below))


def chain_values(family: str, ints: Sequence[int], floats: Sequence[float],
                 jr: JudgedRankings, below: np.ndarray, grades: tuple[int, int], level: int
                 ) -> Pairs | None:
    """The chain of ``family`` (cut-offs ``ints``, levels ``floats``) at relevance
    ``level`` on every completion of ``jr``'s rankings (``below``: each one's unjudged
    documents below the batch; ``grades``: the lowest and the highest given): per output,
    its value at every slot of the prefix and of the suffix family (each ranking's ``u + 1``
    end to end); None where the completions do not change it."""
    arrays, below = _batch(jr, below)
    return _engine.bounds_chain(family, [int(i) for i in ints], [float(f) for f in floats],
                                arrays, below, (int(grades[0]), int(grades[1])), int(level))


def chain_marks(family: str, ints: Sequence[int], floats: Sequence[float],
                jr: JudgedRankings, below: np.ndarray, grades: tuple[int, int], level: int,
                marked: str) -> tuple[np.ndarray, np.ndarray, Pairs] | None:
    """Where the chain of :func:`chain_values` reaches an extreme: per slot of the prefix
    and of the suffix family, whether it can hold one (``marked``: ``near`` each extreme,
    the ``first`` at each, or ``none``: empty arrays), and per output, per ranking, its
    lowest and highest value; None where the completions do not change it."""
    arrays, below = _batch(jr, below)
    return _engine.bounds_marks(family, [int(i) for i in ints], [float(f) for f in floats],
                                arrays, below, (int(grades[0]), int(grades[1])), int(level),
                                marked)


def completed(jr: JudgedRankings, ranking: np.ndarray, suffix: np.ndarray, k: np.ndarray,
              grades: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The completions ``(ranking[j], suffix[j], k[j])`` of ``jr``'s rankings (the first
    ``k``, or with ``suffix`` the last ``k``, unjudged documents given the highest of
    ``grades``, the others the lowest), end to end: their degrees and offsets."""
    return _engine.bounds_complete(_int64(jr.rel), _int64(jr.offsets), _int64(ranking),
                                   np.ascontiguousarray(suffix, dtype=bool), _int64(k),
                                   int(grades[0]), int(grades[1]))
