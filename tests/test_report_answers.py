"""The report's section on the runs' generated answers (:mod:`irscale.report.sections.answers`):
its numbers are those of the :mod:`irscale.text` API on the same files (the means and
intervals of :func:`irscale.text.evaluate_assignments` and
:func:`irscale.text.evaluate_citations`, the paired tests of their ``compare``, the p-values
adjusted as one family, checked against statsmodels; with a human sample, the
prediction-powered estimates of their ``human_sample``), and ``irscale report`` writes them
in HTML, Markdown and LaTeX."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.report import build_report, format_tables, render_html
from irscale.text import evaluate_assignments, evaluate_citations
from tests.oracle_imports import lazy_import
from tests.report_answers_data import write_answers, write_samples
from tests.report_data import write_collection

multitest = lazy_import("statsmodels.stats.multitest")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("answers")
    qrels, runs = write_collection(folder)
    nuggets, cites = write_answers(folder)
    return folder, str(qrels), [str(r) for r in runs], [str(n) for n in nuggets], \
        [str(c) for c in cites]


@pytest.fixture(scope="module")
def report(files):
    _, qrels, runs, nuggets, cites = files
    return build_report(qrels, runs, ["map"], robustness=False, baseline="lm",
                        correction="holm", assignments=nuggets, citations=cites,
                        max_citations=1)


def _api(files) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The intervals and the comparisons with ``lm`` (no correction) of the API."""
    _, _, _, nuggets, cites = files
    evaluations = [evaluate_assignments(nuggets), evaluate_citations(cites, max_citations=1)]
    intervals = pd.concat([e.intervals() for e in evaluations], ignore_index=True)
    compared = pd.concat([e.compare("lm", correction=None).to_frame() for e in evaluations],
                         ignore_index=True)
    return intervals, compared


def test_the_scores_are_the_apis(files, report):
    intervals, _ = _api(files)
    scores = report.answers.scores
    assert len(scores) == 3 * 11
    assert list(scores["measure"].unique()) == [
        "A", "V", "W", "A_strict", "V_strict", "W_strict", "citation_recall",
        "citation_precision", "ais", "support_precision", "support_recall"]
    assert list(scores["run"][:3]) == ["bm25", "lm", "neural"]  # the report's order
    merged = scores.merge(intervals, on=["measure", "run"], suffixes=("", "_api"))
    assert len(merged) == len(scores)
    for column in ("mean", "ci_low", "ci_high"):
        np.testing.assert_allclose(merged[column], merged[f"{column}_api"], rtol=1e-12)
    assert report.answers.topics == {"assignments": 8, "citations": 8}


def test_the_comparison_is_the_apis_one_family(files, report):
    _, compared = _api(files)
    found = report.answers.comparison
    merged = found.merge(compared, on=["measure", "run"], suffixes=("", "_api"))
    assert len(merged) == len(found) == 2 * 11
    for column in ("delta", "ci_low", "ci_high", "p", "wins", "ties", "losses"):
        np.testing.assert_allclose(merged[column].astype(float),
                                   merged[f"{column}_api"].astype(float), rtol=1e-12)
    # Holm over the 22 comparisons together (statsmodels, the oracle)
    reject, adjusted, _, _ = multitest.multipletests(found["p"], alpha=0.05, method="holm")
    np.testing.assert_allclose(found["p_adjusted"], adjusted, rtol=1e-12)
    assert list(found["significant"]) == list(reject)


def test_the_tables_and_the_page_hold_the_numbers(report):
    """Every mean (4 decimals) in the Markdown and LaTeX tables and on the page, which
    lists the section in its contents."""
    markdown = format_tables(report, "markdown")
    latex = format_tables(report, "latex")
    page = render_html(report)
    assert '<section id="answers"><h2>Generated answers</h2>' in page
    assert '<a href="#answers">Generated answers</a>' in page
    assert 'id="answers-scores"' in page and 'id="answers-baseline"' in page
    assert "the first 1 citations of every sentence counted" in page
    for row in report.answers.scores.itertuples():
        shown = f"{row.mean:.4f}"
        assert f"| {row.measure} | {row.run} | {shown} |" in markdown
        assert f"{row.measure.replace('_', chr(92) + '_')} & {row.run} & {shown}" in latex
        assert f'data-value="{row.mean!r}"' in page
    for row in report.answers.comparison.itertuples():
        assert f"| {row.measure} | {row.run} | {row.delta:.4f} |" in markdown


