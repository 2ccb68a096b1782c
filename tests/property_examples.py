"""How many examples a property test draws: the number it declares, times
``IRSCALE_EXAMPLES_SCALE`` (1 unless set).

CI's second run of the suite, on the oldest numpy, pandas, scipy and pyarrow that irscale
declares (``.ci/minimums``), sets 0.25: its subject is how those releases behave, which every
property meets in its first examples; the search for rare inputs is the first run's, on the
declared numbers. A property keeps at least ``min(declared, 10)`` examples.
"""

from __future__ import annotations

import os

SCALE = float(os.environ.get("IRSCALE_EXAMPLES_SCALE", "1"))


def examples(declared: int) -> int:
    """``declared`` scaled by :data:`SCALE`, at least ``min(declared, 10)``."""
    return max(min(declared, 10), round(declared * SCALE))
