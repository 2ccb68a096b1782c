"""Informativeness by the maximum entropy method (Aslam, Yilmaz & Pavlu, SIGIR 2005):
the distributions against a general constrained optimiser (scipy's SLSQP), the expected
measures against Monte Carlo, the curves against hand computations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from irscale import meta
from irscale.errors import IrscaleError
from irscale.meta.informativeness import expected_measure, interpolated_curve

from .property_examples import examples


def _average_precision(x: np.ndarray, r: int) -> float:
    """AP by its definition: the mean over the R relevant documents of the precision at
    each retrieved one's rank (unretrieved ones count 0)."""
    ranks = np.flatnonzero(x) + 1
    return float(np.sum(np.arange(1, len(ranks) + 1) / ranks) / r)


def _slsqp(n: int, rho: int, constraint, jac) -> np.ndarray:
    """The maximum entropy product distribution by a general optimiser (the oracle)."""
    edge = 1e-9
    found = minimize(
        lambda p: float(np.sum(p * np.log(p) + (1 - p) * np.log1p(-p))),
        np.full(n, rho / n), jac=lambda p: np.log(p) - np.log1p(-p), method="SLSQP",
        bounds=[(edge, 1 - edge)] * n,
        constraints=[{"type": "eq", "fun": lambda p: np.sum(p) - rho,
                      "jac": lambda p: np.ones(n)},
                     {"type": "eq", "fun": constraint, "jac": jac}],
        options={"maxiter": 500, "ftol": 1e-14})
    assert found.success, found.message
    return found.x


def test_expected_ap_is_ap_on_lists_and_the_mean_of_ap_under_independence():
    rng = np.random.default_rng(4)
    for _ in range(20):
        x = (rng.uniform(size=15) < 0.4).astype(float)
        r = int(x.sum()) + int(rng.integers(0, 3))
        if r:
            assert expected_measure("AP", 0, x, r) == pytest.approx(_average_precision(x, r))
    p = rng.uniform(0.05, 0.9, size=12)
    samples = (rng.uniform(size=(200000, 12)) < p).astype(float)
    monte_carlo = np.mean([_average_precision(s, 6) for s in samples[:40000]])
    assert expected_measure("AP", 0, p, 6) == pytest.approx(monte_carlo, abs=0.004)


@pytest.mark.parametrize(("value", "n", "r"), [(0.5, 30, 6), (0.25, 25, 8), (0.85, 20, 4)])
def test_maxent_ap_matches_a_general_optimiser(value, n, r):
    p = meta.maxent_relevance("AP", value, n_docs=n, n_relevant=r)
    assert np.sum(p) == pytest.approx(r)
    assert expected_measure("AP", 0, p, r) == pytest.approx(value, abs=1e-9)
    ranks = np.arange(1, n + 1)

    def gradient(q):
        before = np.concatenate([[0.0], np.cumsum(q)[:-1]])
        weighted = q / ranks
        return ((1 + before) / ranks + np.cumsum(weighted[::-1])[::-1] - weighted) / r

    oracle = _slsqp(n, r, lambda q: expected_measure("AP", 0, q, r) - value, gradient)
    np.testing.assert_allclose(p, oracle, atol=2e-4)
    # monotone in the rank: decreasing for a value above the AP of a random list (the
    # value is spent on the top ranks first), increasing below it
    above = value > expected_measure("AP", 0, np.full(n, r / n), r)
    assert np.all(np.diff(p) < 0) if above else np.all(np.diff(p) > 0)


def test_maxent_precision_closed_form_matches_the_optimiser():
    p = meta.maxent_relevance("P@5", 0.6, n_docs=20, n_relevant=7)
    np.testing.assert_allclose(p, [0.6] * 5 + [4 / 15] * 15)
    mask = np.arange(20) < 5
    oracle = _slsqp(20, 7, lambda q: np.sum(q[:5]) / 5 - 0.6, lambda q: mask / 5.0)
    np.testing.assert_allclose(p, oracle, atol=1e-5)
    # R-prec is P@R
    np.testing.assert_allclose(meta.maxent_relevance("R-prec", 0.4, n_docs=20, n_relevant=5),
                               meta.maxent_relevance("P@5", 0.4, n_docs=20, n_relevant=5))


