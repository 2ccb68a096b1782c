"""``irscale text citations``: faulty support judgments of cited answers (JSON lines,
ALCE's and the TREC RAG track's) and options. Table-driven: every row is one call checked
against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import json

import pytest

import irscale
from irscale.errors import DuplicateError, InputError, InputFormatError, ParameterError
from irscale.text import evaluate_citations

from .conftest import err, gz, ok, output_contains, run_case, same_output_as, text


def cite(docid: str = "d1", support: object = "supported", **labels: object) -> dict:
    return {"docid": docid, "support": support, **labels}


def sentence(*citations: dict, **fields: object) -> dict:
    return {"text": "x", **fields, "citations": list(citations)}


def line(qid: str = "q1", *sentences: dict, **fields: object) -> str:
    return json.dumps({"qid": qid, **fields, "sentences": list(sentences) or [
        sentence(cite())]})


RECORDS = [line("q1", sentence(cite("d1", "not_supported", without="supported"),
                               cite("d2"), support="supported"), sentence()),
           line("q2", sentence(cite("d3", "partially_supported")))]
FILES = {"sysA.jsonl": text(RECORDS),
         "sysB.jsonl": text([line("q1", sentence(cite("d1")), run_id="sysB"),
                             line("q2", sentence(cite("d3", "no_support")), run_id="sysB")])}


def cli(*extra: str, files: tuple[str, ...] = ("sysA.jsonl",)) -> list[str]:
    return ["text", "citations", *files, *extra]


def bad(number: int, new: str) -> dict:
    """The files with line ``number`` of sysA.jsonl replaced by ``new`` (as bad.jsonl)."""
    lines = list(RECORDS)
    lines[number - 1] = new
    return {**FILES, "bad.jsonl": text(lines)}


BAD = ("bad.jsonl",)

CASES = [
    # ---- what works: every measure, two runs, the run named by the file's stem, gzip
    ok("citations-default", cli("-q"), output_contains(
        "citation_recall", "citation_precision", "ais", "support_precision",
        "support_recall", "all"), files=FILES),
    ok("citations-two-runs", cli("-m", "ais", "--format", "csv",
                                 files=("sysA.jsonl", "sysB.jsonl")),
       output_contains("sysA", "sysB"), files=FILES),
    ok("citations-stem-names-run", cli("-m", "citation_recall", "-q"),
       same_output_as(*cli("-m", "citation_recall", "-q", files=("named.jsonl",))),
       files={**FILES, "named.jsonl": text([json.dumps({**json.loads(r), "run_id": "sysA"})
                                            for r in RECORDS])}),
    ok("citations-gzip", cli("-m", "support_recall", "-q"),
       same_output_as(*cli("-m", "support_recall", "-q", files=("z/sysA.jsonl.gz",))),
       files={**FILES, "z/sysA.jsonl.gz": gz(text(RECORDS))}),
    ok("citations-label-spellings", cli("-q"),
       same_output_as(*cli("-q", files=("s/sysA.jsonl",))),
       files={**FILES, "s/sysA.jsonl": text([
           line("q1", sentence(cite("d1", "NS", without=1), cite("d2", "Full Support"),
                               support=True), sentence()),
           line("q2", sentence(cite("d3", 0.5)))])}),
    ok("citations-max-citations", cli("--max-citations", "1", "-m", "support_precision"),
       output_contains("0.2500"), files=FILES),
    # ---- records that break the format: file, line, text
    err("citations-no-sentences-key", cli(files=BAD), "bad.jsonl", "line 2",
        "no sentences", files=bad(2, json.dumps({"qid": "q2"}))),
    err("citations-sentences-empty", cli(files=BAD), "bad.jsonl", "line 2", "empty",
        "ALCE", files=bad(2, json.dumps({"qid": "q2", "sentences": []}))),
    err("citations-sentences-not-list", cli(files=BAD), "bad.jsonl", "line 2", "list",
        files=bad(2, json.dumps({"qid": "q2", "sentences": {"text": "x"}}))),
    err("citations-sentence-not-object", cli(files=BAD), "bad.jsonl", "line 2",
        "sentence 1 is not an object", files=bad(2, json.dumps({"qid": "q2",
                                                                "sentences": ["x"]}))),
    err("citations-sentence-without-citations", cli(files=BAD), "bad.jsonl", "line 2",
        "sentence 1 has no 'citations'", files=bad(2, json.dumps({
            "qid": "q2", "sentences": [{"text": "x", "support": "supported"}]}))),
    err("citations-citations-not-list", cli(files=BAD), "bad.jsonl", "line 2",
        "citations must be a list", files=bad(2, json.dumps({
            "qid": "q2", "sentences": [{"citations": "d1"}]}))),
    err("citations-unknown-label", cli(files=BAD), "bad.jsonl", "line 2",
        "support 'maybe' is not a support label",
        files=bad(2, line("q2", sentence(cite("d3", "maybe"))))),
    err("citations-label-number", cli(files=BAD), "bad.jsonl", "line 2",
        "support 0.7 is not a support label",
        files=bad(2, line("q2", sentence(cite("d3", 0.7))))),
    err("citations-without-label", cli(files=BAD), "bad.jsonl", "line 1",
        "citation 1: without 'x'", files=bad(1, line("q1", sentence(
            cite("d1", "not_supported", without="x"), cite("d2"), support="supported")))),
    err("citations-no-passage-id", cli(files=BAD), "bad.jsonl", "line 2",
        "citation 1 has no passage id", files=bad(2, line("q2", sentence(
            {"support": "supported"})))),
    err("citations-passage-id-not-text", cli(files=BAD), "bad.jsonl", "line 2",
        "passage id must be a string", files=bad(2, line("q2", sentence(cite([1]))))),
    err("citations-passage-cited-twice", cli(files=BAD), "bad.jsonl", "line 2",
        "'d3' is cited twice", files=bad(2, line("q2", sentence(
            cite("d3"), cite("d3"), support="supported")))),
    err("citations-reference-out-of-range", cli(files=BAD), "bad.jsonl", "line 2",
        "position 2 is not in references", files=bad(2, json.dumps({
            "qid": "q2", "references": ["s0", "s1"],
            "answer": [{"citations": [2], "citation_support": ["FS"]}]}))),
    err("citations-citation-support-length", cli(files=BAD), "bad.jsonl", "line 2",
        "as long as citations", files=bad(2, json.dumps({
            "qid": "q2", "sentences": [{"citations": ["d1"], "citation_support": []}]}))),
    err("citations-support-given-twice", cli(files=BAD), "bad.jsonl", "line 2",
        "support given twice", files=bad(2, json.dumps({
            "qid": "q2", "sentences": [{"citations": [cite("d1")],
                                        "citation_support": ["FS"]}]}))),
    err("citations-supported-without-citation", cli(files=BAD), "bad.jsonl", "line 2",
        "cites nothing", files=bad(2, line("q2", sentence(support="supported")))),
    err("citations-single-citation-disagrees", cli(files=BAD), "bad.jsonl", "line 2",
        "one citation", files=bad(2, line("q2", sentence(cite("d3", "supported"),
                                                          support="not_supported")))),
    err("citations-no-topic", cli(files=BAD), "bad.jsonl", "line 1", "no topic",
        files=bad(1, json.dumps({"sentences": [sentence(cite())]}))),
    err("citations-record-not-object", cli(files=BAD), "bad.jsonl", "line 2",
        "JSON object", files=bad(2, "[1, 2]")),
    err("citations-not-json", cli(files=BAD), "bad.jsonl", "line 2", "not JSON",
        files=bad(2, '{"qid": "q2", "sentences": [')),
    err("citations-topic-run-twice", cli(files=BAD), "bad.jsonl", "line 2", "twice",
        "first on line 1", files=bad(2, line("q1"))),
    err("citations-topic-run-twice-and-malformed", cli(files=BAD), "bad.jsonl", "line 2",
        "sentences is empty", files=bad(2, json.dumps({"qid": "q1", "sentences": []}))),
    err("citations-topic-run-twice-across-files",
        cli(files=("sysA.jsonl", "copy/sysA.jsonl")), "copy/sysA.jsonl", "line 1", "twice",
        files={**FILES, "copy/sysA.jsonl": text(RECORDS)}),
    err("citations-empty-file", cli(files=("empty.jsonl",)), "empty.jsonl", "empty",
        files={**FILES, "empty.jsonl": b"\n\n"}),
    err("citations-no-run-on-stdin", cli(files=("-",)), "no run", stdin=text(RECORDS),
        files=FILES),
    # ---- a label a measure reads and the record does not give: file, line, sentence
    err("citations-precision-needs-without", cli("-m", "citation_precision", files=BAD),
        "bad.jsonl", "line 1", "sentence 1, citation 1 has no 'without'",
        files=bad(1, line("q1", sentence(cite("d1", "not_supported"), cite("d2"),
                                         cite("d4"), support="supported")))),
    ok("citations-precision-pair-reads-the-other", cli("-m", "citation_precision", "-q",
                                                       files=BAD),
       output_contains("q1\t0.5000"), files=bad(1, line("q1", sentence(
           cite("d1", "not_supported"), cite("d2"), support="supported")))),
    err("citations-recall-needs-support", cli("-m", "citation_recall", files=BAD),
        "bad.jsonl", "line 1", "sentence 1 has no 'support'",
        files=bad(1, line("q1", sentence(cite("d1"), cite("d2"))))),
    err("citations-support-needs-alone", cli("-m", "support_recall", files=BAD),
        "bad.jsonl", "line 2", "sentence 1, citation 2 has no 'support'",
        files=bad(2, line("q2", sentence(cite("d1"), {"docid": "d2"},
                                         support="supported")))),
    ok("citations-recall-reads-no-citation-label", cli("-m", "citation_recall", files=BAD),
       output_contains("citation_recall"),
       files=bad(2, line("q2", sentence(cite("d1"), {"docid": "d2"}, support="supported")))),
    # ---- measures and options
    err("citations-unknown-measure", cli("-m", "citation_f1"), "citation_f1", files=FILES),
    err("citations-measure-of-nuggets", cli("-m", "W"), "W", files=FILES),
    err("citations-max-citations-zero", cli("--max-citations", "0"), "--max-citations",
        files=FILES),
    err("citations-measure-in-eval", ["eval", "qrels.txt", "a.run", "-m", "citation_recall"],
        "irscale text citations"),
]


# ----------------------------------------------------------------- --human-sample (PPI)
#: A model's support judgments of three answers of run sysM; a human sample of two of them.
MODEL = [line(f"q{k}", sentence(cite("d1", "supported" if k % 2 else "not_supported")),
              sentence(cite("d2", "partially_supported"), cite("d3"), support="supported",
                       ), run_id="sysM") for k in (1, 2, 3)]
HUMAN = [line("q1", sentence(cite("d1", "not_supported")),
              sentence(cite("d2"), cite("d3"), support="supported"), run_id="sysM"),
         line("q2", sentence(cite("d1", "supported")),
              sentence(cite("d2", "not_supported"), cite("d3", "not_supported"),
                       support="not_supported"), run_id="sysM")]
PPI_FILES = {**FILES, "model.jsonl": text(MODEL), "human.jsonl": text(HUMAN)}
#: A human sample of the example's answers (``cite.jsonl``: sysA.jsonl's, run ``cite``).
CITE_HUMAN = text([line("q1", sentence(cite("d1", "supported", without="supported"),
                                       cite("d2"), support="supported"), sentence(),
                        run_id="cite"),
                   line("q2", sentence(cite("d3", "not_supported")), run_id="cite")])


#: A human sample of the model's sentences (3 of 6): every sentence listed, those not
#: sampled without a label.
SENTENCES = [line("q1", sentence(cite("d1", "not_supported")),
                  sentence({"docid": "d2"}, {"docid": "d3"}), run_id="sysM"),
             line("q2", sentence({"docid": "d1"}),
                  sentence(cite("d2", "not_supported", without="not_supported"),
                           cite("d3", "supported", without="not_supported"),
                           support="supported"), run_id="sysM"),
             line("q3", sentence(cite("d1", "supported")),
                  sentence({"docid": "d2"}, {"docid": "d3"}), run_id="sysM")]
SENTENCE_FILES = {**PPI_FILES, "sentences.jsonl": text(SENTENCES)}


def sample(*extra: str, human: str = "h.jsonl") -> list[str]:
    return ["text", "citations", "model.jsonl", "--human-sample", human, *extra]


def human(number: int, new: str) -> dict:
    """The files with line ``number`` of human.jsonl replaced by ``new`` (as h.jsonl)."""
    lines = list(HUMAN)
    lines[number - 1] = new
    return {**PPI_FILES, "h.jsonl": text(lines)}


CASES += [
    ok("sample-default", sample("-m", "ais", human="human.jsonl"),
       output_contains("Citation scores", "answers design", "ppi_low", "sysM"),
       files=PPI_FILES),
    ok("sample-per-answer", sample("-m", "support_precision", "-q", human="human.jsonl"),
       output_contains("q3", "all"), files=PPI_FILES),
    # ---- the human sample must be whole answers of the model's judgments
    err("sample-answer-not-in-model", sample(), "h.jsonl", "line 2", "do not hold",
        files=human(2, line("q9", sentence(cite("d1")), run_id="sysM"))),
    err("sample-sentences-differ", sample(), "h.jsonl", "line 1", "1 sentence(s)",
        "every sentence", files=human(1, line("q1", sentence(cite("d1")), run_id="sysM"))),
    err("sample-citations-differ", sample(), "h.jsonl", "line 1", "sentence 2",
        "cites 1 passage(s) here and 2", files=human(1, line(
            "q1", sentence(cite("d1")), sentence(cite("d2")), run_id="sysM"))),
    err("sample-too-small", sample(), "1 answer(s) of run 'sysM'", "2 at least",
        files={**PPI_FILES, "h.jsonl": text(HUMAN[:1])}),
    err("sample-label-missing", sample("-m", "support_recall"), "h.jsonl", "line 2",
        "citation 1 has no 'support'", files=human(2, line(
            "q2", sentence(cite("d1")), sentence({"docid": "d2"}, cite("d3"),
                                                 support="supported"), run_id="sysM"))),
    # ---- a sample of the sentences: every sentence listed, the sampled ones labelled
    ok("sample-sentences-uniform", sample("--design", "uniform", "-m", "citation_precision",
                                          human="sentences.jsonl"),
       output_contains("uniform design", "sysM"), files=SENTENCE_FILES),
    ok("sample-sentences-per-answer", sample("--design", "uniform", "-q",
                                             human="sentences.jsonl"),
       output_contains("q1", "all"), files=SENTENCE_FILES),
    err("sample-sentences-too-few", sample("--design", "uniform"),
        "1 sentence(s) of run 'sysM'", "2 at least",
        files={**SENTENCE_FILES, "h.jsonl": text(SENTENCES[:1])}),
    err("sample-sentences-stratum-too-small", sample("--design", "stratified",
                                                     human="sentences.jsonl"),
        "stratified design", "0 sentence(s) of run 'sysM' the model labels not_supported",
        files=SENTENCE_FILES),
    err("sample-sentence-label-missing", sample("--design", "uniform", "-m",
                                                "citation_recall"),
        "h.jsonl", "line 2", "sentence 2 has no 'support'", files={
            **SENTENCE_FILES, "h.jsonl": text([SENTENCES[0], line(
                "q2", sentence(cite("d1")), sentence(cite("d2"), cite("d3", "supported")),
                run_id="sysM")])}),
    err("sample-sentences-not-all-listed", sample("--design", "uniform"), "h.jsonl",
        "line 1", "1 sentence(s)", "every sentence", files={**SENTENCE_FILES, "h.jsonl": text(
            [line("q1", sentence(cite("d1", "not_supported")), run_id="sysM"),
             *SENTENCES[1:]])}),
    err("sample-sentences-other-passage", sample("--design", "uniform"), "h.jsonl",
        "line 3", "sentence 2 cites passage 'd9' here", "'d9'", files={
            **SENTENCE_FILES, "h.jsonl": text([*SENTENCES[:2], line(
                "q3", sentence(cite("d1", "supported")),
                sentence({"docid": "d2"}, {"docid": "d9"}), run_id="sysM")])}),
    err("sample-inclusion-design", sample("--design", "inclusion", human="human.jsonl"),
        "--design", "no inclusion probability", files=PPI_FILES),
    err("sample-unknown-design", sample("--design", "topics", human="human.jsonl"),
        "--design", "invalid choice: 'topics'", files=PPI_FILES),
    err("sample-options-without-sample", cli("--alpha", "0.1"), "--alpha",
        "--human-sample", files=FILES),
    err("sample-tuning-without-sample", cli("--tuning", "ppi"), "--tuning",
        "--human-sample", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_citations(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- Python API
@pytest.mark.parametrize(("call", "error", "needle"), [
    (lambda: evaluate_citations([{"qid": "q1", "sentences": [sentence()]}]),
     InputFormatError, "no run"),
    (lambda: evaluate_citations([json.loads(RECORDS[0]) | {"run": "r"}] * 2),
     DuplicateError, "<citations>, line 2"),
    (lambda: evaluate_citations(b'{"qid": "q1", "run": "r", "sentences": 3}\n'),
     InputFormatError, "<bytes>, line 1"),
    (lambda: evaluate_citations([json.loads(RECORDS[0]) | {"run": "r"}], max_citations=0),
     ParameterError, "max_citations"),
    (lambda: irscale.evaluate({"q": {"d": 1}}, {"r": {"q": {"d": 1.0}}}, ["ais"]),
     ParameterError, "irscale.text.evaluate_citations"),
    (lambda: evaluate_citations([json.loads(r) for r in MODEL], tuning="ppi"),
     ParameterError, "tuning= applies to a human sample"),
    (lambda: evaluate_citations([json.loads(r) for r in MODEL],
                                human_sample=[json.loads(r) for r in HUMAN],
                                design="inclusion"),
     ParameterError, "no inclusion probability"),
    (lambda: evaluate_citations([json.loads(r) for r in MODEL],
                                human_sample=[json.loads(r) for r in HUMAN], alpha=1.5),
     ParameterError, "alpha"),
    (lambda: evaluate_citations([json.loads(r) for r in MODEL],
                                human_sample=[json.loads(r) for r in HUMAN[:1]]),
     InputError, "2 at least"),
], ids=["records-without-run", "records-twice", "bytes-sentences-not-list",
        "max-citations-zero", "evaluate-names-the-runner", "tuning-without-sample",
        "inclusion-design", "alpha-out-of-range", "sample-too-small"])
def test_api_refuses(call, error, needle):
    """The API refuses what the command line refuses, by the same declarations."""
    with pytest.raises(error, match=needle.replace("(", r"\(")):
        call()
