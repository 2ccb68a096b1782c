"""Informativeness of the cascade and intent-aware diversity measures by maximum entropy
(Ashkan & Clarke, WWW 2011, "On the informativeness of cascade and intent-aware
effectiveness measures"; Sakai 2014, §5.5), extending the method of Aslam, Yilmaz & Pavlu
(2005) that :mod:`irscale.meta.informativeness` applies to AP, R-prec and P@k.

From a measure's value alone, infer the least committed distribution of per-intent
relevance over the ranks, and ask how well it recovers the list's own per-intent
relevance. irscale's reading (the paper's exact formulation is not available here; what is
computed is stated in full):

* **Lists.** A ranked list of N documents judged for the S intents of its topic that
  have a relevant document (ndeval's ``actualSubtopics``) is a 0/1 matrix x (N × S),
  x_ij = 1 when the document at rank i is relevant to intent j. Known besides the value:
  N, each intent's recall base R_j and the number ρ_j of its relevant documents in the
  list.
* **Distribution.** x_ij are independent with probabilities p_ij (entropy Σ H(p_ij));
  constraints Σ_i p_ij = ρ_j for every intent and E[M] = the value.
* **Measures** (ndeval 4.5, :mod:`irscale.measures.diversity.ndeval`) are all of one
  cascade form, a gain (1 − a)^{c_j(i)} for a document relevant to j with c_j(i)
  documents relevant to j above it, weighted by rank:

      M = (1/Z) Σ_j Σ_i w_i x_ij Π_{l<i} (1 − a x_lj),
      E[M] = (1/Z) Σ_j Σ_i w_i p_ij Π_{l<i} (1 − a p_lj)   (independence; on a 0/1 list: M)

  ``alpha-DCG@k`` a = α, w_i = log 2/log(i + 1); ``ERR-IA@k`` a = α, w_i = 1/i (both for
  i ≤ k, Z ndeval's sum Σ_{i≤k} S(1 − α)^{i−1} w_i, 1 at k = 1); ``NRBP`` a = α,
  w_i = β^{i−1} (0 where below :data:`NEGLIGIBLE`), Z = S/(1 − (1 − α)β); ``P-IA@k``
  a = 0, w_i = 1 for i ≤ k, Z = kS. ``alpha-nDCG@k``, ``nERR-IA@k`` and ``nNRBP`` take Z
  the sum of the topic's greedy ideal ranking (ndeval's, for the measure's α); a
  constant, so their distribution, and their informativeness, are those of
  ``alpha-DCG@k``, ``ERR-IA@k`` and ``NRBP``. Not ``strec@k`` (a = 1 with equal weights:
  its value ignores the order within the top k, and where few documents are relevant its
  maximum entropy distribution is not unique, favouring some of those ranks over the
  others), nor ``MAP-IA`` (not of this form).
* **Solution.** The stationary points of the Lagrangian, logit(p_ij) = λ_j + μ ∂E[M]/∂p_ij,
  solved by Newton's method with the exact Jacobian (the Hessian of E[M] is within each
  intent: one K × K block an intent, K the ranks of positive weight, then the S + 1
  multipliers), followed in the value by continuation from the uniform distribution
  p_ij = ρ_j/N (μ = 0; :mod:`irscale.meta.continuation`). Ranks of weight 0 (beyond the
  cut-off) share one probability an intent, e^{λ_j}/(1 + e^{λ_j}). The tests check the
  solution against scipy's SLSQP on the same problem.
* **Corners.** An intent whose value is the same on every list with its ρ_j relevant
  documents (none or all of the list relevant, ``P-IA@k`` with k ≥ N) says nothing
  through the value: it is left out of the constraint (its part of the value subtracted)
  and its distribution is uniform, ρ_j/N a rank. At the highest value the lists allow the
  distribution is the one of largest entropy over the lists that have it (:func:`_best`:
  the top min(ρ_j, K) ranks relevant, what is left spread evenly below; with a = 1 the
  first rank relevant, the rest spread; ``P-IA@k``, min(ρ_j, k) spread over the top k);
  at the lowest (:func:`_worst`), where every intent's relevant documents fit below the K
  ranks of positive weight, none of them is relevant and ρ_j is spread below, and with
  a = 0 (``P-IA``, α = 0, whose value is linear in p) the ranks below are filled and the
  rest are the lowest of positive weight (``P-IA@k``: spread over the top k); elsewhere
  the value is inside the range of the product distributions and solved as above.
* **Informativeness** of M on a list = the root mean square difference, over the S
  intents and the eleven recall levels 0, 0.1, ..., 1, of each intent's interpolated
  precision–recall curve inferred from p_·j (expected counts Σ_{l≤i} p_lj) and its
  actual one (recall against R_j; :func:`irscale.meta.informativeness.interpolated_curve`).
  Lower: more informative. The result is an
  :class:`~irscale.meta.informativeness.Informativeness`, as for AP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..core.progress import ProgressArg, progress_reporter
from ..errors import InputError, ParameterError
from ..stats.validation import as_floats
from .continuation import damped_newton, follow
from .informativeness import Informativeness, informativeness_of, interpolated_curve
from .params import INFORMATIVENESS_DEPTH, INTENT_INFORMATIVENESS_MEASURES, JUDGED_INTENT_LISTS

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.diversity.rankings import DiversityRankings

__all__ = ["intent_informativeness", "judged_intent_lists", "maxent_intent_relevance"]

#: The families of the cascade form, and the family each normalised one divides.
CASCADE_FAMILIES = ("alpha-DCG", "ERR-IA", "NRBP", "P-IA")
NORMALISED = {"alpha-nDCG": "alpha-DCG", "nERR-IA": "ERR-IA", "nNRBP": "NRBP"}
#: NRBP's rank weights β^{i−1} below this count 0 (their part of NRBP is below it).
NEGLIGIBLE = 1e-12


@dataclass(frozen=True)
class Cascade:
    """A measure of the cascade form (module documentation): its ``family`` (one of
    :data:`CASCADE_FAMILIES`), the gain's ``a``, the cut-off, β (NRBP) and whether it is
    divided by the ideal ranking's sum (``normalised``, for ``alpha``)."""

    label: str
    family: str
    a: float
    cutoff: int | None
    beta: float
    normalised: bool

    def weights(self, n: int) -> np.ndarray:
        """w_1..w_n."""
        ranks = np.arange(1.0, n + 1.0)
        if self.family == "NRBP":  # weights below NEGLIGIBLE count 0
            w = np.power(self.beta, ranks - 1.0)
            return np.where(w >= NEGLIGIBLE, w, 0.0)
        within = ranks <= (self.cutoff or 0)
        if self.family == "alpha-DCG":
            return np.where(within, np.log(2.0) / np.log(ranks + 1.0), 0.0)
        if self.family == "ERR-IA":
            return np.where(within, 1.0 / ranks, 0.0)
        return within.astype(np.float64)

    def sums(self, p: np.ndarray) -> np.ndarray:
        """Per intent, Σ_i w_i p_ij Π_{l<i} (1 − a p_lj) of an N × S matrix ``p``."""
        q = 1.0 - self.a * p
        before = np.vstack([np.ones((1, p.shape[1])), np.cumprod(q[:-1], axis=0)])
        return (self.weights(len(p))[:, None] * p * before).sum(axis=0)

    def scale(self, n_intents: int, ideal: np.ndarray | None) -> float:
        """Z (module documentation); ``ideal``: the greedy ideal ranking's matrix."""
        if self.normalised:
            if ideal is None:
                raise ParameterError(f"{self.label} divides by the topic's ideal ranking: "
                                     "give it (ideal=, judged_intent_lists gives it)")
            return float(self.sums(ideal).sum())
        k = self.cutoff or 0
        if self.family == "P-IA":
            return float(k * n_intents)
        if self.family == "NRBP":
            return n_intents / (1.0 - (1.0 - self.a) * self.beta)
        if k <= 1:  # ndeval leaves the sum at k = 1 as it is
            return 1.0
        return float(n_intents * np.sum(np.power(1.0 - self.a, np.arange(k))
                                        * self.weights(k)))


