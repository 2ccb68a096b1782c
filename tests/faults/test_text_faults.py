"""``irscale session``: faulty session runs, click logs, session maps and
options. Table-driven: every row is one call checked against the contract of
``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from irscale.errors import InputError, ParameterError
from irscale.text import (
    evaluate_assignments,
    evaluate_citations,
    evaluate_nuggets,
    evaluate_rouge,
    evaluate_sessions,
)

from .conftest import (
    all_checks,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    same_output_as,
    text,
)
from .test_text_assignments_faults import FILES as ASSIGNMENT_FILES
from .test_text_citations_faults import FILES as CITATION_FILES

# two queries per session (topics 1..6 of the collection's qrels.txt), d1 shown twice
SESSION = [f"{t} {q} d{d} {r} {1 - r / 10:.1f} sysA" for t in range(1, 7)
           for q, docs in ((1, (3, 1, 7)), (2, (2, 1, 5))) for r, d in enumerate(docs, 1)]
CLICKS = [f"{t} 1 2 {10 * t}" for t in range(1, 7)] + [f"{t} 2 1 {10 * t + 5}"
                                                         for t in range(1, 7)]
LENGTHS = [f"* 0 d{d} {100 * d}" for d in range(1, 9)]
FILES = {"s.run": text(SESSION), "c.log": text(CLICKS), "len.txt": text(LENGTHS),
         "map.txt": text([f"{t} {t}" for t in range(1, 7)])}


def values_are(measure: str, expected: dict[str, str]):
    """The output (several runs: ``measure topic value run`` lines) prints
    ``expected[topic]`` for ``measure`` and each topic given on the first run's line."""
    def check(result, ws, run):
        lines = [line.split("\t") for line in result.out.splitlines()]
        for topic, value in expected.items():
            found = [f[2] for f in lines if len(f) > 2 and f[0].rstrip() == measure
                     and f[1] == topic]
            assert found[:1] == [value], f"{measure} {topic}: expected {value}" + \
                result.describe()

    return check


def session(*extra: str, run: str = "s.run") -> list[str]:
    return ["session", "qrels.txt", run, *extra]


def with_line(lines: list[str], number: int, new: str) -> bytes:
    out = list(lines)
    out[number - 1] = new
    return text(out)


U_CLICKS = session("-m", "U", "--labels", "doclen=len.txt", "--clicks", "c.log")

