"""The guard of the numbers irscale prints or writes, and numpy's floating-point warnings
as errors (:mod:`irscale.core.numbers`; ``docs/errors.md`` §2 and §6)."""

from __future__ import annotations

import io
import json
import math
import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.cli.main import main
from irscale.core.columns import Columns
from irscale.core.edge import public
from irscale.core.inputs import Run
from irscale.core.numbers import (
    UNDEFINED,
    NumberError,
    blank,
    check_table,
    declare,
    floating_point_cause,
    floating_point_errors,
    infinite,
    power_scale,
    raising,
    standard_deviation,
    undefined,
)
from irscale.core.strings import Strings
from irscale.evaluation import evaluate
from irscale.io.output import write_results
from irscale.io.trec_write import ranked_run_text
from irscale.stats.tables import format_number, render

from .property_examples import examples

FORMATS = ("text", "csv", "markdown", "latex", "json")
#: What a non-finite number looks like once written (Python's, pandas', C's, JSON's).
LEAKS = re.compile(r"(?<![\w.])(-?nan|-?inf|NaN|-?Infinity|<NA>)(?![\w.])")


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"name": ["a", "b"], "tau": [0.5, math.nan],
                         "low": [-math.inf, 0.25], "f": [2.0, math.nan]})


# ---------------------------------------------------------------- the guard
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_undeclared_nan_or_infinity_is_a_fault(fmt):
    with pytest.raises(NumberError, match=r"'tau'.*NaN.*'b'"):
        render(_frame(), fmt)
    frame = declare(_frame(), {"tau": undefined("ties"), "f": blank("no test")})
    with pytest.raises(NumberError, match=r"'low'.*an infinity.*'a'"):
        render(frame, fmt)


def test_declared_values_are_spelt_and_the_undefined_ones_warned_once_per_cause():
    frame = declare(_frame(), {"tau": undefined("a ranking ties every item"),
                               "f": blank("the error line has no F"),
                               "low": infinite("a one-sided interval")})
    with pytest.warns(UserWarning) as caught:
        text = render(frame, "text")
    assert [str(w.message) for w in caught] == [
        "tau (1 of 2 rows) is undefined, first at 'b': a ranking ties every item"]
    row = text.splitlines()[-1].split()
    assert row == ["b", UNDEFINED, "0.2500"], text  # the blank F: an empty cell
    with pytest.warns(UserWarning):
        csv = render(frame, "csv")
    assert csv.splitlines()[1:] == ["a,0.5,-inf,2.0", "b,undefined,0.25,"]
    with pytest.warns(UserWarning):
        rows = json.loads(render(frame, "json"))
    assert rows[1] == {"name": "b", "tau": None, "low": 0.25, "f": None}
    assert rows[0]["low"] is None  # JSON has no infinity


def test_one_warning_names_every_column_of_a_cause():
    frame = declare(pd.DataFrame({"tau": [math.nan], "rbo": [math.nan]}),
                    dict.fromkeys(("tau", "rbo"), undefined("nothing to rank")))
    with pytest.warns(UserWarning) as caught:
        check_table(frame)
    assert [str(w.message) for w in caught] == ["tau, rbo are undefined: nothing to rank"]


def test_declarations_follow_the_frame_through_selections_and_renamings():
    frame = declare(_frame(), {"tau": undefined("ties"), "f": blank("no F"),
                               "low": infinite("one-sided")})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert check_table(frame[["tau", "f"]].copy().reset_index())
        assert check_table(pd.concat([frame, frame], ignore_index=True))


def test_nullable_missing_values_pass_the_guard_too():
    frame = pd.DataFrame({"n": pd.array([1, None], dtype="Int64"), "label": ["x", None]})
    with pytest.raises(NumberError, match="'n'"):
        render(frame, "text")
    text = render(declare(frame, {"n": blank("not reached")}), "text")
    assert "<NA>" not in text and UNDEFINED not in text


