"""docs/index.md, the site's home page: its ``$ irscale ...`` commands run in order in a new
folder (``irscale demo`` first) and print the lines the page shows, and its Python example,
run in that folder afterwards, prints what it shows."""

from __future__ import annotations

from .docs_examples import check_python_examples, check_shown_outputs, run_shell_example
from .docs_numbers import blocks, read

PAGE = "index.md"


def test_the_home_page_examples_print_what_they_show(tmp_path, monkeypatch):
    [console] = blocks(read(PAGE), "console")
    assert console.startswith("$ irscale demo")
    check_shown_outputs(console, run_shell_example(console, tmp_path))
    monkeypatch.chdir(tmp_path)
    check_python_examples(PAGE)
