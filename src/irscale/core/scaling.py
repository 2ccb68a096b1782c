"""Scaling by powers of 2: sums and ratios of user-given numbers near the ends of the
double range (weights of 1e308, metrics of 1e-200) computed without overflow or underflow.

A product by 2^k is exact while it stays in the normal range, and rounding commutes with
it: a sum or a quotient of scaled values is the scaled sum or quotient, bit for bit. So
values divided by 2^e, e the binary exponent of the largest of them (``np.frexp``: they
then lie in [0.5, 1) or below), give the same ratios as the values would with an
unbounded exponent, and sums of n of them stay below n.
"""

from __future__ import annotations

import numpy as np


def binary_exponents(values: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group: e with every |value| of the group below 2^e, the least such e that
    ``np.frexp`` gives for the largest (0 for a group of zeros or of no value)."""
    largest = np.zeros(n_groups)
    np.maximum.at(largest, groups, np.abs(np.asarray(values, dtype=np.float64)))
    return np.frexp(largest)[1].astype(np.int64)


def binary_exponent(*arrays: np.ndarray) -> int:
    """:func:`binary_exponents` of all the values of ``arrays`` taken as one group."""
    largest = max((float(np.max(np.abs(a), initial=0.0)) for a in arrays), default=0.0)
    return int(np.frexp(largest)[1])
