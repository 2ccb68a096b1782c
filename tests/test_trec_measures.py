"""trec_eval 9.0.8 families other than the gain-based ones: differential tests against
pytrec_eval-terrier, conformance on the CLEF eHealth 2016 runs, and hand-made edge cases
(trec_eval 10.0 rounding, quirks pytrec_eval cannot show)."""

from __future__ import annotations

import collections
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from irscale.core.judge import build_judged_rankings
from irscale.core.options import RankingOptions
from irscale.errors import MeasureError, ParameterError
from irscale.io import read_qrels, read_run
from irscale.measures import REGISTRY, get_family
from irscale.measures.base import MIN_GEO_MEAN, EvalContext
from irscale.measures.names import parse_measure
from irscale.measures.trec_table import NICKNAMES, TREC_MEASURES

from .conftest import CLEF, require
from .property_examples import examples
from .trec_oracle import Options, cases, compare, describe, irscale_values, trec_order

#: The families of this module's scope, with their default parameters.
FAMILIES = (
    "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility",
    "11pt_avg", "relative_P", "success", "map_cut", "set_P", "set_recall", "set_relative_P",
    "set_map", "set_F", "num_nonrel_judged_ret",
)
#: The same families with parameters (pytrec_eval takes non-negative numbers only).
WITH_PARAMS = (
    "P.1,2,3,7", "recall.1,3,4", "relative_P.1,2,4", "success.1,2,3", "map_cut.1,2,3,8",
    "iprec_at_recall.0.05,0.25,0.33,0.5,0.67,0.75", "Rprec_mult.0.1,0.5,1.5,3",
    "11pt_avg.0.25,0.5,0.75", "set_F.0.25",
)
HYPOTHESIS = settings(max_examples=examples(200), deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


# ====================================================================== differential
@HYPOTHESIS
@given(cases())
def test_default_parameters_match_pytrec_eval(case):
    qrels, run, options = case
    problems = compare(qrels, run, FAMILIES, options)
    assert not problems, describe(qrels, run, options, problems)


@HYPOTHESIS
@given(cases())
def test_explicit_parameters_match_pytrec_eval(case):
    qrels, run, options = case
    problems = compare(qrels, run, WITH_PARAMS, options)
    assert not problems, describe(qrels, run, options, problems)


def test_harness_detects_a_difference():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0, "b": 2.0}}
    assert compare(qrels, run, ["map"]) == []
    # the harness must see a disagreement: pytrec_eval at level 1 vs irscale at level 2
    ours = irscale_values(qrels, run, ["map"], Options(relevance_level=2))
    assert ours["q"]["map"] == 0.0
    assert compare(qrels, run, ["map"], Options()) == []


def test_single_precision_ties_are_broken_by_docno():
    # trec_eval stores scores as C floats: 1.0 and 1.00000001 tie, docno "b" > "a" first
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.00000001, "b": 1.0}}
    assert trec_order(run["q"]) == ["b", "a"]
    assert irscale_values(qrels, run, ["recip_rank"], Options())["q"]["recip_rank"] == 0.5
    assert compare(qrels, run, ["recip_rank", "map"]) == []


# ====================================================================== CLEF conformance
def _official(path: Path) -> dict[tuple[str, str], str]:
    values = {}
    for line in path.read_text().splitlines():
        name, topic, value = line.split("\t")
        values[(name.strip(), topic)] = value
    return values


def _clef_runs() -> list[Path]:
    return sorted((CLEF / "runs").glob("*.txt"))


def _format(family: str, value) -> str:
    if get_family(family).value_type == "int":
        return str(int(value))
    return f"{value:6.4f}"


@pytest.fixture(scope="module")
def clef_qrels():
    return read_qrels(require(CLEF) / "task2.qrels")


