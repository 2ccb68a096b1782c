"""NCU, WRR, NSR, GAP, gAP, AUCPR and the names RankEff and cRBP, against oracles written
independently of their kernels: pyNTCIREVAL's NCU (Sakai & Robertson 2008), pytrec_eval's
map, scikit-learn's precision–recall curve, the papers' definitions computed one ranking
at a time by plain loops, and worked examples computed by hand (in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import MeasureError

from .measures_helpers import batch, measure
from .property_examples import examples

SETTINGS = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def topics(draw, max_degree: int = 3, unjudged: bool = True, max_length: int = 12):
    """One ranking (degrees, -1: not in the qrels, -2: judged negative) and its topic's
    judged documents per degree 0..max_degree, every judged retrieved one included."""
    low = -2 if unjudged else 0
    ranking = draw(st.lists(st.integers(low, max_degree), max_size=max_length))
    levels = [sum(1 for v in ranking if v == g) + draw(st.integers(0, 2))
              for g in range(max_degree + 1)]
    return ranking, levels


def one(name: str, ranking: list[int], levels: list[int], **attributes) -> float:
    return float(measure(name, batch([ranking], [levels], **attributes))[0])


# ====================================================================== NCU: pyNTCIREVAL
def _ntcir_ncu(ranking, levels, grades, beta, stop, cutoff=None):
    ncu = pytest.importorskip("pyNTCIREVAL.metrics.ncu")
    kind, value = stop
    sp = {"u": lambda: ncu.p_u(), "gu": lambda: ncu.p_gu(value),
          "rb": lambda: ncu.p_rb(value)}[kind]()
    metric = ncu.NCU(levels, grades, beta, sp)
    metric.cutoff = cutoff
    ranked = [(f"d{i}", v if v > 0 else 0) for i, v in enumerate(ranking)]
    return metric.compute(ranked)


STOPS = [("u", None, ""), ("gu", (1.0, 2.0, 3.0), "stop=gu,stops=linear"),
         ("gu", (0.2, 0.3, 4.0), "stop=gu,stops=0.2:0.3:4"), ("gu", None, "stop=gu"),
         ("rb", 0.5, "stop=rb"), ("rb", 0.9, "stop=rb,gamma=0.9"), ("rb", 1.0, "stop=rb,gamma=1")]


@SETTINGS
@given(topics(), st.sampled_from(STOPS), st.sampled_from([0.0, 1.0, 2.5]),
       st.sampled_from([None, 1, 3, 7]))
def test_ncu_matches_pyntcireval(topic, stop, beta, cutoff):
    ranking, levels = topic
    if sum(levels[1:]) == 0 or not ranking:
        return  # pyNTCIREVAL fails there (NTCIREVAL skips such topics); irscale gives 0
    kind, value, spelled = stop
    if kind == "u":
        spelled = "stop=u"
    elif kind == "gu" and value is None:
        value = (1.0, 2.0, 3.0)  # the default weights: the (linear) gains
    grades = [1.0, 2.0, 3.0]
    name = f"NCU({spelled},beta={beta})" + ("" if cutoff is None else f"@{cutoff}")
    expected = _ntcir_ncu(ranking, levels, grades, beta, (kind, value), cutoff)
    assert one(name, ranking, levels) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_ncu_with_gain_list_matches_pyntcireval():
    ranking, levels = [3, 0, -1, 1, 2, 1, -2, 3], [4, 3, 2, 3]
    expected = _ntcir_ncu(ranking, levels, [1.0, 3.0, 7.0], 1.0, ("gu", (1.0, 3.0, 7.0)))
    assert one("NCU(gain=1:3:7)", ranking, levels) == pytest.approx(expected, rel=1e-12)


def test_ncu_worked_example():
    # degrees [2, 0, 1], R_1 = R_2 = 1, linear gains, β = 1: ideal list [2, 1]
    # BR(1) = (1·2 + 1)/(1·2 + 1) = 1; BR(3) = (1·3 + 2)/(1·3 + 3) = 5/6
    ranking, levels = [2, 0, 1], [1, 1, 1]
    # u: (1 + 5/6)/2 = 11/12; gu (weights = gains): (2·1 + 1·5/6)/3 = 17/18
    assert one("NCU(stop=u)", ranking, levels) == pytest.approx(11 / 12)
    assert one("NCU", ranking, levels) == pytest.approx(17 / 18)
    # rb, γ = 0.5: P = 1/(1 + 0.5) and 0.5/1.5 → (1 + 0.5·5/6)/1.5 = 17/18 as well
    assert one("NCU(stop=rb)", ranking, levels) == pytest.approx((1 + 5 / 12) / 1.5)
    # β = 0: precision 1 and 2/3
    assert one("NCU(stop=u,beta=0)", ranking, levels) == pytest.approx(5 / 6)


@SETTINGS
@given(st.lists(topics(), min_size=1, max_size=4))
def test_ncu_reductions_and_bounds(cases):
    rankings, levels = zip(*cases, strict=True)
    jr = batch(rankings, levels)
    np.testing.assert_array_equal(measure("NCU(stop=u)", jr), measure("Q", jr))
    np.testing.assert_array_equal(measure("NCU(stop=u)@4", jr), measure("Q@4", jr))
    np.testing.assert_allclose(measure("NCU(stop=u,beta=0)", jr), measure("AP", jr),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(measure("NCU(stop=rb,gamma=1)", jr), measure("Q", jr),
                               rtol=1e-12, atol=1e-15)
    for name in ("NCU", "NCU(stop=rb,gamma=0.3)", "NCU(stop=gu,stops=exp,beta=0)@3"):
        values = measure(name, jr)
        assert ((values >= 0) & (values <= 1 + 1e-12)).all(), (name, values)


# ====================================================================== WRR
def _wrr(ranking, betas):
    best = 0.0
    for r, v in enumerate(ranking, start=1):
        if v >= 1:
            best = max(best, 1.0 / (r - (betas[v - 1] if betas else 0.0)))
    return best


def test_wrr_worked_example():
    # partially relevant (1) at rank 1, highly relevant (2) at rank 2
    ranking, levels = [1, 2, 0], [1, 1, 1]
    assert one("WRR", ranking, levels) == 1.0  # RR
    # β_1 = −2: 1/(1 + 2) = 1/3 < 1/2 of the highly relevant one
    assert one("WRR(betas=-2:0)", ranking, levels) == 0.5
    # β_1 = −0.5: 1/1.5 beats 1/2
    assert one("WRR(betas=-0.5:0)", ranking, levels) == pytest.approx(2 / 3)
    assert one("WRR", [0, -1], [1, 0]) == 0.0


@SETTINGS
@given(topics(), st.lists(st.floats(-5, 0), min_size=3, max_size=3))
def test_wrr_matches_its_definition(topic, betas):
    ranking, levels = topic
    spelled = ":".join(repr(b) for b in betas)
    assert one(f"WRR(betas={spelled})", ranking, levels) == pytest.approx(_wrr(ranking, betas))
    assert one("WRR", ranking, levels) == one("RR", ranking, levels)


# ====================================================================== NSR
def _nsr(ranking, levels, depth, gain=lambda v: float(v)):
    ideal = sorted((v for v, n in enumerate(levels) for _ in range(n) if v >= 1),
                   reverse=True)
    top = ranking[:depth]
    ideal_sum = sum(gain(v) for v in ideal[:depth])
    return sum(gain(v) for v in top if v >= 1) / ideal_sum if ideal_sum else 0.0


def test_nsr_worked_example():
    # degrees [1, 0, 2] of a topic with judged 2, 2, 1 (ideal [2, 2, 1])
    ranking, levels = [1, 0, 2], [1, 1, 2]
    assert one("NSR@1", ranking, levels) == 0.5        # 1 / 2
    assert one("NSR@2", ranking, levels) == 0.25       # 1 / 4
    assert one("NSR", ranking, levels) == 0.6          # 3 / 5 (l = n = 3)
    assert one("NSR@4", ranking, levels) == 0.6        # 3 / 5 (the ideal list ends at 3)


@SETTINGS
@given(topics(), st.sampled_from([None, 1, 2, 5, 20]))
def test_nsr_matches_its_definition_and_binary_reduction(topic, depth):
    ranking, levels = topic
    at = "" if depth is None else f"@{depth}"
    size = len(ranking) if depth is None else depth
    assert one(f"NSR{at}", ranking, levels) == pytest.approx(_nsr(ranking, levels, size))
    assert one(f"NSR(gain=exp){at}", ranking, levels) == pytest.approx(
        _nsr(ranking, levels, size, lambda v: 2.0 ** v - 1))
    big_r = sum(levels[1:])
    hits = sum(1 for v in ranking[:size] if v >= 1)
    binary = hits / min(size, big_r) if min(size, big_r) else 0.0
    assert one(f"NSR(gain=binary){at}", ranking, levels) == pytest.approx(binary)


# ====================================================================== GAP and gAP
def _gap(ranking, levels, weight):
    """The papers' double sum with δ_mn = weight(min(c_m, c_n)) over the ideal value."""
    numerator = 0.0
    for n, cn in enumerate(ranking, start=1):
        if cn < 1:
            continue
        numerator += sum(weight(min(cm, cn)) for cm in ranking[:n] if cm >= 1) / n
    denominator = sum(count * weight(v) for v, count in enumerate(levels) if v >= 1)
    return numerator / denominator if denominator else 0.0


