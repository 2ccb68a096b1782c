"""A table of named numpy columns: what a result's table is where pandas is not needed.

Importing pandas costs about half a second; a result printed as text, Markdown, LaTeX or
JSON needs none of it. :class:`Columns` holds the columns in order and speaks the part of
a :class:`pandas.DataFrame`'s interface that the guard (:func:`irscale.core.numbers.
check_table`, :func:`~irscale.core.numbers.spelled`, :func:`~irscale.core.numbers.declare`:
``attrs``) and the renderers (:func:`irscale.stats.tables.render`) use — ``columns``,
``len``, ``frame[name]`` (get and set), ``copy``, ``pop``, ``insert``,
``itertuples(index=False)`` — so that one code serves both. CSV is written by pandas
(:meth:`to_csv`, through :meth:`to_frame`), which that format alone imports.

A column given as a list is a numpy array of the type pandas would infer for it: text an
array of objects (never numpy's fixed-width strings), numbers of one kind as numbers.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def _column(values: Any) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype.kind in "USO":
        return np.asarray(values, dtype=object)
    return array


class Columns:
    """Named columns of one length, in order, with ``attrs`` (the declarations of
    :func:`irscale.core.numbers.declare`)."""

    def __init__(self, data: Mapping[str, Any], attrs: Mapping[str, Any] | None = None):
        self.data = {str(name): _column(values) for name, values in data.items()}
        self.attrs: dict[str, Any] = dict(attrs or {})

    @property
    def columns(self) -> list[str]:
        return list(self.data)

    def __len__(self) -> int:
        return len(next(iter(self.data.values()))) if self.data else 0

    def __getitem__(self, name: str) -> np.ndarray:
        return self.data[name]

    def __setitem__(self, name: str, values: Any) -> None:
        self.data[name] = _column(values)

    def copy(self) -> Columns:
        return Columns(self.data, self.attrs)

    def pop(self, name: str) -> np.ndarray:
        return self.data.pop(name)

    def insert(self, loc: int, name: str, values: Any) -> None:
        """Put the column ``name`` at position ``loc`` (as ``DataFrame.insert``)."""
        items = list(self.data.items())
        items.insert(loc, (name, _column(values)))
        self.data = dict(items)

    def itertuples(self, index: bool = False) -> Iterator[tuple[Any, ...]]:
        """The rows, as tuples of cells, Python's numbers as pandas gives them (``index``
        is always False: there is none)."""
        return zip(*(values.tolist() for values in self.data.values()), strict=True)

    def to_frame(self) -> pd.DataFrame:
        """The same table as a :class:`pandas.DataFrame`, its declarations kept."""
        import pandas as pd

        frame = pd.DataFrame(self.data)
        frame.attrs.update(self.attrs)
        return frame

    def to_csv(self, **options: Any) -> str:
        """``DataFrame.to_csv(**options)`` of :meth:`to_frame`."""
        return self.to_frame().to_csv(**options)
