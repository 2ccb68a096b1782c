"""Closed forms: images whose order is known, for any N (N = 1,000 in milliseconds).

* :class:`CountImage` — measures of the counts of degrees only. Binary measures at level ℓ
  depend on ``h`` = relevant documents in the N: ``P = h/N``, ``R = h/RB``,
  ``F_β = (β²+1)h/(β²RB + N)``; their image is ``{v(h) : h = 0..h_max}`` with
  ``h_max = N`` (or ``min(N, RB)`` in the feasible space), so ``φ = h + 1`` — P, R and F
  share one ranked version (Ferrante et al. 2019, §4.1: they are affine maps of SBTO). A value is
  reached by ``C(N, h) · W(h)`` runs (``W``: graded runs per binary run, :func:`binary_weights`).
  SBTO (Ferrante et al. 2019, eq. 3) is the rank of the count vector in the order of eq. 1, computed
  from the counts with the hockey-stick identity::

      SBTO = Σ_{d=1..c} [ C(d + N − s_d, d) − C(d + N − s_d − n_d, d) ],  s_d = Σ_{e>d} n_e

  so ``φ = SBTO + 1`` on ``REL^N`` (``binom(N + c, c)`` values).
* :class:`FirstRelevantImage` — RR = 1/f (f the rank of the first relevant document, 0
  without one): ``N + 1`` values, ``φ(0) = 1`` and ``φ(1/f) = N + 2 − f`` (Ferrante et al.
  2021 write ``N + 1 − 1/m``, counting from the first non-zero value).
* :class:`LexImage` — measures ordered like RBTO (Ferrante et al. 2019, eq. 4–6): RBTO itself, RBP
  with ``p ≤ 1/(c+1)`` and linear gains (binary: ``p ≤ 1/2``), any additive measure whose weights
  dominate their tails. Every run has its own value and ``φ = RBTO + 1``; for RBP with p = 1/2
  (binary) that is ``φ(m) = 2^N · m + 1``. In a feasible space φ counts the feasible runs that
  precede the run lexicographically (binomial sums).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cached_property

import numpy as np

from .enumeration import CHUNK_RUNS, iter_runs, runs_from_index
from .image import Image, as_index_array
from .space import Context, Space, binary_weights, count_sequences

_comb = np.frompyfunc(math.comb, 2, 1)


def project(runs: np.ndarray, level: int) -> np.ndarray:
    """Binary projection of graded runs: degree ≥ level ↦ 1, else 0."""
    return (np.asarray(runs) >= level).astype(np.int8)


def binomial_row(N: int) -> list[int]:
    """``C(N, h)`` for ``h = 0..N`` by ``C(N, h + 1) = C(N, h)·(N − h)/(h + 1)``: one small
    multiplication and exact division per entry instead of one :func:`math.comb` each."""
    row = [1]
    for h in range(N):
        row.append(row[-1] * (N - h) // (h + 1))
    return row


def _cumulative(counts: list[int]) -> list[int]:
    out = [0]
    for c in counts:
        out.append(out[-1] + c)
    return out


def count_vectors(space: Space) -> np.ndarray:
    """Every count vector ``(n_1..n_c)`` of the space (within its bounds)."""
    N, c = space.N, space.c
    bounds = space.bounds or (N,) * c
    vectors = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    for g in range(c):
        options = np.arange(min(bounds[g], N) + 1)
        rows = np.repeat(np.arange(len(vectors)), len(options))
        new = np.tile(options, len(vectors))
        keep = used[rows] + new <= N
        vectors = np.concatenate([vectors[rows[keep]], new[keep, None]], axis=1)
        used = used[rows[keep]] + new[keep]
    return vectors


def multinomials(vectors: np.ndarray, N: int) -> np.ndarray:
    """Runs of length N with each count vector (Python integers)."""
    mult = np.ones(len(vectors), dtype=object)
    left = np.full(len(vectors), N, dtype=np.int64)
    for g in range(vectors.shape[1]):
        mult = mult * _comb(left, vectors[:, g])
        left = left - vectors[:, g]
    return mult


# ====================================================================== counts
class CountImage(Image):
    """Binary measures of ``h`` (P, R, F) and SBTO (module documentation)."""

    exactness = "exact"
    algorithm = "closed form (counts)"

    def __init__(self, kind: str, space: Space, context: Context, *, level: int = 1,
                 beta: float = 1.0) -> None:
        self.kind, self.space, self.context = kind, space, context
        self.level, self.beta = level, beta
        N = space.N
        if kind == "SBTO":
            return
        weights = binary_weights(N, space.levels, level, space.bounds)
        self.mult = [b * w for b, w in zip(binomial_row(N), weights, strict=True)]
        self.h_max = max(h for h in range(N + 1) if self.mult[h] > 0)
        self.cum = _cumulative(self.mult)

    # ------------------------------------------------------------ binary h
    def _value(self, h: np.ndarray) -> np.ndarray:
        h = np.asarray(h, dtype=np.float64)
        N, rb = self.space.N, self.context.relevant(self.level)
        if self.kind == "P":
            return h / N
        if self.kind == "R":
            return h / rb
        b2 = self.beta * self.beta
        return (b2 + 1.0) * h / (b2 * rb + N)

    def _hits(self, runs: np.ndarray) -> np.ndarray:
        return project(runs, self.level).sum(axis=1).astype(np.int64)

    # ------------------------------------------------------------ SBTO
    @cached_property
    def _sbto_table(self) -> list[list[int]]:
        N, c = self.space.N, self.space.c
        return [[math.comb(d + m, d) for m in range(N + 1)] for d in range(c + 1)]

    def _sbto(self, counts: np.ndarray) -> np.ndarray:
        """SBTO of count vectors ``counts[:, g-1] = n_g`` (hockey-stick form)."""
        N, c = self.space.N, self.space.c
        table = [np.array(row, dtype=object) for row in self._sbto_table]
        total = np.zeros(len(counts), dtype=object)
        above = np.zeros(len(counts), dtype=np.int64)
        for d in range(c, 0, -1):
            n_d = counts[:, d - 1]
            total = total + table[d][N - above] - table[d][N - above - n_d]
            above = above + n_d
        return as_index_array(total)

    def _count_vectors(self) -> np.ndarray:
        return count_vectors(self.space)

    @cached_property
    def _sbto_feasible(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted SBTO values of the space's count vectors, with their run counts."""
        vectors = self._count_vectors()
        values = self._sbto(vectors)
        order = np.argsort(values, kind="stable")
        mult = multinomials(vectors, self.space.N)
        return values[order], mult[order]

    @staticmethod
    def _counts_of(runs: np.ndarray, c: int) -> np.ndarray:
        runs = np.asarray(runs)
        return np.stack([(runs == g).sum(axis=1) for g in range(1, c + 1)], axis=1)

    # ------------------------------------------------------------ interface
    @property
    def n_distinct(self) -> int:
        if self.kind == "SBTO":
            if self.space.bounds is None:
                return math.comb(self.space.N + self.space.c, self.space.c)
            return len(self._sbto_feasible[0])
        return self.h_max + 1

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        if self.kind == "SBTO":
            return self._sbto(self._counts_of(runs, self.space.c)).astype(np.float64)
        return self._value(self._hits(runs))

    def phi(self, runs: np.ndarray) -> np.ndarray:
        if self.kind == "SBTO":
            rank = self._sbto(self._counts_of(runs, self.space.c))
            if self.space.bounds is None:
                return rank + 1
            values, _ = self._sbto_feasible
            return np.searchsorted(values, rank, side="right").astype(np.int64)
        return self._hits(runs) + 1

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        if self.kind == "SBTO":
            values, mult = self._sbto_feasible
            cum = np.concatenate(([0], np.cumsum(mult)))
            rank = self._sbto(self._counts_of(runs, self.space.c))
            pos = np.searchsorted(values, rank, side="left" if strict else "right")
            return as_index_array(cum[pos])
        h = self._hits(runs)
        cum = np.array(self.cum, dtype=object)
        return as_index_array(cum[h] if strict else cum[h + 1])

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        if self.kind == "SBTO":
            values, mult = self._sbto_feasible
            for start in range(0, len(values), CHUNK_RUNS):
                yield (values[start:start + CHUNK_RUNS].astype(np.float64),
                       as_index_array(mult[start:start + CHUNK_RUNS]))
            return
        h = np.arange(self.h_max + 1)
        yield self._value(h), as_index_array(self.mult[: self.h_max + 1])


