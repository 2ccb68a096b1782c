"""The image of a measure over a space of runs: the interface every algorithm implements.

An :class:`Image` knows, for one measure on one space (and one topic context), the set of
distinct values ``M(REL^N)`` with the number of runs reaching each value, and answers:

* ``phi(runs)`` — φ of Ferrante et al. (2021), eq. 2 ("unq" ranks): the number of distinct values ≤
  the value of each run, computed from the run itself (exact: no lookup of a float value);
* ``runs_below(runs, strict)`` — the number of runs of the space whose value is < (or ≤)
  the value of each run, from which the min-, max- and mid-rank strategies follow;
* ``iter_sorted()`` — the sorted distinct values with their run counts, streamed in chunks
  of bounded size (the data of Ferrante et al. 2021, Figures 2–5 and of the diagnostics);
* ``values_of(runs)`` — the measure's value of each run (the algorithm's own arithmetic).

``exactness`` says how ties between values are decided: ``"exact"`` (integer or rational
arithmetic), ``"exact ties"`` (ties decided exactly from the structure of the measure, order
between distinct values by floating point with exact resolution of near-ties) or
``"tolerance"`` (values closer than :data:`TOLERANCE` × scale are tied).
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import numpy as np

from ..errors import ParameterError, shown
from .space import Space

#: Relative tolerance under which two floating-point values are tied, where no exact
#: decision is available (generic measures). Applied to the largest absolute value.
TOLERANCE = 1e-9

#: Bound on the number of distinct values :meth:`Image.values` materialises by default.
MATERIALISE_LIMIT = 1 << 24


def forwarded(path: str, doc: str | None = None) -> Any:
    """A read-only property whose value is the attribute ``path`` of the object (dotted:
    ``"image.n_runs"``): what a wrapper passes on from what it wraps, in one line."""
    return property(attrgetter(path), doc=doc)


class Image:
    """Base class of the image algorithms (see the module documentation)."""

    space: Space
    exactness: str = "exact"
    algorithm: str = ""

    # ------------------------------------------------------------ sizes
    @property
    def n_runs(self) -> int:
        return self.space.n_runs

    @property
    def n_distinct(self) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    # ------------------------------------------------------------ per run
    def values_of(self, runs: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def phi(self, runs: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    # ------------------------------------------------------------ whole image
    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:  # pragma: no cover
        raise NotImplementedError

    def extremes(self) -> tuple[float, int, float, int]:
        """``(min value, runs at min, max value, runs at max)``."""
        first = last = None
        for values, counts in self.iter_sorted():
            if len(values) == 0:
                continue
            if first is None:
                first = (float(values[0]), int(counts[0]))
            last = (float(values[-1]), int(counts[-1]))
        assert first is not None and last is not None
        return (*first, *last)

    def values(self, limit: int | None = MATERIALISE_LIMIT) -> tuple[np.ndarray, np.ndarray]:
        """The sorted distinct values and their run counts, materialised (``limit``: refuse
        above that many distinct values, a :class:`~irscale.errors.ParameterError` as every
        limit's refusal is)."""
        if limit is not None and self.n_distinct > limit:
            raise ParameterError(
                f"limit: the image has {self.n_distinct:,} distinct values (more than "
                f"{shown(limit)}): stream it with iter_sorted() instead", param="limit")
        parts = list(self.iter_sorted())
        if not parts:
            return np.zeros(0), np.zeros(0, dtype=np.int64)
        values = np.concatenate([v for v, _ in parts])
        counts = np.concatenate([np.asarray(c) for _, c in parts])
        return values, counts


def as_index_array(values: list[int] | np.ndarray) -> np.ndarray:
    """Integers as int64 when they fit, else as an object array of Python integers."""
    array = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if array.dtype == object:
        if len(array) == 0 or max(abs(int(v)) for v in array) < (1 << 62):
            return array.astype(np.int64)
        return array
    return array.astype(np.int64)


class ConstantImage(Image):
    """Every run has the same value (e.g. R, AP, nDCG for a topic with no relevant document)."""

    exactness = "exact"
    algorithm = "constant"

    def __init__(self, space: Space, value: float = 0.0) -> None:
        self.space = space
        self.value = float(value)

    @property
    def n_distinct(self) -> int:
        return 1

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return np.full(len(runs), self.value)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        return np.ones(len(runs), dtype=np.int64)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        return as_index_array([0 if strict else self.n_runs] * len(runs))

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        yield np.array([self.value]), as_index_array([self.n_runs])
