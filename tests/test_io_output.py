"""Output writers: printf-exact number formatting and trec_eval's layout."""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import json

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from irscale.evaluation import evaluate
from irscale.io.output import format_fixed, write_results

_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)


def c_printf(value: float, spec: bytes = b"%6.4f") -> str:
    """The C library's own formatting (the oracle trec_eval's output comes from)."""
    buffer = ctypes.create_string_buffer(512)  # %f of a double has at most 309 + 6 digits
    _LIBC.snprintf(buffer, 512, spec, ctypes.c_double(value))
    return buffer.value.decode()


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=50))
def test_format_fixed_matches_c_printf(values):
    array = np.array(values, dtype=np.float64)
    assert format_fixed(array).to_pylist() == [c_printf(v, b"%.4f") for v in values]
    assert format_fixed(array, width=6).to_pylist() == [c_printf(v) for v in values]


def test_signed_nan_prints_as_glibc():
    values = np.array([np.nan, -np.nan, np.float64(0.0) / np.float64(1.0)])
    assert format_fixed(values, width=6).to_pylist() == [c_printf(v) for v in values]


@given(st.lists(st.integers(0, 200_000), max_size=50))
def test_format_fixed_on_half_way_values(numerators):
    values = np.array(numerators, dtype=np.float64) / 160_000  # many exact binary ties
    assert format_fixed(values).to_pylist() == [c_printf(v, b"%.4f") for v in values]


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


def test_json_and_csv():
    ev = evaluate(QRELS, {"sys": RUN}, ["AP", "P@1"])
    out = io.BytesIO()
    write_results(ev, out, fmt="json", per_query=True)
    rows = json.loads(out.getvalue())
    assert {"run": "sys", "topic": "all", "measure": "AP", "value": 0.625} in rows
    out = io.BytesIO()
    write_results(ev, out, fmt="csv")
    assert out.getvalue().decode().splitlines()[0] == "run,topic,measure,value"
