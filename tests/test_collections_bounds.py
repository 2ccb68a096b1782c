"""Bounds under unjudged documents (irscale.collections.bounds): on small random cases the
lowest and highest values equal the minimum and maximum over every one of the 2^u
completions of the run's unjudged retrieved documents (each given the lowest or the highest
grade), evaluated by pytrec_eval; the CLI prints the API's bounds."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st

from irscale.cli.main import main
from irscale.collections import unjudged_bounds
from irscale.errors import ParameterError

from .trec_files import write_qrels, write_run

#: irscale's name → pytrec_eval's measure and result key.
MEASURES = {"map": ("map", "map"), "ndcg": ("ndcg", "ndcg"), "P.3": ("P.3", "P_3"),
            "P.5": ("P.5", "P_5"), "recip_rank": ("recip_rank", "recip_rank"),
            "bpref": ("bpref", "bpref"), "Rprec": ("Rprec", "Rprec"),
            "ndcg_cut.3": ("ndcg_cut.3", "ndcg_cut_3"), "recall.5": ("recall.5", "recall_5"),
            "map_cut.5": ("map_cut.5", "map_cut_5")}


def _case(seed: int):
    """Qrels of two topics (grades 0-2) and a run of 6-9 documents a topic, 2-6 of them
    unjudged, with tied scores sometimes."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for topic in ("1", "2"):
        n = int(rng.integers(6, 10))
        docs = [f"d{topic}{i}" for i in range(n + 4)]
        unjudged = set(rng.choice(n, int(rng.integers(2, 7)), replace=False).tolist())
        qrels[topic] = {d: int(rng.integers(0, 3)) for i, d in enumerate(docs)
                        if i not in unjudged}
        if not any(v > 0 for v in qrels[topic].values()):
            qrels[topic][docs[-1]] = 2
        scores = rng.integers(0, 6, n) if seed % 2 else rng.permutation(n)
        run[topic] = {docs[i]: float(scores[i]) for i in range(n)}
    return qrels, run


def _brute(qrels, run, measure: str, key: str, lowest: int, highest: int,
           relevance_level: int = 1):
    """Per topic, (min, max) of the measure over every completion (pytrec_eval)."""
    bounds = {}
    for topic, ranking in run.items():
        unjudged = [d for d in ranking if d not in qrels[topic]]
        values = []
        for grades in itertools.product((lowest, highest), repeat=len(unjudged)):
            completed = {topic: {**qrels[topic], **dict(zip(unjudged, grades, strict=True))}}
            found = pytrec_eval.RelevanceEvaluator(
                completed, {measure}, relevance_level=relevance_level).evaluate({topic: ranking})
            values.append(found[topic][key])
        bounds[topic] = (min(values), max(values))
    return bounds


def _files(tmp_path, qrels, run):
    return str(write_qrels(tmp_path / "qrels", qrels)), str(write_run(tmp_path / "run", run))


@pytest.mark.parametrize("seed", range(16))
def test_bounds_equal_the_extremes_of_every_completion(seed, tmp_path):
    qrels, run = _case(seed)
    q, r = _files(tmp_path, qrels, run)
    lowest = min(v for docs in qrels.values() for v in docs.values())
    highest = max(v for docs in qrels.values() for v in docs.values())
    result = unjudged_bounds(q, [r], list(MEASURES))
    table = result.per_topic
    for name, (measure, key) in MEASURES.items():
        label = key  # irscale labels trec_eval's measures as trec_eval prints them
        expected = _brute(qrels, run, measure, key, lowest, highest)
        for topic, (low, high) in expected.items():
            row = table[(table.measure == label) & (table.topic == topic)].iloc[0]
            assert row.low == pytest.approx(low, abs=1e-12), (name, topic)
            assert row.high == pytest.approx(high, abs=1e-12), (name, topic)
            assert row.low <= row.high


#: Measures of the grades of the retrieved documents alone: two completions decide them.
GRADE_MEASURES = {"P.3": ("P.3", "P_3"), "P.5": ("P.5", "P_5"),
                  "recip_rank": ("recip_rank", "recip_rank"),
                  "success.3": ("success.3", "success_3")}


def _rbp(grades: list[int], top: int, p: float = 0.8) -> float:
    """Graded RBP by its definition (Moffat and Zobel 2008), linear gains g / top."""
    return (1 - p) * sum(p**i * g / top for i, g in enumerate(grades))