@pytest.mark.parametrize("run_path", _clef_runs() or [None], ids=lambda p: p and p.stem)
def test_clef_official_measures(clef_qrels, run_path):
    if run_path is None:
        pytest.skip("real data not available")
    official = _official(CLEF / "trec_eval-9.0.8" / f"{run_path.stem}.official.txt")
    jr = build_judged_rankings(clef_qrels, [read_run(run_path)])
    topics = list(jr.topic_labels)
    checked = 0
    for family in ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                   "recip_rank", "iprec_at_recall", "P"):
        fam = get_family(family)
        for name, values in fam.compute(jr).items():
            if fam.per_query:
                for topic, value in zip(topics, values, strict=True):
                    assert _format(family, value) == official[(name, topic)], (name, topic)
                    checked += 1
            # the summary line, accumulated topic by topic in topic order as trec_eval does
            if fam.aggregate == "sum":
                summary = _format(family, sum(int(v) for v in values))
            elif fam.aggregate == "gmean":
                logs = 0.0
                for v in values:
                    logs += math.log(max(float(v), MIN_GEO_MEAN))
                summary = f"{math.exp(logs / len(values)):6.4f}"
            else:
                total = 0.0
                for v in values:
                    total += float(v)
                summary = f"{total / len(values):6.4f}"
            assert summary == official[(name, "all")], name
    assert official[("num_q", "all")] == str(len(topics))
    assert checked == len(topics) * (3 + 4 + 11 + 9)


@pytest.mark.parametrize(
    "options",
    [Options(), Options(relevance_level=2), Options(max_docs=100), Options(judged_only=True),
     Options(relevance_level=2, judged_only=True, max_docs=50)],
    ids=["default", "l2", "M100", "J", "l2-J-M50"],
)
def test_clef_all_trec_families_match_pytrec_eval(options):
    runs = _clef_runs()
    if not runs:
        pytest.skip("real data not available")
    qrels: dict[str, dict[str, int]] = collections.defaultdict(dict)
    for line in (CLEF / "task2.qrels").read_text().splitlines():
        topic, _, doc, rel = line.split()
        qrels[topic][doc] = int(rel)
    for run_path in runs[::5]:  # 4 of the 16 runs per option set keeps this quick
        run: dict[str, dict[str, float]] = collections.defaultdict(dict)
        for line in run_path.read_text().splitlines():
            topic, _, doc, _, score, _ = line.split()
            run[topic][doc] = float(score)
        for specs in (FAMILIES, WITH_PARAMS):  # one spec per family and call, as trec_eval
            problems = compare(dict(qrels), dict(run), specs, options)
            assert not problems, (run_path.name, problems[:10])


# ====================================================================== hand-made cases
def evaluate(qrels, run, spec, *, compat=9, num_docs_in_coll=0, **options):
    """``{output name: per-topic values}`` of one trec spec (topics in byte order)."""
    values = irscale_values(qrels, run, [spec], Options(**options), compat=compat,
                            num_docs_in_coll=num_docs_in_coll)
    names = next(iter(values.values())).keys()
    return {name: [values[t][name] for t in sorted(values)] for name in names}


NINE_RELEVANT = (
    {"q": {f"r{i}": 1 for i in range(9)} | {"n1": 0, "n2": 0}},
    # ranks 1-11: r0 r1 r2 r3 r4 n1 r5 n2 r6 r7 r8
    {"q": {"r0": 20.0, "r1": 19.0, "r2": 18.0, "r3": 17.0, "r4": 16.0, "n1": 15.0,
           "r5": 14.0, "n2": 13.5, "r6": 13.0, "r7": 12.0, "r8": 11.0}},
)


def _interpolated(qrels, run):
    """Precision at each relevant document and interpolated precision, by brute force."""
    ranking = trec_order(run["q"])
    ranks = [i + 1 for i, d in enumerate(ranking) if qrels["q"].get(d, -1) >= 1]
    precision = [k / r for k, r in enumerate(ranks, start=1)]
    return precision, [max(precision[i:]) for i in range(len(precision))]


def test_iprec_rounding_differs_in_trec_eval_10():
    # R = 9, x = 0.6: 9.0.8 uses (long)(5.4 + 0.9) = 6 relevant docs, 10.0 lround(5.4) = 5
    qrels, run = NINE_RELEVANT
    _, ip = _interpolated(qrels, run)
    v9 = evaluate(qrels, run, "iprec_at_recall.0.6")["iprec_at_recall_0.60"][0]
    v10 = evaluate(qrels, run, "iprec_at_recall.0.6", compat=10)["iprec_at_recall_0.60"][0]
    assert (v9, v10) == (ip[5], ip[4]) == (6 / 7, 1.0)
    # 11pt_avg: levels 0.6, 0.7, 0.8, 0.9 round differently (6/5, 7/6, 8/7, 9/8)
    counts9 = [int(x / 10 * 9 + 0.9) for x in range(11)]
    counts10 = [math.floor(x / 10 * 9 + 0.5) for x in range(11)]
    assert counts9 != counts10
    for compat, counts in ((9, counts9), (10, counts10)):
        expected = 0.0
        for count in reversed(counts):
            expected += ip[count - 1] if count >= 1 else max(ip)
        got = evaluate(qrels, run, "11pt_avg", compat=compat)["11pt_avg"][0]
        assert got == expected / 11, compat


