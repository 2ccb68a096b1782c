"""docs/online.md: every Python example prints the ``# ...`` lines it shows."""

from __future__ import annotations

from .docs_examples import check_python_examples


def test_online_examples_print_what_the_page_shows():
    check_python_examples("online.md")
