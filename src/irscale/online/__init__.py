"""Online evaluation (issue 14): interleaving and multileaving, A/B tests, click logs and
click models. See ``docs/online.md``.

Interleaving (:mod:`irscale.online.interleaving`)
    :func:`interleave`, :func:`interleave_runs`: balanced, team-draft (multileaving for
    more than two rankers), probabilistic and optimised interleaving, vectorised over
    impressions; :class:`Interleavings` scores clicks into an :class:`InterleavingResult`.
"""

from __future__ import annotations

from .interleaving import (
    InterleavingResult,
    Interleavings,
    interleave,
    interleave_runs,
    rankings_from_lists,
)

__all__ = ["InterleavingResult", "Interleavings", "interleave", "interleave_runs",
           "rankings_from_lists"]
