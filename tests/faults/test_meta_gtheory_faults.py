"""``irscale meta gstudy`` and ``irscale meta qpp``: faulty facet scores, predictions and
effectiveness files, and bad parameters."""

from __future__ import annotations

import json

import pytest

from .conftest import (
    SYSTEMS,
    err,
    ok,
    opt,
    output_contains,
    run_case,
    warns_of,
    with_option,
)


def facet_csv(*, skip: int | None = None, extra: str = "", value: str | None = None,
              header: str = "topic,run,variant,value") -> str:
    """Scores of 6 topics × the 4 systems × 2 query variants: row ``skip`` left out,
    ``extra`` appended, the first value replaced by ``value``."""
    rows = [f"{t},{s},v{k},{0.1 + 0.05 * i + 0.01 * ((t * 7 + i * 3 + k * 5) % 11):.4f}"
            for t in range(1, 7) for i, s in enumerate(SYSTEMS) for k in (1, 2)]
    if value is not None:
        rows[0] = rows[0].rsplit(",", 1)[0] + "," + value
    if skip is not None:
        del rows[skip]
    return header + "\n" + "\n".join(rows) + "\n" + extra


def predictions_csv(*, skip: int | None = None, extra: str = "", value: str | None = None,
                    header: str = "topic,system,predictor,value") -> str:
    """Two predictors of 8 topics and two systems."""
    rows = [f"{t},{s},{p},{((t * 5 + j * 3 + n) % 7) / 10:.2f}" for t in range(1, 9)
            for j, s in enumerate(("bm25", "ql")) for n, p in enumerate(("nqc", "wig"))]
    if value is not None:
        rows[0] = rows[0].rsplit(",", 1)[0] + "," + value
    if skip is not None:
        del rows[skip]
    return header + "\n" + "\n".join(rows) + "\n" + extra


def observed_csv(*, skip: int | None = None, value: str | None = None) -> str:
    rows = [f"{t},{s},{((t * 3 + j) % 8) / 10:.2f}" for t in range(1, 9)
            for j, s in enumerate(("bm25", "ql"))]
    if value is not None:
        rows[0] = rows[0].rsplit(",", 1)[0] + "," + value
    if skip is not None:
        del rows[skip]
    return "topic,system,value\n" + "\n".join(rows) + "\n"


#: The files of the cases (also those of the numeric-option sweep).
FILES = {"facet.csv": facet_csv(), "pred.csv": predictions_csv(), "obs.csv": observed_csv()}

GSTUDY = ["meta", "gstudy", "--scores", "ap.csv"]
FACET = ["meta", "gstudy", "--facet-scores", "facet.csv"]
QPP = ["meta", "qpp", "--predictions", "pred.csv", "--observed", "obs.csv"]


def facet_case(id: str, body: str, *needles):
    return err(id, with_option(FACET, "--facet-scores", "bad.csv"), "bad.csv", *needles,
               files={**FILES, "bad.csv": body})


def qpp_case(id: str, option: str, body: str, *needles):
    return err(id, with_option(QPP, option, "bad.csv"), "bad.csv", *needles,
               files={**FILES, "bad.csv": body})


def json_ok(result, ws, run):
    json.loads(result.out)  # one JSON document


