"""Automatic (LLM) judges audited against the report's qrels (``judges``: their qrels
files): per judge, the agreement of the labels both judge, the agreement of the system
rankings under the report's first measure (the top-k agreement at k = 5, or the number of
runs where fewer), the pairs of runs significant under each qrels
(the report's test and correction, level α), the judge's bias per run and the documents
each qrels leaves unjudged (:func:`irscale.labels.audit`, bootstrap intervals over the
topics drawn from the report's seed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.params import InputFiles, Needs, Param
from ..section import Build, Page, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..content import ReportContent

#: The judges' qrels (``--judge``, repeatable).
JUDGES = Param("judges", InputFiles(), None, "the qrels of an automatic judge, audited against "
               "QRELS (repeatable): the report gets a section on the judges (label "
               "agreement, system rankings, decisions, bias per run, unjudged documents)",
               ("--judge",), "JUDGE_QRELS")


def _build(build: Build) -> dict[str, Any]:
    """The audit of the judges under the report's first measure."""
    from ...labels.audit import audit

    options = build.options
    judges = options["judges"]
    found = audit(build.qrels, list(judges) if isinstance(judges, (list, tuple)) else judges,
                  build.runs, measure=build.requested[0] if build.requested else
                  build.measures[0], alpha=options["alpha"], test=options["test"],
                  correction=options["correction"] or "none", rng=options["seed"],
                  relevance_level=build.level,
                  progress=build.within if callable(options["progress"]) else False)
    build.advance()
    return {"audit": found}


def audit_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the section (``report.audit``; none without): the summary, then every
    judge's, ``(id, caption, frame)`` each."""
    from ...labels.audit import TITLES

    found = report.audit
    if found is None:
        return []
    frames = [("audit-summary", f"Judges against the qrels ({found.measure}; "
               f"{100 * (1 - found.alpha):g}% bootstrap intervals)", found.to_frame())]
    for i, judge in enumerate(found.judges):
        for name, frame in judge.frames().items():
            frames.append((f"audit-{i + 1}-{name}",
                           f"{judge.judge}: {TITLES[name].format(self=found)}", frame))
    return frames


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """What the audit finds and its tables."""
    from ..page import esc, table

    found = report.audit
    if found is None:
        return None
    return [
        f"<p>Every judge's qrels against QRELS on the topics both judge: Cohen's κ and "
        f"Krippendorff's α of the labels, Kendall's τ_b, τ_ap, RBO and the top-"
        f"{found.top_k} agreement of the runs ordered by {esc(found.measure)}, the pairs of "
        f"runs significant under each ({esc(found.test)}, {esc(found.correction)}), the "
        "judge's bias per run (a mixed model, runs flagged with the same correction) and "
        "the documents each leaves unjudged, counted non-relevant as trec_eval counts them "
        "(docs/labels.md).</p>",
        *(table(frame, page.digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in audit_frames(report))]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import frames_text

    return frames_text(audit_frames(report), fmt, digits)


SECTION = Section(
    "audit", needs=(), build=_build, html=_html, tables=_tables, on=JUDGES,
    draws=(Needs((), on=JUDGES),), steps="one", absent=lambda: {"audit": None},
    heading=("Automatic judges audited", "judges-audit"))
