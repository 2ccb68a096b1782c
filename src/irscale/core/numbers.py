"""The one guard of the numbers irscale prints or writes, and numpy's floating-point warnings
as errors (``docs/errors.md`` §2 and §6).

**The guard.** Every table a result prints or writes passes :func:`check_table` where it
is formatted (:func:`irscale.stats.tables.render`: text, Markdown, LaTeX, CSV and JSON;
the CSV, JSON and Markdown of evaluations, :mod:`irscale.io.output`; the tables the
commands write themselves, :func:`csv_text`; JSON documents, :func:`json_text`), and every
score of a run written (fused runs, :mod:`irscale.io.trec_write`) passes
:func:`check_finite`. A number is finite, or its table declares what a non-finite one
means (:func:`declare`, on the data frame, where the result builds it):

* :func:`undefined` — a NaN is a value that has no meaning (a rank correlation of a
  ranking that ties every item, the standard deviation of one run): shown
  :data:`UNDEFINED` (JSON: ``null``), with one warning that names the column and the
  cause;
* :func:`blank` — a NaN is a cell the table's form leaves empty (the F test of an ANOVA's
  residual row, the bootstrap interval of a call that asked for none): shown empty
  (JSON: ``null``), without a warning;
* :func:`infinite` — ±inf is meant (the open end of a one-sided interval): shown ``inf``
  and ``-inf`` (JSON: ``null``).

Anything else — a NaN or an infinity no declaration explains — is a fault of irscale
(a computation that should have refused its input or computed otherwise): a
:class:`NumberError`, which the command line reports as an internal error (status 3),
never as a blank cell, ``nan`` or ``inf``.

**The guard on text.** What a command writes as text passes :func:`check_text` on its way
out (the one writer of the command line, :mod:`irscale.cli.outputs`): a field that spells a
non-finite number (``nan``, ``-nan``, ``inf``, ``-inf``, ``Infinity``, any case: a token
between separators of a table, CSV or JSON line) is a :class:`NumberError` unless the call
declared that spelling (:func:`declare_words`). The renderers declare what they mean: a
table whose declared infinities are present (:func:`check_table`: ``inf``, ``-inf``), the
trec_eval format's ``-nan`` (trec_eval's 0/0, :mod:`irscale.io.output`), and identifiers
of the inputs that happen to spell such a word (a topic ``nan``: the text cells of a table,
the topics and runs of an evaluation, the fields of a run written: :func:`identifiers`).
A text a command builds by hand declares nothing, so a ``nan`` of its own never leaves.

**Floating-point warnings.** numpy warns (``RuntimeWarning: overflow encountered in
multiply``) and goes on with an infinity or a NaN. Inside irscale they are errors:
:func:`floating_point_errors` raises them where they arise, for the computations of a
command (a warnings filter: the command owns its process, every thread of it included,
and numpy need not be imported to set it) and of a call of the Python API
(:func:`raising`: numpy's error state, which is the caller's thread's only). A computation
that means to produce an infinity or a NaN says so with ``np.errstate`` where it does;
:func:`floating_point_cause` recognises the error either way.

This module imports the standard library only (numpy and pandas where a function uses
them, and :mod:`math`, a shared library, which the text of trec_eval's measures does
without): the command line sets the filter before it imports anything numerical.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import warnings
from collections.abc import Iterator, Mapping

from .records import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import re
    from typing import Any, NoReturn, TypeVar

    import pandas as pd

    from .columns import Columns

    #: A table the guard checks: a data frame, or its columns without pandas.
    Table = pd.DataFrame | Columns
    T = TypeVar("T", pd.DataFrame, Columns)

#: How a table spells a value that is undefined (never a blank, ``nan`` or ``None``).
UNDEFINED = "undefined"
#: Where a data frame keeps the declarations of its columns (:func:`declare`): pandas
#: carries ``attrs`` through copies, selections and renamings.
ATTRS_KEY = "irscale.numbers"


class NumberError(RuntimeError):
    """A non-finite number that no declaration explains reached an output: a fault of
    irscale (the command line's internal error, status 3), never shown as a number."""


@record
class Meaning:
    """What the non-finite values of a column mean: ``nan`` (why a NaN is there; ``None``:
    a NaN is a fault), ``empty`` (a NaN is a cell the table's form leaves empty, not an
    undefined value) and ``infinite`` (why ±inf is meant; ``None``: a fault)."""

    nan: str | None = None
    empty: bool = False
    infinite: str | None = None

    def __or__(self, other: Meaning) -> Meaning:
        """Both meanings (``undefined(...) | infinite(...)``)."""
        return Meaning(self.nan or other.nan, self.empty or other.empty,
                       self.infinite or other.infinite)


def undefined(cause: str) -> Meaning:
    """A NaN of the column is undefined for ``cause`` (shown :data:`UNDEFINED`, warned)."""
    return Meaning(nan=cause)


def blank(why: str) -> Meaning:
    """A NaN of the column is a cell left empty by the table's form, for ``why``."""
    return Meaning(nan=why, empty=True)


def infinite(why: str) -> Meaning:
    """An infinity of the column is meant, for ``why``."""
    return Meaning(infinite=why)


def declare(frame: T, meanings: Mapping[str, Meaning]) -> T:
    """``frame`` (itself, returned) with the meanings of the non-finite values of its
    columns ``meanings`` declared (added to those declared before)."""
    declared = dict(frame.attrs.get(ATTRS_KEY, {}))
    declared.update(meanings)
    frame.attrs[ATTRS_KEY] = declared
    return frame


def declared(frame: Table) -> dict[str, Meaning]:
    """The meanings declared on ``frame``'s columns (:func:`declare`)."""
    return dict(frame.attrs.get(ATTRS_KEY, {}))


def _non_finite(column: pd.Series | Any) -> tuple[Any, Any]:
    """Where ``column`` holds a NaN and where an infinity (boolean arrays), whatever its
    type: a float column, a nullable numeric one (its ``NA`` a NaN), or objects some of
    which are floats; a pandas column or a numpy one (:class:`irscale.core.columns.
    Columns`)."""
    import math

    import numpy as np

    none = np.zeros(len(column), bool)
    if not isinstance(column.dtype, np.dtype):  # pandas' extension types
        if column.dtype.kind not in "iufb":  # text, categories: no numbers
            return none, none
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        return np.isnan(values), np.isinf(values)
    values = np.asarray(column)
    if values.dtype.kind == "f":
        return np.isnan(values), np.isinf(values)
    if values.dtype.kind != "O":
        return none, none
    # a text column's missing cells (NaN or None among strings: pandas before 3 keeps text
    # as objects) are blanks, not numbers, as in pandas' string type
    pandas = sys.modules.get("pandas")  # its scan, in C, where it is loaded
    if pandas is not None:
        infer = pandas.api.types.infer_dtype
        if infer(values, skipna=False) in ("string", "bytes", "empty", "boolean",
                                           "integer") or infer(values, skipna=True) in (
                "string", "bytes"):
            return none, none
    elif _text_with_blanks(values):
        return none, none
    floats = [isinstance(v, float) for v in values]
    nan = np.array([f and math.isnan(v) for f, v in zip(floats, values, strict=True)], bool)
    inf = np.array([f and math.isinf(v) for f, v in zip(floats, values, strict=True)], bool)
    return nan, inf


def _text_with_blanks(values: Any) -> bool:
    """Whether ``values`` (objects) are text with missing cells: strings (or bytes), ``None``
    and float NaNs, at least one string."""
    import math

    text = False
    for value in values:
        if isinstance(value, (str, bytes)):
            text = True
        elif not (value is None or (isinstance(value, float) and math.isnan(value))):
            return False
    return text


def _row_label(frame: Table, row: int) -> str:
    """How a message names row ``row`` of ``frame``: its first text cell, or its number."""
    import numpy as np

    for name in frame.columns:
        value = np.asarray(frame[name], dtype=object)[row]
        if isinstance(value, str) and value:
            return repr(value)
    return f"row {row + 1}"


def _text_cells(frame: Table) -> list[str]:
    """The texts of ``frame`` a renderer may write as fields: its column names, its index
    labels (a data frame's) and the cells of its columns that are not numbers."""
    import numpy as np

    texts = [str(name) for name in frame.columns]
    index = getattr(frame, "index", None)
    if index is not None and index.dtype.kind == "O":
        texts.extend(str(label) for label in index)
    for name in frame.columns:
        values = np.asarray(frame[name], dtype=object)
        if np.asarray(frame[name]).dtype.kind not in "iufbc":
            texts.extend(str(value) for value in values if isinstance(value, str))
    return texts


def check_table(frame: Table, where: str = "a table") -> dict[str, Meaning]:
    """Check every non-finite number of ``frame`` (``where``: what it is, for messages)
    against the meanings declared on its columns (:func:`declare`): the columns that hold
    one, with their meaning; one warning for each cause of undefined values, naming the
    columns; :class:`NumberError` for a value nothing declares."""
    found: dict[str, Meaning] = {}
    causes: dict[str, list[str]] = {}
    first: dict[str, int] = {}
    meanings = declared(frame)
    if _SCOPES:  # the labels and text cells a renderer writes are text, not numbers
        identifiers(lambda: _text_cells(frame))
    for name in frame.columns:
        nan, inf = _non_finite(frame[name])
        if not (nan.any() or inf.any()):
            continue
        meaning = meanings.get(str(name), Meaning())
        for bad, allowed, what in ((nan, meaning.nan, "NaN"), (inf, meaning.infinite,
                                                                 "an infinity")):
            if bad.any() and allowed is None:
                row = int(bad.nonzero()[0][0])
                raise NumberError(f"column {str(name)!r} of {where} holds {what} (at "
                                  f"{_row_label(frame, row)}) that no computation declared")
        if nan.any() and not meaning.empty:
            assert meaning.nan is not None
            counted = "" if len(frame) < 2 else f" ({int(nan.sum())} of {len(frame)} rows)"
            causes.setdefault(meaning.nan, []).append(f"{name}{counted}")
            first.setdefault(meaning.nan, int(nan.nonzero()[0][0]))
        if inf.any():
            declare_words("inf", "-inf", "+inf")  # how the renderers write a meant one
        found[str(name)] = meaning
    for cause, names in causes.items():
        at = "" if len(frame) < 2 else f", first at {_row_label(frame, first[cause])}"
        verb = "is" if len(names) == 1 else "are"
        warnings.warn(f"{', '.join(names)} {verb} {UNDEFINED}{at}: {cause}", stacklevel=3)
    return found


# ------------------------------------------------------------------------ text guard
#: A spelling of a non-finite number: what C's printf, Python, numpy, pandas and JavaScript
#: write for a NaN or an infinity (matched on lower-case text).
NON_FINITE = r"[-+]?(?:nan|inf(?:inity)?)"
#: What may stand on either side of a number field: the start or end of a line, spaces and
#: tabs, the separators of CSV, TSV, Markdown, LaTeX and JSON (a quoted JSON string is
#: text, not a number) and brackets; not ``=``, which a measure's parameter follows in its
#: name (``ROUGE-S(skip=inf)``: a spelling of the name, not a number written).
FIELD_EDGE = r"\s,;|&:\[\]{}()<>"
#: The word of a token, its end at a field's edge; its start (and sign) is checked on
#: each match: a pattern that starts with its letters is searched for them in C, where a
#: leading look-behind would be tried at every character.
_TOKEN = rf"(?:nan|inf(?:inity)?)(?![^{FIELD_EDGE}])"
_EDGES = frozenset(" \t\n\r\f\v,;|&:[]{}()<>")


@functools.cache
def _compiled(pattern: str | bytes, ignore_case: bool = False) -> re.Pattern[Any]:
    """``pattern`` compiled, once, where a text is first looked at (:mod:`re` is not loaded
    by a command that writes no text to scan: ``irscale eval``'s start-up)."""
    import re

    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)

