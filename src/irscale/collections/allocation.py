"""How many crowd workers to ask per document: adaptive stopping against a uniform
allocation, replayed on crowd labels under a declared budget.

Abraham, Alonso, Kandylas, Patel, Shelford & Slivkins (SIGIR 2016, "How many workers to
ask? Adaptive exploration for collecting high quality labels"; the bandit survey problem
of Abraham, Alonso, Kandylas & Slivkins, HCOMP 2013) ask the workers of a HIT one at a
time and stop as soon as the answers single out one label: an easy (topic, document) pair
stops after a few labels, a hard one gets more. :func:`allocate_labels` replays that on a
crowd-labels file, each document's labels taken in file order (or in an order shuffled by
``rng``) as the answers of the workers it would have asked:

``adaptive``
    after t ≥ ``min_labels`` answers with counts n_(1) ≥ n_(2) of the two most frequent
    labels, stop when n_(1) − n_(2) ≥ c √t − ε t: the gap of the empirical frequencies
    exceeds the confidence width c/√t shrunk by ε, which makes every document stop by
    t = (c/ε)² (the form of Abraham et al.'s stopping rule; ``c`` and ``epsilon`` are
    declared, irscale does not take the paper's constants or its use of workers' quality
    scores);
``uniform``
    every document gets the same number of answers (no stopping rule).

The answers are bought in rounds: in each round every document that has not stopped and
has an answer left gets one more, in document order, until the ``budget`` (total answers;
default: all of them) or ``max_labels`` per document runs out. A document's label is its
most frequent answer (ties: the smallest label), the same majority vote for both rules, so
the comparison is of the allocation alone; a document the budget bought no answer for has
no label (``<NA>``; no qrels line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.numbers import blank, declare
from ..io.crowd import read_crowd_labels
from ..stats.protocol import TableResult
from .params import ALLOCATE

__all__ = ["LabelAllocation", "allocate_labels"]

Rule = Literal["adaptive", "uniform"]


@dataclass(frozen=True, eq=False)
class LabelAllocation(TableResult):
    """The answers bought per document (:func:`allocate_labels`): ``table`` has one row
    per (topic, docno) with ``labels`` (answers bought), ``label`` (their majority),
    ``margin`` (n_(1) − n_(2)) and ``stopped`` (True when the stopping rule ended it)."""

    table: pd.DataFrame
    rule: str
    budget: int

    def to_frame(self) -> pd.DataFrame:
        return declare(self.table.copy(), {"label": blank("the budget bought the document "
                                                          "no answer")})

    @property
    def used(self) -> int:
        """The answers bought in all."""
        return int(self.table["labels"].sum())

    def lines(self) -> list[str]:
        """The qrels: ``topic 0 docno label`` lines (a document the budget bought no
        answer for has no label and no line)."""
        t = self.table[self.table["labels"] > 0]
        return [f"{a} 0 {b} {c}" for a, b, c in zip(t["topic"], t["docno"], t["label"],
                                                    strict=True)]

    def __repr__(self) -> str:
        return (f"LabelAllocation({self.rule}: {self.used:,} of {self.budget:,} labels on "
                f"{len(self.table):,} documents, {int(self.table['stopped'].sum()):,} "
                "stopped by the rule)")


@ALLOCATE
def allocate_labels(labels: Any, rule: Rule = "adaptive", *, budget: int | None = None,
                    c: float = 1.5, epsilon: float = 0.1, min_labels: int = 2,
                    max_labels: int | None = None, rng: Any = None,
                    scale: Any = None) -> LabelAllocation:
    """Replay an allocation of crowd answers (module documentation).

    Parameters
    ----------
    labels : path, bytes, DataFrame or CrowdLabels
        The answers available (``topic docno worker label``,
        :func:`~irscale.io.crowd.read_crowd_labels`; ``scale``: the labels allowed).
    rule : ``adaptive`` or ``uniform``
    budget : int, optional
        Total answers to buy; default all of them.
    c, epsilon, min_labels
        The stopping rule's constants (``adaptive`` only).
    max_labels : int, optional
        Most answers per document; default no cap beyond the answers available.
    rng : seed or Generator, optional
        Shuffle every document's answers (default: file order).

    Examples
    --------
    >>> crowd = b"t d1 w1 1\\nt d1 w2 1\\nt d1 w3 0\\nt d2 w1 0\\nt d2 w2 1\\nt d2 w3 1\\n"
    >>> allocate_labels(crowd, c=1.0, epsilon=0.5).to_frame()
      topic docno  labels  label  margin  stopped
    0     t    d1       2      1       2     True
    1     t    d2       3      1       1     True
    """
    least = min_labels
    data = read_crowd_labels(labels, scale)
    n_items, n_classes = len(data.items), len(data.classes)
    order = np.arange(len(data.item))
    if rng is not None:
        order = np.random.default_rng(rng).permutation(len(data.item))
    order = order[np.argsort(data.item[order], kind="stable")]
    item, answer = data.item[order], data.label[order]
    available = np.bincount(item, minlength=n_items)
    start = np.r_[0, np.cumsum(available)[:-1]]
    total = int(available.sum())
    # the counts are at most the answers available: larger settings are clamped to them
    # (exact, and within int64)
    cap = available if max_labels is None else np.minimum(
        available, min(max_labels, total))
    least = min(least, total + 1)
    budget = total if budget is None else min(budget, total)
    counts = np.zeros((n_items, n_classes), dtype=np.int64)
    bought = np.zeros(n_items, dtype=np.int64)
    stopped = np.zeros(n_items, dtype=bool)
    left = budget
    while left > 0:
        active = np.flatnonzero(~stopped & (bought < cap))
        if not len(active):
            break
        active = active[:left]
        np.add.at(counts, (active, answer[start[active] + bought[active]]), 1)
        bought[active] += 1
        left -= len(active)
        if rule == "adaptive":
            top = np.sort(counts[active], axis=1)
            gap = top[:, -1] - (top[:, -2] if n_classes > 1 else 0)
            t = bought[active]
            stopped[active] = (t >= least) & (gap >= c * np.sqrt(t) - epsilon * t)
    top = np.sort(counts, axis=1)
    margin = top[:, -1] - (top[:, -2] if n_classes > 1 else 0)
    table = pd.DataFrame({"topic": data.items["topic"].astype(str),
                          "docno": data.items["docno"].astype(str), "labels": bought,
                          "label": pd.array(np.where(bought > 0,
                                                     data.classes[counts.argmax(axis=1)], 0),
                                            dtype="Int64"),
                          "margin": margin, "stopped": stopped})
    table.loc[bought == 0, "label"] = pd.NA
    return LabelAllocation(table, rule, int(budget))

