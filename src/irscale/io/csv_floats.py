"""Numbers of a CSV file read by pandas as the doubles their texts name, in every pandas
version irscale supports."""

from __future__ import annotations

import io
from typing import Any

import pandas as pd

#: A text pandas' default parser has been seen to read one unit in the last place off
#: (pandas 2, and pandas 3.0.x: ``0.0833333333333333``).
_PROBE = "0.08333333333333333"


def _default_is_exact() -> bool:
    """Whether ``pd.read_csv``'s default parser reads :data:`_PROBE` as the double it names."""
    return bool(pd.read_csv(io.StringIO(f"v\n{_PROBE}\n"))["v"].iloc[0] == float(_PROBE))


#: Keyword arguments of ``pd.read_csv`` for exact floats: ``float_precision="round_trip"``
#: where the default parser is not exact (pandas 2, and pandas 3.0.x, whose default is one
#: unit in the last place off too); nothing where it is (a later pandas deprecates the
#: argument), decided by reading :data:`_PROBE` once.
EXACT_FLOATS: dict[str, Any] = {} if _default_is_exact() else {"float_precision": "round_trip"}
