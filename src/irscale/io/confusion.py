"""Files of a judges' confusion matrix: ``true observed probability`` lines, the chance that
a document of grade ``true`` is labelled ``observed`` (``irscale meta judge-noise
--confusion``; :meth:`irscale.collections.Confusion.read`)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np

from ..errors import EmptyInputError, InputFormatError
from .files import display_name, read_lines

#: What a line holds.
SHAPE = "expected 'true observed probability' (two integer grades ≥ 0 and a number in [0, 1])"


@dataclass(frozen=True)
class ConfusionLines:
    """A confusion file read: the grades (ascending, the true and observed ones together),
    ``matrix[i, j]`` = P(observed ``grades[j]`` | true ``grades[i]``) (0 where no line gives
    it), and for each true grade the number and text of its first line (for messages)."""

    source: str
    grades: np.ndarray
    matrix: np.ndarray
    first_line: dict[int, tuple[int, str]]


def read_confusion(path: str | os.PathLike[str]) -> ConfusionLines:
    """The confusion matrix of the file ``path`` (module documentation): blank lines and
    lines starting with ``#`` skipped; a line of another shape, a (true, observed) pair given
    twice and a file without a line are refused, naming the file and the line."""
    source = display_name(path)
    entries: dict[tuple[int, int], float] = {}
    first: dict[int, tuple[int, str]] = {}
    for number, line in enumerate(read_lines(str(path)), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        parsed = _entry(fields)
        if parsed is None:
            raise InputFormatError(SHAPE, source=source, line=number, text=line)
        true, observed, probability = parsed
        if (true, observed) in entries:
            raise InputFormatError(f"grade {true} → {observed} is given twice", source=source,
                                   line=number, text=line)
        entries[(true, observed)] = probability
        first.setdefault(true, (number, line))
    if not entries:
        raise EmptyInputError("no 'true observed probability' line", source=source)
    grades = np.array(sorted({g for pair in entries for g in pair}), dtype=np.int64)
    matrix = np.zeros((len(grades), len(grades)))
    for (true, observed), probability in entries.items():
        matrix[np.searchsorted(grades, true), np.searchsorted(grades, observed)] = probability
    return ConfusionLines(source, grades, matrix, first)


def _entry(fields: list[str]) -> tuple[int, int, float] | None:
    """``(true, observed, probability)`` of a line's fields, or None when they are not."""
    if len(fields) != 3:
        return None
    try:
        true, observed, probability = int(fields[0]), int(fields[1]), float(fields[2])
    except ValueError:
        return None
    if true < 0 or observed < 0 or not (math.isfinite(probability) and 0 <= probability <= 1):
        return None
    return true, observed, probability
