"""Shared helpers of :mod:`irscale.meta`: inputs, pairs of systems, seeds, table output.

Inputs are what :mod:`irscale.stats` takes (a :class:`~irscale.core.ScoreMatrix`, a wide
DataFrame or a topics × systems array; :func:`irscale.stats.validation.score_table` checks
them). Pairs of systems are always enumerated in ``numpy.triu_indices(k, 1)`` order — the
order of :func:`irscale.stats.pairwise_tests` and of Tukey's HSD — so a pair's position is
the same in every routine. Random streams come from
:func:`irscale.stats.resampling.seed_sequence` (``seed`` or ``rng``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..errors import AlignmentError
from ..io.naming import find_names
from ..stats.resampling import seed_sequence
from ..stats.tables import Format, check_format, level_text, render
from ..stats.validation import check_magnitude, score_table

__all__ = [
    "copy_seed",
    "derived_seed",
    "format_frame",
    "generator",
    "interval_note",
    "pair_index",
    "paired_tables",
    "restrict_systems",
    "score_table",
    "seed_sequence",
]


def pair_index(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The (i, j), i < j, indices of every pair of ``k`` systems, in ``triu`` order."""
    return np.triu_indices(k, k=1)


def copy_seed(seeds: np.random.SeedSequence) -> np.random.SeedSequence:
    """A fresh copy of ``seeds`` (spawning from the copy does not touch the original)."""
    return np.random.SeedSequence(seeds.entropy, spawn_key=seeds.spawn_key,
                                  pool_size=seeds.pool_size)


def derived_seed(seeds: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The seed sequence of a named sub-stream (e.g. one split size): independent of the
    other sub-streams and of how many of them are used."""
    return np.random.SeedSequence(seeds.entropy, spawn_key=(*seeds.spawn_key, *key),
                                  pool_size=seeds.pool_size)


def generator(seeds: np.random.SeedSequence) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(copy_seed(seeds)))


def restrict_systems(
    values: np.ndarray, systems: tuple[str, ...], wanted: Sequence[str] | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``values`` (topics × systems × ...) restricted to the ``wanted`` systems, in order
    (:func:`irscale.io.naming.find_names`: a name of none is a :class:`ParameterError`
    listing them)."""
    if wanted is None:
        return values, systems
    index = {s: i for i, s in enumerate(systems)}
    # each a system's name, refused with the systems as a name of no run is (io.naming)
    keep = [index[s] for s in find_names([str(s) for s in wanted], systems, "systems:")]
    if len(set(keep)) != len(keep):
        raise AlignmentError(f"a system is named twice in {[str(s) for s in wanted][:8]}")
    if len(keep) < 2:
        raise AlignmentError("at least two systems are needed")
    return values[:, keep], tuple(systems[i] for i in keep)


def paired_tables(
    a: object, b: object = None, measure_a: str | None = None, measure_b: str | None = None
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Two topics × systems arrays over the same topics and systems (aligned by label).

    ``b`` defaults to ``a`` (two measures of one score matrix). Plain arrays must have the
    same shape; labelled inputs are aligned on their common topics and must have the same
    systems.
    """
    b = a if b is None else b
    if isinstance(a, ScoreMatrix) and isinstance(b, ScoreMatrix):
        left, right = a.measure(measure_a), b.measure(measure_b)
        if set(left.systems) != set(right.systems):
            raise AlignmentError("the two score matrices have different systems")
        left, right = left.align(right)
        right = right.subset(systems=left.systems)
        for matrix in (left, right):
            matrix.check_complete()
            check_magnitude(matrix.values)
        return left.array(), right.array(), left.topics, left.systems
    x, topics, systems = score_table(a, measure_a, min_systems=2, min_topics=1)
    y, topics_b, systems_b = score_table(b, measure_b, min_systems=2, min_topics=1)
    if x.shape != y.shape:
        raise AlignmentError(f"the two score tables differ in shape: {x.shape} and {y.shape}")
    if systems != systems_b or topics != topics_b:
        frame_b = pd.DataFrame(y, index=topics_b, columns=systems_b)
        try:
            y = frame_b.loc[list(topics), list(systems)].to_numpy(np.float64)
        except KeyError:
            raise AlignmentError("the two score tables have different topics or systems") \
                from None
    return x, y, topics, systems


def format_frame(frame: pd.DataFrame, fmt: Format = "text", *, digits: int = 4,
                 title: str | None = None) -> str:
    """A result table as ``text``, ``csv``, ``markdown``, ``latex`` or ``json``."""
    check_format(fmt)
    return render(frame, fmt, digits=digits, title=title)


def interval_note(columns: str, method: str | None, alpha: float, unit: str) -> str:
    """The words a table's title adds for its intervals (none without ``method``): ``";
    ci_low, ci_high: 95% t intervals over topics"``."""
    from ..core.mean_intervals import INTERVAL_NAMES

    if method is None:
        return ""
    return f"; {columns}: {level_text(1 - alpha)} {INTERVAL_NAMES[method]} intervals over {unit}"
