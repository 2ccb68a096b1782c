"""Transforms of the scores before an ANOVA (``transform=`` of :func:`irscale.stats.anova`
and :func:`irscale.stats.shard_anova`; ``irscale compare --transform``).

``"arcsine"``
    y = asin(√x) for scores x in [0, 1] (radians, y in [0, π/2]): the angular transform
    that stabilises the variance of proportions, whose variance p(1 − p)/n depends on the
    mean (Bartlett, 1947). Scores within :data:`~irscale.stats.validation.TIE_RTOL` of
    [0, 1] (rounding noise, e.g. 1.0000000000000002 from a ratio of sums) are read as
    0 or 1; any other score outside [0, 1] is refused, naming where it is.
``"rank"``
    The rank transform of Conover & Iman (1981): every score is replaced by its rank
    among *all* the scores of the table (1 = the lowest; tied scores, equal up to
    :data:`~irscale.stats.validation.TIE_RTOL` of the largest |score|, share the mean of
    their ranks), and the usual ANOVA is computed on the ranks.
``"none"`` (or ``None``)
    The scores as they are.

Missing scores (NaN: unbalanced shard designs) stay missing and take no rank.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InputError
from .ranks import rank_columns
from .validation import TIE_RTOL, tie_tolerance

__all__ = ["transform_scores"]


def _where(index: tuple[int, ...], factors: Sequence[str],
           labels: Sequence[Sequence[str]]) -> str:
    return ", ".join(f"{factor} {labels[a][i]!r}"
                     for a, (factor, i) in enumerate(zip(factors, index, strict=True)))


def arcsine(values: np.ndarray, factors: Sequence[str],
            labels: Sequence[Sequence[str]], measure: str | None = None) -> np.ndarray:
    """asin(√x) of every score (module docstring); ``factors`` and ``labels`` (one
    sequence of level names per axis), and ``measure`` where known, name a score outside
    [0, 1] in the error."""
    observed = np.isfinite(values)
    outside = observed & ((values < -TIE_RTOL) | (values > 1.0 + TIE_RTOL))
    if outside.any():
        first = tuple(int(i) for i in np.argwhere(outside)[0])
        bad = values[outside]
        more = (f" ({bad.size} scores outside [0, 1], from {bad.min():.6g} to "
                f"{bad.max():.6g})" if bad.size > 1 else "")
        of = f" ({measure!r})" if measure else ""
        raise InputError(
            f"the arcsine transform asin(sqrt(x)) needs scores in [0, 1]: the score{of} of "
            f"{_where(first, factors, labels)} is {values[first]:.6g}{more}; use "
            "transform='rank' (--transform rank) or none for scores of another range")
    return np.arcsin(np.sqrt(np.clip(values, 0.0, 1.0)))


def ranks(values: np.ndarray) -> np.ndarray:
    """The rank of every score among all the observed scores (Conover & Iman 1981; ties
    within the tie tolerance share their mean rank); NaN stays NaN."""
    observed = np.isfinite(values)
    out = np.full(values.shape, np.nan)
    scores = values[observed]
    out[observed] = rank_columns(scores, tie_tolerance(scores))[0]
    return out


def transform_scores(values: np.ndarray, transform: str | None, factors: Sequence[str],
                     labels: Sequence[Sequence[str]], measure: str | None = None
                     ) -> np.ndarray:
    """``values`` (one axis per factor) transformed as ``transform`` says (a canonical
    name of :data:`irscale.stats.names.ANOVA_TRANSFORM`, as the bindings of the ANOVAs
    give it; ``None`` or ``"none"``: ``values`` itself)."""
    if transform == "arcsine":
        return arcsine(values, factors, labels, measure)
    if transform == "rank":
        return ranks(values)
    return values
