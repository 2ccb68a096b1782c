"""Catalogues of faulty input files, shared by the modules of the suite.

Each catalogue builds :class:`~tests.faults.conftest.Case` rows for one kind of input
(TREC runs, TREC qrels, label files, score CSVs) given how the command line names the
faulty file (``argv(name)``) and the command line of the same call on the valid file
(``reference``), used by the valid-but-odd rows: their output must equal the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .conftest import (
    any_of,
    either,
    err,
    gz,
    labels_lines,
    ok,
    qrels_lines,
    replace_line,
    run_lines,
    same_output_as,
    score_text,
    text,
    warnings_of,
)

Argv = Callable[[str], list[str]]

HUGE = 2_000_000  # characters of the huge line


def _bom(data: bytes) -> bytes:
    return b"\xef\xbb\xbf" + data


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


def _blanks(lines: Sequence[str]) -> bytes:
    """Fields separated by tabs and runs of blanks, leading/trailing blanks: valid."""
    return ("\n".join("  " + "\t \t".join(line.split()) + " \t" for line in lines)
            + "\n").encode()


def _insert(lines: Sequence[str], number: int, new: str) -> bytes:
    out = list(lines)
    out.insert(number - 1, new)
    return text(out)


def _utf16(data: bytes) -> bytes:
    return data.decode().encode("utf-16")


def _corrupt_gz(data: bytes) -> bytes:
    packed = bytearray(gz(data))
    middle = len(packed) // 2
    for i in range(middle, min(middle + 8, len(packed) - 8)):
        packed[i] ^= 0xFF
    return bytes(packed)


def _bad_crc_gz(data: bytes) -> bytes:
    """gzip data whose trailer's checksum does not match the text."""
    packed = bytearray(gz(data))
    packed[-8] ^= 0xFF
    return bytes(packed)