def cascade(name: str) -> Cascade:
    """The :class:`Cascade` of a diversity measure name (``alpha-nDCG@20``,
    ``ERR-IA(alpha=0.3)@10``, ``NRBP(beta=0.8)``, ``P-IA@5`` ...)."""
    from ..errors import MeasureError
    from ..measures.diversity import parse_diversity_measures

    known = ", ".join([*CASCADE_FAMILIES, *NORMALISED])
    try:
        requests = parse_diversity_measures(str(name))
    except MeasureError as error:
        raise ParameterError(f"informativeness of diversity measures knows {known}: "
                             f"{error}", param="measures") from None
    request = requests[0]
    family = NORMALISED.get(request.family, request.family)
    if len(requests) != 1 or family not in CASCADE_FAMILIES or request.condensed:
        raise ParameterError(f"informativeness of diversity measures knows {known} (ndeval's "
                             f"cascade measures), not {name!r}", param="measures")
    params = dict(request.params.items())
    a = 0.0 if family == "P-IA" else params["alpha"]
    return Cascade(str(name).strip(), family, float(a), request.cutoff,
                   float(params.get("beta", 0.5)), request.family in NORMALISED)


def maxent_intent_relevance(measure: str, value: float, *, n_docs: int,
                            recall_bases: Sequence[int],
                            retrieved_relevant: Sequence[int] | None = None,
                            ideal: ArrayLike | None = None) -> np.ndarray:
    """The maximum entropy probabilities p_ij (an ``n_docs`` × S matrix) of relevance at
    rank i to intent j of a list whose diversity ``measure`` is ``value`` (module
    documentation). ``recall_bases``: R_j of the S intents; ``retrieved_relevant``: ρ_j,
    their relevant documents in the list (default R_j); ``ideal``: the 0/1 matrix of the
    topic's greedy ideal ranking, for ``alpha-nDCG``, ``nERR-IA`` and ``nNRBP``.

    Values no list with these ρ_j can have are an error."""
    model = cascade(measure)
    n, bases, rho = _shape(n_docs, recall_bases, retrieved_relevant)
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ParameterError(f"{measure} = {value}: a finite value ≥ 0 is needed")
    ideal_matrix = None if ideal is None else _matrix(ideal, "ideal", len(bases))
    return _maxent(model, value * model.scale(len(bases), ideal_matrix), n, rho)


