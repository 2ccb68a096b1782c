"""``irscale pool build | simulate``: faulty runs, qrels and contributor files, bad
strategies, budgets and parameters."""

from __future__ import annotations

import pytest

from .catalog import no_warning, trec_file_faults
from .conftest import (
    all_checks,
    any_of,
    assert_error,
    err,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    run_lines,
    text,
    with_option,
)

RUNS = ["a.run", "b.run", "c.run"]
BUILD = ["pool", "build", *RUNS, "--strategy", "depth", "--depth", "2"]
BANDIT = ["pool", "build", *RUNS, "--strategy", "mm-ns", "--budget", "3", "--seed", "1"]
SIM = ["pool", "simulate", "qrels.txt", *RUNS, "--strategy", "depth,mtf,mm-ns",
       "--budget", "2,4", "--seed", "1"]
SHARDS = ["pool", "shards", "qrels.txt", *RUNS, "--shards", "2", "--seed", "1", "--empty",
          "zero"]
SAMPLE = ["pool", "sample", *RUNS, "--size", "3", "--seed", "1"]
ESTIMATE = ["pool", "estimate", "sampled.txt", *RUNS]
BOUNDS = ["pool", "bounds", "qrels.txt", *RUNS, "-m", "P.3"]
SAMPLED = {"sampled.txt": text([line + " 0.5" for line in qrels_lines()])}
CONTRIB = [f"{rid} {rid.split('_')[0]}" for rid in ("teamA_r1", "teamB_r1", "teamC_r2")]


def build_argv(name: str) -> list[str]:
    return ["pool", "build", name, "b.run", "--strategy", "depth", "--depth", "2"]


def sim_run_argv(name: str) -> list[str]:
    return ["pool", "simulate", "qrels.txt", name, "b.run", "--budget", "2", "--seed", "1"]


def sim_qrels_argv(name: str) -> list[str]:
    return ["pool", "simulate", name, "a.run", "b.run", "--budget", "2", "--seed", "1"]


def shards_run_argv(name: str) -> list[str]:
    return ["pool", "shards", "qrels.txt", name, "b.run", "--shards", "2", "--seed", "1",
            "--empty", "zero"]


def shards_qrels_argv(name: str) -> list[str]:
    return ["pool", "shards", name, "a.run", "b.run", "--shards", "2", "--seed", "1",
            "--empty", "zero"]


def file_starts_with(name: str, start: str):
    def check(result, ws, run):
        assert (ws.root / name).read_text().startswith(start)

    return check


def sample_lines(fields: int):
    def check(result, ws, run):
        rows = [line.split() for line in result.out.splitlines()]
        assert rows and all(len(r) == fields for r in rows), rows
        assert all(0 < float(r[-1]) <= 1 for r in rows), rows

    return check


def estimated_from(name: str):
    """The sample written with --qrels is what 'pool estimate' reads."""

    def check(result, ws, run):
        estimated = run(["pool", "estimate", name, *RUNS])
        assert estimated.status == 0 and "statAP" in estimated.out, estimated.describe()

    return check


def lines_per_topic(expected: int):
    def check(result, ws, run):
        rows = [line.split() for line in result.out.splitlines()]
        counts: dict[str, int] = {}
        for row in rows:
            counts[row[0]] = counts.get(row[0], 0) + 1
        assert counts and all(n == expected for n in counts.values()), counts

    return check


INDUCED = ["depth-2", "depth-4", "mtf-2", "mtf-4", "mm-ns-2", "mm-ns-4"]


def induced_qrels_readable(folder: str, names: list[str]):
    """``--qrels-out``: one ``topic 0 docno rel`` file per strategy and budget, each read
    by ``irscale eval`` and judging no more documents per topic than its budget."""

    def check(result, ws, run):
        assert sorted(p.name for p in (ws.root / folder).iterdir()) == \
            sorted(f"{n}.qrels" for n in names)
        for name in names:
            path = ws.root / folder / f"{name}.qrels"
            rows = [line.split() for line in path.read_text().splitlines()]
            assert rows and all(len(r) == 4 and r[1] == "0" for r in rows), rows
            budget = int(name.rsplit("-", 1)[1])
            per_topic: dict[str, int] = {}
            for row in rows:
                per_topic[row[0]] = per_topic.get(row[0], 0) + 1
            assert max(per_topic.values()) <= budget, per_topic
            evaluated = run(["eval", str(path), "a.run", "-m", "map"])
            assert evaluated.status == 0 and "map" in evaluated.out, evaluated.describe()

    return check


