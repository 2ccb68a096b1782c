"""The report's section planning the human labels, in headless Chromium (as
test_report_browser.py): its numbers are those ``irscale labels plan`` prints for the same
files, the totals too, a click on a header sorts the intervals planned, nothing but the
file is requested, and the page reads the same with JavaScript off."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from tests.report_data import write_collection
from tests.test_report_browser import _open, _run, browser  # noqa: F401  (the fixture)

#: The options of both commands (the report's spelt ``--plan-...``).
WIDTH, PAIRS = "0.25", "bm25:lm"


def _files(folder):
    """The judge's labels (the collection's qrels, less every topic's d29 and d28, which
    the runs retrieve unjudged), people's labels of every fourth pair (one in five of them
    one grade off the judge's), and the runs."""
    qrels, runs = write_collection(folder)
    lines = [line for line in qrels.read_text().splitlines()
             if line.split()[2] not in ("d28", "d29")]
    (folder / "judge").write_text("\n".join(lines) + "\n")
    pilot = []
    for i, line in enumerate(lines[::4]):
        topic, it, docno, rel = line.split()
        pilot.append(f"{topic} {it} {docno} {(int(rel) + 1) % 3 if i % 5 == 0 else rel}")
    (folder / "pilot").write_text("\n".join(pilot) + "\n")
    return str(folder / "judge"), str(folder / "pilot"), [str(r) for r in runs]


@pytest.fixture(scope="module")
def plan_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report_plan")
    judge, pilot, runs = _files(folder)
    page = folder / "report.html"
    _run(["report", judge, *runs, "-m", "P@10", "--no-robustness", "--plan-pilot", pilot,
          "--plan-width", WIDTH, "--plan-pairs", PAIRS, "-o", str(page)])
    planned = ["labels", "plan", judge, pilot, *runs, "-m", "P@10", "--width", WIDTH,
               "--pairs", PAIRS]
    estimates = pd.read_csv(io.StringIO(_run([*planned, "--format", "csv"])))
    totals = json.loads(_run([*planned, "--format", "json"]))
    return page, estimates, totals


def _rows(page, table: str) -> list[dict[str, str]]:
    header = page.locator(f"#{table} thead th").all_inner_texts()
    return [dict(zip(header, row.locator("td").all_inner_texts(), strict=True))
            for row in page.locator(f"#{table} tbody tr").all()]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_plan_is_that_of_labels_plan(browser, plan_report, javascript):  # noqa: F811
    page_path, estimates, totals = plan_report
    context, page, requests = _open(browser, page_path, javascript=javascript)
    try:
        rows = _rows(page, "plan-estimates")
        assert len(rows) == len(estimates) == 4
        assert (estimates["unjudged_width"] > 0).any()  # the part apart is shown
        for row, expected in zip(rows, estimates.itertuples(), strict=True):
            assert (row["measure"], row["system"], row["kind"]) == \
                (expected.measure, expected.system, expected.kind)
            assert int(row["labels"]) == expected.labels
            for column in ("automatic", "pilot_width", "sampling_width", "shift_low",
                           "shift_high", "unjudged_width", "total_width"):
                assert float(row[column]) == pytest.approx(getattr(expected, column),
                                                           abs=5e-5)
        (total,) = _rows(page, "plan-totals")
        assert (int(total["labels"]), int(total["more"]), int(total["pilot"]),
                int(total["pairs"]), total["design"]) == \
            (totals["labels"], totals["more"], totals["pilot"], totals["pairs"], "active")
        topics = _rows(page, "plan-topics")
        assert [row["topic"] for row in topics] == [t["topic"] for t in totals["topics"]]
        for row, expected in zip(topics, totals["topics"], strict=True):
            assert float(row["more"]) == pytest.approx(expected["more"], abs=5e-5)
        heading = page.locator("#labels-plan h2").inner_text()
        assert heading == "Human labels planned"
        assert requests == [page_path.as_uri()]
    finally:
        context.close()


def test_a_click_sorts_the_intervals_planned(browser, plan_report):  # noqa: F811
    page_path, _, _ = plan_report
    context, page, _ = _open(browser, page_path)
    try:
        header = page.locator("#plan-estimates thead th").all_inner_texts()
        column = header.index("sampling_width") + 1
        page.click(f"#plan-estimates thead th:nth-child({column})")
        values = [float(row["sampling_width"]) for row in _rows(page, "plan-estimates")]
        assert values == sorted(values) and len(set(values)) > 1
        page.click('#contents a[href="#labels-plan"]')
        page.wait_for_function("location.hash === '#labels-plan'")
    finally:
        context.close()
