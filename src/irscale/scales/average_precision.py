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
#: Most suffix values of all groups together (``(h + 1)·2^(N−h)``, about 24 bytes each).
MAX_SUFFIX_VALUES = 1 << 22
#: How far below ``N // 2`` the cut may move to widen the prefix values' common factor.
CUT_SLACK = 3


def _largest_exponent(q: int, x: int) -> int:
    """The largest e with ``q^e ≤ x`` (0 when q > x)."""
    e = 0
    while q ** (e + 1) <= x:
        e += 1
    return e


def prefix_factor(N: int, h: int) -> int:
    """``M(h) = Π_q q^(e_N(q) − e_h(q))`` over the primes q (``q^e_x`` the largest power
    of q ≤ x): a common factor of the prefix values ``A = Σ_{i ≤ h} C(i)·L/i``, since
    ``L/i`` keeps ``q^(e_N(q) − e_h(q))`` of every prime for every rank ``i ≤ h``."""
    factor = 1
    for q in range(2, N + 1):
        if all(q % d for d in range(2, math.isqrt(q) + 1)):
            factor *= q ** (_largest_exponent(q, N) - _largest_exponent(q, h))
    return factor


def prefix_length(N: int) -> int:
    """The cut h: among the prefixes at most :data:`CUT_SLACK` ranks shorter than
    ``N // 2`` (at most :data:`MAX_SUFFIX_VALUES` suffix values), the one with the largest
    :func:`prefix_factor`, the longest on ties. The values ``a + b`` are then counted by
    the residue classes of ``b`` modulo that factor, a bitmap per class
    (``rust/src/scales/residues.rs``): N = 30 cuts after 12 ranks (factor 84,021,990;
    15 ranks: 6,463,230)."""
    half = N // 2
    cuts = [h for h in range(max(1, half - CUT_SLACK), half + 1)
            if (h + 1) << (N - h) <= MAX_SUFFIX_VALUES] or [half]
    return max(cuts, key=lambda h: (prefix_factor(N, h), h))


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
    h = prefix_length(N)
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
