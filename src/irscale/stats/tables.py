"""Rendering of result tables as text, CSV, Markdown, LaTeX or JSON.

Every result object of :mod:`irscale.stats` has ``.to_frame()`` (full-precision numbers)
and ``.format(fmt)`` which goes through :func:`render`. Significance marks follow the
usual convention relative to the significance level α: ``*`` p ≤ α, ``**`` p ≤ α/5,
``***`` p ≤ α/50 (0.05, 0.01 and 0.001 for α = 0.05).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

import numpy as np

from ..core.numbers import UNDEFINED as UNDEFINED
from ..core.numbers import check_table, declare_words, json_number, json_text, spelled
from ..core.params import MAX_DIGITS as MAX_DIGITS
from ..core.params import check_digits as check_digits
from ..errors import ParameterError, about
from ..io import formats
from ..io.formats import TABLE_FORMATS

if TYPE_CHECKING:  # pragma: no cover
    from ..core.numbers import Table

def check_format(fmt: object) -> Format:
    """``fmt`` when it is a table format; a :class:`ParameterError` listing them otherwise."""
    return cast(Format, formats.check_format(fmt, TABLE_FORMATS, "a table"))


class _TableFormat:
    """The domain of a table's format (:data:`Format`), judged on entry by the API's edge
    (:func:`irscale.core.hints.check_entry`) in :func:`check_format`'s words."""

    annotated = True

    def check(self, value: object, name: str) -> object:
        return check_format(value)


#: A table format (:data:`~irscale.io.formats.TABLE_FORMATS`), refused on entry as
#: :func:`check_format` refuses it.
Format = Annotated[Literal["text", "csv", "markdown", "latex", "json"], _TableFormat()]


def significance_mark(p: float, alpha: float) -> str:
    """``***``, ``**``, ``*`` or ``""`` for p relative to α (see the module docstring)."""
    if p is None or not math.isfinite(p) or p > alpha:
        return ""
    if p <= alpha / 50:
        return "***"
    if p <= alpha / 5:
        return "**"
    return "*"


#: From this magnitude on, table cells are written in scientific notation.
LARGE = 1e15


def format_number(value: object, digits: int = 4) -> str:
    """A number for display: ``digits`` decimals, scientific notation for tiny values and
    for values of 10¹⁵ or more (whose fixed decimals would be digits a double does not hold:
    1e300 was written out in 301 digits); NaN as :data:`UNDEFINED`, never a blank (the
    tables' cells passed :func:`irscale.core.numbers.check_table` first); ``None`` (no
    value) empty.

    Degrees of freedom and counts should be given as integers (shown without decimals).
    """
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return UNDEFINED
        if math.isinf(v):  # meant (its table declared it): so for the guard on text too
            text = "inf" if v > 0 else "-inf"
            declare_words(text)
            return text
        if (v != 0 and abs(v) < 10 ** (-digits)) or abs(v) >= LARGE:
            return f"{v:.{max(digits - 2, 1)}e}"
        return f"{v:.{digits}f}"
    return str(value)


def value_text(value: float, digits: int = 4) -> str:
    """``value`` with ``digits`` decimals, or :data:`UNDEFINED` for NaN (never ``nan``)."""
    return UNDEFINED if math.isnan(value) else f"{value:.{digits}f}"


def percent_text(value: float, digits: int = 4) -> str:
    """``value`` as a percentage with ``digits`` decimals, or :data:`UNDEFINED` for NaN."""
    return UNDEFINED if math.isnan(value) else f"{value:.{digits}%}"


def level_text(level: float) -> str:
    """A confidence level as a percentage with the digits it needs: ``99.5%`` (``:.0%``
    wrote the 99.5% interval of α = 0.005 as a "100% CI"), ``95%``."""
    return f"{round(100.0 * level, 8):.10g}%"


def alpha_text(alpha: float) -> str:
    """A significance level with the digits it needs (``:g`` wrote α = 0.9999999 as 1)."""
    return f"{alpha:.10g}"


def format_interval(low: float, high: float, digits: int = 4) -> str:
    return f"[{format_number(low, digits)}, {format_number(high, digits)}]"


def _cells(frame: Table, digits: int) -> list[list[str]]:
    return [[format_number(v, digits) for v in row] for row in frame.itertuples(index=False)]


def _numeric(frame: Table) -> list[bool]:
    """Which columns of ``frame`` hold numbers (aligned right): pandas'
    ``is_numeric_dtype``, which for numpy's types is booleans, integers, floats, complex
    numbers and time spans."""
    numeric = []
    for name in frame.columns:
        dtype = frame[name].dtype
        if isinstance(dtype, np.dtype):
            numeric.append(dtype.kind in "biufcm")
        else:  # pandas' extension types: a frame of pandas, loaded
            import pandas as pd

            numeric.append(pd.api.types.is_numeric_dtype(dtype))
    return numeric


def _text(frame: Table, digits: int, title: str | None, numeric: list[bool]) -> str:
    header = [str(c) for c in frame.columns]
    rows = _cells(frame, digits)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    out = [title] if title else []
    out += [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out) + "\n"


