"""``irscale meta ...`` end to end, and the plots (PNG/SVG files)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.meta import (
    discriminative_power,
    plot_asl_curves,
    plot_measure_vs_ranked,
    plot_split_metric,
    split_study,
)


@pytest.fixture
def scores(tmp_path):
    rng = np.random.default_rng(0)
    base = np.clip(rng.normal(0.3, 0.15, (20, 1)) + np.linspace(0, 0.3, 6)
                   + rng.normal(0, 0.1, (20, 6)), 0, 1)
    paths = []
    for name, values in (("ap", base), ("p10", np.round(base * 10) / 10),
                         ("gold", np.sqrt(base))):
        path = tmp_path / f"{name}.csv"
        pd.DataFrame(values, columns=[f"run{i}" for i in range(6)]).to_csv(path, index=False)
        paths.append(str(path))
    return paths


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def test_correlate(scores, capsys):
    out = run(capsys, "meta", "correlate", "--scores", scores[0], "--scores", scores[1],
              "-B", "50", "--seed", "1")
    assert "ap vs p10" in out and "ci_low" in out
    out = run(capsys, "meta", "correlate", "--scores", scores[0], "--scores", scores[1],
              "--method", "tau_ap", "--by", "topic", "--format", "csv")
    assert out.splitlines()[0] == "topic,tau_ap" and len(out.splitlines()) == 21
    out = run(capsys, "meta", "correlate", "--scores", scores[0], "--scores", scores[1],
              "--scores", scores[2], "--by", "matrix", "--method", "rbo", "--format", "json")
    assert len(json.loads(out)) == 3


def test_discriminative_power_and_plot(scores, capsys, tmp_path):
    png = tmp_path / "asl.png"
    out = run(capsys, "meta", "dp", "--scores", scores[0], "--method", "both", "-B", "200",
              "--seed", "3", "--plot", str(png))
    assert "bootstrap" in out and "randomized-tukey-hsd" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = run(capsys, "meta", "dp", "--scores", scores[0], "-B", "100", "--seeds", "3",
              "--format", "csv")
    assert "significant_sd" in out
    out = run(capsys, "meta", "dp", "--scores", scores[0], "-B", "100", "--pairs",
              "--format", "csv")
    assert len(out.splitlines()) == 16


def test_split_swap_concordance(scores, capsys, tmp_path):
    svg = tmp_path / "tau.svg"
    out = run(capsys, "meta", "split", "--scores", scores[0], "--sizes", "4,8",
              "--repetitions", "5", "--seed", "1", "--cross", "MD1:MD2", "--plot", str(svg))
    assert "MD1 vs MD2" in out and "bias" in out
    assert svg.read_text().lstrip().startswith("<?xml")
    out = run(capsys, "meta", "split", "--scores", scores[0], "--sizes", "4,8",
              "--repetitions", "5", "--seed", "1", "--metric", "AA", "--models", "MD2")
    assert "4 topics" in out
    out = run(capsys, "meta", "swap", "--scores", scores[0], "--sizes", "4,8",
              "--repetitions", "5", "--seed", "1", "--by-bin")
    assert "bin_low" in out
    out = run(capsys, "meta", "concordance", "--scores", scores[0], "--scores", scores[1],
              "--scores", scores[2], "--gold", "gold")
    assert "ap" in out and "disagreements" in out


def test_split_with_shard_scores_aligns_them_by_label(scores, capsys, tmp_path):
    """``meta split --shard-scores``: the tidy CSV, its rows and systems in another order
    than the score matrix's, gives the study of the API on the aligned array."""
    from irscale.stats import ShardScores

    matrix = ScoreMatrix.read_csv(scores[0])
    rng = np.random.default_rng(3)
    cube = np.clip(matrix.values[:, :, :1] + rng.normal(0, 0.05, (*matrix.values.shape[:2], 3)),
                   0, 1)
    cube[4, :, 1] = np.nan  # a topic with no relevant document in shard 1
    tidy = pd.DataFrame({
        "topic": np.repeat(matrix.topics, 6 * 3), "run": np.tile(np.repeat(matrix.systems, 3), 20),
        "shard": np.tile(["s0", "s1", "s2"], 20 * 6), "value": cube.reshape(-1)})
    path = tmp_path / "shards.csv"
    tidy.sample(frac=1, random_state=1).to_csv(path, index=False)
    out = run(capsys, "meta", "split", "--scores", scores[0], "--sizes", "4,8",
              "--repetitions", "4", "--seed", "2", "--models", "MD2,MD3", "--shard-scores",
              str(path), "--empty", "zero", "--format", "csv", "--metric", "tau")
    expected = split_study(matrix, (4, 8), 4, models=("MD2", "MD3"), rng=2,
                           shards=ShardScores(cube, matrix.topics, matrix.systems,
                                              ("s0", "s1", "s2")),
                           options={"MD3": {"empty": "zero"}})
    table = expected.table("tau").reset_index()
    got = pd.read_csv(__import__("io").StringIO(out))
    assert list(got.columns) == [str(c) for c in table.columns]
    np.testing.assert_allclose(got.iloc[:, 1:].to_numpy(float),
                               table.iloc[:, 1:].to_numpy(float), rtol=1e-12)


