"""``irscale labels audit``: faulty human, judge and run files (file/line/text named), a
judge with no topic or pair in common with the humans, one topic in common, one run, a
top-k beyond the runs, options outside their domains, outputs that exist or are inputs;
and the runs that succeed: partial topics stated, every format. With ``--assignments``:
faulty human and model assignment files, a qrels given for either, models that share no
run, topic or nugget with the humans, a nugget whose importance differs, the options of
the qrels audit refused. With ``--citations``: the same of support judgment files, and
records of the same (topic, run) that are not the same answer (a sentence, a cited
passage of one file only)."""

from __future__ import annotations

import json

import pytest

from .catalog import trec_file_faults
from .conftest import (
    all_checks,
    err,
    ok,
    opt,
    output_contains,
    qrels_lines,
    text,
)

RUNS = ["a.run", "b.run", "c.run"]
#: The human qrels judge topics 1-3 (``h.txt``: qrels.txt with d1 of topic 1 made 0).
HUMAN = [line for line in ["1 0 d1 0", *qrels_lines()[1:]] if line.split()[0] in "123"]
FILES = {"h.txt": text(HUMAN)}
AUDIT = ["labels", "audit", "h.txt", *RUNS, "--judge", "qrels.txt", "-B", "20", "--top-k",
         "2"]
REPORT = ["report", "qrels.txt", "a.run", "b.run", "c.run", "--no-robustness", "--format",
          "markdown"]


def audit_with(human: str = "h.txt", judge: str = "qrels.txt") -> list[str]:
    return ["labels", "audit", human, *RUNS, "--judge", judge, "-B", "20", "--top-k", "2"]


def good(id, argv, check=None, *, files=None, allowed_new=()):
    return ok(id, argv, check, files={**FILES, **(files or {})}, allowed_new=allowed_new)


def bad(id, argv, *needles, files=None):
    return err(id, argv, *needles, files={**FILES, **(files or {})})


def _with_files(cases: list) -> list:
    """The catalogue's cases with :data:`FILES` beside theirs."""
    return [pytest.param(case.values[0].__class__(**{
        **case.values[0].__dict__, "files": (*case.values[0].files, *FILES.items())}),
        id=case.id) for case in cases]


# ------------------------------------------------------------ nugget assignment files
#: The grades (0 not_support, 1 partial_support, 2 support) of 3 topics × 3 runs × 3
#: nuggets under the humans and under the model.
HUMAN_GRADES = [[[0, 1, 2], [1, 1, 2], [2, 2, 2]], [[0, 0, 1], [1, 2, 2], [2, 1, 2]],
                [[0, 0, 0], [0, 1, 2], [1, 2, 2]]]
MODEL_GRADES = [[[0, 2, 2], [1, 1, 2], [2, 2, 1]], [[0, 0, 1], [0, 2, 2], [2, 2, 2]],
                [[1, 0, 0], [0, 1, 2], [1, 2, 2]]]
ASSIGNMENT_NAMES = ("not_support", "partial_support", "support")


def assignment_lines(grades: list, *, keep: int = 3, run: str = "r", runs: int = 3,
                     topic: str = "", topics: int = 3, text: str = "n",
                     vital: bool = True) -> list[str]:
    """JSON lines of the records of ``grades`` (topics × runs × nuggets): the first
    ``keep`` nuggets of each, of the first ``runs`` runs and ``topics`` topics, the first
    nugget vital where ``vital``."""
    return [json.dumps({"qid": f"{topic}{t + 1}", "run_id": f"{run}{r}", "nuggets": [
        {"text": f"{text}{k}", "importance": "vital" if k == 0 and vital else "okay",
         "assignment": ASSIGNMENT_NAMES[g]} for k, g in enumerate(row[:keep])]})
        for t, by_run in enumerate(grades[:topics]) for r, row in enumerate(by_run[:runs])]


def assignment_text(grades: list, **options) -> bytes:
    return text(assignment_lines(grades, **options))


