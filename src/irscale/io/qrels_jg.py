"""Reader of multi-judge qrels: trec_eval's ``-R qrels_jg`` files.

trec_eval 9.0.8 (get_qrels_jg.c) reads lines ``qid jg docno rel``: a qrels file whose
second field (ignored in plain qrels) names the judgment group (JG), one judge's or user's
judgments. A topic's judgments are split by group; each group is a set of qrels of its own
(its own relevant documents, its own R), and the measures of the ``qrels_jg`` context
(:mod:`irscale.measures.qrels_jg`) average over a topic's groups.

``rel`` is read as plain qrels read it (an integer, ``2.0`` is 2; negative: in the pool but
not judged). A document judged twice by one group of a topic is an error, as in trec_eval
("duplicate docs"); judged by two groups, it is two judgments. Unlike trec_eval, which reads
``rel`` with ``atol`` (``x`` is 0), a field count other than four, a ``rel`` that is not an
integer and a file with no judgment are errors naming the file, the line and its text.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DuplicateError, InputError
from ._text import FieldKind, LinedRows, check_int64, line_of_record, read_fields, source_name
from .text_codes import objects_of

#: The fields of a line, as the messages name them.
FIELDS = ("qid", "jg", "docno", "rel")


@dataclass(frozen=True, eq=False)
class JudgmentGroups(LinedRows):
    """Multi-judge qrels, one row per line of the file (in file order): the topic, the
    judgment group, the document and its degree (``int64``). :meth:`where` gives the file
    line of a row, for messages."""

    topic: np.ndarray
    jg: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    source: str
    _line: Callable[[int], tuple[int, str]]

    def __len__(self) -> int:
        return len(self.rel)

    def groups(self) -> dict[str, tuple[str, ...]]:
        """Every topic's judgment groups, in byte order (trec_eval's order: it sorts the
        lines by topic, group and document)."""
        found: dict[str, set[str]] = {}
        for topic, jg in zip(self.topic.tolist(), self.jg.tolist(), strict=True):
            found.setdefault(topic, set()).add(jg)
        # code-point order, that of the UTF-8 bytes (the reader refuses other bytes)
        return {topic: tuple(sorted(jgs)) for topic, jgs in found.items()}


def read_qrels_jg(source: Any) -> JudgmentGroups:
    """Read multi-judge qrels ``qid jg docno rel`` (module documentation) from a path
    (plain or gzip; ``-``: standard input), a binary stream or bytes.

    >>> j = read_qrels_jg(b"q1 u1 d1 1\\nq1 u2 d1 0\\n")
    >>> j.jg.tolist(), j.rel.tolist(), j.groups()
    (['u1', 'u2'], [1, 0], {'q1': ('u1', 'u2')})
    """
    if not isinstance(source, (str, os.PathLike, bytes, io.IOBase)):
        raise InputError(f"cannot read qrels_jg judgments from a {type(source).__name__}: "
                         "give a path, a binary stream or bytes")
    name = source_name(source)
    kinds: dict[str, FieldKind] = {f: "int" if f == "rel" else "str" for f in FIELDS}
    read, raw = read_fields(source, FIELDS, kinds, {3: check_int64}, "qrels_jg")
    columns = {f: objects_of(read.strings(f)) for f in FIELDS if f != "rel"}
    rel = np.asarray(read.numbers("rel"), dtype=np.int64)
    judged = JudgmentGroups(columns["qid"], columns["jg"], columns["docno"], rel, name,
                            lambda row: line_of_record(raw(), row))
    _refuse_duplicates(judged)
    return judged


def _refuse_duplicates(judged: JudgmentGroups) -> None:
    """A document judged twice by one group for one topic: :class:`DuplicateError` naming
    the second line and the first."""
    seen: dict[tuple[str, str, str], int] = {}
    for row, key in enumerate(zip(judged.topic.tolist(), judged.jg.tolist(),
                                  judged.docno.tolist(), strict=True)):
        first = seen.setdefault(key, row)
        if first != row:
            line, text = judged.where(row)
            raise DuplicateError(
                f"document {key[2]!r} judged twice by group {key[1]!r} for topic {key[0]!r} "
                f"(first on line {judged.where(first)[0]}; trec_eval: duplicate docs)",
                source=judged.source, line=line, text=text)


__all__ = ["FIELDS", "JudgmentGroups", "read_qrels_jg"]
