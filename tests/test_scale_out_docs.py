"""docs/scale-out.md: the Python examples run as written and print what their comments
say (the page states equality of local and Dask results: the comments are the oracle's
verdicts, checked here, not copies of computed numbers)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from .docs_numbers import blocks
from .docs_numbers import read as read_doc
from .oracle_imports import lazy_importorskip

distributed = lazy_importorskip("distributed")  # what the examples start

DOC = Path(__file__).resolve().parents[1] / "docs" / "scale-out.md"
TEXT = read_doc("scale-out.md")
BLOCKS = blocks(TEXT)


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_prints_what_it_says(code):
    stated = [line.split("#", 1)[1].strip() for line in code.splitlines()
              if line.startswith("print(")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "docs_example"})
    assert out.getvalue().split("\n")[:-1] == stated


def test_every_cli_option_of_the_page_exists():
    """The commands the page names take --scheduler (their parsers say so)."""
    from irscale.cli.main import build_parser

    parser = build_parser()
    for argv in (["compare"], ["meta", "dp"], ["meta", "split"], ["meta", "swap"],
                 ["meta", "loo"], ["meta", "simulate"], ["scale", "image"]):
        assert "--scheduler" in _help(parser, argv), argv


def _help(parser, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args([*argv, "--help"])
    return out.getvalue()
