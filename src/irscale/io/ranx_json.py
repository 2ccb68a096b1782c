"""ranx's JSON files of qrels and runs, read and written.

ranx (Bassani 2022) saves a ``Qrels`` or a ``Run`` as JSON (``Qrels.save("q.json")``,
``Run.save("r.json")``: its ``save_json`` of ``to_dict()``): one object mapping each query
id to an object mapping each document id to its relevance (an integer) or its score (a
number)::

    {"q1": {"d2": 2, "d1": 1}, "q2": {"d3": 1}}

A file is taken for ranx's JSON (:func:`is_ranx_json`) by its name, ending in ``.json`` or
``.json.gz``, or by its first byte that is not white space, ``{`` (a regular file or bytes;
no TREC line starts with a brace where its topic id does not). It is read through the
project's bounded readers: the bytes by :func:`irscale.io.files.read_input` (the memory
limit, gzip), the text by :func:`irscale.io.json_input.parse_json` (nesting and integers
of 64 bits bounded, text that is not JSON named by line). Then every entry is checked, and
a fault is an :class:`~irscale.errors.InputFormatError` naming the file, the line of the
entry and its text: the top level not an object, a query mapping to no object or to an
empty one (a TREC file cannot hold such a query, and none is dropped silently), a query or
a document listed twice in one object (JSON parsers keep the last silently), a relevance
that is no integer, a score that is no finite number (``NaN`` and ``Infinity``, which
Python's parser accepts, included), ``true``/``false``/``null``/text as a value.

The file holds no run name: a run is named after its file (``r.json`` gives ``r``) unless
a name is given. Qrels and runs become irscale's ``Qrels`` and ``Run`` through the readers
of dicts (:mod:`irscale.io.memory`), so the duplicate policies and identifiers are those of
``{topic: {docno: value}}`` dicts.

Writing (:func:`ranx_json_bytes`, :func:`write_ranx_json`) gives the same layout, every
relevance an integer and every score the shortest text that reads back as the same double
(Python's ``repr``): ranx reads back what irscale writes, value for value, and irscale what
ranx writes. Runs are written in their rows' order (ranx sorts each query's documents by
score when it saves; the order of a JSON object carries no meaning for either).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from typing import Any

from ..errors import InputFormatError
from .call_inputs import RANX_JSON_SUFFIXES, is_ranx_json, ranx_json_name
from .files import PathLike, check_text, display_name, read_input
from .json_input import parse_json

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..core._columnar.duplicates import DuplicatePolicy
    from ..core.inputs import Qrels, Run

#: JSON's white space.
_WS = re.compile(r"[ \t\n\r]*")
#: What a JSON value that is not an object is called in a message.
_KINDS = {"list": "an array", "str": "a string", "bool": "a boolean", "NoneType": "null",
          "int": "a number", "float": "a number", "dict": "an object"}


class _Twice(Exception):
    """A key listed twice in one JSON object (raised by the parser's hook)."""

    def __init__(self, key: str, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(key)
        self.key, self.pairs = key, pairs


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; :class:`_Twice` for a key listed twice."""
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key, pairs)
            seen.add(key)
    return made


def read_ranx_qrels(source: PathLike | bytes, *, duplicates: DuplicatePolicy = "error"
                    ) -> Qrels:
    """Qrels from ranx's JSON ``{query: {document: relevance}}`` (a path, ``-`` or bytes;
    module documentation): every relevance an integer (``2.0`` is 2)."""
    from .memory import qrels_from_dict

    name, data = _read(source, "relevance")
    return qrels_from_dict(data, duplicates=duplicates, source=name)


def read_ranx_run(source: PathLike | bytes, *, name: str | None = None,
                  duplicates: DuplicatePolicy = "error") -> Run:
    """A run from ranx's JSON ``{query: {document: score}}`` (a path, ``-`` or bytes;
    module documentation), named ``name``, else after its file (``run`` for bytes)."""
    from .memory import run_from_dict

    source_name, data = _read(source, "score")
    return run_from_dict(data, name=name if name is not None else _stem(source),
                         duplicates=duplicates, source=source_name)


def _stem(source: PathLike | bytes) -> str:
    """The run name a file gives: its name without ``.json`` / ``.json.gz``."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "run"
    base = os.path.basename(os.fspath(source))
    if base in ("", "-"):
        return "run"
    for suffix in sorted(RANX_JSON_SUFFIXES, key=len, reverse=True):
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            return base[:-len(suffix)]
    return base


