"""One ``Evaluation`` for every family: diversity measures, sessions, texts (ROUGE and
nuggets) give the result trec_eval's measures give, with ``compare(baseline=...)`` and
``format(fmt)``.

Oracles: per-topic values worked out by hand in each test (subtopic recall, sDCG of
one-query sessions, ROUGE-1 recall, weighted nugget recall), scipy.stats.ttest_rel for the
comparison's p-value and the plain mean of the hand values for its means and delta."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import irscale
from irscale.errors import ParameterError
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run
from irscale.measures.results import Evaluation
from irscale.text import evaluate_sessions
from irscale.text.nuggets import evaluate_nuggets
from irscale.text.rouge import evaluate_rouge

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def check_comparison(evaluation: Evaluation, measure: str, baseline: list[float],
                     run: list[float]) -> None:
    """``compare`` of the evaluation's two runs ("a" the baseline, "b") against the hand
    values: means, delta, t-test p (scipy) and the topics won, tied and lost."""
    assert isinstance(evaluation, Evaluation)
    table = evaluation.compare("a", correction=None).to_frame()
    row = table[table["measure"] == measure].iloc[0]
    assert row["run"] == "b" and row["baseline"] == "a"
    assert row["baseline_mean"] == pytest.approx(np.mean(baseline), abs=1e-12)
    assert row["run_mean"] == pytest.approx(np.mean(run), abs=1e-12)
    assert row["delta"] == pytest.approx(np.mean(run) - np.mean(baseline), abs=1e-12)
    assert row["p"] == pytest.approx(stats.ttest_rel(run, baseline).pvalue, rel=1e-9)
    diff = np.array(run) - np.array(baseline)
    assert (row["wins"], row["ties"], row["losses"]) == (
        int((diff > 1e-12).sum()), int((abs(diff) <= 1e-12).sum()), int((diff < -1e-12).sum()))


DIVERSITY_QRELS = b"".join([b"1 1 d1 1\n", b"1 2 d2 1\n", b"2 1 d3 1\n", b"2 2 d4 1\n",
                            b"3 1 d5 1\n", b"3 2 d6 1\n", b"3 3 d7 1\n"])


def diversity_runs() -> dict:
    """strec@2 (intents covered by the top 2 / the topic's intents), by hand:
    a = [1/2, 1, 1/3], b = [1, 1/2, 2/3]."""
    a = b"1 Q0 d1 1 2 a\n1 Q0 d9 2 1 a\n2 Q0 d3 1 2 a\n2 Q0 d4 2 1 a\n3 Q0 d5 1 1 a\n"
    b = (b"1 Q0 d2 1 2 b\n1 Q0 d1 2 1 b\n2 Q0 d4 1 2 b\n2 Q0 d9 2 1 b\n"
         b"3 Q0 d6 1 2 b\n3 Q0 d7 2 1 b\n")
    return {"a": read_run(a, keep_rank=True), "b": read_run(b, keep_rank=True)}


def test_diversity_evaluation_compares_and_formats():
    qrels = read_diversity_qrels(DIVERSITY_QRELS)
    ev = irscale.evaluate(qrels, diversity_runs(), ["strec@2"])
    check_comparison(ev, "strec@2", [1 / 2, 1, 1 / 3], [1, 1 / 2, 2 / 3])
    assert ev.mean().loc["b", "strec@2"] == pytest.approx((1 + 1 / 2 + 2 / 3) / 3)
    # ndeval's text: six decimals, one amean row per run
    lines = ev.format("ndeval").splitlines()
    assert lines[:5] == ["runid,topic,strec@2", "a,1,0.500000", "a,2,1.000000",
                         "a,3,0.333333", "a,amean,0.611111"]
    records = json.loads(ev.format("json", per_query=True))
    assert {(r["run"], r["topic"]): r["value"] for r in records}[("b", "3")] == \
        pytest.approx(2 / 3)
    assert ev.format("markdown").splitlines()[2] == "| a | 0.6111 |"
    assert "\\begin{tabular}" in ev.format("latex")


def test_diversity_topic_the_qrels_lack_is_printed_not_evaluated():
    """ndeval prints 0 for a run topic the qrels do not judge and divides by the judged
    topics only; the per-topic table and the matrix leave it out."""
    qrels = read_diversity_qrels(DIVERSITY_QRELS)
    run = read_run(b"1 Q0 d1 1 2 a\n1 Q0 d2 2 1 a\n9 Q0 d1 1 1 a\n", keep_rank=True)
    with pytest.warns(UserWarning, match="not in the diversity qrels"):
        ev = irscale.evaluate(qrels, run, ["strec@2"])
    assert ev.format("ndeval").splitlines()[1:] == ["a,1,1.000000", "a,9,0.000000",
                                                    "a,amean,1.000000"]
    assert ev.per_topic()["topic"].tolist() == ["1"]
    assert ev.to_matrix().topics == ("1",)
    assert ev.unjudged_topics == {"a": ("9",)}


def test_sessions_evaluation_compares():
    """One-query sessions: sDCG@10 = gain / log2(1 + rank) of the relevant document (the
    first query's discount is 1): a = [1, 1/log2(3), 1], b = [1/log2(3), 1, 0]."""
    qrels = {"s1": {"d1": 1}, "s2": {"d2": 1}, "s3": {"d3": 1}}
    a = b"s1 1 d1 1 2 a\ns2 1 d9 1 2 a\ns2 1 d2 2 1 a\ns3 1 d3 1 1 a\n"
    b = b"s1 1 d9 1 2 b\ns1 1 d1 2 1 b\ns2 1 d2 1 1 b\ns3 1 d8 1 1 b\n"
    ev = evaluate_sessions(qrels, [a, b], ["sDCG@10"])
    third = 1 / math.log2(3)
    check_comparison(ev, "sDCG@10", [1, third, 1], [third, 1, 0])
    assert ev.format("csv", per_query=True).splitlines()[1].startswith("a,s1,sDCG@10,1")


def test_rouge_evaluation_compares():
    """ROUGE-1 recall = reference words the output has / reference words:
    a = [3/6, 2/3, 1/4], b = [1/6, 3/3, 3/4]."""
    refs = b"q1\tr\taa bb cc dd ee ff\nq2\tr\tgg hh ii\nq3\tr\tjj kk ll mm\n"
    cands = (b"q1\ta\taa bb cc\nq2\ta\tgg hh\nq3\ta\tjj\n"
             b"q1\tb\tff\nq2\tb\tgg hh ii\nq3\tb\tjj kk ll\n")
    ev = evaluate_rouge(refs, cands, ["ROUGE-1(stat=r)"])
    check_comparison(ev, "ROUGE-1(stat=r)", [3 / 6, 2 / 3, 1 / 4], [1 / 6, 1, 3 / 4])
    assert ev.rankings is None


def test_nuggets_evaluation_compares():
    """Weighted recall = matched weight / the topic's weight: a = [3/4, 0, 2/4],
    b = [1/4, 2/2, 4/4]."""
    nuggets = (b"q1 n1 3 vital\nq1 n2 1 okay\nq2 n1 1 okay\nq2 n2 1 okay\n"
               b"q3 n1 2 okay\nq3 n2 2 okay\n")
    matches = b"q1 a n1 0\nq3 a n1 0\nq1 b n2 0\nq2 b n1 0\nq2 b n2 0\nq3 b n1 0\nq3 b n2 0\n"
    lengths = b"".join(f"q{t} {r} 50\n".encode() for t in (1, 2, 3) for r in "ab")
    ev = evaluate_nuggets(nuggets, matches, ["W-Rec"], lengths=lengths)
    check_comparison(ev, "W-Rec", [3 / 4, 0, 2 / 4], [1 / 4, 1, 1])


def test_ndeval_format_is_for_diversity_measures_only():
    ev = irscale.evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 1.0}}, ["map"])
    with pytest.raises(ParameterError, match="diversity"):
        ev.format("ndeval")
    with pytest.raises(ParameterError, match="format must be one of"):
        ev.format("text")
    with pytest.raises(ParameterError, match="latex"):
        ev.format("trec", baseline="run")


def test_ndeval_baseline_is_an_evaluation():
    qrels = read_diversity_qrels(DIVERSITY_QRELS)
    ev = irscale.evaluate(qrels, diversity_runs(), ["strec@2"])
    with pytest.raises(ParameterError, match="evaluation of the baseline run"):
        ev.format("ndeval", baseline="a")
