"""Per-user files of A/B tests: user lists (:func:`read_users`), ``key value`` pairs
(:func:`read_pairs`, e.g. ``user variant`` as ``irscale online ab assign`` writes) and
per-user metric tables (:func:`read_user_table`, CSV or tab-separated, with a header).

Readers only: the analyses are in :mod:`irscale.online.abtest`, which imports scipy; the
command line reads these files first, so that a malformed one is reported before the
statistics are loaded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .pending import Pending

if TYPE_CHECKING:
    import pandas as pd

#: The key of a table's :class:`RowLines` in its ``attrs``.
LINES = "lines"


class RowLines(dict):
    """The line number and text of every row of a table read from ``source`` (the rows of
    its ``index``, in order). Kept in the ``attrs`` of the table and of every frame cut
    from it: pandas deep-copies ``attrs`` at every step, so this object copies as itself
    (it is never changed), and writes them as JSON with a Parquet file, so it is a dict
    without items (written ``{}``: the lines are for this session's messages only)."""

    def __init__(self, source: str, index: pd.Index, rows: Sequence[tuple[int, str]]) -> None:
        super().__init__()
        self.source = source
        self._index = index
        self._rows = rows

    def __deepcopy__(self, memo: dict[int, Any]) -> RowLines:
        return self

    def where(self, label: Hashable) -> dict[str, Any]:
        """``source``, ``line`` and ``text`` of the row of ``label``, for an error."""
        import pandas as pd

        line, text = self._rows[int(self._index.get_indexer(pd.Index([label]))[0])]
        return {"source": self.source, "line": line, "text": text}


def place(where: dict[str, Any]) -> str:
    """``FILE, line N: 'text'``: a row (:meth:`RowLines.where`'s keywords) named inside a
    message about another file; ``FILE`` alone without a line, and nothing without either."""
    from ..errors import shorten

    if "line" not in where:
        return str(where.get("source", ""))
    return f"{where['source']}, line {where['line']}: {shorten(where['text'])!r}"


def read_users(source: str, *, what: str = "user") -> list[str]:
    """User ids (or other ids, which ``what`` names in messages), one per line
    (surrounding blanks removed); a blank line, an id holding a blank or a tab (the ``user
    variant`` and ``session user`` files that ``ab assign`` writes and ``ab measures``
    reads split their lines there) or an id listed twice is an error naming the line."""
    from ..errors import DuplicateError, EmptyInputError, InputFormatError
    from .files import read_lines

    users: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(read_lines(source), 1):
        user = line.strip()
        if not user:
            raise InputFormatError(f"a blank line (one {what} id per line)", source=source,
                                   line=number)
        if len(user.split()) > 1:
            raise InputFormatError(f"a {what} id holds a blank or a tab (one {what} id per "
                                   "line; 'user variant' files are split there)",
                                   source=source, line=number, text=line)
        if user in seen:
            raise DuplicateError(f"{what} listed twice (first on line {seen[user]})",
                                 source=source, line=number, text=line)
        seen[user] = number
        users.append(user)
    if not users:
        raise EmptyInputError(f"no {what}", source=source)
    return users


def read_pairs(source: str, key: str, value: str) -> pd.Series:
    """A two-column file, ``key value`` per line (blanks or a tab between; e.g. ``session
    user``, or ``user variant`` as ``irscale online ab assign`` writes): a Series of
    values indexed by key. A line without two fields or a key given twice is an error
    naming the line."""
    return check_pairs(source, key, value).build()


def check_pairs(source: str, key: str, value: str) -> Pending[pd.Series]:
    """The lines of a ``key value`` file checked (:func:`read_pairs`), its Series built
    later (:mod:`irscale.io.pending`)."""
    found, _ = _pairs(source, key, value)

    def build() -> pd.Series:
        import pandas as pd

        series = pd.Series(found, name=value).rename_axis(key)
        series.attrs["source"] = source
        return series

    return Pending(source, build)


def _pairs(source: str, key: str, value: str
           ) -> tuple[dict[str, str], dict[str, tuple[int, str]]]:
    """The ``key value`` lines of :func:`read_pairs`: the value of each key, and its line
    (number and text, for a later error: the file is read once)."""
    from ..errors import DuplicateError, EmptyInputError, InputFormatError
    from .files import read_lines

    found: dict[str, str] = {}
    lines: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(read_lines(source), 1):
        fields = line.split()
        if len(fields) != 2:
            raise InputFormatError(f"expected 2 fields ({key} {value}), got {len(fields)}",
                                   source=source, line=number, text=line)
        if fields[0] in found:
            raise DuplicateError(f"{key} {fields[0]!r} given twice (first on line "
                                 f"{lines[fields[0]][0]})", source=source, line=number,
                                 text=line)
        found[fields[0]], lines[fields[0]] = fields[1], (number, line)
    if not found:
        raise EmptyInputError(f"no '{key} {value}' line", source=source)
    return found, lines


def read_session_users(source: str) -> pd.DataFrame:
    """``session user`` or ``session user time`` lines (blanks or tabs between; every line
    with the same number of fields): the user of every session (page shown) and, with the
    third field, the time it was shown (seconds, any finite number: an epoch or not). A
    frame indexed by session with a ``user`` column and, given times, a ``time`` column.
    Errors name the file, the line and its text: a line of another field count, a time
    that is not a finite number, a session given twice, no line."""
    return check_session_users(source).build()


def check_session_users(source: str) -> Pending[pd.DataFrame]:
    """The lines of a ``session user [time]`` file checked (:func:`read_session_users`),
    its frame built later (:mod:`irscale.io.pending`)."""
    from ..errors import DuplicateError, EmptyInputError, InputFormatError
    from .files import read_lines

    sessions: list[str] = []
    users: list[str] = []
    times: list[float] = []
    lines: dict[str, int] = {}
    width = 0
    for number, line in enumerate(read_lines(source), 1):
        fields = line.split()
        if not width and fields:
            width = len(fields)
        if len(fields) not in (2, 3) or len(fields) != width:
            expected = ("2 fields (session user) or 3 (session user time)" if width not in
                        (2, 3) else f"{width} fields, as the first line")
            raise InputFormatError(f"expected {expected}, got {len(fields)}", source=source,
                                   line=number, text=line)
        if fields[0] in lines:
            raise DuplicateError(f"session {fields[0]!r} given twice (first on line "
                                 f"{lines[fields[0]]})", source=source, line=number,
                                 text=line)
        if width == 3:
            time = _number(fields[2])
            if not math.isfinite(time):
                raise InputFormatError("time is not a finite number (the time the page "
                                       "was shown, in seconds)", source=source,
                                       line=number, text=line)
            times.append(time)
        lines[fields[0]] = number
        sessions.append(fields[0])
        users.append(fields[1])
    if not sessions:
        raise EmptyInputError("no 'session user [time]' line", source=source)

    def build() -> pd.DataFrame:
        import numpy as np
        import pandas as pd

        frame = pd.DataFrame({"user": users}, index=pd.Index(sessions, name="session"))
        if width == 3:
            frame["time"] = np.asarray(times, dtype=np.float64)
        frame.attrs["source"] = source
        return frame

    return Pending(source, build)


def _number(text: str) -> float:
    """``text`` as a decimal number; NaN when it is not one (Python's digit separators,
    ``1_000``, are not)."""
    try:
        return math.nan if "_" in text else float(text)
    except ValueError:
        return math.nan


#: The cells ``pd.read_csv`` reads as missing values (its default ``na_values``): a column
#: of numbers may hold them.
MISSING_CELLS = frozenset({"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN",
                           "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN",
                           "None", "n/a", "nan", "null"})
#: The characters of plain decimal numbers (and the newlines that join a column's cells):
#: ``float`` reads a text of these as :func:`irscale.io._text.is_float` does, so a column of
#: them only is checked at C speed (the shortcut of :func:`_check_numbers`).
_DECIMAL_TEXT = re.compile(r"[0-9.eE+\-\n]*")


def _all_decimal(cells: list[str]) -> bool:
    """Whether every cell is empty (missing) or a decimal number (:data:`_DECIMAL_TEXT`)."""
    if not _DECIMAL_TEXT.fullmatch("\n".join(cells)):
        return False
    from collections import deque

    try:
        deque(map(float, filter(None, cells)), maxlen=0)  # every cell read, at C speed
    except ValueError:
        return False
    return True


def _records(text: str, sep: str, width: int, source: str
             ) -> tuple[list[tuple[int, str]], list[list[str]]]:
    """The (line number, text) of every data row of a per-user table, each checked to hold
    ``width`` fields, as the header (blank lines skipped, as pandas skips them), and the
    cells of every column (lists of strings: no container per row for the collector)."""
    import csv
    import io

    from ..errors import InputFormatError

    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=True)
    rows: list[tuple[int, str]] = []
    columns: list[list[str]] = [[] for _ in range(width)]
    previous = 0
    for fields in reader:
        first, previous = previous + 1, reader.line_num
        raw = lines[first - 1].rstrip("\r") if first == previous else \
            "\n".join(line.rstrip("\r") for line in lines[first - 1:previous])
        if first == 1 or not raw.strip():
            continue
        if len(fields) != width:
            raise InputFormatError(f"expected {width} fields, as the header, got "
                                   f"{len(fields)}", source=source, line=first, text=raw)
        rows.append((first, raw))
        for cells, field in zip(columns, fields, strict=True):
            cells.append(field)
    return rows, columns


