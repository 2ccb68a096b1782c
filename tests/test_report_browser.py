"""The HTML report in a real browser: Debian's headless Chromium driven by Playwright.

The page is made once (a small collection, ``irscale report``) and opened as a file:
its table values must be those ``irscale eval`` prints, a click on a header sorts the
table, every figure has a size, no request leaves the file, the table of contents leads
to every section (judge noise among them), and the page reads the same with JavaScript
off. A screenshot is saved under benchmarks/results/ (git-ignored).
Skipped, with the reason, when Chromium is not installed (Playwright is a test extra: its
absence is a failure, not a skip).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.oracle_imports import lazy_import
from tests.report_data import write_collection

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run installs it)",
                allow_module_level=True)

sync_api = lazy_import("playwright.sync_api")


def _run(argv: list[str]) -> str:
    """``irscale ARGV`` in a fresh process (as a user runs it); its standard output."""
    done = subprocess.run([sys.executable, "-c", "import sys; from irscale.cli.main import "
                           "main; sys.exit(main())", *argv],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    qrels, runs = write_collection(folder)
    runs = [runs[2], runs[0], runs[1]]  # neural, bm25, lm: not in the order of any mean
    page = folder / "report.html"
    # two collections of the same runs: the section across collections and its forest plots
    spec = {}
    for name, seed in (("A", 8), ("B", 9)):
        where = folder / name
        where.mkdir()
        other_qrels, other_runs = write_collection(where, seed=seed)
        spec[name] = f"{name}={other_qrels},{','.join(map(str, other_runs))}"
    confusion = folder / "judges.txt"  # the section on judge noise (grades 0, 1, 2)
    confusion.write_text("0 0 0.8\n0 1 0.2\n1 0 0.2\n1 1 0.6\n1 2 0.2\n2 1 0.3\n2 2 0.7\n")
    _run(["report", str(qrels), *map(str, runs), "-m", "map", "-m", "P.10",
          "--baseline", "bm25", "--scale-depth", "5", "--collection", spec["A"],
          "--collection", spec["B"], "--confusion", str(confusion), "--replicates", "20",
          "-o", str(page)])
    evaluated = _run(["eval", "-m", "map", "-m", "P.10", str(qrels), *map(str, runs)])
    expected = {}
    for line in evaluated.splitlines():
        measure, _, value, run = line.split()
        expected[(run, measure)] = value
    return page, expected


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


def _open(browser, page_path: Path, *, javascript: bool = True):
    context = browser.new_context(java_script_enabled=javascript,
                                  viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    def only_the_file(route):
        if route.request.url == page_path.as_uri():
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_the_file)
    page.goto(page_path.as_uri())
    return context, page, requests


def _summary(page) -> list[tuple[str, dict[str, str]]]:
    rows = page.eval_on_selector_all(
        "#summary tbody tr",
        """rows => rows.map(r => [r.querySelector('th').dataset.run,
             Array.from(r.querySelectorAll('td')).map(
                 c => [c.dataset.measure, c.querySelector('.v').textContent])])""")
    return [(run, dict(cells)) for run, cells in rows]


def test_table_values_are_those_of_irscale_eval(browser, report):
    page_path, expected = report
    context, page, requests = _open(browser, page_path)
    try:
        rows = _summary(page)
        assert [run for run, _ in rows] == ["neural", "bm25", "lm"]  # as given
        shown = {(run, measure): text for run, cells in rows for measure, text in cells.items()}
        assert shown == expected
        assert requests == [page_path.as_uri()]  # nothing but the file itself
    finally:
        context.close()


def test_every_mean_shows_its_interval_by_default(browser, report, tmp_path):
    """The report's summary carries each mean's 95% t interval (no option asked for it):
    the one ``irscale eval --ci t`` prints (checked against scipy in
    tests/test_mean_intervals.py), also after a click sorts the table."""
    page_path, _ = report
    qrels, runs = write_collection(tmp_path)  # the report's collection (seeded)
    printed = _run(["eval", "-m", "map", "-m", "P.10", "--ci", "t", "--format", "csv",
                    str(qrels), *map(str, runs)])
    expected = {}
    for line in printed.splitlines()[1:]:
        run, measure, _, low, high = line.split(",")
        expected[(run, measure)] = f"[{float(low):.4f}, {float(high):.4f}]"
    context, page, _ = _open(browser, page_path)
    try:
        for click in (False, True):
            if click:
                page.click("#summary thead th:nth-child(2)")
            rows = page.eval_on_selector_all(
                "#summary tbody tr",
                """rows => rows.map(r => [r.querySelector('th').dataset.run,
                     Array.from(r.querySelectorAll('td')).map(
                         c => [c.dataset.measure, c.querySelector('.ci').textContent])])""")
            shown = {(run, measure): text for run, cells in rows for measure, text in cells}
            assert shown == expected
    finally:
        context.close()


def test_a_click_on_a_header_sorts_the_table(browser, report):
    page_path, expected = report
    context, page, _ = _open(browser, page_path)
    try:
        before = [run for run, _ in _summary(page)]
        page.click("#summary thead th:nth-child(2)")  # map
        after = [run for run, _ in _summary(page)]
        by_map = sorted(before, key=lambda run: float(expected[(run, "map")]))
        assert after == by_map and after != before
        page.click("#summary thead th:nth-child(2)")
        assert [run for run, _ in _summary(page)] == by_map[::-1]
        assert page.get_attribute("#summary thead th:nth-child(2)", "aria-sort") == \
            "descending"
    finally:
        context.close()


def test_every_figure_has_a_size_and_a_screenshot_is_saved(browser, report):
    page_path, _ = report
    context, page, requests = _open(browser, page_path)
    try:
        sizes = page.eval_on_selector_all(
            "svg, img", "els => els.map(e => { const r = e.getBoundingClientRect(); "
            "return [r.width, r.height]; })")
        # per measure: residuals' Q-Q plot, Tukey intervals, box plot, differences, the
        # forest plot across collections; one PR curve
        assert len(sizes) == 2 * 5 + 1
        assert all(w > 0 and h > 0 for w, h in sizes), sizes
        RESULTS.mkdir(parents=True, exist_ok=True)
        shot = RESULTS / "report_screenshot.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert requests == [page_path.as_uri()]
    finally:
        context.close()


def test_the_page_reads_the_same_without_javascript(browser, report):
    page_path, expected = report
    context, page, _ = _open(browser, page_path, javascript=False)
    try:
        rows = _summary(page)  # evaluated by Playwright, not by the page's scripts
        assert {(run, m): t for run, cells in rows for m, t in cells.items()} == expected
        page.click("#summary thead th:nth-child(2)")
        assert [run for run, _ in _summary(page)] == ["neural", "bm25", "lm"]  # unsorted
        assert page.is_visible("#anova") and page.is_visible("#reproducibility")
    finally:
        context.close()


def test_the_contents_lead_to_every_section(browser, report):
    """The table of contents links every section of the page, the one on judge noise
    among them; a click on its link scrolls to it, whose tables have a verdict per
    conclusion of the Tukey HSD and per conclusion against the baseline."""
    page_path, _ = report
    context, page, _ = _open(browser, page_path)
    try:
        links = page.eval_on_selector_all("#contents a", "as => as.map(a => a.hash)")
        sections = page.eval_on_selector_all("section", "ss => ss.map(s => '#' + s.id)")
        assert links == sections and "#judge-noise-section" in links
        page.click('#contents a[href="#judge-noise-section"]')
        page.wait_for_function("location.hash === '#judge-noise-section'")
        top = page.eval_on_selector("#judge-noise-section",
                                    "s => s.getBoundingClientRect().top")
        assert abs(top) < 5, top
        verdicts = page.eval_on_selector_all("#judge-noise tbody tr td:last-child",
                                             "cs => cs.map(c => c.textContent)")
        assert len(verdicts) == 6 and set(verdicts) <= {"robust", "fragile"}
        against = page.eval_on_selector_all("#judge-noise-baseline tbody tr td:last-child",
                                            "cs => cs.map(c => c.textContent)")
        assert len(against) == 4 and set(against) <= {"robust", "fragile"}  # 2 runs × 2
    finally:
        context.close()


def test_page_is_self_contained(report):
    """Besides the namespace names of the SVG elements, the page names no address and
    loads nothing (no link, src or import)."""
    text = report[0].read_text(encoding="utf-8")
    text = re.sub(r'xmlns(:\w+)?="[^"]*"', "", text)
    for needle in ("http:", "https:", "<link", "src=", "@import", "url(http"):
        assert needle not in text, needle
    assert os.path.getsize(report[0]) < 5_000_000


def _per_topic(report_path: Path, measure: str) -> dict[tuple[str, str], str]:
    """``{(run, topic): value}`` of ``irscale eval -q`` on the report's collection."""
    folder = report_path.parent
    runs = [str(folder / f"{name}.run") for name in ("neural", "bm25", "lm")]
    printed = _run(["eval", "-q", "-m", measure, str(folder / "qrels"), *runs])
    values = {}
    for line in printed.splitlines():
        _, topic, value, run = line.split()
        if topic != "all":
            values[(run, topic)] = value
    return values


