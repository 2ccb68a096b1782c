"""Document sampling (Cormack & Lynam 2006; Robertson & Kanoulas 2012).

Oracles: AP and P@k of the observed collection computed by hand; the bootstrap variance
against the Monte Carlo variance of the measure over collections drawn from a known
population of documents; the mixed model against statsmodels' ``combine_effects``
(DerSimonian–Laird); the documents-only model by hand."""

from __future__ import annotations

import numpy as np
import pytest

from irscale import stats
from irscale.errors import InputError, ParameterError

QRELS = {"1": {"a": 1, "b": 0, "c": 1, "z": 1}, "2": {"a": 1, "d": 1}}
RUN_X = {"1": {"a": 3.0, "b": 2.0, "c": 1.0}, "2": {"d": 2.0, "e": 1.0}}
RUN_Y = {"1": {"b": 3.0, "a": 2.0, "c": 1.0}, "2": {"e": 2.0, "d": 1.0}}


def test_observed_scores_by_hand():
    frame = stats.document_variance(QRELS, RUN_X, RUN_Y, "AP", samples=50, rng=1)
    # topic 1: x ranks a, b, c (relevant a, c; z unretrieved): AP = (1/1 + 2/3)/3
    # y ranks b, a, c: AP = (1/2 + 2/3)/3; topic 2: x: d first, AP = (1/1)/2; y: 1/2 / 2
    assert frame["x"].tolist() == pytest.approx([(1 + 2 / 3) / 3, 0.5])
    assert frame["y"].tolist() == pytest.approx([(0.5 + 2 / 3) / 3, 0.25])
    p2 = stats.document_variance(QRELS, RUN_X, RUN_Y, "P@2", samples=50, rng=1)
    assert p2["x"].tolist() == pytest.approx([0.5, 0.5])
    assert p2["y"].tolist() == pytest.approx([0.5, 0.5])
    assert (frame["v"] > 0).all()


def _ap(rel_sorted: np.ndarray, n_rel: int) -> float:
    if n_rel == 0:
        return 0.0
    hits = np.cumsum(rel_sorted)
    return float(np.sum(rel_sorted * hits / np.arange(1, len(rel_sorted) + 1)) / n_rel)


def _ranked(rel: np.ndarray, score: np.ndarray) -> np.ndarray:
    return rel[np.argsort(-score, kind="stable")]


def test_bootstrap_variance_matches_resampled_collections():
    """A collection is n documents drawn at random from a population; the variance of
    AP(x) − AP(y) over many such collections (Monte Carlo) is what the document bootstrap
    of one collection estimates: on average within 25% (1.20 with these seeds)."""
    gen = np.random.default_rng(2006)
    size, n = 20_000, 800
    rel = (gen.random(size) < 0.04).astype(int)
    sx = rel * 1.2 + gen.normal(0, 1, size)
    sy = rel * 0.9 + gen.normal(0, 1, size)
    true = []
    for _ in range(1500):
        keep = gen.integers(0, size, n)
        r = rel[keep]
        true.append(_ap(_ranked(r, sx[keep]), int(r.sum()))
                    - _ap(_ranked(r, sy[keep]), int(r.sum())))
    true_var = float(np.var(true, ddof=1))
    estimates = []
    for rep in range(12):
        keep = gen.integers(0, size, n)
        docs = [f"d{i:04d}" for i in range(n)]  # a document drawn twice: two copies
        qrels = {"t": {doc: int(rel[i]) for doc, i in zip(docs, keep, strict=True)}}
        run_x = {"t": dict(zip(docs, sx[keep], strict=True))}
        run_y = {"t": dict(zip(docs, sy[keep], strict=True))}
        estimates.append(float(stats.document_variance(qrels, run_x, run_y, "AP",
                                                       samples=300, rng=rep)["v"][0]))
    ratio = np.mean(estimates) / true_var
    assert 0.75 < ratio < 1.33, (np.mean(estimates), true_var)


def test_mixed_model_matches_statsmodels():
    meta = pytest.importorskip("statsmodels.stats.meta_analysis")
    d = np.array([0.1, 0.2, -0.05, 0.3, 0.12, 0.02])
    v = np.array([0.01, 0.02, 0.015, 0.01, 0.03, 0.005])
    result = stats.document_sampling_test(d, v)
    oracle = meta.combine_effects(d, v, method_re="chi2")
    assert result.tau2 == pytest.approx(oracle.tau2, rel=1e-10)
    assert result.diff == pytest.approx(oracle.mean_effect_re, rel=1e-10)
    assert result.se == pytest.approx(oracle.sd_eff_w_re, rel=1e-10)
    low, high = result.confidence_interval(0.95)
    frame = oracle.summary_frame()
    assert (low, high) == pytest.approx(
        (frame.loc["random effect", "ci_low"], frame.loc["random effect", "ci_upp"]),
        rel=1e-10)


def test_documents_only_model_by_hand():
    d = np.array([0.1, 0.3, 0.2])
    v = np.array([0.01, 0.04, 0.01])
    result = stats.document_sampling_test(d, v, model="documents")
    assert result.diff == pytest.approx(0.2)
    assert result.se == pytest.approx(np.sqrt(0.06) / 3)
    assert result.pvalue == pytest.approx(2 * (1 - 0.5 * (1 + __import__("math").erf(
        0.2 / (np.sqrt(0.06) / 3) / np.sqrt(2)))))


def test_progress_counts_the_topics():
    calls = []
    stats.document_variance(QRELS, RUN_X, RUN_Y, "AP", samples=20, rng=3,
                            progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (len(QRELS), len(QRELS)) and calls[0] == (0, len(QRELS))


def test_end_to_end_and_errors():
    frame = stats.document_variance(QRELS, RUN_X, RUN_Y, "AP", samples=200, rng=3)
    result = stats.document_sampling_test(frame["d"], frame["v"], topics=frame["topic"])
    assert result.topics["topic"].tolist() == ["1", "2"]
    assert "document sampling (mixed)" in result.format()
    with pytest.raises(ParameterError, match="AP and P@k"):
        stats.document_variance(QRELS, RUN_X, RUN_Y, "ndcg")
    with pytest.raises(InputError, match="variance of 0.*topic 'b'.*model='documents'"):
        stats.document_sampling_test([0.1, 0.2], [0.01, 0.0], topics=["a", "b"])
    with pytest.raises(InputError, match="two topics at least, got 1"):
        stats.document_sampling_test([0.1], [0.01])
    with pytest.raises(ParameterError, match="samples"):  # a variance needs two samples
        stats.document_variance(QRELS, RUN_X, RUN_Y, "AP", samples=1)
    with pytest.raises(ParameterError, match="model"):
        stats.document_sampling_test([0.1, 0.2], [0.01, 0.01], model="topics")
    with pytest.raises(InputError, match="no topic"):
        stats.document_variance({"9": {"a": 1}}, RUN_X, RUN_Y)
