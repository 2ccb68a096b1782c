"""Tie-aware values of irscale's own families (``--ties expected``): the expectation of a
measure over every order of the documents of each tie group, each order equally likely
(McSherry & Najork, "Computing information retrieval performance measures efficiently in
the presence of tied scores", ECIR 2008), in closed form. trec_eval's families have theirs
in the engine (``rust/src/tie_aware.rs``).

*Measures linear in the documents' values with weights of the rank alone* (RBP, its
residual, the static C/W/L measures): ``E[Σ_i W(i)·v(d_i)] = Σ_i W(i)·v̄(i)``, with ``v̄(i)``
the mean value of the group filling rank i: the plain kernel on the group means
(:func:`tie_means`).

*ERR* (Chapelle et al. 2009) has its closed form in the engine
(``rust/src/tie_aware/err.rs``; :func:`irscale.core.kernels.expected_err`).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings


def group_starts(jr: JudgedRankings) -> np.ndarray:
    """Per document: whether it opens a tie group (the first of its ranking, or its group
    id differs from the previous document's); every document without groups."""
    starts = np.ones(len(jr.rel), dtype=bool)
    if jr.tie_groups is not None and len(jr.rel) > 1:
        starts[1:] = jr.tie_groups[1:] != jr.tie_groups[:-1]
        starts[jr.offsets[:-1][jr.lengths > 0]] = True
    return starts


def tie_means(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document: the mean of ``values`` (per document) over its tie group; ``values``
    themselves without groups."""
    if jr.tie_groups is None:
        return values
    group = np.cumsum(group_starts(jr)) - 1
    sums = np.bincount(group, weights=values)
    return (sums / np.bincount(group))[group]
