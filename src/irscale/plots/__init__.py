"""Plots of irscale as a Python API (matplotlib).

Every function draws on ``ax`` when given (else on new axes of a new figure) in the one
style of irscale (:mod:`irscale.io.figures`: Okabe–Ito colours, constrained layout, the
non-interactive ``Figure`` API) and returns the matplotlib ``Axes``; save with
``ax.figure.savefig(path)``.

Runs on topics (:mod:`irscale.plots.runs`)
    :func:`score_distributions` (box or violin plot per run), :func:`baseline_differences`
    (per-topic differences against a baseline), :func:`precision_recall` (11-point
    interpolated curves), :func:`tukey_intervals` (Tukey HSD intervals,
    Ferro & Maistro 2024, eq. 11).
Systems across collections (:mod:`irscale.plots.across`)
    :func:`forest` (each pair's per-collection differences, pooled effect and prediction
    interval; :func:`irscale.stats.across_collections`).
An ANOVA's residuals (:mod:`irscale.plots.residuals`)
    :func:`residual_qq` (normal Q–Q plot, Shapiro & Wilk 1965's W in the title).
A measure's image (:mod:`irscale.plots.scales`)
    :func:`interval_spacing` (Ferrante et al. 2021, Fig. 2), :func:`measure_hasse` (Ferrante et al.
    2021, Fig. 1).
Meta-evaluation and pooling (drawn by :mod:`irscale.meta.plots` and
:mod:`irscale.collections.plots`, which also save files)
    :func:`asl_curves` (Sakai 2014, Fig. 16), :func:`split_metric` (Ferro & Sanderson 2022),
    :func:`measure_vs_ranked` (Ferrante et al. 2021, §7.1), :func:`relevant_found` (pooling).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ..collections.plots import plot_relevant_found
from ..collections.simulate import PoolingSimulation
from ..core import ScoreMatrix
from ..core.edge import guard
from ..io.figures import new_axes
from ..meta.discriminative import DiscriminativePower
from ..meta.plots import plot_asl_curves, plot_measure_vs_ranked, plot_split_metric
from ..meta.splitting import SplitStudy
from .across import forest
from .residuals import residual_qq
from .runs import (
    baseline_differences,
    interpolated_precision,
    precision_recall,
    score_distributions,
    tukey_intervals,
)
from .scales import interval_spacing, measure_hasse

__all__ = ["asl_curves", "baseline_differences", "forest", "interpolated_precision",
           "interval_spacing",
           "measure_hasse", "measure_vs_ranked", "precision_recall", "relevant_found",
           "residual_qq", "score_distributions", "split_metric", "tukey_intervals"]


def asl_curves(results: Sequence[DiscriminativePower] | Mapping[str, DiscriminativePower], *,
               title: str | None = None, ax: Any = None) -> Any:
    """ASL curves of discriminative-power results (:func:`irscale.meta.plot_asl_curves`)."""
    ax = new_axes(ax)
    plot_asl_curves(results, title=title, ax=ax)
    return ax


def split_metric(study: SplitStudy, metric: str = "tau", *, ax: Any = None) -> Any:
    """A topic-splitting metric against the split size
    (:func:`irscale.meta.plot_split_metric`)."""
    ax = new_axes(ax)
    plot_split_metric(study, metric, ax=ax)
    return ax


def measure_vs_ranked(matrix: ScoreMatrix, measure: str, ranked: str | None = None, *,
                      level: Literal["system", "topic"] = "system", ax: Any = None) -> Any:
    """A measure against its ranked version (:func:`irscale.meta.plot_measure_vs_ranked`)."""
    ax = new_axes(ax, (5.0, 4.0))
    plot_measure_vs_ranked(matrix, measure, ranked, level=level, ax=ax)
    return ax


def relevant_found(simulation: PoolingSimulation, *, title: str | None = None,
                   ax: Any = None) -> Any:
    """Relevant documents found against the judging budget
    (:func:`irscale.collections.plot_relevant_found`)."""
    ax = new_axes(ax)
    plot_relevant_found(simulation, title=title, ax=ax)
    return ax

# The API's edge: a raw exception caused by an argument names it (irscale.core.edge).
guard(globals())
