"""Running a documentation page's Python examples: each fenced ``python`` block is executed
on its own and must print exactly the ``# ...`` lines it shows (the lines after each
``print``)."""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def check_python_examples(page: str) -> None:
    """Run every ``python`` block of ``docs/<page>`` and compare its output with the page."""
    doc = DOCS / page
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert blocks, f"{page} has no python example"
    for code in blocks:
        shown = [line[2:] for line in code.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, str(doc), "exec"), {})
        assert out.getvalue().splitlines() == shown
