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

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..stats.tables import check_digits
from . import sections as listed
from .page import Figures, esc
from .section import Page

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


def _section(title: str, anchor: str, body: Iterable[str]) -> str:
    return f'<section id="{anchor}"><h2>{esc(title)}</h2>\n' + "\n".join(body) + "</section>"


def _contents(sections: Iterable[tuple[str, str, Iterable[str]]]) -> str:
    """The table of contents: a link to every section, in order."""
    return ('<nav id="contents" aria-label="Contents"><h2>Contents</h2><ol>'
            + "".join(f'<li><a href="#{anchor}">{esc(title)}</a></li>'
                      for title, anchor, _ in sections) + "</ol></nav>")


def render_html(report: ReportContent, *, digits: int = 4, title: str = "irscale experiment report"
                ) -> str:
    """The report as one self-contained HTML page (module documentation): the parts of the
    sections (:data:`irscale.report.sections.SECTIONS`) in order, each under its heading
    (a part without one continues the section before it), with a table of contents."""
    digits = check_digits(digits)
    page = Page(digits, Figures())
    n_topics = report.evaluation.to_matrix(measures=[report.measures[0]]).n_topics
    intro = (f"<p>{len(report.runs)} runs, {n_topics} topics, measures "
             f"{esc(', '.join(report.measures))}"
             + (f"; baseline <b>{esc(report.baseline)}</b>" if report.baseline else "")
             + f"; α = {report.alpha:g}. Click a column header to sort a table.</p>")
    sections: list[tuple[str, str, list[str]]] = []
    for section in listed.SECTIONS:
        body = None if section.html is None else section.html(report, page)
        if body is None:
            continue
        if section.heading is None:
            sections[-1][2].extend(body)
        else:
            sections.append((*section.heading, body))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<h1>{esc(title)}</h1>\n{intro}\n{_contents(sections)}\n"
            + "\n".join(_section(*section) for section in sections)
            + f"\n<script>{_JS}</script>\n</body>\n</html>\n")
