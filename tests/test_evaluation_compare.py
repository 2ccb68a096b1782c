"""``Evaluation.compare(baseline=...)``: every run against a baseline, as PyTerrier's
``baseline=`` gives it, and the same wins/ties/losses in ``irscale compare --baseline``.

Oracles: scipy.stats.ttest_rel (p, CI) on the evaluation's per-topic values, statsmodels'
Holm adjustment over the whole family, wins/ties/losses counted topic by topic in plain
Python, and irscale.stats.pairwise_tests called directly (the one implementation)."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import irscale
from irscale.core import ScoreMatrix
from irscale.errors import InputError, MeasureError, ParameterError
from irscale.stats import pairwise_tests
from irscale.stats.baseline import baseline_comparison
from irscale.stats.risk import risk_table

from .docs_examples import check_python_examples
from .oracle_imports import lazy_import
from .test_cli_eval import cli

stats = lazy_import("scipy.stats")

MEASURES = ["map", "P@5", "ndcg_cut_10"]
RUNS = ("bm25", "ql", "dense", "rerank")


def collection(seed: int = 3, topics: int = 25, docs: int = 40):
    """Qrels and four runs as dicts; ``rerank`` is ``bm25`` with some topics changed, so
    that it ties with the baseline on many topics."""
    rng = np.random.default_rng(seed)
    qrels = {f"q{t}": {f"d{d}": int(rng.choice([0, 0, 1, 2])) for d in
                       rng.choice(docs, size=15, replace=False)} for t in range(topics)}
    runs = {name: {f"q{t}": {f"d{d}": float(rng.random()) for d in
                             rng.choice(docs, size=20, replace=False)}
                   for t in range(topics)} for name in RUNS[:3]}
    runs["rerank"] = {t: dict(r) for t, r in runs["bm25"].items()}
    for t in range(0, topics, 3):
        runs["rerank"][f"q{t}"] = runs["dense"][f"q{t}"]
    return qrels, runs


@pytest.fixture(scope="module")
def evaluation():
    qrels, runs = collection()
    return irscale.evaluate(qrels, runs, MEASURES)


def per_topic(evaluation, measure: str, run: str) -> dict[str, float]:
    frame = evaluation.per_topic()
    rows = frame[(frame["measure"] == measure) & (frame["run"] == run)]
    return dict(zip(rows["topic"], rows["value"], strict=True))


def test_t_test_against_scipy_holm_and_hand_counts(evaluation):
    table = evaluation.compare(baseline="bm25", test="t", correction="holm").to_frame()
    assert list(table.columns) == [
        "measure", "run", "baseline", "baseline_mean", "run_mean", "delta", "ci_low",
        "ci_high", "p", "p_adjusted", "significant", "wins", "ties", "losses"]
    assert list(zip(table["measure"], table["run"], strict=True)) == [
        (m, r) for m in evaluation.measures for r in ("ql", "dense", "rerank")]
    assert (table["baseline"] == "bm25").all()
    means = evaluation.mean()
    for row in table.itertuples():
        base, other = per_topic(evaluation, row.measure, "bm25"), \
            per_topic(evaluation, row.measure, row.run)
        topics = sorted(base)
        b = np.array([base[t] for t in topics])
        r = np.array([other[t] for t in topics])
        reference = stats.ttest_rel(r, b)
        ci = reference.confidence_interval(0.95)
        assert row.p == pytest.approx(reference.pvalue, rel=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert row.baseline_mean == pytest.approx(means.loc["bm25", row.measure], rel=1e-14)
        assert row.run_mean == pytest.approx(means.loc[row.run, row.measure], rel=1e-14)
        assert row.delta == pytest.approx(r.mean() - b.mean(), abs=1e-15)
        wins = ties = losses = 0
        for t in topics:  # the values of tied topics are computed identically: exact ties
            if other[t] > base[t]:
                wins += 1
            elif other[t] < base[t]:
                losses += 1
            else:
                ties += 1
        assert (row.wins, row.ties, row.losses) == (wins, ties, losses)
    # Holm over the whole family: 3 runs x 3 measures
    assert table["p_adjusted"].tolist() == pytest.approx(
        multipletests(table["p"], method="holm")[1].tolist(), rel=1e-12)
    assert (table["significant"] == (table["p_adjusted"] <= 0.05)).all()
    rerank = table[table["run"] == "rerank"]
    assert (rerank["ties"] >= 25 - 9).all() and (rerank["ties"] < 25).all()


def test_several_baselines_one_family_each_pair_once(evaluation):
    """``baseline=["bm25", "dense"]``: every run against bm25, then every run but bm25
    against dense; p from scipy's paired t-test, Holm over the 2 x (3 + 2) comparisons by
    statsmodels; the CLI's --baseline bm25,dense prints the same rows."""
    table = evaluation.compare(["bm25", "dense"], test="t", correction="holm",
                               measures=["map", "P@5"]).to_frame()
    expected = [(m, r, b) for m in ("map", "P@5")
                for b, runs in (("bm25", ("ql", "dense", "rerank")), ("dense", ("ql", "rerank")))
                for r in runs]
    assert list(zip(table["measure"], table["run"], table["baseline"], strict=True)) == expected
    for row in table.itertuples():
        base, other = per_topic(evaluation, row.measure, row.baseline), \
            per_topic(evaluation, row.measure, row.run)
        topics = sorted(base)
        reference = stats.ttest_rel([other[t] for t in topics], [base[t] for t in topics])
        assert row.p == pytest.approx(reference.pvalue, rel=1e-12)
    assert table["p_adjusted"].tolist() == pytest.approx(
        multipletests(table["p"], method="holm")[1].tolist(), rel=1e-12)
    with pytest.raises(ParameterError, match="twice"):
        evaluation.compare(["bm25", "bm25"])
    with pytest.raises(ParameterError, match="'nosuch' names no run"):
        evaluation.compare(["bm25", "nosuch"])


