"""What a notebook user meets first: ``print(evaluation)`` shows the runs × measures table
with its numbers (as pandas, ranx and ir_measures print theirs), shortened as pandas
shortens large frames, under one line saying what it is; the comparison with a baseline
and the pairwise tests print their rows the same way; the statistics that take several
measures take one as the tests of one measure do (``measure="AP"``).

Oracles: pytrec_eval (trec_eval 9.0.8's code) for the means printed, scipy's paired t-test
and statsmodels' Holm adjustment for the p-values printed, pandas' own display options for
the shortening, the functions' signatures for the keywords."""

from __future__ import annotations

import inspect
import io

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import irscale
from irscale import stats

from .oracle_imports import lazy_import, lazy_importorskip

sps = lazy_import("scipy.stats")

pytrec_eval = lazy_importorskip("pytrec_eval")

#: pytrec_eval's name of each measure evaluated.
MEASURES = {"map": "map", "P@5": "P_5", "ndcg_cut_10": "ndcg_cut_10"}
WIDE = {"display.max_columns": None, "display.width": 10_000}


def collection(n_runs: int = 3, topics: int = 20, seed: int = 5):
    rng = np.random.default_rng(seed)
    qrels = {f"q{t}": {f"d{d}": int(rng.choice([0, 1, 2]))
                       for d in rng.choice(30, size=10, replace=False)} for t in range(topics)}
    runs = {f"r{k}": {f"q{t}": {f"d{d}": float(rng.random()) for d in
                                rng.choice(30, size=15, replace=False)}
                      for t in range(topics)} for k in range(n_runs)}
    return qrels, runs


def table(text: str, skip: int = 1) -> pd.DataFrame:
    """The table pandas printed below ``skip`` caption lines, read back."""
    return pd.read_csv(io.StringIO("\n".join(text.splitlines()[skip:])), sep=r"\s+")


def per_topic(qrels, run, measure: str) -> dict[str, float]:
    values = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    return {topic: scores[measure] for topic, scores in values.items()}


# --------------------------------------------------------------------------- printing
def test_print_evaluation_shows_the_means_of_pytrec_eval():
    qrels, runs = collection()
    evaluation = irscale.evaluate(qrels, runs, list(MEASURES))
    with pd.option_context(*[x for item in WIDE.items() for x in item]):
        text = str(evaluation)
    assert text == repr(evaluation)
    caption = text.splitlines()[0]
    assert caption.startswith("Evaluation: 3 runs, 20 topics, 3 measures")
    assert text.splitlines()[2].split() == ["run"]  # the index's name, as pandas prints it
    printed = table(text).drop(index=0).set_index("measure")  # (the index-name line)
    assert list(printed.index) == list(runs)
    assert sorted(printed.columns) == sorted(MEASURES)
    for run_name, run in runs.items():
        for label, name in MEASURES.items():
            mean = np.mean(list(per_topic(qrels, run, name).values()))
            assert float(printed.loc[run_name, label]) == pytest.approx(mean, abs=5e-7)


def test_a_long_evaluation_is_shortened_as_pandas_shortens_a_frame():
    qrels, runs = collection(n_runs=70, topics=4)
    evaluation = irscale.evaluate(qrels, runs, ["map"])
    with pd.option_context("display.max_rows", 60, "display.min_rows", 10):
        lines = str(evaluation).splitlines()
    shown = [line.split()[0] for line in lines[3:] if line.split()]
    # the first and last 5 runs, pandas' ".." row between, and its "[rows x columns]"
    assert shown[:5] == [f"r{k}" for k in range(5)]
    assert set(shown[5]) == {"."}
    assert shown[6:11] == [f"r{k}" for k in range(65, 70)]
    assert lines[-1] == "[70 rows x 1 columns]"
    with pd.option_context("display.max_rows", 100):
        lines = str(evaluation).splitlines()
    assert [line.split()[0] for line in lines[3:]] == [f"r{k}" for k in range(70)]


