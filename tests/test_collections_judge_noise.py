"""Judgment noise (:mod:`irscale.collections.judgment_noise`): an identity confusion changes
nothing; the relabelling's empirical confusion matches the stated matrix (χ² at a fixed
seed); every replicate's means, orders and t-test decisions equal pytrec_eval's and
scipy's on the relabelled qrels; the estimated confusion (of double-judged qrels, of
labels auto's human sample) equals counts made by hand."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from irscale.collections import Confusion, judge_noise, relabelled_qrels
from irscale.errors import AlignmentError, InputError, ParameterError

from .oracle_imports import lazy_importorskip

pytrec_eval = lazy_importorskip("pytrec_eval")

GRADED = Confusion(np.array([0, 1, 2]), np.array([[0.8, 0.15, 0.05], [0.2, 0.6, 0.2],
                                                  [0.05, 0.25, 0.7]]))


def collection(seed=5, topics=8, docs=25, runs=4):
    """Graded qrels (0, 1, 2; a few -1: pooled, unjudged) and runs retrieving judged and
    unjudged documents, as dicts."""
    rng = np.random.default_rng(seed)
    qrels = {f"t{t}": {f"d{d}": int(rng.choice([0, 0, 0, 1, 2, -1])) for d in range(docs)}
             for t in range(topics)}
    named = {f"r{r}": {f"t{t}": {f"d{d}": float(s) for d, s in enumerate(
        rng.random(docs + 5)) if rng.random() < 0.7} for t in range(topics)}
        for r in range(runs)}
    return qrels, named


def as_dict(q):
    """A :class:`Qrels` as pytrec_eval's ``{topic: {doc: grade}}``."""
    out: dict[str, dict[str, int]] = {}
    for t, d, g in zip(q.topic.to_pylist(), q.docno.to_pylist(), q.rel.tolist(), strict=True):
        out.setdefault(t, {})[d] = int(g)
    return out