# ====================================================================== gain sums
class GainSumImage(Image):
    """Measures of the total gain ``Σ_i g(r̂_i)`` (gP = total / (N·gmax)): the value depends
    on the count vector only. Exact integer keys ``lcm · Σ_d n_d g(d)`` (gains are exact
    rationals), de-duplicated over the ``C(N + c, c)`` count vectors; run counts are
    multinomials; the values are the kernel's on one run per distinct key."""

    exactness = "exact"
    algorithm = "closed form (gain sums of count vectors)"

    def __init__(self, measure, space: Space, context: Context) -> None:
        self.measure, self.space, self.context = measure, space, context
        gains = measure.gain_exact(space.levels)
        lcm = math.lcm(*(g.denominator for g in gains))
        self.gain_keys = np.array([int(g * lcm) for g in gains[1:]], dtype=object)
        vectors = count_vectors(space)
        keys = (vectors.astype(object) @ self.gain_keys) if space.c else \
            np.zeros(len(vectors), dtype=object)
        mult = multinomials(vectors, space.N)
        order = sorted(range(len(keys)), key=lambda k: keys[k])
        self.keys: list[int] = []
        self.mult: list[int] = []
        reps = []
        for k in order:
            if self.keys and self.keys[-1] == keys[k]:
                self.mult[-1] += mult[k]
            else:
                self.keys.append(int(keys[k]))
                self.mult.append(int(mult[k]))
                reps.append(vectors[k])
        self.reps = np.array(reps, dtype=np.int64).reshape(len(reps), space.c)
        self.cum = _cumulative(self.mult)

    def _key(self, runs: np.ndarray) -> list[int]:
        counts = CountImage._counts_of(runs, self.space.c).astype(object)
        return list(counts @ self.gain_keys) if self.space.c else [0] * len(runs)

    @property
    def n_distinct(self) -> int:
        return len(self.keys)

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.measure.kernel_values(runs, self.context)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        import bisect
        return np.array([bisect.bisect_right(self.keys, k) for k in self._key(runs)],
                        dtype=np.int64)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        import bisect
        find = bisect.bisect_left if strict else bisect.bisect_right
        return as_index_array([self.cum[find(self.keys, k)] for k in self._key(runs)])

    def _runs_of(self, vectors: np.ndarray) -> np.ndarray:
        runs = np.zeros((len(vectors), self.space.N), dtype=np.int8)
        for row, vector in enumerate(vectors.tolist()):
            at = 0
            for d, n in enumerate(vector, start=1):
                runs[row, at:at + n] = d
                at += n
        return runs

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for start in range(0, len(self.keys), CHUNK_RUNS):
            stop = start + CHUNK_RUNS
            values = self.values_of(self._runs_of(self.reps[start:stop]))
            yield values, as_index_array(self.mult[start:stop])


