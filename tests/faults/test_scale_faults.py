"""``irscale scale image | transform | table``: options (N, levels, recall base, measures,
formats) and faulty qrels and runs given to the transformation."""

from __future__ import annotations

import json

import pytest

from .catalog import has_warning, no_warning, trec_file_faults
from .conftest import (
    all_checks,
    any_of,
    either,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    run_lines,
    text,
    with_option,
)

IMAGE = ["scale", "image", "-m", "AP", "-N", "3", "--no-progress"]


def transform_argv(name: str) -> list[str]:
    return ["scale", "transform", "qrels.txt", name, "-m", "AP", "-N", "3", "--no-progress"]


def transform_qrels_argv(name: str) -> list[str]:
    return ["scale", "transform", name, "a.run", "-m", "AP", "-N", "3", "--no-progress"]


TRANSFORM = transform_argv("a.run")


def rescaled_trec_lines(result, ws, run) -> None:
    """trec_eval's three fields on every line; AP_R01 in [0, 1]."""
    rows = [line.split("\t") for line in result.out.splitlines()]
    assert rows and all(len(row) == 3 for row in rows), result.out
    ranked = [float(value) for measure, _, value in rows if measure.strip() == "AP_R01"]
    assert ranked and all(0 <= value <= 1 for value in ranked), result.out
TABLE = ["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP", "-N", "3",
         "--no-progress"]


def image_json(n_runs: int):
    def check(result, ws, run):
        document = json.loads(result.out)
        assert document["n_runs"] == n_runs, document
        values = document["values"]
        assert values == sorted(values) and len(values) == document["n_distinct"]

    return check


def csv_rows(result, ws, run):
    lines = result.out.splitlines()
    assert lines[0] == "value,phi,n_runs", lines[:2]
    assert sum(int(line.rsplit(",", 1)[1]) for line in lines[1:]) == 8  # 2^3 runs


def image_file(name: str, n_runs: int):
    """File ``name`` holds the image of AP@3 (Parquet or CSV): φ = 1..n, every run
    counted once, values increasing."""

    def check(result, ws, run):
        import pandas as pd

        path = ws.root / name
        table = pd.read_parquet(path) if name.endswith(("parquet", ".pq")) \
            else pd.read_csv(path)
        assert list(table.columns) == ["value", "phi", "n_runs"], result.describe()
        assert table["phi"].tolist() == list(range(1, len(table) + 1))
        assert table["value"].is_monotonic_increasing and table["value"].is_unique
        assert table["n_runs"].sum() == n_runs, result.describe()

    return check


FOREIGN = text([" ".join(["10" + f[0], *f[1:]]) for f in
                (line.split() for line in run_lines("a"))])

DIV_IMAGE = ["scale", "image", "-m", "alpha-nDCG@3", "-N", "3", "--no-progress", "--intents",
             "2"]


def diversity_json(result, ws, run):
    document = json.loads(result.out)
    assert document["intents"] == 2 and document["n_runs"] == 64, document
    assert document["phi"] == list(range(1, document["n_distinct"] + 1))


