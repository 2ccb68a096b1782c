"""``irscale fuse``: its options and its inputs.

Every faulty run file of the TREC catalogue given as the second of two runs; unknown
methods and normalisations, a normalisation with a rank method, ``--k`` other than rrf's,
weights other than wsum's or not one per run, ``--optimize`` without its qrels or with
given weights, the options of ``--optimize`` without it, a step that does not divide 1, a
single run; each method's own parameter missing, out of its domain or given to another
method; the supervised methods' training data missing, miscounted, unreadable, of other
topics, or given to another method; the output never an input, an existing file replaced
only with ``--force``, nothing written when a run is bad; and the fused run's lines (six
columns, the run tag, ranks from 1, ranx's RRF scores of the collection's runs).
"""

from __future__ import annotations

import pytest

from .catalog import trec_file_faults
from .conftest import err, ok, opt, run_case, run_lines, text

FUSE = ["fuse", "a.run", "b.run", "--method"]
RRF = [*FUSE, "rrf"]


def second(name: str) -> list[str]:
    """The command with ``name`` the second of two run files (the catalogue's valid file
    holds run a's lines)."""
    return ["fuse", "b.run", name, "--method", "combmnz"]


def rrf_lines(result, ws, run) -> None:
    """Six columns, the default run tag, ranks 1, 2, ... per topic, and topic 1's first
    document scored 1/(60+1) + 1/(60+r) as RRF adds the ranks of runs a and b."""
    lines = [line.split() for line in result.out.splitlines()]
    assert lines and all(len(fields) == 6 and fields[1] == "Q0" and fields[5] == "rrf"
                         for fields in lines), result.describe()
    topic1 = [fields for fields in lines if fields[0] == "1"]
    assert [int(fields[3]) for fields in topic1] == list(range(1, len(topic1) + 1))
    # topic 1: run a ranks d2 d3 d7 d5 d1, run b d5 d4 d3 d2 d6 (each shifted by one)
    scores = {fields[2]: float(fields[4]) for fields in topic1}
    assert scores["d5"] == pytest.approx(1 / 64 + 1 / 61), result.describe()
    assert scores["d3"] == pytest.approx(1 / 62 + 1 / 63), result.describe()
    assert topic1[0][2] == "d5", result.describe()


def tagged(tag: str):
    def check(result, ws, run) -> None:
        assert {line.split()[5] for line in result.out.splitlines()} == {tag}, \
            result.describe()

    return check


#: Rows of the run catalogue that speak of evaluations, not of fusion: scores shifted by a
#: constant evaluate the same (fused, they differ in the last bits, which reorders ties),
#: and a topic the qrels lack is warned of by an evaluation (a fusion has no qrels).
EVALUATION_ONLY = ("fuse-run-negative-scores", "fuse-run-extra-topic-warns")

