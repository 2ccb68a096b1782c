"""Work bounded by the input (docs/errors.md, "Work bounded by the input"): every option
whose cost grows faster than the input is either bounded by it (a longer list than the
runs' documents changes nothing; a docno of any length costs its bytes) or estimated and
refused before any work, naming the option, instead of an out-of-memory kill or hours of
work. The memory limit is pinned to 1 GiB here, so that the refusals do not depend on the
machine (by default it is half of its memory)."""

from __future__ import annotations

import pytest

import irscale.core.budget

from .conftest import (
    err,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    run_lines,
    same_output_as,
    text,
    with_option,
)
from .test_labels_faults import FILES as CROWD
from .test_online_calibrate_faults import FILES as CALIB
from .test_online_clicks_faults import FILES as CLICKS
from .test_online_score_faults import BASE as SCORE
from .test_online_score_faults import FILES as SCORE_LOGS

MEMORY = ("memory", "1 GiB")
INTER = ["online", "interleave", "a.run", "b.run", "--clicks", "random", "--impressions",
         "20", "--seed", "1", "--bootstrap", "200"]
SENS = ["online", "sensitivity", "qrels.txt", "a.run", "b.run", "--impressions", "10,20",
        "--repetitions", "5", "--seed", "1"]
FUSE4 = ["fuse", "a.run", "b.run", "c.run", "d.run", "--method", "wsum", "--optimize",
         "--qrels", "qrels.txt"]
#: Judge noise under a confusion file (its name last).
NOISE = ["meta", "judge-noise", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "--seed",
         "1", "--confusion"]
JUDGES = {"conf.txt": "0 0 0.9\n0 1 0.1\n1 0 0.2\n1 1 0.7\n1 2 0.1\n2 1 0.3\n2 2 0.7\n"}
#: A fourth run (run c's lines under a tag of its own).
RUN_D = {"d.run": text([line.replace("teamC_r2", "teamD_r1") for line in run_lines("c")])}
LONG = "d1" + "x" * 100_000  # beyond the 4 KiB of the word-by-word fingerprints


def _renamed(lines: list[str]) -> bytes:
    """``lines`` with document d1 renamed LONG (order kept: 'd1x...' sorts as 'd1')."""
    return text([" ".join(LONG if f == "d1" else f for f in line.split()) for line in lines])


