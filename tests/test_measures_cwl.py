"""The C/W/L measures (irscale.measures.cwl, cwl_models) against cwl_eval 1.0.12 itself
(tests/cwl_reference.py): every output and residual, on hypothesis-generated qrels and runs
(graded gains, unjudged and judged-negative documents, ties kept in file order, costs per
document, rankings shorter and longer than the depth, topics only judged or only
retrieved) and on CLEF eHealth 2016 runs; and irscale's RBP, RBPres, TBG, U and AP against
their C/W/L expressions."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import MeasureError

from .cwl_reference import METRICS, cwl_scores
from .measures_helpers import batch, measure
from .property_examples import examples

OUTS = ("EU", "ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResEC", "ResETC", "ResED")

#: (irscale's name, its parameters, its cut-off k; cwl_eval's class and its arguments, in
#: which "k" stands for a cut-off of ranks, irscale's depth for the measure).
SPECS: list[tuple[str, dict[str, Any], int | None, str, tuple[Any, ...]]] = [
    ("CWL-P", {}, 3, "CWL-P", ("k",)),
    ("CWL-RR", {}, None, "CWL-RR", ()),
    ("CWL-RBP", {"p": 0.7}, None, "CWL-RBP", (0.7,)),
    ("NPV", {"rate": 0.25}, None, "NPV", (0.25,)),
    ("SDCG", {}, 4, "SDCG", ("k",)),
    ("CWL-AP", {}, None, "CWL-AP", ()),
    ("TrAP", {}, None, "TrAP", ()),
    ("INST", {"T": 2}, None, "INST", (2.0,)),
    ("INST", {"T": 0.5}, None, "INST", (0.5,)),
    ("INSQ", {"T": 1.5}, None, "INSQ", (1.5,)),
    ("CWL-TBG", {"h": 3}, None, "CWL-TBG", (3.0,)),
    ("CWL-U", {"L": 6}, None, "CWL-U", (6.0,)),
    ("BPM", {"T": 1.5}, 4, "BPM", (1.5, 4)),
    # cwl_eval's dynamic BPM never changes K: any hc gives hc = 0
    ("BPM", {"T": 1, "hb": 1, "gmed": 0.4}, 5, "BPMD", (1.0, 5, 1.0, 1.0, 0.4)),
    ("IFT-goal", {"T": 2, "b1": 0.9, "R1": 10}, None, "IFT-goal", (2.0, 0.9, 10.0)),
    ("IFT-rate", {"A": 0.2, "b2": 0.9, "R2": 10}, None, "IFT-rate", (0.2, 0.9, 10.0)),
    ("IFT", {"T": 1, "R1": 3, "A": 0.4, "R2": 2}, None, "IFT",
     (1.0, 0.9, 3.0, 0.4, 0.9, 2.0)),
    ("NERR8", {}, 4, "NERR8", ("k",)),
    ("NERR9", {}, 4, "NERR9", ("k",)),
    ("NERR10", {"p": 0.8}, None, "NERR10", (0.8,)),
    ("NERR11", {"T": 2}, None, "NERR11", (2.0,)),
    ("SET", {"beta": 0.5}, 4, "SET", (0.5, "k")),
]


def name_of(family: str, params: dict[str, Any], cutoff: int | None) -> str:
    text = family + "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
    return text if cutoff is None else f"{text}@{cutoff}"


def assert_close(got: float, want: float, what: str) -> None:
    assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (what, got, want)


# ------------------------------------------------------------------ generated collections
DOCS = tuple(f"d{i}" for i in range(10))  # d8, d9 are never judged


@st.composite
def collections(draw: st.DrawFn) -> dict[str, Any]:
    top = draw(st.integers(1, 3))
    topics = draw(st.lists(st.sampled_from(["t1", "t2", "t3"]), min_size=1, max_size=3,
                           unique=True))
    qrels, runs, costs = {}, {}, {}
    for topic in topics:
        judged = draw(st.dictionaries(st.sampled_from(DOCS[:8]), st.integers(-1, top),
                                      min_size=1))
        qrels[topic] = judged
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
        scores = sorted(draw(st.lists(st.integers(0, 3), min_size=len(docs),
                                      max_size=len(docs))), reverse=True)
        runs[topic] = list(zip(docs, scores, strict=True))  # ties: in this (file) order
        costs[topic] = draw(st.dictionaries(st.sampled_from(DOCS), st.sampled_from(
            [0.5, 1.0, 2.0, 3.0])))
    if draw(st.booleans()):  # a topic judged but not retrieved: evaluated by neither tool
        qrels["t9"] = {"d0": 1}
    if draw(st.booleans()):  # a topic retrieved but not judged: not evaluated by irscale
        runs["t8"], costs["t8"] = [("d0", 1)], {}
    return {"top": top, "qrels": qrels, "runs": runs, "costs": costs,
            "gain": draw(st.sampled_from(["linear", "exp", "binary"])),
            "rel": draw(st.integers(1, 2)),
            "depth": draw(st.integers(2, 12)), "with_costs": draw(st.booleans()),
            "maxcost": draw(st.sampled_from([1.0, 2.0])),
            "mincost": draw(st.sampled_from([0.5, 1.0]))}


def cwl_gain(degree: int, data: dict[str, Any]) -> float:
    """The gain of a degree in cwl_eval's gain file: g(degree)/g(top), 0 below ``rel``."""
    if degree < data["rel"]:
        return 0.0
    if data["gain"] == "binary":
        return 1.0
    if data["gain"] == "exp":
        return (2.0**degree - 1.0) / (2.0 ** data["top"] - 1.0)
    return degree / data["top"]


