"""Pyramid scores (Nenkova & Passonneau 2004; Nenkova, Passonneau & McKeown 2007): a worked
example computed by hand with the papers' tier formula, Max(X) against a brute force over
all SCU subsets, properties, and the readers' errors."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import (
    DuplicateError,
    EmptyInputError,
    InputFormatError,
    MeasureError,
    ParameterError,
)
from irscale.io.scus import read_peer_scus, read_pyramid
from irscale.text import evaluate_pyramid
from irscale.text.pyramid import best_weight

from .property_examples import examples

# Four reference summaries A-D. Tiers: T4 = {s1}, T3 = {s2}, T2 = {s3, s4},
# T1 = {s5, s6, s7}; Σ weights = 14, so the average reference has X̄ = 14 / 4 = 3.5 SCUs;
# "x" is expressed by no reference (weight 0, a peer's own content).
PYRAMID = "\n".join(["q1\ts1\tA,B,C,D", "q1\ts2\tA,B,C", "q1\ts3\tA,B", "q1\ts4\tC,D",
                     "q1\ts5\tA", "q1\ts6\tB", "q1\ts7\tD", "q1\tx\t-"]).encode()
WEIGHTS = "\n".join(["q1\ts1\t4", "q1\ts2\t3", "q1\ts3\t2", "q1\ts4\t2", "q1\ts5\t1",
                     "q1\ts6\t1", "q1\ts7\t1", "q1\tx\t0"]).encode()
PEERS = {"P1": ["s1", "s4", "s5", "x"], "P2": ["s1", "s2"], "P3": ["s5", "s6", "s7"],
         "P4": ["-"], "P5": ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]}
PEER_FILE = "\n".join(f"q1\t{p}\t{s}" for p, scus in PEERS.items() for s in scus).encode()

# By hand, Max(X) = Σ_{i>j} i·|T_i| + j·(X − Σ_{i>j} |T_i|), j the largest tier with at
# least X SCUs at or above it:
#   P1: X = 4, D = 4 + 2 + 1 + 0 = 7; j = 2: Max = 4 + 3 + 2·(4 − 2) = 11 → 7/11
#   P2: X = 2, D = 7; j = 3: Max = 4 + 3·(2 − 1) = 7 → 1 (an optimal summary)
#   P3: X = 3, D = 3; j = 2: Max = 4 + 3 + 2·1 = 9 → 1/3
#   P4: expresses no SCU → 0
#   P5: X = 7, D = 14 = Max → 1
# modified, X̄ = 3.5: j = 2, Max = 4 + 3 + 2·(3.5 − 2) = 10 → D / 10
ORIGINAL = {"P1": 7 / 11, "P2": 1.0, "P3": 1 / 3, "P4": 0.0, "P5": 1.0}
MODIFIED = {"P1": 0.7, "P2": 0.7, "P3": 0.3, "P4": 0.0, "P5": 1.4}


def _values(evaluation, measure):
    table = evaluation.mean()
    return {run: float(table.loc[run, measure]) for run in table.index}


def test_worked_example():
    evaluation = evaluate_pyramid(PYRAMID, PEER_FILE)
    assert _values(evaluation, "pyramid") == pytest.approx(ORIGINAL, rel=1e-12)
    assert _values(evaluation, "pyramid_modified") == pytest.approx(MODIFIED, rel=1e-12)


def test_weights_give_the_original_score_only():
    assert _values(evaluate_pyramid(WEIGHTS, PEER_FILE, "pyramid"), "pyramid") == \
        pytest.approx(ORIGINAL, rel=1e-12)
    with pytest.raises(ParameterError, match="contributor lists"):
        evaluate_pyramid(WEIGHTS, PEER_FILE, "pyramid_modified")


def test_two_peer_files_as_one():
    lines = PEER_FILE.splitlines()
    split = evaluate_pyramid(PYRAMID, [b"\n".join(lines[:4]), b"\n".join(lines[4:])])
    assert _values(split, "pyramid") == pytest.approx(ORIGINAL, rel=1e-12)


weights_st = st.lists(st.integers(0, 6), min_size=1, max_size=9)


@settings(max_examples=examples(200), deadline=None)
@given(weights_st, st.integers(0, 10))
def test_best_weight_is_the_best_subset(weights, x):
    """Max(X) is the largest weight of X of the pyramid's SCUs (all of them, the rest
    weighing 0, when it has fewer)."""
    size = min(x, len(weights))
    brute = max(sum(c) for c in itertools.combinations(weights, size))
    assert best_weight(weights, x) == brute


@settings(max_examples=examples(200), deadline=None)
@given(weights_st, st.integers(0, 9), st.floats(0, 1))
def test_best_weight_between_whole_counts(weights, x, share):
    """A fractional X̄ interpolates between the neighbouring whole counts."""
    low, high = best_weight(weights, x), best_weight(weights, x + 1)
    assert best_weight(weights, x + share) == pytest.approx(low + share * (high - low))


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.frozensets(st.sampled_from("ABCD"), max_size=4), min_size=1, max_size=8),
       st.data())
def test_properties(contributors, data):
    """The original score lies in [0, 1] and is 1 for the heaviest X SCUs; the modified
    one equals it when X is the average reference's SCU count."""
    lines = [f"q\ts{k}\t{','.join(sorted(c)) or '-'}" for k, c in enumerate(contributors)]
    chosen = data.draw(st.sets(st.integers(0, len(contributors) - 1)))
    peers = [f"q\tp\ts{k}" for k in sorted(chosen)] or ["q\tp\t-"]
    ranked = sorted(range(len(contributors)), key=lambda k: -len(contributors[k]))
    best = [f"q\tbest\ts{k}" for k in ranked[:max(len(chosen), 1)]]
    evaluation = evaluate_pyramid("\n".join(lines).encode(),
                                  "\n".join(peers + best).encode(), "pyramid")
    values = _values(evaluation, "pyramid")
    assert 0.0 <= values["p"] <= 1.0
    if any(contributors):
        assert values["best"] == pytest.approx(1.0)
    models = len(set().union(*contributors))
    total = sum(map(len, contributors))
    if models and total % models == 0 and len(chosen) == total // models:
        both = evaluate_pyramid("\n".join(lines).encode(), "\n".join(peers).encode())
        assert _values(both, "pyramid_modified")["p"] == pytest.approx(
            _values(both, "pyramid")["p"])