def test_cut_offs_beyond_the_list_count_missing_ranks_as_not_relevant():
    # P@10 of a 4-document list with 2 relevant is 0.2 (trec_eval): every rank holds 1/2
    np.testing.assert_allclose(meta.maxent_relevance("P@10", 0.2, n_docs=4, n_relevant=2),
                               [0.5] * 4)
    result = meta.informativeness({"short": [1, 0, 1, 0]}, measures=["P@10", "R-prec"],
                                  recall_base={"short": 6})
    values = result.to_frame().set_index("measure")["value"]
    assert values["P@10"] == pytest.approx(0.2) and values["R-prec"] == pytest.approx(2 / 6)


def test_judged_lists_of_qrels_and_runs():
    qrels = {"1": {"a": 1, "b": 0, "c": 2, "d": 1}, "2": {"x": 1}}
    runs = {"S": {"1": {"c": 3.0, "b": 2.0, "e": 1.0}, "2": {"y": 2.0, "x": 1.0}}}
    lists, bases = meta.judged_lists(qrels, runs)
    assert {k: v.tolist() for k, v in lists.items()} == {"S 1": [1, 0, 0], "S 2": [0, 1]}
    assert bases == {"S 1": 3, "S 2": 1}
    assert meta.judged_lists(qrels, runs, depth=1)[0]["S 2"].tolist() == [0]
    assert meta.judged_lists(qrels, runs, depth=1.0)[0]["S 2"].tolist() == [0]
    # None: the lists whole (the binding takes it beside the default cut, 100)
    whole = meta.judged_lists(qrels, runs, depth=None)[0]
    assert {k: v.tolist() for k, v in whole.items()} == {"S 1": [1, 0, 0], "S 2": [0, 1]}
    assert meta.judged_lists(qrels, runs, relevance_level=2)[1]["S 1"] == 1


def test_interpolated_curve_by_hand():
    # relevant at ranks 1, 3, 6 of 8, R = 4: precision 1, 2/3, 1/2 at recall 1/4, 2/4, 3/4;
    # levels 0-0.2 → 1, 0.3-0.5 → 2/3, 0.6-0.7 → 1/2, 0.8-1 (never reached) → 0
    curve = interpolated_curve(np.cumsum([1, 0, 1, 0, 0, 1, 0, 0]), 4)
    expected = [1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.5, 0.5, 0, 0, 0]
    np.testing.assert_allclose(curve, expected)


def test_a_list_is_recovered_from_its_exact_distribution():
    """A value that only one list can have (AP = 1: every relevant document on top) leaves
    nothing to infer: RMS error 0."""
    result = meta.informativeness({"perfect": [1, 1, 1, 0, 0, 0, 0, 0]},
                                  measures=["AP", "R-prec"])
    assert result.to_frame()["rms_error"].max() == pytest.approx(0, abs=1e-6)


def test_ap_is_more_informative_than_precision_at_10():
    """Aslam et al.'s finding on TREC runs, on simulated lists of decreasing relevance."""
    rng = np.random.default_rng(1)
    lists = {f"l{k}": (rng.uniform(size=100) < np.linspace(0.7, 0.02, 100)).astype(int)
             for k in range(20)}
    summary = meta.informativeness(lists, measures=["AP", "R-prec", "P@10"]).summary \
        .set_index("measure")["mean_rms_error"]
    assert summary["AP"] < summary["R-prec"] < summary["P@10"]


def test_refusals():
    with pytest.raises(IrscaleError, match="nDCG"):
        meta.informativeness([[1, 0]], measures=["nDCG"])
    with pytest.raises(IrscaleError, match="0"):
        meta.informativeness([[1, 2]])
    with pytest.raises(IrscaleError, match="impossible"):
        meta.maxent_relevance("P@10", 0.5, n_docs=3, n_relevant=2)
    with pytest.raises(IrscaleError, match="impossible"):
        meta.maxent_relevance("P@2", 1.0, n_docs=10, n_relevant=1)
    with pytest.raises(IrscaleError, match="impossible"):
        meta.maxent_relevance("AP", 0.01, n_docs=10, n_relevant=3)
    with pytest.raises(IrscaleError, match="recall base"):
        meta.informativeness([[1, 1, 0]], recall_base=[1])
    with pytest.raises(IrscaleError, match="no list"):
        meta.informativeness([[0, 0, 0]])