def write(folder: Path, data: dict[str, Any]) -> dict[str, Path]:
    """The collection's files: irscale's qrels (degrees), run and cost labels; cwl_eval's
    gain file (:func:`cwl_gain`, judged-negative documents left out: both read them as
    unjudged) and cost file (a cost per element type, one type per priced document)."""
    with_costs = data["with_costs"]
    qrels, gains, run, costs, labels = [], [], [], [], []
    for topic, judged in data["qrels"].items():
        for doc, degree in judged.items():
            qrels.append(f"{topic} 0 {doc} {degree}")
            if degree >= 0:
                gains.append(f"{topic} 0 {doc} {cwl_gain(degree, data)!r}")
    for topic, ranking in data["runs"].items():
        for rank, (doc, score) in enumerate(ranking, 1):
            priced = with_costs and doc in data["costs"][topic]
            element = f"{topic}-{doc}" if priced else "Q0"
            run.append(f"{topic} {element} {doc} {rank} {score} r")
            if priced:
                costs.append(f"{element} {data['costs'][topic][doc]!r}")
                labels.append(f"{topic} 0 {doc} {data['costs'][topic][doc]!r}")
    first = next(iter(data["runs"]))
    labels.append(f"{first} 0 unretrieved 1.0")  # a label set is never empty
    files = {"qrels": qrels, "gains": gains, "run": run, "costs": costs, "labels": labels}
    paths = {}
    for key, lines in files.items():
        paths[key] = folder / f"{key}.txt"
        paths[key].write_text("".join(line + "\n" for line in lines))
    return paths


@pytest.mark.filterwarnings("ignore:label set 'cost'")  # when no retrieved document is priced
@pytest.mark.filterwarnings("ignore:run .* no judgments are not evaluated")
@pytest.mark.parametrize(("family", "params", "cutoff", "metric", "args"), SPECS,
                         ids=[name_of(s[0], s[1], s[2]) for s in SPECS])
@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=collections())
def test_every_output_is_cwl_evals(tmp_path, family, params, cutoff, metric, args, data):
    paths = write(tmp_path, data)
    gain = {"gain": data["gain"], "rel": data["rel"]}
    if data["gain"] != "binary":  # gmax: the gain of the top degree (binary: 1)
        gain["maxrel"] = data["top"]
    common = {**params, **gain, "depth": data["depth"],
              "maxcost": data["maxcost"], "mincost": data["mincost"]}
    if data["with_costs"]:
        common["costs"] = "cost"
    depth = data["depth"]
    if "k" in args:  # a cut-off of ranks is the depth: cwl_eval's values at any depth ≥ k
        del common["depth"]
        depth = max(depth, cutoff)
        args = tuple(cutoff if a == "k" else a for a in args)
    names = [name_of(family, {**common, "out": out}, cutoff) for out in OUTS]
    # mincost acts on the residuals only (a name giving it otherwise is refused)
    names = [n if out.startswith("Res") else n.replace(f",mincost={data['mincost']}", "")
             for n, out in zip(names, OUTS, strict=True)]
    labels = {"cost": paths["labels"]} if data["with_costs"] else None
    ev = evaluate(paths["qrels"], paths["run"], names, ties="file-order", labels=labels)
    got = {(row.topic, row.measure): row.value for row in ev.per_topic().itertuples()}
    want = cwl_scores(paths["gains"], paths["run"], METRICS[metric](*args),
                      cost_file=paths["costs"] if data["with_costs"] else None,
                      depth=depth, max_cost=data["maxcost"],
                      min_cost=data["mincost"])
    assert {topic for topic, _ in got} == set(want) & set(data["qrels"])
    for topic, values in want.items():
        if topic not in data["qrels"]:
            continue
        for name, value in zip(names, values, strict=True):
            assert_close(got[(topic, name)], value, (topic, name))


