"""Generalisability theory of test collections: G-studies and D-studies.

Design (Bodoff & Li 2007, "Test theory for assessing IR test collections", SIGIR; Brennan
2001, *Generalizability Theory*, ch. 2–4; Sakai 2016, "Topic set size design", Inf. Retr. J.
19)
    Systems are the object of measurement; topics, and optionally a second facet (query
    variants of each topic, assessors, shards), are random facets fully crossed with them:
    the s × t design y_st = μ + ν_s + ν_t + ν_st,e, or s × t × q with every interaction.
    Each effect ν_A is a random variable of variance σ²_A (the variance component); the
    highest interaction is confounded with the error (one score per cell).

G-study: variance components (Brennan 2001, §3.4; Cornfield & Tukey 1956)
    The two- or three-way ANOVA without replication gives a mean square MS_A per effect
    (:mod:`irscale.stats._factorial`). For a fully crossed random design its expectation is
    E[MS_A] = Σ_{B ⊇ A} π(B̄) σ²_B, π(B̄) the product of the sample sizes of the factors
    not in B; solved from the highest interaction down,

        σ̂²_A = (MS_A − Σ_{B ⊋ A} π(B̄) σ̂²_B) / π(Ā);

    for s × t: σ̂²_st,e = MS_E, σ̂²_s = (MS_s − MS_E)/n_t, σ̂²_t = (MS_t − MS_E)/n_s (the
    two-way table Sakai 2016 estimates his variances from). These are unbiased and may be
    negative; as Brennan (2001) and GENOVA do, each is used unaltered in the others'
    estimates and then set to 0 where negative: the table reports both, the coefficients
    use the latter. An estimate within 1e-10 of the scores' variance of 0 is rounding and
    reads as 0; where every component with the system is 0 (the systems score alike, up
    to a topic effect) Eρ² is 0/0 and the G-study is refused.

D-study: coefficients for n'_t topics (and n'_q levels of the second facet)
    Relative error σ²(δ) = Σ σ²_A / π'(A) over the effects A with the system and at least
    one facet, absolute error σ²(Δ) = Σ σ²_A / π'(A) over every effect but the system's,
    π'(A) the product of the D-study sizes of A's facets (for s × t: σ²(δ) = σ²_st,e/n'_t,
    σ²(Δ) = (σ²_t + σ²_st,e)/n'_t). Then the generalisability coefficient
    Eρ² = σ²_s / (σ²_s + σ²(δ)) (the reliability of the systems' ranking, Bodoff & Li's
    measure of a test collection) and the dependability index Φ = σ²_s / (σ²_s + σ²(Δ))
    (of their absolute scores). With n'_t = n_t, Eρ² is Hoyt's 1 − MS_E/MS_s (when
    σ̂²_s ≥ 0).

Topics needed for a target (Bodoff & Li 2007; Sakai 2016)
    With the second facet's size fixed, split an error variance into a part a/n'_t (the
    effects with the topic) and a part b (the others): a coefficient reaches ρ when
    n'_t ≥ a / (σ²_s (1 − ρ)/ρ − b); for s × t, n'_t = ⌈ρ/(1 − ρ) · σ²_st,e/σ²_s⌉ for Eρ².

Scope: complete, balanced scores (no missing cell) and random facets only; the systems'
fixed effects and their tests are the ANOVA's (:func:`irscale.stats.anova`) and the mixed
model's (:func:`irscale.stats.mixed_model`, REML components for unbalanced data).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..errors import InputError, ParameterError
from ._factorial import Term, balanced, term_name
from .params import DSTUDY, GSTUDY, TOPICS_FOR
from .power import TopicSetSize
from .protocol import format_table
from .shards import ShardScores
from .tables import Format
from .validation import TIE_RTOL, check_not_constant, score_table

#: The coefficients of a D-study: the generalisability coefficient and dependability.
COEFFICIENTS = ("erho2", "phi")
#: The largest D-study size searched or accepted.
_MAX_SIZE = 1_000_000


@dataclass(frozen=True)
class Component:
    """One effect of the G-study: its ANOVA line and its variance component (``estimate``
    unbiased, possibly negative; ``variance`` the same set to 0 where negative)."""

    effect: Term
    ss: float
    df: float
    ms: float
    estimate: float

    @property
    def variance(self) -> float:
        return max(self.estimate, 0.0)


@dataclass(frozen=True, eq=False)
class GStudy(HtmlRepr):
    """The variance components of a crossed random design (module docstring) and the
    coefficients of its own sizes; :meth:`dstudy` projects them to other sizes and
    :meth:`topics_for` finds the topics a target coefficient needs.

    ``factors``: ``("system", "topic")`` or ``("system", "topic", facet)``; ``sizes`` their
    numbers of levels; ``components`` one per effect, the residual (highest interaction,
    confounded with the error) last.
    """

    factors: tuple[str, ...]
    sizes: tuple[int, ...]
    components: tuple[Component, ...]
    measure: str | None = None

    @property
    def facets(self) -> tuple[str, ...]:
        return self.factors[1:]

    def variance(self, effect: str) -> float:
        """The (non-negative) variance component of ``effect``, e.g. ``"system"``,
        ``"system:topic"`` (for s × t the residual ``system:topic``)."""
        for c in self.components:
            if term_name(c.effect) == effect:
                return c.variance
        raise KeyError(f"no effect {effect!r} ({[term_name(c.effect) for c in self.components]})")

    def _errors(self, sizes: dict[str, float]) -> tuple[float, float]:
        """σ²(δ) and σ²(Δ) for the D-study ``sizes`` of the facets."""
        relative = absolute = 0.0
        for c in self.components:
            facets = [f for f in c.effect if f != "system"]
            if not facets:
                continue
            part = c.variance / math.prod(sizes[f] for f in facets)
            absolute += part
            if "system" in c.effect:
                relative += part
        return relative, absolute

    def _facet_sizes(self, n_topics: int, n_facet: int | None) -> dict[str, float]:
        sizes: dict[str, float] = {"topic": n_topics}
        if len(self.factors) == 3:
            sizes[self.factors[2]] = self.sizes[2] if n_facet is None else n_facet
        elif n_facet is not None:
            raise ParameterError("n_facet applies to a G-study with a second facet (query "
                                 "variants, assessors), and this one has topics only")
        return sizes

    def coefficients(self, n_topics: int | None = None, n_facet: int | None = None
                     ) -> tuple[float, float]:
        """(Eρ², Φ) for ``n_topics`` topics and ``n_facet`` levels of the second facet
        (default: the G-study's own sizes); NaN when every component is 0."""
        sizes = self._facet_sizes(self.sizes[1] if n_topics is None else n_topics, n_facet)
        relative, absolute = self._errors(sizes)
        system = self.variance("system")
        with np.errstate(invalid="ignore", divide="ignore"):
            return (float(np.divide(system, system + relative)),
                    float(np.divide(system, system + absolute)))

    @property
    def erho2(self) -> float:
        """The generalisability coefficient Eρ² of the G-study's own sizes."""
        return self.coefficients()[0]

    @property
    def phi(self) -> float:
        """The dependability index Φ of the G-study's own sizes."""
        return self.coefficients()[1]

    @DSTUDY
    def dstudy(self, n_topics: int | Sequence[int], n_facet: int | Sequence[int] | None = None
               ) -> DStudy:
        """Eρ², Φ and the error variances for every ``n_topics`` (and ``n_facet``, the
        second facet's sizes; default its G-study size): each a size or a list of sizes,
        checked on entry (:data:`irscale.stats.params.DSTUDY`)."""
        topics, levels = cast("list[int]", n_topics), cast("list[int] | None", n_facet)
        facet: list[int | None] = [None] if levels is None else list(levels)
        rows = []
        for t in topics:
            for q in facet:
                sizes = self._facet_sizes(t, q)
                relative, absolute = self._errors(sizes)
                erho2, phi = self.coefficients(t, q)
                rows.append({**{f"n_{f}": int(n) for f, n in sizes.items()},
                             "relative_error": relative, "absolute_error": absolute,
                             "erho2": erho2, "phi": phi})
        return DStudy(self, pd.DataFrame(rows))

    def _error_parts(self, coefficient: str, sizes: dict[str, float]
                     ) -> tuple[float, float]:
        """The error variance of ``coefficient`` (relative for ``"erho2"``: the components
        with the system; absolute for ``"phi"``: every one but the system's) at one topic
        and the second facet's ``sizes``, in two parts: the components with the topic
        (divided by the number of topics of a D-study) and those without."""
        with_topic, without = (0.0, 0.0)
        for c in self.components:
            facets = [f for f in c.effect if f != "system"]
            if not facets or (coefficient == "erho2" and "system" not in c.effect):
                continue
            part = c.variance / math.prod(sizes[f] for f in facets if f != "topic")
            if "topic" in facets:
                with_topic += part
            else:
                without += part
        return with_topic, without

    @TOPICS_FOR
    def topics_for(self, target: float, coefficient: str = "erho2",
                   n_facet: int | None = None) -> TopicSetSize:
        """The fewest topics whose ``coefficient`` (``"erho2"`` or ``"phi"``) reaches
        ``target`` in (0, 1), the second facet at ``n_facet`` levels (module docstring)."""
        if coefficient not in COEFFICIENTS:
            raise ParameterError(f"coefficient must be one of {', '.join(COEFFICIENTS)}, got "
                                 f"{coefficient!r}")
        sizes = self._facet_sizes(1, n_facet)
        with_topic, without = self._error_parts(coefficient, sizes)
        system = self.variance("system")
        room = system * (1.0 - target) / target - without
        name = "Eρ²" if coefficient == "erho2" else "Φ"
        if system <= 0.0 or room <= 0.0:
            raise InputError(
                f"no number of topics reaches {name} = {target:g}: "
                + ("the system variance component is 0" if system <= 0.0 else
                   f"the error variance without topics ({without:.4g}) alone keeps {name} "
                   f"below it; more levels of {self.factors[2]} are needed"))
        n = max(1, math.ceil(with_topic / room))
        if n > _MAX_SIZE:
            raise InputError(f"more than {_MAX_SIZE:,} topics are needed to reach {name} = "
                             f"{target:g}")

        def reached(size: int) -> bool:
            return self.coefficients(size, n_facet)[COEFFICIENTS.index(coefficient)] >= target

        # the division rounds: the smallest size is n or next to it
        if n > 1 and reached(n - 1):
            n -= 1
        elif not reached(n):
            n += 1
        achieved = self.coefficients(n, n_facet)[COEFFICIENTS.index(coefficient)]
        parameters = {f"sigma2_{term_name(c.effect)}": c.variance for c in self.components}
        if len(self.factors) == 3:
            parameters[f"n_{self.factors[2]}"] = float(sizes[self.factors[2]])
        return TopicSetSize(f"G-theory {name}", n, achieved, float(target), parameters)

    def to_frame(self) -> pd.DataFrame:
        """One row per effect: ss, df, ms, the unbiased ``estimate``, the ``variance`` used
        (negative estimates set to 0) and its ``share`` of their total."""
        total = sum(c.variance for c in self.components)
        return pd.DataFrame([{
            "effect": term_name(c.effect) + (",e" if i == len(self.components) - 1 else ""),
            "ss": c.ss, "df": int(c.df), "ms": c.ms, "estimate": c.estimate,
            "variance": c.variance, "share": c.variance / total if total > 0 else math.nan,
        } for i, c in enumerate(self.components)])

    def summary(self) -> str:
        design = " × ".join(f"{n} {f}s" for f, n in zip(self.factors, self.sizes, strict=True))
        on = f" of {self.measure}" if self.measure else ""
        return (f"G-study{on} ({design}; random facets): Eρ² = {self.erho2:.4f}, "
                f"Φ = {self.phi:.4f}")

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The variance components as a ``text``, ``csv``, ``markdown``, ``latex`` or
        ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits, title=self.summary())

    def __repr__(self) -> str:
        return f"GStudy({self.summary()})"


