"""User models calibrated on click logs (irscale.online.calibrate): simulated users of
known parameters are recovered, and the maximum-likelihood persistence agrees with scipy's
optimiser on the likelihood written here independently."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale import evaluate
from irscale.errors import InputError, ParameterError
from irscale.online import ClickModel, calibrate, qrels_click_model, simulate_click_log

N = 10


def _run(topics: int, docs: int = N) -> dict[str, dict[str, float]]:
    return {f"t{t}": {f"d{t}_{i}": float(docs - i) for i in range(docs)} for t in range(topics)}


def test_rbp_persistence_recovered_from_a_cascade_of_constant_attractiveness():
    """A cascade user (CM) clicking every examined result with probability a stops at the
    first click: its depth, given a click on the page, is truncated geometric with
    p = 1 − a."""
    run = _run(20)
    pairs = pd.MultiIndex.from_tuples([(t, d) for t, docs in run.items() for d in docs],
                                      names=["query", "docno"])
    for a in (0.3, 0.15):
        user = ClickModel("cm", pd.Series(a, index=pairs))
        log = simulate_click_log(run, user, sessions=4000, serp_size=N, rng=7)
        fit = calibrate(log, "rbp")
        assert fit.parameters[0][1] == pytest.approx(1 - a, abs=0.01)
        assert fit.measure == f"RBP(p={fit.parameters[0][1]:.6g})"
        assert fit.sessions == int(log.clicks.any(axis=1).sum())


def test_rbp_mle_agrees_with_scipy_on_the_truncated_geometric_likelihood():
    from scipy.optimize import minimize_scalar

    rng = np.random.default_rng(3)
    rows = []
    for s in range(300):
        n = int(rng.integers(3, 11))  # pages of different lengths
        clicks = rng.random(n) < np.linspace(0.5, 0.05, n)
        rows += [(f"s{s}", "q", r + 1, f"d{r}", int(c)) for r, c in enumerate(clicks)]
    frame = pd.DataFrame(rows, columns=["session", "query", "rank", "docno", "clicked"])
    sessions = frame.groupby("session")
    depth = sessions.apply(lambda g: g["rank"][g["clicked"] == 1].max()).dropna()
    length = sessions["rank"].max()[depth.index]

    def nll(p: float) -> float:
        d, n = depth.to_numpy(), length.to_numpy()
        return -float(np.sum(np.log(1 - p) + (d - 1) * np.log(p) - np.log(1 - p ** n)))

    best = minimize_scalar(nll, bounds=(1e-6, 1 - 1e-6), method="bounded",
                           options={"xatol": 1e-10}).x
    fit = calibrate(frame, "RBP")
    assert fit.parameters[0][1] == pytest.approx(best, abs=1e-7)
    assert fit.sessions == len(depth)
    # pages declared 10^4 ranks long: the sessions' own lengths bound their depths
    wide = calibrate(frame, "RBP", serp_size=10_000)
    assert wide.parameters[0][1] == pytest.approx(best, abs=1e-7)


def test_err_stopping_probabilities_recovered_per_degree():
    """A DBN user with γ = 1 (ERR's cascade) attracted with click[g] and satisfied with
    stop[g] stops at a document of degree g with probability click[g]·stop[g]."""
    click, stop = (0.2, 0.5, 0.9), (0.1, 0.4, 0.8)
    run = _run(30)
    qrels = {t: {d: i % 3 for i, d in enumerate(docs)} for t, docs in run.items()}
    # shuffle the pages so that every degree is seen at every depth
    rng = np.random.default_rng(5)
    shuffled = {t: dict(zip(docs, rng.permutation(N).astype(float), strict=True))
                for t, docs in run.items()}
    user = qrels_click_model(qrels, None, click=click, stop=stop)
    log = simulate_click_log(shuffled, user, sessions=3000, serp_size=N, rng=11)
    expected = [c * s for c, s in zip(click, stop, strict=True)]
    for model in ("sdbn", "dbn"):
        fit = calibrate(log, "err", qrels=qrels, click_model=model)
        assert [v for _, v in fit.parameters] == pytest.approx(expected, abs=0.01)
    assert [k for k, _ in fit.parameters] == ["R0", "R1", "R2"]
    assert fit.measure.startswith("ERR(stop=")
    value = evaluate(qrels, shuffled, [fit.measure]).mean().iloc[0, 0]
    assert 0 < value < 1


def _markov_log(matrix: np.ndarray, sessions: int, seed: int) -> pd.DataFrame:
    """Sessions of two clicks: a rank drawn uniformly, then the next by ``matrix``."""
    rng = np.random.default_rng(seed)
    n = len(matrix)
    first = rng.integers(0, n, sessions)
    cumulative = matrix.cumsum(axis=1)
    second = (rng.random(sessions)[:, None] > cumulative[first]).sum(axis=1)
    rows = []
    for s in range(sessions):
        for r in range(n):
            clicked = r in (first[s], second[s])
            time = 1.0 if r == first[s] else 2.0 if r == second[s] else 0.0
            rows.append((f"s{s}", "q", r + 1, f"d{r}", int(clicked), time))
    return pd.DataFrame(rows, columns=["session", "query", "rank", "docno", "clicked",
                                       "timestamp"])


def test_markov_transition_matrix_recovered_and_its_invariant_distribution():
    rng = np.random.default_rng(2)
    n = 5
    matrix = rng.random((n, n))
    np.fill_diagonal(matrix, 0.0)
    matrix /= matrix.sum(axis=1, keepdims=True)
    frame = _markov_log(matrix, 20000, seed=4)
    fit = calibrate(frame, "markov", smoothing=0.0)
    assert fit.matrix is not None
    np.testing.assert_allclose(fit.matrix, matrix, atol=0.025)
    # the invariant distribution: the left eigenvector of eigenvalue 1, independently
    values, vectors = np.linalg.eig(fit.matrix.T)
    pi = np.real(vectors[:, np.argmin(np.abs(values - 1))])
    pi /= pi.sum()
    assert [v for _, v in fit.parameters] == pytest.approx(pi, abs=1e-10)
    assert fit.measure.startswith("MP(model=given,pi=") and fit.measure.endswith(f")@{n}")
    # the moves follow the timestamps, not the ranks: reversing time transposes the counts
    backwards = frame.assign(timestamp=3.0 - frame["timestamp"])
    reverse = calibrate(backwards, "markov", smoothing=0.0)
    assert reverse.matrix is not None
    assert not np.allclose(reverse.matrix, fit.matrix, atol=0.05)


def test_markov_precision_of_the_fitted_chain_by_hand():
    """MP with pi: Σ_{i∈R} π_i Prec(i) / Σ_{i∈R} π_i; relevant at ranks 1 and 3 of 3:
    (π1·1 + π3·2/3)/(π1 + π3)."""
    qrels = {"t": {"a": 1, "b": 0, "c": 1}}
    run = {"t": {"a": 3.0, "b": 2.0, "c": 1.0}}
    value = evaluate(qrels, run, ["MP(model=given,pi=0.5:0.3:0.2)"]).mean().iloc[0, 0]
    assert value == pytest.approx((0.5 * 1 + 0.2 * 2 / 3) / 0.7)


def test_err_with_stopping_probabilities_by_hand():
    """ERR(stop=...) = Σ dsat(r−1) R_r / r with R of every degree, 0 included."""
    qrels = {"t": {"a": 2, "b": 0, "c": 1}}
    run = {"t": {"a": 3.0, "b": 2.0, "x": 1.5, "c": 1.0}}
    value = evaluate(qrels, run, ["ERR(stop=0.1:0.5:0.9)"]).mean().iloc[0, 0]
    expected = 0.9 + 0.1 * 0.1 / 2 + 0.1 * 0.9 * 0.1 / 3 + 0.1 * 0.9 * 0.9 * 0.5 / 4
    assert value == pytest.approx(expected)


@pytest.mark.parametrize(("log", "kwargs", "message"), [
    (b"s1 q 1 a 1\ns1 q 2 b 0\n", {"model": "rbp"}, "rank 1"),
    (b"s1 q 1 a 0\ns1 q 2 b 0\n", {"model": "rbp"}, "no session"),
    (b"s1 q 1 a 0\ns1 q 2 b 1\n", {"model": "rbp"}, "≥ 1"),
    (b"s1 q 1 a 1\n", {"model": "nope"}, "unknown measure 'nope'"),
    (b"s1 q 1 a 1\n", {"model": "err"}, "model='ERR' needs qrels="),
    (b"s1 q 1 a 1\n", {"model": "rbp", "qrels": {"q": {"a": 1}}},
     "qrels= applies to model 'ERR', not to model 'RBP'"),
    (b"s1 q 1 a 1\ns1 q 2 b 0\n", {"model": "err", "qrels": {"q": {"a": 2}}}, "degree 1"),
    (b"s1 q 1 a 1\ns1 q 2 b 0\n", {"model": "markov", "smoothing": 0}, "rank 1"),
    (b"s1 q 1 a 1\ns1 q 2 b 0\n", {"model": "markov", "smoothing": -1}, "smoothing"),
])
def test_refusals(log, kwargs, message):
    with pytest.raises(ParameterError, match=message):
        calibrate(log, **kwargs)


def test_err_refuses_qrels_that_judge_no_logged_document():
    """Qrels of another topic: every shown document would be degree 0, a fit of nothing."""
    with pytest.raises(InputError, match="judge none of the documents"):
        calibrate(b"s1 q 1 a 1\ns1 q 2 b 0\n", "err", qrels={"other": {"a": 2, "b": 0}})
