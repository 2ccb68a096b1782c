"""Learned satisfaction: a classifier of sessions over their online features, trained on
sessions labelled satisfied or not, and used as a measure (Ferro & Maistro 2024, §6.5,
"learned measures"; Hassan, Jones & Klinkner 2010, *Beyond DCG: user behavior as a
predictor of a successful search*, WSDM; Fox, Karnawat, Mydland, Dumais & White 2005,
*Evaluating implicit measures to improve web search*, TOIS 23(2)).

Features (:func:`satisfaction_features`): the page measures of every session of a click
log (:func:`~irscale.online.abtest.session_measures`: ``clicks``, ``reciprocal_rank`` of
the first click, ``abandoned``; with timestamps ``success``, a click dwelt on 30 s or
more, and ``dwell``, ``time_to_first_click``), and any per-session columns given beside
them (``extra=``: the queries of the user's search session, say). Every feature used must
be a finite number in every session: ``dwell`` and ``time_to_first_click`` are NaN in a
session without a click, so a model using them is trained and applied on sessions with
clicks only (an error names the first session without).

Model: L2-penalised logistic regression on the features z-scored with the training
sessions' means and standard deviations (a feature constant there gets scale 1 and, being
0 everywhere, coefficient 0), ``P(sat | x) = σ(b + βᵀz)``, fitted by Newton's method to
the minimum of ``Σ_i log(1 + exp(−ỹ_i (b + βᵀz_i))) + (λ/2) ‖β‖²`` (ỹ = ±1; the
intercept b unpenalised) — scikit-learn's ``LogisticRegression(C=1/λ)`` on the same
z-scores.

Validation (reported with the model): stratified K-fold cross-validation — every fold's
model (standardisation included) fitted on the other folds — with the accuracy at
threshold 1/2 and the AUC (the Mann–Whitney probability that a satisfied session scores
above an unsatisfied one, ties 1/2; Hanley & McNeil 1982, *Radiology* 143) of each fold,
and their means.

As a measure (:meth:`SatisfactionModel.predict`, :meth:`SatisfactionModel.measure`):
the predicted probability of satisfaction of every session of a log, and its mean over
the log's sessions with the standard error sd/√n.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit

from ..core.numbers import blank, declare
from ..errors import InputError, ParameterError, shown
from ..io.user_tables import read_satisfaction_labels
from ..stats.protocol import TableResult
from ..stats.resampling import RngArg, check_rng
from .abtest import session_measures
from .clicklog import ClickLog, read_click_log
from .params import SATISFACTION
from .user_values import located

__all__ = ["SatisfactionModel", "fit_satisfaction", "read_satisfaction_labels",
           "satisfaction_features"]

#: The features used unless told: those every session has (with timestamps, ``success``).
DEFAULT = ("clicks", "reciprocal_rank", "abandoned")
_NEWTON_STEPS = 100


def satisfaction_features(log: object, extra: pd.DataFrame | None = None) -> pd.DataFrame:
    """The candidate features of every session of ``log`` (one row per session id):
    :func:`~irscale.online.abtest.session_measures` and the columns of ``extra`` (indexed
    by session id; every session of the log needs a row)."""
    clicklog = log if isinstance(log, ClickLog) else read_click_log(log)
    frame = session_measures(clicklog)
    frame.index = frame.index.astype(str)
    if extra is not None:
        extra = extra.copy()
        extra.index = extra.index.astype(str)
        missing = frame.index.difference(extra.index)
        if len(missing):
            raise InputError(f"the extra features have no row for session {missing[0]!r}")
        clash = frame.columns.intersection(extra.columns)
        if len(clash):
            raise ParameterError(f"extra feature {clash[0]!r} is one of the log's own")
        frame = frame.join(extra.loc[frame.index])
    return frame


def _matrix(frame: pd.DataFrame, features: Sequence[str], log: ClickLog) -> np.ndarray:
    """The features of ``log``'s sessions as a float matrix; every value a finite
    number."""
    unknown = [f for f in features if f not in frame.columns]
    if unknown:
        raise ParameterError(f"unknown feature {unknown[0]!r}: the features are "
                             f"{', '.join(map(str, frame.columns))}")
    x = frame[list(features)].apply(pd.to_numeric, errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(x)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        why = " (the log has no timestamps)" if log.timestamps is None else ""
        raise InputError(f"session {frame.index[i]!r} has no finite value of feature "
                         f"{features[j]!r} (got {shown(frame[features[j]].iloc[i])}){why}",
                         source=log.source)
    return x


def _fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray,
                                                            np.ndarray]:
    """Centre, scale and the coefficients (intercept first) of the penalised logistic
    regression of ``y`` on ``x`` (module doc), by Newton's method."""
    centre = x.mean(axis=0)
    scale = x.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    z = np.column_stack([np.ones(len(x)), (x - centre) / scale])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0
    beta = np.zeros(z.shape[1])
    for _ in range(_NEWTON_STEPS):
        p = expit(z @ beta)
        gradient = z.T @ (p - y) + penalty * beta
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hessian + 1e-12 * np.eye(len(beta)), gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-12 * (1 + np.max(np.abs(beta))):
            break
    return centre, scale, beta


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    """P(score of a positive > score of a negative), ties 1/2 (Mann–Whitney)."""
    pos, neg = score[y == 1], score[y == 0]
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


