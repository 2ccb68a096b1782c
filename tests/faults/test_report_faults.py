"""``irscale report``: every option (bad values, options that would be ignored), faulty
qrels and runs, and outputs (existing, inputs, --force). The valid rows use
``--no-robustness`` and Markdown where the page itself is not what they check, so that the
file stays fast; tests/test_report*.py check the contents."""

from __future__ import annotations

import pytest

from .conftest import (
    Link,
    all_checks,
    any_of,
    assert_ok,
    err,
    file_holds_output_of,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    run_lines,
    same_output_as,
    text,
    warnings_of,
)
from .test_compare_collections_faults import FILES, HEADER, MANIFEST, ROWS, X, Y
from .test_labels_faults import Q2 as PLAN_FILES
from .test_meta_judge_noise_faults import FILES as NOISE_FILES

BASE = ["report", "qrels.txt", "a.run", "b.run", "c.run"]
FAST = [*BASE, "--no-robustness", "--format", "markdown"]


def html_page(result, ws, run):
    page = ws.read("r.html").decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"), page[:200]
    assert 'id="summary"' in page and "<svg" in page


def page_holds(*needles: str):
    """r.html holds every one of ``needles``."""

    def check(result, ws, run):
        page = ws.read("r.html").decode("utf-8")
        missing = [n for n in needles if n not in page]
        assert not missing, f"r.html lacks {missing}" + result.describe()

    return check


def bold_runs(*expected: str):
    """The summary table bolds the map of the runs ``expected`` only (decided on the text
    shown, so that runs printed apart never both read as the best)."""

    def check(result, ws, run):
        rows = [line.split("|") for line in result.out.splitlines()
                if line.split("|")[1:2] in ([" a "], [" b "], [" c "])]
        bold = sorted(cells[1].strip() for cells in rows if cells[2].strip().startswith("**"))
        assert bold == sorted(expected), f"bold: {bold}" + result.describe()

    return check


def no_warning(result, ws, run):
    assert not warnings_of(result), result.describe()


#: A run name of 100,000 characters.
LONG = "R" * 100_000

#: The human judgments of topics 1-3 (the automatic ones: qrels.txt).
HUMAN = {"h.txt": text([line for line in qrels_lines() if line.split()[0] in ("1", "2", "3")])}

#: The automatic judgments of qrels.txt with their grades' probabilities (each label sure).
PROBS = {"ap.txt": text([f"{line} 1" for line in qrels_lines()])}
AUTO_FAST = ["report", "h.txt", "a.run", "b.run", "c.run", "--no-robustness", "--format",
             "markdown", "--automatic", "ap.txt"]

