"""The C/W/L framework (Moffat, Thomas & Scholer, "Users versus models: what observation
tells us about effectiveness metrics", CIKM 2013; Moffat, Bailey, Scholer & Thomas, "INST: an
adaptive metric for information retrieval evaluation", ADCS 2015, and "Incorporating user
expectations and behavior into the measurement of search effectiveness", TOIS 2017;
Azzopardi, Thomas & Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
2019). The works cited in full: docs/measures.md, "The C/W/L framework".

A user reads a ranking from the top; after the item at rank i she goes on to rank i + 1 with
the *continuation* probability ``C(i)``. Every C/W/L measure is its continuation function
(or its weights); from it follow, over the ranks 1..N (N = ``depth``)::

    P(i) = Π_{j<i} C(j)                        probability of reaching rank i
    W(i) = P(i) / Σ_{j≤N} P(j)                 weight of rank i (sums to 1)
    L(i) = P(i) · (1 − C(i))                   probability of stopping at rank i

and the five outputs, with g(i) the gain and c(i) the cost of the item at rank i::

    EU  = Σ_i W(i) g(i)                        expected utility per item (the "rate")
    ETU = Σ_i L(i) Σ_{j≤i} g(j)                expected total utility
    EC  = Σ_i W(i) c(i)                        expected cost per item
    ETC = Σ_i L(i) Σ_{j≤i} c(j)                expected total cost
    ED  = 1 / W(1) = Σ_i P(i)                  expected depth (items examined)

A measure defined by its weights W instead (TBG, U, TrAP) has ``C(i) = W(i+1)/W(i)`` (0
where W(i) = 0, and C(N) = 0), and ``ED = 1/W(1)``.

As cwl_eval (1.0.12) does, every ranking is evaluated over exactly N = ``depth`` ranks
(default 1,000, cwl_eval's ``--max_depth``): a longer ranking is cut, a shorter one padded.
Gains and costs of the *worst case* (the values reported):

* the gain of a judged document is ``g(degree) / gmax`` (``gain=``, default linear, and
  ``maxrel=``, as irscale's RBP): in [0, 1], as cwl_eval's gain files must be (its
  ``--max_gain`` is 1); a binary qrels file gives the gains cwl_eval reads from it; graded
  degrees 0..c give the gains of a cwl_eval gain file holding degree / c. Unjudged
  documents (not in the qrels, or judged negative) and padded ranks gain 0;
* the cost of a document is its value in the label set ``costs`` (cwl_eval's cost file,
  which prices the element type of the run's second column; irscale prices each document:
  ``topic iter docno cost``, topic ``*`` for every topic), and ``maxcost`` (default 1) for
  a document without one and for padded ranks; without ``costs`` every rank costs
  ``maxcost``.

A measure whose user never reads past its cut-off k (``CWL-P@k``, ``SDCG@k``, ``NERR8@k``,
``NERR9@k``, ``SET@k``) is evaluated over N = k ranks and takes no ``depth``: every N ≥ k
gives its values.

``out=`` picks the output: ``EU`` (default), ``ETU``, ``EC``, ``ETC``, ``ED``, or a
*residual* ``ResEU`` ... ``ResED`` (cwl_eval's ``-r``): the output of the best case (unjudged
and padded ranks of gain 1, documents without a cost and padded ranks costing ``mincost``)
minus that of the worst case.

Rankings are laid out in blocks of at most :data:`BLOCK_CELLS` ranks (rankings × N), each
block computed with whole-matrix numpy operations (no loop per topic or per document).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import padded_slots, ranges
from ..core.subsets import memo
from ..errors import MeasureError
from .base import EvalContext, register
from .gain_discount import (
    MAXREL,
    MAXREL_CHECK,
    degree_gains,
    element_gains,
    gain_keyword,
    max_gain,
)
from .multi_aspect import label_values
from .params import (
    Keyword,
    Keywords,
    Params,
    choice,
    identifier,
    integer,
    needs_cutoff,
    number,
    only_with,
    optional,
)

#: The outputs of every C/W/L measure (``out=``).
OUTPUTS = ("EU", "ETU", "EC", "ETC", "ED")
RESIDUALS = tuple(f"Res{name}" for name in OUTPUTS)
#: The most ranks (rankings × depth) laid out at once.
BLOCK_CELLS = 1 << 21
#: The largest N (``depth``, or a cut-off of ranks): a block holds one ranking at least,
#: of N doubles per matrix.
MAX_DEPTH = 1_000_000

_POSITIVE = number(low=0.0, open_low=True)

#: The parameters every C/W/L measure takes.
COMMON = {
    "gain": gain_keyword("linear"),
    "maxrel": MAXREL,
    "costs": Keyword(optional(identifier), None,
                     "label set of per-document costs (cwl_eval's cost file); none: every "
                     "document costs maxcost"),
    "maxcost": Keyword(_POSITIVE, 1.0, "cost of a document without one and of the ranks "
                       "past the ranking (cwl_eval's --max_cost)"),
    "mincost": Keyword(_POSITIVE, 1.0, "the same in the best case of the residuals "
                       "(cwl_eval's --min_cost)"),
    "depth": Keyword(integer(low=1, high=MAX_DEPTH), 1000,
                     "ranks evaluated: longer rankings are cut, shorter ones padded "
                     "(cwl_eval's --max_depth)"),
    "out": Keyword(choice(*OUTPUTS, *RESIDUALS), "EU",
                   "output: EU (expected utility per item), ETU (expected total utility), "
                   "EC, ETC (expected cost per item, total), ED (expected depth), or "
                   "the residual Res<output> (best case minus worst case)"),
}

#: The @k of the measures that need one: a cut-off of ranks (the depth N of the measure)
#: or a budget of cost (BPM's K).
CUTOFF_RANKS = Keyword(optional(integer(low=1, high=MAX_DEPTH)), None,
                       "cut-off k (the @k of the name), also the ranks evaluated")
CUTOFF_BUDGET = Keyword(optional(integer(low=1)), None,
                        "budget of cost K (the @K of the name)")


def depth_of(params: Params) -> int:
    """N, the ranks evaluated: ``depth``, or the cut-off k of a measure whose user never
    reads past rank k (its weights and stopping probabilities are 0 beyond k, so that
    any N ≥ k gives the same values)."""
    return int(params["depth"] if "depth" in params else params["cutoff"])


_MINCOST_CHECK = only_with("mincost", lambda p: p["out"].startswith("Res"),
                           "on the residuals only (out=ResEU ... ResED)")


@dataclass(frozen=True, eq=False)
class Vectors:
    """The gains and costs of a block of rankings over ranks 1..N (one row per ranking),
    with the recall base of each ranking's topic (``total_rels``: its judged documents of
    positive gain, padded best-case ranks included in the best case)."""

    gains: np.ndarray
    costs: np.ndarray
    total_rels: np.ndarray

    @property
    def depth(self) -> int:
        return int(self.gains.shape[1])

    @cached_property
    def ranks(self) -> np.ndarray:
        """``1, 2, ..., N`` (floats, broadcast over the rows)."""
        return np.arange(1, self.depth + 1, dtype=np.float64)

    @cached_property
    def cum_gains(self) -> np.ndarray:
        return np.cumsum(self.gains, axis=1)

    @cached_property
    def cum_costs(self) -> np.ndarray:
        return np.cumsum(self.costs, axis=1)

    def full(self, row: np.ndarray | float) -> np.ndarray:
        """``row`` (per rank, or one number) repeated for every ranking of the block."""
        return np.broadcast_to(np.asarray(row, dtype=np.float64), self.gains.shape)


#: A user model: the block's vectors and the measure's parameters → C or W per rank.
Model = Callable[[Vectors, Params], np.ndarray]


@dataclass(frozen=True)
class Elements:
    """Per document of the batch: its gain (worst case), whether it is unjudged, and its
    cost (NaN: none given); per ranking: its topic's documents of positive gain."""

    gains: np.ndarray
    unjudged: np.ndarray
    costs: np.ndarray
    total_rels: np.ndarray


