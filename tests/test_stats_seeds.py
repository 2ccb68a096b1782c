"""Systems of several runs (irscale.stats.seeds): every run's mean equals pytrec_eval's
(a topic the run lacks counting 0, as trec_eval -c), each system's mean and spread those of
its runs' means computed here, the replicates table round-trips through the reader of
``compare --shard-scores``, and the command line prints the API's table."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from irscale.cli.main import main
from irscale.errors import InputError, ParameterError
from irscale.io.scores_csv import read_shard_table
from irscale.stats import evaluate_seeds

SYSTEMS = {"GUIR": ["GUIR_EN_Run1", "GUIR_EN_Run2", "GUIR_EN_Run3"],
           "InfoLab": ["InfoLab_EN_Run1", "InfoLab_EN_Run2", "InfoLab_EN_Run3"]}


def _pytrec_mean(qrels_path, run_path, measure: str) -> float:
    qrels: dict[str, dict[str, int]] = {}
    for line in open(qrels_path):
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    for line in open(run_path):
        t, _, d, _, s, _ = line.split()
        run.setdefault(t, {})[d] = float(s)
    found = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(
        {t: docs for t, docs in run.items() if t in qrels})
    return float(np.mean([found.get(t, {}).get(measure, 0.0) for t in qrels]))


@pytest.fixture
def seeds(clef):
    systems = {name: [str(clef / "runs" / f"{run}.txt") for run in runs]
               for name, runs in SYSTEMS.items()}
    return clef / "task2.qrels", systems


def test_means_and_spread_equal_pytrec_eval_runs(seeds):
    qrels, systems = seeds
    result = evaluate_seeds(qrels, systems, ["map", "P.10"])
    table = result.to_frame()
    for system, paths in systems.items():
        for measure, key in (("map", "map"), ("P_10", "P_10")):
            means = np.array([_pytrec_mean(qrels, p, key) for p in paths])
            row = table[(table.system == system) & (table.measure == measure)].iloc[0]
            assert row.runs == len(paths)
            assert row["mean"] == pytest.approx(means.mean(), abs=1e-12)
            assert row.sd == pytest.approx(means.std(ddof=1), abs=1e-12)
            assert (row["min"], row["max"]) == pytest.approx((means.min(), means.max()))
            per_run = result.per_run()
            got = per_run[(per_run.system == system) & (per_run.measure == measure)]["mean"]
            assert got.tolist() == pytest.approx(means.tolist(), abs=1e-12)


def test_replicates_round_trip_through_the_shard_reader(seeds, tmp_path):
    qrels, systems = seeds
    result = evaluate_seeds(qrels, systems, "map")
    path = tmp_path / "seeds.csv"
    path.write_text(result.shard_table())
    read = read_shard_table(str(path))
    scores = result.shard_scores()
    assert list(read.systems) == list(scores.systems)
    assert np.allclose(read.values, scores.values, equal_nan=True)


def test_unequal_systems_are_padded_and_named_refusals(seeds, clef):
    qrels, systems = seeds
    uneven = {**systems, "CUNI": [str(clef / "runs" / "CUNI_EN_Run1.txt")]}
    result = evaluate_seeds(qrels, uneven, "map")
    assert np.isnan(result.shard_scores().values[:, 2, 1:]).all()
    assert np.isnan(result.to_frame().set_index("system").loc["CUNI", "sd"])
    with pytest.raises(ParameterError, match="systems"):
        evaluate_seeds(qrels, {}, "map")
    with pytest.raises(InputError, match="no run"):
        evaluate_seeds(qrels, {"x": []}, "map")
    with pytest.raises(ParameterError, match="name one of"):
        evaluate_seeds(qrels, systems, ["map", "P.10"]).shard_scores()


def test_command_line_prints_the_api_table(seeds, tmp_path):
    qrels, systems = seeds
    argv = ["eval-seeds", str(qrels)]
    for name, paths in systems.items():
        argv += ["--system", f"{name}={','.join(paths)}"]
    out, scores = tmp_path / "out.csv", tmp_path / "scores.csv"
    assert main([*argv, "-m", "map", "--format", "csv", "-o", str(out),
                 "--shard-scores", str(scores)]) == 0
    printed = pd.read_csv(out)
    expected = evaluate_seeds(qrels, systems, "map").to_frame()
    assert printed["mean"].tolist() == pytest.approx(expected["mean"].tolist(), abs=1e-12)
    assert scores.read_text() == evaluate_seeds(qrels, systems, "map").shard_table()


def test_systems_of_different_numbers_of_runs_through_bootstrap_anova(seeds, tmp_path,
                                                                      capsys):
    """3 runs against 2: the replicates ``eval-seeds --shard-scores`` writes are compared by
    ``compare --test bootstrap-anova --empty missing`` (the unbalanced model), each system's
    mean that of its runs' pytrec_eval means; without ``--empty`` the refusal names the
    counts and the choice."""
    qrels, systems = seeds
    uneven = {"GUIR": systems["GUIR"], "InfoLab": systems["InfoLab"][:2]}
    argv = ["eval-seeds", str(qrels), "-m", "map"]
    for name, paths in uneven.items():
        argv += ["--system", f"{name}={','.join(paths)}"]
    table = tmp_path / "seeds.csv"
    assert main([*argv, "--shard-scores", str(table)]) == 0
    capsys.readouterr()
    compare = ["compare", "--shard-scores", str(table), "--test", "bootstrap-anova",
               "--samples", "200", "--seed", "1"]
    assert main(compare) == 2
    assert "different numbers of replicates (runs: 'GUIR' 3, 'InfoLab' 2): choose --empty " \
        "missing" in capsys.readouterr().err
    assert main([*compare, "--empty", "missing", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["bootstrap_anova"]
    means = {row["system"]: row["mean"] for row in rows if "system" in row}
    for name, paths in uneven.items():
        expected = np.mean([_pytrec_mean(qrels, path, "map") for path in paths])
        assert means[name] == pytest.approx(expected, abs=1e-12)


def _pytrec_means(qrels_path, run_path, measure: str, *, relevance_level: int = 1,
                  judged_only: bool = False, max_docs: int | None = None,
                  file_order: bool = False) -> float:
    """pytrec_eval's mean over every qrels topic (0 where the run lacks one) with trec_eval's
    ``-l`` and ``-J``; ``-M`` emulated by cutting each ranking in trec_eval's order (score
    as a C float descending, then docno descending) and ``--ties file-order`` by scoring
    each document by its line's position."""
    qrels: dict[str, dict[str, int]] = {}
    for line in open(qrels_path):
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    lines: dict[str, list[tuple[str, float]]] = {}
    for k, line in enumerate(open(run_path)):
        t, _, d, _, s, _ = line.split()
        lines.setdefault(t, []).append((d, -float(k) if file_order else float(s)))
    run: dict[str, dict[str, float]] = {}
    for t, docs in lines.items():
        ranked = sorted(docs, key=lambda ds: (np.float32(ds[1]), ds[0].encode()),
                        reverse=True)
        run[t] = dict(ranked[:max_docs] if max_docs is not None else ranked)
    found = pytrec_eval.RelevanceEvaluator(
        qrels, {measure}, relevance_level=relevance_level,
        judged_docs_only_flag=judged_only).evaluate({t: d for t, d in run.items() if t in qrels})
    return float(np.mean([found.get(t, {}).get(measure, 0.0) for t in qrels]))