CASES = [
    # ---- inputs
    err("nothing", ["report"], any_of("QRELS", "qrels", "arguments")),
    err("one-run", ["report", "qrels.txt", "a.run"], any_of("two", "run")),
    # a folder of runs (as eval and eval-many take it) is its runs, not one run
    ok("runs-folder", ["report", "qrels.txt", "runs", "--no-robustness", "--format",
                       "markdown", "-m", "map"], output_contains("| a ", "| c "),
       files={"runs/a.run": Link("../a.run"), "runs/c.run": Link("../c.run")}),
    err("runs-folder-of-one", ["report", "qrels.txt", "runs"], "two",
        files={"runs/a.run": Link("../a.run")}),
    err("missing-qrels", ["report", "nope.qrels", "a.run", "b.run"], "nope.qrels"),
    err("missing-run", ["report", "qrels.txt", "a.run", "nope.run"], "nope.run"),
    err("run-is-directory", ["report", "qrels.txt", "a.run", "adir"], "adir"),
    err("bad-run-line", ["report", "qrels.txt", "a.run", "bad.run"], "bad.run", "line 2",
        files={"bad.run": text([*run_lines("b")[:1], "1 Q0 d5 2 x y", *run_lines("b")[2:]])}),
    err("runs-cover-different-topics", ["report", "qrels.txt", "a.run", "part.run"],
        any_of("topic", "part.run"), files={"part.run": text(run_lines("b")[:10])}),
    err("unknown-measure", [*BASE, "-m", "nosuch"], "nosuch"),
    # with --digits 0 every mean below 1 is shown in scientific notation (MAP of a, b, c:
    # 3.7e-01, 3.4e-01, 4.4e-01): the best is the run shown highest, not all three
    ok("digits-0-bold-as-shown", [*FAST, "-m", "map", "--digits", "0"], bold_runs("c")),
    err("count-measure-only", [*BASE, "-m", "num_ret"], any_of("per-topic", "num_ret")),
    err("measure-bad-param", [*BASE, "-m", "RBP(p=2)"], "p"),
    # ---- baseline and its test
    # a name that matches no run lists the runs and their files
    err("baseline-unknown", [*BASE, "--baseline", "nosuch"], "nosuch", "'a' (a.run)",
        "'c' (c.run)"),
    # a run's name, its run id, its file's path, file name or stem: the same report
    ok("baseline-file-stem", [*FAST, "--baseline", "b"],
       all_checks(output_contains("than the baseline b"),
                  same_output_as(*FAST, "--baseline", "teamB_r1"))),
    ok("baseline-file-name", [*FAST, "--baseline", "b.run"],
       same_output_as(*FAST, "--baseline", "teamB_r1")),
    ok("baseline-file-path", [*FAST, "--baseline", "./b.run"],
       same_output_as(*FAST, "--baseline", "teamB_r1")),
    # a name that is one run's id and another run's file stem: refused, naming both
    err("baseline-ambiguous", [*BASE, "--baseline", "b"], "ambiguous", "'a' (a.run)",
        "'b' (b.run)", files={"a.run": text([line.replace("teamA_r1", "b")
                                                   for line in run_lines("a")])}),
    err("baseline-empty", [*BASE, "--baseline", ""], "baseline"),
    err("test-without-baseline", [*BASE, "--test", "t"], opt("--test"), "--baseline"),
    err("correction-without-baseline", [*BASE, "--correction", "holm"],
        opt("--correction"), "--baseline"),
    err("test-unknown", [*BASE, "--baseline", "teamA_r1", "--test", "welch"], "welch"),
    err("correction-unknown", [*BASE, "--baseline", "teamA_r1", "--correction", "nosuch"],
        "nosuch"),
    err("alpha-zero", [*BASE, "--alpha", "0"], "alpha"),
    err("alpha-one", [*BASE, "--alpha", "1"], "alpha"),
    err("alpha-text", [*BASE, "--alpha", "x"], opt("--alpha")),
    # ---- discriminative power, robustness
    err("samples-without-dp", [*BASE, "-B", "100"], any_of("-B", "--samples"), "--dp"),
    err("seed-without-dp", [*BASE, "--seed", "1"], "--seed", "--dp"),
    err("samples-zero", [*BASE, "--dp", "-B", "0"], any_of("-B", "--samples")),
    err("scale-depth-zero", [*BASE, "--scale-depth", "0"], "--scale-depth"),
    err("scale-depth-beyond-64-bits", [*BASE, "--scale-depth", str(10**30)], "--scale-depth",
        str(2**63 - 1)),
    err("scale-depth-without-panel", [*BASE, "--no-robustness", "--scale-depth", "5"],
        "--scale-depth", "--no-robustness"),
    # ---- formats and output
    err("format-unknown", [*BASE, "--format", "pdf"], "pdf"),
    err("digits-negative", [*BASE, "--digits", "-1"], "digits"),
    err("digits-huge", [*BASE, "--digits", "40"], "digits"),
    err("title-with-latex", [*BASE, "--format", "latex", "--title", "x"], "--title"),
    err("output-exists", [*FAST, "-o", "old.md"], "old.md", files={"old.md": "keep\n"}),
    err("output-is-input", [*FAST, "-o", "a.run"], "a.run"),
    ok("output-force", [*FAST, "-o", "old.md", "--force"],
       file_holds_output_of("old.md", *FAST), files={"old.md": "keep\n"},
       allowed_new=("old.md",)),
    ok("markdown", FAST, output_contains("| Run |", "| a ", "two-way ANOVA")),
    ok("latex-baseline", [*BASE, "--no-robustness", "--format", "latex", "--baseline",
                          "teamA_r1", "--correction", "bonferroni"],
       output_contains("\\begin{tabular}", "Bonferroni correction", "W/T/L")),
    # ---- automatic judgments (--automatic AUTO_QRELS; QRELS the human sample)
    ok("automatic-html", ["report", "h.txt", "a.run", "b.run", "c.run", "--no-robustness",
                          "--automatic", "qrels.txt", "-m", "P@5", "-o", "r.html"],
       page_holds('id="automatic-conclusions"', "Automatic judgments"),
       files=HUMAN, allowed_new=("r.html",)),
    err("design-without-automatic", [*FAST, "--design", "uniform"], "--design",
        "--automatic"),
    err("design-inclusion", [*FAST, "--automatic", "qrels.txt", "--design", "inclusion"],
        "sampled judgments", "labels auto"),
    err("automatic-missing", [*FAST, "--automatic", "nope.qrels"], "nope.qrels"),
    err("automatic-fewer-topics", [*FAST, "--automatic", "h.txt"], "'4'",
        "topics of the automatic judgments", files=HUMAN),
    # the summary's intervals: t by default, or bootstrap (--ci)
    ok("ci-bootstrap", [*FAST, "-m", "map", "--ci", "bootstrap", "--ci-samples", "200",
                        "--ci-seed", "1"],
       output_contains("95% bootstrap interval of the mean in brackets")),
    err("ci-value", [*FAST, "--ci", "normal"], "--ci", "bootstrap"),
    err("ci-seed-with-t", [*FAST, "--ci", "t", "--ci-seed", "1"], "--ci-seed",
        "--ci bootstrap"),
    err("ci-samples-zero", [*FAST, "--ci", "bootstrap", "--ci-samples", "0"], "--ci-samples",
        "got 0"),
    # automatic judgments with a probability per grade (topic iter docno rel prob)
    ok("automatic-label-probabilities", [*AUTO_FAST, "--label-probabilities", "-m", "map",
                                         "--draws", "5", "--seed", "3"],
       output_contains("expected values under the label probabilities", "| a "),
       files={**HUMAN, **PROBS}),
    ok("automatic-with-dp", [*AUTO_FAST[:-1], "qrels.txt", "-m", "P@5", "--dp", "-B", "20",
                             "--seed", "3"], output_contains("Discriminative power"),
       files=HUMAN),
    err("label-probabilities-without-automatic", [*FAST, "--label-probabilities"],
        "--label-probabilities", "--automatic"),
    err("draws-without-label-probabilities", [*AUTO_FAST, "--draws", "5"], "--draws",
        "--label-probabilities", files={**HUMAN, **PROBS}),
    err("draws-pair-design", [*AUTO_FAST, "--label-probabilities", "--design", "uniform",
                              "--draws", "5"], "--draws", "--design topics",
        files={**HUMAN, **PROBS}),
    err("draws-zero", [*AUTO_FAST, "--label-probabilities", "--draws", "0"], "--draws",
        "[1, 1,000,000,000], got 0", files={**HUMAN, **PROBS}),
    err("seed-without-label-probabilities", [*AUTO_FAST, "--seed", "3"], "--seed",
        "--label-probabilities", files={**HUMAN, **PROBS}),
    err("label-probabilities-plain-qrels", [*AUTO_FAST[:-1], "qrels.txt",
                                            "--label-probabilities"],
        "qrels.txt", "line 1", "expected 5", files=HUMAN),
    ok("html", [*BASE, "--scale-depth", "3", "--dp", "-B", "50", "--seed", "2", "-o",
                "r.html"], all_checks(html_page), allowed_new=("r.html",)),
    # a run name of 100,000 characters: whole in the tables, cut in the figures, which
    # keep their layout (no warning of matplotlib's)
    ok("run-name-100000-characters", ["report", "qrels.txt", "long.run", "b.run",
                                      "--no-robustness", "-m", "map", "-o", "r.html",
                                      "--names", "runid"],
       all_checks(html_page, page_holds(LONG, f"{LONG[:19]}…{LONG[:19]}"), no_warning),
       files={"long.run": text([f"{line.rsplit(' ', 1)[0]} {LONG}" for line in
                                run_lines("a")])}, allowed_new=("r.html",)),
]

