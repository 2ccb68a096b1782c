"""Rank correlation between rankings of systems (Sakai 2014, §5.2; Ferrante et al. 2021, §3.3,
§7.1–7.2).

A score vector ranks systems by decreasing score. Two scores are *tied* when
``|a − b| ≤ atol + rtol · max(|a|, |b|)`` (the tolerance of
:func:`irscale.stats.kendall.kendall_tau`: means over topics are float sums, and equal
sums in another order may differ in the last bits).

Kendall's τ (Ferrante et al. 2021, §3.3)
    τ = (P − Q) / sqrt((P + Q + T)(P + Q + U)): P concordant pairs, Q discordant, T (U)
    pairs tied in the first (second) ranking only — Kendall's τ_b, equal to
    ``scipy.stats.kendalltau(variant="b")``. Implemented once, in
    :func:`irscale.stats.kendall.kendall_tau`, re-exported here.
AP correlation τ_ap (Sakai 2014, eq. 52; Yilmaz, Aslam & Robertson, 2008)
    With the evaluated ranking x and the gold standard y over m items,
    τ_ap(x | y) = 2/(m − 1) Σ_{r=2}^{m} correct(r)/(r − 1) − 1, correct(r) the number of
    items above rank r in x that y also ranks above the item at rank r. Asymmetric; the
    symmetric version is (τ_ap(x | y) + τ_ap(y | x))/2 (Sakai 2014, §5.2). Ties (not covered
    by eq. 52; irscale's convention): a pair tied in both rankings counts as correctly
    ordered, a pair tied only in y as half correct, and ties in x are resolved by the
    expectation over uniformly random orders of the tied items (closed form per tie
    group). Without ties this is eq. 52 exactly; identical rankings give 1, reversed ones
    (without ties) −1. A ranking that ties every item ranks nothing: τ_ap is undefined
    (NaN), as τ_b is.
Spearman's ρ (Spearman, 1904)
    Pearson's correlation of the mid-ranks (equal to ``scipy.stats.spearmanr``).
Rank-biased overlap (Webber, Moffat & Zobel, 2010; Sakai 2014, §5.2)
    For rankings S, T (best first; possibly of different lengths and items) with X_d the
    size of the overlap of their prefixes of length d and A_d = X_d/d,
    RBO_ext = (1 − p)/p [Σ_{d=1}^{l} (X_d/d) p^d + Σ_{d=s+1}^{l} X_s (d − s)/(s d) p^d]
    + [(X_l − X_s)/l + X_s/s] p^l  (their eq. 32; s ≤ l the two lengths; for s = l it is
    eq. 30, (1 − p)/p Σ_{d≤k} A_d p^d + A_k p^k), which is 1 for identical and 0 for
    disjoint rankings; RBO_min = (1 − p)/p [Σ_{d=1}^{s} (X_d − X_s)/d p^d − X_s ln(1 − p)]
    (eq. 11 at depth s).
Rank-biased overlap of tied scores (Corsi & Urbano, "The Treatment of Ties in Rank-Biased
Overlap", SIGIR 2024; the authors' reference code,
github.com/julian-urbano/sigir2024-rbo)
    Score vectors are ranked by decreasing score; scores tied within the tolerance above
    (consecutive values of the sorted scores, as for τ_ap) form a tie group, which occupies
    the ranks t..b (1-based, b − t + 1 items). Each item i contributes to the prefix of
    depth d of a ranking c_i(d): RBO^w (ties as equality) c_i(d) = [d ≥ t], the whole group
    seen as soon as its top rank is; RBO^a and RBO^b c_i(d) = min(1, max(0, (d − t + 1)/
    (b − t + 1))), the probability that item i lies in the top d under a uniformly random
    order of its group. With X_d = Σ_i c_i^S(d) c_i^L(d), the agreement is
    A^w_d = 2 X_d / (Σ_i c_i^S(d) + Σ_i c_i^L(d)), A^a_d = X_d / d and
    A^b_d = X_d / (sqrt(Σ_i c_i^S(d)²) sqrt(Σ_i c_i^L(d)²)) (the cosine of the two vectors
    of contributions). The rankings of :func:`rbo_scores` hold the same k items (s = l = k,
    X_k = k), so
    RBO_ext = (1 − p)/p Σ_{d=1}^{k} A_d p^d + p^k and
    RBO_min = (1 − p)/p [Σ_{d=1}^{k} A_d p^d + k (ln(1/(1 − p)) − Σ_{d=1}^{k} p^d/d)].
    Without ties the three are RBO above. RBO^a is linear in the X_d, and the tie orders of
    the two rankings are independent: it is the mean of RBO over every tie-breaking of both
    rankings (the tests enumerate them). ``ties="a"`` is the default, as in the authors'
    reference implementation (their §1.1: ``w`` where a tie means equality, as in sports
    rankings; ``a`` or ``b`` where it means not knowing which comes first). ``ties="input"``
    keeps tied items in their input order (the behaviour of irscale before the variants; no
    variant of the paper): asked for by name, never by default. Scores that tie every item
    rank nothing: their RBO is undefined (NaN) under every treatment.

Overall versus topic-by-topic correlation of two measures (Ferrante et al. 2021, §3.3)
    *Overall*: the correlation between the systems' mean scores; *topic-by-topic*: one
    correlation per topic between the two measures' scores on that topic (Ferrante et al.:
    1 on every topic for two measures that are transformations of one interval scale,
    though the overall correlation can be lower).
Bootstrap confidence interval of the overall correlation (Sakai, 2006; Efron &
Tibshirani, 1993, ch. 13)
    Topics are resampled with replacement (the same topics for both measures), the
    overall correlation recomputed on each of B samples; the percentile interval, and the
    bootstrap standard error (the samples' standard deviation).

Results (the protocol of :mod:`irscale.stats.protocol`)
    :func:`tau_ap`, :func:`tau_ap_symmetric`, :func:`spearman`, :func:`correlation` and
    :func:`overall_correlation` return a :class:`Correlation`: a ``float`` subclass (it
    compares, computes and serialises as the float these functions returned before) with
    ``statistic``, ``pvalue`` (``None``: a coefficient, not a test), ``method``, ``n``,
    ``to_frame()`` and ``format(fmt)``. :class:`KendallTau` (``statistic`` = ``tau``),
    :class:`RBO` (``statistic`` = ``ext``) and :class:`CorrelationCI` (``statistic`` =
    ``estimate``, ``confidence_interval(level)`` from the bootstrap replicates) speak the
    same protocol. :func:`topic_correlations` and :func:`correlation_matrix` return pandas
    objects of plain floats.

Undefined coefficients
    τ_b is 0/0 and Spearman's ρ divides by a zero spread when a ranking ties every system,
    and τ_ap and RBO have nothing to compare: NaN. :func:`overall_correlation`,
    :func:`topic_correlations` and :func:`correlation_matrix` return it with a warning
    (``UserWarning``) that says where, never a silent NaN (or a mean of the defined topics
    passed off as all of them).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.edge import keyword_error
from ..core.numbers import Meaning, declare
from ..core.progress import ProgressArg, check_progress, counted_work, declared_memory
from ..errors import ParameterError
from ..stats.bootstrap import resample_counts
from ..stats.kendall import (
    ATOL,
    NOTHING_TO_RANK,
    RTOL,
    KendallTau,
    kendall_tau,
    score_vector,
)
from ..stats.protocol import (
    ConfidenceInterval,
    Estimate,
    Untested,
    check_confidence_level,
    format_table,
    interval_or_default,
)
from ..stats.ranks import rank_columns
from ..stats.resampling import (
    RngArg,
    check_rng,
    seed_sequence,
)
from ..stats.tables import Format
from .common import generator, paired_tables
from .params import (
    CORRELATE,
    CORRELATE_CI,
    CORRELATION,
    CORRELATION_SAMPLES,
    PERSISTENCE,
    RANK_BIASED_OVERLAP,
    RBO_OF_SCORES,
)

#: Correlation methods of :func:`correlation` (``tau`` = Kendall's τ_b).
METHODS: tuple[str, ...] = CORRELATION.names

#: Bootstrap samples drawn at once by :func:`correlation_ci` (a chunk × topics matrix of
#: draw counts): its memory does not grow with B beyond the replicates kept.
CHUNK = 1024
#: Bytes per bootstrap replicate kept (the replicate, and the copies of the percentile
#: interval and the standard error).
REPLICATE_BYTES = 24

__all__ = [
    "METHODS",
    "RBO",
    "Correlation",
    "CorrelationCI",
    "KendallTau",
    "check_options",
    "check_persistence",
    "correlation",
    "correlation_ci",
    "correlation_matrix",
    "kendall_tau",
    "method_name",
    "overall_correlation",
    "rbo",
    "rbo_scores",
    "spearman",
    "tau_ap",
    "tau_ap_symmetric",
    "topic_correlations",
]


class Correlation(Estimate):
    """A rank correlation coefficient: the ``float`` itself, with its ``method``
    (:data:`METHODS`) and the number ``n`` of ranked items; ``statistic`` is the value,
    ``pvalue`` is ``None`` (no test), ``to_frame()``/``format(fmt)`` give one row."""

    _meanings: ClassVar[dict[str, Meaning]] = {"statistic": NOTHING_TO_RANK}

    _fields: tuple[str, ...] = ("method", "n")


def method_name(method: str) -> str:
    """The canonical name of a correlation method (see :data:`METHODS`)."""
    return CORRELATION.check(method, "method")


def _vectors(x: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    """Two finite score vectors of one length ≥ 2: missing or non-finite scores are an
    :class:`~irscale.errors.InputError` naming the vector (``x`` or ``y``) and position."""
    x = score_vector(x, "x")
    y = score_vector(y, "y")
    if x.ndim != 1 or x.shape != y.shape:
        raise ParameterError(f"x and y must be two score vectors of the same length, got "
                             f"{x.shape}, {y.shape}")
    if len(x) < 2:
        raise ParameterError("at least two items are needed to correlate rankings")
    return x, y


def _order_signs(v: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """S[i, j] = sign(v_i − v_j) with the tie tolerance (0 for tied values)."""
    diff = v[:, None] - v[None, :]
    scale = np.maximum(np.abs(v)[:, None], np.abs(v)[None, :])
    return np.where(np.abs(diff) <= atol + rtol * scale, 0, np.sign(diff)).astype(np.int8)


def _tie_groups(v: np.ndarray, rtol: float, atol: float) -> tuple[np.ndarray, np.ndarray]:
    """Order by decreasing ``v`` and the tie-group id of each position (consecutive values
    within the tolerance share a group)."""
    order = np.argsort(-v, kind="stable")
    ordered = v[order]
    gap = ordered[:-1] - ordered[1:]
    scale = np.maximum(np.abs(ordered[:-1]), np.abs(ordered[1:]))
    new = np.concatenate(([True], gap > atol + rtol * scale))
    return order, np.cumsum(new) - 1


def tau_ap(x: object, y: object, *, rtol: float = RTOL, atol: float = ATOL) -> Correlation:
    """AP correlation τ_ap(x | y) of the ranking by ``x`` against the gold ranking by ``y``
    (Sakai 2014, eq. 52; ties as in the module documentation), a :class:`Correlation`."""
    x, y = _vectors(x, y)
    return Correlation(_tau_ap(x, y, rtol, atol), method="tau_ap", n=len(x))


def _ranks_nothing(v: np.ndarray, rtol: float, atol: float) -> bool:
    """Whether the scores ``v`` tie every item (one tie group): they rank nothing."""
    return int(_tie_groups(v, rtol, atol)[1][-1]) == 0


def _tau_ap(x: np.ndarray, y: np.ndarray, rtol: float, atol: float) -> float:
    if _ranks_nothing(x, rtol, atol) or _ranks_nothing(y, rtol, atol):
        return float("nan")
    m = len(x)
    order, group = _tie_groups(x, rtol, atol)
    gold = _order_signs(y, rtol, atol)[np.ix_(order, order)]
    tied_x = group[:, None] == group[None, :]
    # credit[a, b]: gold ranks item a above item b (positions in x's order)
    credit = np.where(gold > 0, 1.0, np.where(gold < 0, 0.0, np.where(tied_x, 1.0, 0.5)))
    np.fill_diagonal(credit, 0.0)
    earlier = group[:, None] < group[None, :]  # a in an earlier group than b
    before = np.where(earlier, credit, 0.0).sum(axis=0)  # C_prev(b)
    within = np.where(tied_x, credit, 0.0).sum(axis=0)  # C_in(b)
    n_groups = int(group[-1]) + 1
    size = np.bincount(group, minlength=n_groups).astype(np.float64)
    start = np.concatenate(([0.0], np.cumsum(size)[:-1]))
    a_sum = np.bincount(group, weights=before, minlength=n_groups)
    b_sum = np.bincount(group, weights=within, minlength=n_groups)
    # position p = start + u (0-based, p = r − 1) holds a uniformly random member of its
    # group, u of the group's other members (a random subset) lie above it
    g = group
    u = np.arange(m) - start[g]
    pairs_in = np.where(size[g] > 1, u * b_sum[g] / np.maximum(size[g] - 1.0, 1.0), 0.0)
    expected_correct = (a_sum[g] + pairs_in) / size[g]
    positions = np.arange(m, dtype=np.float64)
    total = float(np.sum(expected_correct[1:] / positions[1:]))
    return 2.0 / (m - 1) * total - 1.0


def tau_ap_symmetric(x: object, y: object, *, rtol: float = RTOL,
                     atol: float = ATOL) -> Correlation:
    """Symmetric τ_ap: the mean of τ_ap(x | y) and τ_ap(y | x) (Sakai 2014, §5.2), a
    :class:`Correlation`."""
    x, y = _vectors(x, y)
    return Correlation(_tau_ap_symmetric(x, y, rtol, atol), method="tau_ap_sym", n=len(x))


def _tau_ap_symmetric(x: np.ndarray, y: np.ndarray, rtol: float, atol: float) -> float:
    return 0.5 * (_tau_ap(x, y, rtol, atol) + _tau_ap(y, x, rtol, atol))


def spearman(x: object, y: object, *, rtol: float = RTOL, atol: float = ATOL) -> Correlation:
    """Spearman's ρ: Pearson's correlation of mid-ranks (NaN when a vector is constant),
    a :class:`Correlation`."""
    x, y = _vectors(x, y)
    return Correlation(_spearman(x, y, rtol, atol), method="spearman", n=len(x))


def _spearman(x: np.ndarray, y: np.ndarray, rtol: float, atol: float) -> float:
    # each ranking its own tolerance: one of both tied a measure of scores 1e70 entirely
    # beside one of scores 1e139 (ρ NaN), as Kendall's pairwise tolerance never does
    rx, _ = rank_columns(x, atol + rtol * float(np.abs(x).max()))
    ry, _ = rank_columns(y, atol + rtol * float(np.abs(y).max()))
    rx, ry = rx - rx.mean(), ry - ry.mean()
    den = float(np.sqrt(np.sum(rx * rx) * np.sum(ry * ry)))
    return float(np.sum(rx * ry) / den) if den > 0 else float("nan")


@dataclass(frozen=True)
class RBO(Untested):
    """Rank-biased overlap: extrapolated (``ext``) and lower bound (``min``) at
    persistence ``p``; ``depth`` = (length of the shorter, of the longer ranking); ``ties``
    the treatment of tied scores (``a``, ``b``, ``w``, ``input``: :func:`rbo_scores`), None
    for rankings of items, which hold no ties (:func:`rbo`).
    Protocol: ``statistic`` = ``ext``, ``pvalue`` ``None``, ``to_frame()``, ``format()``."""

    ext: float
    min: float
    p: float
    depth: tuple[int, int]
    ties: str | None = None
    statistic_field: ClassVar[str] = "ext"

    def to_frame(self) -> pd.DataFrame:
        """One row: ``ext`` (= statistic), ``min``, ``p`` and the two depths."""
        return declare(pd.DataFrame([{"method": "rbo", "statistic": self.ext, "ext": self.ext,
                                      "min": self.min, "p": self.p,
                                      "depth_short": self.depth[0],
                                      "depth_long": self.depth[1],
                                      "ties": self.ties or ""}]),
                       dict.fromkeys(("statistic", "ext", "min"), NOTHING_TO_RANK))

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """RBO as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits)


