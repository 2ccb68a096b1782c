"""The completions of the bounds search that can hold an extreme, found in linear time.

:mod:`irscale.collections.bounds` searches, for every ranking with ``u`` unjudged documents
(in the depth searched), the ``u + 1`` *prefix* completions (the first ``k`` unjudged
documents given the highest grade, the others the lowest) and the ``u + 1`` *suffix* ones
(the last ``k``). Evaluating every one costs ``O(u · n)`` for a ranking of ``n``
documents: quadratic in the depth of a run with few judgments. Here the value of a measure
at every ``k`` of both families is followed along the chain of completions, each from the
one before, in ``O(n)`` or ``O(n log n)`` a ranking (the engine, ``rust/src/bounds/``, one
module a family, a ranking at a time): going from ``k - 1`` to ``k`` changes one document's
grade and ``R`` (and the ideal ranking) by one. The search then evaluates, with the
engine's own kernels, only the completions where a chain reaches its minimum or maximum
(and those within ``TIES = 1e-9`` of it, ``KEEP = 4`` at most: the chains add floats in
another order than the kernels); where the chain's values are the kernels' own
(:data:`EXACT`: one division of two counts, as the kernel divides), its extremes are the
bounds and no completion is evaluated for it. The bounds are the kernels' values, as
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
  the first rank where ``N(d)`` reaches a threshold (a binary search);
* ``iprec_at_recall``, ``11pt_avg`` and ``AP11``: the best precision ``i / q_i`` of the
  relevant documents numbered ``i ≥ m`` (at ranks ``q_i``) splits at the first unjudged
  document not raised (prefix) or raised (suffix): above it a range of values fixed along
  the chain (a sparse table), below it lines ``(i₀ + k) / q`` in ``k``, the best of a
  suffix of them from their upper envelope, which grows along the chain
  (``rust/src/bounds/interpolated.rs``, ``O(n log n)``); the values are the kernels' own
  (:data:`EXACT`);
* measures of the grades of the retrieved documents alone (:data:`ENDS`: never falling as
  a grade rises, or linear in ``k``: ``num_rel``), and those whose binary relevance the
  completions do not change: the all-lowest and all-highest completions.

The chains assume the usual case of binary relevance, the highest grade relevant and the
lowest not; otherwise the binary measures take one value whatever ``k``. Any other family,
parameter or option (a gain map, ``@`` cut-offs on other families, condensed or
conditional rankings) has no chain: the search evaluates every completion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core.bounds_kernels import Pairs, chain_marks, chain_values
from ..core.judged import NONPOOL, JudgedRankings
from ..measures.base import EvalContext, FloatList, MeasureRequest, get_family

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..measures.plan import PlannedColumn

    PlannedColumns = tuple[PlannedColumn, ...]

#: Families whose extremes are the all-lowest and all-highest completions: measures of the
#: grades of the retrieved documents alone (no ``R``, no ideal ranking: never falling as a
#: grade rises), and counts linear in ``k`` (or constant).
ENDS = frozenset({"P", "success", "recip_rank", "RBP", "rbp", "DCG", "dcg", "ERR", "set_P",
                  "num_rel_ret", "num_rel", "num_ret", "num_nonrel_judged_ret"})
#: Families whose chains' values are the kernels' own (each one division of two counts,
#: as the kernel divides): their extremes are the bounds.
EXACT = frozenset({"iprec_at_recall", "Rprec", "recall", "relative_P"})
#: Families whose chains give one output per parameter (cut-off or level), each apart from
#: the others: the requests of one at one relevance level are followed in one pass, their
#: parameters together (``iprec_at_recall_0.10`` and ``iprec_at_recall_0.20``: one pass of
#: two levels).
SEPARABLE = frozenset({"iprec_at_recall", "map_cut", "recall", "relative_P", "ndcg_cut"})
#: The cut-offs of ``map_cut``, ``recall``, ``relative_P`` and ``ndcg_cut`` given none
#: (trec_eval's).
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass
class Chains:
    """The completions of every ranking of ``view``: slot ``start[s] + k`` is the
    completion of ranking ``s`` giving ``k`` documents the highest grade (of the prefix
    family, or of the suffix family). ``below``: per ranking, its unjudged documents below
    the view; ``lowest``, ``highest``: the grades given. Once :func:`candidates` has
    followed the chains, what the bounds search evaluates (module documentation): the slots
    :attr:`prefix` and :attr:`suffix` for the requests ``chained``, the all-lowest and
    all-highest completions alone for ``ends``; and per label of an exact chain's output,
    per ranking, the lowest and the highest value (``known``)."""

    view: JudgedRankings
    below: np.ndarray
    lowest: int
    highest: int
    chained: list[MeasureRequest] = field(default_factory=list)
    ends: list[MeasureRequest] = field(default_factory=list)
    known: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @cached_property
    def prefix(self) -> np.ndarray:
        """Per slot of the prefix family: whether the search evaluates it (the all-lowest
        completion of every ranking, at least)."""
        chosen = np.zeros(self.size, dtype=bool)
        chosen[self.start] = True
        return chosen

    @cached_property
    def suffix(self) -> np.ndarray:
        """Per slot of the suffix family: whether the search evaluates it (the all-highest
        completion of every ranking, at least)."""
        chosen = np.zeros(self.size, dtype=bool)
        chosen[self.start + self.u] = True
        return chosen

    @cached_property
    def u(self) -> np.ndarray:
        """Per ranking: its unjudged documents (in the view)."""
        view = self.view
        return np.bincount(view.segment[view.rel == NONPOOL], minlength=view.n_rankings)

    @cached_property
    def start(self) -> np.ndarray:
        """Per ranking: its first slot."""
        return np.concatenate(([0], np.cumsum(self.u + 1)[:-1])).astype(np.int64)

    @cached_property
    def size(self) -> int:
        return int((self.u + 1).sum())

    def values(self, request: MeasureRequest, level: int) -> Pairs | None:
        """Per output of ``request`` (at relevance ``level``), its value at every slot of
        the prefix and of the suffix family (``[]`` where the completions do not change
        it; None: no chain)."""
        params = chain_params(request)
        if params is None:
            return None
        return chain_values(request.family, *params, self.view, self.below,
                            (self.lowest, self.highest), level) or []

    def marks(self, family: str, params: tuple[list[int], list[float]], level: int,
              marked: str) -> tuple[np.ndarray, np.ndarray, Pairs] | None:
        """Where the chain of ``family`` (with the parameters ``params``, at relevance
        ``level``) reaches an extreme: per slot of the prefix and of the suffix family,
        whether it can hold one (``marked``: ``near`` each extreme, the ``first`` at each,
        or ``none``: empty arrays), and per output, per ranking, its lowest and highest
        value (None: the completions do not change it)."""
        return chain_marks(family, *params, self.view, self.below,
                           (self.lowest, self.highest), level, marked)


def _cutoffs(request: MeasureRequest) -> tuple[list[int], list[float]]:
    """The cut-offs of ``request`` (its parameters, or :data:`CUTOFFS`)."""
    return [int(c) for c in (request.params or CUTOFFS)], []


def _none(request: MeasureRequest) -> tuple[list[int], list[float]]:
    return [], []


def _ndcg(request: MeasureRequest) -> tuple[list[int], list[float]] | None:
    """``ndcg``'s chain: the degrees as gains (a gain map: no chain)."""
    return None if request.params else ([], [])


