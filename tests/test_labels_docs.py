"""docs/labels.md: the worked example prints what its comments say."""

from __future__ import annotations

from .docs_examples import check_python_examples


def test_python_example_prints_its_comments():
    check_python_examples("labels.md")
