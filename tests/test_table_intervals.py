"""``--ci`` on the tables of ``scale transform``, ``meta reproduce`` and ``meta
informativeness`` (and their APIs): every t interval equals scipy's ``t.interval`` on the
per-topic (per-list) values, every bootstrap percentile interval agrees with scipy's
``bootstrap(method="percentile")`` within the Monte Carlo error, in every format."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.meta import informativeness, reproducibility

from .conftest import CLEF, pytrec_per_topic, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

RUNS = ("GUIR_EN_Run1", "GUIR_EN_Run2", "InfoLab_EN_Run1", "InfoLab_EN_Run2")


def _t(x: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    return stats.t.interval(1 - alpha, len(x) - 1, loc=x.mean(), scale=stats.sem(x))


def _bootstrap(x: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    found = stats.bootstrap((x,), np.mean, n_resamples=20_000, method="percentile",
                           confidence_level=1 - alpha, random_state=11).confidence_interval
    return found.low, found.high


def _close(got: tuple[float, float], expected: tuple[float, float], x: np.ndarray) -> None:
    """Within 10% of the standard error of the mean: with 20,000 samples each, the Monte
    Carlo error of the difference of two bootstraps' 2.5% quantiles is about 3% of it."""
    spread = x.std(ddof=1) / np.sqrt(len(x))
    assert got == pytest.approx(expected, abs=0.1 * spread)


def _run(argv: list[str], capsys) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def clef_runs():
    clef = require(CLEF)
    paths = [str(clef / "runs" / f"{run}.txt") for run in RUNS]
    _, found = pytrec_per_topic(clef / "task2.qrels", paths, {"map", "P_10"})
    return clef, paths, found