def _read(source: PathLike | bytes, value: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """The name of ``source`` in messages and its checked object (``value``: what the
    numbers are, ``relevance`` or ``score``)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        name, raw = "<bytes>", read_input(bytes(source), "<bytes>")
    else:
        name = display_name(source)
        raw = read_input(source)
    check_text(raw, name)
    try:
        data = parse_json(raw, name, object_pairs_hook=_pairs)
    except _Twice as twice:
        text = raw.decode("utf-8", "surrogatepass")
        raise _twice_error(text, twice, name) from None
    if not isinstance(data, dict):
        raise InputFormatError(f"ranx JSON: expected an object {{query id: {{doc id: "
                               f"{value}}}}}, the file holds "
                               f"{_KINDS.get(type(data).__name__, 'a value')}",
                               source=name, line=1, text=_line(raw, 1))
    if not data:
        from ..errors import EmptyInputError

        raise EmptyInputError("ranx JSON: no query", source=name)
    fault = _first_fault(data, value)
    if fault is not None:
        topic, doc, reason = fault
        text = raw.decode("utf-8", "surrogatepass")
        line = _line_of(text, topic, doc)
        raise InputFormatError(f"ranx JSON: {reason}", source=name, line=line,
                               text=_line(raw, line))
    return name, data


def _first_fault(data: dict[str, Any], value: str) -> tuple[str, str | None, str] | None:
    """``(query, document or None, reason)`` of the first entry of ``data`` that is not
    as ranx's JSON holds it (module documentation), or ``None``."""
    for topic, entry in data.items():
        if not isinstance(entry, dict):
            return topic, None, (f"query {topic!r} maps to "
                                 f"{_KINDS.get(type(entry).__name__, 'a value')}, expected "
                                 f"an object {{doc id: {value}}}")
        if not entry:
            return topic, None, (f"query {topic!r} holds no document (a TREC file cannot "
                                 "hold it, and irscale drops none silently)")
        for doc, number in entry.items():
            reason = _bad_value(number, value)
            if reason is not None:
                return topic, doc, f"{value} of document {doc!r} of query {topic!r} {reason}"
    return None


def _bad_value(number: object, value: str) -> str | None:
    """Why ``number`` is no ``value`` (``relevance``: an integer, ``score``: a finite
    number), or ``None``."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return f"is {_KINDS.get(type(number).__name__, 'a value')}, not a number"
    if not math.isfinite(number):
        return f"is {number!r}, not a finite number"
    if value == "relevance" and not float(number).is_integer():
        return f"is {number!r}, not an integer"
    if value == "relevance" and abs(number) >= 2**63:
        return f"is {number!r}, beyond 64 bits"
    return None


def _twice_error(text: str, twice: _Twice, name: str) -> InputFormatError:
    """The error of a key listed twice in one object: the line of its second listing."""
    for topic, doc, offset in _entries(text, keys=True):
        if doc is None and topic == twice.key and _seen_before(text, topic, offset):
            what = f"query {topic!r} is listed twice"
            break
        if doc == twice.key and _seen_before(text, topic, offset, doc):
            what = f"query {topic!r} lists document {doc!r} twice"
            break
    else:  # pragma: no cover - the parser found it: the walk does too
        return InputFormatError(f"ranx JSON: {twice.key!r} is listed twice in one object",
                                source=name)
    line = text.count("\n", 0, offset) + 1
    return InputFormatError(f"ranx JSON: {what} (a JSON parser keeps the last silently)",
                            source=name, line=line, text=_line(text.encode(), line))


def _seen_before(text: str, topic: str, offset: int, doc: str | None = None) -> bool:
    """Whether the key at ``offset`` (query ``topic``, or its document ``doc``) was
    listed before in the same object."""
    count = 0
    for t, d, at in _entries(text, keys=True):
        if at > offset:
            break
        if (d is None and doc is None and t == topic) or (doc is not None and t == topic
                                                          and d == doc):
            count += 1
    return count > 1


def _line_of(text: str, topic: str, doc: str | None) -> int:
    """The line of query ``topic``'s value (``doc`` None) or of its document ``doc``'s
    value in ``text`` (the last listing: the one the parser kept)."""
    found = 1
    for t, d, offset in _entries(text):
        if t == topic and d == doc:
            found = text.count("\n", 0, offset) + 1
    return found


def _entries(text: str, *, keys: bool = False) -> Iterator[tuple[str, str | None, int]]:
    """``(query, document, offset)`` of every value of the two-level object ``text`` (a
    JSON text the parser read): a query's own value with document ``None``, then each of
    its documents' values; ``keys``: the offsets of the keys instead."""
    decoder = json.JSONDecoder()
    at = _skip(text, 0) + 1  # past the outer "{"
    while True:
        topic, key_at, at = _member(text, at, decoder)
        if topic is None:
            return
        yield topic, None, key_at if keys else at
        if text[at] != "{":
            _, at = decoder.raw_decode(text, at)
            continue
        at += 1
        while True:
            doc, key_at, at = _member(text, at, decoder)
            if doc is None:
                break
            yield topic, doc, key_at if keys else at
            _, at = decoder.raw_decode(text, at)


def _member(text: str, at: int, decoder: json.JSONDecoder) -> tuple[str | None, int, int]:
    """The next member of the object read at ``at`` (past its ``{`` or a member's value):
    (its key, the key's offset, its value's offset); at the object's closing ``}``: (None,
    the brace's offset, the offset past it)."""
    while True:
        at = _skip(text, at)
        if text[at] != ",":
            break
        at += 1
    if text[at] == "}":
        return None, at, at + 1
    key, end = decoder.raw_decode(text, at)
    return key, at, _skip(text, _skip(text, end) + 1)  # past ":"


def _skip(text: str, at: int) -> int:
    """The offset of the first character at or after ``at`` that is not JSON's white
    space."""
    found = _WS.match(text, at)
    return found.end() if found else at


def _line(data: bytes, number: int) -> str:
    """The text of line ``number`` (1-based) of ``data``."""
    lines = data.split(b"\n", number)
    return lines[number - 1].rstrip(b"\r").decode("utf-8", "replace") \
        if len(lines) >= number else ""


# --------------------------------------------------------------------------- writing
def ranx_json_bytes(obj: Qrels | Run) -> bytes:
    """irscale's ``Qrels`` or ``Run`` as ranx's JSON (module documentation), UTF-8."""
    return json.dumps(obj.to_dict(), indent=2, ensure_ascii=False).encode("utf-8") + b"\n"


def write_ranx_json(obj: Qrels | Run, path: PathLike) -> None:
    """Write ``obj`` to ``path`` as ranx's JSON, through the one writer
    (:func:`irscale.io.files.atomic_output`: complete or not at all)."""
    from .files import atomic_output

    with atomic_output(path, "wb") as out:
        out.write(ranx_json_bytes(obj))


__all__ = ["RANX_JSON_SUFFIXES", "is_ranx_json", "ranx_json_bytes",
           "ranx_json_name", "read_ranx_qrels", "read_ranx_run", "write_ranx_json"]
