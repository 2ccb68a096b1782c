"""``irscale eval -Z FILE`` (trec_eval's Z files) and ``eval-many --write-zscores FILE``:
faulty Z files, the options -Z does not go with, and the Z file as an output. trec_eval
reads a Z file's numbers with ``atof`` (``abc`` is 0) and keeps either of two lines for one
(topic, measure); here each is an error naming the file, the line and its text
(``docs/trec_eval_semantics.md``)."""

from __future__ import annotations

import pytest

from .conftest import (
    TOPICS,
    err,
    ok,
    output_contains,
    run_case,
    run_lines,
    same_output_as,
    text,
    trec_values,
    warnings_of,
)

#: A valid Z file of the workspace's collection: map and num_ret on every topic.
Z_LINES = [f"{t} {m} {mean} {sd}" for t in TOPICS
           for m, mean, sd in (("map", "0.5", "0.25"), ("num_ret", "4", "2"))]
Z = text(Z_LINES)
ARGV = ["eval", "-q", "-m", "map", "-m", "num_ret", "-Z", "z.txt", "qrels.txt", "a.run"]


def _with(number: int, new: str) -> bytes:
    """The Z file with line ``number`` replaced by ``new``."""
    lines = list(Z_LINES)
    lines[number - 1] = new
    return text(lines)


def z_lines_only(result, ws, run) -> None:
    lines = result.out.splitlines()
    assert lines and all(line.startswith(("Zmap ", "Znum_ret ")) for line in lines), \
        result.describe()
    retrieved = sum(line.split()[0] == "1" for line in run_lines("a"))
    assert trec_values(result.out, "Znum_ret", "1") == [f"{(retrieved - 4) / 2:.4f}"], \
        result.describe()


def minus_a_million_with_a_warning(result, ws, run) -> None:
    assert trec_values(result.out, "Zmap", "2") == ["-1000000.0000"], result.describe()
    assert any("has no line for 1 (topic, measure) pair(s): 2 map" in w
               for w in warnings_of(result)), result.describe()


CASES = [
    ok("z-valid", ARGV, z_lines_only, files={"z.txt": Z}),
    ok("z-crlf-tabs-and-trailing-blanks", ARGV, same_output_as(*ARGV),
       files={"z.txt": b"".join(b"\t" + line.encode().replace(b" ", b" \t ") + b" \r\n"
                                for line in Z_LINES)}),
    ok("z-missing-pair", ARGV, minus_a_million_with_a_warning,
       files={"z.txt": text([line for line in Z_LINES if line != "2 map 0.5 0.25"])}),
    err("z-three-fields", ARGV, "z.txt", "line 2", "expected 4 fields", "1 num_ret 4",
        files={"z.txt": _with(2, "1 num_ret 4")}),
    err("z-five-fields", ARGV, "z.txt", "line 3", "got 5", "2 map 0.5 0.25 x",
        files={"z.txt": _with(3, "2 map 0.5 0.25 x")}),
    err("z-blank-line", ARGV, "z.txt", "line 4", "got 0",
        files={"z.txt": _with(4, "")}),
    err("z-mean-not-number", ARGV, "z.txt", "line 1", "mean 'abc'", "1 map abc 0.25",
        files={"z.txt": _with(1, "1 map abc 0.25")}),
    err("z-mean-number-then-text", ARGV, "z.txt", "line 1", "mean '0.5x'",
        files={"z.txt": _with(1, "1 map 0.5x 0.25")}),
    err("z-sd-not-number", ARGV, "z.txt", "line 2", "std_dev 'two'",
        files={"z.txt": _with(2, "1 num_ret 4 two")}),
    err("z-sd-nan", ARGV, "z.txt", "line 2", "std_dev 'nan'",
        files={"z.txt": _with(2, "1 num_ret 4 nan")}),
    err("z-mean-inf", ARGV, "z.txt", "line 2", "mean 'inf'",
        files={"z.txt": _with(2, "1 num_ret inf 2")}),
    err("z-mean-hex", ARGV, "z.txt", "line 2", "mean '0x10'",
        files={"z.txt": _with(2, "1 num_ret 0x10 2")}),
    err("z-sd-negative", ARGV, "z.txt", "line 1", "std_dev '-0.25' is negative",
        files={"z.txt": _with(1, "1 map 0.5 -0.25")}),
    err("z-duplicate", ARGV, "z.txt", "line 3", "given twice", "first on line 1",
        files={"z.txt": _with(3, "1 map 0.4 0.2")}),
    err("z-empty", ARGV, "z.txt", "empty Z file", files={"z.txt": b""}),
    err("z-blanks-only", ARGV, "z.txt", "empty Z file", files={"z.txt": b" \n\t\n"}),
    err("z-not-utf8", ARGV, "z.txt", "line 2", "UTF-8",
        files={"z.txt": _with(2, "1 num_r\xe9t 4 2").replace("é".encode(), b"\xe9")}),
    err("z-nul", ARGV, "z.txt", "line 1", "NUL", files={"z.txt": _with(1, "1 map\x00 0.5 1")}),
    err("z-no-such-file", [*ARGV[:7], "nosuch.z", *ARGV[8:]], "nosuch.z"),
    # ---- what -Z does not go with
    err("z-compat-10", [*ARGV, "--compat", "10"], "-Z", "--compat 10", files={"z.txt": Z}),
    err("z-labels", [*ARGV, "--labels", "under=labels.txt"], "-Z", "--labels",
        files={"z.txt": Z}),
    err("z-latex", [*ARGV[:1], "-Z", "z.txt", "qrels.txt", "a.run", "--format", "latex"],
        "-Z", "--format", files={"z.txt": Z}),
    err("z-batches", [*ARGV[:1], "-Z", "z.txt", "qrels.txt", "a.run", "--batch-size", "1"],
        "-Z", "--batch-size", files={"z.txt": Z}),
    err("z-diversity", ["eval", "-Z", "z.txt", "qrels.txt", "a.run", "-m", "alpha-nDCG@5"],
        "-Z", "diversity", files={"z.txt": Z}),
    err("z-is-the-output", [*ARGV, "-o", "z.txt"], "z.txt", files={"z.txt": Z}),
    # ---- eval-many --write-zscores
    ok("write-zscores", ["eval-many", "-m", "map", "--write-zscores", "ref.z", "qrels.txt",
                         "a.run", "b.run"], output_contains("map"), allowed_new=["ref.z"]),
    err("write-zscores-over-an-input", ["eval-many", "-m", "map", "--write-zscores",
                                        "qrels.txt", "qrels.txt", "a.run", "b.run"],
        "qrels.txt"),
]


@pytest.mark.parametrize("case", CASES)
def test_zscores(case, ws, run_cli):
    run_case(case, ws, run_cli)
