"""``index_in_sorted`` (of the Python judge kept as the engine's oracle,
:mod:`tests.oracles.columnar_judge`): the lookup of strings in a sorted set of distinct
strings equals pyarrow's ``index_in``."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from .oracles.columnar_judge import index_in_sorted

#: short strings, NUL bytes and multi-byte characters included, some over 8 bytes
_ids = st.text(alphabet=st.sampled_from("ab09\x00é-"), max_size=10)


def _expected(values: pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    codes = pc.index_in(values, value_set=value_set).to_numpy(zero_copy_only=False)
    return np.where(np.isnan(codes.astype(float)), -1, codes).astype(np.int64)


#: prefixes every member shares: none, short, or long enough that the ids only fit 8 bytes
#: past it (``msmarco-q1``)
_prefixes = st.sampled_from(["", "a", "msmarco-passage-q", "é-topic-"])


@given(st.lists(_ids, max_size=30, unique=True), st.lists(_ids, max_size=40),
       st.integers(0, 3), st.booleans(), st.booleans(), _prefixes, st.data())
def test_sorted_lookup_equals_pyarrow(members, others, pieces, large, sliced, prefix, data):
    """Found exactly where pyarrow's hash lookup finds them, members sharing a prefix or
    not; values without the prefix (whose bytes past it may equal a member's) are absent."""
    members = sorted((prefix + m for m in members), key=str.encode)
    value_set = pa.array(members, pa.large_string() if large else pa.string())
    others = [prefix + o if data.draw(st.booleans()) else o for o in others]
    values = others + members
    if sliced:  # arrays that start inside their buffers
        values = ["x", *values]
    whole = pa.array(values, pa.string())
    if sliced:
        whole = whole.slice(1)
    cuts = sorted({0, len(whole), *np.linspace(0, len(whole), pieces + 1).astype(int)})
    chunked = pa.chunked_array([whole.slice(a, b - a) for a, b in pairwise(cuts)],
                               pa.string())
    got = index_in_sorted(chunked, value_set)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, _expected(chunked, value_set))


def test_short_and_fallback_sets():
    values = pa.array(["10", "2", "100", "a\x00", "a", "topic-number-12", ""])
    for members in (["1", "10", "100", "2"],  # short: binary search
                    ["", "10", "a", "a\x00"],  # one key for a and a\0: hash
                    ["10", "topic-number-12"],  # over 8 bytes past a prefix: hash
                    ["topic-number-12", "topic-number-2"],  # 2 bytes past one: search
                    ["2", "10"],  # not in byte order: hash
                    []):
        value_set = pa.array(members, pa.string())
        np.testing.assert_array_equal(index_in_sorted(values, value_set),
                                      _expected(pa.chunked_array([values]), value_set))