@pytest.mark.parametrize("seed", range(8))
def test_bounds_of_grade_measures_are_their_two_extreme_completions(seed, tmp_path):
    """P, RR and success (pytrec_eval over every completion) and RBP (its definition over
    every completion) take their bounds at the all-lowest and all-highest completions,
    which the search evaluates alone (``ENDS``)."""
    from irscale.collections.bounds_chains import ENDS
    from irscale.measures.names import parse_measures

    qrels, run = _case(seed)
    q, r = _files(tmp_path, qrels, run)
    grades = [v for docs in qrels.values() for v in docs.values()]
    lowest, highest = min(grades), max(grades)
    assert {r.family for r in parse_measures([*GRADE_MEASURES, "RBP(p=0.8)"])} <= ENDS
    result = unjudged_bounds(q, [r], list(GRADE_MEASURES))
    table = result.per_topic
    for name, (measure, key) in GRADE_MEASURES.items():
        for topic, (low, high) in _brute(qrels, run, measure, key, lowest, highest).items():
            row = table[(table.measure == key) & (table.topic == topic)].iloc[0]
            assert (row.low, row.high) == pytest.approx((low, high), abs=1e-12), (name, topic)
    table = unjudged_bounds(q, [r], ["RBP(p=0.8)"]).per_topic
    for topic, ranking in run.items():
        order = sorted(ranking, key=lambda d: (-ranking[d], [-ord(c) for c in d]))
        unjudged = [d for d in order if d not in qrels[topic]]
        values = [_rbp([{**qrels[topic], **dict(zip(unjudged, g, strict=True))}[d]
                        for d in order], highest)
                  for g in itertools.product((lowest, highest), repeat=len(unjudged))]
        row = table[table.topic == topic].iloc[0]
        assert (row.low, row.high) == pytest.approx((min(values), max(values)), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_a_cut_off_after_at_searches_its_depth_only(seed, tmp_path):
    """``RR@3`` (a cut-off after ``@``) searches the first 3 ranks: its bounds equal the
    extremes of its definition over every completion of the whole ranking."""
    from irscale.collections.bounds import _depth

    qrels, run = _case(seed)
    q, r = _files(tmp_path, qrels, run)
    grades = [v for docs in qrels.values() for v in docs.values()]
    lowest, highest = min(grades), max(grades)
    assert _depth(["RR@3", "Q@2"]) == 3
    table = unjudged_bounds(q, [r], ["RR@3", "ndcg_cut.3"]).per_topic  # searched to 3
    for topic, ranking in run.items():
        order = sorted(ranking, key=lambda d: (-ranking[d], [-ord(c) for c in d]))
        unjudged = [d for d in order if d not in qrels[topic]]
        values = []
        for g in itertools.product((lowest, highest), repeat=len(unjudged)):
            completed = {**qrels[topic], **dict(zip(unjudged, g, strict=True))}
            first = next((i for i, d in enumerate(order[:3]) if completed[d] >= 1), None)
            values.append(0.0 if first is None else 1 / (first + 1))
        row = table[(table.topic == topic) & (table.measure == "RR@3")].iloc[0]
        assert (row.low, row.high) == pytest.approx((min(values), max(values)), abs=1e-12)


def test_means_and_undecided_pairs(tmp_path):
    qrels, run = _case(3)
    q, r = _files(tmp_path, qrels, run)
    other = tmp_path / "other"
    other.write_text("".join(f"{t} Q0 {d} 0 {-s} s\n" for t, docs in run.items()
                             for d, s in docs.items()))
    result = unjudged_bounds(q, [r, str(other)], ["P.5"])
    for run_name, group in result.per_topic.groupby("run"):
        row = result.means[result.means.run == run_name].iloc[0]
        assert row.low == pytest.approx(group.low.mean())
        assert row.high == pytest.approx(group.high.mean())
    a, b = result.means.itertuples()
    overlap = a.low <= b.high and b.low <= a.high
    assert len(result.undecided) == int(overlap)


def test_work_beyond_the_memory_limit_is_refused_before_it_starts(tmp_path):
    """The search evaluates one ranking's completions at a time at least: a limit below
    that is refused before the search; at that limit every completion is its own batch,
    with the bounds of the default batches."""
    from irscale.collections.bounds import BYTES_PER_LINE

    qrels, run = _case(1)
    q, r = _files(tmp_path, qrels, run)
    longest = max(len(ranking) for ranking in run.values())
    with pytest.raises(ParameterError, match="ranking lines of completions"):
        unjudged_bounds(q, [r], ["map"], max_memory=longest * BYTES_PER_LINE - 1)
    one = unjudged_bounds(q, [r], list(MEASURES), max_memory=longest * BYTES_PER_LINE)
    expected = unjudged_bounds(q, [r], list(MEASURES))
    pd.testing.assert_frame_equal(one.per_topic, expected.per_topic)


def test_command_line_prints_the_api_bounds(tmp_path, capsys):
    qrels, run = _case(4)
    q, r = _files(tmp_path, qrels, run)
    out = tmp_path / "b.csv"
    assert main(["pool", "bounds", q, r, "-m", "map", "-m", "P.5", "--format", "csv",
                 "-o", str(out)]) == 0
    import pandas as pd

    printed = pd.read_csv(out)
    expected = unjudged_bounds(q, [r], ["map", "P.5"]).means
    assert printed["low"].tolist() == pytest.approx(expected["low"].tolist())
    assert printed["high"].tolist() == pytest.approx(expected["high"].tolist())
    assert main(["pool", "bounds", q, r, "-m", "map", "--per-topic"]) == 0
    assert "unjudged" in capsys.readouterr().out


#: Measures of R or of the ideal ranking the property below checks (pytrec_eval's names).
WHOLE = {"map": "map", "ndcg": "ndcg", "bpref": "bpref", "Rprec": "Rprec",
         "infAP": "infAP", "recall.1000": "recall_1000", "ndcg_cut.3": "ndcg_cut_3",
         "map_cut.3": "map_cut_3", "P.3": "P_3", "recip_rank": "recip_rank"}


@st.composite
def _topic(draw):
    """One topic: qrels of grades ``lowest..highest`` (a relevant one at least, some judged
    documents unretrieved), a run of 1-8 documents, 0-6 of them unjudged, tied scores
    often, and a relevance level."""
    lowest = draw(st.integers(-1, 1))  # -1: a grade trec_eval reads as unjudged
    highest = draw(st.integers(max(lowest, 1), 3))
    n = draw(st.integers(1, 8))
    unjudged = draw(st.sets(st.integers(0, n - 1), max_size=6))
    grade = st.integers(lowest, highest)
    qrels = {f"d{i}": draw(grade) for i in range(n + 3) if i not in unjudged}
    qrels[f"d{n + 3}"] = highest  # a relevant document the run misses
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return qrels, {f"d{i}": float(s) for i, s in enumerate(scores)}, draw(st.integers(1, 2))


@given(_topic())
def test_property_bounds_are_the_extremes_of_every_completion(case):
    """On any small topic, the bounds of measures of R and of the ideal ranking equal the
    minimum and maximum over all 2^u completions (pytrec_eval), at relevance level 1 or 2."""
    qrels, run, level = case
    found = unjudged_bounds({"1": qrels}, {"r": {"1": run}}, list(WHOLE),
                            relevance_level=level).per_topic
    grades = list(qrels.values())
    for measure, key in WHOLE.items():
        low, high = _brute({"1": qrels}, {"1": run}, measure, key, min(grades),
                           max(grades), level)["1"]
        row = found[found.measure == key].iloc[0]
        assert (row.low, row.high) == pytest.approx((low, high), abs=1e-12), measure


@given(_topic())
def test_property_the_low_bound_holds_under_every_grade(case):
    """The low bound of nDCG is also the minimum over every assignment of any grade of the
    qrels to the unjudged documents (g^u completions, pytrec_eval); the high bound is the
    maximum over the lowest and highest grades only, below or at the maximum of all."""
    qrels, run, _ = case
    found = unjudged_bounds({"1": qrels}, {"r": {"1": run}}, ["ndcg"]).per_topic.iloc[0]
    unjudged = [d for d in run if d not in qrels]
    grades = range(min(qrels.values()), max(qrels.values()) + 1)
    values = [pytrec_eval.RelevanceEvaluator(
        {"1": {**qrels, **dict(zip(unjudged, g, strict=True))}}, {"ndcg"}).evaluate(
        {"1": run})["1"]["ndcg"] for g in itertools.product(grades, repeat=len(unjudged))]
    assert found.low == pytest.approx(min(values), abs=1e-12)
    assert found.high <= max(values) + 1e-12
