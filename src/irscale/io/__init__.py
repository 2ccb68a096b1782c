"""Readers and writers: every input spec (:mod:`irscale.io.sources`), output formats.

Names are imported on first use (PEP 562): importing a light module of this package
(:mod:`irscale.io.files`, :mod:`irscale.io.formats`) does not load numpy and pyarrow.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False

_EXPORTS = {"read_qrels": ".sources", "read_run": ".sources", "read_runs": ".sources"}

__all__ = ["read_qrels", "read_run", "read_runs"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'irscale.io' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    from ..core.edge import guarded

    value = guarded(value)  # the API's edge (irscale.core.edge)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from .sources import read_qrels, read_run, read_runs
