"""``irscale online fairpairs``: faulty runs, qrels and click models, and every option's bad
values and combinations."""

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
from .test_online_faults import MODEL, _model_json

PAIRS = ["online", "fairpairs", "a.run", "--clicks", "perfect", "--qrels", "qrels.txt",
         "--impressions", "20", "--seed", "1"]
RANDOM = ["online", "fairpairs", "a.run", "--clicks", "random", "--impressions", "20",
          "--seed", "1"]


def run_argv(name: str) -> list[str]:
    return ["online", "fairpairs", name, *PAIRS[3:]]


def qrels_argv(name: str) -> list[str]:
    return with_option(PAIRS, "--qrels", name)


CASES = [
    ok("fairpairs-perfect", PAIRS, output_contains("FairPairs", "a_over_b", "b_over_a")),
    ok("fairpairs-random", RANDOM, output_contains("preferred")),
    ok("fairpairs-random-prob", [*RANDOM, "--click-prob", "0.2"]),
    ok("fairpairs-model", with_option(RANDOM, "--clicks", "pbm.json"), files=MODEL),
    err("fairpairs-model-no-topic", with_option(RANDOM, "--clicks", "other.json"),
        "no parameter for any topic", files={"other.json": _model_json("xyz")}),
    ok("fairpairs-csv", [*PAIRS, "--format", "csv"],
       output_contains("topic,rank,a,b,impressions,flipped,a_over_b,b_over_a")),
    ok("fairpairs-json", [*PAIRS, "--format", "json"], output_contains('"a_over_b"')),
    ok("fairpairs-level-alpha", [*PAIRS, "-l", "2", "--alpha", "0.1"]),
    ok("fairpairs-length", [*PAIRS, "--length", "3"]),
    ok("fairpairs-output", [*PAIRS, "-o", "out.txt"], allowed_new=("out.txt",)),
    err("fairpairs-output-is-input", [*PAIRS, "-o", "a.run", "--force"], "a.run"),
    err("fairpairs-output-is-qrels", [*PAIRS, "-o", "qrels.txt"], "qrels.txt"),
    err("fairpairs-two-runs", ["online", "fairpairs", "a.run", "b.run", *PAIRS[3:]],
        "b.run"),
    err("fairpairs-no-run", ["online", "fairpairs", "--clicks", "random"], "RUN"),
    err("fairpairs-no-clicks", PAIRS[:3], opt("--clicks")),
    err("fairpairs-perfect-no-qrels", with_option(RANDOM, "--clicks", "perfect"),
        opt("--qrels")),
    err("fairpairs-qrels-not-perfect", [*RANDOM, "--qrels", "qrels.txt"], opt("--qrels")),
    err("fairpairs-level-not-perfect", [*RANDOM, "-l", "1"], opt("-l")),
    err("fairpairs-click-prob-not-random", [*PAIRS, "--click-prob", "0.5"],
        opt("--click-prob")),
    err("fairpairs-click-prob-2", [*RANDOM, "--click-prob", "2"], opt("--click-prob")),
    err("fairpairs-model-missing", with_option(RANDOM, "--clicks", "nope.json"), "nope.json"),
    err("fairpairs-model-bad-json", with_option(RANDOM, "--clicks", "bad.json"), "bad.json",
        files={"bad.json": "{not json"}),
    err("fairpairs-impressions-0", with_option(PAIRS, "--impressions", "0"),
        opt("--impressions")),
    err("fairpairs-impressions-huge", with_option(PAIRS, "--impressions", str(2**63 - 1)),
        opt("--impressions"), "memory limit"),
    # a list is never longer than the ranking: a longer --length changes nothing and is
    # not allocated
    ok("fairpairs-length-huge", [*PAIRS, "--length", str(2**63 - 1)],
       same_output_as(*PAIRS, "--length", "10001")),
    err("fairpairs-length-0", [*PAIRS, "--length", "0"], opt("--length")),
    err("fairpairs-seed-negative", with_option(PAIRS, "--seed", "-1"), opt("--seed")),
    err("fairpairs-alpha-1", [*PAIRS, "--alpha", "1"], opt("--alpha")),
    err("fairpairs-format-unknown", [*PAIRS, "--format", "xml"], "xml"),
    err("fairpairs-method", [*PAIRS, "--method", "team-draft"], "--method"),
    err("fairpairs-empty-run", run_argv("empty.run"), any_of("empty.run", "no document"),
        files={"empty.run": ""}),
    *trec_file_faults("fairpairs-run", "run", run_argv, run_argv("a.run"), name="bad.run"),
    *trec_file_faults("fairpairs-qrels", "qrels", qrels_argv, qrels_argv("qrels.txt"),
                      name="bad.qrels"),
]


@pytest.mark.parametrize("case", CASES)
def test_online_fairpairs(case, ws, run_cli):
    run_case(case, ws, run_cli)
