"""Which (topic, document) pairs to send to people: :func:`select`.

The pairs are drawn from the judge's pairs outside the pilot, ``budget`` of them exactly,
with known inclusion probabilities ``π`` (:mod:`irscale.labels.plan` states the designs):

* ``active``: ``π ∝`` the judge's estimated error mixed with uniform (Zrnic and Candès,
  ICML 2024; ``π = 0`` for a pair whose label moves no estimand: estimate with the same
  runs and measures), drawn by systematic sampling along a random order (Madow 1949; Hartley
  and Rao 1962): a sample of exactly ``Σπ = budget`` pairs, each included with its ``π``;
* ``stratified``: the budget spread over the judge's grades by Neyman's shares (one pair
  at least in every grade with pairs left), a simple random sample in each,
  ``π = b_h / R_h`` (``R_h`` the grade's pairs outside the pilot);
* ``uniform``: a simple random sample of the pairs outside the pilot, ``π = budget / R``.

The pilot's pairs come along with ``π = 1`` and their human grades (the design is
conditional on the pilot: its pairs are a stratum taken whole). The result's lines are
sampled judgments, ``topic 0 docno rel prob`` (:mod:`irscale.io.sampled`), with ``rel``
``-1`` for the pairs to label: people replace it by their grade, and ``irscale labels auto
AUTO HUMAN RUN... --design inclusion`` then estimates from the file through the
Horvitz–Thompson difference estimator (:mod:`irscale.collections.automatic_pairs`); a
``-1`` left in it is refused naming its line. Its variance estimate is that of independent
inclusions, conservative for these fixed-size designs (their joint inclusion
probabilities make the variance of a centred sum, smaller). The pairs of the uniform and
stratified designs, pilot included, are also a uniform (a stratified) sample of the
judge's pairs for ``--design uniform`` (``stratified``) when the pilot was one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..collections.sampling import sample_lines
from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError
from ..stats.resampling import check_rng
from . import plan_core as core
from .plan import LabelDesign
from .plan_data import plan_inputs
from .plan_params import DEFAULT_UNIFORM_SHARE, SELECT

#: The grade of a pair still to be labelled in the lines :func:`select` writes.
TO_LABEL = -1


@dataclass(frozen=True)
class LabelSelection(HtmlRepr):
    """The pairs :func:`select` draws: ``sample`` (``topic, docno, rel, prob``: the pilot's
    pairs with their grades and ``prob`` 1, then the new pairs with ``rel`` −1 and their
    inclusion probabilities, in the judge's order), ``design`` and ``budget``."""

    sample: pd.DataFrame
    design: str
    budget: int

    def to_frame(self) -> pd.DataFrame:
        return self.sample

    def lines(self) -> list[str]:
        """``topic 0 docno rel prob`` lines (module documentation)."""
        return sample_lines(self.sample)

    def __repr__(self) -> str:
        new = int((self.sample["rel"] == TO_LABEL).sum())
        return f"LabelSelection({self.design}: {new} pairs to label, {len(self.sample) - new} " \
            "from the pilot)"


def _uniform(rest: np.ndarray, budget: int, generator: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray]:
    chosen = np.sort(generator.choice(rest, budget, replace=False))
    return chosen, np.full(budget, budget / len(rest))


def _stratified(arrays: core.PlanArrays, rest: np.ndarray, budget: int,
                generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    strata = core.strata_of(arrays)
    room = strata.rest.astype(np.int64)
    open_ = int((room > 0).sum())
    if budget < open_:
        raise InputError(f"budget {budget} is below the {open_} judge grades with pairs "
                         "outside the pilot: the stratified design draws one pair at least "
                         "in each (raise --budget, or --design active)")
    counts = (room > 0).astype(np.int64) + core.allocate(budget - open_, strata.share,
                                                         room - (room > 0))
    chosen, prob = [], []
    for h, column in enumerate(strata.columns):
        inside = rest[arrays.judge[rest] == column]
        if counts[h]:
            chosen.append(generator.choice(inside, int(counts[h]), replace=False))
            prob.append(np.full(int(counts[h]), counts[h] / len(inside)))
    order = np.argsort(np.concatenate(chosen))
    return np.concatenate(chosen)[order], np.concatenate(prob)[order]


def _active(arrays: core.PlanArrays, rest: np.ndarray, budget: int, uniform_share: float,
            generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    scores = core.active_scores(core.error_moments(arrays)[rest])
    matters = arrays.matters()[rest]
    if budget > matters.sum():
        raise InputError(f"budget {budget} exceeds the {int(matters.sum())} pairs outside the "
                         "pilot whose label can move an estimand (pairs the runs rank where "
                         "the measures weigh them): label those, or lower --budget")
    pi = core.active_probabilities(scores, matters, budget, uniform_share)
    at = core.systematic_sample(pi, generator)
    return rest[at], pi[at]


def draw(arrays: core.PlanArrays, design: str, budget: int, uniform_share: float,
         generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The ``budget`` pairs drawn outside the pilot (ascending) and their inclusion
    probabilities, under ``design`` (module documentation)."""
    if design != "uniform":
        core.check_pilot(arrays, by_grade=True)
    rest = arrays.rest()
    if budget > len(rest):
        raise InputError(f"budget {budget} exceeds the {len(rest)} pairs of the judge outside "
                         "the pilot")
    if design == "uniform":
        chosen, prob = _uniform(rest, budget, generator)
    elif design == "stratified":
        chosen, prob = _stratified(arrays, rest, budget, generator)
    else:
        chosen, prob = _active(arrays, rest, budget, uniform_share, generator)
    return chosen, prob


@SELECT
def select(judge: Any, pilot: Any, runs: Any, measures: str | Sequence[str], *,
           budget: int, design: LabelDesign = "active",
           pairs: Sequence[str] | Sequence[tuple[str, str]] | None = None,
           uniform_share: float = DEFAULT_UNIFORM_SHARE,
           relevance_level: int = DEFAULT_RELEVANCE_LEVEL, rng: object = None
           ) -> LabelSelection:
    """The ``budget`` pairs to send to people, with their inclusion probabilities (module
    documentation).

    Parameters
    ----------
    judge, pilot, runs, measures, pairs, relevance_level, uniform_share
        As :func:`irscale.labels.plan`'s (the measures and pairs weigh the active design's
        error; the stratified design's shares).
    budget : int
        The new pairs to draw (≥ 1, at most the judge's pairs outside the pilot).
    design : {"active", "stratified", "uniform"}
    rng : seed or numpy.random.Generator
        The draws' generator (None: a fresh one).

    Returns
    -------
    LabelSelection
    """
    generator = np.random.default_rng(check_rng(rng))
    inputs = plan_inputs(judge, pilot, runs, measures, pairs, relevance_level, bounds=False)
    arrays = inputs.arrays
    chosen, prob = draw(arrays, design, budget, uniform_share, generator)
    rows = np.concatenate([arrays.pilot, chosen])
    rel = np.concatenate([inputs.pilot_rel.astype(np.int64),
                          np.full(len(chosen), TO_LABEL, dtype=np.int64)])
    frame = pd.DataFrame({"topic": inputs.auto["topic"].to_numpy()[rows],
                          "docno": inputs.auto["docno"].to_numpy()[rows], "rel": rel,
                          "prob": np.concatenate([np.ones(len(arrays.pilot)), prob])})
    frame = frame.iloc[np.argsort(rows, kind="stable")].reset_index(drop=True)
    return LabelSelection(frame, design, budget)
