"""ndeval's diversity measures against pyndeval (ndeval 4.5's C code), exact to the digits
ndeval prints, on hypothesis-generated qrels and runs.

pyndeval evaluates one topic at a time and sorts a run by score, ties by docno ascending;
ndeval ranks by the rank column (or, with ``-traditional``, by score then docno
descending). The oracle is therefore handed each ranking in the order ndeval would use
(computed here independently, with Python's sort) as distinct decreasing scores.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.errors import AlignmentError, InputFormatError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run
from irscale.measures.diversity import NDEVAL_COLUMNS, parse_diversity_measures
from irscale.measures.diversity.risk import c_format

from .property_examples import examples

pyndeval = pytest.importorskip("pyndeval")

EXTRA = ("ERR-IA@1", "ERR-IA@3", "nERR-IA@2", "alpha-DCG@7", "alpha-nDCG@1", "alpha-nDCG@13",
         "P-IA@1", "P-IA@17", "strec@2")


@st.composite
def collections(draw):
    n_topics = draw(st.integers(1, 4))
    topics = draw(st.lists(st.integers(1, 30), min_size=n_topics, max_size=n_topics,
                           unique=True))
    docs = [f"d{i}" for i in range(draw(st.integers(1, 14)))]
    qrels = []
    for t in topics:
        n_sub = draw(st.integers(1, 8))
        subs = draw(st.lists(st.integers(0, 9), min_size=n_sub, max_size=n_sub, unique=True))
        triples = draw(st.lists(st.tuples(st.sampled_from(subs), st.sampled_from(docs),
                                          st.sampled_from([-1, 0, 0, 1, 1, 2, 3])),
                                min_size=1, max_size=40,
                                unique_by=lambda x: (x[0], x[1])))
        qrels.extend((str(t), str(s), d, j) for s, d, j in triples)
    run_topics = draw(st.lists(st.sampled_from([*topics, 99]), min_size=1, max_size=5,
                               unique=True))
    pool = docs + [f"x{i}" for i in range(5)]
    run = []
    for t in run_topics:
        chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool),
                               unique=True))
        ranks = draw(st.permutations(range(1, len(chosen) + 1)))
        for d, r in zip(chosen, ranks, strict=True):
            run.append((str(t), d, r, float(draw(st.sampled_from([0, 1, 2, 2.5, 3])))))
    return qrels, run


def qrels_bytes(qrels):
    return "".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode()


def run_bytes(run, runid="sys"):
    return "".join(f"{t} Q0 {d} {r} {s} {runid}\n" for t, d, r, s in run).encode()


def ndeval_order(rows, traditional):
    """The documents of one topic in ndeval's order (independent of irscale's code)."""
    if traditional:
        # score descending, then docno descending (strcmp)
        rows = sorted(rows, key=lambda x: x[1].encode(), reverse=True)
        rows = sorted(rows, key=lambda x: -x[3])
    else:
        rows = sorted(rows, key=lambda x: x[2])
    return [x[1] for x in rows]


def oracle(qrels, run, measures, traditional, alpha=0.5, beta=0.5, max_docs=None):
    """Per topic {measure: value} from pyndeval, topics of the run only (unjudged: None)."""
    ordered = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))  # intents in id order
    evaluator = pyndeval.RelevanceEvaluator(ordered, measures, alpha=alpha, beta=beta)
    out = {}
    for topic in sorted({r[0] for r in run}, key=int):
        rows = [r for r in run if r[0] == topic]
        docs = ndeval_order(rows, traditional)[:max_docs]
        scored = [(topic, d, float(len(docs) - i)) for i, d in enumerate(docs)]
        result = evaluator.evaluate(scored)
        out[topic] = result.get(topic)
    return out


def mean_text(values, count):
    total = 0.0
    for v in values:
        total += v
    if count == 0:
        return "-nan"
    return c_format(total / count)


def check(qrels, run, measures, traditional, alpha=0.5, beta=0.5, names=None,
          max_docs=None):
    names = names or measures
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                                read_run(run_bytes(run), keep_rank=True), names,
                                traditional=traditional, max_docs=max_docs,
                                allow_empty=True)  # ndeval prints zeros for any run
    expected = oracle(qrels, run, measures, traditional, alpha, beta, max_docs)
    assert list(ev.rows.topic_labels) == list(expected)
    for label, measure in zip(ev.measures, measures, strict=True):
        got = [c_format(v) for v in ev.values[label]]
        want = [c_format(0.0) if r is None else c_format(r[measure])
                for r in expected.values()]
        assert got == want, (label, got, want)
        judged = [r[measure] for r in expected.values() if r is not None]
        summed = [v for v in judged]
        assert c_format(ev.mean().loc["sys", label]) == mean_text(summed, len(judged)), label


@settings(max_examples=examples(150))
@given(collections(), st.booleans())
def test_ndeval_set_matches_pyndeval(data, traditional):
    qrels, run = data
    check(qrels, run, list(NDEVAL_COLUMNS), traditional)


@settings(max_examples=examples(80))
@given(collections(), st.sampled_from([0.5, 0.3, 0.8, 1.0, 0.0]),
       st.sampled_from([0.5, 0.9, 0.2]))
def test_parameters_and_cutoffs_match_pyndeval(data, alpha, beta):
    qrels, run = data
    base = [*EXTRA, "NRBP", "nNRBP", "alpha-nDCG@20", "ERR-IA@20"]
    names = []
    for m in base:
        family, _, k = m.partition("@")
        if family in ("P-IA", "strec", "MAP-IA"):
            names.append(m)
        elif family in ("NRBP", "nNRBP"):
            names.append(f"{family}(alpha={alpha},beta={beta})")
        else:
            names.append(f"{family}(alpha={alpha})@{k}")
    check(qrels, run, base, False, alpha, beta, names=names)


@settings(max_examples=examples(40))
@given(collections(), st.booleans(), st.integers(1, 6))
def test_depth_cutoff_matches_truncated_rankings(data, traditional, max_docs):
    """ndeval's -M: each ranking cut to its first max_docs documents (after ordering)."""
    qrels, run = data
    check(qrels, run, list(NDEVAL_COLUMNS), traditional, max_docs=max_docs)


