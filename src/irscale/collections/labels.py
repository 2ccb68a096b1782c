"""Crowd labels: reading ``topic docno worker label`` tables and aggregating them into qrels.

Every method works on integer codes, vectorised over all labels at once: an *item* is a
(topic, docno) pair, the classes are the label values in increasing order (the declared
scale, or the values seen), and ``counts[i, k]`` (``np.bincount`` over ``item·K + class``)
is the number of workers who gave item ``i`` class ``k``.

``mv``: majority vote
    The class with most votes; a tie goes to the **lower label** (the first maximum over
    the classes in increasing order, as crowd-kit's ``MajorityVote``). Confidence: the share
    of the item's votes for that class. Worker quality: the share of the worker's labels
    equal to the majority label of their item.
``wmv``: weighted majority vote
    Every vote weighs the worker's majority-vote quality (``Wawa`` of crowd-kit, "worker
    agreement with aggregate"): ``score[i, k] = Σ_{w labels i as k} q_w``; ties as ``mv``.
    Confidence: ``score[i, k] / Σ_k' score[i, k']``.
``ds``: Dawid & Skene (1979), EM over all items at once
    Worker ``w`` has a confusion matrix ``e_w[l | c]`` (the probability to answer ``l``
    when the true class is ``c``) and the classes have a prior ``π``. Initialisation: the
    majority-vote shares ``T[i, c]``. M-step: ``π_c = mean_i T[i, c]``, ``e_w[l | c] ∝
    Σ_{i: w answered l} T[i, c]`` (cells clipped below at 1e-10 before normalising). E-step:
    ``T[i, c] ∝ π_c Π_{(w, l) on i} e_w[l | c]`` (in log space, shifted by the row maximum).
    Stops after ``n_iter`` iterations or when the evidence lower bound per label grows by
    less than ``tol`` (crowd-kit's criterion and defaults: 100, 1e-5). Confidence: the
    posterior of the chosen class; worker quality: ``Σ_c π_c e_w[c | c]``.

GLAD (Whitehill et al. 2009) and MACE (Hovy et al. 2013) are not implemented yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core import arrow
from ..errors import DuplicateError, EmptyInputError, InputError, ParameterError
from ..io._text import is_int, line_of_record, parse_columns, source_name

Method = Literal["mv", "wmv", "ds"]
#: Aggregation methods (see the module documentation).
METHODS: tuple[str, ...] = ("mv", "wmv", "ds")
#: Smallest probability of the Dawid–Skene model (crowd-kit's ``_EPS``).
EPS = 1e-10
COLUMNS = ("topic", "docno", "worker", "label")

__all__ = ["METHODS", "Aggregation", "CrowdLabels", "aggregate_labels", "read_crowd_labels"]


@dataclass(frozen=True, eq=False)
class CrowdLabels:
    """Crowd labels as codes: ``item`` and ``worker`` index ``items`` (a frame of topic,
    docno) and ``workers``; ``label`` indexes ``classes`` (the label values, increasing)."""

    items: pd.DataFrame
    workers: np.ndarray
    classes: np.ndarray
    item: np.ndarray
    worker: np.ndarray
    label: np.ndarray
    source: str

    @property
    def counts(self) -> np.ndarray:
        """``counts[i, k]``: labels of class ``k`` given to item ``i``."""
        k = len(self.classes)
        return np.bincount(self.item * k + self.label,
                           minlength=len(self.items) * k).reshape(-1, k).astype(np.float64)

    def to_frame(self) -> pd.DataFrame:
        """The labels as a ``topic docno worker label`` frame."""
        return pd.DataFrame({"topic": self.items["topic"].to_numpy()[self.item],
                             "docno": self.items["docno"].to_numpy()[self.item],
                             "worker": self.workers[self.worker],
                             "label": self.classes[self.label]})

    def __repr__(self) -> str:
        return (f"CrowdLabels({len(self.item):,} labels, {len(self.items):,} documents, "
                f"{len(self.workers):,} workers, classes {self.classes.tolist()})")


def check_scale(scale: Sequence[int] | None) -> np.ndarray | None:
    """The declared label values, increasing (``None``: whatever the labels hold)."""
    if scale is None:
        return None
    values = np.asarray(list(scale))
    if values.size == 0 or values.dtype.kind not in "iu":
        raise ParameterError(f"scale must be a non-empty list of integers, got {list(scale)}")
    if np.unique(values).size != values.size:
        raise ParameterError(f"scale lists a label twice: {values.tolist()}")
    return np.sort(values).astype(np.int64)


def read_crowd_labels(source: Any, scale: Sequence[int] | None = None) -> CrowdLabels:
    """Crowd labels from a ``topic docno worker label`` file (whitespace-separated; path,
    bytes or stream) or a DataFrame with those columns.

    A label must be an integer, one of ``scale`` when declared; a worker labels a document
    once. Errors name the file, the line and its text.

    >>> read_crowd_labels(b"1 d1 w1 1\\n1 d1 w2 0\\n1 d2 w1 2\\n", scale=[0, 1, 2])
    CrowdLabels(3 labels, 2 documents, 2 workers, classes [0, 1, 2])
    """
    classes = check_scale(scale)
    if isinstance(source, CrowdLabels):
        return _encoded(source.to_frame(), source.source, classes, None)
    if hasattr(source, "columns"):
        missing = [c for c in COLUMNS if c not in source.columns]
        if missing:
            raise InputError(f"labels frame lacks column(s) {', '.join(missing)} (needs "
                             f"{' '.join(COLUMNS)})", source="<DataFrame>")
        frame = pd.DataFrame({c: source[c] for c in COLUMNS})
        labels = pd.to_numeric(frame["label"], errors="coerce")
        bad = ~np.isfinite(labels.to_numpy(dtype=np.float64)) | (labels % 1 != 0).to_numpy()
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError("label is not an integer", source="<DataFrame>",
                             line=row + 1, text=" ".join(map(str, frame.iloc[row])))
        frame["label"] = labels.astype(np.int64)
        for c in ("topic", "docno", "worker"):
            frame[c] = frame[c].astype(str)
        return _encoded(frame, "<DataFrame>", classes, None)
    name = source_name(source)
    table, raw = parse_columns(
        source, COLUMNS,
        {"topic": pa.string(), "docno": pa.string(), "worker": pa.string(),
         "label": pa.int64()}, COLUMNS,
        {3: lambda text: None if is_int(text) else "is not an integer"}, "crowd labels")
    frame = pd.DataFrame({c: (arrow.to_numpy(table[c]) if c == "label"
                              else np.asarray(table[c].to_pylist(), dtype=object))
                          for c in COLUMNS})
    return _encoded(frame, name, classes, lambda row: line_of_record(raw(), row))


def _encoded(frame: pd.DataFrame, source: str, classes: np.ndarray | None,
             where: Any) -> CrowdLabels:
    def fail(error: type[InputError], message: str, row: int) -> InputError:
        if where is None:
            return error(message, source=source, line=row + 1,
                         text=" ".join(map(str, frame.iloc[row])))
        line, text = where(row)
        return error(message, source=source, line=line, text=text)

    if frame.empty:
        raise EmptyInputError("holds no labels", source=source)
    values = frame["label"].to_numpy(dtype=np.int64)
    if classes is None:
        classes = np.unique(values)
    code = np.searchsorted(classes, values)
    outside = (code >= len(classes)) | (classes[np.minimum(code, len(classes) - 1)] != values)
    if outside.any():
        raise fail(InputError, f"label outside the scale {','.join(map(str, classes))}",
                   int(np.flatnonzero(outside)[0]))
    item, items = pd.MultiIndex.from_frame(frame[["topic", "docno"]]).factorize()
    worker, workers = pd.factorize(frame["worker"])
    key = pd.Series(item.astype(np.int64) * len(workers) + worker)
    twice = key.duplicated().to_numpy()
    if twice.any():
        raise fail(DuplicateError, "a worker labels this document twice",
                   int(np.flatnonzero(twice)[0]))
    return CrowdLabels(items.to_frame(index=False, name=["topic", "docno"]),
                       np.asarray(workers, dtype=object), classes, item.astype(np.int64),
                       worker.astype(np.int64), code.astype(np.int64), source)


@dataclass(frozen=True, eq=False)
class Aggregation:
    """Aggregated crowd labels: ``qrels`` (topic, docno, label, confidence), ``workers``
    (worker, labels, quality), ``probabilities`` (documents × classes) and the method; for
    EM also the iterations run and whether the bound converged."""

    method: str
    qrels: pd.DataFrame
    workers: pd.DataFrame
    probabilities: pd.DataFrame
    iterations: int = 0
    converged: bool = True

    def lines(self) -> list[str]:
        """The qrels file: ``topic 0 docno label`` lines."""
        q = self.qrels
        return [f"{t} 0 {d} {r}" for t, d, r in zip(q["topic"], q["docno"], q["label"],
                                                          strict=True)]

    def __repr__(self) -> str:
        return (f"Aggregation({self.method}; {len(self.qrels):,} documents, "
                f"{len(self.workers):,} workers)")


def _shares(scores: np.ndarray) -> np.ndarray:
    return scores / scores.sum(axis=1, keepdims=True)


def _accuracy(labels: CrowdLabels, chosen: np.ndarray) -> np.ndarray:
    """Share of every worker's labels equal to the chosen class of their item."""
    hits = np.bincount(labels.worker, weights=labels.label == chosen[labels.item],
                       minlength=len(labels.workers))
    return hits / np.bincount(labels.worker, minlength=len(labels.workers))