#: ``--collection``: the workspace's qrels and runs, and a second collection of the same runs
#: (tests/faults/test_compare_collections_faults.py).
ACROSS = [*FAST, "-m", "map", "--collection", X, "--collection", Y, "-B", "50"]
CASES += [
    ok("collections", ACROSS, output_contains(
        "map across 2 collections: random-effects meta-analysis", "stratified bootstrap",
        "system (Wald", "variance components"), files=FILES),
    ok("collections-html", [*BASE, "--no-robustness", "-m", "map", "--collection", X,
                            "--collection", Y, "-o", "r.html"],
       all_checks(html_page, page_holds('id="across"', 'id="across-meta-map"',
                                        "forest plot")),
       files=FILES, allowed_new=("r.html",)),
    err("collection-one", [*FAST, "--collection", X], "2 --collection at least"),
    err("collection-malformed", [*FAST, "--collection", "X=qrels.txt", "--collection", Y],
        "--collection must be NAME=QRELS,RUNS", files=FILES),
    err("collection-twice", [*FAST, "--collection", X, "--collection", X],
        "--collection names ['X'] twice"),
    err("collection-qrels-missing", [*FAST, "--collection", X, "--collection",
                                     "Y=nope.qrels,a.run,b.run,c.run"], "nope.qrels"),
    err("collection-run-malformed", [*FAST, "--collection", X, "--collection",
                                     "Y=y.qrels,a.run,b.run,bad.run"], "bad.run", "line 2",
        files={**FILES, "bad.run": text(["1 Q0 d1 1 0.5 r", "1 Q0 d2"])}),
    err("collection-system-missing", [*FAST, "--collection", X, "--collection",
                                      "Y=y.qrels,a.run,b.run"], "collection 'Y'",
        "'c'", files=FILES),
    err("collection-o-is-its-qrels", [*ACROSS, "-o", "y.qrels", "--force"], "y.qrels",
        "input", files=FILES),
    ok("collections-manifest", [*FAST, "-m", "map", "--collections", "suite.tsv", "-B", "50"],
       same_output_as(*ACROSS), files=MANIFEST),
    ok("collections-weights-topics", [*ACROSS, "--weights", "topics"], output_contains(
        "weights topics: each collection weighs its number of topics"), files=FILES),
    err("collections-manifest-run-set-differs",
        [*FAST, "-m", "map", "--collections", "m.tsv"], "m.tsv", "line 3",
        "collection 'Y' has no run of system(s)",
        files={**FILES, "m.tsv": text([HEADER, *ROWS[:2], ROWS[3]])}),
    err("collections-manifest-and-collection",
        [*ACROSS, "--collections", "suite.tsv"], "not both", files=MANIFEST),
    err("weights-without-collections", [*FAST, "--weights", "topics"],
        "--weights applies to the comparison across collections"),
    err("collections-manifest-o-is-it", [*FAST, "-m", "map", "--collections", "suite.tsv",
                                         "-o", "suite.tsv", "--force"], "suite.tsv",
        "input", files=MANIFEST),
]