# ------------------------------------------------------------------ CLEF eHealth 2016
#: (irscale's name, cwl_eval's metric) on real runs: 1,000 documents, many tied scores,
#: graded qrels 0/1/2 (gains degree / 2), cwl_eval's default depth.
CLEF_MEASURES = [("INST(T=3)", ("INST", 3.0)), ("CWL-RBP(p=0.8)", ("CWL-RBP", 0.8)),
                 ("SDCG@10", ("SDCG", 10)), ("BPM(T=2)@20", ("BPM", 2.0, 20)),
                 ("IFT", ("IFT", 2.0, 0.9, 10.0, 0.2, 0.9, 10.0)),
                 ("CWL-TBG(h=22)", ("CWL-TBG", 22.0))]


def out_names(name: str) -> list[str]:
    """``name`` with each of the ten outputs."""
    head, at, cutoff = name.partition("@")
    inner = head[head.index("(") + 1:-1] if "(" in head else ""
    family = head.split("(")[0]
    return [f"{family}({inner + ',' if inner else ''}out={out}){at}{cutoff}" for out in OUTS]


@pytest.mark.parametrize("run_name", ["CUNI_EN_Run1", "ecnu_EN_Run3"])
def test_clef2016_runs_are_cwl_evals(clef, tmp_path, run_name):
    gains = tmp_path / "gains.txt"
    with gains.open("w") as out:
        for line in (clef / "task2.qrels").read_text().splitlines():
            topic, iteration, docno, degree = line.split()
            out.write(f"{topic} {iteration} {docno} {int(degree) / 2!r}\n")
    run = clef / "runs" / f"{run_name}.txt"
    names = [n for name, _ in CLEF_MEASURES for n in out_names(name)]
    ev = evaluate(clef / "task2.qrels", run, names, ties="file-order")
    got = {(row.topic, row.measure): row.value for row in ev.per_topic().itertuples()}
    for name, (metric, *args) in CLEF_MEASURES:
        want = cwl_scores(gains, run, METRICS[metric](*args))
        assert len(want) == 50
        for topic, values in want.items():
            for label, value in zip(out_names(name), values, strict=True):
                assert_close(got[(topic, label)], value, (run_name, topic, label))


# ------------------------------------------------------------------ irscale's own measures
@st.composite
def rankings(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]]]:
    """Rankings of degrees 0..2 (-1: not in the qrels, -2: judged negative) and recall
    bases holding their judged documents and some more."""
    runs = draw(st.lists(st.lists(st.integers(-2, 2), max_size=12), min_size=1, max_size=4))
    levels = []
    for ranking in runs:
        row = [ranking.count(g) for g in range(3)]
        levels.append([count + draw(st.integers(0, 2)) for count in row])
    return runs, levels