def test_missing_text_cells_are_blanks_whatever_the_text_type(monkeypatch):
    """A text column's missing cell (NaN among strings, as pandas before 3 keeps text in an
    object column, or None) is a blank, with or without pandas; a NaN among numbers is not."""
    for label in (np.array(["x", math.nan, None], dtype=object), pd.array(["x", None, None],
                                                                         dtype="string")):
        frame = pd.DataFrame({"label": label, "v": [1.0, 2.0, 3.0]})
        assert check_table(frame) == {}
        columns = Columns({"label": np.asarray(label, dtype=object),
                           "v": np.array([1.0, 2.0, 3.0])})
        assert check_table(columns) == {}
        with monkeypatch.context() as patch:  # the scan of a process without pandas
            patch.delitem(sys.modules, "pandas")
            assert check_table(columns) == {}
            with pytest.raises(NumberError, match="'cell'"):
                check_table(Columns({"cell": np.array(["x", 0.5, math.nan], dtype=object)}))
    mixed = pd.DataFrame({"cell": np.array(["x", 0.5, math.nan], dtype=object)})
    with pytest.raises(NumberError, match="'cell'"):
        check_table(mixed)


def _columns() -> Columns:
    return Columns({"name": ["a", "b"], "tau": [0.5, math.nan], "low": [-math.inf, 0.25],
                    "f": [2.0, math.nan], "n": [3, 4], "ok": [True, False],
                    "cell": ["0.1***", 0.5], "df": np.array([49, 48.5])})


@pytest.mark.parametrize("fmt", FORMATS)
def test_columns_render_as_their_data_frame(fmt):
    """A table of numpy columns (no pandas) passes the same guard and is written as the
    data frame of the same columns, in every format."""
    with pytest.raises(NumberError, match=r"'tau'.*NaN.*'b'"):
        render(_columns(), fmt)
    meanings = {"tau": undefined("ties"), "f": blank("no F"), "low": infinite("one-sided")}
    with pytest.warns(UserWarning) as caught:
        text = render(declare(_columns(), meanings), fmt, digits=3, title="t")
    with pytest.warns(UserWarning) as caught_frame:
        frame = render(declare(_columns().to_frame(), meanings), fmt, digits=3, title="t")
    assert text == frame
    assert [str(w.message) for w in caught] == [str(w.message) for w in caught_frame]


def test_a_nan_formatted_alone_is_undefined_never_a_blank():
    assert format_number(math.nan) == UNDEFINED
    assert format_number(None) == ""


# ---------------------------------------------------------------- extreme finite values
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
extreme = st.one_of(finite, st.sampled_from([1.7976931348623157e308, -1.7976931348623157e308,
                                             5e-324, -5e-324, 2.2250738585072014e-308,
                                             1e300, -1e-300, 0.0, -0.0]))


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(extreme, min_size=1, max_size=6), st.sampled_from(FORMATS),
       st.integers(0, 17))
def test_extreme_finite_values_are_written_as_numbers(values, fmt, digits):
    """Finite values at the ends of the doubles: every format writes a number for each,
    never ``inf``, ``nan``, ``undefined`` or an empty cell, and CSV and JSON read back the
    same values."""
    frame = pd.DataFrame({"name": [f"r{i}" for i in range(len(values))], "value": values})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = render(frame, fmt, digits=digits)
    assert not LEAKS.search(text) and UNDEFINED not in text, text
    if fmt == "csv":
        # read exactly: pandas before 3 parses floats with a fast parser that can be one
        # unit in the last place off (1.3736448352119062e+42 read as ...063e+42)
        assert pd.read_csv(io.StringIO(text), float_precision="round_trip")[
            "value"].tolist() == values
    elif fmt == "json":
        assert [row["value"] for row in json.loads(text)] == values
    elif fmt == "text":
        cells = [line.split()[1] for line in text.splitlines()[2:]]
        assert len(cells) == len(values) and all(cells), text


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(extreme, min_size=1, max_size=5))
def test_extreme_finite_scores_of_a_fused_run_are_written_as_numbers(scores):
    run = Run(name="f", topic=Strings.of(["1"] * len(scores)),
              docno=Strings.of([f"d{i}" for i in range(len(scores))]),
              score=np.asarray(scores, dtype=np.float64))
    text = ranked_run_text(run, "f").decode()
    assert not LEAKS.search(text), text
    assert [float(line.split()[4]) for line in text.splitlines()] == scores