# ====================================================================== first relevant
class FirstRelevantImage(Image):
    """RR: the rank f of the first relevant document (module documentation)."""

    exactness = "exact"
    algorithm = "closed form (first relevant rank)"

    def __init__(self, space: Space, context: Context, *, level: int = 1) -> None:
        self.space, self.context, self.level = space, context, level
        c = space.c
        if space.bounds is None:
            self.reachable = level <= c
        else:  # some relevant degree has a document to spare
            self.reachable = any(b > 0 for b in space.bounds[max(level, 1) - 1:])

    @cached_property
    def ordered_mult(self) -> list[int]:
        """Runs per value, in value order: none (0) < f = N < ... < f = 1."""
        N, space = self.space.N, self.space
        if space.bounds is None:
            rel = space.c - min(max(self.level, 1), space.levels) + 1
            non = space.levels - rel
            mult_none = non**N
            mult_f = [non ** (f - 1) * rel * space.levels ** (N - f) for f in range(1, N + 1)]
        else:
            w = binary_weights(N, space.levels, self.level, space.bounds)
            mult_none = w[0]
            mult_f = [sum(math.comb(N - f, j) * w[1 + j] for j in range(N - f + 1))
                      for f in range(1, N + 1)]
        return [mult_none] + (mult_f[::-1] if self.reachable else [])

    @cached_property
    def cum(self) -> list[int]:
        return _cumulative(self.ordered_mult)

    def _first(self, runs: np.ndarray) -> np.ndarray:
        rel = project(runs, self.level)
        has = rel.any(axis=1)
        return np.where(has, rel.argmax(axis=1) + 1, 0)

    @property
    def n_distinct(self) -> int:
        return self.space.N + 1 if self.reachable else 1

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        f = self._first(runs)
        return np.where(f > 0, 1.0 / np.maximum(f, 1), 0.0)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        f = self._first(runs)
        return np.where(f > 0, self.space.N + 2 - f, 1).astype(np.int64)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        position = self.phi(runs) - 1  # index in value order
        cum = np.array(self.cum, dtype=object)
        return as_index_array(cum[position] if strict else cum[position + 1])

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        N = self.space.N
        f = np.arange(N, 0, -1, dtype=np.float64)
        values = np.concatenate(([0.0], 1.0 / f)) if self.reachable else np.array([0.0])
        yield values, as_index_array(self.ordered_mult)


