"""How results show in a notebook: Jupyter (and every front end that reads IPython's rich
display protocol) calls ``_repr_html_`` and shows an HTML table instead of the ``repr``.

Every result of irscale inherits :class:`HtmlRepr`: its ``repr`` as a caption above the
table of :meth:`HtmlRepr._html_frame` (by default the result's ``to_frame()``; the runs ×
measures means for evaluations), long tables shortened to their first and last rows as
pandas shortens them. Text is escaped; nothing runs in the page.
"""

from __future__ import annotations

import html
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

    def _repr_html_(self) -> str:
        return result_html(repr(self), self._html_frame())


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
    table = frame.to_html(max_rows=MAX_ROWS, border=0, escape=True)
    return (f'<div class="irscale-result"><p><code>{html.escape(caption)}</code></p>'
            f"{table}</div>")
