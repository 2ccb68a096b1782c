"""``irscale labels aggregate | agree | agree-qrels | aware``: faulty crowd-label files
(file/line/text named), scales, methods, iterations, seeds, weightings, outputs that exist
or are inputs, labelled documents no run retrieves."""

from __future__ import annotations

import pytest

from .catalog import trec_file_faults
from .conftest import (
    TOPICS,
    all_checks,
    any_of,
    err,
    gz,
    ok,
    opt,
    output_contains,
    qrels_lines,
    replace_line,
    run_case,
    same_output_as,
    text,
    warns_of,
    with_option,
)

RUNS = ["a.run", "b.run", "c.run"]


def crowd_lines() -> list[str]:
    """Three workers label d1..d6 of every topic on 0/1/2: w1 as the qrels, w2 with one
    label changed per topic, w3 one grade up (mod 3) on every other document."""
    rel = {(t, d): int(r) for t, _, d, r in (line.split() for line in qrels_lines())}
    lines = []
    for t in TOPICS:
        for i in range(1, 7):
            r = rel[(t, f"d{i}")]
            lines.append(f"{t} d{i} w1 {r}")
            lines.append(f"{t} d{i} w2 {(r + 1) % 3 if i == int(t) else r}")
            lines.append(f"{t} d{i} w3 {(r + 1) % 3 if i % 2 else r}")
    return lines


CROWD = crowd_lines()
FILES = {"crowd.txt": text(CROWD)}
AGG = ["labels", "aggregate", "crowd.txt", "--method", "mv"]
#: The labels above 0 of crowd.txt as 1: binary labels for kos.
BINARY_FILES = {"crowd2.txt": text([" ".join([*line.split()[:3], str(min(int(line.split()[3]),
                                                                          1))])
                                    for line in CROWD])}
BINARY = ["labels", "aggregate", "crowd2.txt", "--method", "mv"]
#: Two features of d1..d6 of every topic (line 3: '1 d3 ...'), for gp.
FEATURE_LINES = [f"{t} d{i} {i / 2} {int(t) % 3}" for t in TOPICS for i in range(1, 7)]
GP_FILES = {**BINARY_FILES, "feat.txt": text(FEATURE_LINES)}
GP = [*with_option(BINARY, "--method", "gp"), "--features", "feat.txt"]
AGREE = ["labels", "agree", "crowd.txt"]
ALLOCATE = ["labels", "allocate", "crowd.txt"]
QAGREE = ["labels", "agree-qrels", "qrels.txt", "q2.txt", *RUNS]
AWARE = ["labels", "aware", "crowd.txt", *RUNS, "-m", "map"]
Q2 = {"q2.txt": replace_line(qrels_lines(), 1, "1 0 d1 0"),
      # the human judgments of topics 1-3, where the automatic qrels are qrels.txt
      "h.txt": text([line for line in ["1 0 d1 0", *qrels_lines()[1:]]
                     if line.split()[0] in ("1", "2", "3")])}
AUTO = ["labels", "auto", "qrels.txt", "h.txt", *RUNS, "-m", "map"]
#: The automatic qrels with their grades' probabilities (qrels.txt, each label sure).
PROB_LINES = [f"{line} 1" for line in qrels_lines()]
PROBS = {"ap.txt": text(PROB_LINES)}
AUTO_PROBS = ["labels", "auto", "ap.txt", "h.txt", *RUNS, "-m", "P@5", "--label-probabilities"]


def _no_agreement_of_one(result, ws, run) -> None:
    """The system-agreement row gives τ_b, τ_ap and RBO no number (they are undefined)."""
    row = [line.split() for line in result.out.splitlines() if line.startswith("P@5 ")][-1]
    assert row[1:4] == ["undefined"] * 3, result.describe()


def swap(argv: list[str], old: str, new: str) -> list[str]:
    """``argv`` with the word ``old`` replaced by ``new``."""
    return [new if word == old else word for word in argv]


def good(id, argv, check=None, *, files=None, allowed_new=()):
    return ok(id, argv, check, files={**FILES, **Q2, **(files or {})},
              allowed_new=allowed_new)


def bad(id, argv, *needles, files=None):
    return err(id, argv, *needles, files={**FILES, **Q2, **(files or {})})


def readable_qrels(name: str):
    """The written qrels are 'topic 0 docno label' lines that irscale eval reads."""

    def check(result, ws, run):
        rows = [line.split() for line in (ws.root / name).read_text().splitlines()]
        assert len(rows) == 36 and all(len(r) == 4 and r[1] == "0" for r in rows), rows
        evaluated = run(["eval", name, "a.run", "-m", "map"])
        assert evaluated.status == 0 and "map" in evaluated.out, evaluated.describe()

    return check


