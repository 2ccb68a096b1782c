"""Measures with inputs beyond qrels and runs — label sets (uRBP on CLEF eHealth 2016's
understandability labels), document lengths (TBG, U), click probabilities (uM, rrM) — and
the names, the API and the CLI that reach them."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

from irscale import evaluate
from irscale.errors import IrscaleError, MeasureError
from irscale.io import read_qrels, read_run
from irscale.io.labels import read_labels
from irscale.measures.names import parse_measure
from irscale.measures.umeasure import u_measure

from .conftest import CLEF, require
from .measures_helpers import batch, measure
from .test_cli_eval import cli
from .test_measures_ntcireval import run_frame

# ====================================================================== uRBP, real data


@pytest.fixture(scope="module")
def clef_under():
    clef = require(CLEF)
    qrels = read_qrels(clef / "task2.qrels")
    run = read_run(clef / "runs" / "InfoLab_EN_Run2.txt")
    return clef, qrels, run


def test_urbp_on_clef2016_matches_a_direct_computation(clef_under):
    clef, qrels, run = clef_under
    names = ["uRBP(p=0.8)", "uRBP(p=0.8,threshold=70)@10", "uRBP(p=0.9,u=linear)",
             "RBP(p=0.8,gain=binary)"]
    ev = evaluate(qrels, run, names, labels={"under": clef / "task2.qunder"},
                  ties="file-order")
    table = ev.per_topic().pivot(index="topic", columns="measure", values="value")
    rel = collections.defaultdict(dict)
    for t, d, r in zip(qrels.topic.to_pylist(), qrels.docno.to_pylist(), qrels.rel,
                       strict=True):
        rel[t][d] = int(r)
    under = read_labels(clef / "task2.qunder")
    label = {(t, d): v for t, d, v in zip(under.topic.to_pylist(), under.docno.to_pylist(),
                                          under.value, strict=True)}
    for topic, group in run_frame(run).groupby("topic"):
        if topic not in rel:
            continue
        docs = list(group["docno"])
        r = np.array([1.0 if rel[topic].get(d, 0) >= 1 else 0.0 for d in docs])
        u = np.array([label.get((topic, d), np.nan) for d in docs])
        known = ~np.isnan(u)

        assert table.loc[topic, names[0]] == pytest.approx(
            urbp(r, 0.8, (known & (np.nan_to_num(u) >= 50)).astype(float)), rel=1e-12, abs=1e-15)
        assert table.loc[topic, names[1]] == pytest.approx(
            urbp(r, 0.8, (known & (np.nan_to_num(u) >= 70)).astype(float), 10), abs=1e-15)
        assert table.loc[topic, names[2]] == pytest.approx(
            urbp(r, 0.9, np.clip(np.nan_to_num(u) / 100, 0, 1)), rel=1e-12, abs=1e-15)
        assert table.loc[topic, names[3]] == pytest.approx(urbp(r, 0.8, np.ones(len(r))),
                                                           rel=1e-12, abs=1e-15)
    # understanding can only lower RBP; with threshold 0 every labelled document counts
    assert (table[names[0]] <= table[names[3]] + 1e-15).all()


def urbp(relevant, p, understood, depth=None):
    """(1 − p) Σ p^(i−1) r_i U_i over the first ``depth`` ranks, one term at a time."""
    depth = len(relevant) if depth is None else min(depth, len(relevant))
    return (1 - p) * sum(relevant[i] * understood[i] * p**i for i in range(depth))


def test_urbp_from_the_command_line(clef_under):
    clef, _, _ = clef_under
    args = ["eval", "--ties", "file-order", "-m", "uRBP(p=0.8)", "-m", "RBP(p=0.8,gain=binary)",
            "--labels", f"under={clef / 'task2.qunder'}", str(clef / "task2.qrels"),
            str(clef / "runs" / "InfoLab_EN_Run2.txt")]
    status, out, _ = cli(args)
    assert status == 0
    lines = dict(line.split("\tall\t") for line in out.splitlines())
    assert 0 < float(lines["uRBP(p=0.8)           "]) < float(lines["RBP(p=0.8,gain=binary)"])
    status, _, err = cli(args[:7] + args[9:])  # without --labels
    assert status == 2 and "label set 'under'" in err and "--labels under=FILE" in err
    status, _, err = cli([*args[:7], "--labels", "oops", *args[9:]])
    assert status == 2 and "NAME=FILE" in err


def test_label_sets_from_mappings_files_and_wildcards(tmp_path):
    path = tmp_path / "len.txt"
    path.write_text("* 0 a 100\n* 0 b 300\nq1 0 b 50\n")
    table = read_labels(path)
    assert table.topic.to_pylist() == ["*", "*", "q1"]
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"b": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0, "c": 0.5}, "q2": {"b": 1.0}}
    ev = evaluate(qrels, run, ["AP"], labels={"len": path, "u": {"q1": {"c": 7}}, "w": {"b": 2}})
    jr = ev.rankings
    assert np.allclose(jr.attribute("len"), [100, 50, np.nan, 300], equal_nan=True)
    assert np.allclose(jr.attribute("u"), [np.nan, np.nan, 7, np.nan], equal_nan=True)
    assert np.allclose(jr.attribute("w"), [np.nan, 2, np.nan, 2], equal_nan=True)
    # views keep the labels aligned; placeholders (trec_eval 10's -c) have none
    assert np.allclose(jr.truncate(1).attribute("len"), [100, 300])
    ev = evaluate(qrels, {"q1": run["q1"]}, ["AP"], labels={"len": path}, complete=True,
                  compat=10)
    assert np.allclose(ev.rankings.attribute("len"), [100, 50, np.nan, np.nan],
                       equal_nan=True)
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 0 a 1\nq1 0 a 2\n")
    with pytest.raises(IrscaleError, match="duplicate"):
        read_labels(bad)
    with pytest.raises(IrscaleError):
        read_labels({"q1": {"a": "x"}})


# ====================================================================== TBG and U
def test_tbg_by_hand():
    # ranks: non-relevant (1000 words), relevant (10 words), relevant (200 words)
    jr = batch([[0, 1, 1]], [[1, 2]], doclen=[[1000, 10, 200]])
    t2 = 4.4 + 0.39 * (0.018 * 1000 + 7.8)
    t3 = t2 + 4.4 + 0.64 * (0.018 * 10 + 7.8)
    gain = 0.64 * 0.77
    expected = gain * (math.exp(-t2 * math.log(2) / 224) + math.exp(-t3 * math.log(2) / 224))
    assert measure("TBG", jr)[0] == pytest.approx(expected, rel=1e-14)
    assert measure("TBG(h=100,lengths=doclen)@2", jr)[0] == pytest.approx(
        gain * math.exp(-t2 * math.log(2) / 100), rel=1e-14)
    missing = batch([[0, 1]], [[1, 1]], doclen=[[np.nan, 10]])
    with pytest.raises(MeasureError, match="deflen"):
        measure("TBG", missing)
    assert measure("TBG(deflen=1000)", missing)[0] == pytest.approx(
        gain * math.exp(-t2 * math.log(2) / 224), rel=1e-14)


def test_u_measure_trailtexts():
    # Sakai (2014), Fig. 5: relevant documents at ranks 2 and 4; four snippets and 20 % of the
    # two relevant documents are read
    jr = batch([[0, 1, 0, 2]], [[2, 1, 1]], doclen=[[5000, 1000, 3000, 2000]])
    pos2 = 2 * 200 + 0.2 * 1000
    pos4 = 4 * 200 + 0.2 * (1000 + 2000)
    expected = 1 * (1 - pos2 / 132000) + 2 * (1 - pos4 / 132000)
    assert measure("U", jr)[0] == pytest.approx(expected, rel=1e-14)
    # past L characters nothing is worth anything: 100 + 100 + 1000 read before rank 2 ends
    assert measure("U(L=1000,snippet=100,F=1)", jr)[0] == 0.0
    assert measure("U(L=1300,snippet=100,F=1)", jr)[0] == pytest.approx(1 - 1200 / 1300)
    # explicit trailtexts: "Snippet 1 Snippet 2 Fulltext 2" (Sakai 2014, Fig. 4 (c))
    values = u_measure([0, 3, 4], [100, 100, 400, 50], [0, 0, 1, 2], patience=1000)
    assert values.tolist() == pytest.approx([1 - 600 / 1000, 2 * (1 - 50 / 1000)])
    # diminishing return: a relevant document at rank 3 pushes rank 4 back (Sakai 2014)
    more = batch([[0, 1, 1, 2]], [[1, 2, 1]], doclen=[[5000, 1000, 3000, 2000]])
    later = 4 * 200 + 0.2 * (1000 + 3000 + 2000)
    assert measure("U", more)[0] < expected + 1 * (1 - (3 * 200 + 0.2 * 4000) / 132000)
    assert later > pos4


# ====================================================================== click models
def test_click_model_measures():
    jr = batch([[2, 0, 1]], [[1, 1, 1]], clicks=[[0.5, 0.2, 0.1]])
    assert measure("uM(pclick=0.6:0.3:0.1)", jr)[0] == pytest.approx(0.6 * 2 + 0.1 * 1)
    assert measure("uM(click=clicks)", jr)[0] == pytest.approx(0.5 * 2 + 0.1 * 1)
    # default satisfaction (2^g − 1)/2^gmax with gmax = 2
    assert measure("rrM(click=clicks)", jr)[0] == pytest.approx(
        0.75 * 0.5 / 1 + 0.25 * 0.1 / 3)
    assert measure("rrM(pclick=1:1:1,psat=0.3:0.9)", jr)[0] == pytest.approx(0.9 + 0.3 / 3)
    with pytest.raises(MeasureError, match="click=NAME"):
        measure("uM", jr)
    with pytest.raises(MeasureError, match="cut-off"):
        measure("uM(pclick=0.5:0.5)", jr)
    assert measure("uM(pclick=0.5:0.5)@2", jr)[0] == pytest.approx(1.0)


def test_markov_precision_distance_model():
    jr = batch([[1, 0, 1]], [[1, 2]])
    # π ∝ Σ_{j≠i} |i − j|^(−1) over ranks 1..3: rank 1 → 1 + 1/2, rank 3 → 1/2 + 1
    weights = np.array([1.5, 1.5])
    precision = np.array([1.0, 2 / 3])
    assert measure("MP", jr)[0] == pytest.approx(weights @ precision / weights.sum())
    assert measure("MP(alpha=0)", jr)[0] == pytest.approx(precision.mean())


# ====================================================================== names
def test_names_reach_every_family_and_keep_trec_routes():
    assert parse_measure("AP")[0].family == "map"
    assert parse_measure("AP@10")[0].family == "map_cut"
    assert parse_measure("AP(norm=min)@10")[0].family == "AP"
    assert parse_measure("AP(norm=min)@10")[0].params["cutoff"] == 10
    assert parse_measure("nDCG@10")[0].family == "ndcg_cut"
    assert parse_measure("nDCG(gain=exp,discount=log2)@10")[0].family == "nDCG"
    assert parse_measure("RR@10")[0].cutoff == 10
    assert parse_measure("RBP(p=0.5)@10")[0].cutoff == 10  # no native cut-off: truncation
    assert parse_measure("gRBP")[0].family == "RBP"
    assert parse_measure("Q.beta=0.5")[0].params["beta"] == 0.5
    request = parse_measure("Q(rel=2,condensed=1)@5")[0]
    assert (request.relevance_level, request.condensed, request.params["cutoff"]) == (2, True, 5)
    assert parse_measure("ntcir:nDCG@0010")[0].params["discount"] == "jk"
    with pytest.raises(MeasureError, match="unknown NTCIREVAL"):
        parse_measure("ntcir:nDCG")
    with pytest.raises(MeasureError, match="unknown parameter"):
        parse_measure("P(gain=exp)@5")
    ev = evaluate({"q": {"a": 2, "b": 1}}, {"q": {"a": 1.0, "b": 2.0}},
                  ["nDCG", "nDCG(gain=exp)", "ndcg", "Q", "DCG(discount=jk,base=10)@20"])
    assert list(ev.per_topic()["measure"]) == ["ndcg", "nDCG", "nDCG(gain=exp)", "Q",
                                               "DCG(discount=jk,base=10)@20"]
