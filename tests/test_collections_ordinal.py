"""``hrm``: ordinal crowd labels by the hierarchical rater model's rater layer (Patz et al.
2002) on latent grades. crowd-kit has no ordinal method; the oracles are a brute force (the
marginal likelihood and the posteriors by enumerating every joint assignment of ideal
grades, written here one label at a time) and planted crowds whose grades, biases and
spreads are known."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from irscale.collections.labels import aggregate_labels
from irscale.errors import InputError


def kernel(k: int, c: int, phi: float, psi: float, n_grades: int) -> float:
    """e(k | c) ∝ exp(−(k − c − φ)² / (2ψ²)) over k = 0..K−1."""
    weights = [math.exp(-(g - c - phi) ** 2 / (2 * psi ** 2)) for g in range(n_grades)]
    return weights[k] / sum(weights)


def brute_force(table: pd.DataFrame, priors, phi: dict, psi: dict, n_grades: int):
    """Marginal likelihood and posteriors of every document, by summing over all K^n joint
    assignments of ideal grades."""
    docs = sorted(set(table["docno"]))
    total = 0.0
    posterior = np.zeros((len(docs), n_grades))
    for grades in itertools.product(range(n_grades), repeat=len(docs)):
        p = math.prod(priors[g] for g in grades)
        for doc, worker, label in zip(table["docno"], table["worker"], table["label"],
                                      strict=True):
            p *= kernel(label, grades[docs.index(doc)], phi[worker], psi[worker], n_grades)
        total += p
        posterior[np.arange(len(docs)), grades] += p
    return math.log(total), pd.DataFrame(posterior / total, index=docs)


SMALL = pd.DataFrame(
    [("1", d, w, g) for d, w, g in [
        ("a", "w1", 0), ("a", "w2", 1), ("a", "w3", 0),
        ("b", "w1", 2), ("b", "w2", 2), ("b", "w3", 1),
        ("c", "w1", 1), ("c", "w2", 2), ("c", "w3", 1),
        ("d", "w1", 0), ("d", "w2", 1), ("d", "w3", 2),
        ("e", "w1", 2), ("e", "w2", 2)]],
    columns=["topic", "docno", "worker", "label"])


def fitted(result):
    workers = result.workers.set_index("worker")
    return dict(workers["bias"]), dict(workers["spread"])


def test_posteriors_are_the_brute_force_ones():
    """Given the fitted parameters (π: the mean posterior, EM's fixed point), the
    posteriors are those of the enumeration of all 3^5 joint grade assignments."""
    result = aggregate_labels(SMALL, "hrm", tol=1e-14, n_iter=5000)
    assert result.converged
    probabilities = result.probabilities.droplevel("topic")
    priors = probabilities.mean(axis=0).to_numpy()
    phi, psi = fitted(result)
    _, posterior = brute_force(SMALL, priors, phi, psi, 3)
    np.testing.assert_allclose(probabilities.loc[posterior.index].to_numpy(),
                               posterior.to_numpy(), atol=1e-6)
    labels = result.qrels.set_index("docno")["label"]
    assert (labels[posterior.index].to_numpy() == posterior.to_numpy().argmax(axis=1)).all()


def test_fit_is_a_maximum_of_the_brute_force_likelihood():
    """No small step of (π, φ, ψ) raises the enumerated marginal likelihood."""
    result = aggregate_labels(SMALL, "hrm", tol=1e-14, n_iter=5000)
    priors = result.probabilities.mean(axis=0).to_numpy()
    phi, psi = fitted(result)
    best, _ = brute_force(SMALL, priors, phi, psi, 3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        step = rng.normal(0, 1e-3, 3)
        moved = np.abs(priors + step - step.mean())
        moved_phi = {w: v + rng.normal(0, 1e-3) for w, v in phi.items()}
        moved_psi = {w: v * math.exp(rng.normal(0, 1e-3)) for w, v in psi.items()}
        value, _ = brute_force(SMALL, moved / moved.sum(), moved_phi, moved_psi, 3)
        assert value <= best + 1e-9


def planted(seed: int, n_docs: int = 300, n_grades: int = 4):
    """Grades uniform on 0..K−1; six workers (bias φ, spread ψ) grading 70% of the
    documents by the HRM kernel."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_grades, n_docs)
    workers = {"g1": (0.0, 0.4), "g2": (0.0, 0.5), "g3": (0.0, 0.6), "lenient": (1.0, 0.5),
               "severe": (-1.0, 0.5), "noisy": (0.0, 1.5)}
    rows = []
    for i in range(n_docs):
        for name, (phi, psi) in workers.items():
            if rng.random() < 0.7:
                p = np.array([kernel(k, truth[i], phi, psi, n_grades)
                              for k in range(n_grades)])
                rows.append(("1", f"d{i}", name, int(rng.choice(n_grades, p=p))))
    return (pd.DataFrame(rows, columns=["topic", "docno", "worker", "label"]),
            pd.Series(truth, index=[f"d{i}" for i in range(n_docs)]), workers)


def accuracy(result, truth) -> float:
    labels = result.qrels.set_index("docno")["label"]
    return float((labels[truth.index] == truth).mean())


def test_planted_crowd_grades_biases_and_spreads():
    """The planted biases and spreads come back (within sampling error), and the grades
    are recovered better than by majority vote."""
    table, truth, workers = planted(1)
    result = aggregate_labels(table, "hrm")
    assert result.converged
    phi, psi = fitted(result)
    for name, (true_phi, true_psi) in workers.items():
        assert phi[name] == pytest.approx(true_phi, abs=0.2), name
        assert psi[name] == pytest.approx(true_psi, rel=0.25), name
    assert accuracy(result, truth) > 0.9
    assert accuracy(result, truth) > accuracy(aggregate_labels(table, "mv"), truth) + 0.1


def test_agreeing_workers_give_their_grade():
    table = pd.DataFrame([("1", f"d{i}", w, i % 3) for i in range(9) for w in ("a", "b")],
                         columns=["topic", "docno", "worker", "label"])
    result = aggregate_labels(table, "hrm")
    assert (result.qrels["label"].to_numpy() == np.arange(9) % 3).all()


def test_declared_scale_positions():
    """Grades are positions on the declared scale: labels 1 and 3 of the scale 1..4 are
    two grades apart, whatever grade 2 is never given."""
    table = pd.DataFrame([("1", "a", "w1", 1), ("1", "a", "w2", 3), ("1", "b", "w1", 4),
                          ("1", "b", "w2", 4)], columns=["topic", "docno", "worker", "label"])
    result = aggregate_labels(table, "hrm", scale=[1, 2, 3, 4])
    assert result.probabilities.columns.tolist() == [1, 2, 3, 4]


def test_one_label_value_is_refused():
    with pytest.raises(InputError, match="hrm needs two label values"):
        aggregate_labels(b"1 a w1 1\n1 b w2 1\n", "hrm")


def test_a_worker_who_ignores_the_grade():
    """Planted crowd plus a worker answering uniformly at random: a large spread and a
    quality near chance for that worker, finite values everywhere, no numerical warning
    (the fuzzed degenerate crowds that made ψ overflow before the spread was bounded), and
    the grades still recovered."""
    import warnings

    table, truth, _ = planted(3, n_docs=150)
    rng = np.random.default_rng(9)
    noise = pd.DataFrame({"topic": "1", "docno": truth.index, "worker": "random",
                          "label": rng.integers(0, 4, len(truth))})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = aggregate_labels(pd.concat([table, noise]), "hrm")
    workers = result.workers.set_index("worker")
    assert workers.loc["random", "spread"] > 2
    assert workers.loc["random", "quality"] < 0.35
    assert np.isfinite(result.probabilities.to_numpy()).all()
    assert accuracy(result, truth) > 0.9


def test_answers_unrelated_to_the_grade_end_at_the_largest_spread():
    """Worker 'flat' gives every grade once to the documents of every grade: its answers
    carry no information, its likelihood grows as ψ → ∞, and the fit drives its spread to
    the largest values (up to the bound, 100: the last steps are flat)."""
    rows = [("1", f"d{c}{k}", w, c) for c in range(3) for k in range(3)
            for w in ("a", "b")]
    rows += [("1", f"d{c}{k}", "flat", k) for c in range(3) for k in range(3)]
    result = aggregate_labels(pd.DataFrame(rows, columns=["topic", "docno", "worker",
                                                          "label"]), "hrm")
    assert 50 < result.workers.set_index("worker").loc["flat", "spread"] <= 100
    assert (result.qrels["label"].to_numpy() == np.repeat(np.arange(3), 3)).all()