def test_peer_scu_unknown_to_the_pyramid():
    with pytest.raises(InputFormatError, match=r"line 2.*'s9' is not in the pyramid"):
        evaluate_pyramid(PYRAMID, b"q1\tP\ts1\nq1\tP\ts9\n")


@pytest.mark.parametrize("data, error, words", [
    (b"q1\ts1\n", InputFormatError, "line 1.*3 tab-separated fields"),
    (b"q1\ts1\tA,B\nq1\ts1\tC\n", DuplicateError, "line 2.*first on line 1"),
    (b"q1\ts1\tA,,B\n", InputFormatError, "empty id"),
    (b"q1\ts1\tA,B,A\n", InputFormatError, "'A' given twice"),
    (b"q1\ts1\tA\nq1\ts2\t2\n", InputFormatError, "line 2.*one form per topic"),
    (b"q1\ts 1\tA\n", InputFormatError, "holds a blank"),
    (b"", EmptyInputError, "empty"),
])
def test_pyramid_errors(data, error, words):
    with pytest.raises(error, match=words):
        read_pyramid(data)


@pytest.mark.parametrize("data, error, words", [
    (b"q1\tP\n", InputFormatError, "3 tab-separated fields"),
    (b"q1\tP\ts1\nq1\tP\ts1\n", DuplicateError, "line 2"),
    (b"q1\tP\ts1\nq1\tP\t-\n", InputFormatError, "line 2.*no SCU"),
    (b"q1\tP\t-\nq1\tP\ts1\n", InputFormatError, "line 2.*no SCU"),
])
def test_peer_errors(data, error, words):
    with pytest.raises(error, match=words):
        read_peer_scus(data)


def test_unknown_measure():
    with pytest.raises(MeasureError, match=r"unknown pyramid measure.*pyramid_modified"):
        evaluate_pyramid(PYRAMID, PEER_FILE, "pyramid_score")
