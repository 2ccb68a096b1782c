"""Files of side-by-side preferences: ``topic left right preference`` lines, one judgment a
line (``irscale meta predict --preferences``; :func:`irscale.meta.predictive_power`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import EmptyInputError, InputFormatError
from .files import check_text, display_name, read_input
from .pending import Pending

if TYPE_CHECKING:
    import pandas as pd

#: The words of a preference (as :func:`irscale.meta.predictive.preference_frame` reads
#: them): for the left system, the right one, or none.
WORDS = ("left", "right", "tie", "l", "r", "none", "equal", "1", "-1", "+1", "0")


def read_side_by_side(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The judgments of the file ``path`` as a frame ``topic, left, right, preference``:
    one ``topic left right preference`` a line (preference ``left``, ``right`` or ``tie``,
    or 1, -1, 0), blank lines and lines starting with ``#`` skipped. A line of another
    shape, an unknown preference, a system compared with itself, NUL bytes, bytes that are
    not UTF-8 and a file without a judgment are refused, naming the file and the line. The
    frame keeps the line of every row (:class:`~irscale.io.user_tables.RowLines`), which
    the errors of :func:`~irscale.meta.predictive_power` name."""
    return check_side_by_side(path).build()


def check_side_by_side(path: str | os.PathLike[str]) -> Pending[pd.DataFrame]:
    """The lines of :func:`read_side_by_side` checked, the frame built later
    (:mod:`irscale.io.pending`)."""
    source = display_name(path)
    data = read_input(path)
    check_text(data, source)
    rows, lines = [], []
    for number, line in enumerate(data.decode("utf-8-sig").splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 4:
            raise InputFormatError("expected 'topic left right preference'", source=source,
                                   line=number, text=line)
        if fields[3].lower() not in WORDS:
            raise InputFormatError(f"unknown preference {fields[3]!r}: write left, right or "
                                   "tie (or 1, -1, 0)", source=source, line=number, text=line)
        if fields[1] == fields[2]:
            raise InputFormatError(f"system {fields[1]!r} is compared with itself",
                                   source=source, line=number, text=line)
        rows.append(fields)
        lines.append((number, line))
    if not rows:
        raise EmptyInputError("no 'topic left right preference' line", source=source)

    def build() -> pd.DataFrame:
        import pandas as pd

        from .user_tables import LINES, RowLines

        frame = pd.DataFrame(rows, columns=["topic", "left", "right", "preference"])
        frame.attrs[LINES] = RowLines(source, frame.index, lines)  # where a row is, for
        return frame  # the errors of the analysis (a topic the scores lack)

    return Pending(source, build)
