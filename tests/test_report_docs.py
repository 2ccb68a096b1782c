"""docs/report.md: the Python examples run and print what the page shows."""

from __future__ import annotations

from .docs_examples import check_python_examples


def test_report_page_examples():
    check_python_examples("report.md")
