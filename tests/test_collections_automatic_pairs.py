"""Automatic judgments corrected with human judgments of a sample of (topic, document)
pairs (irscale.collections.automatic_pairs): the uniform design's estimates equal
ppi-python's on per-pair contributions of P@10 computed here from the run files; the
stratified and Poisson (inclusion) estimators are unbiased, and the Poisson variance
estimator too, by enumeration of every sample of small populations; on the CLEF eHealth
2016 qrels with automatic labels made noisy with a known confusion, the intervals of every
design cover the human mean at the nominal rate (a simulation with a fixed seed)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from irscale.cli.main import main
from irscale.collections import automatic_judgments
from irscale.collections.automatic_pairs import sampled_mean
from irscale.errors import AlignmentError, InputError, ParameterError

from .oracle_imports import lazy_import
from .test_collections_automatic import _noisy, _pytrec_values, _qrels, _write

ppi_py = lazy_import("ppi_py")


# ------------------------------------------------------------ enumeration of every sample
def _population(seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, size) * rng.random(size)
    return truth, np.clip(truth + rng.normal(0, 0.3, size), 0, None)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tuning", ["ppi", "classical"])
def test_poisson_estimate_and_variance_are_unbiased(seed, tuning):
    """Every one of the 2^7 Poisson samples, weighted by its probability: E[θ̂] = Σ y and
    E[variance estimate] = the variance of θ̂ (Horvitz–Thompson under independent
    inclusions)."""
    y, yhat = _population(seed, 7)
    prob = np.random.default_rng(seed + 100).uniform(0.2, 0.9, 7)
    mean = second = expected_var = 0.0
    for chosen in itertools.product([False, True], repeat=7):
        inside = np.array(chosen)
        weight = float(np.prod(np.where(inside, prob, 1 - prob)))
        est, se, _ = sampled_mean(y[inside], yhat[inside], yhat, "inclusion",
                                  prob=prob[inside], tuning=tuning)
        mean += weight * est
        second += weight * est * est
        expected_var += weight * se * se
    assert mean == pytest.approx(y.sum(), rel=1e-12)
    assert expected_var == pytest.approx(second - mean * mean, rel=1e-10)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tuning", ["ppi", "classical"])
def test_stratified_estimate_is_unbiased(seed, tuning):
    """Every stratified simple random sample (2 of 4 pairs of stratum 0, 3 of 5 of stratum
    1, 2 of 3 of stratum 2), equally likely: E[θ̂] = the mean of y."""
    y, yhat = _population(seed, 12)
    stratum = np.repeat([0, 1, 2], [4, 5, 3])
    draws = [itertools.combinations(np.flatnonzero(stratum == h), k)
             for h, k in ((0, 2), (1, 3), (2, 2))]
    estimates = []
    for parts in itertools.product(*(list(d) for d in draws)):
        inside = np.concatenate(parts)
        estimates.append(sampled_mean(y[inside], yhat[inside], yhat, "stratified",
                                      stratum=stratum[inside], stratum_all=stratum,
                                      tuning=tuning)[0])
    assert np.mean(estimates) == pytest.approx(y.mean(), rel=1e-12)


# ----------------------------------------------------------------- CLEF eHealth 2016
def _ranks(run_path) -> dict[tuple[str, str], int]:
    """(topic, docno) → rank, trec_eval's order: score descending, then docno descending."""
    by_topic: dict[str, list[tuple[float, str]]] = {}
    for line in open(run_path):
        t, _, d, _, score, _ = line.split()
        by_topic.setdefault(t, []).append((float(score), d))
    ranks = {}
    for t, docs in by_topic.items():
        for k, (_, d) in enumerate(sorted(docs, reverse=True), 1):
            ranks[(t, d)] = k
    return ranks


def _precision_contributions(rows, ranks, n_topics: int) -> np.ndarray:
    """P@10's contribution of every pair: 1/(10·T) when retrieved in the top 10 and
    relevant (grade ≥ 1)."""
    return np.array([(ranks.get((t, d), 11) <= 10 and r >= 1) / (10 * n_topics)
                     for t, d, r in rows])


@pytest.fixture(scope="module")
def pairs_setup(tmp_path_factory):
    from .conftest import CLEF, require

    clef = require(CLEF)
    tmp = tmp_path_factory.mktemp("automatic_pairs")
    rng = np.random.default_rng(2025)
    truth = _qrels(clef / "task2.qrels")
    auto = _noisy(truth, rng)
    topics = sorted({t for t, _, _ in truth})
    runs = sorted(str(p) for p in (clef / "runs").iterdir())[:3]
    ranks = [_ranks(p) for p in runs]
    human = np.array([_precision_contributions(truth, r, len(topics)) for r in ranks]).T
    machine = np.array([_precision_contributions(auto, r, len(topics)) for r in ranks]).T
    sample = np.sort(rng.choice(len(truth), 3000, replace=False))
    return {"truth": truth, "auto": auto, "topics": topics, "runs": runs, "ranks": ranks,
            "human": human, "machine": machine, "sample": sample,
            "auto_path": _write(tmp / "auto.qrels", auto),
            "human_path": _write(tmp / "human.qrels", [truth[i] for i in sample])}


