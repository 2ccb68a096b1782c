"""Compact letter display of all-pairs decisions (Piepho 2004, insert-and-absorb).

Systems that share a letter are not significantly different; two systems that differ
significantly share none. Piepho (2004), "An algorithm for a letter-based representation
of all-pairwise comparisons", J. Comput. Graph. Stat. 13(2):456–466, §2:

1. start with one letter (a column of the letter matrix) held by every system;
2. **insert**: for each significantly different pair (i, j), every column holding both i
   and j is replaced by two copies, one without i and one without j;
3. **absorb**: after each insertion, a column whose systems are all in another column is
   removed (it adds no non-significant pair that the other does not show).

Each step keeps every non-significant pair in some common column (the copy that loses i
keeps j with everything else, and the other way round; absorption removes only columns
covered by another) and removes the significant pair from every column, so at the end two
systems share a letter exactly when they do not differ. Letters are then given in the
order of the systems (best mean first, as Tukey tables are read): the column holding the
earliest system is ``a``, ties broken by the next systems it holds.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence

import numpy as np

from ..core.run_names import find_names
from ..errors import ParameterError

__all__ = ["compact_letters"]


def _letter(index: int) -> str:
    """a … z, then aa, ab, … (more than 26 groups are rare but possible)."""
    letters = string.ascii_lowercase
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = letters[rest] + name
    return name


def _absorb(columns: list[np.ndarray]) -> list[np.ndarray]:
    """The columns that are not contained in another column (the first of equal ones)."""
    kept: list[np.ndarray] = []
    for i, column in enumerate(columns):
        covered = any(
            (j != i and not np.any(column & ~other)
             and (np.any(other & ~column) or j < i))
            for j, other in enumerate(columns))
        if not covered:
            kept.append(column)
    return kept


def compact_letters(systems: Sequence[str],
                    significant_pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The compact letter display of ``systems`` (in the order the letters follow, e.g.
    by decreasing mean) given the significantly different pairs.

    Returns ``{system: letters}``; two systems share a letter exactly when their pair is
    not among ``significant_pairs``.

    Examples
    --------
    Three systems where only the best and the worst differ:

    >>> compact_letters(["A", "B", "C"], [("A", "C")])
    {'A': 'a', 'B': 'ab', 'C': 'b'}
    >>> compact_letters(["A", "B", "C"], [])
    {'A': 'a', 'B': 'a', 'C': 'a'}
    """
    names = list(systems)
    if len(set(names)) != len(names):
        raise ParameterError(f"systems must be distinct, got {names}")
    position = {name: i for i, name in enumerate(names)}
    columns = [np.ones(len(names), dtype=bool)] if names else []
    for a, b in significant_pairs:
        # each a system's name, refused as a name of no run is (core.run_names)
        find_names([a, b], names, f"pair ({a!r}, {b!r}):")
        if a == b:
            raise ParameterError(f"pair ({a!r}, {b!r}) compares a system with itself")
        i, j = position[a], position[b]
        inserted: list[np.ndarray] = []
        for column in columns:
            if column[i] and column[j]:
                without_i, without_j = column.copy(), column.copy()
                without_i[i] = False
                without_j[j] = False
                inserted += [without_i, without_j]
            else:
                inserted.append(column)
        columns = _absorb(inserted)
    # letter order: by the systems each column holds, earliest first (lexicographic)
    columns.sort(key=lambda column: tuple(np.flatnonzero(column)))
    return {name: "".join(_letter(k) for k, column in enumerate(columns) if column[i])
            for i, name in enumerate(names)}
