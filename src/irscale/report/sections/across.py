"""With ``collections``, per measure the same systems compared across those collections
(:func:`irscale.stats.across_collections.across_collections`: each pair's random-effects
meta-analysis, the stratified bootstrap of the systems' means, the mixed model with the
collection as a factor), shown with its forest plot."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ...core.params import DEFAULT_RELEVANCE_LEVEL, SAMPLES, Needs, Param
from ...errors import ParameterError
from ...evaluation.params import COLLECTION
from ...stats.names import WEIGHTS
from ..section import Build, Page, Requirement, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent

#: The collections compared across (the command line: ``--collection`` or
#: ``--collections FILE``).
COLLECTIONS = Param("collections", COLLECTION.domain, None, COLLECTION.doc,
                    ("--collection", "--collections"))
#: The resamples of the collections' bootstrap (the command line's ``-B``, shared with
#: discriminative power).
COLLECTION_SAMPLES = Param("collection_samples", SAMPLES, 1000, "resamples of the bootstrap "
                           "of the collections", ("-B", "--samples"))
#: How the collections weigh (the command line's ``--weights``).
COLLECTION_WEIGHTS = Param("collection_weights", WEIGHTS.domain, WEIGHTS.default, WEIGHTS.doc,
                           WEIGHTS.flags)


def _level_one(build: Build) -> None:
    """The collections are evaluated at relevance level 1: another level of the report
    (given, or the dataset's) is refused with them."""
    if build.level != DEFAULT_RELEVANCE_LEVEL:
        conventions = build.options["conventions"]
        raise ParameterError(
            f"the collections compared across (collections=, --collection) are evaluated at "
            f"relevance level 1, not at the report's {build.level}"
            f"{'' if conventions is None else f' (the conventions of {conventions.dataset})'}"
            ": give relevance level 1, or leave the collections out")


#: The report's relevance level is that of the collections (1).
LEVEL_ONE = Requirement("relevance level 1, the collections'", "call", _level_one)


def _build(build: Build) -> dict[str, Any]:
    from ...stats.across_collections import across_collections

    options, labels = build.options, list(build.measures)
    collections = options["collections"]
    if isinstance(collections, (str, os.PathLike)):  # read and evaluated once
        from ...evaluation.suite import evaluate_collections
        from ...io.manifest import read_collections

        collections = evaluate_collections(read_collections(collections), labels)
    return {"across": {measure: across_collections(
        collections, measure, alpha=options["alpha"], samples=options["collection_samples"],
        rng=options["seed"], weights=options["collection_weights"]) for measure in labels}}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """Each measure's tables (:func:`~irscale.report.tables.across_frames`) and forest
    plot."""
    from ...plots.across import forest
    from ..frames import across_frames
    from ..page import esc, table

    if not report.across:
        return None
    body = [f"<p>The same runs on {len(next(iter(report.across.values())).collections)} "
            "collections, matched by run name: per measure, each pair's random-effects "
            "meta-analysis over the collections, the systems' means over them and the mixed "
            "model with the collection as a factor.</p>"]
    for measure, found in report.across.items():
        body.append(f"<h3>{esc(measure)}</h3>")
        body.extend(table(frame, page.digits, table_id=table_id, caption=caption)
                    for table_id, caption, frame in across_frames(measure, found))
        body.append(page.figure(forest(found), f"{measure}: forest plot, each pair's "
                                "difference per collection with its interval and the pooled "
                                "REML effect (diamond) with its prediction interval (line)"))
    return body


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import across_frames, frames_text

    return frames_text([frame for measure, found in report.across.items()
                        for frame in across_frames(measure, found)], fmt, digits)


SECTION = Section(
    "across", needs=(LEVEL_ONE,), build=_build, html=_html, tables=_tables,
    own=(COLLECTION_SAMPLES, COLLECTION_WEIGHTS),
    rules=(Needs((COLLECTION_SAMPLES, COLLECTION_WEIGHTS), "the comparison across "
                 "collections", on=COLLECTIONS),),
    on=COLLECTIONS, draws=(Needs((), on=COLLECTIONS),), absent=lambda: {"across": {}},
    heading=("Across collections", "across"))
