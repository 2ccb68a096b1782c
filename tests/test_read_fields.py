"""``irscale.io._text.read_fields`` (the engine's reader of whitespace-separated fields)
against a plain-Python oracle written from the grammar: records end at LF, CRLF or a lone
CR, fields are split on runs of blanks and tabs, blank records are skipped, a byte order
mark at the start is not text; ``str`` fields are UTF-8 without NUL, ``float`` fields a
decimal (or nan, inf, infinity in any case), ``int`` fields a sign, digits and maybe a
point followed by zeros, within 64 bits. A file the oracle refuses raises the error that
``diagnose`` (the specification of the messages) raises, or the empty file's error.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import re
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import EmptyInputError, InputError, InputFormatError
from irscale.io._text import check_int64, diagnose, is_float, read_fields, source_name

from .property_examples import examples

NAMES = ("a", "b", "c", "d")

# the grammar, written again here (ASCII digits only)
_DECIMAL = re.compile(rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      rb"|(?i:nan|inf|infinity))")
_INTEGER = re.compile(rb"([+-]?[0-9]+)(?:\.0*)?")


def _number(field: bytes) -> float | None:
    return float(field) if _DECIMAL.fullmatch(field) else None


def _integer(field: bytes) -> int | None:
    match = _INTEGER.fullmatch(field)
    if match is None:
        return None
    value = int(match.group(1))
    return value if -(2**63) <= value < 2**63 else None


def _text(field: bytes) -> str | None:
    try:
        return field.decode("utf-8")
    except UnicodeDecodeError:
        return None


_PARSE = {"str": _text, "float": _number, "int": _integer}


def oracle(text: bytes, kinds: dict[str, str]) -> str | tuple[int, dict[str, list]]:
    """The number of data lines of ``text`` (already decompressed) and its columns, or
    ``"misfit"``, ``"nul"``, ``"empty"``."""
    if text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    columns: dict[str, list] = {name: [] for name in kinds}
    rows, nul = 0, False
    for record in re.split(rb"\r\n|\n|\r", text):
        fields = [field for field in re.split(rb"[ \t]+", record) if field]
        if not fields:
            continue
        if len(fields) != len(NAMES):
            return "misfit"
        nul |= b"\x00" in record  # a NUL anywhere in a line, kept field or not
        for name, kind in kinds.items():
            field = fields[NAMES.index(name)]
            value = _PARSE[kind](field)
            if value is None:
                return "misfit"
            columns[name].append(value)
        rows += 1
    if rows == 0:
        return "empty"
    return "nul" if nul else (rows, columns)


def _checks(kinds: dict[str, str]) -> dict:
    """The diagnosis' checks of the typed fields, as the readers pass them."""
    def number(text: str) -> str | None:
        return None if is_float(text) else "is not a number"

    return {NAMES.index(name): {"float": number, "int": check_int64}[kind]
            for name, kind in kinds.items() if kind != "str"}


def _error(call) -> tuple[str, str] | None:
    try:
        call()
    except InputError as error:
        return type(error).__name__, str(error)
    return None


# fields valid for every kind, valid for some, and valid for none
_FIELDS = [b"7", b"-3", b"+2", b"2.0", b"0.25", b"1e3", b"-Inf", b"nan", b"x", "\u00e9".encode(),
           b"9223372036854775807", b"9223372036854775808", b"0x10", b"1.5", b".5", b"5.",
           "\u0661".encode(), b"d\x00", b"\xff", "\u00a0".encode(), b"\x0b", b"1_0"]
_VALID = [b"1", b"42", b"-7", b"3.0", b"d1", b"q", "\u00e9t\u00e9".encode()]
_SEPARATORS = [b" ", b"\t", b"  ", b" \t ", b"\t\t"]
_ENDS = [b"\n", b"\r\n", b"\r", b"\n  \t\n", b"\n\n"]


