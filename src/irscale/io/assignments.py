"""Nugget assignment records: the judged nuggets of every (topic, run), as nuggetizer and
the TREC 2024 RAG track write them (``docs/text.md``).

A file is JSON lines (plain or gzip-compressed UTF-8; ``-`` reads standard input; blank
lines are ignored), one object per answer::

    {"qid": "q1", "run_id": "sysA", "nuggets": [
        {"text": "born 1942", "importance": "vital", "assignment": "support"},
        {"text": "in Liverpool", "importance": "okay", "assignment": "partial_support"}]}

* the topic: ``qid`` (or ``topic_id``, ``topic``), a string or an integer, with no blank;
* the run: ``run_id`` (or ``run``); a record without one belongs to the run the file's
  name (without ``.gz`` and its last suffix) names;
* ``nuggets``: a non-empty list of objects with ``text`` (a string), ``importance``
  (``vital`` or ``okay``) and ``assignment`` (``support``, ``partial_support`` or
  ``not_support``); a nugget's ``prob``, where given, is its inclusion probability in a
  human sample (a number in (0, 1]: :mod:`irscale.evaluation.assignments_ppi`); other
  fields are ignored.

Each line is parsed within the bounds of every JSON input
(:func:`irscale.io.json_input.parse_json_lines`: nesting, 64-bit integers). A record that
breaks a rule, and a (topic, run) given twice (in one file or two), is an
:class:`~irscale.errors.InputError` naming the file, the line and its text. In memory, a
list of such dicts (``source`` names it; its lines are the 1-based positions).

>>> a = read_assignments(b'{"qid": "q1", "run_id": "A", "nuggets": [{"text": "x", '
...                      b'"importance": "vital", "assignment": "partial_support"}]}\\n')
>>> a.topic, a.run, a.vital.tolist(), a.credit.tolist()
(('q1',), ('A',), [True], [1])
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol, TypeVar

import numpy as np

from ..errors import DuplicateError, EmptyInputError, InputError, InputFormatError
from ._text import PathLike, read_bytes, source_name
from .files import check_file_source, check_text, is_stdio
from .json_input import parse_json_lines

#: What a reader of JSON-lines records reads: a path, ``-``, an open binary file, bytes, or
#: a list of dicts.
RecordSource = PathLike | io.IOBase | bytes | Sequence[Mapping[str, Any]]


class Located(Protocol):
    """Records read from a source, a line each (:class:`Assignments`,
    :class:`~irscale.io.citations.Citations`): what :func:`read_inputs` reads of them."""

    @property
    def source(self) -> str: ...

    @property
    def line(self) -> tuple[int, ...]: ...


#: Records of one kind (:func:`read_inputs`).
T = TypeVar("T", bound=Located)
#: What makes the error of a record: ``fault(reason)``, naming its file, line and text.
Fault = Callable[[str], InputError]
#: The spellings of a record's topic and run, the first preferred.
TOPIC_KEYS = ("qid", "topic_id", "topic")
RUN_KEYS = ("run_id", "run")
#: A nugget's importance, in the order of :attr:`Assignments.vital` (False, True).
IMPORTANCE = ("okay", "vital")
#: A nugget's assignment, in the order of its code in :attr:`Assignments.credit`.
ASSIGNMENT = ("not_support", "partial_support", "support")


@dataclass(frozen=True, eq=False)
class KeyedTable:
    """Records in input order, each keyed by its topic and run, with its line: what
    :class:`Assignments` and :class:`~irscale.io.citations.Citations` share (their own
    fields follow these three), and what :func:`check_distinct` and :func:`joined_keys`
    read."""

    topic: tuple[str, ...]
    run: tuple[str, ...]
    line: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.topic)


@dataclass(frozen=True, eq=False)
class Assignments(KeyedTable):
    """Assignment records in input order: per record its topic, run and line; per nugget
    (all records' nuggets in order) its record, whether it is vital and its assignment's
    code (0 ``not_support``, 1 ``partial_support``, 2 ``support``), its text, and its
    ``prob`` (NaN where not given; None where no nugget gives one)."""

    record: np.ndarray
    vital: np.ndarray
    credit: np.ndarray
    source: str = "<assignments>"
    text: tuple[str, ...] = ()
    prob: np.ndarray | None = None

    def __repr__(self) -> str:
        return f"Assignments({len(self)} records, {len(self.record)} nuggets, " \
               f"source={self.source!r})"


def _stem_run(name: str) -> str | None:
    """The run a file's name gives its records without a run id (``sysA.jsonl.gz``:
    ``sysA``), None for standard input and data in memory."""
    if name.startswith("<") or is_stdio(name):
        return None
    path = PurePath(name)
    if path.suffix == ".gz":
        path = path.with_suffix("")
    return path.stem or None


def _identifier(record: Mapping[str, Any], keys: Sequence[str], fault: Any) -> str | None:
    """The record's topic or run under the first of ``keys`` it holds (None when it holds
    none): a string or an integer, with no blank; ``fault`` makes the error of one that is
    not."""
    key = next((k for k in keys if k in record), None)
    if key is None:
        return None
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise fault(f"{key} must be a string or an integer")
    text = str(value)
    if not text or len(text.split()) != 1 or text != text.strip():
        raise fault(f"{key} is empty or holds a blank")
    return text


def identify(record: Any, fault: Any, default_run: str | None) -> tuple[str, str]:
    """The (topic, run) of a record (a JSON object; ``default_run`` when it names no run):
    ``fault(reason)`` makes the error of a record that breaks the rules."""
    if not isinstance(record, dict):
        raise fault("a record must be a JSON object")
    topic = _identifier(record, TOPIC_KEYS, fault)
    if topic is None:
        raise fault(f"no topic ({', '.join(TOPIC_KEYS)})")
    run = _identifier(record, RUN_KEYS, fault) or default_run
    if run is None:
        raise fault(f"no run ({', '.join(RUN_KEYS)}), and no file name to name it")
    return topic, run


def _records(source: Any, what: str = "assignments"
             ) -> tuple[str, Iterator[tuple[int, Any, str]]]:
    """(name, (line, value, text) of every record) of a file or of a list of dicts
    (named ``<what>``; a file refused as ``read_<what>``'s)."""
    if isinstance(source, (list, tuple)):
        return f"<{what}>", ((k, r, json.dumps(r, default=str)[:200])
                             for k, r in enumerate(source, start=1))
    source = check_file_source(source, f"read_{what}")
    name = source_name(source)
    data = read_bytes(source).removeprefix(b"\xef\xbb\xbf")
    check_text(data, name)
    lines = data.split(b"\n")
    return name, ((n, value, lines[n - 1].rstrip(b"\r").decode("utf-8"))
                  for n, value in parse_json_lines(data, name))


class KeyedRecords:
    """The records of a file or a list of dicts (:func:`_records`), each with its (topic,
    run) identified (:func:`identify`; a record without a run takes the one its file's
    name gives): iterating gives (record, text, fault), ``fault(reason)`` making the
    error that names the record's line. Once the caller has read a record (a record both
    malformed and repeated is refused as malformed), a (topic, run) given before is a
    :class:`~irscale.errors.DuplicateError`; else its topic, run and line join
    :attr:`topic`, :attr:`run`, :attr:`line` (so that ``len(topic)`` is, while a record is
    read, its position)."""

    def __init__(self, source: Any, what: str) -> None:
        self.source, self._records = _records(source, what)
        self.topic: list[str] = []
        self.run: list[str] = []
        self.line: list[int] = []

    def __iter__(self) -> Iterator[tuple[dict[str, Any], str, Fault]]:
        name, default_run = self.source, _stem_run(self.source)
        first: dict[tuple[str, str], int] = {}
        for number, record, text in self._records:
            def fault(reason: str, number: int = number, text: str = text
                      ) -> InputFormatError:
                return InputFormatError(reason, source=name, line=number, text=text)

            topic, run = identify(record, fault, default_run)
            yield record, text, fault
            if (topic, run) in first:
                raise DuplicateError(f"(topic {topic!r}, run {run!r}) given twice (first on "
                                     f"line {first[topic, run]})", source=name, line=number,
                                     text=text)
            first[topic, run] = number
            self.topic.append(topic)
            self.run.append(run)
            self.line.append(number)

    def keys(self, what: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
        """(topics, runs, lines) of the records read: an
        :class:`~irscale.errors.EmptyInputError` (``no <what> (the file is empty)``) where
        there is none."""
        if not self.topic:
            raise EmptyInputError(f"no {what} (the file is empty)", source=self.source)
        return tuple(self.topic), tuple(self.run), tuple(self.line)


def listed(record: Mapping[str, Any], keys: Sequence[str], fault: Fault, empty: str
           ) -> tuple[str, list[Any]]:
    """(key, value) of the first of ``keys`` the record holds: a list that is not empty
    (``empty`` says why it must not be); ``fault`` makes the error of a record that has
    none, or another value."""
    key = next((k for k in keys if k in record), None)
    if key is None:
        raise fault(f"no {keys[0]}" if len(keys) == 1 else f"no {keys[0]} ({', '.join(keys)})")
    value = record[key]
    if not isinstance(value, list):
        raise fault(f"{key} must be a list of objects")
    if not value:
        raise fault(f"{key} is empty: {empty}")
    return key, value


def read_assignments(source: RecordSource) -> Assignments:
    """Read nugget assignment records (module documentation) of a :data:`RecordSource`."""
    records = KeyedRecords(source, "assignments")
    counts: list[int] = []
    vital: list[bool] = []
    credit: list[int] = []
    texts: list[str] = []
    probs: list[float] = []
    for record, _, fault in records:
        _, nuggets = listed(record, ("nuggets",), fault,
                            "every score of the record would be 0/0")
        for k, nugget in enumerate(nuggets, start=1):
            if not isinstance(nugget, dict):
                raise fault(f"nugget {k} is not an object")
            missing = [key for key in ("text", "importance", "assignment")
                       if key not in nugget]
            if missing:
                raise fault(f"nugget {k} has no {missing[0]!r}")
            if not isinstance(nugget["text"], str):
                raise fault(f"nugget {k}: text must be a string")
            if nugget["importance"] not in IMPORTANCE:
                raise fault(f"nugget {k}: importance {nugget['importance']!r} is not one of "
                            f"{', '.join(reversed(IMPORTANCE))}")
            if nugget["assignment"] not in ASSIGNMENT:
                raise fault(f"nugget {k}: assignment {nugget['assignment']!r} is not one "
                            f"of {', '.join(reversed(ASSIGNMENT))}")
            probs.append(_probability(nugget, k, fault))
            texts.append(nugget["text"])
            vital.append(nugget["importance"] == "vital")
            credit.append(ASSIGNMENT.index(nugget["assignment"]))
        counts.append(len(nuggets))
    topics, runs, lines = records.keys("assignment records")
    return Assignments(topics, runs, lines,
                       np.repeat(np.arange(len(topics), dtype=np.int64), counts),
                       np.array(vital, dtype=bool), np.array(credit, dtype=np.int8),
                       records.source, tuple(texts), _probabilities(probs))


def _probability(nugget: Mapping[str, Any], k: int, fault: Any) -> float:
    """Nugget ``k``'s ``prob`` (NaN where it gives none): a number in (0, 1]."""
    if "prob" not in nugget:
        return float("nan")
    value = nugget["prob"]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not 0 < value <= 1:
        raise fault(f"nugget {k}: prob {value!r:.40} is not an inclusion probability, a "
                    "number in (0, 1]")
    return float(value)


def _probabilities(probs: Sequence[float]) -> np.ndarray | None:
    """The nuggets' ``prob`` as an array, None where none gives one."""
    array = np.array(probs, dtype=np.float64)
    return None if np.isnan(array).all() else array


def read_inputs(value: Any, kind: type[T], reader: Callable[[Any], T],
                join: Callable[[list[T]], T]) -> tuple[T, list[tuple[str, int]]]:
    """The records of ``value`` as one (``join`` of the parts), and the file and line of
    each record: ``value`` is one input (a :data:`RecordSource`, or records of ``kind``
    already read) or a list of them, each read by ``reader`` where not of ``kind`` (a list
    of dicts is one input, not several)."""
    sources = list(value) if isinstance(value, (list, tuple)) and value and \
        not all(isinstance(item, Mapping) for item in value) else [value]
    parts = [item if isinstance(item, kind) else reader(item) for item in sources]
    return join(parts), [(p.source, line) for p in parts for line in p.line]


def check_distinct(parts: Sequence[Any]) -> None:
    """Refuse a (topic, run) in two of ``parts`` (records with ``topic``, ``run``, ``line``
    and ``source``, as a :class:`KeyedTable`'s): a :class:`~irscale.errors.DuplicateError`
    naming both."""
    seen: dict[tuple[str, str], str] = {}
    for part in parts:
        for t, r, line in zip(part.topic, part.run, part.line, strict=True):
            if (t, r) in seen:
                raise DuplicateError(f"(topic {t!r}, run {r!r}) given twice (first in "
                                     f"{seen[t, r]})", source=part.source, line=line)
            seen[t, r] = f"{part.source}, line {line}"


def joined_keys(parts: Sequence[KeyedTable]
                ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """(topics, runs, lines) of the records of ``parts`` in order, a (topic, run) in two of
    them refused (:func:`check_distinct`): the keys of the records of several inputs
    joined as one."""
    check_distinct(parts)
    return (tuple(t for p in parts for t in p.topic), tuple(r for p in parts for r in p.run),
            tuple(n for p in parts for n in p.line))


def offsets(sizes: Iterable[int]) -> np.ndarray:
    """Where each of several parts of ``sizes`` items starts once they are joined: the
    number to add to a part's indices of those items."""
    return np.cumsum([0, *sizes])[:-1]


def combine(parts: Iterable[Assignments]) -> Assignments:
    """The records of several inputs as one (a (topic, run) in two of them is a
    :class:`~irscale.errors.DuplicateError` naming both)."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    return Assignments(
        *joined_keys(parts),
        np.concatenate([p.record + o
                        for p, o in zip(parts, offsets(map(len, parts)), strict=True)]),
        np.concatenate([p.vital for p in parts]), np.concatenate([p.credit for p in parts]),
        ", ".join(p.source for p in parts), tuple(t for p in parts for t in p.text),
        _probabilities(np.concatenate([np.full(len(p.vital), np.nan) if p.prob is None
                                       else p.prob for p in parts]).tolist()))


__all__ = ["ASSIGNMENT", "IMPORTANCE", "RUN_KEYS", "TOPIC_KEYS", "Assignments", "combine",
           "read_assignments"]