FILES.update({"h.jsonl": assignment_text(HUMAN_GRADES), "m.jsonl": assignment_text(
    MODEL_GRADES)})
ASSIGN = ["labels", "audit", "--assignments", "h.jsonl", "--judge", "m.jsonl", "-B", "20",
          "--top-k", "2"]


def assign_with(human: str = "h.jsonl", judge: str = "m.jsonl") -> list[str]:
    return ["labels", "audit", "--assignments", human, "--judge", judge, "-B", "20",
            "--top-k", "2"]


# ------------------------------------------------------------ citation support files
SUPPORT_NAMES = ("not_supported", "partially_supported", "supported")


def citation_lines(grades: list, *, run: str = "r", runs: int = 3, topic: str = "",
                   topics: int = 3, doc: str = "d", sentences: int = 3,
                   sentence: bool = True, cite: bool = True) -> list[str]:
    """JSON lines of the support judgments of ``grades`` (topics × runs × sentences):
    every sentence citing one passage ``{doc}{k}``, its label given on the sentence
    (``sentence``) and on its citation (``cite``); the first ``sentences`` sentences of the
    first ``runs`` runs and ``topics`` topics."""
    return [json.dumps({"qid": f"{topic}{t + 1}", "run_id": f"{run}{r}", "sentences": [
        {**({"support": SUPPORT_NAMES[g]} if sentence else {}), "citations": [
            {"docid": f"{doc}{k}", **({"support": SUPPORT_NAMES[g]} if cite else {})}]}
        for k, g in enumerate(row[:sentences])]})
        for t, by_run in enumerate(grades[:topics]) for r, row in enumerate(by_run[:runs])]


def citation_text(grades: list, **options) -> bytes:
    return text(citation_lines(grades, **options))


FILES.update({"hc.jsonl": citation_text(HUMAN_GRADES), "mc.jsonl": citation_text(
    MODEL_GRADES)})


def cite_with(human: str = "hc.jsonl", judge: str = "mc.jsonl") -> list[str]:
    return ["labels", "audit", "--citations", human, "--judge", judge, "-B", "20",
            "--top-k", "2"]


CITE = cite_with()


def _json_states(judge: str, topics: int, counts: dict[str, int]):
    """A check: the JSON tables of ``judge`` compare ``topics`` topics and count, in its
    coverage table, each row whose text starts with a key of ``counts``."""
    def check(result, ws, run) -> None:
        found = json.loads(result.out)
        assert found["summary"][0]["topics"] == topics, result.out[:400]
        coverage = {row["what"]: row["count"] for row in found["judges"][judge]["coverage"]}
        for start, count in counts.items():
            rows = [v for what, v in coverage.items() if what.startswith(start)]
            assert rows == [count], (start, coverage)

    return check


def _coverage_states(*needles: str):
    return output_contains("topics judged by the humans only", *needles)


#: A judge of other topics, of other documents, of topic 1 only, of topics 1 and 2.
OTHER_TOPICS = text([f"x{line}" for line in qrels_lines()])
OTHER_DOCS = text([line.replace(" d", " z") for line in qrels_lines()])
ONE_TOPIC = text([line for line in qrels_lines() if line.startswith("1 ")])
TWO_TOPICS = text([line for line in qrels_lines() if line.split()[0] in ("1", "2")])
#: Every human grade negative (trec_eval's unjudged mark).
UNJUDGED = text([" ".join([*line.split()[:3], "-1"]) for line in HUMAN])

