"""The report's section on the runs' generated answers in headless Chromium (as
test_report_browser.py): its means and intervals are those of the :mod:`irscale.text` API
on the same files, its comparison's p-values theirs, a click on a header sorts the scores,
the contents lead to it and no request leaves the file."""

from __future__ import annotations

import pandas as pd
import pytest

from irscale.text import evaluate_assignments, evaluate_citations
from tests.report_answers_data import write_answers
from tests.report_data import write_collection
from tests.test_report_automatic_browser import _rows
from tests.test_report_browser import _open, _run, browser  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def answers_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report_answers")
    qrels, runs = write_collection(folder)
    nuggets, cites = (list(map(str, files)) for files in write_answers(folder))
    page = folder / "report.html"
    _run(["report", str(qrels), *map(str, runs), "-m", "map", "--no-robustness",
          "--baseline", "bm25", "--assignments", *nuggets, "--citations", *cites,
          "-o", str(page)])
    evaluations = [evaluate_assignments(nuggets), evaluate_citations(cites)]
    intervals = pd.concat([e.intervals() for e in evaluations], ignore_index=True)
    compared = pd.concat([e.compare("bm25", correction=None).to_frame()
                          for e in evaluations], ignore_index=True)
    return page, intervals, compared


def test_the_scores_are_the_apis(browser, answers_report):  # noqa: F811
    page_path, intervals, _ = answers_report
    context, page, requests = _open(browser, page_path)
    try:
        rows = _rows(page, "answers-scores")
        assert len(rows) == len(intervals) == 33
        expected = intervals.set_index(["measure", "run"])
        for row in rows:
            api = expected.loc[(row["measure"], row["run"])]
            assert float(row["mean"]) == pytest.approx(api["mean"], abs=5e-5)
            assert float(row["CI low"]) == pytest.approx(api["ci_low"], abs=5e-5)
            assert float(row["CI high"]) == pytest.approx(api["ci_high"], abs=5e-5)
        assert page.locator('a[href="#answers"]').count() == 1
        assert requests == [page_path.as_uri()]
    finally:
        context.close()


def test_the_comparison_is_the_apis(browser, answers_report):  # noqa: F811
    page_path, _, compared = answers_report
    context, page, _ = _open(browser, page_path)
    try:
        rows = _rows(page, "answers-baseline")
        assert len(rows) == len(compared) == 22
        expected = compared.set_index(["measure", "run"])
        for row in rows:
            api = expected.loc[(row["measure"], row["run"])]
            assert float(row["Δ"]) == pytest.approx(api["delta"], abs=5e-5)
            assert float(row["p"]) == pytest.approx(api["p"], abs=5e-5)
            assert float(row["p adjusted"]) >= float(row["p"]) - 5e-5
    finally:
        context.close()


def test_a_click_sorts_the_scores(browser, answers_report):  # noqa: F811
    page_path, _, _ = answers_report
    context, page, _ = _open(browser, page_path)
    try:
        header = page.locator("#answers-scores thead th").all_inner_texts()
        page.click(f"#answers-scores thead th:nth-child({header.index('mean') + 1})")
        values = [float(row["mean"]) for row in _rows(page, "answers-scores")]
        assert values == sorted(values) and len(set(values)) > 1
    finally:
        context.close()