#: The spellings declared by the running command lines' calls (:func:`text_scope`), one
#: set per call (nested calls and the call's threads share the innermost), and the
#: sources of identifiers looked at when a token is found (:func:`identifiers`).
_SCOPES: list[tuple[set[str], list[Any]]] = []


@contextlib.contextmanager
def text_scope() -> Iterator[None]:
    """The scope of one command of the command line: the spellings declared inside
    (:func:`declare_words`, :func:`identifiers`) are what :func:`check_text` lets through
    until it ends. Outside a scope (the Python API) nothing is recorded."""
    _SCOPES.append((set(), []))
    try:
        yield
    finally:
        _SCOPES.pop()


def declare_words(*words: str) -> None:
    """Declare that the call's text may hold ``words`` (exact spellings, such as ``-nan``)
    as fields: a renderer that writes them on purpose, where it writes them."""
    if _SCOPES:
        _SCOPES[-1][0].update(words)


def identifiers(source: Any) -> None:
    """Declare ``source`` (identifiers written as text: a callable returning them, or an
    iterable that stays valid) as the call's identifiers: a field of the output that spells
    a non-finite word is let through when it is one of them (a topic named ``nan``). Only
    looked at when such a field is found, so declaring millions of document ids costs
    nothing on the usual path."""
    if _SCOPES:
        _SCOPES[-1][1].append(source)


