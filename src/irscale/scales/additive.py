"""Additive measures ``M(r̂) = s · Σ_i w_i · g(r̂_i)``: exact structure and image algorithms.

DCG (any discount ``d(i)``: ``w_i = 1/d(i)``), RBP (``w_i = p^(i−1)``, ``s = (1 − p)/gmax``)
and RBTO (``w_i = (c+1)^(N−i)``) add one term per rank. Their image is the Minkowski sum of
the per-rank sets ``{w_i g(0), ..., w_i g(c)}``; it is never materialised run by run:

**Exact ties.** Every weight is written ``w_i = q_i · θ_k`` with ``q_i`` rational and ``θ_k``
the number of its *class* ``k``: for logarithmic discounts ``d = log_b m`` (``m = i`` for
``jk`` beyond rank b, ``i + 1`` for ``log``/``log2``, ``b·i`` for ``1+log``),
``w = ln b / ln m = (1/e) · ln b / ln ρ`` with ``m = ρ^e`` and ρ not a perfect power, so the
class is ρ (``θ_ρ = ln b / ln ρ``) — the rational class ``θ = 1`` holds the undiscounted
ranks and the powers of b's own root. Distinct classes are linearly independent over ℚ
(Baker/Schanuel: logarithms of multiplicatively independent integers; e.g. Ferrante et al. 2021,
Example 12: ranks 1 and 2 share ``w = 1`` under ``max(1, log_2 r)``, ranks 3, 9, 27 share
class 3), so two runs tie exactly when their rational coefficient sums agree class by
class. RBP and RBTO have one rational class; within a class, a *p-adic certificate* shows
when every rank is independent: if a prime P gives the weights pairwise distinct
P-adic valuations, spaced more than the spread of the valuations of the gain differences,
no two gain vectors have the same sum (RBP with p = a/b: any prime of b not dividing the
gain differences; hence binary RBP never ties, for any rational p).

**Counting (meet in the middle).** The ranks are cut into independent *blocks* (a class,
or a single rank when certified); each block's distinct partial values are enumerated with
their multiplicities; blocks are multiplied out into two halves A and B of about
``sqrt(|image|)`` entries. Every pair ``(a, b)`` is a distinct value of the image, so
``|image| = |A|·|B|`` and ``φ(m) = #{(a, b): a + b ≤ m}``, counted with ``searchsorted``
(:mod:`irscale.scales.pairs`); floating-point sums are only used to *order* distinct
values, and pairs within the rounding error bound of a query are compared exactly
(rational coefficients, θ to 50 digits).

When the weights are lexicographically dominant (``w_i·Δg_min > Δg_max·Σ_{j>i} w_j``, e.g.
RBP with p ≤ 1/(c+1) and linear gains, RBTO), the order is the RBTO order itself and φ has a
closed form (:class:`irscale.scales.closed_forms.LexImage`). Without independent blocks,
exact integer keys (one rational class whose scaled sums fit in 64 bits) are de-duplicated
while streaming; otherwise values closer than the tolerance are tied.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..measures.gain_discount import Discount
from ..measures.rbp import powers
from .enumeration import runs_from_index
from .image import Image
from .measures import ScaleMeasure
from .pairs import PairGroup, PairImage, PairTable
from .space import Context, Space

#: Decimal digits of the class numbers θ used to order near-equal distinct values.
DIGITS = 60
#: Largest block enumerated as one piece (number of degree assignments).
BLOCK_LIMIT = 1 << 20


# ====================================================================== exact weights
@cache
def perfect_root(m: int) -> tuple[int, int]:
    """``(ρ, e)`` with ``m = ρ^e`` and ρ not a perfect power (``m ≥ 2``)."""
    for e in range(int(math.log2(m)), 1, -1):
        r = round(m ** (1.0 / e))
        for cand in (r - 1, r, r + 1):
            if cand >= 2 and cand**e == m:
                root, inner = perfect_root(cand)
                return root, inner * e
    return m, 1


def discount_classes(discount: Discount, N: int) -> list[tuple[int, Fraction]]:
    """Per rank ``1..N``: ``(class, q)`` with ``1/d(rank) = q · θ_class`` (class 0: θ = 1).

    ``d = log_b m`` with ``m = ρ^e``: ``1/d = (1/e) · ln b / ln ρ``, rational (``e_b / e``)
    when ρ is also the root of b (``b = ρ^e_b``). A non-integer base is assumed not to be
    a rational power of an integer.
    """
    base = 2.0 if discount.kind == "log2" else float(discount.base)
    integer_base = base.is_integer() and base >= 2
    b_root, b_exp = perfect_root(int(base)) if integer_base else (0, 0)
    if discount.kind == "1+log" and not integer_base:
        raise ParameterError("exact 1+log discounts need an integer base")
    out = []
    for i in range(1, N + 1):
        if discount.kind == "jk":
            if i <= base or i == 1:
                out.append((0, Fraction(1)))
                continue
            m = i
        elif discount.kind in ("log", "log2"):
            m = i + 1
        elif discount.kind == "1+log":
            m = int(base) * i
        else:  # pragma: no cover - Discount kinds are validated by the catalogue
            raise ParameterError(f"unknown discount {discount.kind!r}")
        root, e = perfect_root(m)
        if integer_base and root == b_root:
            out.append((0, Fraction(b_exp, e)))
        else:
            out.append((root, Fraction(1, e)))
    return out


def theta(cls: int, discount: Discount | None) -> Decimal:
    """θ of a class to :data:`DIGITS` digits: ``ln b / ln ρ`` (1 for the rational class)."""
    if cls == 0 or discount is None:
        return Decimal(1)
    base = 2.0 if discount.kind == "log2" else float(discount.base)
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        return Decimal(repr(base)).ln() / Decimal(cls).ln()


def _valuation(x: Fraction, prime: int) -> int:
    v = 0
    num, den = x.numerator, x.denominator
    while num % prime == 0:
        num //= prime
        v += 1
    while den % prime == 0:
        den //= prime
        v -= 1
    return v


def _small_primes(values: list[Fraction], limit: int = 1000) -> list[int]:
    found: set[int] = set()
    for x in values:
        for n in (abs(x.numerator), x.denominator):
            p = 2
            while n > 1 and p <= limit:
                if n % p == 0:
                    found.add(p)
                    while n % p == 0:
                        n //= p
                p += 1
    return sorted(found)


def certified_independent(q: list[Fraction], gains: list[Fraction]) -> bool:
    """True when ``Σ q_i g(d_i)`` is injective on gain vectors (p-adic certificate above)."""
    if len(q) <= 1:
        return True
    distinct = sorted(set(gains))
    diffs = [a - b for a in distinct for b in distinct if a != b]
    if not diffs:
        return True
    ratios = [x / q[0] for x in q[1:]]
    for prime in _small_primes(ratios):
        vq = [_valuation(x, prime) for x in q]
        vd = [_valuation(d, prime) for d in diffs]
        spread = max(vd) - min(vd)
        ordered = sorted(vq)
        if min(b - a for a, b in itertools.pairwise(ordered)) > spread:
            return True
    return False


# ====================================================================== the spec
@dataclass
class AdditiveSpec:
    """An additive measure on a space, in float and exact form (module documentation)."""

    space: Space
    terms: np.ndarray                      # (N × levels) float: w_i·g(d) as the kernel adds
    classes: list[tuple[int, Fraction]]    # per rank: (class, q_i)
    gains: list[Fraction]                  # exact gain per degree
    scale: float = 1.0                     # reported value = scale · Σ terms
    discount: Discount | None = None
    thetas: dict[int, Decimal] = field(default_factory=dict)

    @property
    def N(self) -> int:
        return self.space.N

    def raw(self, runs: np.ndarray) -> np.ndarray:
        """``Σ_i terms[i, d_i]`` per run (float)."""
        runs = np.asarray(runs, dtype=np.intp)
        return self.terms[np.arange(self.N), runs].sum(axis=1)

    def class_ranks(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, (cls, _) in enumerate(self.classes):
            out.setdefault(cls, []).append(i)
        return out

    def exact(self, runs: np.ndarray) -> list[ExactSum]:
        """Exact values (comparable) of runs."""
        runs = np.asarray(runs)
        out = []
        for row in runs.tolist():
            coef: dict[int, Fraction] = {}
            for i, d in enumerate(row):
                g = self.gains[d]
                if g:
                    cls, q = self.classes[i]
                    coef[cls] = coef.get(cls, Fraction(0)) + q * g
            key = tuple(sorted((k, v) for k, v in coef.items() if v))
            out.append(ExactSum(key, self._approx(key)))
        return out

    def _approx(self, key: tuple[tuple[int, Fraction], ...]) -> Decimal:
        with localcontext() as ctx:
            ctx.prec = DIGITS + 10
            total = Decimal(0)
            for cls, coef in key:
                if cls not in self.thetas:
                    self.thetas[cls] = theta(cls, self.discount)
                total += Decimal(coef.numerator) / Decimal(coef.denominator) * self.thetas[cls]
            return total

    def rational_only(self) -> bool:
        return all(cls == 0 for cls, _ in self.classes)

    def lexicographic(self) -> bool:
        """True when the value order is the RBTO (lexicographic) order on degree vectors."""
        if not self.rational_only():
            return False
        g = self.gains
        steps = [b - a for a, b in itertools.pairwise(g)]
        if not steps or min(steps) <= 0:
            return False
        span, step = g[-1] - g[0], min(steps)
        q = [c for _, c in self.classes]
        if min(q) <= 0:
            return False
        tail = Fraction(0)
        for i in range(len(q) - 1, -1, -1):
            if q[i] * step <= span * tail:
                return False
            tail += q[i]
        return True


@dataclass(frozen=True)
class ExactSum:
    """An exact additive value: rational coefficients per class, and a 60-digit value.

    Equal keys ⇔ equal values (independent classes); distinct keys are ordered by the
    high-precision value (a difference below 10^-50 raises: never observed)."""

    key: tuple[tuple[int, Fraction], ...]
    approx: Decimal

    def __le__(self, other: ExactSum) -> bool:
        if self.key == other.key:
            return True
        diff = self.approx - other.approx
        if abs(diff) < Decimal(10) ** -(DIGITS - 10):
            raise ArithmeticError("two distinct values agree to 50 digits")
        return diff < 0


def additive_spec(measure: ScaleMeasure, space: Space, context: Context) -> AdditiveSpec:
    """The :class:`AdditiveSpec` of RBP, DCG, nDCG or RBTO on ``space``."""
    N, levels = space.N, space.levels
    ranks = np.arange(1, N + 1)
    if measure.kind == "RBTO":
        gains = [Fraction(d) for d in range(levels)]
        weights = [Fraction(levels) ** (N - i) for i in ranks.tolist()]
        terms = np.outer(np.array([float(w) for w in weights]), np.arange(levels, dtype=float))
        return AdditiveSpec(space, terms, [(0, w) for w in weights], gains)
    gain_floats = measure.gain_floats(levels)
    gains = measure.gain_exact(levels)
    if measure.kind == "RBP":
        p = float(measure.p)  # type: ignore[arg-type]
        weights_f = powers(p, N - 1)  # p^(i−1), repeated multiplication as the kernel
        p_exact = Fraction(repr(p))
        classes = [(0, p_exact ** (i - 1)) for i in ranks.tolist()]
        gmax = float(gain_floats.max(initial=0.0))
        terms = gain_floats[None, :] * weights_f[:, None]
        return AdditiveSpec(space, terms, classes, gains, (1.0 - p) / gmax if gmax > 0 else 0.0)
    if measure.kind in ("DCG", "nDCG"):
        discount = measure.discount
        assert discount is not None
        d = discount(ranks)
        terms = gain_floats[None, :] / d[:, None]
        classes = discount_classes(discount, N)
        spec = AdditiveSpec(space, terms, classes, gains, 1.0, discount)
        if measure.kind == "nDCG":
            ideal = ideal_run_dcg(spec, context, cut=measure.ideal_cut)
            spec.scale = 1.0 / ideal if ideal > 0 else 0.0
        return spec
    raise ParameterError(f"{measure.label} is not additive")


def ideal_run_dcg(spec: AdditiveSpec, context: Context, *, cut: bool = True) -> float:
    """DCG of the ideal run of length N for the topic (degrees by decreasing gain);
    ``cut=False``: of the whole ideal ranking, every relevant document (trec_eval's
    ``ndcg``), added in chunks of ranks."""
    counts = list(context.recall_base)
    gains = [float(g) for g in spec.gains]
    order = [d for d in sorted(range(1, len(counts)), key=lambda d: (-gains[d], -d))
             if gains[d] > 0]
    if cut:
        ideal: list[int] = []
        for d in order:
            ideal += [d] * min(counts[d], spec.N - len(ideal))
        ideal += [0] * (spec.N - len(ideal))
        return float(spec.raw(np.array([ideal]))[0])
    assert spec.discount is not None
    total, rank = 0.0, 1
    for d in order:
        for start in range(0, counts[d], 1 << 22):
            ranks = np.arange(rank + start, rank + min(counts[d], start + (1 << 22)))
            total += float((gains[d] / spec.discount(ranks)).sum())
        rank += counts[d]
    return total


# ====================================================================== blocks and halves
@dataclass
class Block:
    """Distinct partial values of a set of ranks: entries (key id, counts) with run counts."""

    ranks: np.ndarray
    key_id: np.ndarray      # int64 per entry: equal ids ⇔ equal partial values
    n_keys: int
    value: np.ndarray       # float per entry
    mult: np.ndarray        # int64 per entry
    rep: np.ndarray         # int8 (entries × len(ranks)) representative assignment
    counts: np.ndarray      # int64 (entries × c): documents of degree 1..c
    counts_determined: bool  # each key has a single counts vector
    table: np.ndarray | None = None  # int64 (ranks × levels): exact key terms
    keys: np.ndarray | None = None   # sorted distinct keys (key id = position)

    def locate(self, runs: np.ndarray) -> np.ndarray:
        """Key id of each full run's assignment to this block's ranks."""
        assert self.table is not None and self.keys is not None
        part = np.asarray(runs, dtype=np.intp)[:, self.ranks]
        keys = self.table[np.arange(len(self.ranks)), part].sum(axis=1)
        return np.searchsorted(self.keys, keys)


def _block(spec: AdditiveSpec, ranks: list[int], *, track_counts: bool) -> Block:
    levels = spec.space.levels
    s = len(ranks)
    assignments = runs_from_index(np.arange(levels**s), s, levels)
    idx = np.array(ranks, dtype=np.intp)
    # exact key: Σ q_i g(d) scaled to integers
    qg = [[spec.classes[i][1] * g for g in spec.gains] for i in ranks]
    scale = math.lcm(*(x.denominator for row in qg for x in row))
    ints = [[int(x * scale) for x in row] for row in qg]
    common = math.gcd(*(v for row in ints for v in row)) or 1  # e.g. p^(i−1) of one rank
    reduced = np.array([[v // common for v in row] for row in ints], dtype=object)
    if max((abs(v) for row in reduced for v in row), default=0) * s >= (1 << 62):
        raise OverflowError("block keys do not fit in 64 bits")
    table = reduced.astype(np.int64)
    keys = table[np.arange(s), assignments].sum(axis=1) if s else np.zeros(1, np.int64)
    values = spec.terms[idx, assignments].sum(axis=1) if s else np.zeros(1)
    counts = np.stack([(assignments == g).sum(axis=1) for g in range(1, levels)], axis=1)
    uniq_keys, key_id = np.unique(keys, return_inverse=True)
    key_id = key_id.reshape(-1)
    if track_counts:
        combo = np.concatenate([key_id[:, None], counts], axis=1)
        _, first, inverse = np.unique(combo, axis=0, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(key_id, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    mult = np.bincount(inverse).astype(np.int64)
    entry_keys = key_id[first]
    # one float per key: entries sharing a key (other counts) get bit-identical values
    _, key_first = np.unique(key_id, return_index=True)
    values = values[key_first][key_id]
    determined = len(np.unique(entry_keys)) == len(entry_keys)
    return Block(idx, entry_keys.astype(np.int64), len(uniq_keys), values[first], mult,
                 assignments[first], counts[first].astype(np.int64), determined, table,
                 uniq_keys)


def independent_blocks(spec: AdditiveSpec, track_counts: bool) -> list[Block] | None:
    """Blocks of mutually independent ranks (``None`` when a class is too large to
    enumerate and not certified rank by rank)."""
    blocks: list[Block] = []
    for _, ranks in sorted(spec.class_ranks().items()):
        q = [spec.classes[i][1] for i in ranks]
        if certified_independent(q, spec.gains):
            blocks.extend(_block(spec, [i], track_counts=track_counts) for i in ranks)
        elif spec.space.levels ** len(ranks) <= BLOCK_LIMIT:
            blocks.append(_block(spec, ranks, track_counts=track_counts))
        else:
            return None
    return blocks


@dataclass
class Half:
    """The product of blocks: partial values of a set of ranks (see :class:`Block`)."""

    ranks: np.ndarray
    key_id: np.ndarray
    n_keys: int
    value: np.ndarray
    mult: np.ndarray
    rep: Any                # int8 rows (or LazyReps): representative partial runs
    counts: np.ndarray
    counts_determined: bool
    blocks: tuple[Block, ...] = ()

    def locate(self, runs: np.ndarray) -> np.ndarray:
        """Composite key id (as :attr:`key_id`) of each full run's part on these ranks."""
        out = np.zeros(len(runs), dtype=np.int64)
        for block in self.blocks:
            out = out * block.n_keys + block.locate(runs)
        return out


