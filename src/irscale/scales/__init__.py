"""Interval scales for IR measures (Ferrante et al. 2021, §5; Ferrante et al. 2019).

The ranked version ``M_R = φ(M)`` of a measure M maps each value of M on ``REL^N`` to its rank among
the distinct values, an interval scale by construction. This package computes the image ``M(REL^N)``
and φ exactly and fast (closed forms, meet-in-the-middle counting, integer arithmetic, streamed
enumeration), transforms real evaluations into score matrices of ``M_R``, and computes the
diagnostics of Ferrante et al. 2019 and 2021 (equi-spacing, ties, unused range, ordinal/interval
with respect to SBTO and RBTO, Kendall τ between M and M_R). See ``docs/scales.md``.
"""

from ..core.edge import guard
from .diagnostics import ImageSummary, figure_data, order_properties, summarize, tau_table
from .measures import ScaleMeasure, scale_measure
from .scale import TIE_STRATEGIES, Scale, clear_cache, scale
from .space import Context, Space
from .ties import rank_values
from .transform import ScaleTransform, transform

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

# The API's edge: a raw exception caused by an argument names it (irscale.core.edge).
guard(globals())
