"""The parameters of the report (:func:`irscale.report.build_report`) that the command line
builds its options from (:func:`irscale.cli.options.add_param`), declared once by the
sections that take them (:mod:`irscale.report.sections`), and the report's binding: the
union of the sections' declarations (:func:`irscale.report.section.report_binding`: their
domains and when each applies), checked on entry by the function (:data:`REPORT`) and
applied by ``irscale report`` (:func:`irscale.report.section.command_binding`: the same
rules, the options it builds from them, made from the list of sections as the command
line's parser is built). Loads nothing numerical (the package's ``__init__`` is lazy)."""

from __future__ import annotations

from ..core.params import Param, Text
from .section import SEED_OF_DRAWS, report_binding
from .sections import SECTIONS
from .sections.across import COLLECTION_SAMPLES, COLLECTION_WEIGHTS, COLLECTIONS
from .sections.audit import JUDGES
from .sections.automatic import AUTOMATIC
from .sections.baseline import BASELINE, CORRECTION_OR_NONE
from .sections.bounds import BOUNDS
from .sections.discriminative import DP, DP_SAMPLES
from .sections.noise import CONFUSION
from .sections.robustness import ROBUSTNESS, SCALE_DEPTH
from .sections.summary import INTERVAL_RNG, INTERVAL_SAMPLES

__all__ = ["AUTOMATIC", "BASELINE", "BOUNDS", "COLLECTIONS", "COLLECTION_SAMPLES",
           "COLLECTION_WEIGHTS", "CONFUSION", "CORRECTION_OR_NONE", "DP", "DP_SAMPLES",
           "INTERVAL_RNG", "INTERVAL_SAMPLES", "JUDGES", "REPORT", "ROBUSTNESS",
           "SCALE_DEPTH", "SEED_OF_DRAWS", "TITLE"]

#: The title of the HTML page (:func:`irscale.report.render_html`).
TITLE = Param("title", Text(), "irscale experiment report", "title of the HTML page",
              ("--title",), "TITLE")
#: :func:`irscale.report.build_report`: the domains of every option of the sections, checked
#: on entry (those the command line gives its own way too: the resamples of the intervals,
#: of discriminative power and of the collections' bootstrap, the weights of the
#: collections, the test and the correction against the baseline), and the rules of each
#: section (the seed's: it applies to every section that draws).
REPORT = report_binding(SECTIONS)
