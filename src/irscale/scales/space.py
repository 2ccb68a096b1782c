"""The space of judged runs REL^N, its feasible subset for a topic, and run counting.

A judged run of length ``N`` over ``levels = c + 1`` relevance degrees ``REL = {0..c}`` is a vector
``r̂ ∈ REL^N`` (Ferrante et al. 2021, §5; Ferrante et al. 2019, §3). :class:`Space` is either the
whole ``REL^N`` (``bounds=None``, the space of Ferrante et al. 2021) or the runs *feasible* for a
topic: at most ``bounds[g-1]`` documents of each relevant degree ``g = 1..c`` (a topic cannot have
more relevant documents of a degree than its qrels hold; degree 0 is unbounded since unjudged
documents count as non-relevant).

Counting helpers (exact, Python integers):

* :func:`count_sequences` — sequences of length ``n`` with at most ``bounds[g]`` entries of
  each bounded degree (dynamic programme over degrees with binomial coefficients);
* :func:`binary_weights` — for a binary measure at relevance level ℓ on a graded space, the
  number of graded runs that project onto one binary run with ``k`` relevant documents.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated

import numpy as np

from ..core.checked import Checked
from ..errors import ParameterError
from .params import DEGREES, LENGTH, LEVELS, RECALL_BASE, RECALL_COUNT, RUN_LENGTH
from .params import MAX_LEVELS as MAX_LEVELS
from .params import MAX_RECALL_BASE as MAX_RECALL_BASE


@dataclass(frozen=True)
class Space:
    """``REL^N`` with ``REL = {0..levels-1}``, optionally restricted by per-degree ``bounds``."""

    N: int
    levels: int = 2
    bounds: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "N", LENGTH.check(self.N, RUN_LENGTH))
        object.__setattr__(self, "levels", DEGREES.check(self.levels, LEVELS))
        if self.bounds is not None:
            bounds = tuple(min(int(b), self.N) for b in self.bounds)
            if len(bounds) != self.c or min(bounds, default=0) < 0:
                raise ParameterError(
                    f"feasibility bounds need one count ≥ 0 per relevant degree 1..{self.c}, "
                    f"got {self.bounds}")
            # a bound ≥ N does not restrict anything: normalise to the full space
            object.__setattr__(self, "bounds", None if min(bounds) >= self.N else bounds)

    @property
    def c(self) -> int:
        """The highest relevance degree."""
        return self.levels - 1

    @property
    def feasible_only(self) -> bool:
        return self.bounds is not None

    @property
    def n_runs(self) -> int:
        """Number of runs of the space (``levels^N`` for the whole space)."""
        if self.bounds is None:
            return self.levels**self.N
        return count_sequences(self.N, self.bounds)

    def allows(self, degrees: np.ndarray) -> np.ndarray:
        """Boolean per run (row of ``degrees``): the run belongs to the space."""
        degrees = np.asarray(degrees)
        if self.bounds is None:
            return np.ones(len(degrees), dtype=bool)
        ok = np.ones(len(degrees), dtype=bool)
        for g, bound in enumerate(self.bounds, start=1):
            ok &= (degrees == g).sum(axis=1) <= bound
        return ok

    def label(self) -> str:
        where = "" if self.bounds is None else f", feasible {list(self.bounds)}"
        return f"REL^{self.N} (levels={self.levels}{where})"


@dataclass(frozen=True)
class Context:
    """A topic's recall base per relevance degree ``0..c`` of the space (``rel_levels``).

    ``recall_base[g]`` is the number of documents judged with degree ``g``. Measures that
    depend on the recall base (R, F, AP, nDCG) read it; the feasible space bounds the run
    by ``recall_base[1:]``.
    """

    recall_base: tuple[int, ...]

    def __post_init__(self) -> None:
        counts = tuple(RECALL_COUNT.check(v, RECALL_BASE)
                       for v in self.recall_base)
        object.__setattr__(self, "recall_base", counts)

    def relevant(self, level: int = 1) -> int:
        """Number of documents with degree ≥ ``level``."""
        return int(sum(self.recall_base[max(level, 0):]))

    def bounds(self) -> tuple[int, ...]:
        return tuple(int(b) for b in self.recall_base[1:])


def recall_base_counts(value: object) -> object:
    """``recall_base`` as given, once each of its counts is an integer from 0 to
    :data:`MAX_RECALL_BASE` (``RECALL_COUNT``): a :class:`Context`, a count, a sequence of
    counts or None; anything else is refused in :func:`to_context`'s words. Judged on
    entry, before the space is built; the number of counts is judged with the space
    (:func:`to_context`)."""
    if value is None or isinstance(value, Context):
        return value
    if type(value) is not bool and isinstance(value, numbers.Integral):
        RECALL_COUNT.check(value, RECALL_BASE)
    elif isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ParameterError(f"recall base (--recall-base, recall_base) must be a sequence "
                             f"of integer counts, got {value!r}", param="recall_base")
    elif isinstance(value, (list, tuple)):
        for count in value:
            RECALL_COUNT.check(count, RECALL_BASE)
    return value


#: A topic's recall base as :func:`irscale.scales.scale` takes it, judged on entry
#: (:func:`recall_base_counts`).
RecallBase = Annotated[Sequence[int] | Context | int | None, Checked(recall_base_counts)]


def default_context(space: Space) -> Context:
    """The context used when none is given: ``N`` documents of the highest degree (the
    recall base of Ferrante et al. (2021), Figure 2, RB = N) and none of the others."""
    return Context(tuple([0] * space.c + [space.N]))


def to_context(recall_base: Sequence[int] | Context | int | None, space: Space) -> Context:
    """A :class:`Context` for ``space`` from a context, a per-degree sequence or ``None``.

    A sequence of ``c`` integers gives the counts of the relevant degrees ``1..c`` (degree
    0 gets 0); a single integer is the count of the highest degree ``c`` (for a binary
    space: the number of relevant documents); a :class:`Context` gives every degree
    ``0..c``. Each count is an integer from 0 to :data:`MAX_RECALL_BASE`; anything else
    (more or fewer counts than relevant degrees, fractions, text) is a
    :class:`~irscale.errors.ParameterError` naming ``--recall-base`` / ``recall_base``.
    """
    if recall_base is None:
        return default_context(space)
    if isinstance(recall_base, Context):
        counts = tuple(recall_base.recall_base)
        if len(counts) != space.levels:
            raise ParameterError(
                f"a recall base (--recall-base, recall_base) Context for {space.levels} "
                f"relevance degrees needs {space.levels} counts (degrees 0..{space.c}), got "
                f"{len(counts)}")
        return Context(counts)
    if not isinstance(recall_base, bool) and isinstance(recall_base, numbers.Integral):
        given: tuple = (recall_base,)
        counts = (0,) * (space.c - 1) + given
    elif isinstance(recall_base, (str, bytes)) or not isinstance(recall_base, Iterable):
        raise ParameterError(
            f"recall base (--recall-base, recall_base) must be a sequence of integer "
            f"counts, got {recall_base!r}")
    else:
        given = counts = tuple(recall_base)
    if len(counts) != space.c:
        raise ParameterError(
            f"recall base (--recall-base, recall_base) takes {space.c} "
            f"count{'s' if space.c > 1 else ''} for {space.levels} relevance degrees (one "
            f"per relevant degree 1..{space.c}), got {len(given)}: {list(given)!r}")
    return Context((0, *counts))


# ---------------------------------------------------------------- counting
@lru_cache(maxsize=4096)
def count_sequences(n: int, bounds: tuple[int | None, ...]) -> int:
    """Sequences of length ``n`` over degrees ``0..len(bounds)`` with at most ``bounds[g-1]``
    entries of degree ``g`` (``None``: unbounded); degree 0 is unbounded.

    ``F_g(m) = Σ_{j ≤ min(B_g, m)} C(m, j) F_{g+1}(m − j)``, ``F_{c+1}(m) = 1`` (the rest
    is degree 0): ``O(c · n · B)`` integer operations.
    """
    if n < 0:
        return 0
    if len(bounds) == 1:  # one bounded degree: a prefix sum of binomial coefficients
        top = n if bounds[0] is None else min(bounds[0], n)
        return binomial_prefix(n)[top] if top >= 0 else 0
    row = [1] * (n + 1)  # F_{c+1}(m) for m = 0..n
    for bound in reversed(bounds):
        new = []
        for m in range(n + 1):
            top = m if bound is None else min(bound, m)
            new.append(sum(math.comb(m, j) * row[m - j] for j in range(top + 1)))
        row = new
    return row[n]


@lru_cache(maxsize=2048)
def binomial_prefix(n: int) -> list[int]:
    """``[Σ_{j ≤ t} C(n, j) for t = 0..n]``."""
    out, total, term = [], 0, 1
    for j in range(n + 1):
        total += term
        out.append(total)
        term = term * (n - j) // (j + 1)
    return out


def binary_weights(N: int, levels: int, level: int,
                   bounds: tuple[int, ...] | None = None) -> list[int]:
    """``W[k]``: graded runs of ``REL^N`` (within ``bounds``) whose binary projection at
    relevance level ``level`` (degree ≥ level ↦ relevant) is one fixed binary run with ``k``
    relevant documents, for ``k = 0..N``.

    Unbounded: ``(c − ℓ + 1)^k · ℓ^(N − k)``. Bounded: the relevant positions take degrees
    ``ℓ..c`` and the others ``0..ℓ−1``, each degree within its bound.
    """
    c = levels - 1
    level = min(max(level, 1), c + 1)
    if bounds is None:
        return [(c - level + 1) ** k * level ** (N - k) for k in range(N + 1)]
    rel_bounds = tuple(bounds[g - 1] for g in range(level, c + 1))
    non_bounds = tuple(bounds[g - 1] for g in range(1, level))
    out = []
    for k in range(N + 1):
        # relevant positions: degrees level..c, all bounded (shift so that one is "free"?
        # no: every relevant degree is bounded) — count sequences with no free degree
        out.append(_count_all_bounded(k, rel_bounds) * count_sequences(N - k, non_bounds))
    return out


@lru_cache(maxsize=4096)
def _count_all_bounded(n: int, bounds: tuple[int, ...]) -> int:
    """Sequences of length ``n`` over ``len(bounds)`` symbols, symbol ``s`` at most
    ``bounds[s]`` times (no free symbol)."""
    if not bounds:
        return 1 if n == 0 else 0
    first, rest = bounds[0], bounds[1:]
    if not rest:
        return 1 if n <= first else 0
    return sum(math.comb(n, j) * _count_all_bounded(n - j, rest)
               for j in range(min(first, n) + 1))
