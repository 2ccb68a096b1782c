"""docs/scales.md: the Python examples run as written (from the repository root), and the
numbers the page states are what the code gives — the outputs written as comments in the
examples (``print(dcg.n_runs, dcg.n_distinct)  # 16 12``) and the counts and ranges of the
text. The expected numbers are read from the page (:mod:`tests.docs_numbers`)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from irscale.scales import scale
from irscale.scales.diagnostics import summarize

from .docs_numbers import blocks, numbers, paragraph
from .docs_numbers import read as read_doc

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "scales.md"
TEXT = read_doc("scales.md")
BLOCKS = blocks(TEXT)
#: An output comment: nothing but numbers, brackets and spaces (``# [ 9  9 12]``).
OUTPUT = re.compile(r"^[\[\]()\d\s.,-]+$")


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, monkeypatch, capsys, request):
    if "shared/data" in code:
        request.getfixturevalue("clef")  # skips when ../shared/data is absent
    monkeypatch.chdir(ROOT)  # the examples name ../shared/data relative to the repository
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out


def _documented_outputs(code: str) -> list[tuple[str, str]]:
    """``(expression, stated output)`` of the lines ``print(expression)  # output``."""
    found = []
    for line in code.splitlines():
        if line.startswith("print(") and "#" in line:
            source, stated = (part.strip() for part in line.split("#", 1))
            if OUTPUT.match(stated):
                found.append((source[len("print("):-1], stated))
    return found


def test_documented_outputs_of_example_12():
    """seed 000 Example 12: ``16 12``, ``[ 9  9 12]``, ``[12 11 10  9  2  1]``, each
    computed by the call the page shows."""
    code = next(code for code in BLOCKS if "Example 12" in code)
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    outputs = _documented_outputs(code)
    assert len(outputs) == 3
    for expression, stated in outputs:
        value = eval(expression, namespace)
        text = " ".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
        assert numbers(text) == numbers(stated), (expression, text, stated)


def test_documented_count_of_dcg_values():
    """"DCG_b02 at N = 30 has 24·8·4·2^20 = 805,306,368 distinct values"."""
    text = paragraph(TEXT, "distinct values. Within a")
    n, product, count = re.search(
        r"DCG_b02 at N = (\d+) has ([\d·^]+) = ([\d,]+) distinct values", text).groups()
    factors = [int(b) ** int(e) if "^" in f else int(f)
               for f in product.split("·") for b, _, e in [f.partition("^")]]
    assert math.prod(factors) == int(count.replace(",", ""))
    assert scale("DCG_b02", int(n)).n_distinct == int(count.replace(",", ""))


def test_documented_count_of_binary_rbp_values():
    """"binary RBP never ties, for any rational p (2^30 values at N = 30)"."""
    text = paragraph(TEXT, "binary RBP never ties")
    base, exponent, n = re.search(r"\((\d+)\^(\d+) values at N = (\d+)\)", text).groups()
    for name in ("RBP_p05", "RBP_p08"):
        assert scale(name, int(n)).n_distinct == int(base) ** int(exponent), name


def test_documented_unused_ranges():
    """"at N = 4 AP leaves the top quarter unused, RR the top half"."""
    text = paragraph(TEXT, "leaves the top")
    n = int(re.search(r"at N = (\d+) AP leaves", text)[1])
    shares = {"quarter": 0.25, "half": 0.5}
    stated = re.findall(r"(AP|RR)(?: leaves)? the top (quarter|half)", text)
    assert [measure for measure, _ in stated] == ["AP", "RR"]
    for measure, share in stated:
        summary = summarize(scale(measure, n))
        assert summary.largest_gap[1] == summary.max_value, measure  # the top of the range
        assert summary.largest_gap_fraction == shares[share], measure
