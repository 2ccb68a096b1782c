"""Reader of score-matrix CSV files (``ScoreMatrix.read_csv``): strict, line-numbered.

A score CSV has a header of column names, then one row per topic and one column per
system, optionally a column of topic ids. pandas guesses where this format needs a clear
answer (it renames a second column ``a`` to ``a.1``, reads a header-less file's first row
as names, takes an index column of topic ids for a system), so the file is parsed here
with the standard :mod:`csv` module, keeping the line number of every row for messages.

What is refused, and the messages, are listed in :meth:`ScoreMatrix.read_csv`. Values are
parsed row by row with ``float`` (fast path) and checked cell by cell only when a row
holds something ``float`` would accept but a score file should not (missing values,
infinities, ``1_000``, non-ASCII digits), so that every error names its cell.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import os
import re
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..errors import EmptyInputError, InputError, InputFormatError
from .files import check_text, read_input

#: Column names taken as the topic column when none is named (compared in lower case).
TOPIC_COLUMN_NAMES: tuple[str, ...] = ("topic", "topic_id", "topicid", "qid", "query_id",
                                       "queryid", "query")
#: Cell texts read as a missing score (compared in lower case, surrounding spaces ignored;
#: ``undefined``: what irscale's own tables write for an undefined value).
MISSING: frozenset[str] = frozenset({"", "na", "nan", "-nan", "n/a", "null", "none",
                                     "undefined"})

# ASCII digits only: a str pattern's \d also matches other scripts' digits ('١')
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d+\Z", re.ASCII)
_INFINITY = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})


@dataclass(frozen=True)
class ScoreTable:
    """What a score CSV holds: values (topics × systems, NaN = missing) and labels."""

    values: np.ndarray
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    measure: str
    source: str
    #: The (line, text) of every topic's row (a score CSV; None for long results, whose
    #: values have a line each).
    rows: tuple[tuple[int, str], ...] | None = None


@dataclass(frozen=True)
class _Row:
    line: int
    fields: list[str]
    text: str


def _source_and_measure(path: object) -> tuple[str, str]:
    if isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if isinstance(text, bytes):
            text = os.fsdecode(text)
        if text == "-":
            return "<stdin>", "score"
        base = os.path.basename(text)
        if base.lower().endswith(".gz"):
            base = base[:-3]
        return text, os.path.splitext(base)[0] or "score"
    name = getattr(path, "name", None)
    return (str(name), "score") if isinstance(name, str) else ("<bytes>", "score")


def _decode(data: bytes, source: str) -> str:
    """The text of a score file, checked by the rule of every text input
    (:func:`~irscale.io.files.check_text`), without its byte order mark."""
    check_text(data, source)
    return data.decode("utf-8-sig")


def _records(text: str, source: str) -> list[_Row]:
    """The non-blank CSV records of ``text`` with their (first) line number and text."""
    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text), strict=True)  # lines end at "\n", as `lines`
    rows: list[_Row] = []
    previous = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return rows
        except csv.Error as error:
            line = reader.line_num
            raise InputFormatError(f"malformed CSV ({error})", source=source, line=line,
                                   text=lines[line - 1].rstrip("\r") if line <= len(lines)
                                   else "") from None
        first, previous = previous + 1, reader.line_num
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue  # a blank line holds no data
        raw = "\n".join(line.rstrip("\r") for line in lines[first - 1: previous])
        rows.append(_Row(first, fields, raw))


def _is_number(cell: str) -> bool:
    low = cell.strip().lower()
    return bool(_NUMBER.match(low)) or low in _INFINITY or low in ("nan", "-nan")


#: Separators of other tables, which a comma-separated reader sees as one column.
_OTHER_SEPARATORS = {";": "semicolons", "\t": "tabs", "|": "bars"}


def _header(row: _Row, source: str) -> list[str]:
    names = [f.strip() for f in row.fields]
    if len(names) == 1:  # one column only: a table separated by something else?
        for mark, what in _OTHER_SEPARATORS.items():
            if mark in row.text:
                raise InputFormatError(
                    f"the header is one column holding {what}: a score file is comma-"
                    f"separated (one column per system); write it with commas",
                    source=source, line=row.line, text=row.text)
    if all(_is_number(n) for n in names):
        raise InputFormatError(
            "the first line holds numbers, not column names: the file has no header; add a "
            "first line naming the systems (and the topic column, if any)",
            source=source, line=row.line, text=row.text)
    for index, name in enumerate(names):
        if not name:
            hint = (" (an index column, as pandas writes? name it, e.g. 'topic', to read it "
                    "as the topic ids, or remove it)" if index == 0 else "")
            raise InputFormatError(f"column {index + 1} has no name in the header{hint}",
                                   source=source, line=row.line, text=row.text)
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in seen:
            raise InputFormatError(
                f"duplicate column name {name!r} (columns {seen[name] + 1} and {index + 1}): "
                "every system needs its own name", source=source, line=row.line,
                text=row.text)
        seen[name] = index
    return names


def _topic_column(names: list[str], topic_column: str | bool | None, source: str,
                  row: _Row) -> int | None:
    """Index of the topic column, or None for row numbers (see ``read_csv``)."""
    looks = [i for i, n in enumerate(names) if n.lower() in TOPIC_COLUMN_NAMES]
    if topic_column is False:
        return None
    if isinstance(topic_column, str):
        if topic_column not in names:
            raise InputError(f"no column {topic_column!r} for the topic ids (columns: "
                             f"{names[:8]}{'...' if len(names) > 8 else ''})", source=source)
        chosen = names.index(topic_column)
        others = [names[i] for i in looks if i != chosen]
        if others:
            raise InputFormatError(
                f"column {others[0]!r} looks like topic ids too, but {topic_column!r} is the "
                "topic column: remove it or rename it (it would be read as a system)",
                source=source, line=row.line, text=row.text)
        return chosen
    if topic_column is not None:
        raise InputError(f"topic_column must be a column name, None or False, got "
                         f"{topic_column!r}", source=source)
    if len(looks) > 1:
        raise InputFormatError(
            f"several columns look like topic ids ({[names[i] for i in looks]}): name the "
            "topic column with --topic-column (topic_column=...)",
            source=source, line=row.line, text=row.text)
    if looks:
        name = names[looks[0]]
        warnings.warn(f"{source}: column {name!r} read as the topic ids (name another with "
                      "--topic-column)", stacklevel=4)
        return looks[0]
    return None


def _check_not_ids(names: list[str], rows: list[_Row], source: str) -> None:
    """Refuse a first column of distinct increasing integers beside non-integer scores
    (or beside scores all below them): topic ids about to be read as a system."""
    if len(names) < 2 or len(rows) < 2:
        return
    cells = [r.fields[0].strip() for r in rows]
    if not all(_INTEGER.match(c) for c in cells):
        return
    ids = [int(c) for c in cells]
    if any(b <= a for a, b in itertools.pairwise(ids)) or set(ids) <= {0, 1}:
        return
    rest = [c.strip() for r in rows for c in r.fields[1:]]
    fractional = any(_NUMBER.match(c) and not _INTEGER.match(c) for c in rest)
    numbers = [float(c) for c in rest if _NUMBER.match(c)]
    above = bool(numbers) and min(ids) > max(numbers)
    if fractional or above:
        name = names[0]
        raise InputFormatError(
            f"column {name!r} holds distinct increasing integers ({ids[0]}..{ids[-1]}) that "
            f"look like topic ids, not scores: pass --topic-column {name} "
            f"(topic_column={name!r}) to read them as the topic ids",
            source=source, line=rows[0].line, text=rows[0].text)


def _cell_value(cell: str, system: str, column: int, row: _Row, source: str,
                allow_missing: bool) -> float:
    text = cell.strip()
    low = text.lower()
    if low in MISSING:
        if allow_missing:
            return float("nan")
        what = "an empty cell" if not text else repr(text)
        raise InputFormatError(f"missing score for system {system!r} (column {column + 1}: "
                               f"{what})", source=source, line=row.line, text=row.text)
    if low in _INFINITY:
        raise InputFormatError(f"infinite score for system {system!r} (column {column + 1})",
                               source=source, line=row.line, text=text)
    if not _NUMBER.match(text):
        raise InputFormatError(f"non-numeric score for system {system!r} (column "
                               f"{column + 1})", source=source, line=row.line, text=text)
    value = float(text)
    if not np.isfinite(value):
        raise InputFormatError(f"score for system {system!r} (column {column + 1}) beyond the "
                               "range of 64-bit floats", source=source, line=row.line,
                               text=text)
    return value


def _row_values(row: _Row, columns: list[int], names: list[str], source: str,
                allow_missing: bool) -> list[float]:
    cells = [row.fields[c] for c in columns]
    if row.text.isascii() and "_" not in row.text:
        try:
            values = [float(c) for c in cells]
        except ValueError:
            pass
        else:
            if all(np.isfinite(values)):
                return values
    return [_cell_value(row.fields[c], names[c], c, row, source, allow_missing)
            for c in columns]


def read(path: object, *, topic_column: str | bool | None = None,
         allow_missing: bool = False) -> ScoreTable:
    """Parse a score CSV (see :meth:`irscale.core.ScoreMatrix.read_csv`)."""
    source, measure = _source_and_measure(path)
    return _wide(_rows(path, source), source, measure, topic_column, allow_missing)


def read_tables(path: object, *, topic_column: str | None = None) -> list[ScoreTable]:
    """The score tables of a file: a score CSV (one table, named after the file), or
    irscale's long results (header ``run,topic,measure,value``, as ``irscale eval``,
    ``session`` and ``text`` print them with ``--format csv``): one table per measure, in
    the order the measures first appear.

    In long results every (run, topic, measure) appears once, and every run has a value
    for every topic of the measure (a missing one is an error naming a run and a topic).
    The summary rows (topic ``all``, or ``amean`` in the diversity measures' results as
    ndeval names it: the means irscale prints unless ``-n``) are not topics and are not
    read; ``topic_column`` does not apply.
    """
    source, measure = _source_and_measure(path)
    rows = _rows(path, source)
    if [f.strip().lower() for f in rows[0].fields] != list(LONG_HEADER):
        return [_wide(rows, source, measure, topic_column, False)]
    if topic_column is not None:
        raise InputError(f"--topic-column applies to score CSVs with a topic column, not to "
                         f"long results ({','.join(LONG_HEADER)})", source=source)
    return _long(rows, source)


#: The header of irscale's long results (``--format csv`` of ``eval``, ``session``, ``text``).
LONG_HEADER = ("run", "topic", "measure", "value")

#: The topics of the summary rows of long results: ``all`` (trec_eval's name) and
#: ``amean`` (ndeval's, in the diversity measures' results).
SUMMARY_TOPICS = frozenset({"all", "amean"})


def _long(rows: list[_Row], source: str) -> list[ScoreTable]:
    """One table per measure of long results (see :func:`read_tables`)."""
    header, body = rows[0], rows[1:]
    cells: dict[str, dict[tuple[str, str], float]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for row in body:
        if len(row.fields) != len(LONG_HEADER):
            raise InputFormatError(f"expected {len(LONG_HEADER)} comma-separated fields (run, "
                                   f"topic, measure, value), got {len(row.fields)}",
                                   source=source, line=row.line, text=row.text)
        run, topic, measure = (f.strip() for f in row.fields[:3])
        for name, text in (("run", run), ("topic", topic), ("measure", measure)):
            if not text:
                raise InputFormatError(f"empty {name}", source=source, line=row.line,
                                       text=row.text)
        if topic in SUMMARY_TOPICS:
            continue
        key = (run, topic, measure)
        if key in seen:
            raise InputFormatError(f"run {run!r}, topic {topic!r}, measure {measure!r} appears "
                                   f"twice (lines {seen[key]} and {row.line})", source=source,
                                   line=row.line, text=row.text)
        seen[key] = row.line
        cells.setdefault(measure, {})[run, topic] = _cell_value(
            row.fields[3], run, 3, row, source, False)
    if not cells:
        raise EmptyInputError("the results hold no per-topic row (written without -q?)",
                              source=source, line=header.line, text=header.text)
    tables = []
    for measure, values in cells.items():
        runs = tuple(dict.fromkeys(r for r, _ in values))
        topics = tuple(dict.fromkeys(t for _, t in values))
        for run in runs:
            for topic in topics:
                if (run, topic) not in values:
                    raise InputError(f"run {run!r} has no value of {measure} for topic "
                                     f"{topic!r} (other runs have one)", source=source)
        matrix = np.array([[values[r, t] for r in runs] for t in topics], dtype=np.float64)
        tables.append(ScoreTable(values=matrix, topics=topics, systems=runs, measure=measure,
                                 source=source))
    return tables


#: The header of shard scores (``irscale pool shards --shard-scores``).
SHARD_HEADER = ("topic", "run", "shard", "value")


@dataclass(frozen=True)
class CellLines:
    """Where the row of every (topic, run, level) cell of a long table read from
    ``source`` is: the (line, text) ``rows[index[t, r, k]]``, the axes labelled by
    ``labels``."""

    source: str
    labels: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    index: np.ndarray
    rows: Sequence[tuple[int, str]]

    def where(self, cell: Hashable) -> dict[str, Any]:
        """``source``, ``line`` and ``text`` of the row of ``cell``, a (topic, run, level)
        tuple of labels, for an error (:class:`~irscale.core.scorematrix.RowPlaces`)."""
        labels = cast(tuple[str, str, str], cell)
        at = tuple(axis.index(label) for axis, label in zip(self.labels, labels, strict=True))
        line, text = self.rows[int(self.index[at])]
        return {"source": self.source, "line": line, "text": text}


@dataclass(frozen=True)
class ShardTable:
    """What a shard-score CSV holds: ``values[topic, run, shard]`` (NaN: undefined, an
    empty value in the file), the labels of each axis, in the order they first appear, and
    the line of every cell."""

    values: np.ndarray
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    shards: tuple[str, ...]
    source: str
    lines: CellLines


def read_shard_table(path: object, facet: str = "shard", *,
                     required: str | None = None) -> ShardTable:
    """Parse shard scores: a header ``topic,run,shard,value`` (:data:`SHARD_HEADER`), then
    one row per (topic, run, shard), as ``irscale pool shards --shard-scores`` writes them.
    An empty value (or ``nan``) is an undefined score (a topic with no relevant document
    in the shard), or, given ``required`` (why every cell needs a score: "the G-study
    needs a score in every cell"), an error naming the file, line and text; every (topic,
    run, shard) must appear exactly once (a missing or repeated one is an error naming
    it). ``facet`` names the third column instead of ``shard`` (``variant``,
    ``assessor``: the scores of a G-study's second facet).

    The rows are checked as arrays (:func:`_shard_cells`); the first row refused is then
    named by :func:`_refuse_shard_row`, the check of one row."""
    source, _ = _source_and_measure(path)
    rows = _rows(path, source)
    header, body = rows[0], rows[1:]
    names = (*SHARD_HEADER[:2], facet, SHARD_HEADER[3])
    if [f.strip().lower() for f in header.fields] != list(names):
        written = " (as irscale pool shards --shard-scores writes)" if facet == "shard" else ""
        raise InputFormatError(f"expected the header {','.join(names)}{written}",
                               source=source, line=header.line, text=header.text)
    if not body:
        raise EmptyInputError(f"the {facet} scores have a header but no data row",
                              source=source, line=header.line, text=header.text)
    widths = np.fromiter(map(len, (row.fields for row in body)), np.intp, len(body))
    wrong = np.flatnonzero(widths != len(names))
    checked = body[:int(wrong[0])] if wrong.size else body  # the rows before the first misfit
    labels, codes, numbers = _shard_cells(checked, names, source, required)
    if wrong.size:
        raise InputFormatError(f"expected {len(names)} comma-separated fields "
                               f"(topic, run, {facet}, value), got {len(body[wrong[0]].fields)}",
                               source=source, line=body[wrong[0]].line,
                               text=body[wrong[0]].text)
    shape = tuple(len(axis) for axis in labels)
    index = np.full(math.prod(shape), -1, dtype=np.intp)
    index[np.ravel_multi_index(codes, shape)] = np.arange(len(body))
    if (index < 0).any():
        topic, run, level = (axis[int(at)] for axis, at in
                             zip(labels, np.unravel_index(int(np.argmax(index < 0)), shape),
                                 strict=True))
        hint = " (write an empty value for an undefined score)" if facet == "shard" else ""
        raise InputError(f"no score of run {run!r} for topic {topic!r} in {facet} {level!r}"
                         f"{hint}", source=source)
    return ShardTable(values=numbers[index].reshape(shape), topics=labels[0],
                      systems=labels[1], shards=labels[2], source=source,
                      lines=CellLines(source, labels, index.reshape(shape),
                                      [(row.line, row.text) for row in body]))


def _shard_cells(body: Sequence[_Row], names: tuple[str, ...], source: str,
                 required: str | None
                 ) -> tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
                            tuple[np.ndarray, ...], np.ndarray]:
    """The rows of shard scores (of four fields each) as arrays: the labels of each axis
    in the order they first appear, every row's code on each axis and its value (NaN:
    undefined). The first row refused (an empty label, a repeated cell, a value that is
    not a finite number, an undefined one where ``required``) is named by
    :func:`_refuse_shard_row`."""
    count = len(body)
    cells = np.array([row.fields for row in body], dtype=str).reshape(count, len(names))
    keys = np.char.strip(cells[:, :3])
    labels, codes = [], []
    for axis in range(3):
        found, first, inverse = np.unique(keys[:, axis], return_index=True,
                                          return_inverse=True)
        order = np.argsort(first)
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        labels.append(tuple(found[order].tolist()))
        codes.append(rank[inverse])
    flat = np.ravel_multi_index(codes, tuple(len(axis) for axis in labels))
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    first = first[inverse]
    text = np.char.strip(cells[:, 3])
    missing = np.isin(np.char.lower(text), list(MISSING))
    # float() reads what a score may hold, and also other scripts' digits and 1_000: a
    # value holding a character beyond ASCII or "_" is left NaN, refused below
    points = text.view(np.uint32).reshape(count, text.dtype.itemsize // 4)
    plain = ~missing & ~((points > 127) | (points == ord("_"))).any(axis=1)
    numbers = np.full(count, np.nan)
    try:
        numbers[plain] = text[plain].astype(np.float64)
    except ValueError:  # a value that is no number: left NaN, refused below
        numbers[plain] = [_float_or_nan(value) for value in text[plain].tolist()]
    refused = ((keys == "").any(axis=1) | (first != np.arange(count))
               | (~missing & ~np.isfinite(numbers)))
    if required is not None:
        refused |= missing
    if refused.any():
        at = int(np.argmax(refused))
        _refuse_shard_row(body[at], names, source, required,
                          body[first[at]].line if first[at] != at else None)
    return (labels[0], labels[1], labels[2]), tuple(codes), numbers


def _float_or_nan(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def _refuse_shard_row(row: _Row, names: tuple[str, ...], source: str, required: str | None,
                      repeats: int | None) -> None:
    """Raise the error that names a row of shard scores found wrong, the first of: an
    empty label, a cell that appeared on line ``repeats`` already, an undefined value
    where ``required`` (why), a value that is not a finite number."""
    topic, run, level = (f.strip() for f in row.fields[:3])
    for name, label in zip(names, (topic, run, level), strict=False):
        if not label:
            raise InputFormatError(f"empty {name}", source=source, line=row.line,
                                   text=row.text)
    if repeats is not None:
        raise InputFormatError(f"topic {topic!r}, run {run!r}, {names[2]} {level!r} appears "
                               f"twice (lines {repeats} and {row.line})", source=source,
                               line=row.line, text=row.text)
    if required is not None and row.fields[3].strip().lower() in MISSING:
        raise InputFormatError(f"no score of run {run!r} for topic {topic!r} in {names[2]} "
                               f"{level!r}: {required}", source=source, line=row.line,
                               text=row.text)
    _cell_value(row.fields[3], run, 3, row, source, True)


@dataclass(frozen=True)
class KeyedTable:
    """What a long CSV of keyed values holds: the key columns present (one label per row)
    and the values, in file order."""

    keys: dict[str, tuple[str, ...]]
    values: np.ndarray
    source: str


def _keyed_header(header: _Row, required: Sequence[str], optional: Sequence[str],
                  source: str) -> list[str]:
    """The column names of a keyed table's ``header`` (lower case): the ``required`` key
    columns and ``value``, any of the ``optional`` ones, each once (an
    :class:`~irscale.errors.InputFormatError` saying what is expected otherwise)."""
    names = [f.strip().lower() for f in header.fields]
    allowed = (*required, *optional, "value")
    expected = f"the columns {', '.join(required)}, value (and optionally " \
        f"{', '.join(optional)})" if optional else f"the columns {', '.join(allowed)}"
    wrong = [n for n in names if n not in allowed]
    missing = [n for n in (*required, "value") if n not in names]
    if wrong or missing or len(set(names)) != len(names):
        what = (f"unknown column {wrong[0]!r}" if wrong else f"no column {missing[0]!r}"
                if missing else "a column appears twice")
        raise InputFormatError(f"{what}: expected a header of {expected}", source=source,
                               line=header.line, text=header.text)
    return names


def _first(seen: dict[Any, int], key: Hashable, row: _Row, source: str,
           twice: Callable[[Any], str]) -> None:
    """Note that ``key`` is first on ``row`` (``seen``: the line of each key so far), or
    refuse the row where a line before holds it: ``twice(key)`` says what appears twice,
    the message names both lines."""
    if key in seen:
        raise InputFormatError(f"{twice(key)} (lines {seen[key]} and {row.line})", source=source,
                               line=row.line, text=row.text)
    seen[key] = row.line


def _row_key(row: _Row, names: list[str], keys: list[str], source: str
             ) -> tuple[str, ...]:
    """The key of a keyed table's ``row``: its fields of the ``keys`` columns, none empty."""
    key = tuple(row.fields[names.index(k)].strip() for k in keys)
    for name, text in zip(keys, key, strict=True):
        if not text:
            raise InputFormatError(f"empty {name}", source=source, line=row.line,
                                   text=row.text)
    return key