def _check_ranking(ranking: Sequence[Hashable], name: str) -> list[Hashable]:
    items = list(ranking)
    if len(set(items)) != len(items):
        raise ParameterError(f"ranking {name} lists an item twice")
    return items


def check_persistence(p: object, name: str = "p") -> float:
    """The RBO persistence ``p`` as a float in the open interval (0, 1)."""
    return PERSISTENCE.check(p, f"the RBO persistence {name}")


@RANK_BIASED_OVERLAP
def rbo(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9) -> RBO:
    """Rank-biased overlap of two rankings of items, best first (module documentation);
    ``p`` checked on entry (:data:`irscale.meta.params.RANK_BIASED_OVERLAP`)."""
    a, b = _check_ranking(a, "a"), _check_ranking(b, "b")
    if not a or not b:
        raise ParameterError("RBO needs two non-empty rankings")
    s, long = sorted((len(a), len(b)))
    pos_a = {item: i + 1 for i, item in enumerate(a)}
    pos_b = {item: i + 1 for i, item in enumerate(b)}
    # an item is in both prefixes from depth max(pos_a, pos_b) on
    common = [max(pos_a[item], pos_b[item]) for item in pos_a if item in pos_b]
    x = np.cumsum(np.bincount(np.asarray(common, dtype=np.int64), minlength=long + 1)[1:])
    d = np.arange(1, long + 1, dtype=np.float64)
    weight = p**d
    x_s, x_l = float(x[s - 1]), float(x[long - 1])
    tail = d > s
    ext = (1 - p) / p * (np.sum(x / d * weight) + np.sum(x_s * (d[tail] - s) / (s * d[tail])
                                                         * weight[tail]))
    ext += ((x_l - x_s) / long + x_s / s) * p**long
    head = slice(0, s)
    low = (1 - p) / p * (np.sum((x[head] - x_s) / d[head] * weight[head]) - x_s * np.log(1 - p))
    return RBO(ext=float(ext), min=float(low), p=p, depth=(s, long))


