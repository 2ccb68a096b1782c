"""``irscale text nuggets --assignments``: faulty nugget assignment records (JSON lines,
the TREC RAG track's) and options. Table-driven: every row is one call checked against
the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import json

import pytest

import irscale
from irscale.errors import (
    DuplicateError,
    InputError,
    InputFormatError,
    MeasureError,
    ParameterError,
)
from irscale.text import evaluate_assignments, evaluate_nuggets

from .conftest import err, gz, ok, output_contains, run_case, same_output_as, text


def nugget(importance: str = "vital", assignment: str = "support", text: str = "x") -> dict:
    return {"text": text, "importance": importance, "assignment": assignment}


def line(qid: str = "q1", *nuggets: dict, **fields: object) -> str:
    return json.dumps({"qid": qid, **fields, "nuggets": list(nuggets) or [nugget()]})


RECORDS = [line("q1", nugget(), nugget("okay", "partial_support")),
           line("q2", nugget("vital", "not_support"), nugget("okay", "support"))]
FILES = {"sysA.jsonl": text(RECORDS),
         "sysB.jsonl": text([line("q1", nugget("vital", "partial_support"), run_id="sysB"),
                             line("q2", nugget("okay", "not_support"), nugget(),
                                  run_id="sysB")])}


def cli(*extra: str, files: tuple[str, ...] = ("sysA.jsonl",)) -> list[str]:
    return ["text", "nuggets", "--assignments", *files, *extra]


def bad(number: int, new: str) -> dict:
    """The files with line ``number`` of sysA.jsonl replaced by ``new`` (as bad.jsonl)."""
    lines = list(RECORDS)
    lines[number - 1] = new
    return {**FILES, "bad.jsonl": text(lines)}


BAD = ("bad.jsonl",)

CASES = [
    # ---- what works: the run named by the record or by the file's stem
    ok("assignments-default", cli("-q"), output_contains("A", "V_strict", "W_strict", "all"),
       files=FILES),
    ok("assignments-two-runs", cli("-m", "W", files=("sysA.jsonl", "sysB.jsonl")),
       output_contains("sysA", "sysB"), files=FILES),
    ok("assignments-stem-names-run", cli("-m", "A", "-q"),
       same_output_as(*cli("-m", "A", "-q", files=("named.jsonl",))),
       files={**FILES, "named.jsonl": text([line("q1", nugget(), nugget(
           "okay", "partial_support"), run_id="sysA"), line("q2", nugget(
               "vital", "not_support"), nugget("okay", "support"), run="sysA")])}),
    ok("assignments-topic-spellings", cli("-m", "W", "-q"),
       same_output_as(*cli("-m", "W", "-q", files=("t/sysA.jsonl",))),
       files={**FILES, "t/sysA.jsonl": text([
           json.dumps({"topic_id": "q1", "nuggets": [nugget(), nugget(
               "okay", "partial_support")]}),
           json.dumps({"topic": "q2", "nuggets": [nugget("vital", "not_support"),
                                                   nugget("okay", "support")]})])}),
    ok("assignments-gzip", cli("-m", "V", "-q"),
       same_output_as(*cli("-m", "V", "-q", files=("z/sysA.jsonl.gz",))),
       files={**FILES, "z/sysA.jsonl.gz": gz(text(RECORDS))}),
    # ---- records that break the format: file, line, text
    err("assignments-unknown-importance", cli(files=BAD), "bad.jsonl", "line 2",
        "importance 'high'", files=bad(2, line("q2", nugget("high")))),
    err("assignments-unknown-assignment", cli(files=BAD), "bad.jsonl", "line 1",
        "assignment 'supported'", files=bad(1, line("q1", nugget("vital", "supported")))),
    err("assignments-nugget-without-assignment", cli(files=BAD), "bad.jsonl", "line 2",
        "'assignment'", files=bad(2, json.dumps({"qid": "q2", "nuggets": [
            {"text": "x", "importance": "vital"}]}))),
    err("assignments-no-nuggets-key", cli(files=BAD), "bad.jsonl", "line 2", "no nuggets",
        files=bad(2, json.dumps({"qid": "q2"}))),
    err("assignments-nuggets-not-list", cli(files=BAD), "bad.jsonl", "line 2", "list",
        files=bad(2, json.dumps({"qid": "q2", "nuggets": {"text": "x"}}))),
    err("assignments-nuggets-empty", cli(files=BAD), "bad.jsonl", "line 2", "empty",
        files=bad(2, json.dumps({"qid": "q2", "nuggets": []}))),
    err("assignments-no-topic", cli(files=BAD), "bad.jsonl", "line 1", "no topic",
        files=bad(1, json.dumps({"nuggets": [nugget()]}))),
    err("assignments-topic-with-blank", cli(files=BAD), "bad.jsonl", "line 1", "blank",
        files=bad(1, line("q 1"))),
    err("assignments-topic-not-text", cli(files=BAD), "bad.jsonl", "line 1", "qid",
        files=bad(1, json.dumps({"qid": [1], "nuggets": [nugget()]}))),
    err("assignments-record-not-object", cli(files=BAD), "bad.jsonl", "line 2",
        "JSON object", files=bad(2, "[1, 2]")),
    err("assignments-not-json", cli(files=BAD), "bad.jsonl", "line 2", "not JSON",
        files=bad(2, '{"qid": "q2", "nuggets": [')),
    err("assignments-too-deep", cli(files=BAD), "bad.jsonl", "line 2", "nested deeper",
        files=bad(2, '{"qid": "q2", "x": ' + "[" * 200 + "]" * 200 + "}")),
    err("assignments-huge-integer", cli(files=BAD), "bad.jsonl", "line 1", "64 bits",
        files=bad(1, '{"qid": ' + "9" * 30 + ', "nuggets": []}')),
    err("assignments-topic-run-twice", cli(files=BAD), "bad.jsonl", "line 2", "twice",
        "first on line 1", files=bad(2, line("q1"))),
    err("assignments-topic-run-twice-and-malformed", cli(files=BAD), "bad.jsonl", "line 2",
        "nuggets is empty", files=bad(2, json.dumps({"qid": "q1", "nuggets": []}))),
    err("assignments-topic-run-twice-across-files",
        cli(files=("sysA.jsonl", "copy/sysA.jsonl")), "copy/sysA.jsonl", "line 1", "twice",
        files={**FILES, "copy/sysA.jsonl": text(RECORDS)}),
    err("assignments-empty-file", cli(files=("empty.jsonl",)), "empty.jsonl", "empty",
        files={**FILES, "empty.jsonl": b"\n\n"}),
    err("assignments-no-run-on-stdin", cli(files=("-",)), "no run", stdin=text(RECORDS),
        files=FILES),
    # ---- measures: V without a vital nugget, measures of matches
    err("assignments-vital-undefined", cli("-m", "V", files=BAD), "V is undefined",
        "q2 (bad)", "nuggetizer", files=bad(2, line("q2", nugget("okay")))),
    ok("assignments-vital-undefined-others-computed", cli("-m", "A", "-m", "W", files=BAD),
       output_contains("A", "W"), files=bad(2, line("q2", nugget("okay")))),
    err("assignments-measure-of-matches", cli("-m", "W-Rec"), "W-Rec", "matches",
        files=FILES),
    err("assignments-unknown-measure", cli("-m", "B"), "B", files=FILES),
    err("assignments-measure-in-eval", ["eval", "qrels.txt", "a.run", "-m", "V"],
        "irscale text nuggets"),
    # ---- the inputs of matches do not apply
    err("assignments-with-lengths", cli("--lengths", "len.txt"), "--lengths",
        "--assignments", files={**FILES, "len.txt": b"q1 sysA 10\n"}),
    err("assignments-with-texts", cli("--texts", "out.tsv"), "--texts", "--assignments",
        files={**FILES, "out.tsv": b"q1\tsysA\tx\n"}),
    err("assignments-with-nuggets-file", ["text", "nuggets", "nug.txt", "--assignments",
                                          "sysA.jsonl"], "--assignments", "nuggets file",
        files={**FILES, "nug.txt": b"q1 n1 1 vital x\n"}),
    err("assignments-with-auto-match", cli("--auto-match"), "--auto-match", files=FILES),
    err("assignments-with-threshold", cli("--threshold", "0.3"), "--threshold",
        files=FILES),
    err("nuggets-neither-nuggets-nor-assignments", ["text", "nuggets", "--lengths",
                                                    "len.txt"], "--assignments",
        files={**FILES, "len.txt": b"q1 sysA 10\n"}),
]


# ----------------------------------------------------------------- --human-sample (PPI)
#: A model's assignments of two answers of run sysM, and a human sample of 4 of its nuggets.
MODEL = [line("q1", nugget("vital", "support", "a"), nugget("okay", "partial_support", "b"),
              nugget("vital", "not_support", "c"), run_id="sysM"),
         line("q2", nugget("vital", "not_support", "a"), nugget("okay", "support", "b"),
              nugget("okay", "support", "d"), run_id="sysM")]
HUMAN = [line("q1", nugget("vital", "partial_support", "a"), nugget("okay", "support", "b"),
              run_id="sysM"),
         line("q2", nugget("vital", "support", "a"), nugget("okay", "support", "d"),
              run_id="sysM")]
PPI_FILES = {**FILES, "model.jsonl": text(MODEL), "human.jsonl": text(HUMAN)}
#: A human sample of the example's records (``rag.jsonl``: sysA.jsonl's, run ``rag``).
RAG_HUMAN = text([line("q1", nugget("vital", "partial_support"), run_id="rag"),
                  line("q2", nugget("okay", "not_support"), run_id="rag")])


def sample(*extra: str, human: str = "h.jsonl", model: tuple[str, ...] = ("model.jsonl",)
           ) -> list[str]:
    return ["text", "nuggets", "--assignments", *model, "--human-sample", human, *extra]


def human(number: int, new: str) -> dict:
    """The files with line ``number`` of human.jsonl replaced by ``new`` (as h.jsonl)."""
    lines = list(HUMAN)
    lines[number - 1] = new
    return {**PPI_FILES, "h.jsonl": text(lines)}


def with_prob(records: list[str], prob: object = 0.5) -> bytes:
    """``records`` with every nugget's inclusion probability ``prob``."""
    out = []
    for record in records:
        data = json.loads(record)
        data["nuggets"] = [{**n, "prob": prob} for n in data["nuggets"]]
        out.append(json.dumps(data))
    return text(out)