CASES = [
    *(row for row in trec_file_faults("fuse-run", "run", second, second("a.run"),
                                      name="bad.run")
      if row.values[0].id not in EVALUATION_ONLY),
    # ---- the fused run
    ok("fuse-rrf-lines", RRF, rrf_lines),
    ok("fuse-run-tag", [*RRF, "--run-tag", "mix"], tagged("mix")),
    ok("fuse-ranx-method-name", [*FUSE, "mnz", "--norm", "min_max"], tagged("combmnz")),
    ok("fuse-three-runs-weights", ["fuse", "a.run", "b.run", "c.run", "--method", "wsum",
                                   "--weights", "0.2,0.3,0.5"], tagged("wsum")),
    ok("fuse-o-file", [*RRF, "-o", "out.run"], allowed_new=["out.run"]),
    ok("fuse-o-existing-force", [*RRF, "-o", "old.run", "--force"],
       files={"old.run": b"old\n"}, allowed_new=["old.run"]),
    ok("fuse-optimize", [*FUSE, "wsum", "--optimize", "--qrels", "qrels.txt", "--measure",
                         "P@5", "--step", "0.5", "--weights-out", "w.csv"],
       tagged("wsum"), allowed_new=["w.csv"]),
    # ---- methods, normalisations, parameters
    err("fuse-no-method", ["fuse", "a.run", "b.run"], opt("--method")),
    err("fuse-bad-method", [*FUSE, "combfoo"], opt("--method"), "combfoo"),
    err("fuse-bad-norm", [*FUSE, "combsum", "--norm", "minmax"], opt("--norm"), "minmax"),
    err("fuse-norm-with-rank-method", [*RRF, "--norm", "zmuv"], opt("--norm"), "rrf"),
    # a rank method takes no normalisation, not even none (the binding's rule: FUSE)
    err("fuse-norm-none-with-rank-method", [*RRF, "--norm", "none"], opt("--norm"),
        "applies to the score methods", "not to --method rrf"),
    err("fuse-k-not-rrf", [*FUSE, "combsum", "--k", "10"], opt("--k"), "combsum"),
    err("fuse-k-negative", [*RRF, "--k", "-1"], opt("--k")),
    err("fuse-weights-not-wsum", [*FUSE, "combsum", "--weights", "1,2"], opt("--weights"),
        "combsum"),
    err("fuse-weights-count-mismatch", [*FUSE, "wsum", "--weights", "1,2,3"],
        opt("--weights"), "3 weights", "2 runs"),
    err("fuse-weights-not-numbers", [*FUSE, "wsum", "--weights", "1,x"], opt("--weights"),
        "x"),
    err("fuse-weights-nan", [*FUSE, "wsum", "--weights", "1,nan"], opt("--weights")),
    # weights near the largest double: the fused scores would overflow to inf
    err("fuse-w-bordafuse-weights-overflow", [*FUSE, "w-bordafuse", "--weights",
                                              "1e308,1e308"], opt("--weights"), "overflow"),
    err("fuse-mixed-weights-overflow", [*FUSE, "mixed", "--weights", "1e308,1e308"],
        opt("--weights"), "overflow"),
    # unnormalised scores near the largest double: their sum would overflow to inf
    err("fuse-combsum-scores-overflow", ["fuse", "big_a.run", "big_b.run", "--method",
                                         "combsum", "--norm", "none"], "overflows",
        "document", "topic", "--norm",
        files={f"big_{w}.run": text([" ".join([*line.split()[:4], "1.7e308", line.split()[5]])
                                     for line in run_lines(w)]) for w in "ab"}),
    err("fuse-one-run", ["fuse", "a.run", "--method", "rrf"], "two runs"),
    # ---- the methods' own parameters
    ok("fuse-rbc", [*FUSE, "rbc", "--phi", "0.9"], tagged("rbc")),
    ok("fuse-logn-isr-default-sigma", [*FUSE, "logn_isr"], tagged("logn-isr")),
    ok("fuse-w-condorcet", [*FUSE, "w-condorcet", "--weights", "0.4,0.6"],
       tagged("w-condorcet")),
    err("fuse-rbc-no-phi", [*FUSE, "rbc"], "--method rbc needs --phi"),
    err("fuse-rbc-phi-1", [*FUSE, "rbc", "--phi", "1"], opt("--phi"), "(0, 1)"),
    err("fuse-rbc-phi-0", [*FUSE, "rbc", "--phi", "0"], opt("--phi"), "(0, 1)"),
    err("fuse-phi-not-rbc", [*RRF, "--phi", "0.5"], opt("--phi"), "applies to --method rbc",
        "not to --method rrf"),
    err("fuse-gmnz-no-gamma", [*FUSE, "gmnz"], "--method combgmnz needs --gamma"),
    err("fuse-gamma-negative", [*FUSE, "combgmnz", "--gamma", "-1"], opt("--gamma"),
        "[0, 10]"),
    # |R(d)|^gamma would overflow to infinity
    err("fuse-gamma-huge", [*FUSE, "combgmnz", "--gamma", "1e300"], opt("--gamma"),
        "[0, 10]"),
    err("fuse-sigma-above-1", [*FUSE, "logn-isr", "--sigma", "2"], opt("--sigma"), "[0, 1]"),
    err("fuse-sigma-not-logn-isr", [*FUSE, "log-isr", "--sigma", "0.1"], opt("--sigma"),
        "applies to --method logn-isr", "not to --method log-isr"),
    err("fuse-probfuse-no-segments", [*FUSE, "probfuse", "--train-qrels", "qrels.txt",
                                      "--train-runs", "a.run", "b.run"],
        "--method probfuse needs --segments"),
    err("fuse-segments-0", [*FUSE, "probfuse", "--segments", "0"], opt("--segments"),
        "[1, 100,000]"),
    err("fuse-window-negative", [*FUSE, "slidefuse", "--window", "-1"], opt("--window"),
        "[0, 100,000]"),
    err("fuse-weights-not-weighted-method", [*FUSE, "bordafuse", "--weights", "1,2"],
        opt("--weights"), "w-bordafuse", "not to --method bordafuse"),
    err("fuse-w-bordafuse-weights-count", [*FUSE, "w-bordafuse", "--weights", "1,2,3"],
        opt("--weights"), "3 weights", "2 runs"),
    # ---- the supervised methods' training data
    ok("fuse-posfuse-trained", [*FUSE, "posfuse", "--train-qrels", "qrels.txt",
                                "--train-runs", "a.run", "b.run"], tagged("posfuse")),
    err("fuse-supervised-no-train-qrels", [*FUSE, "posfuse", "--train-runs", "a.run",
                                           "b.run"], opt("--train-qrels"),
        "--method posfuse needs"),
    err("fuse-supervised-no-train-runs", [*FUSE, "mapfuse", "--train-qrels", "qrels.txt"],
        opt("--train-runs"), "--method mapfuse needs"),
    err("fuse-train-runs-count", [*FUSE, "bayesfuse", "--train-qrels", "qrels.txt",
                                  "--train-runs", "a.run"], opt("--train-runs"),
        "1 training runs", "2 runs"),
    err("fuse-train-qrels-not-supervised", [*RRF, "--train-qrels", "qrels.txt"],
        opt("--train-qrels"), "supervised", "rrf"),
    err("fuse-train-qrels-other-topics", [*FUSE, "segfuse", "--train-qrels", "other.qrels",
                                          "--train-runs", "a.run", "b.run"],
        "other.qrels", "no topic in common", files={"other.qrels": text(["x9 0 d1 1"])}),
    err("fuse-train-run-other-topics", [*FUSE, "posfuse", "--train-qrels", "qrels.txt",
                                        "--train-runs", "a.run", "other.run"],
        "training run", "no topic in common",
        files={"other.run": text(["x9 Q0 d1 1 0.9 x"])}),
    err("fuse-train-qrels-bad", [*FUSE, "posfuse", "--train-qrels", "bad.qrels",
                                 "--train-runs", "a.run", "b.run"], "bad.qrels", "line 2",
        files={"bad.qrels": text(["1 0 d1 1", "1 0 d2"])}),
    err("fuse-train-run-bad", [*FUSE, "posfuse", "--train-qrels", "qrels.txt",
                               "--train-runs", "a.run", "bad.run"], "bad.run", "line 2",
        files={"bad.run": text(["1 Q0 d1 1 0.9 x", "1 Q0 d2 2 x"])}),
    # ---- --optimize
    err("fuse-optimize-no-qrels", [*FUSE, "wsum", "--optimize"], "--qrels"),
    err("fuse-optimize-not-wsum", [*RRF, "--optimize", "--qrels", "qrels.txt"],
        "--optimize", "rrf"),
    err("fuse-optimize-and-weights", [*FUSE, "wsum", "--optimize", "--qrels", "qrels.txt",
                                      "--weights", "1,1"], "--weights", "--optimize"),
    err("fuse-qrels-without-optimize", [*RRF, "--qrels", "qrels.txt"], "--qrels",
        "--optimize"),
    err("fuse-measure-without-optimize", [*RRF, "--measure", "AP"], "--measure",
        "--optimize"),
    err("fuse-step-not-dividing-1", [*FUSE, "wsum", "--optimize", "--qrels", "qrels.txt",
                                     "--step", "0.3"], "step", "0.3"),
    err("fuse-step-0", [*FUSE, "wsum", "--optimize", "--qrels", "qrels.txt", "--step", "0"],
        opt("--step")),
    err("fuse-optimize-unknown-measure", [*FUSE, "wsum", "--optimize", "--qrels",
                                          "qrels.txt", "--measure", "nosuch"], "nosuch"),
    err("fuse-optimize-bad-qrels", [*FUSE, "wsum", "--optimize", "--qrels", "bad.qrels"],
        "bad.qrels", "line 2", files={"bad.qrels": text(["1 0 d1 1", "1 0 d2"])}),
    # ---- outputs
    err("fuse-o-is-input", [*RRF, "-o", "b.run", "--force"], "b.run", "input"),
    err("fuse-o-existing", [*RRF, "-o", "ap.csv"], "ap.csv", "--force"),
    err("fuse-o-missing-folder", [*RRF, "-o", "nodir/out.run"], "nodir"),
    err("fuse-weights-out-is-input", [*FUSE, "wsum", "--optimize", "--qrels", "qrels.txt",
                                      "--weights-out", "qrels.txt", "--force"], "qrels.txt"),
    err("fuse-bad-run-writes-nothing", ["fuse", "a.run", "bad.run", "--method", "rrf", "-o",
                                        "out.run"], "bad.run", "line 2",
        files={"bad.run": text(["1 Q0 d1 1 0.9 x", "1 Q0 d2 2 x"])}),
]


@pytest.mark.parametrize("case", CASES)
def test_fuse(case, ws, run_cli):
    run_case(case, ws, run_cli)
