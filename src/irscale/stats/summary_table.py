"""The runs × measures table of a paper: means, the best run in bold, significance marks.

:func:`summary_table` renders an :class:`~irscale.evaluation.Evaluation` as the table IR
papers print (and ranx prints): one row per run, one column per measure holding its summary
over topics (trec_eval's ``all`` value: the mean for most measures, the geometric mean for
``gm_map``, a sum for counts), the best value of each effectiveness measure in bold (every
run that reaches it at the printed precision; counts get no bold), and, with a
``baseline``, a mark on each value that differs significantly from the baseline's:
``↑`` better, ``↓`` worse. The tests are those of :func:`irscale.stats.pairwise_tests`
with ``baseline=``: one two-system test per (run, measure) against the baseline on the
per-topic values, the p-values adjusted together over the whole table (``correction``,
Holm by default), a decision at ``alpha``; the caption states the test, the correction,
the number of comparisons and α.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from ..core.mean_intervals import INTERVAL_NAMES
from ..errors import ParameterError
from ..io.output import check_summary_columns
from .tables import UNDEFINED, check_digits, latex_escape

if TYPE_CHECKING:  # pragma: no cover
    from ..core.mean_intervals import MeanInterval
    from ..io.table import RunTable
    from .corrections import Correction

TableFormat = Literal["latex", "markdown", "html"]
#: The formats of the paper's table.
TABLE_FORMATS: tuple[str, ...] = ("latex", "markdown", "html")
#: Summaries that are not effectiveness values: no bold, no test.
_COUNTS = ("sum", "count")
_LATEX_MARKS = {1: r"$^{\uparrow}$", -1: r"$^{\downarrow}$", 0: ""}
_TEXT_MARKS = {1: " ↑", -1: " ↓", 0: ""}


@dataclass(frozen=True)
class SummaryCell:
    """One cell of a runs × measures table: the value, its text, bold or not (the best of
    its column at the printed precision), the mark against the baseline (``+1``
    significantly better, ``-1`` worse, ``0``) and the text of its interval, if any."""

    value: float
    text: str
    bold: bool
    mark: int
    interval: str | None = None


def render_summary(header: Sequence[str], rows: Sequence[tuple[str, Sequence[SummaryCell]]],
                   caption: str, fmt: TableFormat) -> str:
    """The runs × measures table of a paper: one row per ``(run, cells)`` under the column
    labels ``header``, titled ``caption``, as a booktabs LaTeX ``table`` (↑/↓ as
    superscript arrows), a Markdown table under its caption in bold, or an HTML table.
    ``irscale eval --format latex --baseline``, the experiment report and
    :meth:`BaselineComparison.format <irscale.stats.baseline.BaselineComparison.format>`
    all print through it."""
    if fmt == "latex":
        title = latex_escape(caption).replace("↑", r"$\uparrow$") \
            .replace("↓", r"$\downarrow$").replace("α", r"$\alpha$")
        lines = ["\\begin{table}", "\\centering", f"\\caption{{{title}}}",
                 f"\\begin{{tabular}}{{l{'r' * len(header)}}}", "\\toprule",
                 " & ".join(["Run", *(latex_escape(c) for c in header)]) + " \\\\",
                 "\\midrule"]
        for run, cells in rows:
            texts = [latex_escape(run)]
            for cell in cells:
                text = (f"\\textbf{{{cell.text}}}" if cell.bold else cell.text) \
                    + _LATEX_MARKS[cell.mark]
                if cell.interval is not None:
                    text += f" {{\\scriptsize {cell.interval}}}"
                texts.append(text)
            lines.append(" & ".join(texts) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    elif fmt == "markdown":
        lines = [f"**{caption}**", "",
                 "| Run | " + " | ".join(c.replace("|", "\\|") for c in header) + " |",
                 "|:---|" + "---:|" * len(header)]
        for run, cells in rows:
            texts = [run.replace("|", "\\|")]
            for cell in cells:
                text = (f"**{cell.text}**" if cell.bold else cell.text) + _TEXT_MARKS[cell.mark]
                texts.append(text + ("" if cell.interval is None else f" {cell.interval}"))
            lines.append("| " + " | ".join(texts) + " |")
    elif fmt == "html":
        esc = html.escape
        lines = ['<table class="irscale-summary">', f"<caption>{esc(caption)}</caption>",
                 '<thead><tr><th scope="col">Run</th>'
                 + "".join(f'<th scope="col">{esc(c)}</th>' for c in header)
                 + "</tr></thead><tbody>"]
        for run, cells in rows:
            texts = [f'<th scope="row">{esc(run)}</th>']
            for cell in cells:
                text = f"<b>{esc(cell.text)}</b>" if cell.bold else esc(cell.text)
                text += _TEXT_MARKS[cell.mark]
                if cell.interval is not None:
                    text += f" <small>{esc(cell.interval)}</small>"
                texts.append(f"<td>{text}</td>")
            lines.append("<tr>" + "".join(texts) + "</tr>")
        lines.append("</tbody></table>")
    else:
        raise ParameterError(f"the paper's table is written as {', '.join(TABLE_FORMATS)}; "
                             f"got format {fmt!r}")
    return "\n".join(lines) + "\n"


def number_text(value: float, digits: int, integer: bool = False) -> str:
    """A table value: ``digits`` decimals (an integer column without), :data:`UNDEFINED`
    for NaN (a measure's 0/0: the guard of numbers, :mod:`irscale.core.numbers`)."""
    if np.isnan(value):
        return UNDEFINED
    return str(int(value)) if integer else f"{value:.{digits}f}"


def interval_text(low: float, high: float, digits: int) -> str:
    """A cell's interval: ``[low, high]`` with ``digits`` decimals."""
    return f"[{number_text(float(low), digits)}, {number_text(float(high), digits)}]"


def interval_note(method: MeanInterval, alpha: float) -> str:
    """The caption's words on the intervals of the cells (:mod:`irscale.core.mean_intervals`)."""
    return f"each mean with its {100 * (1 - alpha):g}% {INTERVAL_NAMES[method]} interval"


def best_rows(values: np.ndarray, digits: int) -> np.ndarray:
    """Per column of ``values`` (rows × columns), which rows reach the column's best value
    at the printed precision (every one that ties; none in an all-NaN column)."""
    shown = np.round(values, digits)
    with np.errstate(invalid="ignore"):
        best = np.where(np.isnan(shown).all(axis=0), np.nan,
                        np.where(np.isnan(shown), -np.inf, shown).max(axis=0))
    return shown == best


def baseline_note(baseline: str, test_name: str, correction: str | None, comparisons: int,
                  alpha: float) -> str:
    """The caption's words on the marks: the baseline, the test, the correction, α."""
    how = (f"{correction.capitalize()} over {comparisons} comparisons" if correction
           else f"{comparisons} comparisons, uncorrected")
    return (f"↑/↓: significantly better/worse than {baseline} ({test_name} test, {how}, "
            f"alpha = {alpha:g})")


def summary_table(
    evaluation: RunTable,
    *,
    baseline: str | None = None,
    test: str = "t",
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    digits: int = 4,
    fmt: TableFormat = "latex",
    interval: MeanInterval | None = None,
    interval_samples: int = 10_000,
    interval_rng: int | np.random.Generator | None = None,
) -> str:
    r"""The runs × measures table of ``evaluation`` as LaTeX (booktabs rules), Markdown or
    HTML.

    Parameters
    ----------
    evaluation : Evaluation
        The result of :func:`irscale.evaluate`.
    baseline : str, optional
        A run name: mark values significantly better (``↑``) or worse (``↓``) than its.
    test, correction, alpha
        The two-system test, the multiple-comparison correction over every (run, measure)
        comparison of the table, and the significance level (:func:`pairwise_tests`).
    digits : int
        Decimals shown (0 to 17).
    fmt : {"latex", "markdown", "html"}
        A booktabs LaTeX ``table`` environment, a Markdown table or an HTML table
        (:func:`render_summary`).
    interval : {"t", "bootstrap"}, optional
        Every mean of a measure with per-topic values with its 1 − ``alpha`` interval
        (:meth:`~irscale.measures.results.Evaluation.intervals`; ``interval_samples`` and
        ``interval_rng`` for the bootstrap) in its cell.

    Returns
    -------
    str
        The table with its caption.

    Raises
    ------
    ParameterError
        Unknown format, digits out of range, a test, correction or α that
        :func:`pairwise_tests` refuses; AlignmentError when ``baseline`` is not a run or the
        runs do not cover the same topics.

    Examples
    --------
    >>> import irscale
    >>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}, "q3": {"d4": 1}}
    >>> runs = {"bm25": {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}, "q3": {"d9": 1.0}},
    ...         "lm": {"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d9": 1.0}, "q3": {"d9": 1.0}}}
    >>> ev = irscale.evaluate(qrels, runs, ["map", "P@1"])
    >>> print(summary_table(ev).splitlines()[5:8])
    ['Run & map & P@1 \\\\', '\\midrule', 'bm25 & \\textbf{0.6667} & \\textbf{0.6667} \\\\']
    """
    digits = check_digits(digits)
    columns = [c for c in evaluation.columns if c.value_type != "str" and c.aggregate != "none"]
    check_summary_columns(columns, evaluation.columns, f"the {fmt} table")
    runs = list(evaluation.runs)
    values = np.array([[dict((c.label, v) for c, v in evaluation.summary(r))[c.label]
                        for c in columns] for r in range(len(runs))], dtype=np.float64)
    marks = np.zeros(values.shape, dtype=np.int64)
    caption = [f"Summary over topics of {len(runs)} run(s)",
               "the best value of each measure in bold"]
    if baseline is not None:
        tested = [c.label for c in columns
                  if c.label in evaluation.measures and c.aggregate not in _COUNTS]
        marks, note = _baseline_marks(evaluation, runs, [c.label for c in columns], tested,
                                      baseline, test, correction, alpha)
        caption.append(note)
    bounds: dict[tuple[str, str], str] = {}
    if interval is not None:
        found = evaluation.intervals(interval, alpha=alpha, samples=interval_samples,
                                     rng=interval_rng)
        bounds = {(str(run), str(measure)): interval_text(low, high, digits)
                  for run, measure, low, high in zip(found["run"], found["measure"],
                                                     found["ci_low"], found["ci_high"],
                                                     strict=True)}
        caption.append(interval_note(interval, alpha))
    best = best_rows(values, digits)
    rows = [(run, [SummaryCell(value=float(values[r, k]),
                               text=number_text(values[r, k], digits, c.value_type == "int"),
                               bold=bool(best[r, k]) and c.aggregate not in _COUNTS,
                               mark=int(marks[r, k]), interval=bounds.get((run, c.label)))
                   for k, c in enumerate(columns)])
            for r, run in enumerate(runs)]
    return render_summary([c.label for c in columns], rows, "; ".join(caption) + ".", fmt)


def _baseline_marks(evaluation: RunTable, runs: list[str], labels: list[str],
                    tested: list[str], baseline: str, test: str, correction: Correction | None,
                    alpha: float) -> tuple[np.ndarray, str]:
    """Per (run, column): +1 significantly better than the baseline, -1 worse, 0 not."""
    from .pairwise import pairwise_tests
    from .registry import test_spec

    marks = np.zeros((len(runs), len(labels)), dtype=np.int64)
    from ..io.naming import find_in

    baseline = find_in(baseline, evaluation)  # a run's name, file or run id (io.naming)
    if not tested or len(runs) < 2:
        return marks, f"no measure to test against the baseline {baseline}"
    matrix = evaluation.to_matrix(measures=tested)
    result = pairwise_tests(matrix, test, correction=correction, alpha=alpha,
                            measures=tested, baseline=baseline)
    frame = result.to_frame()
    measure = frame["measure"] if "measure" in frame else [tested[0]] * len(frame)
    for run, label, diff, significant in zip(frame["a"], measure, frame["diff"],
                                             frame["significant"], strict=True):
        if significant and diff != 0:
            marks[runs.index(run), labels.index(label)] = 1 if diff > 0 else -1
    return marks, baseline_note(baseline, test_spec(test).name, result.correction, len(frame),
                                alpha)


__all__ = ["TABLE_FORMATS", "SummaryCell", "baseline_note", "best_rows", "interval_note",
           "interval_text", "number_text", "render_summary", "summary_table"]