def _drill_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#drill tbody tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent))")


def test_the_drill_down_shows_any_two_runs_per_topic(browser, report):
    page_path, _ = report
    context, page, _ = _open(browser, page_path)
    try:
        page.select_option("#drill-a", "lm")
        page.select_option("#drill-b", "neural")
        page.select_option("#drill-measure", "P_10")
        rows = _drill_rows(page)
        values = _per_topic(page_path, "P.10")
        assert len(rows) == len({topic for _, topic in values})
        wins = losses = 0
        for topic, a, b, difference in rows:
            assert float(a) == pytest.approx(float(values[("lm", topic)]), abs=5e-5)
            assert float(b) == pytest.approx(float(values[("neural", topic)]), abs=5e-5)
            assert float(difference) == pytest.approx(float(a) - float(b), abs=2e-4)
            wins, losses = wins + (float(difference) > 0), losses + (float(difference) < 0)
        headers = page.eval_on_selector_all("#drill thead th", "hs => hs.map(h => h.textContent)")
        assert headers == ["topic", "lm", "neural", "lm − neural"]
        summary = page.text_content("#drill-summary")
        assert f"lm against neural on P_10: {wins} topics won" in summary
        assert f"{losses} lost" in summary
        page.click("#drill thead th:nth-child(4)")  # the redrawn table still sorts
        shown = [float(row[3]) for row in _drill_rows(page)]
        assert shown == sorted(shown)
    finally:
        context.close()