def _check_numbers(names: Sequence[str], rows: list[tuple[int, str]],
                   columns: list[list[str]], labels: Sequence[str], source: str) -> None:
    """Refuse a column that holds numbers and words (a metric with a typo): its words
    would be read as missing values, or the column as no metric at all. The ``labels``
    columns (the variant) may hold any names; a cell of :data:`MISSING_CELLS` is a missing
    value. Checked on the text, before pandas parses it."""
    from ..errors import InputFormatError
    from ._text import is_float

    for name, cells in zip(names, columns, strict=True):
        if name in labels or _all_decimal(cells):
            continue  # (numbers and empty cells only: the usual metric column)
        given = [row for row, cell in enumerate(cells) if cell not in MISSING_CELLS]
        words = [row for row in given if not is_float(cells[row])]
        if words and len(words) < len(given):
            line, raw = rows[words[0]]
            raise InputFormatError(
                f"column {name!r} holds numbers, and {cells[words[0]]!r} is none (leave the "
                "cell empty for a missing value)", source=source, line=line, text=raw)


def _check_users(rows: list[tuple[int, str]], users: list[str], source: str) -> None:
    """Refuse a user listed twice (the cells of :data:`MISSING_CELLS` are one missing id)."""
    from ..errors import DuplicateError

    distinct = set(users)
    if len(distinct) == len(users) and len(distinct & MISSING_CELLS) <= 1:
        return  # (every id once, and one missing id at most: the loop finds none)
    seen: set[str | None] = set()
    for (line, _), cell in zip(rows, users, strict=True):
        user = None if cell in MISSING_CELLS else cell
        if user in seen:
            raise DuplicateError("user listed twice", source=source, line=line, text=cell)
        seen.add(user)


