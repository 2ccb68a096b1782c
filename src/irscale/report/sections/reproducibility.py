"""The reproducibility block: the command, the dataset conventions applied, the versions
and every input file's size and SHA-256. The page shows it last; the LaTeX and Markdown
tables carry the conventions in their first lines
(:func:`~irscale.report.tables.format_tables`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..section import Build, Page, Section

if TYPE_CHECKING:  # pragma: no cover
    from ...evaluation.conventions import Applied
    from ..content import Provenance, ReportContent


def provenance(command: str, paths: Iterable[object], conventions: Applied | None = None
               ) -> Provenance:
    """The :class:`Provenance` of a report made by ``command`` from ``paths`` (inputs that
    are not files — DataFrames, dicts — are listed by type) with the dataset
    ``conventions`` applied (their summary and source)."""
    import importlib.metadata
    import os
    import platform

    import numpy as np
    import pandas as pd
    import scipy

    from ...core.version import __version__
    from ...io.regular_files import file_digest
    from ..content import Provenance

    try:
        plotting = importlib.metadata.version("matplotlib")
    except importlib.metadata.PackageNotFoundError:
        plotting = "not installed"
    versions = (("irscale", __version__), ("python", platform.python_version()),
                ("numpy", np.__version__), ("scipy", scipy.__version__),
                ("pandas", pd.__version__), ("matplotlib", plotting))
    inputs = []
    for path in paths:
        if isinstance(path, str | os.PathLike) and os.path.isfile(path):
            inputs.append((os.fspath(path), os.path.getsize(path), file_digest(path).hex()))
        else:
            inputs.append((f"<{type(path).__name__} in memory>", 0, ""))
    return Provenance(command=command, versions=versions, inputs=tuple(inputs),
                      conventions=None if conventions is None
                      else f"{conventions.summary()} (from {conventions.source})")


def _build(build: Build) -> dict[str, Any]:
    """The provenance of the call: its command (default: this call) and its input files
    (default: ``qrels`` and ``runs`` where they are paths)."""
    options = build.options
    runs = options["runs"]
    paths = list(options["input_files"]) if options["input_files"] is not None else \
        [options["qrels"], *(runs if isinstance(runs, list | tuple) else [runs])]
    return {"provenance": provenance(options["command"] or "irscale.report.build_report(...)",
                                     paths, options["conventions"])}


def _html(report: ReportContent, page: Page) -> list[str]:
    import pandas as pd

    from ..page import esc, table

    info = report.provenance
    versions = pd.DataFrame(list(info.versions), columns=["software", "version"])
    applied = [] if info.conventions is None else [f"<p>{esc(info.conventions)}</p>"]
    return [f"<p>Command:</p><pre><code>{esc(info.command)}</code></pre>", *applied,
            table(versions, 4, caption="Versions", sortable=False),
            table(info.to_frame(), 0, caption="Input files (bytes, SHA-256)",
                  table_id="inputs", sortable=False)]


SECTION = Section(
    "reproducibility", needs=(), build=_build, html=_html, tables=None,
    heading=("Reproducibility", "reproducibility"),
    why="the tables carry the conventions applied in their first lines")
