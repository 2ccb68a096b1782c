"""Prediction-powered means of a finite population from a probability sample of human labels.

The estimators shared by every command that corrects automatic labels with a human
sample: :func:`irscale.collections.automatic_judgments` (automatic relevance judgments,
:mod:`irscale.collections.automatic_pairs`) and
:func:`irscale.text.evaluate_assignments` (a model's nugget assignments,
:mod:`irscale.evaluation.assignments_ppi`). A population of ``P`` units has a value ``z``
under the human labels (known on the sample ``S``) and ``ẑ`` under the automatic ones
(known everywhere); the target is ``θ``, the mean of ``z`` (uniform, stratified) or its
sum (inclusion). The sample is drawn

* ``"uniform"``: a simple random sample of the units: the prediction-powered mean
  (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic, "Prediction-powered inference",
  *Science* 382, 2023; PPI++ for λ: Angelopoulos, Duchi and Zrnic, arXiv:2311.01453)
  ``θ̂_λ = λ·mean_P(ẑ) + mean_S(z − λ·ẑ)``, variance
  ``λ²·var_P(ẑ)/P + var_S(z − λ·ẑ)/n`` (divisor the count; ppi-python's ``ppi_mean_ci``
  on the same arrays);
* ``"stratified"``: a simple random sample within every stratum ``h`` (stratified PPI,
  Fisch et al., NeurIPS 2024): the same estimate in every stratum weighted by ``P_h/P``,
  variances with weights ``(P_h/P)²``; every stratum needs 2 sampled units;
* ``"inclusion"``: every unit included independently with its stated probability ``π``
  (Poisson design): the Horvitz–Thompson difference estimator
  ``λ·Σ_P ẑ + Σ_S (z − λ·ẑ)/π``, variance ``Σ_S (1 − π)·e²/π²`` (Särndal, Swensson and
  Wretman 1992, §6.3).

``λ = 1`` is PPI, ``λ = 0`` the human sample alone (``"classical"``), ``"ppi++"`` the λ
that minimises the variance, clipped to [0, 1]. Intervals are normal,
``θ̂ ± z_{1−α/2}·SE`` (:func:`normal_interval`). The moments are computed on the values
divided by a power of two near their largest magnitude, then scaled back
(:func:`~irscale.core.numbers.power_scale`), so that values near the largest double give
an estimate instead of overflowing sums; an end beyond the largest double is refused.
"""

from __future__ import annotations

import functools
import math
import sys
from typing import Literal

import numpy as np

from ..errors import InputError
from .numbers import power_scale
from .params import SAMPLE_DESIGNS as SAMPLE_DESIGNS  # (the designs, declared there)

SampleDesign = Literal["uniform", "stratified", "inclusion"]
#: The words of a stratum too small (:func:`sampled_mean`): the pairs of an automatic grade.
STRATUM_WORDS = "{n} pair(s) of automatic grade {h}"


class InclusionOverflow(ArithmeticError):
    """The inclusion design's estimator overflows: ``row``, the sampled unit (its place in
    the human sample) whose inclusion probability is the smallest, makes ``(1 − π)/π²``
    overflow (the caller names its line)."""

    def __init__(self, row: int, prob: float) -> None:
        super().__init__(f"inclusion probability {prob:.6g} of sampled unit {row + 1}")
        self.row, self.prob = row, prob


def _scaled_back(estimate: float, variance: float, scale: float) -> tuple[float, float]:
    """The estimate and the standard error of moments computed on values divided by
    ``scale``; an :class:`~irscale.errors.InputError` when one is beyond the largest
    double."""
    estimate, se = estimate * scale, math.sqrt(variance) * scale
    if not (math.isfinite(estimate) and math.isfinite(se)):
        raise InputError(f"the values are too large: the estimate ({estimate:.4g}) or its "
                         f"standard error ({se:.4g}) is beyond the largest double "
                         f"({sys.float_info.max:.4g})")
    return estimate, se


def ppi_moments(y: np.ndarray, yhat: np.ndarray, rest: np.ndarray, tuning: str
                ) -> tuple[float, float, float]:
    """The estimate, its variance and λ of :func:`irscale.collections.ppi_mean` (its
    formulas, without the checks, the scaling of :func:`sampled_mean` and the interval)."""
    n, big_n = len(y), len(rest)
    if tuning == "ppi++":
        covariance = float(np.mean((y - y.mean()) * (yhat - yhat.mean())))
        variance = float(np.var(np.concatenate([yhat, rest]), ddof=1))
        lam = 0.0 if variance == 0 else covariance / ((1 + n / big_n) * variance)
        lam = min(max(lam, 0.0), 1.0)
    else:
        lam = {"ppi": 1.0, "classical": 0.0}[tuning]
    estimate = lam * float(rest.mean()) + float(np.mean(y - lam * yhat))
    var = lam * lam * float(np.var(rest)) / big_n + float(np.var(y - lam * yhat)) / n
    return estimate, var, lam


