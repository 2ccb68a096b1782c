"""``irscale meta judge-noise``: faulty confusion files, grades the confusion lacks,
mismatched double-judged qrels, labels auto's human samples that give no confusion or one
of other grades, the confusion given twice or not at all, and outputs onto inputs."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, qrels_lines, run_case, text

#: A confusion of the grades 0, 1 and 2 of the collection's qrels (rows sum to 1).
CONFUSION = "0 0 0.9\n0 1 0.1\n1 0 0.2\n1 1 0.7\n1 2 0.1\n2 1 0.3\n2 2 0.7\n"
#: The collection's qrels judged again: every fourth grade moved.
SECOND = text([" ".join([*f[:3], str((int(f[3]) + 1) % 3)]) if i % 4 == 0 else line
               for i, (line, f) in enumerate((line, line.split()) for line in qrels_lines())])
BINARY = text([" ".join([*line.split()[:3], str(min(int(line.split()[3]), 1))])
               for line in qrels_lines()])
#: A human sample of topics 1-3 (irscale labels auto's HUMAN; its AUTO: second.txt).
HUMAN = text([line for line in qrels_lines() if line.split()[0] in ("1", "2", "3")])
FILES = {"conf.txt": CONFUSION, "second.txt": SECOND, "binary.txt": BINARY,
         "human.txt": HUMAN}

BASE = ["meta", "judge-noise", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
        "--replicates", "5", "--seed", "1"]


def with_confusion(body: str, id: str, *needles):
    return err(id, [*BASE, "--confusion", "bad.txt"], "bad.txt", *needles,
               files={**FILES, "bad.txt": body})


CASES = [
    ok("judge-noise-confusion", [*BASE, "--confusion", "conf.txt"],
       output_contains("order_kept", "decision_kept", "mean_tau"), files=FILES),
    ok("judge-noise-flip-rate", [*BASE[:2], "binary.txt", *BASE[3:], "--flip-rate", "0.1",
                                 "--format", "csv"],
       output_contains("system_a,system_b"), files=FILES),
    ok("judge-noise-double-judged", [*BASE, "--double-judged", "qrels.txt,second.txt",
                                     "--summary", "--format", "json"],
       output_contains("pairs_flipping"), files=FILES),
    ok("judge-noise-holm", [*BASE, "--confusion", "conf.txt", "--correction", "holm"],
       output_contains("correction holm"), files=FILES),
    # ---------------------------------------------------------------- the confusion
    with_confusion("0 0 0.9\n0 1 0.2\n1 1 1\n2 2 1\n", "judge-noise-row-sum", "line 1",
                   "sums to 1.1"),
    with_confusion("0 0 1\n1 0 0.5 x\n", "judge-noise-line-shape", "line 2",
                   "true observed probability"),
    with_confusion("0 0 1\n1 1 1.5\n", "judge-noise-probability", "line 2", "[0, 1]"),
    with_confusion("0 0 1\n0 0 1\n", "judge-noise-pair-twice", "line 2", "twice"),
    with_confusion("# nothing\n", "judge-noise-empty", "no 'true observed probability'"),
    # a grade beyond 64-bit integers (an OverflowError, an internal error), one of 5,000
    # digits (Python's advice about sys.set_int_max_str_digits)
    with_confusion("0 0 1\n0 9223372036854775808 0\n", "judge-noise-grade-2-to-63", "line 2",
                   "9223372036854775808", "beyond 64-bit integers",
                   "'0 9223372036854775808 0'"),
    with_confusion("-9223372036854775809 0 1\n", "judge-noise-grade-below-64-bits", "line 1",
                   "beyond 64-bit integers"),
    with_confusion(f"0 0 1\n{'1' * 5000} 1 1\n", "judge-noise-grade-of-5000-digits",
                   "line 2", "beyond 64-bit integers"),
    # qrels read by the Python readers: a grade of 5,000 digits named as too large (the
    # diagnosis converted it: Python's ValueError, an internal error)
    err("judge-noise-qrels-grade-of-5000-digits", [*BASE[:2], "big.qrels", *BASE[3:],
                                                   "--confusion", "conf.txt"],
        "big.qrels", "line 2", "too large",
        files={**FILES, "big.qrels": f"1 0 d1 1\n1 0 d2 {'1' * 5000}\n"}),
    with_confusion("0 0 0.5\n0 3 0.5\n1 1 1\n2 2 1\n", "judge-noise-observed-only",
                   "grade 3", "no row"),
    err("judge-noise-grade-missing", [*BASE, "--flip-rate", "0.1"], "qrels.txt", "grade 2",
        "not a grade of the confusion", "a flip rate is for binary qrels"),
    with_confusion("0 0 1\n1 1 1\n", "judge-noise-grade-missing-file", ("qrels.txt",),
                   "grade 2"),
    # ---------------------------------------------------------------- double judged
    err("judge-noise-double-mismatch", [*BASE, "--double-judged", "qrels.txt,part.txt"],
        "part.txt", "lacks", files={**FILES, "part.txt": text(qrels_lines()[1:])}),
    err("judge-noise-double-one", [*BASE, "--double-judged", "qrels.txt"], "two qrels files",
        files=FILES),
    # ---------------------------------------------------------------- labels auto's sample
    ok("judge-noise-auto-sample", [*BASE, "--auto-sample", "second.txt,human.txt"],
       output_contains("estimated from human.txt and second.txt"), files=FILES),
    err("judge-noise-auto-sample-one", [*BASE, "--auto-sample", "human.txt"],
        "two qrels files", "AUTO,HUMAN", files=FILES),
    err("judge-noise-auto-sample-disjoint", [*BASE, "--auto-sample", "other.txt,human.txt"],
        "human.txt", "other.txt", "share no (topic, document) pair",
        files={**FILES, "other.txt": "9 0 x1 1\n9 0 x2 0\n"}),
    err("judge-noise-auto-sample-unjudged", [*BASE, "--auto-sample", "second.txt,unjudged.txt"],
        "unjudged.txt", "share no judged document",
        files={**FILES, "unjudged.txt": text([" ".join([*line.split()[:3], "-1"])
                                              for line in qrels_lines()[:5]])}),
    err("judge-noise-auto-sample-grades", [*BASE, "--auto-sample", "bauto.txt,bhuman.txt"],
        "qrels.txt", "grade 2", "not a grade of the confusion",
        files={**FILES, "bauto.txt": BINARY, "bhuman.txt": BINARY}),
    err("judge-noise-auto-sample-missing", [*BASE, "--auto-sample", "second.txt,nope.txt"],
        "nope.txt", files=FILES),
    err("judge-noise-output-auto-sample", [*BASE, "--auto-sample", "second.txt,human.txt",
                                           "-o", "human.txt"], "human.txt", "input",
        files=FILES),
    # ---------------------------------------------------------------- the options
    err("judge-noise-no-confusion", BASE, "--confusion", "--flip-rate", "--double-judged"),
    err("judge-noise-two-confusions", [*BASE, "--confusion", "conf.txt", "--flip-rate", "0.1"],
        "one of", "given: --confusion, --flip-rate", files=FILES),
    err("judge-noise-no-measure", [*BASE[:6], "--confusion", "conf.txt"], "-m", files=FILES),
    err("judge-noise-string-measure", [*BASE[:6], "-m", "relstring", "--confusion",
                                       "conf.txt"], "relstring", "not numbers", files=FILES),
    err("judge-noise-shard-test", [*BASE, "--confusion", "conf.txt", "--test", "MD3"],
        "MD3", files=FILES),
    err("judge-noise-correction-of-an-anova", [*BASE, "--confusion", "conf.txt", "--test",
                                              "MD1", "--correction", "holm"],
        "--correction applies to a two-system test, not to --test MD1", files=FILES),
    err("judge-noise-relevance-level-0", [*BASE, "--confusion", "conf.txt", "-l", "0"],
        "relevance level", files=FILES),
    ok("judge-noise-relevance-level", [*BASE, "--confusion", "conf.txt", "-l", "2"],
       files=FILES),
    err("judge-noise-one-run", [*BASE[:3], "a.run", *BASE[6:], "--confusion", "conf.txt"],
        "run", files=FILES),
    # ---------------------------------------------------------------- outputs onto inputs
    err("judge-noise-output-confusion", [*BASE, "--confusion", "conf.txt", "-o", "conf.txt"],
        "conf.txt", "input", files=FILES),
    err("judge-noise-output-double", [*BASE, "--double-judged", "qrels.txt,second.txt", "-o",
                                      "second.txt"], "second.txt", "input", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_meta_judge_noise(case, ws, run_cli):
    run_case(case, ws, run_cli)
