"""The one rule of every analysis of a per-user table (A/B tests, OECs, means over users,
sample ratios): every user it reduces has a value, or the call says how many had none and
were left out. A user without a value (an empty cell, ``nan``) is never skipped silently,
as pandas' reductions skip NaN by default.

A table read from a file (:func:`irscale.io.user_tables.read_user_table`) keeps the line and
text of each of its rows (:class:`RowLines`, in its ``attrs``), so that an error names the
file, the line and its text; a table built in memory is named by its user.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, shown
from ..io.user_tables import LINES, RowLines
from .params import USER_VALUES

if TYPE_CHECKING:
    import pandas as pd


def located(values: pd.DataFrame | pd.Series, label: Hashable) -> dict[str, Any]:
    """Where the row of ``label`` of ``values`` comes from, as :class:`InputError`'s
    keywords: its file, line and text when it was read from a file, else its source (if
    the table names one) or nothing."""
    lines = values.attrs.get(LINES)
    if isinstance(lines, RowLines):
        return lines.where(label)
    source = values.attrs.get("source")
    return {"source": source} if isinstance(source, str) else {}


@USER_VALUES
def users_with_values(frame: pd.DataFrame, columns: Sequence[str], missing: str,
                      what: str = "metric") -> tuple[pd.DataFrame, int]:
    """The users (rows) of ``frame`` with a value (not NaN) in every one of ``columns``
    that it has (a column it lacks is the analysis' to report), and how many it left out.

    ``missing`` (:data:`~irscale.online.params.AB_MISSING`): ``"error"``, the first user
    without a value is an :class:`InputError` naming the column, the user and, read from a
    file, the file, line and text; ``"drop"``, such users are left out and counted (the
    caller says how many)."""
    present = [c for c in columns if c in frame.columns]
    absent = frame[present].isna().to_numpy()
    if not absent.any():
        return frame, 0
    if missing == "error":
        row, col = (int(k[0]) for k in np.nonzero(absent))
        label = frame.index[row]
        raise InputError(
            f"{what} column {present[col]!r}: user {shown(label)} has no value (an empty "
            "cell or nan); --missing drop (missing='drop') leaves such users out and says "
            "how many", **located(frame, label))
    keep = ~absent.any(axis=1)
    return frame[keep], int((~keep).sum())


def warn_left_out(count: int, of: str) -> str:
    """Warn that ``count`` users without a value were left out ``of`` an analysis, and
    return the note (for the result's own description)."""
    note = f"{count} user(s) without a value left out"
    warnings.warn(f"{note} of {of}", stacklevel=3)
    return note


def check_labels(labels: pd.Series, what: str = "variant") -> None:
    """Refuse a user without a ``what`` (an empty cell): the analyses group users by it,
    and pandas' grouping and counting would leave such a user out silently."""
    absent = labels.isna().to_numpy()
    if absent.any():
        label = labels.index[int(np.argmax(absent))]
        raise InputError(f"user {shown(label)} has no {what} (an empty cell): every user "
                         f"needs one", **located(labels, label))


__all__ = ["LINES", "RowLines", "check_labels", "located", "users_with_values",
           "warn_left_out"]
