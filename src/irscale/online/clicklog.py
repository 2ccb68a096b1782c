"""Click logs (``session query rank docno clicked [timestamp]``, text or Parquet): the
reader lives with the other readers, in :mod:`irscale.io.clicklog`; see there."""

from __future__ import annotations

from ..io.clicklog import COLUMNS, ClickLog, read_click_log

__all__ = ["COLUMNS", "ClickLog", "read_click_log"]
