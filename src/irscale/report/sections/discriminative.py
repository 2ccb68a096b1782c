"""Discriminative power (Sakai 2014, §5: the paired bootstrap and the randomised Tukey HSD,
B samples, one seed) per measure, with ``dp``; shown in the page's robustness section."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.params import SAMPLES, Needs, Param, Switch
from ..section import Build, Page, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent

#: The section, with ``dp`` (``--dp``).
DP = Param("dp", Switch(), False, "add discriminative power (paired bootstrap and randomised "
           "Tukey HSD)", ("--dp",))
#: Its resamples (the command line's ``-B``, shared with the collections' bootstrap).
DP_SAMPLES = Param("dp_samples", SAMPLES, 1000, "resamples of discriminative power",
                   ("-B", "--samples"))


def _progress(within: Callable[[int, int], None], measures: int
              ) -> Callable[[int, int], None]:
    """The resampling of discriminative power as the progress of its step: the methods of
    each measure in turn (:data:`~irscale.meta.discriminative.METHODS`), each counting its
    samples from 0 again."""
    from ...meta.discriminative import METHODS

    passes = measures * len(METHODS)
    seen = {"pass": 0, "last": 0}

    def report(done: int, total: int) -> None:
        if done < seen["last"]:  # the next method's resampling has started
            seen["pass"] = min(seen["pass"] + 1, passes - 1)
        seen["last"] = done
        within(seen["pass"] * total + done, passes * total)

    return report


def _build(build: Build) -> dict[str, Any]:
    from ...meta.discriminative import discriminative_power_table

    options, labels = build.options, list(build.measures)
    progress = options["progress"]
    found = discriminative_power_table(
        build.evaluation.to_matrix(measures=labels), measures=labels,
        samples=options["dp_samples"], alpha=options["alpha"], rng=options["seed"],
        progress=_progress(build.within, len(labels)) if callable(progress)
        else bool(progress))  # a bar (lines) of its own: the resampling's time left
    build.advance()
    return {"discriminative": found}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    from ..frames import discriminative_frame
    from ..page import table

    if report.discriminative is None:
        return None
    return [table(discriminative_frame(report), page.digits, table_id="dp",
                  caption="Discriminative power (Sakai 2014, §5): pairs significant "
                  "under the paired bootstrap and the randomised Tukey HSD")]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ...stats.tables import render
    from ..frames import ascii_headers, discriminative_frame

    if report.discriminative is None:
        return []
    return [render(ascii_headers(discriminative_frame(report), fmt), fmt, digits=digits,
                   title="Discriminative power")]


SECTION = Section(
    "discriminative", needs=(), build=_build, html=_html, tables=_tables,
    params=(DP,), own=(DP_SAMPLES,),
    rules=(Needs((DP_SAMPLES,), "discriminative power", on=DP),),
    on=DP, draws=(Needs((), on=DP),), steps="one",
    absent=lambda: {"discriminative": None}, group="discriminative power")