def _levels(request: MeasureRequest) -> tuple[list[int], list[float]] | None:
    """The recall levels of ``iprec_at_recall`` and ``11pt_avg`` (trec_eval 9.0.8's
    counts, as the bounds evaluate); None for ``11pt_avg`` levels out of order (trec_eval's
    walk then gives the levels after the first one missed the best precision anywhere: no
    chain)."""
    params = request.params if request.params is not None else \
        get_family(request.family).params.default
    levels = [float(x) for x in (params.values if isinstance(params, FloatList) else params)]
    return None if levels != sorted(levels) else ([], levels)


#: The families with a chain (module documentation): the engine's parameters of a request's
#: chain (cut-offs, levels; None: no chain).
CHAINS = {"map": _none, "map_cut": _cutoffs, "Rprec": _none, "recall": _cutoffs,
          "relative_P": _cutoffs, "ndcg": _ndcg, "ndcg_cut": _cutoffs, "bpref": _none,
          "iprec_at_recall": _levels, "11pt_avg": _levels, "AP11": _none}


def chain_params(request: MeasureRequest) -> tuple[list[int], list[float]] | None:
    """The engine's parameters of ``request``'s chain (None: it has none)."""
    read = CHAINS.get(request.family)
    return None if read is None else read(request)


def _interpolated(c: Chains, request: MeasureRequest, level: int) -> Pairs | None:
    """The values of the chains of interpolated precision (``iprec_at_recall``,
    ``11pt_avg``, ``AP11``) of ``request``: per level (or of their mean), at every slot of
    both families (:meth:`Chains.values`)."""
    return c.values(request, level)