def _ranking(v: np.ndarray, rtol: float, atol: float) -> list[int]:
    """Item indices by decreasing ``v``, values tied within the tolerance (the tie groups
    of :func:`_tie_groups`, shared with τ_ap) in input order."""
    order, group = _tie_groups(v, rtol, atol)
    return order[np.lexsort((order, group))].tolist()


@RBO_OF_SCORES
def rbo_scores(x: object, y: object, p: float = 0.9, *, ties: str = "a", rtol: float = RTOL,
               atol: float = ATOL) -> RBO:
    """RBO of the rankings of the same items by decreasing scores ``x`` and ``y``.

    Scores tied within the tolerance of Kendall's τ and τ_ap (``rtol``, ``atol``) form tie
    groups, so floating-point noise cannot order them; ``ties`` says how RBO treats them
    (Corsi & Urbano, SIGIR 2024; module documentation): ``"a"`` (the default, as in the
    authors' reference implementation) the expectation over every order of the tied items,
    ``"b"`` RBO^b, ``"w"`` RBO^w, ``"input"`` tied items in their input order (irscale's
    treatment before the variants, none of the paper's). ``p`` and ``ties`` are checked on
    entry (:data:`irscale.meta.params.RBO_OF_SCORES`)."""
    x, y = _vectors(x, y)
    if _ranks_nothing(x, rtol, atol) or _ranks_nothing(y, rtol, atol):
        return RBO(ext=float("nan"), min=float("nan"), p=p, depth=(len(x), len(x)),
                   ties=ties)
    if ties == "input":
        return replace(rbo(_ranking(x, rtol, atol), _ranking(y, rtol, atol), p),
                       ties=ties)
    return _rbo_tied(_contributions(x, ties, rtol, atol), _contributions(y, ties, rtol, atol),
                     p, ties)


