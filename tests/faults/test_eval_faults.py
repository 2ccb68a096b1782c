"""``irscale eval`` (and the top-level command): faulty runs, qrels, label files, standard
input and options. Table-driven: every row is one call checked against the contract of
``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import json
import sys

import pytest

from .catalog import has_warning, no_warning, trec_file_faults
from .conftest import (
    RUN_IDS,
    all_checks,
    any_of,
    either,
    err,
    gz,
    ok,
    opt,
    output_contains,
    qrels_lines,
    replace_line,
    run_case,
    run_lines,
    same_output_as,
    text,
    trec_values,
    warnings_of,
)

MEASURES = ["-m", "map", "-m", "P@5", "-m", "num_ret", "-m", "num_rel", "-q"]


def run_argv(name: str) -> list[str]:
    return ["eval", "qrels.txt", name, *MEASURES]


def qrels_argv(name: str) -> list[str]:
    return ["eval", name, "a.run", *MEASURES]


def labels_argv(name: str) -> list[str]:
    return ["eval", "qrels.txt", "a.run", "--labels", f"under={name}", "-m", "uRBP(p=0.8)",
            "-m", "map", "-q"]


BASE = run_argv("a.run")
LATEX = ["eval", "qrels.txt", "a.run", "-m", "map", "--format", "latex"]
QRELS = qrels_lines()
RUN = run_lines("a")


def _relabel(old: str, new: str) -> bytes:
    """The qrels with every label ``old`` replaced by ``new``."""
    return text([" ".join([*f[:3], new if f[3] == old else f[3]]) for f in
                 (line.split() for line in QRELS)])


#: A run over a MiB (40,000 lines of topic 1): past its first MiB, the parser converts only
#: the fields it reads while another thread checks the rest of the bytes (io._text).
BIG_RUN = [f"1 Q0 big{k} {k + 1} {40000 - k} teamA_r1" for k in range(40000)]


def num_ret_is(expected: str):
    def check(result, ws, run):
        assert trec_values(result.out, "num_ret") == [expected], result.describe()

    return check


def values_are(measure: str, expected: dict[str, str]):
    """The output prints ``expected[topic]`` for ``measure`` and each topic given."""
    def check(result, ws, run):
        for topic, value in expected.items():
            assert trec_values(result.out, measure, topic) == [value], \
                f"{measure} {topic}: expected {value}" + result.describe()

    return check


def json_parses(result, ws, run):
    json.loads(result.out)


def each_line_names_run(*names: str):
    def check(result, ws, run):
        lines = [line for line in result.out.splitlines() if line.strip()]
        assert lines, result.describe()
        bad = [line for line in lines if not any(n in line for n in names)]
        assert not bad, f"lines that do not say which run they belong to: {bad[:3]}" + \
            result.describe()

    return check


def no_summary(result, ws, run):
    assert not trec_values(result.out, "map", "all"), result.describe()
    assert trec_values(result.out, "map", "1"), result.describe()


#: A run whose topic 1 ties d1 (relevant) with d2 (not): its order matters; topic 2 not.
TIED_RUN = "1 Q0 d1 1 0.5 {run}\n1 Q0 d2 2 0.5 {run}\n2 Q0 d2 1 0.9 {run}\n"


def one_tie_warning(needle: str):
    """A check: the warning of --ties expected comes once, naming ``needle`` (the counts of
    the whole call, not of a batch)."""
    def check(result, ws, run):
        lines = [line for line in warnings_of(result) if "tied documents" in line]
        assert len(lines) == 1 and needle in lines[0], result.describe()

    return check


def one_note(*needles: str):
    """A check: standard error holds one ``irscale: note:`` line, naming every needle."""
    def check(result, ws, run):
        notes = [line for line in result.err.splitlines() if line.startswith("irscale: note: ")]
        assert len(notes) == 1 and all(n in notes[0] for n in needles), result.describe()

    return check


def judged_by_the_engine(result, ws, run):
    """A check: the call gives the same output and warnings with the Python run readers
    refused (its runs read and judged by the engine, as runs named by their files are)."""
    from unittest import mock

    def refused(*args, **kwargs):
        raise AssertionError("the Python run readers were called")

    with mock.patch("irscale.io.sources.read_runs", refused), \
            mock.patch("irscale.io.sources.read_run_file", refused):
        again = run(result.argv)
    assert (again.status, again.out, again.err) == (0, result.out, result.err), \
        again.describe()


def named_as_by_file(renamed: dict[str, str]):
    """A check: the output is that of the same call without ``--names`` (the runs named by
    their files), each name of ``renamed`` replaced by its new name (the last field of a
    line of trec_eval's format, the first of a CSV row)."""
    def rename(line: str) -> str:
        for old, new in renamed.items():
            if line.endswith(f"\t{old}\n"):
                return f"{line[:-len(old) - 1]}{new}\n"
            if line.startswith(f"{old},"):
                return new + line[len(old):]
        return line

    def check(result, ws, run):
        at = result.argv.index("--names")
        by_file = run([*result.argv[:at], *result.argv[at + 2:]])
        expected = "".join(map(rename, by_file.out.splitlines(keepends=True)))
        assert by_file.status == 0 and result.out == expected, result.describe()

    return check


def not_in_output(*needles: str):
    def check(result, ws, run):
        assert not any(n in result.out for n in needles), result.describe()

    return check


FOREIGN = text([" ".join(["10" + f[0], *f[1:]]) for f in (line.split() for line in RUN)])

CASES = [
    *trec_file_faults("run", "run", run_argv, BASE, name="bad.run"),
    *trec_file_faults("qrels", "qrels", qrels_argv, BASE, name="bad.qrels"),
    *trec_file_faults("labels", "labels", labels_argv, labels_argv("labels.txt"),
                      name="bad.labels"),
    # ---- qrels: labels of any size are valid and leave binary measures unchanged
    ok("qrels-label-1e7", qrels_argv("big.qrels"), same_output_as(*BASE),
       files={"big.qrels": _relabel("2", str(10**7))}),
    ok("qrels-label-2pow31", qrels_argv("big.qrels"), same_output_as(*BASE),
       files={"big.qrels": _relabel("2", str(2**31))}),
    ok("qrels-label-int64-max", qrels_argv("big.qrels"), same_output_as(*BASE),
       files={"big.qrels": _relabel("2", str(2**63 - 1))}),
    ok("qrels-label-negative", qrels_argv("neg.qrels"), same_output_as(*BASE),
       files={"neg.qrels": _relabel("0", "-1")}),
    either("qrels-label-plus-sign", qrels_argv("plus.qrels"), "plus.qrels", "line 3",
           check=same_output_as(*BASE), files={"plus.qrels": _relabel("1", "+1")}),
    # reals with zeros after the point: atol (trec_eval) reads the integer they mean
    ok("qrels-label-real-point-zero", qrels_argv("real.qrels"), same_output_as(*BASE),
       files={"real.qrels": _relabel("2", "2.0")}),
    ok("qrels-label-real-point", qrels_argv("real.qrels"), same_output_as(*BASE),
       files={"real.qrels": _relabel("1", "1.")}),
    ok("qrels-label-real-aligned", qrels_argv("real.qrels"), same_output_as(*BASE),
       files={"real.qrels": _relabel("0", " 0.000 ")}),
    # atol reads 1e1 as 1 and 1.5 as 1: neither is what the file says, refused
    err("qrels-label-exponent", qrels_argv("exp.qrels"), "exp.qrels", "line", "1e1",
        files={"exp.qrels": _relabel("2", "1e1")}),
    err("qrels-label-fraction", qrels_argv("frac.qrels"), "frac.qrels", "line", "1.5",
        files={"frac.qrels": _relabel("1", "1.5")}),
    # pyarrow would read 0x10 as 16, C's atol (trec_eval) as 0: refused, naming the line
    err("qrels-label-hex", qrels_argv("hex.qrels"), "hex.qrels", "line", "0x10",
        files={"hex.qrels": _relabel("2", "0x10")}),
    err("qrels-label-hex-upper", qrels_argv("hex.qrels"), "hex.qrels", "line", "0X1",
        files={"hex.qrels": _relabel("1", "0X1")}),
    ok("qrels-docno-looks-hex", ["eval", "hexdoc.qrels", "hexdoc.run", *MEASURES],
       same_output_as(*BASE),
       files={"hexdoc.qrels": text([line.replace(" d", " 0xd", 1) for line in QRELS]),
              "hexdoc.run": text([line.replace(" d", " 0xd", 1) for line in RUN])}),
    # both files bad: the qrels' error (the qrels are read first)
    err("qrels-and-run-both-bad", ["eval", "hex.qrels", "bad.run", *MEASURES], "hex.qrels",
        "0x10", files={"hex.qrels": _relabel("2", "0x10"),
                       "bad.run": replace_line(RUN, 2, "q1 Q0 dX 2 abc r")}),
    # ---- a run over a MiB, faulty past its first MiB (checked beside the parse)
    ok("run-big", run_argv("big.run"), num_ret_is("40000"), files={"big.run": text(BIG_RUN)}),
    err("run-big-bad-score-late", run_argv("big.run"), "big.run", "line 39000", "abc",
        files={"big.run": replace_line(BIG_RUN, 39000, "1 Q0 big38999 39000 abc teamA_r1")}),
    # six fields to the CSV reader, one of them empty; five to whitespace splitting
    err("run-big-empty-field-late", run_argv("big.run"), "big.run", "line 39000",
        files={"big.run": replace_line(BIG_RUN, 39000, "1 Q0  big38999 39000 2")}),
    # a double blank and seven fields to the reader: six to whitespace splitting, read
    ok("run-big-double-blank-late", run_argv("big.run"), num_ret_is("40000"),
       files={"big.run": replace_line(BIG_RUN, 39000, "1 Q0  big38999 39000 2 teamA_r1")}),
    ok("run-big-tab-late", run_argv("big.run"), num_ret_is("40000"),
       files={"big.run": replace_line(BIG_RUN, 39000, "1\tQ0 big38999 39000 2 teamA_r1")}),
    # ---- topics
    err("run-topics-not-in-qrels", run_argv("foreign.run"), any_of("foreign.run", "'foreign'"),
        files={"foreign.run": FOREIGN}),
    ok("run-topics-not-in-qrels-allow-empty", [*run_argv("foreign.run"), "--allow-empty"],
       files={"foreign.run": FOREIGN}),
    err("qrels-topics-not-in-run", qrels_argv("foreign.qrels"), "foreign.qrels",
        files={"foreign.qrels": text([" ".join(["10" + f[0], *f[1:]])
                                      for f in (line.split() for line in QRELS)])}),
    ok("run-one-topic-only", run_argv("one.run"), None, files={"one.run": text(RUN[:5])}),
    ok("run-one-document", run_argv("one.run"), num_ret_is("1"),
       files={"one.run": text(RUN[:1])}),
    # ---- runs are named by their files, with no warning; by run id on request, the runs
    # sharing a run id by file stem, with a warning
    ok("runs-sharing-run-id", ["eval", "qrels.txt", "first.run", "second.run", "-m", "map"],
       all_checks(no_warning, output_contains("first", "second")),
       files={"first.run": text(RUN), "second.run": text(RUN)}),
    ok("runs-sharing-run-id-gz", ["eval", "qrels.txt", "first.run", "second.run.gz", "-m",
                                  "map"],
       all_checks(no_warning, output_contains("first", "second")),
       files={"first.run": text(RUN), "second.run.gz": gz(text(RUN))}),
    ok("runs-sharing-run-id-by-runid", ["eval", "qrels.txt", "first.run", "second.run.gz",
                                        "-m", "map", "--names", "runid"],
       all_checks(has_warning, output_contains("first", "second")),
       files={"first.run": text(RUN), "second.run.gz": gz(text(RUN))}),
    ok("runs-sharing-a-file-name", ["eval", "qrels.txt", "x/r.run", "y/r.run", "-m", "map"],
       all_checks(has_warning, output_contains("x/r", "y/r")),
       files={"x/r.run": text(RUN), "y/r.run": text(RUN)}),
    ok("several-runs-every-line-names-its-run",
       ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-m", "P@5", "-q"],
       each_line_names_run("a", "b")),
    ok("several-runs-by-runid-every-line-names-its-run",
       ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-m", "P@5", "-q", "--names",
        "runid"],
       each_line_names_run("teamA_r1", "teamB_r1")),
    either("same-run-file-twice", ["eval", "qrels.txt", "a.run", "a.run", "-m", "map"],
           "a.run"),
    # ---- runs named by --names are read and judged by the engine as runs named by their
    # files are: the names the only difference in the output
    ok("names-runid-judged-by-the-engine",
       ["eval", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "-m", "P@5", "-m",
        "runid", "-q", "--names", "runid"],
       all_checks(judged_by_the_engine, named_as_by_file(RUN_IDS))),
    ok("names-runid-judged-by-the-engine-summary",
       ["eval", "qrels.txt", "a.run", "b.run", "c.run", "--names", "runid"],
       all_checks(judged_by_the_engine, named_as_by_file(RUN_IDS))),
    ok("names-runid-judged-by-the-engine-csv",
       ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--format", "csv", "--names",
        "runid"],
       all_checks(judged_by_the_engine, named_as_by_file(RUN_IDS))),
    ok("names-given-judged-by-the-engine",
       ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-q", "--names", "x,y"],
       all_checks(judged_by_the_engine, named_as_by_file({"a": "x", "b": "y"}))),
    ok("names-file-judged-by-the-engine",
       ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--names", "file"],
       all_checks(judged_by_the_engine, no_warning, named_as_by_file({}))),
    # two files sharing a run id: each named by its file, with the readers' one warning
    ok("names-runid-shared-judged-by-the-engine",
       ["eval", "qrels.txt", "first.run", "second.run.gz", "c.run", "-m", "map", "--names",
        "runid"],
       all_checks(judged_by_the_engine, has_warning,
                  named_as_by_file({"c": RUN_IDS["c"]})),
       files={"first.run": text(RUN), "second.run.gz": gz(text(RUN))}),
    err("names-given-twice", ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--names",
                              "x,x"], "'x' is given twice"),
    err("names-given-too-few", ["eval", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                                "--names", "x,y"], "2 names given for 3 runs"),
    # a malformed file's error before the names' (the files are read first)
    err("names-given-too-few-malformed-run", ["eval", "qrels.txt", "a.run", "bad.run", "-m",
                                              "map", "--names", "x,y,z"],
        "bad.run", "line 2", files={"bad.run": replace_line(RUN, 2, "1 Q0 d2 2 abc r")}),
    # ---- standard input
    ok("stdin-run", ["eval", "qrels.txt", "-", *MEASURES], same_output_as(*BASE),
       stdin=text(RUN)),
    ok("stdin-qrels", ["eval", "-", "a.run", *MEASURES], same_output_as(*BASE),
       stdin=text(QRELS)),
    ok("stdin-run-gzip", ["eval", "qrels.txt", "-", *MEASURES], same_output_as(*BASE),
       stdin=gz(text(RUN))),
    ok("stdin-run-crlf", ["eval", "qrels.txt", "-", *MEASURES], same_output_as(*BASE),
       stdin=text(RUN).replace(b"\n", b"\r\n")),
    err("stdin-twice-runs", ["eval", "qrels.txt", "-", "-", *MEASURES],
        any_of("-", "stdin", "standard input"), stdin=text(RUN)),
    err("stdin-twice-qrels-and-run", ["eval", "-", "-", *MEASURES],
        any_of("-", "stdin", "standard input"), stdin=text(RUN)),
    err("stdin-empty", ["eval", "qrels.txt", "-", *MEASURES],
        any_of("<stdin>", "standard input", "stdin"), stdin=b""),
    err("stdin-bad-line", ["eval", "qrels.txt", "-", *MEASURES],
        any_of("<stdin>", "standard input", "stdin"), "line 3", "abc",
        stdin=text([*RUN[:2], "1 Q0 d7 3 abc teamA_r1", *RUN[3:]])),
    err("stdin-non-utf8", ["eval", "qrels.txt", "-", *MEASURES], "line 2",
        stdin=text(RUN[:1]) + b"1 Q0 d\xff 2 0.5 teamA_r1\n"),
    err("stdin-truncated-gzip", ["eval", "qrels.txt", "-", *MEASURES],
        any_of("<stdin>", "standard input", "stdin"), stdin=gz(text(RUN))[:40]),
    # ---- measures
    err("measure-unknown", ["eval", "qrels.txt", "a.run", "-m", "nosuch"], "nosuch"),
    err("measure-empty", ["eval", "qrels.txt", "a.run", "-m", ""], any_of("measure", "-m")),
    err("measure-P-rel-0", ["eval", "qrels.txt", "a.run", "-m", "P(rel=0)@5"], "rel"),
    err("measure-P-rel-negative", ["eval", "qrels.txt", "a.run", "-m", "P(rel=-1)@5"], "rel"),
    err("measure-NumRet-rel-0", ["eval", "qrels.txt", "a.run", "-m", "NumRet(rel=0)"], "rel"),
    err("measure-nDCG-gain-foo", ["eval", "qrels.txt", "a.run", "-m", "nDCG(gain=foo)"],
        "foo"),
    err("measure-RBP-p-2", ["eval", "qrels.txt", "a.run", "-m", "RBP(p=2)"], "p"),
    err("measure-RBP-p-negative", ["eval", "qrels.txt", "a.run", "-m", "RBP(p=-0.5)"], "p"),
    err("measure-RBP-p-text", ["eval", "qrels.txt", "a.run", "-m", "RBP(p=abc)"], "abc"),
    err("measure-RBP-unknown-param", ["eval", "qrels.txt", "a.run", "-m", "RBP(q=0.5)"], "q"),
    err("measure-P-cutoff-text", ["eval", "qrels.txt", "a.run", "-m", "P@abc"], "abc"),
    err("measure-P-cutoff-negative", ["eval", "qrels.txt", "a.run", "-m", "P@-5"], "-5"),
    err("measure-unbalanced-paren", ["eval", "qrels.txt", "a.run", "-m", "P(rel=2@5"],
        "P(rel=2@5"),
    err("measure-trec-name-bad-cutoff", ["eval", "qrels.txt", "a.run", "-m", "P_abc"],
        "P_abc"),
    err("measure-uRBP-without-labels", ["eval", "qrels.txt", "a.run", "-m", "uRBP(p=0.8)"],
        any_of("under", "labels")),
    # a trec_eval family requested twice: --format trec keeps the first parameters, as
    # trec_eval does (docs/trec_eval_semantics.md); the other formats keep both; a later
    # malformed request, which trec_eval never reads, is still refused
    ok("measure-family-twice-trec", ["eval", "qrels.txt", "a.run", "-m", "P.5", "-m", "P.2"],
       same_output_as("eval", "qrels.txt", "a.run", "-m", "P.5")),
    ok("measure-family-twice-many", ["eval-many", "qrels.txt", "a.run", "-m", "P.5", "-m",
                                     "P.2"],
       same_output_as("eval-many", "qrels.txt", "a.run", "-m", "P.5")),
    ok("measure-family-twice-json", ["eval", "qrels.txt", "a.run", "-m", "P.5", "-m", "P.2",
                                     "--format", "json"], output_contains('"P_5"', '"P_2"')),
    err("measure-family-twice-bad-later", ["eval", "qrels.txt", "a.run", "-m", "P.5", "-m",
                                           "P.x"], "'P'", "'x'"),
    err("measure-family-twice-later-zero", ["eval", "qrels.txt", "a.run", "-m", "P.5", "-m",
                                            "P.0"], "'P'", "'0'"),
    # ---- -l / -M / -N
    err("level-0", [*BASE, "-l", "0"], any_of("-l", "level")),
    err("level-negative", [*BASE, "-l", "-1"], any_of("-l", "level")),
    err("level-text", [*BASE, "-l", "abc"], any_of("-l", "level")),
    err("level-beyond-int64", [*BASE, "-l", "99999999999999999999"], any_of("-l", "level")),
    # -l is --relevance-level in every command; eval also takes trec_eval's --level-for-rel
    ok("level-long-form", [*BASE, "--relevance-level", "2"], same_output_as(*BASE, "-l", "2")),
    ok("level-trec-eval-spelling", [*BASE, "--level-for-rel", "2"],
       same_output_as(*BASE, "-l", "2")),
    err("level-two-spellings", [*BASE, "-l", "2", "--level-for-rel", "2"],
        "given twice", "-l"),
    either("max-retrieved-0", [*BASE, "-M", "0"], any_of("-M", "max"),
           check=num_ret_is("0")),
    ok("max-retrieved-2", [*BASE, "-M", "2"], num_ret_is("12")),
    err("max-retrieved-negative", [*BASE, "-M", "-1"], any_of("-M", "max")),
    err("max-retrieved-beyond-int64", [*BASE, "-M", "99999999999999999999"],
        any_of("-M", "max")),
    err("max-retrieved-text", [*BASE, "-M", "ten"], any_of("-M", "max")),
    err("num-docs-negative", [*BASE, "-N", "-1"], any_of("-N", "num-docs")),
    err("num-docs-beyond-int64", [*BASE, "-N", "99999999999999999999"],
        any_of("-N", "num-docs")),
    ok("num-docs-100", [*BASE, "-N", "100"]),
    # ---- other options
    err("compat-8", [*BASE, "--compat", "8"], "compat"),
    err("ties-unknown", [*BASE, "--ties", "random"], "random"),
    err("format-unknown", [*BASE, "--format", "xml"], "xml"),
    err("labels-no-equals", [*labels_argv("labels.txt")[:3], "--labels", "under",
                             "-m", "map"], "--labels"),
    err("labels-no-name", ["eval", "qrels.txt", "a.run", "--labels", "=labels.txt"],
        "--labels"),
    err("labels-no-file", ["eval", "qrels.txt", "a.run", "--labels", "under="], "--labels"),
    err("labels-twice", [*labels_argv("labels.txt"), "--labels", "under=labels.txt"],
        "under"),
    err("unknown-option", [*BASE, "--bogus"], "--bogus"),
    err("no-run", ["eval", "qrels.txt"], any_of("runs", "run")),
    err("no-arguments", ["eval"], any_of("qrels", "run")),
    err("output-option-without-value", [*BASE, "-o"], any_of("-o", "--output")),
    ok("judged-only-complete", [*BASE, "-J", "-c"]),
    ok("per-query-no-summary", ["eval", "qrels.txt", "a.run", "-m", "map", "-q", "-n"],
       no_summary),
    ok("format-json", [*BASE, "--format", "json"], json_parses),
    ok("format-csv", [*BASE, "--format", "csv"], output_contains("map")),
    ok("format-markdown", [*BASE, "--format", "markdown"], output_contains("|")),
    # tables of summaries with no summary to show: a malformed Markdown table, a LaTeX
    # table of run names
    err("format-markdown-relstring-only", ["eval", "qrels.txt", "a.run", "-m", "relstring",
                                           "-q", "--format", "markdown"], "relstring",
        "markdown"),
    err("format-latex-runid-only", ["eval", "qrels.txt", "a.run", "-m", "runid", "--format",
                                    "latex"], "runid", "latex"),
    err("many-format-markdown-runid-only", ["eval-many", "qrels.txt", "a.run", "-m", "runid",
                                            "--format", "markdown"], "runid", "markdown"),
    # ---- F_β of a β whose square overflows a double: recall, its limit (a.run retrieves
    # 2 of topic 1's 3 relevant documents, 2/2, 2/3, 0/2, 3/3, 1/2: mean 23/36)
    ok("measure-f-beta-beyond-double", ["eval", "qrels.txt", "a.run", "-q", "-m",
                                        "F(beta=1e308)"],
       values_are("F(beta=1e308)", {"1": "0.6667", "4": "0.0000", "6": "0.5000",
                                    "all": "0.6389"})),
    # ---- the latex table (--format latex, --baseline, --test, --correction, --alpha)
    ok("latex-table", [*LATEX], output_contains("\\begin{tabular}")),
    # ---- every mean with its interval (--ci t|bootstrap)
    ok("ci-latex", [*LATEX, "--ci", "t"], output_contains("95\\% t interval", "[")),
    ok("ci-csv", [*LATEX[:-2], "--ci", "t", "--alpha", "0.1", "--format", "csv"],
       output_contains("run,measure,mean,ci_low,ci_high")),
    ok("ci-bootstrap-json", [*LATEX[:-2], "--ci", "bootstrap", "--ci-samples", "200",
                             "--ci-seed", "1", "--format", "json"],
       output_contains('"ci_high"')),
    # ---- the bounds under the unjudged documents (--bounds)
    ok("bounds-trec", ["eval", "qrels.txt", "a.run", "b.run", "-m", "P@5", "--bounds"],
       output_contains("P@5_low", "P@5_high", "\tall\t", "undecided")),
    ok("bounds-csv-per-topic", ["eval", "qrels.txt", "a.run", "-m", "map", "--bounds", "-q",
                                "--format", "csv"],
       output_contains("run,topic,measure,value,low,high,unjudged")),
    err("bounds-with-ci", [*LATEX[:-2], "--bounds", "--ci", "t", "--format", "csv"],
        "--bounds", "--ci"),
    err("bounds-no-summary", [*LATEX[:-2], "--bounds", "-n"], "--bounds", "--no-summary"),
    err("bounds-trec-eval-option", [*LATEX[:-2], "--bounds", "-M", "5"], "--bounds", "-l"),
    ok("ci-markdown", [*LATEX[:-2], "--ci", "t", "--format", "markdown"],
       output_contains("| run", "ci_low", "ci_high")),
    err("ci-trec", [*LATEX[:-2], "--ci", "t"],
        "--ci applies to --format latex, csv, json and markdown (trec_eval's layout has no "
        "place for an interval), not trec"),
    err("ci-unknown", [*LATEX, "--ci", "normal"], opt("--ci")),
    err("ci-samples-with-t", [*LATEX, "--ci", "t", "--ci-samples", "10"],
        "--ci-samples applies to --ci bootstrap"),
    err("ci-samples-0", [*LATEX, "--ci", "bootstrap", "--ci-samples", "0"],
        opt("--ci-samples")),
    err("ci-seed-without-ci", [*LATEX, "--ci-seed", "1"], "--ci-seed applies to --ci"),
    err("ci-summary-only", ["eval", "qrels.txt", "a.run", "-m", "num_q", "--ci", "t",
                            "--format", "csv"], "per-topic values"),
    ok("latex-baseline", ["eval", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                          "--format", "latex", "--baseline", "teamB_r1"],
       output_contains("than b (")),
    # the baseline named by its file, as irscale report names it (path, name or stem)
    ok("latex-baseline-by-file", ["eval", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                                  "--format", "latex", "--baseline", "./b.run"],
       output_contains("than b (")),
    ok("latex-baseline-by-name", ["eval", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                                  "--format", "latex", "--baseline", "b"],
       output_contains("than b (")),
    err("latex-baseline-ambiguous", ["eval", "qrels.txt", "x/r.run", "y/r.run", "-m", "map",
                                     "--format", "latex", "--baseline", "r"],
        "'r' is ambiguous", "x/r", "y/r", files={"x/r.run": text(RUN), "y/r.run": text(RUN)}),
    ok("latex-baseline-by-stem", ["eval", "qrels.txt", "a.run", "b.run", "-m", "map",
                                  "--format", "latex", "--baseline", "b", "--names", "x,y"],
       output_contains("than y")),
    err("latex-baseline-unknown", ["eval", "qrels.txt", "a.run", "b.run", "-m", "map",
                                   "--format", "latex", "--baseline", "nope"], "nope"),
    err("latex-baseline-without-latex", [*BASE, "--baseline", "teamA_r1"], "--baseline",
        "latex"),
    err("latex-test-without-baseline", [*LATEX, "--test", "t"], "--test",
        "--baseline"),
    err("latex-alpha-without-baseline", [*LATEX, "--alpha", "0.1"],
        "--alpha"),
    err("latex-alpha-out-of-range", ["eval", "qrels.txt", "a.run", "b.run", "--format",
                                     "latex", "--baseline", "teamA_r1", "--alpha", "1.5"],
        "--alpha"),
    err("latex-alpha-nan", ["eval", "qrels.txt", "a.run", "b.run", "--format", "latex",
                            "--baseline", "teamA_r1", "--alpha", "nan"], "--alpha"),
    err("latex-resampling-test", ["eval", "qrels.txt", "a.run", "b.run", "--format", "latex",
                                  "--baseline", "teamA_r1", "--test", "bootstrap"], "bootstrap"),
    err("latex-correction-unknown", ["eval", "qrels.txt", "a.run", "b.run", "--format",
                                     "latex", "--baseline", "teamA_r1", "--correction", "zz"],
        "zz"),
    err("latex-per-query", [*LATEX, "-q"], "-q"),
    err("latex-no-summary", [*LATEX, "-n"], "-n"),
    # ---- --ties expected: tie-aware values
    err("ties-unknown", [*BASE, "--ties", "random"], "--ties", "random"),
    err("ties-expected-measure-without-tie-aware-value",
        ["eval", "qrels.txt", "a.run", "-m", "infAP", "--ties", "expected"],
        "measure infAP has no tie-aware value"),
    ok("ties-expected-catalogue-measure", ["eval", "qrels.txt", "a.run", "-m", "ERR@10",
                                           "-m", "RBP(p=0.8)", "-m", "SDCG@3", "--ties",
                                           "expected"],
       output_contains("ERR@10", "RBP(p=0.8)", "SDCG@3")),
    err("ties-expected-adaptive-cwl-measure", ["eval", "qrels.txt", "a.run", "-m", "INST(T=2)",
                                               "--ties", "expected"],
        "INST(T=2) has no tie-aware value", "CWL-P", "SDCG", "INSQ"),
    err("ties-expected-cut-of-its-own", ["eval", "qrels.txt", "a.run", "-m", "RBP@5",
                                         "--ties", "expected"],
        "RBP@5 has no tie-aware value", "without a cut-off @k of their own"),
    ok("ties-expected-eval-many-warns-once",
       ["eval-many", "qrels.txt", "t1.run", "t2.run", "--batch-size", "1", "-m", "map",
        "--ties", "expected", "--no-progress"], one_tie_warning("2 of 4 topic rankings"),
       files={"t1.run": TIED_RUN.format(run="t1"), "t2.run": TIED_RUN.format(run="t2")}),
    ok("ties-expected-ir-measures-name", ["eval", "qrels.txt", "a.run", "-m", "AP@3",
                                          "--ties", "expected"], output_contains("AP@3")),
    err("ties-expected-max-docs", [*BASE, "--ties", "expected", "-M", "3"], "-M",
        "--ties expected"),
    ok("ties-expected", [*BASE, "--ties", "expected"], output_contains("map")),
    # the default measures (and any measure set): the tie-aware values of the measures that
    # have one, the others named in one note
    ok("ties-expected-default-measures", ["eval", "qrels.txt", "a.run", "--ties", "expected"],
       all_checks(output_contains("map", "recip_rank", "P_5"),
                  not_in_output("iprec_at_recall"),
                  one_note("--ties expected", "iprec_at_recall", "official", "left out"))),
    ok("ties-expected-all-trec", ["eval", "qrels.txt", "a.run", "-m", "all_trec", "--ties",
                                  "expected"],
       all_checks(output_contains("ndcg", "bpref"), not_in_output("11pt_avg", "infAP"),
                  one_note("iprec_at_recall", "11pt_avg", "infAP", "all_trec"))),
    ok("ties-expected-default-measures-eval-many",
       ["eval-many", "qrels.txt", "a.run", "--ties", "expected", "--no-progress"],
       all_checks(output_contains("map"), not_in_output("iprec_at_recall"),
                  one_note("iprec_at_recall"))),
    # a measure named by itself is refused, naming every tie-aware measure (gRBP: RBP's
    # other name; ir_measures' names)
    err("ties-expected-named-measure-of-the-default-set",
        ["eval", "qrels.txt", "a.run", "-m", "iprec_at_recall", "--ties", "expected"],
        "measure iprec_at_recall has no tie-aware value", "RBP, gRBP", "ir_measures' AP"),
    ok("ties-expected-json", [*BASE, "--ties", "expected", "--format", "json"],
       output_contains('"measure": "map"')),
    # ---- trec_eval's options at the edges of the path parsed from the manifest: what it
    # does not read as the declared parser does is left to that parser, which reports it
    ok("trec-path-max-retrieved-leading-zero", [*BASE, "-M", "010"],
       same_output_as(*BASE, "-M", "10")),
    ok("trec-path-max-retrieved-joined", [*BASE, "-M10"], same_output_as(*BASE, "-M", "10")),
    ok("trec-path-max-retrieved-equals", [*BASE, "--max-retrieved=10"],
       same_output_as(*BASE, "-M", "10")),
    ok("trec-path-flags-joined", [*run_argv("a.run")[:-1], "-qJ"],
       same_output_as(*run_argv("a.run"), "-J")),
    ok("trec-path-abbreviated", [*BASE, "--judged"], same_output_as(*BASE, "-J")),
    ok("trec-path-option-amid-runs", ["eval", "qrels.txt", "-q", "a.run", "-m", "map"],
       same_output_as("eval", "qrels.txt", "a.run", "-m", "map", "-q")),
    err("trec-path-max-retrieved-zero", [*BASE, "-M", "0"], "-M", "0"),
    err("trec-path-max-retrieved-negative", [*BASE, "-M", "-3"], "-M", "-3"),
    err("trec-path-max-retrieved-past-int64", [*BASE, "-M", str(2**63)], "-M",
        str(2**63)),
    err("trec-path-max-retrieved-twice", [*BASE, "-M", "5", "-M", "6"], "-M given twice"),
    err("trec-path-compat-unknown", [*BASE, "--compat", "11"], "--compat", "11"),
    err("trec-path-level-zero", [*BASE, "-l", "0"], "-l", "0"),
    err("trec-path-measure-without-value", [*BASE, "-m"], "-m"),
    err("trec-path-runs-split", ["eval", "qrels.txt", "a.run", "-q", "a.run"],
        "a.run"),
    # ---- the command itself
    err("command-missing", [], any_of("command", "COMMAND", "eval")),
    err("command-unknown", ["frob"], "frob"),
    err("command-unknown-option", ["--bogus"], "--bogus"),
    err("command-misspelt", ["evaluate", "qrels.txt", "a.run"], "evaluate"),
]


