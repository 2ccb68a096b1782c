"""Reading sampled judgments: ``topic iter docno rel prob`` files or frames.

The judgments of a probability sample (statAP, :mod:`irscale.collections.sampling`): every
line is a sampled document with its relevance degree and the probability π ∈ (0, 1] that
the sampling design included it. ``iter`` is ignored (``0``), as in a qrels file. Every
sampled document must be judged (a degree ≥ 0), judged once; errors name the file, the
line and its text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import DuplicateError, InputError
from ._text import check_int64, is_float, line_of_record, read_fields, source_name
from .pending import Pending
from .text_codes import objects_of

if TYPE_CHECKING:
    import pandas as pd

#: The columns of a sampled-judgments file, in order.
COLUMNS = ("topic", "iter", "docno", "rel", "prob")

__all__ = ["COLUMNS", "check_sampled_qrels", "read_sampled_qrels", "sampled_rows"]


def read_sampled_qrels(source: Any) -> pd.DataFrame:
    """Sampled judgments as a DataFrame ``topic, docno, rel, prob`` (file order).

    ``source``: a ``topic iter docno rel prob`` file (path, bytes or binary stream;
    whitespace-separated, gzip allowed) or a DataFrame with columns ``topic, docno, rel,
    prob`` (or ir_measures' ``query_id, doc_id, relevance`` and ``prob``).

    >>> read_sampled_qrels(b"1 0 d1 1 0.5\\n1 0 d2 0 1\\n")
      topic docno  rel  prob
    0     1    d1    1   0.5
    1     1    d2    0   1.0
    """
    return sampled_rows(source)[0]


#: Where a row of a read input is: its source's name, line number (None: not known) and
#: text.
Located = Callable[[int], tuple[str, int | None, str]]


def sampled_rows(source: Any) -> tuple[pd.DataFrame, Located]:
    """:func:`read_sampled_qrels`'s frame, and where each of its rows was read (the source's
    name, the line and its text), so that a value found bad later is named by its line."""
    if hasattr(source, "columns"):
        frame = _checked_frame(source)
        return frame, lambda row: ("<DataFrame>", row + 1,
                                   " ".join(map(str, frame.iloc[row])))
    import pandas as pd

    columns, name, where = read_columns(source, "sampled judgments")
    _check_values(columns, name, where)
    return pd.DataFrame(columns), lambda row: (name, *where(row))


def check_sampled_qrels(source: Any) -> Pending[pd.DataFrame]:
    """The sampled judgments of a ``topic iter docno rel prob`` file (path, bytes or
    stream), every line and value checked (:func:`_check_values`: the errors of
    :func:`read_sampled_qrels`) with numpy and a set of keys, and their frame built later,
    so that a command checks every file it reads before pandas is imported
    (:mod:`irscale.io.pending`)."""
    columns, name, where = read_columns(source, "sampled judgments")
    _check_values(columns, name, where)

    def build() -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(columns)

    return Pending(name, build)


#: Where a row of an input is: its line number (None: not known) and text.
Where = Callable[[int], tuple[int | None, str]]


def read_columns(source: Any, what: str) -> tuple[dict[str, Any], str, Where]:
    """The columns ``topic, docno, rel, prob`` of a ``topic iter docno rel prob`` file of
    ``what`` (sampled judgments, label probabilities): every line's field count, integer
    ``rel`` and numeric ``prob`` checked; with the file's name and where each row is."""
    name = source_name(source)
    fields, raw = read_fields(
        source, COLUMNS, {"topic": "str", "docno": "str", "rel": "int", "prob": "float"},
        {3: check_int64, 4: lambda text: None if is_float(text) else "is not a number"},
        what)
    columns = {"topic": objects_of(fields.strings("topic")),
               "docno": objects_of(fields.strings("docno")),
               "rel": fields.numbers("rel"), "prob": fields.numbers("prob")}
    return columns, name, lambda row: line_of_record(raw(), row)


def renamed_frame(source: Any, what: str) -> pd.DataFrame:
    """The DataFrame ``source`` of ``what`` with ir_measures' names (``query_id, doc_id,
    relevance``) renamed ``topic, docno, rel``; refused without ``topic, docno, rel,
    prob``."""
    import pandas as pd

    aliases = {"query_id": "topic", "doc_id": "docno", "relevance": "rel"}
    frame = pd.DataFrame(source).rename(columns=aliases)
    missing = [c for c in ("topic", "docno", "rel", "prob") if c not in frame.columns]
    if missing:
        raise InputError(f"{what} lack column(s) {', '.join(missing)} (need topic, docno, "
                         "rel, prob)", source="<DataFrame>")
    return frame


def _first_repeat(topics: Any, docnos: Any) -> int | None:
    """The first row whose (topic, docno) pair was on an earlier row (a set of the
    pairs), or None."""
    seen: set[tuple[str, str]] = set()
    for row, key in enumerate(zip(topics, docnos, strict=True)):
        if key in seen:
            return row
        seen.add(key)
    return None


def _check_values(columns: Any, source: str, where: Where) -> None:
    """Degrees ≥ 0, probabilities in (0, 1], one line per (topic, docno): ``columns``
    (a frame or a dict of arrays) of ``topic, docno, rel, prob``."""
    rel = np.asarray(columns["rel"], dtype=np.float64)
    prob = np.asarray(columns["prob"], dtype=np.float64)
    problems = [
        (~np.isfinite(rel) | (rel != np.round(rel)), "rel is not an integer", InputError),
        (rel < 0, "rel is negative: a sampled document must be judged (degree ≥ 0)",
         InputError),
        (~np.isfinite(prob) | (prob <= 0) | (prob > 1),
         "prob is not an inclusion probability in (0, 1]", InputError),
        (prob < sys.float_info.min,
         f"prob is below {sys.float_info.min:.4g}, the smallest double held to full "
         "precision: the document's weight 1/prob would lose its digits or be infinite",
         InputError),
    ]
    for bad, message, error in problems:
        if bad.any():
            line, text = where(int(np.flatnonzero(bad)[0]))
            raise error(message, source=source, line=line, text=text)
    twice = _first_repeat(columns["topic"], columns["docno"])
    if twice is not None:
        line, text = where(twice)
        raise DuplicateError("document sampled twice for the topic", source=source,
                             line=line, text=text)


def _checked_frame(source: Any) -> pd.DataFrame:
    import pandas as pd

    frame = renamed_frame(source, "sampled judgments")
    frame = pd.DataFrame({"topic": frame["topic"].astype(str),
                          "docno": frame["docno"].astype(str),
                          "rel": pd.to_numeric(frame["rel"], errors="coerce"),
                          "prob": pd.to_numeric(frame["prob"], errors="coerce")})
    _check_values(frame, "<DataFrame>",
                  lambda row: (row + 1, " ".join(map(str, frame.iloc[row]))))
    frame["rel"] = frame["rel"].astype(np.int64)
    return frame
