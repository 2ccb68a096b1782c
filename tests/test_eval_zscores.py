"""``irscale eval -Z`` against trec_eval 9.0.8's ``-Z`` output, frozen in
``tests/fixtures/zscores`` (``tests/fixtures/make_zscores.py`` writes it with the trec_eval
binary and says how to regenerate it), and ``evaluate(zscores=...)`` against a z-score
computed here from the Z file's text and the plain evaluation."""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from irscale import evaluate
from irscale.io.zscores import read_zscores

from .test_cli_eval import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ZSCORES = FIXTURES / "zscores"
REFERENCE = FIXTURES / "reference"
QRELS = str(REFERENCE / "qrels.txt")
GENERATOR = FIXTURES / "make_zscores.py"


def _generator():
    spec = importlib.util.spec_from_file_location("make_zscores", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _generator()
CASES = [(option, run) for option in MAKE.OPTIONS for run in MAKE.RUNS]


@pytest.mark.parametrize(("option", "run"), CASES, ids=[f"{o}-{r}" for o, r in CASES])
def test_eval_z_prints_what_trec_eval_prints(option, run):
    argv, zfile = MAKE.OPTIONS[option]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status, out, err = cli(["eval", *argv, "-Z", str(ZSCORES / zfile), QRELS,
                                str(REFERENCE / "runs" / f"{run}.run")])
    assert status == 0, err
    assert out == (ZSCORES / "expected" / option / f"{run}.txt").read_text()


def _z_file_moments(path: Path) -> dict[tuple[str, str], tuple[float, float]]:
    """The Z file's numbers read with nothing but ``str.split`` and ``float``."""
    moments = {}
    for line in path.read_text().splitlines():
        topic, measure, mean, sd = line.split()
        moments[topic, measure] = (float(mean), float(sd))
    return moments


def test_evaluate_zscores_are_the_values_standardised_by_the_z_file():
    run = str(REFERENCE / "runs" / "beta.run")
    measures = ["map", "P.5,10", "num_ret", "ndcg_cut.10"]
    plain = evaluate(QRELS, run, measures).per_topic()
    scored = evaluate(QRELS, run, measures, zscores=str(ZSCORES / "full.z")).per_topic()
    moments = _z_file_moments(ZSCORES / "full.z")
    expected = [(v - moments[t, m][0]) / moments[t, m][1]
                for t, m, v in zip(plain["topic"], plain["measure"], plain["value"],
                                   strict=True)]
    assert scored["topic"].tolist() == plain["topic"].tolist()
    assert scored["value"].tolist() == expected  # bit for bit: one subtraction, one division


def test_missing_references_are_minus_a_million_with_a_warning():
    run = str(REFERENCE / "runs" / "alpha.run")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = evaluate(QRELS, run, ["map", "P.5"], zscores=str(ZSCORES / "partial.z"))
    said = [str(w.message) for w in caught]
    assert any("partial.z has no line for 4 (topic, measure) pair(s): 10 P_5, 10 map, 13 P_5, "
               "13 map"
               in m for m in said), said
    assert any("gives std_dev 0 and another mean for 1 (topic, measure) pair(s): 8 P_5" in m
               for m in said), said
    table = ev.per_topic().set_index(["topic", "measure"])["value"]
    assert (table["13", "map"] == table["13", "P_5"] == table["10", "map"]
            == table["10", "P_5"] == -1000000.0)
    assert table["34", "map"] == 0.0  # std_dev 0 and the value is the mean
    assert table["8", "P_5"] == -1000000.0  # std_dev 0, another value


def test_several_runs_prefix_every_converted_line_and_name_the_run():
    runs = [str(REFERENCE / "runs" / f"{r}.run") for r in ("alpha", "beta")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status, out, err = cli(["eval", "-q", "-m", "map", "-m", "runid", "-m", "num_q",
                                "-Z", str(ZSCORES / "full.z"), QRELS, *runs])
    assert status == 0, err
    lines = out.splitlines()
    assert all(line.startswith(("Zmap ", "Znum_q ", "runid ")) for line in lines)
    assert {line.split("\t")[3] for line in lines} == {"alpha", "beta"}
    single = (ZSCORES / "expected" / "partial_q" / "beta.txt").read_text()
    assert "runid                 \tall\tbeta\n" in single  # runid: no Z, as trec_eval


def test_reader_accepts_what_trec_eval_reads():
    z = read_zscores(b"1\tmap  .25\t+1e-1 \r\n2 map 3. 0\n")
    assert z.moments == {("1", "map"): (0.25, 0.1), ("2", "map"): (3.0, 0.0)}


@pytest.mark.skipif(not (os.environ.get("IRSCALE_TREC_EVAL") or shutil.which("trec_eval")),
                    reason="needs a trec_eval 9.0.8 binary (IRSCALE_TREC_EVAL or PATH)")
def test_generator_writes_the_frozen_files():
    binary = os.environ.get("IRSCALE_TREC_EVAL") or shutil.which("trec_eval")
    assert MAKE.main(["--trec-eval", str(binary), "--check"]) == 0


def test_frozen_z_files_hold_every_topic_and_measure():
    moments = _z_file_moments(ZSCORES / "full.z")
    assert len(moments) == len(MAKE.TOPICS) * len(MAKE.MEASURES)
    assert all(sd > 0 and math.isfinite(mean) for mean, sd in moments.values())
    assert np.isclose(len(_z_file_moments(ZSCORES / "partial.z")),
                      len(moments) - len(MAKE.MEASURES) - len(MAKE.DROPPED_10))


def test_tables_keep_the_measure_names_and_hold_the_z_scores():
    run = str(REFERENCE / "runs" / "gamma.run")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate(QRELS, run, ["map", "num_ret"], zscores=str(ZSCORES / "full.z"))
        text = (ZSCORES / "expected" / "q_all_trec" / "gamma.txt").read_text()
    csv = ev.format("csv", per_query=True).splitlines()
    assert csv[0] == "run,topic,measure,value"
    printed = {(f[1], f[0][1:].rstrip()): f[2] for f in
               (line.split("\t") for line in text.splitlines())
               if f[0].rstrip() in ("Zmap", "Znum_ret")}
    for line in csv[1:]:
        _, topic, measure, value = line.split(",")
        assert f"{float(value):.4f}" == printed[topic, measure]


def test_zscores_refused_where_trec_eval_9_has_no_meaning():
    from irscale.errors import ParameterError

    run = str(REFERENCE / "runs" / "beta.run")
    z = read_zscores(ZSCORES / "full.z")
    for options in ({"compat": 10}, {"labels": {"under": {"d": 1.0}}}):
        with pytest.raises(ParameterError, match="zscores="):
            evaluate(QRELS, run, ["map"], zscores=z, **options)
    # a ZScores object is taken as it is, and gives what its file gives
    assert evaluate(QRELS, run, ["map"], zscores=z).format("trec") == evaluate(
        QRELS, run, ["map"], zscores=str(ZSCORES / "full.z")).format("trec")
