"""Vote-based crowd-label aggregators: weighted votes, Zero-Based Skill, KOS and M-MSR.

All work on the integer codes of :class:`irscale.io.crowd.CrowdLabels` (``item``,
``worker``, ``label`` per label; ``K`` classes in increasing order), vectorised over all
labels (or all worker pairs) at once; only the iterations themselves loop.

``zbs``: Zero-Based Skill (crowd-kit's ``ZeroBasedSkill``, Toloka; no paper)
    Every worker starts with skill ``q_w = 1/K + 1e-5``. Iteration ``t = 1..n_iter``: the
    learning rate ``η`` (``lr``, 1) is multiplied by ``lr_decay`` (0.5) whenever ``t`` is a
    multiple of ``lr_steps`` (20); the labels are the weighted majority vote
    ``argmax_k Σ_{w labels i as k} q_w`` (ties to the lower label); then
    ``q_w ← q_w + η (acc_w − q_w)``, ``acc_w`` the share of ``w``'s labels equal to the
    vote's. No stopping rule: all ``n_iter`` iterations run. The result is the weighted vote
    under the last skills; probabilities ``score[i, k] / Σ_k' score[i, k']``.
``kos``: Karger, Oh & Shah (2011), "Iterative learning for reliable crowdsourcing
    systems", NIPS 24 (Algorithm 1), binary labels
    ``A_ij = +1`` when worker ``j`` gives item ``i`` the higher label, ``−1`` the lower.
    Worker messages start as ``y_{j→i} ~ N(1, 1)``, one per label; an iteration sends
    ``x_{i→j} = Σ_{j' ∈ ∂i \\ j} A_ij' y_{j'→i}`` then ``y_{j→i} = Σ_{i' ∈ ∂j \\ i}
    A_i'j x_{i'→j}``; after ``n_iter`` (100) iterations the item's score is
    ``x_i = Σ_{j ∈ ∂i} A_ij y_{j→i}`` and its label the higher one when ``x_i > 0``, the
    lower one otherwise. The messages grow geometrically: as crowd-kit, the iterations stop
    (keeping the last messages) once a sum over an item or a worker exceeds 10^300.
``mmsr``: M-MSR, Ma & Olshevsky (2020), "Adversarial crowdsourcing through robust
    rank-one matrix completion", NeurIPS 33
    Worker covariance ``C_ab = K/(K−1) · agree_ab/common_ab − 1/(K−1)`` (``common_ab``:
    items both label, ``agree_ab``: those they label alike; ``0 − 1/(K−1)`` where they share
    none and on the diagonal, as crowd-kit); under the one-coin model ``E[C] = s sᵀ`` off
    the diagonal. ``|C| ≈ u vᵀ`` is completed on the observed pairs by alternating
    extreme-value-filtered means: ``v_b ← mean MSR_F({|C_ab| / u_a : a shares with b},
    v_b)`` then the same for ``u``, where ``MSR_F(values, own)`` drops the ``F`` largest
    values above ``own`` (all of them when fewer) and the ``F`` smallest below it;
    ``F = ⌊d_min / 2⌋ − 1`` (``d_min``: fewest co-workers of a worker), at least 0; a lone
    remaining 0 is read as ``1/√n_items`` and an empty set keeps ``own`` (a NaN, 0/0 after
    a factor reached 0, is filtered as crowd-kit's sorted filtering does; factors that end
    non-finite are an error). ``u`` and ``v``
    start uniform in [0, 1); the iterations (``n_iter`` 10,000) stop when
    ``‖u vᵀ − u' v'ᵀ‖_F < tol`` (1e-10). ``|s| = u / √(‖u‖/‖v‖)``; the signs are those of
    the eigenvector of the smallest eigenvalue of the random walk on the signed worker graph
    (negative pairs adjacent, positive pairs joined through a new middle node), oriented so
    that most signs are positive; ``s`` is clipped to ``[−1/(K−1) + 1/√n, 1 − 1/√n]``,
    turned into an accuracy ``p = s (K−1)/K + 1/K`` and a vote weight
    ``q_w = log((K−1) p / (1 − p))``. The label is the weighted vote ``argmax_k Σ q_w``
    (ties to the lower label); the scores are those sums.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.progress import no_report
from ..errors import InputError
from ..io.crowd import CrowdLabels

#: KOS stops once a message sum exceeds this (crowd-kit's ``_MAX``): beyond, the next
#: iteration would overflow to infinity.
KOS_LIMIT = 1e300


def shares(scores: np.ndarray) -> np.ndarray:
    """Every row divided by its sum."""
    return scores / scores.sum(axis=1, keepdims=True)


def accuracy(labels: CrowdLabels, chosen: np.ndarray) -> np.ndarray:
    """Share of every worker's labels equal to the chosen class of their item."""
    hits = np.bincount(labels.worker, weights=labels.label == chosen[labels.item],
                       minlength=len(labels.workers))
    return hits / np.bincount(labels.worker, minlength=len(labels.workers))


