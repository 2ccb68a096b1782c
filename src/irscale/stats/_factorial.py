"""Sums of squares of crossed factorial designs with one observation per cell.

Balanced, complete data (closed form)
    The array has one axis per factor (e.g. topic × system, or topic × system × shard).
    The effect of a term A (a set of factors) is, by inclusion–exclusion of marginal means,
    ê_A = Σ_{B ⊆ A} (−1)^{|A|−|B|} μ̂_B, where μ̂_B is the mean over the factors not in B —
    for two factors: τ̂_i = μ̂_i· − μ̂_·· and α̂_j = μ̂_·j − μ̂_·· (Ferro & Maistro 2024, §4.2.1). Then
    SS_A = (N / cells_A) Σ ê_A² and df_A = Π_{a ∈ A} (L_a − 1) (Ferro & Maistro 2024, §4.2.2); the
    error is what the model leaves: SS_E = SS_T − Σ_A SS_A, df_E = N − 1 − Σ_A df_A (in
    balanced designs the effect spaces are orthogonal, so this holds for any set of terms),
    and the residuals are e = y − μ̂ − Σ_A ê_A (the checks of :mod:`irscale.stats.assumptions`).
Unbalanced or incomplete data
    see :mod:`irscale.stats._linear` (type III sums of squares).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..errors import ParameterError

Term = tuple[str, ...]


def parse_model(model: str, factors: Sequence[str]) -> list[Term]:
    """Terms of a model formula such as ``"topic + system + shard + topic:system"``.

    Terms are separated by ``+``; interactions join factors with ``:``. Factor names must be
    among ``factors``; each term's factors are put in the order of ``factors``.
    """
    terms: list[Term] = []
    for raw in model.replace(" ", "").split("+"):
        if not raw:
            raise ParameterError(f"empty term in model {model!r}")
        names = raw.split(":")
        unknown = [n for n in names if n not in factors]
        if unknown:
            raise ParameterError(
                f"unknown factor(s) {unknown} in model {model!r}; factors are {list(factors)}"
            )
        if len(set(names)) != len(names):
            raise ParameterError(f"repeated factor in term {raw!r}")
        term = tuple(f for f in factors if f in names)
        if term in terms:
            raise ParameterError(f"term {raw!r} appears twice in model {model!r}")
        terms.append(term)
    return terms


def term_name(term: Term) -> str:
    return ":".join(term)


def format_model(terms: Sequence[Term]) -> str:
    return " + ".join(term_name(t) for t in terms)


@dataclass(frozen=True)
class SumsOfSquares:
    """Sums of squares and degrees of freedom of each term, the error and the total, and
    the residuals of the fit (one per observed score, in C order of the array)."""

    terms: tuple[Term, ...]
    ss: tuple[float, ...]
    df: tuple[float, ...]
    ss_error: float
    df_error: float
    ss_total: float
    n_obs: int
    residuals: np.ndarray


def balanced(values: np.ndarray, factors: Sequence[str], terms: Sequence[Term]) -> SumsOfSquares:
    """Closed-form sums of squares of a complete array with one axis per factor."""
    axis = {f: i for i, f in enumerate(factors)}
    n_obs = values.size
    grand = values.mean()
    means: dict[frozenset[int], np.ndarray] = {}

    def marginal(kept: frozenset[int]) -> np.ndarray:
        if kept not in means:
            other = tuple(a for a in range(values.ndim) if a not in kept)
            means[kept] = values.mean(axis=other, keepdims=True) if other else values
        return means[kept]

    ss, df = [], []
    fitted = np.full(values.shape, grand)
    for term in terms:
        axes = frozenset(axis[f] for f in term)
        effect = np.zeros((1,) * values.ndim)
        for size in range(len(axes) + 1):
            for subset in combinations(sorted(axes), size):
                sign = -1.0 if (len(axes) - size) % 2 else 1.0
                effect = effect + sign * marginal(frozenset(subset))
        fitted += effect
        cells = int(np.prod([values.shape[a] for a in axes]))
        ss.append(float(np.sum(effect**2)) * n_obs / cells)
        df.append(float(np.prod([values.shape[a] - 1 for a in axes])))
    ss_total = float(np.sum((values - grand) ** 2))
    df_error = n_obs - 1 - sum(df)
    if df_error <= 0:
        raise ParameterError(
            f"the model {format_model(terms)} leaves no degrees of freedom for the error "
            "(one score per cell: the highest interaction is the error term)"
        )
    return SumsOfSquares(tuple(terms), tuple(ss), tuple(df), max(ss_total - sum(ss), 0.0),
                         float(df_error), ss_total, n_obs, (values - fitted).ravel())
