"""Whitespace-separated text files read into columns, with exact error locations.

:func:`read_fields` hands the file to the native engine's fast pass (the TREC readers',
``rust/src/read/table.rs``: gzip data decompressed, pieces of whole lines parsed side by
side), which splits every line at runs of blanks and tabs and converts the fields asked
for (text as :class:`~irscale.core.strings.Strings`, numbers as numpy arrays). A file that
does not fit is diagnosed here: a line-by-line pass (:func:`diagnose`) over its bytes finds
the first offending line, so that the error names file, line number and text. The
diagnostic pass is the specification of validity; the fast pass only accelerates the
common case. :func:`line_of_record` names the line of a record found wrong later (a
duplicate, a value out of its range).
"""

from __future__ import annotations

import io
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

import numpy as np

from .. import _engine
from ..core.strings import Strings
from ..errors import EmptyInputError, InputFormatError
from .files import (
    check_readable,
    check_utf8,
    display_name,
    raise_nul_line,
    read_input,
    reading_limit,
    refuse_parquet,
)
from .native_files import raise_read_error
from .spool import SpooledInput, spool_input

PathLike = str | os.PathLike

# ASCII digits only: str patterns' \d also matches other scripts' digits ('١'), which
# the engine (and trec_eval's atof/atol) do not read as numbers
_FLOAT = re.compile(
    r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|inf|infinity)\Z",
    re.IGNORECASE | re.ASCII,
)
_INT = re.compile(r"[+-]?\d+\Z", re.ASCII)
#: An integer field of a file, as C's ``atol`` (hence trec_eval) reads it and as it is meant:
#: a sign, digits, and maybe a decimal point followed by zeros only (``+2``; ``2.0``, as tools
#: that print every number as a real write it). ``1.5`` and ``1e1`` (``atol``: 1) or
#: ``0x10`` (``atol``: 0) are refused: what they mean is not what trec_eval reads.
_INTEGER_FIELD = re.compile(r"[+-]?\d+(?:\.0*)?\Z", re.ASCII)
#: A field check used by the diagnostic pass: returns an error message or ``None``.
FieldCheck = Callable[[str], "str | None"]


def is_float(text: str) -> bool:
    """True when ``text`` is a decimal floating-point literal (the grammar of a ``"float"``
    field, :data:`FieldKind`)."""
    return _FLOAT.match(text) is not None


def is_int(text: str) -> bool:
    """True when ``text`` is a decimal integer literal."""
    return _INT.match(text) is not None


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def check_int64(text: str) -> str | None:
    """A field check: ``None`` for an integer field (a sign, digits, maybe a decimal point and
    zeros: ``+2``, ``2.0``) whose value fits in 64 bits, else the problem."""
    if _INTEGER_FIELD.match(text) is None:
        return "is not an integer"
    whole = text.partition(".")[0]
    # more than 19 digits (leading zeros aside) is beyond 64 bits: not converted, as
    # Python refuses to convert an integer of more than 4,300 digits
    if len(whole.lstrip("+-").lstrip("0")) > 19 or not INT64_MIN <= int(whole) <= INT64_MAX:
        return "is too large (integers must lie within ±9,223,372,036,854,775,807)"
    return None


def source_name(source: PathLike | io.IOBase | bytes) -> str:
    """A printable name of an input, used in error messages."""
    if isinstance(source, (str, os.PathLike)):
        return display_name(source)
    if isinstance(source, bytes):
        return "<bytes>"
    return getattr(source, "name", "<stream>")


def read_bytes(source: PathLike | io.IOBase | bytes) -> bytes:
    """All bytes of a file (``-``: standard input; transparently gunzipped), a stream or a
    bytes object (see :func:`irscale.io.files.read_input`)."""
    # the streams let through are readable io.IOBase objects (_check_source); typeshed's
    # io.IOBase declares no read(), which read_input calls
    return read_input(source)  # type: ignore[arg-type]