def _contributions(v: np.ndarray, ties: str, rtol: float, atol: float) -> np.ndarray:
    """c[i, d − 1]: the contribution of item i to the depth-d prefix of the ranking by
    decreasing ``v`` (Corsi & Urbano 2024; module documentation): ``[d ≥ t]`` for RBO^w,
    ``clip((d − t + 1)/(b − t + 1), 0, 1)`` for RBO^a and RBO^b, t..b the ranks of the
    item's tie group."""
    order, group = _tie_groups(v, rtol, atol)
    n_groups = int(group[-1]) + 1
    size = np.bincount(group, minlength=n_groups)
    top = (np.cumsum(size) - size + 1)[group]  # t of each position in the sorted order
    t = np.empty(len(v), dtype=np.float64)
    t[order] = top
    width = np.empty(len(v), dtype=np.float64)
    width[order] = size[group] if ties != "w" else 1.0
    d = np.arange(1, len(v) + 1, dtype=np.float64)
    return np.clip((d[None, :] - t[:, None] + 1) / width[:, None], 0.0, 1.0)


def _rbo_tied(c_s: np.ndarray, c_l: np.ndarray, p: float, ties: str) -> RBO:
    """RBO^w, RBO^a or RBO^b (``ties``) of two rankings of the same k items from their
    contributions (:func:`_contributions`): A_d by the variant, then RBO_ext and RBO_min at
    s = l = k (module documentation)."""
    k = c_s.shape[1]
    x = np.sum(c_s * c_l, axis=0)
    d = np.arange(1, k + 1, dtype=np.float64)
    if ties == "w":
        agreement = 2 * x / (c_s.sum(axis=0) + c_l.sum(axis=0))
    elif ties == "a":
        agreement = x / d
    else:
        agreement = x / np.sqrt(np.sum(c_s**2, axis=0) * np.sum(c_l**2, axis=0))
    weight = p**d
    head = float(np.sum(agreement * weight))
    ext = (1 - p) / p * head + p**k
    low = (1 - p) / p * (head + k * (np.log(1 / (1 - p)) - float(np.sum(weight / d))))
    return RBO(ext=float(ext), min=float(low), p=p, depth=(k, k), ties=ties)


