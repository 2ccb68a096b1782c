"""docs/api/irscale.md, the API reference's first page: it opens on the calls of an
experiment, and each of its Python examples, run in a folder where ``irscale demo`` wrote
its collection, prints what the page shows."""

from __future__ import annotations

import re

from .docs_examples import DOCS, check_python_examples
from .test_cli_eval import cli

PAGE = "irscale.md"


def test_the_examples_print_what_the_page_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = cli(["demo"])
    assert status == 0, err
    check_python_examples(f"api/{PAGE}")
    assert (tmp_path / "table.tex").read_text(encoding="utf-8").startswith("\\begin{table}")


def test_the_page_opens_on_the_calls_and_ends_with_the_reference():
    text = (DOCS / "api" / PAGE).read_text(encoding="utf-8")
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[-1] == "Reference" and len(headings) == 6
    first = headings[:5]
    for name in ("read_qrels", "evaluate", "Evaluation.compare", "tukey_hsd",
                 "Evaluation.format"):
        assert any(f"`{name}`" in heading for heading in first), name
    assert text.index("::: irscale") > text.index("## Reference")
    reference = text[text.index("## Reference"):]
    assert reference.index("- evaluate\n") < reference.index("- IrscaleError")
