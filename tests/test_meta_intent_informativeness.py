"""Informativeness of the cascade and intent-aware diversity measures by maximum entropy
(Ashkan & Clarke, WWW 2011): the distributions against a general constrained optimiser
(scipy's SLSQP on the same problem), the expected measures against Monte Carlo with the
measures computed by their definitions, the values against irscale's ndeval measures (the
engine, checked against ndeval elsewhere), and the ordering of measures on simulated
lists whose relevance is known."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

from irscale import meta
from irscale.errors import IrscaleError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run
from irscale.meta.intent_informativeness import cascade

ALPHA = 0.5


def _by_definition(name: str, x: np.ndarray) -> float:
    """Z·M of a 0/1 list x (ranks × intents) by ndeval's definitions, counting the
    documents relevant to each intent above each rank (Clarke et al. 2008; Chapelle et al.
    2009; Agrawal et al. 2009)."""
    family, _, k = name.partition("@")
    total = 0.0
    for column in x.T:
        seen = 0
        for i, rel in enumerate(column[:int(k) if k else None], 1):
            if not rel:
                continue
            gain = 1.0 if family == "P-IA" else (1 - ALPHA) ** seen
            weight = {"alpha-DCG": 1 / np.log2(i + 1), "ERR-IA": 1 / i, "NRBP": 0.5 ** (i - 1),
                      "P-IA": 1.0}[family]
            total += weight * gain
            seen += 1
    return total


def _entropy(p: np.ndarray) -> float:
    p = np.clip(p, 1e-300, 1 - 1e-16)
    return float(-np.sum(p * np.log(p) + (1 - p) * np.log1p(-p)))


def _slsqp(name: str, n: int, rho: np.ndarray, target: float) -> np.ndarray:
    """The maximum entropy product distribution by a general optimiser (the oracle), the
    expected measure computed by brute force over the 2^n lists of each intent."""
    s = len(rho)
    lists = np.array([[(b >> i) & 1 for i in range(n)] for b in range(2 ** n)], float)
    values = np.array([_by_definition(name, row[:, None]) for row in lists])

    def expected(v: np.ndarray) -> float:
        p = v.reshape(n, s)
        total = 0.0
        for j in range(s):
            prob = np.prod(np.where(lists == 1, p[:, j], 1 - p[:, j]), axis=1)
            total += prob @ values
        return total

    edge = 1e-9
    found = minimize(
        lambda v: -_entropy(v), np.tile(rho / n, (n, 1)).ravel(),
        jac=lambda v: np.log(v) - np.log1p(-v), method="SLSQP", bounds=[(edge, 1 - edge)] * (n * s),
        constraints=[*({"type": "eq", "fun": lambda v, j=j: v.reshape(n, s)[:, j].sum() - rho[j]}
                       for j in range(s)),
                     {"type": "eq", "fun": lambda v: expected(v) - target}],
        options={"maxiter": 1000, "ftol": 1e-14})
    # SLSQP may stop on a "positive directional derivative" at a point that meets the
    # constraints (scipy 1.17, at the edge of the range): the point is what the test reads
    met = max(abs(found.x.reshape(n, s)[:, j].sum() - rho[j]) for j in range(s))
    assert found.success or (found.status == 8 and met < 1e-9
                             and abs(expected(found.x) - target) < 1e-9), found.message
    return found.x.reshape(n, s)


@pytest.mark.parametrize(("name", "n", "rho", "where"), [
    ("alpha-DCG@5", 6, [2, 1], 0.7), ("ERR-IA@4", 6, [1, 3], 0.3), ("NRBP", 6, [2, 2], 0.9),
    ("P-IA@3", 6, [2, 3], 0.4), ("ERR-IA@6", 6, [3, 1], 0.05), ("NRBP", 5, [1, 2], 0.02)])
def test_maxent_satisfies_the_constraints_and_matches_a_general_optimiser(name, n, rho, where):
    rho = np.array(rho)
    lows = [_by_definition(name, np.arange(n)[::-1, None] < r) for r in rho]
    highs = [_by_definition(name, np.arange(n)[:, None] < r) for r in rho]
    target = sum(lows) + where * (sum(highs) - sum(lows))
    scale = cascade(name).scale(len(rho), None)
    p = meta.maxent_intent_relevance(name, target / scale, n_docs=n, recall_bases=rho)
    np.testing.assert_allclose(p.sum(axis=0), rho, atol=1e-9)
    oracle = _slsqp(name, n, rho, target)
    np.testing.assert_allclose(p, oracle, atol=2e-4)
    assert _entropy(p) >= _entropy(oracle) - 1e-7
    # E[M] by brute force over the lists of p equals the value
    lists = np.array([[(b >> i) & 1 for i in range(n)] for b in range(2 ** n)], float)
    values = np.array([_by_definition(name, row[:, None]) for row in lists])
    expected = sum(np.prod(np.where(lists == 1, p[:, j], 1 - p[:, j]), axis=1) @ values
                   for j in range(len(rho)))
    assert expected == pytest.approx(target, abs=1e-8)


def test_expected_measure_is_the_monte_carlo_mean():
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.8, size=(10, 3))
    samples = (rng.uniform(size=(20000, 10, 3)) < p).astype(float)
    for name in ("alpha-DCG@10", "ERR-IA@8", "NRBP", "P-IA@5"):
        values = [_by_definition(name, x) for x in samples]
        error = np.std(values) / np.sqrt(len(values))
        assert cascade(name).sums(p).sum() == pytest.approx(np.mean(values), abs=4 * error)


@pytest.mark.parametrize(("name", "rho", "end"), [
    ("alpha-DCG@3", [1, 4], 1), ("NRBP", [2, 1], 1), ("P-IA@4", [3, 5], 0),
    ("P-IA@2", [4, 1], 0), ("ERR-IA@3", [2, 1], 0)])
def test_the_ends_of_the_range_are_the_limits_of_the_values_inside(name, rho, end):
    """At the highest value (end 1) and the lowest (0) the solution is given (the lists
    that have it); the optimiser's solutions of values inside approach it, ten times
    closer a decade closer."""
    n, rho = 6, np.array(rho)
    high = sum(_by_definition(name, np.arange(n)[:, None] < r) for r in rho)
    low = sum(_by_definition(name, np.arange(n)[::-1, None] < r) for r in rho)
    at, inwards = (high, -1) if end else (low, 1)
    given = meta.maxent_intent_relevance(name, at / cascade(name).scale(2, None), n_docs=n,
                                         recall_bases=rho)
    far, near = (np.abs(given - _slsqp(name, n, rho, at + inwards * gap * (high - low))).max()
                 for gap in (1e-3, 1e-4))
    assert near < 0.005 and near < far / 5


VALUES_QRELS = "\n".join(f"{t} {s} d{d} {int((t * 7 + s * 3 + d * 5) % 4 == 0)}"
                         for t in (1, 2, 3) for s in (1, 2, 3) for d in range(1, 16)) + "\n"


def _runs() -> dict[str, object]:
    rng = np.random.default_rng(2)
    runs = {}
    for name in ("r1", "r2"):
        lines = [f"{t} Q0 d{d} {i} {20 - i} {name}" for t in (1, 2, 3)
                 for i, d in enumerate(rng.permutation(np.arange(1, 16))[:12], 1)]
        runs[name] = read_run(("\n".join(lines) + "\n").encode(), keep_rank=True)
    return runs


def test_values_are_irscales_ndeval_measures():
    qrels = read_diversity_qrels(VALUES_QRELS.encode())
    runs = _runs()
    measures = ["alpha-nDCG@5", "alpha-DCG@10", "ERR-IA@1", "ERR-IA(alpha=0.3)@10",
                "nERR-IA@10", "NRBP", "nNRBP(alpha=0.7,beta=0.8)", "P-IA@5"]
    lists, bases, ideal = meta.judged_intent_lists(qrels, list(runs.values()), measures=measures)
    table = meta.intent_informativeness(lists, measures=measures, recall_base=bases,
                                        ideal=ideal).to_frame()
    reference = evaluate_diversity(qrels, list(runs.values()), measures).per_topic()
    reference["list"] = reference["run"] + " " + reference["topic"]
    merged = table.merge(reference, on=["list", "measure"], suffixes=("", "_ndeval"))
    assert len(merged) == len(table) > 0
    np.testing.assert_allclose(merged["value"], merged["value_ndeval"], atol=1e-12)
    # the recall bases: the qrels' relevant documents of each intent that has one
    for key, base in bases.items():
        topic = key.split()[1]
        counts = [sum(line.startswith(f"{topic} {s} ") and line.endswith(" 1")
                      for line in VALUES_QRELS.splitlines()) for s in (1, 2, 3)]
        assert base.tolist() == [c for c in counts if c]


def test_a_measure_that_reads_every_rank_is_more_informative_than_one_that_reads_one():
    """Simulated lists whose per-intent relevance is known (chance falling with the rank):
    α-DCG@20 and NRBP(β=0.9) reach down the list, P-IA@1 sees one rank."""
    rng = np.random.default_rng(3)
    chance = np.linspace(0.6, 0.05, 20)[:, None]
    lists = {f"l{k}": (rng.uniform(size=(20, 3)) < chance).astype(int) for k in range(25)}
    summary = meta.intent_informativeness(
        lists, measures=["alpha-DCG@20", "NRBP(beta=0.9)", "P-IA@1"]).summary \
        .set_index("measure")["mean_rms_error"]
    assert summary["alpha-DCG@20"] < summary["P-IA@1"]
    assert summary["NRBP(beta=0.9)"] < summary["P-IA@1"]


def test_a_list_only_one_value_allows_leaves_nothing_to_infer():
    perfect = np.array([[1, 1], [1, 0], [0, 0], [0, 0], [0, 0], [0, 0]])
    result = meta.intent_informativeness({"best": perfect}, measures=["NRBP"])
    assert result.to_frame()["rms_error"].max() == pytest.approx(0, abs=1e-9)


def test_a_list_without_a_relevant_document_is_left_out_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = meta.intent_informativeness({"a": [[1, 0], [0, 1]], "b": [[0, 0], [0, 0]]},
                                             measures=["P-IA@1"], recall_base={"a": [1, 1],
                                                                               "b": [2, 1]})
    assert list(result.to_frame()["list"]) == ["a"]
    assert any("1 of 2" in str(w.message) for w in caught)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: meta.intent_informativeness([[[1, 0]]], measures=["strec@5"]), "strec@5"),
    (lambda: meta.intent_informativeness([[[1, 0]]], measures=["MAP-IA"]), "MAP-IA"),
    (lambda: meta.intent_informativeness([[[1, 1]]], measures=["alpha-nDCG@5"]), "ideal"),
    (lambda: meta.intent_informativeness([[[1, 0]]], measures=["NRBP"]), "recall_base"),
    (lambda: meta.intent_informativeness([[1, 0, 1]], measures=["NRBP"]), "matrix"),
    (lambda: meta.intent_informativeness([[[1, 2]]], measures=["NRBP"]), "matrix"),
    (lambda: meta.intent_informativeness([[[1, 1]]], recall_base=[[1, 0]]), "recall bases"),
    (lambda: meta.maxent_intent_relevance("P-IA@2", 1.0, n_docs=5, recall_bases=[1, 3]),
     "impossible"),
    (lambda: meta.maxent_intent_relevance("NRBP", 0.5, n_docs=3, recall_bases=[0, 1]),
     "recall_bases"),
])
def test_refusals(call, match):
    with pytest.raises(IrscaleError, match=match):
        call()