def check_options(method: str, options: Mapping[str, object]) -> None:
    """Refuse options the correlation ``method`` does not take (e.g. ``p`` with τ)."""
    allowed = ("p", "ties", "rtol", "atol") if method_name(method) == "rbo" \
        else ("rtol", "atol")
    rbo_only = sorted({"p", "ties"} & (set(options) - {*allowed}))
    words = {"p": "the persistence p", "ties": "the tie treatment ties"}
    verb = "apply" if len(rbo_only) > 1 else "applies"
    hint = f" ({' and '.join(words[k] for k in rbo_only)} {verb} to RBO only)" if rbo_only \
        else ""
    error = keyword_error(f"the {method_name(method)} correlation", options, allowed, hint)
    if error is not None:
        raise error


@CORRELATE
def correlation(x: object, y: object, method: str = "kendall", **options: float | str
                ) -> Correlation:
    """The correlation of the rankings by scores ``x`` and ``y``.

    Parameters
    ----------
    x, y : array_like
        Scores of the same systems, in the same order (e.g. mean scores under two
        measures); each ranks the systems by decreasing score.
    method : {"kendall", "tau_ap", "tau_ap_sym", "spearman", "rbo"}, default "kendall"
        Kendall's τ_b, τ_ap(x | y) with y the gold standard, the symmetric τ_ap,
        Spearman's ρ, or the extrapolated rank-biased overlap (see the module docstring).
    **options : float or str
        ``rtol`` / ``atol``, the tolerance within which two scores tie (every method);
        ``p``, RBO's persistence (default 0.9; RBO only); ``ties``, RBO's treatment of
        tied scores (``"a"``, ``"b"``, ``"w"``, ``"input"``; default ``"a"``; RBO only:
        :func:`rbo_scores`). ``p`` and ``ties`` are checked on entry, refused with another
        method (:data:`irscale.meta.params.RBO_ONLY`, ``meta correlate``'s rule too).

    Returns
    -------
    Correlation
        A ``float`` (it compares, computes and prints as the coefficient) with
        ``statistic``, ``pvalue`` (``None``), ``method``, ``n``, ``to_frame()`` and
        ``format(fmt)``.

    Raises
    ------
    ParameterError
        An unknown method, an option the method does not take, or vectors of different
        lengths.
    InputError
        A missing or non-finite score (naming the vector and position).

    Examples
    --------
    >>> ap = [0.31, 0.25, 0.40, 0.18, 0.22]
    >>> ndcg = [0.45, 0.41, 0.52, 0.30, 0.43]
    >>> print(round(correlation(ap, ndcg), 4), round(correlation(ap, ndcg, "tau_ap"), 4))
    0.8 0.8333
    >>> print(round(correlation(ap, ndcg, "rbo", p=0.8), 4))
    0.9573
    """
    check_options(method, options)
    x, y = _vectors(x, y)  # every method: finite vectors of one length (also Kendall's τ)
    return Correlation(_correlation(x, y, method, options), method=method, n=len(x))


