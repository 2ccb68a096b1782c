"""``irscale online sensitivity``: faulty qrels, runs and click models, and every option's
bad values and combinations."""

from __future__ import annotations

import pytest

from .catalog import trec_file_faults
from .conftest import (
    any_of,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    same_output_as,
    with_option,
)
from .test_online_faults import MODEL

BASE = ["online", "sensitivity", "qrels.txt", "a.run", "b.run", "--impressions", "10,20",
        "--repetitions", "5", "--seed", "1"]


def run_argv(name: str) -> list[str]:
    return [*BASE[:3], name, *BASE[4:]]


def qrels_argv(name: str) -> list[str]:
    return [*BASE[:2], name, *BASE[3:]]


CASES = [
    ok("sensitivity", BASE, output_contains("team-draft", "ab", "agreement",
                                            "impressions needed")),
    ok("sensitivity-perfect", [*BASE, "--model", "perfect"]),
    ok("sensitivity-informational", [*BASE, "--model", "informational"]),
    ok("sensitivity-params", [*BASE, "--model", "pbm.json"], files=MODEL),
    ok("sensitivity-three-runs", [*BASE[:5], "c.run", *BASE[5:]], output_contains("ab")),
    ok("sensitivity-methods", [*BASE, "--method", "team-draft,balanced,probabilistic,"
                               "optimized", "--length", "4"],
       output_contains("balanced", "probabilistic", "optimized")),
    ok("sensitivity-credit", [*BASE, "--method", "optimized", "--credit", "linear",
                              "--length", "4"]),
    ok("sensitivity-ab-measure", [*BASE, "--ab-measure", "reciprocal_rank"]),
    ok("sensitivity-measure", [*BASE, "--measure", "P@5"], output_contains("P@5")),
    ok("sensitivity-target-alpha", [*BASE, "--target", "0.5", "--alpha", "0.1"],
       output_contains(">= 0.5")),
    ok("sensitivity-names-runid", [*BASE, "--names", "runid"],
       output_contains("teamA_r1  teamB_r1")),
    ok("sensitivity-names-given", [*BASE, "--names", "x,y"], output_contains("x  y")),
    err("sensitivity-names-count", [*BASE, "--names", "x"], opt("--names", "names"),
        "2 runs"),
    ok("sensitivity-csv", [*BASE, "--format", "csv"],
       output_contains("a,b,delta,preference,method,impressions")),
    ok("sensitivity-json", [*BASE, "--format", "json"], output_contains('"agreement"')),
    ok("sensitivity-output", [*BASE, "-o", "out.txt"], allowed_new=("out.txt",)),
    err("sensitivity-output-is-input", [*BASE, "-o", "qrels.txt", "--force"], "qrels.txt"),
    err("sensitivity-output-is-model", [*BASE, "--model", "pbm.json", "-o", "pbm.json",
                                        "--force"], "pbm.json", files=MODEL),
    err("sensitivity-one-run", [*BASE[:4], *BASE[5:]], "two"),
    err("sensitivity-no-runs", BASE[:3], any_of("RUN", "runs")),
    err("sensitivity-model-missing", [*BASE, "--model", "nope.json"], "nope.json"),
    err("sensitivity-model-misspelt", [*BASE, "--model", "navigationl"], "navigationl"),
    err("sensitivity-model-bad-json", [*BASE, "--model", "bad.json"], "bad.json",
        files={"bad.json": "{not json"}),
    err("sensitivity-model-not-utf8", [*BASE, "--model", "bad.json"], "bad.json",
        files={"bad.json": b"\xff\xfe{"}),
    err("sensitivity-model-is-a-folder", [*BASE, "--model", "adir"], "adir"),
    err("sensitivity-impressions-1", with_option(BASE, "--impressions", "1,10"),
        opt("--impressions")),
    err("sensitivity-impressions-0", with_option(BASE, "--impressions", "0"),
        opt("--impressions")),
    err("sensitivity-impressions-text", with_option(BASE, "--impressions", "10,x"),
        opt("--impressions")),
    err("sensitivity-impressions-empty", with_option(BASE, "--impressions", ""),
        opt("--impressions")),
    err("sensitivity-impressions-empty-item", with_option(BASE, "--impressions", "10,,20"),
        opt("--impressions")),
    err("sensitivity-impressions-decreasing", with_option(BASE, "--impressions", "20,10"),
        opt("--impressions")),
    err("sensitivity-impressions-twice", with_option(BASE, "--impressions", "10,10"),
        opt("--impressions")),
    err("sensitivity-too-many-users", with_option(
        with_option(BASE, "--impressions", "10,2000000"), "--repetitions", "100"),
        "repetitions"),
    err("sensitivity-repetitions-0", with_option(BASE, "--repetitions", "0"),
        opt("--repetitions")),
    err("sensitivity-repetitions-text", with_option(BASE, "--repetitions", "x"),
        opt("--repetitions")),
    err("sensitivity-seed-negative", with_option(BASE, "--seed", "-1"), opt("--seed")),
    err("sensitivity-seed-text", with_option(BASE, "--seed", "x"), opt("--seed")),
    err("sensitivity-measure-unknown", [*BASE, "--measure", "nope"], "nope"),
    err("sensitivity-measure-several", [*BASE, "--measure", "P.5,10"], "one"),
    err("sensitivity-method-unknown", [*BASE, "--method", "tdi"], "tdi"),
    err("sensitivity-method-twice", [*BASE, "--method", "balanced,balanced"],
        opt("--method")),
    err("sensitivity-method-empty", [*BASE, "--method", ""], opt("--method")),
    err("sensitivity-credit-team-draft", [*BASE, "--credit", "inverse"], opt("--credit")),
    err("sensitivity-credit-unknown", [*BASE, "--method", "optimized", "--credit", "log",
                                       "--length", "4"], "log"),
    err("sensitivity-ab-measure-unknown", [*BASE, "--ab-measure", "ctr"], "ctr"),
    err("sensitivity-length-0", [*BASE, "--length", "0"], opt("--length")),
    ok("sensitivity-length-huge", [*BASE, "--length", str(2**63 - 1)],
       same_output_as(*BASE, "--length", "10001")),
    err("sensitivity-length-optimized-17", [*BASE, "--method", "optimized", "--length",
                                            "17"], opt("--length")),
    err("sensitivity-target-0", [*BASE, "--target", "0"], opt("--target")),
    err("sensitivity-target-2", [*BASE, "--target", "2"], opt("--target")),
    err("sensitivity-target-nan", [*BASE, "--target", "nan"], opt("--target")),
    err("sensitivity-alpha-1", [*BASE, "--alpha", "1"], opt("--alpha")),
    err("sensitivity-alpha-nan", [*BASE, "--alpha", "nan"], opt("--alpha")),
    ok("sensitivity-significance", [*BASE, "--significance", "0.05"]),
    err("sensitivity-significance-0", [*BASE, "--significance", "0"], opt("--significance")),
    err("sensitivity-significance-1", [*BASE, "--significance", "1"], opt("--significance")),
    err("sensitivity-significance-nan", [*BASE, "--significance", "nan"],
        opt("--significance")),
    err("sensitivity-significance-text", [*BASE, "--significance", "x"],
        opt("--significance")),
    err("sensitivity-format-unknown", [*BASE, "--format", "xml"], "xml"),
    err("sensitivity-unknown-option", [*BASE, "--bogus"], "--bogus"),
    err("sensitivity-no-common-topic", BASE, any_of("no topic", "topic"),
        files={"qrels.txt": "999 0 d1 1\n"}),
    # the faulty run file keeps a.run's file name (a run is named by its file), in a folder
    *trec_file_faults("sensitivity-run", "run", run_argv, run_argv("a.run"),
                      name="bad/a.run"),
    *trec_file_faults("sensitivity-qrels", "qrels", qrels_argv, qrels_argv("qrels.txt"),
                      name="bad.qrels"),
]


@pytest.mark.parametrize("case", CASES)
def test_online_sensitivity(case, ws, run_cli):
    run_case(case, ws, run_cli)
