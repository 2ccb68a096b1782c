"""Sampled judgments and statAP: the AP-prior against a plain loop; with
every inclusion probability 1 the estimates are irscale.evaluate's AP, P@k and R; the
inclusion probabilities are the draws' frequencies; R̂, P̂@k (both designs) and the statAP
numerator (poisson design) are unbiased by simulation, within a Monte Carlo interval
computed here; a hand example; bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.collections.sampling import (
    estimate_sampled,
    sample_judgments,
    sampling_distribution,
)
from irscale.errors import InputError, ParameterError
from irscale.io.sampled import read_sampled_qrels
from irscale.io.sources import as_qrels, as_runs

from .test_collections_pooling import random_qrels, random_runs


def ranked(run: pd.DataFrame, topic: str) -> list[str]:
    """trec_eval's order: score descending, docno descending (bytes)."""
    rows = [(s, d) for t, d, s in run.itertuples(index=False) if t == topic]
    return [d for _, d in sorted(rows, key=lambda x: (x[0], x[1].encode()), reverse=True)]


def plain_prior(runs: dict[str, pd.DataFrame], depth: int | None) -> dict[tuple, float]:
    """The AP-prior written out: w(k) = (1/(2Z))(1 + 1/k + ... + 1/Z), averaged over the
    runs that retrieved for the topic."""
    out: dict[tuple, float] = {}
    topics = sorted({t for run in runs.values() for t in run["query_id"]})
    for topic in topics:
        lists = [ranked(run, topic)[:depth] for run in runs.values()]
        lists = [docs for docs in lists if docs]
        for docs in lists:
            z = len(docs)
            for k, d in enumerate(docs, start=1):
                w = (1 + sum(1 / i for i in range(k, z + 1))) / (2 * z)
                out[(topic, d)] = out.get((topic, d), 0.0) + w / len(lists)
    return out


@pytest.mark.parametrize("depth", [None, 3])
def test_ap_prior_against_a_plain_loop(depth):
    runs = random_runs(3, n_runs=4)
    got = sampling_distribution(runs, depth=depth)
    expected = plain_prior(runs, depth)
    assert len(got) == len(expected)
    for topic, docno, p in got.itertuples(index=False):
        assert p == pytest.approx(expected[(topic, docno)], abs=1e-14)
    assert np.allclose(got.groupby("topic")["p"].sum(), 1.0)


