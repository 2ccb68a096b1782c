"""Numbers of a CSV file read by pandas as the doubles their texts name, in every pandas
version irscale supports."""

from __future__ import annotations

from typing import Any

import pandas as pd

#: Keyword arguments of ``pd.read_csv`` for exact floats: before pandas 3 its default parser
#: may be one unit in the last place off (``float_precision="round_trip"`` is exact); pandas 3
#: is exact by default and deprecates the argument.
EXACT_FLOATS: dict[str, Any] = (
    {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {})