def _correlation(x: np.ndarray, y: np.ndarray, method: str, options: dict) -> float:
    """The plain float of :func:`correlation` (checked ``method``, vectors and options)."""
    if method == "rbo":
        return rbo_scores(x, y, **options).ext
    if method == "kendall":
        return kendall_tau(x, y, **options).tau
    rtol, atol = options.get("rtol", RTOL), options.get("atol", ATOL)
    if method == "tau_ap":
        return _tau_ap(x, y, rtol, atol)
    if method == "tau_ap_sym":
        return _tau_ap_symmetric(x, y, rtol, atol)
    return _spearman(x, y, rtol, atol)


def overall_correlation(
    a: object, b: object = None, *, measure_a: str | None = None,
    measure_b: str | None = None, method: str = "kendall", **options: float | str,
) -> Correlation:
    """Overall correlation: rank systems by their mean score over the (common) topics under
    each measure, then correlate (Ferrante et al. 2021, §3.3). ``b`` defaults to ``a``. A
    :class:`Correlation` (a float)."""
    x, y, _, _ = paired_tables(a, b, measure_a, measure_b)
    value = correlation(x.mean(axis=0), y.mean(axis=0), method, **options)
    if np.isnan(value):
        warnings.warn(f"{method_name(method)} of {_names(a, b, measure_a, measure_b)} is "
                      f"undefined (NaN): {_TIES_EVERY_SYSTEM} by its mean", stacklevel=2)
    return value