def read_keyed_table(path: object, required: Sequence[str],
                     optional: Sequence[str] = ()) -> KeyedTable:
    """Parse a long CSV: a header naming the ``required`` key columns, any of the
    ``optional`` ones and ``value`` (in any order, each once), then one row per key; every
    key once, every value a finite number (the predictions and effectiveness scores of
    ``irscale meta qpp``)."""
    source, _ = _source_and_measure(path)
    rows = _rows(path, source)
    header, body = rows[0], rows[1:]
    names = _keyed_header(header, required, optional, source)
    if not body:
        raise EmptyInputError("the file has a header but no data row", source=source,
                              line=header.line, text=header.text)
    at = names.index("value")
    keys = [n for n in names if n != "value"]
    labels: dict[str, list[str]] = {k: [] for k in keys}
    values = []
    seen: dict[tuple[str, ...], int] = {}
    for row in body:
        if len(row.fields) != len(names):
            raise InputFormatError(f"expected {len(names)} comma-separated fields (as the "
                                   f"header), got {len(row.fields)}", source=source,
                                   line=row.line, text=row.text)
        key = _row_key(row, names, keys, source)
        _first(seen, key, row, source, lambda key: ", ".join(
            f"{k} {v!r}" for k, v in zip(keys, key, strict=True)) + " appears twice")
        for name, text in zip(keys, key, strict=True):
            labels[name].append(text)
        text = row.fields[at].strip()
        value = float(text) if _NUMBER.match(text) else math.nan
        if not math.isfinite(value):
            raise InputFormatError(f"the value (column {at + 1}) must be a finite number, got "
                                   f"{text!r}", source=source, line=row.line, text=row.text)
        values.append(value)
    return KeyedTable({k: tuple(v) for k, v in labels.items()},
                      np.asarray(values, dtype=np.float64), source)