def read_user_table(source: str, *, labels: Sequence[str] = ("variant",)) -> pd.DataFrame:
    """A per-user table: CSV, or tab-separated when the header line holds a tab; the
    first line names the columns, every row has a field per column. A column holds
    numbers (an empty cell or ``nan``: missing) or names; only the ``labels`` columns
    (the variant) may mix the two. Errors name the file and line."""
    import io

    from ..errors import EmptyInputError, InputFormatError
    from .files import check_text, read_input

    data = read_input(source)
    check_text(data, source)
    header = data.split(b"\n", 1)[0]
    if not header.strip():
        raise EmptyInputError("no header line (the first line names the columns)",
                              source=source)
    sep = "\t" if b"\t" in header else ","
    names = [n.strip() for n in header.decode("utf-8-sig").rstrip("\r").split(sep)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice or "" in names:
        raise InputFormatError(f"column names must be distinct and non-empty, got {names}",
                               source=source, line=1)
    unchecked = [*labels, "user"]
    plain = _plain_rows(data, sep, [name not in unchecked for name in names],
                        names.index("user") if "user" in names else None)
    rows: Sequence[tuple[int, str]]
    if plain is None:
        rows = _checked_rows(data, sep, names, unchecked, source)
    else:
        rows = plain
    if not rows:
        raise EmptyInputError("no row under the header", source=source)
    import pandas as pd

    from .csv_floats import EXACT_FLOATS

    try:
        table = pd.read_csv(io.BytesIO(data), sep=sep, dtype={"user": str},
                            skipinitialspace=True, **EXACT_FLOATS)
    except pd.errors.ParserError as error:
        raise InputFormatError(f"not a table: {error}", source=source) from None
    if plain is not None:
        _check_parsed(table, data, sep, names, unchecked, source, plain.distinct)
    if "user" in table.columns:
        table = table.set_index("user")
    table.attrs["source"] = source
    table.attrs[LINES] = RowLines(source, table.index, rows)
    return table


def _checked_rows(data: bytes, sep: str, names: Sequence[str], unchecked: Sequence[str],
                  source: str) -> list[tuple[int, str]]:
    """The full check of a table's text (:func:`_records`, :func:`_check_numbers`,
    :func:`_check_users`): the (line, text) of its rows."""
    rows, columns = _records(data.decode("utf-8"), sep, len(names), source)
    if rows:
        _check_numbers(names, rows, columns, unchecked, source)
        if "user" in names:
            _check_users(rows, columns[names.index("user")], source)
    return rows


class _PlainRows(Sequence[tuple[int, str]]):
    """The (line, text) of every row of a table of one row per line (none blank): row i is
    line i + 2, after the header, found by the offsets of the lines (no list of texts).
    ``distinct``: the quick check found its users distinct (:func:`_plain_rows`)."""

    def __init__(self, data: bytes, starts: Any, ends: Any, distinct: bool = False) -> None:
        self._data, self._starts, self._ends = data, starts, ends
        self.distinct = distinct

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, row: Any) -> Any:
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(len(self)))]
        start, end = int(self._starts[row]), int(self._ends[row])
        return row + 2 if row >= 0 else len(self) + row + 2, \
            self._data[start:end].decode("utf-8")


