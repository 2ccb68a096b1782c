"""rpref_N, rpref_relative and rpref_relative2 (De Beer & Moens 2006; Sakai 2007; NTCIREVAL's
definitions, :mod:`irscale.measures.rpref`), against oracles written independently of the
kernels: worked examples computed by hand (in the comments), trec_eval 9.0.8's bpref and map
through pytrec_eval (the binary reductions), the definitions computed one ranking at a time
by plain loops, and properties (bounds, unjudged documents ignored, scale-free gains)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import MeasureError

from .measures_helpers import batch, measure
from .property_examples import examples

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
NAMES = ("rpref_N", "rpref_relative", "rpref_relative2")


def values(qrels, run, names=NAMES) -> dict[str, float]:
    frame = evaluate(qrels, run, list(names)).per_topic()
    return dict(zip(frame["measure"], frame["value"], strict=True))


# ====================================================================== worked examples
QRELS = {"t": {"a": 2, "b": 0, "c": 1, "d": 2, "e": 1}}
RUN = {"t": {"c": 6.0, "f": 5.0, "b": 4.0, "a": 3.0, "e": 2.0, "d": 1.0}}


def test_worked_example_linear_gains():
    # f is unjudged: the condensed list is c(1) b(0) a(2) e(1) d(2), ranks 1..5.
    # Judged: J = 5, CG = 1 + 1 + 2 + 2 = 6, gmax = 2, J − CG/gmax = 5 − 3 = 2.
    # penalties: c: 0; a: c (2−1)/2 + b (2−0)/2 = 1.5; e: b 1 (c is as relevant) = 1;
    #            d: c 0.5 + b 1 + e 0.5 = 2 (a is as relevant).
    # rpref_N:         [1·(1 − 0/2) + 2·(1 − 1.5/2) + 1·(1 − 1/2) + 2·(1 − 2/2)] / 6
    #                = (1 + 0.5 + 0.5 + 0) / 6 = 1/3
    # rpref_relative:  [0 (rank 1) + 2·(1 − 1.5/2) + 1·(1 − 1/3) + 2·(1 − 2/4)] / 6
    #                = (0.5 + 2/3 + 1) / 6 = 13/36
    # rpref_relative2: [1·(1 − 0/1) + 2·(1 − 1.5/3) + 1·(1 − 1/4) + 2·(1 − 2/5)] / 6
    #                = (1 + 1 + 0.75 + 1.2) / 6 = 3.95/6
    got = values(QRELS, RUN)
    assert got["rpref_N"] == pytest.approx(1 / 3, abs=1e-12)
    assert got["rpref_relative"] == pytest.approx(13 / 36, abs=1e-12)
    assert got["rpref_relative2"] == pytest.approx(3.95 / 6, abs=1e-12)


def test_worked_example_gain_list_and_maxrel():
    # gain=1:3 (degree 1 → 1, degree 2 → 3): CG = 1 + 1 + 3 + 3 = 8, gmax = 3,
    # J − CG/gmax = 5 − 8/3 = 7/3. penalties: c 0; a (3−1)/3 + 1 = 5/3; e 1; d 2/3 + 1 + 2/3
    # = 7/3. rpref_N = [1 + 3·(1 − (5/3)/(7/3)) + 1·(1 − 3/7) + 3·0] / 8
    #                = (1 + 6/7 + 4/7) / 8 = (17/7) / 8 = 17/56
    got = values(QRELS, RUN, ["rpref_N(gain=1:3)"])
    assert got["rpref_N(gain=1:3)"] == pytest.approx(17 / 56, abs=1e-12)
    # maxrel=4 (linear): gmax = 4, J − CG/gmax = 5 − 6/4 = 3.5:
    # [1 + 2·(1 − 1.5/3.5) + 1·(1 − 1/3.5) + 2·(1 − 2/3.5)] / 6 = (1 + 8/7 + 5/7 + 6/7) / 6
    #   = (26/7) / 6 = 13/21
    got = values(QRELS, RUN, ["rpref_N(maxrel=4)"])
    assert got["rpref_N(maxrel=4)"] == pytest.approx(13 / 21, abs=1e-12)


def test_the_flaw_of_rpref_relative_and_its_fix():
    # One relevant document, ranked first: rpref_relative ignores it (rank 1 has no
    # document above it to be relative to): 0; rpref_relative2 and rpref_N credit it: 1.
    got = values({"t": {"a": 1, "b": 0}}, {"t": {"a": 2.0, "b": 1.0}})
    assert got == {"rpref_N": 1.0, "rpref_relative": 0.0, "rpref_relative2": 1.0}


def test_no_relevant_document_and_no_misplaceable_document():
    # no relevant document: 0 (missing value 0). Second topic: every judged document has
    # gain gmax = 2, J − CG/gmax = 0, no document is ever misplaced: rpref_N = 1 as bpref_N
    # with N = 0; rpref_relative = (0 + 2·(1 − 0/1)) / 4 = 0.5. Third: J − CG/gmax = 2 − 1/2,
    # the relevant document first: 1, 1, and 0 for rpref_relative (rank 1).
    jr = batch([[0, -1, 0], [2, -1, 2], [1, 0]], [[3, 0, 0], [0, 0, 2], [1, 1]])
    np.testing.assert_array_equal(measure("rpref_N", jr), [0.0, 1.0, 1.0])
    np.testing.assert_array_equal(measure("rpref_relative2", jr), [0.0, 1.0, 1.0])
    np.testing.assert_array_equal(measure("rpref_relative", jr), [0.0, 0.5, 0.0])


def test_names_and_errors():
    got = values(QRELS, RUN, ["ntcir:rpref_N", "ntcir:rpref_relative", "ntcir:rpref_relative2"])
    assert got == pytest.approx({f"ntcir:{name}": v for name, v in values(QRELS, RUN).items()})
    with pytest.raises(MeasureError, match="maxrel"):
        evaluate(QRELS, RUN, ["rpref_relative(maxrel=3)"])
    with pytest.raises(MeasureError, match="maxrel"):
        evaluate(QRELS, RUN, ["rpref_N(maxrel=1)"])


# ====================================================================== binary: trec_eval
@st.composite
def binary_topics(draw, r_at_least_n: bool = False):
    """Binary qrels and a run without ties (documents d0..: judged; u0..: not in the qrels)."""
    judged = draw(st.lists(st.integers(0, 1), min_size=1, max_size=12))
    if r_at_least_n and sum(judged) < len(judged) - sum(judged):
        judged = [1 - v for v in judged]
    qrels = {"t": {f"d{i}": v for i, v in enumerate(judged)}}
    pool = [f"d{i}" for i in range(len(judged))] + [f"u{i}" for i in range(draw(st.integers(0, 5)))]
    ranked = draw(st.permutations(pool))
    ranked = ranked[: draw(st.integers(1, len(ranked)))]
    run = {"t": {doc: float(len(ranked) - i) for i, doc in enumerate(ranked)}}
    return qrels, run


def _trec_eval(qrels, run, measure_name):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    return pytrec_eval.RelevanceEvaluator(qrels, {measure_name}).evaluate(run)["t"][measure_name]


@SETTINGS
@given(binary_topics(r_at_least_n=True))
def test_rpref_n_is_trec_eval_bpref_on_binary_judgments_with_r_at_least_n(topic):
    # With R ≥ N, trec_eval's 1 − min(n, R)/min(R, N) is 1 − n/N: bpref_N, which rpref_N
    # generalises (Sakai 2014: "similar to bpref_N").
    qrels, run = topic
    assert values(qrels, run, ["rpref_N"])["rpref_N"] == pytest.approx(
        _trec_eval(qrels, run, "bpref"), abs=1e-12)


@SETTINGS
@given(binary_topics())
def test_rpref_relative2_is_condensed_ap_on_binary_judgments(topic):
    # penalty = n(r) = r − C(r): 1 − n(r)/r = C(r)/r, so rpref_relative2 = AP′ = trec_eval's
    # map on the run with its unjudged documents removed.
    qrels, run = topic
    judged_run = {"t": {d: s for d, s in run["t"].items() if d in qrels["t"]}}
    expected = _trec_eval(qrels, judged_run, "map") if judged_run["t"] else 0.0
    assert values(qrels, run, ["rpref_relative2"])["rpref_relative2"] == pytest.approx(
        expected, abs=1e-12)


@SETTINGS
@given(binary_topics())
def test_binary_gains_give_bpref_n(topic):
    qrels, run = topic
    got = values(qrels, run, ["rpref_N", "rpref_N(gain=binary)", "bpref_N"])
    assert got["rpref_N"] == pytest.approx(got["bpref_N"], abs=1e-12)
    assert got["rpref_N(gain=binary)"] == pytest.approx(got["bpref_N"], abs=1e-12)


# ====================================================================== graded: plain loops
@st.composite
def graded_topics(draw, max_degree: int = 3):
    """One ranking (degrees, -1: not in the qrels, -2: judged negative) and its topic's
    judged documents per degree 0..max_degree, every judged retrieved one included."""
    ranking = draw(st.lists(st.integers(-2, max_degree), max_size=14))
    levels = [sum(1 for v in ranking if v == g) + draw(st.integers(0, 2))
              for g in range(max_degree + 1)]
    return ranking, levels


def _loops(ranking, levels, gains, gmax):
    """The three rpref forms by their definitions, one document pair at a time."""
    condensed = [gains[v] for v in ranking if v >= 0]
    cg = sum(count * gains[g] for g, count in enumerate(levels))
    most = sum(count * (1 - gains[g] / gmax) for g, count in enumerate(levels))
    n = rel = rel2 = 0.0
    for r, g in enumerate(condensed, start=1):
        if g <= 0:
            continue
        penalty = sum((g - h) / g for h in condensed[: r - 1] if h < g)
        n += g * (1 - (penalty / most if most else 0.0))
        rel += g * (1 - penalty / (r - 1)) if r > 1 else 0.0
        rel2 += g * (1 - penalty / r)
    return [x / cg if cg else 0.0 for x in (n, rel, rel2)]


GAINS = {"": (0.0, 1.0, 2.0, 3.0), "(gain=exp)": (0.0, 1.0, 3.0, 7.0),
         "(gain=0.5:0.5:4)": (0.0, 0.5, 0.5, 4.0)}


@SETTINGS
@given(graded_topics(), st.sampled_from(sorted(GAINS)))
def test_graded_values_match_the_definitions(topic, gain):
    # gmax: the gain of degree 3, the highest degree of the scale (the batch's last column)
    ranking, levels = topic
    gains = GAINS[gain]
    jr = batch([ranking], [levels])
    got = [float(measure(name + gain, jr)[0]) for name in NAMES]
    assert got == pytest.approx(_loops(ranking, levels, gains, gains[3]), abs=1e-12)


# ====================================================================== properties
@SETTINGS
@given(st.lists(graded_topics(), min_size=1, max_size=4), st.sampled_from(sorted(GAINS)))
def test_bounds(topics, gain):
    jr = batch([t[0] for t in topics], [t[1] for t in topics])
    for name in NAMES:
        got = measure(name + gain, jr)
        assert ((got >= -1e-12) & (got <= 1 + 1e-12)).all(), name


@SETTINGS
@given(graded_topics(), st.data())
def test_unjudged_documents_change_nothing(topic, data):
    # trec_eval's bpref ignores unjudged documents: inserting documents not in the qrels
    # (-1) or judged negative (-2) anywhere, or removing them, leaves every value as it is.
    ranking, levels = topic
    judged_only = [v for v in ranking if v >= 0]
    noisy = list(ranking)
    for _ in range(data.draw(st.integers(0, 4))):
        noisy.insert(data.draw(st.integers(0, len(noisy))), data.draw(st.sampled_from([-1, -2])))
    jr = batch([ranking, judged_only, noisy], [levels] * 3)
    for name in NAMES:
        got = measure(name, jr)
        assert got[0] == got[1] == got[2], name


@SETTINGS
@given(graded_topics(), st.floats(0.1, 10.0))
def test_scaling_the_gains_changes_nothing(topic, factor):
    # penalties are ratios of gains, and CG, CG/gmax scale away.
    ranking, levels = topic
    jr = batch([ranking], [levels])
    scaled = ":".join(repr(factor * g) for g in (1.0, 2.0, 3.0))
    for name in NAMES:
        assert measure(f"{name}(gain={scaled})", jr)[0] == pytest.approx(
            measure(f"{name}(gain=1:2:3)", jr)[0], abs=1e-12), name


@SETTINGS
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10))
def test_ideal_rankings_score_one(degrees):
    # the judged documents by decreasing degree: nothing is misplaced, rpref_N = rpref_relative2
    # = 1 whenever a document is relevant.
    ranking = sorted(degrees, reverse=True)
    levels = [degrees.count(g) for g in range(4)]
    jr = batch([ranking], [levels])
    expected = 1.0 if max(degrees) > 0 else 0.0
    assert measure("rpref_N", jr)[0] == pytest.approx(expected, abs=1e-12)
    assert measure("rpref_relative2", jr)[0] == pytest.approx(expected, abs=1e-12)