def topic_correlations(
    a: object, b: object = None, *, measure_a: str | None = None,
    measure_b: str | None = None, method: str = "kendall", **options: float | str,
) -> pd.Series:
    """Topic-by-topic correlation (Ferrante et al. 2021, §3.3): one value per topic, indexed by
    topic (NaN where a measure ties every system on the topic)."""
    x, y, topics, _ = paired_tables(a, b, measure_a, measure_b)
    values = [float(correlation(x[t], y[t], method, **options)) for t in range(len(topics))]
    undefined = [str(t) for t, v in zip(topics, values, strict=True) if np.isnan(v)]
    if undefined:
        warnings.warn(f"{method_name(method)} of {_names(a, b, measure_a, measure_b)} is "
                      f"undefined (NaN) on {len(undefined)} of {len(topics)} topics, where "
                      f"{_TIES_EVERY_SYSTEM}: {_listed(undefined)}", stacklevel=2)
    return pd.Series(values, index=pd.Index(topics, name="topic"), name=method_name(method))


#: Why a rank correlation is undefined.
_TIES_EVERY_SYSTEM = "one of the two measures ranks every system equal (ties them all)"


def _names(a: object, b: object, measure_a: str | None, measure_b: str | None) -> str:
    """The two measures correlated, as the user named them (or as ``a`` and ``b``)."""
    first = measure_a or _only_measure(a) or "a"
    second = measure_b or _only_measure(b) or ("b" if b is not None else first)
    return f"{first!r} and {second!r}"


def _only_measure(data: object) -> str | None:
    measures: Sequence[object] = getattr(data, "measures", ())
    return str(measures[0]) if len(measures) == 1 else None


def _listed(items: Sequence[str], shown: int = 10) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


