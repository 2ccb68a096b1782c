"""The tables of the experiment report, as data frames and as LaTeX or Markdown.

The same tables are shown by the HTML page (:mod:`irscale.report.html`) and printed by
``irscale report --format latex|markdown``:

* the summary — runs × measures, each cell the mean over topics, in bold where it is the
  best at the printed precision, ``↑``/``↓`` where the run is significantly better/worse
  than the baseline (adjusted p ≤ α), with the 1 − α interval of the mean;
* against the baseline — delta, its interval, p, adjusted p and wins/ties/losses;
* per measure the two-way ANOVA with ω² and the Tukey HSD groups (letters);
* the robustness panel and discriminative power;
* with a confusion of the judges, every conclusion of the Tukey HSD (and with a
  baseline, every conclusion against it) marked robust or fragile under judge noise
  (:func:`noise_frames`).
"""

from __future__ import annotations

from ..stats.tables import check_digits
from . import sections as listed
from .frames import (
    ROBUST_SHARE,
    SummaryCell,
    TablesFormat,
    across_frames,
    ascii_headers,
    automatic_frames,
    bounds_frames,
    comparison_frame,
    discriminative_frame,
    frames_text,
    groups_frame,
    noise_frames,
    robustness_frame,
    summary_caption,
    summary_cells,
    title_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - the type only: build renders through this module
    from .content import ReportContent

__all__ = ["ROBUST_SHARE", "SummaryCell", "across_frames", "ascii_headers", "automatic_frames",
           "bounds_frames", "comparison_frame", "discriminative_frame", "format_tables",
           "frames_text", "groups_frame", "noise_frames", "robustness_frame",
           "summary_caption", "summary_cells", "title_text"]


def format_tables(report: ReportContent, fmt: TablesFormat = "latex", *, digits: int = 4) -> str:
    """Every table of the report as LaTeX (booktabs ``table`` environments, ASCII: Greek
    letters as math or words) or Markdown, separated by blank lines; the dataset
    conventions applied (:attr:`~irscale.report.content.Provenance.conventions`) first, a
    paragraph (a LaTeX comment)."""
    if fmt not in ("latex", "markdown"):
        from ..errors import ParameterError

        raise ParameterError(f"tables are written as latex or markdown, got {fmt!r}")
    digits = check_digits(digits)
    applied = report.provenance.conventions
    parts = [] if applied is None else [f"{'% ' if fmt == 'latex' else ''}{applied}\n"]
    for section in listed.SECTIONS:
        if section.tables is not None:
            parts.extend(section.tables(report, fmt, digits))
    return "\n".join(parts)
