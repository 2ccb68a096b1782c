"""Files of ``run contributor`` lines: the contributor of each run of a leave-one-out test
(``irscale meta loo --contributors``; :func:`irscale.meta.leave_one_out`)."""

from __future__ import annotations

import os

from ..errors import EmptyInputError, InputFormatError
from .files import check_text, display_name, read_input
from .maps import SourceMap


def read_contributors(path: str | os.PathLike[str]) -> SourceMap:
    """``{run: contributor}`` of the file ``path``: one ``run contributor`` pair a line,
    blank lines and lines starting with ``#`` skipped. A line of another shape, a run
    listed twice, NUL bytes, bytes that are not UTF-8 and a file without a pair are
    refused, naming the file and the line. The map remembers its file (a run it lacks is
    an error naming it)."""
    source = display_name(path)
    data = read_input(path)
    check_text(data, source)
    table: dict[str, str] = {}
    for number, line in enumerate(data.decode("utf-8-sig").splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise InputFormatError("expected 'run contributor'", source=source, line=number,
                                   text=line)
        if fields[0] in table:
            raise InputFormatError(f"run {fields[0]!r} is listed twice", source=source,
                                   line=number, text=line)
        table[fields[0]] = fields[1]
    if not table:
        raise EmptyInputError("no 'run contributor' line", source=source)
    return SourceMap(table, source)
