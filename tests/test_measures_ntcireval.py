"""NTCIREVAL compatibility: the ``ntcir:`` names and the irscale measures they stand for
reproduce ``ntcir_eval compute`` — on NTCIREVAL's own documented example, and on the real
CLEF eHealth 2016 runs against a one-topic-at-a-time model of NTCIREVAL's definitions
(tests/ntcir_reference.py). NTCIREVAL keeps the run's order for ties (``--ties
file-order``) and does not evaluate topics without relevant documents."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from irscale import evaluate
from irscale.io import read_qrels, read_run

from .conftest import CLEF, require
from .ntcir_reference import ntcir_compute

#: NTCIREVAL's sample.rel (levels of dummy01..dummy11) and sample.res, with -g 1:2:3.
SAMPLE_REL = {f"dummy{i:02d}": level for i, level in
              enumerate([3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0], start=1)}
SAMPLE_RES = ["dummy11", "dummy01", "dummy12", "dummy04"]

#: README of NTCIREVAL 190111 (``compute -r sample.rel -g 1:2:3``) and the outputs with
#: ``-cutoffs 2`` and with the condensed list (``label -j``), as printed (4 decimals).
SAMPLE_OUTPUT = {
    "RR": 0.5, "O-measure": 0.5, "P-measure": 0.5, "P-plus": 0.5, "AP": 0.1,
    "Q-measure": 0.0967, "RBP": 0.0761, "ERR": 0.4062, "AP@1000": 0.1, "Q@1000": 0.0967,
    "nDCG@1000": 0.3380, "MSnDCG@1000": 0.2760, "P@1000": 0.0020, "RBP@1000": 0.0761,
    "ERR@1000": 0.4062, "nERR@1000": 0.4710, "Hit@1000": 1.0,
    "AP@0002": 0.25, "Q@0002": 0.25, "nDCG@0002": 0.5, "MSnDCG@0002": 0.3869,
    "P@0002": 0.5, "nERR@0002": 0.4444, "Hit@0002": 1.0,
}
SAMPLE_CONDENSED = {
    "AP": 0.1167, "Q-measure": 0.1083, "RBP": 0.0776, "ERR": 0.4167, "Q@1000": 0.1083,
    "nDCG@1000": 0.3601, "MSnDCG@1000": 0.2899, "nERR@1000": 0.4830, "P-plus": 0.5,
}


def _sample(names, **options):
    run = {"t": {doc: float(10 - i) for i, doc in enumerate(SAMPLE_RES)}}
    ev = evaluate({"t": SAMPLE_REL}, run, [f"ntcir:{n}" for n in names], ties="file-order",
                  **options)
    return dict(zip([n for n in names], ev.per_topic()["value"], strict=True))


def test_ntcireval_documented_example():
    values = _sample(SAMPLE_OUTPUT)
    assert {n: round(v, 4) for n, v in values.items()} == SAMPLE_OUTPUT


def test_ntcireval_documented_example_condensed():
    values = _sample(SAMPLE_CONDENSED, judged_only=True)
    assert {n: round(v, 4) for n, v in values.items()} == SAMPLE_CONDENSED
    # the generic condensed option gives the same as -J
    run = {"t": {doc: float(10 - i) for i, doc in enumerate(SAMPLE_RES)}}
    ev = evaluate({"t": SAMPLE_REL}, run, ["Q(condensed=1)", "nERR(prob=ntcir,condensed=1)@1000"])
    assert round(ev.per_topic()["value"][0], 4) == 0.1083
    assert round(ev.per_topic()["value"][1], 4) == 0.4830


def test_reference_model_reproduces_the_documented_example():
    levels = [SAMPLE_REL.get(doc) for doc in SAMPLE_RES]
    xrel = collections.Counter(SAMPLE_REL.values())
    out = ntcir_compute(levels, [xrel[g] for g in range(4)], [1, 2, 3], cutoffs=(1000, 2))
    printed = {name.replace("@0002", "@2"): value for name, value in SAMPLE_OUTPUT.items()}
    assert {n: round(out[n], 4) for n in printed} == printed


CUTOFFS = (1, 5, 10, 20, 1000)
NAMES = ["RR", "O-measure", "P-measure", "P-plus", "AP", "Q-measure", "RBP", "ERR"] + [
    f"{m}@{k}" for k in CUTOFFS for m in ("AP", "Q", "nDCG", "MSnDCG", "P", "RBP", "ERR",
                                          "nERR", "Hit")]


@pytest.mark.parametrize("run_name", ["CUNI_EN_Run1.txt", "GUIR_EN_Run2.txt",
                                      "KDEIR_EN_Run1.txt", "WHUIRGroup_EN_Run3.txt"])
def test_clef_runs_match_the_reference_model(run_name):
    clef = require(CLEF)
    qrels = read_qrels(clef / "task2.qrels")
    run = read_run(clef / "runs" / run_name)
    ev = evaluate(qrels, run, [f"ntcir:{n}" for n in NAMES], ties="file-order")
    table = ev.per_topic().pivot(index="topic", columns="measure", values="value")
    judgments: dict[str, dict[str, int]] = collections.defaultdict(dict)
    for topic, doc, rel in zip(qrels.topic.to_pylist(), qrels.docno.to_pylist(), qrels.rel,
                               strict=True):
        judgments[topic][doc] = int(rel)
    # the run's own order: score descending, ties in file order (NTCIREVAL's res files)
    frame = run_frame(run)
    compared = 0
    for topic, group in frame.groupby("topic", sort=True):
        levels_of = judgments.get(topic)
        if levels_of is None:
            continue
        xrel = collections.Counter(levels_of.values())
        if sum(xrel[g] for g in (1, 2)) == 0:
            continue  # NTCIREVAL: "no rel doc"
        levels = [levels_of.get(doc) for doc in group["docno"]]
        expected = ntcir_compute(levels, [xrel[g] for g in range(3)], [1, 2], cutoffs=CUTOFFS)
        for name in NAMES:
            assert table.loc[topic, f"ntcir:{name}"] == pytest.approx(
                expected[name], rel=1e-12, abs=1e-15), (run_name, topic, name)
        compared += 1
    assert compared >= 40


def run_frame(run):
    import pandas as pd

    frame = pd.DataFrame({"topic": run.topic.to_pylist(), "docno": run.docno.to_pylist(),
                          "score": run.score})
    frame["line"] = np.arange(len(frame))
    return frame.sort_values(["topic", "score", "line"], ascending=[True, False, True],
                             kind="stable")