CASES = [
    # ================================================================ build
    ok("build-depth", BUILD, output_contains("1 d")),
    ok("build-take", ["pool", "build", *RUNS, "--strategy", "take", "--budget", "3"],
       lines_per_topic(3)),
    ok("build-rbp", ["pool", "build", *RUNS, "--strategy", "rbp", "--budget", "2",
                     "--p", "0.5"], lines_per_topic(2)),
    ok("build-rrf", ["pool", "build", *RUNS, "--strategy", "rrf", "--budget", "2", "--k", "10"],
       lines_per_topic(2)),
    ok("build-bandit-live-no-qrels", BANDIT, lines_per_topic(1)),
    ok("build-bandit-qrels", [*BANDIT, "--qrels", "qrels.txt"], output_contains(" 1\n")),
    ok("build-mtf", ["pool", "build", *RUNS, "--strategy", "mtf", "--qrels", "qrels.txt",
                     "--seed", "2"]),
    ok("build-ts-ns-discount", [*with_option(BANDIT, "--strategy", "ts-ns"), "--discount",
                                "0.5"]),
    ok("build-ties-file-order", [*BUILD, "--ties", "file-order"]),
    ok("build-output-file", [*BUILD, "-o", "pool.txt"], allowed_new=("pool.txt",)),
    err("build-output-exists", [*BUILD, "-o", "qrels.txt"], "qrels.txt"),
    err("build-no-run", ["pool", "build", "--strategy", "depth", "--depth", "2"],
        "required", "RUN"),
    err("build-no-strategy", ["pool", "build", *RUNS, "--depth", "2"], opt("--strategy")),
    err("build-depth-without-depth", ["pool", "build", *RUNS, "--strategy", "depth",
                                      "--budget", "3"],
        "irscale: --strategy depth needs --depth K"),
    err("build-strategy-unknown", with_option(BUILD, "--strategy", "nosuch"), "nosuch"),
    err("build-depth-missing", ["pool", "build", *RUNS, "--strategy", "depth"],
        opt("--depth")),
    err("build-depth-0", with_option(BUILD, "--depth", "0"), opt("--depth")),
    err("build-depth-negative", with_option(BUILD, "--depth", "-3"), opt("--depth")),
    err("build-depth-not-a-number", with_option(BUILD, "--depth", "x"), opt("--depth")),
    err("build-budget-missing", ["pool", "build", *RUNS, "--strategy", "take"],
        opt("--budget")),
    err("build-budget-0", ["pool", "build", *RUNS, "--strategy", "take", "--budget", "0"],
        opt("--budget")),
    err("build-budget-negative", with_option(BANDIT, "--budget", "-1"), opt("--budget")),
    err("build-p-1", ["pool", "build", *RUNS, "--strategy", "rbp", "--budget", "2", "--p",
                      "1"], opt("--p")),
    err("build-p-nan", ["pool", "build", *RUNS, "--strategy", "rbp", "--budget", "2", "--p",
                        "nan"], opt("--p")),
    err("build-p-wrong-strategy", [*BUILD, "--p", "0.5"], opt("--p"), "rbp"),
    err("build-k-negative", ["pool", "build", *RUNS, "--strategy", "rrf", "--budget", "2",
                             "--k", "-1"], opt("--k")),
    err("build-k-inf", ["pool", "build", *RUNS, "--strategy", "rrf", "--budget", "2",
                        "--k", "inf"], opt("--k")),
    err("build-k-wrong-strategy", [*BUILD, "--k", "5"], opt("--k"), "rrf"),
    err("build-discount-0", [*BANDIT, "--discount", "0"], opt("--discount")),
    err("build-discount-wrong-strategy", [*with_option(BANDIT, "--strategy", "mm"),
                                          "--discount", "0.5"], opt("--discount")),
    err("build-seed-negative", with_option(BANDIT, "--seed", "-1"), opt("--seed")),
    err("build-seed-fixed-strategy", [*BUILD, "--seed", "1"], opt("--seed")),
    err("build-qrels-fixed-strategy", [*BUILD, "--qrels", "qrels.txt"], opt("--qrels")),
    err("build-qrels-missing", [*BANDIT, "--qrels", "nope.txt"], "nope.txt"),
    err("build-level-without-qrels", [*BANDIT, "-l", "2"], opt("-l", "--relevance-level")),
    err("build-level-0", [*BANDIT, "--qrels", "qrels.txt", "-l", "0"],
        opt("-l", "--relevance-level", "level")),
    err("build-ties-unknown", [*BUILD, "--ties", "random"], "random"),
    err("build-names-empty", [*BUILD, "--names", ""], "--names is empty"),
    err("build-names-count", [*BUILD, "--names", "x,y"], any_of("names", "3")),
    err("build-run-topics-unknown", [*BANDIT, "--qrels", "qrels.txt", "-l", "x"],
        opt("-l", "--relevance-level")),
    *trec_file_faults("build-run", "run", build_argv, build_argv("a.run"), name="bad.run"),
    *trec_file_faults("build-qrels", "qrels",
                      lambda name: [*BANDIT, "--qrels", name], [*BANDIT, "--qrels",
                                                                "qrels.txt"],
                      name="bad.qrels"),
    # ================================================================ simulate
    ok("simulate-valid", SIM, output_contains("relevant_found", "mm-ns", "loo_tau")),
    ok("simulate-csv", [*SIM, "--format", "csv"], output_contains("strategy,budget")),
    ok("simulate-no-loo", [*SIM, "--no-loo"], output_contains("tau_ap")),
    err("simulate-budget-beyond-64-bits", with_option(SIM, "--budget", str(10**30)),
        opt("--budget"), "1,000,000,000"),
    ok("simulate-measure", [*SIM, "-m", "P_5"]),
    err("simulate-run-sharing-no-topic", sim_run_argv("far.run"), "far", "no topic in common",
        files={"far.run": text([f"9{line}" for line in run_lines("a")])}),
    ok("simulate-contributors", [*SIM, "--contributors", "c.txt"],
       files={"c.txt": text(CONTRIB)}),
    ok("simulate-plot", [*SIM, "--plot", "curves.png"], allowed_new=("curves.png",)),
    ok("simulate-all-strategies", with_option(SIM, "--strategy",
                                              "depth,take,rbp,rrf,mtf,mm,mm-ns,ts,ts-ns")),
    ok("simulate-qrels-out", [*SIM, "--no-loo", "--qrels-out", "induced"],
       induced_qrels_readable("induced", INDUCED), allowed_new=("induced/",)),
    ok("simulate-qrels-out-force", [*SIM, "--no-loo", "--qrels-out", "out", "--force"],
       induced_qrels_readable("out", INDUCED), allowed_new=("out/", "out/depth-2.qrels"),
       files={"out/depth-2.qrels": "old\n"}),
    err("simulate-qrels-out-exists", [*SIM, "--no-loo", "--qrels-out", "out"],
        opt("--qrels-out"), "depth-2.qrels", "--force", files={"out/depth-2.qrels": "old\n"}),
    err("simulate-qrels-out-is-a-file", [*SIM, "--qrels-out", "qrels.txt"],
        opt("--qrels-out"), "qrels.txt"),
    err("simulate-qrels-out-no-parent", [*SIM, "--qrels-out", "nope/deeper"],
        opt("--qrels-out"), "nope"),
    err("simulate-qrels-out-and-output", [*SIM, "--qrels-out", "out", "-o",
                                          "out/mtf-4.qrels"], "-o", opt("--qrels-out"),
        files={"out": "<dir>"}),
    err("simulate-qrels-out-empty", [*SIM, "--qrels-out", ""], opt("--qrels-out")),
    err("simulate-qrels-out-bad-strategy", [*with_option(SIM, "--strategy", "nosuch"),
                                            "--qrels-out", "out"], "nosuch"),
    err("simulate-too-few-inputs", ["pool", "simulate", "qrels.txt", "a.run"],
        any_of("two run", "qrels")),
    err("simulate-no-run", ["pool", "simulate", "qrels.txt"], "required", "RUN"),
    # an unknown strategy is named as such, not blamed on an option that needs another one
    err("simulate-strategy-unknown-with-seed", [*SIM[:5], "--strategy", "bogus", "--seed",
                                                "1"], "--strategy", "pooling strategy",
        "bogus"),
    err("build-strategy-unknown-with-seed", ["pool", "build", *RUNS, "--strategy", "bogus",
                                             "--seed", "1"], "--strategy", "bogus"),
    err("simulate-strategy-unknown", with_option(SIM, "--strategy", "depth,nosuch"), "nosuch"),
    err("simulate-strategy-twice", with_option(SIM, "--strategy", "mtf,mtf"), "mtf"),
    err("simulate-strategy-empty", with_option(SIM, "--strategy", ""), opt("--strategy")),
    err("simulate-budget-0", with_option(SIM, "--budget", "0,2"), opt("--budget")),
    err("simulate-budget-not-a-number", with_option(SIM, "--budget", "2,x"), opt("--budget")),
    err("simulate-budget-twice", with_option(SIM, "--budget", "2,2"), opt("--budget")),
    err("simulate-measure-unknown", [*SIM, "-m", "nosuch"], "nosuch"),
    err("simulate-two-measures", [*SIM, "-m", "map P_5"], any_of("one measure", "measure")),
    err("simulate-depth-0", [*SIM, "--depth", "0"], opt("--depth")),
    err("simulate-p-wrong-strategy", [*SIM, "--p", "0.5"], opt("--p")),
    err("simulate-k-names-the-strategies", [*SIM, "--k", "5"],
        "applies to --strategy rrf, not to --strategy depth,mtf,mm-ns"),
    err("simulate-digits-csv", [*SIM, "--format", "csv", "--digits", "2"], opt("--digits")),
    err("simulate-plot-bad-extension", [*SIM, "--plot", "curves.txt"], opt("--plot")),
    err("simulate-pattern-and-file", [*SIM, "--contributors", "c.txt",
                                      "--contributor-pattern", "^t"],
        opt("--contributor-pattern"), files={"c.txt": text(CONTRIB)}),
    err("simulate-pattern-invalid", [*SIM, "--contributor-pattern", "("], "("),
    err("simulate-pattern-no-match", [*SIM, "--contributor-pattern", "^zz"], "zz"),
    err("simulate-contributors-with-no-loo", [*SIM, "--no-loo", "--contributors", "c.txt"],
        opt("--no-loo"), files={"c.txt": text(CONTRIB)}),
    err("simulate-contributors-missing", [*SIM, "--contributors", "nope.txt"], "nope.txt"),
    err("simulate-contributors-one-field", [*SIM, "--contributors", "c.txt"], "c.txt",
        "line 2", files={"c.txt": text([CONTRIB[0], "teamB_r1", CONTRIB[2]])}),
    err("simulate-one-contributor", [*SIM, "--contributor-pattern", "^t"],
        any_of("two contributors", "contributor")),
    *trec_file_faults("simulate-run", "run", sim_run_argv, sim_run_argv("a.run"),
                      name="bad.run"),
    *trec_file_faults("simulate-qrels", "qrels", sim_qrels_argv, sim_qrels_argv("qrels.txt"),
                      name="bad.qrels"),
    # ================================================================ shards
    ok("shards-valid", SHARDS, output_contains("topic:shard", "system:shard")),
    ok("shards-hash", [*SHARDS[:-4], "--empty", "zero", "--method", "hash"],
       output_contains("shard")),
    ok("shards-tukey", [*SHARDS, "--tukey"], output_contains("Tukey HSD")),
    ok("shards-model-formula", [*SHARDS, "--model", "topic + system + shard"],
       output_contains("shard")),
    ok("shards-scores-file", [*SHARDS, "--shard-scores", "s.csv"],
       file_starts_with("s.csv", "topic,run,shard,value\n"), allowed_new=("s.csv",)),
    ok("shards-json", [*SHARDS, "--format", "json"], output_contains('"anova"')),
    err("shards-too-few-inputs", ["pool", "shards", "qrels.txt", "a.run"],
        any_of("two run", "qrels")),
    err("shards-0", with_option(SHARDS, "--shards", "0"), opt("--shards")),
    err("shards-not-a-number", with_option(SHARDS, "--shards", "x"), opt("--shards")),
    err("shards-more-than-documents", with_option(SHARDS, "--shards", "100000"),
        any_of("documents", "shards")),
    err("shards-method-unknown", [*SHARDS, "--method", "modulo"], "modulo"),
    err("shards-seed-with-hash", [*SHARDS, "--method", "hash"], opt("--seed")),
    err("shards-seed-negative", with_option(SHARDS, "--seed", "-2"), opt("--seed")),
    err("shards-model-unknown", [*SHARDS, "--model", "MD9"], "MD9"),
    err("shards-model-bad-formula", [*SHARDS, "--model", "topic + colour"], "colour"),
    err("shards-empty-unknown", with_option(SHARDS, "--empty", "nan"), "nan"),
    err("shards-empty-cells", with_option(SHARDS, "--empty", "error"), opt("--empty")),
    err("shards-tukey-csv", [*SHARDS, "--tukey", "--format", "csv"], opt("--tukey")),
    err("shards-measure-unknown", with_option(SHARDS, "-m", "nosuch"), "nosuch"),
    err("shards-two-measures", with_option(SHARDS, "-m", "map P_5"),
        any_of("one measure", "measure")),
    err("shards-summary-measure", with_option(SHARDS, "-m", "gm_map"), "gm_map"),
    err("shards-level-0", [*SHARDS, "-l", "0"], opt("-l", "--relevance-level", "level")),
    err("shards-scores-exists", [*SHARDS, "--shard-scores", "a.run"], "a.run"),
    err("shards-scores-same-as-output", [*SHARDS, "--shard-scores", "o.txt", "-o", "o.txt"],
        "o.txt"),
    err("shards-digits-csv", [*SHARDS, "--format", "csv", "--digits", "2"], opt("--digits")),
    *trec_file_faults("shards-run", "run", shards_run_argv, shards_run_argv("a.run"),
                      name="bad.run"),
    *trec_file_faults("shards-qrels", "qrels", shards_qrels_argv,
                      shards_qrels_argv("qrels.txt"), name="bad.qrels"),
    # ================================================================ sample, estimate
    ok("sample-valid", SAMPLE, sample_lines(3)),
    ok("sample-poisson", [*SAMPLE, "--design", "poisson"], sample_lines(3)),
    ok("sample-depth", [*SAMPLE, "--depth", "2"], sample_lines(3)),
    ok("sample-qrels", [*SAMPLE, "--qrels", "qrels.txt"], sample_lines(5)),
    ok("sample-then-estimate", [*SAMPLE, "--qrels", "qrels.txt", "-o", "s.txt"],
       estimated_from("s.txt"), allowed_new=("s.txt",)),
    ok("estimate-per-topic", [*ESTIMATE, "-q", "--format", "csv"],
       output_contains("run,topic,measure,value", "statAP"), files=SAMPLED),
    ok("estimate-cutoffs", [*ESTIMATE, "--cutoffs", "1,3"], output_contains("statP@3"),
       files=SAMPLED),
    ok("sample-stratified", [*SAMPLE[:-4], "--seed", "1", "--design", "stratified",
                             "--strata", "1:1,3:0.5"], sample_lines(3)),
    err("sample-stratified-no-strata", [*SAMPLE[:-4], "--design", "stratified"],
        opt("--strata")),
    err("sample-stratified-with-size", [*SAMPLE, "--design", "stratified", "--strata", "2:1"],
        opt("--size")),
    err("sample-strata-without-stratified", [*SAMPLE, "--strata", "2:1"], opt("--strata")),
    err("sample-strata-not-a-pair", [*SAMPLE[:-4], "--design", "stratified", "--strata",
                                     "2:1,5"], opt("--strata"), "5"),
    err("sample-strata-rate-0", [*SAMPLE[:-4], "--design", "stratified", "--strata", "2:0"],
        opt("--strata"), "rate"),
    err("sample-strata-rate-above-1", [*SAMPLE[:-4], "--design", "stratified", "--strata",
                                       "2:1.5"], opt("--strata"), "rate"),
    err("sample-strata-decreasing", [*SAMPLE[:-4], "--design", "stratified", "--strata",
                                     "5:1,2:0.5"], opt("--strata"), "increase"),
    err("sample-strata-depth-0", [*SAMPLE[:-4], "--design", "stratified", "--strata",
                                  "0:1"], opt("--strata"), "depth"),
    err("sample-no-run", ["pool", "sample", "--size", "3"], "required", "RUN"),
    err("sample-no-size", ["pool", "sample", *RUNS], opt("--size")),
    err("sample-no-size-poisson", ["pool", "sample", *RUNS, "--design", "poisson"],
        opt("--size")),
    err("sample-size-0", with_option(SAMPLE, "--size", "0"), opt("--size")),
    err("sample-size-not-a-number", with_option(SAMPLE, "--size", "x"), opt("--size")),
    err("sample-design-unknown", [*SAMPLE, "--design", "stratified"], "stratified"),
    err("sample-depth-0", [*SAMPLE, "--depth", "0"], opt("--depth")),
    err("sample-seed-negative", with_option(SAMPLE, "--seed", "-1"), opt("--seed")),
    err("sample-qrels-missing", [*SAMPLE, "--qrels", "nope.txt"], "nope.txt"),
    err("sample-output-exists", [*SAMPLE, "-o", "a.run"], "a.run"),
    # without --qrels a topic of the run alone is no fault (nothing to warn of)
    *[case for case in trec_file_faults(
        "sample-run", "run", lambda name: ["pool", "sample", name, "--size", "2", "--seed",
                                           "1"],
        ["pool", "sample", "a.run", "--size", "2", "--seed", "1"], name="bad.run")
      if case.id != "sample-run-extra-topic-warns"],
    # its one document is drawn by every draw: π = 1 − (1 − 1)² = 1 (log1p(−1) = −inf
    # used to reach the user as numpy's divide-by-zero warning)
    ok("sample-topic-of-one-document", ["pool", "sample", "bad.run", "--size", "2", "--seed",
                                        "1"], all_checks(output_contains("\n99 d1 1.0\n"),
                                                         no_warning),
       files={"bad.run": text([*run_lines("a"), "99 Q0 d1 1 0.5 teamA_r1"])}),
    # ---- bounds under the unjudged documents
    ok("bounds", BOUNDS, output_contains("\na ", "low", "high")),
    ok("bounds-per-topic-csv", [*BOUNDS, "-q", "--format", "csv"],
       output_contains("run,topic,measure,value,low,high,unjudged")),
    ok("bounds-json", [*BOUNDS, "--format", "json"], output_contains('"undecided"')),
    err("bounds-no-measure", BOUNDS[:-2], opt("-m", "--measure")),
    err("bounds-summary-measure", with_option(BOUNDS, "-m", "gm_map"), "gm_map"),
    err("bounds-unknown-measure", with_option(BOUNDS, "-m", "nosuch"), "nosuch"),
    # the completions are evaluated a batch at a time: a limit below one ranking's refused,
    # one that every completion of map's whole rankings would exceed is enough
    err("bounds-memory", [*with_option(BOUNDS, "-m", "map"), "--max-memory", "100"],
        "--max-memory", "ranking lines of completions", "a larger --max-memory",
        "cut-off measures such as P@10"),
    ok("bounds-whole-ranking-in-little-memory",
       [*with_option(BOUNDS, "-m", "map"), "--max-memory", "1k"],
       output_contains("\na ", "low", "high")),
    err("bounds-level-0", [*BOUNDS, "-l", "0"], opt("-l", "--relevance-level", "level")),
    err("bounds-qrels-missing", ["pool", "bounds", "nope.txt", "a.run", "-m", "P.3"],
        "nope.txt"),
    err("bounds-run-malformed", ["pool", "bounds", "qrels.txt", "bad.run", "-m", "P.3"],
        "bad.run", "line 2", files={"bad.run": text(["1 Q0 d1 1 0.5 r", "1 Q0 d2"])}),
    err("estimate-too-few-inputs", ["pool", "estimate", "sampled.txt"], "required", "RUN"),
    err("estimate-cutoff-0", with_option(ESTIMATE, "--cutoffs", "0"), opt("--cutoffs"),
        files=SAMPLED),
    err("estimate-level-0", [*ESTIMATE, "-l", "0"], opt("-l", "--relevance-level", "level"),
        files=SAMPLED),
    err("estimate-digits-csv", [*ESTIMATE, "--format", "csv", "--digits", "2"],
        opt("--digits"), files=SAMPLED),
    err("estimate-sample-missing", ["pool", "estimate", "nope.txt", "a.run"], "nope.txt"),
    err("estimate-sample-prob-0", ESTIMATE, "sampled.txt", "line 2", "prob",
        files={"sampled.txt": text(["1 0 d1 1 0.5", "1 0 d2 0 0", "1 0 d3 1 1"])}),
    err("estimate-sample-prob-subnormal", ESTIMATE, "sampled.txt", "line 2",
        "prob is below 2.225e-308",
        files={"sampled.txt": text(["1 0 d1 1 0.5", "1 0 d2 1 1e-310", "1 0 d3 1 1"])}),
    err("estimate-sample-weights-beyond-doubles", ESTIMATE, "statR of topic '1'",
        "beyond the range of a double",
        files={"sampled.txt": text([f"1 0 d{i} 1 2.3e-308" for i in range(1, 6)])}),
    ok("estimate-sample-prob-tiny", [*ESTIMATE, "-q"], output_contains("statR"),
       files={"sampled.txt": text(["1 0 d1 1 1e-300", "1 0 d2 1 1e-300", "1 0 d3 1 1"])}),
    err("estimate-sample-prob-above-1", ESTIMATE, "sampled.txt", "line 1", "prob",
        files={"sampled.txt": text(["1 0 d1 1 1.5"])}),
    err("estimate-sample-prob-text", ESTIMATE, "sampled.txt", "line 1",
        files={"sampled.txt": text(["1 0 d1 1 half"])}),
    err("estimate-sample-unjudged", ESTIMATE, "sampled.txt", "line 1", "judged",
        files={"sampled.txt": text(["1 0 d1 -1 0.5"])}),
    err("estimate-sample-four-fields", ESTIMATE, "sampled.txt", "line 1",
        any_of("5 fields", "fields"), files={"sampled.txt": text(["1 0 d1 1"])}),
    err("estimate-sample-twice", ESTIMATE, "sampled.txt", "line 2", "twice",
        files={"sampled.txt": text(["1 0 d1 1 0.5", "1 0 d1 0 0.5"])}),
    err("estimate-sample-empty", ESTIMATE, "sampled.txt", files={"sampled.txt": b""}),
    err("estimate-no-common-topic", ESTIMATE, any_of("no document", "topic"),
        files={"sampled.txt": text(["zz 0 d1 1 0.5"])}),
    err("estimate-run-missing", [*ESTIMATE[:3], "nope.run"], "nope.run", files=SAMPLED),
    err("estimate-run-malformed", [*ESTIMATE[:3], "bad.run"], "bad.run", "line 1",
        files={**SAMPLED, "bad.run": text(["1 Q0 d1 1"])}),
    # ================================================================ the command
    err("pool-no-action", ["pool"], any_of("build", "ACTION")),
    err("pool-unknown-action", ["pool", "frob"], "frob"),
    err("pool-unknown-option", [*BUILD, "--bogus"], "--bogus"),
]


@pytest.mark.parametrize("case", CASES)
def test_collections(case, ws, run_cli):
    run_case(case, ws, run_cli)


def test_unknown_strategy_is_not_blamed_on_seed(ws, run_cli):
    """``--seed`` applies to the adaptive strategies: with a misspelt strategy the message
    names the strategy, not ``--seed``, whichever comes first."""
    for argv in ([*SIM[:5], "--strategy", "bogus", "--seed", "1"],
                 [*SIM[:5], "--seed", "1", "--strategy", "depth,bogus"]):
        line = assert_error(run_cli(argv), "bogus")
        assert "--seed" not in line, line


@pytest.mark.parametrize("action", ["build", "simulate", "shards", "sample", "estimate"])
def test_usage_shows_the_runs_required(action):
    """The usage line of every action that reads run files shows them required
    (``RUN [RUN ...]``), never as optional (``[RUN ...]``)."""
    from irscale.cli.main import build_parser

    from ..cli_parsers import parsers

    usage = " ".join(dict(parsers(build_parser("pool")))[f"irscale pool {action}"]
                     .format_usage().split())
    assert "RUN [RUN ...]" in usage, usage
    assert "[RUN ...]" not in usage.replace("RUN [RUN ...]", ""), usage
