"""docs/sessions.md: its Python examples run and print what the page shows (the ``# ...``
lines after each ``print``)."""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "sessions.md"


def test_python_examples_print_what_the_page_shows():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert blocks
    for code in blocks:
        shown = [line[2:] for line in code.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, str(DOC), "exec"), {})
        assert out.getvalue().splitlines() == shown