def test_a_list_without_a_relevant_document_is_left_out_with_a_warning():
    lists = {"a": [1, 0, 1, 0], "b": [0, 0, 0, 0]}
    with pytest.warns(UserWarning, match="1 of 2 ranked lists .* e.g. 'b'"):
        result = meta.informativeness(lists, measures=["AP"])
    assert result.to_frame()["list"].tolist() == ["a"]


def test_progress_counts_the_lists_done():
    calls = []
    with pytest.warns(UserWarning, match="1 of 3"):  # b: no relevant document
        meta.informativeness({"a": [1, 0, 1], "b": [0, 0, 0], "c": [0, 1, 0]},
                             measures=["AP"],
                             progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_values_near_the_lowest_ap_are_solved():
    """Relevant documents at the very bottom: μ → −∞, where Newton's steps stall."""
    value = 0.0023543773979769794  # two relevant documents near rank 100, R = 16
    p = meta.maxent_relevance("AP", value, n_docs=100, n_relevant=16,
                              n_retrieved_relevant=2)
    assert np.sum(p) == pytest.approx(2)
    assert expected_measure("AP", 0, p, 16) == pytest.approx(value, abs=1e-9)
    # non-decreasing down the ranking, up to the optimiser's tolerance near its bound 1e-12
    # (scipy's SLSQP before 1.16 leaves noise of 1e-12 there)
    assert np.all(np.diff(p) >= -1e-9)


@settings(max_examples=examples(60), deadline=None)
@given(n=st.integers(1, 60), c=st.floats(-500, 500), seed=st.integers(0, 2**32 - 1))
def test_the_stationary_solve_equals_a_dense_solve(n, c, seed):
    """The O(N) solve of (I − c·K·W) x = b (K_mi = 1/max(m, i) off the diagonal) of each
    Newton step equals numpy's dense solve."""
    from irscale.meta.informativeness import _stationary_solver

    rng = np.random.default_rng(seed)
    w, b = rng.random(n) * 0.25, rng.standard_normal((n, 3))
    ranks = np.arange(1, n + 1)
    kernel = 1.0 / np.maximum.outer(ranks, ranks)
    np.fill_diagonal(kernel, 0.0)
    dense = np.eye(n) - c * kernel * w[None, :]
    expected = np.linalg.solve(dense, b)
    solve = _stationary_solver(c, w)
    got = np.column_stack([solve(column) for column in b.T])
    assert np.allclose(got, expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())


def _gradient(q: np.ndarray, r: int) -> np.ndarray:
    """∂E[AP]/∂p_m by differentiating E[AP] = (1/R) Σ_i p_i (1 + Σ_{j<i} p_j) / i."""
    ranks = np.arange(1, len(q) + 1)
    before = np.concatenate([[0.0], np.cumsum(q)[:-1]])
    weighted = q / ranks
    return ((1 + before) / ranks + np.cumsum(weighted[::-1])[::-1] - weighted) / r


def _entropy(p: np.ndarray) -> float:
    q = np.clip(p, 1e-300, 1 - 1e-16)
    return float(-np.sum(q * np.log(q) + (1 - q) * np.log1p(-q)))


def _assert_local_maximum(p: np.ndarray, value: float, r: int, rho: int) -> None:
    """The constraints, the stationarity conditions logit(p) = λ + μ·g (λ, μ by least
    squares, g = ∂E[AP]/∂p) and the second-order condition (the Hessian of the Lagrangian,
    −diag(1/(p(1 − p))) + μ·∂²E[AP], negative definite on the constraints' tangent space)
    of a maximum entropy distribution, checked with dense numpy algebra."""
    n = len(p)
    assert np.sum(p) == pytest.approx(rho, abs=1e-8)
    assert expected_measure("AP", 0, p, r) == pytest.approx(value, rel=1e-8, abs=1e-12)
    g = _gradient(p, r)
    inner = (p > 1e-8) & (p < 1 - 1e-8)  # closer to 0 or 1, the logit of p loses digits
    y = np.log(p[inner]) - np.log1p(-p[inner])
    basis = np.column_stack([np.ones(inner.sum()), g[inner]])
    (lam, mu), *_ = np.linalg.lstsq(basis, y, rcond=None)
    assert np.max(np.abs(y - basis @ [lam, mu])) < 1e-6 * max(1.0, np.max(np.abs(y)))
    # the other ranks: their logit λ + μ·g lies beyond ±18.4 (logit(1e-8) = −18.42)
    tails = lam + mu * g[~inner]
    assert np.all(np.where(p[~inner] < 0.5, tails < -18.4, tails > 18.4))
    ranks = np.arange(1, n + 1)
    second = 1.0 / np.maximum.outer(ranks, ranks) / r
    np.fill_diagonal(second, 0.0)
    hessian = mu * second
    hessian[inner, inner] -= 1.0 / (p[inner] * (1 - p[inner]))
    keep = np.flatnonzero(inner)  # the others sit at their bound to within 1e-8
    constraints = np.vstack([np.ones(len(keep)), g[keep]])
    tangent = np.linalg.svd(constraints)[2][2:].T
    curvature = tangent.T @ hessian[np.ix_(keep, keep)] @ tangent
    assert np.max(np.linalg.eigvalsh(curvature)) < 0


@pytest.mark.parametrize(("value", "n", "r", "rho"), [
    (7.69704433497537e-05, 1000, 16, 1),  # two CLEF eHealth 2016 lists, depth 1,000: one
    (0.00013795006207752795, 1000, 11, 1),  # relevant document near the bottom
])
def test_values_past_the_fold_of_the_uniform_branch_are_solved(value, n, r, rho):
    """Close to the lowest AP (1/(R·N) here) the stationary points of the uniform
    distribution's branch fold back before the value: the maximum is on another branch."""
    p = meta.maxent_relevance("AP", value, n_docs=n, n_relevant=r, n_retrieved_relevant=rho)
    _assert_local_maximum(p, value, r, rho)
    assert np.all(np.diff(p) >= -1e-12)  # non-decreasing down the ranking (a low value)


@pytest.mark.parametrize(("n", "rho"), [(40, 1), (60, 2), (80, 5)])
def test_maxent_ap_near_both_ends_is_at_least_the_optimiser(n, rho):
    """A sweep of values close to the lowest and highest AP: a local maximum whose entropy
    is no less than SLSQP's from the uniform distribution and from the list's end."""
    r = 16
    low = _average_precision(np.r_[np.zeros(n - rho), np.ones(rho)], r)
    high = _average_precision(np.r_[np.ones(rho), np.zeros(n - rho)], r)
    uniform = expected_measure("AP", 0, np.full(n, rho / n), r)
    for fraction in (0.005, 0.05, 0.3):
        for value, end in ((low + fraction * (uniform - low), np.r_[np.zeros(n - rho),
                                                                     np.ones(rho)]),
                           (high - fraction * (high - uniform), np.r_[np.ones(rho),
                                                                      np.zeros(n - rho)])):
            p = meta.maxent_relevance("AP", value, n_docs=n, n_relevant=r,
                                      n_retrieved_relevant=rho)
            _assert_local_maximum(p, value, r, rho)
            best = -np.inf
            for start in (np.full(n, rho / n), np.clip(end, 0.02, 0.98) * rho / np.clip(
                    end, 0.02, 0.98).sum()):
                found = minimize(
                    lambda q: -_entropy(q), start, method="SLSQP",
                    jac=lambda q: np.log(q) - np.log1p(-q), bounds=[(1e-12, 1 - 1e-12)] * n,
                    constraints=[{"type": "eq", "fun": lambda q: np.sum(q) - rho,
                                  "jac": lambda q: np.ones(n)},
                                 {"type": "eq", "jac": lambda q: _gradient(q, r),
                                  "fun": lambda q, v=value: expected_measure("AP", 0, q, r) - v}],
                    options={"maxiter": 3000, "ftol": 1e-15})
                q = found.x
                if abs(np.sum(q) - rho) < 1e-7 and \
                        abs(expected_measure("AP", 0, q, r) - value) < 1e-9:
                    best = max(best, _entropy(q))
            assert best > -np.inf
            assert _entropy(p) >= best - 1e-7
