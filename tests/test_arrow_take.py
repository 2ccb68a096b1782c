"""``irscale.core._columnar.arrow.take``: numpy's gather of fixed-width strings equals
pyarrow's take."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.core._columnar import arrow

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@given(st.integers(0, 12).flatmap(lambda w: st.lists(
    st.text(alphabet="abcdé0123456789-", min_size=w, max_size=w).filter(
        lambda t, w=w: len(t.encode()) == w), min_size=1, max_size=40)),
    st.data())
def test_fixed_width_strings_are_taken_as_pyarrow_takes_them(values, data):
    column = pa.array(values, pa.string())
    rows = np.array(data.draw(st.lists(st.integers(0, len(values) - 1), max_size=60)),
                    dtype=np.int64)
    got = arrow.take(column, rows)
    assert got.type == pa.string()
    assert got.equals(column.take(pa.array(rows, pa.int64())))
    got.validate(full=True)


@given(st.lists(_text, min_size=1, max_size=40), st.data())
def test_any_strings_are_taken_as_pyarrow_takes_them(values, data):
    column = pa.array(values, pa.string())
    rows = np.array(data.draw(st.lists(st.integers(0, len(values) - 1), max_size=60)),
                    dtype=np.int64)
    assert arrow.take(column, rows).equals(column.take(pa.array(rows, pa.int64())))


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 8, 9, 25])
def test_a_slice_of_fixed_width_strings(width):
    values = [f"{i:0{width}d}"[-width:] for i in range(50)]
    column = pa.array(values, pa.string()).slice(7, 30)
    rows = np.array([29, 0, 5, 5, 12])
    got = arrow.take(column, rows)
    assert got.to_pylist() == [values[7 + r] for r in rows]
    got.validate(full=True)


def test_nulls_and_other_types_go_to_pyarrow():
    with_null = pa.array(["ab", None, "cd"], pa.string())
    assert arrow.take(with_null, np.array([1, 2])).to_pylist() == [None, "cd"]
    large = pa.array(["ab", "cd"], pa.large_string())
    assert arrow.take(large, np.array([1])).to_pylist() == ["cd"]
    numbers = pa.array([3, 4, 5])
    assert arrow.take(numbers, np.array([2, 0])).to_pylist() == [5, 3]


def test_a_row_out_of_range_is_an_index_error():
    with pytest.raises(IndexError):
        arrow.take(pa.array(["ab", "cd"]), np.array([2]))


@given(st.lists(_text, min_size=1, max_size=40), st.data(), st.integers(1, 4))
def test_a_column_is_taken_in_pieces_as_pyarrow_takes_it(values, data, piece):
    """``take_column`` gathers strings of several widths ``piece`` rows at a time, and
    strings of one width at once: either way the values of one pyarrow take."""
    column = pa.array(values, pa.string())
    rows = np.array(data.draw(st.lists(st.integers(0, len(values) - 1), max_size=60)),
                    dtype=np.int64)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(arrow, "_TAKE_ROWS", piece)
        got = arrow.take_column(column, rows)
    assert got.type == pa.string()
    assert got.combine_chunks().equals(column.take(pa.array(rows, pa.int64())))
    widths = {len(value.encode()) for value in values}
    if len(widths) > 1 and len(rows) > piece:
        assert got.num_chunks == -(-len(rows) // piece)  # in pieces
    elif len(widths) == 1 and widths != {0}:
        assert got.num_chunks == 1


@given(st.sampled_from([np.uint8, np.int32, np.float64]),
       st.lists(st.tuples(st.integers(0, 255), st.booleans()), max_size=80))
def test_compress_keeps_what_numpy_keeps(dtype, rows):
    """``arrow.compress`` (Arrow's filter) equals numpy's boolean indexing, empty and
    all-dropped arrays included, and hands back a read-only array (Arrow's data)."""
    values = np.array([value for value, _ in rows], dtype=dtype)
    keep = np.array([kept for _, kept in rows], dtype=bool)
    got = arrow.compress(values, keep)
    assert got.dtype == values.dtype
    assert got.tolist() == values[keep].tolist()
    assert not (len(got) and got.flags.writeable)
