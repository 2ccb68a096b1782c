"""The parameters of the report (:func:`irscale.report.build_report`) that the command line
builds its options from (:func:`irscale.cli.options.add_param`), declared once. Loads
nothing numerical (the package's ``__init__`` is lazy)."""

from __future__ import annotations

from ..core.params import Param
from ..scales.params import LENGTH

#: The run length of the report's robustness panel (Ferrante, Ferro & Fuhr 2021: measures
#: without a cut-off are scaled on runs of N documents).
SCALE_DEPTH = Param("scale_depth", LENGTH, 10, "run length N of the robustness panel for "
                    "measures without a cut-off", ("--scale-depth",), "N")
