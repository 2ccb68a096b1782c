"""Gains, discounts and ideal rankings as parameters of the graded measures.

**Gain maps** (keyword ``gain``), the value a document of relevance degree ``v`` brings:

* ``linear`` — ``g(v) = v`` (the "gain = relevance level" of trec_eval, NTCIREVAL's
  ``-g 1:2:...``, Ferro & Maistro (2024), §3.4);
* ``exp`` — ``g(v) = 2^v − 1`` (Burges et al.; Sakai 2014, §2.2, ERR's probabilities);
* ``binary`` — ``g(v) = 1`` for a relevant document (degree ≥ the relevance level ``rel``);
* ``g1:g2:...:gc`` — user-given gains of degrees 1..c (NTCIREVAL's ``-g`` convention:
  ``gain=1:3:7``); degree 0 gains 0. A judged degree above c is an error.

In every family of this package, a document below the relevance level (``rel``, default 1)
gains nothing, as do unjudged documents (not in the qrels, or judged negative): "relevant"
and "positive gain" coincide, as Sakai's definitions assume (Sakai 2014, §2.2).

``gmax`` is the gain of the highest degree of the scale, ``c`` = the highest judged degree of
the batch (``jr.column_degrees``), or ``maxrel`` when given, or the last degree of a gain list:
RBP, ERR, gP divide by it (Ferrante et al. 2019, §5: ``g(a_c)``; NTCIREVAL: ``gv[maxrl]``, the gain
of the last level of ``-g``).

**Discounts** (keyword ``discount``, base ``base``, default 2), the divisor of the gain at
rank r:

* ``jk`` — Järvelin & Kekäläinen (2002): ``max(1, log_b r)``, no discount up to rank b
  (Ferro & Maistro 2024, eq. 5; the DCG_b02/DCG_b10 of Ferrante et al. 2021, §6;
  NTCIREVAL's "nDCG", computed as ``log(r)/log(b)`` for r > b);
* ``log2`` / ``log`` — ``log_2(r + 1)`` / ``log_b(r + 1)`` (Sakai 2014, eq. 6; Burges et al.;
  NTCIREVAL's "MSnDCG"; trec_eval's ndcg): with b = 2 the discount is ``numpy.log2(r + 1)``,
  bit for bit trec_eval's;
* ``1+log`` (``onelog``) — ``1 + log_b r`` (Järvelin et al. 2008, Sakai 2014, §2.2).

**Ideal rankings** (:func:`ideal_rankings`): for every topic, its relevant judged documents
sorted by decreasing gain (degree descending among equal gains), as a
:class:`~irscale.core.judged.JudgedRankings` batch of its own, one ranking per distinct row
of ``rel_levels``: ideal values are the same kernels applied to the ideal batch (nDCG's
ideal DCG, nERR's ideal ERR, Q's ideal cumulative gain), accumulated in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import memo
from ..errors import MeasureError
from .params import Keyword, Params, choice, integer, number, only_with, optional, states


# ---------------------------------------------------------------- gain maps
def _shortest(value: float) -> str:
    """``value`` in the shortest text that reads back as the same double (``3``, ``0.1``,
    ``1.0000001``, ``1e+16``)."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class GainMap:
    """A gain map: ``kind`` linear, exp, binary or list (``values`` = gains of degrees 1..c)."""

    kind: str
    values: tuple[float, ...] = ()

    def __str__(self) -> str:
        """The map as a name writes it (``linear``, ``1:3:7``): every gain in the shortest
        text that reads back as the same double, so the text is also a faithful key."""
        if self.kind != "list":
            return self.kind
        return ":".join(_shortest(v) for v in self.values)

    def gains(self, degrees: np.ndarray, family: str = "") -> np.ndarray:
        """Gain of every degree of ``degrees`` (integers ≥ 0; degree 0 gains 0, except
        binary), computed from the degrees themselves: no table indexed by degree, so a
        degree of 10,000,000 costs what a degree of 2 does."""
        degrees = np.asarray(degrees, dtype=np.int64)
        if self.kind == "linear":
            return degrees.astype(np.float64)
        if self.kind == "exp":
            top = int(degrees.max(initial=0))
            if top > 1023:
                raise MeasureError(
                    f"measure {family!r}: gain=exp gives degree {top} the gain 2^{top} − 1, "
                    "beyond the range of a double (degrees up to 1023); use gain=linear or "
                    "a gain list")
            return np.exp2(degrees.astype(np.float64)) - 1.0
        if self.kind == "binary":
            return np.ones(len(degrees))
        top = int(degrees.max(initial=0))
        if top > len(self.values):
            raise MeasureError(
                f"measure {family!r}: gain={self} gives gains for degrees 1..{len(self.values)} "
                f"but the judgments have degree {top}"
            )
        return np.concatenate(([0.0], self.values))[degrees]

    def table(self, n_levels: int, family: str = "") -> np.ndarray:
        """Gain of every degree ``0 .. n_levels - 1`` (a gain list: of every degree it
        names, too); for the small scales of the interval-scale engine."""
        if self.kind == "list":
            return self.gains(np.arange(max(n_levels, len(self.values) + 1)), family)
        return self.gains(np.arange(max(n_levels, 1)), family)


