"""Properties of the measure catalogue on random batches (hypothesis): bounds, reduction
identities, equality with the trec_eval families they coincide with, monotonicity under
swaps of a relevant and a non-relevant document."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from irscale.measures.cascade import satisfaction
from irscale.measures.gain_discount import GainMap

from .measures_helpers import batch, measure
from .property_examples import examples

SETTINGS = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

#: Degrees of retrieved documents: -2 judged negative, -1 not in the qrels, 0..3 judged.
DEGREE = st.integers(-2, 3)


@st.composite
def batches(draw, max_rankings: int = 4, max_length: int = 12, unjudged: bool = True):
    """(rankings, recall bases): every judged retrieved document is in the recall base."""
    degree = DEGREE if unjudged else st.integers(0, 3)
    rankings = draw(st.lists(st.lists(degree, max_size=max_length), min_size=1,
                             max_size=max_rankings))
    levels = []
    for ranking in rankings:
        row = [sum(1 for v in ranking if v == g) for g in range(4)]
        row = [count + draw(st.integers(0, 3)) for count in row]
        levels.append(row)
    return rankings, levels


BOUNDED = (
    "nDCG(gain=exp,discount=log2)", "nDCG(discount=jk,base=10)@5", "nDCG(discount=1+log)",
    "nDCG(gain=1:3:7)@3", "Q", "Q@5", "Q(beta=3,norm=R)@5", "Rmeasure", "Omeasure",
    "Pmeasure", "Pplus", "ERR", "ERR(prob=ntcir)", "nERR@5", "nERR(prob=ntcir)", "RBP",
    "RBP(p=0.5,gain=exp)", "RBPres(p=0.9)", "gP", "gR@3", "F", "F(beta=2)@4", "E@3", "AP11",
    "AP(norm=min)@3", "bpref_R", "bpref_N", "MP", "MP(model=uniform)", "RBTO(norm=1)@6",
    "NCU", "NCU(stop=rb,gamma=0.7)@5", "NCU(stop=gu,stops=exp,beta=3)", "WRR",
    "WRR(betas=-2:-0.5:0)", "NSR", "NSR(gain=exp)@3", "GAP", "GAP(thresholds=0.2:0:0.8)",
    "gAP(gain=exp)", "AUCPR", "AUCPR(interp=step)",
)


@SETTINGS
@given(batches())
def test_bounds(case):
    jr = batch(*case)
    for name in BOUNDED:
        values = measure(name, jr)
        assert ((values >= 0) & (values <= 1 + 1e-12)).all(), (name, values)
    assert (measure("RBP(gain=binary)", jr) + measure("RBPres", jr) <= 1 + 1e-12).all()


@SETTINGS
@given(batches())
def test_rbp_residual_bounds_the_unjudged(case):
    rankings, levels = case
    jr = batch(rankings, levels)
    # every unjudged document relevant: RBP grows by at most the residual
    optimistic = batch([[1 if v < 0 else min(v, 1) for v in r] for r in rankings],
                       [[row[0], sum(row[1:]) + sum(1 for v in r if v < 0)]
                        for r, row in zip(rankings, levels, strict=True)])
    low = measure("RBP(p=0.7,gain=binary)", jr)
    high = measure("RBP(p=0.7,gain=binary)", optimistic)
    assert (high <= low + measure("RBPres(p=0.7)", jr) + 1e-12).all()


@SETTINGS
@given(batches())
def test_reductions_and_trec_eval_equalities(case):
    jr = batch(*case)
    # Q with β = 0 is AP, term for term (bit for bit)
    assert np.array_equal(measure("Q(beta=0)", jr), measure("AP", jr))
    assert np.array_equal(measure("Q(beta=0,norm=R)@4", jr), measure("map_cut.4", jr))
    # the families that coincide with trec_eval's, bit for bit
    assert np.array_equal(measure("nDCG(gain=linear,discount=log2)", jr), measure("ndcg", jr))
    assert np.array_equal(measure("nDCG(discount=log2)@5", jr), measure("ndcg_cut.5", jr))
    assert np.array_equal(measure("DCG(discount=log2)", jr), measure("dcg", jr))
    assert np.array_equal(measure("AP(norm=R)@3", jr), measure("map_cut.3", jr))
    assert np.allclose(measure("F(beta=1)", jr), measure("set_F", jr), rtol=1e-15, atol=0)
    assert np.allclose(measure("F(beta=2)", jr), measure("set_F.4", jr), rtol=1e-15, atol=0)
    assert np.allclose(measure("MP(model=uniform,recall=1)", jr), measure("AP", jr),
                       rtol=1e-14, atol=0)
    assert np.allclose(measure("E@5", jr), 1 - measure("F@5", jr), atol=0)
    # binary gains: gP and gR are precision and recall
    assert np.allclose(measure("gP(gain=binary)@6", jr), measure("P@6", jr), rtol=1e-15)
    assert np.allclose(measure("gR(gain=binary)", jr), measure("set_recall", jr), rtol=1e-15)


@SETTINGS
@given(batches(unjudged=False))
def test_condensed_list_of_a_fully_judged_run_is_the_run(case):
    jr = batch(*case)
    assert jr.condensed() is jr
    for name, condensed in (("AP", "AP(condensed=1)"), ("nDCG(gain=exp)",
                            "nDCG(gain=exp,condensed=1)"), ("Q@5", "Q(condensed=1)@5"),
                            ("P@3", "P(condensed=1)@3"), ("RR", "RR(judged_only=1)"),
                            ("ERR", "ERR(condensed=1)")):
        assert np.array_equal(measure(condensed, jr), measure(name, jr)), condensed


def test_condensed_list_moves_judged_documents_up():
    # Sakai (2014): unjudged at rank 1, judged non-relevant at 2, relevant at 3 → ranks 1 and 2
    jr = batch([[-1, 0, 1]], [[1, 1]])
    assert jr.condensed().rel.tolist() == [0, 1]
    assert measure("AP(condensed=1)", jr)[0] == 0.5
    assert measure("AP", jr)[0] == pytest.approx(1 / 3)
    assert measure("RR(judged_only=1)", jr)[0] == 0.5


@SETTINGS
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10), st.integers(0, 3))
def test_ideal_ranking_scores_one(counts, extra_nonrel):
    # the ideal ranking of a topic: its relevant documents by decreasing degree
    levels = [extra_nonrel, *counts[:3]] + [0] * (3 - len(counts[:3]))
    ideal = [g for g in (3, 2, 1) for _ in range(levels[g])]
    assume(ideal)
    jr = batch([ideal + [0] * extra_nonrel], [levels])
    for name in ("nDCG(discount=log2)", "nDCG(gain=exp,discount=jk)", "nDCG(discount=jk,base=10)",
                 "nDCG(discount=1+log,gain=1:2:5)", "nDCG(gain=exp)@3", "nERR", "nERR@2",
                 "nERR(prob=ntcir)", "Q", "Q(beta=5)@3", "Rmeasure", "Pplus", "AP"):
        assert measure(name, jr)[0] == pytest.approx(1.0, abs=1e-12), name


@SETTINGS
@given(st.integers(1, 15), st.integers(1, 3), st.lists(st.sampled_from([0, -1, -2]),
                                                      min_size=15, max_size=15))
def test_err_with_a_single_relevant_document(rank, degree, filler):
    ranking = [*filler[:rank - 1], degree, *filler[rank:]]
    jr = batch([ranking], [[20, 0, 0, 1]])
    for prob in ("exp", "ntcir"):
        p = satisfaction(jr, prob, GainMap("linear"), 3)[rank - 1]
        assert measure(f"ERR(prob={prob})", jr)[0] == pytest.approx(p / rank, rel=1e-15)
    assert measure("ERR(gain=binary)", jr)[0] == pytest.approx(0.5 / rank, rel=1e-15)


MONOTONE = ("AP", "AP(norm=min)@4", "RR", "DCG(discount=jk,base=3)", "nDCG(gain=exp)",
            "nDCG(discount=1+log)@6", "RBP(p=0.6)", "ERR", "nERR@4", "RBTO@8",
            "P@4", "MP(model=uniform)")
#: Monotone with binary relevance only (see the counterexample with grades below).
MONOTONE_BINARY = ("Q", "Q@5", "Q(beta=3)")


def _swap_up(ranking, data):
    """The ranking with a relevant document swapped with a non-relevant one above it."""
    relevant = [i for i, v in enumerate(ranking) if v >= 1]
    nonrel = [i for i, v in enumerate(ranking) if v == 0]
    assume(relevant and nonrel and min(nonrel) < max(relevant))
    j = data.draw(st.sampled_from([i for i in relevant if i > min(nonrel)]))
    i = data.draw(st.sampled_from([i for i in nonrel if i < j]))
    swapped = list(ranking)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    return swapped


@SETTINGS
@given(batches(max_rankings=1, unjudged=False), st.data())
def test_moving_a_relevant_document_up_never_hurts(case, data):
    rankings, levels = case
    ranking = rankings[0]
    swapped = _swap_up(ranking, data)
    jr = batch([ranking, swapped], levels * 2)
    for name in MONOTONE:
        before, after = measure(name, jr)
        assert after >= before - 1e-12, (name, ranking, swapped)
    before, after = measure("RBTO", jr)
    assert after > before  # strongly top-heavy: the swap moves the run up its order
    assert np.ptp(measure("SBTO", jr)) == 0  # set-based: unchanged


@SETTINGS
@given(st.lists(st.integers(0, 1), min_size=2, max_size=12), st.integers(0, 3),
       st.integers(0, 3), st.data())
def test_q_rewards_moving_a_relevant_document_up_with_binary_relevance(ranking, more_nonrel,
                                                                       more_rel, data):
    swapped = _swap_up(ranking, data)
    levels = [ranking.count(0) + more_nonrel, ranking.count(1) + more_rel]
    jr = batch([ranking, swapped], [levels, levels])
    for name in MONOTONE_BINARY:
        before, after = measure(name, jr)
        assert after >= before - 1e-12, (name, ranking, swapped)


def test_q_can_fall_when_a_marginal_document_moves_up_with_graded_relevance():
    """Q (Sakai 2014, eq. 11 and 13) is not monotone under grades: degrees [0, 3, 1]
    with R = 2 and beta = 1 give BR = (1 + 3)/(2 + 4) and (2 + 4)/(3 + 4), Q = 16/21; moving
    the degree-1 document to rank 1 gives BR = (1 + 1)/(1 + 3) and (2 + 4)/(2 + 4), Q = 3/4:
    the document takes the rank where the ideal list has its degree-3 document."""
    jr = batch([[0, 3, 1], [1, 3, 0]], [[1, 1, 0, 1]] * 2)
    before, after = measure("Q", jr)
    assert before == pytest.approx(16 / 21, rel=1e-15)
    assert after == pytest.approx(3 / 4, rel=1e-15)


def test_gain_parameters_are_checked():
    jr = batch([[3, 1]], [[0, 1, 0, 1]])
    from irscale.errors import MeasureError

    with pytest.raises(MeasureError, match="degree 3"):
        measure("nDCG(gain=1:2)", jr)
    with pytest.raises(MeasureError, match="unknown parameter"):
        measure("Q(gamma=1)", jr)
    with pytest.raises(MeasureError, match="bad value"):
        measure("RBP(p=1.5)", jr)
    with pytest.raises(MeasureError, match="cut-off as @k"):
        measure("Q(cutoff=3)", jr)
    assert measure("nDCG(gain=1:2:4)", jr)[0] == pytest.approx(
        measure("nDCG(gain=exp)@2", jr)[0])


@SETTINGS
@given(st.lists(st.floats(min_value=0, max_value=1e300, allow_nan=False), min_size=1,
                max_size=5))
def test_a_gain_list_written_as_text_reads_back_as_the_same_gains(values):
    """A gain map's text is read again where one family hands its gains to another (P+Q's Q
    and P⁺) and keys cached global gains: it must name the same doubles (six significant
    digits merged 1.0000001:2 with 1.0000002:2)."""
    from irscale.measures.gain_discount import parse_gain

    gain = GainMap("list", tuple(values))
    assert parse_gain(str(gain)) == gain
