"""Fast columnar parsing of whitespace-separated text files, with exact error locations.

The fast path hands the file to pyarrow's multi-threaded CSV reader (a gzip file through its
decompressing stream) with a single space as delimiter, or a single tab when the first line
holds one (then no text field may hold a blank or be empty: that file is read the
whitespace way instead). Files that mix tabs and blanks or use runs of blanks (aligned
columns, trailing blanks) are normalised once (a few vectorised passes over the bytes,
:func:`single_blanks`) and parsed again. When parsing still fails, or when a value is
invalid after parsing (NaN score, ...), a line-by-line *diagnostic* pass over the original
file finds the first offending line so that the error names file, line number and text.
The diagnostic pass is the specification of validity; the fast path only accelerates the
common case.

:func:`read_fields` does the same without pyarrow: the native engine's fast pass (the TREC
readers', ``rust/src/read/table.rs``) splits every line and converts the fields asked for
(text as :class:`~irscale.core.strings.Strings`, numbers as numpy arrays), and a file that
does not fit is diagnosed here. The readers move to it from :func:`parse_columns`, whose
pyarrow is imported only when it is called.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np

from .. import _engine
from ..core.strings import Strings
from ..errors import EmptyInputError, InputFormatError
from ..parallel import threads as parallel_threads
from ..parallel.threads import in_background, map_threads
from .files import (
    check_readable,
    check_utf8,
    display_name,
    is_stdio,
    raise_nul_line,
    read_file,
    read_input,
    regular_file_kind,
)
from .native_files import raise_read_error
from .spool import SpooledInput, spool_input

if TYPE_CHECKING:
    import pyarrow as pa

PathLike = str | os.PathLike

# ASCII digits only: str patterns' \d also matches other scripts' digits ('١'), which
# pyarrow (and trec_eval's atof/atol) do not read as numbers
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
#: The same in RE2, for pyarrow: the sign and digits kept (a ``+`` dropped, which the cast
#: refuses), the decimal point and zeros dropped.
_INTEGER_FIELD_RE2 = (r"^(?:\+|(-))?([0-9]+)(?:\.0*)?$", r"\1\2")

#: A field check used by the diagnostic pass: returns an error message or ``None``.
FieldCheck = Callable[[str], "str | None"]


def is_float(text: str) -> bool:
    """True when ``text`` is a decimal floating-point literal (as pyarrow parses it)."""
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
    if not INT64_MIN <= int(text.partition(".")[0]) <= INT64_MAX:
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


def _line_text(data: bytes, start: int, stop: int) -> str:
    """The text of the line ``data[start:stop]`` (its ``\\n``, if any, included), as
    :func:`iter_lines` gives it."""
    return data[start:stop].rstrip(b"\n").rstrip(b"\r").decode("utf-8", errors="replace")


#: Bytes of a file that pyarrow's CSV reader parses at once (a block per thread in flight):
#: its working memory, fresh pages each time, grows with them. 8 MiB faulted fewer pages
#: than 16 MiB at equal or lower wall times, and 4 MiB raised the peaks of tied runs
#: (docs/benchmarks.md, "Timings moved out of the source").
_BLOCK_BYTES = 1 << 23

#: Parsed tables at least this large hand the CSV reader's memory back when done (the
#: reader's working memory is 2-4 times the table: a 1M-line run, 41 MB parsed, peaked at
#: 275 MB before it was handed back, 261 after; 100 runs of 2 MB keep theirs, see below).
_RELEASE_BYTES = 16 << 20


def parse_columns(
    source: PathLike | io.IOBase | bytes,
    field_names: Sequence[str],
    column_types: dict[str, pa.DataType],
    include: Sequence[str],
    checks: dict[int, FieldCheck],
    what: str,
) -> tuple[pa.Table, Callable[[], bytes]]:
    """Parse a whitespace-separated file into a pyarrow table of the ``include`` columns.

    Returns the table and a function giving the raw bytes (for later diagnostics). Raises
    :class:`EmptyInputError` when the input holds no non-blank line and
    :class:`InputFormatError` (with line number) when a line is malformed.
    """
    import pyarrow as pa  # imported here: read_fields needs no pyarrow
    import pyarrow.csv as pcsv

    from ..core._columnar.arrow import owned_reader

    name = source_name(source)
    read_options = pcsv.ReadOptions(column_names=list(field_names), block_size=_BLOCK_BYTES,
                                    use_threads=True)
    parse_options = pcsv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False)
    tabs = pcsv.ParseOptions(delimiter="\t", quote_char=False, escape_char=False)

    # standard input, a FIFO, a pipe or a device can be read once only: their bytes are
    # moved to a file that can be read again (spool_input) where the system allows
    kind, spooled, path = None, None, None
    if isinstance(source, (str, os.PathLike)):
        kind = None if is_stdio(source) else regular_file_kind(source)
        if kind is None and (spooled := spool_input(source)) is not None:
            kind = regular_file_kind(spooled.path)
        path = spooled.path if spooled is not None else source
    cache: dict[str, bytes] = {}

    def raw() -> bytes:  # the spooled file stays open while this function lives
        if "data" not in cache:
            cache["data"] = (read_bytes(source) if spooled is None
                             else read_input(spooled.path, name=name))
        return cache["data"]

    plain_file = kind == "plain"
    integers = [c for c in include
                if c in column_types and pa.types.is_integer(column_types[c])]
    # every field read: those not asked for as bytes (no UTF-8 check), integers as text
    every_field = pcsv.ConvertOptions(
        column_types={**column_types, **{c: pa.binary() for c in field_names
                                         if c not in include},
                      **{c: pa.string() for c in integers}},
        null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False)
    # only the fields asked for (on a 10M-line run the three fields not read cost as much to
    # convert as the rest of the parse, and 100-200 MB)
    asked_fields = pcsv.ConvertOptions(
        column_types={c: t for c, t in every_field.column_types.items() if c in include},
        include_columns=list(include),
        null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False)

    def typed(buffer: pa.NativeFile | pa.Buffer | bytes, delimited=parse_options,
              clean: bool = False) -> pa.Table:
        """The table of a file whose fields each lie between two single separators.

        Two separators in a row make an empty field, which whitespace splitting (hence
        trec_eval) does not count: a line ``1 Q0  1 2.5 r`` has five fields, not an empty
        docno. Nor may a text field hold the other separator: a blank with tabs as
        separators, a tab with blanks (``1<tab>Q0 d1 x 1 2.5 r`` splits into seven fields,
        not a topic ``1<tab>Q0``). Such files raise ``ArrowInvalid`` here and are read the
        whitespace way. ``clean``: the bytes are known to hold no such field
        (:func:`_separated_cleanly`), so the fields not asked for need not be converted to
        be checked (the reader still counts every line's fields).
        """
        if isinstance(buffer, bytes):
            buffer = owned_reader(buffer)
        elif isinstance(buffer, pa.Buffer):
            buffer = pa.BufferReader(buffer)
        parsed = pcsv.read_csv(buffer, read_options=read_options, parse_options=delimited,
                               convert_options=asked_fields if clean else every_field)
        other = b" " if delimited is tabs else b"\t"
        if not clean and any(
                (pa.types.is_string(column.type) or pa.types.is_binary(column.type))
                and (_holds_empty(column) or _holds_byte(column, other))
                for column in parsed.columns):
            raise pa.ArrowInvalid("an empty field, or a field holding a blank or a tab")
        parsed = parsed.select(list(include))
        # integer columns are read as text and cast here: pyarrow reads 0x10 as 16, C's
        # atol (hence trec_eval) reads 0, and neither is meant; a hexadecimal field is the
        # only one of an integer column holding an x (one scan of the characters)
        if any(_holds_byte(parsed[c], b"xX") for c in integers):
            diagnose(raw(), name, field_names, checks, what)
        for column in integers:
            index = parsed.column_names.index(column)
            parsed = parsed.set_column(index, column,
                                       _integers(parsed[column], column_types[column]))
        return parsed

    try:
        first_line = _first_line(raw() if path is None or not kind else path,
                                 gzipped=kind == "gzip")
    except zlib.error:  # corrupt gzip data: read_input names the fault
        first_line = _first_line(raw())
    try:
        # a plain read, not a memory map: mapped pages would count in the process's resident
        # memory for the whole parse (the file's size on top of the parsed columns)
        separator = b"\t" if b"\t" in first_line else b" "
        delimited = tabs if separator == b"\t" else parse_options
        if plain_file:
            def parse_file(clean: bool) -> pa.Table:
                with pa.OSFile(str(path)) as handle:
                    return typed(handle, delimited, clean)

            table = _parse_checking_aside(str(path), separator, parse_file)
        else:
            table = None
            if kind == "gzip":
                # decompressed as it is parsed (pyarrow's reader reads ahead in another
                # thread): no copy of the whole text (10M lines gzipped: 4.5 s and 1.5 GB
                # read whole, 2.3 s and 0.8 GB so), every field converted and checked;
                # corrupt or truncated data: read_input says what is wrong
                with contextlib.suppress(OSError), \
                        pa.input_stream(str(path), compression="gzip") as stream:
                    table = typed(stream, delimited)
            if table is None:
                table = typed(raw(), delimited, _separated_cleanly(raw(), separator))
    except pa.ArrowInvalid as first_error:
        data = raw()
        table = None
        if b"\t" in data:
            # one tab between fields (TSV files): a byte for a byte, the same fields
            with contextlib.suppress(pa.ArrowInvalid):
                table = typed(data.replace(b"\t", b" "))
        if table is None:
            normalised = single_blanks(data)
            if plain_file:  # a diagnosis reads the file again: its bytes are not kept
                del data
                cache.clear()
            try:
                table = typed(normalised, parse_options,
                              _separated_cleanly(normalised, b" "))
            except pa.ArrowInvalid:
                data = raw()
                if not data.strip():
                    raise EmptyInputError(f"empty {what}: no data line",
                                          source=name) from None
                diagnose(data, name, field_names, checks, what)
                raise InputFormatError(f"cannot parse {what}: {first_error}",
                                       source=name) from None
    if table.num_rows == 0:
        raise EmptyInputError(f"empty {what}: no data line", source=name)
    if any(_holds_byte(table[c], b"\x00") for c in table.column_names
           if pa.types.is_string(table[c].type)):
        raise_nul_line(raw(), name)
    # the CSV reader's working memory is free now: hand it back to the operating system
    # rather than let the allocator keep it (a few hundred MB on a 10M-line run); after a
    # small file the allocator keeps it for the next one (handing back and faulting in a
    # few MB per file doubled the page faults of reading 100 run files of 2 MB)
    if table.nbytes >= _RELEASE_BYTES:
        pa.default_memory_pool().release_unused()
    return table, raw


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
                                                  decompress)
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


#: Bytes normalised at once by :func:`single_blanks` (whole lines): the masks of a piece
#: stay in the cache and are reused for the next (54 MB of aligned columns in 8 MiB pieces,
#: with fresh temporaries each: 0.12-0.14 s in one thread; in 1 MiB pieces, 0.08 s).
_PIECE = 1 << 20
_BLANK, _TAB, _LF, _CR = 32, 9, 10, 13


def single_blanks(data: bytes) -> pa.Buffer:
    """``data`` with every run of blanks and tabs made one blank, and those at the start or
    the end of a line (before ``\\n``, ``\\r\\n`` or a last ``\\r``, or at the end) removed:
    the fields of whitespace splitting (trec_eval's), one blank between two.

    Vectorised over the bytes, whole lines at a time (:data:`_PIECE` bytes), a share of the
    lines per usable core, each share written where its bytes began and then moved up
    behind the share before it. The result is in memory Arrow allocated, as its threaded
    readers need (:func:`~irscale.core._columnar.arrow.owned_reader`).
    """
    import pyarrow as pa

    tabs = b"\t" in data
    out = pa.allocate_buffer(len(data))  # at most as long: each share written in its place
    written = np.frombuffer(out, np.uint8)
    shares = _line_shares(data, parallel_threads.usable_cores())
    sizes = map_threads(lambda share: _single_blanks_into(written, data, *share, tabs),
                        shares)
    size = 0
    for (start, _), share_size in zip(shares, sizes, strict=True):
        if start > size:  # numpy copies overlapping slices as if through a temporary
            written[size: size + share_size] = written[start: start + share_size]
        size += share_size
    return out.slice(0, size)


def _line_shares(data: bytes, cores: int) -> list[tuple[int, int]]:
    """``data`` cut after newlines into ``cores`` ranges of about equal length, fewer when
    a share would hold less than two :data:`_PIECE`: ``(start, stop)`` each, in order."""
    cores = max(1, min(cores, len(data) // (2 * _PIECE)))
    shares, start = [], 0
    for k in range(1, cores):
        stop = data.find(b"\n", max(start, len(data) * k // cores)) + 1
        if stop > start:  # 0: no newline left, the last share takes the rest
            shares.append((start, stop))
            start = stop
    return [*shares, (start, len(data))]


def _single_blanks_into(written: np.ndarray, data: bytes, start: int, stop: int,
                        tabs: bool) -> int:
    """:func:`single_blanks` of ``data[start:stop]`` (whole lines), :data:`_PIECE` bytes at
    a time, written into ``written`` from ``start`` on (never beyond ``stop``: the
    normalisation only shrinks). Returns the number of bytes written."""
    masks = np.empty((2, min(stop - start, 2 * _PIECE)), dtype=bool)  # reused by the pieces
    size = start
    for first, end in _line_pieces(data, start, stop, _PIECE):  # runs never span two
        if end - first > masks.shape[1]:  # a piece with a very long line
            masks = np.empty((2, end - first), dtype=bool)
        piece = _single_blanks_of(np.frombuffer(data, np.uint8, end - first, first), tabs,
                                  data.find(b"\r", first, end) >= 0, masks)
        target = written[size: size + len(piece)]
        target[:] = piece
        if tabs:  # a run's first byte is the blank kept for it
            np.putmask(target, target == _TAB, _BLANK)
        size += len(piece)
    return size - start


def _single_blanks_of(chars: np.ndarray, tabs: bool, returns: bool,
                      masks: np.ndarray) -> np.ndarray:
    """:func:`single_blanks` of whole lines (the last one may lack its newline), tabs left
    as they are where a run of blanks and tabs keeps its first byte; ``tabs``, ``returns``:
    whether they may hold a tab, a ``\\r``; ``masks``: two rows of booleans at least as long,
    for the work. Two rules, each a few byte comparisons and one compaction: a blank after
    a blank or at a line's start goes (a run keeps its first byte, none is left at a line's
    start); then a blank at a line's end goes."""
    from ..core._columnar.arrow import compress

    n = len(chars)
    if n == 0:
        return chars
    blank, drop = masks[0, :n], masks[1, :n]
    _blanks(chars, tabs, blank, drop)
    drop[0] = True
    np.equal(chars[:-1], _LF, out=drop[1:])
    np.logical_or(drop[1:], blank[:-1], out=drop[1:])
    np.logical_and(drop, blank, out=drop)
    if drop.any():
        chars = compress(chars, np.logical_not(drop, out=drop))
        n = len(chars)
        if n == 0:
            return chars
        blank, drop = masks[0, :n], masks[1, :n]
        _blanks(chars, tabs, blank, drop)
    ends = drop  # before \n, \r\n or a last \r, or at the end
    ends[-1] = True
    np.equal(chars[1:], _LF, out=ends[:-1])
    if returns and n >= 2:
        then = np.empty(n - 1, dtype=bool)  # two bytes on: \n or the end
        then[-1] = True
        np.equal(chars[2:], _LF, out=then[:-1])
        then &= chars[1:] == _CR
        ends[:-1] |= then
    np.logical_and(ends, blank, out=ends)
    return compress(chars, np.logical_not(ends, out=ends)) if ends.any() else chars


def _blanks(chars: np.ndarray, tabs: bool, blank: np.ndarray, work: np.ndarray) -> None:
    """``blank[:] = chars`` is a blank, or a tab where ``tabs``; ``work``: a mask as long."""
    np.equal(chars, _BLANK, out=blank)
    if tabs:
        np.logical_or(blank, np.equal(chars, _TAB, out=work), out=blank)


def _first_line(source: PathLike | bytes, gzipped: bool = False) -> bytes:
    """The first line of a file (``gzipped``: of the text its first 64 KiB decompress to)
    or of bytes, at most 64 KiB of it. ``zlib.error`` for gzip data whose start is not."""
    head = source[:1 << 16] if isinstance(source, bytes) else read_file(source, 1 << 16)
    if gzipped:
        head = zlib.decompressobj(wbits=31).decompress(head, 1 << 16)
    return head.split(b"\n", 1)[0]


#: Bytes (or offsets) compared at once by the scans below: their temporaries stay in the
#: cache and are reused, where one temporary the size of a column would be fresh memory
#: (5M qrels lines: 30 -> 15 ms for the scans of a parse, in a fresh process). Pieces of
#: 1 MiB faulted their temporaries in again and again (judged case: 36,000 more page faults).
_SCAN = 1 << 22
#: Bytes of a file checked at once by :func:`_separation_verdicts`, beside the parse: its
#: buffers are made once (3 MB on top of the parser's peak; as fast as 4 MiB pieces, a
#: 350 MB run in 61-65 ms either way, warm).
_CHECK_PIECE = 1 << 20


def _separated_cleanly(source: PathLike | bytes | pa.Buffer, separator: bytes) -> bool:
    """True when no line of a file (or of bytes) can hold an empty field or one holding the
    other separator (a tab when ``separator`` is a blank, a blank when it is a tab).

    Sufficient conditions, checked on the bytes :data:`_CHECK_PIECE` at a time (a 350 MB run in
    about 0.1 s): the input holds no byte of the other separator; it neither starts nor ends
    with ``separator``; and no ``separator`` is next to another byte <= 32 (a separator, a
    line end, a control byte). An empty field lies between two separators or between a
    separator and a line's start or end, so a file that passes holds none. False does not
    mean that it does: the caller then converts every field and checks them."""
    return all(_separation_verdicts(source, separator))


def _separation_verdicts(source: PathLike | bytes | pa.Buffer, separator: bytes
                         ) -> Iterator[bool]:
    """:func:`_separated_cleanly` piece by piece: ``True`` after each piece found clean,
    ``False`` (and no more) at the first piece that is not, and last the verdict on the
    input's end (``True`` for empty input)."""
    sep, other = separator[0], (b" " if separator == b"\t" else b"\t")
    low = np.empty(_CHECK_PIECE, bool)
    pairs = np.empty(_CHECK_PIECE, bool)
    previous = -1  # the last byte of the piece before
    for data, start, size in _pieces(source):
        chars = np.frombuffer(data, np.uint8, size, start)
        clean = (data.find(other, start, start + size) < 0
                 and not (previous < 0 and chars[0] == sep)
                 and not (0 <= previous <= 32 and chars[0] <= 32
                          and sep in (previous, chars[0])))
        if clean:
            np.less_equal(chars, 32, out=low[:size])
            both = np.logical_and(low[:size - 1], low[1:size], out=pairs[:size - 1])
            if both.any():
                first = np.flatnonzero(both)
                clean = not ((chars[first] == sep) | (chars[first + 1] == sep)).any()
        yield clean
        if not clean:
            return
        previous = int(chars[-1])
    yield previous != sep


def _parse_checking_aside(path: PathLike, separator: bytes,
                          parse: Callable[[bool], pa.Table]) -> pa.Table:
    """``parse(clean)`` of a plain file, ``clean`` as :func:`_separated_cleanly` finds it.

    The first piece of the file is checked first. Where the file has more pieces and the
    process two usable cores or more, the file is then parsed as clean (the usual case)
    while the rest of its bytes are checked in another thread (on a 350 MB run the check
    took 0.1-0.25 s of the one core before the parse); a file found not clean after all is
    parsed again, every field converted. An error of the parse as clean is raised as it
    is: converting every field of the same lines fails too."""
    verdicts = _separation_verdicts(path, separator)
    if not next(verdicts):
        return parse(False)
    if parallel_threads.usable_cores() < 2 or os.path.getsize(path) <= _CHECK_PIECE:
        return parse(all(verdicts))
    # the parse stays in the calling thread: handed to map_threads' helper it was slower,
    # in system time (docs/benchmarks.md, "Timings moved out of the source")
    rest_clean = in_background(lambda: all(verdicts))
    try:
        table = parse(True)
    except BaseException:  # raised as it is (ArrowInvalid: parsing every field fails too)
        with contextlib.suppress(BaseException):
            rest_clean()  # the check stops reading the file before the error goes on
        raise
    if rest_clean():
        return table
    del table  # parsed with fields that may be empty: not kept while parsing again
    return parse(False)


def _pieces(source: PathLike | bytes | pa.Buffer
            ) -> Iterator[tuple[bytes | bytearray, int, int]]:
    """``(data, start, size)``: the bytes of a file, of bytes or of an Arrow buffer,
    :data:`_CHECK_PIECE` at a time (a file's pieces are read into one buffer, reused for the next;
    an Arrow buffer's are copied, as it has no ``find``)."""
    import pyarrow as pa

    if isinstance(source, (bytes, pa.Buffer)):
        for start in range(0, len(source), _CHECK_PIECE):
            size = min(_CHECK_PIECE, len(source) - start)
            if isinstance(source, bytes):
                yield source, start, size
            else:
                yield source.slice(start, size).to_pybytes(), 0, size
        return
    buffer = bytearray(_CHECK_PIECE)
    with open(source, "rb", buffering=0) as handle:
        while size := handle.readinto(buffer):
            yield buffer, 0, size


def _holds_empty(column: pa.ChunkedArray) -> bool:
    """True when a string or binary column holds an empty value."""
    from ..core._columnar.arrow import value_offsets

    for chunk in column.chunks:
        offsets = value_offsets(chunk)
        for first in range(0, len(offsets) - 1, _SCAN):
            piece = offsets[first: first + _SCAN + 1]
            if (piece[1:] == piece[:-1]).any():
                return True
    return False


def _holds_byte(column: pa.ChunkedArray, values: bytes) -> bool:
    """True when a string column holds one of the bytes ``values`` (one pass over its
    character buffers)."""
    from ..core._columnar.arrow import value_offsets

    for chunk in column.chunks:
        offsets = value_offsets(chunk)
        first, last = int(offsets[0]), int(offsets[-1])
        if last > first:
            chars = np.frombuffer(chunk.buffers()[2], np.uint8, count=last - first,
                                  offset=first)
            for start in range(0, len(chars), _SCAN):
                piece = chars[start: start + _SCAN]
                if any(bool((piece == byte).any()) for byte in values):
                    return True
    return False


def _integers(column: pa.ChunkedArray, target: pa.DataType) -> pa.ChunkedArray:
    """The integer fields of a text column (:func:`check_int64`'s) as integers of ``target``
    (``ArrowInvalid`` for any other text), the chunks cast side by side on the usable cores
    (5M relevance labels: 6 chunks, about half the time on 2 cores). A chunk holding a sign
    ``+`` or a decimal point, which the cast refuses, goes through one regular expression
    first (5M labels ``1.0``: 0.4 s on one core)."""
    import pyarrow as pa

    from ..core._columnar import arrow_compute as pc


    def cast(chunk: pa.Array) -> pa.Array:
        try:
            return pc.cast(chunk, target)
        except pa.ArrowInvalid:
            return pc.cast(pc.replace_substring_regex(chunk, *_INTEGER_FIELD_RE2), target)

    return pa.chunked_array(map_threads(cast, column.chunks), target)