def test_topic_without_relevant_documents_is_c_nan():
    qrels = [("1", "1", "d1", 0), ("2", "1", "d1", 1)]
    run = [("1", "d1", 1, 1.0), ("2", "d1", 1, 1.0)]
    ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                            read_run(run_bytes(run), keep_rank=True), "ndeval")
    lines = ev.format("ndeval").splitlines()
    assert lines[1].split(",")[15] == "-nan"  # nNRBP of topic 1
    assert lines[2].split(",")[15] == "1.000000"
    assert lines[3].split(",")[15] == "-nan"  # the amean inherits it, as in C
    assert lines[1].split(",")[14] == "0.000000"


def test_unjudged_run_topic_prints_zeros_and_is_not_averaged():
    qrels = [("1", "1", "d1", 1)]
    run = [("1", "d1", 1, 1.0), ("7", "d1", 1, 1.0)]
    with pytest.warns(UserWarning, match="not in the diversity qrels"):
        ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                                read_run(run_bytes(run), keep_rank=True), "ndeval")
    lines = ev.format("ndeval").splitlines()
    assert lines[2] == "sys,7," + ",".join(["0.000000"] * 21)
    assert lines[3].split(",")[2:] == lines[1].split(",")[2:]


def test_run_without_a_qrels_topic_needs_allow_empty():
    """A run with no topic of the qrels is refused (qrels of another collection?) unless
    allow_empty, then printed as ndeval prints it (zeros)."""
    qrels = [("1", "1", "d1", 1)]
    run = read_run(run_bytes([("7", "d1", 1, 1.0)]), keep_rank=True)
    with pytest.raises(AlignmentError, match=r"run 'sys' has no topic in common.*7"):
        evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)), run, "ndeval")
    with pytest.warns(UserWarning, match="not in the diversity qrels"):
        ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)), run, "ndeval",
                                allow_empty=True)
    assert ev.format("ndeval").splitlines()[1] == "sys,7," + ",".join(["0.000000"] * 21)
    with pytest.raises(AlignmentError):
        irscale.evaluate(read_diversity_qrels(qrels_bytes(qrels)), run, "alpha-nDCG@5")


def test_duplicate_rank_is_an_error_unless_traditional():
    qrels = [("1", "1", "d1", 1)]
    run = [("1", "d1", 1, 1.0), ("1", "d2", 1, 2.0)]
    data = run_bytes(run)
    with pytest.raises(InputFormatError, match="duplicate rank"):
        evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                           read_run(data, keep_rank=True), "ndeval")
    ev = evaluate_diversity(read_diversity_qrels(qrels_bytes(qrels)),
                            read_run(data, keep_rank=True), "ndeval(traditional=1)")
    assert ev.values["P-IA@5"][0] == pytest.approx(0.2)


def test_names_carry_parameters():
    requests = parse_diversity_measures("alpha-nDCG(alpha=0.5)@20 NRBP(alpha=0.2,beta=0.7)")
    assert [(r.family, r.cutoff, r.label) for r in requests] == [
        ("alpha-nDCG", 20, "alpha-nDCG(alpha=0.5)@20"), ("NRBP", None,
                                                         "NRBP(alpha=0.2,beta=0.7)")]
    assert requests[1].params["beta"] == 0.7
    assert not math.isnan(requests[0].params["alpha"])