def test_print_comparison_and_pairwise_tests_show_scipy_p_values():
    qrels, runs = collection(n_runs=4)
    evaluation = irscale.evaluate(qrels, runs, ["map"])
    topics = sorted(qrels)
    values = {name: per_topic(qrels, run, "map") for name, run in runs.items()}
    names = list(runs)
    pairs = [(names[i], names[j]) for i in range(4) for j in range(i + 1, 4)]
    raw = [sps.ttest_rel([values[a].get(t, 0.0) for t in topics],
                         [values[b].get(t, 0.0) for t in topics]).pvalue for a, b in pairs]
    holm = multipletests(raw, method="holm")[1]
    with pd.option_context(*[x for item in WIDE.items() for x in item]):
        pairwise = str(stats.pairwise_tests(evaluation.to_matrix(), measure="map"))
        against = str(evaluation.compare("r0", measure="map"))
    assert pairwise.splitlines()[0].startswith("PairwiseComparisons: pairwise paired t-test")
    rows = table(pairwise)
    assert list(zip(rows["a"], rows["b"], strict=True)) == pairs
    assert rows["p"].tolist() == pytest.approx(list(holm), rel=1e-5)
    assert rows["p_raw"].tolist() == pytest.approx(raw, rel=1e-5)
    assert against.splitlines()[0].startswith("BaselineComparison: 3 runs against r0")
    rows = table(against)
    assert rows["run"].tolist() == names[1:]
    base = [sps.ttest_rel([values[r].get(t, 0.0) for t in topics],
                          [values["r0"].get(t, 0.0) for t in topics]).pvalue
            for r in names[1:]]
    assert rows["p"].tolist() == pytest.approx(base, rel=1e-5)
    assert rows["p_adjusted"].tolist() == pytest.approx(
        list(multipletests(base, method="holm")[1]), rel=1e-5)


def test_every_printed_table_result_keeps_its_table_repr():
    """A dataclass generates a ``repr`` that would hide the table: every result printed
    with its table is declared without one."""
    import importlib

    from irscale.core.notebook import TableRepr

    for module in ("evaluation.bleu", "evaluation.many", "measures.zscored", "stats.baseline"):
        importlib.import_module(f"irscale.{module}")  # the modules of the subclasses
    found, todo = [], [TableRepr]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    names = {cls.__name__ for cls in found}
    assert {"Evaluation", "ManyEvaluation", "ZScoredEvaluation", "CorpusScores",
            "BaselineComparison", "PairwiseComparisons"} <= names
    for cls in found:
        assert cls.__repr__ is TableRepr.__repr__, cls.__qualname__


# --------------------------------------------------------------------------- keywords
def _measure_keywords() -> dict[str, list[str]]:
    """The measure-selecting keywords of every public function of irscale.stats."""
    found = {}
    for name in stats.__all__:
        value = getattr(stats, name)
        if inspect.isfunction(value):
            taken = [p for p in inspect.signature(value).parameters if p.startswith("measure")]
            if taken:
                found[name] = taken
    return found


def test_every_statistic_takes_measure_and_those_of_several_take_measures():
    keywords = _measure_keywords()
    assert len(keywords) > 20
    for name, taken in keywords.items():
        if name == "evaluate_seeds":  # an evaluation: irscale.evaluate's measures=
            assert taken == ["measures"]
            continue
        assert "measure" in taken, name
    several = sorted(name for name, taken in keywords.items() if "measures" in taken)
    assert several == ["baseline_comparison", "evaluate_seeds", "pairwise_tests"]


def test_one_measure_by_either_keyword_is_the_family_of_that_measure():
    qrels, runs = collection()
    matrix = irscale.evaluate(qrels, runs, list(MEASURES)).to_matrix()
    frames = [stats.pairwise_tests(matrix, **keywords).to_frame()
              for keywords in ({"measure": "P@5"}, {"measures": "P@5"},
                               {"measures": ["P@5"]})]
    topics = sorted(qrels)
    names = list(runs)
    values = {n: per_topic(qrels, r, "P_5") for n, r in runs.items()}
    raw = [sps.ttest_rel([values[a].get(t, 0.0) for t in topics],
                         [values[b].get(t, 0.0) for t in topics]).pvalue
           for i, a in enumerate(names) for b in names[i + 1:]]
    for frame in frames:
        assert (frame["measure"] == "P@5").all() and len(frame) == 3
        assert frame["p_raw"].tolist() == pytest.approx(raw, rel=1e-12)

