"""Simulated pooling: the table against independent computations (scipy's
τ_b, the pool itself, a plain τ_ap), and the real CLEF 2016 runs, where the bandits find
more relevant documents than depth-k pooling at equal budget (Losada et al. 2017)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats

import irscale
from irscale.collections import STRATEGIES, pool, simulate_pooling
from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.meta import leave_one_out

from .test_collections_pooling import random_qrels, random_runs


def plain_tau_ap(x: np.ndarray, gold: np.ndarray) -> float:
    """τ_ap (Yilmaz et al. 2008) without ties: rank by x, count items above each one that
    the gold ranking also puts above it."""
    order = np.argsort(-x, kind="stable")
    total = 0.0
    for i in range(1, len(order)):
        above = order[:i]
        total += np.sum(gold[above] > gold[order[i]]) / i
    return 2.0 * total / (len(order) - 1) - 1.0


def means(qrels: pd.DataFrame, runs: dict[str, pd.DataFrame]) -> np.ndarray:
    matrix = irscale.evaluate(qrels, runs, "map", allow_empty=True).to_matrix(
        allow_missing=True)
    return np.nanmean(matrix.values[:, [matrix.systems.index(n) for n in runs], 0], axis=0)


@pytest.mark.parametrize("seed", range(4))
def test_table_against_independent_computations(seed):
    runs = {f"team{r}_run": f for r, f in enumerate(random_runs(seed, n_runs=5).values())}
    qrels = random_qrels(seed)
    budgets = [2, 5]
    strategies = ["depth", "rbp", "mtf", "mm-ns", "ts"]
    sim = simulate_pooling(qrels, runs, strategies, budgets, rng=seed)
    full = means(qrels, runs)
    degree = {(t, d): r for t, d, r in qrels.itertuples(index=False)}
    for strategy in strategies:
        extra = {"rng": seed, "unjudged": "nonrelevant", "qrels": qrels} \
            if strategy in ("mtf", "mm-ns", "ts") else {}
        for budget in budgets:
            # depth-k with a budget judges in round-robin order: take@N
            pooled = pool(runs, "take" if strategy == "depth" else strategy, budget=budget,
                          **extra).frame
            row = sim.table[(sim.table["strategy"] == strategy)
                            & (sim.table["budget"] == budget)].iloc[0]
            induced = sim.qrels[(strategy, budget)]
            assert list(zip(induced["query_id"], induced["doc_id"], strict=True)) == \
                list(zip(pooled["query_id"], pooled["doc_id"], strict=True))
            expected_rel = [max(degree.get((t, d), 0), 0) for t, d in
                            zip(pooled["query_id"], pooled["doc_id"], strict=True)]
            assert list(induced["relevance"]) == expected_rel
            assert row["judged"] == len(pooled)
            assert row["relevant_found"] == sum(r >= 1 for r in expected_rel)
            scores = means(induced, runs)
            assert row["tau"] == pytest.approx(scipy.stats.kendalltau(scores, full)[0])
            if len(set(scores)) == len(scores) and len(set(full)) == len(full):
                assert row["tau_ap"] == pytest.approx(plain_tau_ap(scores, full))
            loo = leave_one_out(induced, runs, "map", allow_empty=True, depth=10 ** 6)
            assert row["loo_tau"] == pytest.approx(float(loo.summary["tau"].iloc[0]))


def test_relevant_found_grows_with_the_budget_and_stays_below_the_pool():
    runs = random_runs(7, n_runs=6)
    qrels = random_qrels(7)
    sim = simulate_pooling(qrels, runs, list(STRATEGIES), [1, 3, 6, 50], loo=False, rng=3)
    table = sim.relevant_found()
    assert (table.diff().dropna() >= 0).all().all()
    assert (table <= sim.table["relevant_pool"].iloc[0]).all().all()
    assert (table.loc[50] == sim.table["relevant_pool"].iloc[0]).all()  # whole pool


def test_bad_arguments():
    runs = random_runs(1)
    qrels = random_qrels(1)
    with pytest.raises(ParameterError, match="twice"):
        simulate_pooling(qrels, runs, ["mtf", "mtf"], [2])
    with pytest.raises(ParameterError, match="budget"):
        simulate_pooling(qrels, runs, ["mtf"], [0])
    with pytest.raises(ParameterError, match="unknown pooling strategy"):
        simulate_pooling(qrels, runs, ["x"], [2])
    with pytest.raises(InputError, match="at least 2 runs"):
        simulate_pooling(qrels, {"a": runs["r0"]}, ["mtf"], [2])
    with pytest.raises(AlignmentError, match="no topic in common"):
        simulate_pooling(qrels.assign(query_id="zz" + qrels["query_id"]), runs, ["mtf"], [2])


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from irscale.collections import plot_relevant_found

    sim = simulate_pooling(random_qrels(2), random_runs(2), ["depth", "mm"], [1, 4],
                           loo=False, rng=1)
    path = tmp_path / "curves.png"
    plot_relevant_found(sim, path)
    assert path.stat().st_size > 0


BANDITS = ["mtf", "mm", "mm-ns", "ts", "ts-ns"]


def test_clef_bandits_find_more_relevant_documents_than_depth_k(clef):
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    # some runs share a run id (KDEIR, WHUIRGroup): each is named by its file, so none is
    # lost or renamed with a warning (before, the runs that shared one warned)
    run_ids = {open(path).readline().split()[5] for path in runs}
    assert len(run_ids) < len(runs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sim = simulate_pooling(clef / "task2.qrels", runs, ["depth", *BANDITS],
                               [10, 20, 50, 100], loo=False, rng=2016)
    assert not [w for w in caught if "share a run id" in str(w.message)]
    table = sim.relevant_found()
    for strategy in BANDITS:
        assert (table[strategy] > table["depth"]).all(), table


def test_cli_qrels_out_writes_the_induced_qrels(tmp_path):
    """``pool simulate --qrels-out``: every file holds the induced qrels of the API (same
    pairs and degrees, in judging order), and ``irscale eval`` on it gives the MAP that
    irscale.evaluate gives on the API's frame."""
    from irscale.cli.main import main

    runs = random_runs(5, n_runs=3)
    qrels = random_qrels(5)
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} 1 {s} {name}\n" for t, d, s in
                                run.itertuples(index=False)))
        paths.append(str(path))
    (tmp_path / "q.txt").write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in
                                            qrels.itertuples(index=False)))
    out = tmp_path / "induced"
    assert main(["pool", "simulate", str(tmp_path / "q.txt"), *paths, "--strategy",
                 "depth,mm", "--budget", "2,5", "--seed", "4", "--no-loo", "--qrels-out",
                 str(out), "-o", str(tmp_path / "table.txt")]) == 0
    sim = simulate_pooling(qrels, runs, ["depth", "mm"], [2, 5], loo=False, rng=4)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{s}-{b}.qrels" for s, b in sim.qrels)
    for (strategy, budget), frame in sim.qrels.items():
        written = irscale.read_qrels(out / f"{strategy}-{budget}.qrels").to_frame()
        pd.testing.assert_frame_equal(written, frame.astype({"relevance": "int64"}),
                                      check_dtype=False)
        expected = irscale.evaluate(frame, runs, "map").per_topic()
        got = irscale.evaluate(out / f"{strategy}-{budget}.qrels", runs, "map").per_topic()
        pd.testing.assert_frame_equal(got, expected)


def test_write_qrels_writes_every_file_or_none(tmp_path):
    """``PoolingSimulation.write_qrels``: each file reads back as its induced qrels; an
    existing file is refused without ``force``, and then no file is written."""
    from irscale.errors import OutputExistsError

    sim = simulate_pooling(random_qrels(3), random_runs(3), ["depth", "mm"], [2],
                           loo=False, rng=3)
    paths = {key: str(tmp_path / f"{key[0]}-{key[1]}.qrels") for key in sim.qrels}
    sim.write_qrels(paths)
    for key, frame in sim.qrels.items():
        written = irscale.read_qrels(paths[key]).to_frame()
        pd.testing.assert_frame_equal(written, frame.astype({"relevance": "int64"}),
                                      check_dtype=False)
    (tmp_path / "depth-2.qrels").unlink()
    with pytest.raises(OutputExistsError):
        sim.write_qrels(paths)
    assert not (tmp_path / "depth-2.qrels").exists()
    sim.write_qrels(paths, force=True)
    assert (tmp_path / "depth-2.qrels").exists()
