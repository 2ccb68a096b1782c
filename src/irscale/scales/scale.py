"""The scale of a measure: its image, φ, tie strategies and the ranked measure M_R.

For a measure M on runs of length N over ``levels`` relevance degrees (Ferrante et al. 2021, §5)::

    φ(m) = |{x ∈ M(REL^N) : x ≤ m}|            (eq. 2, the "unq" tie strategy)
    M_R  = φ(M)                               (the ranked, interval-scaled measure)
    M_R01 = (φ − 1) / (|M(REL^N)| − 1)         (optional affine rescaling to [0, 1])

The min-, max- and mid-rank strategies rank the *runs* of ``REL^N`` sorted by value (tied
runs share the lowest, highest or mean position): ``min = 1 + #{runs < m}``,
``max = #{runs ≤ m}``, ``mid = (min + max)/2``; they are not equi-spaced (Ferrante et al. 2021, §5,
Table 3). :func:`scale` picks the exact algorithm of the measure
(:mod:`irscale.scales.measures`) and caches the structures it builds.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ..core.budget import max_memory_of
from ..errors import ParameterError
from ..parallel import ExecutorArg, check_executor, is_local
from .additive import additive_image, additive_spec
from .average_precision import ap_image
from .closed_forms import CountImage, DyadicImage, FirstRelevantImage, GainSumImage, LexImage
from .cost import DEFAULT_QUERIES, CostEstimate, estimate, report
from .generic import EnumeratedImage
from .image import MATERIALISE_LIMIT, TOLERANCE, ConstantImage, Image, as_index_array, forwarded
from .measures import ScaleMeasure, scale_measure
from .pairs import PairImage
from .params import SCALE
from .params import TIE_STRATEGIES as TIE_STRATEGIES
from .space import Context, RecallBase, Space, to_context

TieStrategy = Literal["unq", "min", "max", "mid"]

#: Structures (pair tables) kept between calls, least recently used dropped first.
CACHE_SIZE = 16
_CACHE: OrderedDict[tuple, Image] = OrderedDict()


def _cached(key: tuple, build) -> Image:
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    image = build()
    _CACHE[key] = image
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return image


def clear_cache() -> None:
    """Forget every cached image structure."""
    _CACHE.clear()


class ScaledImage(Image):
    """An image whose values are ``factor`` × another's (same order, ties and φ): R from
    the counts, AP from S = AP·RB, nDCG from DCG (Ferrante et al. 2021, §7.1.2: same ranked
    measure)."""

    def __init__(self, inner: Image, factor: float) -> None:
        self.inner, self.factor, self.space = inner, float(factor), inner.space
        self.exactness, self.algorithm = inner.exactness, inner.algorithm

    n_runs = forwarded("inner.n_runs")
    n_distinct = forwarded("inner.n_distinct")

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.factor * self.inner.values_of(runs)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        return self.inner.phi(runs)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        return self.inner.runs_below(runs, strict)

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for values, counts in self.inner.iter_sorted():
            yield self.factor * values, counts

    def extremes(self) -> tuple[float, int, float, int]:
        lo, n_lo, hi, n_hi = self.inner.extremes()
        return self.factor * lo, n_lo, self.factor * hi, n_hi


def check_size(measure: ScaleMeasure, space: Space, *, max_memory: int | None = None,
               queries: int = DEFAULT_QUERIES, context: Context | None = None,
               summary: int | None = None) -> CostEstimate:
    """Refuse, before any work, an image no algorithm can hold or that needs more than
    ``max_memory`` bytes (default: half of the RAM); return its :class:`~irscale.scales.
    cost.CostEstimate` (runs, distinct bound, algorithm and why, time, memory; with
    ``summary``, the summary's work too: :func:`~irscale.scales.cost.estimate`)."""
    return estimate(measure, space, queries=queries, max_memory=max_memory, context=context,
                    summary=summary)


def build_image(measure: ScaleMeasure, space: Space, context: Context, *,
                progress: bool = True, executor: ExecutorArg = "local",
                shards: int | None = None, max_memory: str | int | None = None) -> Image:
    """The image algorithm for a measure on a space (see :mod:`irscale.scales.measures`);
    sizes are checked by the caller (:func:`check_size`). ``executor``
    (:mod:`irscale.parallel`) runs the shards of the chunked enumeration and, with a Dask
    executor or ``shards``, the passes of the meet-in-the-middle images over their buckets
    (:mod:`irscale.scales.shards`; ``max_memory`` sizes the shards in flight); the pair
    tables themselves are built here."""
    kind, level = measure.kind, measure.relevance_level

    def sharded(image: Image) -> Image:
        if shards is None and is_local(executor):
            return image  # today's path: streamed in this thread
        from .shards import ShardedPairImage

        assert isinstance(image, PairImage)
        return ShardedPairImage(image, executor, shards=shards, progress=progress,
                                max_memory=max_memory)

    if kind in ("P", "R", "F"):
        if kind == "R" and context.relevant(level) == 0:
            return ConstantImage(space)
        return CountImage(kind, space, context, level=level, beta=measure.beta)
    if kind == "RR":
        return FirstRelevantImage(space, context, level=level)
    if kind == "gP":
        return GainSumImage(measure, space, context)
    if kind == "SBTO" and level == 1:
        return CountImage("SBTO", space, context)
    if kind == "AP":
        rb = context.relevant(level)
        divisor = rb if measure.ap_norm == "R" else min(space.N, rb)
        if divisor == 0:
            return ConstantImage(space)
        base = _cached(("AP", space, level),
                       lambda: ap_image(space, level=level, progress=progress))
        return ScaledImage(sharded(base), 1.0 / divisor)
    if kind in ("RBTO", "RBP", "DCG", "nDCG") and (kind != "RBTO" or level == 1):
        return _additive_image(measure, space, context, sharded, progress=progress)
    return EnumeratedImage(measure, space, context, progress=progress, executor=executor)


def _additive_image(measure: ScaleMeasure, space: Space, context: Context,
                    sharded: Callable[[Image], Image], *, progress: bool) -> Image:
    """The image of an additive measure (RBTO, RBP, DCG, nDCG: a weighted sum over the
    ranks, :func:`~irscale.scales.additive.additive_spec`): constant when its scale is 0,
    lexicographic when its weights decrease fast enough, dyadic for RBP(p=0.5) with
    linear gains, else the meet-in-the-middle pair table of its structure (cached, shared
    by the measures of the same structure, ``sharded`` as :func:`build_image` runs it),
    scaled."""
    kind, level = measure.kind, measure.relevance_level
    spec = additive_spec(measure, space, context)
    if spec.scale == 0.0:
        return ConstantImage(space)
    if spec.lexicographic():
        return LexImage(spec, space)
    structure = (kind if kind != "nDCG" else "DCG", str(measure.gain), measure.discount,
                 measure.p, level, space)
    factor = spec.scale

    def pairs() -> Image:
        image = _cached(structure, lambda: additive_image(
            replace(spec, scale=1.0), progress=progress, label=measure.label))
        return sharded(image) if isinstance(image, PairImage) else image

    if kind == "RBP" and measure.p == 0.5 and space.bounds is None and _linear(spec):
        return DyadicImage(spec, space, lambda: ScaledImage(pairs(), factor))
    return ScaledImage(pairs(), factor)


def _linear(spec) -> bool:
    """Gains proportional to the degree (g(d) = d·g(1) > 0)."""
    g = spec.gains
    return g[1] > 0 and all(g[d] == d * g[1] for d in range(len(g)))


@dataclass(eq=False)
class Scale:
    """The scale of ``measure`` on ``space`` for a topic ``context`` (module docs)."""

    measure: ScaleMeasure
    space: Space
    context: Context
    image: Image
    estimate: CostEstimate | None = None

    # ------------------------------------------------------------ sizes
    N = forwarded("space.N", "Length of the runs of the space.")
    levels = forwarded("space.levels", "Number of relevance degrees of the space.")
    n_runs = forwarded("image.n_runs", "Number of runs of the space.")
    n_distinct = forwarded("image.n_distinct",
                           "``|M(REL^N)|``, the number of steps of the ranked measure.")
    exactness = forwarded("image.exactness", "How ties between values are decided: ``exact``, "
                          "``exact ties`` or ``tolerance`` (:mod:`irscale.scales.image`).")
    algorithm = forwarded("image.algorithm", "The algorithm of the image.")

    # ------------------------------------------------------------ runs
    def check_runs(self, runs: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """``runs`` as an int8 degree matrix of this space (ParameterError otherwise)."""
        array = np.asarray(runs)
        if array.size == 0:  # no run (an empty list or an empty matrix)
            array = array.reshape(0, self.N)
        if array.ndim == 1:
            array = array[None, :]
        if array.ndim != 2 or array.shape[1] != self.N:
            raise ParameterError(f"runs must be rows of {self.N} degrees, got shape "
                                 f"{array.shape}")
        if array.dtype.kind not in "biuf" or (array.dtype.kind == "f" and not (
                np.isfinite(array).all() and (array == np.round(array)).all())):
            raise ParameterError(f"degrees must be integers 0..{self.space.c}, got "
                                 f"{array.dtype} values such as {array.ravel()[:4].tolist()}")
        if len(array) and (array.min() < 0 or array.max() > self.space.c):
            raise ParameterError(f"degrees must lie in 0..{self.space.c}")
        array = array.astype(np.int8)
        if self.space.bounds is not None and not self.space.allows(array).all():
            raise ParameterError(f"a run is not feasible in {self.space.label()}")
        return array

    def values(self, runs) -> np.ndarray:
        """The measure's value of each run."""
        return self.image.values_of(self.check_runs(runs))

    def phi(self, runs, ties: TieStrategy = "unq") -> np.ndarray:
        """φ of each run under a tie strategy (integers; ``mid`` gives halves)."""
        runs = self.check_runs(runs)
        if ties == "unq":
            return as_index_array(self.image.phi(runs))
        if ties not in TIE_STRATEGIES:
            raise ParameterError(f"unknown tie strategy {ties!r}: use {TIE_STRATEGIES}")
        low = self.image.runs_below(runs, True) + 1
        if ties == "min":
            return as_index_array(low)
        high = self.image.runs_below(runs, False)
        if ties == "max":
            return as_index_array(high)
        return (np.asarray(low, dtype=object) + np.asarray(high, dtype=object)) / 2

    def phi_bounds(self, ties: TieStrategy = "unq") -> tuple[float, float]:
        """φ of the smallest and of the largest value of the image."""
        if ties == "unq":
            return 1.0, float(self.n_distinct)
        _, n_lo, _, n_hi = self.image.extremes()
        total = self.n_runs
        lows = {"min": 1, "max": n_lo, "mid": (1 + n_lo) / 2}
        highs = {"min": total - n_hi + 1, "max": total, "mid": (2 * total - n_hi + 1) / 2}
        return float(lows[ties]), float(highs[ties])

    def ranked(self, runs, *, ties: TieStrategy = "unq", rescale: bool = False
               ) -> np.ndarray:
        """M_R of each run (floats), optionally rescaled to [0, 1] by
        ``(φ − φ_min)/(φ_max − φ_min)`` (0 for a one-value image)."""
        raw = np.asarray(self.phi(runs, ties))
        phi = raw.astype(np.float64) if raw.dtype != object else np.array(
            [float(v) for v in raw])
        if not rescale:
            return phi
        low, high = self.phi_bounds(ties)
        return (phi - low) / (high - low) if high > low else np.zeros(len(phi))

    # ------------------------------------------------------------ the image
    def iter_values(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Sorted distinct values with their run counts, in bounded chunks."""
        return self.image.iter_sorted()

    def image_values(self, limit: int | None = MATERIALISE_LIMIT
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct values and run counts, materialised (``limit``: refuse above)."""
        return self.image.values(limit)

    def phi_of_values(self, values: float | Sequence[float] | np.ndarray, *,
                      tol: float = TOLERANCE) -> np.ndarray:
        """φ(m) of measure values m (not runs): ``|{x ∈ image : x ≤ m}|``, with the values
        within ``tol·max(1, |m|)`` of m counted as equal. Counted without listing the
        image where its algorithm counts (meet in the middle, integer keys, the RBTO-ordered
        and dyadic closed forms); otherwise
        the sorted image is streamed in bounded chunks (time grows with its size, memory
        does not). Large images can hold distinct values closer than the
        default ``tol`` (RBP(p=0.8) over three degrees at N = 13: 4.3e-10 apart), which it
        counts as one; pass a smaller ``tol`` (above the values' rounding error) there.
        φ(−∞) = 0 and φ(+∞) = |image|; NaN is refused."""
        m = np.atleast_1d(np.asarray(values, dtype=np.float64))
        if not (np.isfinite(tol) and tol >= 0):
            raise ParameterError(f"phi_of_values: tol must be a finite number ≥ 0, got {tol}")
        if np.isnan(m).any():
            raise ParameterError(f"phi_of_values: value {int(np.flatnonzero(np.isnan(m))[0])} "
                                 "is NaN, which has no place in the image's order")
        infinite = np.isinf(m)
        if infinite.any():
            out = np.where(m > 0, self.n_distinct, 0).astype(np.int64)
            finite = ~infinite
            if finite.any():
                out[finite] = self.phi_of_values(m[finite], tol=tol)
            return out
        upper = m + tol * np.maximum(1.0, np.abs(m))
        image, factor = self.image, 1.0
        if isinstance(image, ScaledImage):
            factor = image.factor
            image = image.inner
        count_values = getattr(image, "count_values", None)  # PairImage, closed forms
        if count_values is not None:
            counted = count_values(upper, factor)
            if counted is not None:
                return np.asarray(counted, dtype=np.int64)
        # the sorted image streamed in bounded chunks: memory stays flat at any size
        counted = np.zeros(len(m), dtype=np.int64)
        for chunk, _ in self.iter_values():
            counted += np.searchsorted(chunk, upper, side="right")
        return counted

    def __repr__(self) -> str:
        return (f"Scale({self.measure.label}, {self.space.label()}, "
                f"n_distinct={self.n_distinct if self._cheap() else '…'}, "
                f"algorithm={self.algorithm!r})")

    def _cheap(self) -> bool:
        inner = self.image.inner if isinstance(self.image, ScaledImage) else self.image
        return not isinstance(inner, PairImage) or inner.table.mode == "distinct" \
            or inner.table._n_distinct is not None


@SCALE
def scale(measure: str | ScaleMeasure, N: int, levels: int | None = None, *,
          recall_base: RecallBase = None, feasible: bool = False,
          progress: bool = True, max_memory: str | int | None = None, explain: bool = False,
          queries: int = DEFAULT_QUERIES, announce: bool = True,
          intents: int | None = None, executor: ExecutorArg = "local",
          shards: int | None = None, summary: int | None = None,
          kind: str = "graded measure") -> Scale:
    """The :class:`Scale` of ``measure`` on runs of length ``N`` over ``levels`` degrees.

    ``N`` ≥ 1; ``levels`` from 2 to 128 (default 2). A diversity measure (``alpha-nDCG@5``,
    ``ERR-IA@10`` ...) takes ``intents`` (S, 1 to 7) instead of ``levels``: its image is
    over the runs whose documents are each relevant to a subset of the S intents
    (:func:`irscale.scales.diversity.diversity_scale`, where ``recall_base`` counts
    documents per intent or per intent set). ``recall_base``: the topic's documents per degree
    (``c`` counts for degrees 1..c, one number for the highest degree (binary relevance: the
    relevant documents), or a :class:`Context` of all ``c + 1`` degrees; each count at most
    2^31 − 1; default N of the highest degree, as Ferrante et al. (2021), Figure 2). ``feasible``:
    restrict the space to the runs the topic allows (at most ``recall_base[g]`` documents
    of degree g); default: the whole ``REL^N``. Bad values raise
    :class:`~irscale.errors.ParameterError` naming the parameter.

    Before any work the cost is estimated (:mod:`irscale.scales.cost`, for ``queries`` φ
    queries, and with ``summary`` the work of :func:`~irscale.scales.diagnostics.summarize`
    streaming images of up to ``summary`` distinct values) and the scale refused when it
    needs more than ``max_memory`` (bytes or a size
    such as ``"2G"``; default half of the RAM); the estimate is printed on standard error
    (``irscale: estimate ...``) when the work may take more than a couple of seconds and
    ``progress`` is on; ``explain`` prints the algorithm chosen and why. The estimate is
    kept as :attr:`Scale.estimate`; ``announce=False`` prints nothing (a caller that
    already reported it, as :func:`~irscale.scales.transform.transform` does once per
    measure). ``executor`` (:mod:`irscale.parallel`: ``"local"``, ``"local:N"``, a Dask
    scheduler address or Client) runs the shards of the chunked enumeration (measures
    without an exact image algorithm: ERR, Q, diversity measures ...) and the passes of the
    meet-in-the-middle images (AP, DCG/nDCG, RBP ...) over the whole image (distinct count,
    sorted slices, written files) as shards of their buckets, ``shards`` of them at most
    (default one per bucket of about 4M candidate pairs; with ``executor="local"``,
    ``shards`` runs them on this process's threads): :mod:`irscale.scales.shards`. The
    image is the same, bit for bit, wherever they run. ``shards`` for an image without
    pair buckets (closed forms, enumeration) is a :class:`~irscale.errors.ParameterError`.

    Which of ``levels``, ``intents`` and ``shards`` apply depends on the kind of the measure
    (:func:`~irscale.scales.params.measure_kind`): they are checked on entry by the binding of
    that kind (:data:`irscale.scales.params.SCALE`, which derives ``kind`` on entry:
    :class:`~irscale.core.binding.Derived`, never given), as ``irscale scale image`` checks its
    options.
    """
    from .diversity import diversity_scale

    executor = check_executor(executor)
    if kind == "diversity measure":
        assert intents is not None  # (required by the binding of its kind)
        return Scale(*diversity_scale(str(measure), N, intents, recall_base=recall_base,
                                      feasible=feasible, progress=progress,
                                      max_memory=max_memory, explain=explain,
                                      queries=queries, announce=announce,
                                      executor=executor))
    levels = 2 if levels is None else levels
    space = Space(N, levels)  # N and levels checked first, named as the caller wrote them
    limit = max_memory_of(max_memory)
    measure = scale_measure(measure).for_length(space.N)
    if measure.relevance_level > space.c:
        raise ParameterError(
            f"{measure.label}: relevance level rel={measure.relevance_level} but REL^N with "
            f"{space.levels} levels has degrees 0..{space.c}: every run would score 0 (give "
            f"--levels (levels) ≥ {measure.relevance_level + 1})")
    if shards is not None and measure.kind not in PAIR_KINDS:  # before any work
        raise _no_buckets(measure.label, space.label(), "has no meet-in-the-middle image")
    # sizes first (a huge N is refused as such, before its default recall base)
    cost = check_size(measure, space, max_memory=limit, queries=queries, summary=summary)
    context = to_context(recall_base, space)
    if feasible:
        space = Space(N, levels, context.bounds())
    if announce:
        report(cost, progress=progress, explain=explain)
    image = build_image(measure, space, context, progress=progress, executor=executor,
                        shards=shards, max_memory=max_memory)
    if shards is not None:
        from .shards import ShardedPairImage

        inner = image.inner if isinstance(image, ScaledImage) else image
        if not isinstance(inner, ShardedPairImage):
            raise _no_buckets(measure.label, space.label(),
                              f"uses {image.algorithm!r}, which has no pair buckets")
    return Scale(measure, space, context, image, cost)


#: Measure kinds whose images may be meet-in-the-middle pair tables (``shards`` applies).
PAIR_KINDS = ("AP", "RBTO", "RBP", "DCG", "nDCG")


def _no_buckets(label: str, space: str, why: str) -> ParameterError:
    return ParameterError(f"shards (--shards) applies to the meet-in-the-middle images (AP, "
                          f"DCG/nDCG, RBP ...): {label} on {space} {why}")


def warn_infeasible_runs(sc: Scale) -> None:
    """Warn when the scale's space is the whole REL^N but holds runs its topic does not
    allow (more documents of degree ≥ g than the recall base has) and the measure reads
    the recall base: there it leaves its range (AP above 1 with 3 relevant documents and
    N = 5). ``irscale scale image`` calls it; ``transform`` uses such spaces on purpose
    (its ``feasible=False``)."""
    measure, space, context = sc.measure, sc.space, sc.context
    if space.bounds is not None or not measure.depends_on_recall_base:
        return
    short = [g for g in range(1, space.levels) if context.relevant(g) < space.N]
    if short:
        warnings.warn(
            f"{measure.label}: the recall base {list(context.bounds())} has fewer than N = "
            f"{space.N} documents of degree ≥ {short[0]}: REL^{space.N} holds runs with more "
            f"of them than the topic has, where {measure.label} leaves its range "
            "(--feasible / feasible=True keeps only the runs the topic allows)", stacklevel=3)