CASES = [
    # one wording for a command without its action (every command with actions)
    err("scale-no-command", ["scale"], "scale: choose a command: image, transform or table "
        "(see 'irscale scale --help')"),
    # ---- image
    ok("image-valid-json", [*IMAGE, "--format", "json"], image_json(8)),
    ok("image-levels-3-json", [*IMAGE, "--levels", "3", "--format", "json"], image_json(27)),
    ok("image-csv-stdout", [*IMAGE, "--format", "csv"], csv_rows),
    ok("image-recall-base-larger-than-N", [*IMAGE, "--recall-base", "5"], no_warning),
    # a relevance level above the space's degrees: every run would score 0
    err("image-rel-above-levels", with_option(IMAGE, "-m", "P(rel=2)@3"), "rel=2",
        opt("--levels")),
    ok("image-rel-within-levels", [*with_option(IMAGE, "-m", "P(rel=2)@3"), "--levels", "3"]),
    # runs with more relevant documents than the recall base: AP above 1 there, said so
    ok("image-recall-base-below-N", [*IMAGE, "--recall-base", "2"], has_warning),
    ok("image-recall-base-below-N-feasible", [*IMAGE, "--recall-base", "2", "--feasible"],
       no_warning),
    ok("image-feasible", [*IMAGE, "--feasible", "--recall-base", "1"]),
    err("image-N-0", ["scale", "image", "-m", "AP", "-N", "0"], opt("-N", "--length")),
    err("image-N-negative", ["scale", "image", "-m", "AP", "-N", "-1"], opt("-N", "--length")),
    err("image-N-text", ["scale", "image", "-m", "AP", "-N", "ten"], opt("-N", "--length")),
    err("image-N-beyond-int64", ["scale", "image", "-m", "AP", "-N",
                                 "99999999999999999999"], opt("-N", "--length")),
    err("image-N-missing", ["scale", "image", "-m", "AP"], opt("-N", "--length")),
    err("image-measure-missing", ["scale", "image", "-N", "3"], opt("-m", "--measure")),
    err("image-levels-1", [*IMAGE, "--levels", "1"], opt("--levels")),
    err("image-levels-0", [*IMAGE, "--levels", "0"], opt("--levels")),
    err("image-levels-negative", [*IMAGE, "--levels", "-3"], opt("--levels")),
    err("image-recall-base-text", [*IMAGE, "--recall-base", "abc"], opt("--recall-base")),
    err("image-recall-base-partly-text", [*IMAGE, "--recall-base", "1,x"],
        opt("--recall-base")),
    err("image-recall-base-negative", [*IMAGE, "--recall-base", "-1"], opt("--recall-base")),
    err("image-recall-base-empty", [*IMAGE, "--recall-base", ""], opt("--recall-base")),
    err("image-recall-base-too-many-degrees", [*IMAGE, "--recall-base", "1,2"],
        opt("--recall-base")),
    err("image-recall-base-float", [*IMAGE, "--recall-base", "1.5"], opt("--recall-base")),
    err("image-recall-base-huge", [*IMAGE, "--recall-base", "99999999999999999999"],
        opt("--recall-base")),
    err("image-measure-unknown", ["scale", "image", "-m", "nosuch", "-N", "3"], "nosuch"),
    err("image-measure-RBP-p-2", ["scale", "image", "-m", "RBP(p=2)", "-N", "3"], "p"),
    err("image-measure-bad-gain", ["scale", "image", "-m", "nDCG(gain=foo)", "-N", "3"],
        "foo"),
    err("image-format-unknown", [*IMAGE, "--format", "xml"], "xml"),
    err("image-diagnostics-unknown", [*IMAGE, "--diagnostics", "some"], "some"),
    err("image-values-limit-negative", [*IMAGE, "--values-limit", "-1"],
        opt("--values-limit")),
    err("image-values-limit-text", [*IMAGE, "--values-limit", "x"], opt("--values-limit")),
    err("image-unknown-option", [*IMAGE, "--bogus"], "--bogus"),
    err("image-positional", [*IMAGE, "qrels.txt"], "qrels.txt"),
    # ---- image: cost estimate, --max-memory, --explain
    ok("image-max-memory-2G", [*IMAGE, "--max-memory", "2G"]),
    ok("image-max-memory-bytes", [*IMAGE, "--max-memory", "1000000000"]),
    err("image-max-memory-too-small", [*IMAGE, "--max-memory", "1K"], opt("--max-memory"),
        "estimate"),
    err("image-max-memory-too-small-nDCG", ["scale", "image", "-m", "nDCG@30", "-N", "30",
                                            "--no-progress", "--max-memory", "100M"],
        opt("--max-memory"), "estimate", "nDCG@30",
        "fewer -N/--length, fewer --levels or a larger --max-memory"),
    err("image-max-memory-text", [*IMAGE, "--max-memory", "lots"], opt("--max-memory")),
    err("image-max-memory-unit", [*IMAGE, "--max-memory", "2X"], opt("--max-memory")),
    err("image-max-memory-zero", [*IMAGE, "--max-memory", "0"], opt("--max-memory")),
    err("image-max-memory-negative", [*IMAGE, "--max-memory", "-1G"], opt("--max-memory")),
    err("image-max-memory-empty", [*IMAGE, "--max-memory", ""], opt("--max-memory")),
    err("image-max-memory-missing-value", [*IMAGE, "--max-memory"], opt("--max-memory")),
    err("image-explain-with-value", [*IMAGE, "--explain=yes"], opt("--explain")),
    # ---- transform: options
    ok("transform-valid", TRANSFORM, output_contains("AP_R")),
    # contradictory output options: refused, never an empty output with exit 0
    err("transform-summary-only-no-summary", [*TRANSFORM, "--summary-only", "-n"],
        "--summary-only", "-n/--no-summary", "nothing to print"),
    err("transform-summary-only-per-query", [*TRANSFORM, "--summary-only", "-q"],
        "--summary-only", "-q/--per-query"),
    # --ci: the means of M and M_R with their intervals, in the formats that hold them
    ok("transform-ci-t-csv", [*TRANSFORM, "--ci", "t", "--format", "csv"],
       output_contains("run,measure,mean,ci_low,ci_high", ",AP_R,")),
    ok("transform-ci-bootstrap-markdown", [*TRANSFORM, "--ci", "bootstrap", "--ci-samples",
                                           "50", "--ci-seed", "1", "--format", "markdown"],
       output_contains("| ci_low | ci_high |", "AP_R01 (rescale=True")),
    err("transform-ci-trec", [*TRANSFORM, "--ci", "t"],
        "--ci applies to --format csv, json and markdown", "not trec"),
    err("transform-ci-per-query", [*TRANSFORM, "--ci", "t", "-q", "--format", "csv"],
        "-q/--per-query", "--ci prints the means with their intervals"),
    err("transform-ci-summary-only", [*TRANSFORM, "--ci", "t", "--summary-only", "--format",
                                      "json"], "--summary-only", "--ci prints the means"),
    err("transform-alpha-without-ci", [*TRANSFORM, "--alpha", "0.1", "--format", "csv"],
        "--alpha sets the level of --ci"),
    err("transform-ci-seed-with-t", [*TRANSFORM, "--ci", "t", "--ci-seed", "1", "--format",
                                     "csv"], "--ci-seed applies to --ci bootstrap"),
    ok("transform-max-memory-2G", [*TRANSFORM, "--max-memory", "2G"], output_contains("AP_R")),
    err("transform-max-memory-too-small", [*TRANSFORM, "--max-memory", "1K"],
        opt("--max-memory"), "estimate"),
    err("transform-max-memory-text", [*TRANSFORM, "--max-memory", "half"],
        opt("--max-memory")),
    ok("transform-json", [*TRANSFORM, "--format", "json"], lambda r, w, c: json.loads(r.out)),
    ok("transform-rescale-phi-ties-mid", [*TRANSFORM, "--rescale", "--phi-ties", "mid"]),
    # what M_R is: under the Markdown table; the trec lines stay three fields
    ok("transform-markdown-legend", [*TRANSFORM, "--format", "markdown"],
       output_contains("*AP_R = φ: the rank of a topic's AP among the AP values of runs of "
                       "length 3 (1 = the lowest; φ from 1 to ", "AP_R01 (rescale=True, "
                       "--rescale)*")),
    ok("transform-rescale-markdown-legend", [*TRANSFORM, "--rescale", "--format", "markdown"],
       output_contains("*AP_R01 = (φ − φ_min)/(φ_max − φ_min) in [0, 1]")),
    ok("transform-rescale-trec", [*TRANSFORM, "--rescale"], rescaled_trec_lines),
    ok("transform-all-topics", [*TRANSFORM, "--all-topics"]),
    err("transform-N-0", ["scale", "transform", "qrels.txt", "a.run", "-m", "AP", "-N", "0"],
        opt("-N", "--length")),
    err("transform-N-negative", ["scale", "transform", "qrels.txt", "a.run", "-m", "AP",
                                 "-N", "-2"], opt("-N", "--length")),
    err("transform-levels-1", [*TRANSFORM, "--levels", "1"], opt("--levels")),
    err("transform-level-for-rel-0", [*TRANSFORM, "-l", "0"], opt("-l", "level")),
    err("transform-level-for-rel-negative", [*TRANSFORM, "-l", "-1"], opt("-l", "level")),
    err("transform-measure-unknown", ["scale", "transform", "qrels.txt", "a.run", "-m",
                                      "nosuch", "-N", "3"], "nosuch"),
    err("transform-measure-missing", ["scale", "transform", "qrels.txt", "a.run", "-N", "3"],
        opt("-m", "--measure")),
    err("transform-ties-unknown", [*TRANSFORM, "--ties", "random"], "random"),
    err("transform-tie-policy-unknown", [*TRANSFORM, "--tie-policy", "random"], "random"),
    err("transform-format-unknown", [*TRANSFORM, "--format", "xml"], "xml"),
    err("transform-no-run", ["scale", "transform", "qrels.txt", "-m", "AP", "-N", "3"],
        any_of("run", "qrels")),
    err("transform-run-topics-not-in-qrels", transform_argv("foreign.run"),
        any_of("foreign.run", "'foreign'"), files={"foreign.run": FOREIGN}),
    # ---- transform: faulty runs and qrels (as eval)
    *trec_file_faults("transform-run", "run", transform_argv, TRANSFORM, name="bad.run"),
    *trec_file_faults("transform-qrels", "qrels", transform_qrels_argv, TRANSFORM,
                      name="bad.qrels"),
    # ---- table
    ok("table-valid", TABLE, output_contains("AP")),
    ok("table-csv", [*TABLE, "--format", "csv"], output_contains("AP")),
    err("table-N-0", ["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP", "-N", "0"],
        opt("-N", "--length")),
    err("table-N-negative", ["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP",
                             "-N", "3,-4"], opt("-N", "--cutoffs")),
    err("table-levels-1", [*TABLE, "--levels", "1"], opt("--levels")),
    err("table-level-for-rel-0", [*TABLE, "-l", "0"], opt("-l", "level")),
    # no document of degree ≥ 3: every run scores 0 on every topic and τ is undefined,
    # said in words (NaN was printed)
    ok("table-tau-undefined", [*TABLE, "-l", "3"],
       output_contains("undefined", "topic-by-topic τ: defined on no topic")),
    ok("table-tau-undefined-markdown", [*TABLE, "-l", "3", "--format", "markdown"],
       output_contains("| 3 | undefined |")),
    err("table-measure-unknown", ["scale", "table", "qrels.txt", "a.run", "b.run", "-m",
                                  "nosuch", "-N", "3"], "nosuch"),
    err("table-missing-run", ["scale", "table", "qrels.txt", "a.run", "nope.run", "-m", "AP",
                              "-N", "3"], "nope.run"),
    err("table-directory-qrels", ["scale", "table", "adir", "a.run", "b.run", "-m", "AP",
                                  "-N", "3"], "adir"),
    err("table-bad-run-line", ["scale", "table", "qrels.txt", "a.run", "bad.run", "-m", "AP",
                               "-N", "3"], "bad.run", "line 2",
        files={"bad.run": text([*run_lines("b")[:1], "1 Q0 d5", *run_lines("b")[2:]])}),
    err("table-format-unknown", [*TABLE, "--format", "xml"], "xml"),
    # ---- one vocabulary: --ties / --phi-ties, comma lists
    ok("transform-phi-ties-mid", [*TRANSFORM, "--phi-ties", "mid"], no_warning),
    err("transform-ties-phi-value", [*TRANSFORM, "--ties", "mid"], "--ties", "mid"),
    ok("transform-ties-file-order", [*TRANSFORM, "--ties", "file-order"], no_warning),
    err("transform-tie-policy-unknown", [*TRANSFORM, "--tie-policy", "file-order"],
        "--tie-policy"),
    err("transform-phi-ties-unknown", [*TRANSFORM, "--phi-ties", "random"], "--phi-ties",
        "random"),
    err("transform-phi-ties-document-policy", [*TRANSFORM, "--phi-ties", "file-order"],
        "--phi-ties", "file-order"),
    err("transform-phi-ties-empty", [*TRANSFORM, "--phi-ties", ""], "--phi-ties"),
    err("transform-ties-empty", [*TRANSFORM, "--ties", ""], "--ties"),
    err("transform-ties-names-its-choices", [*TRANSFORM, "--ties", "random"], "random",
        "trec_eval", "file-order", "rank-column"),
    ok("table-N-commas", with_option(TABLE, "-N", "3,4"), output_contains("AP")),
    ok("table-cutoffs-long-form", [*with_option(TABLE, "-N", "3,4")[:-2], "--cutoffs", "3,4"],
       no_warning),
    err("table-length-unknown", [*with_option(TABLE, "-N", "3,4")[:-2], "--length", "3,4"],
        "--length"),
    ok("table-phi-ties-max", [*TABLE, "--phi-ties", "max"], no_warning),
    err("table-ties-phi-value", [*TABLE, "--ties", "max"], "--ties", "max"),
    ok("table-ties-file-order", [*TABLE, "--ties", "file-order"], no_warning),
    ok("table-ties-rank-column", [*TABLE, "--ties", "rank-column"], no_warning),
    err("table-N-empty", with_option(TABLE, "-N", ""), "-N is empty",
        "comma-separated integers"),
    err("table-N-blank", with_option(TABLE, "-N", " , "), "-N is empty"),
    err("table-N-empty-item", with_option(TABLE, "-N", "3,,4"), "-N has an empty value",
        "'3,,4'"),
    err("table-N-trailing-comma", with_option(TABLE, "-N", "3,"), "-N has an empty value"),
    err("table-N-not-a-number", with_option(TABLE, "-N", "3,x"), "-N: 'x' is not an integer"),
    err("table-N-float", with_option(TABLE, "-N", "3.5"), "-N: '3.5' is not an integer"),
    err("table-N-repeated-value", with_option(TABLE, "-N", "3,3"), opt("-N", "Ns"), "3"),
    err("table-cutoffs-not-a-number", [*with_option(TABLE, "-N", "3")[:-2], "--cutoffs", "x"],
        "--cutoffs: 'x' is not an integer"),
    err("table-N-then-cutoffs", [*TABLE, "--cutoffs", "4"], "option --cutoffs given twice",
        "first as -N"),
    err("table-phi-ties-unknown", [*TABLE, "--phi-ties", "random"], "random"),
    err("table-ties-unknown", [*TABLE, "--ties", "random"], "random"),
    err("image-recall-base-empty-item", [*IMAGE, "--levels", "3", "--recall-base", "1,,2"],
        "--recall-base has an empty value"),
    err("image-recall-base-blank", [*IMAGE, "--recall-base", " "], "--recall-base is empty"),
    err("image-recall-base-not-a-number", [*IMAGE, "--recall-base", "1,x"],
        "--recall-base: 'x' is not an integer"),
    # ---- the command
    err("scale-no-subcommand", ["scale"], any_of("image", "transform", "COMMAND", "command")),
    err("scale-unknown-subcommand", ["scale", "frob"], "frob"),
    either("table-one-run", ["scale", "table", "qrels.txt", "a.run", "-m", "AP", "-N", "3"],
           any_of("run", "two")),
    # ---- image -o FILE.parquet|FILE.csv: the sorted image streamed to disk
    ok("image-output-parquet", [*IMAGE, "-o", "img.parquet"],
       image_file("img.parquet", 8), allowed_new=["img.parquet"]),
    ok("image-output-pq-levels-3", [*IMAGE, "--levels", "3", "-o", "img.pq"],
       image_file("img.pq", 27), allowed_new=["img.pq"]),
    ok("image-output-csv", [*IMAGE, "-o", "img.csv"], image_file("img.csv", 8),
       allowed_new=["img.csv"]),
    ok("image-output-summary-from-the-pass", [*IMAGE, "-o", "img.csv"],
       output_contains("gaps", "tied values"), allowed_new=["img.csv"]),
    ok("image-output-feasible", [*IMAGE, "--feasible", "--recall-base", "1", "-o",
                                 "img.parquet"], image_file("img.parquet", 4),
       allowed_new=["img.parquet"]),
    err("image-csv-unknown", [*IMAGE, "--csv", "img.csv"], "--csv"),
    ok("image-output-existing-force", [*IMAGE, "-o", "old.parquet", "--force"],
       image_file("old.parquet", 8), files={"old.parquet": b"precious\n"},
       allowed_new=["old.parquet"]),
    err("image-output-existing", [*IMAGE, "-o", "old.parquet"], "old.parquet",
        "exists already", "--force", files={"old.parquet": b"precious\n"}),
    err("image-output-unknown-suffix", [*IMAGE, "-o", "img.txt"], "-o", "img.txt",
        ".parquet", ".csv"),
    err("image-output-no-suffix", [*IMAGE, "-o", "image"], "-o", "image", ".parquet"),
    err("image-output-gzip-suffix", [*IMAGE, "-o", "img.csv.gz"], "img.csv.gz", ".gz"),
    err("image-output-stdout", [*IMAGE, "-o", "-"], "-o", ".parquet", "--format csv"),
    err("image-output-empty", [*IMAGE, "-o", ""], opt("-o", "--output")),
    err("image-output-missing-value", [*IMAGE, "-o"], opt("-o", "--output")),
    err("image-output-given-twice", [*IMAGE, "-o", "a.parquet", "-o", "b.parquet"],
        "given twice"),
    err("image-output-missing-folder", [*IMAGE, "-o", "nodir/img.parquet"], "nodir"),
    err("image-output-is-directory", [*IMAGE, "-o", "adir"], "adir"),
    err("image-output-is-directory-with-suffix", [*IMAGE, "-o", "adir.parquet"],
        "adir.parquet", files={"adir.parquet": "<dir>"}),
    err("image-output-on-bad-option", [*IMAGE, "-o", "img.parquet", "--levels", "1"],
        opt("--levels", "degrees")),
    err("image-output-on-bad-measure", ["scale", "image", "-m", "nosuch", "-N", "3", "-o",
                                        "img.parquet"], "nosuch"),
    # the scale fits --max-memory (80 MiB of base memory and a tiny image), its slices do
    # not (at least 16,384 values of 160 bytes)
    err("image-output-max-memory-no-room-for-slices",
        [*IMAGE, "-o", "img.parquet", "--max-memory", "81M"], opt("--max-memory"),
        "image of AP", "slices of at least 16,384 values), about",
        "fewer -N/--length, fewer --levels or a larger --max-memory"),
    # ---- diversity measures: --intents
    ok("image-diversity-json", [*DIV_IMAGE, "--format", "json"], diversity_json),
    ok("image-diversity-text", DIV_IMAGE, output_contains("over 2 intents", "64 runs")),
    ok("image-diversity-feasible", [*DIV_IMAGE, "--recall-base", "1,1", "--feasible"],
       all_checks(output_contains("13 runs"), no_warning)),
    ok("image-diversity-infeasible-warns", [*DIV_IMAGE, "--recall-base", "1,1"], has_warning),
    err("image-diversity-without-intents", DIV_IMAGE[:-2], opt("--intents")),
    err("image-intents-with-ap", [*IMAGE, "--intents", "2"], opt("--intents"),
        "a graded measure"),
    err("image-intents-too-many", with_option(DIV_IMAGE, "--intents", "8"),
        opt("--intents"), "8"),
    err("image-intents-zero", with_option(DIV_IMAGE, "--intents", "0"), opt("--intents")),
    err("image-intents-not-a-number", with_option(DIV_IMAGE, "--intents", "two"),
        opt("--intents"), "two"),
    err("image-intents-with-levels", [*DIV_IMAGE, "--levels", "2"], opt("--levels")),
    err("image-intents-recall-base-count", [*DIV_IMAGE, "--recall-base", "1,1,1,1"],
        opt("--recall-base"), "2 counts"),
    err("image-intents-recall-base-empty-intent", [*DIV_IMAGE, "--recall-base", "2,0,0"],
        opt("--recall-base"), "intent 2"),
    err("image-intents-recall-base-qrels-free", ["scale", "image", "-m", "alpha-DCG@3", "-N",
                                                 "3", "--intents", "2", "--recall-base",
                                                 "1,1", "--no-progress"],
        opt("--recall-base"), "--feasible"),
    err("image-intents-feasible-without-recall-base", [*DIV_IMAGE, "--feasible"],
        opt("--feasible"), "--recall-base"),
    err("image-intents-too-large", ["scale", "image", "-m", "alpha-nDCG@5", "-N", "9",
                                    "--intents", "5", "--no-progress"], "2^45"),
    # the change asked for is read from the declared costs of -N and --intents
    err("image-intents-max-memory", [*with_option(DIV_IMAGE, "-N", "8"), "--max-memory", "1M"],
        opt("--max-memory"), "about 130 MiB", "fewer -N/--length, fewer --intents"),
    err("image-intents-ndeval-set", with_option(DIV_IMAGE, "-m", "ndeval"), "one measure"),
    err("transform-diversity-measure", with_option(TRANSFORM, "-m", "alpha-nDCG@3"),
        "diversity measure", "--intents"),
]


@pytest.mark.parametrize("case", CASES)
def test_scale(case, ws, run_cli):
    run_case(case, ws, run_cli)