class LazyReps:
    """Representative partial runs of a product of blocks, rebuilt from entry indices
    (mixed radix over the blocks' entries) instead of being stored: ``reps[rows]``."""

    def __init__(self, blocks: tuple[Block, ...], width: int) -> None:
        self.blocks, self.width = blocks, width

    def __getitem__(self, rows) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros((len(rows), self.width), dtype=np.int8)
        rest, col = rows.copy(), self.width
        for block in reversed(self.blocks):
            size = len(block.value)
            width = len(block.ranks)
            out[:, col - width:col] = block.rep[rest % size]
            rest //= size
            col -= width
        return out


def multiply(blocks: list[Block], levels: int, *, track_counts: bool = True) -> Half:
    """Cartesian product of blocks (values added, multiplicities multiplied); entry
    ``((i_1·n_2 + i_2)·n_3 + i_3)...`` combines entry ``i_k`` of block k. Without
    ``track_counts`` (the whole space) the degree counts are not kept (zero columns)."""
    c = levels - 1
    ranks = [np.zeros(0, dtype=np.intp)]
    key_id, n_keys = np.zeros(1, dtype=np.int64), 1
    value, mult = np.zeros(1), np.ones(1, dtype=np.int64)
    counts = np.zeros((1, c if track_counts else 0), dtype=np.int64)
    determined = True
    for block in blocks:
        ranks.append(block.ranks)
        n_keys *= block.n_keys
        determined = determined and block.counts_determined
        if not track_counts:
            # whole space: entry k is key id k (no array needed), and the outer sums need
            # no index arrays (16 bytes an entry at the last product)
            value = np.add.outer(value, block.value).ravel()
            mult = np.multiply.outer(mult, block.mult).ravel()
            continue
        n1, n2 = len(value), len(block.value)
        index = np.int32 if n1 * n2 < 1 << 31 else np.int64  # halves the temporaries
        i = np.repeat(np.arange(n1, dtype=index), n2)
        j = np.tile(np.arange(n2, dtype=index), n1)
        key_id = key_id[i] * block.n_keys + block.key_id[j]
        value = value[i] + block.value[j]
        mult = mult[i] * block.mult[j]
        counts = counts[i] + block.counts[j]
    all_ranks = np.concatenate(ranks)
    return Half(all_ranks, key_id, n_keys, value, mult, LazyReps(tuple(blocks), len(all_ranks)),
                counts, determined, tuple(blocks))


