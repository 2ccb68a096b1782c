"""The parameters of the planning of human labels (:func:`irscale.labels.plan`,
:func:`irscale.labels.select`), declared once.

The functions check their arguments against these declarations and the command line
builds its options from them (:func:`irscale.cli.options.add_param`), before numpy is
imported: this module imports nothing but :mod:`irscale.core.params` and
:mod:`irscale.core.binding`.
"""

from __future__ import annotations

import math
from typing import ClassVar

from ..core.binding import Binding
from ..core.params import (
    RELEVANCE,
    RNG_SEED,
    Cost,
    Integers,
    Listed,
    Names,
    Needs,
    Param,
    Reals,
)
from ..core.records import record
from ..errors import ParameterError, about, shown


@record
class RunPair:
    """Two run names ``A:B`` (as the runs are named: by their files or run ids; whether
    runs bear them is checked with the runs), or the tuple ``(A, B)`` the check returns."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> tuple[str, str]:
        """``(A, B)``, each a name that is not empty."""
        parts = value.split(":") if isinstance(value, str) else value
        if not isinstance(parts, tuple | list) or len(parts) != 2 or \
                not all(isinstance(part, str) and part for part in parts):
            raise about(ParameterError(f"{name} takes A:B, two run names, got "
                                       f"{shown(value)}", param=name), value)
        return parts[0], parts[1]

    def outside(self) -> tuple[str, ...]:
        return ("no-colon", "a:")


#: How the human sample is drawn: in proportion to the judge's estimated error (active
#: inference, Zrnic and Candès 2024), a simple random sample of the judge's pairs within
#: each of its grades (Neyman's allocation), or of all its pairs together.
LABEL_DESIGNS: tuple[str, ...] = ("active", "stratified", "uniform")
#: The default share of the inclusion probabilities the active design spreads uniformly.
DEFAULT_UNIFORM_SHARE = 0.5

PLAN_WIDTH = Param("width", Reals(0.0, math.inf, "()"), None, "the width (high - low) every "
                   "prediction-powered interval must reach", ("--width",), "W")
PLAN_CONFIDENCE = Param("confidence", Reals(0.0, 1.0, "()"), 0.95, "the intervals' level "
                        "(1 - alpha)", ("--confidence",), "C")
PLAN_DESIGN = Param("design", Names("label design", LABEL_DESIGNS), "active",
                    "how the new labels are drawn: active: in proportion to the judge's "
                    "estimated error, mixed with uniform; stratified: within the judge's "
                    "grades (Neyman); uniform: among all the judge's pairs", ("--design",),
                    "DESIGN")
PLAN_PAIRS = Param("pairs", Listed(RunPair(), "a pair of runs"), None, "the differences of runs "
                   "to estimate too, each A:B (run names)", ("--pairs",), "A:B,...",
                   unset="none")
UNIFORM_SHARE = Param("uniform_share", Reals(0.0, 1.0, "[]"), DEFAULT_UNIFORM_SHARE,
                      "active: the share of the inclusion probabilities spread uniformly "
                      "over the pairs whose label can move an estimate (a safety against a "
                      "wrong error model)",
                      ("--uniform-share",), "S")
SELECT_BUDGET = Param("budget", Integers(1), None, "the new (topic, document) pairs to send "
                      "to people", ("--budget",), "N",
                      cost=Cost("labels", per="a pair selected (at most the judge's pairs)"))

#: :func:`irscale.labels.plan` (``irscale labels plan``): the uniform share applies to the
#: active design.
PLAN = Binding((PLAN_WIDTH, PLAN_CONFIDENCE, PLAN_DESIGN, PLAN_PAIRS, UNIFORM_SHARE,
                RELEVANCE),
               rules=(Needs((UNIFORM_SHARE,), on=PLAN_DESIGN, values=("active",)),))
#: :func:`irscale.labels.select` (``irscale labels select``).
SELECT = Binding((SELECT_BUDGET, PLAN_DESIGN, PLAN_PAIRS, UNIFORM_SHARE, RELEVANCE),
                 rules=(Needs((UNIFORM_SHARE,), on=PLAN_DESIGN, values=("active",)),),
                 takes=(RNG_SEED,))

__all__ = ["DEFAULT_UNIFORM_SHARE", "LABEL_DESIGNS", "PLAN", "PLAN_CONFIDENCE",
           "PLAN_DESIGN", "PLAN_PAIRS", "PLAN_WIDTH", "SELECT", "SELECT_BUDGET",
           "UNIFORM_SHARE"]
