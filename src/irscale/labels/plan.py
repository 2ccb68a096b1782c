"""How many human labels prediction-powered intervals of a given width need.

An automatic judge (an LLM, say) labels the ``P`` (topic, document) pairs of a
collection; people label a pilot sample of them. The runs' means of a measure, and the
differences of runs one names, are then estimated from the judge's labels corrected with
human ones (:func:`irscale.collections.automatic_judgments` with a document-level
design). :func:`plan` answers, from the pilot, how many human labels the corrected
intervals need to be ``width`` wide at level ``confidence``; :func:`select`
(:mod:`irscale.labels.plan_select`) draws the pairs to send to people.

**The measures** are sums over the ranked documents of a weight of the rank times a gain
of the grade (P@k, DCG@k, RBP: :mod:`irscale.collections.automatic_pairs`), so that a run's
mean is ``θ = Σ_p c_p(Y_p)``, pair ``p``'s contribution under its human grade ``Y_p``.
The judge's grade ``Ŷ_p`` gives ``c_p(Ŷ_p)``; the *rectifier* of a labelled pair is
``c_p(Y_p) − c_p(Ŷ_p)``, the human label minus the judge's as it enters the estimand.

**Prediction-powered inference** (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic,
"Prediction-powered inference", *Science* 382, 2023). With ``z_p = P·c_p`` (so that
``θ`` is the mean of ``z`` over the pairs), ``n`` pairs labelled uniformly at random and
the judge's values of all ``P`` pairs, the PPI estimate ``mean_all(ẑ) + mean_S(z − ẑ)``
has the variance

    V(n) = var_all(ẑ) / P + σ² / n,    σ² = var(z − ẑ)

and the interval ``θ̂ ± z_{(1+confidence)/2}·sqrt(V)``. The plan estimates ``σ²`` by the
pilot's variance of the rectifier and ``var_all(ẑ)`` is known; the width ``w`` is reached
when ``V(n) ≤ (w / (2·z_{(1+c)/2}))² = t``:

* ``uniform``: ``n = ⌈σ² / (t − var_all(ẑ)/P)⌉`` (the largest over the estimands; every
  pair, ``P``, where the judge's term alone exceeds ``t``). The pilot, a uniform sample,
  is part of the ``n``: ``n − n₀`` more are needed, drawn uniformly from the other pairs.
* ``stratified`` by the judge's grade (stratified PPI: Fisch et al., NeurIPS 2024;
  ``W_h = P_h/P``): ``V = Σ_h W_h²·(v_h/P_h + σ_h²/n_h)`` with each grade's own ``σ_h²``
  (its pilot pairs) and ``v_h``; Neyman's allocation ``n_h = n·a_h``, ``a_h ∝ W_h·s_h``
  (``s_h²`` the mean of the grade's rectifier variances over the estimands) gives
  ``n = Σ_h W_h²σ_h²/a_h / (t − Σ_h W_h² v_h/P_h)``; a grade keeps its pilot labels where
  they are more.
* ``active`` (active statistical inference: Zrnic and Candès, "Active statistical
  inference", ICML 2024): the pairs outside the pilot are drawn with inclusion
  probabilities ``π_p ∝`` an estimate of the judge's error ``sqrt(E[(Y − f(X))² | X])``
  mixed with uniform over the pairs whose label can move an estimand (``uniform_share``
  ε, default ½: ``q_p = (1 − ε)·s_p/Σs + ε·m_p/Σm``, ``π = min(1, c·q)`` with ``Σπ`` the
  budget; a pair no run ranks where the measure weighs it has ``m_p = 0`` and is never
  drawn: its label changes nothing), the pilot's pairs kept with ``π = 1`` (the design is
  conditional on the pilot). The error is estimated by the pilot's confusion of the grades
  (add-½ smoothed),
  ``E[e_p² | Ŷ_p] = Σ_k P̂(Y = k | Ŷ = Ŷ_p)·(c_p(k) − c_p(Ŷ_p))²``, and the
  Horvitz–Thompson difference estimator of ``labels auto --design inclusion`` has the
  expected variance ``Σ_p (1 − π_p)/π_p · E[e_p² | Ŷ_p]`` (Särndal, Swensson and Wretman
  1992, §6.3; independent inclusions); the budget is the smallest whose variance is at
  most ``t`` for every estimand (bisection). The planned intervals hold at ``λ = 1``
  (PPI); PPI++'s tuned λ can only narrow them asymptotically.

A pilot too small to estimate a variance (fewer than 2 labels, or than 2 of a judge grade
for the stratified and active designs) is an :class:`~irscale.errors.InputError`.

**Unjudged documents.** The population is the judge's pairs; a document a run retrieves
that the judge does not label counts 0 (trec_eval). The most it can move an estimand is
found by :func:`irscale.collections.unjudged_bounds` (every unjudged document given the
lowest, then the highest grade): the interval is then the sampling interval widened by
those shifts, ``[low + shift_low, high + shift_high]``. The table says which part is which:
``sampling_width`` (the planned PPI interval) and ``unjudged_width`` (``shift_high −
shift_low``, which no label of the judge's pairs narrows), and ``total_width`` their sum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.ppi_means import normal_quantile
from ..errors import ParameterError
from . import plan_core as core
from .plan_data import PlanInputs, plan_inputs
from .plan_params import DEFAULT_UNIFORM_SHARE, PLAN

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.tables import Format

LabelDesign = Literal["active", "stratified", "uniform"]


@dataclass(frozen=True)
class LabelPlan(HtmlRepr):
    """What :func:`plan` finds (module documentation).

    ``estimates``: one row an estimand (``kind`` ``mean``: a run's mean of a measure;
    ``difference``: ``a − b``): ``automatic`` (its value under the judge's labels),
    ``pilot_width`` (the uniform PPI interval's width with the pilot alone), ``labels``
    (the human labels the estimand needs under the design, the pilot's reused), the
    ``sampling_width`` planned with :attr:`labels` labels (at most ``width``),
    ``shift_low``/``shift_high`` and ``unjudged_width`` (what the unjudged documents can
    add), ``total_width`` and ``reached`` (False where even every pair labelled does not
    bring PPI's variance, which ignores the finite population, under the target: the
    judge's own term is too large). ``topics``: one row a topic: its ``pairs``, ``pilot`` labels
    and ``more`` (the new labels expected in it). ``labels``: the design's labels in all,
    pilot included (the largest need); ``more``: the new ones.
    """

    estimates: pd.DataFrame
    topics: pd.DataFrame
    labels: int
    more: int
    pilot: int
    pairs: int
    design: str
    width: float
    confidence: float

    def to_frame(self) -> pd.DataFrame:
        """The estimates (one row an estimand)."""
        return self.estimates

    def __repr__(self) -> str:
        return (f"LabelPlan({self.design}: {self.more} more human labels beside the pilot's "
                f"{self.pilot}, of {self.pairs} pairs, for {100 * self.confidence:g}% "
                f"intervals {self.width:g} wide)")

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The estimates and the topics as ``fmt`` (``csv``: the estimates; ``json``:
        both tables and the totals)."""
        from ..io.formats import TABLE_FORMATS, check_format
        from ..stats.protocol import format_table

        check_format(fmt, TABLE_FORMATS, "label plan")
        if fmt == "csv":
            return format_table(self.estimates, "csv")
        if fmt == "json":
            from ..stats.tables import json_text, records

            return json_text({"labels": self.labels, "more": self.more, "pilot": self.pilot,
                              "pairs": self.pairs, "design": self.design,
                              "width": self.width, "confidence": self.confidence,
                              "estimates": records(self.estimates, "estimates"),
                              "topics": records(self.topics, "topics")}, indent=2)
        level = f"{100 * self.confidence:g}%"
        head = (f"{self.design} design: {self.labels} human labels of {self.pairs} pairs "
                f"({self.pilot} in the pilot, {self.more} more) for {level} intervals "
                f"{self.width:g} wide")
        return "\n\n".join([
            head,
            format_table(self.estimates, fmt, digits=digits,
                         title="Intervals planned (sampling and unjudged parts)"),
            format_table(self.topics, fmt, digits=digits, title="New labels by topic")])


def _per_topic(inputs: PlanInputs, expected: np.ndarray) -> pd.DataFrame:
    """One row a topic: its pairs, the pilot's labels and ``expected`` new labels (by
    pair) summed."""
    auto = inputs.auto
    pilot = np.zeros(len(auto))
    pilot[inputs.arrays.pilot] = 1.0
    table = pd.DataFrame({"topic": auto["topic"], "pairs": 1, "pilot": pilot,
                          "more": expected})
    grouped = table.groupby("topic", sort=False).sum().reset_index()
    grouped["pilot"] = grouped["pilot"].astype(np.int64)
    return grouped


def design_labels(arrays: core.PlanArrays, design: str, target: float, uniform_share: float
                  ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """Per estimand the labels it needs and the variance at the design's labels, the
    design's labels in all (the pilot's included) and the new labels expected per pair
    (module documentation), for a variance ``target``."""
    pairs = arrays.n_pairs
    rest = arrays.rest()
    expected = np.zeros(pairs)
    if design == "uniform":
        sigma2, v = core.uniform_moments(arrays)
        needs = np.array([max(core.uniform_size(sigma2[e:e + 1], v[e:e + 1], pairs,
                                                target), len(arrays.pilot))
                          for e in range(len(sigma2))])
        n = max(int(needs.max()), len(arrays.pilot))
        if len(rest):
            expected[rest] = (n - len(arrays.pilot)) / len(rest)
        return needs, core.uniform_variance(sigma2, v, pairs, n), n, expected
    if design == "stratified":
        strata = core.strata_of(arrays)
        n_h = core.stratified_size(strata, target)
        needs = np.array([int(core.stratified_size(_only(strata, e), target).sum())
                          for e in range(strata.sigma2.shape[1])])
        for h, column in enumerate(strata.columns):
            inside = rest[arrays.judge[rest] == column]
            if len(inside):
                expected[inside] = (n_h[h] - strata.pilot[h]) / len(inside)
        return needs, core.stratified_variance(strata, n_h), int(n_h.sum()), expected
    moments = core.error_moments(arrays)[rest]
    scores = core.active_scores(moments)
    matters = arrays.matters()[rest]
    needs = np.array([core.active_size(moments[:, e:e + 1], scores, matters, uniform_share,
                                       target) for e in range(moments.shape[1])]) \
        + len(arrays.pilot)
    budget = int(needs.max()) - len(arrays.pilot)
    pi = core.active_probabilities(scores, matters, budget, uniform_share)
    expected[rest] = pi
    return (needs, core.active_variance(moments, pi), budget + len(arrays.pilot),
            expected)


def _only(strata: core.Strata, e: int) -> core.Strata:
    """``strata`` with estimand ``e`` alone (the same shares)."""
    from dataclasses import replace

    return replace(strata, sigma2=strata.sigma2[:, e:e + 1], v=strata.v[:, e:e + 1])


@PLAN
def plan(judge: Any, pilot: Any, runs: Any, measures: str | Sequence[str], *,
         width: float, confidence: float = 0.95, design: LabelDesign = "active",
         pairs: Sequence[str] | Sequence[tuple[str, str]] | None = None,
         uniform_share: float = DEFAULT_UNIFORM_SHARE,
         relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> LabelPlan:
    """The human labels that prediction-powered intervals ``width`` wide need (module
    documentation).

    Parameters
    ----------
    judge : qrels (path, Qrels, DataFrame, dict)
        The judge's labels of every pair of the collection (the population).
    pilot : qrels
        Human labels of a pilot sample of those pairs (drawn uniformly at random, or
        uniformly within the judge's grades).
    runs : runs (paths, a folder, a list or mapping of runs)
    measures : str or sequence of str
        Measures that are sums over the ranked documents (``P@10``, ``DCG@10``, ``RBP``).
    width : float
        The width every interval must reach (high − low), > 0.
    confidence : float
        The intervals' level, in (0, 1).
    design : {"active", "stratified", "uniform"}
        How the new labels are drawn (module documentation).
    pairs : sequence of str, optional
        Differences of runs to plan for too, each ``"A:B"`` (the runs' names).
    uniform_share : float
        The active design's share of uniform probabilities, in [0, 1].
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``), for both qrels.

    Returns
    -------
    LabelPlan
    """
    z = normal_quantile(1 - confidence)
    if not 0 < z < math.inf:  # (1 + confidence)/2 rounds to 1, or to 1/2
        raise ParameterError(f"confidence {confidence!r} is too close to "
                             f"{1 if z > 0 else 0}: the interval's normal quantile is "
                             f"{z:g} in double precision", param="confidence")
    inputs = plan_inputs(judge, pilot, runs, measures, pairs, relevance_level)
    arrays = inputs.arrays
    core.check_pilot(arrays, by_grade=design != "uniform")
    half = width / (2 * z)
    target = half * half if half < 1e154 else math.inf  # (a width near the largest double)
    needs, variance, total, expected = design_labels(arrays, design, target, uniform_share)
    sigma2, v = core.uniform_moments(arrays)
    pilot_width = 2 * z * np.sqrt(core.uniform_variance(sigma2, v, arrays.n_pairs,
                                                        len(arrays.pilot)))
    sampling = 2 * z * np.sqrt(variance)
    unjudged = inputs.shift_high - inputs.shift_low
    estimates = inputs.estimands.assign(
        automatic=inputs.automatic, pilot_width=pilot_width, labels=needs,
        sampling_width=sampling, shift_low=inputs.shift_low, shift_high=inputs.shift_high,
        unjudged_width=unjudged, total_width=sampling + unjudged,
        reached=sampling <= width * (1 + 1e-12))
    topics = _per_topic(inputs, expected)
    return LabelPlan(estimates, topics, labels=total,
                     more=total - len(arrays.pilot), pilot=len(arrays.pilot),
                     pairs=arrays.n_pairs, design=design, width=float(width),
                     confidence=float(confidence))

