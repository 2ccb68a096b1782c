"""irscale.core.strings.Strings against pyarrow's string arrays and compute functions (the
oracle), on generated columns: short ids drawn from few values (many repeats), any
Unicode text (non-ASCII, NUL bytes, empty strings), slices with offsets that do not start
at 0."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core.strings import Strings

from .property_examples import examples

#: Any text (surrogates excluded: they are not text and cannot be encoded).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
#: Few short values, so that encodings, lookups and sorts meet repeats and shared prefixes.
IDS = st.sampled_from(["", "a", "ab", "b", "ba", "a\x00", "é", "z" * 9, "10", "9"])
COLUMNS = st.lists(st.one_of(TEXT, IDS), max_size=40)


def column_and_slice(values: list[str], data: st.DataObject) -> tuple[Strings, list[str]]:
    """A column of ``values``, sometimes a slice of a longer one (offsets not from 0)."""
    start = data.draw(st.integers(0, 3))
    pad = [f"pad{k}" for k in range(start)]
    whole = Strings.of(pad + values + ["tail"])
    return whole[start: start + len(values)], values


@settings(max_examples=examples(150), deadline=None)
@given(COLUMNS, st.data())
def test_layout_and_conversions_agree_with_arrow(values, data):
    column, values = column_and_slice(values, data)
    oracle = pa.array(values, pa.large_string())
    assert column.to_pylist() == values == list(column)
    assert len(column) == len(values)
    assert column.nbytes == sum(len(v.encode()) for v in values)
    assert column.lengths.tolist() == pc.binary_length(oracle).to_pylist()
    assert column.to_numpy().tolist() == values and column.to_numpy().dtype == object
    assert column.to_pandas().tolist() == values
    assert column.to_arrow().equals(pa.array(values, pa.string()))
    assert Strings.of(oracle) == column == Strings.of(column.to_arrow())
    assert [column[k] for k in range(-len(values), len(values))] == values + values
    assert pickle.loads(pickle.dumps(column)) == column


@settings(max_examples=examples(150), deadline=None)
@given(COLUMNS, st.data())
def test_take_filter_and_slices_agree_with_arrow(values, data):
    column, values = column_and_slice(values, data)
    oracle = pa.array(values, pa.string())
    rows = data.draw(st.lists(st.integers(0, max(len(values) - 1, 0)),
                              max_size=30 if values else 0))
    assert column.take(rows).to_pylist() == oracle.take(pa.array(rows, pa.int64())).to_pylist()
    mask = data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    assert column.filter(mask).to_pylist() == oracle.filter(pa.array(mask, pa.bool_())
                                                            ).to_pylist()
    assert column[np.array(mask, dtype=bool)].to_pylist() == column.filter(mask).to_pylist()
    a, b, step = data.draw(st.integers(-5, 45)), data.draw(st.integers(-5, 45)), \
        data.draw(st.sampled_from([1, 2, -1, -3]))
    assert column[a:b:step].to_pylist() == values[a:b:step]


@settings(max_examples=examples(150), deadline=None)
@given(COLUMNS, st.data())
def test_encode_unique_and_sort_agree_with_arrow(values, data):
    column, values = column_and_slice(values, data)
    oracle = pa.array(values, pa.string())
    encoded = oracle.dictionary_encode()
    codes, uniques = column.encode()
    assert codes.dtype == np.int64
    assert codes.tolist() == encoded.indices.to_pylist()
    assert uniques.to_pylist() == encoded.dictionary.to_pylist() == column.unique().to_pylist()
    assert column.argsort().tolist() == pc.sort_indices(oracle).to_pylist()
    codes, uniques = column.encode(sort=True)
    in_order = pc.sort_indices(encoded.dictionary)
    assert uniques.to_pylist() == encoded.dictionary.take(in_order).to_pylist()
    assert uniques.take(codes).to_pylist() == values
    assert column.unique(sort=True) == uniques


@settings(max_examples=examples(150), deadline=None)
@given(COLUMNS, COLUMNS, st.data())
def test_lookups_and_comparisons_agree_with_arrow(values, others, data):
    column, values = column_and_slice(values, data)
    found = pc.index_in(pa.array(values, pa.string()),
                        value_set=pa.array(others, pa.string())).fill_null(-1)
    assert column.index_in(others).tolist() == found.to_pylist()
    assert column.isin(Strings.of(others)).tolist() == [v in others for v in values]
    same = (others * (len(values) // max(len(others), 1) + 1))[: len(values)] \
        if others else list(values)
    assert column.equal(Strings.of(same)).tolist() == [a == b for a, b in
                                                       zip(values, same, strict=True)]
    if others:
        assert column.equal(others[0]).tolist() == [v == others[0] for v in values]
    assert Strings.concat([column, Strings.of(others), column[:1]]).to_pylist() \
        == values + others + values[:1]
    assert (column == Strings.of(same)) == (values == same)


def test_construction_from_numpy_pandas_and_arrow_kinds():
    values = ["b", "a", "é", ""]
    expected = Strings.of(values)
    assert Strings.of(np.array(values)) == expected
    assert Strings.of(np.array(values, dtype=object)) == expected
    assert Strings.of(pd.Series(values)) == expected
    assert Strings.of(pd.Index(values)) == expected
    assert Strings.of(pd.Series(values, dtype="string")) == expected
    assert Strings.of(pa.chunked_array([values[:2], values[2:]])) == expected
    assert Strings.of(pa.array(values).dictionary_encode()) == expected
    assert Strings.of(pa.array(values, pa.large_string())) == expected
    assert Strings.of(pa.array(values)[1:]) == Strings.of(values[1:])
    assert Strings.of(iter(values)) == expected and Strings.of(tuple(values)) == expected
    assert Strings.concat([]) == Strings.of([]) and len(Strings.of([])) == 0
    assert Strings(np.array([0, 1, 3]), b"a\xc3\xa9").to_pylist() == ["a", "é"]


@pytest.mark.parametrize("values, message", [
    (["a", 1], "item 1 is not a string: 1"),
    (["a", None], "item 1 is not a string: None"),
    ("abc", "not one str"),
    (np.array([1, 2]), "not of int64"),
    (pa.array(["a", None]), "1 missing value"),
    (pa.array([1, 2]), "not of int64"),
    (3, "not int"),
])
def test_what_is_not_a_column_of_strings_is_refused(values, message):
    with pytest.raises(TypeError, match=message):
        Strings.of(values)


def test_arrays_are_read_only_and_checked():
    column = Strings.of(["ab", "c"])
    with pytest.raises(ValueError):
        column.offsets[0] = 1
    with pytest.raises(ValueError):
        column.data[0] = 0
    for offsets, data in [([0, 2, 1], b"abc"), ([0, 4], b"abc"), ([-1, 1], b"abc"), ([], b"")]:
        with pytest.raises(ValueError, match="offsets"):
            Strings(np.array(offsets, dtype=np.int64), data)
    with pytest.raises(IndexError):
        column.take([2])
    with pytest.raises(IndexError):
        column.take([-1])
    with pytest.raises(IndexError):
        column[2]
    with pytest.raises(ValueError, match="2 booleans"):
        column.filter([True])
    with pytest.raises(TypeError):
        hash(column)


def test_repr_shows_the_ends_of_long_columns():
    assert repr(Strings.of(["a", "b"])) == "Strings(2: ['a', 'b'])"
    assert repr(Strings.of(list("abcdefgh"))) == \
        "Strings(8: ['a', 'b', 'c', ..., 'f', 'g', 'h'])"
