"""``irscale.core._columnar.arrow``'s string helpers: ``strings`` and ``one_width_strings`` (Python
strings joined and cut by numpy give the array ``pa.array(values, pa.string())`` gives,
whatever their lengths and characters), ``short_keys`` (words read in place) and
``shared_prefix``."""

import itertools
import os

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.core._columnar import arrow

#: NULs (the separator), multi-byte characters and the rest of the text.
TEXT = st.text(alphabet=st.sampled_from(["\x00", "a", "Z", "0", "-", "é", "€", "😀", " "]),
               max_size=6)


@given(st.lists(TEXT, max_size=70))
def test_any_strings_as_pyarrow_builds_them(values):
    got = arrow.strings(values)
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.string()))


@given(st.integers(0, 9), st.data())
def test_strings_of_one_length_in_bytes(width, data):
    alphabet = st.sampled_from(["a", "b", "\x00", "7", "é"])
    values = data.draw(st.lists(st.text(alphabet, min_size=width, max_size=width),
                                min_size=1, max_size=70))
    fixed = arrow.one_width_strings(values)
    if fixed is not None:  # taken only when the bytes are of one length, without NULs
        fixed.validate(full=True)
        assert fixed.equals(pa.array(values, pa.string()))
        assert len({len(value.encode()) for value in values}) == 1
        assert not any("\x00" in value for value in values)
    elif all(value.isascii() and "\x00" not in value for value in values):
        raise AssertionError("ASCII strings of one length without NULs not taken")


def test_lists_that_are_not_all_text():
    for values in (["a", None], ["ab", None], ["a", b"b"], [b"a", b"b"], [None], []):
        assert arrow.one_width_strings(values) is None
    with pytest.raises(UnicodeEncodeError):
        arrow.one_width_strings(["a", "\ud800"])
    with pytest.raises(TypeError):
        arrow.strings(["a", None])


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
    keys, lengths = arrow.short_keys(column, offset)
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
    assert arrow.shared_prefix(column, sample=sample) == expected
