"""``irscale eval`` with diversity qrels and measures: faulty diversity qrels,
runs ndeval cannot rank, and bad measure names. Table-driven: every row is one call checked
against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case, run_lines, text

QRELS = [f"{t} {s} d{d} {(t + s + d) % 3}" for t in range(1, 7) for s in (1, 2, 3)
         for d in range(1, 7)]
RUN = run_lines("a")


def div(name: str, *extra: str) -> list[str]:
    return ["eval", "-m", "ndeval", "--format", "ndeval", name, "a.run", *extra]


def with_line(number: int, new: str) -> bytes:
    lines = list(QRELS)
    lines[number - 1] = new
    return text(lines)


FILES = {"div.qrels": text(QRELS)}
PROBS = b"1 1 0.5\n1 2 0.25\n1 3 0.25\n"
#: Document lengths (characters) for D-U / U-IA: every document of the runs, topic *.
LENS = text([f"* 0 {d} {100 * (k + 1)}" for k, d in enumerate(
    sorted({line.split()[2] for which in "abc" for line in run_lines(which)}))])


def ntcir(measures: str, *extra: str) -> list[str]:
    return ["eval", "-q", "-m", measures, "div.qrels", "a.run", *extra]

BASE = div("div.qrels")

FOREIGN = {"div.qrels": text([f"9{line}" for line in QRELS])}  # topics 91..96

CASES = [
    ok("diversity-ndeval-csv", BASE, output_contains("runid,topic,ERR-IA@5", ",amean,"),
       files=FILES),
    # a run with no topic of the qrels: refused (another collection?) unless --allow-empty
    err("diversity-run-no-common-topic", BASE, "'a'", "no topic in common", "--allow-empty",
        files=FOREIGN),
    ok("diversity-run-no-common-topic-allowed", [*BASE, "--allow-empty"],
       output_contains("teamA_r1,1,0.000000"), files=FOREIGN),
    err("diversity-compare-no-common-topic",
        ["compare", "div.qrels", "a.run", "b.run", "-m", "alpha-nDCG@5"], "no topic in common",
        files=FOREIGN),
    # diversity qrels given to a plain evaluation: the duplicate says what the file is
    err("diversity-qrels-read-as-plain", ["eval", "div.qrels", "a.run"], "div.qrels",
        "line 7", "duplicate document 'd1'", "--qrels-format diversity", "ndeval",
        files=FILES),
    ok("diversity-qrels-format-option", ["eval", "--qrels-format", "diversity", "-m",
                                         "alpha-nDCG@10", "div.qrels", "a.run"],
       output_contains("alpha-nDCG@10"), files=FILES),
    # ---- --format ndeval reads topic ids as ndeval does: 07 and wt09-7 are topic 7
    ok("diversity-ndeval-topic-prefix", div("div.qrels"), output_contains("teamP,1,", "teamP,2,"),
       files={**FILES, "a.run": b"wt09-1 Q0 d1 1 2 teamP\n02 Q0 d2 1 1 teamP\n"}),
    err("diversity-ndeval-run-topic-not-number", BASE, "a.run", "line 2", "'x Q0 d2 1 1 r'",
        "as ndeval reads it", files={**FILES, "a.run": b"1 Q0 d1 1 2 r\nx Q0 d2 1 1 r\n"}),
    err("diversity-ndeval-qrels-topic-not-number", div("bad.qrels"), "bad.qrels", "line 5",
        "'t1 1 d5 1'", "as ndeval reads it", files={"bad.qrels": with_line(5, "t1 1 d5 1")}),
    err("diversity-ndeval-qrels-subtopic-not-number", div("bad.qrels"), "bad.qrels", "line 2",
        "subtopic", files={"bad.qrels": with_line(2, "1 a d2 1")}),
    err("diversity-ndeval-run-merged-topics-duplicate", BASE, "a.run", "duplicate docno",
        files={**FILES, "a.run": b"1 Q0 d1 1 2 r\nwt09-1 Q0 d1 2 1 r\n"}),
    # ---- malformed diversity qrels: the error names the file, the line and its text
    err("diversity-qrels-three-fields", div("bad.qrels"), "bad.qrels", "line 3", "1 1 d3",
        files={"bad.qrels": with_line(3, "1 1 d3")}),
    err("diversity-qrels-five-fields", div("bad.qrels"), "bad.qrels", "line 4",
        "1 1 d4 1 9", files={"bad.qrels": with_line(4, "1 1 d4 1 9")}),
    err("diversity-qrels-judgment-not-integer", div("bad.qrels"), "bad.qrels", "line 2",
        "judgment", files={"bad.qrels": with_line(2, "1 1 d2 rel")}),
    err("diversity-qrels-judgment-float", div("bad.qrels"), "bad.qrels", "line 5", "0.5",
        files={"bad.qrels": with_line(5, "1 1 d5 0.5")}),
    err("diversity-qrels-duplicate", div("bad.qrels"), "bad.qrels", "line 2", "twice",
        files={"bad.qrels": with_line(2, "1 1 d1 1")}),
    err("diversity-qrels-empty", div("empty.qrels"), "empty.qrels", "empty",
        files={"empty.qrels": b""}),
    err("diversity-qrels-blank-lines-only", div("empty.qrels"), "empty.qrels", "empty",
        files={"empty.qrels": b"\n\n  \n"}),
    err("diversity-qrels-is-a-run", div("a.run"), "a.run", "line 1", "expected 4 fields"),
    # ---- runs
    err("diversity-run-duplicate-rank", ["eval", "-m", "ndeval", "div.qrels", "dup.run"],
        "dup.run", "duplicate rank",
        files={**FILES, "dup.run": text([RUN[0], " ".join(
            [*RUN[1].split()[:3], "1", *RUN[1].split()[4:]]), *RUN[2:]])}),
    ok("diversity-run-duplicate-rank-traditional",
       ["eval", "-m", "ndeval(traditional=1)", "div.qrels", "dup.run"],
       files={**FILES, "dup.run": text([RUN[0], " ".join(
           [*RUN[1].split()[:3], "1", *RUN[1].split()[4:]]), *RUN[2:]])}),
    # ---- measure names and parameters
    err("diversity-unknown-param", div("div.qrels", "-m", "alpha-nDCG(gamma=1)@5"),
        "gamma"),
    err("diversity-alpha-out-of-range", ["eval", "-m", "alpha-nDCG(alpha=1.5)@5",
                                         "div.qrels", "a.run"], "alpha", "1.5",
        files=FILES),
    err("diversity-beta-not-number", ["eval", "-m", "NRBP(beta=x)", "div.qrels", "a.run"],
        "beta", files=FILES),
    err("diversity-missing-cutoff", ["eval", "-m", "alpha-nDCG", "div.qrels", "a.run"],
        "alpha-nDCG@k", files=FILES),
    err("diversity-cutoff-on-nrbp", ["eval", "-m", "NRBP@10", "div.qrels", "a.run"],
        "cut-off", files=FILES),
    err("diversity-bad-cutoff", ["eval", "-m", "P-IA@0", "div.qrels", "a.run"], "P-IA",
        files=FILES),
    err("diversity-ndeval-bad-traditional", ["eval", "-m", "ndeval(traditional=2)",
                                             "div.qrels", "a.run"], "traditional",
        files=FILES),
    err("diversity-ndeval-unknown-param", ["eval", "-m", "ndeval(depth=3)", "div.qrels",
                                           "a.run"], "depth", files=FILES),
    err("diversity-mixed-measures", ["eval", "-m", "ndeval", "-m", "map", "div.qrels",
                                     "a.run"], "map", files=FILES),
    err("diversity-mixed-one-wording", ["eval", "-m", "ndeval", "-m", "map", "div.qrels",
                                        "a.run"], "evaluate them in a call of their own",
        files=FILES),
    err("diversity-format-ndeval-without-diversity", ["eval", "-m", "map", "--format",
                                                      "ndeval", "qrels.txt", "a.run"],
        "ndeval"),
    err("diversity-option-not-applicable", [*BASE, "-J"], "-J", files=FILES),
    # trec_eval's options given are refused, also with their default values (never ignored)
    err("diversity-level-default-refused", [*BASE, "-l", "1"], "-l", "diversity",
        files=FILES),
    err("diversity-ties-default-refused", [*BASE, "--ties", "trec_eval"], "--ties",
        "diversity", files=FILES),
    err("diversity-format-json", ["eval", "-m", "ndeval", "--format", "json", "div.qrels",
                                  "a.run"], "json", files=FILES),
    # ---- NTCIREVAL's family: intent probabilities and intent types
    ok("diversity-ntcir-measures", ntcir("I-rec@10 D#-nDCG@10 P+Q# ntcir:D-Q@0010"),
       output_contains("D#-nDCG@10", "ntcir:D-Q@0010"), files=FILES),
    ok("diversity-ntcir-probs-and-types",
       ntcir("DIN#-nDCG@10", "--intent-probs", "p.txt", "--intent-types", "t.txt"),
       output_contains("DIN#-nDCG@10"), files={**FILES, "p.txt": PROBS, "t.txt": b"1 2 nav\n"}),
    err("diversity-probs-missing-file", ntcir("D-nDCG@10", "--intent-probs", "none.txt"),
        "none.txt", files=FILES),
    err("diversity-probs-two-fields", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "line 2", "1 2", files={**FILES, "p.txt": b"1 1 0.5\n1 2\n1 3 0.5\n"}),
    err("diversity-probs-not-number", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "line 1", "x", files={**FILES, "p.txt": b"1 1 x\n"}),
    err("diversity-probs-above-one", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "line 1", "1.5", files={**FILES, "p.txt": b"1 1 1.5\n"}),
    err("diversity-probs-sum", ntcir("D-nDCG@10", "--intent-probs", "p.txt"), "p.txt",
        "sum to 0.9", files={**FILES, "p.txt": b"1 1 0.3\n1 2 0.3\n1 3 0.3\n"}),
    err("diversity-probs-unknown-topic", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "line 4", "topic 99", files={**FILES, "p.txt": PROBS + b"99 1 1\n"}),
    err("diversity-probs-unknown-intent", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "intent 9", files={**FILES, "p.txt": b"1 1 0.5\n1 9 0.5\n"}),
    err("diversity-probs-intent-left-out", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "intent 3", files={**FILES, "p.txt": b"1 1 0.5\n1 2 0.5\n"}),
    err("diversity-probs-duplicate", ntcir("D-nDCG@10", "--intent-probs", "p.txt"),
        "p.txt", "line 2", "twice", files={**FILES, "p.txt": b"1 1 0.5\n1 1 0.5\n"}),
    err("diversity-types-bad-value", ntcir("DIN-nDCG@10", "--intent-types", "t.txt"),
        "t.txt", "line 1", "inf or nav", files={**FILES, "t.txt": b"1 1 navigational\n"}),
    err("diversity-types-unknown-topic", ntcir("DIN-nDCG@10", "--intent-types", "t.txt"),
        "t.txt", "topic 77", files={**FILES, "t.txt": b"77 1 nav\n"}),
    err("diversity-probs-without-diversity", ["eval", "-m", "map", "--intent-probs",
                                              "p.txt", "qrels.txt", "a.run"],
        "--intent-probs", files={"p.txt": PROBS}),
    err("diversity-gamma-out-of-range", ntcir("D#-nDCG(gamma=1.5)@10"), "gamma",
        files=FILES),
    err("diversity-gain-list-too-short", ntcir("D-nDCG(gain=1)@10"), "gain",
        files=FILES),
    # ---- gold-standard precisions PMP@l and EP@l
    ok("diversity-gold-precisions",
       ntcir("PMP@10 EP@10", "--intent-probs", "p.txt", "--intent-types", "t.txt"),
       output_contains("PMP@10", "EP@10"), files={**FILES, "p.txt": PROBS, "t.txt": b"1 2 nav\n"}),
    err("diversity-pmp-missing-cutoff", ntcir("PMP"), "PMP@k", files=FILES),
    err("diversity-ep-bad-cutoff", ntcir("EP@0"), "EP", files=FILES),
    err("diversity-ep-cutoff-not-number", ntcir("EP@x"), "EP@x", files=FILES),
    err("diversity-pmp-unknown-param", ntcir("PMP(alpha=0.5)@10"), "PMP", "alpha",
        files=FILES),
    err("diversity-effp-unknown-name", ntcir("EffP@10"), "EffP", files=FILES),
    # ---- IA(<measure>), D-U, U-IA names
    ok("diversity-ia-measures", ntcir("IA(nDCG@10) IA(AP) D-U U-IA(F=0.3)", "--labels",
                                      "doclen=len.txt"),
       output_contains("IA(nDCG@10)", "D-U", "U-IA(F=0.3)"), files={**FILES, "len.txt": LENS}),
    err("diversity-ia-unknown-inner", ntcir("IA(nDGC@10)"), "IA(nDGC@10)", "nDGC",
        files=FILES),
    err("diversity-ia-num-q", ntcir("IA(num_q)"), "IA(num_q)", "count", files=FILES),
    err("diversity-ia-gm-map", ntcir("IA(gm_map)"), "geometric mean", files=FILES),
    err("diversity-ia-empty", ntcir("IA()"), "IA(<measure>)", files=FILES),
    err("diversity-ia-blank", ntcir("IA( )"), "IA(", files=FILES),  # -m splits at blanks
    err("diversity-ia-two-columns", ntcir("IA(P.5,10)"), "one measure", files=FILES),
    err("diversity-ia-bad-inner-parameter", ntcir("IA(RBP(p=2))"), "IA(RBP(p=2))", "p",
        files=FILES),
    err("diversity-ia-bad-inner-cutoff", ntcir("IA(nDCG@x)"), "nDCG", files=FILES),
    err("diversity-ia-nested-diversity", ntcir("IA(alpha-nDCG@10)"), "alpha-nDCG",
        files=FILES),
    err("diversity-du-unknown-parameter", ntcir("D-U(X=1)"), "D-U", "X", files=FILES),
    err("diversity-du-bad-parameter", ntcir("U-IA(F=2)"), "U-IA", "F", files=FILES),
    err("diversity-du-without-lengths", ntcir("D-U"), "doclen", files=FILES),
    err("diversity-ia-probs-bad", ntcir("IA(AP)", "--intent-probs", "p.txt"), "p.txt",
        "sum to 0.9", files={**FILES, "p.txt": b"1 1 0.3\n1 2 0.3\n1 3 0.3\n"}),
    # ---- label sets (--labels NAME=FILE) for the measures that read them
    ok("diversity-labels-named-set", ntcir("D-U(lengths=len)", "--labels", "len=len.txt"),
       output_contains("D-U(lengths=len)"), files={**FILES, "len.txt": LENS}),
    err("diversity-labels-not-read", [*BASE, "--labels", "doclen=len.txt"], "doclen",
        "read by no measure", files={**FILES, "len.txt": LENS}),
    err("diversity-labels-not-read-by-ia", ntcir("IA(AP)", "--labels", "doclen=len.txt"),
        "doclen", "read by no measure", files={**FILES, "len.txt": LENS}),
    # options that need no input are refused before any input is read (a bad run too)
    err("diversity-labels-not-read-before-the-runs", [*BASE, "--labels", "doclen=len.txt"],
        "doclen", "read by no measure",
        files={**FILES, "len.txt": LENS, "a.run": b"1 Q0 d1\n"}),
    err("diversity-topic-alpha-not-read-before-the-runs",
        ntcir("alpha-nDCG@10", "--topic-alpha", "al.txt"), "per-topic alphas",
        "no requested measure reads them",
        files={**FILES, "al.txt": b"1 0.3\n", "a.run": b"1 Q0 d1\n"}),
    err("diversity-labels-other-name", ntcir("D-U", "--labels", "len=len.txt"), "len",
        files={**FILES, "len.txt": LENS}),
    err("diversity-labels-missing-file", ntcir("D-U", "--labels", "doclen=none.txt"),
        "none.txt", files=FILES),
    err("diversity-labels-malformed", ntcir("D-U", "--labels", "doclen=len.txt"), "len.txt",
        "line 2", files={**FILES, "len.txt": b"* 0 d1 100\n* 0 d2\n"}),
    err("diversity-labels-no-name", ntcir("D-U", "--labels", "len.txt"), "NAME=FILE",
        files={**FILES, "len.txt": LENS}),
    # ---- ndeval -baseline B -riskAlpha A
    ok("diversity-risk", [*BASE, "--baseline", "b.run", "--risk-alpha", "1"],
       output_contains("(rel to. ", "; rs=1+a; a=1),amean,"), files=FILES),
    ok("diversity-risk-default-alpha", [*BASE, "--baseline", "b.run"],
       output_contains("; rs=1+a; a=0),"), files=FILES),
    ok("diversity-risk-alpha-as-typed", [*BASE, "--baseline", "b.run", "--risk-alpha",
                                         "2.50", "-c"],
       output_contains("; rs=1+a; a=2.50),"), files=FILES),
    err("diversity-risk-baseline-missing", [*BASE, "--baseline", "none.run"], "none.run",
        files=FILES),
    err("diversity-risk-baseline-malformed", [*BASE, "--baseline", "bad.run"], "bad.run",
        "line 2", files={**FILES, "bad.run": b"1 Q0 d1 1 2 x\n1 Q0 d2\n"}),
    err("diversity-risk-baseline-empty", [*BASE, "--baseline", "empty.run"], "empty.run",
        files={**FILES, "empty.run": b""}),
    err("diversity-risk-baseline-duplicate-rank", [*BASE, "--baseline", "dup.run"],
        "dup.run", "duplicate rank",
        files={**FILES, "dup.run": b"1 Q0 d1 1 2 x\n1 Q0 d2 1 1 x\n"}),
    err("diversity-risk-alpha-negative", [*BASE, "--baseline", "b.run", "--risk-alpha",
                                          "-1"], "--risk-alpha", files=FILES),
    err("diversity-risk-alpha-nan", [*BASE, "--baseline", "b.run", "--risk-alpha", "nan"],
        "--risk-alpha", files=FILES),
    err("diversity-risk-alpha-inf", [*BASE, "--baseline", "b.run", "--risk-alpha", "inf"],
        "--risk-alpha", files=FILES),
    err("diversity-risk-alpha-text", [*BASE, "--baseline", "b.run", "--risk-alpha", "1x"],
        "--risk-alpha", "1x", files=FILES),
    err("diversity-risk-alpha-without-baseline", [*BASE, "--risk-alpha", "1"], "--baseline",
        files=FILES),
    err("diversity-risk-baseline-other-format", ntcir("alpha-nDCG@10", "--baseline",
                                                      "b.run"), "--format ndeval",
        files=FILES),
    err("diversity-risk-with-test", [*BASE, "--baseline", "b.run", "--test", "t"], "--test",
        files=FILES),
    # ---- condensed lists; intent probabilities in alpha-nDCG-w / nERR-IA-w
    ok("diversity-condensed", ntcir("alpha-nDCG(condensed=1)@10"),
       output_contains("alpha-nDCG(condensed=1)@10\tall"), files=FILES),
    err("diversity-condensed-bad-value", ntcir("alpha-nDCG(condensed=2)@10"), "condensed",
        "1 or 0", files=FILES),
    err("diversity-condensed-ndeval-format", ["eval", "-m", "alpha-nDCG(condensed=1)@10",
                                              "--format", "ndeval", "div.qrels", "a.run"],
        "--format trec", files=FILES),
    err("diversity-topic-alpha-bad-value", ntcir("alpha-nDCG-w(topic_alpha=maybe)@10"),
        "topic_alpha",
        files=FILES),
    err("diversity-weighted-bad-probabilities", ntcir("alpha-nDCG-w@10", "--intent-probs",
                                          "p.txt"), "p.txt", "line 1",
        files={**FILES, "p.txt": b"1 1 half\n"}),
    # ---- --topic-alpha FILE: one α per topic for alpha-nDCG-w(topic_alpha=1)@k
    ok("diversity-topic-alpha", ntcir("alpha-nDCG-w(topic_alpha=1)@10", "--topic-alpha",
                                      "al.txt"),
       output_contains("alpha-nDCG-w(topic_alpha=1)@10\tall"),
       files={**FILES, "al.txt": b"1 0.3\n2 0.9\n"}),
    err("diversity-topic-alpha-missing-file", ntcir("alpha-nDCG-w(topic_alpha=1)@10",
                                                    "--topic-alpha", "none.txt"),
        "none.txt", files=FILES),
    err("diversity-topic-alpha-bad-line", ntcir("alpha-nDCG-w(topic_alpha=1)@10",
                                                "--topic-alpha", "al.txt"),
        "al.txt", "line 2", "not a number", files={**FILES, "al.txt": b"1 0.3\n2 high\n"}),
    err("diversity-topic-alpha-out-of-range", ntcir("alpha-nDCG-w(topic_alpha=1)@10",
                                                    "--topic-alpha", "al.txt"),
        "al.txt", "line 1", "[0, 1]", files={**FILES, "al.txt": b"1 1.5\n"}),
    err("diversity-topic-alpha-twice", ntcir("alpha-nDCG-w(topic_alpha=1)@10",
                                             "--topic-alpha", "al.txt"),
        "al.txt", "line 2", "twice", files={**FILES, "al.txt": b"1 0.3\n1 0.4\n"}),
    err("diversity-topic-alpha-unknown-topic", ntcir("alpha-nDCG-w(topic_alpha=1)@10",
                                                     "--topic-alpha", "al.txt"),
        "al.txt", "topic 99", files={**FILES, "al.txt": b"99 0.3\n"}),
    err("diversity-topic-alpha-unread", ntcir("alpha-nDCG@10", "--topic-alpha", "al.txt"),
        "no requested measure", files={**FILES, "al.txt": b"1 0.3\n"}),
    err("diversity-topic-alpha-not-given", ntcir("alpha-nDCG-w(topic_alpha=1)@10"),
        "--topic-alpha FILE", files=FILES),
    err("topic-alpha-without-diversity", ["eval", "-m", "map", "--topic-alpha", "al.txt",
                                          "qrels.txt", "a.run"], "--topic-alpha",
        files={"al.txt": b"1 0.3\n"}),
    err("risk-alpha-without-diversity", ["eval", "-m", "map", "--risk-alpha", "1",
                                         "qrels.txt", "a.run"], "--risk-alpha"),
]


@pytest.mark.parametrize("case", CASES)
def test_diversity(case, ws, run_cli):
    run_case(case, ws, run_cli)
