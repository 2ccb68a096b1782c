"""The weighting of the collections in the systems' means across them (``weights=``) and the
manifest of a suite (:mod:`irscale.io.manifest`): the micro average against the plain mean
over every topic, both weightings' stratified bootstrap against a numpy bootstrap of its
own with the same seeds, the meta-analysis untouched, and a manifest's collections
evaluated against pytrec_eval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.io.manifest import read_collections
from irscale.report import build_report
from irscale.stats.across_collections import across_collections

from .oracle_imports import lazy_importorskip

pytrec_eval = lazy_importorskip("pytrec_eval")


def _suite(seed: int, topics: tuple[int, ...]) -> dict[str, ScoreMatrix]:
    """Collections of ``topics`` topics each, three systems, their means apart."""
    gen = np.random.default_rng(seed)
    return {f"c{c}": ScoreMatrix.from_array(
        gen.uniform(0, 1, (n, 3)) + np.array([0.0, 0.05, 0.1]) * (c + 1),
        topics=[str(t) for t in range(n)], systems=["s0", "s1", "s2"], measures=["ap"])
        for c, n in enumerate(topics)}


def test_topics_weights_give_the_plain_mean_over_every_topic() -> None:
    """weights="topics": each system's mean and each pair's difference are those of the
    topics of every collection put together; "equal": the mean of the collections'
    means."""
    suite = _suite(0, (5, 20, 60))
    every = np.concatenate([m.array() for m in suite.values()])
    micro = across_collections(suite, samples=20, rng=0, weights="topics")
    assert micro.system_table["mean"].to_numpy() == pytest.approx(every.mean(axis=0))
    pairs = micro.pair_table
    assert pairs.difference.to_numpy() == pytest.approx(
        [(every[:, a] - every[:, b]).mean() for a, b in ((0, 1), (0, 2), (1, 2))])
    assert micro.mean_table.weight.to_numpy() == pytest.approx(
        np.repeat([5 / 85, 20 / 85, 60 / 85], 3))
    macro = across_collections(suite, samples=20, rng=0)
    assert macro.weights == "equal"
    assert macro.system_table["mean"].to_numpy() == pytest.approx(
        np.mean([m.array().mean(axis=0) for m in suite.values()], axis=0))
    assert not np.allclose(macro.system_table["mean"], micro.system_table["mean"])
    # the meta-analysis weighs by inverse variance whatever the weights
    assert micro.meta_table.equals(macro.meta_table)
    assert "weights topics" in micro.format() and "weights equal" in macro.format()


def _numpy_bootstrap(suite: dict[str, ScoreMatrix], weights: np.ndarray, samples: int,
                     seed: int) -> np.ndarray:
    """samples × systems: the stratified bootstrap written with numpy alone, the seed
    logic of :mod:`irscale.stats.resampling` (chunk i of 1,024 samples draws from child i
    of the seed's sequence; each collection's topic indices drawn in turn)."""
    sizes = [1024] * (samples // 1024) + ([samples % 1024] if samples % 1024 else [])
    children = np.random.SeedSequence(seed).spawn(len(sizes))
    chunks = []
    for child, size in zip(children, sizes, strict=True):
        gen = np.random.default_rng(child)
        total = 0
        for matrix, weight in zip(suite.values(), weights, strict=True):
            values = matrix.array()
            n = len(values)
            total = total + weight * values[gen.integers(0, n, size=(size, n))].mean(axis=1)
        chunks.append(total)
    return np.concatenate(chunks)


@pytest.mark.parametrize("weights", ["equal", "topics"])
def test_stratified_bootstrap_matches_a_numpy_bootstrap(weights: str) -> None:
    suite = _suite(1, (7, 15, 30))
    n = np.array([7, 15, 30])
    w = n / n.sum() if weights == "topics" else np.full(3, 1 / 3)
    boot = _numpy_bootstrap(suite, w, 2500, 11)
    result = across_collections(suite, samples=2500, rng=11, weights=weights, alpha=0.1)
    low, high = np.quantile(boot, [0.05, 0.95], axis=0)
    assert result.system_table.ci_low.to_numpy() == pytest.approx(low, abs=1e-12)
    assert result.system_table.ci_high.to_numpy() == pytest.approx(high, abs=1e-12)
    differences = boot[:, [0, 0, 1]] - boot[:, [1, 2, 2]]
    low, high = np.quantile(differences, [0.05, 0.95], axis=0)
    assert result.pair_table.ci_low.to_numpy() == pytest.approx(low, abs=1e-12)
    assert result.pair_table.ci_high.to_numpy() == pytest.approx(high, abs=1e-12)


def test_unknown_weights_are_refused() -> None:
    with pytest.raises(ParameterError, match="unknown weighting 'micro'"):
        across_collections(_suite(2, (4, 5)), weights="micro")


def _write_collection(folder: Path, seed: int, topics: int) -> tuple[dict, dict]:
    """Random qrels and three runs written as TREC files in ``folder`` (and returned as
    the dictionaries pytrec_eval takes)."""
    gen = np.random.default_rng(seed)
    qrels = {f"q{t}": {f"d{d}": int(gen.integers(0, 3)) for d in range(10)}
             for t in range(topics)}
    runs = {name: {f"q{t}": {f"d{d}": float(gen.uniform()) for d in range(10)}
                   for t in range(topics)} for name in ("bm25", "dense", "hybrid")}
    folder.mkdir(parents=True)
    (folder / "qrels.txt").write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in qrels.items()
                                              for d, r in docs.items()))
    for name, ranking in runs.items():
        (folder / f"{name}.run").write_text("".join(
            f"{t} Q0 {d} {i} {s!r} {name}\n" for t, docs in ranking.items()
            for i, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]))))
    return qrels, runs


def test_a_manifest_is_read_from_its_folder_and_evaluated(tmp_path: Path,
                                                          monkeypatch) -> None:
    """The collections of a manifest (columns in another order, a comment, a blank line,
    paths relative to its folder, read from elsewhere), given to ``across_collections``
    and to ``build_report``: each collection's differences are those of pytrec_eval's
    per-topic values."""
    oracle = {}
    for name, seed, topics in (("x", 1, 6), ("y", 2, 9)):
        qrels, runs = _write_collection(tmp_path / "suite" / name, seed, topics)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
        oracle[name] = {run: np.array([evaluator.evaluate(ranking)[t]["map"]
                                       for t in sorted(ranking)])
                        for run, ranking in runs.items()}
    manifest = tmp_path / "suite" / "suite.tsv"
    manifest.write_text("# a suite of two\nrun\tqrels\tcollection\n\n" + "".join(
        f"{name}/{run}.run\t{name}/qrels.txt\t{name}\n" for name in ("x", "y")
        for run in ("bm25", "dense", "hybrid")))
    monkeypatch.chdir(tmp_path)
    suite = read_collections("suite/suite.tsv")
    assert list(suite) == ["x", "y"]
    assert suite["y"].runs == tuple(str(Path("suite/y") / f"{r}.run")
                                    for r in ("bm25", "dense", "hybrid"))
    result = across_collections("suite/suite.tsv", "map", samples=20, rng=0,
                                weights="topics")
    report = build_report("suite/x/qrels.txt", [f"suite/x/{r}.run" for r in ("bm25", "dense")],
                          ["map"], robustness=False, collections="suite/suite.tsv",
                          collection_samples=20, collection_weights="topics")
    assert report.across["map"].weights == "topics"
    for table in (result.collection_table, report.across["map"].collection_table):
        for row in table.itertuples(index=False):
            d = oracle[row.collection][row.system_a] - oracle[row.collection][row.system_b]
            assert row.topics == len(d)
            assert row.difference == pytest.approx(d.mean(), abs=1e-12)
            assert row.variance == pytest.approx(d.var(ddof=1) / len(d), abs=1e-12)
    with pytest.raises(ParameterError, match="give measure="):
        across_collections("suite/suite.tsv")


def test_a_manifest_row_without_its_run_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "m.tsv").write_text("collection\tqrels\trun\nx\tq\n")
    with pytest.raises(InputError, match=r"m.tsv, line 2: expected 3 tab-separated"):
        read_collections(tmp_path / "m.tsv")
