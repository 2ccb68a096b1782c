"""irscale.core.identifiers.unique_integers: np.unique's values and dtype, whether counted per
value (a range at most the array's length) or sorted (wider ranges), at the edges of every
integer type."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.core.identifiers import unique_integers

TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@given(st.sampled_from(TYPES), st.data())
def test_same_as_numpy_unique(dtype, data):
    info = np.iinfo(dtype)
    low = data.draw(st.integers(int(info.min), int(info.max)))
    span = data.draw(st.sampled_from([0, 1, 5, 300, 1 << 20, int(info.max) - int(info.min)]))
    high = min(int(info.max), low + span)
    values = np.array(data.draw(st.lists(st.integers(low, high), max_size=60)), dtype=dtype)
    got, expected = unique_integers(values), np.unique(values)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("values", [
    np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max]),
    np.array([2**64 - 1, 2**64 - 3, 2**64 - 1], dtype=np.uint64),
    np.array([-128, 127, 0], dtype=np.int8),
    np.array([3, 0, 2, 3, -1] * 1000),
    np.array([True, False, True]),
    np.array([], dtype=np.int16),
])
def test_edges(values):
    got, expected = unique_integers(values), np.unique(values)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)
