"""Judged@k (``irscale.measures.coverage``) against its definition and ir_measures."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import irscale

DOCS = [f"d{i}" for i in range(12)]
RUNS = st.dictionaries(
    st.sampled_from(["1", "2", "3"]),
    st.dictionaries(st.sampled_from(DOCS), st.integers(0, 5).map(float), min_size=1,
                    max_size=10),
    min_size=1,
)
QRELS = st.dictionaries(
    st.sampled_from(["1", "2", "3"]),
    st.dictionaries(st.sampled_from(DOCS), st.sampled_from((-1, 0, 1, 2)), min_size=1),
    min_size=1,
)


def reference(qrels, ranking, k):
    """ir_measures' definition on trec_eval's ranking (score desc, docno desc)."""
    # one descending sort on (score, docno bytes): negating the bytes would put 'd1' before
    # 'd10', but strcmp puts 'd10' (the longer) after 'd1', so it comes first descending
    ordered = sorted(ranking, key=lambda d: (ranking[d], d.encode()), reverse=True)
    top = ordered[:k] if k else ordered
    return sum(d in qrels for d in top) / len(top)


@pytest.mark.filterwarnings("ignore:run 'run'.*no judgments:UserWarning")
@given(QRELS, RUNS, st.sampled_from((None, 1, 3, 20)))
def test_judged_at_k_is_the_fraction_of_the_top_k_in_the_qrels(qrels, run, k):
    name = "Judged" if k is None else f"Judged@{k}"
    # generated qrels and runs may share no topic at all: nothing to evaluate then
    frame = irscale.evaluate(qrels, run, [name], allow_empty=True).per_topic()
    for topic, value in zip(frame["topic"], frame["value"], strict=True):
        assert value == reference(qrels[topic], run[topic], k)


def test_judged_matches_ir_measures_without_ties():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = {"1": {"a": 1, "b": 0, "c": -1}, "2": {"x": 2}}
    run = {"1": {"a": 5.0, "z": 4.0, "c": 3.0, "y": 2.0, "b": 1.0}, "2": {"q": 1.0, "x": 0.5}}
    for k in (1, 2, 3, 10):
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc(
            [ir_measures.parse_measure(f"Judged@{k}")], qrels, run)}
        ours = irscale.evaluate(qrels, run, [f"Judged@{k}"]).per_topic()
        assert dict(zip(ours["topic"], ours["value"], strict=True)) == pytest.approx(theirs)


def test_judged_at_k_tie_between_a_docno_and_its_prefix():
    """Tied scores, docnos d1 and d10: trec_eval's order (docno descending by strcmp) ranks
    d10 first, so Judged@1 is 0 when only d1 is judged (found by the property above)."""
    qrels = {"2": {"d0": -1, "d1": -1}}
    run = {"2": {"d0": 0.0, "d1": 1.0, "d2": 0.0, "d10": 1.0}}
    frame = irscale.evaluate(qrels, run, ["Judged@1"]).per_topic()
    assert frame["value"].tolist() == [0.0] == [reference(qrels["2"], run["2"], 1)]
