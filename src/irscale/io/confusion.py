"""Files of a judges' confusion matrix: ``true observed probability`` lines, the chance that
a document of grade ``true`` is labelled ``observed`` (``irscale meta judge-noise
--confusion``; :meth:`irscale.collections.Confusion.read`)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

import numpy as np

from ..errors import EmptyInputError, InputFormatError, shorten
from ._text import check_int64
from .files import display_name, read_lines

#: What a line holds.
SHAPE = "expected 'true observed probability' (two integer grades ≥ 0 and a number in [0, 1])"
#: A grade written as an integer (ASCII digits, maybe a sign): one beyond 64 bits is named
#: as such, not as a line of another shape.
_GRADE = re.compile(r"[+-]?[0-9]+\Z")


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
        if isinstance(parsed, str):
            raise InputFormatError(parsed, source=source, line=number, text=line)
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


def _entry(fields: list[str]) -> tuple[int, int, float] | str:
    """``(true, observed, probability)`` of a line's fields, or what is wrong with them:
    not of the shape (:data:`SHAPE`), or a grade beyond 64-bit integers (as the grades of
    qrels: :func:`irscale.io._text.check_int64`)."""
    if len(fields) != 3:
        return SHAPE
    for field in fields[:2]:
        if _GRADE.match(field) and check_int64(field) is not None:
            return f"grade {shorten(field, 60)} is beyond 64-bit integers (grades lie within " \
                "0 and 9,223,372,036,854,775,807)"
    try:
        true, observed, probability = int(fields[0]), int(fields[1]), float(fields[2])
    except ValueError:
        return SHAPE
    if true < 0 or observed < 0 or not (math.isfinite(probability) and 0 <= probability <= 1):
        return SHAPE
    return true, observed, probability
