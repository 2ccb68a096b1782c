"""The report's section on automatic judgments, in headless Chromium (as
test_report_browser.py): its corrected means are those ``irscale labels auto`` prints for
the same files, a click on a header sorts them, and every pair's conclusion is the one its
intervals (from ``irscale labels auto --pairs``) support."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from tests.report_data import write_collection
from tests.test_report_browser import _open, _run, browser  # noqa: F401  (the fixture)


def _files(folder):
    qrels, runs = write_collection(folder)
    lines = qrels.read_text().splitlines()
    # automatic labels: every fifth non-relevant document called relevant
    auto = [line[:-1] + "1" if line.endswith(" 0") and i % 5 == 0 else line
            for i, line in enumerate(lines)]
    (folder / "auto").write_text("\n".join(auto) + "\n")
    human = folder / "human"  # the human judgments of 4 of the 8 topics
    human.write_text("\n".join(line for line in lines
                               if line.split()[0] in ("t1", "t3", "t4", "t7")) + "\n")
    return str(folder / "auto"), str(human), [str(r) for r in runs]


@pytest.fixture(scope="module")
def automatic_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report_automatic")
    auto, human, runs = _files(folder)
    page = folder / "report.html"
    _run(["report", human, *runs, "--automatic", auto, "-m", "map", "-m", "P.10",
          "--no-robustness", "-o", str(page)])
    printed = _run(["labels", "auto", auto, human, *runs, "-m", "map", "-m", "P.10",
                    "--pairs", "--format", "csv"])
    return page, pd.read_csv(io.StringIO(printed))


def _rows(page, table: str) -> list[dict[str, str]]:
    header = page.locator(f"#{table} thead th").all_inner_texts()
    return [dict(zip(header, row.locator("td").all_inner_texts(), strict=True))
            for row in page.locator(f"#{table} tbody tr").all()]


def test_corrected_means_are_those_of_labels_auto(browser, automatic_report):  # noqa: F811
    page_path, printed = automatic_report
    context, page, requests = _open(browser, page_path)
    try:
        rows = _rows(page, "automatic-means")
        means = printed[printed["kind"] == "mean"]
        assert len(rows) == len(means) == 6
        for row, expected in zip(rows, means.itertuples(), strict=True):
            assert (row["measure"], row["system"]) == (expected.measure, expected.system)
            for column in ("automatic", "human", "ppi", "ppi_low", "ppi_high"):
                assert float(row[column]) == pytest.approx(getattr(expected, column),
                                                           abs=5e-5)
        assert requests == [page_path.as_uri()]
    finally:
        context.close()


def test_a_click_sorts_the_corrected_means(browser, automatic_report):  # noqa: F811
    page_path, _ = automatic_report
    context, page, _ = _open(browser, page_path)
    try:
        header = page.locator("#automatic-means thead th").all_inner_texts()
        column = header.index("ppi") + 1
        page.click(f"#automatic-means thead th:nth-child({column})")
        values = [float(row["ppi"]) for row in _rows(page, "automatic-means")]
        assert values == sorted(values) and len(set(values)) > 1
    finally:
        context.close()


def test_conclusions_follow_the_intervals(browser, automatic_report):  # noqa: F811
    page_path, printed = automatic_report
    context, page, _ = _open(browser, page_path)
    try:
        rows = _rows(page, "automatic-conclusions")
        pairs = printed[printed["kind"] == "difference"]
        assert len(rows) == len(pairs) == 6
        for row, p in zip(rows, pairs.itertuples(), strict=True):
            a, b = p.system.split(" − ")

            def order(low, high, a=a, b=b):
                return f"{a} > {b}" if low > 0 else f"{a} < {b}" if high < 0 else "undecided"

            assert row["pair"] == p.system
            assert row["human"] == order(p.human_low, p.human_high)
            assert row["corrected"] == order(p.ppi_low, p.ppi_high)
            assert row["automatic"] == (f"{a} > {b}" if p.automatic > 0 else f"{a} < {b}")
            assert row["changed"] == ("yes" if row["human"] != row["corrected"] else "no")
    finally:
        context.close()
