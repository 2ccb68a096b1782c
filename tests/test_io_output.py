"""Output writers: printf-exact number formatting and trec_eval's layout (the engine's
lines, ``rust/src/output``, checked against line-by-line formatting in Python and C)."""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import io
import json
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale import _engine
from irscale.errors import ParameterError
from irscale.evaluation import evaluate
from irscale.io import output
from irscale.io.output import write_results

_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)


def c_printf(value: float, spec: bytes = b"%6.4f") -> str:
    """The C library's own formatting (the oracle trec_eval's output comes from)."""
    buffer = ctypes.create_string_buffer(512)  # %f of a double has at most 309 + 6 digits
    _LIBC.snprintf(buffer, 512, spec, ctypes.c_double(value))
    return buffer.value.decode()


def engine_fixed(values) -> list[str]:
    """The engine's ``%6.4f`` of every value (a summary line's value field)."""
    text = _engine.trec_summary_lines([("m", "float", "mean", float(v)) for v in values], b"")
    return [line.split("\t")[2] for line in text.decode().splitlines()]


@given(st.lists(st.floats(allow_nan=False, allow_infinity=True, width=64), max_size=50))
def test_engine_fixed_matches_python_and_c_printf(values):
    """Python's ``6.4f`` formatting is correctly rounded (the exact binary value, ties to
    even), as glibc's printf: two independent oracles of the engine's own formatting."""
    assert engine_fixed(values) == [f"{v:6.4f}" for v in values]
    assert engine_fixed(values) == [c_printf(v) for v in values]


def test_signed_nan_and_zero_print_as_glibc():
    values = [math.nan, -math.nan, math.copysign(math.nan, -1.0), -0.0, -1e-9, 0.0]
    assert engine_fixed(values) == [c_printf(v) for v in values]
    assert engine_fixed(values)[2:] == ["  -nan", "-0.0000", "-0.0000", "0.0000"]


@given(st.lists(st.integers(-200_000, 200_000), max_size=50))
def test_engine_fixed_on_half_way_values(numerators):
    values = [k / 160_000 for k in numerators]  # many exact binary ties
    assert engine_fixed(values) == [f"{v:6.4f}" for v in values]


QRELS = {"1": {"a": 1, "b": 0}, "2": {"a": 1, "c": 1}}
RUN = {"1": {"a": 2.0, "b": 1.0}, "2": {"c": 1.0, "z": 3.0}}


def test_trec_layout():
    ev = evaluate(QRELS, {"sys": RUN}, ["map", "num_ret", "P.1"])
    out = io.BytesIO()
    write_results(ev, out, per_query=True)
    assert out.getvalue().decode().splitlines() == [
        "num_ret               \t1\t2",
        "map                   \t1\t1.0000",
        "P_1                   \t1\t1.0000",
        "num_ret               \t2\t2",
        "map                   \t2\t0.2500",
        "P_1                   \t2\t0.0000",
        "num_ret               \tall\t4",
        "map                   \tall\t0.6250",
        "P_1                   \tall\t0.5000",
    ]


def test_several_runs_name_the_run_on_every_trec_line():
    """With several runs every line ends with a tab and its run; without that field each
    run's lines are exactly its own single-run (trec_eval) output."""
    runs = {"sys": RUN, "other": {"1": {"a": 1.0}, "2": {"c": 3.0, "a": 1.0}}}
    measures = ["runid", "num_q", "map", "num_ret", "relstring", "P.1", "gm_map"]
    both = evaluate(QRELS, runs, measures)
    text = output.trec_text(both, per_query=True).decode()
    lines = [line.split("\t") for line in text.splitlines()]
    assert {len(fields) for fields in lines} == {4}
    assert lines[0] == ["num_ret               ", "1", "2", "sys"]
    assert ["runid                 ", "all", "other", "other"] in lines
    for name in runs:
        alone = evaluate(QRELS, {name: runs[name]}, measures)
        own = "".join("\t".join(fields[:3]) + "\n" for fields in lines if fields[3] == name)
        assert own.encode() == output.trec_text(alone, per_query=True)
        single = output.trec_text(alone, per_query=True).decode().splitlines()
        assert {len(line.split("\t")) for line in single} == {3}
    # the other formats carry the run in a column of their own
    for fmt in ("csv", "json", "markdown"):
        out = io.BytesIO()
        write_results(both, out, fmt=fmt, per_query=True)
        assert "other" in out.getvalue().decode() and "sys" in out.getvalue().decode()
    out = io.BytesIO()
    write_results(both, out, fmt="json", per_query=True)
    assert {row["run"] for row in json.loads(out.getvalue())} == {"sys", "other"}


def test_run_names_that_cannot_be_a_trec_field():
    ev = evaluate(QRELS, {"a\tb": RUN, "c": RUN}, ["map"])
    with pytest.raises(ParameterError, match="tab or a line break"):
        output.trec_text(ev)
    out = io.BytesIO()
    write_results(ev, out, fmt="csv")  # the other formats can hold it
    assert "a\tb,all,map,0.625" in out.getvalue().decode()