@settings(max_examples=examples(60), deadline=None)
@given(data=rankings(), p=st.sampled_from([0.5, 0.8, 0.95]))
def test_rbp_and_its_residual_are_the_cwl_expressions(data, p):
    """RBP = EU·(1 − p^N) (cwl_eval normalises W over the N ranks evaluated) and
    RBPres = ResEU·(1 − p^N) + p^N (cwl_eval's residual stops at rank N)."""
    jr = batch(*data)
    depth = 20
    scale = 1.0 - p**depth
    eu = measure(f"CWL-RBP(p={p},depth={depth},maxrel=2)", jr)
    residual = measure(f"CWL-RBP(p={p},depth={depth},out=ResEU)", jr)
    np.testing.assert_allclose(measure(f"RBP(p={p},maxrel=2)", jr), eu * scale,
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(measure(f"RBPres(p={p})", jr), residual * scale + p**depth,
                               rtol=1e-12, atol=1e-15)


TBG = {"h": 224.0, "ts": 4.4, "pc1": 0.64, "pc0": 0.39, "psave": 0.77, "a": 0.018, "b": 7.8}


@settings(max_examples=examples(60), deadline=None)
@given(data=rankings(), lengths=st.lists(st.integers(0, 5000), min_size=12, max_size=12))
def test_tbg_is_cwl_tbg_with_the_time_of_each_document_as_its_cost(data, lengths):
    """TBG = pc1·psave·EU·ED of CWL-TBG (binary gains) when each document costs the time
    Smucker & Clarke give it, ts + P_click·(a·length + b): EU·ED = Σ_i 2^(−CC(i−1)/h) g(i).
    (CWL-TBG's weights are the decay's integral from the time before each rank, and sum to
    1 over the N ranks; TBG's gain pc1·psave and its click model are not C/W/L's.)"""
    runs, levels = data
    doclen = [lengths[: len(r)] for r in runs]
    cost = [[TBG["ts"] + (TBG["pc1"] if g >= 1 else TBG["pc0"]) * (TBG["a"] * n + TBG["b"])
             for g, n in zip(r, ns, strict=True)] for r, ns in zip(runs, doclen, strict=True)]
    jr = batch(runs, levels, doclen=doclen, cost=cost)
    cwl = "CWL-TBG(h=224,gain=binary,costs=cost,depth=20{})"
    eu, ed = (measure(cwl.format(f",out={out}"), jr) for out in ("EU", "ED"))
    np.testing.assert_allclose(measure("TBG", jr), TBG["pc1"] * TBG["psave"] * eu * ed,
                               rtol=1e-12, atol=1e-15)


@settings(max_examples=examples(60), deadline=None)
@given(data=rankings(), lengths=st.lists(st.integers(0, 50_000), min_size=13, max_size=13))
def test_u_is_cwl_u_of_the_ranking_read_one_document_ahead(data, lengths):
    """U credits a document's gain where its text ends, pos(k) = Σ_{j≤k} c(j) with
    c(j) = snippet + F·length(j) for a relevant document (Sakai & Dou's trailtext); CWL-U
    where it starts, CC(k−1). They agree on the ranking shifted down one rank behind an
    unjudged document costing c(1), document k costing c(k + 1): U = EU·ED."""
    runs, levels = data
    snippet, share, patience = 200.0, 0.2, 30_000.0

    def costs(ranking: list[int]) -> list[float]:
        return [snippet + (share * n if g >= 1 else 0.0)
                for g, n in zip(ranking, lengths, strict=False)]

    doclen = [lengths[: len(r)] for r in runs]
    jr = batch(runs, levels, doclen=doclen)
    ahead = [[*costs(r), snippet] for r in runs]  # c(1), c(2), ..., c(n), any
    shifted = batch([[-1, *r] for r in runs], levels, cost=ahead)
    cwl = f"CWL-U(L={patience:g},gain=binary,costs=cost,depth=20,out={{}})"
    eu, ed = (measure(cwl.format(out), shifted) for out in ("EU", "ED"))
    u = measure(f"U(L={patience:g},snippet={snippet:g},F={share},gain=binary)", jr)
    np.testing.assert_allclose(u, eu * ed, rtol=1e-12, atol=1e-12)


@settings(max_examples=examples(60), deadline=None)
@given(data=rankings())
def test_ap_is_traps_eu_and_cwl_ap_divides_by_the_relevant_retrieved(data):
    """trec_eval's AP (binary relevance) is TrAP's EU with unit costs; CWL-AP's EU divides
    the same sum by the relevant documents retrieved instead of R."""
    jr = batch(*data)
    ap = measure("AP", jr)
    np.testing.assert_allclose(measure("TrAP(gain=binary,depth=20)", jr), ap,
                               rtol=1e-12, atol=1e-15)
    retrieved = np.array([sum(g >= 1 for g in r) for r in data[0]], dtype=float)
    expected = np.divide(ap * jr.num_rel, retrieved, out=np.zeros(len(ap)),
                         where=retrieved > 0)
    np.testing.assert_allclose(measure("CWL-AP(gain=binary,depth=20)", jr), expected,
                               rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("name", "needles"), [
    ("CWL-P", ("needs a cut-off", "CWL-P@k")),
    ("SDCG(depth=20)@10", ("unknown parameter", "depth")),
    ("INST(T=0)", ("T", "> 0")),
    ("INST(out=EUU)", ("out", "ResED")),
    ("INST(mincost=2)", ("mincost", "residuals")),
    ("BPM(gmed=0.3)@10", ("gmed", "dynamic")),
    ("CWL-RBP(p=1.5)", ("p", "≤ 1")),
    ("INST(depth=0)", ("depth", "≥ 1")),
    ("SET(beta=0)@5", ("beta",)),
    ("INST(maxrel=3,gain=binary)", ("maxrel",)),
])
def test_bad_parameters_are_refused(name, needles):
    with pytest.raises(MeasureError) as info:
        evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, [name])
    assert all(needle in str(info.value) for needle in needles), str(info.value)


def test_costs_must_be_positive():
    with pytest.raises(MeasureError, match="costs of label set 'cost' must be finite and > 0"):
        evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["INST(costs=cost)"],
                 labels={"cost": {"d": 0.0}})
    with pytest.raises(MeasureError, match="needs the label set 'price'"):
        evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["INST(costs=price)"])


