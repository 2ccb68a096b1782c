"""Plots of the meta-evaluation, saved as PNG or SVG (matplotlib).

* :func:`plot_asl_curves` — ASL curves (Sakai 2014, Fig. 16): for each measure (or test), the
  pairs' ASLs sorted increasingly against the pair's rank; a horizontal line at α.
  Curves closer to the origin mean higher discriminative power.
* :func:`plot_measure_vs_ranked` — scatter of a measure against its ranked version M_R
  (Ferrante et al. 2021, §7.1): one point per system (means over topics) or per (topic, system)
  score, with Kendall's τ in the title.
* :func:`plot_split_metric` — a topic-splitting metric (τ, AA, Jaccard, ...) against the
  split size, one line per procedure (Ferro & Sanderson 2022, Tables 1–5).

matplotlib is imported only when a plot is made, with the non-interactive ``Figure`` API
(no display needed) in the style of :mod:`irscale.io.figures`. Each function draws on
``ax`` when given (else on a new figure), returns the :class:`matplotlib.figure.Figure`
and writes it to ``path`` when given (format from the extension: ``.png``, ``.svg``,
``.pdf``). :mod:`irscale.plots` re-exports them as functions that return the ``Axes``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from ..core import ScoreMatrix
from ..errors import ParameterError
from ..io.figures import new_axes, save_figure
from ..stats.kendall import kendall_tau
from .discriminative import DiscriminativePower
from .splitting import SplitStudy

__all__ = ["plot_asl_curves", "plot_measure_vs_ranked", "plot_split_metric"]


def plot_asl_curves(
    results: Sequence[DiscriminativePower] | Mapping[str, DiscriminativePower],
    path: str | os.PathLike | None = None,
    *,
    title: str | None = None,
    dpi: int = 150,
    ax: Any = None,
) -> Any:
    """ASL curves of several :class:`~irscale.meta.DiscriminativePower` results."""
    items = list(results.items()) if isinstance(results, Mapping) else \
        [(f"{r.measure} ({r.method})", r) for r in results]
    if not items:
        raise ParameterError("no discriminative-power result to plot")
    ax = new_axes(ax)
    for label, result in items:
        curve = result.asl_curve()
        ax.plot(np.arange(1, len(curve) + 1), curve,
                label=f"{label}: {result.n_significant}/{result.n_pairs}")
    alpha = items[0][1].alpha
    ax.axhline(alpha, color="grey", linestyle="--", linewidth=0.8)
    ax.text(1, alpha, f" α = {alpha:g}", va="bottom", fontsize=8, color="grey")
    ax.set_xlabel("system pairs sorted by ASL")
    ax.set_ylabel("ASL (p-value)")
    ax.set_ylim(0, None)
    ax.set_xlim(0, None)
    ax.legend(fontsize=8)
    ax.set_title(title or f"ASL curves (B = {items[0][1].samples})")
    return save_figure(ax.figure, path, dpi)


def plot_measure_vs_ranked(
    matrix: ScoreMatrix,
    measure: str,
    ranked: str | None = None,
    path: str | os.PathLike | None = None,
    *,
    level: Literal["system", "topic"] = "system",
    dpi: int = 150,
    ax: Any = None,
) -> Any:
    """Scatter of ``measure`` against its ranked version (default column ``{measure}_R``);
    ``level="system"`` plots the systems' means, ``"topic"`` every per-topic score."""
    ranked = ranked or f"{measure}_R"
    x, y = matrix.array(measure), matrix.array(ranked)
    if level == "system":
        x, y = x.mean(axis=0), y.mean(axis=0)
    elif level != "topic":
        raise ParameterError(f"level must be 'system' or 'topic', got {level!r}")
    tau = kendall_tau(matrix.mean(measure), matrix.mean(ranked)).tau
    ax = new_axes(ax, (5.0, 4.0))
    ax.scatter(np.ravel(x), np.ravel(y), s=12 if level == "system" else 4,
               alpha=0.8 if level == "system" else 0.3)
    ax.set_xlabel(measure)
    ax.set_ylabel(ranked)
    what = "system means" if level == "system" else "per-topic scores"
    ax.set_title(f"{measure} vs {ranked} ({what}); overall τ = {tau:.4f}", fontsize=10)
    return save_figure(ax.figure, path, dpi)


def plot_split_metric(
    study: SplitStudy,
    metric: str = "tau",
    path: str | os.PathLike | None = None,
    *,
    dpi: int = 150,
    ax: Any = None,
) -> Any:
    """A topic-splitting metric against the topic-set size, one line per comparison."""
    table = study.table(metric)
    sizes = [int(str(c).split()[0]) for c in table.columns]
    ax = new_axes(ax)
    for name, row in table.iterrows():
        ax.plot(sizes, row.to_numpy(), marker="o", label=str(name))
    ax.set_xlabel("topics per split")
    ax.set_ylabel(metric)
    ax.legend(fontsize=8)
    ax.set_title(f"{metric} between the two halves ({study.repetitions} repetitions)")
    return save_figure(ax.figure, path, dpi)