def test_json_and_csv():
    ev = evaluate(QRELS, {"sys": RUN}, ["AP", "P@1"])
    out = io.BytesIO()
    write_results(ev, out, fmt="json", per_query=True)
    rows = json.loads(out.getvalue())
    assert {"run": "sys", "topic": "all", "measure": "AP", "value": 0.625} in rows
    out = io.BytesIO()
    write_results(ev, out, fmt="csv")
    assert out.getvalue().decode().splitlines()[0] == "run,topic,measure,value"


# ---------------------------------------------------------------- per-topic lines as bytes
def printf_6_4(value: float) -> str:
    """``%6.4f`` as trec_eval prints it (glibc's ``-nan`` for NaN with its sign bit set)."""
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(6)
    return f"{value:6.4f}"


def reference_lines(labels, topics, cells, suffixes=None) -> bytes:
    """Line by line: ``cells[i][j]`` is the value text of topic ``i`` and column ``j``;
    ``suffixes[i]`` ends the lines of topic ``i`` (default nothing)."""
    suffixes = [""] * len(topics) if suffixes is None else suffixes
    return "".join(f"{label:<22}\t{topic}\t{text}{suffix}\n"
                   for topic, row, suffix in zip(topics, cells, suffixes, strict=True)
                   for label, text in zip(labels, row, strict=True)).encode()


FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.floats(0.0, 10.0),
    st.integers(0, 220_000).map(lambda k: k / 20_000),  # ties of the 5th decimal
    st.integers(-4_000, 4_000).map(lambda k: k / 32),  # exact binary ties
    st.sampled_from([0.0, -0.0, 1.0, 0.5e-4, 1.5e-4, 9.99995, 9.999949999, 10.0, 99999.5,
                     math.nan, -math.nan, math.copysign(math.nan, -1.0), math.inf,
                     -math.inf, -84.0, 1e300]),
)
TOPICS = st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
                          min_size=1, max_size=20), min_size=1, max_size=12, unique=True)


@given(TOPICS, st.lists(st.text(min_size=0, max_size=30), min_size=1, max_size=6),
       st.data())
def test_engine_lines_match_per_line_formatting(topics, labels, data):
    """The engine's per-topic lines of float columns, topic by topic, with any suffix."""
    values = np.array(data.draw(st.lists(FLOATS, min_size=len(topics) * len(labels),
                                         max_size=len(topics) * len(labels))),
                      dtype=np.float64).reshape(len(topics), len(labels))
    suffix = data.draw(st.sampled_from(["", "\t", "\tr", "\tKDEIR_EN_Run1", "\tété 2"]))
    encoded = [t.encode() for t in topics]
    offsets = np.cumsum([0] + [len(e) for e in encoded]).astype(np.int64)
    text = _engine.trec_lines([(label, "float") for label in labels],
                              [np.ascontiguousarray(values[:, j]) for j in range(len(labels))],
                              np.arange(len(topics), dtype=np.int64), b"".join(encoded),
                              offsets, suffix.encode())
    cells = [[printf_6_4(v) for v in row] for row in values.tolist()]
    assert text == reference_lines(labels, topics, cells, [suffix] * len(topics))


@given(TOPICS, st.data())
def test_per_topic_writer_matches_per_line_formatting(topics, data):
    qrels = {t: {"d1": 1, "d2": 0} for t in topics}
    runs = {"sys": {t: {"d1": 1.0, "d2": 2.0} for t in topics},
            "other": {t: {"d2": 1.0} for t in topics[::2]}}
    ev = evaluate(qrels, runs, ["num_ret", "map", "relstring", "P.5", "utility", "num_rel"])
    n = ev.rankings.n_rankings
    values = {}
    for column in ev.columns:
        if column.value_type == "int":
            draw = st.integers(-(2**63), 2**63 - 1)
            values[column.label] = np.array(data.draw(st.lists(draw, min_size=n, max_size=n)),
                                            dtype=np.int64)
        elif column.value_type == "str":
            values[column.label] = np.array(
                data.draw(st.lists(st.text(st.characters(min_codepoint=33, max_codepoint=126),
                                           max_size=12), min_size=n, max_size=n)), dtype=object)
        else:
            values[column.label] = np.array(data.draw(st.lists(FLOATS, min_size=n, max_size=n)),
                                            dtype=np.float64)
    ev = dataclasses.replace(ev, values=values)
    columns = [c for c in ev.columns if c.per_query]
    cells = [[(f"'{values[c.label][i]}'" if c.value_type == "str"
               else str(values[c.label][i]) if c.value_type == "int"
               else printf_6_4(values[c.label][i])) for c in columns] for i in range(n)]
    # two runs: every line ends with a tab and its run
    suffixes = ["\t" + run for run in ev.rankings.run_labels]
    expected = reference_lines([c.label for c in columns], ev.rankings.topic_labels, cells,
                               suffixes)
    chunk_lines = data.draw(st.sampled_from([1, 7, 25, output.CHUNK_LINES]))
    with mock.patch.object(output, "CHUNK_LINES", chunk_lines):
        out = io.BytesIO()
        write_results(ev, out, per_query=True, summary=False)
        assert out.getvalue() == expected
        chunks = list(output.iter_trec(ev, per_query=True, summary=False))
        assert all(isinstance(chunk, bytes) for chunk in chunks)
        assert b"".join(chunks) == expected
        assert output.trec_text(ev, per_query=True, summary=False) == expected
