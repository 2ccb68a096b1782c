"""Plot of simulated pooling (matplotlib): relevant documents
found against the judging budget, one line per strategy — the classic curves of Losada,
Parapar & Barreiro (2017) and Lipani et al. (2021). Drawn in the style of
:mod:`irscale.io.figures` (non-interactive, written atomically)."""

from __future__ import annotations

import os
from typing import Any

from ..io.figures import new_axes, save_figure
from .simulate import PoolingSimulation

__all__ = ["plot_relevant_found"]


def plot_relevant_found(simulation: PoolingSimulation, path: str | os.PathLike | None = None,
                        *, title: str | None = None, dpi: int = 150, ax: Any = None) -> Any:
    """Relevant documents found (all topics) against the budget (judgments per topic),
    one line per strategy, with the relevant documents of the whole candidate pool as a
    dashed line; drawn on ``ax`` when given, written to ``path`` when given. Returns the
    matplotlib ``Figure``."""
    axes = new_axes(ax)
    table = simulation.relevant_found()
    for strategy in table.columns:
        axes.plot(table.index, table[strategy], marker="o", label=str(strategy))
    ceiling = int(simulation.table["relevant_pool"].iloc[0])
    axes.axhline(ceiling, linestyle="--", color="grey", linewidth=1,
                 label="relevant in the pool")
    axes.set_xlabel("judgments per topic")
    axes.set_ylabel("relevant documents found")
    axes.set_title(title or "Relevant documents found by pooling strategy")
    axes.legend()
    return save_figure(axes.figure, path, dpi)
