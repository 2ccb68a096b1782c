"""The robustness panel: per measure, the check of the interval-scale assumption of
Ferrante et al. (2021) on these runs: the runs cut at N (the measure's cut-off, else
``scale_depth``) and mapped to the measure's ranked version M_R = φ(M)
(:func:`irscale.scales.transform.transform`, ties ``unq``, binary lenient mapping); Kendall's
τ between the systems' means of M and of M_R (Table 2) and the pairs whose Tukey HSD
decision (after MD2) changes from M to M_R (S2NS, NS2S: Tables 5–6). A measure with no
scale gets the reason instead."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...core.params import Cost, Needs, Param, Switch
from ...scales.params import LENGTH
from ..section import Build, Page, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..content import ReportContent

#: Run length of the robustness panel for measures without a cut-off (Ferrante et al. 2021,
#: §6 uses 5, 10, 20 and 30).
DEFAULT_SCALE_DEPTH = 10
#: The run length of the report's robustness panel (Ferrante, Ferro & Fuhr 2021: measures
#: without a cut-off are scaled on runs of N documents).
SCALE_DEPTH = Param("scale_depth", LENGTH, DEFAULT_SCALE_DEPTH, "run length N of the "
                    "robustness panel for measures without a cut-off", ("--scale-depth",), "N",
                    cost=Cost("ranks", "exponential", "a factor of 2 to the rankings of the "
                              "scale"))
#: The panel, left out by ``robustness=False`` (the command line: ``--no-robustness``).
ROBUSTNESS = Param("robustness", Switch(), True, "the robustness panel", ("--no-robustness",))
#: The columns of :attr:`~irscale.report.content.ReportContent.robustness`.
PANEL_COLUMNS = ("measure", "N", "tau", "sig", "sig_ranked", "s2ns", "ns2s", "note")


def _group(qrels: Any, runs: Any, group: list[str], N: int, level: int,
           rows: list[dict[str, object]]) -> list[Any]:
    """The transforms of the measures of ``group`` at run length ``N``: all at once, or,
    where one measure's scale is out of reach, each alone (its reason in ``rows``)."""
    from ...errors import IrscaleError
    from ...scales.transform import transform

    try:
        return [transform(qrels, runs, group, N, progress=False, relevance_level=level)]
    except IrscaleError:  # one measure's scale is out of reach: find which, keep others
        results = []
        for measure in group:
            try:
                results.append(transform(qrels, runs, [measure], N, progress=False,
                                         relevance_level=level))
            except IrscaleError as error:
                rows.append({"measure": measure, "N": N, "note": f"no scale: {error}"})
        return results


def _depths(measures: Sequence[str], depth: int, advance: Callable[[], None],
            rows: list[dict[str, object]]) -> dict[int, list[str]]:
    """The measures by the run length N of their scale (their cut-off, else ``depth``);
    one without a scale gets the reason in ``rows`` (and its progress step)."""
    from ...errors import IrscaleError
    from ...scales import scale_measure

    by_depth: dict[int, list[str]] = {}
    for measure in measures:
        try:
            cutoff = scale_measure(measure).cutoff
        except IrscaleError as error:
            rows.append({"measure": measure, "N": None, "note": f"no scale: {error}"})
            advance()
            continue
        by_depth.setdefault(cutoff or depth, []).append(measure)
    return by_depth