def elements(jr: JudgedRankings, params: Params, family: str) -> Elements:
    """The gains g(degree)/gmax, unjudged flags and costs of every retrieved document."""
    gain, maxrel = params["gain"], params["maxrel"]
    gmax = max_gain(jr, gain, maxrel, family)
    gains = element_gains(jr, gain, maxrel, family)
    column_gains = degree_gains(jr, gain, jr.column_degrees, family)
    if gmax > 0:
        gains = gains / gmax
    total_rels = jr.rel_levels[:, column_gains > 0].sum(axis=1).astype(np.float64)
    if params["costs"] is None:
        costs = np.full(len(jr.rel), np.nan)
    else:
        costs = label_values(jr, params["costs"], family)
        given = costs[~np.isnan(costs)]
        if len(given) and not (np.isfinite(given).all() and (given > 0).all()):
            bad = given[~(np.isfinite(given) & (given > 0))][0]
            raise MeasureError(f"measure {family!r}: the costs of label set "
                               f"{params['costs']!r} must be finite and > 0, got {bad:g}")
    return Elements(gains, jr.rel < 0, costs, total_rels)


def tie_averaged(jr: JudgedRankings, items: Elements, params: Params, best: bool) -> Elements:
    """``items`` of a static measure (weights of the rank alone) with tie groups: each
    document's gain and cost (of the worst or the best case) replaced by its group's mean.
    EU, ETU, EC and ETC are linear in the gains and costs and ED depends on neither, so the
    outputs of the means are their expectations over the orders of the ties
    (:mod:`irscale.measures.ties`)."""
    from .ties import tie_means

    gains = np.where(items.unjudged, 1.0, items.gains) if best else items.gains
    fill = params["mincost"] if best else params["maxcost"]
    costs = np.where(np.isnan(items.costs), fill, items.costs)
    return Elements(tie_means(jr, gains), np.zeros(len(gains), dtype=bool),
                    tie_means(jr, costs), items.total_rels)