#: ``--flip-rate`` and the other confusions of the judges: the section on judge noise
#: (tests/faults/test_meta_judge_noise_faults.py: the files).
NOISE = [*FAST, "-m", "map", "--replicates", "5"]
CASES += [
    ok("judge-noise-flip-rate", [*NOISE[:1], "binary.txt", *NOISE[2:], "--flip-rate", "0.1"],
       output_contains("under judge noise", "decision kept", "Fragility of each measure"),
       files=NOISE_FILES),
    ok("judge-noise-html", [*BASE, "--no-robustness", "-m", "map", "--replicates", "5",
                            "--confusion", "conf.txt", "-o", "r.html"],
       all_checks(html_page, page_holds('id="judge-noise-section"', 'id="judge-noise"',
                                        'href="#judge-noise-section"', "robust")),
       files=NOISE_FILES, allowed_new=("r.html",)),
    ok("judge-noise-auto-sample", [*NOISE, "--auto-sample", "second.txt,h.txt", "--seed", "2"],
       output_contains("estimated from h.txt and second.txt"),
       files={**NOISE_FILES, **HUMAN}),
    err("judge-noise-replicates-alone", NOISE, "--replicates", "--flip-rate"),
    err("judge-noise-two-confusions", [*NOISE, "--flip-rate", "0.1", "--confusion",
                                       "conf.txt"], "one of", files=NOISE_FILES),
    err("judge-noise-grade-missing", [*NOISE, "--flip-rate", "0.1"], "qrels.txt", "grade 2",
        "not a grade of the confusion"),
    err("judge-noise-auto-sample-one", [*NOISE, "--auto-sample", "h.txt"], "two qrels files",
        files=HUMAN),
    err("judge-noise-o-is-the-confusion", [*NOISE, "--confusion", "conf.txt", "-o",
                                           "conf.txt", "--force"], "conf.txt", "input",
        files=NOISE_FILES),
]


