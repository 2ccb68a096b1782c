"""``irscale labels plan | select``: the judge's and the pilot's qrels (file, line and text
named), the measures (sums over the ranked documents), the width, level, design, pairs of
runs, budget and seed; the sampled judgments select writes, refused by ``labels auto``
until every pair is labelled."""

from __future__ import annotations

import pytest

from .catalog import trec_file_faults
from .conftest import (
    RUN_IDS,
    err,
    file_holds_output_of,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    text,
)
from .test_labels_faults import Q2, RUNS

PLAN = ["labels", "plan", "qrels.txt", "h.txt", *RUNS, "-m", "P@5", "--width", "0.3"]
SELECT = ["labels", "select", "qrels.txt", "h.txt", *RUNS, "-m", "P@5", "--budget", "6",
          "--seed", "1"]
#: A pilot of two pairs, both of judge grade 0 (qrels.txt: 1 d2 and 1 d4 are 0).
TWO = {"h2.txt": text(["1 0 d2 0", "1 0 d4 0"])}
#: select's lines for one pilot pair and one pair left to label.
TODO = {"todo.txt": text(["1 0 d1 0 1.0", "4 0 d1 -1 0.5"])}


def swap(argv: list[str], old: str, new: str) -> list[str]:
    """``argv`` with the word ``old`` replaced by ``new``."""
    return [new if word == old else word for word in argv]


def good(id, argv, check=None, *, files=None, allowed_new=()):
    return ok(id, argv, check, files={**Q2, **(files or {})}, allowed_new=allowed_new)


def bad(id, argv, *needles, files=None):
    return err(id, argv, *needles, files={**Q2, **(files or {})})


def _judge(name: str) -> list[str]:
    return ["labels", "plan", name, "h.txt", *RUNS, "-m", "P@5", "--width", "0.3"]


def _with_pilot(case):
    """A case of the catalogue with the pilot's file added."""
    value = case.values[0]
    return pytest.param(value.__class__(**{**value.__dict__,
                                           "files": (*value.files, *Q2.items())}),
                        id=case.id)


