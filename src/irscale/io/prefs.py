"""Readers of preference judgments: trec_eval's ``-R prefs`` and ``-R qrels_prefs`` files.

trec_eval 9.0.8 (get_prefs.c, get_qrels_prefs.c) reads preferences from one of two forms:

* ``prefs``: ``qid jg jsg docno rel_level`` — five whitespace-separated fields: the topic,
  the judgment group (JG: one user's information need), the judgment sub-group (JSG) within
  it, the document and its level. Within a JSG a document is preferred to every document
  with a lower level; a JG's preferences are those of its JSGs, closed transitively.
* ``qrels_prefs``: a qrels file ``qid jg docno rel_level`` read as preferences — the second
  field (qrels' ``iter``, usually ``0``) is the JG and every line has the one JSG ``0``.

The levels are read as C floats (trec_eval's ``TEXT_PREFS.rel_level`` is a ``float``), so
two levels equal in single precision are one level; a level beyond a C float's range
(about ±3.4e38) is ±infinity, one below its smallest (about 1.4e-45) is 0, with a warning
naming the first such line. Unlike trec_eval, which reads the level
with ``atof`` (``x`` is 0.0) and counts an empty file as unreadable, a field count other
than the form's, a level that is not a finite decimal number and a file with no judgment are
errors naming the file, the line and its text. A blank line is skipped, as in qrels.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.input_messages import c_float_level_warning
from ..errors import InputError, InputFormatError
from ._text import FieldKind, LinedRows, is_float, line_of_record, read_fields, source_name
from .text_codes import objects_of

#: The forms of preference judgments trec_eval reads (its ``-R`` values besides ``qrels``).
PrefsForm = Literal["prefs", "qrels_prefs"]
PREFS_FORMS: tuple[str, ...] = ("prefs", "qrels_prefs")

#: The fields of each form, as the messages name them.
_FIELDS: dict[str, tuple[str, ...]] = {
    "prefs": ("qid", "jg", "jsg", "docno", "rel"),
    "qrels_prefs": ("qid", "jg", "docno", "rel"),
}


@dataclass(frozen=True, eq=False)
class PrefsJudgments(LinedRows):
    """Preference judgments, one row per line of the file (in file order).

    ``level`` holds the levels as C floats (``float32``); ``jsg`` is ``"0"`` on every row of
    the ``qrels_prefs`` form. :meth:`where` gives the file line of a row, for messages.
    """

    topic: np.ndarray
    jg: np.ndarray
    jsg: np.ndarray
    docno: np.ndarray
    level: np.ndarray
    source: str
    form: PrefsForm
    _line: Callable[[int], tuple[int, str]]

    def __len__(self) -> int:
        return len(self.level)


def read_prefs(source: Any, form: PrefsForm = "prefs") -> PrefsJudgments:
    """Read preference judgments of ``form`` (module documentation) from a path (plain or
    gzip; ``-``: standard input), a binary stream or bytes.

    >>> p = read_prefs(b"q1 u1 s1 d1 3\\nq1 u1 s1 d2 0\\n")
    >>> p.docno.tolist(), p.level.tolist(), p.jsg.tolist()
    (['d1', 'd2'], [3.0, 0.0], ['s1', 's1'])
    >>> read_prefs(b"q1 0 d1 1\\n", "qrels_prefs").jsg.tolist()
    ['0']
    """
    if form not in PREFS_FORMS:
        raise InputError(f"unknown preference form {form!r}: use one of "
                         f"{', '.join(PREFS_FORMS)}")
    if not isinstance(source, (str, os.PathLike, bytes, io.IOBase)):
        raise InputError(f"cannot read {form} judgments from a {type(source).__name__}: "
                         "give a path, a binary stream or bytes")
    fields = _FIELDS[form]
    name = source_name(source)
    kinds: dict[str, FieldKind] = {f: "float" if f == "rel" else "str" for f in fields}
    read, raw = read_fields(
        source, fields, kinds,
        {len(fields) - 1: lambda text: None if is_float(text) else "is not a number"},
        form,
    )
    level = read.numbers("rel")
    bad = np.flatnonzero(~np.isfinite(level))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError("rel is not a finite number", source=name, line=line,
                               text=text)
    columns = {f: objects_of(read.strings(f)) for f in fields if f != "rel"}
    jsg = columns["jsg"] if form == "prefs" else np.full(len(level), "0", dtype=object)
    with np.errstate(over="ignore"):  # beyond a C float's range: ±inf, as C converts
        single = level.astype(np.float32)
    changed = np.flatnonzero(np.isinf(single) | ((single == 0) & (level != 0)))
    if len(changed):
        line, text = line_of_record(raw(), int(changed[0]))
        warnings.warn(c_float_level_warning(f"{name}, line {line}", len(changed), text),
                      stacklevel=2)
    return PrefsJudgments(columns["qid"], columns["jg"], jsg, columns["docno"],
                          single, name, form,
                          lambda row: line_of_record(raw(), row))


__all__ = ["PREFS_FORMS", "PrefsForm", "PrefsJudgments", "read_prefs"]
