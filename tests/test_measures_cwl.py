"""The C/W/L measures (irscale.measures.cwl, cwl_models) against cwl_eval 1.0.12 itself
(tests/cwl_reference.py): every output and residual, on hypothesis-generated qrels and runs
(graded gains, unjudged and judged-negative documents, ties kept in file order, costs per
document, rankings shorter and longer than the depth) and on CLEF eHealth 2016 runs; and
irscale's RBP, RBPres, TBG, U and AP against their C/W/L expressions."""

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

OUTS = ("EU", "ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResEC", "ResETC", "ResED")

#: (irscale's name, its parameters, its cut-off k; cwl_eval's class and its arguments, in
#: which "k" stands for the cut-off, lowered to the depth where it is deeper).
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
    return {"top": top, "qrels": qrels, "runs": runs, "costs": costs,
            "depth": draw(st.integers(2, 12)), "with_costs": draw(st.booleans()),
            "maxcost": draw(st.sampled_from([1.0, 2.0])),
            "mincost": draw(st.sampled_from([0.5, 1.0]))}


def write(folder: Path, data: dict[str, Any]) -> dict[str, Path]:
    """The collection's files: irscale's qrels (degrees), run and cost labels; cwl_eval's
    gain file (degree / top, judged-negative documents left out: both read them as
    unjudged) and cost file (a cost per element type, one type per priced document)."""
    top, with_costs = data["top"], data["with_costs"]
    qrels, gains, run, costs, labels = [], [], [], [], []
    for topic, judged in data["qrels"].items():
        for doc, degree in judged.items():
            qrels.append(f"{topic} 0 {doc} {degree}")
            if degree >= 0:
                gains.append(f"{topic} 0 {doc} {degree / top!r}")
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
@pytest.mark.parametrize(("family", "params", "cutoff", "metric", "args"), SPECS,
                         ids=[name_of(s[0], s[1], s[2]) for s in SPECS])
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=collections())
def test_every_output_is_cwl_evals(tmp_path, family, params, cutoff, metric, args, data):
    paths = write(tmp_path, data)
    common = {**params, "maxrel": data["top"], "depth": data["depth"],
              "maxcost": data["maxcost"], "mincost": data["mincost"]}
    if data["with_costs"]:
        common["costs"] = "cost"
    if "k" in args:  # a cut-off of ranks: no deeper than the depth
        cutoff = min(cutoff, data["depth"])
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
                      depth=data["depth"], max_cost=data["maxcost"],
                      min_cost=data["mincost"])
    for topic, values in want.items():
        for name, value in zip(names, values, strict=True):
            assert_close(got[(topic, name)], value, (topic, name))