CASES = [
    # ================================================================ plan
    good("plan", PLAN, output_contains("sampling_width", "unjudged_width", "New labels")),
    *[good(f"plan-{design}", [*PLAN, "--design", design]) for design in
      ("active", "stratified", "uniform")],
    good("plan-pairs", [*PLAN, "--pairs", "a:b,b:c", "--format", "csv"],
         output_contains("a − b", "b − c")),
    good("plan-json", [*PLAN, "--format", "json"], output_contains('"topics"', '"more"')),
    good("plan-confidence", [*PLAN, "--confidence", "0.9", "--uniform-share", "0.5"]),
    bad("plan-no-width", PLAN[:-2], opt("--width")),
    bad("plan-width-zero", swap(PLAN, "0.3", "0"), opt("--width")),
    bad("plan-width-negative", swap(PLAN, "0.3", "-1"), opt("--width")),
    bad("plan-width-text", swap(PLAN, "0.3", "wide"), opt("--width")),
    bad("plan-confidence-one", [*PLAN, "--confidence", "1"], opt("--confidence")),
    bad("plan-confidence-zero", [*PLAN, "--confidence", "0"], opt("--confidence")),
    bad("plan-design", [*PLAN, "--design", "best"], opt("--design")),
    bad("plan-share-range", [*PLAN, "--uniform-share", "1.5"], opt("--uniform-share")),
    bad("plan-share-not-active", [*PLAN, "--design", "uniform", "--uniform-share", "0.2"],
        "--uniform-share", "--design active"),
    # a pair's runs designated as every argument naming a run: name, file or run id
    good("plan-pairs-by-file-and-runid", [*PLAN, "--pairs", "a.run:" + RUN_IDS["b"],
                                          "--format", "csv"], output_contains("a − b")),
    bad("plan-pair-unknown-run", [*PLAN, "--pairs", "a:x"], "'x'", "names no run",
        "'a' (a.run)"),
    bad("plan-pair-same-run-by-file", [*PLAN, "--pairs", "a:a.run"], opt("--pairs"),
        "twice"),
    bad("plan-pair-no-colon", [*PLAN, "--pairs", "ab"], opt("--pairs"), "A:B"),
    bad("plan-pair-same-run", [*PLAN, "--pairs", "a:a"], opt("--pairs"), "twice"),
    bad("plan-no-run", PLAN[:4] + PLAN[7:], "one run file"),
    bad("plan-no-measure", PLAN[:7] + PLAN[9:], opt("-m", "--measure")),
    bad("plan-not-a-sum", swap(PLAN, "P@5", "map"), "map", "not a sum"),
    bad("plan-unknown-measure", swap(PLAN, "P@5", "nosuch"), "nosuch"),
    bad("plan-pilot-missing", swap(PLAN, "h.txt", "nope.txt"), "nope.txt"),
    bad("plan-pilot-malformed", swap(PLAN, "h.txt", "h3.txt"), "h3.txt", "line 2",
        files={"h3.txt": text(["1 0 d1 1", "1 0 d2"])}),
    bad("plan-pilot-outside-judge", swap(PLAN, "h.txt", "h9.txt"), "'9'", "'d1'",
        files={"h9.txt": text(["9 0 d1 1", "1 0 d1 1", "1 0 d2 0"])}),
    bad("plan-pilot-one-label", swap(PLAN, "h.txt", "h1.txt"), "2 pairs at least",
        files={"h1.txt": text(["1 0 d1 1"])}),
    bad("plan-pilot-grade-too-small", swap(PLAN, "h.txt", "h2.txt"), "judge grades 1",
        "2 at least", files=TWO),
    good("plan-pilot-small-uniform", [*swap(PLAN, "h.txt", "h2.txt"), "--design", "uniform"],
         files=TWO),
    bad("plan-judge-missing", swap(PLAN, "qrels.txt", "nope.txt"), "nope.txt"),
    *[_with_pilot(case) for case in trec_file_faults("plan-judge", "qrels", _judge,
                                                     _judge("qrels.txt"), name="qrels.txt")],
    # ================================================================ select
    good("select", SELECT, output_contains("1 0 d1 0 1.0\n", " -1 ")),
    *[good(f"select-{design}", [*SELECT, "--design", design]) for design in
      ("active", "stratified", "uniform")],
    good("select-to-file", [*SELECT, "-o", "todo.txt"], file_holds_output_of("todo.txt", *SELECT),
         allowed_new=("todo.txt",)),
    good("select-pairs", [*SELECT, "--pairs", "a:b", "--uniform-share", "0"]),
    bad("select-no-budget", SELECT[:-4] + SELECT[-2:], opt("--budget")),
    bad("select-budget-zero", swap(SELECT, "6", "0"), opt("--budget")),
    bad("select-budget-beyond", swap(SELECT, "6", "19"), "budget 19", "18 pairs"),
    # P@1 weighs one document of a ranking: 9 pairs outside the pilot can move an estimate
    bad("select-budget-beyond-weighed", swap(swap(SELECT, "6", "12"), "P@5", "P@1"),
        "budget 12", "pairs outside the pilot whose label can move"),
    good("select-budget-weighed", swap(SELECT, "P@5", "P@1")),
    bad("select-stratified-budget-below-grades", [*swap(SELECT, "6", "2"), "--design",
                                                  "stratified"], "budget 2", "3 judge grades"),
    bad("select-seed", swap(SELECT, "1", "-1"), opt("--seed")),
    bad("select-share-not-active", [*SELECT, "--design", "stratified", "--uniform-share",
                                    "0.2"], "--uniform-share"),
    bad("select-pilot-grade-too-small", swap(SELECT, "h.txt", "h2.txt"), "judge grades 1",
        files=TWO),
    bad("select-not-a-sum", swap(SELECT, "P@5", "map"), "not a sum"),
    bad("select-output-is-input", [*SELECT, "-o", "h.txt", "--force"], "h.txt"),
    # select's lines, a pair still at -1: labels auto names its line
    bad("auto-reads-select-unlabelled", ["labels", "auto", "qrels.txt", "todo.txt", *RUNS,
                                         "-m", "P@5", "--design", "inclusion"],
        "todo.txt", "line 2", "negative", files=TODO),
    good("auto-reads-select-labelled", ["labels", "auto", "qrels.txt", "todo.txt", *RUNS,
                                        "-m", "P@5", "--design", "inclusion"],
         files={"todo.txt": text(["1 0 d1 0 1.0", "4 0 d1 0 0.5"])}),
]

assert qrels_lines()[1] == "1 0 d2 0" and qrels_lines()[3] == "1 0 d4 0"  # TWO's grades


@pytest.mark.parametrize("case", CASES)
def test_labels_plan(case, ws, run_cli):
    run_case(case, ws, run_cli)