def test_iprec_zero_recall_and_unreachable_levels():
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 0}}
    run = {"q": {"d": 3.0, "a": 2.0, "x": 1.0}}  # one of three relevant docs, at rank 2
    values = evaluate(qrels, run, "iprec_at_recall")
    assert values["iprec_at_recall_0.00"] == [0.5]  # best precision anywhere
    assert values["iprec_at_recall_0.30"] == [0.5]  # (long)(0.9 + 0.9) = 1 relevant doc
    assert values["iprec_at_recall_0.40"] == [0.0]  # 2 relevant docs never reached
    assert values["iprec_at_recall_1.00"] == [0.0]


def test_11pt_avg_keeps_its_parameter_order():
    # trec_eval keeps 11pt_avg's parameters as typed; out of order they derail its walk:
    # levels are visited from the last given, and once one cannot be met any more all the
    # remaining ones get the best precision anywhere.
    qrels, run = NINE_RELEVANT
    precision, ip = _interpolated(qrels, run)
    m02, m08 = int(0.2 * 9 + 0.9), int(0.8 * 9 + 0.9)  # 2 and 8 relevant documents
    in_order = evaluate(qrels, run, "11pt_avg.0.2,0.8")["11pt_avg_0.2,0.8"]
    assert in_order == [(0.0 + ip[m08 - 1] + ip[m02 - 1]) / 2]
    # reversed: 0.2 is visited first (met), then 0.8 needs more than 2 → best anywhere
    reversed_order = evaluate(qrels, run, "11pt_avg.0.8,0.2")["11pt_avg_0.8,0.2"]
    assert reversed_order == [(0.0 + ip[m02 - 1] + max(precision)) / 2]
    assert reversed_order != in_order
    # a level above num_rel_ret first: skipped (adds nothing) while the walk has not started
    qrels_many = {"q": qrels["q"] | {f"u{i}": 1 for i in range(9)}}  # R = 18, 9 retrieved
    skipped = evaluate(qrels_many, run, "11pt_avg.0.2,0.9")["11pt_avg_0.2,0.9"]
    m = int(0.2 * 18 + 0.9)
    assert skipped == [ip[m - 1] / 2]


def test_empty_judged_ranking_gives_nan_interpolated_precision():
    # with -J a ranking can be empty; trec_eval then computes 0/0 (printed -nan) for the
    # recall levels that round to 0 relevant documents, and for 11pt_avg
    qrels = {"a": {"x": 1}, "b": {"y": 1, "z": 0}}
    run = {"a": {"x": 1.0}, "b": {"u": 1.0}}
    values = evaluate(qrels, run, "iprec_at_recall", judged_only=True)
    assert math.isnan(values["iprec_at_recall_0.00"][1])
    assert values["iprec_at_recall_0.10"][1] == 0.0  # (long)(0.1 + 0.9) = 1 > 0 retrieved
    assert math.isnan(evaluate(qrels, run, "11pt_avg", judged_only=True)["11pt_avg"][1])
    for spec, name in (("map", "map"), ("P.5", "P_5"), ("set_P", "set_P"),
                       ("set_F", "set_F"), ("bpref", "bpref"), ("Rprec", "Rprec"),
                       ("Rprec_mult.1", "Rprec_mult_1.00"), ("num_ret", "num_ret")):
        assert evaluate(qrels, run, spec, judged_only=True)[name][1] == 0.0, spec


def test_relstring():
    qrels = {"q": {"a": 0, "b": 1, "c": 12, "d": -1, "e": 2}}
    run = {"q": {"a": 9.0, "b": 8.0, "c": 7.0, "d": 6.0, "x": 5.0, "e": 4.0, "f": 3.0}}
    assert evaluate(qrels, run, "relstring") == {"relstring": ["01>.-2-"]}
    assert evaluate(qrels, run, "relstring.3") == {"relstring_3": ["01>"]}
    # trec_eval reads N with (long): 2.9 shows 2 documents, -4 none; refused here (guesses)
    for spec in ("relstring.2.9", "relstring.-4", "relstring.0", "relstring.3,4"):
        with pytest.raises(MeasureError, match="relstring"):
            parse_measure(spec)
    assert evaluate(qrels, run, "relstring", judged_only=True) == {"relstring": ["01>2"]}
    family = get_family("relstring")
    assert (family.value_type, family.aggregate, family.per_query) == ("str", "none", True)
    assert family.missing_value == ""