#: The section planning the human labels: QRELS (qrels.txt) the judge's labels, h.txt the
#: pilot (topics 1-3, people disagreeing with the judge on one pair: labels plan's files).
PILOT = {"h.txt": PLAN_FILES["h.txt"]}
PLAN = [*FAST, "-m", "P@5", "--plan-pilot", "h.txt", "--plan-width", "0.3"]
#: ``irscale labels plan`` of the same files: the numbers the section must show.
PLANNED = ["labels", "plan", "qrels.txt", "h.txt", "a.run", "b.run", "c.run", "-m", "P@5",
           "--width", "0.3"]


def plan_numbers(*extra: str, page: str | None = None):
    """The report (its standard output, or the file ``page``) shows the labels each
    estimate needs, its widths and the totals that ``irscale labels plan`` prints for the
    same files and options ``extra`` (its JSON, at the report's 4 digits)."""
    import json

    from irscale.stats.tables import format_number

    def check(result, ws, run):
        reference = run([*PLANNED, *extra, "--format", "json"])
        assert_ok(reference)
        planned = json.loads(reference.out)
        shown = result.out if page is None else ws.read(page).decode("utf-8")
        needles = [f"{planned['labels']}", f"{planned['more']}"]
        for row in planned["estimates"]:
            needles += [format_number(row[column], 4) for column in
                        ("automatic", "pilot_width", "sampling_width", "total_width")]
        missing = [needle for needle in needles if needle not in shown]
        assert not missing, f"lacks {missing}" + result.describe()

    return check


def swap_word(argv: list[str], old: str, new: str) -> list[str]:
    """``argv`` with the word ``old`` replaced by ``new``."""
    return [new if word == old else word for word in argv]


def planned_ok(id, argv, check, *, files=None, allowed_new=()):
    return ok(id, argv, check, files={**PILOT, **(files or {})}, allowed_new=allowed_new)


def planned_err(id, argv, *needles, files=None):
    return err(id, argv, *needles, files={**PILOT, **(files or {})})