@states("linear, exp, binary, or gains g1:g2:...")
def parse_gain(text: str) -> GainMap:
    """``linear`` | ``exp`` | ``binary`` | ``g1:g2:...`` (gains of degrees 1, 2, ...)."""
    if text in ("linear", "exp", "binary"):
        return GainMap(text)
    try:
        values = tuple(float(part) for part in text.split(":"))
    except ValueError:
        raise ValueError("use linear, exp, binary or gains of degrees 1..c, e.g. 1:3:7") from None
    if not values or not all(np.isfinite(values)) or min(values) < 0:
        raise ValueError("gains must be finite and ≥ 0")
    return GainMap("list", values)


def gain_keyword(default: str = "linear") -> Keyword:
    return Keyword(parse_gain, parse_gain(default),
                   "gain map: linear (degree), exp (2^degree - 1), binary, or g1:g2:... "
                   "(gains of degrees 1, 2, ...)")


MAXREL = Keyword(optional(integer(low=1)), None,
                 "highest relevance degree c of the scale (gmax = gain of c); "
                 "default: the highest judged degree of the batch. Acts with gain=linear or "
                 "exp only (gmax is 1 for binary gains, the largest gain of a gain list)")

#: The check of :data:`MAXREL` (:meth:`~irscale.measures.params.Keywords.checked`).
MAXREL_CHECK = only_with("maxrel", lambda p: p["gain"].kind in ("linear", "exp"),
                         "with gain=linear or exp (gmax of binary gains is 1, of a gain "
                         "list its largest gain)")


def scale_top(jr: JudgedRankings, maxrel: int | None) -> int:
    """c, the highest degree of the scale: ``maxrel``, or the batch's highest judged degree
    (at least 1)."""
    degrees = jr.column_degrees
    judged_top = int(degrees[-1]) if len(degrees) else 0
    if maxrel is None:
        return max(judged_top, 1)
    above = degrees > maxrel
    if above.any() and jr.rel_levels[:, above].any():
        raise MeasureError(f"maxrel={maxrel} but the judgments have degree {judged_top}")
    return maxrel


def scale_levels(jr: JudgedRankings, maxrel: int | None) -> int:
    """Number of degrees of the scale, ``c + 1`` (c = ``maxrel`` or the batch's highest)."""
    return scale_top(jr, maxrel) + 1


def gain_top(jr: JudgedRankings, gain: GainMap, maxrel: int | None, family: str = "") -> int:
    """The highest degree that has a gain: c, or the last degree a gain list names when it
    names more (a judged degree c beyond the list is an error)."""
    top = scale_top(jr, maxrel)
    if gain.kind == "list":
        gain.gains(np.array([top]), family)
        top = max(top, len(gain.values))
    return top