# ------------------------------------------------------------------ scale transform
def test_scale_transform_t_and_bootstrap_intervals(clef_runs, capsys):
    """The means of M and M_R with scipy's intervals of the per-topic values the command
    prints (P_10's equal to pytrec_eval's)."""
    clef, paths, found = clef_runs
    base = ["scale", "transform", str(clef / "task2.qrels"), *paths[:2], "-m", "P_10",
            "-N", "10"]
    values = pd.read_csv(io.StringIO(_run([*base, "--format", "csv", "-n"], capsys)))
    runs = list(dict.fromkeys(values["run"]))
    for run, per_topic in zip(runs, found[:2], strict=True):  # M is pytrec_eval's P_10
        mine = values[(values.run == run) & (values.measure == "P_10")]
        assert dict(zip(mine.topic.astype(str), mine.value, strict=True)) == pytest.approx(
            {t: v["P_10"] for t, v in per_topic.items()}, abs=1e-12)
    t_rows = pd.read_csv(io.StringIO(_run([*base, "--ci", "t", "--alpha", "0.1",
                                           "--format", "csv"], capsys)))
    boot = json.loads(_run([*base, "--ci", "bootstrap", "--ci-samples", "20000",
                            "--ci-seed", "2", "--format", "json"], capsys))
    assert len(t_rows) == len(boot) == 4  # two runs × (P_10, P_10_R)
    for row, other in zip(t_rows.itertuples(), boot, strict=True):
        x = values[(values.run == row.run) & (values.measure == row.measure)]["value"]
        x = x.to_numpy(np.float64)
        assert row.mean == pytest.approx(x.mean(), abs=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx(_t(x, 0.1), abs=1e-12)
        assert (other["run"], other["measure"]) == (row.run, row.measure)
        _close((other["ci_low"], other["ci_high"]), _bootstrap(x), x)
    markdown = _run([*base, "--ci", "t", "--format", "markdown"], capsys)
    assert "| run | measure | mean | ci_low | ci_high |" in markdown
    assert "P_10_R01 (rescale=True" in markdown  # the legend still follows the table


# ------------------------------------------------------------------ meta reproduce
def test_reproducibility_intervals_api():
    rng = np.random.default_rng(4)
    four = [rng.random(25) for _ in range(4)]
    result = reproducibility(*four)
    frame = result.to_frame(interval="t", alpha=0.1)
    roles = ("original_baseline", "original_advanced", "reproduced_baseline",
             "reproduced_advanced")
    assert list(frame.columns[1:13]) == [f"{r}{end}" for r in roles
                                          for end in ("", "_low", "_high")]
    boot = result.to_frame(interval="bootstrap", samples=20_000, rng=5)
    for role, x in zip(roles, four, strict=True):
        row = frame.iloc[0]
        assert (row[f"{role}_low"], row[f"{role}_high"]) == pytest.approx(_t(x, 0.1))
        _close((boot.iloc[0][f"{role}_low"], boot.iloc[0][f"{role}_high"]), _bootstrap(x), x)
    # a replication: each pair over its own topics
    other = reproducibility(four[0], four[1], four[2][:12], four[3][:12])
    row = other.to_frame(interval="t").iloc[0]
    assert (row["reproduced_advanced_low"], row["reproduced_advanced_high"]) == \
        pytest.approx(_t(four[3][:12]))
    assert list(result.to_frame().columns) == list(result.table.columns)  # none asked


def test_meta_reproduce_command_line(clef_runs, capsys):
    clef, paths, found = clef_runs
    names = list(RUNS)  # the files' stems
    base = ["meta", "reproduce", str(clef / "task2.qrels"), *paths, "-m", "map",
            "--original", ",".join(names[:2]), "--reproduced", ",".join(names[2:]),
            "--depth", "10"]
    row = pd.read_csv(io.StringIO(_run([*base, "--ci", "t", "--format", "csv"],
                                       capsys))).iloc[0]
    for role, per_topic in zip(("original_baseline", "original_advanced",
                                "reproduced_baseline", "reproduced_advanced"), found,
                               strict=True):
        x = np.array([per_topic[t]["map"] for t in sorted(per_topic)])
        assert row[role] == pytest.approx(x.mean(), abs=1e-12)
        assert (row[f"{role}_low"], row[f"{role}_high"]) == pytest.approx(_t(x), abs=1e-12)
    boot = json.loads(_run([*base, "--ci", "bootstrap", "--ci-samples", "20000",
                            "--ci-seed", "1", "--alpha", "0.1", "--format", "json"],
                           capsys))[0]
    x = np.array([found[0][t]["map"] for t in sorted(found[0])])
    _close((boot["original_baseline_low"], boot["original_baseline_high"]),
           _bootstrap(x, 0.1), x)
    for fmt, needle in (("text", "95% t intervals over topics"),
                        ("markdown", "| original_baseline_low |"),
                        ("latex", "original\\_baseline\\_low")):
        assert needle in _run([*base, "--ci", "t", "--format", fmt], capsys)


# ------------------------------------------------------------------ meta informativeness
def test_informativeness_intervals_api():
    rng = np.random.default_rng(8)
    lists = [(rng.random(30) < 0.3).astype(float) for _ in range(40)]
    lists = [x for x in lists if x.sum()]
    result = informativeness(lists, measures=["AP", "P@10"])
    table = result.to_frame()
    found = result.intervals("t", alpha=0.1)
    boot = result.intervals("bootstrap", samples=20_000, rng=3)
    assert list(found.columns) == ["measure", "mean_rms_error", "lists", "ci_low", "ci_high"]
    for row, again in zip(found.itertuples(), boot.itertuples(), strict=True):
        x = table[table.measure == row.measure]["rms_error"].to_numpy()
        assert row.mean_rms_error == pytest.approx(x.mean())
        assert (row.ci_low, row.ci_high) == pytest.approx(_t(x, 0.1))
        _close((again.ci_low, again.ci_high), _bootstrap(x), x)


def test_meta_informativeness_command_line(clef_runs, capsys):
    clef, paths, _ = clef_runs
    base = ["meta", "informativeness", str(clef / "task2.qrels"), paths[0], "--depth", "50",
            "-m", "AP", "-m", "P@10"]
    lists = pd.read_csv(io.StringIO(_run([*base, "--per-list", "--format", "csv"], capsys)))
    rows = json.loads(_run([*base, "--ci", "t", "--format", "json"], capsys))
    assert [row["measure"] for row in rows] == ["AP", "P@10"]
    for row in rows:
        x = lists[lists.measure == row["measure"]]["rms_error"].to_numpy()
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(_t(x), abs=1e-12)
    for fmt, needle in (("text", "95% t intervals over lists"), ("markdown", "| ci_low |"),
                        ("latex", "ci\\_low"), ("csv", "ci_low,ci_high")):
        assert needle in _run([*base, "--ci", "t", "--format", fmt], capsys)


def test_api_refusals():
    from dataclasses import replace

    from irscale.errors import ParameterError

    result = reproducibility([0.1, 0.4, 0.3], [0.2, 0.5, 0.5], [0.1, 0.3, 0.2],
                             [0.3, 0.4, 0.6])
    with pytest.raises(ParameterError, match="must be one of"):
        result.to_frame(interval="normal")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="alpha"):
        result.to_frame(interval="t", alpha=1.5)
    with pytest.raises(ParameterError, match="no per-topic scores"):
        replace(result, scores=()).to_frame(interval="t")
    lists = informativeness([[1, 0, 1, 0], [0, 1, 1, 0]], measures=["P@2"])
    with pytest.raises(ParameterError, match="must be one of"):
        lists.intervals("normal")  # type: ignore[arg-type]