def _dawid_skene(labels: CrowdLabels, n_iter: int, tol: float
                 ) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Posteriors T (items × K), worker quality, iterations, converged (module doc)."""
    k = len(labels.classes)
    n_w = len(labels.workers)
    cell = labels.worker * k + labels.label           # (worker, answered class) of a label
    seen = np.bincount(cell, minlength=n_w * k) > 0    # cells crowd-kit's groupby holds

    def m_step(t: np.ndarray) -> np.ndarray:
        errors = np.zeros((n_w * k, k))
        np.add.at(errors, cell, t[labels.item])
        errors[seen] = np.maximum(errors[seen], EPS)
        cube = errors.reshape(n_w, k, k)
        return cube / cube.sum(axis=1, keepdims=True)

    def log_terms(errors: np.ndarray, base: Any) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return base(errors.reshape(n_w * k, k))[cell]

    t = _shares(labels.counts)
    priors = t.mean(axis=0)
    errors = m_step(t)
    loss, iterations, converged = -np.inf, 0, False
    n_items = len(labels.items)
    while iterations < n_iter:
        iterations += 1
        priors = np.maximum(priors, EPS)
        log_t = np.log2(priors) + np.zeros((n_items, k))
        np.add.at(log_t, labels.item, log_terms(errors, np.log2))
        t = _shares(np.exp2(log_t - log_t.max(axis=1, keepdims=True)))
        priors = t.mean(axis=0)
        errors = m_step(t)
        joint = (t[labels.item] * (log_terms(errors, np.log)
                                   + np.log(np.maximum(priors, EPS)))).sum()
        clipped = np.maximum(t, EPS)
        new_loss = (joint - (np.log(clipped) * clipped).sum()) / len(labels.item)
        if new_loss - loss < tol:
            converged = True
            break
        loss = new_loss
    quality = (np.diagonal(errors, axis1=1, axis2=2) * priors).sum(axis=1)
    return t, quality, iterations, converged


def aggregate_labels(labels: Any, method: Method = "ds", *, scale: Sequence[int] | None = None,
                     n_iter: int = 100, tol: float = 1e-5) -> Aggregation:
    """Aggregate crowd labels into qrels with one method of :data:`METHODS` (module doc).

    ``labels``: a file, bytes, a ``topic docno worker label`` DataFrame or
    :class:`CrowdLabels`; ``scale``: the declared label values (a label outside is an
    error); ``n_iter`` and ``tol``: the EM stopping rule (``ds``).

    >>> agg = aggregate_labels(b"1 a w1 1\\n1 a w2 1\\n1 a w3 0\\n1 b w1 0\\n1 b w2 1\\n",
    ...                        "mv")
    >>> agg.lines()
    ['1 0 a 1', '1 0 b 0']
    """
    if method not in METHODS:
        raise ParameterError(f"unknown aggregation method {method!r}; choose one of "
                             f"{', '.join(METHODS)}")
    if isinstance(n_iter, bool) or not isinstance(n_iter, (int, np.integer)) or n_iter < 1:
        raise ParameterError(f"n_iter must be a positive integer, got {n_iter!r}")
    if not (isinstance(tol, (int, float)) and np.isfinite(tol) and tol >= 0):
        raise ParameterError(f"tol must be a finite number ≥ 0, got {tol!r}")
    data = read_crowd_labels(labels, scale)
    iterations, converged = 0, True
    mv = _shares(data.counts)
    if method == "mv":
        probabilities, quality = mv, _accuracy(data, mv.argmax(axis=1))
    elif method == "wmv":
        quality = _accuracy(data, mv.argmax(axis=1))
        k = len(data.classes)
        weighted = np.bincount(data.item * k + data.label, weights=quality[data.worker],
                               minlength=len(data.items) * k).reshape(-1, k)
        with np.errstate(invalid="ignore"):
            probabilities = _shares(weighted)   # all-zero weights: NaN, the label stays mv
        probabilities = np.where(np.isnan(probabilities), mv, probabilities)
    else:
        probabilities, quality, iterations, converged = _dawid_skene(data, n_iter, tol)
    chosen = probabilities.argmax(axis=1)
    qrels = data.items.assign(label=data.classes[chosen],
                              confidence=probabilities[np.arange(len(chosen)), chosen])
    workers = pd.DataFrame({"worker": data.workers,
                            "labels": np.bincount(data.worker, minlength=len(data.workers)),
                            "quality": quality})
    table = pd.DataFrame(probabilities, columns=data.classes.tolist(),
                         index=pd.MultiIndex.from_frame(data.items))
    return Aggregation(method, qrels, workers, table, iterations, converged)