@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
def test_uniform_design_equals_ppi_python(pairs_setup, tuning, lam):
    s = pairs_setup
    found = automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "P@10",
                                design="uniform", tuning=tuning, alpha=0.1).to_frame()
    big_p = len(s["truth"])
    for r, path in enumerate(s["runs"]):
        z, zhat = big_p * s["human"][:, r], big_p * s["machine"][:, r]
        low, high = ppi_py.ppi_mean_ci(z[s["sample"]], zhat[s["sample"]], zhat, alpha=0.1,
                                       lam=lam)
        point = ppi_py.ppi_mean_pointestimate(z[s["sample"]], zhat[s["sample"]], zhat, lam=lam)
        row = found.iloc[r]
        assert row["ppi"] == pytest.approx(float(np.ravel(point)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9, abs=1e-12)
        assert row["automatic"] == pytest.approx(
            _pytrec_values(s["auto"], path, "P_10", s["topics"]).mean(), abs=1e-12)
        assert (row["labelled"], row["others"]) == (3000, big_p - 3000)


def _cover(rate: np.ndarray, repetitions: int, level: float) -> None:
    band = 3 * np.sqrt(level * (1 - level) / repetitions)  # 3 binomial standard errors
    assert (rate >= level - band).all(), rate


@pytest.mark.parametrize("design", ["uniform", "stratified", "inclusion"])
def test_intervals_cover_the_human_mean(pairs_setup, design):
    """300 human samples (seed 11) of every design: the 90% interval of each run's P@10
    covers the mean over all topics under the human judgments (pytrec_eval) at a rate
    within 3 binomial standard errors of 0.9 or above."""
    s = pairs_setup
    target = np.array([_pytrec_values(s["truth"], p, "P_10", s["topics"]).mean()
                       for p in s["runs"]])
    size = len(s["truth"])
    stratum = np.array([r for _, _, r in s["auto"]])
    # inclusion: by rank, as statAP's designs: pairs in a run's top 10 drawn with π = 0.5
    top = np.array([any(ranks.get((t, d), 11) <= 10 for ranks in s["ranks"])
                    for t, d, _ in s["truth"]])
    prob = np.where(top, 0.5, 0.05) if design == "inclusion" else None
    rng = np.random.default_rng(11)
    repetitions, covered = 300, np.zeros(len(s["runs"]))
    for _ in range(repetitions):
        if design == "inclusion":
            inside = np.flatnonzero(rng.random(size) < prob)
        elif design == "stratified":  # 10% of the automatic grade 0, 40% of the others
            inside = np.concatenate([rng.choice(np.flatnonzero(stratum == h),
                                                int(f * (stratum == h).sum()), replace=False)
                                     for h, f in ((0, 0.1), (1, 0.4), (2, 0.4))])
        else:
            inside = rng.choice(size, 3000, replace=False)
        for r in range(len(s["runs"])):
            scale = 1.0 if design == "inclusion" else size
            y, yhat = scale * s["human"][:, r], scale * s["machine"][:, r]
            est, var, _ = sampled_mean(y[inside], yhat[inside], yhat, design,
                                       stratum=stratum[inside], stratum_all=stratum,
                                       prob=None if prob is None else prob[inside])
            half = 1.6448536269514722 * np.sqrt(var)
            covered[r] += est - half <= target[r] <= est + half
    _cover(covered / repetitions, repetitions, 0.9)


def test_refusals(pairs_setup, tmp_path):
    s = pairs_setup
    with pytest.raises(ParameterError, match="not a sum over the ranked documents"):
        automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "map",
                            design="uniform")
    outside = _write(tmp_path / "outside.qrels", [("999", "d", 1), s["truth"][0]])
    with pytest.raises(AlignmentError, match="999"):
        automatic_judgments(s["auto_path"], outside, s["runs"], "P@10", design="uniform")
    few = _write(tmp_path / "few.qrels", [r for r in s["auto"] if r[2] == 0][:5]
                 + [r for r in s["auto"] if r[2] == 2][:1])
    with pytest.raises(InputError, match="every stratum needs 2"):
        automatic_judgments(s["auto_path"], few, s["runs"], "P@10", design="stratified")
    with pytest.raises(ParameterError, match="design"):
        automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "P@10",
                            design="rank")


def test_command_line_design_and_sampled_judgments(pairs_setup, tmp_path):
    s = pairs_setup
    sampled = tmp_path / "sampled.txt"
    sampled.write_text("".join(f"{s['truth'][i][0]} 0 {s['truth'][i][1]} {s['truth'][i][2]} "
                               "0.25\n" for i in s["sample"][:400]))
    out = tmp_path / "est.csv"
    assert main(["labels", "auto", s["auto_path"], str(sampled), *s["runs"], "-m", "P@10",
                 "--design", "inclusion", "--tuning", "ppi", "--format", "csv",
                 "-o", str(out)]) == 0
    import pandas as pd

    printed = pd.read_csv(out)
    chosen = s["sample"][:400]
    for r in range(len(s["runs"])):
        y, yhat = s["human"][chosen, r], s["machine"][chosen, r]
        expected = s["machine"][:, r].sum() + np.sum((y - yhat) / 0.25)
        assert printed["ppi"].iloc[r] == pytest.approx(expected, abs=1e-12)
        assert printed["human"].iloc[r] == pytest.approx(np.sum(y / 0.25), abs=1e-12)
