"""The report's section planning the human labels (``build_report(plan_pilot=...)``,
``irscale report --plan-pilot``): its numbers are those of :func:`irscale.labels.plan` for
the same inputs (the report's qrels the judge's labels, its level ``1 − alpha``), in every
design, and its page and tables show them, the unjudged documents' part of the width apart
where the runs retrieve documents the judge does not label and left out where they
retrieve none; its options are refused as the binding declares them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.errors import ParameterError
from irscale.labels import plan
from irscale.report import build_report, format_tables, render_html
from irscale.stats.tables import format_number

MEASURES = ["P@5", "DCG@5"]
PAIRS = ["bm25:dense"]


def _collection(unjudged: bool) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, pd.DataFrame]]:
    """A judge's labels of 12 topics × 20 documents, people's labels of a pilot of 80 of
    them (the judge wrong on 40% of the pairs it calls relevant and 8% of the others), and
    three runs ranking every pair (with ``unjudged``: two documents per topic besides, which
    the judge does not label)."""
    rng = np.random.default_rng(3)
    pairs = pd.DataFrame([(str(t), f"d{d}") for t in range(12) for d in range(20)],
                         columns=["query_id", "doc_id"])
    judge = pairs.assign(relevance=(rng.random(len(pairs)) < 0.3).astype(int))
    wrong = rng.random(len(pairs)) < np.where(judge["relevance"] == 1, 0.4, 0.08)
    truth = judge.assign(relevance=np.where(wrong, 1 - judge["relevance"],
                                            judge["relevance"]))
    retrieved = pairs
    if unjudged:
        extra = pd.DataFrame([(str(t), f"u{d}") for t in range(12) for d in range(2)],
                             columns=["query_id", "doc_id"])
        retrieved = pd.concat([pairs, extra], ignore_index=True)
    runs = {name: retrieved.assign(score=rng.random(len(retrieved)))
            for name in ("bm25", "dense", "hybrid")}
    return judge, truth.sample(80, random_state=1), runs


@pytest.fixture(scope="module", params=[True, False], ids=["unjudged", "all-judged"])
def inputs(request):
    return request.param, _collection(request.param)


@pytest.mark.parametrize("design", ["active", "stratified", "uniform"])
def test_the_sections_numbers_are_the_plans(inputs, design):
    """The report holds :func:`irscale.labels.plan`'s result for the same judge, pilot,
    runs and measures, at the report's level (``alpha=0.1``: 90% intervals)."""
    _, (judge, pilot, runs) = inputs
    report = build_report(judge, runs, MEASURES, alpha=0.1, robustness=False,
                          plan_pilot=pilot, plan_width=0.3, plan_design=design,
                          plan_pairs=PAIRS)
    expected = plan(judge, pilot, runs, MEASURES, width=0.3, confidence=0.9, design=design,
                    pairs=PAIRS)
    found = report.plan
    pd.testing.assert_frame_equal(found.estimates, expected.estimates)
    pd.testing.assert_frame_equal(found.topics, expected.topics)
    assert (found.labels, found.more, found.pilot, found.pairs, found.design) == \
        (expected.labels, expected.more, expected.pilot, expected.pairs, design)
    assert found.confidence == pytest.approx(0.9) and found.width == 0.3
    assert list(found.estimates["system"]) == ["bm25", "dense", "hybrid", "bm25 − dense"] * 2


def test_the_uniform_share_reaches_the_plan(inputs):
    _, (judge, pilot, runs) = inputs
    report = build_report(judge, runs, ["P@5"], robustness=False, plan_pilot=pilot,
                          plan_width=0.3, plan_uniform_share=0.1)
    expected = plan(judge, pilot, runs, ["P@5"], width=0.3, uniform_share=0.1)
    pd.testing.assert_frame_equal(report.plan.estimates, expected.estimates)