CASES = [
    # ------------------------------------------------ bounded by the input
    ok("interleave-length-beyond-the-runs", [*INTER, "--length", "1000000"],
       same_output_as(*INTER, "--length", "7")),  # a and b hold 7 documents per topic
    ok("interleave-probabilistic-length-beyond-the-runs",
       [*INTER, "--method", "probabilistic", "--length", "1000000000"],
       same_output_as(*INTER, "--method", "probabilistic", "--length", "7")),
    ok("sensitivity-length-beyond-the-runs", [*SENS, "--length", "1000000000"],
       output_contains("agreement")),
    ok("eval-docno-of-100k-bytes", ["eval", "long.qrels", "long.run"],
       same_output_as("eval", "qrels.txt", "a.run"),
       files={"long.qrels": _renamed(qrels_lines()), "long.run": _renamed(run_lines("a"))}),
    # ------------------------------------------------ estimated and refused
    err("interleave-impressions", with_option(INTER, "--impressions", "10000000"),
        "--impressions", *MEMORY),
    err("interleave-bootstrap", with_option(INTER, "--bootstrap", "100000000"),
        "--bootstrap", *MEMORY),
    err("score-bootstrap", with_option(SCORE, "--bootstrap", "100000000"), "--bootstrap",
        *MEMORY, files=SCORE_LOGS),
    err("sensitivity-users", with_option(SENS, "--repetitions", "100000"), "--repetitions",
        "users", *MEMORY, "fewer --repetitions, fewer --impressions or fewer --length"),
    err("simulate-clicks-sessions", ["online", "simulate-clicks", "qrels.txt", "a.run",
                                     "--sessions", "100000000", "--seed", "1"],
        "--sessions", *MEMORY, "fewer --sessions or fewer --serp-size"),
    err("fit-serp-size", ["online", "fit", "train.log", "--model", "pbm", "--serp-size",
                          "100000000"], "--serp-size", *MEMORY, files=CLICKS),
    err("fit-ubm-serp-size", ["online", "fit", "train.log", "--model", "ubm",
                              "--serp-size", "10000"], "UBM", "--serp-size", *MEMORY,
        "fewer --serp-size", files=CLICKS),
    # the Markov user model's six SERP size² tables (4.5 GiB at 10,000 ranks)
    err("calibrate-mp-serp-size", ["online", "calibrate", "calib.log", "-m", "MP",
                                   "--serp-size", "10000"], "Markov user model",
        "--serp-size", "4.47 GiB", *MEMORY, "fewer --serp-size", files=CALIB),
    err("loglik-serp-size", ["online", "loglik", "train.log", "--model", "pbm", "--test",
                             "test.log", "--serp-size", "100000000"], "--serp-size", *MEMORY,
        files=CLICKS),
    # a log small enough, but a row of the table for every rank: refused before the logs
    # are read (it took 25 s and 1.4 GB to print 3,000,001 rows)
    err("loglik-serp-size-table", ["online", "loglik", "train.log", "--model", "dbn",
                                   "--test", "test.log", "--serp-size", "3000000"],
        "a row for each of 3,000,000 ranks (--serp-size)", *MEMORY,
        "fewer --serp-size", files=CLICKS),
    # the bootstrap intervals of the means (--ci bootstrap) held B × columns means: with
    # B = 10^8 they allocated until the machine ran out of memory, or ran silently for hours
    *[err(f"{command[0]}-ci-samples", [*command, "--ci", "bootstrap", "--ci-samples",
                                       "100000000", "--ci-seed", "1"],
          "100,000,000 samples (--ci-samples): the bootstrap means", "fewer --ci-samples",
          *MEMORY)
      for command in (["eval", "qrels.txt", "a.run", "b.run", "--format", "csv"],
                      ["eval-many", "qrels.txt", "a.run", "b.run", "-m", "map", "--format",
                       "csv", "--no-progress"],
                      ["compare", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map"],
                      ["eval-seeds", "qrels.txt", "--system", "A=a.run,b.run", "--system",
                       "B=c.run,b.run", "-m", "map", "--pairs"])],
    err("correlate-samples", ["meta", "correlate", "--scores", "ap.csv", "--scores",
                              "p10.csv", "-B", "100000000"],
        "100,000,000 samples (-B/--samples): bootstrap replicates", "fewer -B/--samples",
        *MEMORY),
    err("compare-randomized-tukey-samples", ["compare", "--scores", "ap.csv", "--test",
                                             "randomized-tukey-hsd", "-B", "100000000"],
        "100,000,000 samples (-B/--samples) of randomised Tukey HSD",
        "(fewer -B/--samples)", *MEMORY),
    err("dp-samples", ["meta", "dp", "--scores", "ap.csv", "-B", "1000000000", "--seed", "1"],
        "-B/--samples", *MEMORY),
    # meta dp --max-memory: the limit of its samples kept (both methods, and --seeds)
    *[err(f"dp-max-memory{suffix}", ["meta", "dp", "--scores", "ap.csv", "-B", "1000000",
                                      "--seed", "1", "--max-memory", "1M", *more],
          what, "--max-memory", "1 MiB", "fewer -B/--samples or a larger --max-memory")
      for suffix, more, what in (
          ("", [], "-B/--samples 1,000,000"), ("-seeds", ["--seeds", "2"], "|t*|"),
          ("-tukey", ["--method", "randomized-tukey-hsd"], "randomised Tukey HSD"))],
    ok("dp-within-max-memory", ["meta", "dp", "--scores", "ap.csv", "-B", "1000", "--seed",
                                "1", "--method", "both", "--max-memory", "1M"],
       output_contains("bootstrap", "randomized-tukey-hsd")),
    err("simulate-topics", ["meta", "simulate", "--model", "normal", "--topics", "100000000",
                            "--repetitions", "2"], "--topics", *MEMORY),
    # the counts of every repetition and the bookkeeping of its tasks (10^8: about 9.7 GiB)
    err("simulate-repetitions-max-memory", ["meta", "simulate", "--model", "normal",
                                            "--topics", "8", "--repetitions", "100000000",
                                            "--max-memory", "8G"],
        "100,000,000 matrices (--repetitions) of 8 topics (--topics)", "9.69 GiB",
        "fewer --repetitions, fewer --topics, fewer --systems or a larger --max-memory"),
    err("simulate-systems", ["meta", "simulate", "--model", "normal", "--systems", "100000",
                             "--repetitions", "2"], "--systems", *MEMORY),
    err("pool-sample-size", ["pool", "sample", "a.run", "b.run", "c.run", "--size",
                             "100000000", "--seed", "1"], opt("--size"), *MEMORY,
        "fewer --size", "--design poisson"),
    err("aware-random", ["labels", "aware", "crowd.txt", "a.run", "b.run", "c.run", "-m",
                         "map", "--weights", "msd", "--random", "10000000", "--seed", "1"],
        "--random", "1,000", files=CROWD),
    # judge noise keeps the means of every replicate (10^8 of 3 runs: 3.73 GiB); a
    # confusion file's matrix is the square of its distinct grades (12,000: 1.07 GiB)
    err("judge-noise-replicates", [*NOISE, "conf.txt", "--replicates", "100000000"],
        "--replicates", "3.73 GiB", *MEMORY, "fewer --replicates", files=JUDGES),
    err("judge-noise-confusion-grades", [*NOISE, "grades.txt", "--replicates", "2"],
        "grades.txt", "12,000 grades", *MEMORY, "fewer --confusion",
        files={"grades.txt": "".join(f"{g} {g} 1\n" for g in range(12_000))}),
    # the weight grid: C(1/step + 3, 3) vectors of 4 runs (1.7e8 at step 0.001)
    err("fuse-optimize-step", [*FUSE4, "--step", "0.001"], "--step", "167,668,501 weight "
        "vectors", *MEMORY, "a larger --step or a larger --max-memory", "fewer runs",
        files=RUN_D),
    err("fuse-optimize-max-memory", [*FUSE4, "--step", "0.01", "--max-memory", "10M"],
        "176,851 weight vectors", "--max-memory", "10 MiB", files=RUN_D),
    ok("fuse-optimize-within-max-memory", [*FUSE4, "--step", "0.5", "--max-memory", "1M"],
       output_contains("wsum"), files=RUN_D),
    err("fuse-max-memory-without-optimize", ["fuse", "a.run", "b.run", "--method", "rrf",
                                             "--max-memory", "1G"], "--max-memory",
        "--optimize"),
    err("scale-image-json-listing", ["scale", "image", "-m", "nDCG@20", "-N", "20",
                                     "--levels", "3", "--all-values", "--format", "json",
                                     "--max-memory", "1G"], "--values-limit",
        "-o IMAGE.parquet streams them", "fewer --values-limit", "or a larger --max-memory"),
    err("demo-topics", ["demo", "--out", "demo", "--topics", "100000000"], "--topics",
        "10,000"),
    # local:N starts N worker processes (each about 110 MiB once irscale is imported)
    err("eval-many-local-workers", ["eval-many", "qrels.txt", "a.run", "--scheduler",
                                    "local:1024"], "--scheduler",
        "1024 worker processes (local:N)", "(fewer local:N)", *MEMORY),
    err("eval-local-workers", ["eval", "qrels.txt", "a.run", "--scheduler", "local:16"],
        "--scheduler", "16 worker processes", *MEMORY),
]


@pytest.fixture
def one_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: 1 << 30)


@pytest.mark.parametrize("case", CASES)
def test_bounds(case, ws, run_cli, one_gib):
    run_case(case, ws, run_cli)


def test_the_limit_and_its_message():
    """One refusal for every estimate: what was asked, the limit, what to change."""
    from irscale.core.budget import check_memory, format_size
    from irscale.errors import ParameterError

    assert check_memory(1024, "x", "y", max_memory="1k") == 1024
    with pytest.raises(ParameterError) as caught:
        check_memory(1025, "1,025 things: about 1 KiB", "fewer things", max_memory=1024)
    assert str(caught.value) == ("1,025 things: about 1 KiB: more than the memory limit of "
                                 "1 KiB (fewer things)")
    with pytest.raises(ParameterError, match=r"more than --max-memory/max_memory = 1 KiB"):
        check_memory(2e30, "w", "z", max_memory=1024, option="--max-memory/max_memory")
    assert [format_size(n) for n in (1023, 1024, 1.5 * 2**30, 2.0**70)] == \
        ["1023 bytes", "1 KiB", "1.5 GiB", "1.02e+03 EiB"]
