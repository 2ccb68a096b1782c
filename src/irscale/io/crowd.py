"""Reading crowd labels: ``topic docno worker label`` files or frames, as codes.

Read by :mod:`irscale.collections.labels` (aggregation) and
:mod:`irscale.collections.agreement`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import DuplicateError, EmptyInputError, InputError, ParameterError, shown
from ._text import check_int64, line_of_record, read_fields, source_name
from .pending import Pending
from .text_codes import objects_of

if TYPE_CHECKING:
    import pandas as pd

#: The columns of a crowd-labels file, in order.
COLUMNS = ("topic", "docno", "worker", "label")

__all__ = ["COLUMNS", "CrowdLabels", "check_crowd_labels", "check_scale", "read_crowd_labels"]


@dataclass(frozen=True, eq=False)
class CrowdLabels:
    """Crowd labels as codes: ``item`` and ``worker`` index ``items`` (a frame of topic,
    docno) and ``workers``; ``label`` indexes ``classes`` (the label values, increasing)."""

    items: pd.DataFrame
    workers: np.ndarray
    classes: np.ndarray
    item: np.ndarray
    worker: np.ndarray
    label: np.ndarray
    source: str
    #: Line number and text of a label (0-based record in input order), for errors.
    locate: Callable[[int], tuple[int, str]] | None = field(default=None, repr=False)

    def error(self, error: type[InputError], message: str, record: int) -> InputError:
        """An error about the ``record``-th label (input order) naming its source, line and
        text."""
        if self.locate is None:
            return error(message, source=self.source)
        line, text = self.locate(record)
        return error(message, source=self.source, line=line, text=text)

    @property
    def counts(self) -> np.ndarray:
        """``counts[i, k]``: labels of class ``k`` given to item ``i``."""
        k = len(self.classes)
        return np.bincount(self.item * k + self.label,
                           minlength=len(self.items) * k).reshape(-1, k).astype(np.float64)

    def to_frame(self) -> pd.DataFrame:
        """The labels as a ``topic docno worker label`` frame."""
        import pandas as pd

        return pd.DataFrame({"topic": self.items["topic"].to_numpy()[self.item],
                             "docno": self.items["docno"].to_numpy()[self.item],
                             "worker": self.workers[self.worker],
                             "label": self.classes[self.label]})

    def __repr__(self) -> str:
        return (f"CrowdLabels({len(self.item):,} labels, {len(self.items):,} documents, "
                f"{len(self.workers):,} workers, classes {self.classes.tolist()})")


def check_scale(scale: Sequence[int] | None) -> np.ndarray | None:
    """The declared label values, increasing (``None``: whatever the labels hold)."""
    if scale is None:
        return None
    if isinstance(scale, (str, bytes)) or not isinstance(scale, Iterable):
        raise ParameterError(f"scale must be a non-empty list of integers, got {shown(scale)}",
                             param="scale")
    values = np.asarray(list(scale))
    if values.size == 0 or values.dtype.kind not in "iu":
        raise ParameterError(f"scale must be a non-empty list of integers, got {list(scale)}")
    if np.unique(values).size != values.size:
        raise ParameterError(f"scale lists a label twice: {values.tolist()}")
    return np.sort(values).astype(np.int64)


def read_crowd_labels(source: Any, scale: Sequence[int] | None = None) -> CrowdLabels:
    """Crowd labels from a ``topic docno worker label`` file (whitespace-separated; path,
    bytes or stream) or a DataFrame with those columns.

    A label must be an integer, one of ``scale`` when declared; a worker labels a document
    once. Errors name the file, the line and its text.

    >>> read_crowd_labels(b"1 d1 w1 1\\n1 d1 w2 0\\n1 d2 w1 2\\n", scale=[0, 1, 2])
    CrowdLabels(3 labels, 2 documents, 2 workers, classes [0, 1, 2])
    """
    classes = check_scale(scale)
    if isinstance(source, CrowdLabels):
        return _encoded(source.to_frame(), source.source, classes, source.locate)
    if hasattr(source, "columns"):
        missing = [c for c in COLUMNS if c not in source.columns]
        if missing:
            raise InputError(f"labels frame lacks column(s) {', '.join(missing)} (needs "
                             f"{' '.join(COLUMNS)})", source="<DataFrame>")
        import pandas as pd

        frame = pd.DataFrame({c: source[c] for c in COLUMNS})
        labels = pd.to_numeric(frame["label"], errors="coerce")
        bad = ~np.isfinite(labels.to_numpy(dtype=np.float64)) | (labels % 1 != 0).to_numpy()
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError("label is not an integer", source="<DataFrame>",
                             line=row + 1, text=" ".join(map(str, frame.iloc[row])))
        frame["label"] = labels.astype(np.int64)
        for c in ("topic", "docno", "worker"):
            frame[c] = frame[c].astype(str)
        return _encoded(frame, "<DataFrame>", classes, None)
    return check_crowd_labels(source, scale).build()


def check_crowd_labels(source: Any, scale: Sequence[int] | None = None
                       ) -> Pending[CrowdLabels]:
    """The crowd labels of a ``topic docno worker label`` file (path, bytes or stream),
    their lines checked (field count, integer labels: the errors of
    :func:`read_crowd_labels`) and their object built later, so that a command checks
    every file it reads before pandas is imported (:mod:`irscale.io.pending`)."""
    classes = check_scale(scale)
    name = source_name(source)
    fields, raw = read_fields(
        source, COLUMNS, {"topic": "str", "docno": "str", "worker": "str", "label": "int"},
        {3: check_int64}, "crowd labels")

    def locate(row: int) -> tuple[int, str]:
        line, text = line_of_record(raw(), row)
        return int(line), str(text)

    # the values too (the scale, a label given twice) before pandas is imported
    checked = _codes(fields.numbers("label"), classes,
                     [fields.strings(c).encode()[0] for c in ("topic", "docno", "worker")],
                     name, locate)

    def build() -> CrowdLabels:
        import pandas as pd

        frame = pd.DataFrame({c: (fields.numbers(c) if c == "label"
                                  else objects_of(fields.strings(c))) for c in COLUMNS})
        return _encoded(frame, name, classes, locate, checked)

    return Pending(name, build)


def _codes(values: np.ndarray, classes: np.ndarray | None, keys: Sequence[np.ndarray],
           source: str, locate: Callable[[int], tuple[int, str]]
           ) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, code)``: the label values (those ``values`` hold where no scale is
    declared, increasing) and every label's place among them, once every label is on the
    scale and no two labels share their ``keys`` (the codes of topic, docno and worker: a
    worker labels a document once). Errors name the first such label in input order,
    ``locate(row)`` giving its line and text. numpy only: a file's labels are checked
    before pandas is imported (:func:`check_crowd_labels`)."""

    def fail(error: type[InputError], message: str, row: int) -> InputError:
        line, text = locate(row)
        return error(message, source=source, line=line, text=text)

    if classes is None:
        classes = np.unique(values)
    code = np.searchsorted(classes, values)
    outside = (code >= len(classes)) | (classes[np.minimum(code, len(classes) - 1)] != values)
    if outside.any():
        raise fail(InputError, f"label outside the scale {','.join(map(str, classes))}",
                   int(np.flatnonzero(outside)[0]))
    # equal keys sorted next to each other, in input order (lexsort is stable): a label
    # equal to the one before it in that order repeats an earlier one
    order = np.lexsort(tuple(reversed(keys)))
    again = np.ones(max(len(order) - 1, 0), dtype=bool)
    for key in keys:
        ordered = np.asarray(key)[order]
        again &= ordered[1:] == ordered[:-1]
    if again.any():
        raise fail(DuplicateError, "a worker labels this document twice",
                   int(order[1:][again].min()))
    return classes, code.astype(np.int64)


