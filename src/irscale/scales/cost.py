"""Up-front cost of a scale: runs, a bound on the distinct values, the algorithm chosen (and
why), its time and memory — computed from the structure of the measure, before any work.

:func:`estimate` is the one size check of the package: it refuses (``ParameterError``)
what no algorithm can hold (run indices beyond 2^24 bits, AP beyond 64-bit keys, exact
counts beyond :data:`EXACT_COUNTS_BUDGET`, enumerations beyond 2^40 runs) and what would
need more memory than ``max_memory`` (default: half of the machine's RAM), with the
estimate in the message (:func:`irscale.core.budget.check_memory`, the one refusal of the
package). :func:`irscale.core.progress.notice` prints it before a long computation.

The time is counts of work times per-unit CPU costs measured on the 2-core development
machine (:func:`estimate`; docs/scales.md): ``scale image`` took 0.5–2 × its estimate on
the cases of ``benchmarks/bench_scale_estimate.py`` (docs/benchmarks.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal

from ..core.budget import MAX_MEMORY, check_memory, format_size
from ..core.progress import duration_text
from ..errors import ParameterError
from .measures import ScaleMeasure
from .space import Space

#: Memory the exact run counts of a closed-form image may take (bytes).
EXACT_COUNTS_BUDGET = 1 << 30
#: Largest space (runs) the generic algorithm enumerates: 2^40 runs take days.
ENUMERATION_BITS = 40
#: Largest space of any image: run indices and exact counts of up to 2^24 bits.
RUN_INDEX_BITS = 1 << 24
#: Largest N whose AP keys S·lcm(1..N) fit in 64 bits.
AP_MAX_N = 40
#: Images of up to this many distinct values are listed (materialised) when asked.
LIST_LIMIT = 1 << 24
#: Interpreter, numpy and the measures (bytes), in every estimate.
BASE_MEMORY = 120 << 20
#: Seconds per unit of work (order of magnitude, this machine).
SECONDS_PER_ENTRY = 2e-7        # building and sorting one entry of a meet-in-the-middle half
SECONDS_PER_PAIR = 1.6e-8       # one candidate pair of a de-duplicating stream (AP, keys):
                                # gathered, SIMD-sorted, de-duplicated
SECONDS_PER_CLASS_PAIR = 8e-10  # the same counted by residue classes (AP's keys over
                                # enough buckets): one bit set in its class's bitmap
SECONDS_PER_RUN = 2e-6          # one kernel evaluation of the generic enumeration, where
                                # the kernel cannot be timed on a sample (kernel_seconds)
#: Runs of the sample :func:`kernel_seconds` times (the best of three): a few milliseconds.
KERNEL_SAMPLE = 2048
SECONDS_PER_QUERY = 1e-5        # one φ query's own work (its run located, its window resolved)
SECONDS_PER_KEY_QUERY = 4e-6    # the same in a streamed table of integer keys (AP): the run's
                                # key, then a binary search in its bucket's distinct keys
SECONDS_PER_SEARCH = 7e-9       # one needle of a φ search in the larger half, per square
                                # root of its stride n_large/n_small (the entries it
                                # gallops over: cache and TLB misses grow with the stride;
                                # fitted on strides 3 to 25,000, docs/scales.md)
SECONDS_PER_VALUE = 1.3e-7      # one value of the summary's pass over the sorted image
SECONDS_START = 0.7              # a command's start-up (interpreter, numpy, pandas, the
                                # measures imported), counted with the summary
#: Bytes per entry of a meet-in-the-middle half at its peak (values, multiplicities and the
#: sort order while the half is sorted in place; 1.57 GB for the 44.6M entries of nDCG@30
#: with three degrees) and per streamed pair.
BYTES_PER_ENTRY = 36
BYTES_PER_PAIR = 48
#: Queries assumed when none are given (a transform of 16 runs × 50 topics).
DEFAULT_QUERIES = 800
#: Spaces of up to this many runs are enumerated by the summary's order diagnostics
#: (:func:`irscale.scales.diagnostics.order_properties`); random runs (this many, fewer for
#: long runs) refute the orders of larger ones.
ENUMERATE_LIMIT = 1 << 18
SAMPLES = 4000
#: Positions m of the structured counterexample runs when N is larger than this.
STRUCTURED_POSITIONS = 512
#: Degrees the random counterexample runs may hold in all: long runs get fewer samples.
SAMPLE_CELLS = 1 << 23


@dataclass(frozen=True)
class CostEstimate:
    """What computing a scale will cost (module documentation)."""

    measure: str
    space: str
    runs: int
    distinct: int          # upper bound on |image|
    algorithm: str
    reason: str
    seconds: float
    memory: int            # bytes
    queries: int
    searches: int = 0      # φ searches in a pair table's larger half (PairTable.searches)
    summary_queries: int = 0  # φ queries of the summary's order diagnostics, when counted

    def line(self) -> str:
        """One line: ``estimate for M on REL^N: ...``."""
        return (f"estimate for {self.measure} on {self.space}: {_count(self.runs)} runs, "
                f"at most {_count(self.distinct)} distinct values; {self.algorithm}: "
                f"{duration_text(self.seconds)} and about {format_size(self.memory)} for "
                f"{self.queries} φ queries"
                + (f" and the summary ({self.summary_queries:,} more)"
                   if self.summary_queries else ""))

    def explain(self) -> str:
        """The algorithm chosen and why."""
        return f"{self.measure}: {self.algorithm}, because {self.reason}"


def _count(n: int) -> str:
    """``1,234`` below 10^15, ``1.23e+15`` beyond (also past the range of a float)."""
    return f"{n:,}" if n < 10**15 else f"{Decimal(n):.2e}"


# ------------------------------------------------------------------ the estimate
def estimate(measure: ScaleMeasure, space: Space, *, queries: int = DEFAULT_QUERIES,
             max_memory: int | None = None, context=None, summary: int | None = None
             ) -> CostEstimate:
    """The :class:`CostEstimate` of ``measure`` on ``space``; raises
    :class:`~irscale.errors.ParameterError` when no algorithm can hold it or when it needs
    more than ``max_memory`` bytes (module documentation).

    The time is a sum of counts of work times the per-unit costs above: the image's own
    work (entries of the meet-in-the-middle halves, candidate pairs of a streamed pass,
    runs enumerated), then ``queries`` φ queries and, with ``summary`` (the largest image
    that :func:`irscale.scales.diagnostics.summarize` streams), the summary's order
    diagnostics (:func:`order_queries`: calls × runs) and its
    pass over the image. A φ query costs :data:`SECONDS_PER_QUERY`
    (:data:`SECONDS_PER_KEY_QUERY` in a streamed table) plus, in a pair table
    of independent blocks, one search per entry of the smaller half, each
    :data:`SECONDS_PER_SEARCH` × sqrt(n_large/n_small) (the stride it gallops); in a streamed
    table (integer keys) a call regenerates the buckets its queries fall in, at most
    every candidate pair once."""
    N, levels = space.N, space.levels
    bits = N * math.log2(levels)
    label = measure.label
    if bits > RUN_INDEX_BITS:
        raise ParameterError(
            f"-N/N = {N} with {levels} levels is too large: a run's index in the space "
            f"({levels}^{N} runs) would take more than 2^{RUN_INDEX_BITS.bit_length() - 1} "
            "bits")
    kind = measure.kind
    if kind == "AP" and N > AP_MAX_N:
        raise ParameterError(f"AP's exact image needs N ≤ {AP_MAX_N} (64-bit keys), got {N}")
    runs = space.n_runs
    load = _Load(queries, space, summary)
    if kind in ("P", "R", "F", "RR", "SBTO", "gP"):
        distinct = math.comb(N + space.c, space.c) if kind in ("SBTO", "gP") else N + 1
        need = 3 * distinct * bits / 8
        if need > EXACT_COUNTS_BUDGET:
            raise ParameterError(
                f"-N/N = {N} is too long a run for the exact image of {label}: it "
                f"counts the runs of each of its {distinct} values exactly ({levels}^{N} runs "
                f"in all), about {format_size(need)} of integers (limit "
                f"{format_size(EXACT_COUNTS_BUDGET)})")
        result = CostEstimate(label, space.label(), runs, distinct,
                          "closed form (counts)" if kind != "RR" else
                          "closed form (first relevant rank)",
                          "the value depends on the counts of degrees (or the first relevant "
                          "rank) only: φ follows from the run itself",
                          distinct * 2e-6 + load.seconds(distinct),
                          BASE_MEMORY + int(4 * need) + 64 * distinct, queries)
    elif kind == "AP":
        h = N // 2
        pairs = (1 << h) + (h + 1) * (1 << (N - h))
        candidates = 1 << N
        from ..core.pair_kernels import CLASS_BUCKETS
        from .pairs import BUCKET_PAIRS

        # the prefix values (ranks ≤ h) share a factor: over enough buckets the pass counts
        # by residue classes (rust/src/scales/residues.rs), else it sorts the buckets
        classes = candidates >= CLASS_BUCKETS * BUCKET_PAIRS
        per_pair = SECONDS_PER_CLASS_PAIR if classes else SECONDS_PER_PAIR
        how = ("counts them class by class of their residues modulo the prefix values' "
               "common factor (a bitmap per class)" if classes else
               "sorts and de-duplicates them in buckets")
        memory = BASE_MEMORY + BYTES_PER_PAIR * (min(candidates, BUCKET_PAIRS) + pairs)
        result = CostEstimate(label, space.label(), runs, min(runs, candidates),
                          "meet in the middle over the prefix count, integer keys",
                          "AP·RB·lcm(1..N) is an integer and distinct runs often have equal "
                          "AP (a dynamic programme over (rank, relevant so far) would count "
                          f"runs, not values): runs are cut after {h} ranks and grouped by "
                          "the prefix's relevant count j (S·L = A + j·U + V), and the "
                          "distinct values are counted exactly in one streamed pass over at "
                          f"most 2^{N} candidate pairs that {how}",
                          candidates * per_pair + classes * pairs * SECONDS_PER_ENTRY
                          + load.seconds(candidates, candidates=candidates,
                                         pair_seconds=per_pair),
                          memory, queries)
    elif kind in ("RBTO", "RBP", "DCG", "nDCG"):
        result = _additive_estimate(measure, space, load, context)
    else:
        if bits > ENUMERATION_BITS:
            raise ParameterError(
                f"-N/N = {N} with {levels} levels is too large for {label}: its image "
                f"is found by enumerating all {levels}^{N} runs (at most 2^{ENUMERATION_BITS})")
        from .generic import DISTINCT_BUDGET
        result = CostEstimate(label, space.label(), runs, runs, "chunked enumeration",
                          "no exact structure is known for this measure: every run is "
                          "scored by its kernel, values closer than 1e-9 are tied",
                          runs * kernel_seconds(measure, space, context) + load.seconds(runs),
                          BASE_MEMORY + 32 * min(runs, DISTINCT_BUDGET) + (64 << 20), queries)
    result = replace(result, summary_queries=load.total - load.queries)
    check_memory(result.memory, result.line(), "a smaller -N or fewer --levels, or a larger "
                 "--max-memory", max_memory=max_memory, option=MAX_MEMORY)
    return result


def kernel_seconds(measure: ScaleMeasure, space: Space, context=None) -> float:
    """Seconds per run of ``measure``'s kernel in the chunked enumeration, measured on this
    machine: the best of three scorings of the first :data:`KERNEL_SAMPLE` runs of
    ``space`` (the kernels differ by an order of magnitude: P@10 about 0.25 µs a run of
    length 12, ERR@12 about 2 µs); without a ``context``, on the space's default topic
    (:func:`~irscale.scales.space.to_context`). A kernel that refuses the sample (a
    non-finite value) is priced at :data:`SECONDS_PER_RUN`; the enumeration reports it."""
    import time

    from ..errors import IrscaleError
    from .enumeration import iter_runs
    from .space import to_context

    context = to_context(context, space)
    sample = next(iter_runs(space, KERNEL_SAMPLE, 0, min(space.n_runs, KERNEL_SAMPLE)), None)
    if sample is None or len(sample) < 64:  # too few runs to time (a feasible space's)
        return SECONDS_PER_RUN
    best = math.inf
    for _ in range(3):
        started = time.perf_counter()
        try:
            measure.kernel_values(sample, context)
        except IrscaleError:
            return SECONDS_PER_RUN
        best = min(best, time.perf_counter() - started)
    return best / len(sample)


def order_queries(space: Space, *, enumerate_limit: int = ENUMERATE_LIMIT,
                  samples: int = SAMPLES) -> tuple[int, int]:
    """The φ queries :func:`~irscale.scales.diagnostics.order_properties` makes on
    ``space``, as (calls, runs per call), at most: one call over every run up to
    ``enumerate_limit`` runs; else four calls (a run and its successor, a run and a
    permutation of it) over the structured runs and the random samples (fewer on a
    feasible space). :func:`estimate` counts them for a summary."""
    if space.levels**space.N <= enumerate_limit:
        return 1, space.levels**space.N
    positions = min(space.N, STRUCTURED_POSITIONS)
    return 4, positions * (1 + space.c) + min(samples, max(SAMPLE_CELLS // space.N, 1))


class _Load:
    """The φ queries and the summary's pass that follow an image (:func:`estimate`)."""

    def __init__(self, queries: int, space: Space, summary: int | None) -> None:
        self.queries, self.summary = queries, summary
        self.calls, self.per_call, self.total = 1, queries, queries
        if summary is not None:
            calls, per_call = order_queries(space)
            self.calls, self.per_call = 1 + calls, max(queries, per_call)
            self.total += calls * per_call

    def seconds(self, distinct: int, *, candidates: int = 0, small: int = 0,
                large: int = 0, pair_seconds: float = SECONDS_PER_PAIR) -> float:
        """Seconds of the queries and the summary's pass over an image of ``distinct``
        values: a streamed table's ``candidates`` pairs regenerated by each call
        (``pair_seconds`` each), or searches from the ``small`` half into the ``large``
        one per query."""
        from .pairs import BUCKET_PAIRS

        per_query = SECONDS_PER_KEY_QUERY if candidates else SECONDS_PER_QUERY
        seconds = self.total * per_query + (self.summary is not None) * SECONDS_START
        if candidates:
            seconds += self.calls * min(candidates, self.per_call * BUCKET_PAIRS) \
                * pair_seconds
        if small:
            seconds += self.searches(small) * SECONDS_PER_SEARCH * math.sqrt(max(large / small,
                                                                                 1.0))
        if self.summary is not None and distinct <= self.summary:
            seconds += distinct * SECONDS_PER_VALUE + candidates * pair_seconds
        return seconds

    def searches(self, small: int) -> int:
        """Searches of every query in a pair table whose smaller half has ``small`` entries
        (:meth:`irscale.scales.pairs.PairTable.count_cost`)."""
        return self.total * small


