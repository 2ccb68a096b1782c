"""Readers and writers: every input spec (:mod:`irscale.io.sources`), output formats.

Names are imported on first use (PEP 562): importing a light module of this package
(:mod:`irscale.io.files`, :mod:`irscale.io.formats`) does not load numpy and pyarrow.
"""

from __future__ import annotations

from ..core.lazy import lazy_package

TYPE_CHECKING = False

_EXPORTS = {"read_qrels": ".sources", "read_run": ".sources", "read_runs": ".sources"}

__all__ = ["read_qrels", "read_run", "read_runs"]

# names imported on first use, through the API's edge (irscale.core.edge)
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover
    from .sources import read_qrels, read_run, read_runs
