"""Readers of label sets (:class:`~irscale.core.labels.LabelTable`): a second judgment file
in qrels format, a mapping or a DataFrame (see :mod:`irscale.core.labels`)."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..core._columnar.blocks import as_string_array
from ..core._columnar.duplicates import resolve_duplicates
from ..core.inputs import Qrels
from ..core.labels import ANY_TOPIC, LabelTable
from ..core.strings import Strings
from ..errors import InputError, InputFormatError
from .memory import DOC_COLUMNS, TOPIC_COLUMNS, find_column


def read_labels(source: Any, *, several: bool = False) -> LabelTable:
    """A :class:`LabelTable` from a file path, bytes, mapping, DataFrame or :class:`Qrels`.

    A (topic, docno) pair listed twice is an error naming the second line, unless
    ``several``: then a pair may hold several values, one a line (a mapping gives them as a
    list: ``{"d1": [1, 3]}``), and only the same value twice for a pair is refused (the
    document groups of the fairness measures: a document in several groups,
    :func:`irscale.core.labels.memberships`).

    >>> t = read_labels(b"101 0 d1 95\\n101 0 d2 7\\n")
    >>> t
    LabelTable(2 values, source='<bytes>')
    >>> t.value.tolist()
    [95.0, 7.0]
    >>> read_labels({"d1": 0.5, "d2": 0.25}).topic.to_pylist()  # "*": every topic
    ['*', '*']
    """
    if isinstance(source, LabelTable):
        return source
    if isinstance(source, Qrels):
        return LabelTable(source.topic, source.docno, source.rel.astype(np.float64),
                          source.source)
    if isinstance(source, (str, os.PathLike, bytes, io.IOBase)):
        return _read_file(source, several)
    if isinstance(source, Mapping):
        return _from_mapping(source, several)
    if hasattr(source, "columns"):
        return _from_frame(source, several)
    raise InputError(f"cannot use a {type(source).__name__} as a label set")


def _read_file(source: Any, several: bool) -> LabelTable:
    """A label file read by the text reader (:func:`irscale.io._text.read_fields`, imported
    here: evaluations without label sets need not load it)."""
    from ._text import is_float, line_of_record, read_fields, source_name

    name = source_name(source)
    fields, raw = read_fields(
        source,
        ("qid", "iter", "docno", "value"),
        {"qid": "str", "docno": "str", "value": "float"},
        {3: lambda text: None if is_float(text) else "is not a number"},
        "labels",
    )
    return _checked(fields.strings("qid"), fields.strings("docno"), fields.numbers("value"),
                    name, lambda row: line_of_record(raw(), row), several)


def _from_mapping(data: Mapping[Any, Any], several: bool) -> LabelTable:
    topics: list[str] = []
    docs: list[str] = []
    values: list[Any] = []

    def add(topic: str, doc: Any, value: Any) -> None:
        listed = several and isinstance(value, (list, tuple))
        for one in value if listed else [value]:
            topics.append(topic)
            docs.append(str(doc))
            values.append(one)

    for key, entry in data.items():
        if isinstance(entry, Mapping):
            for doc, value in entry.items():
                add(str(key), doc, value)
        else:  # {docno: value}: the same value for every topic
            add(ANY_TOPIC, key, entry)
    return _checked(Strings.of(topics), Strings.of(docs),
                    _numbers(values, "<labels dict>"), "<labels dict>",
                    lambda row: (None, f"{topics[row]} {docs[row]} {values[row]}"), several)


def _from_frame(frame: Any, several: bool) -> LabelTable:
    source = "<labels DataFrame>"
    t = find_column(frame.columns, TOPIC_COLUMNS, "topic", source)
    d = find_column(frame.columns, DOC_COLUMNS, "document", source)
    v = find_column(frame.columns, ("value", "label", "relevance", "rel", "score"), "value", source)
    topics, docs = frame[t].astype(str).tolist(), frame[d].astype(str).tolist()
    values = frame[v].tolist()
    return _checked(Strings.of(topics), Strings.of(docs),
                    _numbers(values, source), source,
                    lambda row: (None, f"{topics[row]} {docs[row]} {values[row]}"), several)


def _numbers(values: list[Any], source: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        bad = next(v for v in values if not _is_number(v))
        raise InputError(f"label value {bad!r} is not a number", source=source) from None


def _is_number(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _checked(topic: object, docno: object, value: np.ndarray,
             source: str, describe: Callable[[int], tuple[int | None, str]],
             several: bool = False) -> LabelTable:
    """The label table of the columns (topic and docno: any column
    :func:`~irscale.core._columnar.blocks.as_string_array` converts), checked."""
    topic_column, docno_column = as_string_array(topic), as_string_array(docno)
    if len(value) == 0:
        raise InputError("empty label set", source=source)
    value = np.asarray(value, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(value))
    if len(bad):
        line, text = describe(int(bad[0]))
        raise InputFormatError("label value is not a finite number", source=source, line=line,
                               text=text)
    if several:
        _refuse_repeated_values(topic_column, docno_column, value, source, describe)
    else:
        resolve_duplicates(topic_column, docno_column, value, "error", source, describe)
    return LabelTable(topic=topic_column, docno=docno_column, value=value, source=source,
                      describe=describe)


def _refuse_repeated_values(topic: Strings, docno: Strings, value: np.ndarray,
                            source: str, describe: Callable[[int], tuple[int | None, str]]
                            ) -> None:
    """The same (topic, docno, value) twice: an error naming its second line."""
    codes = [column.encode()[0] for column in (topic, docno)]
    _, value_code = np.unique(value, return_inverse=True)
    order = np.lexsort((np.arange(len(value)), value_code.ravel(), codes[1], codes[0]))
    key = np.c_[codes[0], codes[1], value_code.ravel()][order]
    again = np.flatnonzero((key[1:] == key[:-1]).all(axis=1))
    if len(again):
        line, text = describe(int(order[again + 1].min()))
        raise InputFormatError("the same document is listed twice with the same value (for "
                               "the same topic)", source=source, line=line, text=text)


__all__ = ["read_labels"]
