"""The completions of the bounds search that can hold an extreme, found in linear time.

:mod:`irscale.collections.bounds` searches, for every ranking with ``u`` unjudged documents
(in the depth searched), the ``u + 1`` *prefix* completions (the first ``k`` unjudged
documents given the highest grade, the others the lowest) and the ``u + 1`` *suffix* ones
(the last ``k``). Evaluating every one costs ``O(u · n)`` for a ranking of ``n``
documents: quadratic in the depth of a run with few judgments. Here the value of a measure
at every ``k`` of both families is followed along the chain of completions, each from the
one before, in ``O(n)`` a ranking (numpy over the whole batch; the thresholds of bpref by
binary search, ``O(n log n)``): going from ``k - 1`` to ``k`` changes one document's grade
and ``R`` (and the ideal ranking) by one. The search then evaluates, with the engine's own
kernels, only the completions where a chain reaches its minimum or maximum (and those
within :data:`TIES` of it, :data:`KEEP` at most; the first one only where the chain's
values are the kernels' own, :data:`EXACT`): the bounds are the kernels' values, as
before, at a handful of completions a ranking instead of ``2 (u + 1)``.

The chains (``R``: the relevant documents of the topic, ``h``: the documents given the
highest grade, ``k`` in the view plus, in the suffix family, those below it; ranks ``i``
from 1):

* ``map``, ``map_cut``: ``S / R`` with ``S = Σ_{relevant i} c(i) / i``; raising the
  unjudged document at rank ``p`` adds ``c(p) / p`` and ``1 / j`` for every relevant
  document ``j`` below it (within the cut-off);
* ``Rprec``: ``h(min(n, R)) / R``; ``recall`` at ``c``: ``h(min(n, c)) / R``;
  ``relative_P``: ``h(c) / min(c, R)``, with ``h(m)`` the relevant documents of the first
  ``m``, counted from cumulative counts of the judged and the unjudged ones;
* ``ndcg`` (the degrees as gains) and ``ndcg_cut``: DCG plus the raised document's gain
  difference over its discount; the ideal DCG from the grade counts, each grade's block of
  the ideal ranking read off the cumulative discounts;
* ``bpref``: ``(1/R) Σ_{relevant d} [1 − min(N(d), R) / min(NR, R)]`` where ``N(d)``, the
  judged non-relevant documents above ``d`` (the unjudged ones given a judged lowest grade
  included), grows along the ranking, so each family's sum of ``min(N(d), R)`` splits at
  the first rank where ``N(d)`` reaches a threshold (:func:`numpy.searchsorted`);
* ``iprec_at_recall``, ``11pt_avg`` and ``AP11``: the best precision ``i / q_i`` of the
  relevant documents numbered ``i ≥ m`` (at ranks ``q_i``) splits at the first unjudged
  document not raised (prefix) or raised (suffix): above it a range of values fixed along
  the chain (a sparse table), below it lines ``(i₀ + k) / q`` in ``k``, whose best of a
  suffix comes from monotone row maxima (:mod:`.bounds_interpolated`, ``O(n log² n)`` at
  worst); the values are the kernels' own (:data:`EXACT`);
* measures of the grades of the retrieved documents alone (:data:`ENDS`: never falling as
  a grade rises, or linear in ``k``: ``num_rel``): the all-lowest and all-highest
  completions.

The chains assume the usual case of binary relevance, the highest grade relevant and the
lowest not; otherwise the binary measures take one value whatever ``k``. Any other family,
parameter or option (a gain map, ``@`` cut-offs on other families, condensed or
conditional rankings) has no chain: the search evaluates every completion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core.judged import NONPOOL, JudgedRankings
from ..core.segments import ranges, segment_cumsum, segment_sum
from ..measures.base import MeasureRequest
from .bounds_interpolated import FAMILIES as INTERPOLATED
from .bounds_interpolated import Candidates, Count, Lines, level_counts, lines_max

#: Families whose extremes are the all-lowest and all-highest completions: measures of the
#: grades of the retrieved documents alone (no ``R``, no ideal ranking: never falling as a
#: grade rises), and counts linear in ``k`` (or constant).
ENDS = frozenset({"P", "success", "recip_rank", "RBP", "rbp", "DCG", "dcg", "ERR", "set_P",
                  "num_rel_ret", "num_rel", "num_ret", "num_nonrel_judged_ret"})
#: Distance to a chain's extreme (relative, for values beyond 1) within which a completion
#: is evaluated too: the chains add floats in another order than the kernels.
TIES = 1e-9
#: Families whose chains' values are the kernels' own (each one division of two counts,
#: as the kernel divides): the first completion at an extreme is evaluated, and no other.
EXACT = frozenset({"iprec_at_recall"})
#: Most completions of one chain evaluated for one extreme (a plateau of equal values,
#: such as nDCG@10 once the first 10 ranks and the ideal ones are set, needs one).
KEEP = 4


@dataclass
class Chains:
    """The completions of every ranking of ``view``: slot ``start[s] + k`` is the
    completion of ranking ``s`` giving ``k`` documents the highest grade (of the prefix
    family, or of the suffix family). ``below``: per ranking, its unjudged documents below
    the view; ``lowest``, ``highest``: the grades given."""

    view: JudgedRankings
    below: np.ndarray
    lowest: int
    highest: int
    binary: dict[int, Relevance] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ layout
    @cached_property
    def unjudged(self) -> np.ndarray:
        """Per document: not in the qrels."""
        return self.view.rel == NONPOOL

    @cached_property
    def ucum(self) -> np.ndarray:
        """Per document: unjudged documents at or above it (its ranking's)."""
        return segment_cumsum(self.unjudged.astype(np.int64), self.view.offsets)

    @cached_property
    def elements(self) -> np.ndarray:
        """The unjudged documents, in ranking and rank order."""
        return np.flatnonzero(self.unjudged)

    @cached_property
    def u(self) -> np.ndarray:
        """Per ranking: its unjudged documents (in the view)."""
        return np.bincount(self.view.segment[self.elements], minlength=self.view.n_rankings)

    @cached_property
    def start(self) -> np.ndarray:
        """Per ranking: its first slot."""
        return np.concatenate(([0], np.cumsum(self.u + 1)[:-1])).astype(np.int64)

    @cached_property
    def size(self) -> int:
        return int((self.u + 1).sum())

    @cached_property
    def slot_ranking(self) -> np.ndarray:
        return np.repeat(np.arange(self.view.n_rankings), self.u + 1)

    @cached_property
    def k(self) -> np.ndarray:
        """Per slot: the documents of the view given the highest grade."""
        return np.arange(self.size) - np.repeat(self.start, self.u + 1)

    @cached_property
    def uoffsets(self) -> np.ndarray:
        """Offsets of every ranking's unjudged documents in :attr:`elements`."""
        return np.concatenate(([0], np.cumsum(self.u))).astype(np.int64)

    @cached_property
    def index(self) -> np.ndarray:
        """Per unjudged document: its place among its ranking's (0-based)."""
        return self.ucum[self.elements] - 1

    @cached_property
    def owner(self) -> np.ndarray:
        """Per unjudged document: its ranking."""
        return self.view.segment[self.elements]

    @cached_property
    def rank(self) -> np.ndarray:
        """Per unjudged document: its rank (float)."""
        return self.view.rank[self.elements].astype(np.float64)

    def family(self, suffix: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per slot of the family: the documents given the highest grade and the lowest,
        the view's and those below it (prefix: below at the lowest; suffix: the
        highest)."""
        u, below = self.u[self.slot_ranking], self.below[self.slot_ranking]
        if suffix:
            return self.k + below, u - self.k
        return self.k, u - self.k + below

    def chain(self, base: np.ndarray, step: np.ndarray, suffix: bool) -> np.ndarray:
        """Per slot: ``base`` (per ranking) plus the ``step`` (per unjudged document) of
        every document raised: the first ``k`` (prefix) or the last ``k`` (suffix)."""
        out = np.repeat(np.asarray(base, dtype=np.float64), self.u + 1)
        if len(self.elements):
            steps = np.asarray(step, dtype=np.float64)
            summed = _scan(steps, self.uoffsets, reverse=suffix)
            slot = self.start[self.owner] + (self.u[self.owner] - self.index if suffix
                                             else self.index + 1)
            out[slot] += summed
        return out

    def below_in_segment(self, values: np.ndarray) -> np.ndarray:
        """Per unjudged document: the sum of ``values`` (per unjudged document) of the
        unjudged documents below it in its ranking."""
        if not len(values):
            return values
        return _scan(values, self.uoffsets, reverse=True) - values

    def at_rank(self, cumulative: np.ndarray, ranks: np.ndarray, ranking: np.ndarray
                ) -> np.ndarray:
        """``cumulative`` (per document, inclusive) at rank ``ranks`` (0: nothing) of
        ``ranking``, ranks clipped to the ranking's length."""
        view = self.view
        clipped = np.minimum(ranks, view.lengths[ranking]).astype(np.int64)
        padded = np.concatenate(([0], cumulative))
        return np.where(clipped > 0, padded[view.offsets[ranking] + clipped], 0)

    def relevance(self, level: int) -> Relevance | None:
        """The binary view at ``level`` (None where the completions do not change it), one
        for every request at that level."""
        if not (self.highest >= level > self.lowest):
            return None
        return self.binary.setdefault(level, Relevance(self, level))


@dataclass
class Relevance:
    """Binary relevance at ``level`` along the chains (the highest grade relevant, the
    lowest not)."""

    chains: Chains
    level: int

    @cached_property
    def relevant(self) -> np.ndarray:
        """Per document: judged relevant (the unjudged are not)."""
        return self.chains.view.rel >= self.level

    @cached_property
    def ocum(self) -> np.ndarray:
        return segment_cumsum(self.relevant.astype(np.int64), self.chains.view.offsets)

    @cached_property
    def r0(self) -> np.ndarray:
        """Per ranking: R of its topic before completion."""
        return self.chains.view.judged_at_least(self.level)

    @cached_property
    def interpolation(self) -> Interpolation:
        """The lists of the chains of interpolated precision."""
        return Interpolation(self)

    def recall_base(self, suffix: bool) -> np.ndarray:
        """Per slot: R (the documents given the highest grade are relevant)."""
        high, _ = self.chains.family(suffix)
        return self.r0[self.chains.slot_ranking] + high

    def hits(self, ranks: np.ndarray, suffix: bool) -> np.ndarray:
        """Per slot: the relevant documents among the first ``ranks`` (per slot)."""
        c = self.chains
        ranking = c.slot_ranking
        judged = c.at_rank(self.ocum, ranks, ranking)
        unjudged = c.at_rank(c.ucum, ranks, ranking)
        raised = np.maximum(unjudged - (c.u[ranking] - c.k), 0) if suffix else \
            np.minimum(c.k, unjudged)
        return judged + raised


@dataclass
class Interpolation:
    """The chains of interpolated precision of the binary view ``binary``
    (:mod:`irscale.collections.bounds_interpolated`)."""

    binary: Relevance

    @cached_property
    def judged(self) -> Candidates:
        """The judged relevant documents."""
        return Candidates.of(self.binary.chains.view, self.binary.relevant)

    @cached_property
    def either(self) -> Candidates:
        """The judged relevant documents and the unjudged ones."""
        return Candidates.of(self.binary.chains.view, self.binary.relevant |
                             self.binary.chains.unjudged)

    @cached_property
    def sides(self) -> dict[bool, tuple[np.ndarray, ...]]:
        """Per family (``suffix``), per slot: ``R`` (float), the relevant documents
        retrieved, the judged relevant ones above the split, the split's place in
        :attr:`either` (1-based; past the end where none), and the offset of the ranking in
        the list of the documents above the split (:attr:`judged` in the suffix family,
        :attr:`either` in the prefix one) less one."""
        c = self.binary.chains
        ranking, k = c.slot_ranking, c.k
        u = c.u[ranking]
        out: dict[bool, tuple[np.ndarray, ...]] = {}
        for suffix in (False, True):
            place, has = (u - k, k > 0) if suffix else (k, k < u)
            above = self.judged.length[ranking].copy()
            if has.any():
                above[has] = self.binary.ocum[c.elements[c.uoffsets[ranking[has]] +
                                                         place[has]]]
            out[suffix] = (self.binary.recall_base(suffix).astype(np.float64),
                           self.judged.length[ranking] + k, above,
                           np.where(has, above + place + 1, self.either.length[ranking] + 1),
                           (self.judged if suffix else self.either).offset[ranking] - 1)
        return out

    @cached_property
    def lines(self) -> dict[bool, Lines]:
        """Per family: the lines below the split (:mod:`.bounds_interpolated`)."""
        c = self.binary.chains
        return {False: Lines(c.slot_ranking, self.judged, c.k),
                True: Lines(c.slot_ranking, self.either, c.k - c.u[c.slot_ranking])}

    @cached_property
    def below_split(self) -> np.ndarray:
        """Per slot of the prefix family: the best precision of the judged relevant
        documents below its split (-inf where none): the run end of ``U`` unjudged documents
        above lies below the split for ``k < U``; the dyadic blocks of every ``[0, U)``
        (one per bit of ``U``) are tasks of :func:`lines_max`, rows the block's ``k``."""
        c, judged = self.binary.chains, self.judged
        out = np.full(c.size, -np.inf)
        ends = judged.ends
        unjudged_above = c.ucum[judged.docs[ends]]
        ranking = c.view.segment[judged.docs[ends]]
        blocks: list[tuple[np.ndarray, ...]] = []
        for bit in range(int(unjudged_above.max(initial=0)).bit_length()):
            chosen = np.flatnonzero((unjudged_above >> bit) & 1)
            if not len(chosen):
                continue
            block = unjudged_above[chosen] >> bit
            begin = np.flatnonzero(np.r_[True, (block[1:] != block[:-1]) |
                                         (ranking[chosen[1:]] != ranking[chosen[:-1]])])
            finish = np.r_[begin[1:], len(chosen)] - 1
            blocks.append((ranking[chosen[begin]], (block[begin] - 1) << bit,
                           np.full(len(begin), 1 << bit), chosen[begin], chosen[finish]))
        if not blocks:
            return out
        owner, k0, size, c0, c1 = (np.concatenate(parts) for parts in zip(*blocks, strict=True))
        k = ranges(k0, size)
        stop = np.cumsum(size)
        values = lines_max(judged.rank[ends], judged.counted[ends].astype(np.float64),
                           k.astype(np.float64), np.repeat(c0, size),
                           (stop - size, stop, c0, c1))
        np.maximum.at(out, c.start[np.repeat(owner, size)] + k, values)
        return out

    def values(self, count: Count, suffix: bool) -> np.ndarray:
        """Per slot of the family: the interpolated precision at the level of ``count``
        (:mod:`irscale.collections.bounds_interpolated`)."""
        c = self.binary.chains
        recall_base, retrieved, above, split, offset = self.sides[suffix]
        level = np.maximum(count(recall_base), 1)
        live = level <= retrieved
        if suffix:  # above the split: J(d)/d; below: (E(d) - u + k)/d
            kept = self.judged.range_max(offset + level, np.where(live, offset + above, -1))
            lines = self.lines[True]
            start = np.maximum(split, level - lines.shift)  # (shift: k - u)
            below = lines.best(live & (start <= self.either.length[c.slot_ranking]), start)
        else:  # above the split: E(d)/d; below: (J(d) + k)/d
            alone = live & (level - c.k > above)  # none above the split counts
            kept = self.either.range_max(offset + level,
                                         np.where(live & ~alone, offset + split - 1, -1))
            below = np.where(alone, self.lines[False].best(alone, level - c.k),
                             self.below_split)
        return np.where(live, np.maximum(kept, below), 0.0)


def _scan(values: np.ndarray, offsets: np.ndarray, *, reverse: bool = False) -> np.ndarray:
    """Running sums of ``values`` within every segment (``reverse``: from its end), from
    one global running sum: rounded with the magnitude of the whole batch, which a chain
    tolerates (:data:`TIES`), and much faster than adding in each segment's order."""
    total = np.concatenate(([0.0], np.cumsum(values)))
    lengths = np.diff(offsets)
    if reverse:
        return np.repeat(total[offsets[1:]], lengths) - total[:-1]
    return total[1:] - np.repeat(total[offsets[:-1]], lengths)


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """``top / bottom``, 0 where ``bottom`` is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), 0.0)


# --------------------------------------------------------------------------- the chains
Values = Iterable[tuple[np.ndarray, np.ndarray]]  # per output: (prefix, suffix) per slot
Chain = Callable[[Chains, MeasureRequest, int], "Values | None"]


#: The cut-offs of ``map_cut``, ``recall``, ``relative_P`` and ``ndcg_cut`` given none
#: (trec_eval's).
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _cutoffs(request: MeasureRequest) -> list[float]:
    """The cut-offs of ``request`` (its parameters, or :data:`CUTOFFS`)."""
    return [float(c) for c in (request.params or CUTOFFS)]


def _average_precision(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    binary = c.relevance(level)
    cuts = [np.inf] if request.family == "map" else _cutoffs(request)
    if binary is None:
        return []
    view = c.view
    out = []
    for cut in cuts:
        inside = view.rank <= cut
        counted = binary.relevant & inside
        below = _scan(np.where(counted, 1.0 / view.rank, 0.0), view.offsets,
                      reverse=True)[c.elements]
        base = segment_sum(np.where(counted, binary.ocum / view.rank, 0.0), view.offsets,
                           view.segment)
        reach = (c.rank <= cut).astype(np.float64)
        own = binary.ocum[c.elements]
        raised_below = c.below_in_segment(reach / c.rank)
        prefix = c.chain(base, reach * ((own + c.index + 1) / c.rank + below), False)
        suffix = c.chain(base, reach * ((own + 1) / c.rank + below + raised_below), True)
        out.append((_ratio(prefix, binary.recall_base(False)),
                    _ratio(suffix, binary.recall_base(True))))
    return out


def _precision_of_r(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    binary = c.relevance(level)
    if binary is None:
        return []
    values = []
    for suffix in (False, True):
        recall_base = binary.recall_base(suffix)
        values.append(_ratio(binary.hits(recall_base, suffix), recall_base))
    return [(values[0], values[1])]


def _recall(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    binary = c.relevance(level)
    if binary is None:
        return []
    out = []
    for cut in _cutoffs(request):
        pair = []
        for suffix in (False, True):
            hits = binary.hits(np.full(c.size, cut), suffix)
            recall_base = binary.recall_base(suffix)
            pair.append(_ratio(hits, recall_base) if request.family == "recall" else
                        _ratio(hits, np.minimum(cut, recall_base)))
        out.append((pair[0], pair[1]))
    return out


def _gain(grade: int) -> float:
    """The gain of a document given ``grade`` (its degree; a negative grade is unjudged)."""
    return float(max(grade, 0))


def _ndcg(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    if request.family == "ndcg" and request.params:
        return None  # a gain map: no chain
    cuts = [np.inf] if request.family == "ndcg" else _cutoffs(request)
    view = c.view
    degrees = view.column_degrees
    grades = np.union1d(degrees[degrees > 0],
                        [g for g in (c.lowest, c.highest) if g > 0])[::-1]
    counts = np.zeros((view.n_rankings, len(grades)), dtype=np.int64)
    for column, degree in enumerate(degrees.tolist()):
        if degree > 0:
            counts[:, int(np.flatnonzero(grades == degree)[0])] += view.rel_levels[:, column]
    longest = int(counts.sum(axis=1).max(initial=0) + (c.u + c.below).max(initial=0)) + 1
    discounts = np.concatenate(([0.0], np.cumsum(1.0 / np.log2(np.arange(2, longest + 2)))))
    rank = view.rank.astype(np.float64)
    gains = np.where(c.unjudged, _gain(c.lowest), np.maximum(view.rel, 0)).astype(np.float64)
    out = []
    for cut in cuts:
        inside = rank <= cut
        base = segment_sum(np.where(inside, gains / np.log2(rank + 1), 0.0), view.offsets,
                           view.segment)
        step = np.where(c.rank <= cut, (_gain(c.highest) - _gain(c.lowest))
                        / np.log2(c.rank + 1), 0.0)
        pair = []
        for suffix in (False, True):
            dcg = c.chain(base, step, suffix)
            slot_counts = counts[c.slot_ranking]
            high, low = c.family(suffix)
            for grade, added in ((c.highest, high), (c.lowest, low)):
                if grade > 0:
                    slot_counts[:, int(np.flatnonzero(grades == grade)[0])] += added
            ends = np.cumsum(slot_counts, axis=1)
            last = min(cut, longest)
            ideal = np.zeros(c.size)
            for column, grade in enumerate(grades.tolist()):
                end = np.minimum(ends[:, column], last).astype(np.int64)
                first = np.minimum(ends[:, column] - slot_counts[:, column], last)
                ideal += grade * (discounts[end] - discounts[first.astype(np.int64)])
            pair.append(_ratio(dcg, ideal))
        out.append((pair[0], pair[1]))
    return out


def _bpref(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    binary = c.relevance(level)
    if binary is None:
        return []
    view = c.view
    judged_low = 1 if c.lowest >= 0 else 0  # an unjudged document given it is judged
    nonrel = (view.rel >= 0) & (view.rel < level)
    above = segment_cumsum(nonrel.astype(np.int64), view.offsets)  # J: at or above
    either = binary.relevant | c.unjudged  # relevant once raised
    reach = above + judged_low * c.ucum  # N of a relevant document below every lowered one
    cum_either = segment_cumsum(either.astype(np.int64), view.offsets)
    sum_either = segment_cumsum(np.where(either, above, 0), view.offsets)
    cum_rel = binary.ocum
    sum_rel = segment_cumsum(np.where(binary.relevant, reach, 0), view.offsets)
    ranking = c.slot_ranking
    total_rel = c.at_rank(cum_rel, view.lengths[ranking], ranking)
    span = int(view.lengths.max(initial=0)) + int(binary.r0.max(initial=0)) + \
        3 * int((c.u + c.below).max(initial=0)) + 8
    shift = ranking * (4 * span)

    def first_at_least(keys: np.ndarray, threshold: np.ndarray) -> np.ndarray:
        """Per slot: the rank of the first document with ``keys`` ≥ ``threshold``, less one
        (keys grow along every ranking)."""
        at = np.searchsorted(keys + view.segment * (4 * span), threshold + shift)
        return at - view.offsets[ranking]

    def sum_min(cum: np.ndarray, sums: np.ndarray, keys: np.ndarray, low: np.ndarray,
                high: np.ndarray, cap: np.ndarray) -> np.ndarray:
        """Per slot: Σ min(key, cap) over the counted documents at ranks (low, high]."""
        split = np.clip(first_at_least(keys, cap), low, high)
        small = c.at_rank(sums, split, ranking) - c.at_rank(sums, low, ranking)
        large = c.at_rank(cum, high, ranking) - c.at_rank(cum, split, ranking)
        return small + cap * large

    boundary = np.zeros(c.size, dtype=np.int64)  # prefix: the rank of the k-th unjudged
    raised = c.k > 0
    boundary[raised] = view.rank[c.elements][c.uoffsets[ranking[raised]] + c.k[raised] - 1]
    lengths = view.lengths[ranking]
    values = []
    for suffix in (False, True):
        recall_base = binary.recall_base(suffix)
        low = c.family(suffix)[1]
        nonrelevant = view.num_nonrel[ranking] + judged_low * low
        if suffix:  # the lowered: the first u - k; the last of them at rank `last`
            lowered = c.u[ranking] - c.k
            last = np.zeros(c.size, dtype=np.int64)
            some = lowered > 0
            last[some] = view.rank[c.elements][c.uoffsets[ranking[some]] + lowered[some] - 1]
            offset = judged_low * lowered
            capped = sum_min(cum_rel, sum_rel, reach, np.zeros_like(last), last,
                             recall_base) + \
                sum_min(cum_either, sum_either, above, last, lengths,
                        recall_base - offset) + offset * (
                    c.at_rank(cum_either, lengths, ranking) - c.at_rank(cum_either, last,
                                                                         ranking))
        else:  # the raised: the first k, the last of them at rank `boundary`
            offset = judged_low * c.k
            capped = sum_min(cum_either, sum_either, above, np.zeros_like(boundary), boundary,
                             recall_base) + \
                sum_min(cum_rel, sum_rel, reach, boundary, lengths, recall_base + offset) - \
                offset * (total_rel - c.at_rank(cum_rel, boundary, ranking))
        relevant = c.at_rank(cum_rel, lengths, ranking) + c.k
        share = _ratio(capped.astype(np.float64), np.minimum(nonrelevant, recall_base))
        values.append(_ratio(relevant - share, recall_base))
    return [(values[0], values[1])]


def _interpolated(c: Chains, request: MeasureRequest, level: int) -> Values | None:
    counts = level_counts(request)
    if counts is None:
        return None
    binary = c.relevance(level)
    if binary is None:
        return []
    found = binary.interpolation
    values = ((found.values(count, False), found.values(count, True)) for count in counts)
    if request.family == "iprec_at_recall":
        return values  # (one level at a time)
    prefix, suffix = next(values)
    for more in values:
        prefix, suffix = prefix + more[0], suffix + more[1]
    return [(prefix / len(counts), suffix / len(counts))]


#: The families with a chain (module documentation), by name.
CHAINS: dict[str, Chain] = {
    "map": _average_precision, "map_cut": _average_precision, "Rprec": _precision_of_r,
    "recall": _recall, "relative_P": _recall, "ndcg": _ndcg, "ndcg_cut": _ndcg,
    "bpref": _bpref, **dict.fromkeys(INTERPOLATED, _interpolated),
}


def candidates(view: JudgedRankings, below: np.ndarray, lowest: int, highest: int,
               requests: Sequence[MeasureRequest], relevance_level: int
               ) -> tuple[Chains, np.ndarray, np.ndarray] | None:
    """The chains of ``view`` and, per slot, whether the search evaluates the prefix and
    the suffix completion (module documentation); None when a request has no chain (the
    search evaluates every completion)."""
    chains = Chains(view, below, lowest, highest)
    prefix = np.zeros(chains.size, dtype=bool)
    suffix = np.zeros(chains.size, dtype=bool)
    prefix[chains.start] = True  # the all-lowest and all-highest completions: always
    suffix[chains.start + chains.u] = True
    for request in requests:
        if request.condensed or request.conditional:
            return None
        if request.family in ENDS:  # (whatever its cut-off)
            continue
        if request.cutoff is not None:
            return None
        chain = CHAINS.get(request.family)
        level = relevance_level if request.relevance_level is None else \
            request.relevance_level
        found = None if chain is None else chain(chains, request, level)
        if found is None:
            return None
        exact = request.family in EXACT
        for values in found:
            for chosen, slots in ((prefix, values[0]), (suffix, values[1])):
                chosen |= _extreme(chains, slots, exact) | _extreme(chains, -slots, exact)
    chains.binary.clear()  # (the chains' lists: not needed by the search)
    return chains, prefix, suffix


def _extreme(chains: Chains, values: np.ndarray, exact: bool) -> np.ndarray:
    """Per slot: whether its value is within :data:`TIES` of its ranking's largest, among
    the first :data:`KEEP` of them (``exact``: the first slot holding the largest)."""
    if not chains.size:
        return np.zeros(0, dtype=bool)
    values = np.where(np.isnan(values), -np.inf, values)
    best = np.fmax.reduceat(values, chains.start)
    top = best[chains.slot_ranking]
    near = values >= (top if exact else top - TIES * np.maximum(np.abs(top), 1.0))
    offsets = np.concatenate((chains.start, [chains.size]))
    return near & (segment_cumsum(near.astype(np.int64), offsets) <= (1 if exact else KEEP))