@pytest.mark.parametrize(("name", "metric", "args"), [
    ("INST(T=2,depth=10)", "INST", (2.0,)), ("CWL-AP(depth=10)", "CWL-AP", ()),
    ("TrAP(depth=10)", "TrAP", ()), ("CWL-U(L=4,depth=10)", "CWL-U", (4.0,)),
    ("BPM(T=1,depth=10)@4", "BPM", (1.0, 4)), ("IFT(depth=10)", "IFT", (2.0, 0.9, 10.0,
                                                                       0.2, 0.9, 10.0))])
def test_an_empty_ranking_is_its_padding(name, metric, args):
    """A topic the run retrieved nothing for (``complete``, trec_eval 10's -c) is evaluated
    on N padded ranks, as cwl_eval evaluates a ranking of no item."""
    from cwl.ruler.ranking import Ranking

    ranking = Ranking("t", [], [], max_n=10)
    ranking.total_qrel_rels = 2.0
    reference = METRICS[metric](*args)
    reference.residuals = True
    reference.measure(ranking)
    want = [*reference.get_scores(), reference.residual_expected_utility,
            reference.residual_expected_total_utility, reference.residual_expected_cost,
            reference.residual_expected_total_cost, reference.residual_expected_items]
    jr = batch([[]], [[0, 2]])
    for out, value in zip(OUTS, want, strict=True):
        head, at, cutoff = name.partition("@")
        got = measure(f"{head[:-1]},out={out}){at}{cutoff}", jr)
        assert_close(float(got[0]), value, (name, out))


def test_the_documented_example_is_what_cwl_eval_prints(tmp_path):
    """docs/measures.md's example, against the ``cwl-eval`` command (four decimals)."""
    import shutil
    import subprocess

    command = shutil.which("cwl-eval")
    if command is None:
        pytest.skip("the cwl-eval command is not installed")
    (tmp_path / "gains.txt").write_text("q1 0 d1 1.0\nq1 0 d2 0.0\nq1 0 d3 0.5\n"
                                        "q1 0 d4 0.5\nq1 0 d5 1.0\n")
    (tmp_path / "run.txt").write_text("".join(
        f"q1 Q0 {doc} {rank} {6 - rank} r\n"
        for rank, doc in enumerate(["d1", "d2", "d3", "d6", "d5"], 1)))
    (tmp_path / "metrics.txt").write_text("INSTCWLMetric(2.0)\nPrecisionCWLMetric(3)\n"
                                          "NDCGCWLMetric(3)\nBPMCWLMetric(1.5,4)\n"
                                          "RBPCWLMetric(0.8)\n")
    done = subprocess.run([command, "gains.txt", "run.txt", "-m", "metrics.txt", "-r"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    printed = [line.split("\t")[2:] for line in done.stdout.splitlines()]
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 1, "d5": 2}}
    run = {"q1": {"d1": 5.0, "d2": 4.0, "d3": 3.0, "d6": 2.0, "d5": 1.0}}
    for measure_name, row in zip(["INST(T=2)", "CWL-P@3", "SDCG@3", "BPM(T=1.5)@4",
                                  "CWL-RBP(p=0.8)"], printed, strict=True):
        names = out_names(measure_name)
        ev = evaluate(qrels, run, names, ties="file-order")
        got = dict(ev.per_topic()[["measure", "value"]].values)
        assert [f"{got[name]:.4f}" for name in names] == row, measure_name


def test_dynamic_bpm_moves_the_budget_by_hc():
    """Zhang et al.'s dynamic budget K_j = K + hc·Σ_{m<j}(g(m) − gmed), worked by hand: no
    gain, K = 5, hc = 1, gmed = 0.5 give K_j = 5.5 − j/2, and CC(j) = j < K_j up to j = 3:
    the user reads 4 documents (5 with a static budget; cwl_eval's BPMDCWLMetric reads 5
    whatever hc, as it never moves K)."""
    jr = batch([[0] * 8], [[8, 1]])
    assert measure("BPM(T=10,hc=1,gmed=0.5,depth=10,out=ED)@5", jr)[0] == 4.0
    assert measure("BPM(T=10,depth=10,out=ED)@5", jr)[0] == 5.0
    reference = METRICS["BPMD"](10.0, 5, 0.0, 1.0, 0.5)
    from cwl.ruler.ranking import Ranking

    reference.measure(Ranking("t", [0.0] * 8, [1.0] * 8, max_n=10))
    assert reference.expected_items == 5.0