def degree_gains(jr: JudgedRankings, gain: GainMap, degrees: np.ndarray,
                 family: str = "") -> np.ndarray:
    """Gain of each of ``degrees`` (≥ 0) with the relevance level applied: degrees below
    ``rel`` (and degree 0, except for binary gains) gain 0."""
    degrees = np.asarray(degrees, dtype=np.int64)
    values = gain.gains(degrees, family)
    floor = max(jr.relevance_level, 1 if gain.kind != "binary" else 0)
    return np.where(degrees < floor, 0.0, values)


def gain_table(jr: JudgedRankings, gain: GainMap, maxrel: int | None = None,
               family: str = "") -> np.ndarray:
    """Gain of every degree ``0..c`` of the scale (and of every degree a gain list names),
    with the relevance level applied (see above). For small scales only (it has c + 1
    entries): kernels use :func:`degree_gains` on the degrees they meet."""
    table = gain.table(scale_levels(jr, maxrel), family)
    return degree_gains(jr, gain, np.arange(len(table)), family)


def max_gain(jr: JudgedRankings, gain: GainMap, maxrel: int | None = None,
             family: str = "") -> float:
    """``gmax``: the largest gain of a degree of the scale (the gain of c for linear, exp
    and binary gains; of a gain list, the largest gain it gives)."""
    top = gain_top(jr, gain, maxrel, family)
    if gain.kind == "list":
        degrees = np.arange(top + 1)
    else:
        degrees = np.array([top])  # gains grow with the degree
    return float(degree_gains(jr, gain, degrees, family).max(initial=0.0))


def element_gains(jr: JudgedRankings, gain: GainMap, maxrel: int | None = None,
                  family: str = "", index: np.ndarray | None = None) -> np.ndarray:
    """Gain of every retrieved document (0 for unjudged documents), or of the documents
    at positions ``index`` only."""
    rel = jr.rel if index is None else jr.rel[index]
    top = gain_top(jr, gain, maxrel, family)
    if len(rel) and rel.max(initial=0) > top:
        raise MeasureError(f"measure {family!r}: a retrieved document has degree "
                           f"{int(rel.max())} above maxrel={top}")
    judged = rel >= 0
    return np.where(judged, degree_gains(jr, gain, np.where(judged, rel, 0), family), 0.0)


# ---------------------------------------------------------------- discounts
def log2_discount(rank: np.ndarray) -> np.ndarray:
    """The DCG discount ``log2(rank + 1)`` of 1-based ranks (numpy's ``log2``)."""
    return np.log2(np.asarray(rank, dtype=np.float64) + 1.0)


@dataclass(frozen=True)
class Discount:
    """A rank discount: ``kind`` jk, log or 1+log, with logarithm base ``base``."""

    kind: str
    base: float = 2.0

    def __call__(self, rank: np.ndarray) -> np.ndarray:
        r = np.asarray(rank, dtype=np.float64)
        if self.kind == "log2" or (self.kind == "log" and self.base == 2.0):
            return log2_discount(r)
        if self.kind == "log":
            return np.log(r + 1.0) / np.log(self.base)
        if self.kind == "jk":
            out = np.ones_like(r)
            later = (r > self.base) & (r > 1)
            out[later] = np.log(r[later]) / np.log(self.base)
            return out
        return 1.0 + np.log(r) / np.log(self.base)


DISCOUNT_KIND = Keyword(
    choice("jk", "log", "log2", "1+log", aliases={"onelog": "1+log"}),
    "log2",
    "discount: log2 (log2(r+1)), log (log_b(r+1)), jk (max(1, log_b r)), 1+log (1 + log_b r)",
)
BASE = Keyword(number(low=1.0, open_low=True), 2.0, "logarithm base b of the discount")