def oracle(qrels, runs, measure):
    """pytrec_eval's topics × runs values of ``measure`` (topics in sorted order)."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {measure})
    per_run = {name: evaluator.evaluate(run) for name, run in runs.items()}
    topics = sorted(next(iter(per_run.values())))
    return np.array([[per_run[name][t][measure] for name in runs] for t in topics])


def test_identity_confusion_keeps_everything():
    qrels, runs = collection()
    result = judge_noise(qrels, runs, ["map", "P@5"], Confusion(np.array([0, 1, 2]),
                                                                  np.eye(3)),
                         replicates=15, rng=2)
    assert (result.pairs["order_kept"] == 1).all()
    assert (result.pairs["decision_kept"] == 1).all()
    assert (result.measures["pairs_flipping"] == 0).all()
    assert (result.measures["mean_tau"] == 1).all()
    for label, means in result.means.items():
        assert (means == means[0]).all(), label


def test_relabelling_matches_the_stated_confusion():
    qrels, _ = collection(topics=20, docs=40)
    replicas = relabelled_qrels(qrels, GRADED, 150, rng=11)
    original = np.array([g for t in sorted(qrels) for g in qrels[t].values()])
    truth = np.asarray(relabelled_qrels(qrels, Confusion(np.array([0, 1, 2]), np.eye(3)), 1,
                                        rng=0)[0].rel)
    counts = np.zeros((3, 3))
    for q in replicas:
        rel = np.asarray(q.rel)
        kept = truth >= 0
        np.add.at(counts, (truth[kept], rel[kept]), 1)
        assert (rel[~kept] == truth[~kept]).all()  # the unjudged are kept
    assert sorted(original.tolist()) == sorted(truth.tolist())
    for i in range(3):
        expected = GRADED.matrix[i] * counts[i].sum()
        assert stats.chisquare(counts[i], expected).pvalue > 1e-3, (i, counts[i], expected)


@pytest.mark.parametrize("measure", ["map", "P_5", "ndcg"])
def test_replicates_equal_pytrec_eval_on_the_relabelled_qrels(measure):
    qrels, runs = collection()
    label = {"P_5": "P@5"}.get(measure, measure)
    result = judge_noise(qrels, runs, label, GRADED, replicates=6, rng=4, test="t")
    base = oracle(qrels, runs, measure)
    pairs = list(itertools.combinations(range(len(runs)), 2))
    order_kept, decision_kept = np.zeros(len(pairs)), np.zeros(len(pairs))

    def decisions(values):
        out = []
        for a, b in pairs:
            p = stats.ttest_rel(values[:, a], values[:, b]).pvalue
            diff = values[:, a].mean() - values[:, b].mean()
            out.append(np.sign(np.round(diff, 12)) if p <= 0.05 else 0)
        return np.array(out)

    base_decisions = decisions(base)
    for r, replica in enumerate(relabelled_qrels(qrels, GRADED, 6, rng=4)):
        values = oracle(as_dict(replica), runs, measure)
        np.testing.assert_allclose(result.means[label][r], values.mean(axis=0), rtol=1e-12,
                                   atol=1e-12)
        means, original = values.mean(axis=0), base.mean(axis=0)
        order_kept += [np.sign(np.round(means[a] - means[b], 12))
                       == np.sign(np.round(original[a] - original[b], 12)) for a, b in pairs]
        decision_kept += decisions(values) == base_decisions
    np.testing.assert_allclose(result.pairs["order_kept"], order_kept / 6)
    np.testing.assert_allclose(result.pairs["decision_kept"], decision_kept / 6)
    tau = [stats.kendalltau(np.round(base.mean(axis=0), 12), np.round(m, 12)).statistic
           for m in result.means[label]]  # (means equal up to rounding tie)
    np.testing.assert_allclose(result.measures["mean_tau"][0], np.mean(tau))


def test_estimated_confusion_equals_counts_by_hand():
    first = {"t1": {"a": 0, "b": 1, "c": 2, "d": 0}, "t2": {"a": 1, "b": 1, "c": 0, "e": 0}}
    second = {"t2": {"e": 1, "c": 0, "b": 2, "a": 1}, "t1": {"d": 0, "c": 2, "b": 0, "a": 1}}
    counts = Counter((first[t][d], second[t][d]) for t in first for d in first[t])
    grades = [0, 1, 2]
    row = {i: sum(counts[(i, j)] for j in grades) for i in grades}
    expected = [[(counts[(i, j)] + 0.5) / (row[i] + 1.5) for j in grades] for i in grades]
    found = Confusion.estimate(first, second)
    assert found.grades.tolist() == grades
    np.testing.assert_allclose(found.matrix, expected)


def test_confusion_from_labels_auto_sample_equals_a_crosstab():
    """P(automatic | human) of labels auto's human sample: the pairs both judge counted by
    pandas' crosstab, then add-½ smoothed here (human pairs the automatic judgments lack, and
    unjudged grades, left out)."""
    import pandas as pd

    rng = np.random.default_rng(8)
    auto = {f"t{t}": {f"d{d}": int(rng.choice([0, 1, 1, 2])) for d in range(30)}
            for t in range(6)}
    human = {t: {d: int(min(2, max(0, g + rng.choice([-1, 0, 0, 0, 1]))))
                 for d, g in auto[t].items() if rng.random() < 0.5}
             for t in ("t0", "t2", "t3")}
    human["t2"]["extra"] = 1  # a pair the automatic judgments lack
    human["t3"]["d0"] = -1  # pooled, not judged
    rows = [(t, d, g, auto[t].get(d)) for t in human for d, g in human[t].items()]
    frame = pd.DataFrame(rows, columns=["topic", "docno", "human", "auto"]).dropna()
    frame = frame[(frame["human"] >= 0) & (frame["auto"] >= 0)]
    counts = pd.crosstab(frame["human"], frame["auto"]).reindex(
        index=[0, 1, 2], columns=[0, 1, 2], fill_value=0).to_numpy()
    expected = (counts + 0.5) / (counts.sum(axis=1, keepdims=True) + 3 / 2)
    found = Confusion.from_sample(auto, human)
    assert found.grades.tolist() == [0, 1, 2]
    np.testing.assert_allclose(found.matrix, expected)
    assert counts.sum() == len(frame) > 20 and (counts > 0).sum() >= 6
    with pytest.raises(InputError, match="share no"):
        Confusion.from_sample(auto, {"t9": {"x": 1}})


def test_same_seed_same_result():
    qrels, runs = collection()
    a = judge_noise(qrels, runs, "map", GRADED, replicates=7, rng=9)
    b = judge_noise(qrels, runs, "map", GRADED, replicates=7, rng=9)
    assert a.pairs.equals(b.pairs)
    assert (a.means["map"] == b.means["map"]).all()


def test_refusals():
    qrels, runs = collection()
    with pytest.raises(ParameterError, match="sums to"):
        Confusion(np.array([0, 1]), np.array([[0.5, 0.4], [0, 1]]))
    with pytest.raises(InputError, match="not a grade of the confusion"):
        judge_noise(qrels, runs, "map", Confusion.flip(0.1), replicates=2)
    with pytest.raises(AlignmentError, match="lacks"):
        Confusion.estimate({"t": {"a": 1, "b": 0}}, {"t": {"a": 1}})
    with pytest.raises(ParameterError, match="replicates"):
        judge_noise(qrels, runs, "map", GRADED, replicates=0)