CASES = [
    # ================================================================ gstudy
    ok("gstudy-valid", GSTUDY, output_contains("Eρ²", "system:topic,e", "n_topic")),
    ok("gstudy-target", [*GSTUDY, "--target", "0.9", "--topics", "5,50"],
       output_contains("G-theory Φ")),
    ok("gstudy-runs", ["meta", "gstudy", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map"],
       output_contains("map")),
    ok("gstudy-facet", [*FACET, "--facet-levels", "1,4", "--format", "csv"], files=FILES),
    ok("gstudy-facet-named", [*FACET, "--facet", "assessor"], output_contains("assessor"),
       files={"facet.csv": facet_csv(header="topic,run,assessor,value")}),
    err("gstudy-two-measures", [*GSTUDY, "--scores", "p10.csv"], "one measure"),
    err("gstudy-topics-0", [*GSTUDY, "--topics", "0"], opt("--topics")),
    err("gstudy-topics-text", [*GSTUDY, "--topics", "many"], opt("--topics")),
    err("gstudy-topics-huge", [*GSTUDY, "--topics", "10000000"], opt("--topics")),
    err("gstudy-target-1", [*GSTUDY, "--target", "1"], opt("--target")),
    err("gstudy-target-0", [*GSTUDY, "--target", "0"], opt("--target")),
    err("gstudy-target-nan", [*GSTUDY, "--target", "nan"], opt("--target")),
    err("gstudy-facet-levels-without-facet", [*GSTUDY, "--facet-levels", "2"],
        opt("--facet-levels")),
    err("gstudy-facet-without-facet-scores", [*GSTUDY, "--facet", "assessor"], opt("--facet")),
    err("gstudy-scores-with-facet-scores", [*FACET, "--scores", "ap.csv"], "--scores",
        files=FILES),
    err("gstudy-measure-with-facet-scores", [*FACET, "-m", "map"], "-m", files=FILES),
    err("gstudy-facet-levels-0", [*FACET, "--facet-levels", "0"], opt("--facet-levels"),
        files=FILES),
    err("gstudy-facet-missing-file", with_option(FACET, "--facet-scores", "nope.csv"),
        "nope.csv"),
    err("gstudy-facet-is-topic", [*FACET, "--facet", "topic"], "facet", files=FILES),
    facet_case("gstudy-facet-bad-header", facet_csv(header="topic,run,shard,value"),
               "header", "variant"),
    facet_case("gstudy-facet-bad-value", facet_csv(value="high"), "line 2", "high"),
    facet_case("gstudy-facet-short-line", facet_csv(extra="1,sysA\n"), "line 50"),
    facet_case("gstudy-facet-repeated", facet_csv(extra="1,sysA,v1,0.5\n"), "twice"),
    facet_case("gstudy-facet-missing-cell", facet_csv(skip=3), "no score", "variant"),
    facet_case("gstudy-facet-undefined", facet_csv(value=""), "every cell"),
    facet_case("gstudy-facet-header-only", "topic,run,variant,value\n", "no data row"),
    err("gstudy-constant", [*GSTUDY[:2], "--scores", "same.csv"], "constant",
        files={"same.csv": "a,b\n0.5,0.5\n0.5,0.5\n0.5,0.5\n"}),
    err("gstudy-systems-alike", [*GSTUDY[:2], "--scores", "alike.csv", "--target", "0.9"],
        "score alike", files={"alike.csv": "a,b,c\n0.1,0.1,0.1\n0.3,0.3,0.3\n0.5,0.5,0.5\n"}),
    ok("gstudy-additive", [*GSTUDY[:2], "--scores", "add.csv", "--target", "0.9"],
       output_contains("G-theory Φ"),
       files={"add.csv": "a,b,c\n0.1,0.2,0.3\n0.3,0.4,0.5\n0.5,0.6,0.7\n"}),
    # ================================================================ qpp
    ok("qpp-valid", QPP, output_contains("sMARE", "predictor:system"), files=FILES),
    ok("qpp-tukey-json", [*QPP, "--tukey", "--alpha", "0.1", "--format", "json"],
       files=FILES),
    ok("qpp-json", [*QPP, "--format", "json"], json_ok, files=FILES),
    ok("qpp-model", [*QPP, "--model", "topic + predictor"], output_contains("topic + predictor"),
       files=FILES),
    err("qpp-alpha-without-tukey", [*QPP, "--alpha", "0.1"], opt("--alpha"), files=FILES),
    err("qpp-alpha-0", [*QPP, "--tukey", "--alpha", "0"], opt("--alpha"), files=FILES),
    err("qpp-model-unknown-factor", [*QPP, "--model", "topic + predictor + corpus"], "corpus",
        files=FILES),
    err("qpp-model-without-predictor", [*QPP, "--model", "topic + system"], "predictor",
        files=FILES),
    err("qpp-no-predictions", ["meta", "qpp", "--observed", "obs.csv"], "--predictions",
        files=FILES),
    err("qpp-missing-file", with_option(QPP, "--observed", "nope.csv"), "nope.csv",
        files=FILES),
    qpp_case("qpp-predictions-bad-header", "--predictions",
             predictions_csv(header="topic,system,model,value"), "line 1", "model"),
    qpp_case("qpp-predictions-bad-value", "--predictions", predictions_csv(value="x"),
             "line 2", "finite number"),
    qpp_case("qpp-predictions-nan", "--predictions", predictions_csv(value="nan"), "line 2"),
    qpp_case("qpp-predictions-short-line", "--predictions",
             predictions_csv(extra="1,bm25\n"), "line 34"),
    qpp_case("qpp-predictions-twice", "--predictions",
             predictions_csv(extra="1,bm25,nqc,0.3\n"), "twice", "line 34"),
    qpp_case("qpp-predictions-missing", "--predictions", predictions_csv(skip=0),
             "no prediction"),
    qpp_case("qpp-observed-missing", "--observed", observed_csv(skip=0), "no effectiveness"),
    qpp_case("qpp-observed-bad-value", "--observed", observed_csv(value="-"), "line 2"),
    qpp_case("qpp-observed-no-system", "--observed", "topic,value\n1,0.5\n", "system"),
    qpp_case("qpp-predictions-empty-key", "--predictions",
             predictions_csv(extra=",bm25,nqc,0.3\n"), "empty topic"),
    # scores of queries no predictor predicts are left out of the ranks, with a warning
    # that names them (they were left out in silence)
    ok("qpp-observed-unpredicted-query", QPP, warns_of("obs.csv", "1 effectiveness",
                                                      "topic '99'"),
       files={**FILES, "obs.csv": observed_csv() + "99,bm25,0.3\n"}),
    # the correlations of predictions with effectiveness and the comparison of two
    # predictors (meta qpp printed sMARE and its ANOVA alone: every option was unknown)
    ok("qpp-correlations", [*QPP, "--correlations"], output_contains("pearson_low",
                                                                     "spearman_high"),
       files=FILES),
    ok("qpp-correlations-bootstrap", [*QPP, "--correlations", "-B", "50", "--seed", "1"],
       output_contains("kendall_boot_low", "b_defined"), files=FILES),
    ok("qpp-compare", [*QPP, "--compare", "nqc,wig", "--correlation", "spearman"],
       output_contains("steiger_p"), files=FILES),
    err("qpp-samples-alone", [*QPP, "-B", "50"], opt("--samples", "-B"), "--correlations",
        files=FILES),
    err("qpp-seed-alone", [*QPP, "--seed", "1"], opt("--seed"), files=FILES),
    err("qpp-samples-1", [*QPP, "--correlations", "-B", "1"], opt("--samples", "-B"),
        files=FILES),
    err("qpp-correlation-without-compare", [*QPP, "--correlation", "kendall"],
        opt("--correlation"), "--compare", files=FILES),
    err("qpp-correlation-unknown", [*QPP, "--compare", "nqc,wig", "--correlation", "cosine"],
        opt("--correlation"), "cosine", files=FILES),
    err("qpp-compare-one-name", [*QPP, "--compare", "nqc"], opt("--compare"), "two "
        "predictors", files=FILES),
    err("qpp-compare-unknown-predictor", [*QPP, "--compare", "nqc,clarity"], "clarity",
        files=FILES),
    err("qpp-compare-same-predictor", [*QPP, "--compare", "nqc,nqc"], "same predictor",
        files=FILES),
    err("qpp-correlations-three-topics", [*QPP, "--correlations"], "four topics",
        files={**FILES, "pred.csv": "topic,predictor,value\n1,a,1\n2,a,2\n3,a,3\n"
               "1,b,3\n2,b,1\n3,b,2\n", "obs.csv": "topic,value\n1,0.1\n2,0.5\n3,0.3\n"}),
    err("qpp-correlations-constant-predictor", [*QPP, "--correlations"], "same on every "
        "topic", "'nqc'", files={**FILES, "pred.csv": "\n".join(
            line.rsplit(",", 1)[0] + ",0.5" if ",nqc," in line else line
            for line in predictions_csv().splitlines()) + "\n"}),
]


@pytest.mark.parametrize("case", CASES)
def test_meta_gtheory(case, ws, run_cli):
    run_case(case, ws, run_cli)
