"""Readers of textual outputs, reference texts, nuggets/iUnits, nugget matches and output
lengths (``docs/text.md``).

Formats (plain or gzip-compressed UTF-8; ``-`` reads standard input; blank lines are
ignored; every error names the file, the 1-based line and its text):

* **texts** ``topic<TAB>id<TAB>text``: one text per line; ``id`` is the run id of a
  candidate (system output) or the id of a reference text. Topic and id are separated by
  one tab each and hold no blank; the text is the rest of the line (it may hold spaces
  and tabs) and must not be blank. A (topic, id) given twice is an error. One file may
  hold several runs.
* **nuggets** ``topic nugget_id weight vital|okay [vital_string]`` (fields separated by
  blanks): the gold-standard nuggets (iUnits) of every topic with their weight (0, or a
  number from 2.2e-308 to 1.8e308: what a double holds exactly), their TREC QA label
  and, for the S/T measures, their vital string (the rest of the line). A (topic,
  nugget_id) given twice is an error.
* **matches** ``topic run nugget_id offset``: nugget ``nugget_id`` was found in the output
  of ``run`` for ``topic``, ending at character ``offset`` (a whole number ≥ 0: pos(v) of
  Sakai (2014), eq. 43). A nugget matched twice in one output is an error.
* **lengths** ``topic run length``: the length of an output in characters (a whole number
  ≥ 1).
"""

from __future__ import annotations

import decimal
import io
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..errors import DuplicateError, EmptyInputError, InputError, InputFormatError
from ._text import LineRecords, PathLike, is_float, is_int, iter_lines, read_bytes, source_name
from .files import check_file_source, check_text

NUGGET_FIELDS = ("topic", "nugget_id", "weight", "vital|okay", "[vital_string]")
MATCH_FIELDS = ("topic", "run", "nugget_id", "offset")
LENGTH_FIELDS = ("topic", "run", "length")
#: What :func:`_table` builds (:class:`Nuggets`, :class:`Matches`, :class:`Lengths`).
_T = TypeVar("_T")
LABELS = ("vital", "okay")


def _lines(source: PathLike | io.IOBase | bytes, where: str) -> tuple[str, Iterator[
        tuple[int, str]]]:
    """(name, the non-blank lines with their numbers) of an input (UTF-8, no NUL byte; a
    byte order mark that starts it is no part of its first line, as for the TREC files)."""
    source = check_file_source(source, where)
    name = source_name(source)
    data = read_bytes(source).removeprefix(b"\xef\xbb\xbf")
    check_text(data, name)
    return name, ((n, text) for n, text in iter_lines(data) if text.strip())


def _whole(text: str, low: int) -> int | None:
    """``text`` as a whole number ≥ ``low`` (None if it is not one)."""
    if not is_int(text) or int(text) < low or int(text) >= 2**53:
        return None
    return int(text)


def _weight_problem(text: str) -> str | None:
    """Why ``text`` is not a weight (a number ≥ 0 that a double holds to its full precision:
    0, or from 2.2e-308 to 1.8e308), or None."""
    if not is_float(text) or math.isnan(float(text)) or float(text) < 0:
        return "is not a finite number ≥ 0"
    value = float(text)
    if math.isinf(value):
        return f"is too large for a double (at most {sys.float_info.max:.4g})"
    if value < sys.float_info.min and decimal.Decimal(text) != 0:
        return (f"is too small for a double to hold it exactly (0, or at least "
                f"{sys.float_info.min:.4g}); scale the topic's weights up")
    return None


class _Keys:
    """Lines seen by key, for duplicate errors naming the first line."""

    def __init__(self, name: str, what: str) -> None:
        self.name, self.what = name, what
        self.first: dict[tuple[str, ...], int] = {}

    def add(self, key: tuple[str, ...], line: int, text: str) -> None:
        if key in self.first:
            raise DuplicateError(f"{self.what} given twice (first on line {self.first[key]})",
                                 source=self.name, line=line, text=text)
        self.first[key] = line


@dataclass(frozen=True, eq=False)
class Texts(LineRecords):
    """Texts ``topic id text`` in file order (candidates: ``id`` is the run)."""

    topic: tuple[str, ...]
    id: tuple[str, ...]
    text: tuple[str, ...]
    line: tuple[int, ...]
    source: str = "<texts>"

    def to_frame(self):
        """The texts as a DataFrame ``topic, id, text``."""
        import pandas as pd

        return pd.DataFrame({"topic": self.topic, "id": self.id, "text": self.text})

    def __repr__(self) -> str:
        return f"Texts({len(self)} texts, {len(set(self.topic))} topics, " \
               f"source={self.source!r})"


