"""Rank fusion: several runs combined into one (``docs/fusion.md``).

:func:`fuse` combines runs by one of the score methods (CombSUM, CombMNZ, CombMAX, CombMIN,
CombMED, CombANZ: Fox and Shaw 1994; the weighted sum) after a score normalisation per run
and topic, or by one of the rank methods (RRF: Cormack et al. 2009; ISR and log-ISR:
Mourão et al. 2014; BordaFuse: Aslam and Montague 2001; CondorcetFuse: Montague and Aslam
2002), or by ranx's others: CombGMNZ (Lee 1997), Mixed (Wu and Crestani 2002), LogN-ISR,
RBC (Bailey et al. 2017), weighted BordaFuse and CondorcetFuse, and the supervised ProbFuse
(Lillis et al. 2006), SegFuse (Shokouhi 2007), SlideFuse and PosFuse (Lillis et al. 2010),
MAPFuse (Lillis et al. 2008) and BayesFuse (Aslam and Montague 2001), which learn on
training topics (:mod:`irscale.fusion.trained`). :func:`optimize_fusion` searches the
weights of the weighted sum on a grid for the best mean of a measure on training qrels, as
ranx's ``optimize_fusion``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the module that defines it (imported on first use, so that the command
#: line reads :mod:`irscale.fusion.params` without loading numpy).
_EXPORTS = {"FusionWeights": ".optimize", "fuse": ".fused", "optimize_fusion": ".optimize"}

__all__ = ["FusionWeights", "fuse", "optimize_fusion"]

__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .fused import fuse
    from .optimize import FusionWeights, optimize_fusion