CASES += [
    ok("sample-default", sample("-m", "A", human="human.jsonl"),
       output_contains("correction", "ppi_low", "sysM", "uniform design"), files=PPI_FILES),
    ok("sample-per-topic-csv", sample("-q", "--format", "csv", "--alpha", "0.1",
                                      human="human.jsonl"),
       output_contains("sysM,q1,", "sysM,all,", "W_strict"), files=PPI_FILES),
    ok("sample-inclusion", sample("--design", "inclusion", "-m", "W"),
       output_contains("inclusion design"), files={**PPI_FILES, "h.jsonl": with_prob(HUMAN)}),
    ok("sample-answers", sample("--design", "answers", "--tuning", "ppi"),
       output_contains("answers design"), files={**PPI_FILES, "h.jsonl": text(MODEL)}),
    # ---- the human sample must be answers and nuggets of the model's records
    err("sample-topic-model-lacks", sample(), "h.jsonl", "line 2", "q9",
        "do not hold", files=human(2, line("q9", nugget("vital", "support", "a"),
                                           run_id="sysM"))),
    err("sample-run-model-lacks", sample(), "h.jsonl", "line 1", "sysZ",
        files=human(1, line("q1", nugget("vital", "support", "a"), run_id="sysZ"))),
    err("sample-nugget-model-lacks", sample(), "h.jsonl", "line 2", "'zz'",
        "not a nugget of the model's record", "model.jsonl, line 2",
        files=human(2, line("q2", nugget("vital", "support", "zz"), run_id="sysM"))),
    err("sample-nugget-twice", sample(), "h.jsonl", "line 1", "more often",
        files=human(1, line("q1", nugget("okay", "support", "b"),
                            nugget("okay", "support", "b"), run_id="sysM"))),
    err("sample-importance-differs", sample(), "h.jsonl", "line 1", "okay here",
        "not importance", files=human(1, line("q1", nugget("okay", "support", "a"),
                                              run_id="sysM"))),
    err("sample-answer-twice", sample("human.jsonl"),
        "human.jsonl", "twice", files=human(1, line("q1", nugget("vital", "support", "c"),
                                                    run_id="sysM"))),
    # ---- a design the sample does not match
    err("sample-inclusion-without-prob", sample("--design", "inclusion"), "h.jsonl",
        "line 1", "inclusion probability", files={**PPI_FILES, "h.jsonl": text(HUMAN)}),
    err("sample-prob-under-uniform", sample(), "h.jsonl", "line 1", "would ignore",
        files={**PPI_FILES, "h.jsonl": with_prob(HUMAN)}),
    err("sample-prob-zero", sample("--design", "inclusion"), "h.jsonl", "line 1",
        "prob 0", files={**PPI_FILES, "h.jsonl": with_prob(HUMAN, 0)}),
    err("sample-prob-above-one", sample("--design", "inclusion"), "h.jsonl", "line 1",
        "prob 1.5", files={**PPI_FILES, "h.jsonl": with_prob(HUMAN, 1.5)}),
    err("sample-prob-not-number", sample("--design", "inclusion"), "h.jsonl", "line 1",
        "prob 'x'", files={**PPI_FILES, "h.jsonl": with_prob(HUMAN, "x")}),
    err("sample-answers-not-whole", sample("--design", "answers"), "h.jsonl", "line 1",
        "leaves 1", files={**PPI_FILES, "h.jsonl": text(HUMAN)}),
    err("sample-stratum-too-small", sample("--design", "stratified"),
        "1 nugget(s) of run 'sysM' the model labels not_support", "2 at least",
        files={**PPI_FILES, "h.jsonl": text(HUMAN)}),
    # ---- a sample too small for an interval
    err("sample-one-nugget", sample(), "1 nugget(s) of run 'sysM'", "2 at least",
        files={**PPI_FILES, "h.jsonl": text([line("q1", nugget("okay", "support", "b"),
                                                  run_id="sysM")])}),
    err("sample-run-without-labels", sample(model=("model.jsonl", "sysA.jsonl")),
        "0 nugget(s) of run 'sysA'", files={**PPI_FILES, "h.jsonl": text(HUMAN)}),
    err("sample-answers-one-answer", sample("--design", "answers"), "1 answer(s)",
        files={**PPI_FILES, "h.jsonl": text(MODEL[:1])}),
    # ---- the options of a human sample
    err("sample-without-assignments", ["text", "nuggets", "--human-sample", "human.jsonl"],
        "--human-sample", "--assignments", files=PPI_FILES),
    err("sample-design-without-sample", cli("--design", "stratified"), "--design",
        "--human-sample", files=PPI_FILES),
    err("sample-tuning-without-sample", cli("--tuning", "ppi"), "--tuning",
        "--human-sample", files=PPI_FILES),
    err("sample-unknown-design", sample("--design", "topics", human="human.jsonl"),
        "--design", "'answers', 'uniform'", files=PPI_FILES),
    err("sample-vital-undefined", sample("-m", "V", human="human.jsonl",
                                         model=("model.jsonl", "bad.jsonl")),
        "V is undefined", files={**PPI_FILES, **bad(2, line("q2", nugget("okay")))}),
]