def test_stratified_with_every_rate_1_judges_the_whole_pool(seed=4):
    runs = random_runs(seed, n_runs=3, n_docs=15, length=12)
    qrels = random_qrels(seed, n_docs=15)
    sample = sample_judgments(runs, design="stratified", strata=[(3, 1.0), (20, 1.0)],
                              qrels=qrels)
    assert (sample["prob"] == 1.0).all()
    pool = {(t, d) for run in runs.values() for t, d, _ in run.itertuples(index=False)}
    assert set(zip(sample["topic"], sample["docno"], strict=True)) == pool
    # on the pool's judgments, the estimates are trec_eval's
    in_pool = qrels[[(t, d) in pool for t, d in zip(qrels["query_id"], qrels["doc_id"],
                                                         strict=True)]]
    est = estimate_sampled(sample, runs, cutoffs=[5]).per_topic.pivot_table(
        index=["run", "topic"], columns="measure", values="value")
    exact = irscale.evaluate(in_pool, runs, ["map", "P_5"]).per_topic().pivot_table(
        index=["run", "topic"], columns="measure", values="value")
    np.testing.assert_allclose(est.loc[exact.index, "statAP"], exact["map"], atol=1e-12)
    np.testing.assert_allclose(est.loc[exact.index, "statP@5"], exact["P_5"], atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_complete_sample_gives_exact_ap_p_and_r(seed):
    runs = random_runs(seed, n_runs=4, n_docs=15, length=12)
    qrels = random_qrels(seed, n_docs=15)
    sample = qrels.rename(columns={"query_id": "topic", "doc_id": "docno",
                                   "relevance": "rel"}).assign(prob=1.0)
    for level in (1, 2):
        est = estimate_sampled(sample, runs, cutoffs=[3, 5, 20], relevance_level=level)
        got = est.per_topic.pivot_table(index=["run", "topic"], columns="measure",
                                        values="value")
        exact = irscale.evaluate(qrels, runs, ["map", "P_3", "P_5", "P_20", "num_rel"],
                                 relevance_level=level).per_topic().pivot_table(
            index=["run", "topic"], columns="measure", values="value")
        assert list(got.index) == list(exact.index)  # the topics trec_eval evaluates
        for ours, theirs in [("statAP", "map"), ("statP@3", "P_3"), ("statP@5", "P_5"),
                             ("statP@20", "P_20"), ("statR", "num_rel")]:
            np.testing.assert_allclose(got[ours], exact[theirs], rtol=0, atol=1e-12)


def test_hand_example():
    # run: a b c d; sampled: a (rel, π 1/2), b (non-rel, π 1), d (rel, π 1/4), e (rel, π 1/2,
    # not retrieved). R̂ = 2 + 4 + 2 = 8; P̂@2 = (2 + 0)/2 = 1; P̂@4 = (2 + 4)/4 = 1.5;
    # numerator = 2·(1 + 0)/1 + 4·(1 + 2)/4 = 5; statAP = 5/8.
    sample = pd.DataFrame({"topic": "q", "docno": ["a", "b", "d", "e"], "rel": [1, 0, 2, 1],
                           "prob": [0.5, 1.0, 0.25, 0.5]})
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "d"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    est = estimate_sampled(sample, {"x": run}, cutoffs=[2, 4]).mean()
    assert est.loc["x"].to_dict() == pytest.approx(
        {"statAP": 5 / 8, "statR": 8.0, "statP@2": 1.0, "statP@4": 1.5})
    # level 2: only d relevant: R̂ = 4, numerator = 4·(1 + 0)/4 = 1
    est = estimate_sampled(sample, {"x": run}, cutoffs=[4], relevance_level=2).mean()
    assert est.loc["x"].to_dict() == pytest.approx(
        {"statAP": 0.25, "statR": 4.0, "statP@4": 1.0})


@pytest.mark.parametrize("power", [0, 1000, 1020])
def test_hand_example_with_tiny_inclusion_probabilities(power):
    """The hand example with π of a, d, e divided by 2^power (down to 2^-1022, the
    smallest normal double): weights 2^power·(2, 4, 2) whose sums and products overflow
    unless scaled; the estimates against exact fractions, no numpy warning."""
    w = Fraction(2) ** power
    r_hat = 8 * w
    expected = {"statAP": (2 * w * 1 + 4 * w * (1 + 2 * w) / 4) / r_hat, "statR": r_hat,
                "statP@2": 2 * w / 2, "statP@4": 6 * w / 4}
    sample = pd.DataFrame({"topic": "q", "docno": ["a", "b", "d", "e"], "rel": [1, 0, 2, 1],
                           "prob": [float(1 / (2 * w)), 1.0, float(1 / (4 * w)),
                                    float(1 / (2 * w))]})
    run = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "d"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    with np.errstate(all="raise"):
        est = estimate_sampled(sample, {"x": run}, cutoffs=[2, 4]).mean().loc["x"]
    for name, value in expected.items():
        assert est[name] == pytest.approx(float(value), rel=1e-15), name
    with pytest.raises(InputError, match=r"line 2.*below 2\.225e-308"):
        estimate_sampled(b"q 0 a 1 0.5\nq 0 d 1 1e-310\n", {"x": run})
    with pytest.raises(InputError, match="statR of topic 'q' is beyond"):
        estimate_sampled(b"q 0 a 1 2.3e-308\nq 0 d 1 2.3e-308\nq 0 e 1 2.3e-308\n"
                         b"q 0 f 1 2.3e-308\nq 0 g 1 2.3e-308\n", {"x": run})


def truths(runs: dict[str, pd.DataFrame], qrels: pd.DataFrame, k: int) -> dict:
    """R, P@k and Σ_{relevant retrieved d} prec@r(d) on the whole pool (the runs' documents),
    by plain loops; unjudged documents are not relevant."""
    rel = {(t, d): r >= 1 for t, d, r in qrels.itertuples(index=False)}
    pool: dict[str, set[str]] = {}
    for run in runs.values():
        for t, d, _ in run.itertuples(index=False):
            pool.setdefault(t, set()).add(d)
    out = {}
    for name, run in runs.items():
        for topic in sorted(pool):
            docs = ranked(run, topic)
            if not docs:
                continue
            hits = [rel.get((topic, d), False) for d in docs]
            numerator = sum(sum(hits[:i + 1]) / (i + 1) for i, h in enumerate(hits) if h)
            out[(name, topic)] = {
                "R": sum(rel.get((topic, d), False) for d in pool[topic]),
                "P": sum(hits[:k]) / k, "N": numerator}
    return out


STRATA = [(2, 1.0), (5, 0.5), (10, 0.3)]


def draw(runs, design: str, size: int, **kwargs) -> pd.DataFrame:
    if design == "stratified":
        return sample_judgments(runs, design="stratified", strata=STRATA, **kwargs)
    return sample_judgments(runs, size, design=design, **kwargs)


def plain_stratified_pi(runs: dict[str, pd.DataFrame]) -> dict[tuple, float]:
    """π of the stratified design written out: best rank over the runs → stratum, then
    n_h / N_h with n_h = max(1, round(f_h N_h))."""
    best: dict[tuple, int] = {}
    topics = sorted({t for run in runs.values() for t in run["query_id"]})
    for topic in topics:
        for run in runs.values():
            for k, d in enumerate(ranked(run, topic), start=1):
                best[(topic, d)] = min(best.get((topic, d), k), k)
    members: dict[tuple, list] = {}
    for key, rank in best.items():
        h = next((h for h, (depth, _) in enumerate(STRATA) if rank <= depth), None)
        if h is not None:
            members.setdefault((key[0], h), []).append(key)
    out = {}
    for (_, h), keys in members.items():
        n = max(1, round(STRATA[h][1] * len(keys)))
        out.update({key: n / len(keys) for key in keys})
    return out


@pytest.mark.parametrize("design", ["with-replacement", "poisson", "stratified"])
def test_unbiased_by_simulation(design):
    frames = random_runs(21, n_runs=4, n_topics=2, n_docs=14, length=10)
    qrels = random_qrels(21, n_topics=2, n_docs=14)
    k, size, samples = 5, 4, 150
    truth = truths(frames, qrels, k)
    runs, judged = as_runs(frames), as_qrels(qrels)  # parsed once
    draws: dict[str, list[pd.Series]] = {"R": [], "P": [], "N": []}
    for seed in range(samples):
        sample = draw(runs, design, size, rng=seed, qrels=judged)
        table = estimate_sampled(sample, runs, cutoffs=[k]).per_topic
        by = {m: g.set_index(["run", "topic"])["value"] for m, g in table.groupby("measure")}
        draws["R"].append(by["statR"])
        draws["P"].append(by[f"statP@{k}"])
        draws["N"].append(by["statAP"] * by["statR"])  # the numerator
    checked = ["R", "P", "N"] if design == "poisson" else ["R", "P"]
    for name in checked:
        values = pd.concat(draws[name], axis=1)
        mean = values.mean(axis=1)
        error = values.std(axis=1, ddof=1) / np.sqrt(samples)
        for key, m in mean.items():
            target = truth[key][name]
            # 4.5 Monte Carlo standard errors (a constant estimator has none)
            assert abs(m - target) <= 4.5 * error[key] + 1e-9, (name, key, m, target)


@pytest.mark.parametrize("design", ["with-replacement", "poisson", "stratified"])
def test_inclusion_probabilities_are_the_draws_frequencies(design):
    frames = random_runs(8, n_runs=3, n_topics=2, n_docs=10, length=8)
    runs = as_runs(frames)
    samples = 300
    counts: dict[tuple, int] = {}
    probs: dict[tuple, float] = {}
    sizes = []
    for seed in range(samples):
        sample = draw(runs, design, 3, rng=seed)
        sizes.append(sample.groupby("topic").size())
        for t, d, p in sample.itertuples(index=False):
            counts[(t, d)] = counts.get((t, d), 0) + 1
            assert probs.setdefault((t, d), p) == p  # π does not depend on the draw
    if design == "stratified":
        expected = plain_stratified_pi(frames)
        assert probs == pytest.approx(expected, rel=1e-12)  # every document is drawn
        for key, pi in expected.items():
            freq = counts[key] / samples
            assert abs(freq - pi) <= 4.5 * np.sqrt(pi * (1 - pi) / samples) + 1e-12
        return
    prior = sampling_distribution(runs)
    for t, d, p in prior.itertuples(index=False):
        pi = probs.get((t, d))
        if pi is None:  # never drawn: its π must be small
            pi = 1 - (1 - p) ** 3 if design == "with-replacement" else None
            assert pi is None or pi < 5 / samples
            continue
        if design == "with-replacement":
            assert pi == pytest.approx(1 - (1 - p) ** 3, rel=1e-12)
        freq = counts[(t, d)] / samples
        assert abs(freq - pi) <= 4.5 * np.sqrt(pi * (1 - pi) / samples) + 1e-12
    if design == "poisson":  # 3 judgments per topic in expectation
        assert np.allclose(pd.DataFrame(probs, index=[0]).T.groupby(level=0).sum(), 3.0)
        mean_size = pd.concat(sizes, axis=1).fillna(0).mean(axis=1)
        assert np.all(np.abs(mean_size - 3) < 0.3)


def test_same_seed_same_sample_and_bad_input():
    runs = random_runs(2)
    a = sample_judgments(runs, 5, rng=11)
    pd.testing.assert_frame_equal(a, sample_judgments(runs, 5, rng=11))
    assert not a.equals(sample_judgments(runs, 5, rng=12))
    with pytest.raises(ParameterError, match="size"):
        sample_judgments(runs, 0)
    with pytest.raises(ParameterError, match="design"):
        sample_judgments(runs, 3, design="systematic")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="strata"):
        sample_judgments(runs, 3, design="stratified", strata=STRATA)
    with pytest.raises(ParameterError, match="increase"):
        sample_judgments(runs, design="stratified", strata=[(5, 1.0), (2, 0.5)])
    with pytest.raises(ParameterError, match="rate"):
        sample_judgments(runs, design="stratified", strata=[(5, 0.0)])
    with pytest.raises(ParameterError, match="strata"):
        sample_judgments(runs, 3, strata=STRATA)
    with pytest.raises(ParameterError, match="size"):
        sample_judgments(runs)
    with pytest.raises(ParameterError, match="cut"):
        estimate_sampled(a.assign(rel=1), runs, cutoffs=[0])
    with pytest.raises(InputError, match="inclusion probability"):
        estimate_sampled(a.assign(rel=1, prob=0.0), runs)
    with pytest.raises(InputError, match="lack column"):
        estimate_sampled(a, runs)  # not judged yet: no rel column
    with pytest.raises(InputError, match="retrieve no document"):
        estimate_sampled(a.assign(rel=1, topic="zz" + a["topic"]), runs)


