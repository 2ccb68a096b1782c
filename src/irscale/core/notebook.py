"""How results show in a notebook: Jupyter (and every front end that reads IPython's rich
display protocol) calls ``_repr_html_`` and shows an HTML table instead of the ``repr``.

Every result of irscale inherits :class:`HtmlRepr`: its caption (:meth:`HtmlRepr._caption`,
by default its ``repr``) above the table of :meth:`HtmlRepr._html_frame` (by default the
result's ``to_frame()``; the runs × measures means for evaluations), long tables shortened
to their first and last rows as pandas shortens them. Text is escaped; nothing runs in the
page. The results a user prints most (an evaluation, a comparison with a baseline, a family
of pairwise tests) are :class:`TableRepr`: ``print(result)`` shows their numbers too, as
pandas, ranx and ir_measures print theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd

#: Rows shown of a longer table (its first and last halves).
MAX_ROWS = 30


class HtmlRepr:
    """The notebook display of a result: :func:`result_html` of its ``repr`` and of
    :meth:`_html_frame`."""

    def to_frame(self) -> Any:  # pragma: no cover - every result defines it
        raise NotImplementedError

    def _html_frame(self) -> pd.DataFrame:
        """The table a notebook shows (the result's ``to_frame()``)."""
        return self.to_frame()

    def _caption(self) -> str:
        """The line above the notebook's table: the result's ``repr``."""
        return repr(self)

    def _repr_html_(self) -> str:
        return result_html(self._caption(), self._html_frame())


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1, as a caption says them.

    >>> counted(1, "run"), counted(3, "measure")
    ('1 run', '3 measures')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


class TableRepr(HtmlRepr):
    """A result printed with its numbers: ``repr`` (and so ``str``) is a one-line
    :meth:`_caption` saying what it is, above the notebook's table (:meth:`_html_frame`)
    as pandas prints a frame, shortened by pandas' display options as pandas shortens
    large frames (``display.max_rows``: the first and last rows; ``display.max_columns``
    and the width: the first and last columns). A dataclass subclass is declared with
    ``repr=False``, since the ``repr`` a dataclass generates would replace this one."""

    def _caption(self) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{self._caption()}\n{self._html_frame()!r}"


def shown_rows(n: int) -> np.ndarray:
    """The rows of an ``n``-row input a notebook shows: all when at most :data:`MAX_ROWS`,
    else the first and the last :data:`MAX_ROWS` / 2 (pandas' own shortening, without
    building the whole table)."""
    import numpy as np

    if n <= MAX_ROWS:
        return np.arange(n)
    half = MAX_ROWS // 2
    return np.concatenate([np.arange(half), np.arange(n - half, n)])


def result_html(caption: str, frame: pd.DataFrame) -> str:
    """``frame`` as an HTML table (at most :data:`MAX_ROWS` rows shown, numbers at full
    precision as pandas prints them) under ``caption`` (escaped)."""
    import html  # with the page only (a printed result needs none)

    table = frame.to_html(max_rows=MAX_ROWS, border=0, escape=True)
    return (f'<div class="irscale-result"><p><code>{html.escape(caption)}</code></p>'
            f"{table}</div>")