def side_files(result, ws, run):
    conf = [line.split() for line in (ws.root / "c.txt").read_text().splitlines()]
    assert len(conf) == 36 and all(0 < float(r[3]) <= 1 for r in conf), conf
    workers = [line.split() for line in (ws.root / "w.txt").read_text().splitlines()]
    assert [w[0] for w in workers] == ["w1", "w2", "w3"] and all(w[1] == "36"
                                                                 for w in workers)


def kernel_file(result, ws, run):
    """``--kernel k.txt``: one ``topic length_scale variance log_evidence`` line a topic."""
    rows = [line.split() for line in (ws.root / "k.txt").read_text().splitlines()]
    assert [row[0] for row in rows] == list(TOPICS), rows
    assert all(len(row) == 4 and float(row[1]) > 0 and float(row[2]) > 0 for row in rows)


def crowd_faults(prefix: str, argv: list[str]):
    """Faulty crowd-label files at the place of crowd.txt (line 3 is '1 d1 w3 0')."""
    loc = any_of("crowd.txt, line 3", "crowd.txt:3", "crowd.txt (line 3")
    same = same_output_as(*argv)

    def line3(new: str) -> dict:
        return {"crowd.txt": replace_line(CROWD, 3, new)}

    return [
        bad(f"{prefix}-missing-file", with_file(argv, "missing.txt"), "missing.txt"),
        bad(f"{prefix}-directory", with_file(argv, "adir"), "adir"),
        bad(f"{prefix}-empty-file", argv, "crowd.txt", files={"crowd.txt": b""}),
        bad(f"{prefix}-blank-lines-only", argv, "crowd.txt", files={"crowd.txt": b"\n \n\n"}),
        good(f"{prefix}-crlf", argv, same,
             files={"crowd.txt": text(CROWD).replace(b"\n", b"\r\n")}),
        good(f"{prefix}-bom", argv, same, files={"crowd.txt": b"\xef\xbb\xbf" + text(CROWD)}),
        good(f"{prefix}-gzip", argv, same, files={"crowd.txt": gz(text(CROWD))}),
        bad(f"{prefix}-too-few-fields", argv, loc, files=line3("1 d1 w3")),
        bad(f"{prefix}-too-many-fields", argv, loc, "extra", files=line3("1 d1 w3 0 extra")),
        bad(f"{prefix}-label-not-integer", argv, loc, "abc", files=line3("1 d1 w3 abc")),
        bad(f"{prefix}-label-float", argv, loc, "1.5", files=line3("1 d1 w3 1.5")),
        bad(f"{prefix}-label-nan", argv, loc, any_of("nan", "NaN"), files=line3("1 d1 w3 nan")),
        bad(f"{prefix}-worker-twice", argv, loc, "1 d1 w1 0", files=line3("1 d1 w1 0")),
        bad(f"{prefix}-non-utf8", argv, loc,
            files={"crowd.txt": replace_line(CROWD, 3, "1 dQQ w3 0").replace(b"QQ", b"\xe9")}),
        # the first label 2 is on line 1 (topic 1, d1 has degree 2)
        bad(f"{prefix}-label-outside-scale", [*argv, "--scale", "0,1"],
            any_of("crowd.txt, line 1:", "crowd.txt:1:"), "1 d1 w1 2"),
    ]


def with_file(argv: list[str], name: str) -> list[str]:
    return [name if a == "crowd.txt" else a for a in argv]


def aware_run(name: str) -> list[str]:
    return ["labels", "aware", "crowd.txt", name, "b.run", "c.run", "-m", "map"]


