"""The parameters of the report (:func:`irscale.report.build_report`) that the command line
builds its options from (:func:`irscale.cli.options.add_param`), declared once. Loads
nothing numerical (the package's ``__init__`` is lazy)."""

from __future__ import annotations

from ..core.params import Cost, InputFiles, Param, Switch, Text
from ..scales.params import LENGTH

#: The run length of the report's robustness panel (Ferrante, Ferro & Fuhr 2021: measures
#: without a cut-off are scaled on runs of N documents).
SCALE_DEPTH = Param("scale_depth", LENGTH, 10, "run length N of the robustness panel for "
                    "measures without a cut-off", ("--scale-depth",), "N",
                    cost=Cost("ranks", "exponential", "a factor of 2 to the rankings of the "
                              "scale"))
#: The run the others are compared with (:func:`irscale.report.build_report`'s ``baseline``).
BASELINE = Param("baseline", Text(), None, "mark runs significantly better/worse than this "
                 "one and count the topics they win, tie and lose against it (its name, or "
                 "its file's path, name or stem)", ("--baseline",), "RUN")
#: The panels added: discriminative power, the bounds under the unjudged documents.
DP = Param("dp", Switch(), False, "add discriminative power (paired bootstrap and randomised "
           "Tukey HSD)", ("--dp",))
BOUNDS = Param("bounds", Switch(), False, "add each mean's bounds under the unjudged "
               "documents the runs retrieve and the pairs of runs the judgments do not order",
               ("--bounds",))
#: Automatic judgments of every topic (``automatic``: their file).
AUTOMATIC = Param("automatic", InputFiles(), None, "automatic judgments of every topic: QRELS are "
                  "then the human judgments of a sample (--design), and the report gets a "
                  "section on the automatic judgments (agreement, corrected means, "
                  "conclusions that change)", ("--automatic",), "AUTO_QRELS")
#: The title of the HTML page (:func:`irscale.report.render_html`).
TITLE = Param("title", Text(), "irscale experiment report", "title of the HTML page",
              ("--title",), "TITLE")