@st.composite
def files(draw) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        count = draw(st.sampled_from([4] * 12 + [3, 5, 0]))
        fields = [draw(st.sampled_from(_VALID if draw(st.integers(0, 24)) else _FIELDS))
                  for _ in range(count)]
        separators = [draw(st.sampled_from(_SEPARATORS)) for _ in range(count + 1)]
        line = b"".join(s + f for s, f in zip(separators, [*fields, b""], strict=True))
        lines.append((line if draw(st.booleans()) else line.strip(b" \t"))
                     + draw(st.sampled_from(_ENDS)))
    text = b"".join(lines)
    if draw(st.booleans()) and text.endswith(b"\n"):
        text = text[:-1]
    return (b"\xef\xbb\xbf" if draw(st.integers(0, 9)) == 0 else b"") + text


_KINDS = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(["str", "float", "int"]),
                         max_size=4)


def _compare(source, text: bytes, kinds: dict[str, str]) -> None:
    expected = oracle(text, kinds)
    checks = _checks(kinds)
    name = source_name(source)
    if isinstance(expected, tuple):
        fields, raw = read_fields(source, NAMES, kinds, checks, "table")
        assert raw() == text
        rows, columns = expected
        assert (len(fields), fields.column_names) == (rows, list(kinds))
        for name, kind in kinds.items():
            if kind == "str":
                assert fields.strings(name).to_pylist() == columns[name]
            else:
                got = fields.numbers(name)
                assert got.dtype == (np.float64 if kind == "float" else np.int64)
                assert np.array_equal(got, np.array(columns[name], got.dtype), equal_nan=True)
                assert [math.copysign(1, v) for v in got.tolist()] == [
                    math.copysign(1, v) for v in columns[name]]
        return
    got = _error(lambda: read_fields(source, NAMES, kinds, checks, "table"))
    if expected == "empty" or (expected == "misfit" and not text.strip()):
        assert got == ("EmptyInputError", f"{name}, empty table: no data line")
        return
    if expected == "nul":  # the line of the first NUL byte
        line = text[:text.index(b"\x00")].count(b"\n") + 1
        assert got is not None and got[1].startswith(f"{name}, line {line}: a NUL byte")
        return
    want = _error(lambda: diagnose(text, name, NAMES, checks, "table"))
    if want is None:  # the records of the fast pass are not the lines of the diagnosis
        assert got == ("InputFormatError",
                       f"{name}, cannot parse table: a line does not split into its fields")
    else:
        assert got == want


@settings(max_examples=examples(400))
@given(text=files(), kinds=_KINDS)
def test_bytes_read_as_the_oracle_reads_them(text, kinds):
    _compare(text, text, kinds)


@settings(max_examples=examples(60))
@given(text=files(), kinds=_KINDS, how=st.sampled_from(["plain", "gzip", "gzip bytes",
                                                         "stream", "gzip stream"]))
def test_files_and_streams_read_as_their_text(text, kinds, how, tmp_path_factory):
    compressed = gzip.compress(text) if "gzip" in how else text
    if how in ("plain", "gzip"):
        source = tmp_path_factory.mktemp("fields") / "f"
        source.write_bytes(compressed)
        _compare(source, text, kinds)
    else:
        _compare(io.BytesIO(compressed) if "stream" in how else compressed, text, kinds)


def test_many_lines_read_in_pieces_side_by_side():
    """A text of many pieces of whole lines: the rows in file order."""
    lines = [f"q{k % 97}\t{k * 0.5}  d{k} {k - 5000}\r\n" for k in range(200_000)]
    text = "".join(lines).encode()
    fields, _ = read_fields(text, NAMES, {"c": "str", "d": "int", "b": "float", "a": "str"},
                            {}, "table")
    assert fields.strings("c").to_pylist() == [f"d{k}" for k in range(200_000)]
    assert fields.numbers("d").tolist() == [k - 5000 for k in range(200_000)]
    assert fields.numbers("b")[-1] == 199_999 * 0.5 and fields.strings("a")[123_456] == "q72"
    with pytest.raises(InputFormatError) as info:  # the last line holds three fields
        read_fields(text + b"q 0 d", NAMES, {"a": "str"}, {}, "table")
    assert (info.value.line, info.value.text) == (200_001, "q 0 d")


