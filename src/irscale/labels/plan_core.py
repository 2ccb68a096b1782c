"""The arithmetic of the planning of human labels, on arrays (:mod:`irscale.labels.plan`
states the designs and their sources; :mod:`irscale.labels.plan_data` builds the arrays
from qrels and runs).

The population is the ``P`` (topic, document) pairs the judge labels; an *estimand* is a
run's mean of a measure that is a sum over the ranked documents, or the difference of two
runs' means; ``c[p, e, j]`` is pair ``p``'s contribution to estimand ``e`` were its grade
the ``j``-th (:func:`irscale.collections.automatic_pairs.pair_contributions`, already
divided by the number of topics), ``judge[p]`` the column of the judge's grade. The pilot
is the pairs ``pilot`` (indices) with the human grades' columns ``human``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..collections.sampling import _poisson_probabilities
from ..errors import InputError

#: Fewest pilot labels a variance is estimated from (in all, or per judge grade for the
#: stratified and active designs).
MIN_PILOT = 2


@dataclass(frozen=True)
class PlanArrays:
    """What the designs are computed from (module documentation): ``c`` (pairs ×
    estimands × grades), ``judge`` (pairs: the column of the judge's grade), ``pilot`` (the
    pilot's pairs) and ``human`` (their human grades' columns), ``grades`` (the grades, in
    column order)."""

    c: np.ndarray
    judge: np.ndarray
    pilot: np.ndarray
    human: np.ndarray
    grades: tuple[int, ...]

    @property
    def n_pairs(self) -> int:
        return int(self.c.shape[0])

    def judged(self) -> np.ndarray:
        """pairs × estimands: every pair's contribution under the judge's grade (ĉ)."""
        return np.take_along_axis(self.c, self.judge[:, None, None], axis=2)[:, :, 0]

    def rectifier(self) -> np.ndarray:
        """pilot × estimands: the rectifier ``c(Y) − c(Ŷ)`` of every pilot pair (the human
        label minus the judge's, as it enters the estimand)."""
        rows = self.c[self.pilot]
        human = np.take_along_axis(rows, self.human[:, None, None], axis=2)[:, :, 0]
        return human - self.judged()[self.pilot]

    def matters(self) -> np.ndarray:
        """pairs: whether the pair's grade moves an estimand (a run ranks it where the
        measure weighs it); the label of any other pair changes nothing."""
        return (np.ptp(self.c, axis=2) > 0).any(axis=1)

    def rest(self) -> np.ndarray:
        """The pairs outside the pilot (indices)."""
        inside = np.zeros(self.n_pairs, dtype=bool)
        inside[self.pilot] = True
        return np.flatnonzero(~inside)

    def strata(self) -> np.ndarray:
        """The judge grades (columns) the pairs hold, ascending."""
        return np.unique(self.judge)


def pilot_counts(arrays: PlanArrays) -> dict[int, int]:
    """The pilot's labels by judge grade (every grade of the population, 0 where none)."""
    counts = np.bincount(arrays.judge[arrays.pilot], minlength=len(arrays.grades))
    return {int(h): int(counts[h]) for h in arrays.strata()}


def check_pilot(arrays: PlanArrays, by_grade: bool) -> None:
    """Refuse a pilot too small to estimate a variance: fewer than :data:`MIN_PILOT` labels
    in all, or (``by_grade``) in a judge grade the population holds."""
    if len(arrays.pilot) < MIN_PILOT:
        raise InputError(f"the pilot holds {len(arrays.pilot)} human label(s) of the judge's "
                         f"pairs: {MIN_PILOT} at least are needed to estimate a variance")
    if by_grade:
        for h, count in pilot_counts(arrays).items():
            if count < MIN_PILOT:
                raise InputError(
                    f"the pilot holds {count} human label(s) of the pairs the judge grades "
                    f"{arrays.grades[h]}: {MIN_PILOT} at least are needed in every judge "
                    "grade to estimate its error (label more of them, or --design uniform)")


# ------------------------------------------------------------------------------ uniform
def uniform_moments(arrays: PlanArrays) -> tuple[np.ndarray, np.ndarray]:
    """Per estimand: the pilot's variance of the rectifier of ``z = P·c`` and the variance
    of the judge's ``ẑ`` over every pair (both with divisor the count, as
    :func:`irscale.collections.ppi_mean`)."""
    scale = float(arrays.n_pairs)
    rectifier = arrays.rectifier() * scale
    return rectifier.var(axis=0), (arrays.judged() * scale).var(axis=0)


def uniform_variance(sigma2: np.ndarray, v: np.ndarray, n_pairs: int, n: int) -> np.ndarray:
    """PPI's variance ``v/P + σ²/n`` of the estimands with ``n`` labels."""
    return v / n_pairs + sigma2 / n


def uniform_size(sigma2: np.ndarray, v: np.ndarray, n_pairs: int, target: float) -> int:
    """The fewest labels ``n`` (at least :data:`MIN_PILOT`, at most ``P``) whose PPI
    variance is at most ``target`` for every estimand: ``⌈σ² / (target − v/P)⌉``, ``P``
    where the judge's own term leaves nothing (module documentation of
    :mod:`irscale.labels.plan`)."""
    room = target - v / n_pairs
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.where(sigma2 == 0, 0.0, np.where(room > 0, sigma2 / room, np.inf))
    largest = min(float(need.max()) if need.size else 0.0, float(n_pairs))
    return int(min(max(math.ceil(largest - 1e-9), MIN_PILOT), n_pairs))


# --------------------------------------------------------------------------- stratified
@dataclass(frozen=True)
class Strata:
    """The judge's grades as strata: ``columns`` (the grade columns), ``size`` (P_h),
    ``rest`` (the pairs outside the pilot, R_h), ``pilot`` (n0_h), ``sigma2`` (strata ×
    estimands: the pilot's rectifier variance of ``z = P·c``), ``v`` (strata × estimands:
    the judge's ``ẑ`` variance over the stratum) and ``share`` (Neyman's allocation
    ``a_h ∝ W_h·s_h``, ``s_h²`` the mean of the stratum's rectifier variances)."""

    columns: np.ndarray
    size: np.ndarray
    rest: np.ndarray
    pilot: np.ndarray
    sigma2: np.ndarray
    v: np.ndarray
    share: np.ndarray

    @property
    def weight(self) -> np.ndarray:
        """``W_h = P_h / P``."""
        return self.size / self.size.sum()


def strata_of(arrays: PlanArrays) -> Strata:
    """The :class:`Strata` of the judge's grades (the pilot checked per grade first)."""
    scale = float(arrays.n_pairs)
    rectifier = arrays.rectifier() * scale
    judged = arrays.judged() * scale
    columns = arrays.strata()
    pilot_grade = arrays.judge[arrays.pilot]
    size = np.array([(arrays.judge == h).sum() for h in columns], dtype=np.float64)
    pilot = np.array([(pilot_grade == h).sum() for h in columns], dtype=np.float64)
    sigma2 = np.stack([rectifier[pilot_grade == h].var(axis=0) for h in columns])
    v = np.stack([judged[arrays.judge == h].var(axis=0) for h in columns])
    spread = size * np.sqrt(sigma2.mean(axis=1))
    share = spread / spread.sum() if spread.sum() > 0 else size / size.sum()
    return Strata(columns, size, size - pilot, pilot, sigma2, v, share)


def stratified_variance(strata: Strata, n_h: np.ndarray) -> np.ndarray:
    """Stratified PPI's variance ``Σ_h W_h²·(v_h/P_h + σ_h²/n_h)`` per estimand."""
    w2 = (strata.weight ** 2)[:, None]
    return (w2 * (strata.v / strata.size[:, None] + strata.sigma2 / n_h[:, None])).sum(axis=0)


def stratified_size(strata: Strata, target: float) -> np.ndarray:
    """The labels of every stratum, pilot included, for the variance ``target``: the total
    ``n = Σ_h W_h²σ_h²/a_h / (target − Σ_h W_h² v_h/P_h)`` (the largest over the
    estimands) spread by Neyman's shares ``a_h``, never below the pilot's labels of the
    stratum nor above its pairs."""
    w2 = (strata.weight ** 2)[:, None]
    room = target - (w2 * strata.v / strata.size[:, None]).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.where(strata.sigma2 == 0, 0.0,
                          w2 * strata.sigma2 / strata.share[:, None]).sum(axis=0)
        need = np.where(spread == 0, 0.0, np.where(room > 0, spread / room, np.inf))
    total = float(need.max()) if need.size else 0.0
    wanted = np.ceil(np.minimum(total, float(strata.size.sum())) * strata.share - 1e-9)
    return np.minimum(np.maximum(wanted, strata.pilot), strata.size)


def allocate(budget: int, share: np.ndarray, room: np.ndarray) -> np.ndarray:
    """``budget`` integers in proportion to ``share`` (largest remainders), none above its
    ``room``; what a full stratum cannot take goes to the others. ``budget`` is at most
    ``room.sum()``."""
    out = np.zeros(len(share), dtype=np.int64)
    left = budget
    open_ = room > 0
    while left > 0:
        weights = np.where(open_, share, 0.0)
        if weights.sum() <= 0:
            weights = open_.astype(np.float64)
        ideal = left * weights / weights.sum()
        base = np.floor(ideal).astype(np.int64)
        extra = left - int(base.sum())
        order = np.argsort(-(ideal - base), kind="stable")
        base[order[:extra]] += 1
        take = np.minimum(base, room - out)
        out += take
        left -= int(take.sum())
        open_ = (room - out) > 0
    return out


# ------------------------------------------------------------------------------- active
def error_moments(arrays: PlanArrays) -> np.ndarray:
    """pairs × estimands: ``E[(c(Y) − c(Ŷ))² | Ŷ]`` under the pilot's confusion of the
    grades, ``P̂(Y = k | Ŷ = g)`` (the pilot's share of human grade ``k`` among its pairs of
    judge grade ``g``, every count plus ½ — Jeffreys' prior — so that a grade whose pilot
    pairs show no error is not taken to have none): ``Σ_k P̂(k | ĝ_p)·(c_p(k) −
    c_p(ĝ_p))²``."""
    grades = len(arrays.grades)
    counts = np.zeros((grades, grades))
    np.add.at(counts, (arrays.judge[arrays.pilot], arrays.human), 1.0)
    counts += 0.5
    with np.errstate(divide="ignore", invalid="ignore"):
        confusion = np.nan_to_num(counts / counts.sum(axis=1, keepdims=True))
    error = arrays.c - arrays.judged()[:, :, None]
    return np.einsum("pk,pek->pe", confusion[arrays.judge], error * error)


def active_scores(moments: np.ndarray) -> np.ndarray:
    """Every pair's estimated error ``sqrt(mean_e E[e_p² | X])`` over the estimands."""
    return np.sqrt(moments.mean(axis=1)) if moments.shape[1] else np.zeros(len(moments))


def active_probabilities(scores: np.ndarray, matters: np.ndarray, budget: float,
                         uniform_share: float) -> np.ndarray:
    """Inclusion probabilities ``π = min(1, c·q)``, ``q = (1 − ε)·s/Σs + ε·m/Σm``, with
    ``Σ π = budget`` (capped at 1 and solved again for the rest:
    :func:`irscale.collections.sampling`'s Poisson probabilities); ``m`` marks the pairs
    whose grade moves an estimand (:meth:`PlanArrays.matters`): the others, whose label
    changes nothing, get ``π = 0`` (and ``Σπ`` stops at their number)."""
    count = int(matters.sum())
    if count == 0:
        return np.zeros(len(scores))
    total = float(scores.sum())
    share = matters / count
    q = share if total <= 0 else (1 - uniform_share) * scores / total + uniform_share * share
    return _poisson_probabilities(q, np.zeros(len(q), dtype=np.intp), 1, int(budget))


def active_variance(moments: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """The Horvitz–Thompson difference estimator's expected variance under independent
    inclusions, ``Σ_p (1 − π_p)/π_p · E[e_p²]``, per estimand (``moments``: the pairs
    sampled with ``pi``; a pair of ``π = 0`` with an error makes it infinite)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(pi > 0, (1 - pi) / pi, np.inf)
        terms = np.where(moments > 0, factor[:, None] * moments, 0.0)
    return terms.sum(axis=0)


def active_size(moments: np.ndarray, scores: np.ndarray, matters: np.ndarray,
                uniform_share: float, target: float) -> int:
    """The fewest new labels (the expected size of the active sample of the pairs outside
    the pilot) whose variance is finite and at most ``target`` for every estimand
    (bisection: the variance decreases as the budget grows; every pair labelled gives
    0; none leaves the errors outside the pilot unmeasured, an infinite variance)."""
    def fits(budget: int) -> bool:
        pi = active_probabilities(scores, matters, budget, uniform_share)
        variance = active_variance(moments, pi)
        return bool(((variance <= target) & np.isfinite(variance)).all())

    low, high = 0, int(matters.sum())
    if fits(low):
        return 0
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle
    return high


def systematic_sample(pi: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """A sample of fixed size ``Σπ`` (an integer) with inclusion probabilities ``pi``:
    systematic sampling of the units in a random order (Madow 1949; random order:
    Hartley and Rao 1962), one uniform start, then steps of 1 along the cumulated ``π``;
    the indices chosen, ascending."""
    size = round(float(pi.sum()))
    if size == 0:
        return np.zeros(0, dtype=np.intp)
    order = generator.permutation(len(pi))
    cumulative = np.cumsum(pi[order])
    points = generator.random() + np.arange(size)
    at = np.minimum(np.searchsorted(cumulative, points, side="right"), len(pi) - 1)
    return np.sort(order[at])