#: Entries of half B (filled first): about 50 bytes each.
HALF_LIMIT = 1 << 22
#: Entries of half A (the rest of the blocks), the memory bound of the engine: beyond it
#: blocks move to B (more searches per query, bounded memory).
LARGE_LIMIT = 1 << 26


def split_sizes(sizes: list[int], limit: int, large: int | None = None
                ) -> tuple[list[int], list[int]]:
    """Indices of the blocks of sizes ``sizes`` for the halves A and B of the meet in the
    middle: B takes blocks, largest first, while its size stays within ``limit``; A gets
    the rest, and while A exceeds ``large`` its smallest blocks move to B (the one split
    rule of :func:`split_blocks` and of the estimate, :mod:`irscale.scales.cost`)."""
    a: list[int] = []
    b: list[int] = []
    size_b = 1
    for k in sorted(range(len(sizes)), key=lambda k: -sizes[k]):
        if size_b * sizes[k] <= limit:
            b.append(k)
            size_b *= sizes[k]
        else:
            a.append(k)
    if large is not None:
        a.sort(key=lambda k: sizes[k])
        while len(a) > 1 and math.prod(sizes[k] for k in a) > large:
            b.append(a.pop(0))
    return a, b


def split_blocks(blocks: list[Block]) -> tuple[list[Block], list[Block]]:
    """Blocks for the halves A and B (:func:`split_sizes`: B takes
    blocks, largest first, within :data:`HALF_LIMIT` entries; A the rest, capped at
    :data:`LARGE_LIMIT` entries by moving its smallest blocks to B). φ scans the smaller
    half and searches the larger: ``|queries| · min(|A|, |B|)`` searches; an image of at
    most HALF_LIMIT values is B alone."""
    a, b = split_sizes([len(block.value) for block in blocks], HALF_LIMIT, LARGE_LIMIT)
    return [blocks[k] for k in a], [blocks[k] for k in b]