def blocks(jr: JudgedRankings, depth: int) -> Iterator[tuple[int, int]]:
    """``(first, stop)`` ranges of rankings of at most :data:`BLOCK_CELLS` ranks."""
    rows = max(1, BLOCK_CELLS // depth)
    for first in range(0, jr.n_rankings, rows):
        yield first, min(first + rows, jr.n_rankings)


def vectors(jr: JudgedRankings, items: Elements, first: int, stop: int, params: Params,
            best: bool) -> Vectors:
    """The block of rankings ``first .. stop - 1`` over ranks 1..depth, in the worst case
    (the values reported) or the best case (of the residuals)."""
    depth = depth_of(params)
    shape = (stop - first, depth)
    lengths = np.minimum(jr.lengths[first:stop], depth)
    kept = ranges(jr.offsets[first:stop], lengths)  # the documents of ranks ≤ depth
    full = int(lengths.sum()) == shape[0] * depth  # no padding: the documents fill the block
    slots = None if full else padded_slots(lengths, depth)

    def lay_out(values: np.ndarray, fill: float) -> np.ndarray:
        if slots is None:
            return values.reshape(shape)
        out = np.full(shape[0] * depth, fill)
        out[slots] = values
        return out.reshape(shape)

    fill_cost = params["mincost"] if best else params["maxcost"]
    values = items.gains[kept]
    if best:
        values = np.where(items.unjudged[kept], 1.0, values)
    gains = lay_out(values, 1.0 if best else 0.0)
    given = items.costs[kept]
    costs = lay_out(np.where(np.isnan(given), fill_cost, given), fill_cost)
    total_rels = items.total_rels[first:stop]
    if best:
        total_rels = np.maximum(total_rels, (gains > 0).sum(axis=1))
    return Vectors(gains, costs, total_rels)


def outputs_of(v: Vectors, vector: np.ndarray, by: Literal["C", "W"]) -> dict[str, np.ndarray]:
    """The five outputs of a block from its continuation (``by="C"``) or weight vectors."""
    n = v.depth
    if by == "C":
        cont = np.asarray(vector, dtype=np.float64)
    else:
        weights = np.asarray(vector, dtype=np.float64)
        cont = np.zeros(weights.shape)
        np.divide(weights[:, 1:], weights[:, :-1], out=cont[:, :-1],
                  where=weights[:, :-1] > 0)
    reach = np.ones(cont.shape)
    if n > 1:
        np.cumprod(cont[:, :-1], axis=1, out=reach[:, 1:])
    if by == "C":
        depth = reach.sum(axis=1)
        weights = reach / depth[:, None]
    else:
        depth = 1.0 / weights[:, 0]
    stop = reach * (1.0 - cont)
    return {
        "EU": (weights * v.gains).sum(axis=1),
        "ETU": (stop * v.cum_gains).sum(axis=1),
        "EC": (weights * v.costs).sum(axis=1),
        "ETC": (stop * v.cum_costs).sum(axis=1),
        "ED": depth,
    }


def outputs_of_batch(jr: JudgedRankings, params: Params, model: Model, by: Literal["C", "W"],
                     family: str, best: bool) -> dict[str, np.ndarray]:
    """The five outputs of every ranking of ``jr`` in the worst or the best case, computed
    once per batch and parameters: the names of one measure that differ by ``out`` alone
    (``INST(T=3)``, ``INST(T=3,out=ETU)`` ...) share them."""
    unused = ("out", "maxcost") if best else ("out", "mincost")
    key = ",".join(f"{name}={value!r}" for name, value in params.items() if name not in unused)

    def compute() -> dict[str, np.ndarray]:
        items = elements(jr, params, family)
        if jr.tie_groups is not None:
            items = tie_averaged(jr, items, params, best)
        values = {name: np.zeros(jr.n_rankings) for name in OUTPUTS}
        for first, stop in blocks(jr, depth_of(params)):
            block = vectors(jr, items, first, stop, params, best)
            for name, array in outputs_of(block, model(block, params), by).items():
                values[name][first:stop] = array
        return values

    return memo(jr, f"cwl:{family}:{'best' if best else 'worst'}:{key}", compute)


def evaluate_model(jr: JudgedRankings, params: Params, model: Model, by: Literal["C", "W"],
                   family: str) -> np.ndarray:
    """The output ``params["out"]`` of a C/W/L measure on every ranking of ``jr``."""
    out = params["out"]
    worst = outputs_of_batch(jr, params, model, by, family, False)
    if not out.startswith("Res"):
        return worst[out].copy()
    best = outputs_of_batch(jr, params, model, by, family, True)
    return best[out[3:]] - worst[out[3:]]


def cwl_measure(name: str, *, by: Literal["C", "W"], doc: str, formula: str, source: str,
                params: dict[str, Keyword] | None = None,
                cutoff: Literal["ranks", "budget"] | None = None,
                checks: tuple[Callable[[Params, str], None], ...] = (),
                static: bool = False) -> Callable[[Model], Model]:
    """Register the decorated user model (C or W per rank, ``by``) as the C/W/L measure
    ``name``, with its own ``params``, the ``@k`` it needs (``cutoff``: ``ranks``, a
    cut-off of ranks, which is then the depth N; ``budget``, a budget of cost) and the
    parameters every C/W/L measure takes (:data:`COMMON`). ``static``: its C or W depends
    on the rank alone (not on the gains or costs), so that it has tie-aware values
    (:func:`tie_averaged`)."""

    def decorate(model: Model) -> Model:
        own = dict(params or {})
        common = dict(COMMON)
        if cutoff == "budget":
            own["cutoff"] = CUTOFF_BUDGET
        elif cutoff == "ranks":
            own["cutoff"] = CUTOFF_RANKS
            del common["depth"]
        keywords = Keywords(**own, **common).checked(
            MAXREL_CHECK, _MINCOST_CHECK, *((needs_cutoff,) if cutoff else ()), *checks)

        @functools.wraps(model)
        def kernel(jr: JudgedRankings, values: Params,
                   ctx: EvalContext) -> dict[str, np.ndarray]:
            for check in keywords.checks:  # a bare name brings the defaults unchecked
                check(values, name)
            return {name: evaluate_model(jr, values, model, by, name)}

        register(name, doc=doc, params=keywords, formula=formula, source=source,
                 cutoff="required" if cutoff else "optional", tie_aware=static)(kernel)
        return model

    return decorate