def _declared_identifier(word: str) -> bool:
    """Whether ``word`` is among the identifiers declared in the call (:func:`identifiers`);
    the sources looked at are turned into the set of their non-finite spellings once."""
    if not _SCOPES:
        return False
    words, sources = _SCOPES[-1]
    word_of = _compiled(NON_FINITE, True).fullmatch
    while sources:
        source = sources.pop()
        values = source() if callable(source) else source
        words.update(value for value in set(map(str, values)) if word_of(value))
    return word in words


def check_text(chunk: str | bytes, where: str = "the output", line: int = 0) -> None:
    """Refuse a field of ``chunk`` (text or UTF-8 bytes about to be written to ``where``,
    ``line`` lines already written before it) that spells a non-finite number the call did
    not declare (module documentation): :class:`NumberError` naming the line and the
    field. One pass of C over the lower-cased text for ``nan`` and ``inf`` first: the
    usual output, which holds neither as a field, costs two searches."""
    found = _tokens(chunk)
    if found is None:
        return
    declared = _SCOPES[-1][0] if _SCOPES else set()
    for match in found:
        start, end = match.span()
        before = _char_before(chunk, start)
        if before in "+-" and before:  # a sign: the field starts before it
            start -= 1
            before = _char_before(chunk, start)
        if before and before not in _EDGES:  # inside a word (Monsanto, 0xnan)
            continue
        raw = chunk[start:end]
        word = raw.decode() if isinstance(raw, bytes) else raw
        if word in declared or _declared_identifier(word):
            continue
        _refuse_field(chunk, where, line, start, word)


