"""``irscale scale image | transform | table``."""

from __future__ import annotations

import csv
import io
import json

import pytest

from irscale.cli.main import main


def run_cli(args, capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_image_json_shape(capsys):
    data = json.loads(run_cli(["scale", "image", "-m", "DCG_b02", "-N", "4", "--format",
                               "json", "--no-progress"], capsys))
    assert list(data) == ["measure", "N", "levels", "n_runs", "n_distinct", "values", "phi"]
    assert data["measure"] == "DCG_b02" and data["N"] == 4 and data["levels"] == 2
    assert data["n_runs"] == 16 and data["n_distinct"] == 12
    assert data["phi"] == list(range(1, 13))
    assert data["values"][-1] == pytest.approx(3.1309, abs=1e-4)


def test_image_json_omits_large_value_lists(capsys):
    data = json.loads(run_cli(["scale", "image", "-m", "RBP_p08", "-N", "30", "--levels", "2",
                               "--format", "json", "--no-progress"], capsys))
    assert data["n_distinct"] == 2**30 and data["values"] is None and data["phi"] is None
    graded = json.loads(run_cli(["scale", "image", "-m", "RR", "-N", "5", "--levels", "3",
                                 "--format", "json", "--values-limit", "2", "--all-values"],
                                capsys))
    assert graded["n_runs"] == 3**5 and len(graded["values"]) == 6


def test_image_text_and_csv(capsys, tmp_path):
    out = run_cli(["scale", "image", "-m", "AP", "-N", "4", "-o", str(tmp_path / "a.csv")],
                  capsys)
    assert "15 distinct values over 16 runs" in out and "ordinal_rbto: False" in out
    rows = list(csv.DictReader(open(tmp_path / "a.csv")))
    assert len(rows) == 15 and rows[-1]["phi"] == "15" and float(rows[-1]["value"]) == 1.0
    assert sum(int(r["n_runs"]) for r in rows) == 16
    table = run_cli(["scale", "image", "-m", "P", "-N", "3", "--format", "csv"], capsys)
    assert table.splitlines() == ["value,phi,n_runs", "0.0,1,1", "0.3333333333333333,2,3",
                                  "0.6666666666666666,3,3", "1.0,4,1"]


def test_image_feasible_recall_base(capsys):
    data = json.loads(run_cli(["scale", "image", "-m", "RBTO", "-N", "5", "--levels", "3",
                               "--recall-base", "1,1", "--feasible", "--format", "json"],
                              capsys))
    assert data["n_runs"] == 1 + 5 + 5 + 20 and data["n_distinct"] == data["n_runs"]


def write_inputs(tmp_path):
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n")
    run = tmp_path / "r.txt"
    run.write_text("1 Q0 a 1 3.0 sys\n1 Q0 b 2 2.0 sys\n1 Q0 c 3 1.0 sys\n2 Q0 x 1 1.0 sys\n")
    return str(qrels), str(run)


def test_transform_formats(capsys, tmp_path):
    qrels, run = write_inputs(tmp_path)
    trec = run_cli(["scale", "transform", qrels, run, "-m", "P", "-m", "RR", "-N", "3"],
                   capsys)
    lines = [line.split("\t") for line in trec.splitlines()]
    assert ["P_R                   ", "1", "3.0000"] in lines  # (1,0,1): 2 relevant → φ = 3
    assert ["RR_R                  ", "2", "4.0000"] in lines  # first relevant at 1: N+1
    assert ["P_R                   ", "all", "2.5000"] in lines  # mean of 3 and 2
    rows = list(csv.DictReader(io.StringIO(run_cli(
        ["scale", "transform", qrels, run, "-m", "AP", "-N", "3", "--format", "csv",
         "--ranked-only", "--rescale"], capsys))))
    assert {r["measure"] for r in rows} == {"AP_R01"}
    values = {r["topic"]: float(r["value"]) for r in rows}
    # topic 1: (1,0,1), AP·RB = 1 + 2/3; topic 2: (1,0,0), AP·RB = 1; the best run is (1,1,1)
    assert 0 < values["2"] < values["1"] < 1
    data = json.loads(run_cli(["scale", "transform", qrels, run, "-m", "DCG_b10", "-N", "5",
                               "--format", "json", "--levels", "3"], capsys))
    assert {d["measure"] for d in data} == {"DCG_b10", "DCG_b10_R"}


def test_transform_says_what_m_r_is(capsys, tmp_path, monkeypatch):
    """Markdown (a document) explains M_R under its table; trec, csv and json keep their
    lines as parsers read them, the legend going to standard error at a terminal only."""
    qrels, run = write_inputs(tmp_path)
    argv = ["scale", "transform", qrels, run, "-m", "P", "-N", "3"]
    # P on {0,1}^3: values 0, 1/3, 2/3, 1, so φ runs from 1 to 4
    legend = ("P_R = φ: the rank of a topic's P among the P values of runs of length 3 (1 = "
              "the lowest; φ from 1 to 4, ties unq); rescaled to [0, 1]: P_R01 "
              "(rescale=True, --rescale)")
    assert run_cli([*argv, "--format", "markdown"], capsys).endswith(f"\n*{legend}*\n")
    assert main(argv) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and all(len(line.split("\t")) == 3
                                   for line in quiet.out.splitlines())
    monkeypatch.setattr("irscale.cli.scale.at_terminal", lambda args: True)
    assert main([*argv, "--rescale"]) == 0
    shown = capsys.readouterr()
    phi = {(topic, value) for measure, topic, value in map(str.split, quiet.out.splitlines())
           if measure == "P_R"}
    assert phi == {("1", "3.0000"), ("2", "2.0000"), ("all", "2.5000")}
    rescaled = {(topic, value) for measure, topic, value in map(str.split,
                                                                 shown.out.splitlines())
                if measure == "P_R01"}
    assert rescaled == {("1", "0.6667"), ("2", "0.3333"), ("all", "0.5000")}  # (φ − 1)/3
    assert "irscale: P_R01 = (φ − φ_min)/(φ_max − φ_min) in [0, 1], φ the rank of a topic's " \
        "P among the P values of runs of length 3 (from 1 to 4, ties unq)" in shown.err


def test_table(capsys, tmp_path):
    qrels, run = write_inputs(tmp_path)
    run2 = tmp_path / "r2.txt"
    run2.write_text("1 Q0 b 1 3.0 other\n1 Q0 a 2 2.0 other\n2 Q0 y 1 1.0 other\n")
    out = run_cli(["scale", "table", qrels, run, str(run2), "-m", "P", "-m", "AP", "-N", "2,3",
                   "--format", "csv", "--no-progress"], capsys)
    assert out.splitlines()[0] == "N,P,AP"
    assert out.splitlines()[1].startswith("2,1.0")


def test_errors_are_reported(capsys):
    assert main(["scale", "image", "-m", "NoSuchMeasure", "-N", "3"]) == 2
    assert "unknown measure" in capsys.readouterr().err
    assert main(["scale", "image", "-m", "P", "-N", "0"]) == 2
