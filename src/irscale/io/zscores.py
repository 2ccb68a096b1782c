"""trec_eval's Z files (``trec_eval -Z Zmean_file``): the mean and the standard deviation of
every measure on every topic over a reference set of runs.

One line per (topic, measure), four fields separated by blanks (trec_eval 9.0.8's
``get_zscores.c``)::

    qid  measure_name  mean  std_dev

:func:`read_zscores` reads one into :class:`ZScores` (what
:func:`irscale.evaluate`'s ``zscores=`` applies, :mod:`irscale.measures.zscored`);
:func:`format_zscores` writes one (``irscale eval-many --write-zscores``).

trec_eval reads the numbers with ``atof`` and never complains: ``abc`` is 0, ``0.5x`` is
0.5, and of two lines for the same topic and measure its binary search finds either. Here a
line that is not four fields, a mean or a deviation that is not a finite decimal number, a
negative deviation, a (topic, measure) given twice, and an empty file are errors naming the
file, the line and its text (``docs/trec_eval_semantics.md``).
"""

from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, InputFormatError, about
from ._text import read_bytes, source_name
from .files import check_text

#: A decimal number, as a Z file holds it (no ``nan``, ``inf`` or hexadecimal: ASCII only).
_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z", re.ASCII)
#: The blanks between fields: C's ``isspace`` but the newline.
_BLANKS = re.compile(rb"[ \t\r\v\f]+")
#: The fields of a line, as trec_eval names them.
FIELDS = "qid measure_name mean std_dev"


@dataclass(frozen=True)
class ZScores:
    """The reference means and standard deviations of a Z file: ``moments[(topic,
    measure)] = (mean, std_dev)``; ``source`` names the file in messages."""

    moments: Mapping[tuple[str, str], tuple[float, float]]
    source: str = "<zscores>"

    def __len__(self) -> int:
        return len(self.moments)


def read_zscores(source: Any) -> ZScores:
    """The :class:`ZScores` of a Z file (a path, ``-``, bytes or a binary stream; gzip
    allowed), or ``source`` itself when it is one.

    >>> z = read_zscores(b"401 map 0.25 0.125\\n401 P_10 0.4 0.2\\n")
    >>> z.moments[("401", "map")]
    (0.25, 0.125)
    >>> try:
    ...     read_zscores(b"401 map 0.25\\n")
    ... except InputFormatError as error:
    ...     print(error.line, error.reason)
    1 expected 4 fields (qid measure_name mean std_dev) in a Z file, got 3
    """
    if isinstance(source, ZScores):
        return source
    if not isinstance(source, (str, os.PathLike, bytes, io.IOBase)):
        raise about(InputError(f"cannot read a {type(source).__name__} as a Z file (a path, "
                               "bytes or a binary stream)"), source)
    name = source_name(source)
    data = read_bytes(source)
    check_text(data, name)
    if not data.strip():
        raise InputFormatError(f"empty Z file: expected lines '{FIELDS}'", source=name)
    lines = data.split(b"\n")
    if lines[-1] == b"":  # the last line's newline
        lines.pop()
    moments: dict[tuple[str, str], tuple[float, float]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.decode()
        fields = [f.decode() for f in _BLANKS.split(raw.strip(b" \t\r\v\f")) if f]
        if len(fields) != 4:
            raise InputFormatError(
                f"expected 4 fields ({FIELDS}) in a Z file, got {len(fields)}",
                source=name, line=number, text=text)
        topic, measure, mean_text, sd_text = fields
        mean, sd = (_number(field, what, name, number, text)
                    for field, what in ((mean_text, "mean"), (sd_text, "std_dev")))
        if sd < 0:
            raise InputFormatError(f"std_dev {sd_text!r} is negative", source=name,
                                   line=number, text=text)
        key = (topic, measure)
        if key in first_line:
            raise InputFormatError(
                f"topic {topic!r} and measure {measure!r} given twice (first on line "
                f"{first_line[key]})", source=name, line=number, text=text)
        first_line[key] = number
        moments[key] = (mean, sd)
    return ZScores(moments, name)


def _number(field: str, what: str, source: str, line: int, text: str) -> float:
    """The value of a mean or std_dev field; an error unless a finite decimal number."""
    value = float(field) if _DECIMAL.match(field) else math.nan
    if not math.isfinite(value):
        raise InputFormatError(f"{what} {field!r} is not a finite decimal number",
                               source=source, line=line, text=text)
    return value


def format_zscores(moments: Iterable[tuple[str, str, float, float]]) -> str:
    """The text of a Z file: one line ``topic measure mean std_dev`` per entry of
    ``moments`` (in the order given), the numbers written exactly (Python's shortest
    round-trip form, which trec_eval's ``atof`` reads back to the same double).

    >>> print(format_zscores([("401", "map", 0.25, 0.1)]), end="")
    401 map 0.25 0.1
    """
    lines = []
    for topic, measure, mean, sd in moments:
        for field in (topic, measure):
            if not field or _BLANKS.search(field.encode()) or "\n" in field:
                raise InputError(f"{field!r} cannot be a field of a Z file (empty, or holds "
                                 "blanks)")
        lines.append(f"{topic} {measure} {float(mean)!r} {float(sd)!r}\n")
    return "".join(lines)


__all__ = ["ZScores", "format_zscores", "read_zscores"]