@pytest.mark.parametrize("case", CASES)
def test_eval(case, ws, run_cli):
    run_case(case, ws, run_cli)


def test_version(ws, run_cli):
    result = run_cli(["--version"])
    assert result.status == 0 and "Traceback" not in result.err
    assert "irscale" in result.out + result.err


# ----------------------------------------------------------------------------- ir_datasets
#: Local ir_datasets datasets (registered once per process by the fixture below): the
#: workspace's qrels and run a as qrels and scoreddocs, a dataset without qrels, one whose
#: qrels file is not there (a download that would be needed).
IRDS = "irds:irscale-faults/"
IRDS_CASES = [
    ok("irds-qrels", ["eval", f"{IRDS}full", "a.run", *MEASURES], same_output_as(*BASE)),
    ok("irds-run", ["eval", "qrels.txt", f"{IRDS}full", *MEASURES], same_output_as(*BASE)),
    ok("irds-qrels-official", ["eval", f"{IRDS}full", "a.run", "b.run"],
       same_output_as("eval", "qrels.txt", "a.run", "b.run")),
    err("irds-unknown", ["eval", f"{IRDS}nosuch", "a.run"],
        "unknown ir_datasets dataset 'irscale-faults/nosuch'"),
    err("irds-empty-id", ["eval", "irds:", "a.run"], "irds:", "name an ir_datasets dataset"),
    err("irds-no-qrels", ["eval", f"{IRDS}runonly", "a.run"], f"{IRDS}runonly", "no qrels",
        "scoreddocs"),
    err("irds-not-local", ["eval", f"{IRDS}missing", "a.run"], f"{IRDS}missing",
        "not available locally", "FileNotFoundError"),
    err("irds-run-no-scoreddocs", ["eval", "qrels.txt", f"{IRDS}missing"],
        "no scored documents"),
    err("irds-diversity-qrels", ["eval", f"{IRDS}full", "a.run", "-m", "alpha-nDCG@5"],
        f"{IRDS}full", "ndeval"),
    err("irds-run-rank-column", ["eval", "qrels.txt", f"{IRDS}full", "--ties",
                                 "rank-column"], f"{IRDS}full", "no rank column"),
]