def check_discount(params: Params, family: str) -> None:
    """``base`` applies to the ``log``, ``jk`` and ``1+log`` discounts: with ``log2`` (base 2
    by definition, the default) another base is refused, never silently ignored."""
    if params["discount"] == "log2" and "base" in params.given and params["base"] != 2.0:
        raise MeasureError(
            f"measure {family!r}: base={params['base']:g} has no effect with discount=log2 "
            f"(log2(r + 1), the default); give discount=log (log_b(r + 1)), jk or 1+log")


def discount_of(params: Mapping[str, Any]) -> Discount:
    """The :class:`Discount` of a family's ``discount`` and ``base`` parameters."""
    kind = params["discount"]
    return Discount(kind, 2.0 if kind == "log2" else params["base"])


# ---------------------------------------------------------------- ideal rankings
def distinct_rows(jr: JudgedRankings) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of ``rel_levels`` and the row of every ranking.

    Rankings of one topic share their row, so the topics give the grouping at once; rows
    are compared only when a batch holds different level counts under one topic id.
    """
    if jr.n_rankings == 0:
        return jr.rel_levels, np.zeros(0, dtype=np.int64)
    topic = jr.ranking_topic
    if bool(np.all(topic[1:] > topic[:-1])):  # one ranking per topic (one run): own rows
        return jr.rel_levels, np.arange(jr.n_rankings)
    _, first, row = np.unique(topic, return_index=True, return_inverse=True)
    rows = jr.rel_levels[first]
    if np.array_equal(rows[row], jr.rel_levels):
        return rows, np.asarray(row).reshape(-1)
    rows, row = np.unique(jr.rel_levels, axis=0, return_inverse=True)
    return rows, np.asarray(row).reshape(-1)


@dataclass(frozen=True, eq=False)
class IdealRankings:
    """The ideal ranking of every ranking's topic (see the module documentation).

    ``batch`` holds one ideal ranking per distinct row of ``rel_levels``; ``row[i]`` is the
    ideal ranking of ranking ``i``.
    """

    batch: JudgedRankings
    row: np.ndarray

    def per_ranking(self, values: np.ndarray) -> np.ndarray:
        """Per-ideal-ranking ``values`` spread to the rankings of the original batch."""
        return np.asarray(values)[self.row]

    @property
    def length(self) -> np.ndarray:
        """Number of documents of each ranking's ideal ranking."""
        return self.batch.lengths[self.row]


def ideal_rankings(jr: JudgedRankings, gain: GainMap, maxrel: int | None = None,
                   family: str = "") -> IdealRankings:
    """Ideal rankings of ``jr``'s topics for a gain map (cached per batch and gain map)."""

    def build() -> IdealRankings:
        rows, row = distinct_rows(jr)
        degrees = jr.column_degrees
        top = gain_top(jr, gain, maxrel, family)
        if len(degrees) and degrees[-1] > top:
            raise MeasureError(f"measure {family!r}: the judgments have degree "
                               f"{int(degrees[-1])} above maxrel={top}")
        gains = degree_gains(jr, gain, degrees, family)
        positive = np.flatnonzero(gains > 0)  # columns, degree ascending
        # best first: gain descending, then degree descending
        order = positive[np.lexsort((-positive, -gains[positive]))]
        counts = rows[:, order]
        rel = np.repeat(np.tile(degrees[order], len(rows)), counts.ravel())
        lengths = counts.sum(axis=1)
        batch = JudgedRankings(
            rel=rel.astype(np.int64),
            offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            rel_levels=rows,
            ranking_topic=np.arange(len(rows), dtype=np.int64),
            ranking_run=np.zeros(len(rows), dtype=np.int64),
            topics=tuple(str(i) for i in range(len(rows))),
            runs=("ideal",),
            relevance_level=jr.relevance_level,
            degrees=jr.degrees,
        )
        return IdealRankings(batch=batch, row=row)

    return memo(jr, f"ideal:{gain}:{maxrel}", build)
