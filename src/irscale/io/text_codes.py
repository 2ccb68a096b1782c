"""Text columns of the readers (:class:`~irscale.core.strings.Strings`, as
:func:`irscale.io._text.read_fields` gives them) as the numpy arrays their results hold:
codes into the distinct values, or a ``str`` object per row.

Identifiers repeat (a topic on every line of its judgments, a session on every line of its
page): made from the distinct values, a column of a million rows costs a Python string per
distinct value, not per row.
"""

from __future__ import annotations

import numpy as np

from ..core.strings import Strings

#: Rows whose distinct values :func:`objects_of` counts to choose its way.
_SAMPLE = 1 << 16


def codes_of(column: Strings) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, values)``: every row's place (int64) among the distinct strings of
    ``column``, in order of first appearance (a numpy array of ``str``), hashed by the
    engine."""
    codes, uniques = column.encode()
    return codes, uniques.to_numpy()


def objects_of(column: Strings) -> np.ndarray:
    """``column`` as a numpy array of ``str`` (dtype ``object``), the rows of equal strings
    sharing one object where the first :data:`_SAMPLE` rows repeat their values (at most a
    quarter distinct: the column's codes and distinct values, 1M rows of 1,000 distinct
    values in 0.02 s where a string per row took 0.1-0.2 s); otherwise a string per row
    (:meth:`~irscale.core.strings.Strings.to_numpy`: hashing 1M distinct values first
    would cost 0.6 s)."""
    head = column[:_SAMPLE]
    if len(head.unique()) * 4 > len(head):
        return column.to_numpy()
    codes, values = codes_of(column)
    return values[codes]


__all__ = ["codes_of", "objects_of"]
