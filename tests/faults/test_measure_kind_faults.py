"""Measures a command cannot use, sizes it cannot hold, label sets that do not fit.

* measures with no per-topic value (summaries over topics: ``gm_map``, ``gm_bpref``,
  ``num_q``; text: ``runid``, ``relstring``) and measure sets are refused by every command
  that analyses per-topic values or builds a scale, naming the measure;
* every run of a scale's space has a finite value (bpref counts the run's non-relevant
  documents as judged);
* run lengths beyond what an exact image can hold are refused before any work;
* a label set sharing no topic with the runs is an error, one no measure uses a warning.
"""

from __future__ import annotations

import json
import math

import pytest

from .conftest import any_of, err, ok, opt, run_case, warnings_of

RUNS = ["qrels.txt", "a.run", "b.run", "c.run"]
SUMMARY_ONLY = ("gm_map", "gm_bpref", "num_q", "runid", "relstring")
COMMANDS = {
    "compare-t": ["compare", *RUNS, "--test", "t"],
    "compare-tukey": ["compare", *RUNS],
    "meta-dp": ["meta", "dp", *RUNS, "-B", "20", "--seed", "1"],
    "meta-loo": ["meta", "loo", *RUNS, "--depth", "3", "--contributors", "contrib.txt"],
    "meta-scales": ["meta", "scales", *RUNS, "--cutoffs", "3"],
    "meta-correlate": ["meta", "correlate", *RUNS, "-m", "map"],
    "scale-image": ["scale", "image", "-N", "3", "--no-progress"],
    "scale-transform": ["scale", "transform", "qrels.txt", "a.run", "-N", "3",
                        "--no-progress"],
    "scale-table": ["scale", "table", "qrels.txt", "a.run", "b.run", "-N", "3",
                    "--no-progress"],
}


def _finite_image(result, ws, run):
    document = json.loads(result.out)
    assert all(math.isfinite(v) for v in document["values"]), document
    assert not warnings_of(result), result.err


def _warns(*needles: str):
    def check(result, ws, run):
        text = " ".join(warnings_of(result))
        assert all(n in text for n in needles), result.err

    return check


def _summary_only_rows():
    rows = []
    for command, argv in COMMANDS.items():
        for measure in SUMMARY_ONLY:
            rows.append(err(f"{command}-{measure}", [*argv, "-m", measure], measure))
    return rows


IMAGE = ["scale", "image", "--no-progress", "--format", "json"]
LABELS = ["eval", "qrels.txt", "a.run", "-m", "uRBP(p=0.8)"]

CASES = [
    *_summary_only_rows(),
    err("compare-gm_map-hint", [*COMMANDS["compare-t"], "-m", "gm_map"], "map"),
    err("scale-image-measure-set", ["scale", "image", "-N", "3", "-m", "all_trec"],
        "all_trec", "one measure"),
    err("scale-image-official", ["scale", "image", "-N", "3", "-m", "official"], "official"),
    # bpref and infAP read the judged non-relevant documents: finite on every run
    ok("scale-image-bpref-finite", [*IMAGE, "-m", "bpref", "-N", "3"], _finite_image),
    ok("scale-image-infAP-finite", [*IMAGE, "-m", "infAP", "-N", "3"], _finite_image),
    ok("scale-image-bpref-recall-base-finite",
       [*IMAGE, "-m", "bpref", "-N", "4", "--recall-base", "1", "--feasible"], _finite_image),
    # sizes: refused at once, naming -N (not another option)
    err("scale-image-P-N-huge", ["scale", "image", "-m", "P", "-N", str(2**63 - 1)],
        opt("-N"), "too"),
    err("scale-image-AP-N-huge", ["scale", "image", "-m", "AP", "-N", str(2**63 - 1)],
        opt("-N"), "too"),
    err("scale-image-RBTO-N-huge", ["scale", "image", "-m", "RBTO", "-N", str(2**63 - 1)],
        opt("-N"), "too"),
    err("scale-image-P-N-10-6", ["scale", "image", "-m", "P", "-N", "1000000"],
        opt("-N"), "GiB"),
    err("scale-image-RR-N-10-6", ["scale", "image", "-m", "RR", "-N", "1000000"], opt("-N")),
    err("scale-image-ERR-N-60", ["scale", "image", "-m", "ERR", "-N", "60"], opt("-N"),
        "2^60"),
    err("scale-image-AP-N-41", ["scale", "image", "-m", "AP", "-N", "41"], "AP", "40"),
    err("scale-transform-P-N-10-9", ["scale", "transform", "qrels.txt", "a.run", "-m", "P",
                                     "-N", "1000000000"], opt("-N")),
    err("scale-table-N-repeated", ["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP",
                                   "-N", "3,3"], opt("-N"), "3"),
    # label sets
    err("labels-no-common-topic", [*LABELS, "--labels", "under=other.labels"],
        "other.labels", "under", "topic",
        files={"other.labels": "901 0 d1 50\n902 0 d2 20\n"}),
    ok("labels-no-retrieved-document", [*LABELS, "--labels", "under=far.labels"],
       _warns("under", "no retrieved document"), files={"far.labels": "1 0 d99 50\n"}),
    ok("labels-unused", ["eval", "qrels.txt", "a.run", "-m", "P@5", "--labels",
                         "under=labels.txt"], _warns("under", "no measure")),
    ok("labels-used-no-warning", [*LABELS, "--labels", "under=labels.txt"],
       lambda result, ws, run: not warnings_of(result) or pytest.fail(result.err)),
    err("labels-unused-wrong-file", ["eval", "qrels.txt", "a.run", "-m", "uRBP(p=0.8)",
                                     "--labels", "under=labels.txt", "--labels",
                                     "lengths=none.labels"], "none.labels"),
    err("labels-measure-names-other-set", [*LABELS[:3], "-m", "uRBP(p=0.8,aspect=read)",
                                           "--labels", "under=labels.txt"],
        any_of("read", "label set")),
]


@pytest.mark.parametrize("case", CASES)
def test_measure_kinds(case, ws, run_cli):
    run_case(case, ws, run_cli)