@pytest.mark.parametrize(("text", "kinds", "line", "message"), [
    (b"1 0 d1 2\n1 0 d2\n", {"d": "int"}, 2, "expected 4 fields (a b c d) in table, got 3"),
    (b"1 0 d1 2\n\n1 0 d2 1.5\n", {"d": "int"}, 3, "d is not an integer"),
    (b"1 0 d1 2\n1 0 d2 9223372036854775808\n", {"d": "int"}, 2,
     "d is too large (integers must lie within \u00b19,223,372,036,854,775,807)"),
    (b"1 0x1 d1 2\n", {"b": "float"}, 1, "b is not a number"),
    (b"1 0 d1 2\n1 0 d\xe92 2\n", {"c": "str"}, 2,
     "not valid UTF-8 text (byte 0xe9 at column 6)"),
    (b"1 0 d1 2\n1 0 d\x002 2\r\n", {"c": "str"}, 2,
     "a NUL byte in the line (trec_eval would cut the field there)"),
])
def test_faults_are_the_diagnosis_errors(text, kinds, line, message):
    """Worked examples of the messages, and the same error as ``diagnose``'s."""
    checks = _checks(kinds)
    with pytest.raises(InputFormatError) as info:
        read_fields(text, NAMES, kinds, checks, "table")
    assert (info.value.line, info.value.reason) == (line, message)
    with pytest.raises(InputFormatError) as diagnosed:
        diagnose(text, "<bytes>", NAMES, checks, "table")
    assert str(info.value) == str(diagnosed.value)


def test_a_line_that_the_diagnosis_takes_whole():
    """A lone CR ends a record of the fast pass (as pyarrow's reader) but not a line of the
    diagnosis, which reads it as a separator: no line to name."""
    with pytest.raises(InputFormatError) as info:
        read_fields(b"1 0 d1 2\n1 0\rd2 2\n", NAMES, {"a": "str"}, {}, "table")
    assert (info.value.line, info.value.reason) == (
        None, "cannot parse table: a line does not split into its fields")


def test_a_fifo_is_read_once(tmp_path):
    """A FIFO's bytes are spooled: read by the engine, and again for an error's line."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for text, rows in ((b"1 0 d1 2\n1 0 d2 3\n", 2), (b"1 0 d1 2\n1 0 d2\n", None)):
        writer = threading.Thread(target=fifo.write_bytes, args=(gzip.compress(text),))
        writer.start()
        try:
            if rows is None:
                with pytest.raises(InputFormatError) as info:
                    read_fields(fifo, NAMES, {"d": "int"}, {3: check_int64}, "table")
                assert (info.value.line, info.value.text) == (2, "1 0 d2")
            else:
                fields, raw = read_fields(fifo, NAMES, {"d": "int"}, {}, "table")
                assert fields.numbers("d").tolist() == [2, 3] and raw() == text
        finally:
            writer.join()


def test_unchecked_number_fields_are_named_by_their_grammar():
    """A number field that the caller's checks leave out is checked by its kind."""
    with pytest.raises(InputFormatError) as info:
        read_fields(b"1 0 d1 2\n1 0 d2 x\n", NAMES, {"d": "float"}, {}, "table")
    assert (info.value.line, info.value.reason) == (2, "d is not a number")


@pytest.mark.parametrize("text", [b"", b"\n \t\r\n", b"\xef\xbb\xbf", b"\x0b\n"])
def test_empty_inputs(text):
    with pytest.raises(EmptyInputError, match="empty table: no data line"):
        read_fields(text, NAMES, {"a": "str"}, {}, "table")


def test_corrupt_gzip_data_named_as_before(tmp_path):
    path = tmp_path / "f.gz"
    path.write_bytes(gzip.compress(b"1 0 d1 2\n" * 100)[:-12])
    with pytest.raises(InputFormatError, match="truncated gzip file"):
        read_fields(path, NAMES, {"a": "str"}, {}, "table")
