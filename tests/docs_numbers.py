"""Reading the numbers the documentation states, for the docs tests (``tests/test_*_docs.py``).

The docs tests take the expected numbers from the documents themselves — code comments
(``print(x)  # 3423 8256 0.0515``), sentences (``τ(AP, P@10) = 0.8266``) and Markdown
tables — rather than from copies in the tests, so that a document and the code cannot drift
apart unnoticed. A stated number is matched at the precision it is written with:
``0.8266`` holds for any value that rounds to it, ``71.6%`` for a share in
[71.55%, 71.65%].
"""

from __future__ import annotations

import math
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"

#: A number as the docs write it: thousands separators, a Unicode minus, an exponent.
NUMBER = re.compile(r"[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def blocks(text: str, language: str = "python") -> list[str]:
    """The fenced code blocks of one language (``""``: fences without a language), in order."""
    found: list[str] = []
    current: list[str] | None = None
    fence_language = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, fence_language = [], line[3:].strip()
            else:
                if fence_language == language:
                    found.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return found


def comment(block: str, code: str) -> str:
    """The trailing ``# comment`` of the (only) line of ``block`` that starts with ``code``."""
    lines = [line for line in block.splitlines() if line.strip().startswith(code)]
    assert len(lines) == 1, f"{len(lines)} lines start with {code!r}"
    assert "#" in lines[0], f"no comment on {lines[0]!r}"
    return lines[0].split("#", 1)[1].strip()


def printed(block: str, code: str) -> tuple[str, str]:
    """``(expression, comment)`` of the line ``print(expression)  # comment`` of ``block``
    that starts with ``print(`` + ``code``: the call as documented and what it prints."""
    line = next(line for line in block.splitlines() if line.startswith("print(" + code))
    source, stated = line.split("#", 1)
    source = source.strip()
    assert source.endswith(")"), source
    return source[len("print("):-1], stated.strip()


def numbers(text: str) -> list[str]:
    """The numbers written in ``text`` (as written, normalised: no separators, ASCII minus)."""
    return [m.replace(",", "").replace("−", "-") for m in NUMBER.findall(text)]


def number_after(text: str, label: str) -> str:
    """The first number after the first occurrence of ``label`` in ``text``."""
    start = text.index(label) + len(label)
    found = numbers(text[start:])
    assert found, f"no number after {label!r}"
    return found[0]


def paragraph(text: str, anchor: str) -> str:
    """The paragraph (text between blank lines) that contains ``anchor``, on one line."""
    for part in re.split(r"\n\s*\n", text):
        if anchor in part:
            return " ".join(part.split())
    raise AssertionError(f"no paragraph contains {anchor!r}")


def table(text: str, anchor: str) -> list[dict[str, str]]:
    """The rows of the first Markdown table after the line containing ``anchor``, as dicts
    keyed by the header cells (cells stripped, ``**bold**`` unwrapped)."""
    lines = text[text.index(anchor):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = line.strip().strip("|").split("|")
        rows.append([cell.strip().strip("*").strip() for cell in cells])
    header, body = rows[0], rows[2:]  # rows[1] is the |---| line
    return [dict(zip(header, row, strict=True)) for row in body]


def decimals(stated: str) -> int:
    return len(stated.split(".")[1]) if "." in stated and "e" not in stated else 0


def close(stated: str, value: float, *, scale: float = 1.0) -> bool:
    """Whether ``value`` (times ``scale``, e.g. 100 for a percentage) is what ``stated``
    says, at its precision: it rounds to the stated digits (half a unit of the last digit,
    plus a little for the binary representation), or for ``1.7e-52`` to two significant
    digits."""
    stated = stated.replace(",", "").replace("−", "-").rstrip("%")
    target = float(stated)
    value = float(value) * scale
    if "e" in stated.lower():
        mantissa = stated.lower().split("e")[0]
        unit = 10.0 ** (math.floor(math.log10(abs(target))) - decimals(mantissa))
    else:
        unit = 10.0 ** -decimals(stated)
    return abs(value - target) <= unit / 2 + 1e-9 * max(1.0, abs(target))


def assert_close(stated: str, value: float, what: str = "", *, scale: float = 1.0) -> None:
    assert close(stated, value, scale=scale), f"{what}: the docs state {stated}, got {value!r}"