@pytest.mark.parametrize("case", CASES)
def test_assignments(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- Python API
@pytest.mark.parametrize(("call", "error", "needle"), [
    (lambda: evaluate_nuggets(assignments=[json.loads(RECORDS[0])], lengths=b"q1 a 1\n"),
     ParameterError, "lengths= applies without assignments="),
    (lambda: evaluate_nuggets(b"q1 n1 1 vital x\n", assignments=[json.loads(RECORDS[0])]),
     ParameterError, "give no nuggets"),
    (lambda: evaluate_nuggets(b"q1 n1 1 vital x\n", b"q1 A n1 1\n", ["V"],
                              lengths=b"q1 A 1\n"),
     MeasureError, "assignment records"),
    (lambda: evaluate_assignments([{"qid": "q1", "nuggets": [nugget()]}]),
     InputFormatError, "no run"),
    (lambda: evaluate_assignments([json.loads(RECORDS[0]) | {"run": "r"}] * 2),
     DuplicateError, "<assignments>, line 2"),
    (lambda: evaluate_assignments(b'{"qid": "q1", "run": "r", "nuggets": 3}\n'),
     InputFormatError, "<bytes>, line 1"),
    (lambda: irscale.evaluate({"q": {"d": 1}}, {"r": {"q": {"d": 1.0}}}, ["V"]),
     ParameterError, "irscale.text.evaluate_assignments"),
    (lambda: evaluate_assignments([json.loads(r) for r in MODEL], design="answers"),
     ParameterError, "design= applies to a human sample"),
    (lambda: evaluate_assignments([json.loads(r) for r in MODEL],
                                  human_sample=[json.loads(r) for r in HUMAN], design="x"),
     ParameterError, "unknown human sample design 'x'"),
    (lambda: evaluate_assignments([json.loads(r) for r in MODEL],
                                  human_sample=[json.loads(r) for r in HUMAN], alpha=1.5),
     ParameterError, "alpha must lie in"),
    (lambda: evaluate_assignments([json.loads(r) for r in MODEL], human_sample=[
        json.loads(line("q1", nugget("vital", "support", "zz"), run_id="sysM"))]),
     InputError, "<assignments>, line 1: nugget 1 is not a nugget"),
], ids=["lengths-with-assignments", "nuggets-with-assignments", "vital-of-matches",
        "records-without-run", "records-twice", "bytes-nuggets-not-list",
        "evaluate-names-the-runner", "design-without-sample", "unknown-design",
        "alpha-out-of-range", "sample-nugget-model-lacks"])
def test_api_refuses(call, error, needle):
    """The API refuses what the command line refuses, by the same declarations."""
    with pytest.raises(error, match=needle.replace("(", r"\(")):
        call()
