"""``irscale online fit|loglik|simulate-clicks|measures``: faulty click
logs, parameter files and options. Table-driven: every row is one call checked against the
contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import json

import pytest

from irscale.online.clickmodels import MODELS
from irscale.online.simulate import INSTANTIATIONS

from .conftest import (
    err,
    ok,
    opt,
    output_contains,
    run_case,
    same_output_as,
    text,
    warnings_of,
    with_option,
)

# three sessions of topics of the collection (query = topic), ranks 1..3
LOG = [f"s{s} {t} {r} d{d} {c}" for s, t, docs, clicks in
       ((1, 1, (1, 2, 3), (1, 0, 1)), (2, 1, (3, 1, 2), (0, 0, 0)),
        (3, 2, (5, 2, 1), (0, 1, 0)), (4, 2, (1, 5, 2), (1, 0, 0)))
       for r, (d, c) in enumerate(zip(docs, clicks, strict=True), 1)]
TEST = [line.replace("s", "t", 1) for line in LOG]
PARAMS = json.dumps({"model": "pbm", "prior": [0.5, 0.5],
                     "attractiveness": [["1", "d1", 0.6], ["2", "d5", 0.3]],
                     "examination": [1.0, 0.6, 0.4]})
FILES = {"train.log": text(LOG), "test.log": text(TEST), "pbm.json": PARAMS}


def with_line(lines: list[str], number: int, new: str) -> bytes:
    out = list(lines)
    out[number - 1] = new
    return text(out)


def fit(*extra: str, log: str = "train.log") -> list[str]:
    return ["online", "fit", log, "--model", "dbn", *extra]


def loglik(*extra: str) -> list[str]:
    return ["online", "loglik", "train.log", "--model", "pbm", "--test", "test.log", *extra]


def simulate(*extra: str) -> list[str]:
    return ["online", "simulate-clicks", "qrels.txt", "a.run", "--sessions", "3",
            "--seed", "1", *extra]


def measures(*extra: str) -> list[str]:
    return ["online", "measures", "qrels.txt", "a.run", "b.run", "--params", "pbm.json",
            *extra]


def _warns(result, *needles: str) -> None:
    assert any(all(n in line for n in needles) for line in warnings_of(result)), \
        f"no warning with {needles}" + result.describe()


def test_the_parser_lists_the_analysis_names():
    from irscale.online import params

    assert params.CLICK_MODELS == MODELS
    assert params.USERS == tuple(INSTANTIATIONS)


CASES = [
    # ---- valid calls
    *[ok(f"fit-{model}", ["online", "fit", "train.log", "--model", model],
         output_contains("attractiveness"), files=FILES) for model in MODELS],
    ok("fit-json-to-file", fit("--format", "json", "-o", "p.json"),
       allowed_new=["p.json"], files=FILES),
    ok("fit-tabs-and-timestamps", fit(log="tabs.log"), same_output_as(*fit()),
       files={**FILES, "tabs.log": text(["\t".join(line.split()) + "\t12.5"
                                         for line in LOG])}),
    ok("fit-serp-size", fit("--serp-size", "5"), output_contains("gamma"), files=FILES),
    ok("loglik", loglik(), output_contains("perplexity", "loglik", "all"), files=FILES),
    ok("loglik-params", ["online", "loglik", "--params", "pbm.json", "--test", "test.log"],
       output_contains("perplexity"), files=FILES),
    ok("simulate", simulate(), output_contains("1:0\t1\t1\td2\t"), files=FILES),
    ok("simulate-same-seed", simulate(), same_output_as(*simulate()), files=FILES),
    ok("simulate-params", simulate("--params", "pbm.json", "--serp-size", "3"),
       output_contains("1:2"), files=FILES),
    ok("simulate-parquet", simulate("--format", "parquet", "-o", "sim.parquet"),
       allowed_new=["sim.parquet"], files=FILES),
    ok("simulate-user-options", simulate("--user", "informational", "--gamma", "0.5",
                                         "--relevance-level", "2", "--serp-size", "2"),
       output_contains("\t2\t"), files=FILES),
    ok("measures", measures(), output_contains("uM", "rrM", "\na\tall\tuM", "all"), files=FILES),
    ok("measures-names-runid", measures("--names", "runid"),
       output_contains("\nteamA_r1\tall\tuM"), files=FILES),
    ok("measures-names-given", measures("--names", "x,y"), output_contains("\ny\tall\tuM"),
       files=FILES),
    err("measures-names-count", measures("--names", "x"), opt("--names", "names"), "2 runs",
        files=FILES),
    ok("measures-per-topic", measures("-q", "-m", "uM@2"), output_contains("\t1\tuM@2"),
       files=FILES),
    # ---- malformed click logs: file, line, text
    err("log-rank-beyond-serp", fit("--serp-size", "2"), "train.log", "line 3",
        "SERP size 2", files=FILES),
    err("log-duplicate-rank", fit(log="bad.log"), "bad.log", "line 2", "twice",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 1 d2 0")}),
    err("log-click-two", fit(log="bad.log"), "bad.log", "line 2", "0 or 1",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 2 d2 2")}),
    err("log-click-text", fit(log="bad.log"), "bad.log", "line 2", "clicked",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 2 d2 yes")}),
    err("log-rank-zero", fit(log="bad.log"), "bad.log", "line 2", "rank",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 0 d2 0")}),
    err("log-rank-gap", fit(log="bad.log"), "bad.log", "line 2", "not 1..n",
        files={**FILES, "bad.log": text([LOG[0], LOG[2], *LOG[3:]])}),
    err("log-two-queries", fit(log="bad.log"), "bad.log", "line 2", "one query",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 9 2 d2 0")}),
    err("log-four-fields", fit(log="bad.log"), "bad.log", "line 2", "fields",
        files={**FILES, "bad.log": with_line(LOG, 2, "s1 1 2 d2")}),
    err("log-timestamp-text", fit(log="bad.log"), "bad.log", "line 2", "timestamp",
        files={**FILES, "bad.log": text([line + " 1.5" for line in LOG[:1]]
                                        + [LOG[1] + " soon"] + [x + " 2" for x in LOG[2:]])}),
    err("log-empty", fit(log="empty.log"), "empty.log", "empty", files={**FILES,
                                                                        "empty.log": b""}),
    err("log-missing", fit(log="nope.log"), "nope.log", files=FILES),
    err("log-test-malformed", ["online", "loglik", "train.log", "--model", "pbm", "--test",
                               "bad.log"], "bad.log", "line 2",
        files={**FILES, "bad.log": with_line(TEST, 2, "t1 1 2 d2 5")}),
    err("log-parquet-not", fit(log="x.parquet"), "x.parquet", "Parquet",
        files={**FILES, "x.parquet": b"PAR1 not really"}),
    # a run whose topics the click model has no parameter for was simulated from the
    # prior alone, silently
    err("simulate-run-of-other-topics", [a.replace("a.run", "x.run") for a in simulate()],
        "99",
        "no parameter for any topic", files={**FILES, "x.run": "99 Q0 d1 1 1.0 x\n"}),
    err("simulate-params-of-other-topics",
        [*(a.replace("a.run", "x.run") for a in simulate()), "--params", "pbm.json"], "99",
        "prior (attractiveness 0.5", files={**FILES, "x.run": "99 Q0 d1 1 1.0 x\n"}),
    ok("simulate-params-some-topics", [*simulate(), "--params", "pbm.json", "--serp-size", "3"],
       lambda result, ws, run: _warns(result, "4 topic(s) of the run", "3, 4, 5, 6"),
       files=FILES),
    # ---- options
    err("fit-no-model", ["online", "fit", "train.log"], "--model", files=FILES),
    err("fit-unknown-model", fit("--model", "xyz"), "--model (model)", "unknown click model",
        "'xyz'", files=FILES),
    err("fit-unknown-format", fit("--format", "xml"), "--format", "'xml'", "tsv, json",
        files=FILES),
    err("fit-bad-iterations", fit("--iterations", "0"), "iterations", files=FILES),
    err("fit-bad-tol", fit("--tol", "-1"), "tol", files=FILES),
    err("fit-bad-smoothing", fit("--smoothing", "nan"), "smoothing", files=FILES),
    # EM's options with a closed-form model, and the fitting options with a fitted model
    # (--params), were ignored
    *(err(f"fit-{option[2:]}-closed-form-{model}", ["online", "fit", "train.log", "--model",
                                                     model, option, value],
          option, "fitted by EM", f"--model {model}", files=FILES)
      for model in ("cm", "sdbn", "gctr", "rctr", "dctr")
      for option, value in (("--iterations", "5"),
                                                        ("--tol", "0.001"))),
    ok("fit-smoothing-closed-form", ["online", "fit", "train.log", "--model", "sdbn",
                                     "--smoothing", "0"], files=FILES),
    *(ok(f"fit-ctr-{model}", ["online", "fit", "train.log", "--model", model],
         output_contains("examination"), files=FILES) for model in ("gctr", "rctr", "dctr")),
    *(err(f"loglik-params-{option[2:]}", ["online", "loglik", "--params", "m.json",
                                          "--test", "test.log", option, value],
          "--params replaces", option, files={**FILES, "m.json": "{}"})
      for option, value in (("--iterations", "5"), ("--tol", "0.001"),
                            ("--smoothing", "0"))),
    err("fit-bad-serp-size", fit("--serp-size", "0"), "serp_size", files=FILES),
    # a SERP size whose cells (session × rank) overflow 64 bits: refused, not read as
    # "rank given twice"
    err("fit-serp-size-huge", fit("--serp-size", str(2**63 - 1)), "serp_size",
        "2,147,483,647", files=FILES),
    err("loglik-serp-size-beyond-64-bits", loglik("--serp-size", str(10**30)), "serp_size",
        files=FILES),
    err("fit-bad-format", fit("--format", "xml"), "--format", files=FILES),
    err("fit-output-exists", fit("-o", "test.log"), "test.log", files=FILES),
    err("fit-output-is-input", fit("-o", "train.log", "--force"), "train.log", files=FILES),
    err("loglik-no-test", ["online", "loglik", "train.log", "--model", "pbm"], "--test",
        files=FILES),
    err("loglik-no-model", ["online", "loglik", "train.log", "--test", "test.log"],
        "--model", files=FILES),
    err("loglik-params-and-model", loglik("--params", "pbm.json"), "--params", files=FILES),
    err("loglik-output-is-test", loglik("-o", "test.log", "--force"), "test.log",
        files=FILES),
    err("params-not-json", ["online", "loglik", "--params", "train.log", "--test",
                            "test.log"], "train.log", "parameters", files=FILES),
    # the values are checked with the file's text, before pandas: the file is named
    *[err(f"params-{what}", ["online", "loglik", "--params", "bad.json", "--test",
                             "test.log"], "bad.json", *needles,
          files={**FILES, "bad.json": content})
      for what, content, needles in (
          ("bad-probability", PARAMS.replace("0.6]", "1.6]"),
           ("attractiveness holds 1.6", "not a probability")),
          ("nan-probability", PARAMS.replace("0.6]", "NaN]"), ("attractiveness holds nan",)),
          ("examination-text", PARAMS.replace("0.4]", '"x"]'), ("examination holds 'x'",)),
          ("examination-missing", PARAMS.replace(', "examination": [1.0, 0.6, 0.4]', ""),
           ("parameter examination missing",)))],
    err("params-too-few-ranks", ["online", "loglik", "--params", "pbm.json", "--test",
                                 "long.log"], "examination",
        files={**FILES, "long.log": text([*LOG, "s9 1 4 d4 0", "s9 1 1 d1 0",
                                                 "s9 1 2 d2 0", "s9 1 3 d3 0"])}),
    # parameters that are not a model's: the file and what is wrong, in words (a missing
    # field was Python's KeyError text, 'model')
    *[err(f"params-{what}", ["online", "loglik", "--params", "p.json", "--test", "test.log"],
          "p.json", needle, files={**FILES, "p.json": content})
      for what, content, needle in (
          ("no-model-field", '{"prior": [0.5, 0.5]}', "no 'model' field"),
          ("no-attractiveness-field", '{"model": "pbm"}', "no 'attractiveness' field"),
          ("json-array", "[1, 2]", "JSON object"),
          ("row-of-two", '{"model": "pbm", "attractiveness": [["1", "d1"]], '
                         '"examination": [1]}', "[query, docno, value]"))],
    err("params-missing", ["online", "loglik", "--params", "nope.json", "--test",
                           "test.log"], "nope.json", files=FILES),
    # JSON beyond the parser's bounds, named by file, line and text: nesting 100,000 deep
    # (a RecursionError, an internal error), an integer of 100,000 digits (Python's advice
    # about sys.set_int_max_str_digits) or of 20 (beyond 64 bits), a syntax error's line
    *[err(f"params-{what}", ["online", "loglik", "--params", "p.json", "--test", "test.log"],
          "p.json", *needles, files={**FILES, "p.json": content})
      for what, content, needles in (
          ("nested-100000-deep", '{"model": "pbm",\n "attractiveness": '
           + "[" * 100_000 + "]" * 100_000 + "}", ("line 2", "nested deeper than 100")),
          ("integer-of-100000-digits", PARAMS.replace("0.6]", "1" * 100_000 + "]"),
           ("line 1", "beyond 64 bits", "100,000 digits")),
          ("integer-beyond-64-bits", PARAMS.replace('"prior": [0.5, 0.5]',
                                                    '"prior":\n [9223372036854775808, 1]'),
           ("line 2", "9223372036854775808 is beyond 64 bits", "' [9223372036854775808, 1],")),
          ("syntax-error-line", '{"model": "pbm",\n "attractiveness": [,]}',
           ("line 2", "not JSON", "\"attractiveness\": [,]")))],
    # a float of many digits is a float, an integer within 64 bits is read
    ok("params-long-float", ["online", "loglik", "--params", "p.json", "--test", "test.log"],
       files={**FILES, "p.json": PARAMS.replace("0.6]", "0." + "6" * 5000 + "]")}),
    ok("params-integer-of-64-bits", ["online", "loglik", "--params", "p.json", "--test",
                                     "test.log"],
       files={**FILES, "p.json": PARAMS.replace("[1.0, 0.6", "[1, 0.6").replace(
           '"prior": [0.5, 0.5]', '"prior": [0.5, 0.5], "gamma": null')}),
    err("simulate-no-sessions", with_option(simulate(), "--sessions", "0"), "sessions",
        files=FILES),
    err("simulate-bad-serp-size", simulate("--serp-size", "0"), "serp_size", files=FILES),
    err("simulate-negative-seed", with_option(simulate(), "--seed", "-1"), "--seed",
        files=FILES),
    err("simulate-unknown-user", simulate("--user", "drunk"), "--user", "unknown user",
        "'drunk'", files=FILES),
    err("simulate-unknown-format", simulate("--format", "csv"), "--format", "'csv'",
        "tsv, parquet", files=FILES),
    err("simulate-user-and-params", simulate("--user", "perfect", "--params", "pbm.json"),
        "--params", files=FILES),
    err("simulate-gamma-with-params", simulate("--params", "pbm.json", "--gamma", "0.5"),
        "--gamma", files=FILES),
    err("simulate-params-too-few-ranks", simulate("--params", "pbm.json"), "examination",
        "3 ranks", files=FILES),
    err("simulate-bad-gamma", simulate("--gamma", "2"), "gamma", files=FILES),
    err("simulate-bad-level", simulate("--relevance-level", "0"), "relevance_level",
        files=FILES),
    err("simulate-bad-short-level", simulate("-l", "0"), "-l/--relevance-level",
        files=FILES),
    # -l 1 and --gamma 1.0 are the defaults, and still refused with --params (not ignored)
    err("simulate-level-with-params", simulate("--params", "pbm.json", "-l", "1"),
        "-l/--relevance-level", "--params", files=FILES),
    err("simulate-default-gamma-with-params", simulate("--params", "pbm.json", "--gamma", "1"),
        "--gamma", "--params", files=FILES),
    err("simulate-parquet-stdout", simulate("--format", "parquet"), "-o", files=FILES),
    err("simulate-output-is-qrels", simulate("-o", "qrels.txt", "--force"), "qrels.txt",
        files=FILES),
    err("simulate-bad-run", ["online", "simulate-clicks", "qrels.txt", "bad.run"], "bad.run",
        "line 1", files={**FILES, "bad.run": b"1 Q0 d1 1\n"}),
    err("measures-no-params", ["online", "measures", "qrels.txt", "a.run"], "--params",
        files=FILES),
    err("measures-not-click-measure", measures("-m", "AP"), "uM and rrM", files=FILES),
    err("measures-pclick-given", measures("-m", "uM(pclick=0.5)"), "click model",
        files=FILES),
    err("measures-depth-too-deep", measures("--depth", "4"), "3 ranks", files=FILES),
    err("measures-bad-depth", measures("--depth", "0"), "depth", files=FILES),
    err("measures-bad-param", measures("-m", "rrM(psat=2)"), "psat", files=FILES),
    err("measures-output-is-params", measures("-o", "pbm.json", "--force"), "pbm.json",
        files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_online_clicks(case, ws, run_cli):
    run_case(case, ws, run_cli)
