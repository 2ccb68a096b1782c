"""Risk-sensitive evaluation against a baseline: URisk and TRisk.

For a run r and a baseline b evaluated on the same c topics with a measure, let
``δ_q = r_q − b_q`` and weigh the losses by ``1 + α`` (α ≥ 0, the risk sensitivity)::

    z_q = δ_q             if δ_q ≥ 0
    z_q = (1 + α) · δ_q   if δ_q < 0

* ``URisk = (1/c) Σ_q z_q`` (Wang, Bennett & Collins-Thompson, SIGIR 2012; the TREC Web
  track 2013–2014 risk-sensitive measure, ndeval's and gdeval's ``-baseline B -riskAlpha
  α``, whose per-topic output is ``z_q``: ndeval.c's ``RiskBased(r, b, a)``). With α = 0 it
  is the mean difference.
* ``TRisk = URisk / SE``, ``SE = s_z / √c`` with ``s_z`` the sample standard deviation of
  the ``z_q`` (c − 1 in the denominator): the studentised URisk of Dinçer, Macdonald &
  Ounis (SIGIR 2014), a one-sample t statistic of the risk-weighted differences with
  c − 1 degrees of freedom. With α = 0 it is the paired t statistic. ``p`` is its
  two-sided p-value from Student's t distribution; Dinçer et al. read TRisk < −2 as a
  significant loss against the baseline and TRisk > 2 as a significant gain.
* ``wins`` / ``losses`` / ``ties``: topics with δ > 0, δ < 0, δ = 0. Differences within
  :func:`~irscale.stats.validation.tie_tolerance` of 0 (floating-point noise) count as 0,
  here and in ``z``.

``s_z = 0`` (every topic the same z, up to rounding: z's spread within (1 + α) times the
tie tolerance of the scores) gives TRisk = ±inf with p = 0, or NaN when URisk is 0 too.
(rmit-ir/trisk divides the variance by c rather than c − 1: its TRisk is
√(c/(c − 1)) times smaller in magnitude.)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.params import check_risk_alpha
from ..errors import ParameterError
from ..io.naming import find_in
from ..measures.diversity.risk import risk_based
from .effects import sample_sd
from .validation import tie_tolerance, tied_differences


def risk_weighted_differences(run: np.ndarray, baseline: np.ndarray,
                              risk_alpha: float) -> np.ndarray:
    """``z = δ`` where ``δ = run − baseline ≥ 0``, else ``(1 + α)·δ`` (elementwise;
    differences within the tie tolerance are 0): ndeval's ``RiskBased``
    (:func:`irscale.measures.diversity.risk.risk_based`) of the rounded differences."""
    delta = tied_differences(run, baseline)
    return risk_based(delta, np.zeros_like(delta), risk_alpha)


def _systems(matrix: ScoreMatrix, baseline: str) -> tuple[int, list[int]]:
    """The column of the ``baseline`` (a system's name: :func:`irscale.io.naming.find_run`)
    and those of the other systems."""
    baseline = find_in(baseline, matrix)
    if matrix.n_systems < 2:
        raise ParameterError("risk against a baseline needs at least one other system")
    j = matrix.systems.index(baseline)
    return j, [k for k in range(matrix.n_systems) if k != j]


def risk_differences(matrix: ScoreMatrix, baseline: str, risk_alpha: float = 0.0, *,
                     measure: str | None = None) -> pd.DataFrame:
    """Per topic, the risk-weighted difference ``z_q`` of every other system against
    ``baseline`` (topics × systems; what ndeval and gdeval print per topic with
    ``-baseline -riskAlpha``).

    >>> m = ScoreMatrix.from_array(np.array([[0.5, 0.25], [0.25, 0.5]]), systems=["b", "r"])
    >>> risk_differences(m, "b", 1.0)["r"].tolist()
    [-0.5, 0.25]
    """
    alpha = check_risk_alpha(risk_alpha)
    values = matrix.measure(measure).check_complete().values[:, :, 0]
    j, others = _systems(matrix, baseline)
    z = risk_weighted_differences(values[:, others], values[:, [j]], alpha)
    frame = pd.DataFrame(z, index=list(matrix.topics),
                         columns=[matrix.systems[k] for k in others])
    frame.index.name = "topic"
    frame.columns.name = "run"
    return frame


def risk_table(matrix: ScoreMatrix, baseline: str, risk_alpha: float = 0.0, *,
               measures: list[str] | None = None) -> pd.DataFrame:
    """URisk, TRisk and wins/losses of every system against ``baseline``.

    Parameters
    ----------
    matrix : ScoreMatrix
        Per-topic scores (every topic scored for every system).
    baseline : str
        The baseline system.
    risk_alpha : float, default 0
        Risk sensitivity α ≥ 0: a loss weighs 1 + α (ndeval's ``-riskAlpha``).
    measures : list of str, optional
        Measures of ``matrix`` (default: all).

    Returns
    -------
    pandas.DataFrame
        One row per (measure, system other than the baseline): ``measure, run, baseline,
        risk_alpha, topics, wins, losses, ties, urisk, trisk, df, p`` (formulas in the
        module documentation).

    Examples
    --------
    >>> m = ScoreMatrix.from_array(np.array([[0.5, 0.75], [0.5, 0.25], [0.5, 0.75]]),
    ...                            systems=["bm25", "new"], measures=["ap"])
    >>> risk_table(m, "bm25", 1.0)[["run", "wins", "losses", "urisk"]].to_dict("records")
    [{'run': 'new', 'wins': 2, 'losses': 1, 'urisk': 0.0}]
    """
    from scipy import stats

    alpha = check_risk_alpha(risk_alpha)
    names = list(matrix.measures) if measures is None else list(measures)
    j, others = _systems(matrix, baseline)
    rows = []
    for name in names:  # one vectorised pass over the systems per measure
        values = matrix.measure(name).check_complete().values[:, :, 0]
        z = risk_weighted_differences(values[:, others], values[:, [j]], alpha)
        c = z.shape[0]
        urisk = z.mean(axis=0)
        # a loss's difference is weighted by 1 + α, and so is its rounding error: the
        # tolerance grows with the largest weight a topic's difference actually has
        weight = np.where(z < 0, 1.0 + alpha, 1.0).max(axis=0, initial=1.0)
        tol = weight * tie_tolerance(values[:, others], values[:, [j]], axis=0)
        sd = sample_sd(z, tol) if c > 1 else np.full(len(others), np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            trisk = urisk / (sd / np.sqrt(c))
        trisk = np.where(sd == 0, np.where(urisk == 0, np.nan, np.copysign(np.inf, urisk)),
                         trisk)
        p = 2.0 * stats.t.sf(np.abs(trisk), c - 1) if c > 1 else np.full(len(others), np.nan)
        rows.append(pd.DataFrame({
            "measure": name, "run": [matrix.systems[k] for k in others],
            "baseline": baseline, "risk_alpha": alpha, "topics": c,
            "wins": (z > 0).sum(axis=0), "losses": (z < 0).sum(axis=0),
            "ties": (z == 0).sum(axis=0), "urisk": urisk, "trisk": trisk,
            "df": c - 1, "p": p}))
    return pd.concat(rows, ignore_index=True)


__all__ = ["check_risk_alpha", "risk_differences", "risk_table",
           "risk_weighted_differences"]


def format_risk(table: pd.DataFrame, baseline: str, risk_alpha: float, fmt: str = "text", *,
                digits: int = 4) -> str:
    """The table of :func:`risk_table` in ``fmt``: JSON as ``{"risk": [rows]}``, the other
    formats of :func:`irscale.stats.tables.render` titled with the baseline and ``α``
    (``irscale compare --baseline --risk-alpha``)."""
    from .tables import json_text, records, render

    if fmt == "json":
        return json_text({"risk": records(table)}, indent=2) + "\n"
    return render(table, fmt, digits=digits,  # type: ignore[arg-type]
                  title=f"Risk against {baseline} (losses weigh 1 + {risk_alpha:g}; "
                  "TRisk: t with topics - 1 df)")