@pytest.fixture(scope="module")
def irds_datasets(tmp_path_factory):
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs
    from ir_datasets.util import LocalDownload

    folder = tmp_path_factory.mktemp("irds")
    (folder / "qrels").write_bytes(text(QRELS))
    (folder / "run").write_bytes(text(RUN))
    qrels = TrecQrels(LocalDownload(folder / "qrels", mkdir=False), {})
    run = TrecScoredDocs(LocalDownload(folder / "run", mkdir=False))
    missing = TrecQrels(LocalDownload(folder / "not-downloaded", mkdir=False), {})
    known = set(ir_datasets.registry)
    for name, parts in (("full", (qrels, run)), ("runonly", (run,)), ("missing", (missing,))):
        if f"irscale-faults/{name}" not in known:  # the registry is the process's
            ir_datasets.registry.register(f"irscale-faults/{name}", Dataset(*parts))


@pytest.mark.parametrize("case", IRDS_CASES)
def test_eval_irds(case, ws, run_cli, irds_datasets):
    run_case(case, ws, run_cli)


def test_eval_irds_without_ir_datasets(ws, run_cli, monkeypatch):
    """ir_datasets not installed: one line naming the extra to install."""
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import raises ImportError
    case = err("irds-not-installed", ["eval", f"{IRDS}full", "a.run"],
               "irds:irscale-faults/full", "pip install 'irscale[irds]'").values[0]
    run_case(case, ws, run_cli)
