"""The files of a simulation's checkpoint folder read back (``irscale meta simulate
--checkpoint``, :func:`irscale.meta.simulation.simulate`): the study's description
``study.json`` and the counts of its finished tasks, ``task-NNNNNNNN.npy``.

The folder is irscale's, but anyone who can write into it may have put anything under
those names: each file is read as a file irscale wrote and reads back
(:func:`irscale.io.regular_files.read_regular`: a regular file only, opened without blocking,
within the memory limit), the description parsed by the one JSON parser
(:func:`irscale.io.json_input.parse_json`: nesting and integers bounded, a fault named by
its line), the counts by numpy from memory (no pickles).
"""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, Any

from .files import display_name
from .json_input import parse_json
from .regular_files import read_regular

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def read_study(path: str | os.PathLike[str]) -> Any:
    """The JSON value of the description at ``path``, ``None`` when there is none;
    :class:`~irscale.errors.InputFormatError` naming the line for text that is not JSON
    or beyond its bounds, :class:`~irscale.errors.FileAccessError` for a file that is
    not a regular one or cannot be read."""
    data = read_regular(path)
    return None if data is None else parse_json(data, display_name(path))


def read_counts(path: str | os.PathLike[str]) -> np.ndarray | None:
    """The array of the ``.npy`` file at ``path`` (pickles refused), ``None`` when there is
    none; numpy's ``ValueError`` or ``EOFError`` for a file that is not one (or is
    truncated), :class:`~irscale.errors.FileAccessError` as :func:`read_study`."""
    import numpy as np

    data = read_regular(path)
    return None if data is None else np.load(io.BytesIO(data), allow_pickle=False)


__all__ = ["read_counts", "read_study"]
