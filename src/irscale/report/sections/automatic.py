"""Automatic judgments of every topic (``automatic``): ``qrels`` are then the human
judgments of a sample drawn as ``design`` says, and the section gives the agreement, every
run's mean and every difference corrected with the human sample, and the conclusions that
change (:func:`irscale.collections.automatic_judgments`, ``tuning="ppi++"``, level α)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...collections.params import AUTO_DESIGN, AUTO_DRAWS, AUTO_PROBABILITIES, AUTO_SEED
from ...core.params import InputFiles, Needs, Param
from ..section import Build, Page, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent

#: Automatic judgments of every topic (``automatic``: their file).
AUTOMATIC = Param("automatic", InputFiles(), None, "automatic judgments of every topic: QRELS are "
                  "then the human judgments of a sample (--design), and the report gets a "
                  "section on the automatic judgments (agreement, corrected means, "
                  "conclusions that change)", ("--automatic",), "AUTO_QRELS")
#: How the section says that the automatic judgments came with label probabilities.
PROBABILITIES = (", with a probability per grade: their labels are the most probable "
                 "grades, their values the measures' expected values under the "
                 "probabilities")


def _build(build: Build) -> dict[str, Any]:
    """The automatic judgments against the human sample (``qrels`` as given); the seed
    draws the grades where they come with probabilities and the design is ``topics``."""
    from ...collections.automatic import automatic_judgments

    options = build.options
    drawn = options["label_probabilities"] and options["design"] == "topics"
    return {"automatic": automatic_judgments(
        options["automatic"], options["qrels"], build.runs, list(build.measures),
        alpha=options["alpha"], pairs=True, design=options["design"],
        label_probabilities=options["label_probabilities"], draws=options["draws"],
        rng=options["seed"] if drawn else AUTO_SEED.default, progress=options["progress"],
        relevance_level=build.level)}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """Agreement, corrected means and the conclusions that change."""
    from ..frames import automatic_frames
    from ..page import esc, table

    found = report.automatic
    if found is None:
        return None
    changed = found.conclusions()
    return [
        f"<p>QRELS are the human judgments of a sample; the automatic judgments cover "
        f"every topic{PROBABILITIES if report.label_probabilities else ''}. Corrected "
        f"means: prediction-powered inference ({esc(found.tuning)}; "
        f"Angelopoulos et al., Science 2023), beside the human sample alone. "
        f"{int(changed['changed'].sum())} of {len(changed)} conclusions about a pair of runs "
        "change with the correction.</p>",
        *(table(frame, page.digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in automatic_frames(report)),
    ]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import automatic_frames, frames_text

    return frames_text(automatic_frames(report), fmt, digits)


SECTION = Section(
    "automatic", needs=(), build=_build, html=_html, tables=_tables,
    params=(AUTO_DESIGN, AUTO_PROBABILITIES, AUTO_DRAWS),
    rules=(Needs((AUTO_DESIGN, AUTO_PROBABILITIES), "automatic judgments", on=AUTOMATIC),
           Needs((AUTO_DRAWS,), on=AUTO_PROBABILITIES),
           Needs((AUTO_DRAWS,), on=AUTO_DESIGN, values=("topics",))),
    on=AUTOMATIC,
    draws=(Needs((), on=AUTO_PROBABILITIES), Needs((), on=AUTO_DESIGN, values=("topics",))),
    absent=lambda: {"automatic": None}, heading=("Automatic judgments", "automatic"))