@pytest.mark.parametrize("test", ["t", "sign", "wilcoxon", "randomization"])
def test_equals_pairwise_tests(evaluation, test):
    options = {"samples": 499, "rng": 7} if test == "randomization" else {}
    table = evaluation.compare("ql", test, correction="bonferroni", alpha=0.1,
                               measures=MEASURES, **options).to_frame()
    direct = pairwise_tests(evaluation.to_matrix(measures=MEASURES), test,
                            correction="bonferroni", alpha=0.1, measures=MEASURES,
                            baseline="ql", **options).to_frame()
    assert table["run"].tolist() == direct["a"].tolist()
    for mine, theirs in [("baseline_mean", "mean_b"), ("run_mean", "mean_a"),
                         ("delta", "diff"), ("ci_low", "ci_low"), ("ci_high", "ci_high"),
                         ("p", "p_raw"), ("p_adjusted", "p"), ("significant", "significant"),
                         ("wins", "wins"), ("ties", "ties"), ("losses", "losses")]:
        assert table[mine].tolist() == direct[theirs].tolist(), mine


def test_no_correction_and_measures(evaluation):
    table = evaluation.compare("bm25", correction=None, measures=["P@5"]).to_frame()
    assert table["measure"].tolist() == ["P@5"] * 3
    assert table["p_adjusted"].tolist() == table["p"].tolist()


def test_counts_are_not_compared_by_default():
    qrels, runs = collection(topics=6)
    ev = irscale.evaluate(qrels, runs, ["map", "num_ret", "num_rel_ret"])
    assert ev.compare("bm25").to_frame()["measure"].unique().tolist() == ["map"]
    assert ev.compare("bm25", measures=["num_rel_ret"]).to_frame()["measure"].unique() \
        .tolist() == ["num_rel_ret"]


def test_ties_within_floating_point_noise():
    """0.3 - 0.1 and 0.2 differ in the last bit: a tie, not a win (the tie tolerance of
    risk-sensitive evaluation's wins/losses)."""
    matrix = ScoreMatrix.from_array(np.array([[0.2, 0.3 - 0.1], [0.5, 0.25], [0.1, 0.7]]),
                                    systems=["b", "r"])
    row = baseline_comparison(matrix, "b").to_frame().iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (1, 1, 1)
    risk = risk_table(matrix, "b")
    assert (risk["wins"][0], risk["ties"][0], risk["losses"][0]) == (1, 1, 1)


