"""The per-topic Parquet files ``evaluate_many(out=FOLDER)`` (``irscale eval-many -o``)
writes, one per batch of runs, read back as one table
(:meth:`irscale.evaluation.many.ManyEvaluation.per_topic`).

The folder is irscale's, but anyone who can write into it may have put anything under a
part's name: each part is read as a file irscale wrote and reads back
(:func:`irscale.io.regular_files.read_regular`: a regular file only, opened without blocking,
within the memory limit), then parsed from memory; a part that is not a Parquet file (a
damaged or replaced one) is an :class:`~irscale.errors.InputError` naming it.
"""

from __future__ import annotations

import errno as errno_codes
import io
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InputError
from .files import access_error, display_name
from .regular_files import read_regular

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def read_parts(parts: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """The rows of the Parquet files ``parts``, in their order, as one table (its columns
    as written: ``run, topic, measure, value``); the errors of the module documentation,
    and :class:`~irscale.errors.FileAccessError` for a part that is gone or cannot be
    read."""
    import pandas as pd

    frames = []
    for part in parts:
        data = read_regular(part)
        if data is None:
            raise access_error(OSError(errno_codes.ENOENT, "no such file"), part)
        try:
            frames.append(pd.read_parquet(io.BytesIO(data)))
        except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
            raise InputError(f"not a per-topic Parquet file of eval-many ({error})",
                             source=display_name(part)) from None
    return pd.concat(frames, ignore_index=True)


__all__ = ["read_parts"]