CASES += [
    planned_ok("plan-markdown", PLAN, all_checks(
        plan_numbers(), output_contains("Human labels planned in all (active design; 95% "
                                        "intervals 0.3 wide)", "unjudged_width",
                                        "New human labels by topic"))),
    planned_ok("plan-latex", [*swap_word(PLAN, "markdown", "latex"), "--plan-pairs", "a:b",
                      "--plan-design", "stratified"],
       all_checks(plan_numbers("--pairs", "a:b", "--design", "stratified"),
                  output_contains("\\caption{Human labels planned in all (stratified",
                                  "a - b"))),
    planned_ok("plan-html", [*BASE, "--no-robustness", "-m", "P@5", "--plan-pilot", "h.txt",
                     "--plan-width", "0.3", "--alpha", "0.1", "-o", "r.html"],
       all_checks(html_page, page_holds('<section id="labels-plan">', 'id="plan-estimates"',
                                        'id="plan-topics"', 'href="#labels-plan"',
                                        "90% intervals 0.3 wide"),
                  plan_numbers("--confidence", "0.9", page="r.html")),
       allowed_new=("r.html",)),
    planned_ok("plan-uniform-share", [*PLAN, "--plan-uniform-share", "0.2"],
       plan_numbers("--uniform-share", "0.2")),
    planned_err("plan-pilot-missing", swap_word(PLAN, "h.txt", "nope.txt"),
                "cannot read nope.txt"),
    planned_err("plan-pilot-malformed", swap_word(PLAN, "h.txt", "h3.txt"), "h3.txt", "line 2",
        "'1 0 d2'", files={"h3.txt": text(["1 0 d1 1", "1 0 d2"])}),
    planned_err("plan-pilot-grade-not-a-number", swap_word(PLAN, "h.txt", "h3.txt"), "h3.txt",
        "line 2", "high", files={"h3.txt": text(["1 0 d1 1", "1 0 d2 high"])}),
    planned_err("plan-pilot-outside-judge", swap_word(PLAN, "h.txt", "h9.txt"), "'9'", "'d1'",
        files={"h9.txt": text(["9 0 d1 1", "1 0 d1 1", "1 0 d2 0"])}),
    planned_err("plan-width-zero", swap_word(PLAN, "0.3", "0"), opt("--plan-width"),
                "positive number, got 0.0"),
    planned_err("plan-width-negative", swap_word(PLAN, "0.3", "-1"), opt("--plan-width"),
                "positive number, got -1.0"),
    planned_err("plan-width-text", swap_word(PLAN, "0.3", "wide"), opt("--plan-width"), "'wide'"),
    planned_err("plan-width-nan", swap_word(PLAN, "0.3", "nan"), opt("--plan-width"),
                "positive number, got nan"),
    planned_err("plan-pilot-without-width", PLAN[:-2], "--plan-pilot h.txt needs --plan-width"),
    planned_err("plan-width-without-pilot", [*FAST, "-m", "P@5", "--plan-width", "0.3"],
        "--plan-width", "--plan-pilot"),
    planned_err("plan-design-unknown", [*PLAN, "--plan-design", "best"], opt("--plan-design"),
                "unknown label design 'best'"),
    planned_err("plan-share-not-active", [*PLAN, "--plan-design", "uniform", "--plan-uniform-share",
                                  "0.2"], "--plan-uniform-share", "--plan-design active"),
    planned_err("plan-pair-unknown-run", [*PLAN, "--plan-pairs", "a:x"], opt("--plan-pairs"), "'x'",
        "names no run", "'a' (a.run)"),
    planned_err("plan-pair-same-run-by-file", [*PLAN, "--plan-pairs", "a:a.run"],
                opt("--plan-pairs"), "twice"),
    planned_err("plan-pair-same-run", [*PLAN, "--plan-pairs", "a:a"], opt("--plan-pairs"), "twice"),
    planned_err("plan-pair-no-colon", [*PLAN, "--plan-pairs", "ab"], opt("--plan-pairs"), "A:B"),
    planned_err("plan-not-a-sum", swap_word(PLAN, "P@5", "map"), "map", "not a sum"),
    planned_err("plan-with-automatic", [*PLAN, "--automatic", "qrels.txt"], "--plan-pilot",
        "--automatic"),
    planned_err("plan-pilot-one-label", swap_word(PLAN, "h.txt", "h1.txt"), "2 pairs at least",
        files={"h1.txt": text(["1 0 d1 1"])}),
    planned_err("plan-o-is-the-pilot", [*PLAN, "-o", "h.txt", "--force"], "h.txt", "input"),
]


@pytest.mark.parametrize("case", CASES)
def test_report(case, ws, run_cli):
    run_case(case, ws, run_cli)