@dataclass(frozen=True, eq=False)
class DStudy(HtmlRepr):
    """The D-study of a :class:`GStudy`: one row per size, with the relative and absolute
    error variances, Eρ² and Φ."""

    gstudy: GStudy
    table: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The D-study as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits, title=repr(self))

    def __repr__(self) -> str:
        return f"DStudy({len(self.table)} designs; {self.gstudy.summary()})"


def _array(data: object, measure: str | None, facet: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """The scores as systems × topics (× facet) and the factor names."""
    if isinstance(data, np.ndarray) and data.ndim == 3:
        data = ShardScores.from_array(data)
    if isinstance(data, ShardScores):
        values = data.values
        if np.isnan(values).any():
            i, j, k = (int(v[0]) for v in np.nonzero(np.isnan(values)))
            raise InputError(f"the G-study needs a score in every cell: topic "
                             f"{data.topics[i]!r}, system {data.systems[j]!r}, {facet} "
                             f"{data.shards[k]!r} has none")
        if min(values.shape) < 2:
            raise InputError(f"at least two topics, systems and levels of {facet} are needed, "
                             f"got {' × '.join(map(str, values.shape))}")
        return values.transpose(1, 0, 2), ("system", "topic", facet)
    values, _, _ = score_table(data, measure)
    return values.T, ("system", "topic")


def _estimates(lines: list[tuple[Term, float, float]], n: dict[str, int], noise: float
               ) -> dict[Term, float]:
    """The variance components of a fully crossed random design from its ANOVA ``lines``
    (effect, sum of squares, degrees of freedom; ``n``: each factor's levels): the
    expected mean squares solved from the highest interaction down (Brennan 2001,
    Generalizability Theory, eq. 3.1.5: σ²(α) = (MS(α) − Σ_{β ⊃ α} π(β\\α)·σ²(β)) /
    π(α̇)), an estimate within ``noise`` of 0 set to 0 (rounding, not variance)."""
    factors = list(n)
    estimates: dict[Term, float] = {}
    for effect, ss, df in sorted(lines, key=lambda line: -len(line[0])):
        ms = ss / df
        above = sum(estimates[b] * math.prod(n[f] for f in factors if f not in b)
                    for b in estimates if set(effect) < set(b))
        estimate = (ms - above) / math.prod(n[f] for f in factors if f not in effect)
        estimates[effect] = 0.0 if abs(estimate) <= noise else estimate
    return estimates


@GSTUDY
def gstudy(data: object, *, measure: str | None = None, facet: str = "variant") -> GStudy:
    """The G-study of a score table (module docstring).

    ``data``: a topics × systems table (:class:`~irscale.core.ScoreMatrix`, ``measure``
    picking one of its measures; a wide DataFrame; a 2-D array), or topics × systems ×
    levels of a second facet (:class:`ShardScores` or a 3-D array), ``facet`` naming that
    facet (``"variant"``: query variants of each topic; ``"assessor"``, ``"shard"``). Every
    cell needs a score.
    """
    values, factors = _array(data, measure, facet)
    check_not_constant(values)
    every = [tuple(factors[i] for i in subset) for size in range(1, len(factors))
             for subset in combinations(range(len(factors)), size)]
    sums = balanced(values, factors, every)
    lines = [*zip(sums.terms, sums.ss, sums.df, strict=True),
             (tuple(factors), sums.ss_error, sums.df_error)]
    noise = TIE_RTOL * sums.ss_total / (sums.n_obs - 1)  # below: rounding, not variance
    estimates = _estimates(lines, dict(zip(factors, values.shape, strict=True)), noise)
    if all(v <= 0.0 for e, v in estimates.items() if "system" in e):
        raise InputError("the systems score alike on every topic, up to a topic effect (no "
                         "system variance and no system interaction): Eρ² and Φ are undefined")
    components = tuple(Component(effect, ss, df, ss / df, estimates[effect])
                       for effect, ss, df in lines)
    name = measure if measure is not None else (
        getattr(data, "measures", (None,))[0] if len(getattr(data, "measures", ())) == 1
        else None)
    return GStudy(tuple(factors), tuple(int(v) for v in values.shape), components, name)