def iter_lines(data: bytes) -> Iterator[tuple[int, str]]:
    """(1-based line number, text without line ending) for every line of ``data``."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        yield number, raw.rstrip(b"\r").decode("utf-8", errors="replace")


#: What separates two fields of a line: blanks, tabs (and a carriage return).
_FIELD_BREAKS = re.compile(r"[ \t\r]+")


def diagnose(
    data: bytes,
    source: str,
    field_names: Sequence[str],
    checks: dict[int, FieldCheck],
    what: str,
) -> None:
    """Raise :class:`InputFormatError` for the first line of ``data`` that is not valid.

    A valid line is blank (white space only), or has exactly ``len(field_names)`` fields
    separated by blanks and tabs and passes ``checks[i]`` for field ``i``. Returns
    normally when every line is valid.
    """
    n = len(field_names)
    layout = " ".join(field_names)
    refuse_parquet(data, source)
    check_utf8(data, source)
    for number, text in iter_lines(data):
        if "\x00" in text:
            raise_nul_line(data, source)
        if not text.strip():
            continue
        # split as the fast pass splits (blanks and tabs, trec_eval's sscanf in the C
        # locale): a line joined by another white space (U+00A0, a vertical tab) is named
        fields = [field for field in _FIELD_BREAKS.split(text) if field]
        if len(fields) != n:
            raise InputFormatError(
                f"expected {n} fields ({layout}) in {what}, got {len(fields)}",
                source=source,
                line=number,
                text=text,
            )
        for index, check in checks.items():
            problem = check(fields[index])
            if problem is not None:
                raise InputFormatError(
                    f"{field_names[index]} {problem}", source=source, line=number, text=text
                )


class LineRecords:
    """Records read one a line, ``line`` the line of each: as many as their lines."""

    line: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.line)


class LinedRows:
    """Rows read one a line from a file, whose field ``_line`` gives a row's line (as
    :func:`line_of_record` finds it): :meth:`where`, for messages."""

    _line: Callable[[int], tuple[int, str]]

    def where(self, row: int) -> tuple[int, str]:
        """The 1-based line number and text of row ``row``."""
        return self._line(row)


def line_of_record(data: bytes, record: int) -> tuple[int, str]:
    """Line number and text of the ``record``-th (0-based) non-blank line of ``data``: the
    lines of :func:`iter_lines`, blank where their text ``strip()``s to nothing.

    Vectorised, :data:`_LINE_PIECE` bytes of whole lines at a time: a line holding a
    printable ASCII byte is not blank, one of blanks, tabs, ``\\r``, ``\\v`` and ``\\f`` only
    is; the few others (control or non-ASCII bytes only) are decoded and stripped as
    :func:`iter_lines` does (a record near the end of a 1M-line file: 0.05 s, where walking
    the lines took 0.29 s).
    """
    chars = np.frombuffer(data, np.uint8)
    seen = lines_before = 0  # non-blank lines and lines before the piece
    for start, end in _line_pieces(data, 0, len(data), _LINE_PIECE):
        piece = chars[start:end]
        ends = np.flatnonzero(piece == _LF) + 1  # each line with its newline: never empty
        if piece[-1] != _LF:  # the last line, without one
            ends = np.append(ends, len(piece))
        bounds = np.concatenate(([0], ends))
        space = (piece - np.uint8(9)) < 5  # tab, LF, VT, FF, CR (below 9 wraps: false)
        np.logical_or(space, piece == _BLANK, out=space)
        blank = np.logical_and.reduceat(space, bounds[:-1])
        printable = np.logical_or.reduceat((piece > 32) & (piece < 127), bounds[:-1])
        for undecided in np.flatnonzero(~blank & ~printable).tolist():  # by str.strip
            blank[undecided] = not _line_text(data, start + int(bounds[undecided]),
                                              start + int(bounds[undecided + 1])).strip()
        solid = np.flatnonzero(~blank)
        if seen + len(solid) > record:
            line = int(solid[record - seen])
            return (lines_before + line + 1,
                    _line_text(data, start + int(bounds[line]), start + int(bounds[line + 1])))
        seen += len(solid)
        lines_before += len(ends)
    raise IndexError(record)


def _line_pieces(data: bytes, start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of consecutive pieces of ``data[start:stop]``, each ``size`` bytes and
    the rest of its line (cut after a newline, so that no line spans two pieces; the last
    ends at ``stop``)."""
    while start < stop:
        end = data.find(b"\n", start + size, stop)
        end = stop if end < 0 else end + 1
        yield start, end
        start = end


#: Bytes of whole lines looked at once by :func:`line_of_record`.
_LINE_PIECE = 1 << 22
#: The bytes of a blank and a newline.
_BLANK, _LF = 32, 10


def _line_text(data: bytes, start: int, stop: int) -> str:
    """The text of the line ``data[start:stop]`` (its ``\\n``, if any, included), as
    :func:`iter_lines` gives it."""
    return data[start:stop].rstrip(b"\n").rstrip(b"\r").decode("utf-8", errors="replace")


#: What a field is read as (:func:`read_fields`): ``"str"`` UTF-8 text (a
#: :class:`~irscale.core.strings.Strings` column), ``"float"`` a float64 (:func:`is_float`'s
#: grammar), ``"int"`` an int64 (:func:`check_int64`'s grammar: ``+2`` and ``2.0`` are 2).
FieldKind = Literal["str", "float", "int"]


