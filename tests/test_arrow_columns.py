"""The oracles' helpers over pyarrow string arrays (:mod:`tests.oracles.arrow_columns`):
``short_keys`` (words read in place), ``shared_prefix``, ``length_range`` and
``value_offsets``, against their definitions on the Python strings."""

import itertools
import os

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from .oracles import arrow_columns

#: NULs, multi-byte characters and the rest of the text.
TEXT = st.text(alphabet=st.sampled_from(["\x00", "a", "Z", "0", "-", "é", "€", "😀", " "]),
               max_size=6)


@given(st.lists(TEXT.map(lambda text: text * 3), max_size=12), st.integers(1, 3),
       st.sampled_from([0, 1, 5, 8, 13, 25]), st.data())
def test_short_keys_are_the_big_endian_words_of_the_bytes(values, n_chunks, offset, data):
    """Every string's 8 bytes from ``offset`` on, zero-padded, as a big-endian integer, read
    in place from chunks that are slices of one array (their words near the buffer's end
    included)."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(values)), min_size=n_chunks - 1,
                                     max_size=n_chunks - 1)))
    whole = pa.array(values, pa.string())
    column = pa.chunked_array([whole.slice(a, b - a) for a, b in
                               zip([0, *cuts], [*cuts, len(values)], strict=True)],
                              pa.string())
    keys, lengths = arrow_columns.short_keys(column, offset)
    expected = [int.from_bytes(value.encode()[offset: offset + 8].ljust(8, b"\0"), "big")
                for value in values]
    assert keys.tolist() == expected
    assert lengths.tolist() == [len(value.encode()) for value in values]


@given(st.lists(TEXT, min_size=1, max_size=30), st.sampled_from(["", "ab", "clueweb12-"]),
       st.integers(1, 3), st.integers(1, 4))
def test_shared_prefix_is_the_longest_common_prefix(values, prefix, n_chunks, sample):
    """The longest prefix of all the strings, from a sample of ``sample`` strings at each
    end (cut again where a string in between shares less), over chunks of one array."""
    values = [prefix + value for value in values]
    cuts = np.linspace(0, len(values), n_chunks + 1).astype(int)
    whole = pa.array(values, pa.string())
    column = pa.chunked_array([whole.slice(a, b - a) for a, b in itertools.pairwise(cuts)],
                              pa.string())
    expected = os.path.commonprefix(values)  # noqa: RUF071 (characters are what is meant)
    assert arrow_columns.shared_prefix(column, sample=sample) == expected


@given(st.lists(st.lists(st.text(max_size=6), max_size=4), min_size=1, max_size=4))
def test_length_range_of_strings(chunks):
    """Shortest and longest length in bytes, from the offsets of every chunk."""
    values = pa.chunked_array([pa.array(c, pa.string()) for c in chunks], pa.string())
    lengths = [len(v.encode()) for c in chunks for v in c]
    assume(lengths)
    assert arrow_columns.length_range(values) == (min(lengths), max(lengths))


@pytest.mark.parametrize("kind", [pa.string(), pa.binary(), pa.large_string(),
                                  pa.large_binary()])
def test_value_offsets_of_slices(kind):
    """The offsets of a slice's own values, in the offset width of the type."""
    values = pa.array(["ab", "", "cde", "f"], kind).slice(1, 2)
    offsets = arrow_columns.value_offsets(values)
    assert offsets.dtype == (np.int64 if "large" in str(kind) else np.int32)
    assert offsets.tolist() == [2, 2, 5]