@dataclass
class _Pass:
    """The requests whose chains are followed in one pass: of ``family``, at relevance
    ``level``, each with its labels (``plan``: its columns where its chain is exact and
    gives its bounds, else None) and its parameters, laid end to end."""

    family: str
    level: int
    requests: list[tuple[MeasureRequest, PlannedColumns | None, int]] = field(
        default_factory=list)
    ints: list[int] = field(default_factory=list)
    floats: list[float] = field(default_factory=list)


def candidates(view: JudgedRankings, below: np.ndarray, lowest: int, highest: int,
               requests: Sequence[MeasureRequest], relevance_level: int,
               context: EvalContext | None = None) -> Chains | None:
    """The chains of ``view`` and what the search evaluates (module documentation), the
    labels of exact chains' outputs as ``context`` prints them; None when a request has no
    chain (the search evaluates every completion)."""
    chains = Chains(view, below, lowest, highest)
    passes = _passes(chains, requests, relevance_level, context)
    if passes is None:
        return None
    for each in passes:
        _mark(chains, each)
    return chains


def _passes(chains: Chains, requests: Sequence[MeasureRequest], relevance_level: int,
            context: EvalContext | None) -> list[_Pass] | None:
    """The passes of the search over ``requests`` (the separable families' requests of
    one level grouped in one pass; the measures the completions do not change added to
    ``chains.ends``), or None when a request has no chain."""
    from ..measures.plan import plan_trec

    passes: dict[tuple[object, ...], _Pass] = {}
    for request in requests:
        if request.condensed or request.conditional:
            return None
        if request.family in ENDS:  # (whatever its cut-off)
            chains.ends.append(request)
            continue
        params = None if request.cutoff is not None else chain_params(request)
        if params is None:
            return None
        level = relevance_level if request.relevance_level is None else \
            request.relevance_level
        plan = plan_trec([request], context or EvalContext()) \
            if request.family in EXACT else None
        columns = None if plan is None else plan.columns
        key = (request.family, level, columns is None) \
            if request.family in SEPARABLE else (len(passes),)
        group = passes.setdefault(key, _Pass(request.family, level))
        group.requests.append((request, columns, len(params[0]) + len(params[1])))
        group.ints += params[0]
        group.floats += params[1]
    return list(passes.values())


def _mark(chains: Chains, each: _Pass) -> None:
    """One pass's marks on ``chains``: the prefixes and suffixes a chain must keep, the
    exact outputs of its requests with known columns (``chains.known``) and its other
    requests chained; its requests end ``chains.ends`` when the completions do not change
    them."""
    exact = each.family in EXACT
    known = all(columns is not None for _, columns, _ in each.requests)
    found = chains.marks(each.family, (each.ints, each.floats), each.level,
                         "none" if known else "first" if exact else "near")
    if found is None:  # the completions do not change it
        chains.ends += [request for request, _, _ in each.requests]
        return
    if not known:
        chains.prefix |= found[0]
        chains.suffix |= found[1]
    first = 0
    for request, columns, count in each.requests:
        outputs = found[2][first:first + count] if each.family in SEPARABLE else found[2]
        first += count
        if columns is None:
            chains.chained.append(request)
            continue
        for column in columns:
            chains.known[column.label] = outputs[column.output]
