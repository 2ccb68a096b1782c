"""JSON inputs parsed within bounds: the one parser of every JSON text irscale reads (a
click model's parameters, a simulation's checkpoint; a ``--cache`` entry's header is packed
instead: :func:`irscale.io.regular_files.unpack`).

Python's parser recurses once per nested array or object, so a file of 100,000 ``[`` ends
in a ``RecursionError``, and it converts an integer of more than 4,300 digits only to
refuse it with advice about ``sys.set_int_max_str_digits`` meant for programmers. Before
the text is parsed, :func:`parse_json` looks at it (outside its strings): nesting
deeper than :data:`MAX_DEPTH` and an integer beyond 64 bits (a float, ``1e400`` or
``0.5``, is not an integer) are :class:`~irscale.errors.InputFormatError` naming the
source, the line and its text, as is text that is not JSON. The look costs a few passes of
compiled code over the text (its strings split off at their quotes, the brackets counted by
:func:`itertools.accumulate`, runs of 19 digits found by a plain search); the text is read
token by token, for the line of the fault, only when there may be one.

>>> parse_json(b'{"model": "cm", "prior": [1, 1]}', "m.json")
{'model': 'cm', 'prior': [1, 1]}
>>> from irscale.errors import InputFormatError
>>> try:
...     parse_json(b'{"n": [1,\\n 99999999999999999999]}', "m.json")
... except InputFormatError as error:
...     print(error.source, error.line, error.reason.split(" (")[0])
m.json 2 the integer 99999999999999999999 is beyond 64 bits
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from ..errors import InputFormatError, shorten
from .regular_files import MAX_DEPTH  # (the bound of every structured input)

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover  (typing: not for a cache hit)
    from collections.abc import Callable, Iterator
    from typing import Any

#: The largest integer a JSON input may hold, and the smallest: 64 bits, as the integer
#: fields of every other input (``irscale.io._text.check_int64``).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

#: What the look at a text finds, in order: a string (skipped), a bracket, the digits of an
#: integer of 19 digits or more (those that may pass 64 bits: not the fraction or the
#: exponent of a float, nor followed by them).
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]|(?<![\w.+-])-?[0-9]{19,}(?![\w.])', re.S)
#: The bytes that open (+1) and close (-1) a level of nesting.
_STEP = [0] * 256
for _byte in b"[{":
    _STEP[_byte] = 1
for _byte in b"]}":
    _STEP[_byte] = -1
#: Every byte but the brackets (deleted to count them).
_NOT_BRACKETS = bytes(b for b in range(256) if not _STEP[b])
#: Every digit made ``0`` (to find runs of digits by a plain search).
_DIGITS = bytes.maketrans(b"123456789", b"000000000")
#: The shortest run of digits that may be an integer beyond 64 bits.
_LONG_RUN = b"0" * 19


def parse_json(text: str | bytes, source: str, *,
               object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None
               ) -> Any:
    """The value of the JSON ``text`` (UTF-8 bytes or a ``str``), named ``source`` in
    errors: :class:`~irscale.errors.InputFormatError` naming the line and its text for
    nesting deeper than :data:`MAX_DEPTH`, an integer beyond 64 bits, and text that is not
    JSON (module documentation). ``object_pairs_hook``: :func:`json.loads`'s, which makes
    each object of its key-value pairs (a reader that refuses a key listed twice)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if _may_exceed(data):
        _refuse_first(data, source)
    try:
        return json.loads(data, object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as error:
        raise InputFormatError(f"not JSON: {error.msg} (column {error.colno})",
                               source=source, line=error.lineno,
                               text=_line(data, error.lineno)) from None
    except ValueError as error:  # not UTF-8 (the callers check the text before)
        raise InputFormatError(f"not JSON: {error}", source=source) from None


def _may_exceed(data: bytes) -> bool:
    """Whether ``data`` may nest deeper than :data:`MAX_DEPTH` or hold an integer beyond
    64 bits, told by compiled passes over it: outside its strings (split at their quotes,
    escaped ones masked first), the running count of its brackets
    (:func:`itertools.accumulate`), and a run of 19 digits or more."""
    if b"\\" in data:  # an escaped backslash or quote ends no string
        data = data.replace(b"\\\\", b"__").replace(b'\\"', b"__")
    bare = b'""'.join(data.split(b'"')[0::2])
    brackets = bare.translate(None, _NOT_BRACKETS)
    return (len(brackets) > MAX_DEPTH
            and max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH) or \
        _LONG_RUN in bare.translate(_DIGITS)


def _refuse_first(data: bytes, source: str) -> None:
    """Raise the error of the first bracket of ``data`` deeper than :data:`MAX_DEPTH` or
    integer beyond 64 bits, if any (:data:`_TOKENS`, one token at a time)."""
    depth = 0
    for found in _TOKENS.finditer(data):
        token = found[0]
        if token[0] == ord('"'):
            continue
        if _STEP[token[0]]:
            depth += _STEP[token[0]]
            if depth > MAX_DEPTH:
                raise _fault(f"arrays and objects nested deeper than {MAX_DEPTH} levels, "
                             "the deepest irscale reads", data, found.start(), source)
            continue
        digits = token.lstrip(b"-")
        if len(digits) > 19 or not INT64_MIN <= int(token) <= INT64_MAX:
            written = token.decode("ascii")
            shown = written if len(written) <= 60 else \
                f"{shorten(written, 60, counted=False)} ({len(digits):,} digits)"
            raise _fault(f"the integer {shown} is beyond 64 bits (integers lie within "
                         "±9,223,372,036,854,775,807)", data, found.start(), source)


def _fault(reason: str, data: bytes, at: int, source: str) -> InputFormatError:
    """The error of the fault at offset ``at`` of ``data``: its line number and text."""
    number = data.count(b"\n", 0, at) + 1
    return InputFormatError(reason, source=source, line=number, text=_line(data, number))


def _line(data: bytes, number: int) -> str:
    """The text of line ``number`` (1-based) of ``data``."""
    start = 0
    for _ in range(number - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return ""
    end = data.find(b"\n", start)
    return data[start:end if end >= 0 else len(data)].rstrip(b"\r").decode(
        "utf-8", errors="replace")


def parse_json_lines(data: bytes, source: str) -> Iterator[tuple[int, Any]]:
    """(1-based line number, value) of every non-blank line of the JSON lines text
    ``data`` (UTF-8, checked by the caller: :func:`irscale.io.files.check_text`), each line
    parsed by :func:`parse_json` within its bounds; a fault names ``source``, the line of
    the file and its text."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            yield number, parse_json(raw, source)
        except InputFormatError as error:
            raise InputFormatError(error.reason, source=source, line=number,
                                   text=raw.rstrip(b"\r").decode("utf-8", errors="replace")
                                   ) from None


__all__ = ["MAX_DEPTH", "parse_json", "parse_json_lines"]