# ====================================================================== images
def _error_window(spec: AdditiveSpec) -> float:
    """Bound on |float sum − exact value| of any run, doubled (query and pair both round)."""
    magnitude = float(np.abs(spec.terms).max(axis=1).sum())
    return 4.0 * (spec.N + 4) * 2.0**-53 * magnitude + 1e-300


def _groups_by_counts(a: Half, b: Half, bounds: tuple[int, ...] | None) -> list[PairGroup]:
    """One group per count vector of A, paired with the B entries that keep the run within
    ``bounds`` (a single group for the whole space)."""
    if bounds is None:
        # the arrays are handed over to the group, which sorts them one at a time (the
        # halves keep empty ones: a 43M-entry half is not held twice)
        arrays = (a.value, a.mult, b.value, b.mult)
        for half in (a, b):
            half.value, half.mult = half.value[:0].copy(), half.mult[:0].copy()
        return [PairGroup(arrays[0], arrays[1], None,
                          arrays[2], arrays[3], np.arange(len(arrays[2])))]
    limit = np.asarray(bounds, dtype=np.int64)
    vectors, inverse = np.unique(a.counts, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    groups = []
    for k, vector in enumerate(vectors):
        rows = np.flatnonzero(inverse == k)
        allowed = np.flatnonzero((b.counts + vector[None, :] <= limit[None, :]).all(axis=1))
        if len(allowed):
            groups.append(PairGroup(a.value[rows], a.mult[rows], rows,
                                    b.value[allowed], b.mult[allowed], allowed))
    return groups


def additive_image(spec: AdditiveSpec, *, progress: bool = True, label: str = "") -> Image:
    """The image of an additive measure (module documentation), as a :class:`PairImage`."""
    space = spec.space
    feasible = space.bounds is not None
    try:
        blocks = independent_blocks(spec, track_counts=feasible)
    except OverflowError:
        blocks = None
    post = _scaled(spec.scale)
    if blocks is not None:
        left, right = split_blocks(blocks)
        a = multiply(left, space.levels, track_counts=feasible)
        b = multiply(right, space.levels, track_counts=feasible)
        distinct = not feasible or (a.counts_determined and b.counts_determined)
        table = PairTable(
            _groups_by_counts(a, b, space.bounds), mode="distinct" if distinct else "ids",
            N=spec.N, a_rep=a.rep, a_ranks=a.ranks, b_rep=b.rep, b_ranks=b.ranks,
            # whole space: entry k of a half *is* key id k (one entry per partial value)
            a_id=a.key_id if feasible else None, b_id=b.key_id if feasible else None,
            n_b_ids=b.n_keys, exact=spec.exact,
            window=_error_window(spec), progress=progress, label=label,
            locate=_locator(a, b))
        exactness = "exact ties, float order resolved exactly" if distinct else \
            "exact ties, float order"
        return PairImage(table, space, raw_of=spec.raw, post=post, unit=spec.scale,
                         exactness=exactness,
                         algorithm=f"meet in the middle, {len(blocks)} independent blocks")
    return _prefix_suffix_image(spec, progress=progress, label=label)


def _locator(a: Half, b: Half) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Key ids of runs in the two halves; keeps only the blocks (not the halves' arrays,
    which the pair table holds sorted)."""
    # copies of empty slices: a view would keep the whole arrays alive
    a_half = Half(a.ranks, a.key_id[:0].copy(), a.n_keys, a.value[:0].copy(),
                  a.mult[:0].copy(), None, a.counts[:0].copy(), a.counts_determined, a.blocks)
    b_half = Half(b.ranks, b.key_id[:0].copy(), b.n_keys, b.value[:0].copy(),
                  b.mult[:0].copy(), None, b.counts[:0].copy(), b.counts_determined, b.blocks)
    return lambda runs: (a_half.locate(runs), b_half.locate(runs))


def _scaled(scale: float) -> Callable[[np.ndarray], np.ndarray]:
    def post(raw: np.ndarray) -> np.ndarray:
        return scale * np.asarray(raw, dtype=np.float64)

    return post


def _prefix_suffix_image(spec: AdditiveSpec, *, progress: bool, label: str) -> Image:
    """Integer keys (one rational class) or tolerance, over a prefix/suffix split."""
    space = spec.space
    N, levels = space.N, space.levels
    h = N // 2
    key_table = None
    lcm = 1
    if spec.rational_only():
        q = [c for _, c in spec.classes]
        products = [[qi * g for g in spec.gains] for qi in q]
        lcm = math.lcm(*(x.denominator for row in products for x in row))
        ints = [[int(x * lcm) for x in row] for row in products]
        if sum(max(abs(v) for v in row) for row in ints) < (1 << 62):
            key_table = np.array(ints, dtype=np.int64)
    track = space.bounds is not None
    halves = []
    for ranks in (list(range(h)), list(range(h, N))):
        assignments = runs_from_index(np.arange(levels ** len(ranks)), len(ranks), levels)
        idx = np.array(ranks, dtype=np.intp)
        if key_table is not None:
            raw = key_table[idx, assignments].sum(axis=1)
        else:
            raw = spec.terms[idx, assignments].sum(axis=1)
        counts = np.stack([(assignments == g).sum(axis=1) for g in range(1, levels)], axis=1)
        combo = np.concatenate([raw[:, None].astype(np.float64) if key_table is None
                                else raw[:, None], counts if track else counts[:, :0]],
                               axis=1)
        _, first, inverse = np.unique(combo, axis=0, return_index=True, return_inverse=True)
        mult = np.bincount(inverse.reshape(-1)).astype(np.int64)
        halves.append(Half(idx, np.arange(len(first)), len(first), raw[first], mult,
                           assignments[first], counts[first].astype(np.int64), True))
    a, b = halves
    if key_table is not None:
        lcm_scale = spec.scale / lcm

        def raw_of(runs: np.ndarray) -> np.ndarray:
            runs = np.asarray(runs, dtype=np.intp)
            return key_table[np.arange(N), runs].sum(axis=1)

        table = PairTable(_groups_by_counts(a, b, space.bounds), mode="int", N=N,
                          a_rep=a.rep, a_ranks=a.ranks, b_rep=b.rep, b_ranks=b.ranks,
                          progress=progress, label=label)
        return PairImage(table, space, raw_of=raw_of, post=_scaled(lcm_scale), unit=lcm_scale,
                         exactness="exact", algorithm="meet in the middle, integer keys")
    tol = 1e-9 * float(np.abs(spec.terms).max(axis=1).sum())
    table = PairTable(_groups_by_counts(a, b, space.bounds), mode="tolerance", N=N,
                      a_rep=a.rep, a_ranks=a.ranks, b_rep=b.rep, b_ranks=b.ranks, tol=tol,
                      progress=progress, label=label)
    return PairImage(table, space, raw_of=spec.raw, post=_scaled(spec.scale), unit=spec.scale,
                     exactness=f"tolerance {tol:.1e}", algorithm="meet in the middle, floats")
