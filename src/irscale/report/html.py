"""The experiment report as one self-contained HTML page.

Everything is inline: the CSS, the figures (SVG drawn by :mod:`irscale.plots` in the style
of :mod:`irscale.io.figures`), the per-topic values (a JSON block) and a little JavaScript:
a click on a table's header sorts it; the per-topic drill-down shows any two runs side by
side on any measure (topic, both values, their difference, wins, ties and losses); the
robustness section's table toggles between each measure and its interval-scaled version.
Nothing is fetched when the page is viewed (no fonts, scripts or images from elsewhere),
and the page reads the same with JavaScript off: the tables stay as written (the
drill-down shows its first pair), only the interactions are lost. Numbers in sortable
cells carry their full-precision value in ``data-value``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..io.figures import svg_text
from ..plots.residuals import residual_qq
from ..plots.runs import (
    baseline_differences,
    precision_recall,
    score_distributions,
    tukey_intervals,
)
from ..stats.assumptions import display_frame
from ..stats.tables import check_digits, format_number
from .tables import (
    ROBUST_SHARE,
    across_frames,
    automatic_frames,
    bounds_frames,
    comparison_frame,
    discriminative_frame,
    groups_frame,
    noise_frames,
    robustness_frame,
    summary_caption,
    summary_cells,
)

if TYPE_CHECKING:  # pragma: no cover - the type only: build renders through this module
    from .content import ReportContent

__all__ = ["render_html"]

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:72em;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;margin-top:2em}
h3{font-size:1.1em}
table{border-collapse:collapse;margin:0.6em 0;font-size:0.9em}
th,td{padding:0.2em 0.6em;border-bottom:1px solid #e4e4e4;text-align:right}
th:first-child,td:first-child{text-align:left}
thead th{border-bottom:2px solid #444;background:#f6f6f6}
table.sortable thead th{cursor:pointer}
table.sortable thead th[aria-sort=ascending]::after{content:" ▲"}
table.sortable thead th[aria-sort=descending]::after{content:" ▼"}
caption{caption-side:top;text-align:left;font-size:0.85em;color:#555;padding:0.3em 0}
.ci{color:#777;font-size:0.8em}.up{color:#009E73}.down{color:#D55E00}
.figs{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.figs figure{margin:0}
figure svg{max-width:100%;height:auto}
figcaption{font-size:0.8em;color:#555;max-width:40em}
pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;white-space:pre-wrap}
code{font-size:0.9em}
"""

# Sorting: a click on a header sorts the body rows by that column (numbers by data-value,
# text otherwise); a second click reverses. Without JavaScript the tables stay as written.
_JS = """
document.querySelectorAll("table.sortable").forEach(function(t){
 t.querySelectorAll("thead th").forEach(function(th,i){
  th.addEventListener("click",function(){
   var asc=th.getAttribute("aria-sort")!=="ascending";
   t.querySelectorAll("thead th").forEach(function(h){h.removeAttribute("aria-sort")});
   th.setAttribute("aria-sort",asc?"ascending":"descending");
   var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);
   function key(r){var c=r.cells[i],v=c.getAttribute("data-value");
    return v!==null&&v!==""&&!isNaN(v)?parseFloat(v):c.textContent.trim().toLowerCase()}
   rows.sort(function(a,b){var x=key(a),y=key(b),s=(typeof x===typeof y)?
    (x<y?-1:x>y?1:0):(typeof x==="number"?-1:1);return asc?s:-s});
   rows.forEach(function(r){b.appendChild(r)});
  });
 });
});
(function(){
 var data=document.getElementById("per-topic-data");if(!data)return;
 data=JSON.parse(data.textContent);
 var a=document.getElementById("drill-a"),b=document.getElementById("drill-b"),
  m=document.getElementById("drill-measure"),body=document.querySelector("#drill tbody"),
  note=document.getElementById("drill-summary"),head=document.querySelectorAll("#drill thead th");
 function fmt(v){return v.toFixed(data.digits)}
 function cell(v){var td=document.createElement("td");td.setAttribute("data-value",v);
  td.textContent=fmt(v);return td}
 function show(){
  var x=data.values[m.value][a.value],y=data.values[m.value][b.value],w=0,t=0,l=0;
  head[1].textContent=a.value;head[2].textContent=b.value;
  head[3].textContent=a.value+" \u2212 "+b.value;
  body.textContent="";
  data.topics.forEach(function(topic,i){
   var tr=document.createElement("tr"),th=document.createElement("td"),d=x[i]-y[i];
   th.textContent=topic;tr.appendChild(th);tr.appendChild(cell(x[i]));tr.appendChild(cell(y[i]));
   tr.appendChild(cell(d));body.appendChild(tr);if(d>0)w++;else if(d<0)l++;else t++});
  note.textContent=a.value+" against "+b.value+" on "+m.value+": "+w+" topics won, "+t+
   " tied, "+l+" lost";
 }
 [a,b,m].forEach(function(s){s.addEventListener("change",show)});
})();
(function(){
 var button=document.getElementById("scale-toggle");if(!button)return;
 button.hidden=false;var ranked=false;
 button.addEventListener("click",function(){
  ranked=!ranked;
  document.querySelectorAll("#scaled td[data-m]").forEach(function(c){
   var v=c.getAttribute(ranked?"data-r":"data-m");c.setAttribute("data-value",v);
   c.textContent=parseFloat(v).toFixed(parseInt(button.dataset.digits))});
  document.querySelectorAll("#scaled thead th[data-m]").forEach(function(h){
   h.textContent=h.getAttribute(ranked?"data-r":"data-m")});
  button.textContent=ranked?"Show the measures M":"Show the interval-scaled M_R";
 });
})();
"""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _cell(value: object, digits: int) -> str:
    if isinstance(value, bool | np.bool_):
        return f"<td>{'yes' if value else 'no'}</td>"
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return "<td data-value=\"\">–</td>"
    if isinstance(value, int | float | np.integer | np.floating):
        return f"<td data-value=\"{float(value)!r}\">{_esc(format_number(value, digits))}</td>"
    return f"<td>{_esc(value)}</td>"