def _cumulative(thresholds):
    return lambda v: sum(thresholds[:v])


def test_gap_worked_example():
    # degrees [2, 0, 1], one judged document of each degree
    ranking, levels = [2, 0, 1], [1, 1, 1]
    # g = (1/2, 1/2): G(1) = 1/2, G(2) = 1; (1·G(2) + (G(1) + G(1))/3) / (G(1) + G(2))
    # = (1 + 1/3) / (3/2) = 8/9
    assert one("GAP", ranking, levels) == pytest.approx(8 / 9)
    assert one("GAP(thresholds=0.5:0.5)", ranking, levels) == pytest.approx(8 / 9)
    # every user's threshold at degree 1: binary AP = (1 + 2/3)/2 = 5/6
    assert one("GAP(thresholds=1:0)", ranking, levels) == pytest.approx(5 / 6)
    # every user's threshold at degree 2: only the first document is relevant, AP = 1
    assert one("GAP(thresholds=0:1)", ranking, levels) == pytest.approx(1.0)
    # gAP, linear gains: (2 + (min(2, 1) + 1)/3) / (1 + 2) = 8/9
    assert one("gAP", ranking, levels) == pytest.approx(8 / 9)
    # gAP, gains 1:3: (3 + (1 + 1)/3) / (1 + 3) = 11/12
    assert one("gAP(gain=1:3)", ranking, levels) == pytest.approx(11 / 12)