def test_utility_and_set_f_parameters_and_names():
    qrels = {"q": {"a": 1, "b": 1, "c": 0, "d": 1}}
    run = {"q": {"a": 3.0, "c": 2.0, "x": 1.0}}  # n = 3, r = 1, R = 3
    assert evaluate(qrels, run, "utility") == {"utility": [1 * 1 - 1 * 2]}
    assert evaluate(qrels, run, "utility.2,-1,-0.5,0.25", num_docs_in_coll=100) == {
        "utility_2,-1,-0.5,0.25": [2 * 1 - 1 * 2 - 0.5 * 2 + 0.25 * (100 + 1 - 3 - 3)]
    }
    precision, recall = 1 / 3, 1 / 3
    f1 = 2 * precision * recall / (precision + recall)
    assert evaluate(qrels, run, "set_F") == {"set_F": [f1]}
    assert evaluate(qrels, run, "set_F.0.5")["set_F_0.5"] == [
        1.5 * precision * recall / (0.5 * precision + recall)
    ]
    with pytest.raises(MeasureError):
        parse_measure("utility.1,2,3")


@pytest.mark.parametrize("spec", ["P.5,5", "recall.10,10", "iprec_at_recall.0.1,0.10",
                                  "Rprec_mult.1,1.0", "P.0", "success.-1", "set_F.x", "11pt_avg."])
def test_bad_parameters_are_errors(spec):
    # trec_eval: "duplicate cutoffs detected", "Negative cutoff detected", improper measure
    with pytest.raises(MeasureError):
        parse_measure(spec)


def test_level_below_one_is_refused_and_kernels_stay_literal():
    # trec_eval requires a positive level: -l 0 / -l -1 are refused where options enter
    qrels = {"q": {"a": 0, "b": 1}}
    run = {"q": {"z": 3.0, "a": 2.0, "b": 1.0}}
    for level in (0, -1):
        with pytest.raises(ParameterError, match=r"relevance level \(-l, relevance_level\)"):
            evaluate(qrels, run, "map", relevance_level=level)
    # the kernels still follow trec_eval literally on such a batch: a document outside the
    # qrels (degree -1) passes the ">= level" test of the ranked loops, but num_rel and
    # num_rel_ret count judged documents only
    jr = build_judged_rankings(*_inputs(qrels, run), RankingOptions()).with_level(-1)
    values = {}
    for spec in ("map", "P.5", "num_rel", "num_rel_ret", "set_P", "recip_rank"):
        for request in parse_measure(spec):
            values.update({name: list(v) for name, v in
                           get_family(request.family).compute(jr, request.params).items()})
    assert values["num_rel"] == [2] and values["num_rel_ret"] == [2]
    assert values["map"] == [(1 / 1 + 2 / 2 + 3 / 3) / 2]
    assert values["P_5"] == [3 / 5]
    assert values["set_P"] == [2 / 3]
    assert values["recip_rank"] == [1.0]


def test_infap_with_sampled_judgments():
    # pooled but unjudged documents (negative degrees) are skipped by infAP and bpref
    qrels = {"q": {"a": 1, "b": -1, "c": 0, "d": 1, "e": 1}}
    run = {"q": {"a": 5.0, "b": 4.0, "x": 3.0, "c": 2.0, "d": 1.0}}
    eps = 0.00001
    j = 4.0  # d at 0-based index 4: rel_so_far 2, nonrel 1, unjudged 1
    term = 1 / (j + 1) + (j / (j + 1)) * ((1 + 1 + 1) / j) * ((1 + eps) / (1 + 1 + 2 * eps))
    assert evaluate(qrels, run, "infAP")["infAP"] == [(1.0 + term) / 3]
    # bpref: a (no nonrel above) 1; d: 1 - min(1, 3)/min(1, 3) = 0
    assert evaluate(qrels, run, "bpref")["bpref"] == [1 / 3]


def test_gm_families_are_summary_only_geometric_means():
    for name in ("gm_map", "gm_bpref"):
        family = get_family(name)
        assert (family.aggregate, family.per_query, family.value_type) == ("gmean", False,
                                                                          "float")
    qrels = {"q": {"a": 1}, "r": {"b": 1}}
    run = {"q": {"x": 1.0}, "r": {"b": 1.0}}
    # per-topic values are the raw AP / bpref; the summary floors them at MIN_GEO_MEAN
    assert evaluate(qrels, run, "gm_map")["gm_map"] == [0.0, 1.0]
    assert evaluate(qrels, run, "gm_bpref")["gm_bpref"] == [0.0, 1.0]


