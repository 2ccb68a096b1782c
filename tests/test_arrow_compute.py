"""irscale.core._columnar.arrow_compute: each function gives what pyarrow.compute's function of the
same name gives (the oracle), on arrays, chunked arrays and tables, nulls included."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as real
import pytest

from irscale.core._columnar import arrow_compute as pc

STRINGS = pa.array(["b", None, "a", "b", "", "é"])
CHUNKED = pa.chunked_array([["d2", "d1"], [], ["d2", "d3", "d1"]])
NUMBERS = pa.array([3, None, -1, 3, 0])
FLAGS = pa.array([True, False, None, True, True, False])
TABLE = pa.table({"g": [1, 0, 1, 0, 1], "d": ["x", "y", "z", "y", "a"]})

CASES = [
    ("all", (pa.array([True, None, True]),), {}),
    ("all", (pa.array([True, False]),), {}),
    ("binary_join_element_wise", (STRINGS, STRINGS, pa.scalar("-")), {}),
    ("cast", (NUMBERS, pa.string()), {}),
    ("cast", (pa.array(["1", "-20"]), pa.int64()), {}),
    ("dictionary_encode", (STRINGS,), {}),
    ("dictionary_encode", (CHUNKED,), {}),
    ("equal", (STRINGS, pa.scalar("b")), {}),
    ("fill_null", (NUMBERS, pa.scalar(-7, pa.int64())), {}),
    ("filter", (STRINGS, FLAGS), {}),
    ("if_else", (FLAGS, STRINGS, pa.scalar("-")), {}),
    ("index", (STRINGS, pa.scalar("a")), {}),
    ("index", (STRINGS, pa.scalar("zz")), {}),
    ("index_in", (STRINGS,), {"value_set": pa.array(["a", "b"])}),
    ("index_in", (CHUNKED,), {"value_set": pa.array(["d3", "d1"])}),
    ("indices_nonzero", (pa.array([False, True, True, False]),), {}),
    ("is_null", (STRINGS,), {}),
    ("not_equal", (NUMBERS, pa.array([3, 1, -1, None, 0])), {}),
    ("replace_substring_regex", (pa.array(["+1", "-2.00", "+-3", "4.5", None]),
                                 r"^(?:\+|(-))?([0-9]+)(?:\.0*)?$", r"\1\2"), {}),
    ("replace_with_mask", (STRINGS, pa.array([True, False, False, True, False, False]),
                           pa.array(["p", "q"])), {}),
    ("sort_indices", (STRINGS,), {}),
    ("sort_indices", (CHUNKED,), {}),
    ("sort_indices", (TABLE,), {"sort_keys": [("g", "ascending"), ("d", "descending")]}),
    ("sum", (NUMBERS,), {}),
    ("sum", (pa.array([], pa.int64()),), {"min_count": 0}),
    ("sum", (pa.array([], pa.int64()),), {}),
    ("take", (STRINGS, pa.array([5, 0, 0, 2])), {}),
    ("take", (CHUNKED, pa.array([4, 0])), {}),
    ("take", (TABLE, pa.array([3, 1])), {}),
    ("unique", (STRINGS,), {}),
    ("unique", (CHUNKED,), {}),
    ("utf8_lpad", (STRINGS, 3, "0"), {}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES,
                         ids=[f"{name}-{i}" for i, (name, _, _) in enumerate(CASES)])
def test_same_result_as_pyarrow_compute(name, args, kwargs):
    ours = getattr(pc, name)(*args, **kwargs)
    theirs = getattr(real, name)(*args, **kwargs)
    assert type(ours) is type(theirs)
    assert ours.equals(theirs)


def test_checked_cast_and_take_raise_as_pyarrow_compute():
    with pytest.raises(pa.ArrowInvalid):
        pc.cast(pa.array(["1", "x"]), pa.int64())
    with pytest.raises(pa.ArrowInvalid):
        pc.cast(pa.array([300]), pa.int8())
    with pytest.raises(IndexError):
        pc.take(STRINGS, pa.array([6]))


@pytest.mark.parametrize("rows", [1, 2, 3, 100])
def test_elementwise_in_pieces_as_on_the_whole_columns(monkeypatch, rows):
    """Compared in pieces of ``rows`` rows on three cores: the values of one compare, in
    order, whether the chunks of the two sides line up or not."""
    from irscale.parallel import threads

    monkeypatch.setattr(pc, "_SHARED_ROWS", rows)
    monkeypatch.setattr(threads, "usable_cores", lambda: 3)
    left = pa.chunked_array([["a", "b"], [], ["b", "c", "c"], ["a"]])
    right = pa.chunked_array([["a"], ["c", "b", "c"], ["c", "b"]])
    for other in (right, pa.scalar("b")):
        for name in ("equal", "not_equal"):
            shared = pc.elementwise_shared(getattr(pc, name), left, other)
            assert shared.to_pylist() == getattr(real, name)(left, other).to_pylist()
            assert shared.type == pa.bool_()