@SETTINGS
@given(topics(), st.lists(st.floats(0, 1), min_size=3, max_size=3))
def test_gap_and_gap_kishida_match_their_definitions(topic, thresholds):
    ranking, levels = topic
    if sum(thresholds) > 0:
        spelled = ":".join(repr(t) for t in thresholds)
        assert one(f"GAP(thresholds={spelled})", ranking, levels) == pytest.approx(
            _gap(ranking, levels, _cumulative(thresholds)), rel=1e-9, abs=1e-12)
    assert one("GAP", ranking, levels) == pytest.approx(
        _gap(ranking, levels, float), rel=1e-9, abs=1e-12)
    assert one("gAP(gain=exp)", ranking, levels) == pytest.approx(
        _gap(ranking, levels, lambda v: 2.0 ** v - 1), rel=1e-9, abs=1e-12)
    for name in ("GAP", "gAP", "GAP(thresholds=0.1:0:0.9)"):
        value = one(name, ranking, levels)
        assert 0 <= value <= 1 + 1e-12, name


@SETTINGS
@given(st.lists(st.lists(st.integers(-2, 1), max_size=10), min_size=1, max_size=4).filter(
    lambda rankings: any(rankings)),
       st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_gap_and_gap_kishida_with_binary_judgments_are_pytrec_eval_map(rankings, extra):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for t, ranking in enumerate(rankings):
        topic = f"q{t}"
        qrels[topic] = {f"u{t}_{i}": i % 2 for i in range(extra[t] + 1)}  # unretrieved
        run[topic] = {}
        for r, v in enumerate(ranking):
            doc = f"d{r}"
            run[topic][doc] = float(len(ranking) - r)
            if v >= 0:
                qrels[topic][doc] = v
            elif v == -2:
                qrels[topic][doc] = -1
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    evaluated = [t for t in qrels if run[t]]
    ev = evaluate(qrels, {t: run[t] for t in evaluated}, ["GAP", "gAP", "map"])
    frame = ev.per_topic()
    for name in ("GAP", "gAP"):
        got = frame[frame["measure"] == name].set_index("topic")["value"]
        for topic in evaluated:
            assert got[topic] == pytest.approx(expected[topic]["map"], rel=1e-12, abs=1e-15)


# ====================================================================== AUCPR
@SETTINGS
@given(st.lists(st.booleans(), min_size=1, max_size=15).filter(any))
def test_aucpr_matches_scikit_learn(relevant):
    metrics = pytest.importorskip("sklearn.metrics")
    y_true = np.array(relevant, dtype=int)
    scores = np.arange(len(relevant), 0, -1, dtype=float)  # distinct: rank order
    precision, recall, _ = metrics.precision_recall_curve(y_true, scores)
    ranking = [int(v) for v in relevant]
    levels = [len(relevant) - sum(ranking), sum(ranking)]
    assert one("AUCPR", ranking, levels) == pytest.approx(metrics.auc(recall, precision),
                                                          rel=1e-12)
    assert one("AUCPR(interp=step)", ranking, levels) == pytest.approx(
        metrics.average_precision_score(y_true, scores), rel=1e-12)


def test_aucpr_worked_example_and_step_is_ap():
    # relevant at ranks 2 and 3, R = 3: points (0, 1), (0, 0), (1/3, 1/2), (2/3, 2/3)
    # trapezoid: (1/3)·(0 + 1/2)/2 + (1/3)·(1/2 + 2/3)/2 = 1/12 + 7/36 = 5/18
    ranking, levels = [0, 1, 1], [1, 3]
    assert one("AUCPR", ranking, levels) == pytest.approx(5 / 18)
    # step: (1/3)·(1/2 + 2/3) = 7/18, AP
    assert one("AUCPR(interp=step)", ranking, levels) == pytest.approx(7 / 18)
    jr = batch([[1, 0, 1, -1, 1], [0, 0, 2], []], [[2, 3], [5, 0, 2], [0, 1]])
    np.testing.assert_array_equal(measure("AUCPR(interp=step)", jr), measure("AP", jr))


# ====================================================================== names
def test_rankeff_is_bpref_n_and_crbp_is_urbp_on_trust_labels():
    jr = batch([[1, 0, -1, 2, 0, 1], [0, 2, 1]], [[3, 2, 1], [1, 1, 1]],
               trust=[[80, 10, 60, 55, 5, 90], [70, 20, 49]],
               under=[[0, 100, 0, 0, 100, 0], [0, 0, 0]])
    np.testing.assert_array_equal(measure("RankEff", jr), measure("bpref_N", jr))
    np.testing.assert_array_equal(measure("cRBP(p=0.5)", jr),
                                  measure("uRBP(p=0.5,aspect=trust)", jr))
    assert not np.array_equal(measure("cRBP", jr), measure("uRBP", jr))
    with pytest.raises(MeasureError, match="cRBP is uRBP"):
        measure("cRBP(aspect=under)", jr)


def test_new_names_from_the_api_with_labels_as_requested():
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    names = ["NCU(stop=gu,beta=1)", "WRR", "NSR@2", "GAP", "gAP", "AUCPR", "RankEff"]
    frame = evaluate(qrels, run, names).per_topic()
    assert list(frame["measure"]) == names
    assert all(math.isfinite(v) for v in frame["value"])