def test_cli_compare_baseline_prints_the_same_counts(tmp_path, evaluation):
    qrels, runs = collection()
    (tmp_path / "qrels").write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in qrels.items()
                                            for d, r in docs.items()))
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} 0 {s!r} {name}\n" for t, docs in run.items()
                                for d, s in docs.items()))
        paths.append(str(path))
    argv = ["compare", str(tmp_path / "qrels"), *paths, "-m", "map", "-m", "P@5", "-m",
            "ndcg_cut_10", "--test", "t", "--baseline", "bm25"]
    status, out, err = cli([*argv, "--format", "json"])
    assert status == 0, err
    pairs = pd.DataFrame(json.loads(out)["pairs"])
    table = evaluation.compare("bm25").to_frame()
    assert pairs["a"].tolist() == table["run"].tolist()
    for column in ("wins", "ties", "losses"):
        assert pairs[column].tolist() == table[column].tolist()
    assert pairs["p_adjusted"].tolist() == pytest.approx(table["p_adjusted"].tolist(),
                                                         rel=1e-12)
    status, text, err = cli(argv)
    assert status == 0, err
    header = next(line for line in text.splitlines() if line.startswith("measure")).split()
    assert header[header.index("wins"):header.index("wins") + 3] == ["wins", "ties", "losses"]


# ----------------------------------------------------------------------------- errors
def test_baseline_not_a_run(evaluation):
    with pytest.raises(ParameterError, match=r"baseline .bm2. names no run: give a run's name, "
                       r"its run id or its file \(path, file name or stem\); runs: 'bm25', "
                       "'ql'"):
        evaluation.compare("bm2")


@pytest.mark.parametrize("baseline, message", [
    (1, r"expected str \| Sequence\[str\], got 1 \(int\)"),
    ([1], r"expected str \| Sequence\[str\], got a list of 1 values: \[1\]"),
    ([], "got an empty list"),
    (("bm25", 2), r"expected str \| Sequence\[str\], got a tuple of 2 values")])
def test_baseline_not_a_name(evaluation, baseline, message):
    """Refused on entry by the declared type (``baseline: str | Sequence[str] | None``)."""
    with pytest.raises(ParameterError, match=rf"^baseline: {message}"):
        evaluation.compare(baseline)


def test_baseline_none(evaluation):
    """None, which the declared type of ``baseline`` does not admit, is refused on entry."""
    with pytest.raises(ParameterError, match=r"^baseline: expected .*, got None$"):
        evaluation.compare(None)


def test_one_run_only():
    qrels, runs = collection(topics=4)
    ev = irscale.evaluate(qrels, {"bm25": runs["bm25"]}, ["map"])
    with pytest.raises(ParameterError, match="at least two runs; there is only 'bm25'"):
        ev.compare("bm25")


def test_bad_options(evaluation):
    with pytest.raises(ParameterError, match="nosuch"):
        evaluation.compare("bm25", test="nosuch")
    with pytest.raises(ParameterError, match="zz"):
        evaluation.compare("bm25", correction="zz")
    with pytest.raises(MeasureError, match="P@20 not evaluated"):
        evaluation.compare("bm25", measures=["P@20"])


def test_runs_on_different_topics():
    qrels, runs = collection(topics=5)
    del runs["ql"]["q2"]
    ev = irscale.evaluate(qrels, runs, ["map"])
    with pytest.raises(InputError, match=r"missing .* topic .q2., system .ql."):
        ev.compare("bm25")


def test_docs_example():
    check_python_examples("evaluation.md", "Against a baseline: `Evaluation.compare`")


def test_one_compare_for_every_result_with_summaries():
    """``evaluate``'s and ``evaluate_many``'s results compare by one method, on their
    score matrices (``test_eval_many.py`` checks the two give the same table)."""
    from irscale.evaluation.many import ManyEvaluation
    from irscale.measures.results import Evaluation

    for result in (ManyEvaluation, Evaluation):  # (by name: a test may re-import modules,
        method = inspect.unwrap(result.compare)  # and the API edge wraps methods in place)
        assert (method.__module__, method.__qualname__) == (
            "irscale.measures.results", "RunSummaries.compare"), result