def test_the_page_and_the_tables_show_them(inputs):
    """Every estimate's labels and widths, the totals and the new labels by topic, in the
    page (its section listed in the contents) and in the Markdown and LaTeX tables; the
    unjudged documents' columns only where the runs retrieve such documents."""
    unjudged, (judge, pilot, runs) = inputs
    report = build_report(judge, runs, ["P@5"], robustness=False, plan_pilot=pilot,
                          plan_width=0.3, plan_pairs=PAIRS)
    found = report.plan
    assert (found.estimates["unjudged_width"] > 0).any() == unjudged
    numbers = [format_number(float(v), 4) for column in
               ("automatic", "pilot_width", "sampling_width")
               for v in found.estimates[column]]
    numbers += [format_number(float(v), 4) for v in found.topics["more"]]
    page = render_html(report)
    section = page[page.index('<section id="labels-plan">'):]
    section = section[:section.index("</section>")]
    markdown = format_tables(report, "markdown")
    latex = format_tables(report, "latex")
    for text in (section, markdown, latex):
        assert all(number in text for number in numbers)
        assert f"| {found.labels} |" in text or f"<strong>{found.labels}</strong>" in text \
            or f"& {found.labels} \\\\" in text
        assert ("unjudged_width" in text or "unjudged\\_width" in text) == unjudged
    assert '<a href="#labels-plan">Human labels planned</a>' in page
    assert f"needs <strong>{found.labels}</strong> human labels in all, <strong>" \
           f"{found.more}</strong> beyond the pilot's" in section
    said = "they can widen an interval by unjudged_width" if unjudged else \
        "The runs retrieve no document the judge leaves unlabelled"
    assert said in section
    assert "Human labels planned in all (active design; 95% intervals 0.3 wide)" in markdown
    assert "bm25 - dense" in latex and "bm25 − dense" in markdown


def test_out_of_the_report_without_a_pilot(inputs):
    _, (judge, _, runs) = inputs
    report = build_report(judge, runs, ["P@5"], robustness=False)
    assert report.plan is None
    assert 'id="labels-plan"' not in render_html(report)
    assert "Human labels planned" not in format_tables(report, "markdown")


@pytest.mark.parametrize(("options", "words"), [
    ({"plan_width": None}, "needs plan_width="),
    ({"plan_pilot": None}, "plan_width= applies to the plan of human labels"),
    ({"plan_width": 0.0}, "plan_width must be a positive number"),
    ({"plan_design": "best"}, "unknown label design 'best'"),
    ({"plan_design": "uniform", "plan_uniform_share": 0.2}, "plan_uniform_share="),
    ({"plan_pairs": ["bm25:nosuch"]}, "plan_pairs: 'bm25:nosuch': run 'nosuch' names no run"),
    ({"plan_pairs": ["bm25:bm25"]}, "plan_pairs: 'bm25:bm25' names one run twice"),
    ({"plan_pairs": ["bm25"]}, "plan_pairs: a pair of runs takes A:B"),
])
def test_refusals(inputs, options, words):
    _, (judge, pilot, runs) = inputs
    call = {"plan_pilot": pilot, "plan_width": 0.3, **options}
    with pytest.raises(ParameterError, match=words):
        build_report(judge, runs, ["P@5"], robustness=False, **call)


def test_not_with_automatic_judgments(inputs):
    """``automatic`` makes the qrels a human sample; the plan reads them as the judge's."""
    _, (judge, pilot, runs) = inputs
    with pytest.raises(ParameterError, match="plan_pilot= applies without automatic="):
        build_report(pilot, runs, ["P@5"], robustness=False, automatic=judge,
                     design="uniform", plan_pilot=pilot, plan_width=0.3)


def test_a_measure_that_is_not_a_sum_is_named(inputs):
    _, (judge, pilot, runs) = inputs
    with pytest.raises(ParameterError, match="map: its per-topic value is not a sum"):
        build_report(judge, runs, ["P@5", "map"], robustness=False, plan_pilot=pilot,
                     plan_width=0.3)