def candidate_runs(candidates: Sequence[Texts]) -> list[str]:
    """The runs of candidate texts, in the order they first appear; a run with two texts
    for one topic (in one source or two) is an :class:`InputError` naming both."""
    runs: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for c in candidates:
        for t, r in zip(c.topic, c.id, strict=True):
            if (t, r) in seen:
                raise InputError(f"run {r!r} has two texts for topic {t!r} (in "
                                 f"{seen[t, r]} and {c.source})")
            seen[t, r] = c.source
            if r not in runs:
                runs.append(r)
    return runs


def read_texts(source: PathLike | io.IOBase | bytes, *, what: str = "texts") -> Texts:
    """Read texts ``topic<TAB>id<TAB>text`` (module documentation).

    >>> t = read_texts(b"q1\\tsysA\\tThe cat sat.\\nq1\\tsysB\\tA dog\\tbarked.\\n")
    >>> t.id, t.text
    (('sysA', 'sysB'), ('The cat sat.', 'A dog\\tbarked.'))
    """
    name, lines = _lines(source, f"read_texts ({what})")
    topic, ident, texts, numbers = [], [], [], []
    seen = _Keys(name, "(topic, id)")
    for number, line in lines:
        fields = line.split("\t", 2)
        if len(fields) < 3:
            raise InputFormatError(f"expected topic<TAB>id<TAB>text in {what} (fields "
                                   "separated by tabs)", source=name, line=number, text=line)
        t, k, body = fields[0].strip(), fields[1].strip(), fields[2]
        for field, value in (("topic", t), ("id", k)):
            if not value or len(value.split()) != 1:
                raise InputFormatError(f"{field} is empty or holds a blank", source=name,
                                       line=number, text=line)
        if not body.strip():
            raise InputFormatError("empty text", source=name, line=number, text=line)
        seen.add((t, k), number, line)
        topic.append(t)
        ident.append(k)
        texts.append(body)
        numbers.append(number)
    if not texts:
        raise EmptyInputError(f"no {what} (the file is empty)", source=name)
    return Texts(tuple(topic), tuple(ident), tuple(texts), tuple(numbers), name)


@dataclass(frozen=True, eq=False)
class Nuggets(LineRecords):
    """Gold-standard nuggets (iUnits) in file order (module documentation)."""

    topic: tuple[str, ...]
    nugget: tuple[str, ...]
    weight: tuple[float, ...]
    vital: tuple[bool, ...]
    #: The vital string of each nugget (None where the line has none).
    vital_string: tuple[str | None, ...]
    line: tuple[int, ...]
    source: str = "<nuggets>"

    def __repr__(self) -> str:
        return f"Nuggets({len(self)} nuggets, {len(set(self.topic))} topics, " \
               f"source={self.source!r})"


def read_nuggets(source: PathLike | io.IOBase | bytes) -> Nuggets:
    """Read nuggets ``topic nugget_id weight vital|okay [vital_string]``.

    >>> n = read_nuggets(b"q1 n1 2 vital born 6/18/1942\\nq1 n2 1 okay\\n")
    >>> n.weight, n.vital, n.vital_string
    ((2.0, 1.0), (True, False), ('born 6/18/1942', None))
    """
    name, lines = _lines(source, "read_nuggets")
    cols: dict[str, list] = {k: [] for k in ("topic", "nugget", "weight", "vital",
                                             "vital_string", "line")}
    seen = _Keys(name, "nugget")
    for number, line in lines:
        fields = line.split(None, 4)
        if len(fields) < 4:
            raise InputFormatError(f"expected at least 4 fields ({' '.join(NUGGET_FIELDS)})"
                                   f" in nuggets, got {len(fields)}", source=name,
                                   line=number, text=line)
        problem = _weight_problem(fields[2])
        if problem is not None:
            raise InputFormatError(f"weight {problem}", source=name, line=number, text=line)
        if fields[3] not in LABELS:
            raise InputFormatError(f"label is not one of {', '.join(LABELS)}", source=name,
                                   line=number, text=line)
        seen.add((fields[0], fields[1]), number, line)
        cols["topic"].append(fields[0])
        cols["nugget"].append(fields[1])
        cols["weight"].append(float(fields[2]))
        cols["vital"].append(fields[3] == "vital")
        cols["vital_string"].append(fields[4].strip() if len(fields) > 4 else None)
        cols["line"].append(number)
    return _table(Nuggets, cols, name, "nuggets")


