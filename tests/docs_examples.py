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


def check_python_examples(page: str, section: str | None = None) -> None:
    """Run every ``python`` block of ``docs/<page>`` (of its ``## section`` only, when
    given: from that heading to the next of the same level) and compare its output with
    the page."""
    doc = DOCS / page
    text = doc.read_text()
    if section is not None:
        start = text.index(f"\n## {section}")
        end = text.find("\n## ", start + 1)
        text = text[start:] if end < 0 else text[start:end]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, f"{page} has no python example" + (f" in {section!r}" if section else "")
    for code in blocks:
        shown = [line[2:] for line in code.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, str(doc), "exec"), {})
        assert out.getvalue().splitlines() == shown