def _shape(n_docs: object, recall_bases: Sequence[int],
           retrieved_relevant: Sequence[int] | None) -> tuple[int, np.ndarray, np.ndarray]:
    if isinstance(n_docs, bool) or not isinstance(n_docs, (int, np.integer)) or n_docs < 1:
        raise ParameterError(f"n_docs must be a positive integer, got {n_docs!r}")
    bases = np.asarray(recall_bases, dtype=np.int64).ravel()
    rho = bases.copy() if retrieved_relevant is None else \
        np.asarray(retrieved_relevant, dtype=np.int64).ravel()
    if not len(bases) or np.any(bases < 1) or len(rho) != len(bases):
        raise ParameterError("recall_bases: one count ≥ 1 an intent (an intent without a "
                             "relevant document is not one of the topic's), and as many "
                             "retrieved_relevant")
    if np.any(rho < 0) or np.any(rho > np.minimum(bases, n_docs)):
        raise ParameterError(f"retrieved_relevant must lie in [0, min(n_docs, R_j)], got "
                             f"{rho.tolist()} with R = {bases.tolist()}, n_docs = {n_docs}")
    return int(n_docs), bases, rho


def _ends(model: Cascade, n: int, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per intent, the sums of the lists with ρ_j relevant documents at the bottom and
    on top: the lowest and the highest (w does not increase with the rank, and each
    relevant document gains at most what the one above it gains)."""
    ranks = np.arange(n)[:, None]
    top = (ranks < rho[None, :]).astype(np.float64)
    return model.sums(top[::-1]), model.sums(top)


def _maxent(model: Cascade, target: float, n: int, rho: np.ndarray) -> np.ndarray:
    """p (N × S) of maximum entropy under Σ_i p_ij = ρ_j and Z·E[M] = ``target``."""
    low, high = _ends(model, n, rho)
    tolerance = 1e-9 * max(1.0, float(high.sum()))
    if not low.sum() - tolerance <= target <= high.sum() + tolerance:
        raise ParameterError(f"{model.label}: the value is impossible with "
                             f"{rho.tolist()} relevant document(s) per intent among {n}")
    p = np.tile(rho / n, (n, 1))
    free = high - low > 1e-12
    if not free.any():
        return p
    target -= float(high[~free].sum())  # the fixed intents' part (module documentation)
    top = int(np.flatnonzero(model.weights(n) > 0)[-1]) + 1
    if target >= high[free].sum() - tolerance:
        p[:, free] = _best(model, n, top, rho[free])
    elif target <= low[free].sum() + tolerance and \
            (model.a == 0.0 or np.all(rho[free] <= n - top)):
        p[:, free] = _worst(model, n, top, rho[free])
    else:
        solved = _solve(model, target, n, rho[free])
        if solved is None:
            raise ParameterError(f"the maximum entropy distribution of {model.label} (N = "
                                 f"{n}, ρ = {rho.tolist()}) was not found (Newton's method "
                                 "did not converge)")
        p[:, free] = solved
    return p


def _best(model: Cascade, n: int, top: int, rho: np.ndarray) -> np.ndarray:
    """The maximum entropy distribution of the highest value (module documentation): a = 1,
    the first rank relevant and the rest spread; P-IA, min(ρ_j, k) spread over the top k;
    otherwise the top min(ρ_j, K) ranks relevant (K the ranks of positive weight); what is
    left of ρ_j spread evenly below."""
    ranks = np.arange(n)[:, None]
    if model.family == "P-IA":
        head = np.minimum(rho, top)
        return np.where(ranks < top, head / top, (rho - head) / max(n - top, 1))
    shown = 1 if model.a == 1.0 else top
    head = np.minimum(rho, shown)
    return np.where(ranks < head[None, :], 1.0,
                    np.where(ranks < shown, 0.0, (rho - head) / max(n - shown, 1)))


def _worst(model: Cascade, n: int, top: int, rho: np.ndarray) -> np.ndarray:
    """The maximum entropy distribution of the lowest value where it is known (module
    documentation): ρ_j spread over the N − K ranks of weight 0 as far as they hold it, the
    rest (a = 0 only) on the lowest ranks of positive weight, or with ``P-IA`` spread over
    the top k."""
    ranks = np.arange(n)[:, None]
    below = n - top
    tail = np.minimum(rho, below)
    head = rho - tail
    if model.family == "P-IA":
        return np.where(ranks < top, head / top, tail / max(below, 1))
    return np.where(ranks >= top, tail / max(below, 1),
                    (ranks >= top - head[None, :]).astype(np.float64))


def _solve(model: Cascade, target: float, n: int, rho: np.ndarray) -> np.ndarray | None:
    """The stationary point of the free intents ρ (0 < ρ_j < N), followed from the
    uniform distribution (module documentation); z = (y (K × S, by intent), λ, μ)."""
    from scipy.special import expit, logit

    w = model.weights(n)
    top = int(np.flatnonzero(w > 0)[-1]) + 1
    s = len(rho)
    problem = _Problem(model.a, w[:top], n, rho)
    start = logit(rho / n)
    z = np.concatenate([np.tile(start, top), start, [0.0]])
    at = float(model.sums(np.tile(rho / n, (n, 1))).sum())
    if abs(at - target) > 1e-13:
        unit = np.zeros(len(z))
        unit[-1] = -1.0  # J·dz/dvalue = e_last

        def tangent(z: np.ndarray) -> np.ndarray:  # (the Jacobian holds no target)
            return problem.solver(z, problem.residual(z, target)[1])(unit)

        # a trial step may overflow: its residual is then not finite, and the step is cut
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            found = follow(z, at, target, problem.newton, tangent)
        if found is None:
            return None
        z = found
    y = z[:top * s].reshape(top, s)
    rest = np.tile(expit(z[top * s:top * s + s]), (n - top, 1))
    return np.vstack([expit(y), rest])


class _Problem:
    """The stationarity conditions of the free intents and their Newton steps:

        r_ij = y_ij − λ_j − μ g_ij (i ≤ K),  c_j = Σ_{i≤K} p_ij + (N − K) σ(λ_j) − ρ_j,
        e = Σ_j E_j − target,

    g = ∂E/∂p with E_j = Σ_i w_i p_ij P_ij, P_ij = Π_{l<i} q_lj, q = 1 − a p:
    g_mj = P_mj (w_m − a T_mj), T_mj = Σ_{i>m} w_i p_ij Π_{m<l<i} q_lj (a suffix
    recursion); the Hessian of E_j, H_mn = −a P_m (Π_{m<l<n} q_l) (w_n − a T_n) for m < n,
    symmetric, 0 on the diagonal."""

    def __init__(self, a: float, w: np.ndarray, n: int, rho: np.ndarray) -> None:
        self.a, self.w, self.n, self.rho = a, w, n, rho
        self.top, self.s = len(w), len(rho)

    def split(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        k, s = self.top, self.s
        return z[:k * s].reshape(k, s), z[k * s:k * s + s], float(z[-1])

    def terms(self, p: np.ndarray, q: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """E_j, g, P and G = w − a·T at p and q = 1 − a·p (K × S)."""
        before = np.vstack([np.ones((1, self.s)), np.cumprod(q[:-1], axis=0)])
        after = np.zeros_like(p)
        for m in range(self.top - 2, -1, -1):
            after[m] = self.w[m + 1] * p[m + 1] + q[m + 1] * after[m + 1]
        rest = self.w[:, None] - self.a * after
        return (self.w[:, None] * p * before).sum(axis=0), before * rest, before, rest

    def residual(self, z: np.ndarray, target: float
                 ) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        from scipy.special import expit

        y, lam, mu = self.split(z)
        p = expit(y)
        q = (1.0 - self.a) + self.a * expit(-y)  # 1 − a·p, exact where p is close to 1
        sums, g, before, rest = self.terms(p, q)
        r = np.concatenate([(y - lam[None, :] - mu * g).ravel(),
                            p.sum(axis=0) + (self.n - self.top) * expit(lam) - self.rho,
                            [sums.sum() - target]])
        return r, (p, q, g, before, rest)

    def newton(self, z: np.ndarray, target: float) -> np.ndarray | None:
        found = damped_newton(z, lambda z: self.residual(z, target), self.solver, 15, 1e-3)
        if found is None:
            return None
        z, r = found
        return z if np.max(np.abs(r[self.top * self.s:])) < 1e-8 else None

    def hessian(self, q: np.ndarray, before: np.ndarray, rest: np.ndarray,
                j: int) -> np.ndarray:
        """H of E_j (class documentation), from logs of q (c_n = Σ_{l<n} log q_l)."""
        k = self.top
        if self.a == 0.0 or k == 1:
            return np.zeros((k, k))
        logs = np.concatenate([[0.0], np.cumsum(np.log(q[:, j]))])
        upper = np.triu(np.ones((k, k), dtype=bool), 1)
        span = np.where(upper, logs[None, :k] - logs[1:, None], 0.0)  # Π_{m<l<n}, m < n
        h = np.where(upper, -self.a * before[:, j, None] * np.exp(np.minimum(span, 0.0))
                     * rest[None, :, j], 0.0)
        return h + h.T

    def solver(self, z: np.ndarray, state: tuple[np.ndarray, ...]):
        """``r ↦ d`` with J·d = −r: each intent's block A_j = I − μ H_j W_j (W = p(1 − p))
        factorised, then the S + 1 multipliers' steps (a Schur complement)."""
        from scipy.linalg import lu_factor, lu_solve
        from scipy.special import expit

        p, q, g, before, rest = state
        k, s = self.top, self.s
        _, lam, mu = self.split(z)
        spread = p * (1.0 - p)
        tail = (self.n - k) * expit(lam) * (1.0 - expit(lam))
        factors = [lu_factor(np.eye(k) - mu * self.hessian(q, before, rest, j)
                             * spread[None, :, j]) for j in range(s)]
        ones = np.column_stack([lu_solve(factors[j], np.ones(k)) for j in range(s)])
        grad = np.column_stack([lu_solve(factors[j], g[:, j]) for j in range(s)])
        gw = g * spread
        system = np.zeros((s + 1, s + 1))
        system[np.arange(s), np.arange(s)] = (spread * ones).sum(axis=0) + tail
        system[:s, s] = (spread * grad).sum(axis=0)
        system[s, :s] = (gw * ones).sum(axis=0)
        system[s, s] = (gw * grad).sum()
        inverse = np.linalg.pinv(system)

        def step(r: np.ndarray) -> np.ndarray:
            ry = r[:k * s].reshape(k, s)
            base = np.column_stack([lu_solve(factors[j], -ry[:, j]) for j in range(s)])
            rhs = np.concatenate([-r[k * s:k * s + s] - (spread * base).sum(axis=0),
                                  [-r[-1] - (gw * base).sum()]])
            d = inverse @ rhs
            dy = base + d[None, :s] * ones + d[s] * grad
            return np.concatenate([dy.ravel(), d])

        return step


def _matrix(values: ArrayLike, what: str, width: int | None = None) -> np.ndarray:
    x = as_floats(values, what)
    if x.ndim != 2 or not len(x) or not np.all((x == 0) | (x == 1)) or \
            (width is not None and x.shape[1] != width):
        raise InputError(f"{what}: a ranked list judged per intent is a non-empty matrix "
                         "of 0 and 1, one row a rank, one column an intent"
                         + ("" if width is None else f" ({width} intents)"))
    return x


def _bases(recall_base: Mapping[str, ArrayLike] | Sequence[ArrayLike] | None,
           lists: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The R_j of every list (default: its column sums), checked where the list holds a
    relevant document (the others are left out)."""
    keys = list(lists)
    if recall_base is None:
        given: list[ArrayLike] = [lists[key].sum(axis=0) for key in keys]
    elif isinstance(recall_base, Mapping):
        missing = [key for key in keys if key not in recall_base]
        if missing:
            raise InputError(f"recall_base lacks the list(s) {missing[:5]}")
        given = [recall_base[key] for key in keys]
    else:
        if len(recall_base) != len(keys):
            raise InputError(f"{len(recall_base)} recall bases for {len(keys)} lists")
        given = list(recall_base)
    out = {}
    for key, base in zip(keys, given, strict=True):
        bases = np.asarray(base, dtype=np.int64).ravel()
        rho = lists[key].sum(axis=0)
        if rho.any() and (len(bases) != len(rho) or np.any(bases < np.maximum(rho, 1))):
            raise InputError(f"list {key!r}: recall bases {bases.tolist()} for relevant "
                             f"documents {rho.astype(int).tolist()} per intent (one R_j ≥ 1 "
                             "an intent, at least the list's; recall_base= gives them)")
        out[key] = bases
    return out


def intent_informativeness(
        rankings: Sequence[ArrayLike] | Mapping[str, ArrayLike], *,
        measures: Sequence[str] = INTENT_INFORMATIVENESS_MEASURES,
        recall_base: Mapping[str, ArrayLike] | Sequence[ArrayLike] | None = None,
        ideal: Mapping[float, Mapping[str, ArrayLike]] | None = None,
        progress: ProgressArg = False) -> Informativeness:
    """How well each diversity measure's value lets one infer a list's per-intent
    relevance by maximum entropy (Ashkan & Clarke 2011; module documentation): per list
    and measure the value and the RMS error of the inferred per-intent precision–recall
    curves, and their mean per measure (lower: more informative).

    ``rankings``: 0/1 matrices (rank × intent) in rank order, a sequence or a mapping id →
    matrix; ``recall_base``: the R_j of each list (default: its column sums); ``ideal``:
    by α, each list's topic's greedy ideal ranking as a 0/1 matrix, for ``alpha-nDCG``,
    ``nERR-IA`` and ``nNRBP`` (:func:`judged_intent_lists` gives it). A list without a
    relevant document is left out, with a warning that counts such lists.

    Examples
    --------
    >>> lists = {"a": [[1, 0], [0, 0], [0, 1], [1, 0]], "b": [[0, 0], [1, 1], [0, 0], [0, 0]]}
    >>> result = intent_informativeness(lists, measures=["alpha-DCG@3", "P-IA@1"])
    >>> result.to_frame()[["list", "measure", "value"]].round(4).values.tolist()
    [['a', 'alpha-DCG@3', 0.5207], ['a', 'P-IA@1', 0.5], ['b', 'alpha-DCG@3', 0.438], \
['b', 'P-IA@1', 0.0]]
    """
    items = rankings.items() if isinstance(rankings, Mapping) else enumerate(rankings)
    lists = {str(key): _matrix(values, f"rankings[{key!r}]") for key, values in items}
    if not lists:
        raise InputError("no ranked list given")
    models = [cascade(name) for name in measures]
    bases = _bases(recall_base, lists)
    rows, empty = [], []
    report = progress_reporter(progress, len(lists), "informativeness")
    for done, (key, x) in enumerate(lists.items(), 1):
        rho = x.sum(axis=0).astype(np.int64)
        if not rho.any():
            empty.append(key)
        else:
            rows += _list_rows(key, x, bases[key], rho, models, ideal)
        report(done)
    return informativeness_of(rows, empty, len(lists))


def _list_rows(key: str, x: np.ndarray, bases: np.ndarray, rho: np.ndarray,
               models: Sequence[Cascade],
               ideal: Mapping[float, Mapping[str, ArrayLike]] | None) -> list[dict]:
    """The value and RMS error of every measure on one list (module documentation)."""
    actual = [interpolated_curve(np.cumsum(x[:, j]), int(r)) for j, r in enumerate(bases)]
    rows = []
    for model in models:
        best = None
        if model.normalised:
            given = (ideal or {}).get(model.a, {})
            if key not in given:
                raise InputError(f"{model.label} divides by the ideal ranking: ideal[{model.a}] "
                                 f"lacks the list {key!r}")
            best = _matrix(given[key], f"ideal[{model.a}][{key!r}]", x.shape[1])
        raw = float(model.sums(x).sum())
        p = _maxent(model, raw, len(x), rho)
        inferred = [interpolated_curve(np.cumsum(p[:, j]), int(r)) for j, r in enumerate(bases)]
        error = np.sqrt(np.mean((np.array(inferred) - np.array(actual)) ** 2))
        rows.append({"list": key, "measure": model.label,
                     "value": raw / model.scale(x.shape[1], best), "rms_error": float(error)})
    return rows


@JUDGED_INTENT_LISTS
def judged_intent_lists(qrels: object, runs: object, *,
                        depth: int | None = INFORMATIVENESS_DEPTH.default,  # type: ignore[assignment]
                        measures: Sequence[str] = ()
                        ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray],
                                   dict[float, dict[str, np.ndarray]]]:
    """The per-intent 0/1 matrices and recall bases of every (run, topic) of ``runs``
    judged by the diversity ``qrels`` (ranked as ndeval ranks them, by the rank column,
    cut at ``depth``; columns: the topic's intents with a relevant document), keyed
    ``"run topic"``, and, for the α of every normalised measure among ``measures``, each
    list's topic's greedy ideal ranking (ndeval's): what :func:`intent_informativeness`
    takes (``intent_informativeness(lists, recall_base=bases, ideal=ideal)``). A ranking
    of a topic the qrels do not judge, or without an intent, is left out. ``depth`` is
    checked on entry (:data:`irscale.meta.params.JUDGED_INTENT_LISTS`)."""
    from ..evaluation.intent_inputs import read_and_judge, read_qrels
    from ..measures.diversity.rankings import DiversityIndex, ideal_rankings

    index = DiversityIndex.of(read_qrels(qrels, False))
    judged = read_and_judge(index, runs, False, depth)
    batch = judged.rankings
    lists, bases, topic_of = {}, {}, {}
    for i in np.flatnonzero(batch.ranking_topic >= 0):
        t = int(batch.ranking_topic[i])
        counted = np.flatnonzero(index.nrel_sub[t] > 0)
        if len(counted) and batch.lengths[i] > 0:
            key = f"{judged.runs[judged.run_of[i]].name} {judged.topic_ids[i]}"
            lists[key] = _entries(batch, int(i), int(batch.lengths[i]), counted)
            bases[key], topic_of[key] = index.nrel_sub[t, counted], t
    alphas = {model.a for model in map(cascade, measures) if model.normalised}
    ideal = {}
    for alpha in sorted(alphas):
        best = ideal_rankings(index, alpha)
        per_topic = {t: _entries(best, t, int(best.lengths[t]),
                                 np.flatnonzero(index.nrel_sub[t] > 0))
                     for t in set(topic_of.values())}
        ideal[alpha] = {key: per_topic[t] for key, t in topic_of.items()}
    return lists, bases, ideal


def _entries(batch: DiversityRankings, i: int, n: int, counted: np.ndarray) -> np.ndarray:
    """The 0/1 matrix (n ranks × the counted intents) of ranking ``i`` of ``batch``."""
    lo, hi = (int(at) for at in np.searchsorted(batch.entry_ranking, [i, i + 1]))
    rank = batch.entry_rank[lo:hi]
    column = np.searchsorted(counted, batch.entry_subtopic[lo:hi])
    x = np.zeros((n, len(counted)))
    keep = rank <= n
    x[rank[keep] - 1, column[keep]] = 1.0
    return x