def test_pool_shards_scores_read_back_exactly(clef, capsys, tmp_path):
    """What ``pool shards --shard-scores`` writes, :func:`read_shard_table` reads back bit
    for bit (undefined scores included), and ``meta split`` takes it."""
    from irscale.collections import evaluate_shards
    from irscale.io.scores_csv import read_shard_table

    qrels = str(clef / "task2.qrels")
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))[:4]
    path = tmp_path / "shards.csv"
    run(capsys, "pool", "shards", qrels, *runs, "--shards", "3", "--seed", "5",
        "--empty", "zero", "--names", "file", "--shard-scores", str(path))
    read = read_shard_table(str(path))
    names = tuple(p.rsplit("/", 1)[1].removesuffix(".txt") for p in runs)
    fresh = evaluate_shards(qrels, dict(zip(names, runs, strict=True)), "AP", shards=3,
                            rng=5).scores
    assert (read.topics, read.systems, read.shards) == (fresh.topics, fresh.systems,
                                                        fresh.shards)
    np.testing.assert_array_equal(read.values, fresh.values)
    out = run(capsys, "meta", "split", qrels, *runs, "--names", "file", "-m", "AP",
              "--models", "MD3", "--shard-scores", str(path), "--empty", "zero", "--sizes",
              "10", "--repetitions", "2", "--seed", "1")
    assert "MD3" in out


def test_errors_are_reported(scores, capsys):
    assert main(["meta", "split", "--scores", scores[0], "--scores", scores[1]]) == 2
    assert "one measure" in capsys.readouterr().err
    assert main(["meta", "concordance", "--scores", scores[0], "--gold", "nope"]) == 2


def test_loo_and_scales_on_clef(clef, capsys):
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    out = run(capsys, "meta", "loo", str(clef / "task2.qrels"), *runs, "-m", "P@10",
              "--depth", "10", "--names", "file")
    assert "ecnu" in out and "tau" in out
    out = run(capsys, "meta", "scales", str(clef / "task2.qrels"), *runs, "-m", "P",
              "-m", "RBP_p05", "-m", "RR", "--cutoffs", "5", "--table", "invariants")
    assert "RBP_p05" in out and "1.0000" in out


def test_plots(tmp_path):
    rng = np.random.default_rng(1)
    values = rng.random((15, 5))
    result = discriminative_power(values, samples=100, rng=1)
    figure = plot_asl_curves({"m": result}, tmp_path / "a.svg")
    assert figure is not None and (tmp_path / "a.svg").stat().st_size > 0
    matrix = ScoreMatrix.from_array(np.stack([values, values**2], axis=2),
                                    measures=["M", "M_R"])
    plot_measure_vs_ranked(matrix, "M", path=tmp_path / "s.png", level="topic")
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    study = split_study(values, (3, 6), 4, models=("MD2",), rng=1)
    plot_split_metric(study, "jaccard", tmp_path / "j.png")
    assert (tmp_path / "j.png").exists()
