"""Core data model: inputs, rankings with tie policies, judged rankings, score matrices."""

from __future__ import annotations

from .lazy import lazy_package

TYPE_CHECKING = False

_EXPORTS = {"Qrels": ".inputs", "Run": ".inputs", "ScoreMatrix": ".scorematrix"}

__all__ = ["Qrels", "Run", "ScoreMatrix"]

# names imported on first use, through the API's edge (irscale.core.edge)
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover
    from .inputs import Qrels, Run
    from .scorematrix import ScoreMatrix