def _tokens(chunk: str | bytes) -> Iterator[re.Match[Any]] | None:
    """The spellings of ``nan`` and ``inf`` in ``chunk``, matched in its lower case
    (``None``: neither is there, the usual output)."""
    if isinstance(chunk, bytes):
        lowered_bytes = chunk.lower()
        if b"nan" not in lowered_bytes and b"inf" not in lowered_bytes:
            return None
        # ASCII lower case: the same offsets
        return _compiled(_TOKEN.encode()).finditer(lowered_bytes)
    lowered = chunk.lower()
    if "nan" not in lowered and "inf" not in lowered:
        return None
    return (_compiled(_TOKEN).finditer(lowered) if len(lowered) == len(chunk)
            else _compiled(_TOKEN, True).finditer(chunk))  # lower() changed a length


def _char_before(chunk: str | bytes, start: int) -> str:
    """The character of ``chunk`` before offset ``start`` (``""`` at its start; a byte
    read as Latin-1)."""
    before = chunk[start - 1:start] if start else ""
    return before.decode("latin-1") if isinstance(before, bytes) else before


def _refuse_field(chunk: str | bytes, where: str, line: int, start: int, word: str
                  ) -> NoReturn:
    """The :class:`NumberError` of the undeclared field ``word`` at offset ``start`` of
    ``chunk``, naming its line (``line`` lines written before ``chunk``) and its text."""
    newline = b"\n" if isinstance(chunk, bytes) else "\n"
    number = line + chunk.count(newline, 0, start) + 1  # type: ignore[arg-type]
    first = chunk.rfind(newline, 0, start) + 1  # type: ignore[arg-type]
    last = chunk.find(newline, start)  # type: ignore[arg-type]
    text = chunk[first:last if last >= 0 else len(chunk)]
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    raise NumberError(f"{where}, line {number}: the field {word!r} is a non-finite "
                      f"number that no computation declared ({text.strip()[:200]!r}): "
                      "a command returns its numbers in a table whose columns declare "
                      "what a NaN or an infinity means (irscale.core.numbers.declare), "
                      "and a renderer that spells one on purpose declares the spelling "
                      "(irscale.core.numbers.declare_words)")