def test_output_names_and_printing_kinds():
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0}}
    names = {}
    for family in FAMILIES:
        names[family] = list(evaluate(qrels, run, family))
    assert names["iprec_at_recall"] == [f"iprec_at_recall_{x / 10:.2f}" for x in range(11)]
    assert names["Rprec_mult"] == [f"Rprec_mult_{x / 10:.2f}" for x in range(2, 21, 2)]
    assert names["P"] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert names["success"] == ["success_1", "success_5", "success_10"]
    assert names["11pt_avg"] == ["11pt_avg"] and names["utility"] == ["utility"]
    ints = {f for f in REGISTRY if REGISTRY[f].value_type == "int"} & set(TREC_MEASURES)
    assert ints == {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
    assert get_family("utility").missing_value == 0.0
    assert get_family("num_ret").missing_value == 0


def test_table_order_and_nicknames_match_pytrec_eval():
    import pytrec_eval

    assert set(TREC_MEASURES) == pytrec_eval.supported_measures
    for nickname, members in NICKNAMES.items():
        assert set(members) == pytrec_eval.supported_nicknames[nickname], nickname
        assert list(members) == [m for m in TREC_MEASURES if m in members]
    # pytrec_eval evaluates measures in trec_eval's table order
    result = pytrec_eval.RelevanceEvaluator(
        {"q": {"a": 1}}, pytrec_eval.supported_measures).evaluate({"q": {"a": 1.0}})["q"]
    order: list[str] = []
    for name in result:
        family = max((f for f in TREC_MEASURES if name == f or name.startswith(f + "_")),
                     key=len)
        if family not in order:
            order.append(family)
    assert order == list(TREC_MEASURES)


def test_kernels_are_exact_on_large_batches():
    # running sums restart at every ranking: a long batch must not leak rounding between
    # rankings (a difference of global cumulative sums would)
    rng = np.random.default_rng(7)
    n_topics = 300
    qrels = {str(t): {f"d{i}": int(rng.integers(0, 3)) for i in range(40)} for t in range(n_topics)}
    run = {str(t): {f"d{i}": float(rng.integers(0, 6)) for i in range(int(rng.integers(1, 60)))}
           for t in range(n_topics)}
    assert compare(qrels, run, ["map", "bpref", "infAP", "map_cut.3,17", "11pt_avg"]) == []
    jr = build_judged_rankings(*_inputs(qrels, run), RankingOptions())
    whole = get_family("map").compute(jr)["map"]
    for t in (0, 137, n_topics - 1):
        single = {str(t): qrels[str(t)]}
        one = build_judged_rankings(*_inputs(single, {str(t): run[str(t)]}), RankingOptions())
        position = list(jr.topic_labels).index(str(t))
        assert get_family("map").compute(one)["map"][0] == whole[position]
    assert EvalContext().compat == 9


def _inputs(qrels, run):
    from irscale.io.memory import qrels_from_dict, run_from_dict

    return qrels_from_dict(qrels), [run_from_dict(run)]


@pytest.mark.parametrize("lengths", [[3, 0, 1, 7, 2, 16, 9, 0], [4, 4, 4], [0, 0], [1]])
def test_segment_scans_restart_at_every_ranking(lengths):
    from dataclasses import replace

    from irscale.core.segments import segment_scan
    from irscale.measures.trec._segments import running_sum

    rng = np.random.default_rng(len(lengths))
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0}}
    jr = build_judged_rankings(*_inputs(qrels, run), RankingOptions())
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    batch = replace(jr, rel=np.zeros(offsets[-1], dtype=np.int64), offsets=offsets,
                    rel_levels=np.zeros((len(lengths), 2), dtype=np.int64),
                    ranking_topic=np.zeros(len(lengths), dtype=np.int64),
                    ranking_run=np.zeros(len(lengths), dtype=np.int64))
    values = rng.random(offsets[-1]) / 3
    sums = running_sum(batch, values)
    maxima = segment_scan(values, offsets, np.maximum, -np.inf, reverse=True)
    totals = batch.segment_sum(values)
    for i, (start, end) in enumerate(itertools.pairwise(offsets)):
        acc = 0.0
        for j in range(start, end):
            acc += values[j]
            assert sums[j] == acc
            assert maxima[j] == values[j:end].max()
        assert totals[i] == acc