def _encoded(frame: pd.DataFrame, source: str, classes: np.ndarray | None,
             where: Callable[[int], tuple[int, str]] | None,
             checked: tuple[np.ndarray, np.ndarray] | None = None) -> CrowdLabels:
    """The labels of ``frame`` as codes; ``checked``: the ``(classes, code)`` of
    :func:`_codes`, where the values are checked already."""
    import pandas as pd

    def locate(row: int) -> tuple[int, str]:
        if where is None:
            return row + 1, " ".join(map(str, frame.iloc[row]))
        return where(row)

    if frame.empty:
        raise EmptyInputError("holds no labels", source=source)
    topic, topics = pd.factorize(frame["topic"])
    docno, docnos = pd.factorize(frame["docno"])
    worker, workers = pd.factorize(frame["worker"])
    classes, code = checked or _codes(frame["label"].to_numpy(dtype=np.int64), classes,
                                      [topic, docno, worker], source, locate)
    # (topic, docno) pairs numbered in order of first appearance from the two columns'
    # codes (as a MultiIndex would, without building a tuple per label)
    item, pairs = pd.factorize(topic.astype(np.int64) * len(docnos) + docno)
    items = pd.DataFrame({"topic": np.asarray(topics, dtype=object)[pairs // len(docnos)],
                          "docno": np.asarray(docnos, dtype=object)[pairs % len(docnos)]})
    return CrowdLabels(items, np.asarray(workers, dtype=object), classes, item.astype(np.int64),
                       worker.astype(np.int64), code, source, locate)
