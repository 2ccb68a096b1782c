"""Core data model: inputs, rankings with tie policies, judged rankings, score matrices."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False

_EXPORTS = {"Qrels": ".inputs", "Run": ".inputs", "ScoreMatrix": ".scorematrix"}

__all__ = ["Qrels", "Run", "ScoreMatrix"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'irscale.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    from .edge import guarded

    value = guarded(value)  # the API's edge (irscale.core.edge)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from .inputs import Qrels, Run
    from .scorematrix import ScoreMatrix
