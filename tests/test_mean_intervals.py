"""The interval of every mean (irscale.core.mean_intervals, Evaluation.intervals, irscale
eval --ci): the t interval equals scipy's ``t.interval`` on pytrec_eval's per-topic values;
the bootstrap percentile interval agrees with scipy's ``bootstrap(method="percentile")``
within the Monte Carlo error; the command line prints the API's table (JSON: scipy's
intervals) and the LaTeX cells carry the intervals."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import irscale
import irscale.core.progress as progress_module
from irscale.cli.main import main
from irscale.core.mean_intervals import BLOCK, mean_intervals, resampled_means
from irscale.errors import MeasureError, ParameterError

from .conftest import CLEF, pytrec_per_topic, require
from .oracle_imports import lazy_import
from .test_progress import Seconds

stats = lazy_import("scipy.stats")


@pytest.fixture(scope="module")
def clef_values():
    clef = require(CLEF)
    paths = sorted(str(p) for p in (clef / "runs").iterdir())[:3]
    _, found = pytrec_per_topic(clef / "task2.qrels", paths, {"map", "P_10"})
    values = {path: {m: np.array([f[t][m] for t in sorted(f)]) for m in ("map", "P_10")}
              for path, f in zip(paths, found, strict=True)}
    return clef, paths, values


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_t_intervals_equal_scipy(clef_values, alpha):
    clef, paths, values = clef_values
    ev = irscale.evaluate(clef / "task2.qrels", paths, ["map", "P.10"])
    table = ev.intervals("t", alpha=alpha)
    names = dict(zip(ev.runs, paths, strict=True))
    for row in table.itertuples():
        x = values[names[row.run]][row.measure]
        low, high = stats.t.interval(1 - alpha, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert row.mean == pytest.approx(x.mean(), abs=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high), abs=1e-12)


def test_bootstrap_intervals_agree_with_scipy(clef_values):
    clef, paths, values = clef_values
    ev = irscale.evaluate(clef / "task2.qrels", paths, ["map"])
    table = ev.intervals("bootstrap", samples=20_000, rng=3)
    names = dict(zip(ev.runs, paths, strict=True))
    for row in table.itertuples():
        x = values[names[row.run]][row.measure]
        theirs = stats.bootstrap((x,), np.mean, n_resamples=20_000, method="percentile",
                                 random_state=5).confidence_interval
        spread = x.std(ddof=1) / np.sqrt(len(x))  # the standard error of the mean
        assert row.ci_low == pytest.approx(theirs.low, abs=0.05 * spread)
        assert row.ci_high == pytest.approx(theirs.high, abs=0.05 * spread)
    again = ev.intervals("bootstrap", samples=20_000, rng=3)
    pd.testing.assert_frame_equal(table, again)  # a seed gives the same draws


def test_refusals():
    ev = irscale.evaluate({"1": {"a": 1}, "2": {"b": 1}}, {"r": {"1": {"a": 1.0}}},
                          ["map", "num_q"])
    with pytest.raises(ParameterError, match="must be one of"):
        ev.intervals("normal")
    with pytest.raises(ParameterError, match="alpha"):
        ev.intervals(alpha=2)
    only = irscale.evaluate({"1": {"a": 1}}, {"r": {"1": {"a": 1.0}}}, ["num_q"])
    with pytest.raises(MeasureError, match="per-topic values"):
        only.intervals()
    low, high = mean_intervals(np.array([[0.5]]))
    assert np.isnan(low).all() and np.isnan(high).all()  # one topic: no interval


def test_the_rest_is_stated_in_samples_measured_on_the_first_blocks(capsys, monkeypatch):
    """The time of the rest of the bootstrap is the one mechanism's
    (:func:`irscale.core.progress.counted_work`), in the declared units of ``--ci-samples``:
    CPU time measured on the blocks after the first once a second of them is done, never a
    clock read beside the loop. A clock of the test advances half a second a block."""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")  # (the bar; the statement is forced)
    monkeypatch.setattr(progress_module, "notice",
                        lambda text, **_: sys.stderr.write(f"irscale: {text}\n"))
    cpu = Seconds()
    monkeypatch.setattr(progress_module.time, "process_time", cpu)

    def block(count: int) -> np.ndarray:
        cpu.now += 0.5
        return np.zeros((count, 1))

    resampled_means(23 * BLOCK, 1, block)
    # 1 s for the blocks 2 and 3 (4,000 samples), then 40,000 samples left
    assert capsys.readouterr().err == (
        "irscale: the bootstrap means of 1 column(s): 40,000 more samples (--ci-samples) "
        "at 250 µs each (measured), about 10 s\n")


def test_command_line_csv_and_latex(clef_values, tmp_path, capsys):
    clef, paths, _ = clef_values
    out = tmp_path / "ci.csv"
    assert main(["eval", str(clef / "task2.qrels"), *paths, "-m", "map", "--ci", "t",
                 "--alpha", "0.1", "--format", "csv", "-o", str(out)]) == 0
    printed = pd.read_csv(out)
    expected = irscale.evaluate(clef / "task2.qrels", paths, ["map"]).intervals(alpha=0.1)
    assert printed["ci_low"].tolist() == pytest.approx(expected["ci_low"].tolist())
    assert main(["eval", str(clef / "task2.qrels"), *paths, "-m", "map", "--ci", "t",
                 "--format", "latex"]) == 0
    text = capsys.readouterr().out
    at_95 = irscale.evaluate(clef / "task2.qrels", paths, ["map"]).intervals()
    low = at_95.iloc[0]["ci_low"]
    assert "95\\% t interval" in text
    assert f"{{\\scriptsize [{low:.4f}," in text


def test_command_line_markdown_carries_scipy_intervals(clef_values, capsys):
    """``--ci t --format markdown``: a table whose rows hold each run's mean and its t
    interval, equal to scipy's on pytrec_eval's per-topic values."""
    from scipy import stats

    clef, paths, values = clef_values
    assert main(["eval", str(clef / "task2.qrels"), *paths, "-m", "map", "--ci", "t",
                 "--format", "markdown"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
            for line in lines[2:]]
    assert len(rows) == len(paths)
    for row, path in zip(rows, paths, strict=True):
        x = values[path]["map"]
        low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert float(row["ci_low"]) == pytest.approx(low, abs=1e-4)
        assert float(row["ci_high"]) == pytest.approx(high, abs=1e-4)


def test_command_line_json_carries_scipy_intervals(clef_values, capsys):
    """``--ci t --format json``: one object a run and measure, its interval scipy's on
    pytrec_eval's per-topic values."""
    clef, paths, values = clef_values
    assert main(["eval", str(clef / "task2.qrels"), *paths, "-m", "map", "-m", "P_10",
                 "--ci", "t", "--alpha", "0.1", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2 * len(paths)
    found = {(row["run"], row["measure"]): row for row in rows}
    names = [row["run"] for row in rows][::2]
    for name, path in zip(names, paths, strict=True):
        for measure in ("map", "P_10"):
            x = values[path][measure]
            low, high = stats.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
            row = found[(name, measure)]
            assert row["mean"] == pytest.approx(x.mean(), abs=1e-12)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-12)


def test_complete_counts_every_qrels_topic(clef_values, tmp_path, capsys):
    """``-c --ci t``: the interval of trec_eval's ``-c`` mean, every qrels topic the run has
    no line for counted 0 (the interval was of the retrieved topics' mean)."""
    clef, paths, _ = clef_values
    every = open(paths[0]).readlines()
    kept = {line.split()[0] for line in every[:1]} | {every[-1].split()[0]}
    lines = [line for line in every if line.split()[0] in kept]  # two topics
    part = tmp_path / "part.run"
    part.write_text("".join(lines))
    qrels: dict[str, dict[str, int]] = {}
    for line in open(clef / "task2.qrels"):
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    for line in lines:
        t, _, d, _, s, _ = line.split()
        run.setdefault(t, {})[d] = float(s)
    found = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    x = np.zeros(len(qrels))
    x[:len(found)] = [found[t]["map"] for t in found]
    assert 0 < len(found) < len(qrels)
    assert main(["eval", str(clef / "task2.qrels"), str(part), "-m", "map", "-c", "--ci", "t",
                 "--format", "csv"]) == 0
    row = pd.read_csv(io.StringIO(capsys.readouterr().out)).iloc[0]
    low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert row["mean"] == pytest.approx(x.mean(), abs=1e-12)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-12)


def test_eval_many_and_to_frame(clef_values, tmp_path):
    """``irscale eval-many --ci t`` and ``to_frame(interval="t")``: scipy's intervals on
    pytrec_eval's values."""
    clef, paths, values = clef_values
    out = tmp_path / "many.csv"
    assert main(["eval-many", str(clef / "task2.qrels"), *paths, "-m", "map", "-m", "P.10",
                 "--ci", "t", "--alpha", "0.1", "--format", "csv", "-o", str(out)]) == 0
    printed = pd.read_csv(out)
    frame = irscale.evaluate(clef / "task2.qrels", paths, ["map", "P.10"]).to_frame(
        interval="t", alpha=0.1)
    for (path, measure), row, api in zip(
            [(p, m) for p in paths for m in ("map", "P_10")], printed.itertuples(),
            frame.dropna(subset=["ci_low"]).itertuples(), strict=True):
        x = values[path][measure]
        low, high = stats.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert row.measure == api.measure == measure
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high), abs=1e-12)
        assert (api.ci_low, api.ci_high) == pytest.approx((low, high), abs=1e-12)
