"""The manifest of a suite of test collections (``irscale compare --collections FILE``,
``across_collections("suite.tsv", ...)``; usage: ``docs/stats.md``).

A tab-separated text file (plain or gzip UTF-8; ``-``: standard input). Its first line that
is neither blank nor a comment (``#`` first) is the header, the three column names
``collection``, ``qrels`` and ``run`` in any order; every later such line is one run of
one collection: the collection's name, its qrels file and one run file (or a folder of run
files, or a glob pattern). A relative path is read from the manifest's folder (from the
current folder for standard input). A collection has one qrels file, names each run once,
and the manifest names 2 collections at least. Every error names the manifest, the line and
its text. The rows of a collection are what ``--collection NAME=QRELS,RUN,RUN...`` says.
"""

from __future__ import annotations

import os

from ..core.records import record
from ..errors import DuplicateError, EmptyInputError, InputError, InputFormatError, shorten
from ._text import PathLike, iter_lines, read_bytes, source_name
from .files import check_file_source, check_text, is_stdio

#: The columns of a manifest, as its header names them.
COLUMNS = ("collection", "qrels", "run")
#: The header line of a manifest (its columns in this order).
HEADER = "\t".join(COLUMNS)


@record
class CollectionFiles:
    """The files of one collection: its ``qrels`` file and its ``runs`` (files, folders or
    glob patterns), as a manifest's rows or a ``--collection`` name them. ``where`` says
    where they were given (``suite.tsv`` or ``--collection X``) and ``lines`` holds, for a
    manifest, the ``(line number, text)`` of each run's row (empty otherwise)."""

    qrels: str
    runs: tuple[str, ...]
    where: str
    lines: tuple[tuple[int, str], ...] = ()

    def at(self, index: int) -> str:
        """Where run ``index`` (its row) is given, as messages name it: ``suite.tsv, line 3:
        'X<TAB>x.qrels<TAB>a.run'``, or :attr:`where`."""
        if not self.lines:
            return self.where
        number, text = self.lines[index]
        return f"{self.where}, line {number}: {shorten(text)!r}"


def read_collections(source: PathLike) -> dict[str, CollectionFiles]:
    """The collections of the manifest ``source`` (module documentation), by name in the
    order of their first row.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "suite.tsv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("collection\\tqrels\\trun\\n# BEIR\\nx\\tx.qrels\\tbm25.run\\n"
    ...                 "y\\ty.qrels\\tbm25.run\\n")
    >>> suite = read_collections(path)
    >>> [(name, os.path.relpath(c.qrels, folder)) for name, c in suite.items()]
    [('x', 'x.qrels'), ('y', 'y.qrels')]
    """
    checked = check_file_source(source, "collections")
    name = source_name(checked)
    data = read_bytes(checked).removeprefix(b"\xef\xbb\xbf")
    check_text(data, name)
    folder = os.path.dirname(os.fspath(checked)) \
        if isinstance(checked, (str, os.PathLike)) and not is_stdio(checked) else ""
    rows = [(number, text) for number, text in iter_lines(data)
            if text.strip() and not text.lstrip().startswith("#")]
    if not rows:
        raise EmptyInputError(f"no header line: a manifest starts with the header "
                              f"{HEADER!r}", source=name)
    order = _header(rows[0], name)
    found: dict[str, dict] = {}
    for number, text in rows[1:]:
        fields = text.rstrip("\r").split("\t")
        if len(fields) != len(COLUMNS) or not all(field.strip() for field in fields):
            raise InputFormatError(f"expected {len(COLUMNS)} tab-separated fields "
                                   f"({', '.join(order)}), none empty, got {len(fields)}",
                                   source=name, line=number, text=text)
        row = dict(zip(order, (field.strip() for field in fields), strict=True))
        qrels, run = (_resolved(folder, row[column]) for column in ("qrels", "run"))
        entry = found.setdefault(row["collection"], {"qrels": (qrels, number), "runs": {}})
        if entry["qrels"][0] != qrels:
            raise InputFormatError(f"collection {row['collection']!r} has the qrels "
                                   f"{entry['qrels'][0]} on line {entry['qrels'][1]}: a "
                                   "collection has one qrels file", source=name, line=number,
                                   text=text)
        if run in entry["runs"]:
            raise DuplicateError(f"collection {row['collection']!r} names the run {run} "
                                 f"twice (line {entry['runs'][run][0]} too)", source=name,
                                 line=number, text=text)
        entry["runs"][run] = (number, text)
    if len(found) < 2:
        raise InputError(f"names {len(found)} collection{'s' if len(found) != 1 else ''} "
                         f"{list(found)}: a comparison across collections needs 2 at least",
                         source=name)
    return {collection: CollectionFiles(entry["qrels"][0], tuple(entry["runs"]), name,
                                        tuple(entry["runs"].values()))
            for collection, entry in found.items()}


def _header(row: tuple[int, str], name: str) -> tuple[str, ...]:
    """The columns of the header ``row`` in their order: each of :data:`COLUMNS` once."""
    number, text = row
    fields = tuple(field.strip() for field in text.rstrip("\r").split("\t"))
    unknown = [field for field in fields if field not in COLUMNS]
    missing = [column for column in COLUMNS if column not in fields]
    if unknown or missing or len(fields) != len(COLUMNS):
        why = (f"unknown column {unknown[0]!r}" if unknown else
               f"no column {missing[0]!r}" if missing else "a column named twice")
        raise InputFormatError(f"{why}: the header names the tab-separated columns "
                               f"{', '.join(COLUMNS)}", source=name, line=number, text=text)
    return fields


def _resolved(folder: str, path: str) -> str:
    """``path`` read from ``folder`` (as it is when absolute, or ``-``)."""
    return path if is_stdio(path) else os.path.normpath(os.path.join(folder, path))


__all__ = ["COLUMNS", "HEADER", "CollectionFiles", "read_collections"]