def _truncated_gz(data: bytes) -> bytes:
    packed = gz(data)
    return packed[: len(packed) // 2]


def has_warning(result, ws, run) -> None:
    assert warnings_of(result), "no 'irscale: warning:' line" + result.describe()


def no_warning(result, ws, run) -> None:
    assert not warnings_of(result), "unexpected warning" + result.describe()


def warns_c_float(result, ws, run) -> None:
    """Scores beyond a C float's range: trec_eval's numbers (the scores tie as floats), and
    a warning that says so (pytrec_eval gives the same tied numbers)."""
    assert any("C float" in line for line in warnings_of(result)), \
        "no warning about scores beyond a C float" + result.describe()


def ok_any(id: str, argv: Sequence[str], *needles, files: dict | None = None):
    """A valid input (the ``needles`` an error would name are not needed)."""
    return ok(id, argv, None, files=files)


def trec_file_faults(
    prefix: str,
    kind: str,
    argv: Argv,
    reference: Sequence[str],
    *,
    name: str,
    line: int = 3,
) -> list:
    """Faulty TREC files (``kind``: run, qrels or labels) given at the place of ``name``.

    ``line`` is the line of the file that the line faults replace; every row id starts
    with ``prefix``.
    """
    if kind == "run":
        lines = run_lines("a")
        fields = lines[line - 1].split()  # qid Q0 docno rank score runid
        few = " ".join(fields[:5])
        many = " ".join([*fields, "extra"])
        value_at = 4
    else:
        lines = qrels_lines() if kind == "qrels" else labels_lines()
        fields = lines[line - 1].split()  # qid iter docno rel
        few = " ".join(fields[:3])
        many = " ".join([*fields, "extra"])
        value_at = 3
    good = text(lines)
    at = f"line {line}"
    loc = any_of(f"{name}, {at}", f"{name}:{line}", f"{name} {at}", f"{name} ({at}")

    def with_value(value: str) -> bytes:
        bad = list(fields)
        bad[value_at] = value
        return replace_line(lines, line, " ".join(bad))

    def with_doc(doc: str) -> bytes:
        bad = list(fields)
        bad[2] = doc
        return replace_line(lines, line, " ".join(bad))

    what = "score" if kind == "run" else "relevance"
    same = same_output_as(*reference)
    cases = [
        err(f"{prefix}-missing-file", argv("missing.txt"), "missing.txt"),
        err(f"{prefix}-directory", argv("adir"), "adir"),
        err(f"{prefix}-empty-file", argv(name), name, files={name: b""}),
        err(f"{prefix}-blank-lines-only", argv(name), name, files={name: b"\n \n\t\n\n"}),
        ok(f"{prefix}-utf8-bom", argv(name), same, files={name: _bom(good)}),
        ok(f"{prefix}-crlf", argv(name), same, files={name: _crlf(good)}),
        ok(f"{prefix}-bom-and-crlf", argv(name), same, files={name: _bom(_crlf(good))}),
        ok(f"{prefix}-tabs-and-blank-runs", argv(name), same, files={name: _blanks(lines)}),
        ok(f"{prefix}-tab-separated", argv(name), same,
           files={name: text(["\t".join(x.split()) for x in lines])}),
        # a tab between two fields of a line in a blank-separated file separates them too
        ok(f"{prefix}-one-tab-in-a-blank-separated-file", argv(name), same,
           files={name: replace_line(lines, line, "\t".join([fields[0], " ".join(fields[1:])]))}),
        err(f"{prefix}-tab-and-blank-in-a-field", argv(name), loc, files={name: replace_line(
            lines, line, "\t".join([fields[0], " ".join([fields[1], "x", *fields[2:]])]))}),
        # two separators in a row: no empty field between them (the field is missing)
        err(f"{prefix}-second-field-missing", argv(name), loc, files={name: replace_line(
            lines, line, " ".join([fields[0], "", *fields[2:]]))}),
        # a blank where the last field should be: as many separators as fields, the last
        # empty (a field the run's reader does not convert, the run tag)
        err(f"{prefix}-last-field-missing-trailing-blank", argv(name), loc, files={
            name: replace_line(lines, line, " ".join(fields[:-1]) + " ")}),
        err(f"{prefix}-tab-separated-docno-missing", argv(name), loc, files={
            name: text(["\t".join(x.split()) for x in lines[:line - 1]]
                       + ["\t".join([*fields[:2], "", *fields[3:]])]
                       + ["\t".join(x.split()) for x in lines[line:]])}),
        ok(f"{prefix}-no-final-newline", argv(name), same, files={name: good.rstrip(b"\n")}),
        ok(f"{prefix}-gzip", argv(name), same, files={name: gz(good)}),
        ok(f"{prefix}-gzip-crlf", argv(name), same, files={name: gz(_crlf(good))}),
        either(f"{prefix}-line-of-spaces", argv(name), loc, check=same,
               files={name: _insert(lines, line, "     ")}),
        err(f"{prefix}-too-few-fields", argv(name), loc, fields[-2] if kind == "run" else
            fields[2], files={name: replace_line(lines, line, few)}),
        err(f"{prefix}-too-many-fields", argv(name), loc, "extra",
            files={name: replace_line(lines, line, many)}),
        err(f"{prefix}-one-field", argv(name), loc, files={name: replace_line(lines, line,
                                                                              "lonely")}),
        err(f"{prefix}-non-numeric-{what}", argv(name), loc, "abc",
            files={name: with_value("abc")}),
        # digits of another script: Python's int/float would read them, pyarrow (and
        # trec_eval) do not; the line is named all the same
        err(f"{prefix}-{what}-arabic-indic-digit", argv(name), loc, "\u0661",
            files={name: with_value("\u0661")}),
        err(f"{prefix}-{what}-nan", argv(name), loc, any_of("nan", "NaN"),
            files={name: with_value("nan")}),
        err(f"{prefix}-{what}-inf", argv(name), loc, any_of("inf", "Inf"),
            files={name: with_value("inf")}),
        err(f"{prefix}-non-utf8-bytes", argv(name), loc,
            files={name: with_doc("dQQx").replace(b"QQ", b"\xe9")}),
        err(f"{prefix}-utf16-file", argv(name), name, files={name: _utf16(good)}),
        err(f"{prefix}-nul-byte", argv(name), loc, files={name: with_doc("d\x00x")}),
        err(f"{prefix}-huge-bad-line", argv(name), loc,
            files={name: replace_line(lines, line, "x" * HUGE)}),
        err(f"{prefix}-truncated-gzip", argv(name), name, files={name: _truncated_gz(good)}),
        err(f"{prefix}-corrupt-gzip", argv(name), name, files={name: _corrupt_gz(good)}),
        err(f"{prefix}-gzip-magic-only", argv(name), name, files={name: b"\x1f\x8b"}),
        # a gzip file is parsed as it is decompressed; what that parse cannot take goes
        # the way of the whole text (blank runs, tabs, errors named by line)
        ok(f"{prefix}-gzip-tabs-and-blank-runs", argv(name), same,
           files={name: gz(_blanks(lines))}),
        ok(f"{prefix}-gzip-tab-separated", argv(name), same,
           files={name: gz(text(["\t".join(x.split()) for x in lines]))}),
        ok(f"{prefix}-gzip-two-members", argv(name), same,
           files={name: gz(text(lines[:line])) + gz(text(lines[line:]))}),
        err(f"{prefix}-gzip-empty-text", argv(name), name, files={name: gz(b"")}),
        err(f"{prefix}-gzip-trailing-garbage", argv(name), name,
            files={name: gz(good) + b"garbage"}),
        err(f"{prefix}-gzip-bad-checksum", argv(name), name, files={name: _bad_crc_gz(good)}),
        err(f"{prefix}-gzip-non-numeric-{what}", argv(name), loc, "abc",
            files={name: gz(with_value("abc"))}),
        err(f"{prefix}-gzip-second-field-missing", argv(name), loc, files={name: gz(
            replace_line(lines, line, " ".join([fields[0], "", *fields[2:]])))}),
        err(f"{prefix}-gzip-nul-byte", argv(name), loc, files={name: gz(with_doc("d\x00x"))}),
    ]
    if kind == "run":
        dup = list(fields)
        dup[2] = lines[0].split()[2]  # the document of line 1, same topic
        scaled = [" ".join([*f[:4], f[4] + "e300", *f[5:]]) for f in
                  (x.split() for x in lines)]
        tiny = [" ".join([*f[:4], f[4] + "e-300", *f[5:]]) for f in
                (x.split() for x in lines)]
        cases += [
            err(f"{prefix}-score-minus-inf", argv(name), loc, "inf",
                files={name: with_value("-inf")}),
            err(f"{prefix}-duplicate-document", argv(name), name, dup[2],
                files={name: replace_line(lines, line, " ".join(dup))}),
            ok(f"{prefix}-scores-1e300", argv(name), warns_c_float,
               files={name: text(scaled)}),
            ok(f"{prefix}-scores-1e-300", argv(name), warns_c_float,
               files={name: text(tiny)}),
            ok(f"{prefix}-negative-scores", argv(name), same,
               files={name: text([" ".join([*f[:4], str(float(f[4]) - 5), *f[5:]])
                                  for f in (x.split() for x in lines)])}),
            ok(f"{prefix}-long-valid-docno", argv(name), None,
               files={name: with_doc("d" + "x" * 100_000)}),
            ok(f"{prefix}-extra-topic-warns", argv(name), has_warning,
               files={name: text([*lines, "99 Q0 d1 1 0.5 teamA_r1"])}),
        ]
    else:
        dup = " ".join([*lines[0].split()[:3], "1"])  # (topic, doc) of line 1 again
        cases += [
            (err if kind == "qrels" else either)(
                f"{prefix}-{what}-float", argv(name), loc, "1.5",
                files={name: with_value("1.5")}),
            # qrels degrees are 64-bit integers; label values (--labels) are real numbers
            (err if kind == "qrels" else ok_any)(
                f"{prefix}-beyond-int64", argv(name), loc, str(2**63),
                files={name: with_value(str(2**63))}),
            (err if kind == "qrels" else ok_any)(
                f"{prefix}-below-int64", argv(name), loc, str(-(2**63) - 1),
                files={name: with_value(str(-(2**63) - 1))}),
            err(f"{prefix}-huge-integer", argv(name), loc,
                files={name: with_value("9" * 400)}),
            err(f"{prefix}-duplicate-judgment", argv(name), name, lines[0].split()[2],
                files={name: _insert(lines, line, dup)}),
        ]
    return cases


def csv_faults(prefix: str, argv: Argv, reference: Sequence[str], *,
               name: str = "var/ap.csv", constant: str = "error", single: bool = True) -> list:
    """Faulty score-matrix CSV files at the place of ``name`` (its stem is ``ap`` so that
    the valid variants print what ``reference`` prints on ``ap.csv``)."""
    good = score_text("ap")
    lines = good.splitlines()
    header, rows = lines[0], lines[1:]
    same = same_output_as(*reference)
    loc = any_of(f"{name}, line 4", f"{name}:4", f"{name} line 4", f"{name} (line 4")

    def row4(new: str) -> str:
        out = list(lines)
        out[3] = new
        return "\n".join(out) + "\n"

    cells = rows[2].split(",")
    with_topic = "\n".join([f"topic,{header}"] + [f"{101 + i},{r}" for i, r in
                                                  enumerate(rows)]) + "\n"
    unnamed = "\n".join([f",{header}"] + [f"{i},{r}" for i, r in enumerate(rows)]) + "\n"
    constant_case = (err if constant == "error" else either)(
        f"{prefix}-constant-scores", argv(name),
        files={name: header + "\n" + "\n".join(["0.5,0.5,0.5,0.5"] * 12) + "\n"})
    named = [ok(f"{prefix}-topic-column-named", [*argv(name), "--topic-column", "topic"],
                files={name: with_topic})] if single else []
    return [
        *named,
        err(f"{prefix}-missing-file", argv("missing.csv"), "missing.csv"),
        err(f"{prefix}-directory", argv("adir"), "adir"),
        err(f"{prefix}-empty-file", argv(name), name, files={name: b""}),
        err(f"{prefix}-blank-lines-only", argv(name), name, files={name: b"\n\n \n"}),
        err(f"{prefix}-header-only", argv(name), name, files={name: header + "\n"}),
        ok(f"{prefix}-utf8-bom", argv(name), same, files={name: _bom(good.encode())}),
        ok(f"{prefix}-crlf", argv(name), same, files={name: _crlf(good.encode())}),
        ok(f"{prefix}-quoted-header", argv(name), same,
           files={name: ",".join(f'"{h}"' for h in header.split(",")) + "\n"
                  + "\n".join(rows) + "\n"}),
        either(f"{prefix}-no-header", argv(name), name, check=has_warning,
               files={name: "\n".join(rows) + "\n"}),
        either(f"{prefix}-duplicate-column-names", argv(name), "sysA", check=has_warning,
               files={name: "sysA,sysA,sysC,sysD\n" + "\n".join(rows) + "\n"}),
        either(f"{prefix}-unnamed-numeric-first-column", argv(name), name,
               check=has_warning, files={name: unnamed}),
        either(f"{prefix}-topic-column-not-named", argv(name), name, check=has_warning,
               files={name: with_topic}),
        err(f"{prefix}-topic-column-unknown", [*argv(name), "--topic-column", "nosuch"],
            "nosuch", files={name: good}),
        err(f"{prefix}-row-extra-field", argv(name), loc, files={name: row4(rows[2] +
                                                                           ",0.9")}),
        err(f"{prefix}-row-missing-field", argv(name), loc,
            files={name: row4(",".join(cells[:3]))}),
        err(f"{prefix}-empty-cell", argv(name), loc,
            files={name: row4(",".join([cells[0], "", *cells[2:]]))}),
        err(f"{prefix}-non-numeric-cell", argv(name), loc, "abc",
            files={name: row4(",".join([cells[0], "abc", *cells[2:]]))}),
        err(f"{prefix}-arabic-indic-digit-cell", argv(name), loc, "\u0661",
            files={name: row4(",".join([cells[0], "\u0661", *cells[2:]]))}),
        err(f"{prefix}-nan-cell", argv(name), loc,
            files={name: row4(",".join([cells[0], "nan", *cells[2:]]))}),
        err(f"{prefix}-inf-cell", argv(name), loc,
            files={name: row4(",".join([cells[0], "inf", *cells[2:]]))}),
        err(f"{prefix}-non-utf8-header", argv(name), name,
            files={name: b"sysA,sys\xe9B,sysC,sysD\n" + "\n".join(rows).encode() + b"\n"}),
        err(f"{prefix}-nul-byte", argv(name), name,
            files={name: row4(",".join([cells[0], "0.\x005", *cells[2:]]))}),
        err(f"{prefix}-truncated-gzip", argv(name), name,
            files={name: _truncated_gz(good.encode())}),
        err(f"{prefix}-one-topic", argv(name), files={name: header + "\n" + rows[0] + "\n"}),
        err(f"{prefix}-one-system", argv(name),
            files={name: score_text("ap", systems=("sysA",))}),
        constant_case,
    ]
