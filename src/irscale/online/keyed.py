"""Values keyed by (query, document[, rank]) as integer codes: the policies and reward
models of :mod:`~irscale.online.counterfactual`, looked up at a log's shown cells.

A pandas MultiIndex re-codes every level of both sides at each lookup and groupby; here
each vocabulary is coded once (hashed), keys are integers and a lookup is a sorted search,
so that an estimate on a small log costs little beside its arithmetic. The sums are
pandas' own (:func:`group_sums`): the values are those a pandas table gave, to the bit.

Codes are ``-1`` where a key is missing (a NaN query or document): such a row is its own
key (a duplicate of another such row) and matches no string.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd

from ..core.identifiers import index_in

if TYPE_CHECKING:
    from .clicklog import ClickLog

__all__ = ["Keyed", "factorize", "first_over", "first_repeat", "group", "group_sums",
           "ungroup"]


def factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every value's code among the distinct values of ``values`` (strings, NaN where
    missing: code -1) and those, sorted: as a pandas MultiIndex codes its levels."""
    codes, distinct = pd.factorize(values, sort=True)
    return codes.astype(np.int64, copy=False), np.asarray(distinct, dtype=object)


def group(major: np.ndarray, minor: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pairs of codes (``major``, ``minor``; ``minor`` < ``size``, either -1
    where missing) as sorted integer keys (lexicographic order of the codes), and every
    pair's place among them."""
    keys, inverse = np.unique((major + 1) * (size + 1) + (minor + 1), return_inverse=True)
    return keys, inverse.reshape(-1)


def ungroup(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The (major, minor) codes of :func:`group`'s ``keys`` (``minor`` < ``size``)."""
    major, minor = np.divmod(keys, size + 1)
    return major - 1, minor - 1


def first_repeat(groups: np.ndarray) -> int | None:
    """The first row whose group (a code per row) an earlier row has; None where none
    does."""
    first = np.unique(groups, return_index=True)[1]
    if len(first) == len(groups):
        return None
    return int(np.flatnonzero(first[groups] != np.arange(len(groups)))[0])


def group_sums(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """The sum of ``values`` in each group 0..``n``-1 (``groups``: one per value, -1 for
    none; 0 where a group has no value): the doubles of pandas' ``groupby().sum()`` over
    the same rows, whose order of addition differs between its versions (Kahan's
    compensated loop; numpy's ``reduceat`` over groups in sorted order). Added by numpy
    where no group has more than two values (any order adds two numbers alike), by pandas
    otherwise, its -1 as a missing key."""
    kept = groups >= 0
    if np.bincount(groups[kept], minlength=n).max(initial=0) <= 2:
        return np.bincount(groups[kept], values[kept], minlength=n)
    sums = pd.Series(values).groupby(np.where(kept, groups, np.nan)).sum()
    total = np.zeros(n)
    total[sums.index.to_numpy(np.int64)] = sums.to_numpy()
    return total


def first_over(values: np.ndarray, groups: np.ndarray, n: int, limit: float
               ) -> tuple[int, float] | None:
    """The first group (of 0..``n``-1, as in :func:`group_sums`) whose sum exceeds
    ``limit``, and that sum; None where none does. Screened by numpy's sums (values ≥ 0):
    :func:`group_sums` only where one lies within the rounding of any order of addition,
    ``2(m + 1)·2⁻⁵³·Σ`` for m values, of ``limit``."""
    kept = groups >= 0
    sizes = np.bincount(groups[kept], minlength=n)
    rough = np.bincount(groups[kept], values[kept], minlength=n)
    if not (rough > limit - (sizes + 1) * rough * 2.0 ** -52).any():
        return None
    total = group_sums(values, groups, n)
    over = np.flatnonzero(total > limit)
    return (int(over[0]), float(total[over[0]])) if len(over) else None


class Keyed(NamedTuple):
    """Values keyed by (query, document, rank), or by (query, document) (``rank`` 0), one
    row per key: ``query`` and ``doc`` code the distinct strings ``queries`` and ``docs``
    (-1: missing), ``rank`` is the rank (1-based)."""

    queries: np.ndarray
    docs: np.ndarray
    query: np.ndarray
    doc: np.ndarray
    rank: np.ndarray
    value: np.ndarray

    def take(self, rows: np.ndarray) -> Keyed:
        """The rows ``rows`` (indices or a mask), with the same vocabularies."""
        return self._replace(query=self.query[rows], doc=self.doc[rows],
                             rank=self.rank[rows], value=self.value[rows])

    def label(self, row: int) -> tuple[object, object]:
        """The (query, document) of ``row``: strings, NaN where missing."""
        return (self.queries[self.query[row]] if self.query[row] >= 0 else math.nan,
                self.docs[self.doc[row]] if self.doc[row] >= 0 else math.nan)

    def find(self, queries: np.ndarray, docs: np.ndarray, query: np.ndarray,
             doc: np.ndarray, rank: np.ndarray | None = None) -> np.ndarray:
        """The row of every wanted key, -1 where there is none: ``query`` and ``doc`` code
        the strings ``queries`` and ``docs`` (another vocabulary; -1: missing, found
        nowhere), ``rank`` the ranks (None: by (query, document) alone, in a table keyed
        so)."""
        query = np.append(index_in(queries, self.queries), -1)[query]
        doc = np.append(index_in(docs, self.docs), -1)[doc]
        have, want = self.query, query
        found = query >= 0
        columns = [(self.doc, doc, len(self.docs))]
        if rank is not None:
            size = int(self.rank.max(initial=0)) + 1
            columns.append((self.rank, np.where(rank < size, rank, -1), size))
        for mine, theirs, size in columns:
            found &= theirs >= 0
            keys, have = group(have, mine, size)
            want = _place(keys, (want + 1) * (size + 1) + (theirs + 1), found)
            found = want >= 0
        row = np.full(len(have) + 1, -1, dtype=np.int64)  # the last: not found
        row[have] = np.arange(len(have))
        return row[np.where(found, want, -1)]

    def at(self, log: ClickLog, by_rank: bool = True) -> np.ndarray:
        """The value at every shown (session, rank) of ``log`` (0 where there is none),
        found by (query, document, rank), or by (query, document)."""
        s, r = np.nonzero(log.valid)
        row = self.find(log.queries.astype(str), log.docs.astype(str), log.query[s],
                        log.doc[s, r], r + 1 if by_rank else None)
        out = np.zeros(log.doc.shape)
        out[s, r] = np.append(self.value, 0.0)[row]
        return out


def _place(keys: np.ndarray, wanted: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The place of every ``wanted`` key among ``keys`` (sorted), -1 where absent or not
    ``valid``."""
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    hit = valid & (len(keys) > 0)
    hit[hit] = keys[at[hit]] == wanted[hit]
    return np.where(hit, at, -1)