def test_a_fused_run_with_an_infinite_score_is_never_written():
    run = Run(name="f", topic=Strings.of(["1", "1"]), docno=Strings.of(["a", "b"]),
              score=np.array([1.0, math.inf]))
    with pytest.raises(NumberError, match="scores of run 'f'"):
        ranked_run_text(run, "f")


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=4),
       st.sampled_from(("csv", "json", "markdown")))
def test_evaluations_of_huge_labels_write_numbers(labels, fmt):
    """The evaluation writers (CSV, JSON, Markdown) on qrels of any label size."""
    qrels = {"q": {f"d{i}": label for i, label in enumerate(labels)}}
    run = {"q": {f"d{i}": float(len(labels) - i) for i in range(len(labels))}}
    out = io.BytesIO()
    write_results(evaluate(qrels, run, ["P@5", "ndcg_cut_5", "map"]), out, fmt=fmt,
                  per_query=fmt != "markdown")
    text = out.getvalue().decode()
    assert not LEAKS.search(text) and UNDEFINED not in text, text


def test_an_evaluation_writes_a_measure_undefined_on_a_topic_as_undefined():
    """trec_eval's 0/0 (an empty ranking's interpolated precision with -J): ``undefined``
    in CSV, JSON null, with a warning naming the measure."""
    evaluation = evaluate({"1": {"d1": 1}}, {"1": {"d9": 1.0}}, "iprec_at_recall_0.00",
                          judged_only=True)
    out = io.BytesIO()
    with pytest.warns(UserWarning, match="iprec_at_recall_0.00 is undefined"):
        write_results(evaluation, out, fmt="csv", per_query=True)
    assert "1,iprec_at_recall_0.00,undefined" in out.getvalue().decode()
    out = io.BytesIO()
    with pytest.warns(UserWarning):
        write_results(evaluation, out, fmt="json", per_query=True)
    assert json.loads(out.getvalue())[0]["value"] is None


# ---------------------------------------------------------------- scaling
@given(st.lists(finite, min_size=2, max_size=20))
def test_the_standard_deviation_never_overflows(values):
    sd = standard_deviation(values)
    assert math.isfinite(sd)
    small = np.asarray(values) / power_scale(values)
    assert sd == float(np.std(small, ddof=1)) * power_scale(values)


def test_the_power_scale_is_exact():
    assert power_scale(np.array([0.75, -0.5])) == 0.5
    assert power_scale(np.array([1.7e308])) == 2.0**1023
    assert power_scale(np.array([0.0]), np.array([])) == 1.0


# ---------------------------------------------------------------- floating point
def test_floating_point_warnings_are_errors_inside():
    with floating_point_errors(), pytest.raises(RuntimeWarning) as info:
        np.array([1.0]) / np.array([0.0])
    assert floating_point_cause(info.value) == "divide by zero encountered in divide"
    with floating_point_errors(), np.errstate(divide="ignore"):  # meant: said locally
        assert np.isinf(np.array([1.0]) / np.array([0.0])).all()
    with raising(), pytest.raises(FloatingPointError) as caught:
        np.array([1e308]) * 10
    assert floating_point_cause(caught.value) == "overflow encountered in multiply"
    assert floating_point_cause(ValueError("overflow encountered in multiply")) is None


def test_a_public_function_raises_numpys_floating_point_errors():
    overflowing = public(lambda values: np.asarray(values) * 1e308)
    with pytest.raises(FloatingPointError, match="overflow"):
        overflowing([10.0])


def test_the_command_line_reports_a_floating_point_error_as_its_fault(monkeypatch, capsys):
    from irscale.cli import measures

    def run(args):
        return int(np.array([1e308]) * 10)

    monkeypatch.setattr(measures, "run", run)
    assert main(["measures"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("irscale: internal error: a computation failed in floating point "
                          "(overflow encountered in multiply)"), err
    assert "RuntimeWarning" not in err and len(err.splitlines()) == 1


def test_the_command_line_reports_an_undeclared_nan_as_its_fault(monkeypatch, capsys):
    from irscale.cli import measures

    def run(args):
        print(render(pd.DataFrame({"value": [math.nan]}), "text"))
        return 0

    monkeypatch.setattr(measures, "run", run)
    assert main(["measures"]) == 3
    captured = capsys.readouterr()
    assert captured.err.startswith("irscale: internal error: NumberError: column 'value'")
    assert "nan" not in captured.out.lower()