# ====================================================================== lexicographic
class LexImage(Image):
    """Measures ordered like RBTO: every run has its own value (module documentation).

    ``spec`` is the measure's :class:`~irscale.scales.additive.AdditiveSpec` (for values).
    """

    exactness = "exact"
    algorithm = "closed form (RBTO order)"

    def __init__(self, spec, space: Space) -> None:
        self.spec, self.space = spec, space

    @property
    def n_distinct(self) -> int:
        return self.space.n_runs

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.spec.scale * self.spec.raw(runs)

    def _index(self, runs: np.ndarray) -> np.ndarray:
        """RBTO numeral of each run (int64 when it fits, else Python integers)."""
        runs = np.asarray(runs, dtype=np.int64)
        N, levels = self.space.N, self.space.levels
        if levels**N < 1 << 62:
            return runs @ (levels ** np.arange(N - 1, -1, -1, dtype=np.int64))
        total = np.zeros(len(runs), dtype=object)
        width = max(1, int(62 / math.log2(levels)))  # digits per exact int64 slice
        for start in range(0, N, width):
            part = runs[:, start:start + width]
            w = part.shape[1]
            chunk = part @ (levels ** np.arange(w - 1, -1, -1, dtype=np.int64))
            total = total * (levels**w) + chunk.astype(object)
        return total

    def phi(self, runs: np.ndarray) -> np.ndarray:
        if self.space.bounds is None:
            return as_index_array(self._index(runs) + 1)
        return as_index_array(self._feasible_rank(runs))

    def _feasible_rank(self, runs: np.ndarray) -> list[int]:
        """1 + number of feasible runs lexicographically smaller (per run)."""
        N, c = self.space.N, self.space.c
        bounds = self.space.bounds
        assert bounds is not None
        runs = np.asarray(runs, dtype=np.int64)
        counts = np.zeros((len(runs), c), dtype=np.int64)
        total = np.ones(len(runs), dtype=object)
        for i in range(N):
            remaining = N - i - 1
            digit = runs[:, i]
            for d in range(c + 1):
                smaller = np.flatnonzero(digit > d)
                if len(smaller) == 0:
                    continue
                after = counts[smaller].copy()
                if d > 0:
                    after[:, d - 1] += 1
                left = np.array(bounds)[None, :] - after
                keys, inverse = np.unique(left, axis=0, return_inverse=True)
                sizes = np.array([count_sequences(remaining, tuple(int(v) for v in row))
                                  if (row >= 0).all() else 0 for row in keys], dtype=object)
                total[smaller] = total[smaller] + sizes[inverse.reshape(-1)]
            nonzero = digit > 0
            counts[np.flatnonzero(nonzero), digit[nonzero] - 1] += 1
        return total.tolist()

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        phi = self.phi(runs)
        return phi - 1 if strict else phi

    def count_values(self, values: np.ndarray, factor: float = 1.0) -> np.ndarray:
        """φ of measure values (``factor`` × this image's values) without listing the
        image: the lexicographically largest (feasible) run with value ≤ m, built rank by
        rank (the largest degree whose run, completed with degree 0, stays ≤ m: weights
        dominate their tails, so every run after it in RBTO order exceeds m), and φ of it;
        0 below the smallest value. O(N·levels) vectorised steps per batch of values."""
        m = np.asarray(values, dtype=np.float64)
        N, c = self.space.N, self.space.c
        terms = self.spec.terms
        unit = factor * self.spec.scale
        # Σ_{r ≥ i} terms[r, 0]: the smallest completion of a prefix of length i
        floor_tail = np.concatenate((np.cumsum(terms[::-1, 0])[::-1], [0.0]))
        run = np.zeros((len(m), N), dtype=np.int8)
        prefix = np.zeros(len(m))
        used = np.zeros((len(m), c), dtype=np.int64)  # documents of each degree so far
        bounds = None if self.space.bounds is None else np.asarray(self.space.bounds)
        found = unit * floor_tail[0] <= m
        for i in range(N):
            chosen = np.zeros(len(m), dtype=bool)
            for d in range(c, -1, -1):
                fits = ~chosen & (unit * (prefix + terms[i, d] + floor_tail[i + 1]) <= m)
                if d and bounds is not None:
                    fits &= used[:, d - 1] < bounds[d - 1]
                run[fits, i] = d
                chosen |= fits
            prefix += terms[i, run[:, i]]
            if bounds is not None:
                for d in range(1, c + 1):
                    used[:, d - 1] += run[:, i] == d
        out = np.zeros(len(m), dtype=np.int64)
        if found.any():
            out[found] = np.asarray(self.phi(run[found]), dtype=np.int64)
        return out

    def extremes(self) -> tuple[float, int, float, int]:
        lowest = np.zeros((1, self.space.N), dtype=np.int8)
        highest = np.full((1, self.space.N), self.space.c, dtype=np.int8)
        if self.space.bounds is not None:  # the lexicographically largest feasible run
            left = list(self.space.bounds)
            for i in range(self.space.N):
                d = next((g for g in range(self.space.c, 0, -1) if left[g - 1] > 0), 0)
                highest[0, i] = d
                if d:
                    left[d - 1] -= 1
        values = self.values_of(np.concatenate([lowest, highest]))
        return float(values[0]), 1, float(values[1]), 1

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Values in RBTO order (= value order). On the whole space: value = prefix part +
        suffix part, one prefix at a time (no run is materialised)."""
        if self.space.bounds is not None:
            for degrees in iter_runs(self.space):
                yield self.values_of(degrees), np.ones(len(degrees), dtype=np.int64)
            return
        N, levels = self.space.N, self.space.levels
        low = min(N, max(1, int(math.log(CHUNK_RUNS, levels))))
        high = N - low
        terms = self.spec.terms
        suffix = terms[np.arange(high, N), runs_from_index(np.arange(levels**low), low,
                                                            levels)].sum(axis=1)
        ones = np.ones(len(suffix), dtype=np.int64)
        for h in range(levels**high):
            prefix_run = runs_from_index(np.array([h]), high, levels)[0]
            prefix = terms[np.arange(high), prefix_run].sum()
            yield self.spec.scale * (prefix + suffix), ones


# ====================================================================== dyadic
class DyadicImage(Image):
    """RBP with p = 1/2 and gains proportional to the degree on graded ``REL^N``.

    ``2^N·RBP·gmax/g(1) = v = Σ_i δ(r̂_i) 2^(N−i)`` is an integer, and every integer of
    ``[0, c(2^N − 1)]`` is reached (binary numerals with digits up to c), so
    ``φ = v + 1`` and ``|image| = c(2^N − 1) + 1`` for any N. The runs below a value are
    counted digit by digit: ``f(n, t) = Σ_{g=0..c} f(n − 1, ⌊(t − g)/2⌋)`` (the last digit
    first), saturated at ``(c+1)^n`` for ``t ≥ c(2^n − 1)``, with ``O(N·c²)`` states.
    ``fallback()`` gives the image as a stream (meet in the middle).
    """

    exactness = "exact"
    algorithm = "closed form (p = 1/2, linear gains)"

    def __init__(self, spec, space: Space, fallback) -> None:
        self.spec, self.space, self._fallback = spec, space, fallback

    @property
    def n_distinct(self) -> int:
        return self.space.c * (2**self.space.N - 1) + 1

    def _numeral(self, runs: np.ndarray) -> list[int]:
        total = np.zeros(len(runs), dtype=object)
        for column in np.asarray(runs, dtype=np.int64).T:
            total = total * 2 + column.astype(object)
        return total.tolist()

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.spec.scale * self.spec.raw(runs)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        return as_index_array([v + 1 for v in self._numeral(runs)])

    def _count_le(self, t: int) -> int:
        """Runs with numeral ≤ t (iterative digit DP, see the class documentation)."""
        c, N = self.space.c, self.space.N

        def saturated(n: int, bound: int) -> int | None:
            if bound < 0:
                return 0
            if bound >= c * (2**n - 1):
                return (c + 1) ** n
            return None

        states: list[set[int]] = [set() for _ in range(N + 1)]
        states[N].add(t)
        for n in range(N, 0, -1):
            for bound in states[n]:
                if saturated(n, bound) is None:
                    states[n - 1].update((bound - g) // 2 for g in range(c + 1))
        table: dict[tuple[int, int], int] = {}

        def value(n: int, bound: int) -> int:
            known = saturated(n, bound)
            return table[(n, bound)] if known is None else known

        for n in range(1, N + 1):
            for bound in states[n]:
                if saturated(n, bound) is None:
                    table[(n, bound)] = sum(value(n - 1, (bound - g) // 2)
                                            for g in range(c + 1))
        return value(N, t)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        return as_index_array([self._count_le(v - 1 if strict else v)
                               for v in self._numeral(runs)])

    def count_values(self, values: np.ndarray, factor: float = 1.0) -> np.ndarray:
        """φ of measure values (``factor`` × this image's values) without listing the
        image: ``⌊m / u⌋ + 1`` within ``[0, |image|]``, u the value of numeral 1."""
        last = np.zeros((1, self.space.N), dtype=np.int64)
        last[0, -1] = 1
        unit = factor * float(self.values_of(last)[0])
        numeral = np.floor(np.asarray(values, dtype=np.float64) / unit)
        return np.clip(numeral + 1, 0, self.n_distinct).astype(np.int64)

    def extremes(self) -> tuple[float, int, float, int]:
        values = self.values_of(np.array([[0] * self.space.N, [self.space.c] * self.space.N]))
        return float(values[0]), 1, float(values[1]), 1

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        return self._fallback().iter_sorted()