def test_cli_sample_then_estimate_is_the_api(tmp_path, capsys):
    from irscale.cli.main import main

    runs = random_runs(6, n_runs=3)
    qrels = random_qrels(6)
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} 1 {s} {name}\n" for t, d, s in
                                run.itertuples(index=False)))
        paths.append(str(path))
    (tmp_path / "q.txt").write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in
                                            qrels.itertuples(index=False)))
    sample_path = tmp_path / "s.txt"
    assert main(["pool", "sample", *paths, "--size", "4", "--seed", "3", "--design", "poisson",
                 "--qrels", str(tmp_path / "q.txt"), "-o", str(sample_path)]) == 0
    expected = sample_judgments(runs, 4, design="poisson", rng=3, qrels=qrels)
    written = read_sampled_qrels(sample_path)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)  # prob round-trips
    capsys.readouterr()
    assert main(["pool", "estimate", str(sample_path), *paths, "--cutoffs", "2,5",
                 "--format", "csv"]) == 0
    assert capsys.readouterr().out == estimate_sampled(expected, runs, cutoffs=[2, 5]).format(
        "csv")


@pytest.mark.parametrize("design", ["with-replacement", "poisson"])
def test_clef_statap_ranks_the_runs_as_map(clef, design):
    """The real CLEF 2016 runs, the qrels acting as the assessor: 200 sampled judgments per
    topic (of pools of thousands of documents) rank the 16 runs by mean statAP as MAP ranks
    them, τ ≥ 0.95 (docs/collections.md §5)."""
    import warnings

    import scipy.stats

    from irscale.cli.runargs import named_runs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # runs sharing a run id
        runs = named_runs(sorted(str(p) for p in (clef / "runs").glob("*.txt")), "file")
    qrels = irscale.read_qrels(clef / "task2.qrels")
    exact = irscale.evaluate(qrels, runs, "map").to_matrix()
    sample = sample_judgments(runs, 200, design=design, rng=1, qrels=qrels)
    estimated = estimate_sampled(sample, runs).mean()["statAP"]
    truth = exact.values[:, :, 0].mean(axis=0)
    tau = scipy.stats.kendalltau(estimated.loc[list(exact.systems)], truth)[0]
    assert tau >= 0.95, tau
    assert len(sample) < 200 * 50  # fewer judgments than the 25,000 of the qrels


def test_sample_lines_are_what_judges_and_estimate_sampled_read():
    from irscale.collections.sampling import sample_lines

    sample = pd.DataFrame({"topic": ["1", "2"], "docno": ["a", "b"], "prob": [0.5, 1 / 3]},
                          index=[4, 7])
    assert sample_lines(sample) == ["1 a 0.5", f"2 b {1 / 3!r}"]
    judged = sample.assign(rel=[2, 0])[["topic", "docno", "rel", "prob"]]
    assert sample_lines(judged) == ["1 0 a 2 0.5", f"2 0 b 0 {1 / 3!r}"]
