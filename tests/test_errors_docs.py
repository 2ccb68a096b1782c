"""docs/errors.md's examples of the Python API's edge (section 8): each ``>>>`` call raises
the exception the page shows, with the message shown, word for word."""

from __future__ import annotations

import itertools
import re

import pandas as pd
import pytest

import irscale
from irscale.errors import IrscaleError

from .docs_examples import DOCS

PAGE = "errors.md"


def _examples() -> list[tuple[str, str, str]]:
    """(call, exception class, message) of every ``>>>`` line of the page's python blocks."""
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for call, shown in itertools.pairwise(lines):
            if call.startswith(">>> "):
                kind, message = shown.split(": ", 1)
                examples.append((call[4:].split("  #")[0], kind, message))
    return examples


def test_the_page_has_examples():
    assert len(_examples()) >= 3


@pytest.mark.parametrize(("call", "kind", "message"), _examples())
def test_each_call_raises_what_the_page_shows(call, kind, message):
    with pytest.raises(IrscaleError) as raised:
        eval(call, {"irscale": irscale, "pd": pd})
    assert type(raised.value).__name__ == kind
    assert str(raised.value) == message