class CorrelationCI(Correlation):
    """An overall correlation (the ``float`` itself, a :class:`Correlation`) with its
    bootstrap percentile interval (``low``, ``high``) at ``level``, its standard error ``se``
    over ``samples`` bootstrap samples and the ``replicates`` (kept for other levels).

    Protocol: ``statistic`` (= ``estimate`` = the float), ``pvalue`` (``None``),
    :meth:`confidence_interval` (the percentile interval of the ``replicates`` at any
    level; at ``level`` it is (``low``, ``high``)), ``to_frame()``, ``format(fmt)``;
    :meth:`describe` says it in one line (the ``repr`` is the float's).
    """

    _fields = ("method", "n", "low", "high", "se", "level", "samples", "replicates")
    # the fields, set by Estimate.__new__ (declarations only, for type checkers)
    method: str
    n: int | None
    low: float
    high: float
    se: float
    level: float
    samples: int
    replicates: np.ndarray | None

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The bootstrap percentile interval at ``confidence_level`` (default 0.95; at
        ``level`` it is (``low``, ``high``))."""

        def compute(level: float) -> tuple[float, float]:
            if self.replicates is None:
                raise ParameterError(f"no bootstrap replicates kept: the interval is known "
                                     f"at level {self.level:g} only")
            return _percentile(self.replicates, level)

        return interval_or_default(confidence_level, self.level, (self.low, self.high),
                                   compute)

    def _row(self) -> dict[str, object]:
        return {"method": self.method, "estimate": float(self), "ci_low": self.low,
                "ci_high": self.high, "se": self.se, "level": self.level,
                "samples": self.samples}

    def describe(self) -> str:
        return (f"CorrelationCI({self.method} {float(self):.4f}, {self.level:.0%} CI "
                f"[{self.low:.4f}, {self.high:.4f}], bootstrap s.e. {self.se:.4f}, "
                f"B={self.samples})")


def _percentile(values: np.ndarray, level: float) -> tuple[float, float]:
    """The percentile interval at ``level`` of the finite ``values`` (NaN if none)."""
    tail = (1.0 - level) / 2.0
    finite = values[np.isfinite(values)]
    if not len(finite):
        return float("nan"), float("nan")
    low, high = np.quantile(finite, [tail, 1.0 - tail])
    return float(low), float(high)


@CORRELATE_CI
def correlation_ci(
    a: object, b: object = None, *, measure_a: str | None = None,
    measure_b: str | None = None, method: str = "kendall", samples: int = 1000,
    level: float = 0.95, rng: RngArg = None,
    progress: ProgressArg = False, **options: float | str,
) -> CorrelationCI:
    """Bootstrap percentile interval of the overall correlation (module documentation): topics
    resampled with replacement, B = ``samples`` times. ``rng``: an integer seed, a
    :class:`numpy.random.Generator` or ``None``; ``progress``: a bool or a callable
    ``progress(done, total)``."""
    try:
        level = check_confidence_level(level)
    except ParameterError:
        raise ParameterError(f"level must lie in (0, 1), got {level}") from None
    rng = check_rng(rng)
    check_progress(progress)
    check_options(method, options)
    x, y, _, _ = paired_tables(a, b, measure_a, measure_b)
    n = x.shape[0]
    estimate = correlation(x.mean(axis=0), y.mean(axis=0), method, **options)
    # the replicates, kept for intervals at any level, refused beyond the memory limit
    # before any draw; then the draws counted (the one mechanism, irscale.core.progress)
    declared_memory(CORRELATION_SAMPLES, REPLICATE_BYTES * float(samples),
                    f"{samples:,} {CORRELATION_SAMPLES.units}: bootstrap replicates, kept for "
                    "intervals at any level")
    report = counted_work(CORRELATION_SAMPLES, samples, "bootstrap", progress)
    gen = generator(seed_sequence(rng=rng))
    values = np.empty(samples)
    for first in range(0, samples, CHUNK):  # topics drawn a chunk at a time: flat memory
        size = min(CHUNK, samples - first)
        counts = resample_counts(gen.integers(0, n, size=(size, n)), n)
        mx, my = counts @ x / n, counts @ y / n
        for b_ in range(size):
            values[first + b_] = _correlation(mx[b_], my[b_], method, options)
        report(first + size)
    low, high = _percentile(values, level)
    finite = values[np.isfinite(values)]
    return CorrelationCI(float(estimate), method=method, n=x.shape[1], low=low, high=high,
                         se=float(np.std(finite, ddof=1)) if len(finite) > 1
                         else float("nan"), level=level, samples=samples, replicates=values)


def correlation_matrix(
    data: ScoreMatrix, measures: Sequence[str] | None = None, *, method: str = "kendall",
    **options: float | str,
) -> pd.DataFrame:
    """Overall correlation between every two measures of a score matrix (rows: the
    evaluated/first measure; for τ_ap the column is the gold standard)."""
    if not isinstance(data, ScoreMatrix):
        raise ParameterError(f"data: correlation_matrix needs a ScoreMatrix with several "
                             f"measures, got {type(data).__name__}", param="data")
    names = list(measures) if measures is not None else list(data.measures)
    means = {m: data.array(m).mean(axis=0) for m in names}
    table = [[float(correlation(means[r], means[c], method, **options)) for c in names]
             for r in names]
    undefined = [f"{r} vs {c}" for i, r in enumerate(names) for c in names[i:]
                 if np.isnan(table[i][names.index(c)])]
    if undefined:
        warnings.warn(f"{method_name(method)} is undefined (NaN) for {_listed(undefined)}: "
                      f"{_TIES_EVERY_SYSTEM} by its mean", stacklevel=2)
    return pd.DataFrame(table, index=pd.Index(names, name="measure"), columns=names)
