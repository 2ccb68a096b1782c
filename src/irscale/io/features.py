"""Reading document features: ``topic docno f1 f2 ...`` files or frames.

Read by the Gaussian-process aggregation of crowd labels
(:mod:`irscale.collections.label_gp`): every line gives one document of one topic and its
feature vector, fields separated by blanks or tabs (plain or gzip-compressed UTF-8; ``-``
reads standard input; blank lines are ignored). Every line holds the same number of
features (one at least); a feature is a finite decimal number; a (topic, docno) given
twice is an error. Errors name the file, the 1-based line and its text.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import DuplicateError, EmptyInputError, InputError, InputFormatError
from ._text import PathLike, is_float
from .text import _Keys, _lines

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DocumentFeatures", "read_features"]


@dataclass(frozen=True, eq=False)
class DocumentFeatures:
    """Feature vectors: row ``r`` of ``values`` (documents × features) belongs to row ``r``
    of ``items`` (topic, docno), read from line ``lines[r]`` of ``source``."""

    items: pd.DataFrame
    values: np.ndarray
    lines: np.ndarray
    source: str

    def __repr__(self) -> str:
        return (f"DocumentFeatures({len(self.items):,} documents, {self.values.shape[1]} "
                f"features, source={self.source!r})")


def _number(text: str) -> float | None:
    """``text`` as a finite number, or None."""
    if not is_float(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _from_frame(frame: Any) -> DocumentFeatures:
    """Features from a DataFrame: ``topic``, ``docno`` and the feature columns."""
    import pandas as pd

    name = "<DataFrame>"
    missing = [c for c in ("topic", "docno") if c not in frame.columns]
    if missing:
        raise InputError(f"features frame lacks column(s) {', '.join(missing)} (needs topic, "
                         "docno and one feature column or more)", source=name)
    columns = [c for c in frame.columns if c not in ("topic", "docno")]
    if not columns:
        raise InputError("features frame has no feature column", source=name)
    if frame.empty:
        raise EmptyInputError("holds no documents", source=name)
    values = frame[columns].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(values).all(axis=1)
    items = pd.DataFrame({"topic": frame["topic"].astype(str).to_numpy(dtype=object),
                          "docno": frame["docno"].astype(str).to_numpy(dtype=object)})
    twice = items.duplicated().to_numpy()
    for flags, error, message in ((bad, InputFormatError, "a feature is not a finite number"),
                                  (twice, DuplicateError, "document given twice")):
        if flags.any():
            row = int(np.flatnonzero(flags)[0])
            raise error(message, source=name, line=row + 1,
                        text=" ".join(map(str, frame.iloc[row])))
    return DocumentFeatures(items, values, np.arange(1, len(items) + 1), name)


def read_features(source: PathLike | io.IOBase | bytes | Any) -> DocumentFeatures:
    """Document features from a ``topic docno f1 f2 ...`` file (module documentation), a
    DataFrame with ``topic``, ``docno`` and numeric feature columns, or features already
    read (returned as they are).

    >>> read_features(b"1 d1 0.5 2\\n1 d2 -1 0\\n")
    DocumentFeatures(2 documents, 2 features, source='<bytes>')
    """
    if isinstance(source, DocumentFeatures):
        return source
    if hasattr(source, "columns"):
        return _from_frame(source)
    name, lines = _lines(source, "features")
    topics: list[str] = []
    docnos: list[str] = []
    rows: list[list[float]] = []
    numbers: list[int] = []
    keys = _Keys(name, "document")
    width = 0
    for number, text in lines:
        fields = text.split()
        if len(fields) < 3:
            raise InputFormatError("too few fields (needs topic docno f1 [f2 ...])",
                                   source=name, line=number, text=text)
        if width and len(fields) - 2 != width:
            raise InputFormatError(f"{len(fields) - 2} features where the first line gives "
                                   f"{width}", source=name, line=number, text=text)
        width = len(fields) - 2
        values = [_number(field) for field in fields[2:]]
        if any(v is None for v in values):
            wrong = fields[2 + [v is None for v in values].index(True)]
            raise InputFormatError(f"feature {wrong!r} is not a finite number", source=name,
                                   line=number, text=text)
        keys.add((fields[0], fields[1]), number, text)
        topics.append(fields[0])
        docnos.append(fields[1])
        rows.append([float(v) for v in values if v is not None])
        numbers.append(number)
    if not rows:
        raise EmptyInputError("holds no documents", source=name)
    import pandas as pd  # (the lines are checked: a malformed one is reported without it)

    items = pd.DataFrame({"topic": np.asarray(topics, dtype=object),
                          "docno": np.asarray(docnos, dtype=object)})
    return DocumentFeatures(items, np.asarray(rows, dtype=np.float64),
                            np.asarray(numbers, dtype=np.int64), name)
