"""docs/fusion.md: its Python examples run and print what the page shows."""

from .docs_examples import check_python_examples


def test_python_examples_print_what_the_page_shows():
    check_python_examples("fusion.md")