def _table(frame: pd.DataFrame, digits: int, *, caption: str | None = None,
           table_id: str | None = None, sortable: bool = True) -> str:
    attributes = (f' id="{_esc(table_id)}"' if table_id else "") + \
        (' class="sortable"' if sortable else "")
    out = [f"<table{attributes}>"]
    if caption:
        out.append(f"<caption>{_esc(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th scope=\"col\">{_esc(c)}</th>"
                                        for c in frame.columns) + "</tr></thead><tbody>")
    for row in frame.itertuples(index=False):
        out.append("<tr>" + "".join(_cell(v, digits) for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _summary(report: ReportContent, digits: int) -> str:
    out = ['<table id="summary" class="sortable">',
           f"<caption>{_esc(summary_caption(report))}</caption>",
           '<thead><tr><th scope="col">run</th>'
           + "".join(f'<th scope="col">{_esc(m)}</th>' for m in report.measures)
           + "</tr></thead><tbody>"]
    for run, cells in summary_cells(report, digits):
        name = _esc(run) + (" <em>(baseline)</em>" if run == report.baseline else "")
        texts = [f'<th scope="row" data-run="{_esc(run)}">{name}</th>']
        for measure, cell in zip(report.measures, cells, strict=True):
            number = f"<b>{cell.text}</b>" if cell.bold else cell.text
            mark = {1: ' <span class="up" title="significantly better">↑</span>',
                    -1: ' <span class="down" title="significantly worse">↓</span>',
                    0: ""}[cell.mark]
            texts.append(f'<td data-value="{cell.value!r}" data-measure="{_esc(measure)}">'
                         f'<span class="v">{number}</span>{mark} '
                         f'<span class="ci">{_esc(cell.interval)}</span></td>')
        out.append("<tr>" + "".join(texts) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


class _Figures:
    """Figures rendered as inline SVG, each with its own id salt."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, ax: Any, caption: str) -> str:
        self.count += 1
        svg = svg_text(ax.figure, salt=f"irscale-figure-{self.count}")
        return f"<figure>{svg}<figcaption>{_esc(caption)}</figcaption></figure>"


def _drilldown(report: ReportContent, digits: int) -> list[str]:
    """The per-topic drill-down: the values of every run and measure (a JSON block), the
    choice of two runs and a measure, and the table of the first pair (the baseline, or the
    first run, against the next run) that the page's script redraws on a change."""
    matrix = report.evaluation.to_matrix(measures=list(report.measures))
    topics = [str(t) for t in matrix.topics]
    values = {measure: {run: [float(v) for v in matrix.values[:, r, m]]
                        for r, run in enumerate(matrix.systems)}
              for m, measure in enumerate(matrix.measures)}
    data = json.dumps({"topics": topics, "digits": digits, "values": values})
    first = report.baseline or report.runs[0]
    second = next(run for run in report.runs if run != first)
    measure = report.measures[0]

    def choice(element: str, label: str, options: Iterable[str], chosen: str) -> str:
        items = "".join(f'<option{" selected" if o == chosen else ""}>{_esc(o)}</option>'
                        for o in options)
        return f'<label>{label} <select id="{element}">{items}</select></label>'

    x, y = values[measure][first], values[measure][second]
    rows = []
    wins = ties = losses = 0
    for topic, a, b in zip(topics, x, y, strict=True):
        d = a - b
        wins, ties, losses = wins + (d > 0), ties + (d == 0), losses + (d < 0)
        rows.append(f"<tr><td>{_esc(topic)}</td>" + "".join(
            f'<td data-value="{v!r}">{v:.{digits}f}</td>' for v in (a, b, d)) + "</tr>")
    return [
        f'<script type="application/json" id="per-topic-data">{_json_in_html(data)}</script>',
        "<p>" + choice("drill-a", "Run", report.runs, first) + " "
        + choice("drill-b", "against", report.runs, second) + " "
        + choice("drill-measure", "on", report.measures, measure) + "</p>",
        f'<p id="drill-summary">{_esc(first)} against {_esc(second)} on {_esc(measure)}: '
        f"{wins} topics won, {ties} tied, {losses} lost</p>",
        '<table id="drill" class="sortable"><thead><tr><th scope="col">topic</th>'
        f'<th scope="col">{_esc(first)}</th><th scope="col">{_esc(second)}</th>'
        f'<th scope="col">{_esc(first)} − {_esc(second)}</th></tr></thead><tbody>'
        + "\n".join(rows) + "</tbody></table>"]


def _json_in_html(text: str) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can end it)."""
    return text.replace("</", "<\\/")


def _scaled(report: ReportContent, digits: int) -> list[str]:
    """The runs' means of every measure at the panel's N and of its interval-scaled version
    M_R, one table whose button switches between the two (M shown without JavaScript)."""
    scaled = report.scaled
    if not len(scaled):
        return []
    measures = list(dict.fromkeys(scaled["measure"]))
    by = {(row.run, row.measure): row for row in scaled.itertuples()}
    depth = dict(zip(scaled["measure"].astype(str), scaled["N"].astype(int), strict=True))
    head = "".join(f'<th scope="col" data-m="{_esc(m)} (N = {depth[m]})" '
                   f'data-r="{_esc(m)}_R (N = {depth[m]})">{_esc(m)} (N = {depth[m]})</th>'
                   for m in measures)
    rows = []
    for run in dict.fromkeys(scaled["run"]):
        cells = []
        for m in measures:
            row = by.get((run, m))
            cells.append("<td data-value=\"\">–</td>" if row is None else
                         f'<td data-value="{row.value!r}" data-m="{row.value!r}" '
                         f'data-r="{row.ranked!r}">{row.value:.{digits}f}</td>')
        rows.append(f"<tr><td>{_esc(run)}</td>{''.join(cells)}</tr>")
    return [f'<button id="scale-toggle" type="button" hidden data-digits="{digits}">'
            "Show the interval-scaled M_R</button>",
            '<table id="scaled" class="sortable"><caption>Means of every run at the '
            "panel's N: the measure M, or (button) its interval-scaled version M_R = φ(M)"
            f'</caption><thead><tr><th scope="col">run</th>{head}</tr></thead><tbody>'
            + "\n".join(rows) + "</tbody></table>"]


#: How the section on automatic judgments says that they came with label probabilities.
_PROBABILITIES = (", with a probability per grade: their labels are the most probable "
                  "grades, their values the measures' expected values under the "
                  "probabilities")


def _automatic(report: ReportContent, digits: int) -> list[str]:
    """The automatic judgments against the human ones (QRELS): agreement, corrected means
    and the conclusions that change (:func:`irscale.collections.automatic_judgments`)."""
    found = report.automatic
    changed = found.conclusions()
    return [
        f"<p>QRELS are the human judgments of a sample; the automatic judgments cover "
        f"every topic{_PROBABILITIES if report.label_probabilities else ''}. Corrected "
        f"means: prediction-powered inference ({_esc(found.tuning)}; "
        f"Angelopoulos et al., Science 2023), beside the human sample alone. "
        f"{int(changed['changed'].sum())} of {len(changed)} conclusions about a pair of runs "
        "change with the correction.</p>",
        *(_table(frame, digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in automatic_frames(report)),
    ]


def _across(report: ReportContent, digits: int, figure: _Figures) -> list[str]:
    """The systems compared across collections (``build_report(collections=...)``): each
    measure's tables (:func:`~irscale.report.tables.across_frames`) and forest plot."""
    from ..plots.across import forest

    body = [f"<p>The same runs on {len(next(iter(report.across.values())).collections)} "
            "collections, matched by run name: per measure, each pair's random-effects "
            "meta-analysis over the collections, the systems' means over them and the mixed "
            "model with the collection as a factor.</p>"]
    for measure, found in report.across.items():
        body.append(f"<h3>{_esc(measure)}</h3>")
        body.extend(_table(frame, digits, table_id=table_id, caption=caption)
                    for table_id, caption, frame in across_frames(measure, found))
        body.append(figure(forest(found), f"{measure}: forest plot, each pair's difference "
                           "per collection with its interval and the pooled REML effect "
                           "(diamond) with its prediction interval (line)"))
    return body


def _section(title: str, anchor: str, body: Iterable[str]) -> str:
    return f'<section id="{anchor}"><h2>{_esc(title)}</h2>\n' + "\n".join(body) + "</section>"


def _contents(sections: Iterable[tuple[str, str, Iterable[str]]]) -> str:
    """The table of contents: a link to every section, in order."""
    return ('<nav id="contents" aria-label="Contents"><h2>Contents</h2><ol>'
            + "".join(f'<li><a href="#{anchor}">{_esc(title)}</a></li>'
                      for title, anchor, _ in sections) + "</ol></nav>")


def _noise(report: ReportContent, digits: int) -> list[str]:
    """The conclusions of the Tukey HSD under judge noise (``report.noise``,
    :func:`~irscale.report.tables.noise_frames`)."""
    found = report.noise
    frames = noise_frames(report)
    tables = {table_id: frame for table_id, _, frame in frames}
    verdicts = tables["judge-noise"]["verdict"]
    fragile = int((verdicts == "fragile").sum())
    against = ""
    if "judge-noise-baseline" in tables:
        stated = tables["judge-noise-baseline"]["verdict"]
        against = (f"; against the baseline <b>{_esc(report.baseline or '')}</b> (the "
                   "comparison run again on every replicate: the same test, the correction "
                   f"over the same runs × measures), {int((stated == 'fragile').sum())} of "
                   f"{len(stated)} are")
    return [
        f"<p>The qrels relabelled {found.replicates} times by a confusion model of the "
        f"judges ({_esc(found.confusion.source)}; Rashidi, Zobel &amp; Moffat, TOIS 2023), "
        "the runs evaluated and the Tukey HSD after the two-way ANOVA run again on every "
        "replicate. A conclusion about a pair of runs (significantly better, worse, or "
        "not significantly different) is <b>robust</b> when at least "
        f"{100 * ROBUST_SHARE:g}% of the replicates reach the same decision, "
        f"<b>fragile</b> otherwise: {fragile} of {len(verdicts)} conclusions are "
        f"fragile{against}.</p>",
        *(_table(frame, digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in frames)]


def _reproducibility(report: ReportContent) -> list[str]:
    info = report.provenance
    versions = pd.DataFrame(list(info.versions), columns=["software", "version"])
    applied = [] if info.conventions is None else [f"<p>{_esc(info.conventions)}</p>"]
    return [f"<p>Command:</p><pre><code>{_esc(info.command)}</code></pre>", *applied,
            _table(versions, 4, caption="Versions", sortable=False),
            _table(info.to_frame(), 0, caption="Input files (bytes, SHA-256)",
                   table_id="inputs", sortable=False)]


def render_html(report: ReportContent, *, digits: int = 4, title: str = "irscale experiment report"
                ) -> str:
    """The report as one self-contained HTML page (module documentation)."""
    digits = check_digits(digits)
    figure = _Figures()
    n_topics = report.evaluation.to_matrix(measures=[report.measures[0]]).n_topics
    sections: list[tuple[str, str, list[str]]] = []
    intro = (f"<p>{len(report.runs)} runs, {n_topics} topics, measures "
             f"{_esc(', '.join(report.measures))}"
             + (f"; baseline <b>{_esc(report.baseline)}</b>" if report.baseline else "")
             + f"; α = {report.alpha:g}. Click a column header to sort a table.</p>")
    body = [_summary(report, digits)]
    if report.comparison is not None:
        body.append(_table(comparison_frame(report), digits, table_id="baseline",
                           caption=f"Every run against {report.baseline}: Δ = run − "
                           f"baseline with its {100 * (1 - report.alpha):g}% interval, "
                           f"p, p adjusted ({report.correction}), topics won/tied/lost"))
    sections.append(("Runs × measures", "summary-section", body))

    body = []
    for measure in report.measures:
        result = report.anova[measure]
        frame = result.to_frame().rename(columns={
            "omega2": "ω²", "omega2_total": "ω² (total)", "eta2": "η²",
            "partial_eta2": "partial η²"})
        if np.allclose(frame["df"], frame["df"].round()):
            frame["df"] = frame["df"].round().astype("Int64")
        groups = groups_frame(report, measure)
        body.append(f"<h3>{_esc(measure)}</h3>")
        body.append(_table(frame, digits, caption=result.summary(), sortable=False,
                           table_id=f"anova-{measure}"))
        checks = result.assumptions
        body.append('<div class="figs">' + _table(
            display_frame(checks.to_frame()), digits, sortable=False,
            table_id=f"assumptions-{measure}",
            caption=f"{checks.summary()}. Shapiro & Wilk (1965), Levene (1960), Brown & "
            "Forsythe (1974): a small p is evidence against the assumption")
            + figure(residual_qq(result),
                     f"{measure}: normal Q-Q plot of the ANOVA's residuals (points on the "
                     "line: normal residuals)") + "</div>")
        hsd = report.tukey[measure]
        body.append('<div class="figs">' + _table(
            groups, digits, table_id=f"groups-{measure}",
            caption=f"Tukey HSD groups ({hsd.method}; α = {report.alpha:g}): runs that "
            "share a letter are not significantly different")
            + figure(tukey_intervals(hsd),
                     f"{measure}: Tukey HSD intervals (Ferro & Maistro 2024, eq. 11); "
                     "intervals that do not overlap differ significantly") + "</div>")
    sections.append(("Per topic: any two runs side by side", "drill-down",
                     _drilldown(report, digits)))
    sections.append(("Two-way ANOVA, its assumptions and Tukey HSD", "anova", body))

    body = ['<div class="figs">']
    for measure in report.measures:
        body.append(figure(score_distributions(report.evaluation, measure, kind="both",
                                               runs=report.runs),
                           f"{measure} per topic, per run (violin: density; box: quartiles, "
                           "whiskers at 1.5 IQR; white dot: mean)"))
        if report.baseline is not None:
            body.append(figure(baseline_differences(report.evaluation, measure,
                                                    report.baseline),
                               f"{measure}: per-topic differences against {report.baseline}"))
    body.append(figure(precision_recall(report.precision_recall),
                       "11-point interpolated precision–recall (means over topics)"))
    body.append("</div>")
    sections.append(("Per-topic plots and precision–recall", "plots", body))

    body = []
    if len(report.robustness):
        body.append(_table(robustness_frame(report), digits, table_id="robustness",
                           caption="Each measure M against its ranked (interval-scale) "
                           "version M_R = φ(M) on these runs cut at N (Ferrante et al. "
                           "2021, §5; ties unq, binary lenient mapping): Kendall τ of the run "
                           "means (1: the same ranking of runs) and the Tukey HSD pairs (after the "
                           "two-way ANOVA) significant with M but not M_R (S2NS) and the "
                           "reverse (NS2S)"))
        body.extend(_scaled(report, digits))
    else:
        body.append("<p>Not computed (robustness panel turned off).</p>")
    if report.discriminative is not None:
        body.append(_table(discriminative_frame(report), digits, table_id="dp",
                           caption="Discriminative power (Sakai 2014, §5): pairs significant "
                           "under the paired bootstrap and the randomised Tukey HSD"))
    sections.append(("Robustness", "robustness-section", body))
    if report.bounds is not None:
        sections.append(("Bounds under unjudged documents", "bounds-section",
                         [_table(frame, digits, table_id=table_id, caption=caption)
                          for table_id, caption, frame in bounds_frames(report)]))
    if report.automatic is not None:
        sections.append(("Automatic judgments", "automatic", _automatic(report, digits)))
    if report.noise is not None:
        sections.append(("Conclusions under judge noise", "judge-noise-section",
                         _noise(report, digits)))
    if report.across:
        sections.append(("Across collections", "across", _across(report, digits, figure)))
    sections.append(("Reproducibility", "reproducibility", _reproducibility(report)))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<h1>{_esc(title)}</h1>\n{intro}\n{_contents(sections)}\n"
            + "\n".join(_section(*section) for section in sections)
            + f"\n<script>{_JS}</script>\n</body>\n</html>\n")

