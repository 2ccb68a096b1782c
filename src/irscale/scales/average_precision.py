"""The image of AP in exact integer arithmetic, by meet in the middle over the prefix count.

With ``C(i)`` the relevant documents among the first i (binary projection at level ℓ)::

    AP · RB = S(r̂) = Σ_{i relevant} C(i) / i          (AP@N with trec_eval's normalisation)

``S`` does not depend on the recall base: on ``REL^N`` AP is ``S/RB`` (or ``S/min(N, RB)``)
for every topic, so AP's ranked version is the same for every topic (Ferrante et al. 2021, §5.2.2
uses it as the surrogate scale) and its image is S's image divided by RB. ``S · L`` with
``L = lcm(1..N)`` is an integer, ``≤ N·L`` (fits 64 bits up to N = 40), so ties are decided
exactly.

Cut a run after ``h = ⌊N/2⌋`` ranks; with ``j`` relevant documents in the prefix and, in the
suffix, ``U = Σ L/i`` and ``V = Σ k·L/i`` over its relevant ranks i (k counting from 1 in
the suffix)::

    S · L = A + j·U + V,     A = the prefix's own S·L

so for each ``j`` the runs' values are the pairs ``A_j ⊕ B_j`` with ``A_j`` the prefix
values with j relevant and ``B_j = {j·U + V}``: ``2^h`` and ``(h + 1)·2^(N−h)`` integers
instead of ``2^N`` runs (N = 30: 32,768 and 524,288). The image (about 0.35·2^N distinct
values at N = 30) is streamed in sorted buckets and de-duplicated exactly
(:mod:`irscale.scales.pairs`, ``int`` mode). Graded spaces weigh each binary run by the
number of graded runs projecting onto it (``W(j + k)``, within the feasible bounds).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from .closed_forms import project
from .enumeration import runs_from_index
from .pairs import PairGroup, PairImage, PairTable
from .space import Space, binary_weights

#: Largest N whose S·lcm(1..N) keys fit in 64-bit integers.
MAX_N = 40


def ap_keys(binary_runs: np.ndarray, start: int, L: int) -> tuple[np.ndarray, np.ndarray]:
    """Per partial binary run at ranks ``start+1..``: ``(U, V)`` with ``U = Σ L/i`` and
    ``V = Σ k·L/i`` over relevant ranks i (k = 1, 2, ... within the part)."""
    width = binary_runs.shape[1]
    steps = L // np.arange(start + 1, start + width + 1, dtype=np.int64)
    rel = binary_runs.astype(np.int64)
    within = np.cumsum(rel, axis=1)
    return rel @ steps, (rel * within) @ steps


def ap_image(space: Space, *, level: int = 1, divisor: int = 1, progress: bool = True,
             label: str = "AP") -> PairImage:
    """AP's image on ``space`` (values ``S / divisor``; see the module documentation)."""
    N = space.N
    if N > MAX_N:
        raise ParameterError(f"AP's exact image needs N ≤ {MAX_N} (64-bit keys), got {N}")
    L = math.lcm(*range(1, N + 1))
    h = N // 2
    prefix = runs_from_index(np.arange(1 << h), h, 2)
    suffix = runs_from_index(np.arange(1 << (N - h)), N - h, 2)
    _, a_val = ap_keys(prefix, 0, L)
    a_count = prefix.sum(axis=1).astype(np.int64)
    u, v = ap_keys(suffix, h, L)
    b_count = suffix.sum(axis=1).astype(np.int64)
    weights = binary_weights(N, space.levels, level, space.bounds)
    if max(weights) * (1 << N) >= 1 << 63:
        raise ParameterError(f"{space.label()} has too many runs for 64-bit counts")
    groups = []
    for j in range(h + 1):
        rows = np.flatnonzero(a_count == j)
        a_vals, first, counts = np.unique(a_val[rows], return_index=True, return_counts=True)
        w = np.array([weights[min(j + k, N)] if j + k <= N else 0
                      for k in range(N - h + 1)], dtype=np.int64)[b_count]
        keep = w > 0
        if not keep.any():
            continue
        b_all = j * u[keep] + v[keep]
        order = np.argsort(b_all, kind="stable")
        sorted_b = b_all[order]
        starts = np.flatnonzero(np.concatenate(([True], sorted_b[1:] != sorted_b[:-1])))
        b_mult = np.add.reduceat(w[keep][order], starts)  # exact int64 sums
        b_ref = np.flatnonzero(keep)[order][starts]
        groups.append(PairGroup(a_vals, counts.astype(np.int64), rows[first],
                                sorted_b[starts], b_mult, b_ref))
    table = PairTable(groups, mode="int", N=N, a_rep=prefix, a_ranks=np.arange(h),
                      b_rep=suffix, b_ranks=np.arange(h, N), progress=progress, label=label)
    scale = 1.0 / (L * divisor)

    def raw_of(runs: np.ndarray) -> np.ndarray:
        binary = project(runs, level)
        _, total = ap_keys(binary, 0, L)
        return total

    def post(raw: np.ndarray) -> np.ndarray:
        return np.asarray(raw, dtype=np.float64) * scale

    return PairImage(table, space, raw_of=raw_of, post=post, unit=scale, exactness="exact",
                     algorithm="meet in the middle over the prefix count, integer keys")
