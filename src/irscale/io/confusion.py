"""Files of a judges' confusion matrix: ``true observed probability`` lines, the chance that
a document of grade ``true`` is labelled ``observed`` (``irscale meta judge-noise
--confusion``; :meth:`irscale.collections.Confusion.read`).

The file is read by the one bounded reader of whitespace-separated fields
(:func:`irscale.io._text.read_fields`: the engine, pieces of whole lines side by side),
its comment lines (a first field starting with ``#``) blanked first so that every line
keeps its number; the grades are integers as the qrels' grades are read (``+2`` and
``2.0`` are 2), the probabilities numbers. Its checks (a grade below 0, a probability
outside [0, 1], a pair given twice) are made on the columns at once, the first line at
fault named: a 4-million-line file (2,000 grades) took 20 s line by line, a second now.
Its matrix, grades × grades, is refused beyond the memory limit before it is allocated
(:func:`irscale.core.progress.declared_memory`: a file of distinct grades asks for the
square of its lines; the option that names the file declares that cost,
:data:`irscale.io.params.CONFUSION_FILE`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np

from ..errors import EmptyInputError, InputFormatError
from ._text import line_of_record, read_fields
from .files import check_text, display_name, read_input

#: What a line holds.
SHAPE = "expected 'true observed probability' (two integer grades ≥ 0 and a number in [0, 1])"
#: The fields of a line.
FIELDS = ("true", "observed", "probability")
#: A comment line, its text (the newline kept: the lines keep their numbers).
_COMMENT = re.compile(rb"^[ \t]*#[^\n]*", re.MULTILINE)


@dataclass(frozen=True)
class ConfusionLines:
    """A confusion file read: the grades (ascending, the true and observed ones together),
    ``matrix[i, j]`` = P(observed ``grades[j]`` | true ``grades[i]``) (0 where no line gives
    it); :meth:`first_line` the number and text of a true grade's first line (for
    messages)."""

    source: str
    grades: np.ndarray
    matrix: np.ndarray
    #: The first data row (0-based) of each true grade, by grade.
    first_row: dict[int, int]
    #: The text read, comments blanked (the rows' lines: :func:`line_of_record`).
    data: bytes

    def first_line(self, grade: int) -> tuple[int, str] | None:
        """``(number, text)`` of the first line of true grade ``grade``; None when no line
        has it as its true grade."""
        row = self.first_row.get(grade)
        return None if row is None else line_of_record(self.data, row)


def read_confusion(path: str | os.PathLike[str]) -> ConfusionLines:
    """The confusion matrix of the file ``path`` (module documentation): blank lines and
    lines starting with ``#`` skipped; a line of another shape, a (true, observed) pair given
    twice and a file without a line are refused, naming the file and the line."""
    from ..core.progress import declared_memory
    from .params import CONFUSION_FILE

    source = display_name(path)
    data = read_input(str(path))
    check_text(data, source)
    data = data.removeprefix(b"\xef\xbb\xbf")
    if b"#" in data:
        data = _COMMENT.sub(b"", data)
    if not data.strip():
        raise EmptyInputError("no 'true observed probability' line", source=source)
    try:
        fields, _ = read_fields(data, FIELDS, {"true": "int", "observed": "int",
                                               "probability": "float"}, {}, "a confusion file")
    except InputFormatError as error:
        if error.line is None or "NUL" in str(error):
            raise
        # a grade beyond 64-bit integers is named as such, not as a line of another shape
        why = "a grade is beyond 64-bit integers (grades lie within 0 and " \
            "9,223,372,036,854,775,807)" if "too large" in str(error) else SHAPE
        raise InputFormatError(why, source=source, line=error.line,
                               text=error.text) from None
    true, observed = fields.numbers("true"), fields.numbers("observed")
    probability = fields.numbers("probability")
    bad = (true < 0) | (observed < 0) | ~((probability >= 0) & (probability <= 1))
    if bad.any():
        _refuse(data, source, int(np.argmax(bad)), SHAPE)
    grades = np.unique(np.concatenate([true, observed]))
    row_of, column_of = np.searchsorted(grades, true), np.searchsorted(grades, observed)
    code = row_of * len(grades) + column_of  # (< 2^63: the grades are at most 2 a line)
    order = np.argsort(code, kind="stable")
    repeated = order[1:][code[order[1:]] == code[order[:-1]]]  # each pair after its first
    if len(repeated):
        row = int(repeated.min())
        _refuse(data, source, row, f"grade {int(true[row])} → {int(observed[row])} is given "
                "twice")
    need = 8.0 * len(grades) ** 2
    declared_memory(CONFUSION_FILE, need, f"{source}: a confusion of {len(grades):,} grades, "
                    "a matrix of their pairs")
    matrix = np.zeros((len(grades), len(grades)))
    matrix[row_of, column_of] = probability
    kinds, rows = np.unique(true, return_index=True)
    return ConfusionLines(source, grades, matrix,
                          dict(zip(kinds.tolist(), rows.tolist(), strict=True)), data)


def _refuse(data: bytes, source: str, row: int, message: str) -> None:
    """Raise :class:`InputFormatError` ``message`` naming the line of data row ``row``."""
    number, text = line_of_record(data, row)
    raise InputFormatError(message, source=source, line=number, text=text)