def test_the_scale_toggle_switches_to_the_interval_scaled_means(browser, report):
    page_path, _ = report
    context, page, _ = _open(browser, page_path)
    try:
        def cells():
            return page.eval_on_selector_all(
                "#scaled td[data-m]", "cs => cs.map(c => [c.textContent, c.dataset.m, "
                "c.dataset.r])")
        before = cells()
        assert before and all(abs(float(t) - float(m)) < 1e-4 for t, m, _ in before)
        page.click("#scale-toggle")
        after = cells()
        assert all(abs(float(t) - float(r)) < 1e-4 for t, _, r in after)
        assert any(m != r for _, m, r in after)
        headers = page.eval_on_selector_all("#scaled thead th[data-m]",
                                            "hs => hs.map(h => h.textContent)")
        assert all("_R (N = " in h for h in headers)
        page.click("#scale-toggle")
        assert cells() == before
    finally:
        context.close()


def _scaled_table(page) -> dict[tuple[str, int], float]:
    """(run, column) → the number the scale table shows."""
    rows = page.eval_on_selector_all(
        "#scaled tbody tr", "rs => rs.map(r => [r.cells[0].textContent, Array.from("
        "r.querySelectorAll('td[data-m]')).map(c => c.textContent)])")
    return {(run, j): float(text) for run, cells in rows for j, text in enumerate(cells)}


def test_the_toggle_shows_the_numbers_of_eval_and_scale_transform(browser, report):
    """Both states of the toggle against other tools: map at the panel's N = 5 is trec_eval's
    map of the runs cut at 5 (``irscale eval -M 5``), its interval-scaled mean the one
    ``irscale scale transform -N 5`` prints; P@10's interval-scaled value is the rank of its
    value among the 11 values k/10 of the scale (1 + 10·P@10, Ferrante et al. 2021)."""
    page_path, expected = report
    folder = page_path.parent
    runs = [str(folder / f"{name}.run") for name in ("neural", "bm25", "lm")]
    cut = {}
    for line in _run(["eval", "-M", "5", "-m", "map", str(folder / "qrels"), *runs]
                     ).splitlines():
        _, _, value, run = line.split()
        cut[run] = float(value)
    transformed = pd.read_csv(io.StringIO(_run(
        ["scale", "transform", str(folder / "qrels"), *runs, "-m", "map", "-N", "5",
         "--format", "csv", "--summary-only", "--no-progress"])))
    ranked = {row.run: row.value for row in transformed.itertuples() if row.measure == "map_R"}
    context, page, _ = _open(browser, page_path)
    try:
        headers = page.eval_on_selector_all("#scaled thead th[data-m]",
                                            "hs => hs.map(h => h.textContent)")
        assert headers == ["map (N = 5)", "P_10 (N = 10)"]
        before = _scaled_table(page)
        page.click("#scale-toggle")
        after = _scaled_table(page)
        for run in ("neural", "bm25", "lm"):
            precision = float(expected[(run, "P_10")])
            assert before[(run, 0)] == pytest.approx(cut[run], abs=5e-5)
            assert before[(run, 1)] == pytest.approx(precision, abs=5e-5)
            assert after[(run, 0)] == pytest.approx(ranked[run], abs=5e-5)
            assert after[(run, 1)] == pytest.approx(1 + 10 * precision, abs=5e-4)
    finally:
        context.close()


def test_without_javascript_the_drill_down_shows_its_first_pair(browser, report):
    page_path, _ = report
    context, page, _ = _open(browser, page_path, javascript=False)
    try:
        rows = _drill_rows(page)
        values = _per_topic(page_path, "map")
        assert [float(row[1]) for row in rows] == pytest.approx(
            [float(values[("bm25", row[0])]) for row in rows], abs=5e-5)  # the baseline
        assert not page.is_visible("#scale-toggle")
    finally:
        context.close()