def check_finite(values: Any, what: str) -> None:
    """``values`` (numbers) all finite, or :class:`NumberError` naming ``what``: for
    outputs that hold numbers only (the scores of a run)."""
    import numpy as np

    array = np.asarray(values, dtype=np.float64)
    if array.size and not np.isfinite(array).all():
        bad = float(array[~np.isfinite(array)][0])
        raise NumberError(f"{what} holds {bad} where only finite numbers can be written")


def spelled(frame: Table, meanings: Mapping[str, Meaning]) -> Table:
    """``frame`` with the NaNs of the ``meanings``' columns (what :func:`check_table`
    found) spelt as a text table shows them, :data:`UNDEFINED` or an empty cell, and the
    missing cells of its text columns empty; the frame itself when there is none."""
    import numpy as np

    text = [name for name in frame.columns  # pandas' extension types: a data frame's
            if not isinstance(frame[name].dtype, np.dtype)
            and frame[name].dtype.kind not in "iufb"
            and frame[name].isna().any()]  # type: ignore[union-attr]
    if not meanings and not text:
        return frame
    shown = frame.copy()
    for name, meaning in meanings.items():
        nan, _ = _non_finite(shown[name])
        if nan.any():
            column = shown[name].astype(object)
            column[nan] = "" if meaning.empty else UNDEFINED
            shown[name] = column
    for name in text:  # pandas' extension types: columns of a data frame
        column = shown[name].astype(object)
        shown[name] = column.where(column.notna(), "")  # type: ignore[union-attr]
    return shown


def csv_text(frame: Table, where: str = "a table", **options: Any) -> str:
    """``frame.to_csv(**options)`` once its numbers passed :func:`check_table`: an
    undefined value written :data:`UNDEFINED`, an empty cell empty."""
    return spelled(frame, check_table(frame, where)).to_csv(**options)


def json_number(value: object) -> object:
    """A JSON-safe scalar: a NaN, an infinity and pandas' missing values (``pd.NA`` of a
    nullable column) ``None`` (``null``), numpy scalars plain Python (the values of a table
    that passed :func:`check_table`)."""
    import math

    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return None
    kind = type(value).__module__
    if kind == "numpy":
        value = value.item()  # type: ignore[attr-defined]
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value


def json_text(document: object, **options: Any) -> str:
    """``json.dumps(document, **options)`` that refuses a non-finite number
    (:class:`NumberError`: JSON has none, and Python's ``NaN`` and ``Infinity`` are not
    JSON): values pass :func:`json_number` before they are put in a document."""
    import json

    try:
        return json.dumps(document, allow_nan=False, **options)
    except ValueError as error:
        raise NumberError(f"a JSON document holds a non-finite number ({error})") from None


