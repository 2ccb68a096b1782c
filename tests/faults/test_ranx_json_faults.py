"""ranx's JSON qrels and runs (``irscale.io.ranx_json``) on the command line, and
``irscale convert``.

The collection's qrels and run a written as ranx writes them (``{query: {doc: value}}``,
made here from the lines, not by irscale's writer) evaluate as their TREC files do; every
malformed file is one ``irscale:`` line naming the file, the line and its text: not an
object, a query mapping to no object or to an empty one, a key listed twice, a relevance
that is no integer, a score that is no finite number, a boolean or text as a value, text
that is not JSON, JSON nested too deep or an integer beyond 64 bits; ``convert``'s options
(an unknown format, ``--name`` with qrels) and its output never an input.
"""

from __future__ import annotations

import json

import pytest

from .conftest import err, ok, opt, qrels_lines, run_case, run_lines, same_output_as

MEASURES = ["-q", "-m", "map", "-m", "P.5", "-m", "ndcg"]


def _nested(lines: list[str], key: int, value: int, cast) -> dict:
    """``{topic: {docno: value}}`` of TREC lines (the fields at ``key`` and ``value``)."""
    out: dict = {}
    for line in lines:
        fields = line.split()
        out.setdefault(fields[0], {})[fields[key]] = cast(fields[value])
    return out


QRELS_JSON = json.dumps(_nested(qrels_lines(), 2, 3, int), indent=2).encode()
RUN_JSON = json.dumps(_nested(run_lines("a"), 2, 4, float), indent=2).encode()


def qrels_case(id: str, body: str, *needles: str):
    """A qrels file ``q.json`` holding ``body``, refused with ``needles``."""
    return err(f"ranx-qrels-{id}", ["eval", "q.json", "a.run"], "q.json", *needles,
               files={"q.json": body.encode()})


def run_case_row(id: str, body: str, *needles: str):
    """A run file ``r.json`` holding ``body``, refused with ``needles``."""
    return err(f"ranx-run-{id}", ["eval", "qrels.txt", "r.json"], "r.json", *needles,
               files={"r.json": body.encode()})


CASES = [
    # ---- valid files: the values of the TREC files
    ok("ranx-qrels-evaluates-as-trec", ["eval", *MEASURES, "q.json", "a.run"],
       same_output_as("eval", *MEASURES, "qrels.txt", "a.run"), files={"q.json": QRELS_JSON}),
    ok("ranx-run-evaluates-as-trec", ["eval", *MEASURES, "qrels.txt", "r.json"],
       same_output_as("eval", *MEASURES, "qrels.txt", "a.run"), files={"r.json": RUN_JSON}),
    ok("ranx-by-content-not-name", ["eval", *MEASURES, "q.data", "a.run"],
       same_output_as("eval", *MEASURES, "qrels.txt", "a.run"), files={"q.data": QRELS_JSON}),
    ok("ranx-convert-back", ["convert", "q.json", "--kind", "qrels", "--to", "trec"],
       lambda result, ws, run: _same_judgments(result.out), files={"q.json": QRELS_JSON}),
    # ---- malformed qrels
    qrels_case("array", "[1, 2]\n", "line 1", "expected an object"),
    qrels_case("query-maps-to-array", '{\n "1": {"d1": 1},\n "2": []\n}\n', "line 3",
               "query '2' maps to an array"),
    qrels_case("query-empty", '{\n "1": {}\n}\n', "line 2", "holds no document"),
    qrels_case("document-twice", '{\n "1": {\n  "d1": 1,\n  "d1": 2\n }\n}\n', "line 4",
               "lists document 'd1' twice"),
    qrels_case("query-twice", '{\n "1": {"d1": 1},\n "1": {"d2": 1}\n}\n', "line 3",
               "query '1' is listed twice"),
    qrels_case("fraction", '{\n "1": {\n  "d1": 1.5\n }\n}\n', "line 3", "not an integer"),
    qrels_case("text", '{\n "1": {\n  "d1": "x"\n }\n}\n', "line 3", "a string"),
    qrels_case("boolean", '{"1": {"d1": true}}\n', "line 1", "a boolean"),
    qrels_case("null", '{"1": {"d1": null}}\n', "line 1", "null"),
    qrels_case("not-json", '{\n "1": {"d1": 1,}\n}\n', "line 2", "not JSON"),
    qrels_case("huge-integer", '{\n "1": {"d1": 99999999999999999999}\n}\n', "line 2",
               "beyond 64 bits"),
    qrels_case("too-deep", "{" * 150 + "}" * 150 + "\n", "line 1", "nested deeper"),
    qrels_case("no-query", "{}\n", "no query"),
    # ---- malformed runs
    run_case_row("nan", '{\n "1": {\n  "d1": NaN\n }\n}\n', "line 3", "not a finite number"),
    run_case_row("infinity", '{\n "1": {"d1": -Infinity}\n}\n', "line 2",
                 "not a finite number"),
    run_case_row("text", '{\n "1": {"d1": "0.5"}\n}\n', "line 2", "a string"),
    run_case_row("document-twice", '{"1": {"d1": 0.5, "d2": 0.2, "d1": 0.1}}\n', "line 1",
                 "lists document 'd1' twice"),
    err("ranx-run-rank-column", ["eval", "--ties", "rank-column", "qrels.txt", "r.json"],
        "rank column", files={"r.json": RUN_JSON}),
    # ---- convert
    err("convert-to-unknown", ["convert", "qrels.txt", "--kind", "qrels", "--to", "xml"],
        opt("--to"), "unknown output format 'xml'"),
    err("convert-kind-unknown", ["convert", "qrels.txt", "--kind", "judgments"],
        opt("--kind"), "judgments"),
    err("convert-name-with-qrels", ["convert", "qrels.txt", "--kind", "qrels", "--name",
                                    "x"], opt("--name"), "--kind run"),
    err("convert-o-is-input", ["convert", "qrels.txt", "--kind", "qrels", "-o", "qrels.txt",
                               "--force"], "qrels.txt", "input"),
    err("convert-qrels-as-run", ["convert", "q.json"], "q.json", "line 3",
        files={"q.json": b'{\n "1": {\n  "d1": "x"\n }\n}\n'}),
]


def _same_judgments(out: str) -> None:
    """TREC qrels lines holding the collection's judgments."""
    assert sorted(out.splitlines()) == sorted(qrels_lines()), out


@pytest.mark.parametrize("case", CASES)
def test_ranx_json(case, ws, run_cli):
    run_case(case, ws, run_cli)