@dataclass(frozen=True, eq=False)
class Matches(LineRecords):
    """Nugget matches ``topic run nugget_id offset`` in file order."""

    topic: tuple[str, ...]
    run: tuple[str, ...]
    nugget: tuple[str, ...]
    offset: tuple[int, ...]
    line: tuple[int, ...]
    source: str = "<matches>"


def read_matches(source: PathLike | io.IOBase | bytes) -> Matches:
    """Read nugget matches ``topic run nugget_id offset``.

    >>> read_matches(b"q1 sysA n1 30\\n").offset
    (30,)
    """
    name, lines = _lines(source, "read_matches")
    cols: dict[str, list] = {k: [] for k in ("topic", "run", "nugget", "offset", "line")}
    seen = _Keys(name, "nugget match (topic, run, nugget)")
    for number, line in lines:
        fields = _fields(line, MATCH_FIELDS, "matches", name, number)
        offset = _whole(fields[3], 0)
        if offset is None:
            problem = "is negative" if is_int(fields[3]) and int(fields[3]) < 0 else \
                "is not a whole number ≥ 0"
            raise InputFormatError(f"offset {problem}", source=name, line=number, text=line)
        seen.add(tuple(fields[:3]), number, line)
        for key, value in zip(("topic", "run", "nugget"), fields[:3], strict=True):
            cols[key].append(value)
        cols["offset"].append(offset)
        cols["line"].append(number)
    return _table(Matches, cols, name, "nugget matches")


@dataclass(frozen=True, eq=False)
class Lengths:
    """Output lengths ``topic run length`` in file order."""

    topic: tuple[str, ...]
    run: tuple[str, ...]
    length: tuple[int, ...]
    line: tuple[int, ...]
    source: str = "<lengths>"


def read_lengths(source: PathLike | io.IOBase | bytes) -> Lengths:
    """Read output lengths ``topic run length``.

    >>> read_lengths(b"q1 sysA 120\\n").length
    (120,)
    """
    name, lines = _lines(source, "read_lengths")
    cols: dict[str, list] = {k: [] for k in ("topic", "run", "length", "line")}
    seen = _Keys(name, "output length (topic, run)")
    for number, line in lines:
        fields = _fields(line, LENGTH_FIELDS, "lengths", name, number)
        length = _whole(fields[2], 1)
        if length is None:
            raise InputFormatError("length is not a whole number ≥ 1 (an empty output)",
                                   source=name, line=number, text=line)
        seen.add(tuple(fields[:2]), number, line)
        cols["topic"].append(fields[0])
        cols["run"].append(fields[1])
        cols["length"].append(length)
        cols["line"].append(number)
    return _table(Lengths, cols, name, "output lengths")


def _fields(line: str, names: Sequence[str], what: str, source: str, number: int
            ) -> list[str]:
    """The blank-separated fields of a line of ``what`` that holds one field per name of
    ``names``, no more and no fewer (an :class:`InputFormatError` naming them)."""
    fields = line.split()
    if len(fields) != len(names):
        raise InputFormatError(f"expected {len(names)} fields ({' '.join(names)}) in {what}, "
                               f"got {len(fields)}", source=source, line=number, text=line)
    return fields


def _table(cls: Callable[..., _T], cols: dict[str, list], source: str, what: str) -> _T:
    """The columns read (``line`` among them) as ``cls``; none read is an
    :class:`EmptyInputError` (``no <what>``)."""
    if not cols["line"]:
        raise EmptyInputError(f"no {what} (the file is empty)", source=source)
    return cls(**{k: tuple(v) for k, v in cols.items()}, source=source)


def read_stopwords(source: PathLike | io.IOBase | bytes) -> frozenset[str]:
    """Read a stop-word list: words separated by blanks or lines (``#`` starts a comment).

    Tokens are lower-case runs of ``a–z`` and ``0–9`` (:func:`irscale.text.rouge.tokenize`),
    so a word that is not one could never match: it is an error naming its line.

    >>> sorted(read_stopwords(b"the a  # articles\\nof\\n"))
    ['a', 'of', 'the']
    """
    name, lines = _lines(source, "read_stopwords")
    words: set[str] = set()
    for number, line in lines:
        for word in line.split("#", 1)[0].split():
            if not word.isascii() or not word.isalnum() or word != word.lower():
                raise InputFormatError(f"stop word {word!r} can never match a token (tokens "
                                       "are lower-case letters a-z and digits)",
                                       source=name, line=number, text=line)
            words.add(word)
    return frozenset(words)