def _markdown(frame: Table, digits: int, title: str | None, numeric: list[bool]
              ) -> str:
    def esc(text: str) -> str:
        return text.replace("|", "\\|")

    out = [f"**{esc(title)}**", ""] if title else []
    out.append("| " + " | ".join(esc(str(c)) for c in frame.columns) + " |")
    out.append("|" + "|".join("---:" if n else ":---" for n in numeric) + "|")
    out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in _cells(frame, digits)]
    return "\n".join(out) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # OT1-encoded text fonts print ¡ and ¿ for the bare characters
    "<": r"\textless{}", ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters spelt as text-mode commands."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex_cell(text: str) -> str:
    # significance marks become superscripts; everything else is escaped
    stripped = text.rstrip("*")
    stars = len(text) - len(stripped)
    cell = latex_escape(stripped)
    return cell + (f"$^{{{'*' * stars}}}$" if stars else "")


#: LaTeX spellings of the Greek and subscripted column headers.
_LATEX_HEADERS = {
    "Δ": r"$\Delta$", "ω²": r"$\omega^2$", "ω² (total)": r"$\omega^2$ (total)",
    "η²": r"$\eta^2$", "partial η²": r"partial $\eta^2$", "d_z": r"$d_z$", "g": r"$g$",
}


def _latex(frame: Table, digits: int, title: str | None, numeric: list[bool]) -> str:
    spec = "".join("r" if n else "l" for n in numeric)
    out = ["\\begin{table}", "\\centering"]
    if title:
        out.append(f"\\caption{{{latex_escape(title)}}}")
    out += [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    out.append(" & ".join(_LATEX_HEADERS.get(str(c), latex_escape(str(c)))
                          for c in frame.columns) + " \\\\")
    out.append("\\midrule")
    out += [" & ".join(_latex_cell(c) for c in row) + " \\\\" for row in _cells(frame, digits)]
    out += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(out) + "\n"


#: A JSON-safe scalar (:func:`irscale.core.numbers.json_number`).
json_value = json_number


def records(frame: Table, where: str = "a table") -> list[dict[str, object]]:
    """The rows of ``frame`` as JSON-safe dictionaries, its numbers checked by
    :func:`irscale.core.numbers.check_table` (``where``: what the table is)."""
    check_table(frame, where)
    return [
        {str(k): json_value(v) for k, v in zip(frame.columns, row, strict=True)}
        for row in frame.itertuples(index=False)
    ]


def render_result(fmt: Format, digits: int, json: Callable[[], dict[str, object]],
                  csv: Callable[[], Table], shown: Callable[[int], Table],
                  title: Callable[[], str]) -> str:
    """A result's ``format(fmt, digits=...)``, one way for every result of one table: the
    JSON document ``json()`` (its rows under the result's key), the full-precision table
    ``csv()`` (no title), or the table ``shown(digits)`` under ``title()`` (text, Markdown,
    LaTeX). Each is made only for the format asked."""
    digits = check_digits(digits)
    if fmt == "json":
        return json_text(json(), indent=2) + "\n"
    if fmt == "csv":
        return render(csv(), fmt)
    return render(shown(digits), fmt, digits=digits, title=title())


def render(
    frame: Table, fmt: Format = "text", *, digits: int = 4, title: str | None = None
) -> str:
    """``frame`` as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table.

    Text, Markdown and LaTeX round numbers to ``digits`` decimals; CSV and JSON keep full
    precision. Its numbers pass the guard (:func:`irscale.core.numbers.check_table`): an
    undefined value is written :data:`UNDEFINED` (JSON: null), with a warning.
    """
    check_format(fmt)
    digits = check_digits(digits)
    if not (hasattr(frame, "attrs") and hasattr(frame, "columns")):  # a frame, or Columns
        raise about(ParameterError(f"frame: expected a table (a pandas DataFrame), got "
                                   f"{type(frame).__name__}", param="frame"), frame)
    where = f"the table {title!r}" if title else "a table"
    if fmt == "json":
        return json_text(records(frame, where), indent=2) + "\n"
    shown = spelled(frame, check_table(frame, where))
    if fmt == "csv":
        return shown.to_csv(index=False)
    renderer = {"markdown": _markdown, "latex": _latex}.get(fmt, _text)
    return renderer(shown, digits, title, _numeric(frame))


def format_comparison(omnibus: Any, pairs: Any, fmt: str = "text", *, digits: int = 4) -> str:
    """A comparison of systems in ``fmt``: the omnibus table (an ANOVA or rank test's, a
    mixed model's, or None), the checks of an ANOVA's assumptions
    (``AnovaResult.assumptions``), then the table of ``pairs`` (pairwise tests or Tukey's
    HSD); JSON as one document ``{"anova": [rows], "assumptions": [rows], "pairs": [rows]}``
    (``"mixed"`` for a mixed model's rows; ``irscale compare``)."""
    # an ANOVA has assumptions to check; a rank test, a mixed model (or no omnibus test)
    # has none
    checks = getattr(omnibus, "assumptions", None)
    if fmt == "json":
        document: dict[str, object] = {}
        if omnibus is not None:
            document[getattr(omnibus, "json_key", "anova")] = omnibus.json_rows()
        if checks is not None:
            document["assumptions"] = checks.json_rows()
        document["pairs"] = pairs.json_pairs()
        return json_text(document, indent=2) + "\n"
    parts = [] if omnibus is None else [omnibus.format(fmt, digits=digits)]
    if checks is not None:
        parts.append(checks.format(fmt, digits=digits))
    parts.append(pairs.format(fmt, digits=digits))
    return "\n".join(parts)
