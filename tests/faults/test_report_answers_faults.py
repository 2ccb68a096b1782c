"""``irscale report --assignments / --citations``: the section on the runs' generated
answers, its options and faulty answer files (a file that is not there, a malformed record:
file, line and text; answers of runs the report does not compare, or on other topics); and
their human samples (``--assignments-sample``/``--citations-sample`` with their designs:
when they apply, their values, faulty sample files, a sample of answers the files lack).
Table-driven: every row is one call checked against the contract of ``docs/errors.md``
(see ``conftest.py``); tests/test_report_answers.py checks the numbers."""

from __future__ import annotations

import json

import pytest

from .conftest import err, ok, output_contains, run_case, text
from .test_report_faults import FAST
from .test_text_assignments_faults import nugget
from .test_text_citations_faults import cite, sentence

RUNS = ("a", "b", "c")
TOPICS = ("1", "2", "3")


def assigned(run: str, topic: str, *nuggets: dict) -> str:
    """An assignment record of ``run``'s answer to ``topic``."""
    return json.dumps({"qid": topic, "run_id": run, "nuggets": list(nuggets) or [
        nugget(), nugget("okay", "partial_support" if run == "a" else "support")]})


def judged(run: str, topic: str, *sentences: dict) -> str:
    """A support judgment record of ``run``'s answer to ``topic``."""
    return json.dumps({"qid": topic, "run_id": run, "sentences": list(sentences) or [
        sentence(cite("d1", "supported" if run != "b" else "partially_supported")),
        sentence()]})


NUGGET_LINES = [assigned(run, topic) for run in RUNS for topic in TOPICS]
CITE_LINES = [judged(run, topic) for run in RUNS for topic in TOPICS]
#: One file of every run's answers (``run_id`` names the run), as the sweeps' workspace
#: holds them (tests/faults/examples.py).
FILES = {"rag-abc.jsonl": text(NUGGET_LINES), "cite-abc.jsonl": text(CITE_LINES)}


def bad(name: str, lines: list[str], number: int, new: str) -> dict:
    """:data:`FILES` with line ``number`` of ``lines`` replaced by ``new`` (as ``name``)."""
    out = list(lines)
    out[number - 1] = new
    return {**FILES, name: text(out)}


#: Human samples of :data:`FILES`' answers: the vital nugget of topics 1 and 2 of every run
#: (uniform design), the whole answers of topics 1 and 2 of every run (answers design).
HUMAN_NUGGETS = [json.dumps({"qid": topic, "run_id": run, "nuggets": [
    nugget("vital", "partial_support")]}) for run in RUNS for topic in TOPICS[:2]]
HUMAN_CITES = [judged(run, topic, sentence(cite("d1", "not_supported")), sentence())
               for run in RUNS for topic in TOPICS[:2]]
SAMPLES = {**FILES, "h-nug.jsonl": text(HUMAN_NUGGETS), "h-cite.jsonl": text(HUMAN_CITES)}


def bad_sample(name: str, lines: list[str], number: int, new: str) -> dict:
    """:data:`SAMPLES` with line ``number`` of ``lines`` replaced by ``new`` (as ``name``)."""
    out = list(lines)
    out[number - 1] = new
    return {**SAMPLES, name: text(out)}


NUGGETS = [*FAST, "-m", "map", "--assignments", "rag-abc.jsonl"]
CITES = [*FAST, "-m", "map", "--citations", "cite-abc.jsonl"]

