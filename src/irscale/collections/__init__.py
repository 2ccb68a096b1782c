"""Building test collections: pooling strategies and simulated pooling.

Pooling (:mod:`irscale.collections.pooling`)
    :func:`pool`: depth-k, take@N, RBP-weighted and RRF pooling, move-to-front, and the
    multi-armed bandits of Losada, Parapar & Barreiro (MM, MM-NS, Thompson sampling),
    vectorised over topics; :class:`Pool` (the judging order, a pool file).
Simulated pooling (:mod:`irscale.collections.simulate`)
    :func:`simulate_pooling`: replay strategies with budgets on existing qrels (the
    oracle): relevant documents found, the induced qrels, system-ranking τ and τ_ap against
    the full qrels, and the leave-one-contributor-out bias.
Plots (matplotlib, optional) — :func:`plot_relevant_found`.

See ``docs/collections.md``.
"""

from __future__ import annotations

from .candidates import Candidates, ranked_candidates
from .plots import plot_relevant_found
from .pooling import ADAPTIVE, FIXED, STRATEGIES, Pool, judging_order, pool
from .simulate import PoolingSimulation, simulate_pooling

__all__ = ["ADAPTIVE", "FIXED", "STRATEGIES", "Candidates", "Pool", "PoolingSimulation",
           "judging_order", "plot_relevant_found", "pool", "ranked_candidates",
           "simulate_pooling"]
