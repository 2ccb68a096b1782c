"""The one figure style of irscale and the figure writer (matplotlib, a dependency of
irscale).

Every plot of the package (:mod:`irscale.plots`, :mod:`irscale.meta.plots`,
:mod:`irscale.collections.plots`, the HTML report) draws on axes made by :func:`new_axes`:
the non-interactive ``Figure`` API (no display, no global pyplot state), constrained layout,
the colour-blind-safe Okabe–Ito palette as the colour cycle, light horizontal grid lines,
no top/right spines and small fonts. :func:`figure_writer` is the function that writes a
figure to a stream in the format a path's extension names (``.png``, ``.svg``, ``.pdf``):
the command line hands it to its one writer (:func:`irscale.cli.outputs.plot_output`),
:func:`save_figure` (the API's) to :func:`~irscale.io.files.atomic_output`, both complete
or not at all; :func:`svg_text` renders one as inline SVG text (what the report embeds).

matplotlib is imported only when a figure is made: importing irscale never loads it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..errors import ParameterError, printable, shorten

__all__ = ["LABEL_LIMIT", "PALETTE", "STYLE", "figure_writer", "label", "new_axes",
           "save_figure", "svg_text"]

#: Okabe & Ito (2008) colours, distinguishable under the common colour-vision deficiencies.
PALETTE: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
                            "#56B4E9", "#F0E442", "#000000")

#: matplotlib rc parameters applied to every figure of irscale.
STYLE: dict[str, Any] = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "lines.linewidth": 1.4,
    "svg.fonttype": "none",  # text stays text in SVG: small, searchable
    "svg.hashsalt": "irscale",  # deterministic ids: the same data gives the same SVG
}


#: Most characters of a name a figure draws (a run's, as a tick label, a legend entry or in
#: a title): a longer one is cut in the middle (:func:`label`); the tables show it whole.
#: A name of 100,000 characters would otherwise leave the axes no room (matplotlib's
#: constrained layout gives up, with a warning) and the SVG a line of that length.
LABEL_LIMIT = 40


def label(name: object) -> str:
    """``name`` as a figure draws it: its text, cut in the middle beyond
    :data:`LABEL_LIMIT` characters, control characters escaped.

    >>> label("bm25"), label("r" * 100)
    ('bm25', 'rrrrrrrrrrrrrrrrrrr…rrrrrrrrrrrrrrrrrrr')
    """
    return shorten(printable(str(name)), LABEL_LIMIT, counted=False)


def _style(extra: dict[str, Any] | None = None) -> Any:
    """The context in which matplotlib draws in the irscale style (:data:`STYLE`, then the
    rc parameters ``extra``)."""
    import matplotlib

    params: Any = {**STYLE, **(extra or {})}
    return matplotlib.rc_context(params)


def new_axes(ax: Any = None, size: tuple[float, float] = (6.0, 4.0)) -> Any:
    """``ax`` itself when given (drawn on as it is), else the axes of a new figure of
    ``size`` inches in the irscale style (:data:`STYLE`, :data:`PALETTE`)."""
    if ax is not None:
        if not callable(getattr(ax, "plot", None)) or getattr(ax, "figure", None) is None:
            raise ParameterError(f"ax: expected matplotlib axes, got {type(ax).__name__}",
                                 param="ax")
        return ax
    from cycler import cycler
    from matplotlib.figure import Figure

    with _style({"axes.prop_cycle": cycler(color=PALETTE)}):
        figure = Figure(figsize=size, layout="constrained")
        return figure.add_subplot()


def figure_writer(figure: Any, path: str | os.PathLike, dpi: int = 150
                  ) -> Callable[[IO[bytes]], None]:
    """The function that writes ``figure`` to the binary stream it is given, in the irscale
    style and the format ``path``'s extension names (``.png``, ``.svg``, ``.pdf``): what a
    writer of files calls into its temporary file (the command line's one writer,
    :func:`save_figure`)."""
    fmt = Path(path).suffix.lstrip(".").lower()

    def write(stream: IO[bytes]) -> None:
        with _style():
            figure.savefig(stream, dpi=dpi, format=fmt)

    return write


def save_figure(figure: Any, path: str | os.PathLike | None, dpi: int = 150) -> Any:
    """Write ``figure`` to ``path`` (format from the extension), complete or not at all,
    replacing an existing file; nothing when ``path`` is None. Returns ``figure``."""
    if path is not None:
        from .files import atomic_output

        with atomic_output(path, "wb", force=True) as stream:
            figure_writer(figure, path, dpi)(stream)
    return figure


def svg_text(figure: Any, salt: str = "irscale") -> str:
    """``figure`` as an inline ``<svg>`` element (no XML prolog, no DOCTYPE). The ids of
    its clip paths and markers derive from ``salt``: give each figure of one HTML page its
    own, so that no two share an id."""
    buffer = io.StringIO()
    with _style({"svg.hashsalt": salt}):
        # no <metadata>: no date (the same figure gives the same text) and no links
        figure.savefig(buffer, format="svg", metadata={"Creator": None, "Date": None,
                                                       "Format": None, "Type": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]