CASES = [
    # ================================================================ aggregate
    good("agg-mv", AGG, output_contains("1 0 d1 0\n1 0 d2 0\n1 0 d3 1\n")),
    *[good(f"agg-{m}", with_option(AGG, "--method", m)) for m in ("wmv", "ds", "glad")],
    good("agg-mace-seed", [*with_option(AGG, "--method", "mace"), "--seed", "1",
                           "--n-iter", "5"]),
    good("agg-default-method-to-file", ["labels", "aggregate", "crowd.txt", "-o", "q.txt"],
         readable_qrels("q.txt"), allowed_new=("q.txt",)),
    good("agg-side-files", [*AGG, "-o", "q.txt", "--confidence", "c.txt", "--workers",
                            "w.txt"], side_files, allowed_new=("q.txt", "c.txt", "w.txt")),
    good("agg-scale", [*AGG, "--scale", "0,1,2,3"]),
    good("agg-force-replaces", [*AGG, "-o", "old.txt", "--force"],
         files={"old.txt": "old\n"}, allowed_new=("old.txt",)),
    good("agg-ds-n-iter-1", [*with_option(AGG, "--method", "ds"), "--n-iter", "1"]),
    bad("agg-output-exists", [*AGG, "-o", "qrels.txt"], "qrels.txt"),
    bad("agg-confidence-exists", [*AGG, "--confidence", "qrels.txt"], "qrels.txt",
        opt("--confidence")),
    bad("agg-workers-exists", [*AGG, "--workers", "a.run"], "a.run", opt("--workers")),
    bad("agg-workers-is-input", [*AGG, "--workers", "crowd.txt", "--force"], "crowd.txt"),
    bad("agg-output-is-input", [*AGG, "-o", "crowd.txt", "--force"], "crowd.txt"),
    bad("agg-confidence-is-output", [*AGG, "-o", "x.txt", "--confidence", "x.txt"],
        "x.txt", opt("--confidence")),
    bad("agg-confidence-stdout", [*AGG, "--confidence", "-"], opt("--confidence")),
    bad("agg-method-unknown", with_option(AGG, "--method", "nosuch"), "nosuch"),
    bad("agg-scale-not-integer", [*AGG, "--scale", "0,x"], opt("--scale"), "x"),
    bad("agg-scale-twice", [*AGG, "--scale", "0,1,1"], opt("--scale")),
    bad("agg-scale-empty", [*AGG, "--scale", ""], opt("--scale")),
    bad("agg-n-iter-0", [*with_option(AGG, "--method", "ds"), "--n-iter", "0"],
        opt("--n-iter")),
    bad("agg-n-iter-negative", [*with_option(AGG, "--method", "glad"), "--n-iter", "-2"],
        opt("--n-iter")),
    bad("agg-n-iter-not-a-number", [*with_option(AGG, "--method", "ds"), "--n-iter", "x"],
        opt("--n-iter")),
    bad("agg-n-iter-mv", [*AGG, "--n-iter", "5"], opt("--n-iter"), "mv"),
    # the stopping tolerance (aggregate_labels' tol=), for the methods with a stopping rule
    good("agg-ds-tol", [*with_option(AGG, "--method", "ds"), "--tol", "1e-3"]),
    bad("agg-tol-mv", [*AGG, "--tol", "1e-3"], "--tol applies to", "mv"),
    bad("agg-tol-negative", [*with_option(AGG, "--method", "ds"), "--tol", "-1"],
        "--tol (tol) must be a number ≥ 0"),
    # MACE runs every iteration of its 10 restarts: a count without end is refused
    bad("agg-n-iter-huge", [*with_option(AGG, "--method", "mace"), "--n-iter",
                            str(2**63 - 1)], opt("--n-iter"), "100,000"),
    bad("agg-seed-not-mace", [*AGG, "--seed", "1"], opt("--seed"), "mace"),
    bad("agg-seed-negative", [*with_option(AGG, "--method", "mace"), "--seed", "-1"],
        opt("--seed")),
    bad("agg-no-file", ["labels", "aggregate"], any_of("labels file", "LABELS")),
    # one-coin DS, Zero-Based Skill, KOS (two labels) and M-MSR; wawa is crowd-kit's wmv
    *[good(f"agg-{m}", with_option(AGG, "--method", m)) for m in ("onecoin", "zbs")],
    good("agg-wawa", with_option(AGG, "--method", "wawa"), same_output_as(
        *with_option(AGG, "--method", "wmv"))),
    good("agg-kos-binary", [*with_option(BINARY, "--method", "kos"), "--seed", "1",
                            "--n-iter", "5"], files=BINARY_FILES),
    good("agg-mmsr", [*with_option(AGG, "--method", "mmsr"), "--seed", "3"]),
    good("agg-zbs-rate", [*with_option(AGG, "--method", "zbs"), "--lr", "0.5", "--lr-steps",
                          "3", "--lr-decay", "0.9", "--n-iter", "7"]),
    bad("agg-kos-three-labels", with_option(AGG, "--method", "kos"), "crowd.txt", "kos",
        "binary", "0,1,2"),
    bad("agg-kos-one-label", with_option(BINARY, "--method", "kos"), "crowd2.txt", "kos",
        files={"crowd2.txt": text(["1 d1 w1 1", "1 d2 w2 1"])}),
    bad("agg-mmsr-one-label", with_option(BINARY, "--method", "mmsr"), "crowd2.txt",
        "mmsr", files={"crowd2.txt": text(["1 d1 w1 1", "1 d2 w2 1"])}),
    bad("agg-mmsr-breakdown", with_option(BINARY, "--method", "mmsr"), "crowd2.txt",
        "mmsr", files={"crowd2.txt": text(["1 a w1 1", "1 a w2 1", "1 a w3 0", "1 b w1 0",
                                           "1 b w2 1", "1 b w3 0"])}),
    bad("agg-kos-confidence", [*with_option(BINARY, "--method", "kos"), "--confidence",
                               "c.txt"], opt("--confidence"), "kos", files=BINARY_FILES),
    bad("agg-mmsr-confidence", [*with_option(AGG, "--method", "mmsr"), "--confidence",
                                "c.txt"], opt("--confidence"), "mmsr"),
    bad("agg-kos-workers", [*with_option(BINARY, "--method", "kos"), "--workers", "w.txt"],
        opt("--workers"), "kos", files=BINARY_FILES),
    bad("agg-seed-zbs", [*with_option(AGG, "--method", "zbs"), "--seed", "1"], opt("--seed"),
        "zbs"),
    bad("agg-restarts-kos", [*with_option(BINARY, "--method", "kos"), "--restarts", "2"],
        opt("--restarts"), "kos", files=BINARY_FILES),
    bad("agg-lr-not-zbs", [*with_option(AGG, "--method", "ds"), "--lr", "0.5"], opt("--lr"),
        "zbs"),
    bad("agg-lr-decay-not-zbs", [*AGG, "--lr-decay", "0.5"], opt("--lr-decay"), "zbs"),
    # one message for every option of some methods (rules.applies_to): the method given
    bad("agg-seed-names-the-methods", [*with_option(AGG, "--method", "ds"), "--seed", "1"],
        "--seed applies to --method mace, kos and mmsr, not to --method ds"),
    bad("allocate-epsilon-names-the-rule", [*ALLOCATE, "--rule", "uniform", "--epsilon", "0.2"],
        "--epsilon applies to --rule adaptive, not to --rule uniform"),
    bad("agg-lr-0", [*with_option(AGG, "--method", "zbs"), "--lr", "0"], opt("--lr")),
    bad("agg-lr-nan", [*with_option(AGG, "--method", "zbs"), "--lr", "nan"], opt("--lr")),
    bad("agg-lr-decay-above-1", [*with_option(AGG, "--method", "zbs"), "--lr-decay", "1.5"],
        opt("--lr-decay")),
    bad("agg-lr-steps-0", [*with_option(AGG, "--method", "zbs"), "--lr-steps", "0"],
        opt("--lr-steps")),
    bad("agg-n-iter-huge-mmsr", [*with_option(AGG, "--method", "mmsr"), "--n-iter",
                                 str(2**63 - 1)], opt("--n-iter"), "100,000"),
    bad("agg-two-files", [*AGG, "qrels.txt"], any_of("labels file", "qrels.txt")),
    # the Gaussian process of Rodrigues, Pereira & Ribeiro 2014 (two labels, features)
    good("agg-gp", GP, files=GP_FILES),
    good("agg-gp-length-scale", [*GP, "--length-scale", "0.5", "--n-iter", "20"],
         files=GP_FILES),
    good("agg-gp-kernel-fit-median", [*GP, "--kernel-fit", "median"], files=GP_FILES),
    good("agg-gp-kernel-fit-evidence", [*GP, "--kernel-fit", "evidence"], files=GP_FILES),
    good("agg-gp-kernel-file", [*GP, "--kernel", "k.txt"], kernel_file, files=GP_FILES,
         allowed_new=("k.txt",)),
    bad("agg-gp-kernel-fit-unknown", [*GP, "--kernel-fit", "ml"], opt("--kernel-fit"), "ml",
        files=GP_FILES),
    bad("agg-gp-kernel-fit-empty", [*GP, "--kernel-fit", ""], opt("--kernel-fit"),
        files=GP_FILES),
    bad("agg-gp-kernel-fit-with-length-scale", [*GP, "--length-scale", "1", "--kernel-fit",
                                                "median"], opt("--kernel-fit"),
        "--length-scale", files=GP_FILES),
    bad("agg-kernel-fit-not-gp", [*AGG, "--kernel-fit", "median"], opt("--kernel-fit"), "gp"),
    bad("agg-kernel-file-not-gp", [*AGG, "--kernel", "k.txt"], opt("--kernel"), "gp"),
    bad("agg-gp-kernel-file-exists", [*GP, "--kernel", "feat.txt"], "feat.txt",
        opt("--kernel"), files=GP_FILES),
    bad("agg-gp-kernel-file-stdout", [*GP, "--kernel", "-"], opt("--kernel"),
        "standard output", files=GP_FILES),
    bad("agg-gp-no-features", with_option(BINARY, "--method", "gp"), opt("--features"),
        files=GP_FILES),
    bad("agg-gp-features-missing-file", with_option(GP, "--features", "nope.txt"),
        "nope.txt", files=GP_FILES),
    bad("agg-gp-document-without-features", GP, "crowd2.txt", "line 7", "feat.txt",
        files={**GP_FILES, "feat.txt": text(FEATURE_LINES[:2])}),
    bad("agg-gp-features-bad-line", GP, any_of("feat.txt, line 3", "feat.txt:3"),
        "1 d3 1.5", files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 d3 1.5")}),
    bad("agg-gp-feature-not-a-number", GP, any_of("feat.txt, line 3", "feat.txt:3"), "abc",
        files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 d3 abc 1")}),
    bad("agg-gp-feature-inf", GP, any_of("feat.txt, line 3", "feat.txt:3"), "inf",
        files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 d3 inf 1")}),
    bad("agg-gp-document-twice", GP, any_of("feat.txt, line 3", "feat.txt:3"), "1 d1 0 1",
        files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 d1 0 1")}),
    bad("agg-gp-features-overflow", GP, "feat.txt", "topic 1", "overflow",
        files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 d3 1e300 1")}),
    good("agg-gp-features-gzip-crlf-bom", GP, same_output_as(*GP), files={
        **GP_FILES, "feat.txt": gz(b"\xef\xbb\xbf" + text(FEATURE_LINES).replace(b"\n",
                                                                                b"\r\n"))}),
    bad("agg-gp-features-non-utf8", GP, any_of("feat.txt, line 3", "feat.txt:3"),
        files={**GP_FILES, "feat.txt": replace_line(FEATURE_LINES, 3, "1 dQQ 1 1").replace(
            b"QQ", b"\xe9")}),
    bad("agg-gp-features-empty", GP, "feat.txt", files={**GP_FILES, "feat.txt": b""}),
    bad("agg-gp-length-scale-0", [*GP, "--length-scale", "0"], opt("--length-scale"),
        files=GP_FILES),
    bad("agg-gp-length-scale-negative", [*GP, "--length-scale", "-1"],
        opt("--length-scale"), files=GP_FILES),
    bad("agg-gp-length-scale-nan", [*GP, "--length-scale", "nan"], opt("--length-scale"),
        files=GP_FILES),
    bad("agg-gp-three-labels", [*with_option(AGG, "--method", "gp"), "--features",
                                "feat.txt"], "crowd.txt", "gp", "binary", files=GP_FILES),
    bad("agg-features-not-gp", [*AGG, "--features", "feat.txt"], opt("--features"), "gp",
        files=GP_FILES),
    bad("agg-length-scale-not-gp", [*AGG, "--length-scale", "1"], opt("--length-scale"),
        "gp"),
    bad("agg-gp-output-is-features", [*GP, "-o", "feat.txt", "--force"], "feat.txt",
        files=GP_FILES),
    *crowd_faults("agg", AGG),
    # ================================================================ agree
    good("agree", AGREE, output_contains("fleiss_kappa", "all")),
    good("agree-csv", [*AGREE, "--format", "csv"], output_contains("topic,documents")),
    good("agree-json", [*AGREE, "--format", "json"]),
    good("agree-scale", [*AGREE, "--scale", "0,1,2"]),
    bad("agree-digits-99", [*AGREE, "--digits", "99"], opt("--digits")),
    bad("agree-format-unknown", [*AGREE, "--format", "xml"], "xml"),
    bad("agree-output-exists", [*AGREE, "-o", "qrels.txt"], "qrels.txt"),
    bad("agree-no-file", ["labels", "agree"], any_of("labels file", "LABELS")),
    *crowd_faults("agree", AGREE),
    # ================================================================ agree-qrels
    good("qagree-runs", QAGREE, output_contains("tau_ap", "cohen_kappa")),
    good("qagree-no-runs", QAGREE[:4], output_contains("cohen_kappa")),
    good("qagree-measure", [*QAGREE, "-m", "ndcg", "-l", "2"]),
    bad("qagree-one-qrels", QAGREE[:3], any_of("two qrels")),
    bad("qagree-one-run", QAGREE[:5], any_of("two run", "at least two")),
    bad("qagree-measure-no-runs", [*QAGREE[:4], "-m", "map"], opt("-m", "--measure")),
    bad("qagree-level-0", [*QAGREE, "-l", "0"], opt("-l", "--relevance-level")),
    bad("qagree-measure-unknown", [*QAGREE, "-m", "nosuch"], "nosuch"),
    bad("qagree-qrels-missing", ["labels", "agree-qrels", "qrels.txt", "nope.txt"], "nope.txt"),
    bad("qagree-qrels-malformed", ["labels", "agree-qrels", "qrels.txt", "q3.txt"],
        "q3.txt", "line 2", files={"q3.txt": text(["1 0 d1 1", "1 0 d2"])}),
    bad("qagree-disjoint", ["labels", "agree-qrels", "qrels.txt", "q3.txt"], "in common",
        files={"q3.txt": text(["9 0 d1 1"])}),
    bad("qagree-run-missing", [*QAGREE[:4], "a.run", "nope.run"], "nope.run"),
    good("qagree-names", [*QAGREE, "--names", "file"], output_contains("tau_ap")),
    bad("qagree-names-no-runs", [*QAGREE[:4], "--names", "a,b"], opt("--names")),
    bad("qagree-names-count", [*QAGREE, "--names", "a"], "name given for"),
    # ================================================================ auto
    good("auto", AUTO, output_contains("ppi_low", "significant_both", "human=1")),
    good("auto-pairs-csv", [*AUTO, "--pairs", "--format", "csv"],
         output_contains("map,a − b,difference")),
    good("auto-json", [*AUTO, "--format", "json"], output_contains('"confusion"')),
    good("auto-classical", [*AUTO, "--tuning", "classical", "--format", "csv"]),
    bad("auto-no-measure", AUTO[:6], opt("-m", "--measure")),
    bad("auto-one-run", [*AUTO[:5], "-m", "map"], "two run files"),
    bad("auto-human-outside", swap(AUTO, "h.txt", "h9.txt"), "'9'",
        "topics of the automatic judgments", files={"h9.txt": text(["9 0 d1 1", "1 0 d1 1"])}),
    bad("auto-human-every-topic", swap(AUTO, "h.txt", "qrels.txt"), "leave 1"),
    bad("auto-human-one-topic", swap(AUTO, "h.txt", "h1.txt"), "2 topics",
        files={"h1.txt": text(["1 0 d1 1"])}),
    bad("auto-summary-measure", swap(AUTO, "map", "gm_map"), "gm_map"),
    bad("auto-unknown-measure", swap(AUTO, "map", "nosuch"), "nosuch"),
    bad("auto-alpha", [*AUTO, "--alpha", "1"], opt("--alpha")),
    bad("auto-tuning", [*AUTO, "--tuning", "best"], opt("--tuning")),
    bad("auto-human-missing", swap(AUTO, "h.txt", "nope.txt"), "nope.txt"),
    bad("auto-human-malformed", swap(AUTO, "h.txt", "h3.txt"), "h3.txt", "line 2",
        files={"h3.txt": text(["1 0 d1 1", "1 0 d2"])}),
    # automatic judgments with a probability per grade (topic iter docno rel prob)
    good("auto-label-probabilities", [*AUTO_PROBS, "--format", "csv"],
         output_contains("P@5,a,mean"), files=PROBS),
    good("auto-label-probabilities-uniform", [*AUTO_PROBS, "--design", "uniform"],
         output_contains("ppi_low"), files=PROBS),
    bad("auto-label-probabilities-sum", AUTO_PROBS, "ap.txt", "line 2", "sum to 0.5",
        files={"ap.txt": replace_line(PROB_LINES, 2, "1 0 d2 0 0.5")}),
    bad("auto-label-probabilities-range", AUTO_PROBS, "ap.txt", "line 3",
        "not a probability", files={"ap.txt": replace_line(PROB_LINES, 3, "1 0 d3 1 1.5")}),
    bad("auto-label-probabilities-grade-twice", AUTO_PROBS, "ap.txt", "line 2",
        "same grade", files={"ap.txt": text(["1 0 d1 2 0.5", "1 0 d1 2 0.5",
                                             *PROB_LINES[1:]])}),
    bad("auto-label-probabilities-fields", AUTO_PROBS, "ap.txt", "line 1", "expected 5",
        files={"ap.txt": text(qrels_lines())}),
    good("auto-label-probabilities-map", [*swap(AUTO_PROBS, "P@5", "map"), "--format", "csv"],
         output_contains("map,a,mean"), files=PROBS),
    bad("auto-label-probabilities-not-a-sum", [*swap(AUTO_PROBS, "P@5", "map"), "--design",
                                               "uniform"], "map",
        "not a sum over the ranked documents", files=PROBS),
    good("auto-label-probabilities-draws", [*swap(AUTO_PROBS, "P@5", "map"), "--draws", "5",
                                            "--seed", "3", "--format", "csv"],
         output_contains("map,a,mean"), files=PROBS),
    bad("auto-draws-without-label-probabilities", [*AUTO, "--draws", "5"], "--draws",
        "--label-probabilities"),
    bad("auto-seed-without-label-probabilities", [*AUTO, "--seed", "3"], "--seed",
        "--label-probabilities"),
    bad("auto-draws-pair-design", [*AUTO_PROBS, "--design", "uniform", "--draws", "5"],
        "--draws", "--design topics", files=PROBS),
    bad("auto-seed-pair-design", [*AUTO_PROBS, "--design", "uniform", "--seed", "5"],
        "--seed", "--design topics", "not to --design uniform", files=PROBS),
    bad("auto-draws-zero", [*AUTO_PROBS, "--draws", "0"], opt("--draws"),
        "[1, 1,000,000,000], got 0", files=PROBS),
    bad("auto-seed-negative", [*AUTO_PROBS, "--seed", "-1"], opt("--seed"),
        "non-negative integer, got -1", files=PROBS),
    # the document-level designs: h.txt as a sample of the pairs of qrels.txt
    good("auto-design-uniform", [*swap(AUTO, "map", "P@5"), "--design", "uniform"],
         output_contains("ppi_low")),
    good("auto-design-stratified", [*swap(AUTO, "map", "P@5"), "--design", "stratified",
                                    "--format", "csv"], output_contains("P@5,a,mean")),
    good("auto-design-inclusion", [*swap(swap(AUTO, "map", "P@5"), "h.txt", "hs.txt"),
                                   "--design", "inclusion", "--tuning", "ppi"],
         output_contains("ppi_low"),
         files={"hs.txt": text(["1 0 d1 2 0.5", "2 0 d2 1 0.5", "3 0 d3 0 0.25"])}),
    bad("auto-design-value", [*AUTO, "--design", "rank"], opt("--design")),
    bad("auto-design-not-a-sum", [*AUTO, "--design", "uniform"], "map",
        "not a sum over the ranked documents"),
    bad("auto-design-pair-outside", [*swap(swap(AUTO, "map", "P@5"), "h.txt", "h9.txt"),
                                     "--design", "uniform"], "'9', 'd1'",
        "pair(s) the automatic qrels do not", files={"h9.txt": text(["9 0 d1 1", "1 0 d1 1"])}),
    bad("auto-design-every-pair", [*swap(swap(AUTO, "map", "P@5"), "h.txt", "qrels.txt"),
                                   "--design", "uniform"], "nothing left"),
    bad("auto-design-stratum", [*swap(swap(AUTO, "map", "P@5"), "h.txt", "h2.txt"),
                                "--design", "stratified"], "automatic grade 2",
        "every stratum needs 2", files={"h2.txt": text(["1 0 d1 2", "1 0 d2 0", "1 0 d4 0",
                                                        "1 0 d3 1", "2 0 d2 1"])}),
    bad("auto-design-inclusion-no-prob", [*swap(swap(AUTO, "map", "P@5"), "h.txt", "hp.txt"),
                                          "--design", "inclusion"], "hp.txt", "line 2",
        files={"hp.txt": text(["1 0 d1 2 0.5", "2 0 d2 1"])}),
    # a probability inside (0, 1] so small that (1 - π)/π² overflows: refused by its line,
    # never numpy's warnings and blank corrected means
    *(bad(f"auto-design-inclusion-tiny-prob-{tuning}",
          [*swap(swap(AUTO, "map", "P@5"), "h.txt", "ht.txt"), "--design", "inclusion",
           "--tuning", tuning], "ht.txt", "line 2", "1e-300", "overflows",
          files={"ht.txt": text(["1 0 d1 2 0.5", "2 0 d2 1 1e-300", "3 0 d3 0 0.25"])})
      for tuning in ("ppi", "ppi++")),
    # automatic labels all 0 rank no run: τ_b, τ_ap and RBO are undefined (not 1), said so
    good("auto-automatic-labels-all-zero", [*swap(swap(AUTO, "qrels.txt", "zero.txt"), "map",
                                                  "P@5")],
         all_checks(output_contains("undefined"), warns_of("tau", "tau_ap", "rbo",
                                                           "ties every item"),
                    _no_agreement_of_one),
         files={"zero.txt": text([" ".join([*line.split()[:3], "0"])
                                  for line in qrels_lines()])}),
    # ================================================================ aware
    good("aware", AWARE, output_contains("topic,a")),
    good("aware-msd", [*AWARE, "--weights", "msd", "--seed", "1", "--random", "2"]),
    good("aware-msd-topic", [*AWARE, "--weights", "msd-topic", "--seed", "1"]),
    good("aware-tau-text", [*AWARE, "--weights", "tau", "--seed", "1", "--format", "text",
                            "--digits", "3"], output_contains("assessor weights")),
    good("aware-scale-level", [*AWARE, "--scale", "0,1,2", "-l", "2"]),
    good("aware-names", [*AWARE, "--names", "x,y,z"], output_contains("topic,x,y,z")),
    good("aware-output-file", [*AWARE, "-o", "m.csv"], allowed_new=("m.csv",)),
    bad("aware-no-measure", AWARE[:-2], opt("-m", "--measure")),
    bad("aware-measure-unknown", with_option(AWARE, "-m", "nosuch"), "nosuch"),
    bad("aware-two-measures", with_option(AWARE, "-m", "P.5,10"), "one measure"),
    bad("aware-weights-unknown", [*AWARE, "--weights", "nosuch"], "nosuch"),
    bad("aware-random-0", [*AWARE, "--weights", "msd", "--random", "0"], opt("--random")),
    # every random assessor evaluates every run: a count without end is refused
    bad("aware-random-huge", [*AWARE, "--weights", "msd", "--random", str(2**63 - 1)],
        opt("--random"), "1,000"),
    bad("aware-random-uniform", [*AWARE, "--random", "3"], opt("--random"), "uniform"),
    bad("aware-seed-uniform", [*AWARE, "--seed", "3"], opt("--seed"), "uniform"),
    bad("aware-seed-negative", [*AWARE, "--weights", "tau", "--seed", "-3"], opt("--seed")),
    bad("aware-digits-csv", [*AWARE, "--digits", "3"], opt("--digits")),
    bad("aware-digits-99", [*AWARE, "--format", "text", "--digits", "99"], opt("--digits")),
    bad("aware-level-0", [*AWARE, "-l", "0"], opt("-l", "--relevance-level")),
    bad("aware-no-run", ["labels", "aware", "crowd.txt", "-m", "map"], "run"),
    bad("aware-output-exists", [*AWARE, "-o", "qrels.txt"], "qrels.txt"),
    bad("aware-doc-in-no-run", AWARE, "crowd.txt", "line 109", "1 d99 w1 1",
        opt("--allow-unretrieved"), files={"crowd.txt": text([*CROWD, "1 d99 w1 1"])}),
    good("aware-allow-unretrieved", [*AWARE, "--allow-unretrieved"],
         files={"crowd.txt": text([*CROWD, "1 d99 w1 1"])}),
    *crowd_faults("aware", AWARE),
    *[pytest.param(case.values[0].__class__(**{
        **case.values[0].__dict__,
        "files": (*case.values[0].files, *FILES.items())}), id=case.id)
      for case in trec_file_faults("aware-run", "run", aware_run, aware_run("a.run"),
                                   name="a.run")],
    # ================================================================ allocate
    good("allocate", ALLOCATE, output_contains("1 0 d1 0\n")),
    good("allocate-uniform-budget-table", ["labels", "allocate", "crowd.txt", "--rule",
                                           "uniform", "--budget", "20", "--table", "t.txt",
                                           "-o", "q.txt", "--seed", "1"],
         allowed_new=("t.txt", "q.txt")),
    good("allocate-options", [*ALLOCATE, "--c", "2", "--epsilon", "0.2", "--min-labels",
                              "3", "--max-labels", "2", "--scale", "0,1,2"]),
    # a budget short of one answer per document: the documents left without an answer
    # (and without a qrels line) are counted in a warning, not dropped in silence
    good("allocate-budget-short-of-documents", [*ALLOCATE, "--budget", "5"],
         warns_of("--budget 5", "31 of 36 documents", "no qrels line")),
    *crowd_faults("allocate", ALLOCATE),
    bad("allocate-c-0", [*ALLOCATE, "--c", "0"], "--c"),
    bad("allocate-epsilon-above-1", [*ALLOCATE, "--epsilon", "2"], "--epsilon"),
    bad("allocate-budget-0", [*ALLOCATE, "--budget", "0"], "--budget"),
    bad("allocate-max-labels-0", [*ALLOCATE, "--max-labels", "0"], "--max-labels"),
    bad("allocate-unknown-rule", [*ALLOCATE, "--rule", "greedy"], "rule"),
    # the constants of the stopping rule with the uniform allocation were ignored
    bad("allocate-c-with-uniform", [*ALLOCATE, "--rule", "uniform", "--c", "2"], "--c",
        "uniform"),
    bad("allocate-two-files", [*ALLOCATE, "crowd.txt"], "crowd labels file"),
    bad("allocate-table-stdout", [*ALLOCATE, "--table", "-"], "--table"),
    bad("allocate-output-exists", [*ALLOCATE, "-o", "qrels.txt"], "qrels.txt"),
    bad("allocate-table-is-input", [*ALLOCATE, "--table", "crowd.txt", "--force"],
        "crowd.txt"),
    # ================================================================ the command
    bad("labels-no-action", ["labels"], any_of("aggregate", "ACTION")),
    bad("labels-unknown-action", ["labels", "frob"], "frob"),
    bad("labels-unknown-option", [*AGG, "--bogus"], "--bogus"),
]


@pytest.mark.parametrize("case", CASES)
def test_labels(case, ws, run_cli):
    run_case(case, ws, run_cli)