class Fields:
    """The fields read of every data line of a whitespace-separated file, in file order:
    text as :class:`~irscale.core.strings.Strings`, numbers as numpy arrays."""

    def __init__(self, columns: dict[str, Strings | np.ndarray], num_rows: int) -> None:
        self._columns = columns
        self.num_rows = num_rows

    @property
    def column_names(self) -> list[str]:
        """The names of the fields read, in the order asked."""
        return list(self._columns)

    def __len__(self) -> int:
        return self.num_rows

    def __getitem__(self, name: str) -> Strings | np.ndarray:
        return self._columns[name]

    def strings(self, name: str) -> Strings:
        """The text field ``name``."""
        column = self._columns[name]
        if not isinstance(column, Strings):
            raise TypeError(f"field {name!r} was not read as text")
        return column

    def numbers(self, name: str) -> np.ndarray:
        """The number field ``name`` (float64 or int64)."""
        column = self._columns[name]
        if isinstance(column, Strings):
            raise TypeError(f"field {name!r} was read as text")
        return column


def read_fields(
    source: PathLike | io.IOBase | bytes,
    field_names: Sequence[str],
    kinds: dict[str, FieldKind],
    checks: dict[int, FieldCheck],
    what: str,
) -> tuple[Fields, Callable[[], bytes]]:
    """The fields ``kinds`` names (read as it says) of every data line of a file whose lines
    hold the ``field_names`` separated by runs of blanks and tabs (blank lines skipped),
    and a function giving the file's bytes (for later errors naming a line).

    Raises :class:`EmptyInputError` when no line holds data, and :class:`InputFormatError`
    naming the file, line and text of the first line that :func:`diagnose` refuses (field
    count, ``checks``, UTF-8, NUL bytes).

    The native engine reads the text (``irscale._engine.read_fields``: gzip data
    decompressed, pieces of whole lines parsed side by side) by the grammar of the fields'
    kinds; ``checks`` are the diagnosis', used when a line does not fit: a field of a kind
    that ``checks`` leaves unchecked is then checked by its kind's grammar
    (:data:`_KIND_CHECKS`), after ``checks`` found nothing. Standard input, a FIFO or a
    device is moved to a re-readable file first (:mod:`irscale.io.spool`), or read whole
    where the system cannot.
    """
    name = source_name(source)
    given, spooled, decompress = _engine_input(source)
    cache: dict[str, bytes] = {}

    def raw() -> bytes:  # the spooled file stays open while this function lives
        if "data" not in cache:
            cache["data"] = (given if isinstance(given, bytes) and not decompress
                             else read_input(given, name=name) if spooled is not None
                             else read_bytes(given))
        return cache["data"]

    asked = [(field_names.index(field), kind) for field, kind in kinds.items()]
    try:
        fault, rows, arrays = _engine.read_fields(given, name, len(field_names), asked,
                                                  reading_limit(), decompress)
    except _engine.TrecReadError as error:
        raise_read_error(error, [(given, name)])
    if fault == "nul":
        raise_nul_line(raw(), name)
    if fault == "misfit" and raw().strip():
        diagnose(raw(), name, field_names, checks, what)
        diagnose(raw(), name, field_names,
                 {index: _KIND_CHECKS[kind] for index, kind in asked
                  if kind in _KIND_CHECKS and index not in checks}, what)
        raise InputFormatError(f"cannot parse {what}: a line does not split into its fields",
                               source=name)
    if fault is not None:
        raise EmptyInputError(f"empty {what}: no data line", source=name)
    columns: dict[str, Strings | np.ndarray] = {
        field: Strings._of_arrays(*array) if kind == "str" else array
        for (field, kind), array in zip(kinds.items(), arrays, strict=True)}
    return Fields(columns, rows), raw


def _check_number(text: str) -> str | None:
    """A field check: ``None`` for a number of :func:`is_float`'s grammar."""
    return None if is_float(text) else "is not a number"


#: The check of a number field's grammar, for the diagnosis of :func:`read_fields`.
_KIND_CHECKS: dict[str, FieldCheck] = {"float": _check_number, "int": check_int64}


def _engine_input(source: PathLike | io.IOBase | bytes
                  ) -> tuple[bytes | PathLike, SpooledInput | None, bool]:
    """What the engine reads of ``source``: ``(bytes or path, the spooled input that holds
    the path open, whether gzip data are still to be decompressed)``.

    A regular file is read by its path, standard input, a FIFO or a device from the
    re-readable file it is spooled to; where it cannot be spooled, and for a stream, the
    bytes are read here whole (decompressed: :func:`read_bytes`). Raises
    :class:`~irscale.errors.FileAccessError` for a path that cannot be read.
    """
    if isinstance(source, bytes):
        return source, None, True
    if isinstance(source, (str, os.PathLike)):
        info = check_readable(source)
        if info is not None and stat.S_ISREG(info.st_mode):
            return source, None, True
        spooled = spool_input(source)
        if spooled is not None:
            return spooled.path, spooled, True
    return read_bytes(source), None, False
