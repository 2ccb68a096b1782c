"""Interval scales for IR measures (Ferrante et al. 2021, §5; Ferrante et al. 2019).

The ranked version ``M_R = φ(M)`` of a measure M maps each value of M on ``REL^N`` to its rank among
the distinct values, an interval scale by construction. This package computes the image ``M(REL^N)``
and φ exactly and fast (closed forms, meet-in-the-middle counting, integer arithmetic, streamed
enumeration), transforms real evaluations into score matrices of ``M_R``, and computes the
diagnostics of Ferrante et al. 2019 and 2021 (equi-spacing, ties, unused range, ordinal/interval
with respect to SBTO and RBTO, Kendall τ between M and M_R). See ``docs/scales.md``.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`), so that the
command line reads the declarations of :mod:`irscale.scales.params` before numpy is loaded.
"""

from __future__ import annotations

from ..core.lazy import lazy_package

TYPE_CHECKING = False

#: Public name → the module that defines it.
_EXPORTS = {
    "TIE_STRATEGIES": ".params",
    "Context": ".space",
    "ImageSummary": ".diagnostics",
    "Scale": ".scale",
    "ScaleMeasure": ".measures",
    "ScaleTransform": ".transform",
    "Space": ".space",
    "clear_cache": ".scale",
    "figure_data": ".diagnostics",
    "order_properties": ".diagnostics",
    "rank_values": ".ties",
    "scale": ".scale",
    "scale_measure": ".measures",
    "summarize": ".diagnostics",
    "tau_table": ".diagnostics",
    "transform": ".transform",
}

__all__ = [
    "TIE_STRATEGIES",
    "Context",
    "ImageSummary",
    "Scale",
    "ScaleMeasure",
    "ScaleTransform",
    "Space",
    "clear_cache",
    "figure_data",
    "order_properties",
    "rank_values",
    "scale",
    "scale_measure",
    "summarize",
    "tau_table",
    "transform",
]

# The API's edge (irscale.core.edge) is applied by lazy_package to each name it imports.
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, shadowed={"scale", "transform"})

if TYPE_CHECKING:  # pragma: no cover
    from .diagnostics import ImageSummary, figure_data, order_properties, summarize, tau_table
    from .measures import ScaleMeasure, scale_measure
    from .params import TIE_STRATEGIES
    from .scale import Scale, clear_cache, scale
    from .space import Context, Space
    from .ties import rank_values
    from .transform import ScaleTransform, transform