CASES = [
    ok("session-default", session("-q"), output_contains("sDCG@10", "nsDCG@10", "all"),
       files=FILES),
    ok("session-csv", session("--format", "csv", "-m", "sDCG(bq=2)@5"),
       output_contains("run,topic,measure,value", "sysA,all,sDCG(bq=2)@5"), files=FILES),
    ok("session-json-markdown", session("--format", "markdown"), output_contains("sysA"),
       files=FILES),
    ok("session-map-identity", session("--topics", "map.txt"), same_output_as(*session()),
       files=FILES),
    ok("session-u-linear", session("-m", "U(L=1000)", "--labels", "doclen=len.txt"),
       output_contains("U(L=1000)"), files=FILES),
    ok("session-u-clicks", U_CLICKS, output_contains("U"), files=FILES),
    ok("session-u-clicks-rank-order", [*U_CLICKS, "--click-order", "rank", "--click-gain",
                                       "0.5"], output_contains("U"), files=FILES),
    ok("session-output-file", session("-o", "out.txt"), allowed_new=["out.txt"],
       files=FILES),
    # U without its document lengths names the option of this command, not irscale eval's
    err("session-u-without-lengths", session("-m", "U(L=1000)"), "U",
        "give it with --labels doclen=FILE", files=FILES),
    # session ids that are no qrels topic: the way out is a session map (--topics)
    err("session-ids-not-topics", session(run="ids.run"), "no topic in common",
        "--topics FILE", files={**FILES, "ids.run": text(["s1 1 d1 1 0.9 sysA"])}),
    # ---- malformed session runs: file, line and text
    err("session-run-five-fields", session(run="bad.run"), "bad.run", "line 3", "1 1 d7 3",
        files={**FILES, "bad.run": with_line(SESSION, 3, "1 1 d7 3 0.7")}),
    err("session-run-query-zero", session(run="bad.run"), "bad.run", "line 2", "query_no",
        files={**FILES, "bad.run": with_line(SESSION, 2, "1 0 d1 2 0.8 sysA")}),
    err("session-run-rank-fraction", session(run="bad.run"), "bad.run", "line 2", "rank",
        files={**FILES, "bad.run": with_line(SESSION, 2, "1 1 d1 2.5 0.8 sysA")}),
    err("session-run-score-nan", session(run="bad.run"), "bad.run", "line 2", "score",
        files={**FILES, "bad.run": with_line(SESSION, 2, "1 1 d1 2 nan sysA")}),
    err("session-run-two-runids", session(run="bad.run"), "bad.run", "line 4", "one run",
        files={**FILES, "bad.run": with_line(SESSION, 4, "1 2 d2 1 0.9 sysB")}),
    err("session-run-duplicate-rank", session(run="bad.run"), "bad.run", "line 2",
        "rank given twice", files={**FILES, "bad.run": with_line(SESSION, 2,
                                                                "1 1 d1 1 0.8 sysA")}),
    err("session-run-duplicate-doc", session(run="bad.run"), "bad.run", "line 2",
        "document given twice", files={**FILES, "bad.run": with_line(SESSION, 2,
                                                                    "1 1 d3 2 0.8 sysA")}),
    err("session-run-empty", session(run="empty.run"), "empty.run", "empty",
        files={**FILES, "empty.run": b""}),
    err("session-run-missing", session(run="nope.run"), "nope.run", files=FILES),
    err("session-run-no-judged-session", session(run="other.run"), "no topic in common",
        "the qrels 1, 2, 3, 4, 5 ... (6 topics)",
        files={**FILES, "other.run": text(["x 1 d1 1 1 sysA"])}),
    err("session-run-query-too-large", session(run="bad.run"), "bad.run", "line 2",
        "query_no is too large", "9007199254740991",
        files={**FILES, "bad.run": with_line(SESSION, 2,
                                             "1 9223372036854775807 d1 2 0.8 sysA")}),
    err("session-run-rank-too-large", session(run="bad.run"), "bad.run", "line 2",
        "rank is too large", files={**FILES, "bad.run": with_line(SESSION, 2,
                                                                  "1 1 d1 1e300 0.8 sysA")}),
    err("session-run-query-not-whole", session(run="bad.run"), "bad.run", "line 2",
        "query_no is not a whole number", files={**FILES, "bad.run": with_line(
            SESSION, 2, "1 1.5 d1 2 0.8 sysA")}),
    err("session-same-runid-twice", ["session", "qrels.txt", "s.run", "s2.run"],
        "distinct run ids", files={**FILES, "s2.run": text(SESSION)}),
    # ---- measures
    err("session-unknown-measure", session("-m", "map"), "unknown session measure",
        files=FILES),
    err("session-cutoff-zero", session("-m", "sDCG@0"), "cut-off", files=FILES),
    ok("session-jarvelin", session("-m", "sDCG(form=jarvelin)@5", "-m",
                                   "nsDCG(form=jarvelin,discount=1+log,norm=jarvelin)@5"),
       output_contains("sDCG(form=jarvelin)@5", "nsDCG(form=jarvelin,discount=1+log"),
       files=FILES),
    err("session-discount-without-jarvelin", session("-m", "sDCG(discount=jk)"),
        "discount has no effect", "form=jarvelin", files=FILES),
    err("session-form-unknown", session("-m", "sDCG(form=lecture)"), "lecture", "sakai",
        files=FILES),
    err("session-bad-bq", session("-m", "sDCG(bq=1)"), "bq", files=FILES),
    ok("session-srbp-serr", session("-q", "-m", "sRBP(p=0.8,b=0.5)@5", "-m", "sERR@10"),
       output_contains("sRBP(p=0.8,b=0.5)@5", "sERR@10", "all"), files=FILES),
    err("session-srbp-bad-b", session("-m", "sRBP(b=2)"), "b", "≤ 1", files=FILES),
    err("session-srbp-bad-p", session("-m", "sRBP(p=0)"), "p", files=FILES),
    err("session-serr-bad-prob", session("-m", "sERR(prob=linear)"), "prob", files=FILES),
    err("session-bad-norm", session("-m", "nsDCG(norm=max)"), "norm", files=FILES),
    # a gain a double cannot hold is an error naming the measure asked for
    err("session-nsdcg-exp-gain-overflow", session("-m", "nsDCG(gain=exp)@10"),
        "'nsDCG'", "2^2000", files={**FILES, "qrels.txt": text(["1 0 d1 2000", "1 0 d2 1"])}),
    ok("session-expected-path-measures",
       session("-q", "-m", "esnDCG(p_reform=0.5,p_down=0.8)@5", "-m", "esAP@5"),
       output_contains("esnDCG(p_reform=0.5,p_down=0.8)@5", "esAP@5", "all"), files=FILES),
    err("session-esndcg-bad-p-reform", session("-m", "esnDCG(p_reform=1.5)"), "p_reform",
        "1.5", files=FILES),
    err("session-esap-bad-p-down", session("-m", "esAP(p_down=-0.1)"), "p_down", files=FILES),
    err("session-esap-takes-no-gain", session("-m", "esAP(gain=exp)"), "gain", files=FILES),
    ok("session-cost-measures",
       session("-q", "-m", "tsCG(qcost=10,scan=2,read=20,budget=120)@10", "-m",
               "tsCGrate@10"),
       output_contains("tsCG(qcost=10,scan=2,read=20,budget=120)@10", "tsCGrate@10"),
       files=FILES),
    err("session-tscg-bad-cost", session("-m", "tsCG(read=-5)"), "read", "-5", files=FILES),
    err("session-tscgrate-takes-no-budget", session("-m", "tsCGrate(budget=60)"), "budget",
        files=FILES),
    ok("session-markov-measures",
       session("-q", "-m", "MsM(p=0.6,q=0.2,r=0.1,s=0.1)@5", "-m", "MsM(discount=log)"),
       output_contains("MsM(p=0.6,q=0.2,r=0.1,s=0.1)@5", "MsM(discount=log)", "all"),
       files=FILES),
    err("session-msm-not-summing-to-one", session("-m", "MsM(p=0.8)@5"),
        "p + q + r + s must be 1", "1.1", files=FILES),
    err("session-msm-no-next-query", session("-m", "MsM(p=0.9,q=0.1,r=0,s=0.1)"), "r",
        "> 0", files=FILES),
    err("session-msm-bad-q", session("-m", "MsM(q=nan)"), "q", "nan", files=FILES),
    err("session-msm-bad-discount", session("-m", "MsM(discount=log2)"), "discount", "lin",
        files=FILES),
    # a chain of 2^61 positions per query is refused before any work, with its estimate
    err("session-msm-chain-too-long", session("-m", f"MsM@{2**61}", "-o", "out.txt"),
        "Markov chain of 2,305,843,009,213,693,952 positions", "a smaller cut-off @k",
        "about 256 EiB", "(fewer @k (positions))", files=FILES),
    err("session-u-without-lengths", session("-m", "U"), "doclen", files=FILES),
    err("session-u-clicks-cutoff", session("-m", "U@5", "--labels", "doclen=len.txt",
                                           "--clicks", "c.log"), "cut-off", files=FILES),
    # ---- click logs and maps
    err("session-click-bad-rank", U_CLICKS, "c.log", "line 3", "shows no document",
        files={**FILES, "c.log": with_line(CLICKS, 3, "3 1 9 30")}),
    err("session-click-query-too-large", U_CLICKS, "c.log", "line 2",
        "query_no is too large", files={**FILES, "c.log": with_line(CLICKS, 2,
                                                                    "2 1e20 2 20")}),
    err("session-click-timestamp", U_CLICKS, "c.log", "line 1", "timestamp",
        files={**FILES, "c.log": with_line(CLICKS, 1, "1 1 2 later")}),
    err("session-click-repeated", U_CLICKS, "c.log", "line 2", "twice",
        files={**FILES, "c.log": with_line(CLICKS, 2, CLICKS[0])}),
    err("session-clicks-without-u", session("--clicks", "c.log"), "U only", files=FILES),
    err("session-clicks-per-run", [*U_CLICKS, "--clicks", "c.log"], "one click log per run",
        files=FILES),
    err("session-click-order-without-clicks", session("--click-order", "rank"),
        "--click-order", files=FILES),
    err("session-click-gain-without-clicks", session("--click-gain", "0.5"), "--click-gain",
        files=FILES),
    err("session-click-gain-negative", [*U_CLICKS, "--click-gain", "-1"], opt("--click-gain"),
        files=FILES),
    err("session-click-order-unknown", [*U_CLICKS, "--click-order", "random"],
        "--click-order", files=FILES),
    err("session-map-missing-session", session("--topics", "map.txt"), "'6'",
        "not in the session map", files={**FILES, "map.txt": text(["1 1", "2 2", "3 3",
                                                                   "4 4", "5 5"])}),
    err("session-map-duplicate", session("--topics", "map.txt"), "map.txt", "line 2",
        files={**FILES, "map.txt": text(["1 1", "1 2"])}),
    err("session-map-three-fields", session("--topics", "map.txt"), "map.txt", "line 1",
        files={**FILES, "map.txt": text(["1 1 x"])}),
    # ---- options
    err("session-level-zero", session("-l", "0"), "-l", files=FILES),
    err("session-output-is-click-log", [*U_CLICKS, "-o", "c.log", "--force"], "c.log",
        files=FILES),
    err("session-output-is-map", session("--topics", "map.txt", "-o", "map.txt", "--force"),
        "map.txt", files=FILES),
    err("session-output-exists", session("-o", "s.run"), "s.run", files=FILES),
    err("session-labels-malformed", session("--labels", "doclen"), "NAME=FILE", files=FILES),
    err("session-format-unknown", session("--format", "ndeval"), "--format", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_session(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- ROUGE
REFS = ["1\tr1\tThe cat sat on the mat.", "1\tr2\tA cat sat.", "2\tr1\tA dog barked loudly."]
CANDS = ["1\tsysA\tthe cat sat", "2\tsysA\ta dog", "1\tsysB\ton the mat",
         "2\tsysB\tdog barked"]
RFILES = {"refs.tsv": text(REFS), "cands.tsv": text(CANDS), "stop.txt": text(["the a"])}


def rouge_cli(*extra: str, cands: str = "cands.tsv", refs: str = "refs.tsv") -> list[str]:
    return ["text", "rouge", refs, cands, *extra]


ROUGE_CASES = [
    ok("rouge-default", rouge_cli("-q"), output_contains("ROUGE-1", "ROUGE-2", "ROUGE-L",
                                                         "sysB"), files=RFILES),
    ok("rouge-measures-csv", rouge_cli("-m", "ROUGE-SU4(stat=r)", "-m", "ROUGE-S",
                                       "--format", "csv"),
       output_contains("sysA,all,ROUGE-SU4(stat=r)", "sysB,all,ROUGE-S"), files=RFILES),
    ok("rouge-stem-stopwords-pooled", rouge_cli("--stem", "--stopwords", "stop.txt",
                                                "--multi", "pooled"),
       output_contains("ROUGE-L"), files=RFILES),
    ok("rouge-two-candidate-files", ["text", "rouge", "refs.tsv", "a.tsv", "b.tsv"],
       same_output_as(*rouge_cli()),
       files={**RFILES, "a.tsv": text(CANDS[:2]), "b.tsv": text(CANDS[2:])}),
    # a byte order mark is no part of the first topic id (as in the TREC files)
    ok("rouge-byte-order-marks", rouge_cli("-q", "--stopwords", "stop.txt", cands="bom.tsv",
                                           refs="bomref.tsv"),
       same_output_as(*rouge_cli("-q", "--stopwords", "stop.txt")),
       files={**RFILES, "bom.tsv": b"\xef\xbb\xbf" + text(CANDS),
              "bomref.tsv": b"\xef\xbb\xbf" + text(REFS),
              "stop.txt": b"\xef\xbb\xbf" + text(["the a"])}),
    ok("rouge-output-file", rouge_cli("-o", "out.txt"), allowed_new=["out.txt"],
       files=RFILES),
    # ---- malformed texts: file, line and text
    err("rouge-cand-spaces-not-tabs", rouge_cli(cands="bad.tsv"), "bad.tsv", "line 2",
        "TAB", files={**RFILES, "bad.tsv": with_line(CANDS, 2, "2 sysA a dog")}),
    err("rouge-cand-empty-text", rouge_cli(cands="bad.tsv"), "bad.tsv", "line 3",
        "empty text", files={**RFILES, "bad.tsv": with_line(CANDS, 3, "1\tsysB\t   ")}),
    err("rouge-cand-duplicate", rouge_cli(cands="bad.tsv"), "bad.tsv", "line 3",
        "given twice", files={**RFILES, "bad.tsv": with_line(CANDS, 3, "1\tsysA\tx")}),
    err("rouge-cand-empty-run", rouge_cli(cands="bad.tsv"), "bad.tsv", "line 1", "id",
        files={**RFILES, "bad.tsv": with_line(CANDS, 1, "1\t\tthe cat")}),
    err("rouge-ref-duplicate", rouge_cli(refs="bad.tsv"), "bad.tsv", "line 2",
        "given twice", files={**RFILES, "bad.tsv": with_line(REFS, 2, "1\tr1\tagain")}),
    err("rouge-ref-empty-file", rouge_cli(refs="empty.tsv"), "empty.tsv", "empty",
        files={**RFILES, "empty.tsv": b""}),
    err("rouge-cand-missing", rouge_cli(cands="nope.tsv"), "nope.tsv", files=RFILES),
    err("rouge-same-run-two-files", ["text", "rouge", "refs.tsv", "cands.tsv", "cands.tsv"],
        "two texts", files=RFILES),
    err("rouge-no-topic-in-common", rouge_cli(cands="other.tsv"), "no topic in common",
        "the run has topics 9 (1 topic)", "the references 1, 2 (2 topics)",
        files={**RFILES, "other.tsv": text(["9\tsysA\tthe cat"])}),
    err("rouge-file-name-with-escape", rouge_cli(refs="re\x1bfs.tsv"), "cannot read",
        "re\\x1bfs.tsv", files=RFILES),
    err("rouge-file-name-with-line-break", rouge_cli(refs="re\x1bfs\n.tsv"),
        "no file is named", "'re\\x1bfs\\n.tsv'", files=RFILES),
    # ---- skip bigrams of long texts: counted, not listed (bounded memory), same values
    ok("rouge-s-long-candidate", rouge_cli("-q", "-m", "ROUGE-S(stat=r)", "-m",
                                           "ROUGE-SU(stat=p)", cands="long.tsv"),
       output_contains("all\t0.3333", "all\t0.0000"),  # r2 'a cat sat': 1 of 3
       files={**RFILES, "long.tsv": text(["1\tsysA\t" + "cat sat " * 3000])}),
    err("rouge-stopword-never-matches", rouge_cli("--stopwords", "bad.txt"), "bad.txt",
        "line 1", "never match", files={**RFILES, "bad.txt": text(["Don't"])}),
    # ---- measures and options
    # F_β of a β whose square overflows a double is recall (its limit), no numpy warning:
    # topic 1 sysA 'the cat sat' recalls 2 of r2's 3 tokens (r1: 3 of 6), topic 2 2 of 4
    ok("rouge-f-beta-beyond-double", rouge_cli("-q", "-m", "ROUGE-1(beta=1e308)"),
       values_are("ROUGE-1(beta=1e308)", {"1": "0.6667", "2": "0.5000", "all": "0.5833"}),
       files=RFILES),
    err("rouge-unknown-measure", rouge_cli("-m", "ROUGE-W"), "unknown ROUGE measure",
        files=RFILES),
    err("rouge-n-zero", rouge_cli("-m", "ROUGE-0"), "unknown ROUGE measure", files=RFILES),
    err("rouge-bad-stat", rouge_cli("-m", "ROUGE-1(stat=x)"), "stat", files=RFILES),
    err("rouge-bad-beta", rouge_cli("-m", "ROUGE-L(beta=0)"), "beta", files=RFILES),
    err("rouge-skip-on-ngram", rouge_cli("-m", "ROUGE-2(skip=4)"), "skip", files=RFILES),
    err("rouge-skip-twice", rouge_cli("-m", "ROUGE-S4(skip=2)"), "twice", files=RFILES),
    err("rouge-multi-unknown", rouge_cli("--multi", "best"), "--multi", files=RFILES),
    err("rouge-output-is-stopwords", rouge_cli("--stopwords", "stop.txt", "-o", "stop.txt",
                                               "--force"), "stop.txt", files=RFILES),
    err("rouge-output-exists", rouge_cli("-o", "cands.tsv"), "cands.tsv", files=RFILES),
    err("text-without-command", ["text"], "rouge", files=RFILES),
    err("rouge-bleu-measure", rouge_cli("-m", "BLEU"), "not a ROUGE measure",
        "irscale text bleu", files=RFILES),
]


@pytest.mark.parametrize("case", ROUGE_CASES)
def test_rouge(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- nuggets
NUGGETS = ["1 n1 3 vital born 1942", "1 n2 1 okay in Liverpool", "2 n1 1 vital bass"]
MATCHES = ["1 sysA n1 30", "1 sysB n2 12", "2 sysA n1 4"]
OUT_LENGTHS = ["1 sysA 60", "1 sysB 40", "2 sysA 10", "2 sysB 8"]
OUT_TEXTS = ["1\tsysA\t" + "x" * 60, "1\tsysB\t" + "y " * 40, "2\tsysA\t" + "z" * 10,
             "2\tsysB\t" + "w" * 8]
NFILES = {"nug.txt": text(NUGGETS), "match.txt": text(MATCHES), "len.txt": text(OUT_LENGTHS),
          "out.tsv": text(OUT_TEXTS)}


def nuggets_cli(*extra: str, matches: str | None = "match.txt", nuggets: str = "nug.txt",
                lengths: str | None = "len.txt") -> list[str]:
    return ["text", "nuggets", nuggets, *([matches] if matches else []),
            *(["--lengths", lengths] if lengths else []), *extra]


# automatic matching (threshold 0.5), by hand in non-blank characters: sysA "He(2) was(5)
# born(9) in(11) 1942(15) ..." matches n1 (1 of born, 1942) at 9 and n2 (1 of in,
# liverpool) at 11; sysB "A(1) Liverpool(10) bass(14)" n2 at 10; topic 2 sysA "bass(4)"
AUTO_TEXTS = ["1\tsysA\tHe was born in 1942 in Liverpool.", "1\tsysB\tA Liverpool bass",
              "2\tsysA\tbass guitar", "2\tsysB\tdrums"]
AUTO_MATCHES = ["1 sysA n1 9", "1 sysA n2 11", "1 sysB n2 10", "2 sysA n1 4"]
AFILES = {**NFILES, "auto.tsv": text(AUTO_TEXTS), "auto-match.txt": text(AUTO_MATCHES),
          "stop.txt": text(["in"])}
AUTO = ["text", "nuggets", "nug.txt", "--texts", "auto.tsv", "--auto-match"]

NUGGET_CASES = [
    ok("nuggets-auto-match-as-by-hand", [*AUTO, "-q"],
       same_output_as("text", "nuggets", "nug.txt", "auto-match.txt", "--texts", "auto.tsv",
                      "-q"), files=AFILES),
    # threshold 1 and "in" a stop word: n1 needs born and 1942 (sysA: 15), n2 liverpool
    # only (sysA: in(17) Liverpool(26); sysB: 10)
    ok("nuggets-auto-match-threshold-stopwords",
       [*AUTO, "-q", "--threshold", "1", "--stopwords", "stop.txt"],
       same_output_as("text", "nuggets", "nug.txt", "m.txt", "--texts", "auto.tsv", "-q"),
       files={**AFILES, "m.txt": text(["1 sysA n1 15", "1 sysA n2 26", "1 sysB n2 10",
                                        "2 sysA n1 4"])}),
    # a threshold as small as 1e-300 still needs one word of the nugget (it needed none,
    # and the match was looked up before the output's first word)
    ok("nuggets-auto-match-threshold-1e-300", [*AUTO, "-q", "--threshold", "1e-300"],
       same_output_as("text", "nuggets", "nug.txt", "auto-match.txt", "--texts", "auto.tsv",
                      "-q"), files=AFILES),
    err("nuggets-auto-match-and-match-file", [*AUTO[:3], "match.txt", *AUTO[3:]],
        "--auto-match", "no match file", files=AFILES),
    err("nuggets-auto-match-with-lengths", ["text", "nuggets", "nug.txt", "--lengths",
                                            "len.txt", "--auto-match"], "--texts",
        files=AFILES),
    err("nuggets-no-match-file", ["text", "nuggets", "nug.txt", "--texts", "auto.tsv"],
        "match file", "--auto-match", files=AFILES),
    err("nuggets-threshold-without-auto-match", nuggets_cli("--threshold", "0.5"),
        "--threshold", "--auto-match", files=AFILES),
    err("nuggets-stopwords-without-auto-match", nuggets_cli("--stopwords", "stop.txt"),
        "--stopwords", "--auto-match", files=AFILES),
    err("nuggets-auto-match-threshold-zero", [*AUTO, "--threshold", "0"], "threshold",
        "(0, 1]", files=AFILES),
    err("nuggets-auto-match-threshold-text", [*AUTO, "--threshold", "half"], "--threshold",
        files=AFILES),
    err("nuggets-auto-match-no-vital-string", [*AUTO[:2], "bad.txt", *AUTO[3:]], "bad.txt",
        "line 2", "vital string",
        files={**AFILES, "bad.txt": with_line(NUGGETS, 2, "1 n2 1 okay")}),
    err("nuggets-auto-match-stop-words-only", [*AUTO, "--stopwords", "stop.txt"],
        "nug.txt", "line 2", "stop words only",
        files={**AFILES, "nug.txt": with_line(NUGGETS, 2, "1 n2 1 okay in")}),
    err("nuggets-auto-match-output-is-stopwords", [*AUTO, "--stopwords", "stop.txt", "-o",
                                                   "stop.txt", "--force"], "stop.txt",
        files=AFILES),
    ok("nuggets-default", nuggets_cli("-q"), output_contains("W-Rec", "F_QA", "Ssharp",
                                                             "sysB"), files=NFILES),
    ok("nuggets-texts-same-as-lengths", nuggets_cli("--texts", "out.tsv", lengths=None),
       same_output_as(*nuggets_cli()), files=NFILES),
    # F_β of a β whose square overflows a double is its limit, recall (W-Rec: sysA 3 of
    # 4, 1 of 1; S#: S capped at 1), no numpy warning
    ok("nuggets-f-beta-beyond-double", nuggets_cli("-q", "-m", "F_QA(beta=1e308)", "-m",
                                                   "Ssharp(L=1000,beta=1e308)"),
       all_checks(values_are("F_QA(beta=1e308)", {"1": "0.7500", "2": "1.0000",
                                                  "all": "0.8750"}),
                  values_are("Ssharp(L=1000,beta=1e308)", {"2": "1.0000"})),
       files=NFILES),
    ok("nuggets-byte-order-marks", nuggets_cli("-q", nuggets="bn.txt", matches="bm.txt",
                                               lengths="bl.txt"),
       same_output_as(*nuggets_cli("-q")),
       files={**NFILES, **{name: b"\xef\xbb\xbf" + text(lines) for name, lines in
                           (("bn.txt", NUGGETS), ("bm.txt", MATCHES),
                            ("bl.txt", OUT_LENGTHS))}}),
    ok("nuggets-measures-csv", nuggets_cli("-m", "F_QA(beta=3,nuggets=vital)", "-m",
                                           "S#(L=500)", "--format", "csv"),
       output_contains("sysA,all,\"F_QA(beta=3,nuggets=vital)\"", "S#(L=500)"), files=NFILES),
    ok("nuggets-two-match-files", ["text", "nuggets", "nug.txt", "m1.txt", "m2.txt",
                                   "--lengths", "len.txt"], same_output_as(*nuggets_cli()),
       files={**NFILES, "m1.txt": text(MATCHES[:1]), "m2.txt": text(MATCHES[1:])}),
    # ---- matches: unknown topic or nugget, negative or too large offsets, no output
    err("nuggets-match-unknown-topic", nuggets_cli(matches="bad.txt"), "bad.txt", "line 2",
        "'9'", files={**NFILES, "bad.txt": with_line(MATCHES, 2, "9 sysB n2 12")}),
    err("nuggets-match-unknown-nugget", nuggets_cli(matches="bad.txt"), "bad.txt", "line 3",
        "'n7'", files={**NFILES, "bad.txt": with_line(MATCHES, 3, "2 sysA n7 4")}),
    err("nuggets-match-negative-offset", nuggets_cli(matches="bad.txt"), "bad.txt",
        "line 1", "negative", files={**NFILES, "bad.txt": with_line(MATCHES, 1,
                                                                   "1 sysA n1 -30")}),
    err("nuggets-match-offset-beyond", nuggets_cli(matches="bad.txt"), "bad.txt", "line 1",
        "beyond", files={**NFILES, "bad.txt": with_line(MATCHES, 1, "1 sysA n1 61")}),
    err("nuggets-match-no-output", nuggets_cli(matches="bad.txt"), "bad.txt", "line 2",
        "no output", files={**NFILES, "bad.txt": with_line(MATCHES, 2, "1 sysC n2 12")}),
    err("nuggets-match-twice", nuggets_cli(matches="bad.txt"), "bad.txt", "line 2", "twice",
        files={**NFILES, "bad.txt": with_line(MATCHES, 2, "1 sysA n1 40")}),
    err("nuggets-match-twice-across-files", ["text", "nuggets", "nug.txt", "match.txt",
                                             "match.txt", "--lengths", "len.txt"],
        "twice", files=NFILES),
    err("nuggets-match-three-fields", nuggets_cli(matches="bad.txt"), "bad.txt", "line 1",
        "4 fields", files={**NFILES, "bad.txt": with_line(MATCHES, 1, "1 sysA n1")}),
    # ---- nuggets, lengths and texts
    err("nuggets-bad-label", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 2", "label",
        files={**NFILES, "bad.txt": with_line(NUGGETS, 2, "1 n2 1 maybe in Liverpool")}),
    err("nuggets-negative-weight", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 1",
        "weight", files={**NFILES, "bad.txt": with_line(NUGGETS, 1, "1 n1 -3 vital born")}),
    err("nuggets-weight-beyond-doubles", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 2",
        "weight is too large", files={**NFILES, "bad.txt": with_line(
            NUGGETS, 2, "1 n2 1e309 okay in Liverpool")}),
    err("nuggets-weight-below-doubles", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 2",
        "weight is too small", files={**NFILES, "bad.txt": with_line(
            NUGGETS, 2, "1 n2 1e-320 okay in Liverpool")}),
    # weights near the largest double: their sum overflows unless scaled; same values as
    # weights 1 (W-Rec of sysA: topic 1 1/2, topic 2 1; sysB: 1/2 and no output)
    ok("nuggets-weights-near-the-largest-double", nuggets_cli("-m", "W-Rec", "-m", "S",
                                                              nuggets="big.txt"),
       same_output_as(*nuggets_cli("-m", "W-Rec", "-m", "S", nuggets="one.txt")),
       files={**NFILES, "big.txt": text(["1 n1 1e308 vital born 1942",
                                         "1 n2 1e308 okay in Liverpool",
                                         "2 n1 1e308 vital bass"]),
              "one.txt": text(["1 n1 1 vital born 1942", "1 n2 1 okay in Liverpool",
                               "2 n1 1 vital bass"])}),
    err("nuggets-no-topic-in-common", nuggets_cli("--texts", "other.tsv", "--auto-match",
                                                  matches=None, lengths=None),
        "no topic in common", "the nuggets 1, 2 (2 topics)",
        files={**NFILES, "other.tsv": text(["9\tsysA\tborn 1942"])}),
    err("nuggets-duplicate", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 3", "twice",
        files={**NFILES, "bad.txt": with_line(NUGGETS, 3, "1 n1 1 vital bass")}),
    err("nuggets-no-vital-string", nuggets_cli(nuggets="bad.txt"), "bad.txt", "line 3",
        "vital string", files={**NFILES, "bad.txt": with_line(NUGGETS, 3, "2 n1 1 vital")}),
    err("nuggets-empty-output-length", nuggets_cli(lengths="bad.txt"), "bad.txt", "line 4",
        "empty output", files={**NFILES, "bad.txt": with_line(OUT_LENGTHS, 4, "2 sysB 0")}),
    err("nuggets-empty-output-text", nuggets_cli("--texts", "bad.tsv", lengths=None),
        "bad.tsv", "line 2", "empty text",
        files={**NFILES, "bad.tsv": with_line(OUT_TEXTS, 2, "1\tsysB\t ")}),
    err("nuggets-empty-nuggets-file", nuggets_cli(nuggets="empty.txt"), "empty.txt",
        "empty", files={**NFILES, "empty.txt": b""}),
    # ---- measures and options
    err("nuggets-unknown-measure", nuggets_cli("-m", "nDCG"), "unknown nugget measure",
        files=NFILES),
    err("nuggets-bad-L", nuggets_cli("-m", "S(L=0)"), "L", files=NFILES),
    err("nuggets-L-too-small", nuggets_cli("-m", "S(L=4)"), "pseudo-minimal",
        files=NFILES),
    err("nuggets-bad-nuggets-choice", nuggets_cli("-m", "W-Rec(nuggets=some)"), "nuggets",
        files=NFILES),
    err("nuggets-no-outputs", nuggets_cli(lengths=None), "--lengths", files=NFILES),
    err("nuggets-lengths-and-texts", nuggets_cli("--texts", "out.tsv"), "--texts",
        files=NFILES),
    err("nuggets-output-is-lengths", nuggets_cli("-o", "len.txt", "--force"), "len.txt",
        files=NFILES),
    err("nuggets-output-exists", nuggets_cli("-o", "match.txt"), "match.txt", files=NFILES),
]


@pytest.mark.parametrize("case", NUGGET_CASES)
def test_nuggets(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- BLEU
def bleu_cli(*extra: str, cands: str = "cands.tsv", refs: str = "refs.tsv") -> list[str]:
    return ["text", "bleu", refs, cands, *extra]


BLEU_CASES = [
    ok("bleu-default", bleu_cli("-q"), output_contains("BLEU", "sysA", "sysB", "all"),
       files=RFILES),
    ok("bleu-measures-csv", bleu_cli("-m", "BLEU(smooth=floor,value=0.2)", "-m",
                                     "BLEU(tokenize=none,lowercase=1)", "--format", "csv"),
       output_contains("sysA,all,\"BLEU(smooth=floor,value=0.2)\"",
                       "sysB,all,\"BLEU(tokenize=none,lowercase=1)\""), files=RFILES),
    # sysA 'the cat sat' | 'a dog' against refs: corpus counts (sacrebleu's corpus_bleu)
    ok("bleu-corpus", bleu_cli("--corpus"), output_contains("BLEU(effective=0)", "all"),
       files=RFILES),
    ok("bleu-two-candidate-files", ["text", "bleu", "refs.tsv", "a.tsv", "b.tsv"],
       same_output_as(*bleu_cli()),
       files={**RFILES, "a.tsv": text(CANDS[:2]), "b.tsv": text(CANDS[2:])}),
    ok("bleu-output-file", bleu_cli("-o", "out.txt"), allowed_new=["out.txt"], files=RFILES),
    err("bleu-cand-spaces-not-tabs", bleu_cli(cands="bad.tsv"), "bad.tsv", "line 2", "TAB",
        files={**RFILES, "bad.tsv": with_line(CANDS, 2, "2 sysA a dog")}),
    err("bleu-ref-duplicate", bleu_cli(refs="bad.tsv"), "bad.tsv", "line 2", "given twice",
        files={**RFILES, "bad.tsv": with_line(REFS, 2, "1\tr1\tagain")}),
    err("bleu-same-run-two-files", ["text", "bleu", "refs.tsv", "cands.tsv", "cands.tsv"],
        "two texts", files=RFILES),
    err("bleu-no-topic-in-common", bleu_cli(cands="other.tsv"), "no topic in common",
        files={**RFILES, "other.tsv": text(["9\tsysA\tthe cat"])}),
    err("bleu-corpus-run-without-references", bleu_cli("--corpus", cands="other.tsv"),
        "'sysA'", "no text for a topic",
        files={**RFILES, "other.tsv": text(["9\tsysA\tthe cat"])}),
    err("bleu-unknown-tokenizer", bleu_cli("-m", "BLEU(tokenize=zh)"), "tokenize",
        files=RFILES),
    err("bleu-unknown-smoothing", bleu_cli("-m", "BLEU(smooth=add-one)"), "smooth",
        files=RFILES),
    err("bleu-value-without-its-smoothing", bleu_cli("-m", "BLEU(value=0.5)"),
        "value has no effect", "smooth=floor", files=RFILES),
    err("bleu-negative-value", bleu_cli("-m", "BLEU(smooth=add-k,value=-1)"), "value",
        files=RFILES),
    err("bleu-order-zero", bleu_cli("-m", "BLEU(order=0)"), "order", files=RFILES),
    err("bleu-not-a-bleu-measure", bleu_cli("-m", "ROUGE-1"), "not a BLEU measure",
        "irscale text rouge", files=RFILES),
    err("bleu-corpus-per-query", bleu_cli("--corpus", "-q"), "-q/--per-query",
        "--corpus", files=RFILES),
    err("bleu-corpus-no-summary", bleu_cli("--corpus", "-n"), "-n/--no-summary",
        "summary lines", files=RFILES),
    # --allow-empty was ignored with --corpus (a run without a topic's text is refused)
    err("bleu-corpus-allow-empty", bleu_cli("--corpus", "--allow-empty"), "--allow-empty",
        "applies only without --corpus", files=RFILES),
    err("bleu-output-exists", bleu_cli("-o", "cands.tsv"), "cands.tsv", files=RFILES),
]


@pytest.mark.parametrize("case", BLEU_CASES)
def test_bleu(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- pyramid
PYRAMID = ["1\ts1\tA,B,C", "1\ts2\tA,B", "1\ts3\tC", "1\tnew\t-", "2\tt1\tA,B"]
PEER_SCUS = ["1\tsysA\ts2", "1\tsysA\tnew", "2\tsysA\tt1", "1\tsysB\t-"]
PFILES = {"pyr.tsv": text(PYRAMID), "peers.tsv": text(PEER_SCUS)}


def pyramid_cli(*extra: str, peers: str = "peers.tsv", pyramid: str = "pyr.tsv"
                ) -> list[str]:
    return ["text", "pyramid", pyramid, peers, *extra]


PYRAMID_CASES = [
    # sysA topic 1: D = 2 of Max(2) = 3 + 2; X̄ = 6 / 3 = 2: the same; topic 2: 2 / 2
    ok("pyramid-default", pyramid_cli("-q"),
       values_are("pyramid", {"1": "0.4000", "2": "1.0000", "all": "0.7000"}),
       files=PFILES),
    ok("pyramid-csv", pyramid_cli("-m", "pyramid_modified", "--format", "csv"),
       output_contains("sysA,all,pyramid_modified", "sysB,all,pyramid_modified"),
       files=PFILES),
    ok("pyramid-two-peer-files", ["text", "pyramid", "pyr.tsv", "a.tsv", "b.tsv"],
       same_output_as(*pyramid_cli()),
       files={**PFILES, "a.tsv": text(PEER_SCUS[:2]), "b.tsv": text(PEER_SCUS[2:])}),
    err("pyramid-two-fields", pyramid_cli(pyramid="bad.tsv"), "bad.tsv", "line 2",
        "3 tab-separated fields", files={**PFILES, "bad.tsv": with_line(PYRAMID, 2,
                                                                        "1\ts2")}),
    err("pyramid-scu-twice", pyramid_cli(pyramid="bad.tsv"), "bad.tsv", "line 3",
        "given twice", files={**PFILES, "bad.tsv": with_line(PYRAMID, 3, "1\ts1\tC")}),
    err("pyramid-contributor-twice", pyramid_cli(pyramid="bad.tsv"), "bad.tsv", "line 1",
        "'A' given twice", files={**PFILES, "bad.tsv": with_line(PYRAMID, 1,
                                                                "1\ts1\tA,B,A")}),
    err("pyramid-weights-and-lists", pyramid_cli(pyramid="bad.tsv"), "bad.tsv", "line 3",
        "one form per topic", files={**PFILES, "bad.tsv": with_line(PYRAMID, 3,
                                                                    "1\ts3\t1")}),
    err("pyramid-blank-in-id", pyramid_cli(pyramid="bad.tsv"), "bad.tsv", "line 1",
        "blank", files={**PFILES, "bad.tsv": with_line(PYRAMID, 1, "1\ts 1\tA")}),
    err("pyramid-empty-file", pyramid_cli(pyramid="empty.tsv"), "empty.tsv", "empty",
        files={**PFILES, "empty.tsv": b""}),
    err("pyramid-modified-from-weights", pyramid_cli(pyramid="w.tsv"), "pyramid_modified",
        "contributor lists",
        files={**PFILES, "w.tsv": text(["1\ts2\t2", "1\tnew\t-", "2\tt1\t2"])}),
    err("pyramid-peer-unknown-scu", pyramid_cli(peers="bad.tsv"), "bad.tsv", "line 3",
        "'t9'", "pyramid of topic '2'",
        files={**PFILES, "bad.tsv": with_line(PEER_SCUS, 3, "2\tsysA\tt9")}),
    err("pyramid-peer-scu-twice", pyramid_cli(peers="bad.tsv"), "bad.tsv", "line 2",
        "given twice", files={**PFILES, "bad.tsv": with_line(PEER_SCUS, 2,
                                                            "1\tsysA\ts2")}),
    err("pyramid-peer-none-and-scus", pyramid_cli(peers="bad.tsv"), "bad.tsv", "line 4",
        "no SCU", files={**PFILES, "bad.tsv": text([*PEER_SCUS, "1\tsysB\ts1"])}),
    err("pyramid-peer-in-two-files", ["text", "pyramid", "pyr.tsv", "peers.tsv",
                                      "b.tsv"], "b.tsv", "line 1", "peers.tsv too",
        files={**PFILES, "b.tsv": text(["1\tsysA\ts1"])}),
    err("pyramid-no-topic-in-common", pyramid_cli(peers="other.tsv"), "no topic in common",
        files={**PFILES, "other.tsv": text(["9\tsysA\ts1"])}),
    err("pyramid-unknown-measure", pyramid_cli("-m", "pyramid_score"),
        "unknown pyramid measure", "pyramid_modified", files=PFILES),
    err("pyramid-measure-with-parameter", pyramid_cli("-m", "pyramid(x=1)"), "'x'",
        files=PFILES),
    err("pyramid-output-exists", pyramid_cli("-o", "peers.tsv"), "peers.tsv", files=PFILES),
]


@pytest.mark.parametrize("case", PYRAMID_CASES)
def test_pyramid(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ----------------------------------------------------------------------------- Python API
@pytest.mark.parametrize("call", [
    lambda: evaluate_rouge("q1\tr1\tthe cat\n", b"q1\tA\tthe cat\n"),
    lambda: evaluate_rouge(b"q1\tr1\tthe cat\n", "q1\tA\tthe cat"),
    lambda: evaluate_nuggets("q1 n1 1 vital cat\n", b"q1 A n1 3\n", lengths=b"q1 A 6\n"),
    lambda: evaluate_sessions("qrels.txt", "1 1 d1 1 1.0 sysA\n"),
], ids=["rouge-references", "rouge-candidates", "nuggets", "sessions"])
def test_text_given_as_a_str_is_no_file_name(call, ws):
    """A str holding a line break or a tab names no file: the error says so, shows it
    escaped (no raw control character) and says how data in memory are given."""
    with pytest.raises(InputError) as info:
        call()
    message = str(info.value)
    assert "no file is named" in message and "bytes" in message, message
    assert message.isprintable(), message


@pytest.mark.parametrize("call", [
    lambda v: evaluate_rouge(RFILES["refs.tsv"], RFILES["cands.tsv"], allow_empty=v),
    lambda v: evaluate_nuggets(assignments=ASSIGNMENT_FILES["sysB.jsonl"], allow_empty=v),
    lambda v: evaluate_assignments(ASSIGNMENT_FILES["sysB.jsonl"], allow_empty=v),
    lambda v: evaluate_citations(CITATION_FILES["sysB.jsonl"], allow_empty=v),
    lambda v: evaluate_sessions("qrels.txt", FILES["s.run"], allow_empty=v),
], ids=["rouge", "nuggets", "assignments", "citations", "sessions"])
@pytest.mark.parametrize("value", ["yes", float("nan"), None])
def test_allow_empty_is_a_switch(call, value, ws):
    """``allow_empty`` is True or False, as ``--allow-empty`` is given or not: any other
    value (``"yes"``, NaN, None; each read as a truth value before) is refused, naming it."""
    with pytest.raises(ParameterError, match="allow_empty must be True or False"):
        call(value)
