"""AWARE (Ferrante, Ferro & Maistro 2017): uniform weights against a mean of
per-assessor evaluations run one by one here, every weighting on a hand example, the
combination with missing topics, reproducibility, errors; the ``irscale labels`` CLI
against the API."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.cli.main import main
from irscale.collections.aware import WEIGHTINGS, aware, aware_weights
from irscale.collections.labels import aggregate_labels
from irscale.errors import InputError, ParameterError

LABELS = pd.DataFrame(
    [("1", "d1", "w1", 1), ("1", "d2", "w1", 0), ("1", "d3", "w1", 1),
     ("1", "d1", "w2", 0), ("1", "d2", "w2", 1), ("1", "d3", "w2", 1),
     ("1", "d1", "w3", 1), ("1", "d2", "w3", 1), ("1", "d3", "w3", 0),
     ("2", "d4", "w1", 1), ("2", "d5", "w1", 0),
     ("2", "d4", "w2", 0), ("2", "d5", "w2", 1)],          # w3 judges nothing of topic 2
    columns=["topic", "docno", "worker", "label"])
RUNS = {"A": {"1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "2": {"d4": 2.0, "d5": 1.0}},
        "B": {"1": {"d3": 3.0, "d2": 2.0, "d1": 1.0}, "2": {"d5": 2.0, "d4": 1.0}},
        "C": {"1": {"d2": 3.0, "d1": 2.0, "d3": 1.0}, "2": {"d4": 2.0, "d5": 1.0}}}


def test_uniform_is_the_mean_of_the_assessors_evaluations():
    result = aware(LABELS, RUNS, "map")
    per_worker = {}
    for worker, group in LABELS.groupby("worker"):
        qrels = {t: dict(zip(g.docno, g.label, strict=True)) for t, g in group.groupby("topic")}
        per_worker[worker] = {
            (t, run): irscale.evaluate(qrels, {run: RUNS[run]}, "map").to_matrix()
            .to_frame().loc[t, run] if t in qrels else np.nan
            for t in ("1", "2") for run in RUNS}
    for t in ("1", "2"):
        for run in RUNS:
            expected = np.nanmean([per_worker[w][(t, run)] for w in per_worker])
            assert result.matrix.to_frame().loc[t, run] == pytest.approx(expected, abs=1e-12)
    # topic 2: w3 judged nothing, the two others weigh 1/2 each
    assert result.weights.loc["2"].tolist() == [0.5, 0.5, 0.0]
    np.testing.assert_allclose(result.weights.loc["1"], [1 / 3] * 3)
    # by hand: topic 1, run A ranks d1 d2 d3; w1 (d1, d3 relevant): AP = (1 + 2/3)/2 = 5/6,
    # w2 (d2, d3): (1/2 + 2/3)/2 = 7/12, w3 (d1, d2): 1; mean (10 + 7 + 12)/36 = 29/36
    assert result.matrix.to_frame().loc["1", "A"] == pytest.approx(29 / 36)


def test_every_weighting_is_an_expectation_over_the_assessors():
    """The TOIS abstract: AWARE "takes the expectation of a generic performance measure ...
    composed with" the assessor random variable. Whatever the weighting, the weights of a
    topic are a probability distribution over the assessors who judge it (0 for the others)
    and every AWARE score is that expectation, so it lies between the smallest and the
    largest of the assessors' scores. By hand for topic 2, run B, msd-topic weights p and
    1 − p on w1 and w2: B ranks d5 d4; w1 (d4 relevant) AP = 1/2, w2 (d5) AP = 1, so
    AWARE = p/2 + (1 − p)."""
    for weighting in WEIGHTINGS:
        result = aware(LABELS, RUNS, "map", weights=weighting, **_random(weighting, 5, 11))
        w = result.weights
        assert (w.to_numpy() >= 0).all()
        np.testing.assert_allclose(w.sum(axis=1), 1.0)
        assert w.loc["2", "w3"] == 0.0                       # w3 judges nothing of topic 2
        scores = result.assessors                            # assessors × topics × runs
        matrix = result.matrix.array()
        assert (matrix >= np.nanmin(scores, axis=0) - 1e-12).all()
        assert (matrix <= np.nanmax(scores, axis=0) + 1e-12).all()
        p = w.loc["2", "w1"]
        assert result.matrix.to_frame().loc["2", "B"] == pytest.approx(p / 2 + (1 - p))


def test_msd_weights_by_hand():
    # two assessors, two topics, two runs; one random assessor scoring 0.5 everywhere.
    # squared gaps: assessor 1 [[0, .25], [0, 0]] (mean 1/16), assessor 2 all 1/4:
    # weights 1/16 : 1/4 = 0.2 : 0.8
    scores = [[[0.5, 0.0], [0.5, 0.5]], [[1.0, 1.0], [1.0, 1.0]]]
    random = [[[0.5, 0.5], [0.5, 0.5]]]
    np.testing.assert_allclose(aware_weights(scores, random, "msd"), [[0.2, 0.8]] * 2)
    # per topic: topic 1 gaps 1/8 and 1/4 -> 1/3, 2/3; topic 2 gaps 0 and 1/4 -> 0, 1
    np.testing.assert_allclose(aware_weights(scores, random, "msd-topic"),
                               [[1 / 3, 2 / 3], [0.0, 1.0]])
    # two random assessors: the gaps average over them
    random2 = [[[0.5, 0.5], [0.5, 0.5]], [[0.0, 0.0], [0.0, 0.0]]]
    # assessor 1: (1/16 + mean(.25, 0, .25, .25) = 3/16) / 2 = 1/8; assessor 2: (1/4 + 1)/2
    np.testing.assert_allclose(aware_weights(scores, random2, "msd")[0],
                               [0.125 / 0.75, 0.625 / 0.75])


def test_tau_weights_by_hand():
    # one topic, three runs; the random assessor ranks the runs c > b > a.
    # assessor 1 ranks a > b > c: tau -1, distance 1; assessor 2 c > b > a: tau 1, distance
    # 0; assessor 3 a > c > b: pairs ab and ac discordant, bc concordant: tau -1/3,
    # distance 2/3 -> weights 1 : 0 : 2/3 = 0.6, 0, 0.4
    scores = [[[0.9, 0.5, 0.1]], [[0.1, 0.5, 0.9]], [[0.9, 0.1, 0.5]]]
    random = [[[0.2, 0.4, 0.6]]]
    np.testing.assert_allclose(aware_weights(scores, random, "tau"), [[0.6, 0.0, 0.4]])


def test_uniform_weights_and_missing_topics_by_hand():
    scores = [[[0.5, 0.5]], [[np.nan, np.nan]], [[1.0, 0.0]]]
    np.testing.assert_allclose(aware_weights(scores), [[0.5, 0.0, 0.5]])


def _random(weighting: str, n: int, seed: int) -> dict:
    """The random assessors of a weighting that compares with them (uniform takes none)."""
    return {} if weighting == "uniform" else {"n_random": n, "rng": seed}


def test_combination_uses_the_weights_and_is_reproducible():
    for weighting in WEIGHTINGS:
        result = aware(LABELS, RUNS, "map", weights=weighting, **_random(weighting, 4, 3))
        w = result.weights.to_numpy()
        np.testing.assert_allclose(w.sum(axis=1), 1.0)
        expected = np.einsum("tk,kts->ts", w, np.nan_to_num(result.assessors))
        np.testing.assert_allclose(result.matrix.array(), expected)
        again = aware(LABELS, RUNS, "map", weights=weighting, **_random(weighting, 4, 3))
        pd.testing.assert_frame_equal(again.weights, result.weights)


def test_clef_assessors_with_planted_accuracies(clef):
    """Three assessors relabel the CLEF 2016 qrels with accuracies 0.9, 0.8 and 0.6 (a wrong
    label uniform on 0..2): msd ranks them by accuracy, and AWARE's system ranking stays
    close to the true qrels' (τ ≥ 0.85). Judged documents no run retrieves are refused,
    then kept with allow_unretrieved."""
    import warnings

    from irscale.stats.kendall import kendall_tau

    qrels = irscale.read_qrels(clef / "task2.qrels")
    frame = pd.DataFrame({"topic": qrels.topic.to_pylist(), "docno": qrels.docno.to_pylist(),
                          "rel": np.minimum(np.asarray(qrels.rel), 2)})
    rng = np.random.default_rng(0)
    rows = []
    for worker, accuracy in (("w1", 0.9), ("w2", 0.8), ("w3", 0.6)):
        right = rng.random(len(frame)) < accuracy
        rows.append(frame.assign(worker=worker, label=np.where(
            right, frame.rel, rng.integers(0, 3, len(frame))))[
                ["topic", "docno", "worker", "label"]])
    labels = pd.concat(rows, ignore_index=True)
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # runs sharing a run id are named after files
        with pytest.raises(InputError, match="no run retrieves"):
            aware(labels, runs, "map")
        result = aware(labels, runs, "map", weights="msd", n_random=3, rng=1,
                       allow_unretrieved=True)
        truth = irscale.evaluate(qrels, runs, "map").to_matrix().mean()
    weights = result.weights.mean()
    assert weights["w1"] > weights["w2"] > weights["w3"]
    assert kendall_tau(np.nanmean(result.matrix.array(), axis=0), truth).tau >= 0.85


def test_errors_name_the_line():
    extra = pd.concat([LABELS, pd.DataFrame([("2", "d9", "w3", 1)],
                                            columns=LABELS.columns)], ignore_index=True)
    with pytest.raises(InputError, match=r"line 14: labels a document that no run retrieves"
                       r".*2 d9 w3 1"):
        aware(extra, RUNS, "map")
    with pytest.raises(ParameterError, match="unknown weighting 'zz'"):
        aware(LABELS, RUNS, "map", weights="zz")
    with pytest.raises(ParameterError, match="one measure"):
        aware(LABELS, RUNS, "P.5,10")
    with pytest.raises(ParameterError, match="n_random"):
        aware(LABELS, RUNS, "map", weights="msd", n_random=0)


def test_cli_equals_the_api(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "labels.txt").write_text("".join(
        f"{t} {d} {w} {x}\n" for t, d, w, x in LABELS.itertuples(index=False)))
    for name, run in RUNS.items():
        (tmp_path / f"{name}.run").write_text("".join(
            f"{t} Q0 {d} 1 {s} {name}\n" for t, docs in run.items() for d, s in docs.items()))
    assert main(["labels", "aggregate", "labels.txt", "--method", "ds", "-o", "q.txt",
                 "--confidence", "c.txt", "--workers", "w.txt"]) == 0
    agg = aggregate_labels(LABELS, "ds")
    assert (tmp_path / "q.txt").read_text().splitlines() == agg.lines()
    conf = [line.split() for line in (tmp_path / "c.txt").read_text().splitlines()]
    np.testing.assert_allclose([float(c[3]) for c in conf], agg.qrels["confidence"])
    workers = [line.split() for line in (tmp_path / "w.txt").read_text().splitlines()]
    assert [w[0] for w in workers] == agg.workers["worker"].tolist()
    np.testing.assert_allclose([float(w[2]) for w in workers], agg.workers["quality"])
    capsys.readouterr()
    assert main(["labels", "aware", "labels.txt", "A.run", "B.run", "C.run", "-m", "map",
                 "--weights", "msd", "--seed", "5", "--random", "3"]) == 0
    printed = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out), index_col=0,
                          dtype={"topic": str})
    expected = aware(LABELS, {n: f"{n}.run" for n in RUNS}, "map", weights="msd", rng=5,
                     n_random=3).matrix.to_frame()
    np.testing.assert_allclose(printed.to_numpy(), expected.to_numpy())
    # the score matrix is a compare --scores input
    (tmp_path / "m.csv").write_text(expected.rename_axis("topic").to_csv())
    assert main(["compare", "--scores", "m.csv", "--test", "t"]) == 0


def test_random_assessors_do_not_depend_on_the_order_of_the_lines():
    """The same seed gives the same weights and scores when the label file's lines are
    shuffled: the random assessors label the (topic, docno) pairs in sorted order."""
    shuffled = LABELS.sample(frac=1.0, random_state=7).reset_index(drop=True)
    for weighting in WEIGHTINGS:
        one = aware(LABELS, RUNS, "map", weights=weighting, **_random(weighting, 4, 3))
        other = aware(shuffled, RUNS, "map", weights=weighting, **_random(weighting, 4, 3))
        pd.testing.assert_frame_equal(one.weights.sort_index(axis=1),
                                      other.weights.sort_index(axis=1))
        np.testing.assert_allclose(one.matrix.array(), other.matrix.array())