def test_without_answers_the_report_has_no_section(files):
    _, qrels, runs, _, _ = files
    report = build_report(qrels, runs, ["map"], robustness=False)
    assert report.answers is None
    assert 'id="answers"' not in render_html(report)
    assert "Answers" not in format_tables(report, "markdown")


def test_the_measures_chosen_and_no_baseline(files):
    _, qrels, runs, nuggets, _ = files
    report = build_report(qrels, runs, ["map"], robustness=False, assignments=nuggets,
                          answer_measures=["W_strict", "A"], interval="bootstrap",
                          interval_samples=200, interval_rng=3)
    found = report.answers
    assert found.comparison is None and found.interval == "bootstrap"
    assert list(found.scores["measure"].unique()) == ["A", "W_strict"]
    expected = evaluate_assignments(nuggets, ["A", "W_strict"]).intervals(
        "bootstrap", samples=200, rng=3)
    merged = found.scores.merge(expected, on=["measure", "run"], suffixes=("", "_api"))
    np.testing.assert_allclose(merged["ci_low"], merged["ci_low_api"], rtol=1e-12)


@pytest.mark.parametrize("fmt", ["html", "markdown", "latex"])
def test_the_command_writes_them(files, report, fmt, capsys):
    """``irscale report --assignments --citations`` writes the section in every format,
    its files listed with the inputs of the reproducibility block."""
    folder, qrels, runs, nuggets, cites = files
    out = folder / f"report.{fmt}"
    assert main(["report", qrels, *runs, "-m", "map", "--no-robustness", "--baseline", "lm",
                 "--assignments", *nuggets, "--citations", *cites, "--max-citations", "1",
                 "--format", fmt, "-o", str(out), "--no-progress"]) == 0
    written = out.read_text()
    first = report.answers.scores.iloc[0]
    assert f"{first['mean']:.4f}" in written
    if fmt == "html":
        assert re.search(r'<section id="answers">', written)
        assert all(name.split("/")[-1] in written for name in [*nuggets, *cites])
    elif fmt == "markdown":
        assert "p adjusted (holm, over the answer measures)" in written
    else:
        assert written.count(r"\begin{tabular}") >= 4


# ------------------------------------------------------------------ with a human sample
#: The designs checked: two of the nugget assignments, two of the support judgments.
SAMPLED = [("assignments", "uniform"), ("assignments", "answers"), ("citations", "answers"),
           ("citations", "uniform")]


def _sample(files, source: str, design: str) -> str:
    """The human sample of ``source``'s files drawn as ``design`` says."""
    folder, _, _, nuggets, cites = files
    return str(write_samples(folder, nuggets if source == "assignments" else cites, design))


@pytest.mark.parametrize(("source", "design"), SAMPLED)
def test_the_corrected_scores_are_the_apis(files, source, design):
    """Every run's corrected score, interval, design and sample size are those of
    ``evaluate_assignments``/``evaluate_citations`` with ``human_sample`` (the same files,
    design and α; λ by PPI++), beside the model's own mean, which is the section's."""
    _, qrels, runs, nuggets, cites = files
    human = _sample(files, source, design)
    alpha = 0.1 if design == "answers" else 0.05
    report = build_report(qrels, runs, ["map"], robustness=False, alpha=alpha,
                          assignments=nuggets, citations=cites, max_citations=1,
                          **{f"{source}_sample": human, f"{source}_design": design})
    if source == "assignments":
        api = evaluate_assignments(nuggets, human_sample=human, design=design, alpha=alpha)
    else:
        api = evaluate_citations(cites, max_citations=1, human_sample=human, design=design,
                                 alpha=alpha)
    found = report.answers
    assert list(found.estimates) == [source] and found.estimates[source].design == design
    corrected = found.corrected
    assert len(corrected) == 3 * (6 if source == "assignments" else 5)
    assert list(corrected["run"][:3]) == ["bm25", "lm", "neural"]  # the report's order
    merged = corrected.merge(api.runs, on=["measure", "run"], suffixes=("", "_api"))
    assert len(merged) == len(corrected)
    for column in ("model", "ppi", "ppi_low", "ppi_high", "labelled", "units"):
        np.testing.assert_allclose(merged[column].astype(float),
                                   merged[f"{column}_api"].astype(float), rtol=1e-12)
    assert set(corrected["design"]) == {design}
    model = corrected.merge(found.scores, on=["measure", "run"])
    np.testing.assert_allclose(model["model"], model["mean"], rtol=1e-12)


