"""Nuggets and iUnits: a Fig. 10-style example of Sakai (2014) by hand, the
TREC QA measures by hand, properties (S → weighted recall as L grows, T falls as the
output grows), bad input naming file and line."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import (
    DuplicateError,
    InputError,
    InputFormatError,
    MeasureError,
    ParameterError,
)
from irscale.measures.names import parse_name
from irscale.text.nuggets import evaluate_nuggets

from .property_examples import examples

# three iUnits: weights 3, 2, 1; vital strings of 10, 20 and 30 non-blank characters
NUGGETS = (b"q n1 3 vital " + b"a" * 10 + b"\n" + b"q n2 2 vital " + b"b" * 10 + b" "
           + b"b" * 10 + b"\n" + b"q n3 1 okay " + b"c" * 30 + b"\n")
# Fig. 10: (a) and (b) hold the same iUnits, (a) the least important first; (c) is (b)
# followed by 300 more characters
MATCHES = (b"q a n3 100\nq a n2 200\nq a n1 300\n" b"q b n1 100\nq b n2 200\nq b n3 300\n"
           b"q c n1 100\nq c n2 200\nq c n3 300\n")
LENGTHS = b"q a 300\nq b 300\nq c 600\n"


def _values(measures, nuggets=NUGGETS, matches=MATCHES, lengths=LENGTHS):
    e = evaluate_nuggets(nuggets, matches, measures, lengths=lengths)
    table = e.per_topic()
    return {(r.run, r.measure): r.value for r in table.itertuples()}


def test_fig10_by_hand():
    v = _values(["W-Rec", "S", "T", "Ssharp", "S(L=250)"])
    # PMO: n1 (w 3) ends at 10, n2 (w 2) at 30, n3 (w 1) at 60; L = 1000
    ideal = 3 * 990 + 2 * 970 + 1 * 940
    s_a = Fraction(3 * 700 + 2 * 800 + 1 * 900, ideal)
    s_b = Fraction(3 * 900 + 2 * 800 + 1 * 700, ideal)
    assert v["a", "W-Rec"] == v["b", "W-Rec"] == v["c", "W-Rec"] == 1.0
    assert v["a", "S"] == pytest.approx(float(s_a)) and v["b", "S"] == pytest.approx(float(s_b))
    assert v["b", "S"] > v["a", "S"]  # S prefers (b) over (a)
    assert v["c", "S"] == v["b", "S"]  # S cannot tell (b) from (c)
    t_b, t_c = Fraction(60, 300), Fraction(60, 600)
    assert v["b", "T"] == pytest.approx(float(t_b)) and v["c", "T"] == pytest.approx(float(t_c))
    for run, t in (("b", t_b), ("c", t_c)):
        assert v[run, "Ssharp"] == pytest.approx(float(2 * t * s_b / (t + s_b)))
    assert v["b", "Ssharp"] > v["c", "Ssharp"] and v["b", "Ssharp"] > v["a", "Ssharp"]
    # L = 250: only what ends before 250 counts: (b) n1 at 100 and n2 at 200
    ideal_250 = 3 * 240 + 2 * 220 + 1 * 190
    assert v["b", "S(L=250)"] == pytest.approx((3 * 150 + 2 * 50) / ideal_250)


def test_trec_qa_by_hand():
    nuggets = b"q v1 1 vital\nq v2 1 vital\nq o1 1 okay\n"
    matches = b"q A v1 10\nq A o1 50\nq B v2 5\n"
    v = _values(["W-Rec", "W-Rec(nuggets=vital)", "Prec_allow", "F_QA(beta=3)",
                 "Prec_allow(allowance=50)"], nuggets, matches, b"q A 250\nq B 80\n")
    assert v["A", "W-Rec"] == pytest.approx(2 / 3)
    assert v["A", "W-Rec(nuggets=vital)"] == pytest.approx(1 / 2)
    assert v["A", "Prec_allow"] == pytest.approx(1 - (250 - 200) / 250)  # allow = 2·100
    assert v["A", "Prec_allow(allowance=50)"] == pytest.approx(1 - (250 - 100) / 250)
    p, r = 1 - 50 / 250, 2 / 3
    assert v["A", "F_QA(beta=3)"] == pytest.approx(10 * p * r / (9 * p + r))
    assert v["B", "Prec_allow"] == 1.0  # 80 ≤ 100
    assert v["B", "W-Rec"] == pytest.approx(1 / 3)


def test_lengths_from_texts_count_non_blank_characters():
    nuggets = b"q n1 1 vital born 1942\n"
    texts = b"q\tA\tMcCartney was born 1942\nq\tB\tno\n"
    e = evaluate_nuggets(nuggets, b"q A n1 20\n", ["T", "S(L=100)"], texts=texts)
    v = {(r.run, r.measure): r.value for r in e.per_topic().itertuples()}
    # l = |McCartneywasborn1942| = 20, |vs| = |born1942| = 8, pos* = 8
    assert v["A", "T"] == pytest.approx(8 / 20)
    assert v["A", "S(L=100)"] == pytest.approx((100 - 20) / (100 - 8))
    assert v["B", "T"] == 0.0 and v["B", "S(L=100)"] == 0.0


nugget_sets = st.lists(st.tuples(st.integers(1, 5), st.integers(1, 40)), min_size=1,
                       max_size=6)


@settings(max_examples=examples(40), deadline=None)
@given(nugget_sets, st.data())
def test_s_tends_to_weighted_recall(units, data):
    nuggets = "".join(f"q n{k} {w} vital {'x' * n}\n" for k, (w, n) in enumerate(units))
    found = data.draw(st.lists(st.sampled_from(range(len(units))), unique=True))
    offsets = data.draw(st.lists(st.integers(0, 500), min_size=len(found),
                                 max_size=len(found)))
    matches = "".join(f"q A n{k} {o}\n" for k, o in zip(found, offsets, strict=True)) or \
        "q B n0 0\n"
    lengths = b"q A 500\nq B 500\n"
    recall = sum(units[k][0] for k in found) / sum(w for w, _ in units)
    for patience in (1e6, 1e9, 1e12):
        v = _values([f"S(L={patience:g})"], nuggets.encode(), matches.encode(), lengths)
        assert abs(v["A", f"S(L={patience:g})"] - recall) <= 600 / patience * 2


@settings(max_examples=examples(40), deadline=None)
@given(nugget_sets, st.data(), st.sampled_from([0, 1000, 1020, -1000]))
def test_weights_near_the_double_range_give_exact_ratios(units, data, exponent):
    """Weights w·2^exponent up to 5·2^1020 (their sum beyond the largest double, 1.8e308)
    or down to 2^-1000, and L up to 1e308: W-Rec and S against exact fractions, no numpy
    warning."""
    scale = Fraction(2) ** exponent
    nuggets = "".join(f"q n{k} {float(w * scale)!r} vital {'x' * n}\n"
                      for k, (w, n) in enumerate(units))
    found = data.draw(st.lists(st.sampled_from(range(len(units))), unique=True, min_size=1))
    offsets = data.draw(st.lists(st.integers(0, 500), min_size=len(found),
                                 max_size=len(found)))
    matches = "".join(f"q A n{k} {o}\n" for k, o in zip(found, offsets, strict=True))
    patience = data.draw(st.sampled_from([1000.0, 1e308]))
    pmo = sorted(range(len(units)), key=lambda k: (-units[k][0], units[k][1], f"n{k}"))
    ends = dict(zip(pmo, np.cumsum([units[k][1] for k in pmo]).tolist(), strict=True))
    big_l = Fraction(patience)

    def gain(k, at):
        return units[k][0] * max(Fraction(0), big_l - at)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = _values(["W-Rec", f"S(L={patience!r})", "Prec_allow(allowance=1e308)"],
                    nuggets.encode(), matches.encode(), b"q A 500\n")
    recall = Fraction(sum(units[k][0] for k in found), sum(w for w, _ in units))
    assert v["A", "W-Rec"] == float(recall)
    ideal = sum(gain(k, ends[k]) for k in range(len(units)))
    s = sum(gain(k, o) for k, o in zip(found, offsets, strict=True)) / ideal
    assert v["A", f"S(L={patience!r})"] == pytest.approx(float(s), rel=1e-15)
    assert v["A", "Prec_allow(allowance=1e308)"] == 1.0


def test_weights_a_double_cannot_hold_are_errors():
    for weight, words in (("1e400", "too large"), ("1e-400", "too small"),
                          ("3e-310", "too small"), ("nan", "not a finite number")):
        with pytest.raises(InputFormatError) as info:
            evaluate_nuggets(f"q n1 1 vital x\nq n2 {weight} okay y\n".encode(),
                             b"q a n1 1\n", ["W-Rec"], lengths=b"q a 5\n")
        assert "line 2" in str(info.value) and words in str(info.value)
    zero = evaluate_nuggets(b"q n1 1 vital x\nq n2 0e-500 okay y\n", b"q a n1 1\n",
                            ["W-Rec"], lengths=b"q a 5\n")
    assert zero.values["W-Rec"].tolist() == [1.0]


def test_t_falls_as_the_output_grows():
    rng = np.random.default_rng(1)
    previous = np.inf
    for length in sorted(rng.integers(300, 5000, 20).tolist()):
        v = _values(["T"], lengths=f"q a 300\nq b {length}\nq c 600\n".encode())
        assert v["b", "T"] <= previous
        assert v["b", "T"] == pytest.approx(60 / length)
        previous = v["b", "T"]


def test_score_matrix():
    matrix = evaluate_nuggets(NUGGETS, MATCHES, ["S", "T"], lengths=LENGTHS).to_matrix()
    assert matrix.topics == ("q",) and matrix.systems == ("a", "b", "c")


@pytest.mark.parametrize(("matches", "lengths", "error", "words"), [
    (b"q a n1 10\nz a n1 10\n", LENGTHS, InputError, ["<bytes>, line 2", "'z'"]),
    (b"q a n9 10\n", LENGTHS, InputError, ["line 1", "'n9'"]),
    (b"q a n1 -3\n", LENGTHS, InputFormatError, ["line 1", "negative"]),
    (b"q a n1 301\n", LENGTHS, InputError, ["line 1", "beyond"]),
    (b"q d n1 10\n", LENGTHS, InputError, ["line 1", "no output"]),
    (b"q a n1 10\nq a n1 20\n", LENGTHS, DuplicateError, ["line 2", "twice"]),
    (b"q a n1 10\n", b"q a 0\n", InputFormatError, ["line 1", "empty output"]),
])
def test_bad_input(matches, lengths, error, words):
    with pytest.raises(error) as info:
        evaluate_nuggets(NUGGETS, matches, ["S"], lengths=lengths)
    for word in words:
        assert word in str(info.value)


def test_bad_gold_and_options():
    with pytest.raises(InputError) as info:
        evaluate_nuggets(b"q n1 1 vital x\nq n2 1 okay\n", b"q a n1 1\n", ["T"],
                         lengths=b"q a 5\n")
    assert "line 2" in str(info.value) and "no vital string" in str(info.value)
    with pytest.raises(MeasureError, match="weigh 0"):
        evaluate_nuggets(b"q n1 0 vital x\n", b"q a n1 1\n", ["W-Rec"], lengths=b"q a 5\n")
    with pytest.raises(MeasureError, match="pseudo-minimal"):
        evaluate_nuggets(b"q n1 1 vital xxxxx\n", b"q a n1 1\n", ["S(L=5)"],
                         lengths=b"q a 5\n")
    with pytest.raises(InputFormatError, match="empty text"):
        evaluate_nuggets(NUGGETS, MATCHES, ["T"], texts=b"q\ta\t \n")
    with pytest.raises(InputFormatError, match="label"):
        evaluate_nuggets(b"q n1 1 maybe\n", b"q a n1 1\n", ["W-Rec"], lengths=b"q a 5\n")
    with pytest.raises(ParameterError, match="exactly one"):
        evaluate_nuggets(NUGGETS, MATCHES, ["T"])
    for name in ("P@10", "S(L=0)", "F_QA(beta=-1)", "W-Rec(nuggets=some)", "T(L=5)"):
        with pytest.raises(MeasureError):
            parse_name(name, "nuggets")