def _plain_rows(data: bytes, sep: str, numeric: Sequence[bool],
                user: int | None = None) -> _PlainRows | None:
    """The quick check of a table's text, one pass of the native engine over its bytes
    (``irscale._engine.plain_table``): every line under the header holds ``len(numeric)``
    fields (no quote, carriage return or blank line), and every byte of a ``numeric``
    column is a digit or one of ``.eE+-`` (a blank, which pandas and the full check read
    differently around a number, leaves the table to the full check). Its rows
    (:class:`_PlainRows`) when it holds, with whether the cells of column ``user`` are
    distinct and none starts with a blank (pandas strips those); None where the full check
    must decide (and name the line): a table that is not that plain, a malformed one, a
    number column that holds another character (a word, or a missing value written
    ``nan``, ``NA`` ...). A cell of those bytes that is no number (``1.2.3``) is found in
    the parsed table (:func:`_check_parsed`)."""
    from .. import _engine

    body_at = data.find(b"\n") + 1
    if not 0 < body_at < len(data):
        return None
    found = _engine.plain_table(data, body_at, ord(sep), list(numeric), user)
    if found is None:
        return None
    starts, ends, distinct = found
    return _PlainRows(data, starts, ends, distinct)


def _check_parsed(table: pd.DataFrame, data: bytes, sep: str, names: Sequence[str],
                  unchecked: Sequence[str], source: str, distinct: bool = False) -> None:
    """The checks the quick one (:func:`_plain_rows`) left to the parsed table: a number
    column pandas read as text (a cell of number characters that is no number), and a
    user listed twice (pandas' hashing of the column) unless the quick check found the
    users ``distinct`` and pandas read none as missing (``NA``, ``nan`` ...: equal
    there). The full check names the line."""
    import pandas as pd

    users = table["user"] if "user" in table.columns else None
    if any(name not in unchecked and not pd.api.types.is_numeric_dtype(table[name])
           for name in table.columns) or (
               users is not None and not (distinct and not users.hasnans)
               and not users.is_unique):
        _checked_rows(data, sep, names, unchecked, source)


def read_satisfaction_labels(source: str) -> pd.Series:
    """``session label`` lines (label 1: satisfied, 0: not): a Series of ints indexed by
    session; a label other than 0 or 1 is an error naming the line."""
    return check_satisfaction_labels(source).build()


def check_satisfaction_labels(source: str) -> Pending[pd.Series]:
    """The lines of a ``session label`` file checked (:func:`read_satisfaction_labels`),
    its Series built later (:mod:`irscale.io.pending`)."""
    from ..errors import InputFormatError

    found, lines = _pairs(source, "session", "label")
    wrong = [session for session, label in found.items() if label not in ("0", "1")]
    if wrong:
        number, text = lines[wrong[0]]
        raise InputFormatError("a label is 0 (not satisfied) or 1 (satisfied)",
                               source=source, line=number, text=text)

    def build() -> pd.Series:
        import pandas as pd

        series = pd.Series({session: int(label) for session, label in found.items()},
                           name="label", dtype="int64").rename_axis("session")
        series.attrs["source"] = source
        series.attrs[LINES] = RowLines(source, series.index, list(lines.values()))
        return series

    return Pending(source, build)
