"""REML and ML fits of linear mixed models with variance-component random effects.

Model (Laird & Ware 1982; Searle, Casella & McCulloch 1992, ch. 6)
    y = Xβ + Σ_k Z_k u_k + ε,  u_k ~ N(0, σ²_k I),  ε ~ N(0, σ² I),
    so Var(y) = σ² H with H = I + Z Λ² Z', Z = [Z_1 … Z_K] the indicator columns of the
    grouping factors (crossed or nested alike) and Λ = diag(θ_k per level), θ_k = σ_k / σ.

Profiled criteria (Bates et al. 2015, lme4, §3; the profiling of β and σ² is theirs)
    With M = I + Λ Z'Z Λ (q × q, q the number of random levels; where the random terms
    are all nested in one factor, Z'Z is block diagonal: only its blocks are kept, and M
    is factorised block by block, the blocks of one size together), the
    Woodbury identity gives
    H⁻¹ = I − ZΛ M⁻¹ ΛZ' and log|H| = log|M|, so every quantity needs only the
    cross-products X'X, X'y, y'y, Z'Z, Z'X and Z'y: β̂ = (X'H⁻¹X)⁻¹ X'H⁻¹y,
    r'H⁻¹r = y'H⁻¹y − β̂'X'H⁻¹y and, with n observations and p fixed effects,

        ML:    −2ℓ   = n log(2π σ̂²) + log|H| + n,                 σ̂² = r'H⁻¹r / n,
        REML:  −2ℓ_R = (n−p) log(2π σ̂²) + log|H| + log|X'H⁻¹X| + (n−p),  σ̂² = r'H⁻¹r/(n−p),

    (Harville 1977; this REML constant is statsmodels' ``MixedLM`` one, without lme4's
    log|X'X|). θ ≥ 0 is found by L-BFGS-B on −2ℓ(θ); Cov(β̂) = σ̂² (X'H⁻¹X)⁻¹.

Balanced topic × system closed form (one score per cell, random topic only)
    With T topics, S systems and the two-way ANOVA sums of squares SS_T (topics, T − 1 df)
    and SS_E (residual, (T − 1)(S − 1) df), H has eigenvalue λ/σ² = 1 + Sθ² on the T
    directions of topic means and 1 on the others. The fixed system means take S − 1 of
    the latter and the grand mean one of the former, so the likelihood factorises into
    SS_T ~ λ χ²_{T−1} and SS_E ~ σ² χ²_{(T−1)(S−1)} pieces, λ = σ² + S σ²_t, plus (ML
    only) one more λ direction with a zero residual. Maximising each piece:

        REML:  σ̂² = MS_E = SS_E/((T−1)(S−1)),  λ̂ = MS_T = SS_T/(T−1),
        ML:    σ̂² = SS_E/(T(S−1)),             λ̂ = SS_T/T,

    σ̂²_t = (λ̂ − σ̂²)/S: the REML components are the ANOVA (method-of-moments) estimates
    (Searle et al. 1992, §4.7). When λ̂ < σ̂² the maximum lies on the boundary σ²_t = 0
    and σ̂² pools both pieces: (SS_T + SS_E)/((T−1)S) (REML) or /(TS) (ML) — the ANOVA
    estimate "truncated at 0" with the residual re-estimated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.linalg as la
from scipy import optimize, sparse


@dataclass(frozen=True)
class Grouping:
    """One random term: the level of each observation (0 … levels − 1) and its name."""

    name: str
    codes: np.ndarray
    levels: int


#: Blocks of Z'Z factorised together by :func:`profile` (the temporaries of a group are
#: a few times its blocks: bounded whatever the number of collections).
BLOCK_GROUP = 1024


@dataclass(frozen=True)
class Blocks:
    """Diagonal blocks of Z'Z of one size n: ``levels[i]`` the n random levels of block
    ``i`` (indices into the q columns of Z), ``ztz[i]`` its n × n block."""

    levels: np.ndarray
    ztz: np.ndarray


@dataclass(frozen=True)
class Moments:
    """The cross-products every criterion is computed from (module docstring).

    ``ztz``: Z'Z, q × q dense where it is one block, sparse where it is block diagonal
    (only :attr:`blocks` are then used: a dense q × q Z'Z of 20,000 collections of 6
    topics and 3 systems was 300 GiB)."""

    xtx: np.ndarray
    xty: np.ndarray
    yty: float
    ztz: np.ndarray | sparse.csr_matrix
    ztx: np.ndarray
    zty: np.ndarray
    sizes: tuple[int, ...]
    n: int
    p: int
    #: The diagonal blocks of Z'Z by size (:class:`Blocks`): random levels that no
    #: observation shares with a level of another block (random terms nested in one
    #: factor, e.g. all within a collection), or all the levels as one block.
    blocks: tuple[Blocks, ...]

    @classmethod
    def of(cls, y: np.ndarray, x: sparse.spmatrix, groups: Sequence[Grouping],
           blocks: Sequence[np.ndarray] | None = None) -> Moments:
        """The cross-products of scores ``y``, a (sparse) fixed-effects design ``x`` and
        the indicator columns of ``groups`` (built sparse), with the ``blocks`` of levels
        (indices into the q columns of Z that partition them) if Z'Z is block diagonal
        (then kept sparse, its blocks dense: :func:`block_diagonal`; otherwise Z'Z is
        q × q dense)."""
        offsets = np.cumsum([0, *(g.levels for g in groups)])
        rows = np.tile(np.arange(len(y)), len(groups))
        columns = np.concatenate([start + g.codes for g, start in
                                  zip(groups, offsets[:-1], strict=True)])
        z = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)),
                              shape=(len(y), int(offsets[-1])))
        x = sparse.csr_matrix(x)
        ztz = sparse.csr_matrix(z.T @ z)
        if blocks is None:
            dense = ztz.toarray()
            kept: np.ndarray | sparse.csr_matrix = dense
            parts: tuple[Blocks, ...] = (Blocks(np.arange(len(dense))[None, :], dense[None, :, :]),)
        else:
            kept, parts = ztz, block_diagonal(ztz, blocks)
        return cls(np.asarray((x.T @ x).todense()), np.asarray(x.T @ y), float(y @ y),
                   kept, np.asarray((z.T @ x).todense()), np.asarray(z.T @ y),
                   tuple(g.levels for g in groups), len(y), x.shape[1], parts)


def block_diagonal(ztz: sparse.csr_matrix, blocks: Sequence[np.ndarray]
                   ) -> tuple[Blocks, ...]:
    """The diagonal blocks of the sparse ``ztz`` whose levels ``blocks`` lists (they
    partition its columns), grouped by size, each group's blocks as one array (its entries
    scattered at once: no loop over the blocks)."""
    q = ztz.shape[0]
    owner = np.full(q, -1, dtype=np.int64)
    place = np.zeros(q, dtype=np.int64)
    lengths = np.array([len(levels) for levels in blocks], dtype=np.int64)
    flat = np.concatenate(blocks).astype(np.int64)
    owner[flat] = np.repeat(np.arange(len(blocks)), lengths)
    place[flat] = np.concatenate([np.arange(n) for n in lengths]) if len(flat) else flat
    if (owner < 0).any():
        raise ValueError("the blocks leave random levels out")
    coo = ztz.tocoo()
    inside = owner[coo.row] == owner[coo.col]
    row, col, value = coo.row[inside], coo.col[inside], coo.data[inside]
    block = owner[row]
    found = []
    for n in np.unique(lengths).tolist():
        members = np.flatnonzero(lengths == n)
        index = np.full(len(blocks), -1, dtype=np.int64)
        index[members] = np.arange(len(members))
        values = np.zeros((len(members), n, n))
        mine = lengths[block] == n
        values[index[block[mine]], place[row[mine]], place[col[mine]]] = value[mine]
        levels = np.stack([np.asarray(blocks[i], dtype=np.int64) for i in members.tolist()])
        found.append(Blocks(levels, values))
    return tuple(found)


@dataclass(frozen=True)
class Profile:
    """The criterion at θ and the estimates it profiles."""

    neg2ll: float
    beta: np.ndarray
    sigma2: float
    xhx_factor: tuple[np.ndarray, bool]  # Cholesky factor of X'H⁻¹X

    @property
    def cov(self) -> np.ndarray:
        """Cov(β̂) = σ̂² (X'H⁻¹X)⁻¹."""
        p = len(self.beta)
        return self.sigma2 * la.cho_solve(self.xhx_factor, np.eye(p), check_finite=False)


def _woodbury(lam: np.ndarray, ztz: np.ndarray, a: np.ndarray, b: np.ndarray
              ) -> tuple[float, np.ndarray, np.ndarray, float]:
    """log|M| and the parts ΛZ'X, ΛZ'y take off X'X, X'y and y'y in X'H⁻¹X, X'H⁻¹y and
    y'H⁻¹y (module docstring), summed over blocks: M = I + ΛZ'ZΛ of each block's levels
    ``lam`` (blocks × n), ``ztz`` its Z'Z (blocks × n × n), ``a`` = ΛZ'X (blocks × n ×
    p) and ``b`` = ΛZ'y (blocks × n). With the Cholesky factor M = LL' and W = L⁻¹[a b],
    a'M⁻¹a = W_a'W_a, a'M⁻¹b = W_a'W_b, b'M⁻¹b = W_b'W_b; a block that is not positive
    definite is a :class:`scipy.linalg.LinAlgError`."""
    n = lam.shape[1]
    inner = lam[:, :, None] * ztz * lam[:, None, :]
    inner[:, np.arange(n), np.arange(n)] += 1.0
    try:
        chol = np.linalg.cholesky(inner)
    except np.linalg.LinAlgError as error:
        raise la.LinAlgError(str(error)) from None
    logdet = 2.0 * float(np.sum(np.log(np.diagonal(chol, axis1=1, axis2=2))))
    solved = np.linalg.solve(chol, np.concatenate([a, b[:, :, None]], axis=2))
    wa, wb = solved[:, :, :-1], solved[:, :, -1]
    return (logdet, np.einsum("knp,knr->pr", wa, wa), np.einsum("knp,kn->p", wa, wb),
            float(np.sum(wb * wb)))


def profile(theta: np.ndarray, m: Moments, reml: bool) -> Profile:
    """−2 log-likelihood (ML) or −2 restricted log-likelihood (REML) at relative standard
    deviations ``theta``, with β̂, Cov(β̂) and σ̂² (module docstring)."""
    lam = np.repeat(np.asarray(theta, dtype=np.float64), m.sizes)
    a = lam[:, None] * m.ztx
    b = lam * m.zty
    parts = [_woodbury(lam[levels], group.ztz[start:start + BLOCK_GROUP], a[levels],
                       b[levels])
             for group in m.blocks for start in range(0, len(group.levels), BLOCK_GROUP)
             for levels in (group.levels[start:start + BLOCK_GROUP],)]
    logdet_h = sum(part[0] for part in parts)
    xhx = m.xtx - sum(part[1] for part in parts)
    xhy = m.xty - sum(part[2] for part in parts)
    yhy = m.yty - sum(part[3] for part in parts)
    xchol = la.cho_factor(xhx, lower=True, check_finite=False)
    beta = la.cho_solve(xchol, xhy, check_finite=False)
    rss = max(yhy - float(beta @ xhy), 0.0)
    dof = m.n - m.p if reml else m.n
    sigma2 = rss / dof
    if sigma2 <= 0.0:
        raise la.LinAlgError("no residual variance")
    neg2ll = dof * np.log(2 * np.pi * sigma2) + logdet_h + dof
    if reml:
        neg2ll += 2.0 * float(np.sum(np.log(np.diag(xchol[0]))))
    return Profile(float(neg2ll), beta, sigma2, xchol)


#: The largest slope of −2ℓ that a converged optimum may keep: per unit of log γ at a
#: positive ratio, and into the interior (per unit of γ) at a ratio on its bound 0.
STATIONARY_SLOPE = 1e-3


def optimise(m: Moments, reml: bool, start: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
    """θ̂ ≥ 0 minimising the criterion, and whether it is a stationary point
    (:func:`stationary`).

    L-BFGS-B runs on the variance ratios γ = θ² ≥ 0 (the criterion is even in θ, so its
    gradient in θ vanishes at the bound θ = 0 and would stop a search there), from γ = 1
    and from ``start``; the better optimum is kept. Its positive ratios are then polished
    on log γ: where a ratio is large the criterion is flat in γ and the search stopped
    short of the optimum (a topic variance 180 times the residual one: −2ℓ 3·10⁻⁷ above
    statsmodels' optimum). Convergence is judged at the optimum found, not by L-BFGS-B's
    status: its line search ends "ABNORMAL" where the criterion cannot fall by rounding,
    at optima as stationary as those it calls converged."""
    k = len(m.sizes)
    starts = [np.ones(k)] + ([np.asarray(start, dtype=np.float64) ** 2]
                             if start is not None else [])
    options = {"ftol": 1e-15, "gtol": 1e-10, "maxiter": 1000}
    best = None
    for x0 in starts:
        found = optimize.minimize(lambda g: profile(np.sqrt(g), m, reml).neg2ll, x0,
                                  method="L-BFGS-B", bounds=[(0.0, None)] * k,
                                  options=options)
        if best is None or found.fun < best.fun:
            best = found
    assert best is not None
    gamma = np.asarray(best.x, dtype=np.float64)
    positive = gamma > 0

    def on_logs(logs: np.ndarray) -> float:
        return profile(np.sqrt(np.where(positive, np.exp(_spread(logs, positive)), 0.0)), m,
                       reml).neg2ll

    if positive.any():
        polished = optimize.minimize(on_logs, np.log(gamma[positive]), method="L-BFGS-B",
                                     options=options)
        if polished.fun < best.fun:
            gamma = np.where(positive, np.exp(_spread(polished.x, positive)), 0.0)
    return np.sqrt(gamma), stationary(m, reml, gamma)


def stationary(m: Moments, reml: bool, gamma: np.ndarray) -> bool:
    """Whether the variance ratios ``gamma`` (γ = θ²) satisfy the optimum's first-order
    (Karush–Kuhn–Tucker) conditions for −2ℓ(γ), γ ≥ 0, within :data:`STATIONARY_SLOPE`:
    at a positive ratio the slope in log γ_i (a central difference, step 10⁻⁴) is about 0;
    at a ratio on its bound 0, −2ℓ does not fall into the interior (a forward difference
    in γ_i, step 10⁻⁴)."""
    def criterion(g: np.ndarray) -> float:
        return profile(np.sqrt(g), m, reml).neg2ll

    at = criterion(gamma)
    for i, ratio in enumerate(gamma):
        step = np.zeros(len(gamma))
        if ratio > 0:
            step[i] = ratio * np.expm1(1e-4)
            down = gamma.copy()
            down[i] = ratio * np.exp(-1e-4)
            slope = (criterion(gamma + step) - criterion(down)) / 2e-4
            if abs(slope) > STATIONARY_SLOPE:
                return False
        else:
            step[i] = 1e-4
            if (criterion(gamma + step) - at) / 1e-4 < -STATIONARY_SLOPE:
                return False
    return True


def _spread(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``values`` at the places ``where`` is true, 0 elsewhere."""
    out = np.zeros(len(where))
    out[where] = values
    return out


def balanced_theta(values: np.ndarray, reml: bool) -> np.ndarray:
    """θ̂ = σ̂_t/σ̂ of the complete topics × systems table ``values`` in closed form (module
    docstring): the ANOVA variance components, truncated at 0."""
    t, s = values.shape
    topic_means = values.mean(axis=1)
    ss_topic = s * float(np.sum((topic_means - values.mean()) ** 2))
    residual = values - topic_means[:, None] - values.mean(axis=0)[None, :] + values.mean()
    ss_error = float(np.sum(residual**2))
    lam = ss_topic / (t - 1 if reml else t)
    sigma2 = ss_error / ((t - 1 if reml else t) * (s - 1))
    if sigma2 <= 0.0:  # an exact fit: θ = σ_t/σ is unbounded
        raise la.LinAlgError("no residual variance")
    return np.array([np.sqrt(max(lam - sigma2, 0.0) / s / sigma2)])