def panel(qrels: Any, runs: Any, measures: Sequence[str], depth: int, alpha: float,
          advance: Callable[[], None], level: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The τ(M, M_R) of Ferrante et al. (2021) and S2NS/NS2S of the Tukey HSD after MD2, per
    measure (``advance()`` after each), and the runs' means of M at N and of M_R
    (:attr:`~irscale.report.content.ReportContent.scaled`), the runs judged at relevance
    ``level`` (the report's)."""
    import pandas as pd

    from ...meta.procedures import decide
    from ...stats.kendall import kendall_tau
    from ..content import SCALED_COLUMNS

    rows: list[dict[str, object]] = []
    scaled: list[dict[str, object]] = []
    for N, group in _depths(measures, depth, advance, rows).items():
        results = _group(qrels, runs, group, N, level, rows)
        for result, (measure, ranked) in ((r, pair) for r in results for pair in r.labels):
            before = result.matrix.array(measure)
            after = result.matrix.array(ranked)
            tau = kendall_tau(before.mean(axis=0), after.mean(axis=0)).tau
            sig = decide(before, "MD2", alpha=alpha).significant
            sig_r = decide(after, "MD2", alpha=alpha).significant
            rows.append({"measure": measure, "N": N, "tau": tau, "sig": int(sig.sum()),
                         "sig_ranked": int(sig_r.sum()), "s2ns": int((sig & ~sig_r).sum()),
                         "ns2s": int((~sig & sig_r).sum()), "note": ""})
            scaled.extend({"run": run, "measure": measure, "N": N, "value": float(m),
                           "ranked": float(r)}
                          for run, m, r in zip(result.matrix.systems, before.mean(axis=0),
                                               after.mean(axis=0), strict=True))
        for _ in group:
            advance()
    order = {m: i for i, m in enumerate(measures)}
    frame = pd.DataFrame(rows, columns=list(PANEL_COLUMNS))
    table = pd.DataFrame(scaled, columns=list(SCALED_COLUMNS))
    return (frame.sort_values("measure", key=lambda s: s.map(order)).reset_index(drop=True),
            table.sort_values("measure", key=lambda s: s.map(order), kind="stable")
            .reset_index(drop=True))


def _build(build: Build) -> dict[str, Any]:
    options = build.options
    found, scaled = panel(build.qrels, build.runs, build.measures, options["scale_depth"],
                          options["alpha"], build.advance, build.level)
    return {"robustness": found, "scaled": scaled}


def _absent() -> dict[str, Any]:
    import pandas as pd

    from ..content import SCALED_COLUMNS

    return {"robustness": pd.DataFrame(columns=list(PANEL_COLUMNS)),
            "scaled": pd.DataFrame(columns=list(SCALED_COLUMNS))}


def _scaled(report: ReportContent, digits: int) -> list[str]:
    """The runs' means of every measure at the panel's N and of its interval-scaled version
    M_R, one table whose button switches between the two (M shown without JavaScript)."""
    from ..page import esc

    scaled = report.scaled
    if not len(scaled):
        return []
    measures = list(dict.fromkeys(scaled["measure"]))
    by = {(row.run, row.measure): row for row in scaled.itertuples()}
    depth = dict(zip(scaled["measure"].astype(str), scaled["N"].astype(int), strict=True))
    head = "".join(f'<th scope="col" data-m="{esc(m)} (N = {depth[m]})" '
                   f'data-r="{esc(m)}_R (N = {depth[m]})">{esc(m)} (N = {depth[m]})</th>'
                   for m in measures)
    rows = []
    for run in dict.fromkeys(scaled["run"]):
        cells = []
        for m in measures:
            row = by.get((run, m))
            cells.append("<td data-value=\"\">–</td>" if row is None else
                         f'<td data-value="{row.value!r}" data-m="{row.value!r}" '
                         f'data-r="{row.ranked!r}">{row.value:.{digits}f}</td>')
        rows.append(f"<tr><td>{esc(run)}</td>{''.join(cells)}</tr>")
    return [f'<button id="scale-toggle" type="button" hidden data-digits="{digits}">'
            "Show the interval-scaled M_R</button>",
            '<table id="scaled" class="sortable"><caption>Means of every run at the '
            "panel's N: the measure M, or (button) its interval-scaled version M_R = φ(M)"
            f'</caption><thead><tr><th scope="col">run</th>{head}</tr></thead><tbody>'
            + "\n".join(rows) + "</tbody></table>"]


def _html(report: ReportContent, page: Page) -> list[str]:
    from ..frames import robustness_frame
    from ..page import table

    if not len(report.robustness):
        return ["<p>Not computed (robustness panel turned off).</p>"]
    return [table(robustness_frame(report), page.digits, table_id="robustness",
                  caption="Each measure M against its ranked (interval-scale) "
                  "version M_R = φ(M) on these runs cut at N (Ferrante et al. "
                  "2021, §5; ties unq, binary lenient mapping): Kendall τ of the run "
                  "means (1: the same ranking of runs) and the Tukey HSD pairs (after the "
                  "two-way ANOVA) significant with M but not M_R (S2NS) and the "
                  "reverse (NS2S)"),
            *_scaled(report, page.digits)]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ...stats.tables import render
    from ..frames import ascii_headers, robustness_frame, title_text

    if not len(report.robustness):
        return []
    return [render(ascii_headers(robustness_frame(report), fmt), fmt, digits=digits,
                   title=title_text("Robustness: the measure M against its ranked "
                                    "version M_R (Ferrante et al. 2021): Kendall τ of the run "
                                    "means and Tukey HSD pairs that change (S2NS, "
                                    "NS2S)", fmt))]


SECTION = Section(
    "robustness", needs=(), build=_build, html=_html, tables=_tables,
    params=(SCALE_DEPTH,),
    rules=(Needs((SCALE_DEPTH,), "the robustness panel", on=ROBUSTNESS, values=(True,)),),
    on=ROBUSTNESS, values=(True,), steps="each measure", absent=_absent,
    heading=("Robustness", "robustness-section"))
