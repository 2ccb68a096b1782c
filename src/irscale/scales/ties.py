"""Ranking a list of values with the tie strategies of Ferrante et al. (2021), §5.

``rank_values([0, .25, .40, .40, .70])``:

========  ===================
``unq``   ``[1, 2, 3, 3, 4]``   (equi-spaced: φ of eq. 2)
``min``   ``[1, 2, 3, 3, 5]``
``max``   ``[1, 2, 4, 4, 5]``
``mid``   ``[1, 2, 3.5, 3.5, 5]``
========  ===================

Values closer than ``tol · max(1, |v|)`` (consecutive, after sorting) are tied; ``tol = 0``
ties exactly equal values only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import ParameterError
from ..stats.kendall import score_vector


def rank_values(values: Sequence[float] | np.ndarray, ties: str = "unq", *,
                tol: float = 0.0) -> np.ndarray:
    """Ranks (from 1) of ``values`` under a tie strategy (module documentation); a
    missing or non-finite value (NaN ranks nowhere) is an
    :class:`~irscale.errors.InputError` naming its position."""
    x = score_vector(values, "values")
    if x.ndim != 1:
        raise ParameterError("rank_values takes a one-dimensional sequence")
    order = np.argsort(x, kind="stable")
    sorted_x = x[order]
    gap = np.diff(sorted_x) > tol * np.maximum(1.0, np.abs(sorted_x[1:]))
    group = np.concatenate(([0], np.cumsum(gap)))  # tie group of each sorted value
    first = np.searchsorted(group, group, side="left") + 1   # min rank of the group
    last = np.searchsorted(group, group, side="right")       # max rank of the group
    ranks = {"unq": group + 1.0, "min": first.astype(np.float64),
             "max": last.astype(np.float64), "mid": (first + last) / 2.0}
    if ties not in ranks:
        raise ParameterError(f"unknown tie strategy {ties!r}: use unq, min, max or mid")
    out = np.empty(len(x))
    out[order] = ranks[ties]
    return out