@pytest.mark.parametrize(("options", "oracle"), [
    (["-l", "2"], {"relevance_level": 2}),
    (["-J"], {"judged_only": True}),
    (["-M", "20"], {"max_docs": 20}),
    (["--ties", "file-order"], {"file_order": True}),
    (["-l", "2", "-J", "-M", "50", "-N", "1000000", "--compat", "10"],
     {"relevance_level": 2, "judged_only": True, "max_docs": 50}),
], ids=["l2", "J", "M20", "file-order", "together"])
def test_trec_eval_options_equal_pytrec_eval(seeds, capsys, options, oracle):
    """eval-seeds takes trec_eval's options as eval does: every run's mean (``--runs``) is
    pytrec_eval's with the same options (-N and --compat change neither measure)."""
    qrels, systems = seeds
    argv = ["eval-seeds", str(qrels), "-m", "map", "-m", "P.10", "--runs", "--format", "csv"]
    for name, paths in systems.items():
        argv += ["--system", f"{name}={paths[0]},{paths[1]}"]
    assert main([*argv, *options]) == 0
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    for name, paths in systems.items():
        rows = printed[printed.system == name]
        for measure, key in (("map", "map"), ("P_10", "P_10")):
            got = rows[rows.measure == measure]["mean"].tolist()
            expected = [_pytrec_means(qrels, path, key, **oracle) for path in paths[:2]]
            assert got == pytest.approx(expected, abs=1e-12), (name, measure)


def test_trec_eval_keywords_of_the_api(seeds):
    qrels, systems = seeds
    one = {name: paths[:1] for name, paths in systems.items()}
    frame = evaluate_seeds(qrels, one, "map", judged_only=True, relevance_level=2).to_frame()
    for name, paths in one.items():
        expected = _pytrec_means(qrels, paths[0], "map", relevance_level=2, judged_only=True)
        assert frame.set_index("system").loc[name, "mean"] == pytest.approx(expected)
    assert evaluate_seeds(qrels, one, "map", complete=True).to_frame()["mean"].tolist() == \
        evaluate_seeds(qrels, one, "map").to_frame()["mean"].tolist()
    with pytest.raises(ParameterError, match="complete=False is not an option"):
        evaluate_seeds(qrels, one, "map", complete=False)
    with pytest.raises((TypeError, ParameterError), match="level"):
        evaluate_seeds(qrels, one, "map", level=2)  # type: ignore[call-arg]
