"""The forest plot of systems compared across collections
(:func:`irscale.stats.across_collections.across_collections`).

Per pair of systems, one row per collection (its mean difference over its topics with
its normal interval, the marker's area proportional to the collection's random-effects
weight ``1/(v_c + τ²)``), then the pooled effect with its interval (a diamond) and the
prediction interval of a new collection (a thin line; Higgins, Thompson & Spiegelhalter
2009), as in the forest plots of Lewis & Clarke (BMJ 2001).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.run_names import find_names
from ..errors import ParameterError
from ..io.figures import PALETTE, label, new_axes
from ..stats.across_collections import AcrossCollections
from ..stats.meta_analysis import ESTIMATORS

__all__ = ["forest"]


def forest(result: AcrossCollections, pairs: Sequence[tuple[str, str]] | None = None, *,
           estimator: str = "reml", ax: Any = None) -> Any:
    """The forest plot of ``pairs`` (``(a, b)`` as the result orders them, each system by
    its name, :func:`irscale.core.run_names.find_run`; default: every pair) of ``result``,
    the pooled effects by ``estimator`` of τ² (module documentation)."""
    if not isinstance(result, AcrossCollections):
        raise ParameterError(f"a forest plot needs the result of across_collections, got "
                             f"{type(result).__name__}")
    if estimator not in ESTIMATORS:
        raise ParameterError(f"estimator must be one of {list(ESTIMATORS)}, got {estimator!r}")
    meta = result.meta_table[result.meta_table.estimator == estimator]
    known = list(zip(meta.system_a, meta.system_b, strict=True))
    # each system by its name, refused as a name of no run is (core.run_names)
    chosen = known if pairs is None else \
        [tuple(find_names([str(s) for s in pair], result.systems, "pairs:")) for pair in pairs]
    unknown = [pair for pair in chosen if pair not in known]
    if unknown:
        raise ParameterError(f"pairs: {unknown[:3]} are no pairs of the result (its pairs "
                             f"are (a, b) in the systems' order {list(result.systems)})")
    per = result.collection_table
    rows = len(chosen) * (len(result.collections) + 2)
    ax = new_axes(ax, (6.0, max(2.5, 0.2 * rows + 1.0)))
    y, ticks, names = 0.0, [], []
    for a, b in chosen:
        pooled = meta[(meta.system_a == a) & (meta.system_b == b)].iloc[0]
        own = per[(per.system_a == a) & (per.system_b == b)]
        weights = 1.0 / (own.variance.to_numpy() + (pooled.tau2 if np.isfinite(pooled.tau2)
                                                   else 0.0))
        sizes = 60.0 * weights / weights.max() if np.isfinite(weights).all() else 20.0
        for k, row in enumerate(own.itertuples(index=False)):
            ax.plot([row.ci_low, row.ci_high], [y - k, y - k], color=PALETTE[0], lw=1.0)
            ticks.append(y - k)
            names.append(label(row.collection))
        ax.scatter(own.difference, y - np.arange(len(own)), s=sizes, marker="s",
                   color=PALETTE[0], zorder=3)
        y -= len(own)
        if np.isfinite(pooled.effect):
            ax.plot([pooled.pi_low, pooled.pi_high], [y, y], color=PALETTE[3], lw=0.8)
            ax.fill([pooled.ci_low, pooled.effect, pooled.ci_high, pooled.effect],
                    [y, y + 0.3, y, y - 0.3], color=PALETTE[3], zorder=3)
        ticks.append(y)
        names.append(f"{label(a)} − {label(b)}")
        y -= 2
    ax.axvline(0.0, color="grey", lw=0.6)
    ax.set_yticks(ticks, names)
    ax.set_xlabel(f"difference of {result.measure}, a − b")
    ax.set_title(f"{result.measure} across {len(result.collections)} collections\n"
                 f"pooled by {estimator.upper()} (diamond), prediction interval (line)")
    return ax
