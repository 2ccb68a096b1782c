"""Learned satisfaction (:mod:`irscale.online.satisfaction`): the logistic regression
against scikit-learn's on the same z-scored features (the oracle), the cross-validation
against folds recomputed here with scikit-learn's model and ``roc_auc_score``, and a
simulation where satisfaction depends on the clicks and their dwell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.errors import InputError, ParameterError
from irscale.online import ClickLog, fit_satisfaction, satisfaction_features

from .oracle_imports import lazy_importorskip

#: scikit-learn 1.5's L-BFGS call warns under SciPy ≥ 1.15 (its own deprecation).
pytestmark = pytest.mark.filterwarnings("ignore:scipy.optimize:DeprecationWarning")

sklearn_linear = lazy_importorskip("sklearn.linear_model")
sklearn_metrics = lazy_importorskip("sklearn.metrics")


def simulated(sessions: int, rng: np.random.Generator) -> tuple[ClickLog, pd.Series]:
    """Sessions of 5 ranks; a click at rank r with probability 0.5/r; each click a dwell
    time (exponential, mean 40 s); satisfied with probability σ(−1.5 + 1.2·[a click dwelt
    on ≥ 30 s] + 0.8·reciprocal rank of the first click)."""
    k = 5
    clicks = rng.random((sessions, k)) < 0.5 / np.arange(1, k + 1)
    times = np.cumsum(rng.exponential(40.0, (sessions, k)), axis=1)
    times = np.where(clicks, times, np.nan)
    first = np.where(clicks.any(axis=1), clicks.argmax(axis=1) + 1, 0)
    rr = np.divide(1.0, first, out=np.zeros(sessions), where=first > 0)
    long = np.zeros(sessions, dtype=bool)
    for s in range(sessions):  # a click followed by the next click ≥ 30 s later
        t = times[s][clicks[s]]
        long[s] = bool((np.diff(t) >= 30).any())
    logit = -1.5 + 1.2 * long + 0.8 * rr
    sat = (rng.random(sessions) < 1 / (1 + np.exp(-logit))).astype(int)
    ids = np.array([f"s{i}" for i in range(sessions)], dtype=object)
    log = ClickLog(ids, np.array(["q"], dtype=object),
                   np.array([f"d{i}" for i in range(k)], dtype=object),
                   np.zeros(sessions, dtype=np.int64),
                   np.tile(np.arange(k), (sessions, 1)), clicks, np.full(sessions, k),
                   times)
    return log, pd.Series(sat, index=ids)


@pytest.fixture(scope="module")
def data() -> tuple[ClickLog, pd.Series]:
    return simulated(600, np.random.default_rng(8))


def _z(x: np.ndarray) -> np.ndarray:
    sd = x.std(axis=0)
    return (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


@pytest.mark.parametrize("l2", [0.1, 1.0, 10.0])
def test_coefficients_match_sklearn(data, l2: float) -> None:
    log, labels = data
    model = fit_satisfaction(log, labels, l2=l2, rng=0)
    x = satisfaction_features(log).loc[labels.index, list(model.features)].to_numpy(float)
    oracle = sklearn_linear.LogisticRegression(C=1 / l2, tol=1e-12, max_iter=10_000).fit(
        _z(x), labels.to_numpy())
    assert model.coefficients == pytest.approx(oracle.coef_[0], abs=1e-6)
    assert model.intercept == pytest.approx(oracle.intercept_[0], abs=1e-6)
    p = model.predict(log)
    assert p.to_numpy() == pytest.approx(oracle.predict_proba(_z(x))[:, 1], abs=1e-6)
    mean, se = model.measure(log)
    assert mean == pytest.approx(p.mean()) and se == pytest.approx(p.std() / np.sqrt(600))


def test_cross_validation_recomputed(data) -> None:
    """Every fold's accuracy and AUC recomputed: the same stratified assignment (each
    label's sessions permuted by the same generator, dealt round the folds), sklearn's
    model on the other folds' z-scores, sklearn's roc_auc_score."""
    log, labels = data
    model = fit_satisfaction(log, labels, folds=4, rng=5)
    x = satisfaction_features(log).loc[labels.index, list(model.features)].to_numpy(float)
    y = labels.to_numpy()
    gen = np.random.default_rng(5)
    fold = np.empty(len(y), dtype=int)
    for c in (0, 1):
        members = np.flatnonzero(y == c)
        fold[gen.permutation(members)] = np.arange(len(members)) % 4
    for k in range(4):
        train, test = fold != k, fold == k
        sd = x[train].std(axis=0)
        sd = np.where(sd > 0, sd, 1.0)
        clf = sklearn_linear.LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000).fit(
            (x[train] - x[train].mean(axis=0)) / sd, y[train])
        p = clf.predict_proba((x[test] - x[train].mean(axis=0)) / sd)[:, 1]
        assert model.auc[k] == pytest.approx(sklearn_metrics.roc_auc_score(y[test], p))
        assert model.accuracy[k] == pytest.approx(((p > 0.5) == y[test]).mean())
    assert model.cv_auc == pytest.approx(model.auc.mean())
    frame = model.to_frame()
    assert list(frame["term"]) == ["intercept", *model.features]


def test_learns_the_signal(data) -> None:
    """The features that drive satisfaction get positive weights and the model ranks
    held-out sessions better than chance (AUC > 0.6); a log of more satisfying behaviour
    (every session's first result clicked and dwelt on) measures higher."""
    log, labels = data
    model = fit_satisfaction(log, labels, rng=1)
    coef = dict(zip(model.features, model.coefficients, strict=True))
    assert coef["success"] > 0 and coef["reciprocal_rank"] > 0
    assert model.cv_auc > 0.6
    good = ClickLog(log.sessions, log.queries, log.docs, log.query, log.doc,
                    np.tile([True, True, False, False, False], (len(log.sessions), 1)),
                    log.lengths, np.tile([0.0, 60.0, np.nan, np.nan, np.nan],
                                         (len(log.sessions), 1)))
    assert model.measure(good)[0] > model.measure(log)[0]


def test_extra_features_and_errors(data) -> None:
    log, labels = data
    queries = pd.DataFrame({"queries": np.arange(len(log.sessions)) % 3 + 1},
                           index=log.sessions)
    model = fit_satisfaction(log, labels, features=["clicks", "queries"], extra=queries,
                             rng=0)
    assert model.features == ("clicks", "queries")
    with pytest.raises(InputError, match="no finite value of feature 'dwell'"):
        fit_satisfaction(log, labels, features=["dwell"])
    with pytest.raises(ParameterError, match="unknown feature"):
        fit_satisfaction(log, labels, features=["magic"])
    with pytest.raises(InputError, match="not in the log"):
        fit_satisfaction(log, pd.Series({"nope": 1, **labels.to_dict()}))
    with pytest.raises(InputError, match="0 or 1"):
        fit_satisfaction(log, labels.replace({1: 2}))
    with pytest.raises(InputError, match="sessions of each label"):
        fit_satisfaction(log, labels.iloc[:3], folds=5)
    with pytest.raises(ParameterError, match="l2"):
        fit_satisfaction(log, labels, l2=0)
    with pytest.raises(ParameterError, match="folds"):
        fit_satisfaction(log, labels, folds=1)
    with pytest.raises(InputError, match="no row for session"):
        fit_satisfaction(log, labels, extra=queries.iloc[1:])
