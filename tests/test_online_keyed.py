"""Values keyed by (query, document[, rank]) codes (:mod:`irscale.online.keyed`) against
pandas, their oracle: a MultiIndex's ``get_indexer`` finds the same rows, a groupby sums
the same doubles (whichever order of addition the installed pandas uses)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.online.keyed import (
    Keyed,
    factorize,
    first_over,
    first_repeat,
    group,
    group_sums,
)


def _pandas_sums(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    sums = pd.Series(values).groupby(np.where(groups >= 0, groups, np.nan)).sum()
    out = np.zeros(n)
    out[sums.index.to_numpy(np.int64)] = sums.to_numpy()
    return out


@pytest.mark.parametrize("order", ["sorted", "shuffled"])
@pytest.mark.parametrize("largest", [1, 2, 3, 40])
def test_group_sums_are_pandas_doubles(order: str, largest: int) -> None:
    """Sorted groups (pandas 3 adds them by numpy's reduceat), shuffled ones (Kahan's
    loop), values of every magnitude whose order of addition shows in the last bits; -1
    rows in no group."""
    rng = np.random.default_rng(largest)
    n = 50
    groups = np.repeat(np.arange(n), rng.integers(1, largest + 1, n))
    groups[rng.random(len(groups)) < 0.05] = -1
    if order == "shuffled":
        groups = rng.permutation(groups)
    values = rng.random(len(groups)) * 10.0 ** rng.integers(-8, 8, len(groups))
    got = group_sums(values, groups, n + 3)  # groups without a value: 0
    assert np.array_equal(got, _pandas_sums(values, groups, n + 3))
    if largest >= 3:  # the orders differ somewhere: the test can tell them apart
        naive = np.bincount(groups[groups >= 0], values[groups >= 0], minlength=n + 3)
        assert not np.array_equal(_pandas_sums(values, groups, n + 3), naive) or \
            order == "sorted"


def test_first_over_agrees_with_pandas_at_the_limit() -> None:
    """Sums of tenths near 1 + 1e-9 (where the orders of addition differ by an ulp): the
    first group over the limit and its sum are pandas'."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 6))
        sizes = rng.integers(1, 12, n)
        groups = rng.permutation(np.repeat(np.arange(n), sizes))
        values = np.full(len(groups), 0.1) + rng.choice([0.0, 1e-10, 2e-10, -1e-10],
                                                        len(groups))
        limit = float(rng.choice([1 + 1e-9, 1.0, 0.9]))
        sums = _pandas_sums(values, groups, n)
        over = np.flatnonzero(sums > limit)
        expected = (int(over[0]), float(sums[over[0]])) if len(over) else None
        assert first_over(values, groups, n, limit) == expected


def test_group_orders_pairs_as_pandas_sorts_them() -> None:
    """The keys of (major, minor) pairs sort as the pairs do, a missing code (-1) first,
    and every pair's place is its key's."""
    major = np.array([2, 0, -1, 0, 2, 1, 0])
    minor = np.array([1, 3, 0, -1, 1, 0, 3])
    keys, place = group(major, minor, 4)
    pairs = sorted(set(zip(major.tolist(), minor.tolist(), strict=True)))
    assert len(keys) == len(pairs)
    assert [pairs[p] for p in place] == list(zip(major.tolist(), minor.tolist(),
                                                 strict=True))
    assert first_repeat(place) == 4 and first_repeat(np.arange(5)) is None


def test_find_is_get_indexer() -> None:
    """Rows found by (query, document, rank), and by (query, document), are a MultiIndex's
    ``get_indexer``'s: absent strings and ranks, and NaN keys, found nowhere."""
    rng = np.random.default_rng(8)
    queries = np.array([f"q{i}" for i in range(6)], dtype=object)
    docs = np.array([f"d{i}" for i in range(9)], dtype=object)
    cells = {(str(rng.choice(queries)), str(rng.choice(docs)), int(rng.integers(1, 5)))
             for _ in range(60)}
    rows = sorted(cells, key=lambda _: rng.random())
    query = np.array([q for q, _, _ in rows], dtype=object)
    doc = np.array([d for _, d, _ in rows], dtype=object)
    doc[3] = np.nan  # a missing document: a key no string finds
    rank = np.array([r for _, _, r in rows])
    q_code, q_vocab = factorize(query)
    d_code, d_vocab = factorize(doc)
    table = Keyed(q_vocab, d_vocab, q_code, d_code, rank, np.arange(len(rows), dtype=float))
    wanted_q = np.array([*queries, "q-absent"], dtype=object)
    wanted_d = np.array([*docs, "d-absent"], dtype=object)
    wq = rng.integers(0, len(wanted_q), 400)
    wd = rng.integers(0, len(wanted_d), 400)
    wr = rng.integers(0, 7, 400)
    found = table.find(wanted_q, wanted_d, wq, wd, wr)
    index = pd.MultiIndex.from_arrays([query, doc, rank])
    expected = index.get_indexer(pd.MultiIndex.from_arrays([wanted_q[wq], wanted_d[wd], wr]))
    assert np.array_equal(found, expected)
    first = ~pd.MultiIndex.from_arrays([query, doc]).duplicated()
    pairs = Keyed(q_vocab, d_vocab, q_code[first], d_code[first], 0 * rank[first],
                  rank[first] * 1.0)
    expected = pd.MultiIndex.from_arrays([query[first], doc[first]]).get_indexer(
        pd.MultiIndex.from_arrays([wanted_q[wq], wanted_d[wd]]))
    assert np.array_equal(pairs.find(wanted_q, wanted_d, wq, wd), expected)
