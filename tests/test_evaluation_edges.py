"""Evaluation at its edges: options that cannot be meant are refused where they
enter, trec_eval 9.0.8's ``-c`` summary of ``num_rel``, and the sign of NaN summaries."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from irscale import evaluate
from irscale.core.options import RankingOptions
from irscale.errors import MeasureError, ParameterError
from irscale.io.table import Averaging
from irscale.measures.arrays import C_NAN, c_divide
from irscale.measures.base import EvalContext
from irscale.measures.names import parse_measure

from .test_cli_eval import cli

QRELS = {"t1": {"a": 2, "b": 1, "c": 0, "d": -1},
         "t2": {"e": 1, "f": 3, "g": 0},
         "t3": {"h": 1}}
RUN = {"t1": {"a": 2.0, "x": 1.0}}


# ====================================================================== options refused
@pytest.mark.parametrize(("option", "value", "flag"), [
    ("relevance_level", 0, "-l"), ("relevance_level", -1, "-l"),
    ("relevance_level", 1.5, "-l"), ("relevance_level", True, "-l"),
    ("relevance_level", 2**63, "-l"),
    ("max_docs", 0, "-M"), ("max_docs", -3, "-M"), ("max_docs", 2**63, "-M"),
    ("max_docs", 99999999999999999999, "-M"), ("max_docs", 2.0, "-M"),
    ("num_docs_in_coll", -1, "-N"), ("num_docs_in_coll", 2**63, "-N"),
])
def test_impossible_options_are_refused_before_anything_is_read(option, value, flag):
    # the files do not exist: the option is refused first
    with pytest.raises(ParameterError) as error:
        evaluate("/nonexistent/qrels", "/nonexistent/run", "map", **{option: value})
    message = str(error.value)
    assert f"({flag}, {option})" in message and "must be an integer" in message
    assert "\n" not in message


def test_extreme_valid_options_evaluate():
    base = evaluate(QRELS, RUN, ["map", "utility"])
    wide = evaluate(QRELS, RUN, ["map", "utility"], max_docs=2**63 - 1,
                    num_docs_in_coll=2**40, relevance_level=2**63 - 1)
    assert wide.values["map"].tolist() == [0.0]
    assert evaluate(QRELS, RUN, "map", max_docs=2**63 - 1).values["map"].tolist() == \
        base.values["map"].tolist()
    assert RankingOptions(relevance_level=np.int64(2)).relevance_level == 2
    assert EvalContext(num_docs_in_coll=np.int32(5)).num_docs_in_coll == 5


@pytest.mark.parametrize(("args", "words"), [
    (["-l0"], "relevance level (-l, relevance_level)"),
    (["-l", "-1"], "relevance level (-l, relevance_level)"),
    (["-M", "0"], "(-M, max_docs)"),
    (["-M", "99999999999999999999"], "(-M, max_docs)"),
    (["-N", "-1"], "(-N, num_docs_in_coll)"),
    (["-m", "P(rel=0)@5"], "rel must be an integer from 1"),
    (["-m", "NumRet(rel=-1)"], "rel must be an integer from 1"),
    (["-m", "nDCG(rel=2)"], "rel cannot apply to ndcg"),
    (["-m", "iprec_at_recall.1.5"], "each recall level must be a number in [0, 1]"),
])
def test_cli_refuses_them_in_one_line_with_status_2(tmp_path, args, words):
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 1.0 r\n")
    status, out, err = cli(["eval", *args, str(qrels), str(run)])
    assert status == 2 and out == ""
    assert err.startswith("irscale: ") and err.count("\n") == 1 and words in err, err


def test_scales_and_meta_functions_refuse_the_level_before_reading():
    from irscale.meta.loo import leave_one_out
    from irscale.scales.diagnostics import tau_table
    from irscale.scales.transform import transform

    with pytest.raises(ParameterError, match=r"\(-l, relevance_level\)"):
        transform("/nonexistent/qrels", ["/nonexistent/run"], ["P@5"], 5, relevance_level=0)
    with pytest.raises(ParameterError, match=r"\(-l, relevance_level\)"):
        tau_table("/nonexistent/qrels", ["/nonexistent/run"], ["P@5"], [5], relevance_level=-2)
    with pytest.raises(ParameterError, match=r"\(-l, relevance_level\)"):
        leave_one_out("/nonexistent/qrels", ["/nonexistent/run"], "map", relevance_level=0)


def test_rel_in_names_follows_the_same_rule():
    for name in ("P(rel=0)@5", "NumRet(rel=-1)", "AP(rel=x)", f"AP(rel={2**63})"):
        with pytest.raises(MeasureError, match="rel must be an integer from 1"):
            parse_measure(name)
    assert parse_measure(f"AP(rel={2**63 - 1})")[0].relevance_level == 2**63 - 1


# ====================================================================== -c and num_rel
# Source: trec_eval 9.0.8 m_num_rel.c, te_calc_avg_num_rel: with -c the summary value is
# replaced by the number of qrels lines with rel > 0 over *every* qrels topic
# (``if (trec_qrels->text_qrels[j].rel > 0) num_rel++``), whatever -l; num_q is the
# number of qrels topics (m_num_q.c); num_ret / num_rel_ret / num_nonrel_judged_ret use
# te_calc_avg_meas_empty (sums over the evaluated topics); means divide by the number of
# qrels topics (meas_avg.c te_calc_avg_meas_s); trec_eval.c evaluates only the topics of
# the run (the loop runs over the results), so nothing else changes.
def _summary(ev) -> dict[str, object]:
    return {column.label: value for column, value in ev.summary(0)}


def test_complete_num_rel_counts_every_qrels_topic_as_trec_eval_9():
    names = ["num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map"]
    plain = _summary(evaluate(QRELS, RUN, names))
    assert plain == {"num_q": 1, "num_ret": 2, "num_rel": 2, "num_rel_ret": 1,
                     "num_nonrel_judged_ret": 0, "map": 0.5}
    complete = _summary(evaluate(QRELS, RUN, names, complete=True))
    # rel > 0 lines: t1 a, b; t2 e, f; t3 h
    assert complete == {"num_q": 3, "num_ret": 2, "num_rel": 5, "num_rel_ret": 1,
                        "num_nonrel_judged_ret": 0, "map": 0.5 / 3}


def test_complete_num_rel_ignores_the_level_as_trec_eval_9_with_a_warning():
    with pytest.warns(UserWarning, match="as trec_eval 9.0.8 does whatever -l"):
        ev = evaluate(QRELS, RUN, ["num_rel", "NumRel", "NumRel(rel=2)"], complete=True,
                      relevance_level=2)
    assert ev.values["num_rel"].tolist() == [1]  # per topic: -l 2
    # the summary: 5 judgments > 0 (trec_eval), and those of degree >= 2 for a name that
    # sets its own level (t1 a, t2 f)
    assert _summary(ev) == {"num_rel": 5, "NumRel": 5, "NumRel(rel=2)": 2}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # -l 1: the two counts agree, no warning
        assert _summary(evaluate(QRELS, RUN, ["num_rel"], complete=True)) == {"num_rel": 5}


def test_complete_in_the_10_profile_evaluates_missing_topics():
    ev = evaluate(QRELS, RUN, ["num_q", "num_rel", "num_ret"], complete=True, compat=10)
    # 10.0: every qrels topic is evaluated (a bogus ranking for the missing ones)
    assert _summary(ev) == {"num_q": 3, "num_rel": 2 + 2 + 1, "num_ret": 2}


def test_complete_num_rel_in_trec_output(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in QRELS.items()
                             for d, r in docs.items()))
    run = tmp_path / "run"
    run.write_text("t1 Q0 a 1 2.0 r\nt1 Q0 x 2 1.0 r\n")
    _, out, _ = cli(["eval", "-c", "-m", "num_q", "-m", "num_rel", str(qrels), str(run)])
    assert out.splitlines() == ["num_q                 \tall\t3",
                                "num_rel               \tall\t5"]


# ====================================================================== NaN and its sign
def test_c_divide_and_the_engines_mean_keep_trec_evals_nan():
    assert math.isnan(C_NAN) and math.copysign(1.0, C_NAN) == -1.0
    out = c_divide(np.array([0.0, 1.0, 0.0]), np.array([0.0, 2.0, 5.0]))
    assert np.signbit(out[0]) and np.isnan(out[0]) and out[1:].tolist() == [0.5, 0.0]
    positive = float(np.copysign(np.nan, 1.0))
    mean = Averaging("trec_eval").mean
    # x86-64 addsd returns the NaN operand, the first one when both are NaN
    assert math.copysign(1.0, mean(np.array([1.0, C_NAN, positive]), 3)) == -1.0
    assert math.copysign(1.0, mean(np.array([positive, C_NAN]), 2)) == 1.0
    assert mean(np.array([0.1, 0.2, 0.3]), 1) == (0.1 + 0.2) + 0.3  # added in order
    assert mean(np.array([0.5]), 0) == 0.0  # no topic
    ndeval = Averaging("ndeval").mean  # C's 0.0/0 with no topic
    assert math.copysign(1.0, ndeval(np.array([]), 0)) == -1.0
    assert ndeval(np.array([-2.0]), 0) == -math.inf


def test_judged_only_nan_per_topic_matches_pytrec_eval_sign_included():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # topic "2" has no judged retrieved document: with -J its ranking is empty. It is not
    # the first topic evaluated (trec_eval 9.0.8 fails on that one, see the docs).
    qrels = {"1": {"a": 1, "b": 0}, "2": {"c": 1, "d": 2}}
    run = {"1": {"a": 3.0, "x": 2.0}, "2": {"y": 3.0, "z": 1.0}}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures, 1,
                                            True).evaluate(run)["2"]
    from irscale.measures.trec_table import TREC_MEASURES

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from 0/0
        ev = evaluate(qrels, run, list(TREC_MEASURES), judged_only=True)
    nan_seen = set()
    for label, array in ev.values.items():
        if label not in theirs or len(array) != 2 or array.dtype == object:
            continue
        ours = float(array[1])
        if math.isnan(theirs[label]):
            nan_seen.add(label)
            assert math.isnan(ours) and np.signbit(ours) == np.signbit(theirs[label]), label
        else:
            assert not math.isnan(ours), label
    assert {"iprec_at_recall_0.00", "11pt_avg"} <= nan_seen


def test_judged_only_nan_summary_prints_minus_nan(tmp_path):
    # trec_eval: accum = 0 + 1.0 + (-nan) = -nan (x86-64 keeps the NaN operand), then
    # -nan / 2 = -nan, printed "%6.4f" by glibc as "  -nan"
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 2\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 3 r\n1 Q0 x 2 2 r\n2 Q0 y 1 3 r\n2 Q0 z 2 1 r\n")
    status, out, err = cli(["eval", "-q", "-J", "-m", "iprec_at_recall.0", "-m", "11pt_avg",
                            "-m", "P.5", str(qrels), str(run)])
    assert status == 0, err
    assert out.splitlines() == [
        "iprec_at_recall_0.00  \t1\t1.0000",
        "P_5                   \t1\t0.2000",
        "11pt_avg              \t1\t1.0000",
        "iprec_at_recall_0.00  \t2\t  -nan",
        "P_5                   \t2\t0.0000",
        "11pt_avg              \t2\t  -nan",
        "iprec_at_recall_0.00  \tall\t  -nan",
        "P_5                   \tall\t0.1000",
        "11pt_avg              \tall\t  -nan",
    ]
    assert "RuntimeWarning" not in err


def test_values_beyond_a_double_follow_c_for_trec_eval_and_are_errors_otherwise():
    qrels = {"1": {"a": 1, "b": 1, "c": 2}}
    run = {"1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning either way
        ev = evaluate(qrels, run, ["utility.1e308,1e308,0,0", "Rndcg.1=1e308,2=1e308"],
                      compat=10)
        assert ev.values["utility_1e308,1e308,0,0"].tolist() == [math.inf]  # C prints inf
        rndcg = ev.values["Rndcg_1=1e308,2=1e308"][0]
        assert math.isnan(rndcg) and np.signbit(rndcg)  # inf/inf: -nan, as in C
        for name in ("nDCG(gain=1e308:1e308)", "Q(gain=1e308:1e308)", "gR(gain=1e308:1e308)"):
            with pytest.raises(MeasureError, match="beyond the range of a double"):
                evaluate(qrels, run, [name])


# ====================================================================== memory
def test_inputs_read_by_evaluate_are_freed_before_the_measures(tmp_path, monkeypatch):
    """The qrels that ``evaluate`` reads from a file and the runs handed over in a list no
    caller keeps (as the command line does) are no longer alive when the measures run: the
    measures' arrays reuse their memory."""
    import gc
    import weakref

    import irscale
    from irscale.evaluation import judged as evaluation

    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n")
    (tmp_path / "run").write_text("1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n2 Q0 c 1 1.0 r\n")
    inputs, alive = [], []
    read_qrels = evaluation.as_qrels

    def as_qrels(source):
        qrels = read_qrels(source)
        inputs.append(weakref.ref(qrels))
        return qrels

    def runs():
        run = irscale.read_run(tmp_path / "run")
        inputs.append(weakref.ref(run))
        return [run]

    compute = evaluation.compute_shared

    def measures(*args, **kwargs):
        gc.collect()
        alive.extend(ref() is not None for ref in inputs)
        return compute(*args, **kwargs)

    monkeypatch.setattr(evaluation, "as_qrels", as_qrels)
    monkeypatch.setattr(evaluation, "compute_shared", measures)
    # the module's function, as the command line calls it: the public edge
    # (irscale.core.edge) keeps its arguments for the message of a failing call
    from irscale.evaluation.api import evaluate

    result = evaluate(str(tmp_path / "qrels"), runs(), ["map"])
    assert alive == [False, False]
    assert result.mean()["map"].tolist() == [1.0]
