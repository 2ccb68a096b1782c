"""Plots of a measure's image on the runs of length N (Ferrante et al. 2021, Figs. 1–2).

* :func:`interval_spacing` — Ferrante et al. (2021), Fig. 2: the distinct values of a measure on
  REL^N against their rank φ (what an interval scale would space equally), with the runs that
  take each value written beside it for small N.
* :func:`measure_hasse` — Ferrante et al. (2021), Fig. 1: the Hasse diagram of the partial order of
  the runs of length N, every run drawn at the height of its value under a measure (or at its level
  in the diagram without one), coloured by its total relevance. Figs. 7 and 11 of Ferro & Maistro
  (2024) compute binary and graded measures on single runs; drawing a measure's values on the
  diagram shows where it orders incomparable runs.

The partial order (Ferrante et al. 2019, §3, Ferrante et al. 2021, §2.3): r ≼ s when for every rank
k and every degree g ≥ 1, s has at least as many documents of degree ≥ g in its top k as r. Runs
related by it are ordered the same way by every measure of Ferrante et al. (2019); incomparable runs
are where measures disagree.

Every function draws on ``ax`` when given (else on new axes in the style of
:mod:`irscale.io.figures`) and returns the matplotlib ``Axes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ParameterError
from ..io.figures import PALETTE, new_axes
from ..scales import Scale, scale
from ..scales.diagnostics import figure_data
from ..scales.enumeration import format_run, runs_from_index

__all__ = ["HASSE_MAX_RUNS", "dominance", "interval_spacing", "measure_hasse"]

#: Largest space (levels^N runs) drawn as a Hasse diagram.
HASSE_MAX_RUNS = 256
#: Largest space whose runs are written beside the values of :func:`interval_spacing`.
_LABEL_MAX_RUNS = 64


def _scale(measure: str | Scale, N: int | None, levels: int) -> Scale:
    if isinstance(measure, Scale):
        return measure
    if N is None:
        raise ParameterError("N (the run length) is needed with a measure name")
    return scale(measure, N, levels, progress=False)


def interval_spacing(measure: str | Scale, N: int | None = None, levels: int = 2, *,
                     ax: Any = None) -> Any:
    """The values of ``measure`` on REL^N (``levels`` degrees) against their rank φ, with
    the equally spaced values of an interval scale (the dashed line from the lowest to the
    highest value) for comparison — Ferrante et al. (2021), Fig. 2. Runs are written beside the
    values when the space has at most 64 runs."""
    sc = _scale(measure, N, levels)
    data = figure_data(sc)
    if "phi" not in data.columns:
        raise ParameterError(f"the space of {sc.measure.label} has {sc.n_runs} runs: "
                             "spacing is drawn for spaces of at most 4096 runs")
    values = data["value"].to_numpy(np.float64)
    phi = data["phi"].to_numpy(np.int64)
    ax = new_axes(ax, (4.0, max(3.5, 0.16 * len(values) + 1.0)))
    ax.plot([phi[0], phi[-1]], [values[0], values[-1]], linestyle="--", color="grey",
            linewidth=0.8, label="equal spacing (interval scale)")
    ax.scatter(phi, values, marker="s", s=14, color=PALETTE[0], zorder=3,
               label=f"{sc.measure.label} values")
    if sc.n_runs <= _LABEL_MAX_RUNS:
        for x, y, runs in zip(phi, values, data["runs"], strict=True):
            ax.annotate(runs, (x, y), xytext=(4, 0), textcoords="offset points",
                        fontsize=5, va="center")
    ax.set_xlabel("rank φ of the value")
    ax.set_ylabel(sc.measure.label)
    ax.set_title(f"{sc.measure.label} on REL^{sc.N} ({sc.levels} degrees): "
                 f"{sc.n_distinct} values", fontsize=9)
    ax.legend(loc="upper left")
    return ax


def dominance(runs: np.ndarray) -> np.ndarray:
    """``D[i, j]``: run i ≼ run j in the partial order (module documentation), for the
    rows of ``runs`` (runs × N degrees)."""
    runs = np.asarray(runs)
    top = int(runs.max(initial=0))
    # counts[i, g - 1, k]: documents of degree ≥ g in the top k + 1 of run i
    counts = np.stack([np.cumsum(runs >= g, axis=1) for g in range(1, top + 1)], axis=1) \
        if top else np.zeros((len(runs), 0, runs.shape[1]), dtype=np.int64)
    flat = counts.reshape(len(runs), -1)
    return np.all(flat[:, None, :] <= flat[None, :, :], axis=2)


def _cover(order: np.ndarray) -> np.ndarray:
    """The covering relation (transitive reduction) of a partial order matrix."""
    strict = order & ~order.T
    through = (strict.astype(np.int64) @ strict.astype(np.int64)) > 0
    return strict & ~through


def measure_hasse(measure: str | Scale | None = None, N: int = 4, levels: int = 2, *,
                  ax: Any = None) -> Any:
    """The Hasse diagram of REL^N (at most 256 runs), edges from each run to the runs
    that directly dominate it; every run at the height of its ``measure`` value (or of
    its level in the diagram when ``measure`` is None), coloured by its total relevance
    (Ferrante et al. 2021, Fig. 1). Runs are labelled when there are at most 64."""
    if isinstance(measure, Scale):
        N, levels = measure.N, measure.levels
    if not isinstance(N, int) or N < 1 or not isinstance(levels, int) or levels < 2:
        raise ParameterError(f"N must be an integer ≥ 1 and levels ≥ 2, got N={N!r}, "
                             f"levels={levels!r}")
    # levels ≥ 2: 2^N runs at least, refused from N alone before levels^N is formed (for
    # N = 10^30 its digits alone would take forever)
    if N >= HASSE_MAX_RUNS.bit_length() or levels ** N > HASSE_MAX_RUNS:
        raise ParameterError(f"REL^{N} with {levels} degrees has {levels}^{N} runs: a Hasse "
                             f"diagram is drawn for at most {HASSE_MAX_RUNS}")
    runs = runs_from_index(np.arange(levels ** N), N, levels)
    cover = _cover(dominance(runs))
    # level in the diagram: the longest chain below each run
    height = np.zeros(len(runs), dtype=np.int64)
    for _ in range(len(runs)):
        below = np.where(cover, height[:, None] + 1, 0).max(axis=0)
        if np.array_equal(below, height):
            break
        height = below
    if measure is None:
        y, label = height.astype(np.float64), "level in the diagram"
    else:
        sc = _scale(measure, N, levels)
        y, label = sc.values(runs).astype(np.float64), sc.measure.label
    # x: spread the runs of one level evenly, in the order of their index
    x = np.zeros(len(runs))
    for level in np.unique(height):
        members = np.flatnonzero(height == level)
        x[members] = np.arange(len(members)) - (len(members) - 1) / 2
    ax = new_axes(ax, (6.0, 5.0))
    lower, upper = np.nonzero(cover)
    for i, j in zip(lower.tolist(), upper.tolist(), strict=True):
        ax.plot([x[i], x[j]], [y[i], y[j]], color="#999999", linewidth=0.6, zorder=1)
    total = runs.sum(axis=1)
    for k, value in enumerate(np.unique(total)):
        chosen = total == value
        ax.scatter(x[chosen], y[chosen], s=22, color=PALETTE[k % len(PALETTE)], zorder=3,
                   label=f"total relevance {int(value)}")
    if len(runs) <= _LABEL_MAX_RUNS:
        for i, row in enumerate(runs):
            ax.annotate(format_run(row), (x[i], y[i]), xytext=(0, 5),
                        textcoords="offset points", fontsize=5, ha="center")
    ax.set_xticks([])
    ax.grid(False)
    ax.set_ylabel(label)
    ax.set_title(f"Runs of length {N} ({levels} degrees): partial order"
                 + ("" if measure is None else f" at the values of {label}"), fontsize=9)
    ax.legend(loc="upper left", fontsize=6)
    return ax