def _rows(path: object, source: str) -> list[_Row]:
    """The records of a score file (read once), with at least a header."""
    data = read_input(path)  # type: ignore[arg-type]
    rows = _records(_decode(data, source), source)
    if not rows:
        raise EmptyInputError("empty score file: no header and no data row", source=source)
    return rows


def _wide(rows: list[_Row], source: str, measure: str, topic_column: str | bool | None,
          allow_missing: bool) -> ScoreTable:
    """A score CSV's table (topics × systems)."""
    header, body = rows[0], rows[1:]
    names = _header(header, source)
    if not body:
        raise EmptyInputError("the score file has a header but no data row", source=source,
                              line=header.line, text=header.text)
    for row in body:
        if len(row.fields) != len(names):
            raise InputFormatError(
                f"expected {len(names)} comma-separated fields (as the header), got "
                f"{len(row.fields)}", source=source, line=row.line, text=row.text)
    topic_index = _topic_column(names, topic_column, source, header)
    if topic_index is None and topic_column is None:
        _check_not_ids(names, body, source)
    columns = [c for c in range(len(names)) if c != topic_index]
    if not columns:
        besides = "" if topic_index is None else f" besides the topic column {names[topic_index]!r}"
        raise InputError(f"no system column{besides}", source=source)
    if topic_index is None:
        topics = [str(i + 1) for i in range(len(body))]
    else:
        topics = []
        first_line: dict[str, int] = {}
        for row in body:
            topic = row.fields[topic_index].strip()
            if not topic:
                raise InputFormatError(f"empty topic id in column {names[topic_index]!r}",
                                       source=source, line=row.line, text=row.text)
            _first(first_line, topic, row, source, lambda topic: f"topic {topic!r} appears "
                   f"twice in column {names[topic_index]!r}")
            topics.append(topic)
    values = np.array([_row_values(row, columns, names, source, allow_missing)
                       for row in body], dtype=np.float64).reshape(len(body), len(columns))
    return ScoreTable(values=values, topics=tuple(topics),
                      systems=tuple(names[c] for c in columns), measure=measure, source=source,
                      rows=tuple((row.line, row.text) for row in body))