def _additive_estimate(measure: ScaleMeasure, space: Space, load: _Load, context
                       ) -> CostEstimate:
    """Additive measures: the block structure decides the algorithm (no enumeration)."""
    from .additive import (
        BLOCK_LIMIT,
        HALF_LIMIT,
        LARGE_LIMIT,
        _block,
        additive_spec,
        certified_independent,
        split_sizes,
    )
    from .space import to_context

    label, N, levels = measure.label, space.N, space.levels
    runs = space.n_runs
    spec = additive_spec(measure, space, context if context is not None
                         else to_context(None, Space(N, levels)))
    if spec.lexicographic() or spec.scale == 0.0:
        return CostEstimate(label, space.label(), runs, runs, "closed form (RBTO order)",
                        "each weight dominates the sum of the weights after it: the value "
                        "order is the lexicographic order of the runs, φ = RBTO + 1",
                        N * 1e-5 + load.seconds(runs), BASE_MEMORY, load.queries)
    distinct_gains = len(set(spec.gains))
    sizes: list[int] = []
    streamed = False
    for _, ranks in sorted(spec.class_ranks().items()):
        q = [spec.classes[i][1] for i in ranks]
        if certified_independent(q, spec.gains):
            sizes += [distinct_gains] * len(ranks)
        elif levels ** len(ranks) <= BLOCK_LIMIT:  # its distinct partial values, exactly
            sizes.append(_block(spec, ranks, track_counts=False).n_keys)
        else:
            streamed = True
            break
    if streamed:
        return CostEstimate(label, space.label(), runs, runs,
                        "meet in the middle, integer keys (streamed)",
                        "a class of equal-weight ranks is too large for independent blocks: "
                        "distinct values are counted exactly in one streamed, de-duplicated "
                        f"pass over the {levels}^{N} pairs of a prefix and a suffix",
                        runs * SECONDS_PER_PAIR + load.seconds(runs, candidates=runs),
                        BASE_MEMORY + BYTES_PER_PAIR * (min(runs, 1 << 22)
                                                        + 2 * levels ** ((N + 1) // 2)),
                        load.queries)
    a, b = split_sizes(sizes, HALF_LIMIT, LARGE_LIMIT)
    size_a = math.prod(sizes[k] for k in a)
    size_b = math.prod(sizes[k] for k in b)
    distinct = size_a * size_b
    small, large = sorted((size_a, size_b))
    listed = "small enough to list, counted all the same" if distinct <= LIST_LIMIT else \
        f"too large to list (more than {LIST_LIMIT:,})"
    return CostEstimate(
        label, space.label(), runs, distinct,
        f"meet in the middle, {len(sizes)} independent blocks",
        "the measure is additive over ranks and its ranks split into independent blocks "
        "(exact classes of weights; distinct partial values never collide across blocks), "
        f"so |image| = |A|·|B| ({size_a:,} × {size_b:,}), {listed}: φ(m) = #{{(a, b): a + b "
        f"≤ m}} by {load.total} × {small:,} searches in the larger half",
        (size_a + size_b) * SECONDS_PER_ENTRY + load.seconds(distinct, small=small,
                                                              large=large),
        BASE_MEMORY + BYTES_PER_ENTRY * (size_a + size_b), load.queries,
        searches=load.searches(small))
