"""Automatic judgments with a probability per label (irscale.collections.automatic,
``label_probabilities``): the automatic values are the measures' expected values under the
label distributions, computed here from the files (P@10: the probability of a relevant
grade of each top-10 document, over 10), and the prediction-powered estimates made with
them equal ppi-python's (the authors' library), for a sample of topics and of pairs; AP's
expected value, estimated from drawn labels, agrees with an enumeration of every grade
assignment; a distribution sure of every label gives the results of the plain qrels; the
command line prints the API's table (``--draws``, ``--seed``), and the report's section on
automatic judgments corrects with the expected values as ppi-python does."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.collections import automatic_judgments
from irscale.errors import InputError, ParameterError

from .oracle_imports import lazy_import
from .test_collections_automatic import _pytrec_values, _qrels, _write
from .test_collections_automatic_pairs import _ranks

ppi_py = lazy_import("ppi_py")

GRADES = (0, 1, 2)


def _distributions(truth, rng) -> list[tuple[str, str, int, float]]:
    """An assessor's probabilities of the grades 0-2: Dirichlet draws weighted towards a
    label that misses 30% of the relevant documents and calls 10% of the others relevant."""
    lines = []
    for (t, d, r), u in zip(truth, rng.random(len(truth)), strict=True):
        label = 0 if r > 0 and u < 0.3 else 1 if r == 0 and u < 0.1 else r
        weights = np.ones(3) + 4 * (np.arange(3) == label)
        for grade, p in zip(GRADES, rng.dirichlet(weights), strict=True):
            lines.append((t, d, grade, float(p)))
    return lines


def _write_probabilities(path, lines) -> str:
    path.write_text("".join(f"{t} 0 {d} {g} {p!r}\n" for t, d, g, p in lines))
    return str(path)


def _relevant(lines) -> dict[tuple[str, str], float]:
    """(topic, docno) → probability of a grade ≥ 1."""
    found: dict[tuple[str, str], float] = {}
    for t, d, g, p in lines:
        found[(t, d)] = found.get((t, d), 0.0) + (p if g >= 1 else 0.0)
    return found


def _expected_precision(relevant, ranks, topics) -> np.ndarray:
    """Per topic, E[P@10] = Σ over the top 10 of P(relevant) / 10."""
    found = dict.fromkeys(topics, 0.0)
    for (t, d), p in relevant.items():
        if t in found and ranks.get((t, d), 11) <= 10:
            found[t] += p / 10
    return np.array([found[t] for t in topics])


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from .conftest import CLEF, require

    clef = require(CLEF)
    tmp = tmp_path_factory.mktemp("automatic_probs")
    rng = np.random.default_rng(7)
    truth = _qrels(clef / "task2.qrels")
    lines = _distributions(truth, rng)
    topics = sorted({t for t, _, _ in truth})
    labelled = sorted(rng.choice(topics, 20, replace=False).tolist())
    runs = sorted(str(p) for p in (clef / "runs").iterdir())[:3]
    sample = np.sort(rng.choice(len(truth), 3000, replace=False))
    return {"truth": truth, "lines": lines, "topics": topics, "labelled": labelled,
            "runs": runs, "ranks": [_ranks(p) for p in runs], "sample": sample,
            "auto_path": _write_probabilities(tmp / "auto.txt", lines),
            "human_path": _write(tmp / "human.qrels",
                                 [r for r in truth if r[0] in set(labelled)]),
            "pairs_path": _write(tmp / "pairs.qrels", [truth[i] for i in sample])}


@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
def test_topic_design_predicts_the_expected_values(setup, tuning, lam):
    s = setup
    found = automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "P@10",
                                tuning=tuning, alpha=0.1, label_probabilities=True
                                ).to_frame()
    relevant = _relevant(s["lines"])
    others = [t for t in s["topics"] if t not in set(s["labelled"])]
    for r, path in enumerate(s["runs"]):
        y = _pytrec_values(s["truth"], path, "P_10", s["labelled"])
        yhat = _expected_precision(relevant, s["ranks"][r], s["labelled"])
        rest = _expected_precision(relevant, s["ranks"][r], others)
        low, high = ppi_py.ppi_mean_ci(y, yhat, rest, alpha=0.1, lam=lam)
        point = ppi_py.ppi_mean_pointestimate(y, yhat, rest, lam=lam)
        row = found.iloc[r]
        assert row["ppi"] == pytest.approx(float(np.ravel(point)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9, abs=1e-12)
        assert row["automatic"] == pytest.approx(np.concatenate([yhat, rest]).mean(),
                                                 abs=1e-12)


def test_pair_design_predicts_the_expected_contributions(setup):
    """Uniform sample of pairs: the prediction of pair p is P(relevant)·[rank ≤ 10]/(10·T),
    scaled by the number of pairs as the design's units."""
    s = setup
    found = automatic_judgments(s["auto_path"], s["pairs_path"], s["runs"], "P@10",
                                design="uniform", tuning="ppi", alpha=0.1,
                                label_probabilities=True).to_frame()
    relevant = _relevant(s["lines"])
    size, n_topics = len(s["truth"]), len(s["topics"])
    for r, ranks in enumerate(s["ranks"]):
        z = np.array([size * (ranks.get((t, d), 11) <= 10 and g >= 1) / (10 * n_topics)
                      for t, d, g in s["truth"]])
        zhat = np.array([size * relevant[(t, d)] * (ranks.get((t, d), 11) <= 10)
                         / (10 * n_topics) for t, d, _ in s["truth"]])
        low, high = ppi_py.ppi_mean_ci(z[s["sample"]], zhat[s["sample"]], zhat, alpha=0.1,
                                       lam=1)
        row = found.iloc[r]
        assert row["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9, abs=1e-12)
        assert row["automatic"] == pytest.approx(zhat.mean(), abs=1e-12)


def _markdown_table(text: str, title: str) -> pd.DataFrame:
    """The Markdown table that follows the line holding ``title``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() and rows:
            break
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return pd.DataFrame(rows[1:], columns=rows[0])


def test_report_corrects_with_the_expected_values(setup, tmp_path):
    """``irscale report --automatic AUTO --label-probabilities``: the section's corrected
    means are ppi-python's PPI++ estimates (95%) with E[P@10] as the predictions, and its
    caption says the automatic values are expected values."""
    s = setup
    out = tmp_path / "report.md"
    assert main(["report", s["human_path"], *s["runs"], "--automatic", s["auto_path"],
                 "--label-probabilities", "-m", "P_10", "--no-robustness", "--format",
                 "markdown", "--digits", "6", "-o", str(out)]) == 0
    text = out.read_text()
    means = _markdown_table(text, "expected values under the label probabilities")
    relevant = _relevant(s["lines"])
    others = [t for t in s["topics"] if t not in set(s["labelled"])]
    assert len(means) == len(s["runs"])
    for r, path in enumerate(s["runs"]):
        y = _pytrec_values(s["truth"], path, "P_10", s["labelled"])
        yhat = _expected_precision(relevant, s["ranks"][r], s["labelled"])
        rest = _expected_precision(relevant, s["ranks"][r], others)
        low, high = ppi_py.ppi_mean_ci(y, yhat, rest, alpha=0.05)
        point = ppi_py.ppi_mean_pointestimate(y, yhat, rest)
        row = means.iloc[r]
        for column, value in (("ppi", point), ("ppi_low", low), ("ppi_high", high)):
            assert float(row[column]) == pytest.approx(float(np.ravel(value)[0]), abs=6e-7)
        assert float(row["automatic"]) == pytest.approx(
            np.concatenate([yhat, rest]).mean(), abs=6e-7)


# ----------------------------------------------------------------- small cases, no data
QRELS = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"d": 1, "e": 0}, "3": {"f": 2, "g": 0},
         "4": {"h": 0, "i": 1}}
RUNS = {"x": {"1": {"a": 3.0, "b": 2.0, "c": 1.0}, "2": {"d": 2.0, "e": 1.0},
              "3": {"g": 2.0, "f": 1.0}, "4": {"i": 2.0, "h": 1.0}},
        "y": {"1": {"c": 3.0, "a": 2.0}, "2": {"e": 2.0, "d": 1.0},
              "3": {"f": 2.0}, "4": {"h": 2.0, "i": 1.0}}}
HUMAN = {"1": {"a": 1, "b": 1, "c": 2}, "2": {"d": 0, "e": 0}}


def _sure(qrels) -> pd.DataFrame:
    return pd.DataFrame([{"topic": t, "docno": d, "rel": r, "prob": 1.0}
                         for t, docs in qrels.items() for d, r in docs.items()])


@pytest.mark.parametrize("measure", ["P@2", "DCG@3", "RBP(p=0.5)"])
def test_sure_labels_give_the_plain_qrels_results(measure):
    plain = automatic_judgments(QRELS, HUMAN, RUNS, measure, pairs=True)
    sure = automatic_judgments(_sure(QRELS), HUMAN, RUNS, measure, pairs=True,
                               label_probabilities=True)
    pd.testing.assert_frame_equal(sure.estimates, plain.estimates, atol=1e-12, rtol=0)
    pd.testing.assert_frame_equal(sure.confusion, plain.confusion)


#: Pairs made uncertain: (topic, docno) → probabilities of the grades 0, 1, 2.
UNCERTAIN = {("1", "a"): (0.3, 0.5, 0.2), ("1", "b"): (0.6, 0.4, 0.0),
             ("3", "g"): (0.5, 0.0, 0.5), ("4", "h"): (0.2, 0.8, 0.0)}


def _uncertain() -> pd.DataFrame:
    rows = []
    for t, docs in QRELS.items():
        for d, r in docs.items():
            for grade, p in enumerate(UNCERTAIN.get((t, d), np.eye(3)[r])):
                if p > 0:
                    rows.append({"topic": t, "docno": d, "rel": grade, "prob": float(p)})
    return pd.DataFrame(rows)


def _exact_ap(run) -> tuple[np.ndarray, np.ndarray]:
    """Per topic, the mean and variance of AP over every assignment of the uncertain pairs'
    grades, weighted by its probability (pytrec_eval)."""
    import itertools

    import pytrec_eval

    means, variances = [], []
    for topic, docs in QRELS.items():
        pairs = [d for d in docs if (topic, d) in UNCERTAIN]
        values, weights = [], []
        for grades in itertools.product(range(3), repeat=len(pairs)):
            weight = np.prod([UNCERTAIN[(topic, d)][g] for d, g in zip(pairs, grades,
                                                                       strict=True)])
            if weight == 0:
                continue
            qrels = {topic: {**docs, **dict(zip(pairs, grades, strict=True))}}
            values.append(pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(
                {topic: run[topic]})[topic]["map"])
            weights.append(weight)
        mean = float(np.dot(weights, values))
        means.append(mean)
        variances.append(float(np.dot(weights, (np.array(values) - mean) ** 2)))
    return np.array(means), np.array(variances)


def test_other_measures_take_the_mean_of_drawn_labels():
    """AP is not a sum over the documents: its automatic mean is the mean over drawn
    labels, within 5 standard errors (from the exact variance) of its expectation over
    every assignment of the uncertain grades."""
    draws = 300
    found = automatic_judgments(_uncertain(), HUMAN, RUNS, "map", label_probabilities=True,
                                draws=draws, rng=3).estimates
    for name, run in RUNS.items():
        mean, variance = _exact_ap(run)
        error = np.sqrt(variance.sum() / draws) / len(mean)
        row = found[found.system == name].iloc[0]
        assert abs(row["automatic"] - mean.mean()) <= 5 * error + 1e-12, (name, error)


def test_most_probable_label_and_refusals(tmp_path):
    """The label of a pair is its most probable grade, the lower on a tie (the confusion
    matrix counts it); a document-level design refuses a measure that is not a sum over
    the ranked documents."""
    lines = _sure(QRELS)
    lines = pd.concat([lines[lines.docno != "a"],
                       pd.DataFrame([{"topic": "1", "docno": "a", "rel": 2, "prob": 0.5},
                                     {"topic": "1", "docno": "a", "rel": 1, "prob": 0.5}])])
    found = automatic_judgments(lines, HUMAN, RUNS, "P@2", label_probabilities=True)
    assert found.confusion.loc[1, "human=1"] == 1  # a: 1 (the lower of 1 and 2), human 1
    with pytest.raises(ParameterError, match=r"map: its per-topic value is not a sum"):
        automatic_judgments(lines, HUMAN, RUNS, "map", label_probabilities=True,
                            design="uniform")
    with pytest.raises(ParameterError, match="draws"):
        automatic_judgments(lines, HUMAN, RUNS, "map", label_probabilities=True, draws=0)
    bad = lines.assign(prob=np.where(lines.docno == "b", 0.5, lines.prob))
    with pytest.raises(InputError, match=r"'b' of topic '1' sum to 0\.5, not 1"):
        automatic_judgments(bad, HUMAN, RUNS, "P@2", label_probabilities=True)


def test_command_line_prints_the_api_estimates(tmp_path, capsys):
    lines = _sure(QRELS)
    lines.loc[lines.docno == "f", "prob"] = 0.75
    lines = pd.concat([lines, pd.DataFrame([{"topic": "3", "docno": "f", "rel": 0,
                                             "prob": 0.25}])])
    auto = tmp_path / "auto.txt"
    auto.write_text("".join(f"{r.topic} 0 {r.docno} {r.rel} {r.prob}\n"
                            for r in lines.itertuples()))
    human = tmp_path / "human.qrels"
    human.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in HUMAN.items()
                             for d, r in docs.items()))
    runs = []
    for name, run in RUNS.items():
        path = tmp_path / name
        path.write_text("".join(f"{t} Q0 {d} 0 {s} {name}\n" for t, docs in run.items()
                                for d, s in docs.items()))
        runs.append(str(path))
    assert main(["labels", "auto", str(auto), str(human), *runs, "-m", "P@2",
                 "--label-probabilities", "--format", "csv"]) == 0
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    expected = automatic_judgments(str(auto), str(human), runs, "P@2",
                                   label_probabilities=True).estimates
    assert printed["ppi"].tolist() == pytest.approx(expected["ppi"].tolist(), abs=1e-12)
    assert printed["automatic"].tolist() == pytest.approx(expected["automatic"].tolist(),
                                                          abs=1e-12)
    # --draws and --seed reach the draws of a measure that is not a sum (AP)
    assert main(["labels", "auto", str(auto), str(human), *runs, "-m", "map",
                 "--label-probabilities", "--draws", "7", "--seed", "5", "--format",
                 "csv"]) == 0
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    drawn = automatic_judgments(str(auto), str(human), runs, "map", label_probabilities=True,
                                draws=7, rng=5).estimates
    default = automatic_judgments(str(auto), str(human), runs, "map",
                                  label_probabilities=True).estimates
    assert printed["automatic"].tolist() == pytest.approx(drawn["automatic"].tolist(),
                                                          abs=1e-12)
    assert printed["automatic"].tolist() != pytest.approx(default["automatic"].tolist(),
                                                          abs=1e-12)
