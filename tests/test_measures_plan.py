"""The numpy-free plan of trec_eval's measures (irscale.measures.plan) against the
evaluation that computes them (irscale.evaluate): the same columns (labels, types,
aggregates, per-topic printing, -c placeholders, order), and the engine's values for each
planned call and output equal the evaluation's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import irscale
from irscale import _engine
from irscale.measures.base import EvalContext
from irscale.measures.names import parse_measures
from irscale.measures.plan import NO_OUTPUT, plan_trec

#: Four judged topics (levels 0-3, a pooled-but-unjudged -1 degree), the run retrieving
#: three of them (topic 104 missing: a placeholder under trec_eval 10's -c).
QRELS = {
    "101": {"a": 2, "b": 0, "c": 1, "d": 3, "e": 0, "f": 1},
    "102": {"a": 1, "g": 0, "h": 2},
    "103": {"x": 0, "y": 0, "z": 1, "w": -1},
    "104": {"a": 1, "b": 2},
}
RUN = {
    "101": {"a": 9.0, "x": 8.0, "c": 7.5, "b": 7.0, "d": 6.0, "q": 5.0, "f": 4.0},
    "102": {"g": 3.0, "h": 2.0, "k": 1.0},
    "103": {"w": 5.0, "x": 4.0, "z": 3.0, "y": 2.0},
}

NAMES = [
    "official",
    "all_trec",
    "set",
    "runid",
    "num_q runid",
    "P.5,10 P@10 P_10 map AP@100 nDCG@10 ndcg_cut.10 ndcg_cut_10 P_5",
    "iprec_at_recall.0.1,0.5 Rprec_mult.0.2 utility.1,-1,0,0 set_F.0.5 relstring.10 gm_map "
    "num_q runid ndcg.0=0,1=1,2=3 G.0=0,1=2 Rndcg ndcg_rel binG 11pt_avg.0.25,0.5",
    "Rprec_mult_0.20 iprec_at_recall_0.10 recall_5 success.1,5 relative_P.3 map_cut.3,7",
    "relstring relstring.3 utility set_F bpref gm_bpref infAP Rprec recip_rank RR MRR",
    "NumRet NumRel NumRelRet NumQ SetP SetR SetF SetAP Success@1 IPrec@0.5 GMAP Bpref R@5",
    "all_trec dcg ideal_dcg rbp.p=0.8 rbp_resid unj.5 rbp.p=0.5,1=3 rbp_resid.p=0.7",
]
CONTEXTS = [
    {},
    {"compat": 10, "complete": True},
    {"compat": 9, "complete": True, "num_docs_in_coll": 100},
    {"compat": 10, "num_docs_in_coll": 50, "relevance_level": 2},
]


def _same(left: object, right: object) -> bool:
    if isinstance(left, float) and isinstance(right, float) and math.isnan(left):
        return math.isnan(right) and math.copysign(1, left) == math.copysign(1, right)
    return left == right


@pytest.mark.parametrize("options", CONTEXTS)
@pytest.mark.parametrize("names", NAMES)
def test_the_plan_is_the_evaluation(names: str, options: dict[str, object]) -> None:
    compat = int(options.get("compat", 9))  # type: ignore[call-overload]
    evaluation = irscale.evaluate(QRELS, {"r": RUN}, names, **options)  # type: ignore[arg-type]
    context = EvalContext(compat=compat, complete=bool(options.get("complete", False)),
                          num_docs_in_coll=int(options.get("num_docs_in_coll", 0)))  # type: ignore[call-overload]
    plan = plan_trec(parse_measures(names, compat=compat), context)
    assert plan is not None
    assert [(c.label, c.value_type, c.aggregate, c.per_query) for c in plan.columns] == [
        (c.label, c.value_type, c.aggregate, c.per_query) for c in evaluation.columns]
    jr = evaluation.rankings
    assert jr is not None
    arrays = [np.ascontiguousarray(a, dtype=np.int64)
              for a in (jr.rel, jr.offsets, jr.rel_levels, jr.column_degrees)]
    for column in plan.columns:
        expected = evaluation.values[column.label]
        if column.output == NO_OUTPUT:
            assert column.aggregate == "runid" and len(expected) == 0
            continue
        call = plan.calls[column.call]
        outputs = _engine.trec_measure(call.family, list(call.ints), list(call.floats),
                                       list(call.gains), *arrays, int(jr.relevance_level),
                                       compat, context.num_docs_in_coll)
        values = list(outputs[column.output][1])
        if jr.placeholder is not None and column.missing_value is not None:
            values = [column.missing_value if missing else value
                      for missing, value in zip(jr.placeholder, values, strict=True)]
        assert len(values) == len(expected)
        assert all(_same(a, b) for a, b in zip(values, expected.tolist(), strict=True)), \
            column.label
    if jr.placeholder is not None:
        assert jr.placeholder.any()  # the -c stand-in of topic 104 is there


def test_the_calls_are_not_repeated() -> None:
    plan = plan_trec(parse_measures("P.5,10 P_10 P@10 P.5,10"), EvalContext())
    assert plan is not None
    assert len(plan.calls) == 2  # P.5,10 and P_10 (= P@10)
    assert [c.label for c in plan.columns] == ["P_5", "P_10", "P@10"]


@pytest.mark.parametrize("names", [
    "P(rel=2)@5", "RR@10", "map P(condensed=1)@10", "Bpref(condensed=1)", "RBP(p=0.8)",
    "ERR@20", "map ERR@20", "nDCG(gain=exp)@10", "AP(norm=min)@10", "ntcir:Q-measure",
])
def test_no_plan_beyond_the_engine(names: str) -> None:
    assert plan_trec(parse_measures(names), EvalContext()) is None


def test_the_plan_prints_trec_evals_names() -> None:
    """The labels trec_eval 9.0.8 prints for these parameters (%3.2f levels, the parameter
    text as typed), in its table order, and the engine calls they come from."""
    plan = plan_trec(parse_measures("set_F.0.5 ndcg.0=0,1=1,2=3 11pt_avg.0.25,0.5 "
                                    "utility.1,-1,0,0 Rprec_mult.0.2,1.5 relstring "
                                    "iprec_at_recall.0.1"), EvalContext())
    assert plan is not None
    assert [c.label for c in plan.columns] == [
        "iprec_at_recall_0.10", "relstring", "Rprec_mult_0.20", "Rprec_mult_1.50",
        "utility_1,-1,0,0", "11pt_avg_0.25,0.5", "ndcg_0=0,1=1,2=3", "set_F_0.5"]
    assert [(c.family, c.ints, c.floats, c.gains, c.ideal) for c in plan.calls] == [
        ("iprec_at_recall", (), (0.1,), (), False), ("relstring", (), (10.0,), (), False),
        ("Rprec_mult", (), (0.2, 1.5), (), False),
        ("utility", (), (1.0, -1.0, 0.0, 0.0), (), False),
        ("11pt_avg", (), (0.25, 0.5), (), False),
        ("ndcg", (), (), ((0, 0.0), (1, 1.0), (2, 3.0)), True),
        ("set_F", (), (0.5,), (), False)]