CASES = [
    good("audit", AUDIT, output_contains("kappa_quadratic", "alpha_ordinal", "tau_ap",
                                         "unjudged_human", "pairs judged by the judge only")),
    good("audit-csv", [*AUDIT, "--format", "csv"], output_contains("judge,topics,kappa")),
    good("audit-json", [*AUDIT, "--format", "json"], output_contains('"decisions"')),
    good("audit-markdown", [*AUDIT, "--format", "markdown"]),
    good("audit-two-judges", [*audit_with(), "--judge", "j2.txt", "--format", "csv"],
         output_contains("qrels,3"), files={"j2.txt": TWO_TOPICS}),
    good("audit-options", [*AUDIT, "-m", "P@5", "--test", "wilcoxon", "--correction",
                           "bonferroni", "--alpha", "0.1", "--seed", "3", "--rbo-p", "0.5",
                           "-l", "2"]),
    # repeated samples of one judge: their consistency and the votes over them
    good("audit-samples", [*AUDIT, "--judge", "j.txt", "--samples"],
         output_contains("Consistency of the repeated samples", "fleiss_kappa",
                         "vote:majority", "vote:dawid-skene"),
         files={"j.txt": text(qrels_lines()[1:])}),
    bad("audit-samples-no-pair-in-common", [*AUDIT, "--judge", "j.txt", "--samples"],
        "judge no (topic, document) pair in common", files={"j.txt": OTHER_DOCS}),
    # a judge of two of the three human topics: the topic left is stated, not dropped
    good("audit-judge-of-fewer-topics", audit_with(judge="j.txt"),
         all_checks(_coverage_states(), output_contains("      2\n")),
         files={"j.txt": TWO_TOPICS}),
    # the condensed list, the measure's own parameter
    good("audit-condensed", [*AUDIT, "-m", "nDCG(condensed=1)"]),
    good("audit-to-file", [*AUDIT, "-o", "out.txt"], allowed_new=("out.txt",)),
    bad("audit-judge-no-topic-in-common", audit_with(judge="j.txt"), "j.txt",
        "judges no topic of the human qrels", files={"j.txt": OTHER_TOPICS}),
    bad("audit-judge-no-pair-in-common", audit_with(judge="j.txt"), "j.txt",
        "no (topic, document) pair in common", files={"j.txt": OTHER_DOCS}),
    bad("audit-one-topic-in-common", audit_with(judge="j.txt"), "j.txt", "one topic",
        files={"j.txt": ONE_TOPIC}),
    bad("audit-human-all-unjudged", audit_with(human="u.txt"), "u.txt", "negative",
        files={"u.txt": UNJUDGED}),
    bad("audit-no-judge", ["labels", "audit", "h.txt", *RUNS], opt("--judge")),
    bad("audit-samples-of-one", [*AUDIT, "--samples"], "--samples", "two --judge samples"),
    bad("audit-one-run", ["labels", "audit", "h.txt", "a.run", "--judge", "qrels.txt"],
        "two run files"),
    bad("audit-no-runs", ["labels", "audit", "h.txt", "--judge", "qrels.txt"],
        "two run files"),
    bad("audit-top-k-beyond-runs", [*AUDIT[:-1], "4"], opt("--top-k"), "number of runs"),
    bad("audit-top-k-0", [*AUDIT[:-1], "0"], opt("--top-k")),
    bad("audit-judge-is-output", [*AUDIT, "-o", "qrels.txt", "--force"], "qrels.txt"),
    bad("audit-boot-1", [*AUDIT, "-B", "1"], opt("-B", "--boot")),
    bad("audit-rbo-p-1", [*AUDIT, "--rbo-p", "1"], opt("--rbo-p")),
    bad("audit-alpha-0", [*AUDIT, "--alpha", "0"], opt("--alpha")),
    bad("audit-test-unknown", [*AUDIT, "--test", "nosuch"], "nosuch"),
    bad("audit-correction-unknown", [*AUDIT, "--correction", "nosuch"], "nosuch"),
    bad("audit-measure-unknown", [*AUDIT, "-m", "nosuch"], "nosuch"),
    bad("audit-seed-negative", [*AUDIT, "--seed", "-1"], opt("--seed")),
    bad("audit-digits-csv", [*AUDIT, "--format", "csv", "--digits", "2"], opt("--digits")),
    bad("audit-output-exists", [*AUDIT, "-o", "qrels.txt"], "qrels.txt"),
    bad("audit-output-is-input", [*AUDIT, "-o", "h.txt", "--force"], "h.txt"),
    bad("audit-run-twice", ["labels", "audit", "h.txt", "a.run", "a.run", "--judge",
                            "qrels.txt"], "a.run"),
    # ================================================================ irscale report --judge
    good("report-judge", [*REPORT, "--judge", "h.txt", "--judge", "qrels.txt"],
         output_contains("h: agreement of the labels both judge",
                         "qrels: bias of the judge per run")),
    good("report-judge-seed", [*REPORT, "--judge", "h.txt", "--seed", "4"]),
    bad("report-judge-no-topic-in-common", [*REPORT, "--judge", "j.txt"], "j.txt",
        "judges no topic of the human qrels", files={"j.txt": OTHER_TOPICS}),
    bad("report-judge-missing", [*REPORT, "--judge", "missing.txt"], "missing.txt"),
    bad("report-judge-is-output", [*REPORT, "--judge", "h.txt", "-o", "h.txt", "--force"],
        "h.txt"),
    # ====================================================== labels audit --assignments
    good("assignments-audit", ASSIGN, output_contains(
        "kappa_quadratic", "alpha_ordinal", "tau_ap", "confusion of the assignments",
        "items labelled by the judge only", "items_both")),
    good("assignments-audit-csv", [*ASSIGN, "--format", "csv"],
         output_contains("judge,topics,kappa", "judge_only_items", "m,3,")),
    good("assignments-audit-json", [*ASSIGN, "--format", "json"],
         output_contains('"decisions"', '"coverage"')),
    good("assignments-audit-options", [*ASSIGN, "-m", "A_strict", "--test", "sign",
                                       "--correction", "bonferroni", "--seed", "2"]),
    # a human sample of the nuggets: the items the model only labels are counted
    good("assignments-audit-human-sample", [*assign_with(human="s.jsonl"), "--format",
                                            "csv"], output_contains(",9,0\n"),
         files={"s.jsonl": assignment_text(HUMAN_GRADES, keep=2)}),
    good("assignments-audit-two-models", [*ASSIGN, "--judge", "m2.jsonl", "--format", "csv"],
         output_contains("m2,3,"), files={"m2.jsonl": assignment_text(HUMAN_GRADES)}),
    bad("assignments-audit-qrels-judge", assign_with(judge="qrels.txt"), "qrels.txt",
        "line 1"),
    bad("assignments-audit-qrels-human", assign_with(human="h.txt"), "h.txt", "line 1"),
    bad("assignments-audit-bad-model-line", assign_with(judge="x.jsonl"), "x.jsonl",
        "line 2", "assignment 'supported'", files={"x.jsonl": text([
            *assignment_lines(MODEL_GRADES)[:1],
            assignment_lines(MODEL_GRADES)[1].replace('"support"', '"supported"'),
            *assignment_lines(MODEL_GRADES)[2:]])}),
    bad("assignments-audit-model-missing", assign_with(judge="nosuch.jsonl"),
        "nosuch.jsonl"),
    bad("assignments-audit-no-run-in-common", assign_with(judge="x.jsonl"), "x.jsonl",
        "share 0 runs", files={"x.jsonl": assignment_text(MODEL_GRADES, run="z")}),
    bad("assignments-audit-one-run-in-common", assign_with(judge="x.jsonl"), "x.jsonl",
        "share 1 run", files={"x.jsonl": assignment_text(MODEL_GRADES, runs=1)}),
    bad("assignments-audit-no-topic-in-common", assign_with(judge="x.jsonl"), "x.jsonl",
        "on 0 topics", files={"x.jsonl": assignment_text(MODEL_GRADES, topic="x")}),
    bad("assignments-audit-one-topic-in-common", assign_with(judge="x.jsonl"), "x.jsonl",
        "on 1 topic:", files={"x.jsonl": assignment_text(MODEL_GRADES, topics=1)}),
    bad("assignments-audit-no-nugget-in-common", assign_with(judge="x.jsonl"), "x.jsonl",
        "no nugget in common", files={"x.jsonl": assignment_text(MODEL_GRADES, text="y")}),
    bad("assignments-audit-importance-differs", assign_with(judge="x.jsonl"), "x.jsonl",
        "line 1", "is okay here and vital", files={"x.jsonl": assignment_text(
            MODEL_GRADES, vital=False)}),
    bad("assignments-audit-with-runs", [*ASSIGN[:4], "a.run", *ASSIGN[4:]],
        "human assignment file only"),
    bad("assignments-audit-samples", [*ASSIGN, "--judge", "h.jsonl", "--samples"],
        "--samples applies only without --assignments"),
    bad("assignments-audit-relevance-level", [*ASSIGN, "-l", "2"],
        "applies only without --assignments"),
    bad("assignments-audit-qrels-measure", [*ASSIGN, "-m", "ndcg"], "nugget measure",
        "ndcg"),
    bad("assignments-audit-top-k-beyond-runs", [*ASSIGN[:-1], "4"], opt("--top-k"),
        "runs of the human assignments"),
    # ======================================================== labels audit --citations
    good("citations-audit", CITE, output_contains(
        "kappa_quadratic", "alpha_ordinal", "tau_ap", "confusion of the support labels",
        "items labelled by the judge only", "items_both", "human citations")),
    good("citations-audit-csv", [*CITE, "--format", "csv"],
         output_contains("judge,topics,kappa", "judge_only_items", "mc,3,")),
    good("citations-audit-json", [*CITE, "--format", "json"],
         output_contains('"decisions"', '"coverage"')),
    good("citations-audit-options", [*CITE, "-m", "citation_precision", "--max-citations",
                                     "1", "--test", "sign", "--correction", "bonferroni",
                                     "--seed", "2", "--rbo-p", "0.5"]),
    # a human sample of the labels (the sentences' only): the model's others are counted
    good("citations-audit-human-sample", [*cite_with(human="s.jsonl"), "--format", "csv"],
         output_contains(",27,0\n"), files={"s.jsonl": citation_text(HUMAN_GRADES,
                                                                     cite=False)}),
    # a record of the humans only: stated in the coverage, its topic left out
    good("citations-audit-record-of-humans-only", [*cite_with(judge="x.jsonl"), "--format",
                                                   "json"],
         _json_states("x", 2, {"records (topic, run) of the humans only": 1,
                               "topics of the humans left out": 1,
                               "items labelled by both on topics": 12}),
         files={"x.jsonl": text(citation_lines(MODEL_GRADES)[1:])}),
    good("citations-audit-two-models", [*CITE, "--judge", "m2.jsonl", "--format", "csv"],
         output_contains("m2,3,"), files={"m2.jsonl": citation_text(HUMAN_GRADES)}),
    bad("citations-audit-qrels-judge", cite_with(judge="qrels.txt"), "qrels.txt", "line 1"),
    bad("citations-audit-qrels-human", cite_with(human="h.txt"), "h.txt", "line 1"),
    bad("citations-audit-assignments-judge", cite_with(judge="m.jsonl"), "m.jsonl",
        "line 1"),
    bad("citations-audit-bad-model-line", cite_with(judge="x.jsonl"), "x.jsonl", "line 2",
        "'maybe' is not a support label", files={"x.jsonl": text([
            *citation_lines(MODEL_GRADES)[:1],
            citation_lines(MODEL_GRADES)[1].replace('"supported"', '"maybe"'),
            *citation_lines(MODEL_GRADES)[2:]])}),
    bad("citations-audit-bad-human-line", cite_with(human="x.jsonl"), "x.jsonl", "line 3",
        '{"qid": "1", "run_id"', files={"x.jsonl": text([
            *citation_lines(HUMAN_GRADES)[:2], '{"qid": "1", "run_id"',
            *citation_lines(HUMAN_GRADES)[3:]])}),
    bad("citations-audit-model-missing", cite_with(judge="nosuch.jsonl"), "nosuch.jsonl"),
    bad("citations-audit-human-missing", cite_with(human="nosuch.jsonl"), "nosuch.jsonl"),
    bad("citations-audit-no-run-in-common", cite_with(judge="x.jsonl"), "x.jsonl",
        "share 0 runs", files={"x.jsonl": citation_text(MODEL_GRADES, run="z")}),
    bad("citations-audit-one-run-in-common", cite_with(judge="x.jsonl"), "x.jsonl",
        "share 1 run", files={"x.jsonl": citation_text(MODEL_GRADES, runs=1)}),
    bad("citations-audit-no-topic-in-common", cite_with(judge="x.jsonl"), "x.jsonl",
        "on 0 topics", files={"x.jsonl": citation_text(MODEL_GRADES, topic="x")}),
    bad("citations-audit-one-topic-in-common", cite_with(judge="x.jsonl"), "x.jsonl",
        "on 1 topic:", files={"x.jsonl": citation_text(MODEL_GRADES, topics=1)}),
    bad("citations-audit-no-label-in-common", cite_with(human="s.jsonl", judge="x.jsonl"),
        "x.jsonl", "no support label in common", files={
            "s.jsonl": citation_text(HUMAN_GRADES, cite=False),
            "x.jsonl": citation_text(MODEL_GRADES, sentence=False)}),
    # records of one (topic, run) that are not the same answer
    bad("citations-audit-sentence-of-the-humans-only", cite_with(judge="x.jsonl"), "x.jsonl",
        "line 1", "sentence 3 of (topic '1', run 'r0') is in the human support judgments "
        "(hc.jsonl, line 1) and not here", files={"x.jsonl": citation_text(
            MODEL_GRADES, sentences=2)}),
    bad("citations-audit-sentence-of-the-model-only", cite_with(human="s.jsonl"), "mc.jsonl",
        "line 1", "sentence 3 of (topic '1', run 'r0') is here and not in the human support "
        "judgments (s.jsonl, line 1)", files={"s.jsonl": citation_text(HUMAN_GRADES,
                                                                       sentences=2)}),
    bad("citations-audit-passage-differs", cite_with(judge="x.jsonl"), "x.jsonl",
        "line 1", "sentence 1's citation of 'd0' of (topic '1', run 'r0') is in the human "
        "support judgments (hc.jsonl, line 1) and not here",
        files={"x.jsonl": citation_text(MODEL_GRADES, doc="z")}),
    bad("citations-audit-with-runs", [*CITE[:4], "a.run", *CITE[4:]],
        "human support judgments only"),
    bad("citations-audit-and-assignments", [*CITE, "--assignments"],
        "--assignments and --citations"),
    bad("citations-audit-samples", [*CITE, "--judge", "hc.jsonl", "--samples"],
        "--samples applies only without --citations"),
    bad("citations-audit-relevance-level", [*CITE, "-l", "2"],
        "applies only without --citations"),
    bad("citations-audit-qrels-measure", [*CITE, "-m", "ndcg"], "citation measure", "ndcg"),
    bad("citations-audit-max-citations-0", [*CITE, "--max-citations", "0"],
        opt("--max-citations")),
    bad("max-citations-without-citations", [*ASSIGN, "--max-citations", "2"],
        "--max-citations applies only with --citations"),
    bad("citations-audit-top-k-beyond-runs", [*CITE[:-1], "4"], opt("--top-k"),
        "runs of the human support judgments"),
    *_with_files(trec_file_faults("audit-judge", "qrels", lambda name: audit_with(
        judge=name), audit_with(), name="j/qrels.txt")),
    *_with_files(trec_file_faults("audit-run", "run", lambda name: [
        "labels", "audit", "h.txt", name, "b.run", "c.run", "--judge", "qrels.txt", "-B",
        "20", "--top-k", "2"], AUDIT, name="a.run")),
    *_with_files(trec_file_faults("audit-human", "qrels", lambda name: audit_with(
        human=name), audit_with(human="qrels.txt"), name="x/qrels.txt")),
]


@pytest.mark.parametrize("case", CASES)
def test_labels_audit(case, ws, run_cli):
    from .conftest import run_case

    run_case(case, ws, run_cli)