@dataclass(frozen=True, eq=False)
class SatisfactionModel(TableResult):
    """A fitted satisfaction classifier with its cross-validation.

    ``features``: their names; ``coefficients``: β per feature (on z-scores) and
    ``intercept`` b; ``centre``/``scale``: the training means and standard deviations;
    ``n``/``positives``: training sessions and satisfied ones; ``folds``, ``accuracy``
    and ``auc``: per fold of the cross-validation, ``cv_accuracy``/``cv_auc`` their means.
    """

    features: tuple[str, ...]
    coefficients: np.ndarray
    intercept: float
    centre: np.ndarray
    scale: np.ndarray
    l2: float
    n: int
    positives: int
    folds: int
    accuracy: np.ndarray
    auc: np.ndarray

    @property
    def cv_accuracy(self) -> float:
        return float(self.accuracy.mean())

    @property
    def cv_auc(self) -> float:
        return float(self.auc.mean())

    def predict(self, log: object, extra: pd.DataFrame | None = None) -> pd.Series:
        """P(satisfied) of every session of ``log`` (a Series indexed by session id)."""
        clicklog = log if isinstance(log, ClickLog) else read_click_log(log)
        frame = satisfaction_features(clicklog, extra)
        z = (_matrix(frame, self.features, clicklog) - self.centre) / self.scale
        return pd.Series(expit(self.intercept + z @ self.coefficients), index=frame.index,
                         name="satisfaction")

    def measure(self, log: object, extra: pd.DataFrame | None = None) -> tuple[float, float]:
        """The learned satisfaction of ``log``: the mean predicted probability over its
        sessions, and its standard error sd/√n."""
        p = self.predict(log, extra).to_numpy()
        se = float(p.std(ddof=1) / math.sqrt(len(p))) if len(p) > 1 else math.nan
        return float(p.mean()), se

    def to_frame(self) -> pd.DataFrame:
        """One row per term (the intercept, then each feature), with the validation."""
        return declare(pd.DataFrame({
            "term": ["intercept", *self.features],
            "coefficient": [self.intercept, *self.coefficients],
            "mean": [math.nan, *self.centre], "sd": [math.nan, *self.scale],
            "n": self.n, "positives": self.positives, "folds": self.folds,
            "cv_accuracy": self.cv_accuracy, "cv_auc": self.cv_auc}),
            dict.fromkeys(("mean", "sd"), blank("the intercept is not a standardised "
                                                "feature")))

    def __repr__(self) -> str:
        return (f"SatisfactionModel({', '.join(self.features)}: n={self.n:,}, "
                f"cv accuracy {self.cv_accuracy:.3f}, cv AUC {self.cv_auc:.3f})")


@SATISFACTION
def fit_satisfaction(log: object, labels: Mapping[str, int] | pd.Series, *,
                     features: Sequence[str] | None = None,
                     extra: pd.DataFrame | None = None, l2: float = 1.0, folds: int = 5,
                     rng: RngArg = None) -> SatisfactionModel:
    """Train a satisfaction classifier on the labelled sessions of ``log`` (module doc).

    Parameters
    ----------
    log : ClickLog, path, bytes or DataFrame
        The click log whose sessions are labelled.
    labels : mapping or Series session → 0/1
        Satisfied (1) or not (0); every labelled session must be in the log (the others
        are not used).
    features : sequence of str, optional
        The features (:func:`satisfaction_features`); default :data:`DEFAULT`, and
        ``success`` when the log has timestamps.
    extra : DataFrame indexed by session, optional
        More features per session.
    l2 : float > 0
        The penalty λ on the coefficients of the z-scored features.
    folds : int ≥ 2
        Stratified cross-validation folds; each class needs at least as many sessions.
    rng : seed or Generator
        The assignment of sessions to folds.
    """
    check_rng(rng)
    clicklog = log if isinstance(log, ClickLog) else read_click_log(log)
    frame = satisfaction_features(clicklog, extra)
    if features is None:
        features = (*DEFAULT, "success") if clicklog.timestamps is not None else DEFAULT
    features = tuple(features)
    if not features or len(set(features)) < len(features):
        raise ParameterError("features: one or more distinct names")
    label = pd.Series(labels)
    label.index = label.index.astype(str)
    missing = label.index.difference(frame.index)
    if len(missing):
        where = located(labels, missing[0]) if isinstance(labels, pd.Series) and \
            missing[0] in labels.index else {}
        raise InputError(f"labelled session {missing[0]!r} is not in the log "
                         f"{clicklog.source}", **where)
    values = pd.to_numeric(label, errors="coerce").to_numpy(np.float64)
    if not np.isin(values, (0, 1)).all():
        i = int(np.flatnonzero(~np.isin(values, (0, 1)))[0])
        raise InputError(f"session {label.index[i]!r}: a label is 0 or 1, got "
                         f"{shown(label.iloc[i])}")
    y = values.astype(np.int64)
    x = _matrix(frame.loc[label.index], features, clicklog)
    counts = np.bincount(y, minlength=2)
    if counts.min() < folds:
        raise InputError(f"{folds}-fold cross-validation needs {folds} sessions of each "
                         f"label; the labels have {counts[1]} satisfied and {counts[0]} "
                         "not")
    gen = np.random.default_rng(rng)
    fold = np.empty(len(y), dtype=np.int64)
    for c in (0, 1):  # stratified: each label's sessions dealt round the folds
        members = np.flatnonzero(y == c)
        fold[gen.permutation(members)] = np.arange(len(members)) % folds
    accuracy, auc = np.empty(folds), np.empty(folds)
    for k in range(folds):
        test = fold == k
        centre, scale, beta = _fit(x[~test], y[~test], l2)
        score = expit(beta[0] + ((x[test] - centre) / scale) @ beta[1:])
        accuracy[k] = float(((score > 0.5) == (y[test] == 1)).mean())
        auc[k] = _auc(score, y[test])
    centre, scale, beta = _fit(x, y, l2)
    return SatisfactionModel(features, beta[1:], float(beta[0]), centre, scale, l2, len(y),
                             int(counts[1]), folds, accuracy, auc)
