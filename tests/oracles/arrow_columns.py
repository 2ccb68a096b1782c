"""The oracles' view of irscale's string columns as pyarrow arrays: the oracles compute with
pyarrow's own functions, independent of :class:`irscale.core.strings.Strings`."""

from __future__ import annotations

import pyarrow as pa

from irscale.core.strings import Strings


def arrow_column(values: object) -> pa.ChunkedArray:
    """A string column (a :class:`Strings`, or an Arrow array kept as it is) as a pyarrow
    chunked array."""
    if isinstance(values, pa.ChunkedArray):
        return values
    if isinstance(values, pa.Array):
        return pa.chunked_array([values])
    return pa.chunked_array([Strings.of(values).to_arrow()])