def weighted_votes(labels: CrowdLabels, weights: np.ndarray) -> np.ndarray:
    """``score[i, k] = Σ_{w labels i as k} weights[w]`` (items × classes)."""
    k = len(labels.classes)
    return np.bincount(labels.item * k + labels.label, weights=weights[labels.worker],
                       minlength=len(labels.items) * k).reshape(-1, k)


def vote_shares(labels: CrowdLabels, weights: np.ndarray) -> np.ndarray:
    """The weighted votes as shares of the item's total; an item whose voters all weigh 0
    keeps its majority-vote shares."""
    with np.errstate(invalid="ignore"):
        weighted = shares(weighted_votes(labels, weights))
    return np.where(np.isnan(weighted), shares(labels.counts), weighted)


def zero_based_skill(labels: CrowdLabels, n_iter: int, lr: float, lr_steps: int,
                     lr_decay: float, report: Callable[[int], None] = no_report
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities (items × K) and worker skills of ZBS (module doc);
    ``report(iterations)`` as they are run."""
    skills = np.full(len(labels.workers), 1.0 / len(labels.classes) + 1e-5)
    rate = lr
    for step in range(1, n_iter + 1):
        report(step - 1)
        if step % lr_steps == 0:
            rate *= lr_decay
        chosen = vote_shares(labels, skills).argmax(axis=1)
        skills = skills + rate * (accuracy(labels, chosen) - skills)
    return vote_shares(labels, skills), skills


def kos(labels: CrowdLabels, n_iter: int, start: np.ndarray,
        report: Callable[[int], None] = no_report) -> tuple[np.ndarray, int]:
    """Item scores ``x_i`` (positive: the higher label) and iterations run of KOS (module
    doc); ``start``: the first worker messages ``y_{j→i}``, one per label;
    ``report(iterations)`` as they are run."""
    a = np.where(labels.label == 1, 1.0, -1.0)
    n_items, n_workers = len(labels.items), len(labels.workers)
    y = start.astype(np.float64)
    iterations = 0
    while iterations < n_iter:
        report(iterations)
        sent = a * y
        by_item = np.bincount(labels.item, weights=sent, minlength=n_items)
        if (np.abs(by_item) > KOS_LIMIT).any():
            break
        x = by_item[labels.item] - sent
        sent = a * x
        by_worker = np.bincount(labels.worker, weights=sent, minlength=n_workers)
        if (np.abs(by_worker) > KOS_LIMIT).any():
            break
        y = by_worker[labels.worker] - sent
        iterations += 1
    return np.bincount(labels.item, weights=a * y, minlength=n_items), iterations


def _msr_means(values: np.ndarray, shared: np.ndarray, own: np.ndarray, trim: int,
               n_items: int) -> np.ndarray:
    """Column ``b``: the mean of ``values[a, b]`` over the ``a`` with ``shared[a, b]``,
    filtered as MSR (module doc, ``mmsr``) around ``own[b]``.

    A value may be NaN (0/0 where a factor reached 0): as crowd-kit's sorted filtering, it
    sorts last, compares false, goes with the values below ``own`` when fewer than ``F``
    lie below (all dropped), is among the ``F`` largest otherwise, and makes the mean NaN
    when it stays."""
    n = values.shape[0]
    missing = shared & np.isnan(values)
    nans = missing.sum(axis=0)
    finite = shared.sum(axis=0) - nans             # numbers, infinities included
    ordered = np.sort(np.where(shared & ~missing, values, np.nan), axis=0)
    below = (shared & (values < own)).sum(axis=0)
    above = (shared & (values > own)).sum(axis=0)
    low = np.minimum(below, trim)
    # the F smallest dropped (numbers) keep the NaNs; dropping all below drops them too
    nan_kept = np.where(below < trim, 0, np.where(above < trim, 0, np.maximum(nans - trim, 0)))
    high = np.where((below >= trim) & (above >= trim),
                    finite - np.maximum(trim - nans, 0), finite - np.minimum(above, trim))
    rank = np.arange(n)[:, None]
    kept = (rank >= low) & (rank < high)
    count = high - low + nan_kept
    total = np.where(kept, ordered, 0.0).sum(axis=0)
    total = np.where((count == 1) & (nan_kept == 0) & (total == 0), 1 / np.sqrt(n_items),
                     total)
    total = np.where(nan_kept > 0, np.nan, total)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, own)


def _covariance(labels: CrowdLabels) -> tuple[np.ndarray, np.ndarray]:
    """The workers' covariance ``C`` and the pairs that share an item (module doc)."""
    from scipy import sparse

    k, n_w = len(labels.classes), len(labels.workers)
    n_items = len(labels.items)
    ones = np.ones(len(labels.item))
    answered = sparse.csr_matrix((ones, (labels.worker, labels.item)), shape=(n_w, n_items))
    alike = sparse.csr_matrix((ones, (labels.worker, labels.item * k + labels.label)),
                              shape=(n_w, n_items * k))
    common = (answered @ answered.T).toarray()
    np.fill_diagonal(common, 0)
    agree = (alike @ alike.T).toarray()
    shared = common != 0
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(shared, agree / common, 0.0)
    return ratio * k / (k - 1) - 1 / (k - 1), shared


#: Above this many nodes, the sign step's eigenvector is found by ARPACK on the sparse
#: graph (Lanczos from a start of ones) instead of LAPACK's dense solver: W workers and P
#: positively correlated pairs make W + P nodes, cubic in time for the dense solver.
DENSE_SIGN_GRAPH = 400


def _lowest_eigenvector(matrix: np.ndarray) -> np.ndarray:
    """The eigenvector of the smallest eigenvalue of a symmetric matrix."""
    if len(matrix) <= DENSE_SIGN_GRAPH:
        from scipy.linalg import eigh

        return eigh(matrix, subset_by_index=[0, 0])[1][:, 0]
    from scipy import sparse
    from scipy.sparse.linalg import eigsh

    return eigsh(sparse.csr_matrix(matrix), k=1, which="SA", v0=np.ones(len(matrix)),
                 tol=0.0)[1][:, 0]


def _signs(c: np.ndarray) -> np.ndarray:
    """Signs of the workers' ``s`` from the signed graph of ``C`` (module doc, ``mmsr``):
    0 for a worker whose row of ``C`` sums to 0 or whose eigenvector component is 0 (below
    1e-10 of the largest: rounding, to which crowd-kit leaves the sign)."""
    valid = np.flatnonzero(c.sum(axis=1) != 0)
    s = np.sign(c[np.ix_(valid, valid)])
    k = len(valid)
    first, second = np.nonzero(np.triu(s) == 1)
    m = len(first)
    joins = np.zeros((m, k))
    joins[np.arange(m), first] = 1
    joins[np.arange(m), second] += 1
    adjacency = np.block([[np.where(s == 1, 0.0, np.abs(s)), joins.T],
                          [joins, np.zeros((m, m))]])
    scale = 1 / np.sqrt(adjacency.sum(axis=1))
    # W = D⁻¹A is similar to D^-½ A D^-½ (symmetric): same eigenvalues, eigenvectors
    # D^-½ φ with the signs of φ
    vector = _lowest_eigenvector(scale[:, None] * adjacency * scale[None, :])
    # a component at rounding level is 0 (the graph does not set that worker's sign)
    sign = np.sign(np.where(np.abs(vector[:k]) > 1e-10 * np.abs(vector).max(), vector[:k],
                            0.0))
    signs = np.zeros(len(c))
    signs[valid] = np.sign(sign.sum()) * sign
    return signs


def mmsr(labels: CrowdLabels, n_iter: int, tol: float, u: np.ndarray, v: np.ndarray,
         report: Callable[[int], None] = no_report
         ) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Item × class scores, worker weights ``q_w``, iterations, converged of M-MSR (module
    doc); ``u``, ``v``: the starting factors (one value per worker). Factors that end
    non-finite (a factor reached 0, then 0/0 in the next means, and the NaN was not
    filtered out) are an :class:`~irscale.errors.InputError`. ``report(iterations)`` as
    they are run."""
    k, n_items = len(labels.classes), len(labels.items)
    c, shared = _covariance(labels)
    x = np.abs(c)
    trim = max(int(shared.sum(axis=0).min()) // 2 - 1, 0)
    u, v = u.astype(np.float64), v.astype(np.float64)
    iterations, converged = 0, False
    while iterations < n_iter:
        report(iterations)
        iterations += 1
        before = np.outer(u, v)
        with np.errstate(invalid="ignore", divide="ignore"):
            v = _msr_means(x / u[:, None], shared, v, trim, n_items)
            u = _msr_means(x / v[:, None], shared, u, trim, n_items)
        with np.errstate(invalid="ignore"):
            change = np.linalg.norm(np.outer(u, v) - before)
        if change < tol:
            converged = True
            break
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        scale = np.sqrt(np.linalg.norm(u) / np.linalg.norm(v))
    # factors that end non-finite, or so far apart that their norms' ratio over- or
    # underflows (one factor went to 0 while the other grew without bound)
    if not (np.isfinite(u).all() and np.isfinite(v).all() and np.isfinite(scale)
            and scale > 0):
        raise InputError("mmsr: the rank-one completion of the workers' agreement broke "
                         "down (a worker's factor reached 0, then 0/0: too few labels "
                         "shared, or workers who agree at chance rate only)",
                         source=labels.source)
    s = _signs(c) * u / scale
    s = np.maximum(np.minimum(s, 1 - 1 / np.sqrt(n_items)), -1 / (k - 1) + 1 / np.sqrt(n_items))
    p = s * (k - 1) / k + 1 / k
    weights = np.log(p * (k - 1) / (1 - p))
    return weighted_votes(labels, weights), weights, iterations, converged