def test_both_samples_and_the_measures_chosen(files):
    """Both file sets sampled, the measures chosen: the corrected rows are theirs, in the
    order of the scores."""
    _, qrels, runs, nuggets, cites = files
    report = build_report(
        qrels, runs, ["map"], robustness=False, assignments=nuggets, citations=cites,
        answer_measures=["W", "ais"], assignments_sample=_sample(files, "assignments",
                                                                  "uniform"),
        citations_sample=_sample(files, "citations", "answers"))
    found = report.answers
    assert list(found.estimates) == ["assignments", "citations"]
    assert list(found.corrected["measure"]) == ["W"] * 3 + ["ais"] * 3
    assert list(found.corrected["design"]) == ["uniform"] * 3 + ["answers"] * 3


def test_without_a_sample_nothing_is_corrected(report):
    assert report.answers.corrected is None and report.answers.estimates == {}
    assert "answers-corrected" not in render_html(report)
    assert "model's labels" not in format_tables(report, "markdown")


@pytest.mark.parametrize("fmt", ["html", "markdown", "latex"])
def test_the_command_writes_the_corrected_scores(files, fmt):
    """``irscale report --assignments-sample --citations-sample`` writes every corrected
    score, labelled apart from the model's, and says no paired test is made on them."""
    folder, qrels, runs, nuggets, cites = files
    human = {source: _sample(files, source, design) for source, design in
             (("assignments", "answers"), ("citations", "uniform"))}
    out = folder / f"sampled.{fmt}"
    assert main(["report", qrels, *runs, "-m", "map", "--no-robustness", "--baseline", "lm",
                 "--assignments", *nuggets, "--citations", *cites, "--max-citations", "1",
                 "--assignments-sample", human["assignments"], "--assignments-design",
                 "answers", "--citations-sample", human["citations"], "--citations-design",
                 "uniform", "--format", fmt, "-o", str(out), "--no-progress"]) == 0
    written = html.unescape(out.read_text()) if fmt == "html" else out.read_text()
    expected = build_report(qrels, runs, ["map"], robustness=False, baseline="lm",
                            assignments=nuggets, citations=cites, max_citations=1,
                            assignments_sample=human["assignments"],
                            assignments_design="answers",
                            citations_sample=human["citations"],
                            citations_design="uniform").answers.corrected
    assert "Answers corrected by the human sample" in written
    assert "(the model's labels)" in written and "no paired test against the baseline" in \
        written
    for row in expected.itertuples():
        shown = f"{row.ppi:.4f}"
        if fmt == "markdown":
            assert f"| {row.measure} | {row.run} | {row.model:.4f} | {shown} | " \
                f"{row.ppi_low:.4f} | {row.ppi_high:.4f} | {row.design} | {row.labelled} | " \
                f"{row.units} |" in written
        elif fmt == "latex":
            assert f"{row.run} & {row.model:.4f} & {shown}" in written
        else:
            assert f'data-value="{row.ppi!r}"' in written
    if fmt == "html":
        assert 'id="answers-corrected"' in written
        assert "No paired test against the baseline is made on the corrected estimates" in \
            written
        assert all(name.split("/")[-1] in written for name in human.values())
