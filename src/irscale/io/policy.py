"""Tables of probabilities per (query, document[, rank]): a stochastic ranking policy or a
logging policy's propensities (``query docno rank probability``), per-(query,
document) click probabilities (``query docno value``), and distributions over whole
rankings (``query slate probability``), read for
:func:`irscale.online.counterfactual`.

Fields are separated by tabs or blanks, one row per line, in any order; errors name the
file, the line and its text.

>>> read_probability_table(b"q1 d1 1 0.5\\nq1 d2 1 0.5\\n").to_dict("list")
{'query': ['q1', 'q1'], 'docno': ['d1', 'd2'], 'rank': [1, 1], 'probability': [0.5, 0.5]}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputFormatError
from ._text import FieldKind, check_int64, is_float, line_of_record, read_fields, source_name
from .pending import Pending
from .text_codes import objects_of

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["POLICY_COLUMNS", "REWARD_COLUMNS", "SLATE_COLUMNS", "check_probability_table",
           "check_slate_table", "read_probability_table", "read_slate_table"]

#: The columns of a policy (or propensity) table and of a reward table.
POLICY_COLUMNS = ("query", "docno", "rank", "probability")
REWARD_COLUMNS = ("query", "docno", "value")
#: The columns of a distribution over whole rankings (slates).
SLATE_COLUMNS = ("query", "slate", "probability")


def _number(text: str) -> str | None:
    return None if is_float(text) else "is not a number"


def read_probability_table(source: Any, *, ranked: bool = True) -> pd.DataFrame:
    """Read ``query docno rank probability`` rows (``ranked``) or ``query docno value``
    rows; every probability or value must lie in [0, 1]."""
    return check_probability_table(source, ranked=ranked).build()


def check_probability_table(source: Any, *, ranked: bool = True) -> Pending[pd.DataFrame]:
    """The rows of :func:`read_probability_table` checked (fields, numbers, their range),
    the frame built later (:mod:`irscale.io.pending`)."""
    columns = POLICY_COLUMNS if ranked else REWARD_COLUMNS
    kinds: dict[str, FieldKind] = {"query": "str", "docno": "str", "rank": "int",
                                   "probability": "float", "value": "float"}
    checks: dict[int, Callable[[str], str | None]] = (
        {2: check_int64, 3: _number} if ranked else {2: _number})
    fields, raw = read_fields(source, columns, {c: kinds[c] for c in columns}, checks,
                              "probability table")
    read = {c: objects_of(fields.strings(c)) if kinds[c] == "str" else fields.numbers(c)
            for c in columns}
    value = np.asarray(read[columns[-1]], dtype=np.float64)
    bad = ~np.isfinite(value) | (value < 0) | (value > 1)
    if ranked:
        bad |= np.asarray(read["rank"]) < 1
    if bad.any():
        number, text = line_of_record(raw(), int(np.flatnonzero(bad)[0]))
        raise InputFormatError(f"{columns[-1]} must lie in [0, 1]"
                               + (" and rank be 1 or more" if ranked else ""),
                               source=source_name(source), line=number, text=text)

    def build() -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(read)

    return Pending(source_name(source), build)


def read_slate_table(source: Any) -> pd.DataFrame:
    """Read ``query slate probability`` rows: a distribution over whole rankings, ``slate``
    the ranking's documents from rank 1 joined by commas (``d3,d1,d2``); every probability
    lies in [0, 1] and no slate is empty or repeats a document.

    >>> read_slate_table(b"q1 d2,d1 0.5\\nq1 d1,d2 0.5\\n").to_dict("list")
    {'query': ['q1', 'q1'], 'slate': [('d2', 'd1'), ('d1', 'd2')], 'probability': [0.5, 0.5]}
    """
    return check_slate_table(source).build()


def check_slate_table(source: Any) -> Pending[pd.DataFrame]:
    """The rows of :func:`read_slate_table` checked, the frame built later
    (:mod:`irscale.io.pending`)."""
    kinds: dict[str, FieldKind] = {"query": "str", "slate": "str", "probability": "float"}
    fields, raw = read_fields(source, SLATE_COLUMNS, kinds, {2: _number}, "slate table")
    slates = [tuple(text.split(",")) for text in objects_of(fields.strings("slate"))]
    value = fields.numbers("probability").astype(np.float64)
    for i, slate in enumerate(slates):
        problem = ("probability must lie in [0, 1]"
                   if not (np.isfinite(value[i]) and 0 <= value[i] <= 1) else
                   "a slate lists documents joined by single commas" if "" in slate else
                   "a slate shows a document once" if len(set(slate)) < len(slate) else None)
        if problem:
            number, text = line_of_record(raw(), i)
            raise InputFormatError(problem, source=source_name(source), line=number,
                                   text=text)
    queries = objects_of(fields.strings("query"))

    def build() -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({"query": queries, "slate": slates, "probability": value})

    return Pending(source_name(source), build)
