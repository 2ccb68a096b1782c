"""trec_eval's families declared in one place: each ``declare_native`` of
:mod:`irscale.measures.trec` is the Python half of a family whose other half, its kernel
and its line, is one module of ``rust/src/measures/`` (named in the engine's table,
``rust/src/measures/mod.rs``, handed to Python by ``_engine.trec_families``): every
declaration has its line and every measure of the table its declaration; a declaration
reads the kinds of parameters its line takes (read from the table, not restated); the
engine's dispatch finds every line of the table by its name and refuses parameters outside
the line's counts. (A throw-away family of one file, dispatched by name, is the engine's
own test: ``rust/src/measures/throwaway.rs``.)"""

from __future__ import annotations

import numpy as np
import pytest

from irscale import _engine
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.kernels import output_names, trec_family
from irscale.measures.base import CATALOGUE, Family
from irscale.measures.native import Native

#: The engine's table: ``(name, cut-offs, numbers, gain pairs, role)``.
TABLE = _engine.trec_families()
ROLES = {name: role for name, *_, role in TABLE}
BOUNDS = {name: bounds for name, *bounds, _ in TABLE}


def declared() -> dict[str, Family]:
    """Every family of the catalogue that the engine computes (``declare_native``)."""
    return {family.name: family for table in CATALOGUE.values() for family in table.values()
            if family.native is not None}


def batch() -> JudgedRankings:
    """Two rankings, one empty, over degrees 0..2 with both sentinels."""
    rankings = [[2, NONPOOL, 0, UNJUDGED, 1], []]
    return JudgedRankings(
        rel=np.array([r for ranking in rankings for r in ranking], dtype=np.int64),
        offsets=np.array([0, 5, 5], dtype=np.int64),
        rel_levels=np.array([[3, 2, 1], [0, 1, 0]], dtype=np.int64),
        ranking_topic=np.arange(2), ranking_run=np.zeros(2, dtype=np.int64),
        topics=("1", "2"), runs=("run",), relevance_level=1,
        degrees=np.array([0, 1, 2], dtype=np.int64))


def fewest(bounds: tuple[int, int | None]) -> int:
    """The fewest values a count admits, one at least where it admits any."""
    least, most = bounds
    return least if most == 0 else max(least, 1)


def parameters(name: str) -> dict[str, list]:
    """Parameters that fill each count of ``name``'s line as sparingly as it admits."""
    ints, floats, gains = (fewest(bounds) for bounds in BOUNDS[name])
    return {"ints": list(range(1, ints + 1)), "floats": [0.5] * floats,
            "gains": [(level, float(level)) for level in range(gains)]}


def test_the_declarations_are_the_engine_s_measures():
    assert len(ROLES) == len(TABLE), "a name twice in the engine's table"
    assert set(ROLES.values()) == {"measure", "part"}
    measures = {name for name, role in ROLES.items() if role == "measure"}
    assert sorted(set(declared()) - set(ROLES)) == [], "declared without an engine family"
    assert sorted(measures - set(declared())) == [], "engine measures without a declaration"
    parts = set(ROLES) - measures
    assert sorted(parts & set(declared())) == [], "parts of other measures declared"


def test_each_declaration_reads_the_kinds_of_parameters_its_kernel_takes():
    for name, family in declared().items():
        native = family.native
        assert native is not None
        takes = {kind for kind, bounds in zip(("ints", "floats", "gains"), BOUNDS[name],
                                              strict=True) if bounds != (0, 0)}
        assert set(native.readers(name)) == takes, name


def test_a_reader_of_a_kind_the_kernel_does_not_take_is_refused():
    with pytest.raises(TypeError, match=r"^P: the engine's kernel takes no floats, gains$"):
        Native(floats=tuple, gains=tuple).call("P", (5,))
    assert Native().call("P", (5, 10)).ints == (5, 10)


def test_each_declaration_s_default_call_fits_its_line():
    for name, family in declared().items():
        assert family.native is not None
        call = family.native.call(name, family.params.default)
        for given, (least, most) in zip((call.ints, call.floats, call.gains), BOUNDS[name],
                                        strict=True):
            assert least <= len(given) and (most is None or len(given) <= most), name


@pytest.mark.parametrize("name", sorted(ROLES))
def test_the_dispatch_finds_every_line_by_name(name):
    jr = batch()
    given = parameters(name)
    outputs = trec_family(name, jr, **given)
    assert list(outputs) == output_names(name, **given)
    assert all(len(values) == jr.n_rankings for values in outputs.values())


def test_a_name_outside_the_table_is_refused():
    with pytest.raises(ValueError, match='no native kernel for the measure family "P_5"'):
        trec_family("P_5", batch())


@pytest.mark.parametrize("name", sorted(name for name, bounds in BOUNDS.items()
                                        if any(most is not None for _, most in bounds)))
def test_parameters_beyond_a_line_s_counts_are_refused(name):
    for kind, (_, most) in zip(("ints", "floats", "gains"), BOUNDS[name], strict=True):
        if most is None:
            continue
        given = parameters(name)
        given[kind] = {"ints": [1], "floats": [0.5], "gains": [(1, 1.0)]}[kind] * (most + 1)
        with pytest.raises(ValueError, match=f"^{name} takes "):
            trec_family(name, batch(), **given)