CASES = [
    # ---- what works: the section, its measures, the comparison with the baseline
    ok("answers-assignments", NUGGETS, output_contains(
        "Answers: every run's mean", "| A |", "| W_strict |", "| V |"), files=FILES),
    ok("answers-citations", CITES, output_contains(
        "| citation_recall |", "| support_recall |", "| ais |"), files=FILES),
    ok("answers-both-baseline", [*NUGGETS, "--citations", "cite-abc.jsonl", "--baseline",
                                 "a"],
       output_contains("every run against a", "p adjusted", "| W | b |", "| ais | c |"),
       files=FILES),
    ok("answers-files-per-run", [*FAST, "-m", "map", "--assignments", "ans/a.jsonl",
                                 "ans/b.jsonl", "ans/c.jsonl", "--answer-measures", "W"],
       output_contains("| W | a |", "| W | c |"),
       files={f"ans/{run}.jsonl": text([json.dumps({"qid": t, "nuggets": [nugget()]})
                                        for t in TOPICS]) for run in RUNS}),
    ok("answers-max-citations", [*CITES, "--max-citations", "1", "--answer-measures",
                                 "citation_precision"],
       output_contains("| citation_precision | a |"), files=FILES),
    # ---- the files: missing, malformed (file, line, text)
    err("answers-assignments-missing", [*FAST, "--assignments", "nope.jsonl"],
        "nope.jsonl", "no such file"),
    err("answers-citations-missing", [*FAST, "--citations", "nope.jsonl"], "nope.jsonl",
        "no such file"),
    err("answers-assignment-malformed", [*FAST, "--assignments", "bad.jsonl"], "bad.jsonl",
        "line 2", "assignment 'supported'", files=bad("bad.jsonl", NUGGET_LINES, 2, assigned(
            "a", "2", nugget("vital", "supported")))),
    err("answers-assignment-not-json", [*FAST, "--assignments", "bad.jsonl"], "bad.jsonl",
        "line 4", "not JSON", '{"qid": "1", "nuggets": [',
        files=bad("bad.jsonl", NUGGET_LINES, 4, '{"qid": "1", "nuggets": [')),
    err("answers-citation-malformed", [*FAST, "--citations", "bad.jsonl"], "bad.jsonl",
        "line 3", "support 'maybe'", files=bad("bad.jsonl", CITE_LINES, 3, judged(
            "a", "3", sentence(cite("d1", "maybe"))))),
    err("answers-citation-no-sentences", [*FAST, "--citations", "bad.jsonl"], "bad.jsonl",
        "line 5", "sentences", files=bad("bad.jsonl", CITE_LINES, 5, json.dumps(
            {"qid": "2", "run_id": "b"}))),
    # ---- the answers against the report's runs and topics
    err("answers-run-not-in-report", [*FAST, "--assignments", "rag-abc.jsonl", "x.jsonl"],
        "--assignments", "run 'x'", "not a run of the report",
        files={**FILES, "x.jsonl": text([assigned("x", t) for t in TOPICS])}),
    err("answers-run-without-answers", [*FAST, "--citations", "ab.jsonl"], "--citations",
        "no answers of run 'c'", files={"ab.jsonl": text(CITE_LINES[:6])}),
    err("answers-topic-missing", [*FAST, "--assignments", "gap.jsonl"], "--assignments",
        "run 'b' has no answer of topic '2'",
        files={"gap.jsonl": text([line for line in NUGGET_LINES
                                  if line != assigned("b", "2")])}),
    err("answers-one-topic", [*FAST, "--citations", "one.jsonl"], "--citations",
        "cover 1 topic ('1')", "2 at least",
        files={"one.jsonl": text([judged(run, "1") for run in RUNS])}),
    err("answers-vital-undefined", [*FAST, "--assignments", "okay.jsonl"], "V is undefined",
        "1 (a)", files=bad("okay.jsonl", NUGGET_LINES, 1, assigned("a", "1",
                                                                    nugget("okay")))),
    # ---- the options: when they apply, their values
    err("answers-measures-alone", [*FAST, "--answer-measures", "W"], "--answer-measures",
        "--assignments or --citations"),
    err("answers-measure-of-other-files", [*CITES, "--answer-measures", "W"],
        "answer measure 'W'", "--assignments", files=FILES),
    err("answers-measures-none-of-the-files", [*NUGGETS, "--citations", "cite-abc.jsonl",
                                               "--answer-measures", "W"],
        "--citations given", "none of its measures", files=FILES),
    err("answers-measure-unknown", [*NUGGETS, "--answer-measures", "W,B"],
        "unknown answer measure 'B'", files=FILES),
    err("answers-max-citations-alone", [*NUGGETS, "--max-citations", "3"],
        "--max-citations", "--citations", files=FILES),
    err("answers-max-citations-zero", [*CITES, "--max-citations", "0"], "--max-citations",
        "integer ≥ 1", files=FILES),
    err("answers-o-is-the-assignments", [*NUGGETS, "-o", "rag-abc.jsonl", "--force"],
        "rag-abc.jsonl", "input", files=FILES),
    # ---- a human sample of either: the corrected scores beside the model's
    ok("answers-assignments-sample", [*NUGGETS, "--assignments-sample", "h-nug.jsonl"],
       output_contains("Answers (the model's labels): every run's mean",
                       "Answers corrected by the human sample", "| uniform | 2 | 6 |"),
       files=SAMPLES),
    ok("answers-citations-sample", [*CITES, "--citations-sample", "h-cite.jsonl",
                                    "--baseline", "a"],
       output_contains("(the model's labels): every run against a",
                       "no paired test against the baseline", "| answers | 2 | 3 |"),
       files=SAMPLES),
    ok("answers-assignments-sample-answers-design", [
        *NUGGETS, "--assignments-sample", "whole.jsonl", "--assignments-design", "answers"],
       output_contains("| answers | 2 | 3 |"),
       files={**SAMPLES, "whole.jsonl": text([assigned(run, topic) for run in RUNS
                                              for topic in TOPICS[:2]])}),
    # ---- the sample files: missing, malformed (file, line, text)
    err("answers-assignments-sample-missing", [*NUGGETS, "--assignments-sample",
                                               "nope.jsonl"], "nope.jsonl", "no such file",
        files=SAMPLES),
    err("answers-citations-sample-missing", [*CITES, "--citations-sample", "nope.jsonl"],
        "nope.jsonl", "no such file", files=SAMPLES),
    err("answers-assignments-sample-malformed", [*NUGGETS, "--assignments-sample",
                                                 "h-bad.jsonl"],
        "h-bad.jsonl", "line 2", "assignment 'supported'",
        files=bad_sample("h-bad.jsonl", HUMAN_NUGGETS, 2, assigned(
            "a", "2", nugget("vital", "supported")))),
    err("answers-citations-sample-malformed", [*CITES, "--citations-sample", "h-bad.jsonl"],
        "h-bad.jsonl", "line 3", "support 'maybe'", files=bad_sample(
            "h-bad.jsonl", HUMAN_CITES, 3, judged("b", "1", sentence(cite("d1", "maybe"))))),
    # ---- a sample of answers the files lack, or too small, or not as the design says
    err("answers-assignments-sample-other-answers", [*NUGGETS, "--assignments-sample",
                                                     "h-bad.jsonl"],
        "h-bad.jsonl", "line 4", "do not hold", "topic '9'", files=bad_sample(
            "h-bad.jsonl", HUMAN_NUGGETS, 4, assigned("b", "9", nugget()))),
    err("answers-citations-sample-other-answers", [*CITES, "--citations-sample",
                                                   "x.jsonl"],
        "x.jsonl", "line 1", "run 'x'",
        files={**SAMPLES, "x.jsonl": text([judged("x", topic) for topic in TOPICS])}),
    err("answers-assignments-sample-too-small", [*NUGGETS, "--assignments-sample",
                                                 "small.jsonl"],
        "1 nugget(s) of run 'c'", files={**SAMPLES, "small.jsonl": text(HUMAN_NUGGETS[:5])}),
    err("answers-assignments-sample-not-the-design", [
        *NUGGETS, "--assignments-sample", "h-nug.jsonl", "--assignments-design", "answers"],
        "h-nug.jsonl", "line 1", "answers design relabels every nugget", files=SAMPLES),
    # ---- the options: when they apply, their values
    err("answers-assignments-sample-alone", [*FAST, "--assignments-sample", "h-nug.jsonl"],
        "--assignments-sample", "--assignments", files=SAMPLES),
    err("answers-citations-sample-without-citations", [
        *NUGGETS, "--citations-sample", "h-cite.jsonl"], "--citations-sample",
        "(--citations)", files=SAMPLES),
    err("answers-assignments-design-alone", [*NUGGETS, "--assignments-design", "answers"],
        "--assignments-design", "--assignments-sample", files=SAMPLES),
    err("answers-citations-design-alone", [*CITES, "--citations-design", "uniform"],
        "--citations-design", "--citations-sample", files=SAMPLES),
    err("answers-assignments-design-unknown", [
        *NUGGETS, "--assignments-sample", "h-nug.jsonl", "--assignments-design", "topics"],
        "--assignments-design", "invalid choice: 'topics'", files=SAMPLES),
    err("answers-citations-design-unknown", [
        *CITES, "--citations-sample", "h-cite.jsonl", "--citations-design", "nuggets"],
        "--citations-design", "invalid choice: 'nuggets'", files=SAMPLES),
    err("answers-citations-design-inclusion", [
        *CITES, "--citations-sample", "h-cite.jsonl", "--citations-design", "inclusion"],
        "--citations-design (citations_design) 'inclusion'", "no inclusion probability",
        files=SAMPLES),
    err("answers-o-is-the-sample", [*NUGGETS, "--assignments-sample", "h-nug.jsonl", "-o",
                                    "h-nug.jsonl", "--force"], "h-nug.jsonl", "input",
        files=SAMPLES),
]


@pytest.mark.parametrize("case", CASES)
def test_report_answers(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.parametrize(("keywords", "needle"), [
    ({"assignments_sample": ["h.jsonl"]}, "assignments_sample= applies to the nugget "
     "assignments (assignments=)"),
    ({"citations": ["c.jsonl"], "citations_design": "uniform"}, "citations_design= applies "
     "to a human sample of the support judgments (citations_sample=)"),
    ({"assignments": ["a.jsonl"], "assignments_sample": ["h.jsonl"],
      "assignments_design": "topics"}, "unknown human sample design 'topics'"),
], ids=["sample-without-files", "design-without-sample", "unknown-design"])
def test_the_function_refuses(keywords, needle):
    """``build_report`` refuses the same options on entry, before any file is read."""
    from irscale.errors import ParameterError
    from irscale.report import build_report

    with pytest.raises(ParameterError) as raised:
        build_report("qrels.txt", ["a.run", "b.run"], **keywords)
    assert needle in str(raised.value)