def sampled_mean(y: np.ndarray, yhat: np.ndarray, yhat_all: np.ndarray, design: SampleDesign, *,
                 stratum: np.ndarray | None = None, stratum_all: np.ndarray | None = None,
                 prob: np.ndarray | None = None, tuning: str = "ppi++",
                 stratum_words: str = STRATUM_WORDS) -> tuple[float, float, float]:
    """The estimate of ``θ``, its standard error and λ under a design (module
    documentation; ``"uniform"``: :func:`irscale.collections.ppi_mean`'s), computed on the
    values scaled by a power of two (module documentation).

    Parameters
    ----------
    y, yhat : ndarray
        The values of the sampled units under the human and the automatic labels
        (:mod:`irscale.collections.automatic_pairs`: ``c_p`` of the sampled pairs, ``z_p``
        for uniform and stratified: the contributions times ``P``).
    yhat_all : ndarray
        The same under the automatic labels for every unit of the population.
    design : {"uniform", "stratified", "inclusion"}
    stratum, stratum_all : ndarray, optional
        The stratum of the sampled units and of every unit (stratified).
    prob : ndarray, optional
        π of the sampled units (inclusion).
    tuning : {"ppi++", "ppi", "classical"}
    stratum_words : str
        How a stratum too small is named in the error (``{n}`` its sampled units, ``{h}``
        the stratum).
    """
    scale = power_scale(y, yhat, yhat_all)
    estimate, variance, lam = _moments(y / scale, yhat / scale, yhat_all / scale, design,
                                       stratum, stratum_all, prob, tuning, stratum_words)
    return (*_scaled_back(estimate, variance, scale), lam)


def _moments(y: np.ndarray, yhat: np.ndarray, yhat_all: np.ndarray, design: SampleDesign,
             stratum: np.ndarray | None, stratum_all: np.ndarray | None,
             prob: np.ndarray | None, tuning: str, stratum_words: str
             ) -> tuple[float, float, float]:
    """The estimate, its variance and λ of :func:`sampled_mean` (its arguments)."""
    if design == "uniform":
        return ppi_moments(y, yhat, yhat_all, tuning)
    if design == "stratified":
        assert stratum is not None and stratum_all is not None
        estimate = variance = lam_sum = 0.0
        for h in np.unique(stratum_all):
            inside = stratum == h
            weight = float(np.mean(stratum_all == h))
            if inside.sum() < 2:
                held = stratum_words.format(n=int(inside.sum()), h=h)
                raise InputError(f"stratified design: the human sample holds {held}; "
                                 "every stratum needs 2 at least")
            est, var, lam = ppi_moments(y[inside], yhat[inside], yhat_all[stratum_all == h],
                                        tuning)
            estimate += weight * est
            variance += weight * weight * var
            lam_sum += weight * lam
        return estimate, variance, lam_sum
    assert prob is not None
    try:
        with np.errstate(over="raise", divide="raise", invalid="raise"):
            scale = (1 - prob) / (prob * prob)
            if tuning == "ppi++":
                denominator = float(np.sum(scale * yhat * yhat))
                lam = 0.0 if denominator == 0 else float(np.sum(scale * y * yhat)) / denominator
                lam = min(max(lam, 0.0), 1.0)
            else:
                lam = {"ppi": 1.0, "classical": 0.0}[tuning]
            error = y - lam * yhat
            estimate = lam * float(yhat_all.sum()) + float(np.sum(error / prob))
            variance = float(np.sum(scale * error * error))
    except FloatingPointError:
        row = int(np.argmin(prob))
        raise InclusionOverflow(row, float(prob[row])) from None
    if not (math.isfinite(estimate) and math.isfinite(variance)):
        row = int(np.argmin(prob))
        raise InclusionOverflow(row, float(prob[row]))
    return estimate, variance, lam


@functools.lru_cache(maxsize=64)
def normal_quantile(alpha: float) -> float:
    """``z_{1−α/2}``, the standard normal quantile (scipy's; remembered: a table's rows
    share their level)."""
    from scipy.stats import norm

    return float(norm.ppf(1 - alpha / 2))


def normal_interval(estimate: float, se: float, alpha: float) -> tuple[float, float]:
    """``estimate ± z_{1−α/2}·se`` (``z`` the normal quantile); an
    :class:`~irscale.errors.InputError` when an end is beyond the largest double."""
    half = normal_quantile(alpha) * se
    low, high = estimate - half, estimate + half
    if not (math.isfinite(low) and math.isfinite(high)):
        raise InputError(f"the values are too large: the interval {estimate:.4g} ± "
                         f"{half:.4g} has an end beyond the largest double "
                         f"({sys.float_info.max:.4g})")
    return low, high


__all__ = ["SAMPLE_DESIGNS", "InclusionOverflow", "SampleDesign", "normal_interval",
           "normal_quantile", "ppi_moments", "sampled_mean"]
