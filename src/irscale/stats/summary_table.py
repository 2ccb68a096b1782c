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

from typing import TYPE_CHECKING, Literal

import numpy as np

from ..errors import ParameterError
from ..io.output import check_summary_columns
from .tables import check_digits, latex_escape

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation import Evaluation
    from .corrections import Correction

TableFormat = Literal["latex"]
#: Summaries that are not effectiveness values: no bold, no test.
_COUNTS = ("sum", "count")
_MARKS = {1: r"$^{\uparrow}$", -1: r"$^{\downarrow}$", 0: ""}


def summary_table(
    evaluation: Evaluation,
    *,
    baseline: str | None = None,
    test: str = "t",
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    digits: int = 4,
    fmt: TableFormat = "latex",
) -> str:
    r"""The runs × measures table of ``evaluation`` as LaTeX (booktabs rules).

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
    fmt : "latex"
        The only format so far.

    Returns
    -------
    str
        A ``table`` environment with a caption.

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
    if fmt != "latex":
        raise ParameterError(f"summary tables are written as latex, got format {fmt!r}")
    digits = check_digits(digits)
    columns = [c for c in evaluation.columns if c.value_type != "str" and c.aggregate != "none"]
    check_summary_columns(columns, evaluation.columns, "the latex table")
    runs = list(evaluation.runs)
    values = np.array([[dict((c.label, v) for c, v in evaluation.summary(r))[c.label]
                        for c in columns] for r in range(len(runs))], dtype=np.float64)
    shown = np.round(values, digits)
    marks = np.zeros(values.shape, dtype=np.int64)
    caption = [f"Summary over topics of {len(runs)} run(s)",
               "the best value of each measure in bold"]
    if baseline is not None:
        tested = [c.label for c in columns
                  if c.label in evaluation.measures and c.aggregate not in _COUNTS]
        marks, note = _baseline_marks(evaluation, runs, [c.label for c in columns], tested,
                                      baseline, test, correction, alpha)
        caption.append(note)
    lines = ["\\begin{table}", "\\centering",
             f"\\caption{{{latex_escape('; '.join(caption))}.}}".replace("↑", "$\\uparrow$")
             .replace("↓", "$\\downarrow$"),
             f"\\begin{{tabular}}{{l{'r' * len(columns)}}}", "\\toprule",
             " & ".join(["Run", *(latex_escape(c.label) for c in columns)]) + " \\\\",
             "\\midrule"]
    best = [None if c.aggregate in _COUNTS or np.isnan(shown[:, k]).all()
            else np.nanmax(shown[:, k]) for k, c in enumerate(columns)]
    for r, run in enumerate(runs):
        cells = [latex_escape(run)]
        for k, column in enumerate(columns):
            text = _number(values[r, k], digits, column.value_type == "int")
            if best[k] is not None and shown[r, k] == best[k]:
                text = f"\\textbf{{{text}}}"
            cells.append(text + _MARKS[int(marks[r, k])])
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"


def _number(value: float, digits: int, integer: bool) -> str:
    if np.isnan(value):
        return "--"
    return str(int(value)) if integer else f"{value:.{digits}f}"


def _baseline_marks(evaluation: Evaluation, runs: list[str], labels: list[str],
                    tested: list[str], baseline: str, test: str, correction: Correction | None,
                    alpha: float) -> tuple[np.ndarray, str]:
    """Per (run, column): +1 significantly better than the baseline, -1 worse, 0 not."""
    from .pairwise import pairwise_tests
    from .registry import test_spec

    marks = np.zeros((len(runs), len(labels)), dtype=np.int64)
    if baseline not in runs:
        from ..errors import AlignmentError

        raise AlignmentError(f"baseline {baseline!r} is not a run (runs: "
                             f"{', '.join(runs[:8])}{', ...' if len(runs) > 8 else ''})")
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
    spec = test_spec(test)
    how = (f"{result.correction.capitalize()} over {len(frame)} comparisons"
           if result.correction else f"{len(frame)} comparisons, uncorrected")
    return marks, (f"↑/↓: significantly better/worse than {baseline} ({spec.name} test, "
                   f"{how}, alpha = {alpha:g})")


__all__ = ["summary_table"]