def power_scale(*arrays: Any) -> float:
    """The largest power of two at most the largest magnitude of ``arrays`` (1 when they
    are all 0): dividing by it is exact and brings every value into (-2, 2), so that sums
    and squares of values near the largest double (10³⁰⁸) do not overflow, and moments
    computed on the scaled values and scaled back have the digits they would have had."""
    import math

    import numpy as np

    largest = max((float(np.abs(a).max()) for a in map(np.asarray, arrays) if a.size),
                  default=0.0)
    if largest == 0.0 or not math.isfinite(largest):
        return 1.0
    return math.ldexp(1.0, math.frexp(largest)[1] - 1)


def standard_deviation(values: Any, ddof: int = 1) -> float:
    """The standard deviation of ``values`` (``ddof``: numpy's) computed on the values
    divided by :func:`power_scale` (no overflow of the squares), scaled back."""
    import numpy as np

    scale = power_scale(values)
    return float(np.std(np.asarray(values) / scale, ddof=ddof)) * scale


# --------------------------------------------------------------------------- floating point
class _FloatingPointMessage:
    """The messages of numpy's floating-point warnings (what ``np.errstate``'s "warn"
    issues: ``overflow encountered in multiply``; underflow is numpy's default "ignore" and
    rounds to 0 as it should), matched as a warnings filter matches a message (its
    ``match``: at the start, in any case), without a compiled pattern, which would load
    :mod:`re` at the start of every command (``warnings.filterwarnings`` compiles its
    message)."""

    STARTS = ("divide by zero encountered", "overflow encountered",
              "invalid value encountered")

    def match(self, text: str) -> bool:
        return text.lower().startswith(self.STARTS)


#: numpy's floating-point warnings (:class:`_FloatingPointMessage`).
FLOATING_POINT = _FloatingPointMessage()


@contextlib.contextmanager
def floating_point_errors() -> Iterator[None]:
    """numpy's floating-point warnings raised as errors (``RuntimeWarning``, where they
    arise) in the calls inside: a warnings filter (``warnings.filterwarnings("error",
    category=RuntimeWarning)`` of the messages of :data:`FLOATING_POINT`), so every thread
    of the process is covered and numpy need not be imported yet (the command line's run,
    which owns its process)."""
    with warnings.catch_warnings():  # (entering it marks the filters changed)
        warnings.filters.insert(0, ("error", FLOATING_POINT,  # type: ignore[attr-defined]
                                    RuntimeWarning, None, 0))
        yield


@contextlib.contextmanager
def raising() -> Iterator[None]:
    """numpy's floating-point errors raised (``FloatingPointError``) in the calls inside,
    in this thread (``np.errstate``: a call of the Python API, whose caller's other threads
    keep their own settings). Where numpy is not imported yet (a call that may never need
    it: the name parser, the plan of trec_eval's measures), it is not imported for this:
    its warnings are errors by :func:`floating_point_errors` instead, should the call
    import it."""
    np = sys.modules.get("numpy")
    if np is None:
        with floating_point_errors():
            yield
        return
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        yield


def floating_point_cause(error: BaseException) -> str | None:
    """numpy's words for a floating-point error (``overflow encountered in multiply``):
    ``error`` raised by :func:`floating_point_errors` or :func:`raising`; None for any
    other error."""
    if isinstance(error, FloatingPointError) or (
            isinstance(error, RuntimeWarning) and FLOATING_POINT.match(str(error))):
        return str(error)
    return None


__all__ = [
    "ATTRS_KEY",
    "FLOATING_POINT",
    "UNDEFINED",
    "Meaning",
    "NumberError",
    "blank",
    "check_finite",
    "check_table",
    "check_text",
    "csv_text",
    "declare",
    "declare_words",
    "declared",
    "floating_point_cause",
    "floating_point_errors",
    "identifiers",
    "infinite",
    "json_number",
    "json_text",
    "power_scale",
    "raising",
    "spelled",
    "standard_deviation",
    "text_scope",
    "undefined",
]
